"""What the report adds to sections written before an analysis computed it.

The report reads only the sections' files, but a verdict that follows from a committed
table (a TOST against the default margin of "fair", an interval recomputed by a sounder
rule) need not wait for the next full run:
:func:`table` gives the table the current analysis would have written — the section's own
CSV when it has it, else the same computation (:mod:`demos_sim.analysis.core.fairness`)
on the columns the section does have, with the default margin (what the committed
experiment files set). A derived table says so above it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.fairness import fairness, with_verdicts
from demos_sim.analysis.core.stats import diff_same_games

NOTE = ("is derived by the report from the committed {src} (the section predates it), "
        "with the default margin of fair, ±1 pp")

# (analysis, table) -> (source table, what the report adds)
ADDED = {("teams", "fairness"): "sides"}
EXTENDED = {("game_shape", "seat_share"): "fairness", ("media", "targeted"): "gap_ci"}


def table(out: Path, name: str, t: str) -> tuple[pd.DataFrame | None, str]:
    """``(table, note)``: section ``name``'s table ``t``, or the report's derivation of
    it (with a note), or ``(None, "")``."""
    folder = Path(out) / name
    path = folder / f"{t}.csv"
    if path.exists():
        df = pd.read_csv(path)
        col = EXTENDED.get((name, t))
        if col and col not in df.columns and (name, t) == ("game_shape", "seat_share"):
            return (with_verdicts(df, "excess", "sow_ci_low", "sow_ci_high",
                                  offset="parity"),
                    f"column {col} " + NOTE.format(src=f"{t}.csv"))
        if (name, t) == ("media", "targeted") and "gap_method" not in df.columns:
            return _targeted_gap(df), ("interval of the gap is recomputed by the report "
                                       "from the two ratios' intervals in targeted.csv "
                                       "(added half-widths: conservative for two ratios "
                                       "of the same games; the section predates it)")
        return df, ""
    src = ADDED.get((name, t))
    if src and (folder / f"{src}.csv").exists():
        return (fairness(pd.read_csv(folder / f"{src}.csv")),
                "table " + NOTE.format(src=f"{src}.csv"))
    return None, ""


def extra_tables(sec: dict) -> list[str]:
    """Tables the report shows for ``sec`` beyond those it lists (derived ones first)."""
    return [t for (a, t) in ADDED if a == sec["name"] and t not in sec.get("show", [])]


def _targeted_gap(df: pd.DataFrame) -> pd.DataFrame:
    """The targeted − not-targeted gap with the same-games interval
    (:func:`stats.diff_same_games`) from each ratio's stored 95% interval."""
    df = df.copy()
    ht = (df["targeted_ci_high"] - df["targeted_ci_low"]) / 2
    hu = (df["not_targeted_ci_high"] - df["not_targeted_ci_low"]) / 2
    gap, hw = diff_same_games(df["targeted"], ht, df["not_targeted"], hu)
    df["gap"], df["gap_ci_low"], df["gap_ci_high"] = gap, gap - hw, gap + hw
    return df
