"""The interval of a side's share of the games that had a winner (stats.share_of_won_ci):
Wilson's score interval on the delta method's effective trials, never [x, x] on games."""

import math

import pytest

from demos_sim.analysis.core.stats import share_of_won_ci

Z = 1.959963984540054


def test_half_of_the_won_games_by_hand():
    # 100 games, 80 with a winner, the side won 40 (x in {0, 1}): R = 0.4 / 0.8 = 0.5.
    # sd² = 100/99 · 0.4 · 0.6; Var w = 100/99 · 0.8 · 0.2; Cov(x, w) = 100/99 · 0.4 · 0.2;
    # Var R = (0.242424 − 2·0.5·0.080808 + 0.25·0.161616) / (100 · 0.64) = 0.0031566,
    # n_eff = 0.25 / 0.0031566 = 79.2 (= 80 · 99 / 100).
    # Wilson at p = 0.5, n = 79.2: centre 0.5, half = z / (1 + z²/n) · sqrt(p(1−p)/n + z²/(4n²))
    n = 79.2
    half = Z / (1 + Z * Z / n) * math.sqrt(0.25 / n + Z * Z / (4 * n * n))
    sd = math.sqrt(100 / 99 * 0.4 * 0.6)
    r, lo, hi = share_of_won_ci(0.4, sd, 100, 0.8)
    assert r == pytest.approx(0.5)
    assert lo == pytest.approx(0.5 - half, abs=1e-9)
    assert hi == pytest.approx(0.5 + half, abs=1e-9)
    assert hi - lo == pytest.approx(0.2151, abs=1e-4)      # 2 · 0.10754


def test_every_won_game_won_rests_on_the_won_games():
    # The side won all 80 won games: no spread. Wilson's 0-of-80 chance that a game differs,
    # u = z² / (80 + z²) = 3.8415 / 83.8415 = 0.045818, gives [1 − u, 1], not [1, 1].
    sd = math.sqrt(100 / 99 * 0.8 * 0.2)
    r, lo, hi = share_of_won_ci(0.8, sd, 100, 0.8)
    assert r == pytest.approx(1.0)
    assert hi == 1.0
    assert lo == pytest.approx(1 - Z * Z / (80 + Z * Z), abs=1e-9)


def test_no_won_game_won_is_zero_to_an_upper_bound():
    # The side won none of the 50 won games: [0, z² / (50 + z²)] = [0, 0.071346].
    r, lo, hi = share_of_won_ci(0.0, 0.0, 100, 0.5)
    assert (r, lo) == (0.0, 0.0)
    assert hi == pytest.approx(Z * Z / (50 + Z * Z), abs=1e-9)


def test_no_games_or_no_winners_give_nans():
    for args in ((0.0, 0.0, 1, 0.5), (0.0, 0.0, 100, 0.0)):
        r, lo, hi = share_of_won_ci(*args)
        assert math.isnan(lo) and math.isnan(hi)
