"""Equivalence (TOST) verdicts: the margin's exact boundary, the 90% interval a verdict
rests on and prints, per-seat fairness in the side's own units, the fresh-deal worst
side, mirror seatings never a runner-up, and "does not matter" only under a margin.

Pure and fast: hand-made tables, no games played. Expected values are worked out by hand
in the comments (z₉₀ = 1.6448536, z₉₅ = 1.9599640).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from demos_sim.analysis.core.fairness import fairness, mode_verdict
from demos_sim.analysis.core.stats import tost, tost_ci
from demos_sim.analysis.questions import teams, variants

Z90 = 1.6448536269514722


# ------------------------------------------------------------- the margin's boundary
def test_upper_90_bound_exactly_on_the_margin_is_not_fair():
    # d = 0.01 − z90·0.002 = 0.0067103: hi90 = d + z90·0.002 = 0.01 exactly (in floats)
    se = 0.002
    e = tost(0.01 - Z90 * se, se, 0.01)
    assert e.hi90 == 0.01                       # the case is built exactly
    assert e.verdict == "not shown fair"        # '<' not '<=': on the margin is not inside
    assert e.p_tost == pytest.approx(0.05, abs=1e-9)
    # one ulp inside is fair
    assert tost(np.nextafter(0.01 - Z90 * se, 0), se, 0.01).verdict == "fair"


def test_lower_90_bound_exactly_on_the_margin_is_not_fair():
    se = 0.002
    e = tost(-0.01 + Z90 * se, se, 0.01)
    assert e.lo90 == -0.01
    assert e.verdict == "not shown fair"


def test_90_bound_exactly_on_the_margin_is_not_unfair():
    # lo90 = d − z90·se = +m exactly: not wholly beyond the margin
    se = 0.002
    e = tost(0.01 + Z90 * se, se, 0.01)
    assert e.lo90 == 0.01
    assert e.verdict == "not shown fair"
    assert tost(np.nextafter(0.01 + Z90 * se, 1), se, 0.01).verdict == "unfair"


def test_zero_se_on_the_margin_is_not_fair():
    # an exact difference (identical games) of exactly the margin: not inside
    assert tost(0.01, 0.0, 0.01).verdict == "not shown fair"
    assert tost(0.01, 0.0, 0.01).p_tost == 1.0
    assert tost(0.0, 0.0, 0.01).verdict == "fair"
    assert tost(0.0, 0.0, 0.01).p_tost == 0.0


# ------------------------------------------------------- the text carries the 90% CI
def test_text_prints_the_90_interval_the_verdict_rests_on():
    # d = 0.004, se = 0.002: 90% = 0.004 ± 0.00329 = [0.00071, 0.00729] → [+0.1, +0.7] pp;
    # the 95% interval would be ± 0.00392 = [+0.0, +0.8]
    e = tost(0.004, 0.002, 0.01)
    assert e.text() == "fair: +0.4 pp, 90% [+0.1, +0.7] within ±1 pp"
    # −0.03 ± 0.00329: [−3.3, −2.7] pp
    assert tost(-0.03, 0.002, 0.01).text() == "unfair: −3.0 pp, 90% [−3.3, −2.7] beyond ±1 pp"
    # 0.006 ± 1.6449·0.003 = 0.006 ± 0.00493: [+0.1, +1.1] pp
    assert tost(0.006, 0.003, 0.01).text() == \
        "not shown fair: +0.6 pp, 90% [+0.1, +1.1], margin ±1 pp"


def test_text_never_shows_a_bound_rounded_onto_the_margin():
    # the tuned 2v2+1 seat of side A (old per-seat units): 95% [−0.085, +1.009] pp
    # → se = 1.0938 / 3.919928 = 0.0027904 pp-units; 90% = 0.4619 ± 0.4590 = [+0.003, +0.921]
    e = tost_ci(0.004619, -0.000850, 0.010088, 0.01)
    assert e.verdict == "fair"
    assert "90% [+0.0, +0.9]" in e.text()        # the 90% interval, not [−0.1, +1.0]
    # a 90% bound of 0.996 pp would print as +1.0 at one decimal: more decimals then
    se = 0.002
    e = tost(0.00996 - Z90 * se, se, 0.01)
    assert e.verdict == "fair"
    assert e.text().endswith("+0.996] within ±1 pp")


def test_text_with_other_words_and_units():
    # a paired change of 0.1 rounds, se 0.03: 90% = 0.1 ± 0.0493 = [0.05, 0.15] rounds
    e = tost(0.1, 0.03, 0.25)
    assert e.text(1.0, " rounds", ("does not matter", "not shown either way", "matters"), 2) \
        == "does not matter: +0.10 rounds, 90% [+0.05, +0.15] within ±0.25 rounds"


# ------------------------------------------------------------------ per-seat TOST
def _sides(mode, labels, sizes, shares, sd, n):
    return pd.DataFrame({"bot": "b", "mode": mode, "option": "default", "side": labels,
                         "side_size": sizes, "games": n, "share": shares, "sd": sd,
                         "gap_half_width": np.nan})


def test_2v2_per_seat_verdict_is_the_per_side_verdict():
    # every game won (u = 0, w̄ = 1): r_A = 0.494, se = sd/√n = 0.5/√12288 = 0.0045105.
    # per side: d = 0.494 − ½ = −0.006, 90% = −0.006 ± 0.0074192 = [−0.01342, +0.00142]:
    # not shown fair. Per seat the parity is 2/4 = ½, the same hypothesis: the same d, se
    # and verdict. (Halving d and se to −0.003 ± 0.0037096 = [−0.0067, +0.0007] while
    # keeping ±1 pp made it "fair": the margin doubled to ±2 pp on r_A.)
    f = fairness(_sides("2v2", ["A", "B"], [2, 2], [0.494, 0.506], 0.5, 12288), 0.01)
    side = f[(f["side"] == "A") & (f["definition"] == "per side")].iloc[0]
    seat = f[(f["side"] == "A") & (f["definition"] == "per seat")].iloc[0]
    se = 0.5 / math.sqrt(12288)
    assert side["diff"] == pytest.approx(-0.006, abs=1e-12)
    assert side["ci90_low"] == pytest.approx(-0.006 - Z90 * se, rel=1e-9)
    assert side["verdict"] == "not shown fair"
    assert seat["parity"] == pytest.approx(0.5)
    assert seat["diff"] == pytest.approx(-0.006, abs=1e-12)
    assert seat["ci90_high"] == pytest.approx(-0.006 + Z90 * se, rel=1e-9)
    assert seat["margin"] == 0.01
    assert seat["verdict"] == "not shown fair"
    assert mode_verdict(f[f["definition"] == "per seat"]) == "not shown fair"


def test_2v2p1_per_seat_margin_is_on_the_sides_share():
    # u = 0; sd 0.49, n = 40000: se = 0.49/200 = 0.00245, z90·se = 0.0040299.
    # per seat, A (2 of 5 seats) against 0.4: d = 0.008, 90% [0.00397, 0.01203]: not
    # shown fair (halved: 0.004 ± 0.0020150 = [0.0020, 0.0060] was "fair").
    # B: d = 0.002, 90% [−0.0020, +0.0060]: fair. I (1 of 5) against 0.2: d = −0.01,
    # 90% [−0.01403, −0.00597]: not shown fair. Per side (⅓) A is +0.0747: unfair.
    f = fairness(_sides("2v2+1", ["A", "B", "I"], [2, 2, 1], [0.408, 0.402, 0.19], 0.49,
                        40000), 0.01)
    seat = f[f["definition"] == "per seat"].set_index("side")
    assert list(seat["parity"]) == pytest.approx([0.4, 0.4, 0.2])
    assert list(seat["diff"]) == pytest.approx([0.008, 0.002, -0.01], abs=1e-12)
    assert list(seat["verdict"]) == ["not shown fair", "fair", "not shown fair"]
    assert seat.loc["A", "ci90_low"] == pytest.approx(0.008 - Z90 * 0.00245, rel=1e-9)
    side = f[f["definition"] == "per side"].set_index("side")
    assert side.loc["A", "diff"] == pytest.approx(0.408 - 1 / 3)
    assert side.loc["A", "verdict"] == "unfair"
    assert "90% [" in seat.loc["A", "verdict_text"]


# ---------------------------------------------------------- the fresh-deal worst side
def test_fresh_replay_reports_its_own_worst_side():
    # 2v2+1, ten fresh games: A wins 4, B wins 4, I wins 1, one game without a winner.
    # Shares A 0.4, B 0.4, I 0.1; mean of the sides 0.3: gaps A +0.1, B +0.1, I −0.2, so
    # the Independent is worst here (on the screen it was A: the screen is not asked).
    # Its per-game gap, signed so its mean is ≥ 0: I wins → −(1 − ⅓) = −⅔; A or B wins →
    # −(0 − ⅓) = +⅓; no winner → 0. Mean: (−⅔ + 8·⅓) / 10 = 0.2 = U.
    x = np.zeros((10, 3))
    x[:4, 0] = 1
    x[4:8, 1] = 1
    x[8, 2] = 1
    verdict, side, text, h = teams._fresh_worst(x, ["A", "B", "I"], [2, 2, 1], 0.01)
    assert side == "I"
    assert text.startswith("I: ")
    assert "90% [" in text
    assert h.mean() == pytest.approx(0.2)
    assert h[8] == pytest.approx(-2 / 3) and h[0] == pytest.approx(1 / 3) and h[9] == 0
    assert verdict in ("not shown fair", "unfair")


def test_fresh_worst_side_ahead_keeps_a_positive_sign():
    # 2v3: A wins 3 of 8, B 5: shares 0.375 / 0.625, mean ½ of 1: gaps −0.125 / +0.125.
    # The tie in |gap| between two sides is exact; either side gives U = 0.125.
    x = np.zeros((8, 2))
    x[:3, 0] = 1
    x[3:, 1] = 1
    _, side, _, h = teams._fresh_worst(x, ["A", "B"], [2, 3], 0.01)
    assert h.mean() == pytest.approx(0.125)


# ------------------------------------------------- mirror seatings and the runner-up
def _screen_sides():
    """A 2v2 screen: default ABAB and its mirror BABA at U = 0.003, AABB / BBAA at 0.001,
    ABBA / BAAB at 0.002 (a mirror pair plays the same games: equal U)."""
    u = {"default": 0.003, "seating=BABA": 0.003, "seating=AABB": 0.001,
         "seating=BBAA": 0.001, "seating=ABBA": 0.002, "seating=BAAB": 0.002}
    rows = []
    for opt, g in u.items():
        for side, sign in (("A", 1), ("B", -1)):
            rows.append({"bot": "b", "mode": "2v2", "screen": "single", "experiment": "x",
                         "option": opt, "change": "seating", "changes": int(opt != "default"),
                         "side": side, "side_size": 2, "games": 10000,
                         "share": 0.49 + sign * g, "sd": 0.5, "gap": sign * g,
                         "gap_half_width": 0.0098, "no_winner": 0.02,
                         "p_gap_holm": 1.0})
    return pd.DataFrame(rows)


def test_runner_up_is_the_next_distinct_game_not_the_mirror():
    opts = teams._option_summary(_screen_sides())
    best, runner, default = teams._picks(opts)
    assert teams.mirror_class("2v2", best["option"]) == "seating=AABB"
    # BBAA (U 0.001, equal to the best) is AABB's mirror: the runner-up is ABBA's class
    assert teams.mirror_class("2v2", runner["option"]) == "seating=ABBA"
    assert default["option"] == "default"
    # Holm over the three distinct games, not six rows
    assert opts.groupby("mirror_class")["p_tost_holm"].nunique().eq(1).all()


def _tune_summary(best, runner, diff, lo, hi):
    fig = {"side_parity": {"value": 0.0066, "ci95": [0.0005, 0.014]}}
    return {"params": {"seating": {}}, "search": {"description": "exhaustive"},
            "default": {"values": {"seating": "ABAB"},
                        "side_parity": {"value": 0.0097, "ci95": [0.002, 0.017]}},
            "best": {"values": {"seating": best}, **fig},
            "runner_up": {"values": {"seating": runner}, **fig},
            "confirmation": {"games": 65536},
            "best_minus_default": {"objective_diff": diff, "ci95": [lo, hi]},
            "best_minus_runner_up": {"objective_diff": 0.0, "ci95": [0.0, 0.0]}}


def test_tuner_mirror_runner_up_is_dropped_and_an_unreplayed_best_not_named():
    # the committed 2v2 tune: best ABBA, runner-up BAAB (its mirror: 0 [0, 0]), best −
    # default −0.31 pp [−1.44, +0.75]: the replay does not show ABBA better
    t = teams.tuner_rows([("2v2", "greedy", _tune_summary("ABBA", "BAAB", -0.0031, -0.0144,
                                                           0.0075))])
    r = t.iloc[0]
    assert r["runner_up"] is None
    assert "vs_runner_up_diff" not in t or pd.isna(r["vs_runner_up_diff"])
    assert r["verdict"] == "not shown different from the default"
    text = teams.tuner_finding(next(t.itertuples()))
    assert "closest to side parity is ABBA" not in text
    assert "no seating is shown closer to side parity than the default ABAB" in text
    # a distinct runner-up is kept, and a replay that shows the best better names it
    t = teams.tuner_rows([("2v2", "greedy", _tune_summary("AABB", "ABBA", -0.004, -0.007,
                                                           -0.001))])
    assert t.iloc[0]["runner_up"] == "ABBA"
    assert t.iloc[0]["verdict"] == "better than the default"
    assert "closest to side parity is AABB" in teams.tuner_finding(next(t.itertuples()))


def test_tuner_best_is_placed_on_the_screen():
    opts = teams._option_summary(_screen_sides())
    t = teams.tuner_rows([("2v2", "b", _tune_summary("BAAB", "AABB", -0.001, -0.01, 0.01))],
                         opts)
    # BAAB is ABBA's class: rank 2 of 3 distinct games on the screen, U = 0.002
    assert t.iloc[0]["screen_rank"] == 2 and t.iloc[0]["screen_distinct"] == 3
    assert t.iloc[0]["screen_unfairness"] == pytest.approx(0.002)


# --------------------------------------------- a variant "does not matter" needs TOST
def _effects(rows):
    return pd.DataFrame([{"bot": "b", "variant": v, "metric": m, "side": s, "diff": d,
                          "diff_ci_low": d - h, "diff_ci_high": d + h}
                         for v, m, s, d, h in rows])


def test_variant_no_effect_needs_equivalence():
    # "wide": 0 ± 2 pp (95%): not significant, 90% = ±1.68 pp crosses ±1 pp → not shown
    # either way (the old report said "no detectable effect").
    # "tight": +0.1 ± 0.3 pp, 90% ±0.25 → [−0.15, +0.35] pp inside ±1; rounds 0.05 ±
    # 0.05, 90% [0.008, 0.092] inside ±0.25 → equivalent.
    # "big": +3 ± 0.4 pp: 90% [2.66, 3.34] beyond ±1, p_beyond = Φ(−(0.02/0.0020408)) ≈ 0.
    e = variants.equivalence(_effects([
        ("wide", "win_share", "0", 0.0, 0.02), ("wide", "rounds", "", 0.0, 0.01),
        ("tight", "win_share", "0", 0.001, 0.003), ("tight", "rounds", "", 0.05, 0.05),
        ("big", "win_share", "0", 0.03, 0.004), ("big", "rounds", "", 0.0, 0.01)]))
    assert list(e["margin"]) == [0.01, 0.25] * 3
    assert list(e["equivalent"]) == [False, True, True, True, False, True]
    assert list(e["beyond"]) == [False, False, False, False, True, False]
    se = 0.02 / 1.959963984540054
    assert e.loc[0, "ci90_high"] == pytest.approx(Z90 * se, rel=1e-9)     # 0.016786
    p = {v: e[e["variant"] == v]["p_tost"].max() for v in ("wide", "tight", "big")}
    sig = {"wide": False, "tight": False, "big": True}
    verdicts = {v: variants.variant_verdict(p[v], bool(e[e["variant"] == v]["beyond"].any()),
                                            sig[v]) for v in p}
    assert verdicts == {"wide": "not shown either way", "tight": "does not matter",
                        "big": "matters"}
    # significant but neither within nor beyond the margin
    assert variants.variant_verdict(0.3, False, True) == "detected, not shown beyond the margin"
    # equivalence at p = 0.05 exactly is not shown (strict)
    assert variants.variant_verdict(0.05, False, False) == "not shown either way"
