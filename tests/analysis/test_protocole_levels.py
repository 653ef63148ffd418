"""Protocole level difficulty analysis (P5): a small seeded run, its tables'
invariants, the adapter's new quantities game by game, and the statistics by hand."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from conftest import SMALL_GAMES, small_games

from demos_sim.analysis.core.stats import Z95
from demos_sim.analysis.questions import protocole_levels as PL

GAMES = SMALL_GAMES          # the session's shared small run (also the notebook test's)
TOL = 1e-9


@pytest.fixture(scope="module")
def out(small_analysis):
    return small_analysis("protocole_levels")


@pytest.fixture(scope="module")
def tables(out):
    from demos_sim.analysis.core.sections import load_tables

    return load_tables(out / "protocole_levels")


# ------------------------------------------------------------------ hand-computed statistics
def test_one_sided_p_by_hand():
    # half-width Z95 -> se 1: p = Phi(diff)
    assert PL.one_sided_p(-Z95, Z95) == pytest.approx(0.025, abs=1e-6)
    assert PL.one_sided_p(0.0, Z95) == pytest.approx(0.5)
    assert PL.one_sided_p(1.0, Z95) == pytest.approx(0.841344746, abs=1e-8)
    assert PL.one_sided_p(-0.1, 0.0) == 0.0 and PL.one_sided_p(0.0, 0.0) == 1.0
    assert math.isnan(PL.one_sided_p(0.1, float("nan")))


def test_hist_summary_by_hand():
    s = PL.hist_summary([3, 1, 2, 9], [1, 1, 2, 0])      # values 1, 2, 2, 3
    assert s["n"] == 4 and s["mean"] == pytest.approx(2.0)
    assert s["sd"] == pytest.approx(math.sqrt(2 / 3))
    half = Z95 * math.sqrt(2 / 3) / 2
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((2 - half, 2 + half))
    assert (s["min"], s["p10"], s["median"], s["p90"], s["max"]) == (1, 1, 2, 3, 3)
    assert PL.hist_summary([], [])["n"] == 0


# ------------------------------------------------------------------ the adapter, game by game
@pytest.mark.parametrize("mode,level,players", [("coop", 1, 2), ("coop", 2, 3), ("coop", 3, 4),
                                                ("each", None, 3), ("each", None, 4)])
def test_new_quantities_per_game(mode, level, players):
    from demos_sim.protocole import layout as L
    from demos_sim.protocole.sim import play_chunk
    from demos_sim.game import SHARE_SCALE, get_game

    ad = get_game("protocole")
    cfg = ad.make_config({"mode": mode, "level": level}, players, {})
    q = ad.play(cfg, ["random"] * players, 5, 0, 3000)
    res = play_chunk(cfg.to_array(), ["random"] * players, 5, players, 0, 3000)
    # every game ends exactly one way; the losses split exactly into causes
    assert (q["outcome"].sum(axis=1) == 1).all()
    assert (q["loss_cause"].sum(axis=1) == q["no_winner"][:, 0]).all()
    assert (q["outcome"][:, 1] + q["outcome"][:, 2] == q["no_winner"][:, 0]).all()
    assert (q["failed_foyers"].sum(axis=1) <= q["outcome"][:, 1]).all()
    k = res[:, L.R_NORM_CARDS]
    assert ((k >= 0) & (k <= L.NCARD)).all()
    # the seat edge is the seat's share minus the mean share, exactly
    share = q["win_share"] / SHARE_SCALE
    edge = q["seat_edge"] / (SHARE_SCALE * 12)
    assert np.allclose(edge, share - share.mean(axis=1, keepdims=True), atol=1e-12)
    if mode == "coop":
        assert (q["seat_edge"] == 0).all()
        assert (q["outcome"][:, 0] == (res[:, L.R_OUTCOME] == L.OUT_WIN)).all()
        # the coop game ends at its first failing control: the eliminated are that control's
        assert (q["failed_foyers"].sum(axis=1) == q["outcome"][:, 1]).all()
        if level == 1:
            assert q["outcome"][:, 2].sum() == 0          # no reinforced control at level 1
    else:
        assert q["failed_foyers"].sum() == 0 and q["outcome"][:, 2].sum() == 0


# ------------------------------------------------------------------ the seeded run
def test_section_and_files(out, tables):
    sec = json.loads((out / "protocole_levels" / "section.json").read_text())
    assert set(sec["tables"]) == set(tables) and set(sec["show"]) <= set(tables)
    for f in sec["figures"]:
        assert (out / "protocole_levels" / f).stat().st_size > 1000
    assert {"difficulty_curves.png", "outcomes.png", "record.png", "seat_edge.png",
            "variants.png"} <= set(sec["figures"])
    names = {r["name"] for r in sec["runs"]}
    assert "protocole_levels_coop-convention" in names      # readable run names
    assert all(len(t) for t in tables.values())
    assert sec["findings"]


def _ci_ok(df, m, lo, hi):
    ok = df[m].notna()
    assert ((df.loc[ok, lo] <= df.loc[ok, m] + TOL) & (df.loc[ok, m] <= df.loc[ok, hi] + TOL)).all()


def test_coop_win(tables):
    cw = tables["coop_win"]
    assert set(cw["bot"]) == set(PL.RUNGS)
    n = cw["bot"].map(small_games(PL))
    assert len(cw) == len(PL.RUNGS) * 3 * 3 and (cw["games"] == n).all()
    assert cw["win_rate"].between(0, 1).all()
    _ci_ok(cw, "win_rate", "ci_low", "ci_high")
    assert (cw["wins"] == (cw["win_rate"] * n).round()).all()
    total = cw["win_rate"] + cw["loss_elimination"] + cw["loss_reinforced"] + cw["truncated"]
    assert np.allclose(total, 1.0)
    assert (cw.loc[cw["level"] == 1, "loss_reinforced"] == 0).all()
    # skill policies: level 3 is much harder than level 1 (13-45 points): at least 4
    # standard errors of the difference (unpaired binomial se: 2.4-3.1 points at 512 games;
    # the search rung's 16 games are too few for this)
    for key, g in cw[cw["bot"].isin(PL.SKILL) & (n == GAMES)].groupby(["bot", "players"]):
        w = g.set_index("level")["win_rate"]
        se = math.sqrt((w[1] * (1 - w[1]) + w[3] * (1 - w[3])) / GAMES)
        assert w[1] - w[3] > 4 * se, key


def test_level_steps(tables):
    st = tables["level_steps"]
    cw = tables["coop_win"].set_index(["bot", "players", "level"])["win_rate"]
    assert len(st) == len(PL.RUNGS) * 3 * 2
    for r in st.itertuples():
        # a paired mean difference is exactly the difference of the means (same games)
        assert r.win_lower == pytest.approx(cw[(r.bot, r.players, r.lower_level)])
        assert r.win_upper == pytest.approx(cw[(r.bot, r.players, r.upper_level)])
        assert r.diff == pytest.approx(r.win_upper - r.win_lower, abs=1e-12)
        assert r.diff_ci_low <= r.diff <= r.diff_ci_high
        assert 0 <= r.p_one_sided <= 1
    fam = st[st["in_family"]]
    assert len(fam) == 6 * len(PL.SKILL) and set(fam["bot"]) == set(PL.SKILL)  # 3 counts x 2 steps
    assert (fam["p_holm"] >= fam["p_one_sided"] - TOL).all()
    assert st.loc[~st["in_family"], "p_holm"].isna().all()


def test_record(tables):
    rec, rh, cw = tables["record"], tables["record_hist"], tables["coop_win"]
    m = rec.merge(cw, on=["bot", "players", "level"])
    assert (m["won_games"] == m["wins"]).all()
    won = rec[rec["won_games"] > 0]
    deck = won["players"].map({2: 25, 3: 30, 4: 36})
    assert (won["min"] >= won["min_possible"]).all() and (won["max"] <= deck).all()
    _ci_ok(won[won["won_games"] > 1], "record_mean", "ci_low", "ci_high")
    tot = rh.groupby(["bot", "players", "level"])["share_of_wins"].sum()
    assert np.allclose(tot, 1.0)
    cnt = rh.groupby(["bot", "players", "level"])["won_games"].sum()
    assert (cnt == rec.set_index(["bot", "players", "level"]).loc[cnt.index, "won_games"]).all()


def test_losses(tables):
    ls = tables["losses"]
    assert ls["share"].dropna().between(0, 1).all()
    _ci_ok(ls, "share", "ci_low", "ci_high")
    key = ["bot", "players", "level"]
    oc = ls[ls["measure"] == "outcome"].groupby(key)["share"].sum()
    assert np.allclose(oc, 1.0)
    lc = ls[(ls["measure"] == "loss_cause") & (ls["denominator"] > 0)].groupby(key)["share"].sum()
    assert np.allclose(lc, 1.0)
    # lost games = games x (1 - win rate - truncated)
    cw = tables["coop_win"].set_index(key)
    den = ls[ls["measure"] == "loss_cause"].groupby(key)["denominator"].first()
    lost = (cw["games"] * (cw["loss_elimination"] + cw["loss_reinforced"])).round()
    assert (den == lost.loc[den.index]).all()
    ff = ls[ls["measure"] == "failed_foyers"]
    assert (ff["category"].astype(int) <= ff["players"]).all()


def test_each(tables):
    es, su = tables["each_seats"], tables["each_summary"]
    assert len(es) == len(PL.RUNGS) * (2 + 3 + 4) and (es["games"] == es["bot"].map(small_games(PL))).all()
    for c in ("win_share", "eliminated"):
        assert es[c].between(0, 1).all()
    _ci_ok(es, "win_share", "win_ci_low", "win_ci_high")
    _ci_ok(es, "eliminated", "elim_ci_low", "elim_ci_high")
    _ci_ok(es, "edge", "edge_ci_low", "edge_ci_high")
    g = es.groupby(["bot", "players"])
    assert np.allclose(g["edge"].sum(), 0.0, atol=1e-12)          # edges sum to 0
    m = es.merge(su, on=["bot", "players"])
    parity = (1 - m["no_winner"] - m["truncated"]) / m["players"]
    assert np.allclose(m["parity"], parity)
    assert (es["p_holm"] >= es["p_value"] - TOL).all()


def test_variants_and_known_zero(tables):
    va = tables["variants"]
    noop = va[va["value"].str.contains("no-op")]
    # standard_tie cannot matter in coop (P3.2): the paired difference is exactly 0
    assert len(noop) == len(PL.RUNGS) * 2 * 3 * 2
    # a 0/1 rate with no game changed: ± 1 − 0.0125^(1/games) (Clopper–Pearson, closed form)
    assert (noop["diff"] == 0).all()
    bound = 1 - 0.0125 ** (1 / noop["games"].astype(float))
    assert np.allclose(noop["diff_ci_high"], bound) and np.allclose(noop["diff_ci_low"], -bound)
    _ci_ok(va, "diff", "diff_ci_low", "diff_ci_high")
    assert np.allclose(va["value_mean"] - va["reference"], va["diff"])
    team = va[(va["variant"] == "reinforced_scope") & (va["metric"] == "team win rate")]
    assert len(team) == len(PL.RUNGS) * 2 * 3
    # 'team' only relaxes the reinforced control and no policy but the search reads the
    # variant (ismcts's rollouts play by the configuration's rules), so on the same deal it
    # plays the same game up to the first control 'each_player' fails: it wins every game
    # 'each_player' wins, and loses no more games by that control
    assert (team.loc[team["bot"] != "ismcts@16", "diff"] >= 0).all()
    reinf = va[(va["variant"] == "reinforced_scope")
               & (va["metric"] == "loss by reinforced control")]
    assert len(reinf) == len(team) and (reinf["diff"] <= 0).all()


def test_key_figures(tables):
    kf = PL.key_figures(tables)
    assert list(kf.columns) == ["figure", "bot", "mean", "ci_low", "ci_high"]
    assert set(kf["bot"]) == set(PL.SKILL)
    assert not kf.duplicated(["figure", "bot"]).any()
    _ci_ok(kf, "mean", "ci_low", "ci_high")
    # every figure exists for every skill policy (the robustness analysis compares them)
    assert (kf.groupby("figure")["bot"].nunique() == len(PL.SKILL)).all()


def test_findings_flag_a_level_not_harder(tables):
    t = {k: v.copy() for k, v in tables.items()}
    st = t["level_steps"]
    i = st.index[st["in_family"]][0]
    st.loc[i, ["harder", "easier", "diff", "diff_ci_low", "diff_ci_high", "p_holm"]] = \
        [False, True, 0.05, 0.01, 0.09, 1.0]
    _, flags = PL.findings(t)
    assert any("EASIER than" in f for f in flags)
    found, flags = PL.findings(tables)
    assert not any("EASIER" in f for f in flags)
    assert isinstance(pd.DataFrame(found), pd.DataFrame)
