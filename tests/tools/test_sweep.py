"""demos-sim sweep: the values written after --set NAME=, the numeric setting and its
refusals, the paired effects on common deals, the curves, the grid report's curve."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from demos_sim import MAX_ROUND_CAP, MAX_SETTING, ConfigError
from demos_sim.analysis.core.sweep import (MAX_VALUES, grid_sweeps, knob, parse_values,
                                           plan_sweep, plot_sweep, run_sweep, split_sets)
from demos_sim.cli import main
from demos_sim.game import parse_set
from demos_sim.runner.experiment import loads_experiment
from demos_sim.runner.run import run_experiment


# ------------------------------------------------------------------ the values
def test_ranges_and_lists():
    assert parse_values("20:60:10") == [20, 30, 40, 50, 60]
    assert parse_values("20:65:10") == [20, 30, 40, 50, 60]     # STOP only when landed on
    assert parse_values("5:7") == [5, 6, 7]
    assert parse_values(" 3 : 3 ") == [3]
    assert parse_values("20,30,45") == [20, 30, 45]
    assert parse_values("45, 20") == [45, 20]
    assert parse_values(40) == [40]


@pytest.mark.parametrize("text, words", [
    ("20:60:0", "step must be a whole number >= 1"),
    ("20:60:-5", "step must be a whole number >= 1"),
    ("60:20", "STOP (20) is below START (60)"),
    ("20,x", "'x' is not a whole number"),
    ("2.5,3", "'2.5' is not a whole number"),
    ("1,2,1", "given twice"),
    ("0:1000", "1,001 values; a sweep plays at most 64"),
    (True, "not a whole number"),
    ([1, 2], "not a range of whole numbers"),
])
def test_bad_values_are_one_line(text, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_values(text)


@settings(max_examples=200, deadline=None)
@given(start=st.integers(-50, 200), span=st.integers(0, 400), step=st.integers(1, 50))
def test_a_range_starts_at_start_moves_by_step_and_stops_by_stop(start, span, step):
    stop = start + span
    text = f"{start}:{stop}:{step}"
    if span // step + 1 > MAX_VALUES:
        with pytest.raises(ConfigError):
            parse_values(text)
        return
    v = parse_values(text)
    assert v[0] == start
    assert all(b - a == step for a, b in zip(v, v[1:]))
    assert v[-1] <= stop < v[-1] + step


def test_the_swept_setting_is_the_one_written_as_several_values():
    name, values, fixed = split_sets(parse_set(
        ["carre_points=20:60:10", "run_base=[12,8,4]", "no_trio_winner=points"]))
    assert (name, values) == ("carre_points", [20, 30, 40, 50, 60])
    assert fixed == {"run_base": [12, 8, 4], "no_trio_winner": "points"}
    with pytest.raises(ConfigError, match="one setting at a time"):
        split_sets(parse_set(["carre_points=20,30", "team_vetoes=1:3"]))
    with pytest.raises(ConfigError, match="give the setting to sweep"):
        split_sets(parse_set(["carre_points=20"]))
    with pytest.raises(ConfigError, match="at least two values"):
        split_sets(parse_set(["carre_points=20:20"]))


# ------------------------------------------------------------------ the setting
def test_numeric_settings_and_their_ranges_follow_the_rules():
    # Part V: carre_points an integer >= 0; max_rounds >= 1 up to the round cap's bound
    k = knob("demos", "carre_points", {}, None, {})
    assert (k.kind, k.lo, k.hi, k.default) == ("variant", 0, MAX_SETTING, 30)
    k = knob("demos", "max_rounds", {}, None, {})
    assert (k.lo, k.hi, k.default) == (1, MAX_ROUND_CAP, None)     # default null: no cap
    # a trial rule: 0 = the rules as written
    k = knob("demos", "handicap_points", {"mode": "2v2+1"}, None, {})
    assert (k.kind, k.lo, k.default) == ("setting", 0, 0)
    # P5.3: levels 1, 2, 3 in coop
    k = knob("protocole", "level", {"mode": "coop"}, None, {})
    assert (k.lo, k.hi) == (1, 3)


@pytest.mark.parametrize("game, name, settings, words", [
    ("demos", "carre_point", {}, "'carre_point' is not a setting of DĒMOS"),
    ("demos", "run_base", {}, "run_base is not a number"),
    ("demos", "mode", {}, "mode is not a number"),
    ("demos", "team_vetoes", {}, "team_vetoes applies to mode 2v3 (D9.3)"),
    ("demos", "carre_points", {"rules": "simplified"}, "applies to the full rules (D8"),
    ("demos", "handicap_points", {}, "handicap_points applies to 2v3 and 2v2+1"),
    ("demos", "handicap_points", {"mode": "2v3", "handicap_points": 5}, "do not also fix it"),
    ("protocole", "level", {"mode": "each"}, "applies to the coop mode only (P5.3)"),
])
def test_a_setting_that_cannot_be_swept_is_refused(game, name, settings, words):
    with pytest.raises(ConfigError) as e:
        knob(game, name, settings, None, {})
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("argv, words", [
    (["--set", "carre_points=20:60:0"], "step must be a whole number >= 1"),
    (["--set", "carre_pts=20:60:10"], "'carre_pts' is not a setting of DĒMOS"),
    (["--set", "run_base=1:3"], "run_base is not a number"),
    (["--set", "team_vetoes=0:4"], "team_vetoes applies to mode 2v3 (D9.3)"),
    (["--set", "handicap_points=0:40:10"], "handicap_points applies to 2v3 and 2v2+1"),
    (["--set", "carre_points=20"], "give the setting to sweep as --set NAME=START:STOP:STEP"),
    (["--set", "max_rounds=0:4"], "max_rounds = 0 is outside what the rules allow here"),
    (["--set", "carre_points=20,40", "--level", "2"], "--level does not apply to DĒMOS"),
])
def test_sweep_refuses_bad_input_in_one_line(argv, words, capsys, tmp_path):
    assert main(["sweep", "--out", str(tmp_path / "x"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("demos-sim: error: ") and words in err and "\n" not in err
    assert not (tmp_path / "x").exists()           # refused before anything was written


# ------------------------------------------------------------------ the effects
def test_values_that_play_the_same_games_show_exactly_no_effect():
    # round_cap (D5.1) 199 and 200: no 4-player game lasts 199 rounds, so on common deals
    # every game is the same at both values: every effect exactly 0, none beyond chance
    plan = plan_sweep("demos", "round_cap", [199, 200], games=256, seed=5)
    t = run_sweep(plan).table
    assert plan.ref_value == 200                    # the default is the reference
    eff = t[~t["reference"]]
    assert len(eff) and (eff["value"] == 199).all()
    assert (eff["diff"] == 0).all() and not eff["moved"].any()


def test_effects_are_the_paired_differences_compare_finds_on_the_same_deals():
    from demos_sim.analysis.core.whatif import compare

    t = run_sweep(plan_sweep("demos", "carre_points", [30, 60], games=512, seed=9)).table
    w = compare("demos", {}, None, {"carre_points": 60}, games=512, seed=9)
    s = t[(t["value"] == 60) & (t["metric"] == "win_share")].set_index("who")["diff"]
    c = w.table[w.table["metric"] == "win_share"].set_index("side")["diff"]
    assert len(s) == 4
    for seat in range(4):
        assert s[f"seat {seat}"] == pytest.approx(c[str(seat)], abs=1e-12)


def test_the_curves_read():
    from stats.test_plots_read import problems

    t = run_sweep(plan_sweep("demos", "team_vetoes", [0, 2, 4], {"mode": "2v3"},
                             games=128, seed=1)).table
    assert set(t["who"][t["metric"] == "win_share"]) == {"side A", "side B"}
    fig = plot_sweep(t, "a title")
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == list(dict.fromkeys(t["figure"]))
    assert problems(fig) == []


def test_a_grid_report_draws_the_curve_of_each_number_at_the_others_reference():
    text = """game = "demos"
