"""Shares and their differences as a person reads them on the terminal: a share in %
(``19.55%``), a difference of two shares in pp, percentage points (``+0.93 pp``), each
interval in the same unit. The machine outputs (``--json``, the tables a run writes) keep
fractions from 0 to 1; only the printed text uses these.

A value that is not 0 but would print as 0.00 gets 2 significant digits instead (the
Wilson upper bound of 0 of 100,000 games is 0.0038%, not 0.00%): an interval that rests
on games never reads as [x, x]."""

from __future__ import annotations

import math


def _num(v: float, digits: int, sign: bool) -> str:
    if math.isnan(v):
        return "nan"
    if 0 < abs(v) < 0.5 * 10 ** -digits:
        return f"{v:+.2g}" if sign else f"{v:.2g}"
    return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"


def pct(x: float, digits: int = 2) -> str:
    """A share (a fraction) in %: ``pct(0.19551) == "19.55%"``."""
    return _num(100 * x, digits, False) + "%"


def pct_ci(lo: float, hi: float, digits: int = 2) -> str:
    """The interval of a share in %: ``"[19.01, 20.10]"`` (the unit is the share's)."""
    return f"[{_num(100 * lo, digits, False)}, {_num(100 * hi, digits, False)}]"


def pp(d: float, digits: int = 2) -> str:
    """A difference of two shares in percentage points: ``pp(0.0093) == "+0.93 pp"``."""
    return _num(100 * d, digits, True) + " pp"


def pp_ci(lo: float, hi: float, digits: int = 2) -> str:
    """The interval of a difference of shares in pp: ``"[-0.46, +0.51]"``."""
    return f"[{_num(100 * lo, digits, True)}, {_num(100 * hi, digits, True)}]"
