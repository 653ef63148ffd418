"""Tournaments between policies: rotations on common deals, paired intervals, ratings.

Every game and mode, through the game's :class:`demos_sim.game.Game` (its ``play`` gives
each side's M1 win share game by game).

**Two policies, competitive games** (DĒMOS individual and team modes, Protocole *each for
themselves*, L'Assemblée). A pattern alternates the two policies over the *sides* — the
seats in individual games, the teams (and the Independent) in team modes, where every
member of a side plays its side's policy (``ABAB`` for 4 sides); the rotations are every
cyclic shift of that pattern and of its complement, without repeats (4 sides: ``ABAB``,
``BABA``; 3 sides: ``ABA BAA AAB BAB ABB BBA``; 2 teams: ``AB``, ``BA``), so each policy
holds every side equally often (in 2v3 both the team of two and the team of three).
Every rotation plays the **same deals**: deal ``g`` is game ``g`` of the seed
(:mod:`demos_sim.sim_common` keys), so rotations differ only by who sits where.

For deal ``g``, ``a_g`` is the sum over rotations of A's sides' M1 shares (a shared win
between ``k`` counts ``1/k`` to each winner), ``b_g`` the same for B. A game without a
winner gives nothing to either.

- **win share** of A: ``W = Σa / Σ(a + b)`` — A's part of all the wins the two policies
  took; 0.5 is a fair result. Its 95% interval is the delta-method interval of a ratio of
  means over deals (``z_g = a_g − W (a_g + b_g)``; ``se = sd(z) / (mean(a + b) √n)``).
- **paired comparison**: ``d_g = (a_g − b_g) / R`` (R rotations: wins per game, A minus
  B) on the same deals, mean and 95% normal interval, plus the share of deals A wins.

**Two policies, cooperative games** (Protocole *all together*): each policy plays every
seat, on the same deals; win rates with their intervals and the paired difference.

**Luck share** (competitive games): how much of a result the deal decides.
``y[(g, s), r]`` is side ``s``'s M1 share in deal ``g`` under rotation ``r``: the same
deal and seat, only the policy sitting there changed. The luck share is the intraclass
share of ``y``'s variance that the (deal, side) explains after the mean effect of
whichever policy sat there (a fixed effect ``f``: the (rotation, side) mean over deals
minus the side's mean over rotations, so the side's own advantage counts with the seat):
``σ²_deal / (σ²_deal + σ²_rotation + Var f)`` by one-way random-effects ANOVA
(:func:`demos_sim.runner.intervals.luck_share`). 1: the cards and the seat alone
decide who wins, whoever plays them; near 0: who plays decides. Its 95% interval is
a bootstrap over the groups.

**More than two policies**: every pair plays a two-policy tournament; the pairwise win
totals give a Bradley–Terry fit (MM iterations, Hunter 2004) reported as Elo-scaled
ratings (``400·log10`` of the strength, the first policy at 0).

**How the games are played.** Every game goes through the runner's one play call,
:func:`demos_sim.runner.points.play_points`: a match's rotations, a round robin's pairs
and a game's whole ladder are points of one call, on the same deals, so its workers
(``--workers``, ``--backend local|dask``, ``--scheduler ADDRESS``) share them; the
numbers do not depend on how they were played. With a resume folder (``--store DIR``)
every finished piece of games is kept there as it ends, and the same command run again
after a crash or ``kill -9`` reads those pieces instead of playing them; a piece is named
by everything that decides its games (rules, policies, seed, deals, the game's code), so a
changed bot or rule never reuses an old one.

Run ``python -m demos_sim.tournament ladder --out results/ladder`` for the committed
ladder (a table and a plot; its resume folder is ``OUT/chunks`` unless ``--store DIR``,
kept after the run so that running it again is quick: delete it when done), or
``demos-sim tournament …`` for one match (no resume folder unless ``--store DIR``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.restricted import check_specs
from demos_sim.runner.backends import add_backend_options
from demos_sim.sim_common import Z95

# ------------------------------------------------------------------ seat patterns


def rotations(sides: int) -> list[str]:
    """Every cyclic shift of the alternating pattern ``ABAB…`` and of its complement."""
    base = "".join("AB"[i % 2] for i in range(sides))
    comp = base.translate(str.maketrans("AB", "BA"))
    out: list[str] = []
    for pat in (base, comp):
        for r in range(sides):
            p = pat[r:] + pat[:r]
            if p not in out:
                out.append(p)
    return out


# ------------------------------------------------------------------ playing


def play_shares(game: str, points: list[tuple], games: int | list[int], seed: int,
                plugins: tuple = (), **run) -> tuple[list[np.ndarray], dict]:
    """(games, sides) M1 win shares (1/k to each of k winning sides, 0 without a winner;
    cooperative games: 1 to every seat on a win) at every ``(config, specs)`` point, in one
    :func:`demos_sim.runner.points.play_points` call: deals ``0 … games-1`` of ``seed``
    (``games`` one count, or one per point), the same deals at every point. A point asked
    twice is played once (its first deals are the same games whatever the count). ``run``:
    ``workers``, ``backend``, ``scheduler``, ``store`` (the resume folder), ``quiet``,
    ``desc`` of play_points. Returns the shares and play_points' provenance."""
    from demos_sim.game import get_game
    from demos_sim.runner.points import Point, play_points

    g = get_game(game)
    counts = [int(games)] * len(points) if np.ndim(games) == 0 else [int(n) for n in games]
    index: dict = {}
    uniq: list[Point] = []
    most: list[int] = []
    where = []
    for (config, specs), n in zip(points, counts):
        key = (json.dumps(g.describe(config), sort_keys=True, default=str), tuple(specs))
        if key not in index:
            index[key] = len(uniq)
            uniq.append(Point(config, tuple(specs)))
            most.append(n)
        most[index[key]] = max(most[index[key]], n)
        where.append(index[key])
    played = play_points(game, uniq, most, seed, metrics=("win_share",),
                         plugins=tuple(plugins), **run)
    scale = g.quantity("win_share").scale
    return ([played.values[j]["win_share"][:n] / scale for j, n in zip(where, counts)],
            played.meta)


