"""Self-play tuning of a bot's parameters: ``demos-sim tune-bot``.

What a game lets tune-bot tune is the game's own (:class:`demos_sim.game.Game`:
``tune_space``, ``tunable``, ``tunes_in_place``, ``tune_warm``, ``write_tuned``), so this
module names no game. Two games have tunable bots. **DĒMOS** (below): the ``tuned`` rung.
**L'Assemblée**: the ``adaptive`` persona, a *best response* to a population — the persona
kernel's parameters (``demos_sim.assemblee.game.TUNE_SPACE``: bids, reserve, attacks,
pledging rule, ostracism, votes …) tuned
for one seat among ``--against`` (e.g. a city of ``civic`` players), so "does free riding
pay?" can be asked of a player who adapts. There a trial is scored by
:func:`seat_player`: on each deal the candidate takes every seat in turn, the others
playing the population, against the population alone on the same deal; its "win share"
is its wins over its own plus the population player's wins at the same seats (0.5 = as
good as a member of the population in its place). The result is a personas table
(``demos_sim/assemblee/adaptive.toml``, written by the game's ``write_tuned``).

The ``tuned`` rung of the skill ladder is ``heuristic``'s function with a parameter vector
found here and stored as data (``demos_sim/demos/policies/tuned.toml``, registered by
:mod:`demos_sim.demos.policies.tuned`). The search tunes the continuous and integer
behaviour parameters of ``demos_sim.demos.game.TUNE_SPACE`` (veto threshold and its moves, utility floor,
look-ahead, shape weight, Media samples …) of a policy that uses ``heuristic``'s
parameter indices (``heuristic``, ``search``, ``tuned``); never the flags (``noveto``,
``notake``, ``nomedia``, ``legacy``), which stay as the policy has them.

Method
------
1. **Search on common random numbers.** optuna's seeded TPE sampler (multivariate)
   proposes parameter vectors; every trial plays a seat-rotated two-policy match
   (:func:`demos_sim.tournament.match`: every rotation of the candidate and the opponent
   over the sides, on common deals) against each policy of the *field*, on the **same
   deals** ``0 … games-1`` of the search seed for every trial, so two trials differ by
   their parameters only. The trial's objective is the mean over the field of the
   candidate's win share (0.5 = as good as that opponent). The policy's own vector is the
   first trial; a vector already played is not played again (same deals, same result).

   *Why TPE and not CMA-ES.* On fixed deals the objective is piecewise constant in most
   parameters (the veto threshold and the utility floor are compared with whole hand
   points, the sample count is an integer), and a budget of 100–200 trials in 11–12
   dimensions is only ~10–15 CMA-ES generations: too few for its covariance adaptation,
   and its step-size control stalls on plateaus. TPE models where the good trials lie
   without assuming a smooth landscape, takes integer and stepped parameters as they are,
   is what the rule tuner (:mod:`demos_sim.tuner.search`) already uses with the same
   determinism, and needs no package outside the project's dependencies (optuna's
   CMA-ES sampler needs ``cmaes``).
2. **Racing on fresh deals.** The ``top`` best distinct vectors of the search and the
   policy's own vector are played again on deals the search never used (a new deal seed
   per round), the deals doubling each round while the worse half is dropped, down to two
   finalists; a vector's racing score is over all its racing deals so far, and the own
   vector is played every round as the reference (eliminated or not). The winner is the
   finalist with the higher racing score: a vector that was only lucky on the search's
   deals loses here.
3. **Confirmation on more fresh deals.** The winner against the policy itself (the gain
   over ``heuristic``) and against every other policy of the field, on a deal seed used
   by neither the search nor the race: win share with its 95% delta-method interval and
   the paired wins per game (:meth:`demos_sim.tournament.Match.summary`).

Deal streams: the search plays seed ``seed``; racing round ``r`` and the confirmation
play seeds derived from it (:func:`deal_seed`, ``SeedSequence([seed, stage, r])``), so
their deals are disjoint from the search's (the game keys differ). Everything is
deterministic for a given seed. The result (the game's ``write_tuned``: DĒMOS's
``tuned.toml``) holds the full parameter vector,
the seeds, trials, deals, the field, the configuration, the rules contract, the git
revision and the confirmation figures.

``play(vector, opponent, seed, deals) -> (a, b)`` replaces the games (the per-deal win
sums of the candidate and of the opponent, as :class:`demos_sim.tournament.Match` holds
them): the tests plant a lucky vector with it.
"""

