"""The interval policy (demos_sim.runner.intervals, re-exported by analysis.core.stats):
hand-computed values at the edges (0 of n, n of n, 1 of 1), Newcombe's textbook example,
the exact paired interval's threshold, the Poisson bound, the same-games difference, and a
sweep of every interval function the tables use at the edges: none is zero-wide while it
rests on games. Pure: no game is played. z = 1.959964, z² = 3.841459 throughout."""

import math

import pandas as pd
import pytest

from demos_sim.analysis.core import stats
from demos_sim.runner import intervals as I
from tests.stats.reference import holm
from tests.stats.zero_width import zero_width

Z2 = 1.959963984540054 ** 2          # 3.841459


# ------------------------------------------------------------------ shares from counts
def test_wilson_at_0_of_n_n_of_n_and_1_of_1():
    """Wilson at p̂ = 0: the lower root is 0, the upper z²/(n + z²); symmetric at n of n.
    0 of 10: 3.841459 / 13.841459 = 0.277533; 10 of 10: 10 / 13.841459 = 0.722467;
    1 of 1: 1 / 4.841459 = 0.206549 (a single game never gives [1, 1])."""
    p, lo, hi = I.share_ci(0, 10)
    assert (p, lo) == (0.0, 0.0) and hi == pytest.approx(0.277533, abs=1e-6)
    p, lo, hi = I.share_ci(10, 10)
    assert (p, hi) == (1.0, 1.0) and lo == pytest.approx(0.722467, abs=1e-6)
    p, lo, hi = I.share_ci(1, 1)
    assert (p, hi) == (1.0, 1.0) and lo == pytest.approx(0.206549, abs=1e-6)
    # the committed examples: 0 of 94,315 lost games, 3.841459 / 94,318.84 = 0.0000407287
    assert I.share_ci(0, 94315)[2] == pytest.approx(4.07287e-5, rel=1e-5)
    assert all(math.isnan(x) for x in I.share_ci(0, 0))


def test_wilson_inside_hand_computed():
    """30 of 100: centre (0.3 + z²/200) / (1 + z²/100) = 0.319207 / 1.038415 = 0.307399;
    half z·sqrt(0.3·0.7/100 + z²/40000) / 1.038415 = 1.959964·0.046862 / 1.038415
    = 0.088450: [0.218949, 0.395849] (the old Wald interval was [0.210182, 0.389818])."""
    p, lo, hi = stats.share_ci(30, 100)
    assert p == 0.3
    assert lo == pytest.approx(0.218949, abs=2e-6) and hi == pytest.approx(0.395849, abs=2e-6)
    assert not hasattr(stats, "binomial_ci")        # the Wald interval is gone


def test_clopper_pearson_closed_forms_at_the_edges():
    """0 of n: upper 1 − 0.025^(1/n); n = 10: 0.025^0.1 = exp(ln 0.025 / 10) =
    exp(−0.368888) = 0.691503, upper 0.308497; n of n: lower 0.691503."""
    lo, hi = I.clopper_pearson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.308497, abs=1e-6)
    lo, hi = I.clopper_pearson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.691503, abs=1e-6)
    assert I.share_ci(0, 10, "clopper_pearson")[2] == pytest.approx(0.308497, abs=1e-6)


def test_newcombe_textbook_example():
    """Newcombe (1998), Table II example: 56/70 − 48/80 = 0.8 − 0.6 = 0.2, hybrid score
    interval [0.0524, 0.3339]."""
    d, lo, hi = I.newcombe_diff(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)
    assert stats.newcombe_diff is I.newcombe_diff


# ------------------------------------------------------------------ counts and constants
def test_poisson_bound_for_a_count_that_is_0_in_every_game():
    """0 events in n games: exact upper −ln(0.025)/n = 3.688879/n (the rule of three, 3/n, is
    the one-sided 95% bound: 3.689/n > 3/n); n = 100: 0.0368888."""
    lo, hi = I.poisson_ci(0, 100)
    assert lo == 0.0 and hi == pytest.approx(0.0368888, abs=1e-7)
    assert hi > 3 / 100
    e = I.mean_ci(0, 0, 100)                         # vetoes per game, none in 100 games
    assert (e.mean, e.lo) == (0.0, 0.0) and e.hi == pytest.approx(0.0368888, abs=1e-7)
    # 4 events in 100 games: Garwood [χ²(0.025; 8)/200, χ²(0.975; 10)/200]
    # = [2.179731/200, 20.483177/200] = [0.0108987, 0.1024159]
    lo, hi = I.poisson_ci(4, 100)
    assert lo == pytest.approx(0.0108987, abs=1e-6) and hi == pytest.approx(0.1024159, abs=1e-6)


