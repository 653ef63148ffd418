"""Tournaments, ladders and the luck share play through the runner's one call
(``play_points``): the same seed gives the same games as each game's own ``play``; the
numbers do not depend on the workers or the backend; a match's rotations and a round
robin's pairs are points of one call; a tournament or a ladder stopped by kill -9 resumes
from its folder."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from demos_sim.cli import main
from demos_sim.game import get_game
from demos_sim.runner.backends import make_backend
from demos_sim.sim_common import CHUNK, chunks_of
from demos_sim.tournament import (
    in_place, make_config, match, matches, round_robin, run_tournament, side_shares,
)

ROOT = Path(__file__).resolve().parents[2]
DEMOS4 = make_config("demos", 4, rules="full")


def direct_shares(game, config, specs, games, seed):
    """M1 shares through the game's own ``play``, chunk by chunk (the pre-runner way)."""
    g = get_game(game)
    rows = [g.play(config, list(specs), seed, c, k, metrics=("win_share",))["win_share"]
            for c, k in chunks_of(games)]
    return np.concatenate(rows) / g.quantity("win_share").scale


@pytest.mark.parametrize("game, config, specs, games", [
    ("demos", DEMOS4, ["greedy", "random", "random", "greedy"], CHUNK + 60),
    ("demos", make_config("demos", None, mode="2v3"), ["greedy", "random"] * 2 + ["random"],
     300),
    ("protocole", make_config("protocole", 4, mode="each"), ["cautious", "random"] * 2, 400),
    ("protocole", make_config("protocole", 4, mode="coop", level=2), ["convention"] * 4, 400),
    ("assemblee", make_config("assemblee", 6), ["civic", "free_rider"] * 3, 200),
], ids=["demos", "demos-2v3", "protocole-each", "protocole-coop", "assemblee"])
def test_side_shares_are_the_games_own_play_bit_for_bit(game, config, specs, games):
    got = side_shares(game, config, specs, games, seed=13)
    want = direct_shares(game, config, specs, games, 13)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def _numbers(s):
    return {k: v for k, v in s.items() if k != "wall_s"}


def test_a_match_is_the_same_for_one_and_two_workers_and_dask():
    one = match("demos", DEMOS4, "greedy", "random", 600, 9)
    two = match("demos", DEMOS4, "greedy", "random", 600, 9, workers=2)
    be = make_backend("dask", 2, dask_processes=False)
    try:
        dask = match("demos", DEMOS4, "greedy", "random", 600, 9, backend=be)
    finally:
        be.close()
    for m in (two, dask):
        assert np.array_equal(one.a, m.a) and np.array_equal(one.b, m.b)
        assert np.array_equal(one.shares, m.shares)
        assert _numbers(one.summary()) == _numbers(m.summary())   # the luck share too
    assert (one.meta["backend"], two.meta["backend"], dask.meta["backend"]) == \
        ("inline", "local", "dask")


def test_a_round_robin_is_one_call_on_common_deals():
    """Three pairs × two rotations: six points of one call, and each pair's match is the
    match played alone."""
    ms = matches("demos", DEMOS4, [("random", "greedy"), ("random", "heuristic"),
                                   ("greedy", "heuristic")], 150, 3)
    assert ms[0].meta is ms[1].meta is ms[2].meta
    assert len(ms[0].meta["points"]) == 6
    assert ms[0].meta["games_played_this_call"] == 6 * 150
    alone = match("demos", DEMOS4, "random", "heuristic", 150, 3)
    assert np.array_equal(alone.a, ms[1].a) and np.array_equal(alone.b, ms[1].b)
    rr = round_robin("demos", DEMOS4, ["random", "greedy", "heuristic"], 150, 3, workers=2)
    assert [_numbers(p) for p in rr["pairs"]] == [_numbers(m.summary()) for m in ms]


def test_a_policy_against_itself_is_played_once():
    """Both rotations of greedy against greedy are the same table: one point."""
    m = match("demos", DEMOS4, "greedy", "greedy", 100, 2)
    assert len(m.meta["points"]) == 1 and m.meta["games_played_this_call"] == 100
    assert np.array_equal(m.a, m.b)


