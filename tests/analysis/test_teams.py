"""The team-fairness analysis (demos_sim/analysis/questions/teams.py) on a small seeded run.

Structure and invariants of its tables, the exact gap interval against a brute-force
computation on synthetic games, mirror seatings and a variant that cannot matter
(identical games), and a known large effect (the 2v3 team of three is favoured).
"""

import numpy as np
import pandas as pd
import pytest
from conftest import small_games

from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.questions import teams

N_SEATINGS = {"2v2": 6, "2v3": 10, "2v2+1": 15}
# the other single changes of each mode's screen, on the same deals
TEAM_VARIANTS = {"team_points_tiebreak": ["sum"], "team_trio": ["pooled"],
                 "team_talk": ["hands"], "announced_trio": [True]}
OTHER = {"2v2": {},
         "2v3": {"team_vetoes": [0, 1, 3, 4], "handicap_points": [10, 20, 40, 80],
                 **TEAM_VARIANTS},
         "2v2+1": {"handicap_points": [10, 20, 30, 40, 50, 60, 80], "handicap_vetoes": [1, 2, 3],
                   "independent_double_media": ["act"], "independent_points_strict": [False],
                   "p3_harmonies": ["mono_only"], "p3_points_tiebreak": ["max"],
                   **TEAM_VARIANTS}}
# (rung, mode) of every screen the analysis plays: every rung screens every mode
SCREENS = [(bot, mode) for bot in teams.RUNGS for mode in N_SEATINGS
           if teams.screened(bot, mode)]
# (rung, mode) of the screens of combined changes (the unfair modes, two rungs)
PAIRS = [(bot, mode) for bot in teams.RUNGS for mode in N_SEATINGS
         if teams.screened(bot, mode, "pairs")]


@pytest.fixture(scope="module")
def folder(small_analysis):
    return small_analysis("teams")


@pytest.fixture(scope="module")
def tabs(folder):
    return load_tables(folder / "teams")


def test_gap_interval_is_exact_on_synthetic_games():
    """gap_estimates (from per-side marginals) equals the per-game computation."""
    rng = np.random.default_rng(3)
    n, k = 5000, 3
    winner = rng.choice(5, size=n, p=[0.4, 0.3, 0.15, 0.1, 0.05])   # 3: shared A+B, 4: none
    x = np.zeros((n, k))
    for s in range(k):
        x[winner == s, s] = 1.0
    x[winner == 3, 0] = x[winner == 3, 1] = 0.5
    u = (winner == 4).astype(float)
    gap, half = teams.gap_estimates(x.mean(0), x.std(0, ddof=1), u.mean(), n)
    g = teams.per_game_gap(x)
    assert gap == pytest.approx(g.mean(0))
    assert half == pytest.approx(1.959963984540054 * g.std(0, ddof=1) / np.sqrt(n))
    # two sides: the gap is half the difference A − B
    gap2, _ = teams.gap_estimates([0.6, 0.3], [0.49, 0.46], 0.1, 100)
    assert gap2 == pytest.approx([0.15, -0.15])


def test_options_cover_every_seating(tabs):
    o = tabs["options"]
    single, pairs = o[o["screen"] == "single"], o[o["screen"] == "pairs"]
    assert set(zip(single["bot"], single["mode"])) == set(SCREENS)
    assert set(zip(pairs["bot"], pairs["mode"])) == set(PAIRS)
    assert set(SCREENS) == {(b, m) for b in teams.RUNGS for m in N_SEATINGS}
    assert {m for _, m in PAIRS} == {"2v3", "2v2+1"} and len({b for b, _ in PAIRS}) == 2
    for bot, mode in SCREENS:
        k = N_SEATINGS[mode]
        g = single[(single["bot"] == bot) & (single["mode"] == mode)]
        assert g["change"].isin(["seating", "none"]).sum() == k
        assert (g["option"] == "default").sum() == 1
        assert (g["changes"] <= 1).all()
        for key, values in OTHER[mode].items():
            assert sorted(teams.option_values(mode, o)[key]
                          for o in g[g["change"] == key]["option"]) == values
        assert len(g) == k + sum(len(v) for v in OTHER[mode].values())
        assert sorted(g.drop_duplicates("mirror_class")["rank"]) == \
            list(range(1, g["mirror_class"].nunique() + 1))
    for bot, mode in PAIRS:                      # the whole product grid, its default once
        g = pairs[(pairs["bot"] == bot) & (pairs["mode"] == mode)]
        assert len(g) == {"2v3": 10 * 2 * 2, "2v2+1": 15 * 3}[mode]
        assert (g["option"] == "default").sum() == 1
        assert sorted(g["changes"].unique()) == ([0, 1, 2, 3] if mode == "2v3" else [0, 1, 2])
        assert (g["changes"] == g["option"].str.count("=")).all()
    assert (single["games"] == single["bot"].map(small_games(teams))).all()
    assert (pairs["games"] == pairs["bot"].map(
        small_games(teams, teams.PAIR_FILES["2v3"]))).all()
    assert (o["unfairness"] >= 0).all()
    assert ((o["u_ci_low"] <= o["unfairness"]) & (o["unfairness"] <= o["u_ci_high"])).all()
    assert o["p_holm"].between(0, 1).all()