def test_rate_equal_in_every_game_is_not_zero_wide():
    """Every one of 10 games a win shared by two (0.5, stored 30 of 60): sd 0. No game of 10
    differed, so the chance of a different game is at most u = 0.277533 (Wilson 0 of 10),
    and one that differs moves at most 0.5 either way: [0.5 − 0.138767, 0.5 + 0.138767]
    = [0.361233, 0.638767]."""
    e = I.mean_ci(30 * 10, 900 * 10, 10, 60, True)
    assert e.mean == 0.5 and e.sd == 0.0
    assert e.lo == pytest.approx(0.361233, abs=1e-6) and e.hi == pytest.approx(0.638767, abs=1e-6)
    # a 0/1 rate at the edges is Wilson's: 0 of 10 and 10 of 10 (win shares stored ×60)
    e = I.mean_ci(0, 0, 10, 60, True)
    assert (e.lo, e.hi) == (0.0, pytest.approx(0.277533, abs=1e-6))
    e = I.mean_ci(600, 36000, 10, 60, True)
    assert (e.lo, e.hi) == (pytest.approx(0.722467, abs=1e-6), 1.0)
    e = I.mean_ci(60, 3600, 1, 60, True)             # 1 of 1
    assert e.lo == pytest.approx(0.206549, abs=1e-6) and e.hi == 1.0


# ------------------------------------------------------------------ ratios
def test_rate_ratio_at_the_edges_rests_on_the_games_with_a_denominator():
    """0 of 94,315 lost games (a 0/1 denominator in 100,000 games): n_eff = 94,315²/94,315,
    upper 3.841459/94,318.84 = 0.0000407287. 1 collapse of 1 (16,384 games): Wilson 1 of 1,
    [0.206549, 1]. Denominators of 2 in each of 50 games, numerator 0: at least
    (Σy)²/Σy² = 100²/200 = 50 games, upper 3.841459/53.841459 = 0.071347."""
    e = I.ratio_ci(0, 0, 94315, 94315, 0, 100000, 1, True)
    assert (e.mean, e.lo) == (0.0, 0.0) and e.hi == pytest.approx(4.07287e-5, rel=1e-5)
    e = I.ratio_ci(1, 1, 1, 1, 1, 16384, 1, True)
    assert e.mean == 1.0 and e.hi == 1.0 and e.lo == pytest.approx(0.206549, abs=1e-6)
    e = I.ratio_ci(0, 0, 100, 200, 0, 50, 1, True)
    assert e.hi == pytest.approx(0.071347, abs=1e-6)


def test_ratios_are_not_clipped():
    """x = (0, 0, 0, 1), y = (1, 1, 1, 1): R = 0.25, s_x² = (4·1 − 1)/(4·3) = 0.25, s_y = 0,
    Var R = 0.25/(4·1²) = 0.0625, half = 1.959964·0.25 = 0.489991.
    Not a rate: [0.25 − 0.489991, 0.25 + 0.489991] = [−0.239991, 0.739991], not clipped.
    A rate: Wilson on n_eff = R(1 − R)/Var R = 0.1875/0.0625 = 3 trials (0.75 of them):
    centre (0.25 + z²/6)/(1 + z²/3) = 0.890243/2.280486 = 0.390374, half
    1.959964/2.280486 · sqrt(0.0625 + z²/36) = 0.859453·0.411348 = 0.353534:
    [0.036840, 0.743908]."""
    e = I.ratio_ci(1, 1, 4, 4, 1, 4)
    assert e.mean == 0.25 and e.half_width == pytest.approx(0.489991, abs=1e-6)
    assert e.lo == pytest.approx(-0.239991, abs=1e-6) and e.hi == pytest.approx(0.739991, abs=1e-6)
    e = I.ratio_ci(1, 1, 4, 4, 1, 4, 1, True)
    assert e.lo == pytest.approx(0.036840, abs=2e-6) and e.hi == pytest.approx(0.743908, abs=2e-6)


