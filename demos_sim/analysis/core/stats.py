"""Statistics of the analyses: intervals, tests, multiple-testing adjustment.

The intervals of the runner's exact integer sums (means, ratios, paired differences of
common-random-number runs) and of shares counted from games (Wilson; Clopper–Pearson on
request; Newcombe for two independent shares; exact Poisson for counts) are
:mod:`demos_sim.runner.intervals` — the one module that owns the interval policy —
re-exported here so that an analysis finds every statistic in one module. This module adds
what only the analyses use: two-sided p-values of a paired difference, Holm /
Benjamini–Hochberg adjustment over a screen, the interval of a mean of per-game values, a
side's share of the games that had a winner (and its distance from a parity),
equivalence against a margin (TOST: is it *fair*?), the games needed to detect an effect
(power), and the share of a result's variance the deal explains (luck share).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from demos_sim.runner.intervals import (  # noqa: F401  (re-exported)
    Z95,
    Estimate,
    clopper_pearson,
    constant_rate_ci,
    mean_ci,
    newcombe_diff,
    paired_binary_ci,
    paired_diff_ci,
    poisson_ci,
    ratio_ci,
    share_ci,
    wilson,
)

__all__ = ["Z95", "Estimate", "mean_ci", "paired_diff_ci", "ratio_ci", "p_value", "adjust",
           "share_ci", "wilson", "clopper_pearson", "newcombe_diff", "poisson_ci",
           "constant_rate_ci", "paired_binary_ci", "sample_mean_ci", "share_of_won",
           "share_of_won_ci",
           "FAIR_MARGIN", "Equivalence",
           "tost", "tost_ci", "games_needed", "power_at", "bernoulli_sd", "LuckShare",
           "luck_share", "won_gap", "diff_same_games"]


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

    statsmodels' Holm runs a full ``gc.collect()`` at every call (statsmodels 0.15), which
    walks every object of the process: 0.07 s in a fresh one, up to a second in a test
    worker or an analysis holding numba's types, where the teams tables call it dozens of
    times. The objects alive before the call are frozen for its length (``gc.freeze``,
    undone after), so that collection looks only at what the call itself made; where
    something else froze objects already, they stay as they were.
    """
    import gc

    import numpy as np
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        mine = gc.get_freeze_count() == 0
        if mine:
            gc.freeze()
        try:
            out[ok] = multipletests(p[ok], method=method)[1]
        finally:
            if mine:
                gc.unfreeze()
    return out


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


def share_of_won_ci(mean: float, sd: float, games: int, won: float) -> tuple[float, float, float]:
    """``(share, lo, hi)``: :func:`share_of_won` with the interval of a share, as
    :func:`ratio_ci` gives one: Wilson's score interval on the effective number of trials
    ``n_eff = R(1 − R) / Var R`` (the delta-method variance), so it stays inside [0, 1]
    and is never [x, x] while it rests on games. When the delta variance is 0 (the side
    won every won game, or none) it rests on the ``n·w̄`` games that had a winner
    (:func:`constant_rate_ci`). NaNs without games or winners."""
    r, half = share_of_won(mean, sd, games, won)
    if r != r:
        return r, float("nan"), float("nan")
    var = (half / Z95) ** 2
    r_in = min(max(r, 0.0), 1.0)
    if var > 0 and 0 < r_in < 1:
        n_eff = r_in * (1 - r_in) / var
        lo, hi = wilson(r_in * n_eff, n_eff)
    else:
        lo, hi = constant_rate_ci(r_in, math.floor(int(games) * won))
    return r, lo, hi


# ------------------------------------------------------------- equivalence (TOST)
# the default equivalence margin, ±1 pp of share of won games (experiment key fair_margin)
from demos_sim.runner.experiment import FAIR_MARGIN  # noqa: E402


