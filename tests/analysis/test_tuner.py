"""The tuner (demos_sim.tuner): planted optimum, determinism, bad input, a real run."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from demos_sim import ConfigError
from demos_sim.tuner.evaluate import Evaluator, _batch_size
from demos_sim.tuner.outputs import jsonable
from demos_sim.tuner.search import main_effects, pareto_mask, tune
from demos_sim.tuner.spec import load_tune
from demos_sim.cli import main

HEAD = """
name = "synthetic"
game = "demos"
players = 4
policies = ["greedy"]
seed = {seed}
games = {games}
"""

SYNTH = HEAD + """
[tune]
trials = {trials}
final_games = 16384
top = 6
sampler = "{sampler}"

[tune.params]
carre_points = {{ low = 0, high = 12 }}
"run_base.0" = {{ low = 0, high = 6 }}

[tune.targets.nowin]
metric = "no_winner"
direction = "min"
"""

OPT = (7, 3)


def planted(values, seed, chunk, count):
    """Per-game 0/1 with P(1) = 0.15 + 0.04 |x - 7| + 0.04 |y - 3|: half the games share a
    common uniform across candidates (common random numbers), half draw their own."""
    x, y = values["carre_points"], values["run_base.0"]
    p = min(1.0, 0.15 + 0.04 * abs(x - OPT[0]) + 0.04 * abs(y - OPT[1]))
    rng = np.random.default_rng([seed, chunk])
    u, mix = rng.random(count), rng.random(count) < 0.5
    own = np.random.default_rng([seed, chunk, x, y, 1]).random(count)
    return {"no_winner": (np.where(mix, u, own) < p).astype(np.int64)[:, None]}


def _file(tmp_path, text, name="t.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _synth(tmp_path, sampler="auto", trials=100, seed=5, games=2048, out="out"):
    spec = load_tune(_file(tmp_path, SYNTH.format(seed=seed, games=games, trials=trials,
                                                  sampler=sampler)))
    return tune(spec, out=tmp_path / out, play_hook=planted), tmp_path / out


def test_exhaustive_finds_planted_optimum(tmp_path):
    s, out = _synth(tmp_path, trials=100)                    # 13 x 7 = 91 points <= 100
    assert s["search"]["method"] == "exhaustive" and s["search"]["trials"] == 91
    assert "exhaustive" in s["search"]["description"]
    assert (s["best"]["values"]["carre_points"], s["best"]["values"]["run_base.0"]) == OPT
    # runner-up is one step away: true gap 0.04, paired sd of the gap at 16,384 games is
    # about 0.004, so the interval lies below 0 (10 sigma)
    d = s["best_minus_runner_up"]
    assert d["ci95"][1] < 0 and d["objective_diff"] == pytest.approx(-0.04, abs=0.015)
    # best estimate within 4.5 sigma (sd sqrt(.15 .85 / 16384) = 0.0028) of the planted 0.15
    assert s["best"]["nowin"]["value"] == pytest.approx(0.15, abs=0.0125)
    lo, hi = s["best"]["objective"]["ci95"]
    assert lo <= s["best"]["objective"]["value"] <= hi
    trials = pd.read_csv(out / "trials.csv")
    assert len(trials) == 91 and trials[["carre_points", "run_base.0"]].drop_duplicates().shape[0] == 91
    # both parameters matter equally (same slope): main-effect shares close to each other
    imp = pd.read_csv(out / "importance.csv")
    me = imp[(imp.method == "main_effect") & (imp.measure == "objective")].set_index("parameter")
    assert me.loc["carre_points", "importance"] > me.loc["run_base.0", "importance"] > 0.1
    # the default (carre_points=30, run_base.0=12) lies outside the space, and loses clearly
    assert not s["search"]["default_in_space"]
    assert s["best_minus_default"]["ci95"][1] < 0


def test_tpe_finds_planted_optimum(tmp_path):
    s, out = _synth(tmp_path, sampler="tpe", trials=48)
    assert s["search"]["method"] == "tpe"
    assert (s["best"]["values"]["carre_points"], s["best"]["values"]["run_base.0"]) == OPT
    racing = pd.read_csv(out / "racing.csv")
    assert racing["games"].max() == 16384 and racing["round"].nunique() == 3
    best = pd.read_csv(out / "best.csv")
    assert set(best["role"]) == {"best", "runner_up", "default"}
    ok = best.dropna(subset=["ci_low"])
    assert ((ok.ci_low <= ok.value + 1e-12) & (ok.value <= ok.ci_high + 1e-12)).all()


def test_deterministic_for_a_seed(tmp_path):
    a, out_a = _synth(tmp_path, sampler="tpe", trials=16, games=512, out="a")
    b, out_b = _synth(tmp_path, sampler="tpe", trials=16, games=512, out="b")
    for f in ("trials.csv", "racing.csv", "best.csv", "importance.csv"):
        assert (out_a / f).read_text() == (out_b / f).read_text(), f
    c, out_c = _synth(tmp_path, sampler="tpe", trials=16, games=512, seed=6, out="c")
    assert (out_a / "trials.csv").read_text() != (out_c / "trials.csv").read_text()


def test_pareto_and_main_effects_by_hand():
    losses = np.array([[1, 5], [2, 2], [3, 3], [5, 1], [2, 2]], float)
    assert pareto_mask(losses).tolist() == [True, True, False, True, True]
    # additive grid y = a + 2b on a in {0,1}, b in {0,1,2}: var(a) share = .25/(.25+8/3)
    pts = pd.DataFrame([{"a": a, "b": b, "y": a + 2 * b} for a in (0, 1) for b in (0, 1, 2)])
    me = main_effects(pts, ["a", "b"], ["y"]).set_index("parameter")["importance"]
    va, vb = 0.25, 4 * 2 / 3
    assert me["a"] == pytest.approx(va / (va + vb)) and me["b"] == pytest.approx(vb / (va + vb))


BAD = {
    "unknown parameter": ('[tune.params]\nfoo_points = { low = 1, high = 3 }\n'
                          '[tune.targets.p]\nmetric = "seat_parity"\n', "unknown parameter"),
    "empty range": ('[tune.params]\ncarre_points = { low = 30, high = 20 }\n'
                    '[tune.targets.p]\nmetric = "seat_parity"\n', "empty range"),
    "empty values": ('[tune.params]\ncarre_points = { values = [] }\n'
                     '[tune.targets.p]\nmetric = "seat_parity"\n', "empty range"),
    "unknown metric": ('[tune.params]\ncarre_points = { low = 20, high = 30 }\n'
                       '[tune.targets.p]\nmetric = "fun"\n', "unknown target metric"),
    "missing side": ('[tune.params]\ncarre_points = { low = 20, high = 30 }\n'
                     '[tune.targets.p]\nmetric = "combo_share"\ngoal = 0.1\n', "give side"),
    "bad entry": ('[tune.params]\n"run_base.3" = { low = 1, high = 3 }\n'
                  '[tune.targets.p]\nmetric = "seat_parity"\n', "entries 0–2"),
    "bad value": ('[tune.params]\nmax_rounds = { low = 0, high = 3 }\n'
                  '[tune.targets.p]\nmetric = "seat_parity"\n', "value 0"),
    "no targets": ('[tune.params]\ncarre_points = { low = 20, high = 30 }\n', "tune.targets"),
    "grid": ('[grid]\ncarre_points = [20, 30]\n[tune.params]\nrun_base.0 = { low = 1, high = 3 }\n'
             '[tune.targets.p]\nmetric = "seat_parity"\n', "grid"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_one_line_exit_2(tmp_path, capsys, case):
    body, needle = BAD[case]
    path = _file(tmp_path, HEAD.format(seed=1, games=64) + "[tune]\ntrials = 4\n" + body)
    out = tmp_path / "out"
    assert main(["tune", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("demos-sim: error: ") and "\n" not in err and needle in err, err
    assert not out.exists()
    with pytest.raises(ConfigError):
        load_tune(path)


REAL = """
[tune]
trials = 6
final_games = 1024
top = 3

