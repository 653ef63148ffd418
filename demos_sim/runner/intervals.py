"""Every interval of the project: shares, means, ratios, paired and independent differences.

This module owns the interval policy (:mod:`demos_sim.analysis.core.stats` re-exports it).
All intervals are 95% (two-sided) unless a function says otherwise.

**Shares from counts** (``k`` of ``n`` trials that are games, collapses, lost games …):
the Wilson score interval, :func:`share_ci` / :func:`wilson` (statsmodels'
``proportion_confint(method="wilson")``); :func:`clopper_pearson` is the exact interval,
for a caller that wants it. Neither is ever ``[x, x]`` when ``n ≥ 1``: 0 of ``n`` is
``[0, z²/(n + z²)]``, ``n`` of ``n`` is ``[n/(n + z²), 1]``, 1 of 1 is ``[0.207, 1]``.

**Differences of two independent shares** (different games): Newcombe's hybrid score
interval, :func:`newcombe_diff` (statsmodels' ``confint_proportions_2indep(method=
"newcomb")``). **Paired differences** (the same deals under two configurations) keep
:func:`paired_diff_ci` below.

**Means of per-game values from exact integer sums.** Every per-game quantity ``x`` is an
integer (value × ``scale``), and a run keeps only ``n``, ``Σx``, ``Σx²`` and, for paired
comparisons, ``Σx·y`` where ``y`` is the same game (same deal, same seat streams) played
under the reference configuration. From these:

- mean ``x̄ = Σx / n``; sample variance ``s² = (nΣx² − (Σx)²) / (n(n−1))``; the 95% interval
  is the normal interval ``x̄ ± z·s/√n`` (z = 1.95996…); rates (values in [0, 1], e.g. a
  win share with shared wins) are clipped to [0, 1] — with ``s > 0`` that never gives a
  zero width. A rate whose every game is 0 or 1 (a collapse, a game without a winner, a
  win never shared) — recognised exactly from the sums, ``Σx² = scale·Σx`` — is a count
  of games and gets the Wilson interval instead: 0 collapses in 16,384 games is
  [0, 0.000234], not [0, 0]. ``half_width`` stays ``z·s/√n`` (the stopping rule's
  measure of precision).
- **every game equal** (``s = 0``) but not 0/1 — a rate ``c`` strictly inside (0, 1), e.g.
  every game a win shared by two (0.5): no game of ``n`` differed from ``c``, so the
  chance ``q`` that a game differs is at most Wilson's upper bound for 0 of ``n``,
  ``u = z²/(n + z²)``; a game that differs moves the mean by at most ``c`` down or
  ``1 − c`` up, so the mean lies in ``[c − u·c, c + u·(1 − c)]`` (:func:`constant_rate_ci`;
  at ``c`` = 0 or 1 it is Wilson's interval for 0 of n or n of n).
- a **count that is 0 in every game** (vetoes, actions, passes: a quantity that is not a
  rate) gets the exact Poisson (Garwood) interval of 0 events in ``n`` games,
  ``[0, −ln(0.025)/n] = [0, 3.689/n]`` (:func:`poisson_ci`; the "rule of three" 3/n is its
  one-sided 95% cousin). A non-rate quantity equal to a non-zero constant in every game
  (every civic game lasts its 10 rounds) keeps ``[c, c]``: nothing bounds how far a game
  that differed could differ, and the sums give no spread; such figures are not shares.
- paired difference ``d = x − y`` per game: ``Σd = Σx − Σy`` and ``Σd² = Σx² + Σy² − 2Σxy``,
  so ``d̄`` and its sample variance are exact too, and the interval is ``d̄ ± z·s_d/√n``.
  Games are independent draws (each has its own key from ``SeedSequence``), so the ``d``
  are i.i.d. and the CLT interval applies; because both configurations play the same
  deals, ``s_d² = s_x² + s_y² − 2 cov(x, y)`` is usually much smaller than the unpaired
  ``s_x² + s_y²`` — that is what common random numbers buy. A 0/1 rate whose games
  differ in only a few games (fewer than :data:`FEW_CHANGED`) gets an exact interval
  instead (:func:`paired_binary_ci`): the normal one claims [0, 0] when none differ. Any
  rate (0/1 or not, e.g. a win share with shared wins) in which **no game changed**
  (``Σd² = 0``) gets the same exact interval for 0 changed games, ``±(1 − 0.0125^(1/n))``:
  ``|d| ≤ 1`` per game, so the bound on the chance of a change bounds the mean.

**Ratios** ``Σx / Σy`` (:func:`ratio_ci`): the delta-method interval, never clipped. A
ratio that is a rate (a share of round wins, of lost games, of collapses) is given the
Wilson interval on its effective number of trials ``n_eff = R(1 − R) / Var(R)`` (the
delta-method variance: the design-effect Wilson interval, which stays inside [0, 1]
without clipping and is close to ``R ± z·√Var(R)`` when ``n_eff`` is large); at ``R`` = 0 or
1 (or every game's ratio equal) the variance is 0 and ``n_eff`` is the number of games
that had a denominator, bounded below by ``(Σy)²/Σy²`` (Cauchy–Schwarz; exact when ``y`` is
0/1 per game, as for lost games or collapses), with :func:`constant_rate_ci` on it: 0 of
94,315 lost games is [0, 0.0000407], not [0, 0].

The products are taken in Python integers (no overflow) and divided once, in floats.
Under a stopping rule (``[stop]``: a Chow–Robbins fixed-width rule on the normal
half-width ``z·s/√n`` of every tracked mean or paired difference, checked after each
chunk) the number of games depends on the observed variances (not on the means), which
leaves the coverage of these fixed-sample intervals close to nominal for the run sizes
used here (thousands of games per chunk); they are not sequentially adjusted (not
always-valid). Ratios (:func:`ratio_ci`) cannot be tracked by the rule; their
delta-method interval is computed at the stop, its width not bounded by the rule. The
intervals are not adjusted for looking at many grid points at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    mean: float
    sd: float            # sample standard deviation of one game's value
    half_width: float    # z · sd / √n
    lo: float
    hi: float


def _alpha(z: float) -> float:
    """The two-sided level of a normal interval of ``z`` standard errors (0.05 at Z95)."""
    return float(math.erfc(z / math.sqrt(2)))


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials (95% at the default ``z``;
    statsmodels' ``proportion_confint(method="wilson")``). ``k`` may be fractional (an
    effective count, :func:`ratio_ci`). NaNs when ``n`` is 0."""
    from statsmodels.stats.proportion import proportion_confint

    if not n > 0:
        return (math.nan, math.nan)
    lo, hi = proportion_confint(k, n, alpha=_alpha(z), method="wilson")
    # the score interval's edge is exactly 0 at k = 0 and 1 at k = n (statsmodels'
    # rounding can leave 0.9999999999999999, an interval that misses its own estimate)
    lo = 0.0 if k <= 0 else max(0.0, float(lo))
    hi = 1.0 if k >= n else min(1.0, float(hi))
    return (lo, hi)


