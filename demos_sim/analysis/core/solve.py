"""Reverse questions: the smallest value of a numeric setting that makes a mode fair.

``demos-sim solve --target "2v2+1 fair" --over handicap_points`` searches the whole
numbers the rules allow for the setting (or ``--range LO:HI``) for the smallest one that
meets the target, playing each value tried through the runner on the same deals (one
experiment of one point per value, every one with the same seed: common random numbers).

**The target.** ``[MODE] fair [per side | per seat] [within N pp]``: every side's share of
the games that had a winner lies within ``±N`` pp (default 1 pp, the analyses'
``fair_margin``) of its parity — ``1/K`` of the won games for ``K`` sides per side, its
seats' share ``size/n`` per seat — judged by the equivalence test the analyses use
(:func:`demos_sim.analysis.core.fairness.fairness`: TOST, the 90% interval inside the
margin), and a mode is fair when every side is (:func:`~demos_sim.analysis.core.fairness.
mode_verdict`).

**The search.** The setting is assumed to help, as it grows, the side furthest behind at
the bottom of the range (a handicap for the smaller side, the 2v3 team of two's vetoes).
A value *has done enough* when the mode is fair there, or when that side is no longer
behind its parity (its estimate ≥ 0): below the fair values it is still behind, above
them it has overtaken. So "has done enough" goes from false to true once as the value
grows, and the smallest such value is found by galloping from the bottom (1, 2, 4, 8 …
above it) and then bisecting the last step (:func:`smallest_true`): about ``2·log2(v)``
values tried for an answer ``v`` above the bottom. That value is the answer when the mode
is fair there; otherwise no value meets the target (the side behind catches up without
every side being fair at once: another side is too far from parity, or the games are too
few to show it: more ``--games``), and the search says so plainly.

**The confirmation.** The value found is played again on **fresh deals** (another seed,
:data:`FRESH_SEED_OFFSET` above the search's, so that the search's luck does not carry
over) and reported with each side's share of won games, its 95% interval and its TOST
verdict (90% interval). A value that is not confirmed fair there is reported as such.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

import pandas as pd

from demos_sim import ConfigError
from demos_sim.analysis.core.fairness import DEFINITIONS, fairness, mode_verdict
from demos_sim.analysis.core.stats import FAIR_MARGIN, share_of_won_ci
from demos_sim.analysis.core.sweep import Knob, knob
from demos_sim.game import get_game
from demos_sim.restricted import lineup
from demos_sim.runner.experiment import experiment_of
from demos_sim.runner.run import run_experiment
from demos_sim.runner.units import pct, pct_ci

# the fresh deals' seed is the search's plus this (the teams analysis confirms its picks
# the same way, with the same offset)
FRESH_SEED_OFFSET = 1_000_003
_TARGET = re.compile(r"^\s*(?:(?P<mode>\S+)\s+)?fair(?:\s+(?P<defn>per\s+side|per\s+seat))?"
                     r"(?:\s+within\s+(?P<margin>[0-9]*\.?[0-9]+)\s*pp)?\s*$", re.I)
_BOUNDS = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")
TARGET_HELP = ("'[MODE] fair [per side|per seat] [within N pp]', e.g. '2v2+1 fair', "
               "'2v3 fair per seat', '2v2+1 fair within 2 pp'")


@dataclass(frozen=True)
class Target:
    """A fairness target: the mode (None: the game's default or ``--mode``), the
    definition of fair (``per side`` or ``per seat``) and the margin (a fraction: 0.01 is
    ±1 pp of the won games)."""

    mode: str | None
    definition: str = "per side"
    margin: float = FAIR_MARGIN

    def text(self) -> str:
        m = f"{100 * self.margin:g}"
        return f"{self.mode + ' ' if self.mode else ''}fair {self.definition}, within ±{m} pp"


def parse_target(text: str) -> Target:
    """``"2v2+1 fair"`` -> ``Target("2v2+1", "per side", 0.01)``; one-line error naming the
    form expected otherwise."""
    m = _TARGET.match(text or "")
    if not m:
        raise ConfigError(f"--target: expected {TARGET_HELP}, got {text!r}")
    defn = " ".join((m.group("defn") or "per side").lower().split())
    margin = FAIR_MARGIN
    if m.group("margin") is not None:
        margin = float(m.group("margin")) / 100
        if not 0 < margin < 0.5:
            raise ConfigError(f"--target: the margin must be above 0 and below 50 pp, got "
                              f"{m.group('margin')} pp")
    assert defn in DEFINITIONS
    return Target(m.group("mode"), defn, margin)


def parse_bounds(text: str) -> tuple[int, int]:
    """``--range LO:HI`` (whole numbers, LO ≤ HI) -> ``(LO, HI)``."""
    m = _BOUNDS.match(text or "")
    if not m:
        raise ConfigError(f"--range: expected LO:HI (two whole numbers), got {text!r}")
    lo, hi = int(m.group(1)), int(m.group(2))
    if hi < lo:
        raise ConfigError(f"--range {text}: HI ({hi}) is below LO ({lo})")
    return lo, hi


# ------------------------------------------------------------------ the search
def smallest_true(pred, lo: int, hi: int) -> tuple[int | None, list[tuple[int, bool]]]:
    """The smallest whole ``v`` in ``[lo, hi]`` with ``pred(v)`` true, for a ``pred`` that
    is false then true as ``v`` grows (monotone), or None when ``pred(hi)`` is false; and
    every ``(value, answer)`` asked, in order (no value is asked twice). Galloping from
    ``lo`` (``lo``, ``lo+1``, ``lo+2``, ``lo+4`` …, then ``hi``), then bisection of the last
    step: at most ``2·⌈log2(v − lo + 1)⌉ + 2`` questions for an answer ``v``."""
    if hi < lo:
        raise ValueError(f"empty range {lo}..{hi}")
    asked: list[tuple[int, bool]] = []
    seen: dict[int, bool] = {}

    def ask(v: int) -> bool:
        if v not in seen:
            seen[v] = bool(pred(v))
            asked.append((v, seen[v]))
        return seen[v]

    if ask(lo):
        return lo, asked
    below, step = lo, 1
    while True:
        v = min(lo + step, hi)
        if ask(v):
            break
        if v == hi:
            return None, asked
        below, step = v, step * 2
    a, b = below, v                    # pred(a) false, pred(b) true
    while b - a > 1:
        mid = (a + b) // 2
        if ask(mid):
            b = mid
        else:
            a = mid
    return b, asked


# ------------------------------------------------------------------ one value
@dataclass
class Probe:
    """One value played: the mode's verdict and every side's row of the fairness table
    (share of won games, parity, distance, intervals, TOST verdict and its text)."""

    value: int
    seed: int
    games: int
    verdict: str
    sides: pd.DataFrame
    wall_s: float

    def gap(self, side: str) -> float:
        return float(self.sides.set_index("side").loc[side, "diff"])

    def worst(self) -> pd.Series:
        """The side furthest from its parity."""
        return self.sides.loc[self.sides["diff"].abs().idxmax()]

    def deciding(self) -> pd.Series:
        """The side that keeps the mode from being fair: the unfair side furthest from
        parity, else the side least shown fair (largest TOST p-value)."""
        unfair = self.sides[self.sides["verdict"] == "unfair"]
        if len(unfair):
            return unfair.loc[unfair["diff"].abs().idxmax()]
        return self.sides.loc[self.sides["p_tost"].idxmax()]


def play_value(k: Knob, value: int, target: Target, settings: dict, players: int | None,
               variants: dict, specs: list[str], games: int, seed: int, workers: int = 1,
               plugins: tuple[str, ...] = ()) -> Probe:
    """Play ``games`` games at ``value`` through the runner (seed ``seed``) and judge the
    sides against ``target``."""
    g = get_game(k.game)
    cfg = k.config(settings, players, variants, value)
    seats = lineup(g, specs, cfg)
    exp = experiment_of(g.name, [(f"{k.name}={value}", cfg, seats)], games, seed, plugins,
                        name=f"solve-{k.name}", values=[{k.name: value}],
                        metrics=("win_share", "no_winner", "truncated"))
    t0 = time.perf_counter()
    run = run_experiment(exp, workers=workers, quiet=True, keep=False)
    wall = time.perf_counter() - t0
    ws = run.results[run.results["metric"] == "win_share"]
    sides = pd.DataFrame({"bot": "", "mode": target.mode or "", "option": str(value),
                          "side": ws["side"].astype(str).to_list(),
                          "side_size": [len(str(s).split(",")) for s in ws["seats"]],
                          "games": ws["games"].astype(int).to_list(),
                          "share": ws["mean"].astype(float).to_list(),
                          "sd": ws["sd"].astype(float).to_list()})
    f = fairness(sides, target.margin, options=None)
    f = f[f["definition"] == target.definition].reset_index(drop=True)
    won = float(sides["share"].sum())          # games with a winner (M1: shares add to 1)
    cis = [share_of_won_ci(s, sd, n, won) for s, sd, n in
           zip(sides["share"], sides["sd"], sides["games"])]
    f["share_won_ci_low"] = [c[1] for c in cis]
    f["share_won_ci_high"] = [c[2] for c in cis]
    return Probe(value, seed, int(run.meta["games_per_point"]), mode_verdict(f), f, wall)


# ------------------------------------------------------------------ the answer
@dataclass
class Solution:
    """What :func:`solve` found: ``value`` (None when no value meets the target), every
    value tried on the search deals (``probes``, in order), the side behind at the bottom
    of the range, the confirmation on fresh deals (None when nothing was found) and the
    time taken."""

    game: str
    knob: Knob
    target: Target
    lo: int
    hi: int
    value: int | None
    behind: str
    probes: list[Probe]
    confirm: Probe | None
    wall_s: float
    candidate: int | None = None        # where the side behind catches up (no value fair)
    settings: dict = field(default_factory=dict)
    policies: list[str] = field(default_factory=list)

    @property
    def confirmed(self) -> bool:
        return self.confirm is not None and self.confirm.verdict == "fair"


def solve(game: str, name: str, target: Target, settings: dict | None = None,
          players: int | None = None, variants: dict | None = None,
          policies: list[str] | None = None, games: int = 20000, seed: int = 0,
          bounds: tuple[int, int] | None = None, confirm_games: int | None = None,
          workers: int = 1, plugins: tuple[str, ...] = (), allow_reference: bool = False,
          on_probe=None) -> Solution:
    """Find the smallest value of setting ``name`` that meets ``target`` (module doc).
    ``bounds`` narrows the range the rules allow; ``confirm_games`` (default twice
    ``games``) are played at the value found on fresh deals. ``on_probe(probe)`` is called
    after each value is played (the explorer shows the search as it goes). One-line
    errors on bad input before any game is played."""
    t0 = time.perf_counter()
    g = get_game(game)
    settings = {k: v for k, v in dict(settings or {}).items() if v is not None}
    variants = dict(variants or {})
    if target.mode is not None:
        if "mode" not in g.settings:
            raise ConfigError(f"--target names a mode ({target.mode}) but {g.title} has none: "
                              "write the target as 'fair'")
        if settings.get("mode") not in (None, target.mode):
            raise ConfigError(f"--target is about mode {target.mode} but --mode is "
                              f"{settings['mode']}")
        try:
            settings["mode"] = g.check_setting("mode", target.mode)
        except ConfigError as e:
            raise ConfigError(f"--target: mode {e}") from None
    k = knob(g, name, settings, players, variants)
    lo, hi = k.lo, k.hi
    if bounds is not None:
        if bounds[0] < k.lo or bounds[1] > k.hi:
            raise ConfigError(f"--range {bounds[0]}:{bounds[1]}: {name} takes {k.lo} to "
                              f"{k.hi:,} here")
        lo, hi = bounds
    cfg = k.config(settings, players, variants, lo)
    if g.cooperative(cfg) or len(g.labels(cfg, "side")) < 2:
        raise ConfigError("this game has one side (everyone wins or loses together): "
                          "nothing to be fair between")
    specs = list(policies) if policies else [g.default_policies(cfg)]
    for v in (lo, hi):
        seats = lineup(g, specs, k.config(settings, players, variants, v), plugins)
    if not allow_reference:
        seats.refuse_references("solve", "--allow-reference")
    plugins = tuple(dict.fromkeys(tuple(plugins) + g.loaded_plugins()))
    confirm_games = 2 * games if confirm_games is None else confirm_games

    probes: dict[int, Probe] = {}

    def play(v: int) -> Probe:
        if v not in probes:
            probes[v] = play_value(k, v, target, settings, players, variants, specs, games,
                                   seed, workers, plugins)
            if on_probe is not None:
                on_probe(probes[v])
        return probes[v]

    first = play(lo)
    behind = str(first.sides.loc[first.sides["diff"].idxmin(), "side"])

    def done_enough(v: int) -> bool:
        p = play(v)
        return p.verdict == "fair" or p.gap(behind) >= 0

    found, asked = smallest_true(done_enough, lo, hi)
    value = found if found is not None and probes[found].verdict == "fair" else None
    confirm = None
    if value is not None:
        confirm = play_value(k, value, target, settings, players, variants, specs,
                             confirm_games, seed + FRESH_SEED_OFFSET, workers, plugins)
        if on_probe is not None:
            on_probe(confirm)
    return Solution(g.name, k, target, lo, hi, value, behind,
                    [probes[v] for v, _ in asked], confirm, time.perf_counter() - t0,
                    candidate=found if value is None else None, settings=settings,
                    policies=specs)


# ------------------------------------------------------------------ words
def _side_line(r) -> str:
    return (f"side {r['side']} {pct(r['share_won'], 1)} "
            f"{pct_ci(r['share_won_ci_low'], r['share_won_ci_high'], 1)} of won games "
            f"(parity {pct(r['parity'], 1)}): {r['verdict_text']}")


def _duration(s: float) -> str:
    return f"{s:.1f} s" if s < 60 else f"{int(s // 60)} min {int(round(s % 60)):02d} s"


def format_solution(sol: Solution, title: str) -> str:
    """The text of ``demos-sim solve``: the answer first (or that there is none), its
    confirmation on fresh deals, then every value tried."""
    k, t = sol.knob, sol.target
    what = (f"every side's share of won games within ±{100 * t.margin:g} pp of its "
            f"parity ({t.definition}, TOST)")
    where = f"{title}{' ' + sol.settings['mode'] if 'mode' in sol.settings else ''}"
    lines = []
    if sol.value is not None:
        lines.append(f"{where}: the smallest {k.name} from {sol.lo} to {sol.hi:,} that "
                     f"makes {what} is {sol.value}.")
        c = sol.confirm
        state = ("confirmed fair" if sol.confirmed else
                 f"NOT confirmed: {c.verdict}")
        lines.append(f"On fresh deals (seed {c.seed}, {c.games:,} games) {k.name} = "
                     f"{sol.value} is {state}:")
        lines += [f"  {_side_line(r)}" for _, r in c.sides.iterrows()]
        if not sol.confirmed:
            lines.append("  (the search's deals favoured it; more --games narrow both)")
    elif sol.candidate is not None:
        p = next(p for p in sol.probes if p.value == sol.candidate)
        w = p.deciding()
        lines.append(f"{where}: no {k.name} from {sol.lo} to {sol.hi:,} makes {what}. "
                     f"At {sol.candidate}, where side {sol.behind} (behind at {sol.lo}) "
                     f"catches up, side {w['side']} is {w['verdict_text']}"
                     + (" (more --games may show it fair)" if w["verdict"] != "unfair"
                        else "") + ".")
    else:
        p = next(p for p in sol.probes if p.value == sol.hi)
        r = p.sides.set_index("side").loc[sol.behind]
        lines.append(f"{where}: no {k.name} from {sol.lo} to {sol.hi:,} makes {what}: "
                     f"even at {sol.hi:,} side {sol.behind} is still behind "
                     f"({r['verdict_text']}).")
    n = sol.probes[0].games if sol.probes else 0
    lines.append("")
    lines.append(f"Values tried ({len(sol.probes)}, {n:,} games each on the same deals, "
                 f"seed {sol.probes[0].seed if sol.probes else ''}; the search assumes "
                 f"{k.name} helps side {sol.behind} as it grows):")
    lines.append(f"  {k.name:>16}  {'verdict':<15} side {sol.behind} vs parity   "
                 "furthest side")
    for p in sorted(sol.probes, key=lambda p: p.value):
        r = p.sides.set_index("side").loc[sol.behind]
        w = p.worst()
        lines.append(f"  {p.value:>16}  {p.verdict:<15} {100 * r['diff']:+6.1f} pp"
                     f"{'':>10}{w['side']} {100 * w['diff']:+.1f} pp")
    lines.append(f"Distances from parity in pp of won games; fair = the 90% interval inside "
                 f"±{100 * t.margin:g} pp. Took {_duration(sol.wall_s)}.")
    return "\n".join(lines)


def solution_dict(sol: Solution) -> dict:
    """The answer as plain JSON (``--json``; shares as fractions)."""
    def probe(p: Probe | None):
        if p is None:
            return None
        return {"value": p.value, "seed": p.seed, "games": p.games, "verdict": p.verdict,
                "sides": json.loads(p.sides.drop(columns=["bot", "mode", "option"])
                                    .to_json(orient="records"))}

    return {"game": sol.game, "setting": sol.knob.name, "target": sol.target.text(),
            "range": [sol.lo, sol.hi], "value": sol.value, "confirmed": sol.confirmed,
            "side_behind": sol.behind, "candidate": sol.candidate,
            "policies": sol.policies, "settings": sol.settings,
            "confirm": probe(sol.confirm), "probes": [probe(p) for p in sol.probes],
            "wall_s": sol.wall_s}