from __future__ import annotations

import contextlib
import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from demos_sim import ConfigError

CANDIDATE = "tune-bot-candidate"   # the registry name a candidate plays under, for a while


def deal_seed(seed: int, stage: str, r: int = 0) -> int:
    """The deal seed of a stage: ``search`` plays ``seed`` itself; racing round ``r``
    (``race``) and the confirmation (``confirm``) play seeds derived from it."""
    if stage == "search":
        return int(seed)
    k = {"race": 1, "confirm": 2}[stage]
    return int(np.random.SeedSequence([int(seed), k, int(r)]).generate_state(1, np.uint32)[0])


def space_for(config, game: str = "demos", names=None) -> dict:
    """The searched parameters: the game's :meth:`~demos_sim.game.Game.tune_space` for
    ``config``'s mode (DĒMOS: less the parameters that act only in team modes, and less
    those searched only when named). ``names`` (``--params``): only those, in the space's
    order; the others keep the policy's own values. An unknown name, or one that does
    nothing in this mode, is a :class:`ConfigError` naming it."""
    from demos_sim.game import get_game

    ad = get_game(game)
    full = ad.tune_space(team=True)
    space = ad.tune_space(team=getattr(config, "mode", "individual") != "individual")
    if names is None:
        return {n: v for n, v in space.items() if n not in ad.tune_named_only}
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise ConfigError("--params needs at least one parameter name")
    for n in names:
        if n not in full:
            raise ConfigError(f"--params: unknown parameter {n!r} (known: {', '.join(full)})")
        if n not in space:
            raise ConfigError(f"--params: {n!r} does nothing in individual games")
    return {n: v for n, v in space.items() if n in names}


def _key(vec: np.ndarray) -> tuple:
    return tuple(float(x) for x in vec)


def _values(vec: np.ndarray, space: dict) -> dict:
    out = {}
    for n, (i, lo, hi, step) in space.items():
        out[n] = int(vec[i]) if isinstance(lo, int) else float(vec[i])
    return out


def _with(base: np.ndarray, values: dict, space: dict) -> np.ndarray:
    v = base.copy()
    for n, x in values.items():
        v[space[n][0]] = float(x)
    return v


def _registry(game: str):
    from demos_sim.game import get_game

    return get_game(game).policies.REGISTRY


@contextlib.contextmanager
def candidate(policy: str, vec: np.ndarray, game: str = "demos"):
    """Register ``policy``'s function with the parameters ``vec`` as :data:`CANDIDATE`
    (its restricted forms too) for the duration of the block."""
    REGISTRY = _registry(game)
    base = REGISTRY.get(policy)
    REGISTRY.register(CANDIDATE, params=tuple(vec), description="a tune-bot candidate",
                      flags=base.flags, budget=base.budget)(base.fn)
    try:
        yield CANDIDATE
    finally:
        REGISTRY.unregister(CANDIDATE)


def match_player(game: str, config, policy: str, plugins: tuple = ()) -> Callable:
    """``play(vec, opponent, seed, deals) -> (a, b)``: a seat-rotated match of ``policy``
    with the parameters ``vec`` against ``opponent`` on deals ``0 … deals-1`` of ``seed``."""
    from demos_sim.tournament import match

    def play(vec, opponent, seed, deals):
        with candidate(policy, vec, game) as name:
            m = match(game, config, name, opponent, deals, seed, plugins)
        return m.a, m.b

    return play


def seat_player(game: str, config, policy: str, plugins: tuple = ()) -> Callable:
    """``play(vec, population, seed, deals) -> (a, b)`` for a best response: on every deal
    ``0 … deals-1`` of ``seed`` the candidate (``policy`` with ``vec``) sits at each seat in
    turn among ``population`` players; ``a`` sums its M1 win shares over those games, ``b``
    the population player's at the same seat in the all-population game of the deal (so
    ``a / (a + b)`` is 0.5 when the candidate does exactly as well as the player it
    replaces; common deals throughout)."""
    from demos_sim.tournament import in_place

    alone: dict[tuple, np.ndarray] = {}     # the population's own games: the same each trial

    def play(vec, population, seed, deals):
        k = (population, seed, deals)
        if k not in alone:
            alone[k] = in_place(game, config, population, population, deals, seed, plugins)
        b = alone[k]
        with candidate(policy, vec, game) as name:
            a = in_place(game, config, population, name, deals, seed, plugins)
        return a, b

    return play


