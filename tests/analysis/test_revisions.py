"""`demos-sim report --compare OLD NEW`: every figure of one run against another."""

from pathlib import Path

import pandas as pd
import pytest

from demos_sim.analysis.core.revisions import compare_runs
from demos_sim.cli import main
from demos_sim.runner import load_experiment, run_experiment

ROOT = Path(__file__).resolve().parents[2]
SMOKE = (ROOT / "experiments" / "smoke.toml").read_text()


def _run(tmp_path, name, policies="greedy", grid="[30, 20]"):
    text = (SMOKE.replace('name = "smoke"', f'name = "{name}"')
            .replace('policies = ["greedy"]', f'policies = ["{policies}"]')
            .replace("carre_points = [30, 20]", f"carre_points = {grid}"))
    f = tmp_path / f"{name}.toml"
    f.write_text(text)
    exp = load_experiment(f).with_games(1500)
    return run_experiment(exp, out=tmp_path / name, quiet=True).out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("rev")
    return {"old": _run(d, "old", "greedy:legacy"), "new": _run(d, "new"),
            "again": _run(d, "again"), "grid": _run(d, "grid", grid="[30, 40]"), "dir": d}


def test_a_run_against_the_same_games_changes_nothing(runs):
    t, _, _ = compare_runs(runs["new"], runs["again"])
    undefined = t["old"].isna() & t["new"].isna()        # e.g. a ratio over no event
    assert (t["only"] == "").all() and ((t["change"] == 0) | undefined).all()
    assert not t["moved"].any() and (~undefined).sum() > 100


def test_a_new_bot_moves_what_it_changed(runs):
    """greedy's team-play veto (D3.4.1: its threshold falls as the game runs out) against
    greedy:legacy (a fixed threshold) on the same deals: vetoes per game rise, flagged."""
    t, old, new = compare_runs(runs["old"], runs["new"])
    v = t[(t["metric"] == "vetoes") & (t["kind"] == "value")]
    assert len(v) == 2 and v["moved"].all() and (v["change_ci_low"] > 0).all()
    assert (t["p_holm"].dropna() >= t["p"].dropna()).all()        # Holm never lowers p
    row = v.iloc[0]
    assert row["change"] == pytest.approx(row["new"] - row["old"])
    assert old["points"][0]["policies"][0] == "greedy:legacy"


def test_a_changed_grid_lists_the_rows_of_one_run(runs):
    t, _, _ = compare_runs(runs["new"], runs["grid"])
    only = t[t["only"] != ""]
    assert set(only["label"]) == {"carre_points=20", "carre_points=40"}
    assert only["change"].isna().all()


def test_cli_writes_the_page_and_the_csv(runs, capsys):
    out = runs["dir"] / "cmp"
    assert main(["report", "--compare", str(runs["old"]), str(runs["new"]), "--out",
                 str(out)]) == 0
    text = capsys.readouterr().out
    assert "figures moved beyond their intervals" in text and "vetoes" in text
    page = (out / "compare.html").read_text()
    assert "Figures that moved" in page and "greedy:legacy" in page
    assert len(pd.read_csv(out / "compare.csv")) > 0
    assert main(["report"]) == 2
    assert main(["report", "--compare", str(runs["old"]), str(runs["dir"] / "nope")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "no meta.json" in err[-1]