[tune.params]
carre_points = { values = [20, 30] }
team_vetoes = { low = 1, high = 3 }      # team modes only: cannot matter in individual games

[tune.targets.parity]
metric = "seat_parity"
[tune.targets.rounds]
metric = "rounds"
goal = 12
weight = 0.01
"""


def test_real_tune_through_the_cli(tmp_path, capsys):
    path = _file(tmp_path, HEAD.format(seed=2, games=256) + REAL)
    out = tmp_path / "res"
    assert main(["tune", str(path), "--out", str(out), "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["search"]["method"] == "exhaustive" and s["search"]["space_size"] == 6
    assert s["seed"] == 2 and "git_revision" in s and s["config"]["players"] == 4
    for f in ("trials.csv", "racing.csv", "best.csv", "importance.csv", "summary.json"):
        assert (out / f).exists()
    trials = pd.read_csv(out / "trials.csv")
    assert len(trials) == 6 and (trials["games"] == 256).all()
    assert trials["parity_value"].between(0, 1).all()
    # team_vetoes cannot matter in individual games: same deals, identical games, so every
    # team_vetoes value gives the very same figures and its main-effect share is 0
    g = trials.groupby("carre_points")["objective"].nunique()
    assert (g == 1).all()
    imp = pd.read_csv(out / "importance.csv")
    me = imp[(imp.method == "main_effect") & (imp.measure == "objective")].set_index("parameter")
    assert me.loc["team_vetoes", "importance"] == pytest.approx(0, abs=1e-12)
    best = pd.read_csv(out / "best.csv")
    r = best[(best.role == "runner_up") & (best.measure == "objective")].iloc[0]
    if r["carre_points"] == s["best"]["values"]["carre_points"]:   # a zero-effect pair
        assert r["diff"] == 0 and r["diff_ci_low"] <= 0 <= r["diff_ci_high"]


def test_a_tune_file_is_read_once_however_its_tables_are_written(tmp_path, monkeypatch):
    """load_tune reads the TOML once (the runner's parse_experiment takes the rest as
    data), so the [tune] tables may also be written inline: the same spec."""
    import tomllib

    reads = []
    loads = tomllib.loads
    monkeypatch.setattr(tomllib, "loads", lambda text: reads.append(1) or loads(text))
    tables = load_tune(_file(tmp_path, HEAD.format(seed=2, games=256) + REAL))
    assert len(reads) == 1
    inline = HEAD.format(seed=2, games=256) + (
        'tune = { trials = 6, final_games = 1024, top = 3, params = { carre_points = '
        '{ values = [20, 30] }, team_vetoes = { low = 1, high = 3 } }, targets = { parity = '
        '{ metric = "seat_parity" }, rounds = { metric = "rounds", goal = 12, '
        'weight = 0.01 } } }\n')
    other = load_tune(_file(tmp_path, inline, "inline.toml"))
    for f in ("params", "targets", "trials", "games", "final_games", "top", "sampler",
              "batch", "bootstrap", "settings", "variants", "confirm_games", "design",
              "max_changes"):
        assert getattr(other, f) == getattr(tables, f), f
    assert other.base_config == tables.base_config and other.policies == tables.policies


CANDS = [{"carre_points": 20, "team_vetoes": 1}, {"carre_points": 30, "team_vetoes": 1},
         {"carre_points": 24, "team_vetoes": 2}]


def test_batch_sums_are_the_game_s_own_games_in_deal_order(tmp_path):
    """The evaluator's per-batch sums (played through the runner's play_points) are the
    game's own games of those deals, summed by hand, batch by batch."""
    spec = load_tune(_file(tmp_path, HEAD.format(seed=3, games=1000) + REAL))
    with Evaluator(spec, 1) as ev:
        got = ev.measure(CANDS, 1000, chunk0=5)
    b = _batch_size(1000)
    assert b == 2 and ev.games_played == 3000
    for v, m in zip(CANDS, got):
        games = spec.adapter.play(spec.config(v), list(spec.policies), spec.seed, 5, 1000,
                                  metrics=spec.quantities())
        assert set(m) == set(spec.quantities()) | {"_n"} and (m["_n"] == b).all()
        for q in spec.quantities():
            np.testing.assert_array_equal(m[q], games[q].reshape(1000 // b, b, -1).sum(1),
                                          err_msg=q)
    # the settings play different games (so the comparison above can see a mix-up)
    assert any(not np.array_equal(got[0][q], got[1][q]) for q in got[0] if q != "_n")


def test_only_chunks_not_measured_yet_are_played(tmp_path):
    """A candidate measured on chunks 3…10 (32,768 games, batches of 64) and asked again on
    40,000 games from chunk 3 plays chunks 11 and 12 only; the sums are a fresh
    evaluator's."""
    spec = load_tune(_file(tmp_path, SYNTH.format(seed=5, games=2048, trials=4,
                                                  sampler="tpe")))
    calls = []

    def hook(values, seed, chunk, count):
        calls.append((values["carre_points"], chunk, count))
        return planted(values, seed, chunk, count)

    a, b, c = ({"carre_points": x, "run_base.0": 3} for x in (5, 7, 9))
    ev = Evaluator(spec, play_hook=hook)
    ev.measure([a, b], 32768, 3)
    assert len(calls) == 16 and ev.games_played == 2 * 32768
    calls.clear()
    got = ev.measure([a, b, c, a], 40000, 3)
    assert sorted(calls) == sorted([(x, 11, 4096) for x in (5, 7)] + [(x, 12, 3136) for x in (5, 7)]
                                   + [(9, 3 + i, 4096) for i in range(9)] + [(9, 12, 3136)])
    assert ev.games_played == 2 * 32768 + 2 * (4096 + 3136) + 40000
    fresh = Evaluator(spec, play_hook=planted).measure([a, b, c, a], 40000, 3)
    for m, f in zip(got, fresh):
        assert m.keys() == f.keys()
        for q in m:
            np.testing.assert_array_equal(m[q], f[q], err_msg=q)


def test_scheduler_without_dask_is_one_line_before_any_game(tmp_path, capsys):
    path = _file(tmp_path, HEAD.format(seed=2, games=64) + REAL)
    out = tmp_path / "res"
    assert main(["tune", str(path), "--out", str(out), "--scheduler", "tcp://x:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--scheduler needs --backend dask" in err
    assert not out.exists()


def test_an_evaluation_on_dask_plays_the_same_games(tmp_path):
    """The evaluator on a Dask LocalCluster of two workers, kept open between two calls:
    the same sums as in this process."""
    spec = load_tune(_file(tmp_path, HEAD.format(seed=3, games=1000) + REAL))
    with Evaluator(spec, 1) as ev:
        here = ev.measure(CANDS, 1000, chunk0=5)
    with Evaluator(spec, 2, backend="dask") as ev:
        first = ev.measure(CANDS[:2], 1000, chunk0=5)
        both = ev.measure(CANDS, 1000, chunk0=5)      # the third candidate, same client
        assert ev.games_played == 3000
    for got in (first, both):
        for m, h in zip(got, here):
            for q in h:
                np.testing.assert_array_equal(m[q], h[q], err_msg=q)


KILLED = """
[tune]
trials = 8
final_games = 8192
top = 3
sampler = "tpe"
batch = 2
design = 8
bootstrap = 200

[tune.params]
carre_points = { low = 20, high = 40, step = 2 }
favourite_suit_bonus = { low = 0, high = 8, step = 2 }

[tune.targets.parity]
metric = "seat_parity"
"""


def test_a_tune_killed_and_run_again_reads_its_games_back(tmp_path):
    """``demos-sim tune`` killed with SIGKILL once it has played a few tasks, then run
    again with the same --out: it reads them back from out/chunks, and its results are
    those of a run never interrupted (same file, in this process)."""
    path = _file(tmp_path, HEAD.format(seed=9, games=600) + KILLED)
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "demos_sim.cli", "tune", str(path), "--out", str(out)]
    proc = subprocess.Popen(cmd + ["--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    store, t0 = out / "chunks", time.monotonic()
    try:
        while (proc.poll() is None and time.monotonic() - t0 < 600
               and len(list(store.glob("*.npz"))) < 4):
            time.sleep(0.01)
        assert proc.poll() is None, "the tune ended before it was killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    kept = len(list(store.glob("*.npz")))
    assert kept >= 4 and not (out / "summary.json").exists()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    read = re.search(r"([\d,]+) games read back from an interrupted run", again.stdout)
    assert read and int(read.group(1).replace(",", "")) >= kept * 600   # a task: >= 600 games
    assert not store.exists()                   # removed once the results are written
    s = tune(load_tune(path), out=tmp_path / "whole")
    for f in ("trials.csv", "racing.csv", "best.csv", "deviations.csv", "changes.csv",
              "importance.csv"):
        assert (out / f).read_text() == (tmp_path / "whole" / f).read_text(), f
    resumed = json.loads((out / "summary.json").read_text())
    whole = json.loads(json.dumps(s, default=jsonable))
    assert whole["games_played"] == resumed["games_played"] > 0

    def text(d):
        return json.dumps({k: v for k, v in d.items() if k not in ("wall_s", "git_revision")},
                          sort_keys=True)
    assert text(resumed) == text(whole)
