"""Self-play tuning of a bot's parameters: ``demos-sim tune-bot``.

Two games have tunable bots. **DĒMOS** (below): the ``tuned`` rung. **L'Assemblée**: the
``adaptive`` persona, a *best response* to a population — the persona kernel's parameters
(:data:`PERSONA_SPACE`: bids, reserve, attacks, pledging rule, ostracism, votes …) tuned
for one seat among ``--against`` (e.g. a city of ``civic`` players), so "does free riding
pay?" can be asked of a player who adapts. There a trial is scored by
:func:`seat_player`: on each deal the candidate takes every seat in turn, the others
playing the population, against the population alone on the same deal; its "win share"
is its wins over its own plus the population player's wins at the same seats (0.5 = as
good as a member of the population in its place). The result is a personas table
(:func:`to_persona_toml`, ``demos_sim/assemblee/adaptive.toml``).

The ``tuned`` rung of the skill ladder is ``heuristic``'s function with a parameter vector
found here and stored as data (``demos_sim/demos/policies/tuned.toml``, registered by
:mod:`demos_sim.demos.policies.tuned`). The search tunes the continuous and integer
behaviour parameters of :data:`SPACE` (veto threshold and its moves, utility floor,
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
deterministic for a given seed. The result (``to_toml``) holds the full parameter vector,
the seeds, trials, deals, the field, the configuration, the rules contract, the git
revision and the confirmation figures.

``play(vector, opponent, seed, deals) -> (a, b)`` replaces the games (the per-deal win
sums of the candidate and of the opponent, as :class:`demos_sim.tournament.Match` holds
them): the tests plant a lucky vector with it.
"""

from __future__ import annotations

import contextlib
import math
import re
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from demos_sim import ConfigError

# name -> (index in params, low, high, step); step 1 with integer bounds = an integer
# parameter. Indices are heuristic's P_* (demos_sim/demos/policies/heuristic.py).
SPACE: dict[str, tuple[int, float, float, float]] = {
    "veto_at": (0, 8.0, 24.0, 0.5),       # P_VETO_AT: veto from this hand value
    "late": (1, 0.0, 12.0, 0.5),          # P_LATE: threshold lowered when the pile is low
    "need": (5, 0.0, 6.0, 0.25),          # P_NEED: raised when the trio needs nothing
    "samples": (6, 2, 32, 1),             # P_SAMPLES: Media samples (integer)
    "keep": (7, -6.0, 4.0, 0.25),         # P_KEEP: bonus of passing with a combination
    "draw_w": (8, 1.0, 6.0, 0.25),        # P_DRAW_W: draws looked ahead, secret/unanimous
    "floor": (9, 4.0, 16.0, 0.5),         # P_FLOOR: utility counts points above it
    "horizon": (10, 1.0, 10.0, 0.25),     # P_HORIZON: draws looked ahead, public discard
    "shape": (11, 0.0, 6.0, 0.125),       # P_SHAPE: weight of greedy's shape estimate
    "veto_spend": (15, 0.0, 12.0, 0.5),   # P_VETO_SPEND: spend vetoes as rounds run out
    "veto_free": (16, 0.0, 10.0, 0.25),   # P_VETO_FREE: an opponent likely to veto itself
    "mate_w": (17, 0.0, 3.0, 0.25),       # P_MATE_W: Media on a teammate (team modes only)
    # the Media's aim (P_AIM_*: changes to the target weights, 0 = heuristic's rule)
    "aim_threat": (28, -1.0, 3.0, 0.25),  # weight of the target's harmony on its loss
    "aim_harm": (29, -0.5, 3.0, 0.25),    # weight of the target's harmony on its own
    "aim_lead": (30, -0.01, 0.49, 0.02),  # weight of its points behind the leader
}
TEAM_ONLY = ("mate_w",)       # no effect in individual games: not searched there
# searched only when named (--params): tuned.toml's search did not have them
NAMED_ONLY = ("aim_threat", "aim_harm", "aim_lead")
# L'Assemblée's persona kernel (indices: demos_sim/assemblee/policies/personas.py PARAMS;
# integer 0/1 = a switch, 0/1/2 = a named mode). never_bid and peek are not searched.
PERSONA_SPACE: dict[str, tuple[int, float, float, float]] = {
    "bid_per_point": (0, 0.0, 3.0, 0.1),          # gold bid per point of a character
    "bid_noise": (1, 0.0, 6.0, 1.0),
    "reserve": (2, 0.0, 0.9, 0.05),               # share of gold kept back from bids
    "attack": (3, 0.0, 3.0, 0.25),                # Thief/Assassin/Courtesan/Brigand weight
    "pledge": (4, 0, 2, 1),                       # never | fair | conditional
    "pledge_mult": (5, 0.0, 2.0, 0.125),
    "conditional_threshold": (6, 0.0, 1.0, 0.1),
    "spend": (7, 0, 1, 1),
    "target_leader": (8, 0, 1, 1),
    "propose": (9, 0, 1, 1),
    "propose_margin": (10, 0.0, 40.0, 2.5),
    "support_margin": (11, 0.0, 40.0, 2.5),
    "ost_pledge": (12, 0.0, 2.0, 0.125),
    "assassinate": (13, 0.0, 3.0, 0.25),
    "vote": (14, 0, 2, 1),                        # weakest | generous | leader
    "buy": (15, 0, 1, 1),
}
CANDIDATE = "tune-bot-candidate"   # the registry name a candidate plays under, for a while


