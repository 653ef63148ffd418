"""Statistics of the analyses: intervals, tests, multiple-testing adjustment.

The intervals of the runner's exact integer sums (means, ratios, paired differences of
common-random-number runs) are :mod:`demos_sim.runner.intervals`, re-exported here so that
an analysis finds every statistic in one module. This module adds what only the analyses
use: two-sided p-values of a paired difference, Holm / Benjamini–Hochberg adjustment over
a screen, a binomial interval for pooled counts, the interval of a mean of per-game
values, and a side's share of the games that had a winner.
"""

from __future__ import annotations

import math

from demos_sim.runner.intervals import (  # noqa: F401  (re-exported)
    Z95,
    Estimate,
    mean_ci,
    paired_diff_ci,
    ratio_ci,
)

__all__ = ["Z95", "Estimate", "mean_ci", "paired_diff_ci", "ratio_ci", "p_value", "adjust",
           "binomial_ci", "sample_mean_ci", "share_of_won"]


def p_value(diff: float, half_width: float, z: float = Z95) -> float:
    """Two-sided normal p-value of a difference whose 95% half-width is ``half_width``."""
    from scipy.stats import norm

    if not (half_width > 0):                  # zero or NaN spread
        return float("nan") if half_width != half_width else (0.0 if diff != 0 else 1.0)
    return float(2 * norm.sf(abs(diff) / (half_width / z)))


def adjust(pvalues, method: str = "holm"):
    """Multiple-testing adjusted p-values (statsmodels ``multipletests``).

    ``method``: ``"holm"`` (family-wise error, Holm–Bonferroni) or ``"fdr_bh"``
    (false discovery rate, Benjamini–Hochberg). NaN p-values stay NaN and do not count
    as tests.
    """
    import numpy as np
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method=method)[1]
    return out


def binomial_ci(k: float, n: float) -> tuple[float, float, float]:
    """``(p, lo, hi)``: the share ``k / n`` with its 95% normal (Wald) interval, clipped
    to [0, 1]; NaNs when ``n`` is 0 (pooled counts over player counts, passed proposals …).
    """
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    p = k / n
    h = Z95 * math.sqrt(max(p * (1 - p), 0.0) / n)
    return p, max(0.0, p - h), min(1.0, p + h)


def sample_mean_ci(v) -> tuple[float, float, float]:
    """``(mean, lo, hi)`` of per-game values ``v`` (1-D array), 95% normal interval with
    the sample sd; NaN bounds for a single game."""
    n = len(v)
    m = float(v.mean())
    half = Z95 * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return m, m - half, m + half


def share_of_won(mean: float, sd: float, games: int, won: float) -> tuple[float, float]:
    """A side's share of the games that had a winner, ``x̄ / w̄``, and its 95% half-width.

    ``mean``/``sd``: the side's per-game M1 win share (mean and sample sd over ``games``
    games); ``won``: the share of games with a winner (1 − no winner − truncated). The
    per-game share ``x`` is 0 whenever nobody won, so ``Σx·w = Σx`` and the sample
    covariance is ``n x̄ (1 − w̄) / (n − 1)``; the delta method then gives the same
    interval as :func:`ratio_ci` on the exact sums.
    """
    n = int(games)
    if n < 2 or not won > 0:
        return float("nan"), float("nan")
    r = mean / won
    vx = sd * sd
    vw = won * (1 - won) * n / (n - 1)
    cxw = mean * (1 - won) * n / (n - 1)
    var = max(vx - 2 * r * cxw + r * r * vw, 0.0) / (n * won * won)
    return r, Z95 * math.sqrt(var)
