"""The experiment runner: same numbers as `simulate`, determinism across workers and
backends, common random numbers, exact paired statistics, the stopping rule, blocks."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from demos_sim.cli import main
from demos_sim.demos.rules import DemosConfig
from demos_sim.runner.simulate import simulate
from demos_sim.runner import load_experiment, run_experiment
from demos_sim.game import SHARE_SCALE, get_game
from demos_sim.sim_common import CHUNK

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "experiments" / "smoke.toml"


def write(tmp_path, text, name="exp.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_smoke_points_are_the_games_of_simulate(tmp_path):
    """Grid point c of the runner plays exactly `simulate`'s games for that config and seed."""
    exp = load_experiment(SMOKE).with_games(CHUNK + 904)          # a partial second chunk
    res = run_experiment(exp, out=tmp_path / "r", quiet=True)
    df = res.results
    for point, carre in ((0, 30), (1, 20)):
        s = simulate("demos", DemosConfig(variants={"carre_points": carre}), ["greedy"],
                     CHUNK + 904, exp.seed).summary()
        rows = df[(df["point"] == point)]
        ws = rows[rows["metric"] == "win_share"].sort_values("side")
        for side, r in zip(s["sides"], ws.itertuples()):
            assert r.mean == pytest.approx(side["share"], abs=1e-12)
            assert [r.ci_low, r.ci_high] == pytest.approx(side["ci95"], abs=1e-12)
            assert r.count == side["wins"]
        one = rows.set_index("metric")
        assert one.loc["rounds", "mean"] == pytest.approx(s["mean_rounds"], abs=1e-12)
        assert one.loc["no_winner", "mean"] == pytest.approx(s["no_winner_share"], abs=1e-12)
        assert one.loc["vetoes", "mean"] == pytest.approx(s["metrics"]["vetoes"]["mean"], abs=1e-12)
        # M1: shares + no winner + truncated = 1 at every point
        total = ws["mean"].sum() + one.loc["no_winner", "mean"] + one.loc["truncated", "mean"]
        assert total == pytest.approx(1.0, abs=1e-12)
    assert res.meta["games_per_point"] == CHUNK + 904 and res.meta["stopped_by"] == "games"


def test_same_tables_for_1_and_2_workers_and_dask(tmp_path):
    exp = load_experiment(SMOKE).with_games(2 * CHUNK + 500)
    runs = {
        "one": dict(workers=1),
        "two": dict(workers=2),
        "dask": dict(workers=2, backend="dask", dask_processes=False),
    }
    out = {}
    for name, kw in runs.items():
        res = run_experiment(exp, out=tmp_path / name, quiet=True, **kw)
        assert res.meta["games_played_this_run"] == 2 * (2 * CHUNK + 500)
        out[name] = [(tmp_path / name / f).read_bytes()
                     for f in ("results.parquet", "histograms.parquet")]
    assert out["one"] == out["two"] == out["dask"]          # bitwise identical files


def test_cli_dask_local_cluster_of_processes_gives_the_same_table(tmp_path, capsys):
    args = ["run", str(SMOKE), "--games", "3000", "--quiet"]
    assert main(args + ["--out", str(tmp_path / "a")]) == 0
    assert main(args + ["--out", str(tmp_path / "b"), "--backend", "dask", "--workers", "2"]) == 0
    a, b = (pd.read_parquet(tmp_path / d / "results.parquet") for d in "ab")
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    meta = json.loads((tmp_path / "b" / "meta.json").read_text())
    assert meta["backend"] == "dask" and meta["workers"] == 2
    assert capsys.readouterr().out == ""                    # --quiet


def test_points_play_the_same_deals(tmp_path):
    """round_cap 200 vs 300 changes nothing when no game reaches 200 rounds: with common
    random numbers every paired difference is exactly 0, with sd 0."""
    path = write(tmp_path, 'game = "demos"\nseed = 11\ngames = 3000\n'
                           '[grid]\nround_cap = [200, 300]\n')
    df = run_experiment(load_experiment(path), out=tmp_path / "r", quiet=True).results
    ratios = [q.name for q in get_game("demos").quantities if q.per is not None]
    other = df[(df["point"] == 1) & ~df["metric"].isin(ratios)]
    assert (other["diff"] == 0).all() and (other["diff_sd"] == 0).all()
    # ratio metrics carry no paired difference (Quantity.per)
    assert df[(df["point"] == 1) & df["metric"].isin(ratios)]["diff"].isna().all()
    # the interval is [0, 0] except for the 0/1 rates, where no changed game in 3,000
    # bounds the change by ± 1 − 0.0125^(1/3000) (Clopper–Pearson, closed form)
    bound = 1 - 0.0125 ** (1 / 3000)
    wide = other["diff_ci_high"] > 0
    assert wide.any() and np.allclose(other.loc[wide, "diff_ci_high"], bound)
    assert np.allclose(other.loc[wide, "diff_ci_low"], -bound)
    assert (other.loc[~wide, "diff_ci_low"] == 0).all() and (other.loc[~wide, "diff_ci_high"] == 0).all()
    assert (df[df["metric"] == "truncated"]["mean"] == 0).all()