players = 3
seed = 2
games = 32
[grid]
carre_points = [30, 15]
favourite_suit_bonus = [0, 5]
no_trio_winner = ["none", "points"]
"""
    exp = loads_experiment(text, "grid.toml")
    run = run_experiment(exp, quiet=True, keep=False)
    curves = {k: t for k, _, t in grid_sweeps(run.meta, run.results)}
    assert set(curves) == {"carre_points", "favourite_suit_bonus"}   # not the text key
    # the reference point is carre 30, bonus 0, none: each curve varies its key alone
    assert sorted(curves["carre_points"]["value"].unique()) == [15, 30]
    assert sorted(curves["favourite_suit_bonus"]["value"].unique()) == [0, 5]
    pts = {p["point"]: p["values"] for p in run.meta["points"]}
    for key, t in curves.items():
        moved = t[~t["reference"]]
        assert len(moved)
    # each curve's effect is the run's own paired difference of the point that changes
    # that key alone
    r = run.results
    alone = next(i for i, v in pts.items() if v == {"carre_points": 15,
                                                     "favourite_suit_bonus": 0,
                                                     "no_trio_winner": "none"})
    want = r[(r["point"] == alone) & (r["metric"] == "no_winner")]["diff"].iloc[0]
    got = curves["carre_points"]
    got = got[(got["value"] == 15) & (got["metric"] == "no_winner")]["diff"].iloc[0]
    assert got == want


def test_sweep_end_to_end_then_its_report(tmp_path, capsys):
    out = tmp_path / "sw"
    assert main(["sweep", "--set", "carre_points=20:60:10", "--games", "400", "--seed", "3",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    first = text.splitlines()[0]
    assert first.startswith("DĒMOS full individual, 4 players, greedy: carre_points from 20 "
                            "to 60 (5 values, each against carre_points = 30 on the same "
                            "400 deals)")
    assert " pp [" in text and "%" in text
    csv = pd.read_csv(out / "sweep.csv")
    assert sorted(csv["value"].unique()) == [20, 30, 40, 50, 60]
    for col in ("seed", "configuration", "contract", "version", "git_revision"):
        assert csv[col].notna().all(), col
    assert (csv["seed"] == 3).all() and (csv["contract"] == 2).all()
    assert (out / "sweep.png").stat().st_size > 10_000
    # the same command again resumes from the stored chunks; --json keeps fractions
    assert main(["sweep", "--set", "carre_points=20:60:10", "--games", "400", "--seed", "3",
                 "--out", str(out), "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["reference"] == 30 and js["values"] == [20, 30, 40, 50, 60]
    rows = pd.DataFrame(js["rows"])
    assert rows["moved"].map(type).eq(bool).all()
    mine = csv[csv["metric"] == "win_share"].sort_values(["who", "value"])["diff"].to_numpy()
    again = rows[rows["metric"] == "win_share"].sort_values(["who", "value"])["diff"]
    assert (again.to_numpy() == mine).all()
    assert main(["report", str(out)]) == 0
    assert (out / "plots" / "sweep_carre_points.png").exists()
    assert "sweep of carre_points" in (out / "report.html").read_text(encoding="utf-8")