def field_score(res: dict) -> float:
    """Mean over the field of the candidate's win share (``res``: opponent -> (a, b))."""
    shares = []
    for a, b in res.values():
        s = float(a.sum() + b.sum())
        shares.append(float(a.sum()) / s if s > 0 else 0.5)
    return float(np.mean(shares))


def params_list(vec: np.ndarray) -> list[float]:
    """The parameter vector without its trailing zeros (the registry pads them back)."""
    v = [float(x) for x in vec]
    while v and v[-1] == 0.0:
        v.pop()
    return v


@dataclass
class BotTune:
    """What :func:`tune_bot` found; the game's
    :meth:`~demos_sim.game.Game.write_tuned` writes it."""

    policy: str
    field: list[str]
    game: str
    config: dict
    seed: int
    trials: int
    games: int
    top: int
    race_games: int
    confirm_games: int
    space: dict
    default: np.ndarray
    best: np.ndarray
    search_rows: list[dict]
    race_rows: list[dict]
    race_seeds: list[int]
    confirmation: list[dict]
    wall_s: float
    deals_played: int          # match deals, each played in every rotation
    warm: list = None          # vectors tried right after the default (--warm)
    in_place: bool = False     # scored at one seat among the field (a best response)

    def named(self, vec: np.ndarray) -> dict:
        """The searched parameters of ``vec`` by name (integers as int)."""
        return _values(vec, self.space)

    params_list = staticmethod(params_list)

    def changed(self) -> dict:
        """Tuned parameters whose value moved: name -> (default, tuned)."""
        d, b = self.named(self.default), self.named(self.best)
        return {n: (d[n], b[n]) for n in self.space if d[n] != b[n]}

    def headline(self) -> dict:
        """The confirmation against the policy itself."""
        return self.confirmation[0]


@dataclass
class _Run:
    """One tune-bot run under way: what it plays and the deals it has played."""

    policy: str
    field: list[str]
    space: dict
    default: np.ndarray
    play: Callable
    say: Callable
    played: int = 0

    def evaluate(self, vec, seed, deals) -> dict:
        """The candidate ``vec`` against every policy of the field on ``deals`` deals."""
        res = {}
        for f in self.field:
            a, b = self.play(vec, f, seed, deals)
            res[f] = (np.asarray(a, float), np.asarray(b, float))
            self.played += deals
        return res


def _checked(game: str, config, policy: str, field, numbers: dict, params, in_place: bool,
             play: Callable | None, plugins: tuple, say: Callable) -> _Run:
    """The run of ``policy`` against ``field`` once every input is checked (one-line
    :class:`ConfigError` before any game)."""
    from demos_sim.game import GAMES, get_game

    ad = get_game(game)
    field = [f.strip() for f in field if f.strip()]
    if not ad.tune_space(team=True):
        tunable = [get_game(g).title for g in GAMES if get_game(g).tune_space(team=True)]
        raise ConfigError(f"tune-bot tunes the bots of {' and '.join(tunable)}; "
                          f"--game {game} has no tunable bot")
    if not field:
        raise ConfigError("--against needs at least one policy")
    for n, v in numbers.items():
        if v < 1:
            raise ConfigError(f"{n} must be at least 1, got {v}")
    REGISTRY = _registry(game)
    base = REGISTRY.get(policy)
    for f in field:
        REGISTRY.get(f)
    why = ad.tunable(policy)
    if why is not None:
        raise ConfigError(why)
    space = space_for(config, game, params)
    if play is None:
        scored = seat_player if in_place or ad.tunes_in_place else match_player
        play = scored(game, config, policy, plugins)
    return _Run(policy, field, space, base.params.copy(), play, say)


