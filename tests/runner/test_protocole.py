"""The experiment runner plays Protocole too: the same games as `simulate`, paired grid
points (common random numbers), every seat sharing the coop outcome (P5.2)."""

from pathlib import Path

import pytest

from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.runner import load_experiment, run_experiment
from demos_sim.runner.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def test_protocole_experiment_matches_simulate(tmp_path):
    exp = load_experiment(ROOT / "experiments" / "protocole_scope.toml").with_games(5000)
    res = run_experiment(exp, out=tmp_path / "r", quiet=True)
    df = res.results
    for point, scope in ((0, "each_player"), (1, "team")):
        s = simulate("protocole", ProtocoleConfig("coop", 2, 4, {"reinforced_scope": scope}),
                     ["convention"], 5000, exp.seed).summary()
        ws = df[(df["point"] == point) & (df["metric"] == "win_share")]
        assert len(ws) == 4
        for r in ws.itertuples():             # every seat carries the team's outcome
            assert r.mean == pytest.approx(s["sides"][0]["share"], abs=1e-12)
    # the paired difference is the difference of the two win rates, and pairing on the
    # same deals makes its interval narrower than an unpaired one of as many games
    a = df[(df["point"] == 0) & (df["metric"] == "win_share")].iloc[0]
    b = df[(df["point"] == 1) & (df["metric"] == "win_share")].iloc[0]
    assert b["diff"] == pytest.approx(b["mean"] - a["mean"], abs=1e-12)
    unpaired = 1.96 * (a["sd"] ** 2 / a["games"] + b["sd"] ** 2 / b["games"]) ** 0.5
    assert b["diff_half_width"] < unpaired


def test_protocole_each_experiment_runs(tmp_path):
    exp_file = tmp_path / "each.toml"
    exp_file.write_text('name = "each"\ngame = "protocole"\nmode = "each"\nplayers = 3\n'
                        'policies = ["cautious", "random", "random"]\nseed = 2\ngames = 3000\n'
                        '[grid]\nstandard_tie = ["keep_tied", "discard_all"]\n')
    res = run_experiment(load_experiment(exp_file), out=tmp_path / "e", quiet=True)
    df = res.results
    ws = df[(df["point"] == 0) & (df["metric"] == "win_share")].sort_values("side")
    s = simulate("protocole", ProtocoleConfig("each", None, 3), ["cautious", "random", "random"],
                 3000, 2).summary()
    assert list(ws["mean"]) == pytest.approx([x["share"] for x in s["sides"]], abs=1e-12)
    assert set(df["metric"]) >= {"win_share", "eliminated", "points", "rounds"}


def test_protocole_majority_scope_from_an_experiment_file(tmp_path):
    """P3.1a: majority_scope is a grid variable of an experiment file like any Part V
    variant; each point plays the games of `simulate` with that value."""
    exp_file = tmp_path / "scope.toml"
    exp_file.write_text('name = "scope"\ngame = "protocole"\nmode = "coop"\nlevel = 2\nplayers = 4\n'
                        'policies = ["convention"]\nseed = 3\ngames = 2000\n'
                        '[grid]\nmajority_scope = ["pooled", "per_dimension"]\n')
    res = run_experiment(load_experiment(exp_file), out=tmp_path / "s", quiet=True)
    df = res.results
    for point, scope in ((0, "pooled"), (1, "per_dimension")):
        s = simulate("protocole", ProtocoleConfig("coop", 2, 4, {"majority_scope": scope}),
                     ["convention"], 2000, 3).summary()
        ws = df[(df["point"] == point) & (df["metric"] == "win_share")]
        assert list(ws["mean"]) == pytest.approx([s["sides"][0]["share"]] * 4, abs=1e-12)