def deal_seed(seed: int, stage: str, r: int = 0) -> int:
    """The deal seed of a stage: ``search`` plays ``seed`` itself; racing round ``r``
    (``race``) and the confirmation (``confirm``) play seeds derived from it."""
    if stage == "search":
        return int(seed)
    k = {"race": 1, "confirm": 2}[stage]
    return int(np.random.SeedSequence([int(seed), k, int(r)]).generate_state(1, np.uint32)[0])


def space_for(config, game: str = "demos", names=None) -> dict:
    """The searched parameters: L'Assemblée's :data:`PERSONA_SPACE`; DĒMOS's :data:`SPACE`
    less the parameters that do nothing in ``config``'s mode. ``names`` (``--params``):
    only those, in the space's order; the others keep the policy's own values. An unknown
    name, or one that does nothing in this mode, is a :class:`ConfigError` naming it."""
    full = PERSONA_SPACE if game == "assemblee" else SPACE
    team = getattr(config, "mode", "individual") != "individual"
    space = {n: v for n, v in full.items()
             if game == "assemblee" or team or n not in TEAM_ONLY}
    if names is None:
        return {n: v for n, v in space.items() if n not in NAMED_ONLY}
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
    import importlib

    return importlib.import_module(f"demos_sim.{game}.policies").REGISTRY


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