# ------------------------------------------------------------------ paired differences
def _binary_sums(up: int, down: int, n: int):
    """Σx, Σx², Σy, Σy², Σxy of 0/1 games: ``up`` games 1 against the reference's 0,
    ``down`` games 0 against 1, the others 0 under both."""
    return up, up, down, down, 0, n


def test_few_changed_threshold_is_pinned_at_10():
    """FEW_CHANGED = 10. Nine games of 1,000 went up, none down: the exact interval — the
    chance a game changes δ ∈ its 97.5% Clopper–Pearson interval for 9 of 1,000
    (Beta(9, 992) 0.0125 quantile, Beta(10, 991) 0.9875 quantile), the chance a changed game
    went up π ≥ 0.0125^(1/9) = exp(−4.382027/9) = exp(−0.486892) = 0.614533 (9 of 9), so
    d ∈ [δ_lo·(2·0.614533 − 1), δ_hi] = [δ_lo·0.229067, δ_hi].
    Ten went up: the normal interval. d̄ = 0.01, s_d² = (1000·10 − 10²)/(1000·999)
    = 0.00990991, half = 1.959964·sqrt(0.00990991/1000) = 1.959964·0.00314800 = 0.00616997."""
    from scipy.stats import beta

    assert I.FEW_CHANGED == 10
    e = I.paired_diff_ci(*_binary_sums(9, 0, 1000), rate=True)
    d_lo, d_hi = beta.ppf(0.0125, 9, 992), beta.ppf(0.9875, 10, 991)
    assert e.mean == pytest.approx(0.009)
    assert e.lo == pytest.approx(d_lo * 0.229067, rel=1e-5)
    assert e.hi == pytest.approx(d_hi, rel=1e-6)
    e = I.paired_diff_ci(*_binary_sums(10, 0, 1000), rate=True)
    assert e.mean == pytest.approx(0.01)
    assert e.lo == pytest.approx(0.01 - 0.00616997, abs=1e-7)
    assert e.hi == pytest.approx(0.01 + 0.00616997, abs=1e-7)


def test_paired_rate_with_shared_wins_and_no_game_changed():
    """Every one of 100 games a win shared by two under both configurations (not 0/1):
    Σd² = 0, no game changed; |d| ≤ 1, so ±(1 − 0.0125^(1/100)) = ±(1 − exp(−0.0438203))
    = ±0.0428741, not [0, 0]. A score (not a rate) keeps [0, 0]."""
    n = 100
    args = (30 * n, 900 * n, 30 * n, 900 * n, 900 * n, n)
    e = I.paired_diff_ci(*args, scale=60, rate=True)
    assert e.mean == 0 and e.hi == pytest.approx(0.0428741, abs=1e-6) and e.lo == -e.hi
    e = I.paired_diff_ci(*args, scale=60, rate=False)
    assert (e.lo, e.hi) == (0.0, 0.0)


def test_diff_same_games_adds_the_half_widths():
    """Two conditional means of the same games: 0.30 ± 0.02 and 0.25 ± 0.03. The half-widths
    add (Cauchy–Schwarz): 0.02 + 0.03 = 0.05, not hypot(0.02, 0.03) = 0.036056."""
    d, hw = stats.diff_same_games(0.30, 0.02, 0.25, 0.03)
    assert d == pytest.approx(0.05) and hw == pytest.approx(0.05, abs=1e-12)
    d, hw = stats.diff_same_games(0.10, 0.04, 0.20, 0.0)
    assert d == pytest.approx(-0.10) and hw == pytest.approx(0.04, abs=1e-12)


