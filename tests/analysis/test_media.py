"""The Media analysis (demos_sim/analysis/questions/media.py) on a small seeded run.

Structure and invariants of its tables, the sign convention of its paired swings on a
hand-built input, and known zero-effect comparisons played by the runner.
"""

import numpy as np
import pandas as pd
import pytest
from conftest import small_games

from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.questions import media


@pytest.fixture(scope="module")
def tabs(small_analysis):
    return load_tables(small_analysis("media") / "media")


def _ci_ok(df, mean, lo, hi):
    d = df.dropna(subset=[mean])
    assert (d[lo] <= d[mean] + 1e-12).all() and (d[mean] <= d[hi] + 1e-12).all()


def test_tables_and_sizes(tabs):
    assert set(media.SHOW) <= set(tabs)
    setups = {"individual 3p", "individual 4p", "individual 5p", "2v2", "2v3", "2v2+1"}
    for name in ("by_media", "targeted", "cancel", "swing"):
        t = tabs[name]
        assert set(t["setup"]) == setups, name
        assert set(t["bot"]) == set(media.RUNGS)
        assert (t["games"] == t["bot"].map(small_games(media))).all(), name
    assert set(tabs["media_target"]["setup"]) == {"2v2", "2v3", "2v2+1"}
    assert set(tabs["independent"]["setup"]) == {"2v2+1"}


def test_shares_and_intervals(tabs):
    bm = tabs["by_media"]
    held = bm["player_games"] > 0          # the team bots never give both Media to one member
    assert bm.loc[held, "win_share"].between(0, 1).all()
    assert bm.loc[~held, "win_share"].isna().all()
    _ci_ok(bm, "win_share", "ci_low", "ci_high")
    # every player holds 0, 1 or 2 Media: the bins add up to the player count
    n = {"individual 3p": 3, "individual 4p": 4, "individual 5p": 5, "2v2": 4, "2v3": 5,
         "2v2+1": 5}
    tot = bm.groupby(["bot", "setup"])["players_per_game"].sum()
    for (bot, setup), v in tot.items():
        assert v == pytest.approx(n[setup])
        pg = bm[(bm["bot"] == bot) & (bm["setup"] == setup)]["player_games"].sum()
        assert pg == n[setup] * small_games(media)[bot]
    c = tabs["cancel"]
    assert c["cancel_share"].between(0, 1).all()
    _ci_ok(c, "cancel_share", "ci_low", "ci_high")
    # D6.1: outside 2v2+1 a cancellation happens exactly when someone holds both Media;
    # there are only two Media, so at most one player per game holds 2
    two = bm[bm["media_held"] == 2].set_index(["bot", "setup"])["players_per_game"]
    for r in c.itertuples():
        if r.setup != "2v2+1":
            assert r.cancel_share == pytest.approx(two[(r.bot, r.setup)])
    tg = tabs["targeted"]
    _ci_ok(tg, "targeted", "targeted_ci_low", "targeted_ci_high")
    _ci_ok(tg, "gap", "gap_ci_low", "gap_ci_high")
    assert ((tg["targeted_player_games"] + tg["not_targeted_player_games"])
            == tg["games"] * tg["setup"].map(n)).all()
    for name in ("swing", "independent", "revealed"):
        t = tabs[name]
        _ci_ok(t, "effect", "effect_ci_low", "effect_ci_high")
        assert t["p_holm"].dropna().between(0, 1).all()
        assert (t["p_holm"].dropna() >= t["p"].dropna() - 1e-12).all()


def test_swing_matches_the_two_points(tabs):
    """The swing is 'with Media' minus 'nobody plays one', on the same games."""
    sw = tabs["swing"]
    assert np.allclose(sw["effect"], sw["with_media"] - sw["no_media"], atol=1e-9)
    ind = tabs["independent"]
    assert np.allclose(ind["effect"], ind["act"] - ind["keep"], atol=1e-9)