@dataclass(frozen=True)
class Equivalence:
    """An interval-based TOST of a difference ``d`` (a share minus its parity, or a paired
    difference) against the margin ``±m``, at level ``alpha``.

    - **fair**: the ``1 − 2α`` (90%) interval lies strictly inside ``(−m, +m)``. This is
      the two one-sided tests (TOST) ``d > −m`` and ``d < +m``, each at level α:
      ``p_tost`` (the larger one-sided p-value) ``< α``. A bound exactly on the margin is
      not inside: not fair.
    - **unfair**: the 90% interval lies strictly beyond the margin (``lo90 > m`` or
      ``hi90 < −m``): the one-sided test of ``|d| > m`` at level α.
    - **not shown fair** otherwise (too few games, or an effect near the margin).

    ``lo``/``hi`` is the usual 95% interval; the verdict rests on the 90% one
    (``lo90``/``hi90``), so :meth:`text` prints that one with the verdict.
    """

    diff: float
    lo: float
    hi: float
    lo90: float
    hi90: float
    margin: float
    p_tost: float
    verdict: str             # "fair" | "not shown fair" | "unfair"

    def text(self, scale: float = 100.0, unit: str = " pp",
             words: tuple[str, str, str] = ("fair", "not shown fair", "unfair"),
             digits: int = 1) -> str:
        """The verdict with the estimate and the 90% interval it rests on:
        ``fair: +0.3 pp, 90% [−0.2, +0.8] within ±1 pp``, ``not shown fair: −0.8 pp, 90%
        [−2.1, +0.5], margin ±1 pp``, ``unfair: −3.4 pp, 90% [−3.9, −2.9] beyond ±1 pp``.

        ``words``: the names of the three verdicts (fair, not shown, unfair), e.g.
        ``("does not matter", "not shown either way", "matters")`` for an effect. Bounds
        are printed with ``digits`` decimals, more where one would round onto the margin
        (so a "fair" never shows a bound equal to the margin)."""
        m = scale * self.margin
        ms = f"{m:g}"
        vals = [scale * self.lo90, scale * self.hi90]
        while digits < 4 and any(round(abs(v), digits) == round(m, digits) and abs(v) != m
                                 for v in vals if v == v):
            digits += 1

        def f(v: float) -> str:
            return f"{v:+.{digits}f}".replace("-", "−")

        body = (f"{f(scale * self.diff)}{unit}, 90% [{f(vals[0])}, {f(vals[1])}]")
        fair, unshown, unfair = words
        if self.verdict == "fair":
            return f"{fair}: {body} within ±{ms}{unit}"
        if self.verdict == "unfair":
            return f"{unfair}: {body} beyond ±{ms}{unit}"
        return f"{unshown}: {body}, margin ±{ms}{unit}"


def tost(diff: float, se: float, margin: float = FAIR_MARGIN,
         alpha: float = 0.05) -> Equivalence:
    """Equivalence of ``diff`` (standard error ``se``, normal) to 0 within ``±margin``:
    see :class:`Equivalence`. NaN inputs give "not shown fair" with NaN bounds."""
    from scipy.stats import norm

    if not margin > 0:
        raise ValueError(f"margin must be > 0, got {margin!r}")
    z90, z95 = float(norm.ppf(1 - alpha)), float(norm.ppf(1 - alpha / 2))
    if not (se >= 0) or diff != diff:
        nan = float("nan")
        return Equivalence(diff, nan, nan, nan, nan, margin, nan, "not shown fair")
    lo90, hi90 = diff - z90 * se, diff + z90 * se
    if se > 0:
        p_lower = float(norm.sf((diff + margin) / se))      # H0: d <= -m
        p_upper = float(norm.cdf((diff - margin) / se))     # H0: d >= +m
        p = max(p_lower, p_upper)
    else:
        p = 0.0 if abs(diff) < margin else 1.0
    if -margin < lo90 and hi90 < margin:
        verdict = "fair"
    elif lo90 > margin or hi90 < -margin:
        verdict = "unfair"
    else:
        verdict = "not shown fair"
    return Equivalence(diff, diff - z95 * se, diff + z95 * se, lo90, hi90, margin, p,
                       verdict)


