"""Reference implementations written out for the tests (not the project's code): the
analyses' tables are checked against these, never against the function they call."""

from __future__ import annotations

import math


def holm(p) -> list[float]:
    """Holm's step-down adjusted p-values, from the definition: sort the m p-values
    ascending, multiply the i-th (0-based) by m − i, take the running maximum, cap at 1.
    NaNs stay NaN and do not count in m."""
    p = [float(x) for x in p]
    idx = [i for i, x in enumerate(p) if not math.isnan(x)]
    m = len(idx)
    out = [math.nan] * len(p)
    run = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: p[i])):
        run = max(run, min(1.0, (m - rank) * p[i]))
        out[i] = run
    return out
