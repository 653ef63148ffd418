"""Numbers in words: how the findings and the report tables write estimates and intervals.

One place for the formats the analyses share, so that every section writes an interval the
same way: ``interval(0.01, 0.03) == "[0.010, 0.030]"``, ``estimate(0.02, 0.01, 0.03,
"{:+.2f}", scale=100) == "+2.00 [+1.00, +3.00]"`` (percentage points), ``pct(0.123) ==
"12.3%"``, ``pp(-0.004) == "-0.4"``; :func:`cell` is the report's table cell.
"""

from __future__ import annotations

import math


def interval(lo, hi, fmt: str = "{:.3f}", scale: float = 1) -> str:
    """``"[lo, hi]"`` with ``fmt`` (``str.format``), both bounds times ``scale``."""
    if scale != 1:
        lo, hi = lo * scale, hi * scale
    return f"[{fmt.format(lo)}, {fmt.format(hi)}]"


def estimate(x, lo, hi, fmt: str = "{:.3f}", scale: float = 1) -> str:
    """``"x [lo, hi]"``: a figure and its interval in one format."""
    return f"{fmt.format(x * scale if scale != 1 else x)} {interval(lo, hi, fmt, scale)}"


def pp(x, fmt: str = "{:+.1f}") -> str:
    """A share in percentage points (``100 x``), signed by default: ``"+1.2"``."""
    return fmt.format(100 * x)


def pct(x, digits: int = 1) -> str:
    """A share as a percentage: ``"12.3%"``."""
    return f"{100 * x:.{digits}f}%"


def cell(v) -> str:
    """A table cell of the report: blank for None/NaN, 4 significant decimals for floats
    (3 significant digits when very large or small), ``str`` otherwise."""
    if v is None:
        return ""
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if v != 0 and (abs(v) >= 1e5 or abs(v) < 1e-3):
            return f"{v:.3g}"
        return f"{v:.4f}".rstrip("0").rstrip(".") if abs(v) < 1000 else f"{v:.1f}"
    return str(v)
