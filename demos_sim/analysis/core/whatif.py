"""A what-if: one setup against another on the same deals, as a table of paired differences.

``demos-sim compare --set carre_points=40`` plays the game twice on every deal — once as
the reference (the contract's defaults, or ``--against-set …``), once with the change —
through the runner (an experiment of two points kept in memory,
:func:`demos_sim.runner.experiment.experiment_of`), and reports, for every figure of
``simulate`` (win share by side or seat, no winner, truncated, game length and the game's
``summary_metrics``), the reference value, the value with the change and their paired
difference with its 95% interval. Differences are tested together: their p-values are
Holm-adjusted over the rows shown (family-wise error 5%), and only rows whose adjusted
p-value is below 0.05 are flagged as moved. With ``half_width`` the run stops at the first
chunk where every win-share difference's 95% half-width is at most that (or at ``games``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from demos_sim.analysis.core.stats import adjust, p_value
from demos_sim.game import get_game
from demos_sim.restricted import lineup
from demos_sim.runner.experiment import StopRule, experiment_of
from demos_sim.runner.run import RunResult, run_experiment
from demos_sim.runner.units import pct, pp, pp_ci


@dataclass
class WhatIf:
    """A finished comparison: ``table`` (one row per figure) and the run behind it."""

    game: str
    reference: str          # e.g. "contract defaults"
    change: str             # e.g. "carre_points=40"
    table: pd.DataFrame
    run: RunResult

    @property
    def games(self) -> int:
        return int(self.run.meta["games_per_point"])

    def moved(self) -> pd.DataFrame:
        return self.table[self.table["moved"]]


def _label(changes: dict, policies: list[str] | None) -> str:
    parts = [f"{k}={v}" for k, v in changes.items()]
    if policies:
        parts.append("policies " + ",".join(policies))
    return ", ".join(parts)


@dataclass
class Plan:
    """A validated comparison, not yet played: the experiment of two points (reference
    first) and the labels of both (:func:`plan`; the explorer runs it with a callback)."""

    game: str
    reference: str
    change: str
    experiment: object      # demos_sim.runner.experiment.Experiment

    def table(self, results: pd.DataFrame) -> pd.DataFrame:
        """The comparison table of a (possibly partial) results table of the plan's run."""
        return _table(get_game(self.game), results)


def plan(game: str, settings: dict, players: int | None, change: dict,
         against: dict | None = None, policies: list[str] | None = None,
         against_policies: list[str] | None = None, games: int = 20000, seed: int = 0,
         plugins: tuple[str, ...] = (), half_width: float | None = None,
         allow_reference: bool = False, against_settings: dict | None = None) -> Plan:
    """Validate a comparison (arguments as :func:`compare`) and build its experiment;
    one-line errors on bad input, before any game is played. A reference policy
    (``omniscient``: sees every hidden card) is refused unless ``allow_reference``.
    ``against_settings``: the reference's settings when they differ from ``settings``
    (a trial rule such as DĒMOS ``handicap_points`` tried on one side only); default the
    same settings on both sides."""
    from demos_sim import ConfigError
    from demos_sim.registry import refuse_references

    g = get_game(game)
    against = dict(against or {})
    ref_settings = dict(settings) if against_settings is None else dict(against_settings)
    ref_cfg = g.make_config(dict(ref_settings), players, against)
    new_variants = {**against, **change}
    new_cfg = g.make_config(dict(settings), players, new_variants)
    n = g.players_of(new_cfg)
    pols = policies or [g.default_policies(new_cfg)]
    ref_pols = against_policies or pols
    seats = lineup(g, pols, new_cfg, plugins)    # idle :flag refused, each side
    ref_seats = lineup(g, ref_pols, ref_cfg)
    if not allow_reference:
        refuse_references(list(seats.policies) + list(ref_seats.policies), "compare",
                          "--allow-reference")
    if g.describe(ref_cfg) == g.describe(new_cfg) and ref_seats.specs == seats.specs:
        raise ConfigError("nothing to compare: give --set VARIANT=VALUE (or other --policies) "
                          "that differ from the reference")
    if half_width is not None and not half_width > 0:
        raise ConfigError(f"--half-width must be > 0, got {half_width}")
    plugins = tuple(dict.fromkeys(tuple(plugins) + g.loaded_plugins()))
    set_ref = {k: v for k, v in ref_settings.items() if settings.get(k) != v}
    set_new = {k: v for k, v in settings.items() if ref_settings.get(k) != v}
    ref_name = _label({**set_ref, **against}, against_policies) or "contract defaults"
    new_name = _label({**set_new, **change},
                      policies if policies != against_policies else None) or "the change"
    metrics = ("win_share", "no_winner", "truncated", g.length, *g.summary_metrics)
    exp = experiment_of(g.name, [(ref_name, ref_cfg, ref_seats), (new_name, new_cfg, seats)],
                        games, seed, plugins, name="compare", metrics=metrics)
    if half_width is not None:
        exp = dataclasses.replace(exp, stop=StopRule(half_width, games, ("diff:win_share",)))
    return Plan(g.name, ref_name, new_name, exp)