def test_paired_sd_is_the_sd_of_per_game_differences(tmp_path):
    exp = load_experiment(SMOKE).with_games(CHUNK)
    df = run_experiment(exp, out=tmp_path / "r", quiet=True).results
    ad = get_game("demos")
    x = [ad.play(p.config, list(p.policies), exp.seed, 0, CHUNK) for p in exp.points]
    for metric, scale in (("win_share", SHARE_SCALE), ("points", 1), ("rounds", 1)):
        d = (x[1][metric] - x[0][metric]) / scale
        rows = df[(df["point"] == 1) & (df["metric"] == metric)]
        assert rows["diff"].to_numpy() == pytest.approx(d.mean(axis=0), rel=1e-12, abs=1e-15)
        assert rows["diff_sd"].to_numpy() == pytest.approx(d.std(axis=0, ddof=1), rel=1e-9)
        # pairing helps: the paired sd is below the unpaired sqrt(sd_x^2 + sd_y^2)
        ref = df[(df["point"] == 0) & (df["metric"] == metric)]
        unpaired = np.hypot(rows["sd"].to_numpy(), ref["sd"].to_numpy())
        assert (rows["diff_sd"].to_numpy() < unpaired).all()


def test_histograms_count_every_game(tmp_path):
    exp = load_experiment(SMOKE).with_games(2000)
    res = run_experiment(exp, out=tmp_path / "r", quiet=True)
    h = res.histograms
    for (point, metric, side), g in h.groupby(["point", "metric", "side"]):
        assert g["count"].sum() == 2000
    assert set(h[h["metric"] == "points"]["side"]) == {"0", "1", "2", "3"}
    assert (h[h["metric"] == "points"]["width"] == 5).all()


STOP = """
game = "demos"
seed = 3
[grid]
carre_points = [30, 20]
[stop]
half_width = 0.012
max_games = 40960
track = ["win_share", "diff:win_share"]
"""


def test_stopping_rule_stops_at_the_first_chunk_narrow_enough(tmp_path):
    """Seeded: with one chunk (4096 games) some win-share half-width is above 0.012
    (≈ 1.96·0.4/√4096 = 0.0123), with two every tracked one is below; the run stops there,
    with 1 or 2 workers alike."""
    exp = load_experiment(write(tmp_path, STOP))
    res = run_experiment(exp, out=tmp_path / "r", quiet=True)
    table = (tmp_path / "r" / "results.parquet").read_bytes()
    m = res.meta
    assert m["stopped_by"] == "half_width" and m["games_per_point"] == 2 * CHUNK
    df = res.results
    ws = df[df["metric"] == "win_share"]
    assert (ws["half_width"] <= 0.012).all()
    assert (ws["diff_half_width"].dropna() <= 0.012).all()
    assert m["stop"]["widest_half_width"] == pytest.approx(
        max(ws["half_width"].max(), ws["diff_half_width"].max()))
    # one chunk fewer (read back from the store, not replayed): not narrow enough yet
    short = run_experiment(exp.with_games(CHUNK), out=tmp_path / "r", quiet=True)
    assert short.meta["games_played_this_run"] == 0
    assert short.meta["stopped_by"] == "max_games"
    assert short.results[short.results["metric"] == "win_share"]["half_width"].max() > 0.012
    two = run_experiment(exp, out=tmp_path / "two", workers=2, quiet=True)
    assert two.meta["games_per_point"] == 2 * CHUNK
    assert (tmp_path / "two" / "results.parquet").read_bytes() == table


