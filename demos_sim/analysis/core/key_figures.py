"""Key figures: the headline numbers an analysis names for the robustness comparison.

An analysis's optional ``key_figures(tables)`` returns one row per figure and bot with the
columns :data:`COLUMNS` (a figure is usually a paired difference or a distance from
parity, with its 95% interval). The robustness analysis compares them across bots; an
analysis flags its own figures whose sign flips between bots with :func:`sign_flips`.
"""

from __future__ import annotations

import pandas as pd

COLUMNS = ["figure", "bot", "mean", "ci_low", "ci_high"]


def sign(lo: float, hi: float) -> int:
    """``+1`` when the interval lies above 0, ``-1`` below, ``0`` when it contains 0."""
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    return 0


def sign_flips(kf: pd.DataFrame) -> list[str]:
    """One line per figure of ``kf`` (key figures) whose sign flips between bots."""
    out = []
    for fig_name, g in kf.groupby("figure", sort=False):
        s = {b: sign(lo, hi) for b, lo, hi in zip(g["bot"], g["ci_low"], g["ci_high"])}
        if 1 in s.values() and -1 in s.values():
            out.append(f"sign flips between bots: {fig_name} ({s})")
    return out