# ------------------------------------------------------------------ multiple testing
def test_holm_and_bh_by_hand():
    """p = (0.01, 0.04, 0.03), m = 3. Holm: sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03,
    0.06, 0.04, running maximum 0.03, 0.06, 0.06 → (0.03, 0.06, 0.06) in the input order.
    Benjamini–Hochberg: p_(i)·m/i = 0.03, 0.045, 0.04, running minimum from the top
    0.03, 0.04, 0.04 → (0.03, 0.04, 0.04)."""
    assert list(stats.adjust([0.01, 0.04, 0.03], "holm")) == pytest.approx([0.03, 0.06, 0.06])
    assert list(stats.adjust([0.01, 0.04, 0.03], "fdr_bh")) == pytest.approx([0.03, 0.04, 0.04])
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    out = holm([0.01, float("nan"), 0.04, 0.03])
    assert math.isnan(out[1]) and [out[0], out[2], out[3]] == pytest.approx([0.03, 0.06, 0.06])


def test_holm_collects_only_what_the_call_made():
    """statsmodels' Holm runs gc.collect() at every call; adjust freezes the objects alive
    before it, so that collection skips them (seen from the collector's own callback), and
    thaws them after (nothing stays frozen). Without the freeze the callback sees 0 frozen
    objects."""
    import gc

    keep = [[i] for i in range(10_000)]          # objects the collector would walk
    seen = []

    def watch(phase, info):
        if phase == "start" and info["generation"] == 2:
            seen.append(gc.get_freeze_count())

    gc.callbacks.append(watch)
    try:
        stats.adjust([0.01, 0.04, 0.03], "holm")
    finally:
        gc.callbacks.remove(watch)
    assert seen and min(seen) >= len(keep)        # statsmodels did collect, with keep frozen
    assert gc.get_freeze_count() == 0
    gc.freeze()                                   # frozen by someone else: left frozen
    try:
        frozen = gc.get_freeze_count()
        stats.adjust([0.01, 0.04, 0.03], "holm")
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()


# ------------------------------------------------------------------ every table function
EDGES = [(0, 10), (10, 10), (1, 1), (0, 1), (0, 94315), (94315, 94315)]


@pytest.mark.parametrize("k,n", EDGES)
def test_no_interval_function_is_zero_wide_at_the_edges(k, n):
    """Each way a table gets a share interval, fed a share of k in n games at an edge:
    shares from counts (Wilson, Clopper–Pearson), a 0/1 rate from the runner's sums (plain
    and ×60 win shares), a rate ratio over a 0/1 denominator, and a paired 0/1 rate that
    did not change. Each has a width > 0 and contains k/n."""
    p = k / n
    made = {
        "wilson": I.share_ci(k, n)[1:],
        "clopper_pearson": I.clopper_pearson(k, n),
        "mean_ci rate": (lambda e: (e.lo, e.hi))(I.mean_ci(k, k, n, 1, True)),
        "mean_ci win share": (lambda e: (e.lo, e.hi))(I.mean_ci(60 * k, 3600 * k, n, 60, True)),
        "ratio_ci rate": (lambda e: (e.lo, e.hi))(I.ratio_ci(k, k, n, n, k, n + 5, 1, True)),
        "paired unchanged": (lambda e: (e.lo, e.hi))(
            I.paired_diff_ci(k, k, k, k, k, n, 1, rate=True)),
    }
    for what, (lo, hi) in made.items():
        centre = 0.0 if what == "paired unchanged" else p
        assert hi - lo > 0, (what, k, n, lo, hi)
        assert lo <= centre <= hi, (what, k, n, lo, hi)


def test_the_checker_finds_zero_width_intervals_at_0_or_1():
    """The checker for regenerated tables (tests/stats/zero_width.py) flags [0, 0] and
    [1, 1] on rows with games, not [0.2, 0.2], not rows without games, and finds every
    ``…low…``/``…high…`` pair."""
    df = pd.DataFrame({"games": [10, 10, 0, 10, 10], "share": [0, 1, 0, 0.2, 0.5],
                       "ci_low": [0.0, 1.0, 0.0, 0.2, 0.3], "ci_high": [0.0, 1.0, 0.0, 0.2, 0.7],
                       "ci_low_a": [0.0, 0.1, 0.1, 0.1, 0.1],
                       "ci_high_a": [0.0, 0.2, 0.2, 0.2, 0.2]})
    assert zero_width(df) == {("ci_low", "ci_high"): 2, ("ci_low_a", "ci_high_a"): 1}
