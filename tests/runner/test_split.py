"""A chunk played in parts: the same games, the same integer totals (runner.run.split_jobs,
sim_common.cut)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from demos_sim.game import get_game
from demos_sim.runner.run import MIN_PART, split_jobs
from demos_sim.runner.tasks import add_into, play_task
from demos_sim.sim_common import cut, parts_per_job


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 9), st.integers(1, 5000)),
                min_size=1, max_size=12, unique_by=lambda j: j[:2]),
       st.integers(1, 8))
@settings(max_examples=200, deadline=None)
def test_split_jobs_covers_every_game_once_in_order(jobs, workers):
    tasks = split_jobs(jobs, workers)
    for b, c, k in jobs:
        mine = [(f, n) for bb, cc, kk, f, n in tasks if (bb, cc) == (b, c)]
        assert all(kk == k for bb, cc, kk, _, _ in tasks if (bb, cc) == (b, c))
        # consecutive parts from game 0 to game k-1, none empty
        assert mine[0][0] == 0 and sum(n for _, n in mine) == k
        assert all(f1 + n1 == f2 for (f1, n1), (f2, _) in zip(mine, mine[1:]))
        assert all(n >= 1 for _, n in mine)
        if len(mine) > 1:                       # cut only into parts of MIN_PART or more
            assert min(n for _, n in mine) >= MIN_PART
    # many jobs, or one worker: nothing is cut
    if workers == 1 or len(jobs) >= 2 * workers:
        assert len(tasks) == len(jobs)


@given(count=st.integers(1, 4096), parts=st.integers(1, 16),
       align=st.sampled_from([1, 2, 4, 16, 64]))
@settings(max_examples=200, deadline=None)
def test_cut_gives_aligned_consecutive_parts(count, parts, align):
    ps = cut(count, parts, align)
    assert ps[0][0] == 0 and sum(n for _, n in ps) == count and all(n >= 1 for _, n in ps)
    assert all(f1 + n1 == f2 for (f1, n1), (f2, _) in zip(ps, ps[1:]))
    assert all(f % align == 0 for f, _ in ps)            # no bootstrap batch straddles two
    assert len(ps) == min(parts, -(-count // align))     # as many as asked, when they fit


def test_parts_per_job_keeps_two_workers_busy():
    assert [parts_per_job(j, 2) for j in (0, 1, 2, 3, 4, 9)] == [1, 4, 2, 2, 1, 1]
    assert parts_per_job(1, 1) == 1 and parts_per_job(3, 8) == 6


def test_one_small_job_is_cut_for_two_workers():
    assert split_jobs([(0, 0, 512)], 2) == [(0, 0, 512, 0, 128), (0, 0, 512, 128, 128),
                                            (0, 0, 512, 256, 128), (0, 0, 512, 384, 128)]
    assert split_jobs([(0, 0, 20)], 2) == [(0, 0, 20, 0, 20)]        # under 2 x MIN_PART


@pytest.mark.parametrize("game, policies", [
    ("demos", ("greedy", "heuristic", "random", "greedy")),
    ("protocole", ("cautious", "planner", "random", "convention")),
    ("assemblee", ("civic", "free_rider", "civic", "aggressive", "civic", "civic")),
])
def test_parts_of_a_chunk_add_up_to_the_whole_chunk(game, policies):
    """Games 0-99 of chunk 3 in one task and in three parts (0-36, 37-63, 64-99): every
    aggregate is bit-for-bit the same integer sum."""
    ad = get_game(game)
    config = ad.make_config({}, len(policies), {})
    points = [(0, config, policies, None)]
    whole = play_task(game, 77, 3, 100, points, ())
    total = None
    for first, n in ((0, 37), (37, 27), (64, 36)):
        total = add_into(total, play_task(game, 77, 3, n, points, (), None, first))
    assert whole.keys() == total.keys()
    for key in whole:
        np.testing.assert_array_equal(whole[key], total[key], err_msg=key)