def test_swing_table_on_hand_input():
    """Sign convention and Holm adjustment checked on a two-row synthetic input."""
    diffs = pd.DataFrame({
        "bot": ["b", "b"], "setup": ["s", "s"], "metric": ["win_share", "no_winner"],
        "side": ["0", "all"], "seats": ["0", ""], "games": [100, 100],
        "mean": [0.30, 0.10], "diff": [0.05, -0.02],
        "diff_ci_low": [0.03, -0.05], "diff_ci_high": [0.07, 0.01],
        "diff_half_width": [0.02, 0.03]})
    refs = pd.DataFrame({"bot": ["b", "b"], "setup": ["s", "s"],
                         "metric": ["win_share", "no_winner"], "side": ["0", "all"],
                         "mean": [0.25, 0.12]})
    t = media._swing_table(diffs, refs)
    assert list(t["effect"]) == pytest.approx([-0.05, 0.02])
    assert list(t["effect_ci_low"]) == pytest.approx([-0.07, -0.01])
    assert list(t["with_media"]) == pytest.approx([0.25, 0.12])
    assert list(t["no_media"]) == pytest.approx([0.30, 0.10])
    from scipy.stats import norm
    p = [2 * norm.sf(0.05 / (0.02 / 1.959963984540054)), 2 * norm.sf(0.02 / (0.03 / 1.959963984540054))]
    assert list(t["p"]) == pytest.approx(p)
    # Holm with two tests: the smaller p doubled, the larger max(its own, that)
    lo, hi = sorted(p)
    assert sorted(t["p_holm"]) == pytest.approx(sorted([2 * lo, max(hi, 2 * lo)]))
    t2 = media._swing_table(diffs, refs, with_col="act", without_col="keep")
    assert list(t2["effect"]) == pytest.approx([0.05, -0.02])


def test_known_zero_effects(tmp_path):
    """Variants that cannot matter give exactly zero paired differences, and an
    interval that contains 0: media_targets_revealed when nobody plays a Media, and
    independent_double_media in an individual game (there is no Independent)."""
    from demos_sim.runner.experiment import load_experiment
    from demos_sim.runner.run import run_experiment

    p = tmp_path / "zero.toml"
    p.write_text('name = "zero"\ngame = "demos"\nrules = "full"\nmode = "individual"\n'
                 'players = 4\npolicies = ["greedy:nomedia"]\nseed = 5\ngames = 1024\n'
                 'metrics = ["win_share", "no_winner"]\n[variants]\nmedia_optional = true\n'
                 '[grid]\nmedia_targets_revealed = [false, true]\n'
                 'independent_double_media = ["keep", "act"]\n')
    res = run_experiment(load_experiment(p), out=tmp_path / "run", quiet=True).results
    d = res[res["ref_point"].notna()]
    assert len(d) and (d["diff"] == 0).all()
    assert ((d["diff_ci_low"] <= 0) & (d["diff_ci_high"] >= 0)).all()


def test_findings_and_key_figures(tabs, tmp_path):
    found, _ = media.findings(tabs)
    assert any("no-winner share" in f for f in found)
    assert any("confounded" in f for f in found)
    kf = media.key_figures(tabs)
    assert list(kf.columns) == ["figure", "bot", "mean", "ci_low", "ci_high"]
    assert set(kf["bot"]) == set(media.RUNGS)
    assert ((kf["ci_low"] <= kf["mean"] + 1e-12) & (kf["mean"] <= kf["ci_high"] + 1e-12)).all()
    names = media.plots(tabs, tmp_path)
    assert names and all((tmp_path / n).stat().st_size > 0 for n in names)


def test_best_response_table_pairs_media_br_with_its_nomedia_form(tabs):
    """media_br in one seat among tuned players against media_br:nomedia there: one row a
    seat and the average; the restricted seat plays no Media action (media_optional), the
    difference is the two points' shares, and the average row is the seats' mean."""
    br = tabs["media_best_response"]
    assert list(br["seat"]) == ["0", "1", "2", "3", "average"]
    assert set(br["field"]) == {"tuned"} and set(br["holder"]) == {"media_br"}
    assert (br["actions_nomedia"] == 0).all()
    seats = br[br["seat"] != "average"]
    assert np.allclose(seats["diff"], seats["share_nomedia"] - seats["share_ref"])
    assert br.iloc[-1]["diff"] == pytest.approx(seats["diff"].mean())
    assert br.iloc[-1]["diff_half_width"] == pytest.approx(seats["diff_half_width"].mean())
    assert np.allclose(br["worth"], -br["diff"])               # worth: playing − declining
    dl = tabs["media_dilemma"]                                 # the social dilemma
    assert set(dl["bot"]) == set(media.EXPERIMENT_RUNGS[media.LONE])
    assert not any("points" in c for c in dl.columns)          # the Media moves no points