def clopper_pearson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Exact (Clopper–Pearson) interval of ``k`` successes in ``n`` trials: Beta quantiles,
    ``[0, 1 − (α/2)^(1/n)]`` at ``k = 0``. NaNs when ``n`` is 0."""
    from statsmodels.stats.proportion import proportion_confint

    if not n > 0:
        return (math.nan, math.nan)
    lo, hi = proportion_confint(int(k), int(n), alpha=_alpha(z), method="beta")
    return (float(lo), float(hi))


def share_ci(k: float, n: float, method: str = "wilson",
             z: float = Z95) -> tuple[float, float, float]:
    """``(k / n, lo, hi)``: a share counted over ``n`` trials with its Wilson interval (the
    default; ``method="clopper_pearson"`` for the exact one). NaNs when ``n`` is 0."""
    if not n > 0:
        return (math.nan, math.nan, math.nan)
    f = {"wilson": wilson, "clopper_pearson": clopper_pearson}[method]
    lo, hi = f(k, n, z)
    return (k / n, lo, hi)


def newcombe_diff(k1: int, n1: int, k2: int, n2: int,
                  z: float = Z95) -> tuple[float, float, float]:
    """``(p₁ − p₂, lo, hi)`` of two shares counted on **independent** trials (different
    games), with Newcombe's hybrid score interval (method 10 of Newcombe 1998: each share's
    Wilson bounds ``l_i, u_i`` combine as ``d − √((p₁−l₁)² + (u₂−p₂)²)`` and
    ``d + √((u₁−p₁)² + (p₂−l₂)²)``; statsmodels' ``confint_proportions_2indep(method=
    "newcomb")``). NaNs when either ``n`` is 0."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    if not (n1 > 0 and n2 > 0):
        return (math.nan, math.nan, math.nan)
    lo, hi = confint_proportions_2indep(int(k1), int(n1), int(k2), int(n2), method="newcomb",
                                        compare="diff", alpha=_alpha(z))
    return (k1 / n1 - k2 / n2, float(lo), float(hi))


