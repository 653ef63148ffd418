"""Seat advantage and game shape: tables, invariants, the statistics."""

import numpy as np
import pandas as pd
import pytest
from conftest import small_games

from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.core.stats import ratio_ci, share_of_won
from demos_sim.analysis.questions import game_shape
from tests.stats.reference import holm

KEYS = ["bot", "setup"]


@pytest.fixture(scope="module")
def tables(small_analysis):
    return load_tables(small_analysis("game_shape") / "game_shape")


def test_every_setup_and_rung_is_there(tables):
    seat = tables["seat_share"]
    assert set(seat["bot"]) == set(game_shape.RUNGS)
    want = {f"{r} {n}p" for r in ("full", "simplified") for n in (3, 4, 5)} | {
        "2v2", "2v3", "2v2+1"}
    for bot, d in seat.groupby("bot"):
        assert set(d["setup"]) == want
        # one row per seat in individual modes, per side in team modes: 2*(3+4+5) + 2+2+3
        assert len(d) == 31
    assert (seat["games"] == seat["bot"].map(small_games(game_shape))).all()
    for name in ("shape", "combo_share", "win_harmony"):
        assert set(tables[name]["setup"]) == want
        t = tables[name]
        assert (t["games"] == t["bot"].map(small_games(game_shape))).all()


def test_shares_add_up_and_intervals_contain_their_means(tables):
    seat, sh = tables["seat_share"], tables["shape"]
    tot = seat.groupby(KEYS)["win_share"].sum()
    rest = sh.set_index(KEYS)[["no_winner", "truncated"]].sum(axis=1)
    # M1: the side shares, the no-winner and the truncated shares add up to 1 (exactly,
    # up to float rounding of the per-side sums)
    assert np.allclose(tot + rest.loc[tot.index], 1.0, atol=1e-9)
    assert np.allclose(seat.groupby(KEYS)["share_of_won"].sum(), 1.0, atol=1e-9)
    for lo, m, hi in (("ci_low", "win_share", "ci_high"),
                      ("sow_ci_low", "share_of_won", "sow_ci_high")):
        assert ((seat[lo] <= seat[m] + 1e-12) & (seat[m] <= seat[hi] + 1e-12)).all()
    assert seat["win_share"].between(0, 1).all()
    for c in ("rounds", "nowin_rounds", "no_winner", "vetoes"):
        assert ((sh[f"{c}_ci_low"] <= sh[c] + 1e-12) & (sh[c] <= sh[f"{c}_ci_high"] + 1e-12)).all()
    assert sh["nowin_rounds"].between(0, 1).all() and sh["no_winner"].between(0, 1).all()
    # DĒMOS ends when the 14 (12 simplified) figures are drawn: at least 7 (6) rounds
    assert (sh["rounds"] >= 6).all()


def test_parity_is_one_over_the_number_of_sides(tables):
    seat = tables["seat_share"]
    n = seat.groupby(KEYS)["side"].transform("count")
    assert np.allclose(seat["parity"], 1.0 / n)
    assert np.allclose(seat["excess"], seat["share_of_won"] - seat["parity"])


def test_holm_per_rung(tables):
    seat = tables["seat_share"]
    for _, d in seat.groupby("bot"):
        assert np.allclose(d["p_holm"], holm(d["p_value"]))   # reference Holm, by definition
        assert (d["flag"] == (d["p_holm"] < 0.05)).all()


def test_combinations_and_harmonies(tables):
    combo, harm = tables["combo_share"], tables["win_harmony"]
    # every round win is one of the four combinations; harmony bins partition the games
    assert np.allclose(combo.groupby(KEYS)["share"].sum(), 1.0, atol=1e-9)
    assert np.allclose(harm.groupby(KEYS)["share"].sum(), 1.0, atol=1e-9)
    assert set(combo["bin"]) == {"carre", "run_1_suit", "run_2_suits", "run_3_suits"}
    # structural zero: the simplified rules have no Carré (D8) — share exactly 0
    simp = combo[(combo["rules"] == "simplified") & (combo["bin"] == "carre")]
    assert len(simp) == 3 * len(game_shape.RUNGS) and (simp["share"] == 0).all()
    full = combo[(combo["rules"] == "full") & (combo["bin"] == "carre")]
    assert (full["share"] > 0).all()
    # the no-winner bin of win_harmony is the no-winner (+ truncated) share of the games
    nw = harm[harm["bin"] == "no_winner"].set_index(KEYS)["share"]
    sh = tables["shape"].set_index(KEYS)
    assert np.allclose(nw, (sh["no_winner"] + sh["truncated"]).loc[nw.index])