def test_player_counts_are_blocks_with_their_own_reference(tmp_path):
    path = write(tmp_path, """
game = "demos"
seed = 5
games = 300
players = [3, 5]
[grid]
policies = [["greedy"], ["random", "greedy"]]
""")
    # ["random", "greedy"] names 2 policies: refused for 3 and 5 players
    with pytest.raises(Exception, match="grid.policies"):
        load_experiment(path)
    path.write_text(path.read_text().replace('["random", "greedy"]', '["random"]'))
    exp = load_experiment(path)
    assert [(b.players, b.points, b.ref) for b in exp.blocks] == [(3, (0, 1), 0), (5, (2, 3), 2)]
    df = run_experiment(exp, out=tmp_path / "r", quiet=True).results
    ws = df[df["metric"] == "win_share"]
    assert ws.groupby("point").size().tolist() == [3, 3, 5, 5]
    assert ws.groupby("point")["ref_point"].first().tolist()[1::2] == [0, 2]
    assert set(df["policies"]) == {"greedy", "random"}


def test_team_mode_rows_are_sides(tmp_path):
    path = write(tmp_path, 'game = "demos"\nseed = 2\ngames = 300\nmode = "2v2+1"\n'
                           'policies = "greedy,random,greedy,random,greedy"\n')
    df = run_experiment(load_experiment(path), out=tmp_path / "r", quiet=True).results
    ws = df[df["metric"] == "win_share"]
    assert ws[["side", "seats"]].values.tolist() == [["A", "0,2"], ["B", "1,3"], ["I", "4"]]
    assert (df[df["metric"] == "points"]["side"] == ["0", "1", "2", "3", "4"]).all()
    assert ws["ref_point"].isna().all() and ws["diff"].isna().all()


def test_a_changed_experiment_is_not_mixed_with_old_chunks(tmp_path):
    path = write(tmp_path, SMOKE.read_text())
    a = run_experiment(load_experiment(path).with_games(1000), out=tmp_path / "r", quiet=True)
    path.write_text(path.read_text().replace("seed = 1", "seed = 2"))
    b = run_experiment(load_experiment(path).with_games(1000), out=tmp_path / "r", quiet=True)
    assert b.meta["games_resumed"] == 0 and b.meta["fingerprint"] != a.meta["fingerprint"]
    assert b.meta["other_fingerprints"] == [a.meta["fingerprint"]]
    assert not a.results["mean"].equals(b.results["mean"])


def test_chunk_files_are_small_and_one_per_block_and_chunk(tmp_path):
    exp = load_experiment(SMOKE).with_games(3 * CHUNK)
    res = run_experiment(exp, out=tmp_path / "r", quiet=True)
    files = sorted((tmp_path / "r" / "chunks" / res.meta["fingerprint"]).glob("*.npz"))
    assert [f.name for f in files] == [f"b0-c{c}-n{CHUNK}.npz" for c in range(3)]
    assert all(f.stat().st_size < 64_000 for f in files)    # aggregates, not per-game data


def _run_on_a_terminal(args):
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    p = subprocess.Popen([sys.executable, "-m", "demos_sim.cli", *args], stdout=subprocess.DEVNULL,
                         stderr=slave, cwd=ROOT)
    os.close(slave)
    buf = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:                   # the child closed the terminal
            break
        if not data:
            break
        buf += data
    os.close(master)
    assert p.wait(timeout=120) == 0
    return buf.decode(errors="replace")


def test_progress_bar_on_a_terminal_only(tmp_path, capsys):
    args = ["run", str(SMOKE), "--games", "9000", "--out"]
    shown = _run_on_a_terminal(args + [str(tmp_path / "a")])
    assert "game/s" in shown and "18.0k/18.0k" in shown and "smoke" in shown
    assert _run_on_a_terminal(args + [str(tmp_path / "b"), "--quiet"]) == ""
    assert main(args + [str(tmp_path / "c")]) == 0        # not a terminal: no bar
    out, err = capsys.readouterr()
    # off a terminal, whole lines only: first what is to be played, then progress lines
    # (one per tenth, none within 10 s of the start: a fast run shows none):
    # tests/runner/test_progress.py
    lines = err.splitlines()
    assert "\r" not in err and lines[0].startswith("smoke: 18,000 games to play")
    assert all(line.startswith("smoke: ") and " of 18,000 games (" in line for line in lines[1:])
    assert "experiment smoke" in out and "games/s" in out