def test_in_place_sums_the_seats_of_the_games_own_play():
    cfg = make_config("assemblee", 5)
    got = in_place("assemblee", cfg, "civic", "random", 80, 4, workers=2)
    want = sum(direct_shares("assemblee", cfg, ["civic"] * s + ["random"] + ["civic"] * (4 - s),
                             80, 4)[:, s] for s in range(5))
    assert np.array_equal(got, want)
    whole = direct_shares("assemblee", cfg, ["civic"] * 5, 80, 4).sum(axis=1)
    assert np.array_equal(in_place("assemblee", cfg, "civic", "civic", 80, 4), whole)


def test_tournament_json_says_how_it_was_played_and_a_store_resumes(tmp_path):
    args = ("demos", DEMOS4, ["greedy", "random"], 300, 5)
    plain = json.loads(run_tournament(*args, as_json=True))
    assert plain["run"]["backend"] == "inline" and plain["run"]["games_resumed"] == 0
    kept = json.loads(run_tournament(*args, as_json=True, store=tmp_path))
    again = json.loads(run_tournament(*args, as_json=True, store=tmp_path))
    assert again["run"]["games_resumed"] == 600 and again["run"]["games_played_this_call"] == 0
    for s in (kept, again):
        assert {k: v for k, v in s.items() if k not in ("wall_s", "run")} == \
            {k: v for k, v in plain.items() if k not in ("wall_s", "run")}
    text = run_tournament(*args, store=tmp_path)
    assert f"resumed 600 games from {tmp_path}" in text


@pytest.mark.parametrize("argv", [
    ["tournament", "--policies", "greedy,random", "--seed", "-1"],
    ["tournament", "--policies", "greedy,random", "--workers", "0"],
    ["tournament", "--policies", "greedy,random", "--scheduler", "tcp://x:1"],
])
def test_tournament_bad_input_is_one_line(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("demos-sim: error: ") and "\n" not in err


def test_ladder_bad_seed_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "demos_sim.tournament", "ladder", "--out",
                        str(tmp_path / "l"), "--games", "10", "--seed", "-1"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "seed" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_the_ladder_resumes_from_its_folder(tmp_path):
    """A small ladder, then the same command with a third of its kept tasks lost: the
    others are read back untouched, the lost ones played again, and every file it writes
    is the same bytes."""
    from demos_sim.tournament import LADDERS, ladder

    out = tmp_path / "ladder"
    rows = ladder(out, games=60, seed=2026, workers=1)
    files = sorted((out / "chunks").glob("*.npz"))
    # a row for every rung against the one below it
    assert len(files) > 10 and len(rows) == sum(len(ld.rungs) - 1 for ld in LADDERS)
    first = {f: (out / f).read_bytes() for f in ("ladder.json", "ladder.md", "ladder.csv")}
    lost = files[::3]
    kept = {f: f.stat().st_mtime_ns for f in files if f not in lost}
    for f in lost:
        f.unlink()
    ladder(out, games=60, seed=2026, workers=2)
    assert all(f.exists() for f in lost)
    assert {f: f.stat().st_mtime_ns for f in kept} == kept
    assert {f: (out / f).read_bytes() for f in first} == first


def _cli(store, games):
    return [sys.executable, "-m", "demos_sim.cli", "tournament", "--policies",
            "greedy,random", "--games", str(games), "--seed", "3", "--json", "--quiet",
            "--store", str(store)]


def test_kill_9_mid_tournament_then_the_same_command_resumes(tmp_path):
    """A tournament killed with SIGKILL after a few of its tasks were kept, run again:
    the same numbers as a run never stopped, with the kept tasks read back."""
    games = 10 * CHUNK                    # two rotations × ten chunks: twenty tasks
    store = tmp_path / "store"
    proc = subprocess.Popen(_cli(store, games), cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(store.glob("*.npz"))) >= 3:
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read().decode()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    done = len(list(store.glob("*.npz")))
    assert 3 <= done < 20
    again = subprocess.run(_cli(store, games), cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    resumed = json.loads(again.stdout)
    assert resumed["run"]["games_resumed"] == done * CHUNK
    assert resumed["run"]["games_resumed"] + resumed["run"]["games_played_this_call"] == \
        2 * games
    clean = json.loads(run_tournament("demos", DEMOS4, ["greedy", "random"], games, 3,
                                      as_json=True))
    drop = ("wall_s", "run")
    assert {k: v for k, v in resumed.items() if k not in drop} == \
        {k: v for k, v in clean.items() if k not in drop}
