"""A checker for the interval policy over written tables: no interval resting on games may
have zero width at a share's edge (0 or 1).

``python -m tests.stats.zero_width [results/analyses]`` lists every row of every CSV below
the folder whose interval ``[low, high]`` has ``low == high`` while its value is 0 or 1 and
the row rests on games (a ``games`` column > 0, when the table has one), one line per
table and column pair with the number of rows; exit status 1 when any is found.

An interval is a pair of columns ``<x>low<y>`` / ``<x>high<y>`` (``ci_low``/``ci_high``,
``gap_ci_low``/``gap_ci_high``, ``ci_low_a``/``ci_high_a`` …). Differences count too (a
paired difference of 0 [0, 0]): the caller judges which are shares
(``--shares-only`` keeps the pairs whose low and high lie in [0, 1] on every row).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd


def interval_pairs(columns) -> list[tuple[str, str]]:
    """``[(low column, high column), …]``: every ``…low…`` column with its ``…high…`` twin."""
    cols = list(columns)
    return [(c, c.replace("low", "high")) for c in cols
            if "low" in c and c.replace("low", "high") in cols]


def zero_width(df: pd.DataFrame, shares_only: bool = False) -> dict[tuple[str, str], int]:
    """``{(low, high): rows}``: the rows of ``df`` whose interval is ``[v, v]`` with ``v``
    0 or 1, among rows with games (``games > 0`` when the column exists)."""
    out = {}
    games = (pd.to_numeric(df["games"], errors="coerce") > 0 if "games" in df.columns
             else pd.Series(True, index=df.index))
    for lo_c, hi_c in interval_pairs(df.columns):
        lo = pd.to_numeric(df[lo_c], errors="coerce")
        hi = pd.to_numeric(df[hi_c], errors="coerce")
        inside = lo.dropna().between(0, 1).all() and hi.dropna().between(0, 1).all()
        if shares_only and not inside:
            continue
        bad = games & (lo == hi) & (np.isclose(lo, 0.0) | np.isclose(lo, 1.0))
        if bad.any():
            out[(lo_c, hi_c)] = int(bad.sum())
    return out


def scan(root: Path, shares_only: bool = False) -> list[tuple[str, str, str, int]]:
    """``[(table, low, high, rows), …]`` over every CSV under ``root``."""
    found = []
    for f in sorted(Path(root).rglob("*.csv")):
        try:
            df = pd.read_csv(f)
        except (pd.errors.EmptyDataError, pd.errors.ParserError):
            continue
        for (lo, hi), k in zero_width(df, shares_only).items():
            found.append((str(f.relative_to(root)), lo, hi, k))
    return found


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    shares_only = "--shares-only" in argv
    argv = [a for a in argv if a != "--shares-only"]
    root = Path(argv[0] if argv else "results/analyses")
    found = scan(root, shares_only)
    for t, lo, hi, k in found:
        print(f"{t}: {lo}/{hi}: {k} rows zero-wide at 0 or 1")
    print(f"{sum(k for *_, k in found)} zero-width intervals at 0 or 1 in {len(found)} "
          f"column pairs under {root}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
