"""Intervals from exact integer sums: means, ratios, paired differences of common random numbers.

Every per-game quantity ``x`` is an integer (value × ``scale``), and a run keeps only
``n``, ``Σx``, ``Σx²`` and, for paired comparisons, ``Σx·y`` where ``y`` is the same game
(same deal, same seat streams) played under the reference configuration. From these:

- mean ``x̄ = Σx / n``; sample variance ``s² = (nΣx² − (Σx)²) / (n(n−1))``; the 95% interval
  is the normal interval ``x̄ ± z·s/√n`` (z = 1.95996…); rates are clipped to [0, 1].
  A rate whose every game is 0 or 1 (a collapse, a game without a winner, a win never
  shared) — recognised exactly from the sums, ``Σx² = scale·Σx`` — gets the Wilson score
  interval instead (:func:`wilson`), which stays honest for rare events: 0 collapses in
  16,384 games is [0, 0.000234], not [0, 0]. ``half_width`` stays ``z·s/√n`` (the
  stopping rule's measure of precision).
- paired difference ``d = x − y`` per game: ``Σd = Σx − Σy`` and ``Σd² = Σx² + Σy² − 2Σxy``,
  so ``d̄`` and its sample variance are exact too, and the interval is ``d̄ ± z·s_d/√n``.
  Games are independent draws (each has its own key from ``SeedSequence``), so the ``d``
  are i.i.d. and the CLT interval applies; because both configurations play the same
  deals, ``s_d² = s_x² + s_y² − 2 cov(x, y)`` is usually much smaller than the unpaired
  ``s_x² + s_y²`` — that is what common random numbers buy. A 0/1 rate whose games
  differ in only a few games (fewer than :data:`FEW_CHANGED`) gets an exact interval
  instead (:func:`paired_binary_ci`): the normal one claims [0, 0] when none differ.

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


def _estimate(s: int, sq: int, n: int, scale: int, rate: bool, z: float) -> Estimate:
    s, sq, n = int(s), int(sq), int(n)
    if n < 1:
        nan = float("nan")
        return Estimate(nan, nan, nan, nan, nan)
    mean = s / (n * scale)
    if n < 2:
        sd = half = float("nan")
        lo = hi = mean
    else:
        num = n * sq - s * s             # exact, >= 0
        sd = math.sqrt(max(num, 0) / (n * (n - 1))) / scale
        half = z * sd / math.sqrt(n)
        lo, hi = mean - half, mean + half
        if rate:
            lo, hi = max(0.0, lo), min(1.0, hi)
            if sq == s * scale and z == Z95:      # every game 0 or 1: a binomial count
                lo, hi = wilson(s // scale, n)
    return Estimate(mean, sd, half, lo, hi)


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of ``k`` successes in ``n`` trials (statsmodels'
    ``proportion_confint(method="wilson")``)."""
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(int(k), int(n), alpha=0.05, method="wilson")
    return (max(0.0, float(lo)), min(1.0, float(hi)))


def mean_ci(s: int, sq: int, n: int, scale: int = 1, rate: bool = False,
            z: float = Z95) -> Estimate:
    """Mean of ``x / scale`` over ``n`` games, from ``Σx`` and ``Σx²``, with its interval."""
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
    ``n``. ``half_width`` is then the larger side of that interval (so p-values and the
    stopping rule see its width).
    """
    s, sq, s_ref, sq_ref, cross = map(int, (s, sq, s_ref, sq_ref, cross))
    e = _estimate(s - s_ref, sq + sq_ref - 2 * cross, n, scale, False, z)
    if (rate and z == Z95 and n >= 2 and sq == s * scale and sq_ref == s_ref * scale):
        changed = (sq + sq_ref - 2 * cross) // (scale * scale)    # games with x ≠ y
        if changed < FEW_CHANGED:
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
    ``sd`` is reported as ``half_width·√n / z`` so that it reads like the other estimates.
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
        lo, hi = max(0.0, lo), min(1.0, hi)
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
