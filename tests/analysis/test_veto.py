"""Veto value (D3.4.1): tables, invariants, structural zeros, the statistics."""

import numpy as np
import pandas as pd
import pytest
from conftest import small_games

from demos_sim.analysis.core.protocol import Run, Runs, experiment_path, rungs
from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.core.stats import Z95
from demos_sim.analysis.questions import veto
from tests.stats.reference import holm


# setup -> (file, seats or sides restricted one at a time)
SETUPS = {"individual 3p": ("veto_individual_3p", 3), "individual 4p": ("veto_individual_4p", 4),
          "individual 5p": ("veto_individual_5p", 5), "2v2": ("veto_2v2", 2),
          "2v3": ("veto_2v3", 2), "2v2+1": ("veto_2v2p1", 3)}


def played(bot: str) -> list[str]:
    """The setups the rung ``bot`` plays."""
    return [s for s, (stem, _) in SETUPS.items() if bot in rungs(veto, stem)]


@pytest.fixture(scope="module")
def tables(small_analysis):
    return load_tables(small_analysis("veto") / "veto")


def test_every_rung_plays_every_setup():
    assert list(veto.RUNGS) == ["greedy", "heuristic", "tuned", "apprentice"]
    for bot in veto.RUNGS:
        assert played(bot) == list(SETUPS), bot


def test_every_seat_and_side_is_restricted_once(tables):
    v = tables["veto_value"]
    assert set(v["bot"]) == set(veto.RUNGS)
    for bot, d in v.groupby("bot"):
        # 3 + 4 + 5 seats, then the sides of 2v2, 2v3 and 2v2+1 (the setups the rung plays)
        assert sorted(set(d["setup"])) == sorted(played(bot))
        assert len(d) == sum(SETUPS[s][1] for s in played(bot))
        for n in (3, 4, 5):
            s = d[d["setup"] == f"individual {n}p"]
            if len(s):
                assert sorted(s["restricted"].astype(int)) == list(range(n))
                assert (s["seats"].astype(str) == s["restricted"].astype(str)).all()
        for setup, seats in (("2v2", ["0,2", "1,3"]), ("2v3", ["0,2", "1,3,4"]),
                             ("2v2+1", ["0,2", "1,3", "4"])):
            if setup in played(bot):
                assert list(d[d["setup"] == setup]["seats"]) == seats
    assert (v["games"] == v["bot"].map(small_games(veto, "veto_individual_4p"))).all()


def test_intervals_and_shares(tables):
    v = tables["veto_value"]
    for lo, m, hi in (("ref_ci_low", "share_ref", "ref_ci_high"),
                      ("ci_low", "share_noveto", "ci_high"),
                      ("diff_ci_low", "diff", "diff_ci_high")):
        assert ((v[lo] <= v[m] + 1e-12) & (v[m] <= v[hi] + 1e-12)).all()
    assert v["share_ref"].between(0, 1).all() and v["share_noveto"].between(0, 1).all()
    assert np.allclose(v["diff"], v["share_noveto"] - v["share_ref"])
    for _, d in v.groupby("bot"):
        assert np.allclose(d["p_holm"], holm(d["p_value"]))   # reference Holm


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
    assert len(a) == sum(s.startswith("individual") for b in veto.RUNGS for s in played(b))
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


def test_noveto_cannot_matter_without_a_unanimous_turn(tmp_path, monkeypatch):
    """Known zero effect through the whole pipeline: the simplified rules have no unanimous
    turn (D8), so barring the veto changes nothing — every paired difference is exactly 0
    and its interval contains 0. Such a file is refused at load (an idle restricted form,
    demos_sim/restricted.py); the check is bypassed here to see the zero it guards."""
    from demos_sim.runner.results import load_results
    from demos_sim.runner.experiment import ExperimentError, load_experiment
    from demos_sim.runner.run import run_experiment

    text = experiment_path("veto_individual_3p").read_text().replace(
        'rules = "full"', 'rules = "simplified"')
    path = tmp_path / "veto_individual_3p.toml"
    path.write_text(text)
    with pytest.raises(ExperimentError, match=r"greedy:noveto cannot give up the veto: .*"
                                              r"\(D8.*unless rules = full$"):
        load_experiment(path, bot="greedy")
    monkeypatch.setattr("demos_sim.restricted.check_restricted", lambda *a: None)
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
    assert len(u) == sum(len(played(b)) for b in veto.RUNGS)
    assert (u["games"] == u["bot"].map(small_games(veto, "veto_individual_4p"))).all()
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
    n_bots = kf.groupby("figure")["bot"].nunique()
    assert (n_bots >= 3).all() and (n_bots[n_bots.index.str.contains("4p")] == 4).all()
    assert ((kf["ci_low"] <= kf["mean"] + 1e-12) & (kf["mean"] <= kf["ci_high"] + 1e-12)).all()


