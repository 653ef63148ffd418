"""run_experiment's ``on_chunk`` hook: called after every chunk is folded into the totals,
in chunk order, with the games per point so far; ``False`` stops the run there, and the
tables are then exactly those of a run of that many games (the explorer's live view)."""

import pandas as pd

from demos_sim.game import get_game
from demos_sim.game import get_game
from demos_sim.restricted import lineup
from demos_sim.runner.experiment import experiment_of
from demos_sim.runner.run import run_experiment
from demos_sim.runner.tables import build_tables
from demos_sim.sim_common import CHUNK


def _exp(games):
    g = get_game("protocole")
    cfg = g.make_config({}, 3, {})
    new = g.make_config({}, 3, {"standard_tie": "discard_all"})
    g = get_game("protocole")
    return experiment_of("protocole", [("ref", cfg, lineup(g, ["cautious"], cfg)),
                                       ("new", new, lineup(g, ["cautious"], new))], games, 11)


def test_on_chunk_sees_every_chunk_in_order_and_changes_nothing():
    seen = []

    def cb(totals, games):
        seen.append((games, int(totals[0]["0.n"][0]), int(totals[0]["1.n"][0])))
        return None                          # not False: go on

    games = 2 * CHUNK + 100                  # two whole chunks and a partial one
    with_cb = run_experiment(_exp(games), quiet=True, keep=False, on_chunk=cb)
    plain = run_experiment(_exp(games), quiet=True, keep=False)
    assert seen == [(CHUNK, CHUNK, CHUNK), (2 * CHUNK, 2 * CHUNK, 2 * CHUNK),
                    (games, games, games)]
    assert with_cb.meta["stopped_by"] == plain.meta["stopped_by"] == "games"
    pd.testing.assert_frame_equal(with_cb.results, plain.results)


def test_on_chunk_false_stops_with_the_tables_of_the_games_folded():
    partial = {}

    def cb(totals, games):
        exp = _exp(3 * CHUNK)
        partial[games] = build_tables(exp, totals)[0]
        return games < 2 * CHUNK             # stop after the second chunk

    run = run_experiment(_exp(3 * CHUNK), quiet=True, keep=False, on_chunk=cb)
    assert run.meta["stopped_by"] == "on_chunk"
    assert run.meta["games_per_point"] == 2 * CHUNK
    assert sorted(partial) == [CHUNK, 2 * CHUNK]
    short = run_experiment(_exp(2 * CHUNK), quiet=True, keep=False)
    cols = ["point", "metric", "side", "games", "total", "mean", "ci_low", "ci_high", "diff",
            "diff_ci_low", "diff_ci_high"]
    pd.testing.assert_frame_equal(run.results[cols], short.results[cols])
    # the partial table handed to the callback at chunk 2 is the final one
    pd.testing.assert_frame_equal(partial[2 * CHUNK][cols], short.results[cols])