def _search(run: _Run, trials: int, games: int, seed: int, warm: list) -> list[dict]:
    """Step 1: ``trials`` TPE trials, each on deals ``0 … games-1`` of the search seed,
    the policy's own vector first and the ``warm`` vectors next; one row per trial."""
    import optuna

    space, default = run.space, run.default
    dists = {}
    for n, (i, lo, hi, step) in space.items():
        dists[n] = (optuna.distributions.IntDistribution(lo, hi) if isinstance(lo, int)
                    else optuna.distributions.FloatDistribution(lo, hi, step=step))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.TPESampler(seed=seed, multivariate=True,
                                             n_startup_trials=max(4, min(20, trials // 5)))
    study = optuna.create_study(direction="maximize", sampler=sampler)
    dvals = _values(default, space)
    if all(space[n][1] <= v <= space[n][2] for n, v in dvals.items()):
        study.enqueue_trial(dvals)
    for w in warm:
        wv = _values(w, space)
        out = [n for n, x in wv.items() if not space[n][1] <= x <= space[n][2]]
        if out:
            raise ConfigError(f"--warm vector outside the search space: {', '.join(out)}")
        study.enqueue_trial(wv)
    s_seed = deal_seed(seed, "search")
    run.say(f"tune-bot {run.policy}: TPE search, {trials} trials of {games} deals (seed "
            f"{s_seed}, the same deals for every trial) against {', '.join(run.field)}")
    cache: dict[tuple, float] = {}
    rows = []
    for t in range(trials):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tr = study.ask(dists)
        vec = _with(default, tr.params, space)
        k = _key(vec)
        if k not in cache:
            cache[k] = field_score(run.evaluate(vec, s_seed, games))
        study.tell(tr, cache[k])
        rows.append({"trial": t, **_values(vec, space), "score": cache[k],
                     "is_default": k == _key(default)})
        if (t + 1) % 10 == 0 or t + 1 == trials:
            b = max(rows, key=lambda r: r["score"])
            run.say(f"  {t + 1}/{trials} trials, best so far {b['score']:.4f} (trial "
                    f"{b['trial']}), default {cache.get(_key(default), float('nan')):.4f}")
    return rows


def _race(run: _Run, rows: list[dict], top: int, race_games: int,
          seed: int) -> tuple[np.ndarray, list[dict], list[int]]:
    """Step 2: the ``top`` best distinct vectors of the search and the policy's own on
    fresh deals, doubling each round, the worse half dropped; returns the winner, the
    rows of every round and the round seeds."""
    space, default = run.space, run.default
    order = sorted(rows, key=lambda r: (-r["score"], r["trial"]))
    cands, seen = [], set()
    for r in order:
        vec = _with(default, {n: r[n] for n in space}, space)
        if _key(vec) not in seen:
            seen.add(_key(vec))
            cands.append(vec)
        if len(cands) >= top:
            break
    dk = _key(default)
    if dk not in seen:
        cands.append(default.copy())
    rounds = 1 + max(0, math.ceil(math.log2(max(len(cands), 2) / 2)))
    schedule = [max(1, race_games >> (rounds - 1 - r)) for r in range(rounds)]
    acc: dict[tuple, dict] = {}
    alive = list(cands)
    race_rows, race_seeds = [], []
    for r, deals in enumerate(schedule):
        r_seed = deal_seed(seed, "race", r)
        race_seeds.append(r_seed)
        play_now = alive + ([default] if dk not in {_key(c) for c in alive} else [])
        for vec in play_now:
            got = acc.setdefault(_key(vec), {f: ([], []) for f in run.field})
            for f, (a, b) in run.evaluate(vec, r_seed, deals).items():
                got[f][0].append(a)
                got[f][1].append(b)
        scores = {_key(v): field_score({f: (np.concatenate(x[0]), np.concatenate(x[1]))
                                        for f, x in acc[_key(v)].items()}) for v in play_now}
        ranked = sorted(alive, key=lambda v: -scores[_key(v)])
        last = r == len(schedule) - 1
        keep = ranked if last else ranked[:max(2, math.ceil(len(ranked) / 2))]
        kk = {_key(v) for v in keep}
        for v in play_now:
            race_rows.append({"round": r, "deals": deals, "seed": r_seed,
                              **_values(v, space), "score": scores[_key(v)],
                              "is_default": _key(v) == dk, "kept": _key(v) in kk})
        run.say(f"  race round {r + 1}/{len(schedule)}: {deals} fresh deals, {len(alive)} "
                f"vectors, best {scores[_key(ranked[0])]:.4f}, default {scores[dk]:.4f}")
        alive = keep
    # the default plays every round: a finalist that did not beat it there is not kept
    best = max(play_now, key=lambda v: (scores[_key(v)], _key(v) == dk))
    return best, race_rows, race_seeds


def _confirm(run: _Run, best: np.ndarray, game: str, config, in_place: bool,
             confirm_games: int, seed: int) -> list[dict]:
    """Step 3: the winner against the policy itself and every other policy of the field,
    on fresh deals; one row each."""
    from demos_sim.game import get_game
    from demos_sim.tournament import rotations

    c_seed = deal_seed(seed, "confirm")
    ad = get_game(game)
    n_rot = (ad.players_of(config) if in_place
             else len(rotations(len(ad.side_seats(config)))))
    confirmation = []
    for opp in [run.policy] + [f for f in run.field if f != run.policy]:
        a, b = run.play(best, opp, c_seed, confirm_games)
        run.played += confirm_games
        confirmation.append(_confirm_row(opp, np.asarray(a, float), np.asarray(b, float),
                                         confirm_games, c_seed, n_rot))
        h = confirmation[-1]
        run.say(f"  confirmation against {opp}: win share {h['win_share']:.4f} "
                f"[{h['ci95'][0]:.4f}, {h['ci95'][1]:.4f}] on {confirm_games} fresh deals")
    return confirmation


def tune_bot(config, policy: str = "heuristic", field=("heuristic", "greedy"),
             trials: int = 120, games: int = 4096, seed: int = 0, top: int = 8,
             race_games: int = 16384, confirm_games: int = 20000, game: str = "demos",
             plugins: tuple = (), play: Callable | None = None,
             say: Callable | None = None, warm=(), params=None,
             in_place: bool = False) -> BotTune:
    """Search, race, confirm (module docstring). ``games``: deals of a search trial;
    ``race_games``: deals of the last racing round (earlier rounds halve it);
    ``confirm_games``: deals of each confirmation match; ``warm``: parameter vectors (an
    earlier run's) enqueued right after the policy's own, inside the space; ``params``:
    the names of the searched parameters (default: all of :func:`space_for`), the others
    stay at the policy's own values; ``in_place``: scored as a best response, one seat
    among field players (:func:`seat_player`, as a game whose
    :attr:`~demos_sim.game.Game.tunes_in_place` always is) instead of the seat-rotated
    match."""
    from demos_sim.game import get_game

    t0 = time.perf_counter()
    run = _checked(game, config, policy, field,
                   {"--trials": trials, "--games": games, "--top": top,
                    "--race-games": race_games, "--confirm-games": confirm_games},
                   params, in_place, play, plugins, say or (lambda *a: None))
    in_place = bool(in_place) or get_game(game).tunes_in_place
    warm = [np.asarray(w, float) for w in warm]
    rows = _search(run, trials, games, seed, warm)
    best, race_rows, race_seeds = _race(run, rows, top, race_games, seed)
    confirmation = _confirm(run, best, game, config, in_place, confirm_games, seed)
    return BotTune(policy, run.field, game, get_game(game).describe(config), seed, trials,
                   games, top, race_games, confirm_games, run.space, run.default, best, rows,
                   race_rows, race_seeds, confirmation, time.perf_counter() - t0, run.played,
                   [params_list(w) for w in warm], in_place)


def _confirm_row(opp: str, a: np.ndarray, b: np.ndarray, deals: int, seed: int,
                 n_rot: int) -> dict:
    from demos_sim.tournament import Match

    m = Match("tune-bot", ("tuned", opp), deals, seed, ["?"] * n_rot, a, b, 0.0)
    w, ci = m.win_share()
    pd_ = m.paired()
    return {"against": opp, "deals": deals, "seed": seed, "win_share": w, "ci95": ci,
            "gain": w - 0.5, "gain_ci95": [ci[0] - 0.5, ci[1] - 0.5],
            "wins_per_game_diff": pd_["mean_diff_per_game"], "wins_per_game_diff_ci95":
            pd_["ci95"]}


def describe(res: BotTune) -> str:
    out = [f"tune-bot {res.policy} against {', '.join(res.field)}: {res.trials} trials × "
           f"{res.games} deals, race {len(res.race_seeds)} rounds, {res.deals_played} match "
           f"deals (each in every rotation) played in {res.wall_s:.0f} s"]
    ch = res.changed()
    out.append("changed: " + (", ".join(f"{n} {a} -> {b}" for n, (a, b) in ch.items())
                              or "nothing (the policy's own vector won the race)"))
    for c in res.confirmation:
        sig = "significant" if c["ci95"][0] > 0.5 or c["ci95"][1] < 0.5 else "not significant"
        out.append(f"confirmation vs {c['against']}: win share {c['win_share']:.4f} "
                   f"[{c['ci95'][0]:.4f}, {c['ci95'][1]:.4f}] ({sig}), {c['deals']} fresh deals "
                   f"(seed {c['seed']})")
    return "\n".join(out)