def side_shares(game: str, config, specs: list[str], games: int, seed: int,
                plugins: tuple = (), **run) -> np.ndarray:
    """(games, sides) M1 win shares of deals ``0 … games-1`` of ``seed`` at one point
    (:func:`play_shares`); the same deals whatever ``specs`` are."""
    return play_shares(game, [(config, list(specs))], games, seed, plugins, **run)[0][0]


def _mean_ci(x: np.ndarray) -> tuple[float, list[float]]:
    n = len(x)
    m = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    h = Z95 * sd / math.sqrt(n) if n else 0.0
    return m, [m - h, m + h]


@dataclass
class Match:
    """A two-policy tournament on common deals (see the module docstring)."""
    game: str
    policies: tuple[str, str]
    games: int
    seed: int
    rotations: list[str]
    a: np.ndarray                 # per deal, A's M1 wins summed over rotations
    b: np.ndarray
    wall_s: float
    coop: bool = False
    extra: dict = field(default_factory=dict)
    shares: np.ndarray | None = None   # (deals, rotations, sides): each side's M1 share
    meta: dict = field(default_factory=dict)   # the play call's provenance (play_points)

    def luck(self):
        """The luck share (module docstring), or None for a cooperative match."""
        if self.coop or self.shares is None or self.shares.shape[1] < 2:
            return None
        from demos_sim.runner.intervals import luck_share

        g, r, k = self.shares.shape
        y = self.shares.transpose(0, 2, 1).reshape(g * k, r)     # (deal, side) x rotation
        # fixed effect of who sat there: the (rotation, side) mean over deals minus the
        # side's mean over rotations (the side's own advantage stays with the deal and
        # the seat); the deal's part is what the rotations of a (deal, side) share
        m = self.shares.mean(axis=0)                       # (rotations, sides)
        m = (m - m.mean(axis=0, keepdims=True)).T           # (sides, rotations)
        f = np.broadcast_to(m, (g, k, r)).reshape(g * k, r)
        return luck_share(y, offset=f)

    def win_share_se(self) -> tuple[float, float]:
        """A's win share ``W`` and its delta-method standard error (NaNs without a win)."""
        s = self.a + self.b
        tot = s.sum()
        if tot == 0:
            return float("nan"), float("nan")
        w = float(self.a.sum() / tot)
        z = self.a - w * s
        n = len(s)
        se = float(z.std(ddof=1)) / (s.mean() * math.sqrt(n)) if n > 1 else 0.0
        return w, float(se)

    def win_share(self) -> tuple[float, list[float]]:
        w, se = self.win_share_se()
        if w != w:
            return float("nan"), [float("nan"), float("nan")]
        return w, [max(0.0, float(w - Z95 * se)), min(1.0, float(w + Z95 * se))]

    def paired(self) -> dict:
        r = 1 if self.coop else len(self.rotations)
        d = (self.a - self.b) / r
        m, ci = _mean_ci(d)
        return {"mean_diff_per_game": m, "ci95": ci,
                "deals_a_better": float((d > 0).mean()), "deals_b_better": float((d < 0).mean())}

    def summary(self) -> dict:
        A, B = self.policies
        out = {"game": self.game, "policies": [A, B], "deals": self.games, "seed": self.seed,
               "wall_s": self.wall_s, **self.extra}
        if self.coop:
            ra, ca = _mean_ci(self.a)
            rb, cb = _mean_ci(self.b)
            out.update({"mode": "coop", "win_rate": {A: ra, B: rb},
                        "ci95": {A: ca, B: cb}, "paired": self.paired()})
        else:
            w, ci = self.win_share()
            r = len(self.rotations)
            out.update({"rotations": self.rotations, "games": self.games * r,
                        "win_share": {A: w, B: 1 - w}, "ci95": {A: ci, B: [1 - ci[1], 1 - ci[0]]},
                        "wins_per_game": {A: float(self.a.sum() / (self.games * r)),
                                          B: float(self.b.sum() / (self.games * r))},
                        "paired": self.paired()})
            lk = self.luck()
            if lk is not None:
                out["luck_share"] = {"value": lk.share, "ci95": [lk.lo, lk.hi],
                                     "between_deals": lk.between,
                                     "within_deal": lk.within}
        return out