def test_side_shares(tabs):
    s = tabs["sides"]
    assert s["share"].between(0, 1).all()
    assert ((s["ci_low"] <= s["share"] + 1e-12) & (s["share"] <= s["ci_high"] + 1e-12)).all()
    assert ((s["gap_ci_low"] <= s["gap"]) & (s["gap"] <= s["gap_ci_high"])).all()
    # M1: side shares + no-winner (+ truncated, 0 here) add up to 1 in every option
    tot = s.groupby(["bot", "mode", "screen", "option"]).agg(share=("share", "sum"),
                                                             nw=("no_winner", "first"))
    assert np.allclose(tot["share"] + tot["nw"], 1, atol=1e-5)
    assert np.allclose(s.groupby(["bot", "mode", "screen", "option"])["gap"].sum(), 0,
                       atol=1e-12)
    assert np.allclose(s["per_seat"] * s["side_size"], s["share"])
    # a paired difference is kept only where the runner compared the same team
    d = s[s["diff_vs_default"].notna()]
    assert len(d) and (d["option"] != "default").all()


def test_mirror_seatings_and_inert_variant_are_identical(tabs, folder):
    """Teams A and B have the same rules in 2v2 and 2v2+1: a seating and its A<->B
    mirror play the same games (same deals) with the labels swapped. team_vetoes = 2 in
    teams_2v3_vetoes is the default game of teams_2v3 (same seed)."""
    s = tabs["sides"]
    swap = str.maketrans("AB", "BA")
    for (bot, mode), g in s[s["mode"] == "2v2"].groupby(["bot", "mode"]):
        by = {(r.seating, r.side): r.share for r in g.itertuples()}
        for (seating, side), v in by.items():
            assert by[(seating.translate(swap), side.translate(swap))] == v
    # the 2v2+1 screens hold one seating of each mirror pair
    seatings = set(s[s["mode"] == "2v2+1"]["seating"])
    assert len(seatings) == 15
    assert not any(x.translate(swap) in seatings for x in seatings)
    for mode, stems in teams.MODE_FILES.items():
        for stem in stems[1:]:        # a rule's baseline point is the default seating's game
            for bot in [b for b, m in SCREENS if m == mode]:
                a = pd.read_parquet(folder / "runs" / f"{stems[0]}-{bot}" / "results.parquet")
                b = pd.read_parquet(folder / "runs" / f"{stem}-{bot}" / "results.parquet")
                a = a[(a["seating"] == teams.DEFAULT_SEATING[mode])
                      & (a["metric"] == "win_share")]
                b = b[b["ref_point"].isna() & (b["metric"] == "win_share")]
                assert len(a) and list(a["total"]) == list(b["total"])


def test_known_effect_2v3(tabs):
    """The team of three wins far more than the team of two (about 68% vs 31% with
    greedy; at 512 games the gap's 95% half-width is about 2 points, so 'A below
    parity' holds with a margin of many sigma; at the 128 games of heuristic, tuned and
    apprentice about 4 points, still many sigma)."""
    s = tabs["sides"]
    d = s[(s["mode"] == "2v3") & (s["option"] == "default") & (s["side"] == "A")
          & (s["screen"] == "single")]
    d = d[d["games"] >= 128]
    assert set(d["bot"]) == {"greedy", "heuristic", "tuned", "apprentice"}
    assert (d["gap_ci_high"] < 0).all()