def compare(game: str, settings: dict, players: int | None, change: dict,
            against: dict | None = None, policies: list[str] | None = None,
            against_policies: list[str] | None = None, games: int = 20000, seed: int = 0,
            workers: int = 1, plugins: tuple[str, ...] = (),
            half_width: float | None = None, allow_reference: bool = False) -> WhatIf:
    """Play ``change`` (variants) and ``policies`` against ``against`` (variants, default
    none: the contract's defaults) and ``against_policies`` (default: the same policies)
    on common deals; see the module docstring. One-line errors on bad input."""
    p = plan(game, settings, players, change, against, policies, against_policies, games,
             seed, plugins, half_width, allow_reference)
    run = run_experiment(p.experiment, workers=workers, quiet=True, keep=False)
    return WhatIf(game, p.reference, p.change, p.table(run.results), run)


def _table(g, df: pd.DataFrame) -> pd.DataFrame:
    ref = df[df["point"] == 0].set_index(["metric", "side"])
    new = df[df["point"] == 1]
    rows = []
    for r in new.itertuples():
        q = g.quantity(r.metric)
        if q.level == "bins" or q.per is not None:
            continue
        base = ref.loc[(r.metric, r.side)]
        rows.append({"metric": r.metric, "side": r.side, "seats": r.seats,
                     "description": q.description, "games": int(r.games),
                     "reference": float(base["mean"]), "changed": float(r.mean),
                     "diff": float(r.diff), "diff_ci_low": float(r.diff_ci_low),
                     "diff_ci_high": float(r.diff_ci_high),
                     "p": p_value(float(r.diff), float(r.diff_half_width))})
    t = pd.DataFrame(rows)
    t["p_holm"] = adjust(t["p"].to_numpy(), "holm")
    t["moved"] = np.nan_to_num(t["p_holm"].to_numpy(), nan=1.0) < 0.05
    return t


def _who(t: pd.DataFrame) -> list[str]:
    """Each row's seat or side, in RULES.md's words: a side is a team (or the Independent)
    only when some side of the game has several seats; in individual play every player is
    a side of one, named by their seat (M1). Per-game figures say "game"."""
    teams = any("," in str(r.seats) for r in t.itertuples() if r.side != "all")
    out = []
    for r in t.itertuples():
        if r.side == "all":
            out.append("game")
        elif "," in str(r.seats) or (teams and str(r.seats) != str(r.side)):
            out.append(f"side {r.side}")
        else:
            out.append(f"seat {r.side}")
    return out


def format_whatif(w: WhatIf, title: str) -> str:
    """The text of ``demos-sim compare``: the sentence first, then the table. Shares (rates:
    win share, no winner, truncated …) in %, their differences in pp; other figures
    (rounds, points, vetoes) in their own units (``--json`` keeps fractions)."""
    g = get_game(w.game)
    t = w.table
    who = dict(zip(t.index, _who(t)))
    moved = w.moved()
    lines = [f"{title}: {w.change} against {w.reference}, {w.games} games on the same deals"]
    ws = moved[moved["metric"] == "win_share"]
    if len(ws):
        parts = [f"{who[i]} {pp(r.diff)}" for i, r in zip(ws.index, ws.itertuples())]
        lines.append("The change moves the win share of " + ", ".join(parts) + ".")
    else:
        lines.append("The change moves no win share beyond its interval "
                     "(not shown equal either: see the intervals).")
    lines.append("")
    lines.append(f"{'figure':<14}{'seat/side':<10}{'reference':>10}  {'changed':>10}  "
                 f"difference [95% CI]")
    for i, r in zip(t.index, t.itertuples()):
        name = r.metric.replace("_", " ")
        mark = "  *" if r.moved else ""
        if g.quantity(r.metric).rate:
            cells = (pct(r.reference), pct(r.changed),
                     f"{pp(r.diff)} {pp_ci(r.diff_ci_low, r.diff_ci_high)}")
        else:
            cells = (f"{r.reference:.4f}", f"{r.changed:.4f}",
                     f"{r.diff:+.4f} [{r.diff_ci_low:+.4f}, {r.diff_ci_high:+.4f}]")
        lines.append(f"{name:<14}{who[i]:<10}{cells[0]:>10}  {cells[1]:>10}  {cells[2]}{mark}")
    lines.append(f"* moved: paired difference significant after Holm adjustment over the "
                 f"{len(t)} rows (family-wise error 5%). Shares in %, their differences in "
                 "pp (percentage points).")
    return "\n".join(lines)