def _match_specs(game: str, config, a: str, b: str) -> tuple[list[list[str]], list[str], bool]:
    """A match's points: one policy per seat for every rotation (or each policy as the
    whole table in a cooperative game), the rotations and whether the game is one team."""
    from demos_sim.game import get_game

    g = get_game(game)
    n = g.players_of(config)
    if g.cooperative(config):
        return [[a] * n, [b] * n], [], True
    sides = g.side_seats(config)
    rots = rotations(len(sides))
    out = []
    for pat in rots:
        specs = [""] * n
        for side, c in zip(sides, pat):
            for seat in side:
                specs[seat] = a if c == "A" else b
        out.append(specs)
    return out, rots, False


def _match_of(game: str, a: str, b: str, games: int, seed: int, rots: list[str], coop: bool,
              shares: list[np.ndarray], wall_s: float) -> Match:
    """The :class:`Match` of ``a`` against ``b`` from its points' shares (:func:`_match_specs`)."""
    if coop:                                        # column 0: the team won
        return Match(game, (a, b), games, seed, [], shares[0][:, 0], shares[1][:, 0], wall_s,
                     True)
    A = np.zeros(games)
    B = np.zeros(games)
    for pat, sh in zip(rots, shares):
        for s_, c in enumerate(pat):
            if c == "A":
                A += sh[:, s_]
            else:
                B += sh[:, s_]
    return Match(game, (a, b), games, seed, rots, A, B, wall_s, shares=np.stack(shares, axis=1))


def matches(game: str, config, pairs: list[tuple[str, str]], games: int, seed: int,
            plugins: tuple = (), **run) -> list[Match]:
    """A :func:`match` for every ``(a, b)`` of ``pairs``, all of their points in one
    :func:`play_shares` call (so the workers share them, and every pair plays the same
    deals); each Match's ``wall_s`` is the whole call's."""
    t0 = time.perf_counter()
    plans = [_match_specs(game, config, a, b) for a, b in pairs]
    points = [(config, specs) for specs_list, _, _ in plans for specs in specs_list]
    run.setdefault("desc", " vs ".join(pairs[0]) if len(pairs) == 1 else "round robin")
    shares, meta = play_shares(game, points, games, seed, plugins, **run)
    wall = time.perf_counter() - t0
    out, at = [], 0
    for (a, b), (specs_list, rots, coop) in zip(pairs, plans):
        m = _match_of(game, a, b, games, seed, rots, coop, shares[at:at + len(specs_list)],
                      wall)
        m.meta = meta
        out.append(m)
        at += len(specs_list)
    return out


def match(game: str, config, a: str, b: str, games: int, seed: int,
          plugins: tuple = (), **run) -> Match:
    """Play ``a`` against ``b`` on the deals ``0 … games-1`` of ``seed``: every rotation of
    the two policies over the sides (seats in individual games, teams in team modes —
    each policy then holds every side, team of two and team of three, Independent, equally
    often), or each as the whole table in a cooperative game (Protocole all together).
    Every rotation is a point of one :func:`play_shares` call; ``run``: its workers,
    backend, scheduler, store (resume folder), progress."""
    return matches(game, config, [(a, b)], games, seed, plugins, **run)[0]


def bradley_terry(names: list[str], wins: np.ndarray, iters: int = 2000) -> dict:
    """Bradley–Terry strengths from ``wins[i, j]`` (i's wins against j), MM iterations;
    returned as Elo-scaled ratings (400·log10), the first policy at 0."""
    k = len(names)
    p = np.ones(k)
    games = wins + wins.T
    for _ in range(iters):
        w = wins.sum(axis=1)
        den = np.array([sum(games[i, j] / (p[i] + p[j]) for j in range(k) if j != i)
                        for i in range(k)])
        new = np.where(den > 0, w / np.where(den > 0, den, 1), p)
        new = np.maximum(new, 1e-12)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    elo = 400 * np.log10(p / p[0])
    return {n: float(e) for n, e in zip(names, elo)}