def test_fairness_table(tabs):
    """TOST verdicts per side and per seat at every default seating: the 2v3 team of two
    (about 0.3 of won games against ½, half-width about 4 points at 512 games) is unfair
    per side; the verdicts' intervals hold their estimates; the sd the report would
    recover from the gap's half-width is the sd the analysis stored."""
    f = tabs["fairness"]
    for bot, mode in SCREENS:
        k = 3 if mode == "2v2+1" else 2
        g = f[(f["bot"] == bot) & (f["mode"] == mode)]
        assert sorted(g["definition"].unique()) == ["per seat", "per side"]
        assert len(g) == 2 * k
    a = f[(f["mode"] == "2v3") & (f["side"] == "A") & (f["definition"] == "per side")]
    assert (a.loc[a["games"] >= 128, "verdict"] == "unfair").all()     # not at 4 games
    assert (a["parity"] == 0.5).all()
    i = f[(f["mode"] == "2v2+1") & (f["side"] == "I")]
    assert set(i[i["definition"] == "per seat"]["parity"]) == {0.2}
    assert set(i[i["definition"] == "per side"]["parity"]) == {1 / 3}
    # per seat is the side's share against its seats' share, at the same margin: in 2v2
    # (½ = 2/4) both definitions are one hypothesis, with one verdict
    two = f[f["mode"] == "2v2"].set_index(["bot", "side", "definition"])
    for bot, side in {(b, sd) for b, sd, _ in two.index}:
        a, b = two.loc[(bot, side, "per side")], two.loc[(bot, side, "per seat")]
        assert (a["diff"], a["verdict"]) == (b["diff"], b["verdict"])
    assert f["verdict_text"].str.contains("90% [", regex=False).all()
    assert ((f["ci90_low"] >= f["ci_low"]) & (f["ci90_high"] <= f["ci_high"])).all()
    from demos_sim.analysis.core.fairness import fairness
    single = tabs["sides"][tabs["sides"]["screen"] == "single"]
    derived = fairness(single.drop(columns="sd"))
    mine = f.set_index(["bot", "mode", "side", "definition"])
    for r in derived.itertuples():
        assert r.diff == pytest.approx(mine.loc[(r.bot, r.mode, r.side, r.definition), "diff"],
                                       rel=1e-9)
        assert r.ci_high == pytest.approx(
            mine.loc[(r.bot, r.mode, r.side, r.definition), "ci_high"], rel=1e-6, abs=1e-9)
    found, _ = teams.findings(tabs)
    assert any(x.startswith(f"{bot}, 2v3 (default seating), margin ±1 pp: per side")
               for x in found for bot in teams.RUNGS)


def test_confirm_and_summary(tabs):
    c = tabs["confirm"]
    assert set(zip(c["bot"], c["mode"], c["screen"])) == (
        {(b, m, "single") for b, m in SCREENS} | {(b, m, "pairs") for b, m in PAIRS})
    for (bot, mode, screen), g in c.groupby(["bot", "mode", "screen"]):
        assert set(g["role"]) >= {"best", "runner-up", "default", "best - runner-up"}
        assert g["seed"].nunique() == 1
        n = int(tabs["options"].query("bot == @bot and mode == @mode and screen == @screen")
                ["games"].iloc[0])
        assert (g["games"] == n * teams.CONFIRM_GAMES[screen]).all()
        solo = g[~g["role"].str.contains(" - ")]
        assert solo["fair_per_side"].isin(["fair", "not shown fair", "unfair"]).all()
        # the worst side is the fresh deals' own: its signed gap there is >= 0 and its
        # verdict names it, with the 90% interval
        assert (solo["unfairness"] >= 0).all()
        assert all(v.startswith(f"{w}: ") and "90% [" in v
                   for w, v in zip(solo["worst_side"], solo["worst_side_verdict"]))
    d = c[c["role"].str.contains(" - ")]
    assert ((d["diff_ci_low"] <= d["diff"]) & (d["diff"] <= d["diff_ci_high"])).all()
    # best and runner-up are distinct games, never a mirror pair
    o = tabs["options"]
    for r in c[c["role"] == "best - runner-up"].itertuples():
        cls = o[(o["bot"] == r.bot) & (o["mode"] == r.mode)
                & (o["screen"] == r.screen)].set_index("option")["mirror_class"]
        assert cls[r.option] != cls[r.vs]
    summ = tabs["summary"]
    assert len(summ) == len(SCREENS) + len(PAIRS)
    found, _ = teams.findings(tabs)
    assert any("2v3" in f and "(TOST): unfair" in f for f in found)
    assert not any("ndistinguishable" in f for f in found)
    for bot, mode in PAIRS:             # the answer to "what does the best pair do?"
        assert sum(f.startswith(f"{bot}, {mode}, combined changes: ")
                   and "fresh deals" in f for f in found) == 1
    kf = teams.key_figures(tabs)
    assert list(kf.columns) == ["figure", "bot", "mean", "ci_low", "ci_high"]
    assert ((kf["ci_low"] <= kf["mean"] + 1e-12) & (kf["mean"] <= kf["ci_high"] + 1e-12)).all()


