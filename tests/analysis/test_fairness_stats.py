"""Known-answer tests of the fairness, power and luck statistics (analysis core).

Each test can fail: the TOST verdicts are checked exactly at and around the margin, the
games-needed formula against a hand computation and statsmodels, and the luck share on
planted cases whose true value is known.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from demos_sim.analysis.core.fairness import fairness, side_sd
from demos_sim.analysis.core.stats import (Z95, games_needed, luck_share, power_at,
                                           ratio_ci, tost, tost_ci)
from demos_sim.runner.experiment import ExperimentError, loads_experiment

Z90 = 1.6448536269514722


# ------------------------------------------------------------------------------ TOST
def test_tost_inside_the_margin_is_fair():
    # 90% interval 0.004 ± 1.645·0.003 = [−0.0009, 0.0089] inside ±0.01
    e = tost(0.004, 0.003, 0.01)
    assert e.verdict == "fair"
    assert e.p_tost < 0.05
    assert e.text() == "fair: +0.4 pp, 90% [−0.1, +0.9] within ±1 pp"


def test_tost_exactly_at_the_margin_is_not_fair():
    # the upper 90% bound exactly on the margin: not strictly inside, p_tost = 0.05
    se = 0.002
    e = tost(0.01 - Z90 * se, se, 0.01)
    assert e.hi90 == pytest.approx(0.01, abs=1e-15)
    assert e.p_tost == pytest.approx(0.05, abs=1e-9)
    assert e.verdict == "not shown fair"
    # a hair inside is fair, a hair outside is not
    assert tost(0.01 - Z90 * se - 1e-9, se, 0.01).verdict == "fair"
    assert tost(0.01 - Z90 * se + 1e-9, se, 0.01).verdict == "not shown fair"


def test_tost_wholly_beyond_the_margin_is_unfair_with_the_95_interval():
    e = tost(-0.03, 0.002, 0.01)
    assert e.verdict == "unfair"
    assert (e.lo, e.hi) == pytest.approx((-0.03 - Z95 * 0.002, -0.03 + Z95 * 0.002))
    assert e.text() == "unfair: −3.0 pp, 90% [−3.3, −2.7] beyond ±1 pp"
    # the lower 90% bound just beyond +m: unfair; just inside: not shown fair
    assert tost(0.01 + Z90 * 0.002 + 1e-9, 0.002, 0.01).verdict == "unfair"
    assert tost(0.01 + Z90 * 0.002 - 1e-9, 0.002, 0.01).verdict == "not shown fair"


def test_tost_imprecise_estimate_is_not_shown_fair():
    e = tost(0.0, 0.01, 0.01)          # 90% interval ±1.6 pp straddles both margins
    assert e.verdict == "not shown fair"
    # 90% = ±1.645 pp
    assert e.text() == "not shown fair: +0.0 pp, 90% [−1.6, +1.6], margin ±1 pp"


def test_tost_matches_statsmodels_on_paired_synthetic_data():
    from statsmodels.stats.weightstats import ttost_paired

    rng = np.random.default_rng(5)
    x = rng.normal(0.003, 0.1, 20000)
    y = rng.normal(0.0, 0.1, 20000)
    d = x - y
    se = d.std(ddof=1) / math.sqrt(len(d))
    p_sm = ttost_paired(x, y, -0.01, 0.01)[0]
    assert tost(d.mean(), se, 0.01).p_tost == pytest.approx(p_sm, rel=0.02, abs=1e-6)


def test_tost_ci_reads_a_stored_95_interval():
    e = tost_ci(-0.0154, -0.0172, -0.0136, 0.01)     # game_shape's greedy seat 0, 4p
    assert e.verdict == "unfair"
    assert tost_ci(-0.0032, -0.0068, 0.0004, 0.01).verdict == "fair"


def test_fair_margin_key_is_validated():
    base = 'game = "demos"\nseed = 1\ngames = 10\nplayers = 4\npolicies = ["greedy"]\n'
    assert loads_experiment(base, "x.toml").fair_margin == 0.01
    assert loads_experiment(base + "fair_margin = 0.02\n", "x.toml").fair_margin == 0.02
    for bad in ("0", "-0.01", "0.7", '"1pp"', "true"):
        with pytest.raises(ExperimentError, match="fair_margin: must be a number"):
            loads_experiment(base + f"fair_margin = {bad}\n", "x.toml")


# ------------------------------------------------------- share of won games vs parity
def _planted_sides(n=60000, seed=3):
    """Per-game M1 shares of three sides A, B, I (2v2+1: sizes 2, 2, 1) with a no-winner
    share of 20% and won-game shares 0.4 / 0.4 / 0.2."""
    rng = np.random.default_rng(seed)
    w = rng.random(n) >= 0.2
    who = rng.choice(3, n, p=[0.4, 0.4, 0.2])
    x = np.zeros((n, 3))
    x[np.arange(n), who] = 1.0
    return x * w[:, None], w


def test_fairness_per_side_and_per_seat_against_exact_ratio_intervals():
    x, w = _planted_sides()
    n = len(w)
    share = x.mean(axis=0)
    gaps = x - x.mean(axis=1, keepdims=True)
    half = Z95 * gaps.std(axis=0, ddof=1) / math.sqrt(n)
    sides = pd.DataFrame({"bot": "b", "mode": "2v2+1", "option": "default",
                          "side": ["A", "B", "I"], "side_size": [2, 2, 1], "games": n,
                          "share": share, "gap_half_width": half})
    # the sd recovered from the gap's half-width is the side's own sample sd
    u = 1 - share.sum()
    for j in range(3):
        assert side_sd(share[j], half[j], n, u, 3) == pytest.approx(x[:, j].std(ddof=1),
                                                                     rel=1e-9)
    f = fairness(sides, 0.01)
    side_i = f[(f["side"] == "I") & (f["definition"] == "per side")].iloc[0]
    seat_i = f[(f["side"] == "I") & (f["definition"] == "per seat")].iloc[0]
    # exact ratio interval of Σx_I / Σw from the integer sums (runner.intervals)
    xi = x[:, 2].astype(int)
    wi = w.astype(int)
    e = ratio_ci(xi.sum(), (xi * xi).sum(), wi.sum(), (wi * wi).sum(), (xi * wi).sum(), n)
    assert side_i["share_won"] == pytest.approx(e.mean, rel=1e-12)
    assert side_i["diff"] == pytest.approx(e.mean - 1 / 3, rel=1e-12)
    assert side_i["ci_high"] - side_i["ci_low"] == pytest.approx(e.hi - e.lo, rel=1e-6)
    # planted: the Independent at 0.2 of won games is unfair per side (1/3) …
    assert side_i["verdict"] == "unfair"
    # … and fair per seat (1/5 = 0.2; sd of the estimate ≈ 0.0018, 90% bound < 0.004)
    assert seat_i["verdict"] == "fair"
    assert seat_i["parity"] == pytest.approx(0.2)


# ------------------------------------------------------------------- games needed
def test_games_needed_against_a_hand_computation():
    # δ = 1 pp, sd 0.5: ((1.959964 + 0.841621) · 0.5 / 0.01)² = 2.801585² · 2500
    assert games_needed(0.01, 0.5) == pytest.approx(2.801585 ** 2 * 2500, rel=1e-6)
    assert games_needed(0.01, 0.5) == pytest.approx(19622.2, abs=0.1)
    # a quarter of the effect needs 16 times the games
    assert games_needed(0.0025, 0.5) == pytest.approx(16 * games_needed(0.01, 0.5))
    assert games_needed(0.0, 0.5) == math.inf


def test_games_needed_agrees_with_statsmodels_and_power_inverts_it():
    from statsmodels.stats.power import NormalIndPower

    sm = NormalIndPower().solve_power(effect_size=0.03 / 0.4, alpha=0.05, power=0.8,
                                      ratio=0)          # one sample against parity
    assert games_needed(0.03, 0.4) == pytest.approx(sm, rel=1e-4)
    n = games_needed(-0.02, 0.3)
    assert power_at(n, -0.02, 0.3) == pytest.approx(0.8, abs=1e-4)
    assert power_at(50, 0.01, 0.43) < 0.1      # 50 games do not see a 1 pp effect


# --------------------------------------------------------------------- luck share
def test_luck_share_is_one_when_the_deal_decides():
    rng = np.random.default_rng(1)
    y = np.repeat(rng.integers(0, 2, (3000, 1)).astype(float), 4, axis=1)
    lk = luck_share(y)
    assert lk.share == 1.0 and lk.within == 0.0


def test_luck_share_is_zero_when_the_deal_does_not_matter():
    rng = np.random.default_rng(2)
    d, r = 20000, 4
    lk = luck_share(rng.integers(0, 2, (d, r)).astype(float))
    # ICC(1) under no deal effect: sd ≈ sqrt(2 / (D r (r − 1))) = 0.0029; 4 sigma
    assert abs(lk.share) < 4 * math.sqrt(2 / (d * r * (r - 1)))
    assert lk.lo < 0 < lk.hi


def test_luck_share_on_a_planted_mixture():
    # half the deals give p = 0.2, half p = 0.8: between 0.09, within 0.16, L = 0.36
    rng = np.random.default_rng(3)
    p = np.repeat([0.2, 0.8], 10000)[:, None]          # exactly half and half
    lk = luck_share((rng.random((20000, 4)) < p).astype(float))
    # sd of the estimate ≈ 0.0038 (its 95% bootstrap interval ±0.0075); 4 sigma
    assert lk.share == pytest.approx(0.36, abs=0.016)
    assert lk.hi - lk.lo == pytest.approx(2 * Z95 * 0.0038, rel=0.5)


def test_luck_share_offset_removes_a_fixed_skill_effect():
    # the replay's policy decides (A always wins at its seat), the deal nothing:
    # replay 0 has A at this seat (1), replay 1 has B (0) — without the offset the
    # alternation looks like negative luck; with it, L = 0 and the skill is the fixed part
    y = np.tile([1.0, 0.0], (1000, 1))
    lk = luck_share(y, offset=np.tile([1.0, 0.0], (1000, 1)))
    assert lk.share == 0.0
    assert luck_share(y).share < -0.9


def test_tournament_luck_share_on_known_matches():
    from demos_sim.tournament import make_config, match

    cfg = make_config("demos", 4, rules="full")
    # the same deterministic bot in every rotation: the deal and the seat decide everything
    same = match("demos", cfg, "greedy", "greedy", 400, 11).luck()
    assert same.within == 0.0 and same.share == 1.0
    # greedy against random: who plays decides (random wins 0.4% of the wins)
    skill = match("demos", cfg, "greedy", "random", 400, 11)
    assert abs(skill.luck().share) < 0.02
    assert "luck_share" in skill.summary()
