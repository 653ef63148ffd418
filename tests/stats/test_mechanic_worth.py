"""The worth of the veto (D3.4.1) and of the Media (D6.2) to one seat: among users (the
best-response tables, worth = −diff) and among abstainers (the social-dilemma tables),
on hand-built runner tables (no game played)."""

import numpy as np
import pandas as pd
import pytest

from demos_sim.analysis.core.best_response import (
    best_response_table, dilemma_findings, dilemma_table, users_table, with_users,
)
from demos_sim.analysis.core.protocol import Run, Runs


def _rows(point, policies, metric, values, ref=0):
    """Runner rows of one point: ``values[side] = (mean, diff, diff half-width)``."""
    out = []
    for side, (mean, diff, hw) in values.items():
        out.append({"point": point, "ref_point": None if point == ref else ref,
                    "policies": ",".join(policies), "metric": metric, "side": side,
                    "seats": side, "games": 1000, "players": len(policies), "mean": mean,
                    "ci_low": mean - 0.01, "ci_high": mean + 0.01,
                    "diff": np.nan if point == ref else diff,
                    "diff_half_width": np.nan if point == ref else hw})
    return out


def _runs(stem, rows, bot="tuned"):
    df = pd.DataFrame(rows)
    df["ref_point"] = df["ref_point"].astype("Int64")
    return Runs({(stem, bot): Run(stem, bot, df, pd.DataFrame(), {}, None)})


# ------------------------------------------------------------------ among abstainers
def _lone_runs():
    """3 players. Reference: everyone abstains (shares 0.30, 0.30, 0.30). Point 1: seat 0
    uses the mechanic alone; point 2: seat 1 alone; point 3: everyone uses it."""
    n = "bot:noveto"
    rows = []
    rows += _rows(0, [n, n, n], "win_share", {s: (0.30, 0, 0) for s in "012"})
    rows += _rows(0, [n, n, n], "no_winner", {"all": (0.10, 0, 0)})
    rows += _rows(0, [n, n, n], "points", {s: (100.0, 0, 0) for s in "012"})
    rows += _rows(0, [n, n, n], "veto_by_side", {s: (0.0, 0, 0) for s in "012"})
    # seat 0 alone: +0.04 (hw 0.01); the others −0.01 (hw 0.004) and −0.03 (hw 0.006)
    rows += _rows(1, ["bot", n, n], "win_share", {"0": (0.34, 0.04, 0.01),
                                                  "1": (0.29, -0.01, 0.004),
                                                  "2": (0.27, -0.03, 0.006)})
    rows += _rows(1, ["bot", n, n], "no_winner", {"all": (0.10, 0.0, 0.002)})
    rows += _rows(1, ["bot", n, n], "points", {"0": (99.5, -0.5, 0.1), "1": (97.0, -3.0, 0.2),
                                               "2": (97.0, -3.0, 0.2)})
    rows += _rows(1, ["bot", n, n], "veto_by_side", {"0": (0.9, 0.9, 0.01), "1": (0.0, 0, 0),
                                                     "2": (0.0, 0, 0)})
    # seat 1 alone: +0.02 (hw 0.02); the others −0.02 (hw 0.01) and 0.00 (hw 0.01)
    rows += _rows(2, [n, "bot", n], "win_share", {"0": (0.28, -0.02, 0.01),
                                                  "1": (0.32, 0.02, 0.02),
                                                  "2": (0.30, 0.0, 0.01)})
    rows += _rows(2, [n, "bot", n], "no_winner", {"all": (0.11, 0.01, 0.004)})
    rows += _rows(2, [n, "bot", n], "points", {"0": (98.0, -2.0, 0.2), "1": (99.7, -0.3, 0.3),
                                               "2": (98.0, -2.0, 0.2)})
    rows += _rows(2, [n, "bot", n], "veto_by_side", {"0": (0.0, 0, 0), "1": (0.8, 0.8, 0.01),
                                                     "2": (0.0, 0, 0)})
    # everyone: seat 0 −0.01 (hw 0.01), seat 1 −0.03 (hw 0.01), seat 2 −0.02 (hw 0.01)
    rows += _rows(3, ["bot"] * 3, "win_share", {"0": (0.29, -0.01, 0.01),
                                                "1": (0.27, -0.03, 0.01),
                                                "2": (0.28, -0.02, 0.01)})
    rows += _rows(3, ["bot"] * 3, "no_winner", {"all": (0.16, 0.06, 0.01)})
    rows += _rows(3, ["bot"] * 3, "points", {s: (90.0, -10.0, 0.5) for s in "012"})
    rows += _rows(3, ["bot"] * 3, "veto_by_side", {s: (1.0, 1.0, 0.0) for s in "012"})
    return _runs("lone", rows)


