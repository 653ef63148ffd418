"""Skill labels of the robustness analysis, by hand (pure: no game is played).

A rung is written ``R(bot, strength, mean, se)``: its 95% interval is ``mean ± 1.96·se``,
so every standard error below is the one the code recovers from the interval. The margin
is ±0.01 (1 pp, the fairness margin) unless a case says otherwise. z90 = 1.6449.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from demos_sim.analysis.core import rungs
from demos_sim.analysis.core.key_figures import default_unit
from demos_sim.analysis.questions import robustness as rob
from demos_sim.analysis.questions.robustness import Rung

DATA = Path(__file__).parent / "data"
Z = 1.959963984540054


def R(bot, strength, mean, se):
    return Rung(bot, strength, mean, mean - Z * se, mean + Z * se)


def verdict(rs, margin=0.01, unit="share"):
    return rob.label(rs, margin, unit)


# ------------------------------------------------------------------- each label
def test_holds_when_the_change_interval_lies_inside_the_margin():
    # +5.0 pp (se 0.1 pp) -> +5.2 pp (se 0.1 pp): change +0.2 pp, se sqrt(2)·0.1 = 0.1414 pp,
    # 90%: 0.2 ± 1.6449·0.1414 = ±0.2326 -> [−0.033, +0.433] pp, inside ±1 pp; both rungs +
    m = verdict([R("greedy", 0, 0.05, 0.001), R("tuned", 10, 0.052, 0.001)])
    assert m["verdict"] == "holds across skill"
    assert m["change"] == pytest.approx(0.002)
    assert m["change_ci90_low"] == pytest.approx(0.002 - 0.0023262, abs=1e-6)
    assert m["change_ci90_high"] == pytest.approx(0.002 + 0.0023262, abs=1e-6)


def test_old_holds_is_uncertain_when_the_change_interval_is_wide():
    """Old rule: same significant sign (+14.1 pp se 0.4; +17.0 pp se 3.0, low end
    17.0 − 5.88 = 11.1 > 0) and the change +2.9 pp with 95% half-width
    1.96·sqrt(0.4² + 3²) = 1.96·3.0265 = 5.93 pp: not significant -> "holds". New rule:
    90% interval 2.9 ± 1.6449·3.0265 = ±4.98 -> [−2.08, +7.88] pp, not inside ±1 pp, and
    wider than the margin, the strongest rung's interval the widest: uncertain, not
    enough games at the strongest rung."""
    m = verdict([R("greedy", 0, 0.141, 0.004), R("ismcts@64", 30, 0.170, 0.03)])
    assert m["signs"] == "+ +"
    assert m["change_ci_low"] < 0 < m["change_ci_high"]          # old: not significant
    assert m["change_ci90_low"] == pytest.approx(0.029 - 0.049783, abs=1e-5)
    assert m["verdict"] == "uncertain"
    assert "not enough games at the strongest rung (ismcts@64" in m["reason"]


def test_grows_and_shrinks_need_the_interval_beyond_the_margin():
    # +2 pp -> +6 pp (se 0.2 each): change +4 pp, 90% ±1.6449·0.2828 = ±0.465:
    # [3.53, 4.47] pp > 1 pp, away from 0: grows
    assert verdict([R("greedy", 0, 0.02, 0.002),
                    R("tuned", 5, 0.06, 0.002)])["verdict"] == "grows with skill"
    # −5 pp (se 0.2) -> −1 pp (se 0.1): change +4 pp, 90% ±1.6449·0.2236 = ±0.368:
    # beyond +1 pp, towards 0: shrinks
    assert verdict([R("greedy", 0, -0.05, 0.002),
                    R("tuned", 5, -0.01, 0.001)])["verdict"] == "shrinks with skill"
    # +2 pp -> +3 pp (se 0.1 each): change +1 pp exactly the margin's size, 90%
    # [0.77, 1.23] pp: neither inside nor beyond; narrower than the margin: uncertain,
    # "reaches across"
    m = verdict([R("greedy", 0, 0.02, 0.001), R("tuned", 5, 0.03, 0.001)])
    assert m["verdict"] == "uncertain" and "reaches across the ±1.00 pp" in m["reason"]


def test_a_tiny_significant_change_is_not_growth():
    """13.737 -> 13.716 rounds per game (se 0.001 each): the change −0.021 is significant
    (95% ±0.0028) but 10% of the figure is a margin of 1.37 rounds: holds."""
    rs = [R("greedy", 0, 13.737, 0.001), R("tuned", 5, 13.716, 0.001)]
    mg, rule = rob.margin_for(rs, None, "per game")
    assert mg == pytest.approx(1.3737) and "10%" in rule
    assert verdict(rs, mg, "per game")["verdict"] == "holds across skill"


def test_flips_needs_significant_opposite_signs():
    # +3 pp (z = 6) and −3 pp (z = −6): each direction's p 2·2·Φ(−6) ≈ 4e-9
    m = verdict([R("greedy", 0, 0.03, 0.005), R("tuned", 5, -0.03, 0.005)])
    assert m["verdict"] == "flips" and m["p_flip"] < 1e-8
    # +3 pp (z = 1.5) and −3 pp (z = −1.5): 2 rungs · 2 · Φ(−1.5) = 4·0.0668 = 0.267
    m = verdict([R("greedy", 0, 0.03, 0.02), R("tuned", 5, -0.03, 0.02)])
    assert m["p_flip"] == pytest.approx(0.2672, abs=1e-3)
    assert m["verdict"] != "flips"
    # +4.2 pp (se 2, z 2.1: its own 95% interval excludes 0) and −3 pp (z −6): the +
    # direction's p is 2 rungs · 2·Φ(−2.1) = 2 · 0.0357 = 0.0715 > 0.05: the opposite
    # signs are not confirmed once corrected for the two rungs. The change −7.2 pp (se
    # sqrt(2² + 0.5²) = 2.06 pp) lies beyond −1 pp, but towards or away from 0 is open
    # (the rungs disagree on the sign): uncertain, both said
    m = verdict([R("greedy", 0, 0.042, 0.02), R("tuned", 5, -0.03, 0.005)])
    assert m["signs"] == "+ -"
    assert m["p_flip"] == pytest.approx(0.0715, abs=1e-3)
    assert m["verdict"] == "uncertain" and "opposite signs" in m["reason"]
    assert "lies beyond ±1.00 pp" in m["reason"]


def test_opposite_insignificant_means_take_the_precision_weighted_direction():
    """−0.9 pp (se 0.6, z −1.5) -> +1.2 pp (se 0.8, z +1.5): neither rung detects an
    effect. Change +2.1 pp, se sqrt(0.6² + 0.8²) = 1.0 pp; with the analysis's margin
    0.2 pp, 90% [2.1 − 1.645, 2.1 + 1.645] = [0.455, 3.745] pp lies beyond +0.2:
    p = Φ(−(2.1 − 0.2)/1.0) = Φ(−1.9) = 0.0287. The effect's direction: weights
    1/0.6² = 2.778, 1/0.8² = 1.5625 (per pp²), weighted mean (2.778·(−0.9) + 1.5625·1.2) /
    4.340 = (−2.5 + 1.875) / 4.340 = −0.144 pp < 0 (the plain mean +0.15 would say +):
    the change is towards (past) 0 -> shrinks. Swapping the precisions turns the
    weighted mean positive -> grows."""
    m = verdict([R("greedy", 0, -0.009, 0.006), R("tuned", 5, 0.012, 0.008)], margin=0.002)
    assert m["signs"] == "0 0"
    assert m["weighted_mean"] == pytest.approx(-0.00144, abs=1e-5)
    assert m["p_beyond"] == pytest.approx(0.0287, abs=2e-4)
    assert m["verdict"] == "shrinks with skill"
    m = verdict([R("greedy", 0, -0.012, 0.008), R("tuned", 5, 0.009, 0.006)], margin=0.002)
    assert m["weighted_mean"] == pytest.approx(0.00144, abs=1e-5)
    assert m["verdict"] == "grows with skill"


def test_no_effect_at_any_rung_and_not_detected():
    # +0.1 pp (se 0.1) and −0.1 pp (se 0.2): no rung detects; change −0.2 pp, se 0.2236,
    # 90% [−0.568, +0.168] pp; rungs' 90%: [−0.064, +0.264], [−0.429, +0.229]: all inside
    m = verdict([R("greedy", 0, 0.001, 0.001), R("tuned", 5, -0.001, 0.002)])
    assert m["verdict"] == "no effect at any rung"
    # +0.5 pp (se 0.32, z 1.56) at both: change 0, se 0.4525, 90% ±0.744 pp inside; each
    # rung's 90% [0.5 − 0.526, 0.5 + 0.526] reaches 1.026 pp > 1: not detected
    m = verdict([R("greedy", 0, 0.005, 0.0032), R("tuned", 5, 0.005, 0.0032)])
    assert m["verdict"] == "not detected"


# --------------------------------------------------------------- the trend, by hand
def test_rungs_are_ordered_by_strength_whatever_order_they_come_in():
    # the strongest listed first: still greedy (strength 0) -> tuned (10), change +0.2 pp
    m = verdict([R("tuned", 10, 0.052, 0.001), R("greedy", 0, 0.05, 0.001)])
    assert m["bots"] == "greedy < tuned" and m["weakest"] == "greedy"
    assert m["change"] == pytest.approx(0.002)


def test_two_rungs_trend_is_the_change():
    m = verdict([R("greedy", 0, 0.01, 0.001), R("tuned", 10, 0.03, 0.002)])
    assert m["trend_change"] == pytest.approx(0.02)
    # se sqrt(0.001² + 0.002²) = 0.0022361; 90% half-width 1.6449·that = 0.0036781
    assert m["trend_ci90_high"] - m["trend_change"] == pytest.approx(0.0036781, abs=1e-6)


def test_three_rungs_trend_widened_by_scatter():
    """s = 0, 10, 20; means 0, 0.02, 0.02; se 0.001 each (equal weights 1e6). Slope
    Σ(s − 10)·y / Σ(s − 10)² = (10·0.02) / 200 = 0.001: change over 20 = 0.02. Fit
    0.01333 + 0.001·(s − 10) = 0.00333, 0.01333, 0.02333; residuals −0.00333, +0.00667,
    −0.00333: χ² = 1e6·(1.111 + 4.444 + 1.111)e-5 = 66.67 on 1 degree of freedom, widening
    sqrt(66.67) = 8.165; se = 8.165 · 20 / sqrt(1e6·200) = 8.165 · 0.0014142 = 0.011547."""
    t, se, widen = rob.trend([R("a", 0, 0.0, 0.001), R("b", 10, 0.02, 0.001),
                              R("c", 20, 0.02, 0.001)])
    assert t == pytest.approx(0.02)
    assert widen == pytest.approx(8.165, abs=1e-3)
    assert se == pytest.approx(0.011547, abs=1e-5)


# -------------------------------------------------------------- multiplicity (Holm)
def test_holm_turns_a_borderline_holds_uncertain():
    """+5 pp (se 0.4) at both rungs: change 0, se 0.4·sqrt(2) = 0.5657 pp; 90% ±0.930 pp
    inside ±1: alone, holds; p = Φ(−1/0.5657) = Φ(−1.7678) = 0.0386. Two such figures:
    Holm multiplies the smaller by 2: 0.0771 > 0.05, and the larger is at least that:
    both uncertain."""
    fig = [R("greedy", 0, 0.05, 0.004), R("tuned", 5, 0.05, 0.004)]
    alone = verdict(fig)
    assert alone["verdict"] == "holds across skill"
    assert alone["p_equiv"] == pytest.approx(0.0386, abs=2e-4)
    both = rob.label_all([(fig, 0.01, "share"), (fig, 0.01, "share")])
    for m in both:
        assert m["p_equiv_holm"] == pytest.approx(0.0771, abs=4e-4)
        assert m["verdict"] == "uncertain" and "Holm" in m["reason"]


# --------------------------------------------------------------------- the margin
def test_margin_rule():
    rs = [R("greedy", 0, 13.5, 0.005), R("tuned", 5, 13.0, 0.05)]
    assert rob.margin_for(rs, None, "share")[0] == 0.01                 # fairness margin
    assert rob.margin_for(rs, 0.03, "share")[0] == 0.03                 # the analysis's
    assert rob.margin_for(rs, float("nan"), "share")[0] == 0.01         # NaN: default
    # other units: 10% of the most precise rung's figure (greedy 13.5): 1.35
    assert rob.margin_for(rs, None, "per game")[0] == pytest.approx(1.35)
    # floor: 10% of 0.001 is 0.0001, below that rung's half-width 1.96·0.01 = 0.0196
    rs = [R("greedy", 0, 0.001, 0.01), R("tuned", 5, 0.5, 0.1)]
    assert rob.margin_for(rs, None, "rounds")[0] == pytest.approx(0.0196, abs=1e-4)
    assert default_unit("rounds per game, full 4p") == "per game"
    assert default_unit("veto value, individual 4p, 0") == "share"


def test_key_figures_margin_column_overrides_the_default():
    # +2 pp -> +3 pp (se 0.1): with ±1 pp uncertain (above); with the analysis's ±5 pp
    # the 90% interval [0.77, 1.23] pp lies inside: holds
    kf = pd.DataFrame([("x", "f", "greedy", 0.02, 0.02 - Z * 0.001, 0.02 + Z * 0.001, 0.05),
                       ("x", "f", "tuned", 0.03, 0.03 - Z * 0.001, 0.03 + Z * 0.001, 0.05)],
                      columns=["analysis", "figure", "bot", "mean", "ci_low", "ci_high",
                               "margin"])
    chains = {"demos": rungs.Chain("d", "Elo", {"greedy": 1.0, "tuned": 2.0})}
    lad = rob.ladder(kf.assign(analysis="veto"), chains)
    assert lad.iloc[0]["margin"] == 0.05
    assert lad.iloc[0]["verdict"] == "holds across skill"


# ------------------------------------------------------------- the measured order
def _ladder(tmp_path, last_share):
    rows = [("greedy", "random", 0.99), ("heuristic", "greedy", 0.51),
            ("tuned", "heuristic", 0.52), ("ismcts@64", "tuned", last_share)]
    data = [{"game": "demos full 4p individual", "policy": p, "against": a,
             "measure": "win share", "value": v, "ci_lo": v, "ci_hi": v, "reference": 0.5,
             "games": 1} for p, a, v in rows]
    data += [{"game": "protocole coop level 2 4p", "policy": p, "against": a,
              "measure": "win rate difference", "value": v, "ci_lo": v, "ci_hi": v,
              "reference": 0.0, "games": 1}
             for p, a, v in [("convention", "random", 0.33), ("planner", "convention", 0.02),
                             ("ismcts@16", "planner", 0.36)]]
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(data))
    return path


def test_chained_strengths_by_hand(tmp_path):
    """greedy 400·log10(99) = 798.25; heuristic + 400·log10(51/49) = +6.95 -> 805.20;
    tuned + 400·log10(52/48) = +13.90 -> 819.11; ismcts@64 + 400·log10(53/47) = +20.87 ->
    839.98. Coop: 0.33, 0.35, 0.71 (cumulative win-rate differences)."""
    ch = rungs.load(_ladder(tmp_path, 0.53))
    s = ch["demos"].strengths
    assert s["random"] == 0
    assert s["greedy"] == pytest.approx(798.25, abs=0.01)
    assert s["heuristic"] == pytest.approx(805.20, abs=0.01)
    assert s["tuned"] == pytest.approx(819.11, abs=0.01)
    assert s["ismcts@64"] == pytest.approx(839.98, abs=0.01)
    c = ch["protocole coop"].strengths
    assert (c["convention"], c["planner"], c["ismcts@16"]) == pytest.approx((0.33, 0.35, 0.71))
    assert ch["protocole coop"].unit == "win-rate difference"


def test_rung_order_comes_from_strengths_not_names(tmp_path):
    """Bots listed alphabetically (game_shape's order): ismcts@64 before tuned. With
    ismcts@64 winning 53% against tuned it is the strongest; with 45% its rating is
    819.11 + 400·log10(45/55) = 819.11 − 34.86 = 784.25, below greedy (798.25)."""
    kf = pd.DataFrame([("game_shape", "f", b, m, m - 0.001, m + 0.001)
                       for b, m in [("greedy", 0.10), ("heuristic", 0.11),
                                    ("ismcts@64", 0.13), ("tuned", 0.12)]],
                      columns=["analysis", "figure", "bot", "mean", "ci_low", "ci_high"])
    lad = rob.ladder(kf, rungs.load(_ladder(tmp_path, 0.53)))
    assert lad.iloc[0]["bots"] == "greedy < heuristic < tuned < ismcts@64"
    assert lad.iloc[0]["strongest"] == "ismcts@64"
    assert lad.iloc[0]["change"] == pytest.approx(0.03)
    lad = rob.ladder(kf, rungs.load(_ladder(tmp_path, 0.45)))
    assert lad.iloc[0]["bots"] == "ismcts@64 < greedy < heuristic < tuned"
    assert lad.iloc[0]["weakest"] == "ismcts@64"
    assert lad.iloc[0]["change"] == pytest.approx(0.12 - 0.13)


def test_bots_off_the_ladder_are_left_out(tmp_path):
    ch = rungs.load(_ladder(tmp_path, 0.53))
    placed, left, fam = rungs.order(ch, "protocole_levels", "coop win rate, level 2 vs 1, 2p",
                                    ["cautious", "convention", "planner", "ismcts@16"])
    assert fam == "protocole coop"
    assert [b for b, _ in placed] == ["convention", "planner", "ismcts@16"]
    assert left == ["cautious (not on the protocole coop ladder)"]
    # the each chain is missing from this ladder: nothing is placed
    placed, left, fam = rungs.order(ch, "protocole_levels", "each: seat 0 win-share edge, 2p",
                                    ["cautious", "planner"])
    assert fam == "protocole each" and placed == [] and len(left) == 2
    assert rungs.family("variants", "variants: Protocole each 4p round_cap=10: Δ") == \
        "protocole each"
    assert rungs.family("variants", "variants: DĒMOS full 2v2 4p team_talk=hands") == "demos"
    # a figure with fewer than two bots on the ladder keeps a row, "no skill order"
    kf = pd.DataFrame([("assemblee", "g", "civic", 0.1, 0.09, 0.11),
                       ("assemblee", "g", "reciprocal", 0.2, 0.19, 0.21)],
                      columns=["analysis", "figure", "bot", "mean", "ci_low", "ci_high"])
    lad = rob.ladder(kf, {"assemblee": rungs.Chain("a", "Elo", {"civic": -30.0})})
    assert lad.iloc[0]["verdict"] == "no skill order"
    assert "reciprocal (not on the assemblee ladder)" in lad.iloc[0]["left_out"]


# ---------------------------------------------- real key figures (committed sample)
def test_real_key_figures_done_when():
    """A dozen figures of the committed robustness/key_figures.csv (42c572d) on the
    committed ladder: every row in measured order, every "holds" row's 90% change (and
    trend) interval inside its margin, every label one of the documented ones."""
    kf = pd.read_csv(DATA / "key_figures_sample.csv")
    chains = rungs.load(DATA / "ladder.json")
    lad = rob.ladder(kf, chains)
    assert len(lad) == kf["figure"].nunique()
    assert set(lad["verdict"]) <= set(rob.VERDICTS)
    for r in lad.itertuples():
        if r.verdict == "no skill order":
            continue
        fam = rungs.family(r.analysis, r.figure)
        s = [chains[fam].strengths[b] for b in r.bots.split(" < ")]
        assert s == sorted(s), r.figure
        if r.verdict == "holds across skill":
            assert -r.margin < r.change_ci90_low and r.change_ci90_high < r.margin
            assert -r.margin < r.trend_ci90_low and r.trend_ci90_high < r.margin
        if r.verdict == "uncertain":
            assert r.reason
    gs = lad[lad["analysis"] == "game_shape"]
    assert (gs["bots"] == "greedy < heuristic < tuned < ismcts@64").all()
    lv = lad.set_index("figure")
    assert lv.at["each: seat 0 win-share edge, 2p", "left_out"] == \
        "convention (not on the protocole each ladder)"
    assert lv.at["coop win rate, level 2 vs 1, 2p", "bots"] == \
        "convention < planner < ismcts@16"
    # rounds per game is not a share: 10% of greedy's 13.56 rounds
    assert lv.at["rounds per game, full 4p", "margin"] == pytest.approx(1.356, abs=1e-3)
    comp = rob.compare(kf, chains)
    assert (comp["verdict"].isin(rob.VERDICTS)).all()
    h = comp[comp["verdict"] == "holds across skill"]
    assert ((h["change_ci90_low"] > -h["margin"]) & (h["change_ci90_high"] < h["margin"])).all()
    found, flags = rob.findings({"ladder": lad, "comparison": comp})
    assert "Holm" in found[0]
    assert math.isfinite(lad["margin"].dropna().iloc[0])


def test_plot_draws(tmp_path):
    kf = pd.read_csv(DATA / "key_figures_sample.csv")
    chains = rungs.load(DATA / "ladder.json")
    tabs = {"ladder": rob.ladder(kf, chains), "comparison": rob.compare(kf, chains)}
    assert rob.plots(tabs, tmp_path) == ["robustness.png"]
    assert (tmp_path / "robustness.png").stat().st_size > 1000


def test_a_change_beyond_the_margin_that_the_trend_does_not_follow_is_not_growth():
    """s = 0, 10, 20; means 0, +10, +2 pp (se 0.1 pp each). Weakest to strongest: +2 pp,
    90% 2 ± 1.6449·0.1414 = [1.77, 2.23] pp, beyond ±1 pp. Trend: slope (10·0.02)/200 =
    0.001, change +2 pp, but residuals −3, +6, −3 pp give χ² = 1e6·(9 + 36 + 9)e-4 = 5400
    on 1 degree of freedom, widening sqrt(5400) = 73.48, se 73.48·0.0014142 = 10.39 pp:
    90% [−15.1, +19.1] pp. The two disagree: uncertain, saying so (not "about the
    margin's size")."""
    m = verdict([R("greedy", 0, 0.0, 0.001), R("heuristic", 10, 0.10, 0.001),
                 R("tuned", 20, 0.02, 0.001)])
    assert m["change_ci90_low"] == pytest.approx(0.02 - 0.0023262, abs=1e-6)
    assert m["trend_ci90_low"] == pytest.approx(0.02 - 1.6449 * 0.10392, abs=1e-3)
    assert m["verdict"] == "uncertain"
    assert "do not agree on a move beyond ±1.00 pp" in m["reason"]


def test_the_committed_ladder_table_meets_the_done_when():
    """The committed results/analyses/robustness/ladder.csv (what the README quotes): every
    row's rungs in the order of the committed ladder's strengths, every "holds" row's 90%
    change and trend intervals inside its margin, every "uncertain" row with its reason."""
    root = Path(__file__).resolve().parents[2]
    lad = pd.read_csv(root / "results" / "analyses" / "robustness" / "ladder.csv")
    chains = rungs.load(root / "results" / "ladder" / "ladder.json")
    assert len(lad) > 200
    for r in lad.itertuples():
        if r.verdict == "no skill order":
            continue
        s = [chains[r.ladder].strengths[b] for b in r.bots.split(" < ")]
        assert s == sorted(s), (r.figure, r.bots)
        if r.verdict == "holds across skill":
            assert -r.margin < r.change_ci90_low and r.change_ci90_high < r.margin, r.figure
            assert -r.margin < r.trend_ci90_low and r.trend_ci90_high < r.margin, r.figure
        if r.verdict == "uncertain":
            assert isinstance(r.reason, str) and r.reason, r.figure
    gs = lad[lad["analysis"] == "game_shape"]
    assert not gs["bots"].str.contains("ismcts@64 < tuned").any()
