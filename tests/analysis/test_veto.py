"""Veto value (D3.4.1): tables, invariants, structural zeros, the statistics."""

import numpy as np
import pandas as pd
import pytest
from conftest import small_games

from demos_sim.analysis.core.protocol import Run, Runs, experiment_path
from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.core.stats import Z95, adjust
from demos_sim.analysis.questions import veto


@pytest.fixture(scope="module")
def tables(small_analysis):
    return load_tables(small_analysis("veto") / "veto")


def test_every_seat_and_side_is_restricted_once(tables):
    v = tables["veto_value"]
    assert set(v["bot"]) == set(veto.RUNGS)
    for bot, d in v.groupby("bot"):
        # 3 + 4 + 5 seats, then the sides of 2v2, 2v3 and 2v2+1
        assert len(d) == 12 + 2 + 2 + 3
        for n in (3, 4, 5):
            s = d[d["setup"] == f"individual {n}p"]
            assert sorted(s["restricted"].astype(int)) == list(range(n))
            assert (s["seats"].astype(str) == s["restricted"].astype(str)).all()
        assert list(d[d["setup"] == "2v2"]["seats"]) == ["0,2", "1,3"]
        assert list(d[d["setup"] == "2v3"]["seats"]) == ["0,2", "1,3,4"]
        assert list(d[d["setup"] == "2v2+1"]["seats"]) == ["0,2", "1,3", "4"]
    assert (v["games"] == v["bot"].map(small_games(veto))).all()


def test_intervals_and_shares(tables):
    v = tables["veto_value"]
    for lo, m, hi in (("ref_ci_low", "share_ref", "ref_ci_high"),
                      ("ci_low", "share_noveto", "ci_high"),
                      ("diff_ci_low", "diff", "diff_ci_high")):
        assert ((v[lo] <= v[m] + 1e-12) & (v[m] <= v[hi] + 1e-12)).all()
    assert v["share_ref"].between(0, 1).all() and v["share_noveto"].between(0, 1).all()
    assert np.allclose(v["diff"], v["share_noveto"] - v["share_ref"])
    for _, d in v.groupby("bot"):
        assert np.allclose(d["p_holm"], adjust(d["p_value"].to_numpy(), "holm"))


def test_a_barred_side_never_vetoes(tables):
    """Structural zero: a `:noveto` seat (or a side all of whose members are) uses no veto."""
    v = tables["veto_value"]
    assert (v["vetoes_noveto"] == 0).all()
    # the reference seats do veto (a handful of search-rung games may have a seat that
    # never did: there, only the rung as a whole)
    assert (v.groupby("bot")["vetoes_ref"].sum() > 0).all()
    search = list(veto.RUNGS)[-1]
    assert (v.loc[v["bot"] != search, "vetoes_ref"] > 0).all()
    tv = tables["team_vetoes"]
    a0 = tv[(tv["team_vetoes"] == 0) & (tv["side"] == "A")]
    assert len(a0) == len(veto.RUNGS) and (a0["vetoes_used"] == 0).all()
    # with one veto, team A cannot use more than one per game
    a1 = tv[(tv["team_vetoes"] == 1) & (tv["side"] == "A")]
    assert (a1["vetoes_used"] <= 1).all()


def test_average_over_seats_uses_the_conservative_half_width(tables):
    v, a = tables["veto_value"], tables["veto_average"]
    assert len(a) == 3 * len(veto.RUNGS)
    for r in a.itertuples():
        d = v[(v["bot"] == r.bot) & (v["setup"] == r.setup)]
        assert r.seats == r.players == len(d)
        assert r.mean_diff == pytest.approx(d["diff"].mean())
        assert r.half_width == pytest.approx(d["diff_half_width"].mean())
        assert r.ci_low <= r.mean_diff <= r.ci_high


def test_conservative_half_width_bounds_the_exact_one():
    """Hand check: for correlated per-game differences d_i (one per seat, same games),
    the sample sd of their average is at most the average of their sample sds (the
    sample sd is a seminorm), so the interval of veto_average is never too narrow."""
    rng = np.random.default_rng(11)
    n = 5000
    common = rng.normal(size=n)
    for rho in (-0.5, 0.0, 0.6, 1.0):
        d = np.stack([rho * common + np.sqrt(1 - rho ** 2) * rng.normal(size=n)
                      for _ in range(4)], 1)
        if rho < 0:
            d[:, 1] = -d[:, 0] + 0.1 * rng.normal(size=n)     # strongly negative pair
        hw_seats = Z95 * d.std(axis=0, ddof=1) / np.sqrt(n)
        exact = Z95 * d.mean(axis=1).std(ddof=1) / np.sqrt(n)
        rows = pd.DataFrame({"bot": "b", "mode": "individual", "players": 4,
                             "setup": "individual 4p", "games": n,
                             "diff": d.mean(axis=0), "diff_half_width": hw_seats})
        a = veto.average_table(rows).iloc[0]
        assert a["half_width"] >= exact - 1e-15
        assert a["mean_diff"] == pytest.approx(d.mean())
    # equality when the seats are perfectly correlated (rho = 1): the bound is tight
    assert a["half_width"] == pytest.approx(exact, rel=1e-9)