def round_robin(game: str, config, policies: list[str], games: int, seed: int,
                plugins: tuple = (), **run) -> dict:
    """Every pair as a :func:`match` (all in one play call, :func:`matches`); win shares
    and a Bradley–Terry / Elo table."""
    ms = matches(game, config, list(itertools.combinations(policies, 2)), games, seed,
                 plugins, **run)
    return round_robin_of(policies, ms)


def round_robin_of(policies: list[str], ms: list[Match]) -> dict:
    """The round robin's table from the matches of every pair, in
    ``itertools.combinations`` order."""
    k = len(policies)
    wins = np.zeros((k, k))
    pairs = []
    for (i, j), m in zip(itertools.combinations(range(k), 2), ms):
        wins[i, j] = m.a.sum()
        wins[j, i] = m.b.sum()
        pairs.append(m.summary())
    return {"pairs": pairs, "ratings_elo": bradley_terry(policies, wins)}


# ------------------------------------------------------------------ printing


def format_match(s: dict) -> str:
    A, B = s["policies"]
    lines = []
    if s.get("mode") == "coop":
        lines.append(f"{s['game']} all together, {s['deals']} deals per policy (seed {s['seed']})")
        for p in (A, B):
            lo, hi = s["ci95"][p]
            lines.append(f"  {p:<24} win rate {s['win_rate'][p]:.4f}  95% CI [{lo:.4f}, {hi:.4f}]")
        pd = s["paired"]
        lines.append(f"  paired difference {A} − {B}: {pd['mean_diff_per_game']:+.4f} "
                     f"[{pd['ci95'][0]:+.4f}, {pd['ci95'][1]:+.4f}] (same deals)")
        return "\n".join(lines)
    lines.append(f"{s['game']}: {s['deals']} deals × rotations {' '.join(s['rotations'])} "
                 f"= {s['games']} games (seed {s['seed']})")
    for p in (A, B):
        lo, hi = s["ci95"][p]
        lines.append(f"  {p:<24} win share {s['win_share'][p]:.4f}  95% CI [{lo:.4f}, {hi:.4f}]"
                     f"  wins/game {s['wins_per_game'][p]:.4f}")
    pd = s["paired"]
    lines.append(f"  paired: {A} − {B} wins per game {pd['mean_diff_per_game']:+.4f} "
                 f"[{pd['ci95'][0]:+.4f}, {pd['ci95'][1]:+.4f}]; deals won by {A} "
                 f"{pd['deals_a_better']:.3f}, by {B} {pd['deals_b_better']:.3f}")
    lk = s.get("luck_share")
    if lk is not None:
        lines.append(f"  luck share (variance of a side's result explained by the deal and "
                     f"the seat): {lk['value']:.3f} [{lk['ci95'][0]:.3f}, {lk['ci95'][1]:.3f}]")
    return "\n".join(lines)


def make_config(game: str, players: int | None = None, variants: dict | None = None,
                **options):
    """A configuration of ``game`` from command-line style options (``rules``, ``mode``,
    ``level``, ``seating`` — those the game has), the player count and variants."""
    from demos_sim.game import get_game

    return get_game(game).config_from_options(options, players, dict(variants or {}))


RUN_KEYS = ("backend", "workers", "scheduler", "games_played_this_call", "games_resumed",
            "contract", "version", "git_revision")


def _run_note(meta: dict, store) -> str:
    """The line that says how the games were played, when some were read back."""
    if not meta.get("games_resumed"):
        return ""
    return (f"resumed {meta['games_resumed']:,} games from {store}, played "
            f"{meta['games_played_this_call']:,}")


def run_tournament(game: str, config, policies: list[str], games: int, seed: int,
                   plugins: tuple = (), as_json: bool = False, **run) -> str:
    """The ``demos-sim tournament`` command: a match for two policies, a round robin with
    a Bradley–Terry table for more, every game in one play call (``run``: workers,
    backend, scheduler, store, quiet — :func:`play_shares`)."""
    policies = [p.strip() for p in policies if p.strip()]
    if len(policies) < 2:
        raise ConfigError("--policies needs at least two policies (A,B)")
    from demos_sim.game import get_game

    from demos_sim.registry import reference_note, references

    g = get_game(game)
    for p in policies:                       # unknown names, idle :flag: one line, now
        check_specs(g, [p], config)
    # a reference (omniscient: sees every hidden card) plays here, to measure the bound;
    # the output says so
    pols = [g.policies.get(p) for p in policies]
    note = reference_note(pols)
    store = run.get("store")
    if len(policies) == 2:
        m = match(game, config, policies[0], policies[1], games, seed, plugins, **run)
        s = m.summary()
        if as_json:
            s["reference_policies"] = references(pols)
            s["run"] = {k: m.meta.get(k) for k in RUN_KEYS}
            return json.dumps(s, indent=2)
        lines = [format_match(s), note, _run_note(m.meta, store)]
        return "\n".join(x for x in lines if x)
    ms = matches(game, config, list(itertools.combinations(policies, 2)), games, seed,
                 plugins, **run)
    rr = round_robin_of(policies, ms)
    if as_json:
        rr["reference_policies"] = references(pols)
        rr["run"] = {k: ms[0].meta.get(k) for k in RUN_KEYS}
        return json.dumps(rr, indent=2)
    out = [format_match(s) for s in rr["pairs"]]
    out.append("Bradley–Terry ratings (Elo scale, first policy = 0):")
    for name, e in sorted(rr["ratings_elo"].items(), key=lambda x: -x[1]):
        out.append(f"  {name:<24} {e:+8.1f}")
    out += [x for x in (note, _run_note(ms[0].meta, store)) if x]
    return "\n".join(out)


