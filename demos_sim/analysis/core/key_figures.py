"""Key figures: the headline numbers an analysis names for the robustness comparison.

An analysis's optional ``key_figures(tables)`` returns one row per figure and bot with the
columns :data:`COLUMNS` (a figure is usually a paired difference or a distance from
parity, with its 95% interval), and optionally :data:`OPTIONAL`:

- ``margin``: the size below which a change of the figure across bots does not matter to
  the designer (the robustness analysis's equivalence margin for "holds across skill");
- ``unit``: ``"share"`` for a share or a difference of shares (win shares, parities,
  rates), anything else (``"rounds"``, ``"vetoes"`` …) for other units. Without it,
  :func:`default_unit` decides from the figure's name.

The robustness analysis compares them across bots; an analysis flags its own figures
whose sign flips between bots with :func:`sign_flips`.
"""

from __future__ import annotations

import pandas as pd

COLUMNS = ["figure", "bot", "mean", "ci_low", "ci_high"]
OPTIONAL = ["margin", "unit"]


def default_unit(figure: str) -> str:
    """The unit of a key figure that does not give one: a count per game (``rounds per
    game``, ``vetoes per game``: ``"per game"``) when its name says so, else ``"share"``
    (every other key figure the analyses name is a share or a difference of shares)."""
    return "per game" if "per game" in figure else "share"


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