# ------------------------------------------------------------------ best response, deterrence
def _fake_br_runs(values):
    """Runs of the best-response files built by hand: ``values[seat] = (ref share, noveto
    share, diff half-width, vetoes per game in the reference, its half-width)``."""
    runs = {}
    for seat, (ref, res, hw, v, vhw) in values.items():
        pols = ["tuned"] * 4
        pols[seat] = "veto_br"
        barred = [p + ":noveto" if p == "veto_br" else p for p in pols]
        rows = []
        for point, pol, share, vet, vh in ((0, pols, ref, v, vhw), (1, barred, res, 0.0, 0.0)):
            common = {"point": point, "ref_point": None if point == 0 else 0,
                      "policies": ",".join(pol), "seats": str(seat), "side": str(seat),
                      "games": 1000, "players": 4}
            rows.append({**common, "metric": "win_share", "mean": share, "ci_low": share - 0.01,
                         "ci_high": share + 0.01, "diff": res - ref if point else np.nan,
                         "diff_half_width": hw if point else np.nan})
            rows.append({**common, "metric": "veto_by_side", "mean": vet, "ci_low": vet - vh,
                         "ci_high": vet + vh, "diff": np.nan, "diff_half_width": np.nan})
        df = pd.DataFrame(rows)
        df["ref_point"] = df["ref_point"].astype("Int64")
        stem = f"veto_best_response_4p_s{seat}"
        runs[(stem, "tuned")] = Run(stem, "tuned", df, pd.DataFrame(), {}, None)
    return Runs(runs)


def test_best_response_table_arithmetic_by_hand():
    """Per seat: diff = noveto − reference; per veto used = diff / vetoes, half-width
    (hw_d + |R|·hw_v) / v (Cauchy–Schwarz delta method). Seat 0: −0.02 / 0.8 = −0.025,
    half-width (0.004 + 0.025·0.01) / 0.8 = 0.0053125. Average row: mean of the diffs
    (−0.02, −0.01 → −0.015), of the half-widths (0.004, 0.006 → 0.005), of the vetoes
    (0.8, 0.9 → 0.85, half-widths 0.01, 0.03 → 0.02): per veto −0.015 / 0.85 =
    −0.0176471, half-width (0.005 + 0.0176471·0.02) / 0.85 = 0.0062976."""
    t = veto.best_response_table(_fake_br_runs({0: (0.25, 0.23, 0.004, 0.8, 0.01),
                                                1: (0.26, 0.25, 0.006, 0.9, 0.03)}))
    assert list(t["seat"]) == ["0", "1", "average"]
    s0 = t.iloc[0]
    assert s0["diff"] == pytest.approx(-0.02) and s0["vetoes_ref"] == pytest.approx(0.8)
    assert s0["per_veto"] == pytest.approx(-0.025)
    assert s0["per_veto_ci_high"] - s0["per_veto"] == pytest.approx(0.0053125)
    assert s0["diff_ci_low"] == pytest.approx(-0.024) and s0["vetoes_noveto"] == 0
    a = t.iloc[2]
    assert a["diff"] == pytest.approx(-0.015) and a["diff_half_width"] == pytest.approx(0.005)
    assert a["vetoes_ref"] == pytest.approx(0.85)
    assert a["per_veto"] == pytest.approx(-0.015 / 0.85)
    assert a["per_veto"] - a["per_veto_ci_low"] == pytest.approx((0.005 + 0.015 / 0.85 * 0.02)
                                                                 / 0.85)
    assert a["per_veto"] - a["per_veto_ci_low"] == pytest.approx(0.0062976, abs=1e-7)


def test_ratio_same_games_bounds_the_exact_delta_method_interval():
    """Per-game (d_i, v_i) with any correlation: the exact delta-method half-width of
    mean(d)/mean(v) (with the sample covariance) never exceeds ratio_same_games'."""
    from demos_sim.analysis.core.stats import ratio_same_games

    rng = np.random.default_rng(5)
    n = 4000
    for rho in (-0.9, 0.0, 0.9):
        z = rng.normal(size=n)
        v = 0.8 + 0.3 * z
        d = -0.02 + 0.3 * (rho * z + np.sqrt(1 - rho ** 2) * rng.normal(size=n))
        r = d.mean() / v.mean()
        exact = Z95 * (d - r * v).std(ddof=1) / np.sqrt(n) / abs(v.mean())
        hw = lambda x: Z95 * x.std(ddof=1) / np.sqrt(n)    # noqa: E731
        got, half = ratio_same_games(d.mean(), hw(d), v.mean(), hw(v))
        assert got == pytest.approx(r) and half >= exact - 1e-15
    assert np.isnan(ratio_same_games(0.1, 0.01, 0.0, 0.0)[0])


def test_best_response_and_deterrence_tables(tables):
    br = tables["veto_best_response"]
    assert list(br["seat"].astype(str)) == ["0", "1", "2", "3", "average"]
    assert (br["field"] == "tuned").all() and (br["holder"] == "veto_br").all()
    assert (br["games"] == small_games(veto, veto.BEST_RESPONSE[0])["tuned"]).all()
    assert np.allclose(br["diff"], br["share_noveto"] - br["share_ref"])
    assert (br["vetoes_noveto"] == 0).all()                   # a barred seat never vetoes
    assert (br["vetoes_ref"] <= 1).all()                      # one veto a player (D3.4.1)
    dt = tables["veto_deterrence"]
    assert list(dt["bot"]) == list(rungs(veto, veto.DETERRENCE)) == list(veto.RUNGS)
    assert (dt["seats"] == "0,2").all() and (dt["vetoes_used"] <= 1).all()
    assert np.allclose(dt["deterrence"], dt["share_unused_veto"] - dt["share_no_veto"])
    assert np.allclose(dt["total"], dt["share_used_veto"] - dt["share_no_veto"])
    found, _ = veto.findings(tables)
    assert any(s.startswith("Value of the veto to the tuned player") and "a veto used is worth"
               in s for s in found)
    assert np.allclose(br["worth"], -br["diff"])               # worth: with − without
    dl = tables["veto_dilemma"]                                # the social dilemma
    assert list(dl["bot"].drop_duplicates()) == list(veto.EXPERIMENT_RUNGS[veto.LONE])
    assert (dl[dl["seat"] != "average"]["lone_uses"] > 0).all()