def test_dilemma_table_reads_each_lone_user_and_everyone_by_hand():
    t = dilemma_table(_lone_runs(), "lone", "noveto", "veto_by_side")
    assert list(t["seat"]) == ["0", "1", "average"]           # seat 2 never alone here
    s0, s1, a = (t.iloc[i] for i in range(3))
    # seat 0 alone: worth +0.04 [0.03, 0.05]; 0.5 points a game fewer; 0.9 vetoes a game
    assert s0["lone_worth"] == pytest.approx(0.04)
    assert (s0["lone_worth_ci_low"], s0["lone_worth_ci_high"]) == pytest.approx((0.03, 0.05))
    assert s0["lone_points"] == pytest.approx(-0.5) and s0["lone_uses"] == pytest.approx(0.9)
    # the abstainers: mean of −0.01 and −0.03 = −0.02, half-width (0.004 + 0.006) / 2 = 0.005
    assert s0["others_change"] == pytest.approx(-0.02)
    assert s0["others_change_ci_high"] == pytest.approx(-0.015)
    # everyone: seat 0's own change −0.01, the no-winner share +0.06 (same in every row)
    assert s0["everyone_change"] == pytest.approx(-0.01)
    assert s1["everyone_change"] == pytest.approx(-0.03)
    assert s0["everyone_no_winner"] == s1["everyone_no_winner"] == pytest.approx(0.06)
    assert s1["lone_no_winner"] == pytest.approx(0.01)
    # average: worth (0.04 + 0.02) / 2 = 0.03, half-width (0.01 + 0.02) / 2 = 0.015;
    # everyone (−0.01 − 0.03) / 2 = −0.02, points (−0.5 − 0.3) / 2 = −0.4
    assert a["lone_worth"] == pytest.approx(0.03)
    assert a["lone_worth_ci_low"] == pytest.approx(0.015)
    assert a["everyone_change"] == pytest.approx(-0.02)
    assert a["lone_points"] == pytest.approx(-0.4)
    assert a["interval"].startswith("conservative") and s0["interval"] == "paired"


def test_users_table_flips_the_restricted_difference_into_a_worth():
    """Reference: every seat uses it; point s: seat s abstains. diff −0.015 (hw 0.005)
    at seat 0, −0.005 (hw 0.007) at seat 1: worth +0.015 [+0.010, +0.020] and +0.005
    [−0.002, +0.012]; average +0.010, half-width 0.006."""
    rows = []
    rows += _rows(0, ["bot", "bot"], "win_share", {"0": (0.4, 0, 0), "1": (0.4, 0, 0)})
    rows += _rows(1, ["bot:nomedia", "bot"], "win_share", {"0": (0.385, -0.015, 0.005),
                                                           "1": (0.41, 0.01, 0.005)})
    rows += _rows(2, ["bot", "bot:nomedia"], "win_share", {"0": (0.41, 0.01, 0.005),
                                                           "1": (0.395, -0.005, 0.007)})
    u = users_table(_runs("users", rows), "users", "nomedia")
    assert list(u["seat"]) == ["0", "1", "average"]
    assert list(u["users_worth"]) == pytest.approx([0.015, 0.005, 0.010])
    assert list(u["users_worth_ci_low"]) == pytest.approx([0.010, -0.002, 0.004])
    assert np.isnan(u["users_points"]).all()               # no points recorded