def test_plugin_policies_reach_the_workers(tmp_path):
    plugin = ROOT / "examples" / "highcards.py"
    path = write(tmp_path, f'game = "demos"\nseed = 4\ngames = {CHUNK + 100}\n'
                           f'plugins = ["{plugin}"]\n'
                           '[grid]\npolicies = ["greedy", "highcards,greedy,greedy,greedy"]\n')
    exp = load_experiment(path)
    one = run_experiment(exp, out=tmp_path / "one", quiet=True)
    two = run_experiment(exp, out=tmp_path / "two", workers=2, quiet=True)
    pd.testing.assert_frame_equal(one.results, two.results, check_exact=True)
    ws = one.results[(one.results["metric"] == "win_share") & (one.results["side"] == "0")]
    assert ws["policies"].tolist() == ["greedy", "highcards,greedy,greedy,greedy"]
    # the example policy is far worse than greedy in seat 0: diff ≈ −0.13, sd of the mean
    # ≈ 0.0066 (seeded), so the interval lies below 0 by about 18 sigma
    assert ws["diff"].iloc[1] < 0
    assert ws["diff_ci_high"].iloc[1] < 0


def test_runner_then_simulate_in_one_process():
    """The runner's process pool leaves joblib usable: a 2-worker simulate after a
    2-worker run in the same process (a notebook's order) works and is deterministic."""
    import tempfile

    exp = load_experiment(SMOKE).with_games(600)

    with tempfile.TemporaryDirectory() as d:
        run_experiment(exp, out=Path(d) / "r", workers=2, quiet=True)
    cfg = DemosConfig()
    a = simulate("demos", cfg, ["random"], 9000, 3, workers=2).summary()
    b = simulate("demos", cfg, ["random"], 9000, 3, workers=1).summary()
    assert a["sides"] == b["sides"]


def test_simulate_is_a_run_of_one_point_that_writes_nothing(tmp_path, monkeypatch):
    """`simulate` is the runner's one-point run kept in memory: no results folder, no chunk
    store, and the numbers of a `demos-sim run` of the same setup and seed."""
    monkeypatch.chdir(tmp_path)
    cfg = DemosConfig(variants={"carre_points": 20})
    s = simulate("demos", cfg, ["greedy"], 1500, 11)
    assert list(tmp_path.iterdir()) == [] and s.run.out is None
    exp = write(tmp_path, 'name = "one"\ngame = "demos"\nseed = 11\ngames = 1500\n'
                          'policies = ["greedy"]\n[variants]\ncarre_points = 20\n')
    r = run_experiment(load_experiment(exp), out=tmp_path / "one", quiet=True).results
    for m in ("win_share", "no_winner", "rounds", "vetoes", "points"):
        a = s.rows(m).sort_values("side")
        b = r[r["metric"] == m].sort_values("side")
        assert list(a["total"]) == list(b["total"]) and list(a["sd"]) == list(b["sd"])


def test_asking_fewer_metrics_plays_the_same_games():
    """DĒMOS plays with its kernel statistics off when no asked quantity needs them: the
    games are the same (equal exact totals of every shared quantity)."""
    from demos_sim.game import get_game

    g = get_game("demos")
    cfg = DemosConfig("full", "2v3", 5)
    specs = ["greedy", "heuristic", "greedy", "random", "greedy"]
    full = g.play(cfg, specs, 4, 0, 700)
    few = g.play(cfg, specs, 4, 0, 700, metrics=("win_share", "vetoes", "points"))
    assert set(few) == {"win_share", "vetoes", "points"}
    for m in few:
        assert (few[m] == full[m]).all()
    # a ratio quantity brings its denominator along
    assert set(g.play(cfg, specs, 4, 0, 50, metrics=("combo_share",))) == {
        "combo_share", "round_winners"}


def _paired_sums(up: int, down: int, both: int, n: int, scale: int = 60):
    """Σx, Σx², Σy, Σy², Σxy of n paired 0/1 games (x = 1 and y = 0 in ``up`` of them,
    the reverse in ``down``, both 1 in ``both``), in units of ``scale``."""
    x1, y1 = up + both, down + both
    return (x1 * scale, x1 * scale * scale, y1 * scale, y1 * scale * scale,
            both * scale * scale, n, scale)


def test_paired_rate_with_no_game_changed_is_not_zero_wide():
    """A paired 0/1 rate where no game changed (the Media's no-winner share at 384 games of
    the search rung) is not [0, 0]: the chance that a game changes is at most its
    Clopper–Pearson bound for 0 of n at 97.5%, 1 − 0.0125^(1/n) (closed form), and the
    direction is unknown, so the interval is ± that: ±0.011347 at n = 384."""
    from demos_sim.runner.intervals import paired_diff_ci

    e = paired_diff_ci(*_paired_sums(0, 0, 12, 384)[:6], scale=60, rate=True)
    bound = 1 - 0.0125 ** (1 / 384)
    assert bound == pytest.approx(0.011347, abs=1e-6)
    assert e.mean == 0 and e.lo == pytest.approx(-bound) and e.hi == pytest.approx(bound)
    assert e.half_width == pytest.approx(bound)
    # not a rate (a score, say): the sums say nothing about how often a game changes
    e = paired_diff_ci(*_paired_sums(0, 0, 12, 384)[:6], scale=60, rate=False)
    assert (e.lo, e.hi) == (0.0, 0.0)