@dataclass
class BotTune:
    """What :func:`tune_bot` found; :func:`to_toml` writes it."""

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

    def changed(self) -> dict:
        """Tuned parameters whose value moved: name -> (default, tuned)."""
        d, b = _values(self.default, self.space), _values(self.best, self.space)
        return {n: (d[n], b[n]) for n in self.space if d[n] != b[n]}

    def headline(self) -> dict:
        """The confirmation against the policy itself."""
        return self.confirmation[0]


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
    stay at the policy's own values; ``in_place``: DĒMOS scored as a best response, one
    seat among field players (:func:`seat_player`, as L'Assemblée always is) instead of
    the seat-rotated match."""
    import optuna

    t0 = time.perf_counter()
    say = say or (lambda *a: None)
    field = [f.strip() for f in field if f.strip()]
    if game not in ("demos", "assemblee"):
        raise ConfigError("tune-bot tunes DĒMOS policies (heuristic's parameters) and "
                          f"L'Assemblée personas; --game {game} has no tunable bot")
    if not field:
        raise ConfigError("--against needs at least one policy")
    for n, v in (("--trials", trials), ("--games", games), ("--top", top),
                 ("--race-games", race_games), ("--confirm-games", confirm_games)):
        if v < 1:
            raise ConfigError(f"{n} must be at least 1, got {v}")
    REGISTRY = _registry(game)
    base = REGISTRY.get(policy)
    for f in field:
        REGISTRY.get(f)
    if game == "demos" and re.split(r"[:@]", policy)[0] not in ("heuristic", "search", "tuned"):
        raise ConfigError(f"tune-bot tunes policies with heuristic's parameters (heuristic, "
                          f"search, tuned), not {policy!r}")
    if game == "assemblee":
        from demos_sim.assemblee.policies.basic import persona

        if base.fn is not persona:
            raise ConfigError(f"tune-bot tunes L'Assemblée personas (civic, free_rider …), "
                              f"not {policy!r}")
    space = space_for(config, game, params)
    in_place = bool(in_place) or game == "assemblee"
    if play is None:
        play = (seat_player if in_place else match_player)(game, config, policy, plugins)
    default = base.params.copy()
    played = 0

    def evaluate(vec, seed_, deals):
        nonlocal played
        res = {}
        for f in field:
            a, b = play(vec, f, seed_, deals)
            res[f] = (np.asarray(a, float), np.asarray(b, float))
            played += deals
        return res

    # ---------------------------------------------------------------- 1. search
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
    in_space = all(space[n][1] <= v <= space[n][2] for n, v in dvals.items())
    if in_space:
        study.enqueue_trial(dvals)
    warm = [np.asarray(w, float) for w in warm]
    for w in warm:
        wv = _values(w, space)
        out = [n for n, x in wv.items() if not space[n][1] <= x <= space[n][2]]
        if out:
            raise ConfigError(f"--warm vector outside the search space: {', '.join(out)}")
        study.enqueue_trial(wv)
    s_seed = deal_seed(seed, "search")
    say(f"tune-bot {policy}: TPE search, {trials} trials of {games} deals (seed {s_seed}, "
        f"the same deals for every trial) against {', '.join(field)}")
    cache: dict[tuple, float] = {}
    rows = []
    for t in range(trials):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tr = study.ask(dists)
        vec = _with(default, tr.params, space)
        k = _key(vec)
        if k not in cache:
            res = evaluate(vec, s_seed, games)
            cache[k] = field_score(res)
        study.tell(tr, cache[k])
        rows.append({"trial": t, **_values(vec, space), "score": cache[k],
                     "is_default": k == _key(default)})
        if (t + 1) % 10 == 0 or t + 1 == trials:
            b = max(rows, key=lambda r: r["score"])
            say(f"  {t + 1}/{trials} trials, best so far {b['score']:.4f} (trial {b['trial']}), "
                f"default {cache.get(_key(default), float('nan')):.4f}")

    # ---------------------------------------------------------------- 2. racing
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
    race_rows = []
    race_seeds = []
    for r, deals in enumerate(schedule):
        r_seed = deal_seed(seed, "race", r)
        race_seeds.append(r_seed)
        play_now = alive + ([default] if dk not in {_key(c) for c in alive} else [])
        for vec in play_now:
            res = evaluate(vec, r_seed, deals)
            got = acc.setdefault(_key(vec), {f: ([], []) for f in field})
            for f, (a, b) in res.items():
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
        say(f"  race round {r + 1}/{len(schedule)}: {deals} fresh deals, {len(alive)} "
            f"vectors, best {scores[_key(ranked[0])]:.4f}, default {scores[dk]:.4f}")
        alive = keep
    # the default plays every round: a finalist that did not beat it there is not kept
    best = max(play_now, key=lambda v: (scores[_key(v)], _key(v) == dk))

    # ---------------------------------------------------------------- 3. confirmation
    c_seed = deal_seed(seed, "confirm")
    from demos_sim.game import get_game
    from demos_sim.tournament import rotations

    n_rot = (get_game(game).players_of(config) if in_place
             else len(rotations(len(get_game(game).side_seats(config)))))
    confirmation = []
    for opp in [policy] + [f for f in field if f != policy]:
        a, b = play(best, opp, c_seed, confirm_games)
        played += confirm_games
        confirmation.append(_confirm_row(opp, np.asarray(a, float), np.asarray(b, float),
                                         confirm_games, c_seed, n_rot))
        h = confirmation[-1]
        say(f"  confirmation against {opp}: win share {h['win_share']:.4f} "
            f"[{h['ci95'][0]:.4f}, {h['ci95'][1]:.4f}] on {confirm_games} fresh deals")

    return BotTune(policy, field, game, get_game(game).describe(config), seed, trials, games,
                   top, race_games, confirm_games, space, default, best, rows, race_rows,
                   race_seeds, confirmation, time.perf_counter() - t0, played,
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


# ------------------------------------------------------------------ the data file
def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        x = float(v)
        return repr(x) if math.isfinite(x) else '"nan"'
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_value(str(k))} = {_toml_value(x)}"
                               for k, x in v.items() if x is not None) + "}"   # no null
    raise TypeError(type(v))


def params_list(vec: np.ndarray) -> list[float]:
    """The parameter vector without its trailing zeros (the registry pads them back)."""
    v = [float(x) for x in vec]
    while v and v[-1] == 0.0:
        v.pop()
    return v


def toml_header(name: str = "tuned") -> list[str]:
    """The comment that opens a DĒMOS tune-bot data file registered as policy ``name`` by
    ``demos_sim/demos/policies/tuned.py`` (``tuned``) or ``best_response.py`` (the best
    responses, ``--in-place``)."""
    module = "tuned" if name == "tuned" else "best_response"
    return [
        f"# The `{name}` DĒMOS policy: heuristic's function with the parameter vector below,",
        "# found by self-play (demos_sim/tuner/bot.py: TPE search on common deals, racing and",
        "# confirmation on fresh deals). Written by `demos-sim tune-bot`; regenerate, do not",
        f"# edit by hand. demos_sim/demos/policies/{module}.py registers it.",
    ]


def to_toml(res: BotTune, command: str = "", name: str = "tuned") -> str:
    """The ``tuned.toml`` text (or another policy's, ``name``): the vector, how it was
    found, the confirmation."""
    from demos_sim.provenance import CONTRACT, git_revision

    h = res.headline()
    lines = toml_header(name) + [
        f"policy = {_toml_value(res.policy)}",
        f"params = {_toml_value(params_list(res.best))}",
        f"default = {_toml_value(params_list(res.default))}",
        f"command = {_toml_value(command)}",
        f"seed = {res.seed}",
        f"trials = {res.trials}",
        f"games = {res.games}",
        f"field = {_toml_value(res.field)}",
        'sampler = "tpe"',
        f"contract = {CONTRACT}",
        f"git_revision = {_toml_value(git_revision() or '')}",
        f"wall_s = {round(res.wall_s, 1)}",
        f"deals_played = {res.deals_played}   # match deals, each in every rotation",
        f"warm = {_toml_value(res.warm or [])}   # vectors tried right after the default",
        f"searched = {_toml_value(list(res.space))}   # the others keep the policy's values",
        f"scoring = {_toml_value('in_place' if res.in_place else 'match')}"
        "   # in_place: one seat among the field (a best response); match: seat-rotated",
        "",
        "[config]",
    ]
    for k, v in res.config.items():
        if v is not None:
            lines.append(f"{k} = {_toml_value(v)}")
    lines += ["", "[tuned]   # the searched parameters: name = [default, tuned]"]
    d, b = _values(res.default, res.space), _values(res.best, res.space)
    for n in res.space:
        lines.append(f"{n} = [{_toml_value(d[n])}, {_toml_value(b[n])}]")
    lines += ["", "[race]", f"top = {res.top}",
              f"deals = {_toml_value([r['deals'] for r in res.race_rows if r['is_default']])}",
              f"seeds = {_toml_value(res.race_seeds)}"]
    last = max(r["round"] for r in res.race_rows)
    fin = [r for r in res.race_rows if r["round"] == last]
    bk = _values(res.best, res.space)
    winner = next(r for r in fin if all(r[n] == bk[n] for n in res.space))
    dflt = next(r for r in fin if r["is_default"])
    lines += [f"winner_score = {winner['score']!r}", f"default_score = {dflt['score']!r}"]
    lines += ["", "[confirmation]   # the tuned vector against the policy itself, fresh deals",
              f"against = {_toml_value(h['against'])}", f"deals = {h['deals']}",
              f"seed = {h['seed']}", f"win_share = {h['win_share']!r}",
              f"ci95 = {_toml_value(h['ci95'])}",
              f"wins_per_game_diff = {h['wins_per_game_diff']!r}",
              f"wins_per_game_diff_ci95 = {_toml_value(h['wins_per_game_diff_ci95'])}"]
    for c in res.confirmation[1:]:
        lines += ["", "[[confirmation.field]]", f"against = {_toml_value(c['against'])}",
                  f"deals = {c['deals']}", f"win_share = {c['win_share']!r}",
                  f"ci95 = {_toml_value(c['ci95'])}"]
    return "\n".join(lines) + "\n"


def to_persona_toml(res: BotTune, command: str = "", name: str = "adaptive") -> str:
    """A personas file (``personas.toml``'s format) with one table ``name``: the persona
    ``res`` found, every searched key written out, and how it was found (comments and a
    ``[NAME]`` description) — :mod:`demos_sim.assemblee.policies.builtin` registers it."""
    from demos_sim.assemblee.policies.personas import PARAMS
    from demos_sim.provenance import CONTRACT, git_revision

    h = res.headline()
    lo, hi = h["ci95"]
    vals = _values(res.best, res.space)
    dflt = _values(res.default, res.space)
    lines = [
        f"# The `{name}` L'Assemblée persona: a best response to a city of "
        f"{'+'.join(res.field)} players",
        "# (one seat at a time among them), found by self-play (demos_sim/tuner/bot.py: TPE",
        "# search on common deals, racing and confirmation on fresh deals). Written by",
        "# `demos-sim tune-bot --game assemblee`; regenerate, do not edit by hand.",
        f"# command: {command}",
        f"# config: {res.config}",
        f"# seed {res.seed}, {res.trials} trials x {res.games} deals, race to {res.race_games} "
        f"deals, {res.deals_played} deals played, {res.wall_s:.0f} s",
        f"# rules contract {CONTRACT}, git revision {git_revision() or '?'}",
        f"# confirmation against {h['against']} in its place: win share {h['win_share']:.4f} "
        f"[{lo:.4f}, {hi:.4f}] on {h['deals']} fresh deals (seed {h['seed']})",
        "# changed from the base persona: " + (", ".join(
            f"{k} {dflt[k]:g} -> {v:g}" for k, v in vals.items() if v != dflt[k]) or "nothing"),
        "",
        f"[{name}]",
        f'description = "best response to a {"+".join(res.field)} city (tune-bot seed '
        f'{res.seed}): win share {h["win_share"]:.3f} [{lo:.3f}, {hi:.3f}] against '
        f'{h["against"]} in its place"',
        f"base = {_toml_value(res.policy)}",
    ]
    for key, v in vals.items():
        kind = PARAMS[key][1]
        if kind == "bool":
            lines.append(f"{key} = {_toml_value(bool(v))}")
        elif isinstance(kind, dict):
            lines.append(f"{key} = {_toml_value(next(k for k, i in kind.items() if i == v))}")
        else:
            lines.append(f"{key} = {_toml_value(round(float(v), 6))}")
    return "\n".join(lines) + "\n"


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