# ------------------------------------------------------------------ the ladder


@dataclass(frozen=True)
class Ladder:
    """One game's rungs, weakest first; each plays the one below it. ``measure``:
    ``match`` (a seat-rotated two-policy match: win share, or the paired win-rate
    difference in a cooperative game) or ``in_place`` (L'Assemblée: each rung takes every
    seat in turn of a city of ``population`` players, against the population player it
    replaces, :func:`demos_sim.tuner.bot.seat_player`)."""
    label: str
    game: str
    options: tuple              # make_config keyword pairs
    rungs: tuple
    players: int = 4
    measure: str = "match"
    population: str = ""


LADDERS = (
    Ladder("demos full 4p individual", "demos", (("rules", "full"),),
           ("random", "greedy", "heuristic", "tuned", "belief@64", "ismcts@64", "apprentice",
            "ismcts@256")),
    Ladder("protocole each 4p", "protocole", (("mode", "each"),),
           ("random", "cautious", "planner", "ismcts@16")),
    Ladder("protocole coop level 2 4p", "protocole", (("mode", "coop"), ("level", 2)),
           ("random", "convention", "planner", "ismcts@16")),
    Ladder("assemblee 10p, one seat in a civic city", "assemblee", (),
           ("random", "civic", "adaptive"), players=10, measure="in_place",
           population="civic"),
)
LADDER_DEMOS = list(LADDERS[0].rungs)
# slower rungs play a share of the deals (one core, every seat): ismcts@64 ~19 games/s,
# belief@64 ~5 (its weighted deals), ismcts@256 ~4.5, Protocole ismcts@16 ~110 (apprentice,
# ~2,400, plays every deal); L'Assemblée plays 11 games of 10 a deal. The DĒMOS rungs are
# in the order their rows measured (results/ladder; belief@64 and ismcts@64 are level)
DEAL_SHARE = {("demos", "ismcts@64"): 50, ("demos", "belief@64"): 50,
              ("demos", "ismcts@256"): 40,
              ("protocole", "ismcts@16"): 50, ("assemblee", "random"): 10,
              ("assemblee", "adaptive"): 10}


def _share(game: str, *specs: str) -> int:
    return max(DEAL_SHARE.get((game, s), 1) for s in specs)


def _in_place_specs(n: int, population: str, spec: str) -> list[list[str]]:
    """:func:`in_place`'s points: ``spec`` at every seat in turn among ``population``
    players, or the all-population table when ``spec`` is the population."""
    if spec == population:
        return [[spec] * n]
    out = []
    for s_ in range(n):
        specs = [population] * n
        specs[s_] = spec
        out.append(specs)
    return out


def _in_place_sum(population: str, spec: str, shares: list[np.ndarray],
                  games: int) -> np.ndarray:
    """:func:`in_place`'s per-deal wins from its points' shares (:func:`_in_place_specs`)."""
    if spec == population:
        return shares[0].sum(axis=1)
    a = np.zeros(games)
    for s_, sh in enumerate(shares):
        a += sh[:, s_]
    return a


def in_place(game: str, config, population: str, spec: str, games: int, seed: int,
             plugins: tuple = (), **run) -> np.ndarray:
    """Per deal ``0 … games-1`` of ``seed``, the M1 wins of ``spec`` sitting at every seat
    in turn among ``population`` players, summed over those seats; ``spec`` = the
    population: the all-population game's wins (one per won deal). Two policies' sums on
    the same deals compare them in the same seat (L'Assemblée's ladder, and
    :func:`demos_sim.tuner.bot.seat_player`, which scores a best response this way).
    Every seat is a point of one :func:`play_shares` call (``run``: its options)."""
    from demos_sim.game import get_game

    n = get_game(game).players_of(config)
    specs = _in_place_specs(n, population, spec)
    shares, _ = play_shares(game, [(config, x) for x in specs], games, seed, plugins, **run)
    return _in_place_sum(population, spec, shares, games)


