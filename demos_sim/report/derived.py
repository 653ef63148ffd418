"""What the report adds to sections written before an analysis computed it.

The report reads only the sections' files, but a verdict that follows from a committed
table (a TOST against the default margin of "fair", an interval recomputed by a sounder
rule) need not wait for the next full run: :func:`table` gives the table the current
analysis would have written — the section's own CSV when it has it, else the same
computation on the columns the section does have, with the default margin (what the
committed experiment files set). Each analysis declares its derived tables
(``REPORT.derived``, :class:`demos_sim.analysis.core.protocol.Derived`); a derived table
says so above it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.protocol import Derived
from demos_sim.report.registered import report


def declared(name: str) -> dict[str, Derived]:
    """The tables analysis ``name`` lets the report derive, by table."""
    rep = report(name)
    return {d.table: d for d in rep.derived} if rep is not None else {}


def table(out: Path, name: str, t: str) -> tuple[pd.DataFrame | None, str]:
    """``(table, note)``: section ``name``'s table ``t``, or the report's derivation of
    it (with a note), or ``(None, "")``."""
    folder = Path(out) / name
    path = folder / f"{t}.csv"
    d = declared(name).get(t)
    if path.exists():
        df = pd.read_csv(path)
        if d is not None and d.lacks is not None and d.lacks not in df.columns:
            return d.compute(df), d.note
        return df, ""
    if d is not None and d.source is not None and (folder / f"{d.source}.csv").exists():
        return d.compute(pd.read_csv(folder / f"{d.source}.csv")), d.note
    return None, ""


def extra_tables(sec: dict) -> list[str]:
    """Tables the report shows for ``sec`` beyond those it lists (derived ones first)."""
    return [d.table for d in declared(sec["name"]).values()
            if d.source is not None and d.table not in sec.get("show", [])]
