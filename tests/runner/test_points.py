"""``play_points``, the runner's one call for games played outside an experiment file: the
games it returns are exactly the games each game's ``play`` gives chunk by chunk (deal
``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``), in deal order, whatever the backend
or the number of workers; a resume folder gives back what a first call kept; the refusals
are one line."""

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.game import get_game
from demos_sim.runner.backends import make_backend
from demos_sim.runner.points import Point, play_points
from demos_sim.sim_common import CHUNK, chunks_of
from demos_sim.tournament import make_config

DEMOS4 = make_config("demos", 4, rules="full")
COOP2 = make_config("protocole", 4, mode="coop", level=2)
ASSEMBLEE5 = make_config("assemblee", 5)

# per game: its configuration, two points and their deal counts (the first DĒMOS point
# crosses a chunk boundary: deals CHUNK … CHUNK+99 are games 0 … 99 of chunk 1)
CASES = [
    ("demos", DEMOS4, [("random",) * 4, ("greedy", "random", "greedy", "random")],
     [CHUNK + 100, 300]),
    ("protocole", COOP2, [("convention",) * 4, ("random", "planner", "random", "planner")],
     [300, 200]),
    ("assemblee", ASSEMBLEE5, [("civic",) * 5, ("random", "civic", "civic", "civic", "civic")],
     [200, 120]),
]


def direct(game, config, specs, games, seed, metric="win_share", chunk0=0):
    """The deals ``0 … games-1`` through the game's own ``play``, chunk by chunk."""
    g = get_game(game)
    rows = [g.play(config, list(specs), seed, chunk0 + c, k, metrics=(metric,))[metric]
            for c, k in chunks_of(games)]
    return np.concatenate(rows)


@pytest.mark.parametrize("game, config, specs, counts", CASES, ids=[c[0] for c in CASES])
def test_the_games_are_each_games_own_play_chunk_by_chunk(game, config, specs, counts):
    got = play_points(game, [Point(config, s) for s in specs], counts, seed=7,
                      metrics=("win_share", "rounds"))
    for i, (s, n) in enumerate(zip(specs, counts)):
        for q in ("win_share", "rounds"):
            want = direct(game, config, s, n, 7, q)
            assert got.values[i][q].dtype == np.int64
            assert np.array_equal(got.values[i][q], want), (game, s, q)
    assert got.meta["games"] == counts and got.meta["games_resumed"] == 0
    assert got.meta["games_played_this_call"] == sum(counts)
    assert [p["policies"] for p in got.meta["points"]] == [list(s) for s in specs]


def test_chunk0_moves_to_other_deals():
    got = play_points("demos", [Point(DEMOS4, ("greedy",) * 4)], 200, seed=3, chunk0=5)
    assert np.array_equal(got.values[0]["win_share"],
                          direct("demos", DEMOS4, ("greedy",) * 4, 200, 3, chunk0=5))
    assert not np.array_equal(got.values[0]["win_share"],
                              direct("demos", DEMOS4, ("greedy",) * 4, 200, 3))


def test_same_values_for_one_and_two_workers_and_dask():
    """A task is a pure function of its chunk and games: a pool of two (which cuts the one
    chunk into parts, fewer jobs than twice the workers) and a Dask cluster give the same
    arrays as this process alone."""
    pts = [Point(DEMOS4, ("greedy", "random") * 2), Point(DEMOS4, ("random", "greedy") * 2)]
    one = play_points("demos", pts, [700, 500], seed=11, metrics=None)
    two = play_points("demos", pts, [700, 500], seed=11, metrics=None, workers=2)
    be = make_backend("dask", 2, dask_processes=False)
    try:
        dask = play_points("demos", pts, [700, 500], seed=11, metrics=None, backend=be)
    finally:
        be.close()
    assert (one.meta["backend"], two.meta["backend"], dask.meta["backend"]) == \
        ("inline", "local", "dask")
    for other in (two, dask):
        for a, b in zip(one.values, other.values):
            assert a.keys() == b.keys()
            for q in a:
                assert np.array_equal(a[q], b[q]), q


def test_a_resume_folder_gives_back_the_kept_tasks_and_replays_the_missing(tmp_path):
    pts = [Point(DEMOS4, ("greedy", "random") * 2), Point(DEMOS4, ("random",) * 4)]
    games = 2 * CHUNK + 50                      # three chunks a point: six tasks
    first = play_points("demos", pts, games, seed=4, store=tmp_path)
    files = sorted(tmp_path.glob("*.npz"))
    assert len(files) == 6 and first.meta["games_resumed"] == 0
    again = play_points("demos", pts, games, seed=4, store=tmp_path)
    assert again.meta["games_resumed"] == 2 * games
    assert again.meta["games_played_this_call"] == 0
    # a lost task and a damaged one (what a crash mid-write could leave under another
    # name is never read; a file that does not load is played again)
    sizes = {f: f.stat().st_size for f in files}
    files[0].unlink()
    files[1].write_bytes(b"not an npz file")
    third = play_points("demos", pts, games, seed=4, store=tmp_path)
    assert third.meta["games_resumed"] + third.meta["games_played_this_call"] == 2 * games
    assert 0 < third.meta["games_played_this_call"] <= 2 * CHUNK
    assert {f: f.stat().st_size for f in sorted(tmp_path.glob("*.npz"))} == sizes
    for run in (again, third):
        for a, b in zip(first.values, run.values):
            assert np.array_equal(a["win_share"], b["win_share"])
    # another seed, another policy or fewer games name other tasks: nothing is reused
    other = play_points("demos", [Point(DEMOS4, ("greedy",) * 4)], games, seed=4,
                        store=tmp_path)
    assert other.meta["games_resumed"] == 0
    other = play_points("demos", pts[:1], games, seed=5, store=tmp_path)
    assert other.meta["games_resumed"] == 0


def test_refusals_are_one_line():
    with pytest.raises(ConfigError) as e:
        play_points("demos", [Point(DEMOS4, ("greedy",) * 4)], 10, seed=-1)
    assert "seed" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ConfigError) as e:       # 10^12 deals × 4 seats × 8 bytes × 2
        play_points("demos", [Point(DEMOS4, ("greedy",) * 4)] * 2, 10**12, seed=1)
    assert "GiB" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ConfigError) as e:
        play_points("demos", [Point(DEMOS4, ("greedy",) * 4)], [10, 20], seed=1)
    assert "\n" not in str(e.value)


def test_the_values_bound_is_one_line_through_the_tournament_command(capsys):
    """32 GiB of per-game values (10^12 deals is within the count a run takes) is
    refused before any game is played."""
    from demos_sim.cli import main

    assert main(["tournament", "--policies", "greedy,random", "--games", str(10**12),
                 "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("demos-sim: error: ") and "GiB" in err and "\n" not in err