@dataclass
class _Job:
    """One ladder match: ``hi`` against ``lo`` on ``deals`` deals; ``row``: a row of the
    table (else a pair for the ratings only); ``specs`` its points."""
    ld: Ladder
    hi: str
    lo: str
    deals: int
    row: bool
    config: object = None
    specs: list = field(default_factory=list)
    plan: tuple = ()


def _ladder_plan(job: _Job) -> None:
    """The job's configuration and points (``hi``'s first, then ``lo``'s for in_place)."""
    from demos_sim.game import get_game

    ld = job.ld
    job.config = make_config(ld.game, ld.players, **dict(ld.options))
    if ld.measure == "in_place":           # hi and lo each in a population player's place
        n = get_game(ld.game).players_of(job.config)
        a = _in_place_specs(n, ld.population, job.hi)
        b = _in_place_specs(n, ld.population, job.lo)
        job.specs, job.plan = a + b, (len(a),)
    else:
        job.specs, rots, coop = _match_specs(ld.game, job.config, job.hi, job.lo)
        job.plan = (rots, coop)


def _ladder_row(job: _Job, seed: int, shares: list[np.ndarray], wall_s: float) -> dict:
    """One row of the ladder from its points' shares: ``hi`` against ``lo``."""
    ld, hi, lo, deals = job.ld, job.hi, job.lo, job.deals
    row = {"game": ld.label, "policy": hi, "against": lo}
    if ld.measure == "in_place":
        k = job.plan[0]
        a = _in_place_sum(ld.population, hi, shares[:k], deals)
        b = _in_place_sum(ld.population, lo, shares[k:], deals)
        m = Match(ld.game, (hi, lo), deals, seed, ["?"] * ld.players, a, b, 0.0)
        w, ci = m.win_share()
        row.update(measure="win share in the same seat", value=w, ci_lo=ci[0], ci_hi=ci[1],
                   reference=0.5,
                   games=deals * sum(1 if x == ld.population else ld.players for x in (hi, lo)),
                   note=f"{ld.game}: {hi} and {lo} each take every seat in turn of a "
                        f"{ld.population} city ({ld.players} players) on the same deals")
    else:
        rots, coop = job.plan
        m = _match_of(ld.game, hi, lo, deals, seed, rots, coop, shares, wall_s)
        s = m.summary()
        if m.coop:
            pd_ = s["paired"]
            row.update(measure="win rate difference", value=pd_["mean_diff_per_game"],
                       ci_lo=pd_["ci95"][0], ci_hi=pd_["ci95"][1], reference=0.0,
                       games=2 * s["deals"],
                       note=f"{ld.label}: win rates {hi} {s['win_rate'][hi]:.4f}, "
                            f"{lo} {s['win_rate'][lo]:.4f}")
        else:
            row.update(measure="win share", value=s["win_share"][hi], ci_lo=s["ci95"][hi][0],
                       ci_hi=s["ci95"][hi][1], reference=0.5, games=s["games"])
        row["wins"] = (float(m.a.sum()), float(m.b.sum()))
    row["wall_s"] = wall_s
    return row