@pytest.fixture(scope="module")
def runs(folder):
    """The small analysis's runs, resumed from their folders (no game played)."""
    from conftest import SMALL_GAMES

    from demos_sim.analysis.core.protocol import Runs
    from demos_sim.analysis.suite import run_experiments

    r = Runs(workers=1)
    run_experiments(teams, folder, 1, SMALL_GAMES, True, r)
    return r


def test_confirmations_read_what_the_runs_keep(runs):
    """The fresh-deal check reads each run's meta.json, not the experiment files: its
    fair_margin and the configuration of the point it replays are the parser's."""
    from demos_sim.analysis.core.fairness import run_margin
    from demos_sim.analysis.core.protocol import experiment_path
    from demos_sim.runner.experiment import load_experiment

    for (stem, bot), run in runs.items.items():
        exp = load_experiment(experiment_path(stem), bot=bot)
        assert run_margin(run) == exp.fair_margin
        mode = teams.MODES[stem]
        screen = teams.SCREEN_OF[stem]
        for p in exp.points:
            values = {k: p.values.get(k, d) for k, d in teams.defaults(mode).items()}
            r, pt = teams._point(runs, mode, screen, bot, values)
            if r is run:                  # the first file of the screen playing these rules
                assert pt.config == p.config and pt.specs == tuple(p.policies)


