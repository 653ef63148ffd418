"""A huge games count: memory stays flat (chunks are made as they are played, not listed
first), the count above the stated maximum is one line, and a count the run reaches
plays the same chunks as before."""

import tracemalloc
from pathlib import Path

import pytest

from demos_sim.cli import main
from demos_sim.runner import load_experiment, run_experiment
from demos_sim.sim_common import CHUNK, MAX_GAMES

SMOKE = Path(__file__).resolve().parents[2] / "experiments" / "smoke.toml"


def test_a_huge_count_stopped_after_two_chunks_uses_little_memory():
    """2,000,000,000 games are 488,282 chunks; listing them (and their jobs, their set,
    the to-do list, the tasks) first took hundreds of MB, a million million ~23 GB."""
    exp = load_experiment(SMOKE).with_games(2_000_000_000)
    seen = []

    def stop_after_two(totals, games):
        seen.append(games)
        return len(seen) < 2

    run_experiment(exp.with_games(CHUNK), keep=False, quiet=True)    # compile, warm caches
    tracemalloc.start()
    try:
        res = run_experiment(exp, keep=False, quiet=True, on_chunk=stop_after_two)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seen == [CHUNK, 2 * CHUNK]
    assert res.meta["games_per_point"] == 2 * CHUNK and res.meta["stopped_by"] == "on_chunk"
    assert peak < 30 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_the_chunks_played_are_those_of_a_run_of_that_size():
    """Stopped after two chunks of a huge run = a run of exactly two chunks."""
    exp = load_experiment(SMOKE)
    small = run_experiment(exp.with_games(2 * CHUNK), keep=False, quiet=True)
    huge = run_experiment(exp.with_games(10**11), keep=False, quiet=True,
                          on_chunk=lambda totals, games: games < 2 * CHUNK)
    assert huge.results.equals(small.results)


@pytest.mark.parametrize("args", [
    ["run", str(SMOKE), "--games", str(MAX_GAMES + 1)],
    ["simulate", "--games", "100000000000000000"],
    ["compare", "--set", "carre_points=20", "--games", str(MAX_GAMES + 1)],
    ["tournament", "--policies", "greedy,random", "--games", str(MAX_GAMES + 1)],
])
def test_a_count_above_the_maximum_is_one_line(capsys, args, tmp_path):
    assert main([*args] + (["--out", str(tmp_path / "o")] if args[0] == "run" else [])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"at most {MAX_GAMES:,}" in err, err
    assert not (tmp_path / "o").exists()


def test_an_experiment_file_above_the_maximum_is_one_line(tmp_path, capsys):
    text = SMOKE.read_text().replace("games = 8192", f"games = {MAX_GAMES + 1}")
    (tmp_path / "big.toml").write_text(text)
    assert main(["run", str(tmp_path / "big.toml"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "games: " in err and f"at most {MAX_GAMES:,}" in err, err
    assert not (tmp_path / "o").exists()