def test_with_users_joins_by_rung_and_seat():
    t = dilemma_table(_lone_runs(), "lone", "noveto", "veto_by_side")
    users = pd.DataFrame({"bot": ["tuned", "tuned"], "seat": ["1", "average"],
                          "users_games": [500, 500], "users_worth": [0.05, 0.02],
                          "users_worth_ci_low": [0.04, 0.01],
                          "users_worth_ci_high": [0.06, 0.03], "users_points": np.nan,
                          "users_points_ci_low": np.nan, "users_points_ci_high": np.nan})
    j = with_users(t, users).set_index("seat")
    assert np.isnan(j.loc["0", "users_worth"]) and j.loc["1", "users_worth"] == 0.05
    assert j.loc["average", "users_worth"] == 0.02
    assert list(j.columns).index("users_worth") > list(j.columns).index("others_change_ci_high")


def _one_row(lone, users, everyone):
    """An average row: each (estimate, ci_low, ci_high)."""
    r = {"bot": "tuned", "players": 4, "seat": "average", "games": 1000, "lone_uses": 1.0}
    for name, (m, lo, hi) in (("lone_worth", lone), ("users_worth", users),
                              ("everyone_change", everyone), ("others_change", (0, -1, 1)),
                              ("everyone_no_winner", (0, -1, 1))):
        r.update({name: m, f"{name}_ci_low": lo, f"{name}_ci_high": hi})
    return pd.DataFrame([r])


def test_dilemma_findings_name_a_dilemma_only_when_every_interval_says_so():
    dilemma = dilemma_findings(_one_row((0.02, 0.01, 0.03), (0.015, 0.01, 0.02),
                                        (-0.005, -0.008, -0.002)), "veto", "vetoes", "f")
    assert "A social dilemma" in dilemma[0]
    assert "+2.00 [+1.00, +3.00] pp of win share to a lone user" in dilemma[0]
    # everyone's change crosses 0: not shown either way, not "no dilemma"
    open_ = dilemma_findings(_one_row((0.02, 0.01, 0.03), (0.015, 0.01, 0.02),
                                      (-0.005, -0.012, 0.002)), "veto", "vetoes", "f")
    assert "not shown either way" in open_[0] and "A social dilemma" not in open_[0]
    # the lone user's worth crosses 0: using it is not shown to pay
    weak = dilemma_findings(_one_row((0.005, -0.001, 0.011), (0.015, 0.01, 0.02),
                                     (-0.005, -0.008, -0.002)), "veto", "vetoes", "f")
    assert "is not shown" in weak[0] and "A social dilemma" not in weak[0]


# ------------------------------------------------------------------ among users
def test_best_response_table_gives_the_worth_as_minus_the_restricted_difference():
    """Seat 0: reference 0.25, restricted 0.23 (diff −0.02, hw 0.004), 0.8 uses a game:
    worth +0.02 [+0.016, +0.024]; per use −0.02 / 0.8 = −0.025, so worth per use +0.025
    with half-width (0.004 + 0.025 · 0.01) / 0.8 = 0.0053125 (Cauchy–Schwarz delta
    method)."""
    rows = []
    pols = ["veto_br", "tuned", "tuned", "tuned"]
    rows += _rows(0, pols, "win_share", {"0": (0.25, 0, 0)})
    rows += _rows(0, pols, "veto_by_side", {"0": (0.8, 0, 0)})
    rows[-1].update({"ci_low": 0.79, "ci_high": 0.81})
    barred = ["veto_br:noveto"] + pols[1:]
    rows += _rows(1, barred, "win_share", {"0": (0.23, -0.02, 0.004)})
    rows += _rows(1, barred, "veto_by_side", {"0": (0.0, -0.8, 0.01)})
    t = best_response_table(_runs("br_s0", rows), ["br_s0"], "veto_br", "noveto", "vetoes",
                            "veto_by_side", "per_veto")
    s0 = t.iloc[0]
    assert s0["worth"] == pytest.approx(0.02) and s0["diff"] == pytest.approx(-0.02)
    assert (s0["worth_ci_low"], s0["worth_ci_high"]) == pytest.approx((0.016, 0.024))
    assert s0["worth_per_veto"] == pytest.approx(0.025)
    assert s0["worth_per_veto_ci_high"] - 0.025 == pytest.approx(0.0053125)