def tost_ci(diff: float, lo: float, hi: float, margin: float = FAIR_MARGIN,
            alpha: float = 0.05) -> Equivalence:
    """:func:`tost` of an estimate given with its symmetric 95% normal interval
    ``[lo, hi]`` (``se = (hi − lo) / (2·1.96)``), as the sections' tables store it."""
    return tost(diff, (hi - lo) / (2 * Z95), margin, alpha)


# ---------------------------------------------------------------- games needed (power)
def games_needed(delta: float, sd: float, alpha: float = 0.05,
                 power: float = 0.8) -> float:
    """Games needed to detect a mean per-game difference ``delta`` with a two-sided
    z-test at level ``alpha`` with probability ``power``, when one game's value has
    standard deviation ``sd``: ``n = ((z_{1−α/2} + z_power)·sd / delta)²`` (one sample
    against a known value, or a paired difference with ``sd`` the sd of the per-game
    difference). Two independent groups of ``n`` games each: pass
    ``sd = sqrt(sd₁² + sd₂²)``. Infinite when ``delta`` is 0."""
    from scipy.stats import norm

    if not sd >= 0:
        return float("nan")
    if delta == 0:
        return float("inf")
    z = float(norm.ppf(1 - alpha / 2) + norm.ppf(power))
    return (z * sd / abs(delta)) ** 2


def power_at(games: float, delta: float, sd: float, alpha: float = 0.05) -> float:
    """The probability that ``games`` games detect ``delta`` (the inverse of
    :func:`games_needed`; the far tail of the two-sided test is counted too)."""
    from scipy.stats import norm

    if not (games > 0 and sd > 0):
        return float("nan")
    z = float(norm.ppf(1 - alpha / 2))
    shift = abs(delta) * math.sqrt(games) / sd
    return float(norm.sf(z - shift) + norm.cdf(-z - shift))


def bernoulli_sd(p: float) -> float:
    """The sd of one game's win indicator at win probability ``p``, ``sqrt(p(1 − p))``:
    what a table of people sees (no common random numbers, no pairing)."""
    return math.sqrt(max(p * (1 - p), 0.0))


# ------------------------------------------------------------------------ luck share
# (in the runner, below both the analyses and the tournament that print it)
from demos_sim.runner.intervals import LuckShare, luck_share  # noqa: E402,F401


def won_gap(mean: float, sd: float, games: int, won: float,
            target: float) -> tuple[float, float]:
    """``(d, se)``: a side's share of the games that had a winner minus ``target`` (its
    parity), with the delta-method standard error of :func:`share_of_won`."""
    r, half = share_of_won(mean, sd, games, won)
    return r - target, half / Z95


def diff_same_games(a: float, half_a: float, b: float, half_b: float) -> tuple[float, float]:
    """``(a − b, half-width)`` of two estimates measured on the **same games** (two
    conditional means of one run, e.g. targeted and not-targeted players' win shares),
    whose covariance the run's sums do not give. Each interval is already per game
    (clustered); whatever the correlation of the two estimators,
    ``Var(a − b) ≤ (sd_a + sd_b)²`` (Cauchy–Schwarz), so the half-widths add: a
    conservative 95% interval (treating them as independent, ``hypot``, would be too
    narrow when they are negatively correlated, as complementary groups of the same
    games are)."""
    return a - b, half_a + half_b


def ratio_same_games(a: float, half_a: float, b: float, half_b: float) -> tuple[float, float]:
    """``(a / b, half-width)`` of the ratio of two estimates measured on the **same games**
    (a paired difference per unit of a usage count of one run, e.g. a veto value per veto
    used), whose covariance the run's sums do not give. Delta method: ``a/b − R ≈ (δa −
    R·δb) / b`` with ``R = a / b``; whatever the correlation, ``sd(δa − R·δb) ≤ sd_a +
    |R|·sd_b`` (Cauchy–Schwarz), so the 95% half-width is at most ``(half_a + |R|·half_b)
    / |b|``: conservative, as :func:`diff_same_games`. NaNs when ``b`` is 0."""
    if b == 0 or b != b:
        return float("nan"), float("nan")
    r = a / b
    return r, (half_a + abs(r) * half_b) / abs(b)