def test_share_of_won_matches_the_exact_ratio_interval():
    """Hand check on synthetic games: x̄/w̄ and its delta-method interval from (mean, sd,
    won share) equal :func:`ratio_ci` on the exact integer sums (Σx, Σx², Σw, Σw², Σxw)."""
    rng = np.random.default_rng(5)
    n = 4000
    won = rng.random(n) < 0.8                      # somebody won
    units = rng.choice([60, 30, 20, 0], size=n, p=[0.25, 0.03, 0.02, 0.70])
    x = np.where(won, units, 0).astype(np.int64)   # a side's M1 share × 60
    w = won.astype(np.int64)
    ref = ratio_ci(x.sum(), (x * x).sum(), w.sum(), (w * w).sum(), (x * w).sum(), n, 60)
    xs = x / 60
    r, hw = share_of_won(xs.mean(), xs.std(ddof=1), n, w.mean())
    assert r == pytest.approx(ref.mean, rel=1e-12)
    assert hw == pytest.approx(ref.half_width, rel=1e-9)
    # the trivial case: a side that wins every won game has share 1 and no spread
    r1, hw1 = share_of_won(0.8, np.sqrt(0.8 * 0.2 * n / (n - 1)), n, 0.8)
    assert r1 == pytest.approx(1.0) and hw1 == pytest.approx(0.0, abs=1e-7)


def test_seat_table_on_hand_made_rows():
    """Two seats with equal shares are at parity (p = 1, no flag); a seat far off is flagged."""
    base = {"rules": "full", "mode": "individual", "players": 2, "setup": "full 2p",
            "games": 10000, "ci_low": 0, "ci_high": 1}
    rows = []
    for bot, (a, b) in (("even", (0.4, 0.4)), ("odd", (0.55, 0.25))):
        for side, m in (("0", a), ("1", b)):
            rows.append(dict(base, bot=bot, side=side, seats=side, mean=m,
                             sd=np.sqrt(m * (1 - m))))
    ws = pd.DataFrame(rows)
    nw = pd.DataFrame([dict(base, bot=b, mean=0.2) for b in ("even", "odd")])
    tr = pd.DataFrame([dict(base, bot=b, mean=0.0) for b in ("even", "odd")])
    t = game_shape.seat_table(ws, nw, tr)
    even, odd = t[t["bot"] == "even"], t[t["bot"] == "odd"]
    assert np.allclose(even["share_of_won"], 0.5) and np.allclose(even["p_value"], 1.0)
    assert not even["flag"].any()
    assert np.allclose(odd["share_of_won"], [0.6875, 0.3125]) and odd["flag"].all()


def test_plots_and_findings(tables, tmp_path):
    files = game_shape.plots(tables, tmp_path)
    assert {"seat_heatmap.png", "seat_share.png", "game_shape.png", "combo_share.png",
            "win_harmony.png"} <= set(files)
    assert all((tmp_path / f).stat().st_size > 1000 for f in files)
    found, flags = game_shape.findings(tables)
    assert found and all(isinstance(s, str) for s in found + flags)
    kf = game_shape.key_figures(tables)
    assert list(kf.columns) == ["figure", "bot", "mean", "ci_low", "ci_high"]
    assert set(kf["bot"]) == set(game_shape.RUNGS)
    assert ((kf["ci_low"] <= kf["mean"] + 1e-12) & (kf["mean"] <= kf["ci_high"] + 1e-12)).all()
    # every figure is computed at both rungs (robustness compares them)
    assert (kf.groupby("figure")["bot"].nunique() == len(game_shape.RUNGS)).all()