def test_confirmations_resume_from_their_store(runs, tabs, monkeypatch):
    """The fresh-deal replays keep their games beside the runs (runs/confirm, the runner's
    play_points store): asked again they play nothing and give the section's table; with
    some of them lost (an analysis killed part way), only those are played again."""
    from demos_sim.runner import points

    store = teams.confirm_store(runs)
    files = sorted(store.glob("*.npz"))
    assert store.name == "confirm" and files
    counts = []
    piece = points.play_piece
    monkeypatch.setattr(points, "play_piece",
                        lambda *a: counts.append(a[7]) or piece(*a))   # a[7]: its games
    opts = tabs["options"]
    first = teams.confirm(runs, opts, 1)
    assert counts == []
    saved = tabs["confirm"]
    assert list(first.columns) == list(saved.columns) and len(first) == len(saved)
    for c in ("unfairness", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high"):
        np.testing.assert_allclose(first[c].astype(float), saved[c].astype(float),
                                   rtol=1e-12, err_msg=c)
    lost = {}
    for f in files[::3]:
        with np.load(f) as z:
            lost[f] = z["win_share"].copy()
        f.unlink()
    games = sum(len(x) for x in lost.values())
    again = teams.confirm(runs, opts, 1)
    # each lost task played again (twice where a replay's best is its default: the same
    # point twice in one call), plus at most a one-game warm-up a replay; nothing else
    assert games <= sum(counts) <= 2 * games + len(lost) < sum(
        len(np.load(f)["win_share"]) for f in files)
    pd.testing.assert_frame_equal(again, first)
    assert sorted(store.glob("*.npz")) == files
    for f, x in lost.items():                            # the same games, bit for bit
        with np.load(f) as z:
            np.testing.assert_array_equal(z["win_share"], x)


def test_plots(tabs, tmp_path):
    names = teams.plots(tabs, tmp_path)
    assert set(names) == {"sides.png", "unfairness.png", "decided_2v2p1.png", "pairs.png"}
    assert all((tmp_path / n).stat().st_size > 0 for n in names)


def test_tuner_cross_check(tabs):
    """Team fairness through the tuner: one exhaustive tune per single change, whose
    best is one of the values it searched and whose interval contains its estimate."""
    from demos_sim.analysis.questions.teams import TUNE_FILES

    t = tabs["tuner"]
    assert len(t) == len(TUNE_FILES)
    assert t["search"].str.startswith("exhaustive").all()
    assert (t["best_ci_low"] <= t["best_parity"]).all()
    assert (t["best_parity"] <= t["best_ci_high"]).all()
    vetoes = t[t["parameter"] == "team_vetoes"]
    assert len(vetoes) == 1 and 0 <= int(vetoes["best"].iloc[0]) <= 4
    # a runner-up is another game, never the best's A<->B mirror
    for r in t[t["runner_up"].notna()].itertuples():
        assert teams._tuned_class(r.mode, r.parameter, r.runner_up) != \
            teams._tuned_class(r.mode, r.parameter, r.best)
    assert t["verdict"].isin(teams.TUNER_VERDICTS).all()


def test_representatives_do_not_depend_on_the_other_rungs():
    """A seating and its A<->B mirror play the same games (equal unfairness): the class's
    representative and the ranks must be the same whether the table holds one rung or all
    (the committed sides table; an unstable sort picked by the other rows' layout)."""
    from pathlib import Path

    sides = pd.read_csv(Path(__file__).resolve().parents[2] / "results" / "analyses" / "teams"
                        / "sides.csv")
    both = teams._option_summary(sides)
    cols = ["bot", "mode", "option", "rank", "representative"]
    for bot in sides["bot"].unique():
        alone = teams._option_summary(sides[sides["bot"] == bot].reset_index(drop=True))
        mine = both[both["bot"] == bot][cols].reset_index(drop=True)
        pd.testing.assert_frame_equal(alone[cols].reset_index(drop=True), mine)
    cls = ["bot", "mode", "screen", "mirror_class"]
    ties = both.groupby(cls)["option"].transform("size") > 1
    assert ties.any()                                   # mirror pairs are there to choose from
    rep = both[both["representative"] & ties]
    assert (rep["option"] == both[ties].groupby(cls)["option"]
            .transform("min")[rep.index]).all()           # the first by name among equals


def test_option_labels_and_mirror_classes():
    """An option names the rules it changes, in a fixed order, and reads back; a seating
    and its A<->B mirror (2v2, 2v2+1, where A and B have the same rules) are one class,
    the other changes kept; in 2v3 (a team of two, a team of three) they are not."""
    v = {**teams.defaults("2v3"), "seating": "BBAAB", "team_vetoes": 4, "handicap_points": 80}
    label = teams.option_label("2v3", v)
    assert label == "seating=BBAAB, team_vetoes=4, handicap_points=80"
    assert teams.option_values("2v3", label) == v
    assert teams.option_label("2v3", teams.defaults("2v3")) == "default"
    assert teams.option_label("2v2+1", {"handicap_points": 40}) == "handicap_points=40"
    assert teams.mirror_class("2v2+1", "seating=BAABI, handicap_points=40") == \
        "seating=ABBAI, handicap_points=40"
    assert teams.mirror_class("2v2+1", "seating=BABAI") == "default"
    assert teams.mirror_class("2v2+1", "seating=BABAI, handicap_points=40") == \
        "handicap_points=40"
    assert teams.mirror_class("2v3", "seating=BABAA") == "seating=BABAA"
    v = {**teams.defaults("2v2+1"), "independent_points_strict": False, "team_trio": "pooled"}
    label = teams.option_label("2v2+1", v)
    assert label == "team_trio=pooled, independent_points_strict=false"
    assert teams.option_values("2v2+1", label) == v


def test_confirmations_play_where_the_analysis_plays(runs, tabs, monkeypatch):
    """`demos-sim analyse --backend dask --scheduler ADDR`: the fresh-deal replays are
    played by the runner on that backend (the runner's own tests show a Dask backend
    gives the same games)."""
    import dataclasses

    asked = []

    def play_points(*a, **k):
        asked.append((k["backend"], k["scheduler"], k["workers"]))
        raise RuntimeError("stop: the request is all this test reads")

    monkeypatch.setattr(teams, "play_points", play_points)
    there = dataclasses.replace(runs, backend="dask", scheduler="tcp://cluster:8786")
    with pytest.raises(RuntimeError, match="stop"):
        teams.confirm(there, tabs["options"], 3)
    assert asked == [("dask", "tcp://cluster:8786", 3)]