def test_paired_rate_with_few_changed_games_known_answer():
    """Two games of 1,000 went up, none down: d = 0.002. The chance that a game changes,
    δ ≤ δ_hi, the 0.9875 quantile of Beta(3, 998) (Clopper–Pearson upper bound, 2 of
    1000); the chance that a changed game went up, π ≥ 0.0125^(1/2) = 0.111803 (closed
    form for 2 of 2); so d ∈ [δ_hi (2·0.111803 − 1), δ_hi]. With 10 or more changed
    games the normal interval is kept."""
    from scipy.stats import beta

    from demos_sim.runner.intervals import paired_diff_ci

    e = paired_diff_ci(*_paired_sums(2, 0, 100, 1000)[:6], scale=60, rate=True)
    d_hi = beta.ppf(0.9875, 3, 998)
    assert e.mean == pytest.approx(0.002)
    assert e.hi == pytest.approx(d_hi, rel=1e-6)
    assert e.lo == pytest.approx(d_hi * (2 * 0.0125 ** 0.5 - 1), rel=1e-6)
    e = paired_diff_ci(*_paired_sums(7, 3, 100, 1000)[:6], scale=60, rate=True)
    normal = paired_diff_ci(*_paired_sums(7, 3, 100, 1000)[:6], scale=60, rate=False)
    assert (e.lo, e.hi) == (normal.lo, normal.hi)


def test_paired_rate_interval_covers_with_few_changed_games():
    """Coverage at a rare change (P(up) = 0.0010, P(down) = 0.0005, 2,000 games: 3 changed
    games expected), 4,000 replications, seed 5: the interval covers the true difference
    0.0005 in at least 94% of them (95% − 3σ, σ = 0.0034; measured 99.98%: Bonferroni
    makes it conservative), where the normal interval covers it in under 90% (85.4%)."""
    from demos_sim.runner.intervals import paired_diff_ci

    rng = np.random.default_rng(5)
    counts = rng.multinomial(2000, [0.0010, 0.0005, 0.9985], size=4000)
    true = 0.0010 - 0.0005
    hit = hit_normal = 0
    for up, down, _ in counts:
        args = _paired_sums(int(up), int(down), 0, 2000)[:6]
        e = paired_diff_ci(*args, scale=60, rate=True)
        hit += e.lo <= true <= e.hi
        n_ = paired_diff_ci(*args, scale=60, rate=False)
        hit_normal += n_.lo <= true <= n_.hi
    assert hit / 4000 >= 0.94, hit / 4000
    assert hit_normal / 4000 < 0.90, hit_normal / 4000


def test_rare_binary_rates_get_the_wilson_interval():
    """M1 asks for an interval with every rate; for a 0/1 rate it is Wilson's score
    interval. Hand-computed: k = 0, n = 16384, z = 1.959964: the upper bound is
    z² / (n + z²) = 3.841459 / 16387.841459 = 0.00023441 (not [0, 0]); k = 5, n = 100:
    centre (0.05 + z²/200) / (1 + z²/100) = 0.0692073 / 1.0384146 = 0.0666471, half-width
    z / (1 + z²/100) · sqrt(0.05·0.95/100 + z²/40000) = 0.0468357 / 1.0384146 = 0.0451034."""
    from demos_sim.runner.intervals import mean_ci

    e = mean_ci(0, 0, 16384, 1, True)
    assert (e.lo, e.mean) == (0.0, 0.0) and e.hi == pytest.approx(0.00023441, abs=1e-8)
    e = mean_ci(5 * 60, 5 * 60 * 60, 100, 60, True)     # 5 wins of 100, never shared
    assert e.lo == pytest.approx(0.0666471 - 0.0451034, abs=1e-6)
    assert e.hi == pytest.approx(0.0666471 + 0.0451034, abs=1e-6)
    # a share with shared wins is not a 0/1 count: the normal interval, clipped
    e = mean_ci(60 + 30, 60 * 60 + 30 * 30, 4, 60, True)
    assert e.lo == pytest.approx(max(0.0, e.mean - e.half_width)) and e.hi == pytest.approx(
        e.mean + e.half_width)