def test_noveto_cannot_matter_without_a_unanimous_turn(tmp_path):
    """Known zero effect through the whole pipeline: the simplified rules have no unanimous
    turn (D8), so barring the veto changes nothing — every paired difference is exactly 0
    and its interval contains 0."""
    from demos_sim.runner.results import load_results
    from demos_sim.runner.experiment import load_experiment
    from demos_sim.runner.run import run_experiment

    text = experiment_path("veto_individual_3p").read_text().replace(
        'rules = "full"', 'rules = "simplified"')
    path = tmp_path / "veto_individual_3p.toml"
    path.write_text(text)
    exp = load_experiment(path, bot="greedy").with_games(1024)
    run_experiment(exp, out=tmp_path / "run", workers=1, quiet=True)
    meta, res, hists = load_results(tmp_path / "run")
    runs = Runs({("veto_individual_3p", "greedy"): Run("veto_individual_3p", "greedy", res,
                                                       hists, meta, tmp_path / "run")})
    v = veto.value_table(runs)
    assert len(v) == 3 and (v["diff"] == 0).all()
    assert ((v["diff_ci_low"] <= 0) & (v["diff_ci_high"] >= 0)).all()
    assert (v["vetoes_ref"] == 0).all()
    u = veto.usage_table(runs)
    assert (u["vetoes"] == 0).all() and (u["unanimous"] == 0).all()


def test_usage_tables(tables):
    u, s, r = tables["veto_usage"], tables["veto_by_side"], tables["veto_round"]
    assert len(u) == 6 * len(veto.RUNGS) and (u["games"] == u["bot"].map(small_games(veto))).all()
    # vetoes by side add up to all vetoes; so do vetoes by round
    tot = u.set_index(["bot", "setup"])["vetoes"]
    assert np.allclose(s.groupby(["bot", "setup"])["vetoes_per_game"].sum(), tot.sort_index())
    assert np.allclose(r.groupby(["bot", "setup"])["vetoes_per_game"].sum(), tot.sort_index())
    assert np.allclose(r.groupby(["bot", "setup"])["share_of_vetoes"].sum(), 1.0)
    # each side holds one veto (the 2v3 team of two: team_vetoes = 2): no more can be used
    assert (s["vetoes_per_game"] <= np.where(s["seats"] == "0,2", 2, 1) + 1e-12).all()
    held = u["setup"].map({"2v2": 2, "2v3": 3, "2v2+1": 3}).fillna(u["players"])
    assert (u["vetoes"] <= held + 1e-12).all()
    assert u["unan_winner_change"].between(0, 1).all()
    for c in ("vetoes", "unan_score_change", "unan_winner_change"):
        assert ((u[f"{c}_ci_low"] <= u[c] + 1e-12) & (u[c] <= u[f"{c}_ci_high"] + 1e-12)).all()


def test_team_vetoes_table(tables):
    tv = tables["team_vetoes"]
    assert len(tv) == 3 * 2 * len(veto.RUNGS)
    ref = tv[tv["team_vetoes"] == 2]
    assert ref["diff"].isna().all()
    other = tv[tv["team_vetoes"] != 2]
    assert ((other["diff_ci_low"] <= other["diff"]) & (other["diff"] <= other["diff_ci_high"])).all()
    # the two sides' shares of won games add up to 1
    assert np.allclose(tv.groupby(["bot", "team_vetoes"])["share_of_won"].sum(), 1.0)


def test_plots_findings_key_figures(tables, tmp_path):
    files = veto.plots(tables, tmp_path)
    assert {"veto_value.png", "veto_heatmap.png", "veto_round.png", "team_vetoes.png"} <= set(files)
    assert all((tmp_path / f).stat().st_size > 1000 for f in files)
    found, _flags = veto.findings(tables)
    assert any("average over seats" in s for s in found)
    assert any("2v3" in s and "team of two" in s for s in found)
    kf = veto.key_figures(tables)
    assert list(kf.columns) == ["figure", "bot", "mean", "ci_low", "ci_high"]
    assert (kf.groupby("figure")["bot"].nunique() == len(veto.RUNGS)).all()
    assert ((kf["ci_low"] <= kf["mean"] + 1e-12) & (kf["mean"] <= kf["ci_high"] + 1e-12)).all()