def _ladder_jobs(games: int) -> list[_Job]:
    """Each rung against the one below it (rows), then every other DĒMOS pair (ratings)."""
    jobs = []
    for ld in LADDERS:
        for lo, hi in zip(ld.rungs, ld.rungs[1:]):
            jobs.append(_Job(ld, hi, lo, max(1, games // _share(ld.game, hi, lo)), True))
    demos = LADDERS[0]
    for i, j in itertools.combinations(range(len(demos.rungs)), 2):
        if j != i + 1:
            a, b = demos.rungs[i], demos.rungs[j]
            jobs.append(_Job(demos, b, a, max(1, games // 20 // _share("demos", a, b)),
                             False))
    for job in jobs:
        _ladder_plan(job)
    return jobs


def ladder(out: str | Path, games: int = 100000, seed: int = 2026, workers: int = 2,
           backend: str = "local", scheduler: str | None = None,
           store: str | Path | bool = True, quiet: bool = True) -> list[dict]:
    """The committed evidence (:data:`LADDERS`): each rung against the one below it, on
    ``games`` deals (a share of that for the slow rungs, :data:`DEAL_SHARE`), and for
    DĒMOS every other pair on ``games // 20`` deals (a share) for Bradley–Terry ratings.
    Every match of a game is a set of points of one play call (three calls: DĒMOS,
    Protocole, L'Assemblée) on ``workers`` workers of ``backend``; every finished task is
    kept in ``store`` (True: ``OUT/chunks``; False: nowhere), so a ladder stopped (even
    by kill -9) and started again plays only what is missing. Writes ``ladder.csv``,
    ``ladder.md``, ``ladder.json`` and ``ladder.png``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if store is True:
        store = out / "chunks"
    from demos_sim.runner.backends import make_backend

    jobs = _ladder_jobs(games)
    rows_of: dict[int, dict] = {}
    be = make_backend(backend, workers, scheduler)      # one pool (or cluster) for the three
    try:
        for game in dict.fromkeys(job.ld.game for job in jobs):
            mine = [x for x, job in enumerate(jobs) if job.ld.game == game]
            points = [(jobs[x].config, sp) for x in mine for sp in jobs[x].specs]
            counts = [jobs[x].deals for x in mine for _ in jobs[x].specs]
            t0 = time.perf_counter()
            shares, _ = play_shares(game, points, counts, seed, backend=be,
                                    store=store or None, quiet=quiet, desc=f"ladder {game}")
            wall = time.perf_counter() - t0
            at = 0
            for x in mine:
                k = len(jobs[x].specs)
                rows_of[x] = _ladder_row(jobs[x], seed, shares[at:at + k], wall)
                at += k
    finally:
        be.close()
    demos = LADDERS[0]
    k = len(demos.rungs)
    wins = np.zeros((k, k))
    rows = []
    for x, job in enumerate(jobs):
        r = rows_of[x]
        if job.ld is demos:
            i, j = demos.rungs.index(job.hi), demos.rungs.index(job.lo)
            wins[i, j], wins[j, i] = r["wins"]
        if job.row:
            rows.append({k_: v for k_, v in r.items() if k_ != "wins"})
    ratings = bradley_terry(list(demos.rungs), wins)
    _write_ladder(out, rows, games, seed, ratings)
    return rows


def _write_ladder(out: Path, rows: list[dict], games: int, seed: int,
                  ratings: dict | None = None) -> None:
    import csv

    keys = ["game", "policy", "against", "measure", "value", "ci_lo", "ci_hi", "reference",
            "games"]
    with open(out / "ladder.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.4f}" if isinstance(r[k], float) else r[k]) for k in keys})
    md = ["# Policy ladder", "",
          f"Regenerate: `python -m demos_sim.tournament ladder --out results/ladder "
          f"--games {games} --seed {seed}`.", "",
          "Each rung against the one below it. Win share: the policy's part of the M1 wins "
          "the two policies took over every seat rotation on common deals (0.5 = equal; "
          "slow rungs play a share of the deals, see the games column). Win rate "
          "difference: all-together team of the policy minus the other, same deals. Win "
          "share in the same seat (L'Assemblée): each policy takes every seat in turn of a "
          "city of civic players, on the same deals; its part of the wins the two took. "
          "95% intervals (delta method / paired).", "",
          "| game | policy | against | measure | value | 95% CI | games |",
          "|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append(f"| {r['game']} | {r['policy']} | {r['against']} | {r['measure']} | "
                  f"{r['value']:.4f} | [{r['ci_lo']:.4f}, {r['ci_hi']:.4f}] | {r['games']} |")
    notes = [r["note"] for r in rows if r.get("note")]
    if notes:
        md += [""] + [f"- {n}" for n in notes]
    if ratings:
        rated = LADDERS[0].game          # the ladder whose every pair is played for ratings
        shares = ", ".join(f"{s} 1/{v}" for (g, s), v in DEAL_SHARE.items() if g == rated)
        md += ["", "DĒMOS full 4p Bradley–Terry ratings (Elo scale, random = 0; adjacent pairs "
               f"from the matches above, the others from {games // 20} deals, a share of "
               f"that for the slower rungs: {shares}):", "",
               "| policy | rating |", "|---|---|"]
        md += [f"| {n} | {e:+.1f} |" for n, e in sorted(ratings.items(), key=lambda x: x[1])]
    (out / "ladder.md").write_text("\n".join(md) + "\n")
    stable = [{k: v for k, v in r.items() if k != "wall_s"} for r in rows]   # same bytes
    (out / "ladder.json").write_text(json.dumps(stable, indent=2) + "\n")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.7 + 0.6 * len(rows)))
    for i, r in enumerate(rows):
        y = len(rows) - 1 - i
        ax.errorbar(r["value"] - r["reference"], y,
                    xerr=[[r["value"] - r["ci_lo"]], [r["ci_hi"] - r["value"]]],
                    fmt="o", capsize=4, color="C0" if r["reference"] == 0.5 else "C1")
    ax.axvline(0, color="grey", lw=1, ls="--")
    ax.set_xscale("symlog", linthresh=0.02)   # small edges and the random rung on one axis
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{r['policy']} vs {r['against']}\n({r['game']})"
                        for r in reversed(rows)], fontsize=8)
    ax.set_xlabel("win share − 0.5  (Protocole coop: win-rate difference), 95% CI")
    ax.set_title("Policy ladder")
    fig.tight_layout()
    fig.savefig(out / "ladder.png", dpi=120)
    plt.close(fig)


def add_play_options(p, store_help: str, workers: int = 1) -> None:
    """``--workers``, ``--backend``, ``--scheduler`` and ``--store``: how the games are
    played (:func:`demos_sim.runner.points.play_points`); the numbers do not depend on
    them."""
    add_backend_options(p, workers)
    p.add_argument("--store", metavar="DIR", default=None, help=store_help)


def play_options(args, quiet: bool = False) -> dict:
    """The play options of a parsed command line, for :func:`play_shares`."""
    return {"workers": args.workers, "backend": args.backend, "scheduler": args.scheduler,
            "store": args.store, "quiet": quiet}


STORE_HELP = ("resume folder: every finished piece of games is kept there, and the same "
              "command run again (after a crash or kill -9) reads them instead of playing "
              "them again (default: none)")


def _cmd_tournament(args) -> int:
    from demos_sim.game import CLI_SETTINGS, get_game, parse_set

    g = get_game(args.game)
    g.load_plugins(args.plugin)
    if args.games < 1:
        raise ConfigError("--games must be at least 1")
    config = make_config(args.game, args.players, parse_set(args.set),
                         **{k: getattr(args, k, None) for k in CLI_SETTINGS})
    print(run_tournament(args.game, config, args.policies.split(","), args.games, args.seed,
                         tuple(args.plugin), as_json=args.json,
                         **play_options(args, quiet=args.quiet)))
    return 0


def add_tournament_parser(sub) -> None:
    """``demos-sim tournament``: registered by :func:`demos_sim.cli.build_parser`."""
    tp = sub.add_parser("tournament", help="policies against each other: every rotation of "
                                           "seats or sides on common deals, win shares with "
                                           "95%% CIs")
    tp.add_argument("--game", default="demos", help="demos, protocole or assemblee")
    tp.add_argument("--rules", default=None, help="DĒMOS: full (default) or simplified")
    tp.add_argument("--mode", default=None,
                    help="DĒMOS: individual (default), 2v2, 2v3, 2v2+1 (the policies take "
                         "turns on every side); Protocole: each (default) or coop")
    tp.add_argument("--level", type=int, default=None, help="Protocole coop level")
    tp.add_argument("--seating", default=None, help="DĒMOS team modes: label by seat")
    tp.add_argument("--players", type=int, default=None, help="seats (default: the game's)")
    tp.add_argument("--set", action="append", metavar="VARIANT=VALUE", default=[],
                    help="variant of RULES.md Part V (see `demos-sim variants`)")
    tp.add_argument("--policies", required=True, help="A,B (a match) or A,B,C… (round robin "
                                                      "and Bradley–Terry ratings)")
    tp.add_argument("--games", type=int, default=2000, help="deals (each played in every rotation)")
    tp.add_argument("--seed", type=int, default=0,
                    help="seed of the deals (a whole number >= 0): the same seed plays the "
                         "same games")
    add_play_options(tp, STORE_HELP)
    tp.add_argument("--quiet", action="store_true", help="no progress bar or lines")
    tp.add_argument("--json", action="store_true",
                    help="one JSON object on stdout (shares as fractions from 0 to 1)")
    tp.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE.py", default=[],
                    help="import a module that registers extra policies (repeatable)")
    tp.set_defaults(func=_cmd_tournament)


def main(argv=None) -> int:
    import sys

    ap = argparse.ArgumentParser(prog="python -m demos_sim.tournament")
    sub = ap.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("ladder", help="the committed ladder table and plot")
    lp.add_argument("--out", default="results/ladder",
                    help="folder for ladder.csv/.json/.md/.png (default: results/ladder)")
    lp.add_argument("--games", type=int, default=100000,
                    help="deals per match (the slow rungs play a share of them)")
    lp.add_argument("--seed", type=int, default=2026,
                    help="seed of the deals (a whole number >= 0): the same seed plays the "
                         "same games")
    add_play_options(lp, "resume folder: every finished piece of games is kept there, and "
                         "the ladder run again (after a crash or kill -9) reads them instead "
                         "of playing them again (default: OUT/chunks; delete it when done)",
                     workers=2)
    lp.add_argument("--quiet", action="store_true", help="no progress bar or lines")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        if args.games < 1:
            raise ConfigError("--games must be at least 1")
        rows = ladder(args.out, args.games, args.seed, args.workers, args.backend,
                      args.scheduler, args.store or True, args.quiet)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for r in rows:
        print(f"{r['policy']:>10} vs {r['against']:<10} {r['game']:<28} {r['measure']:<20} "
              f"{r['value']:.4f} [{r['ci_lo']:.4f}, {r['ci_hi']:.4f}]")
    print(f"wrote {args.out} in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