def poisson_ci(k: int, n: float, z: float = Z95) -> tuple[float, float]:
    """Exact (Garwood) interval of a rate of events per game from ``k`` events in ``n``
    games: ``[χ²(α/2; 2k)/2n, χ²(1−α/2; 2k+2)/2n]``. With no event it is
    ``[0, −ln(α/2)/n] = [0, 3.689/n]`` at 95% (the rule of three, 3/n, is the one-sided 95%
    bound)."""
    from scipy.stats import chi2

    if not n > 0:
        return (math.nan, math.nan)
    a = _alpha(z)
    lo = float(chi2.ppf(a / 2, 2 * k)) / (2 * n) if k > 0 else 0.0
    return (lo, float(chi2.ppf(1 - a / 2, 2 * k + 2)) / (2 * n))


def constant_rate_ci(c: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Interval of the mean of a value in [0, 1] that was ``c`` in each of ``n`` games (no
    spread to measure): the chance that a game differs from ``c`` is at most ``u``, Wilson's
    upper bound for 0 of ``n`` (``z²/(n + z²)``), and a game that differs moves at most ``c``
    down or ``1 − c`` up, so ``[c − u·c, c + u·(1 − c)]``. Wilson's 0 of n / n of n at
    ``c`` = 0 / 1. NaNs when ``n`` is 0."""
    if not n > 0:
        return (math.nan, math.nan)
    u = wilson(0, n, z)[1]
    return (c - u * c, c + u * (1 - c))


def _estimate(s: int, sq: int, n: int, scale: int, rate: bool, z: float,
              zero_count: bool = True) -> Estimate:
    s, sq, n = int(s), int(sq), int(n)
    if n < 1:
        nan = float("nan")
        return Estimate(nan, nan, nan, nan, nan)
    mean = s / (n * scale)
    num = n * sq - s * s                 # exact, >= 0; 0 when every game is equal
    if n < 2:
        sd = half = float("nan")
        lo = hi = mean
    else:
        sd = math.sqrt(max(num, 0) / (n * (n - 1))) / scale
        half = z * sd / math.sqrt(n)
        lo, hi = mean - half, mean + half
    if rate:
        if sq == s * scale:                    # every game 0 or 1: a count of games
            lo, hi = wilson(s // scale, n, z)
        elif num == 0:                         # every game the same value inside (0, 1)
            lo, hi = constant_rate_ci(mean, n, z)
        else:
            lo, hi = max(0.0, lo), min(1.0, hi)
    elif zero_count and s == 0 and sq == 0:    # a count that is 0 in every game
        lo, hi = poisson_ci(0, n, z)
    return Estimate(mean, sd, half, lo, hi)


def mean_ci(s: int, sq: int, n: int, scale: int = 1, rate: bool = False,
            z: float = Z95) -> Estimate:
    """Mean of ``x / scale`` over ``n`` games, from ``Σx`` and ``Σx²``, with its interval
    (the module's rules: Wilson for a 0/1 rate, :func:`constant_rate_ci` for a rate equal
    in every game, :func:`poisson_ci` for a count that is 0 in every game, the normal
    interval otherwise, clipped to [0, 1] for a rate)."""
    return _estimate(s, sq, n, scale, rate, z)


FEW_CHANGED = 10     # a paired 0/1 rate with fewer games that differ gets the exact interval


def paired_diff_ci(s: int, sq: int, s_ref: int, sq_ref: int, cross: int, n: int,
                   scale: int = 1, z: float = Z95, rate: bool = False) -> Estimate:
    """Mean of the per-game differences ``(x − y) / scale`` with its interval.

    ``s, sq`` are ``Σx, Σx²``; ``s_ref, sq_ref`` are ``Σy, Σy²``; ``cross`` is ``Σxy``,
    all over the same ``n`` paired games.

    A rate whose every game is 0 or 1 under both configurations (recognised exactly from
    the sums, as in :func:`mean_ci`) and whose games differ in fewer than
    :data:`FEW_CHANGED` of them gets :func:`paired_binary_ci` instead of the normal
    interval, which there is too narrow — with no game changed it is [0, 0], whatever
    ``n``. Any rate with no game changed (``Σd² = 0``; a win share with shared wins too:
    ``|d| ≤ 1``) gets :func:`paired_binary_ci` for 0 changed games. ``half_width`` is then
    the larger side of that interval (so p-values and the stopping rule see its width).
    A difference that is not a rate and did not change in any game keeps [0, 0] (nothing
    bounds how far a game that changed could move a count or a score; none of them is a
    share).
    """
    s, sq, s_ref, sq_ref, cross = map(int, (s, sq, s_ref, sq_ref, cross))
    sq_d = sq + sq_ref - 2 * cross
    e = _estimate(s - s_ref, sq_d, n, scale, False, z, zero_count=False)
    if rate and z == Z95 and n >= 1:
        binary = sq == s * scale and sq_ref == s_ref * scale
        changed = sq_d // (scale * scale) if binary else (0 if sq_d == 0 else None)
        if changed is not None and changed < FEW_CHANGED:       # games with x ≠ y
            up = (changed + (s - s_ref) // scale) // 2            # games with x = 1, y = 0
            lo, hi = paired_binary_ci(up, changed, n)
            return Estimate(e.mean, e.sd, max(hi - e.mean, e.mean - lo), lo, hi)
    return e


def paired_binary_ci(up: int, changed: int, n: int) -> tuple[float, float]:
    """95% interval of a paired difference of two 0/1 rates over ``n`` games, of which
    ``changed`` differ, ``up`` of them 1 against the reference's 0: ``d = δ (2π − 1)``
    with ``δ`` the chance that a game differs and ``π`` the chance that a game that
    differs went up. Each gets its 97.5% Clopper–Pearson interval (``π``'s given the
    number of changed games, [0, 1] when none changed), and ``d`` is bounded over the
    box they make: coverage at least 95% by Bonferroni. With no game changed it is
    ``±(1 − 0.0125^(1/n))`` (±1.1 pp at 384 games, where the normal interval is [0, 0])."""
    from statsmodels.stats.proportion import proportion_confint

    d_lo, d_hi = proportion_confint(int(changed), int(n), alpha=0.025, method="beta")
    if changed > 0:
        p_lo, p_hi = proportion_confint(int(up), int(changed), alpha=0.025, method="beta")
    else:
        p_lo, p_hi = 0.0, 1.0
    d_lo, d_hi = float(d_lo), float(d_hi)
    lo = min(d_lo * (2 * p_lo - 1), d_hi * (2 * p_lo - 1))
    hi = max(d_lo * (2 * p_hi - 1), d_hi * (2 * p_hi - 1))
    return lo, hi


def ratio_ci(sx: int, sxx: int, sy: int, syy: int, sxy: int, n: int, scale: int = 1,
             rate: bool = False, z: float = Z95) -> Estimate:
    """Ratio ``R = Σx / (scale · Σy)`` over ``n`` games, with a delta-method interval.

    ``x`` and ``y`` are per-game values (e.g. Σ over seats of win share × [held one Media],
    and the number of seats that held one): ``R`` is a conditional mean. With per-game
    means ``x̄, ȳ``, ``Var R ≈ (s_x² − 2R s_xy + R² s_y²) / (n ȳ²)`` (games i.i.d.).
    ``sd`` is reported as ``half_width·√n / z`` so that it reads like the other estimates;
    ``half_width`` is always the delta method's ``z·√Var R``.

    The interval is ``R ± half_width``, not clipped. A ``rate`` (``x ≤ y`` in every game: a
    share of round wins, of lost games, of collapses) gets instead the Wilson interval on
    the effective number of trials ``n_eff = R(1 − R) / Var R`` (inside [0, 1] by
    construction); when ``Var R`` is 0 (``R`` = 0 or 1, or every game's ratio equal)
    :func:`constant_rate_ci` on the games that had a denominator, at least
    ``(Σy)² / Σy²`` of them (Cauchy–Schwarz; exact for a 0/1 denominator).
    """
    sx, sxx, sy, syy, sxy, n = map(int, (sx, sxx, sy, syy, sxy, n))
    nan = float("nan")
    if n < 2 or sy <= 0:
        return Estimate(nan, nan, nan, nan, nan)
    r = sx / (scale * sy)                      # ratio in units of x / scale
    xs = sx / scale
    vx = (sxx / scale ** 2 - xs * xs / n) / (n - 1)
    vy = (syy - sy * sy / n) / (n - 1)
    cxy = (sxy / scale - xs * sy / n) / (n - 1)
    ybar = sy / n
    var = max(vx - 2 * r * cxy + r * r * vy, 0.0) / (n * ybar * ybar)
    half = z * math.sqrt(var)
    lo, hi = r - half, r + half
    if rate:
        if sx == 0 or sx == scale * sy or not var > 0:
            lo, hi = constant_rate_ci(r, math.floor(sy * sy / syy), z)
        else:
            n_eff = r * (1 - r) / var
            lo, hi = wilson(r * n_eff, n_eff, z)
    return Estimate(r, half * math.sqrt(n) / z, half, lo, hi)


# ------------------------------------------------------------------------ luck share
@dataclass(frozen=True)
class LuckShare:
    """The share of a result's variance that the deal explains (see :func:`luck_share`)."""

    share: float
    lo: float
    hi: float
    deals: int
    replays: int
    between: float           # variance between deals (σ²_deal)
    within: float            # variance within a deal (σ²_replay)


def luck_share(y, offset=None, boot: int = 200, seed: int = 0) -> LuckShare:
    """How much of the outcome the deal decides, under common random numbers.

    ``y`` is a (deals × replays) array: the same result (a seat's M1 win share) when each
    deal is replayed ``r`` times with only the players changed (e.g. the policies
    rotated through the seats). The one-way random-effects model
    ``y_ij = μ + f_ij + a_i + e_ij`` (a fixed effect ``f_ij`` of the replay, given as
    ``offset``, e.g. the mean result of the policy that sat there; the deal effect
    ``a_i``; the replay noise ``e_ij``) gives, from the ANOVA mean squares of
    ``y − f``::

        MSB = r·Σ_i (ȳ_i − ȳ)² / (D − 1)     MSW = Σ_ij (y_ij − ȳ_i)² / (D (r − 1))
        σ²_deal = (MSB − MSW) / r           σ²_replay = MSW
        luck share L = σ²_deal / (σ²_deal + σ²_replay + Var f)

    Without ``offset`` (``f = 0``) L is the intraclass correlation ICC(1). L = 1 when the
    deal alone decides the result (every replay the same), about 0 when the result does
    not depend on the deal; it can fall slightly below 0 by sampling error. The 95%
    interval is a percentile bootstrap over deals (``boot`` resamples, fixed ``seed``).
    """
    import numpy as np

    y = np.asarray(y, dtype=float)
    if y.ndim != 2 or y.shape[0] < 2 or y.shape[1] < 2:
        raise ValueError(f"luck_share needs a (deals >= 2) x (replays >= 2) array, got "
                         f"shape {y.shape}")
    f = np.zeros_like(y) if offset is None else np.asarray(offset, dtype=float)
    if f.shape != y.shape:
        raise ValueError(f"offset has shape {f.shape}, y {y.shape}")
    d, r = y.shape

    def parts(yy, ff):
        e = yy - ff
        means = e.mean(axis=1)
        msb = r * ((means - means.mean()) ** 2).sum() / (d - 1)
        msw = ((e - means[:, None]) ** 2).sum() / (d * (r - 1))
        return (msb - msw) / r, msw, float(ff.var())

    between, within, fixed = parts(y, f)
    tot = between + within + fixed
    share = float(between / tot) if tot > 0 else float("nan")
    rng = np.random.default_rng(seed)
    bs = []
    for _ in range(boot):
        i = rng.integers(0, d, d)
        b, w, fx = parts(y[i], f[i])
        if b + w + fx > 0:
            bs.append(b / (b + w + fx))
    lo, hi = (np.percentile(bs, [2.5, 97.5]) if bs else (float("nan"),) * 2)
    return LuckShare(share, float(lo), float(hi), d, r, float(between), float(within))
