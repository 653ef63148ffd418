"""Policy specs are read once per configuration, into a Lineup (a spec and a policy by
seat) that is passed down: the registry alone expands "one spec for every seat"."""

import inspect

import pytest

from demos_sim import ConfigError
from demos_sim.cli import main
from demos_sim.demos.rules import DemosConfig
from demos_sim.game import get_game
from demos_sim.restricted import Lineup, lineup
from demos_sim.runner.experiment import experiment_of, loads_experiment

DEMOS = get_game("demos")


@pytest.fixture
def resolves(monkeypatch):
    """Calls of PolicyRegistry.resolve made outside the game's chunk player (which reads
    the specs it is sent in each process that plays)."""
    calls = []
    real = DEMOS.policies.resolve

    def counted(specs, players):
        callers = {f.filename.replace("\\", "/") for f in inspect.stack()[1:]}
        if not any(c.endswith(("runner/tasks.py", "sim_common.py")) for c in callers):
            calls.append(list(specs))
        return real(specs, players)

    monkeypatch.setattr(DEMOS.policies, "resolve", counted)
    return calls


def test_one_spec_is_every_seats_and_each_seat_its_own():
    cfg = DemosConfig(mode="2v3", players=5)
    one = lineup(DEMOS, "greedy:noveto", cfg)
    assert one.specs == ("greedy:noveto",) * 5
    assert [p.name for p in one.policies] == list(one.specs)
    each = lineup(DEMOS, [" greedy", "random ", "greedy", "random", "heuristic"], cfg)
    assert each.specs == ("greedy", "random", "greedy", "random", "heuristic")
    with pytest.raises(ConfigError, match="names 2 policies for 5 players"):
        lineup(DEMOS, "greedy,random", cfg)


def test_an_experiment_reads_each_points_specs_once(resolves):
    exp = loads_experiment('game = "demos"\nseed = 1\ngames = 10\npolicies = "greedy"\n'
                           "[grid]\ncarre_points = [30, 20, 40]\n", "g.toml")
    assert len(exp.points) == 3
    assert resolves == [["greedy"]] * 3        # once a point (it was twice a point)
    assert {p.policies for p in exp.points} == {("greedy",) * 4}


def test_simulate_reads_the_specs_once(resolves, capsys):
    assert main(["simulate", "--games", "20", "--policies", "random"]) == 0
    assert resolves == [["random"]]            # it was three times before any game
    assert "random" in capsys.readouterr().out


def test_experiment_of_takes_a_lineup_by_seat():
    cfg = DemosConfig()
    exp = experiment_of("demos", [("a", cfg, lineup(DEMOS, "greedy", cfg))], 10, 1)
    assert exp.points[0].policies == ("greedy",) * 4
    with pytest.raises(TypeError, match="Lineup of 4 seats"):
        experiment_of("demos", [("a", cfg, ["greedy"])], 10, 1)
    with pytest.raises(TypeError, match="Lineup of 4 seats"):
        experiment_of("demos", [("a", cfg, Lineup(("greedy",), ()))], 10, 1)


def test_compare_of_the_same_lineup_written_twice_ways_is_nothing_to_compare():
    """greedy for every seat, written once or four times, plays the same games."""
    from demos_sim.analysis.core.whatif import plan

    with pytest.raises(ConfigError, match="nothing to compare"):
        plan("demos", {}, None, {}, policies=["greedy"], against_policies=["greedy"] * 4)
    plan("demos", {}, None, {}, policies=["greedy"], against_policies=["random"])
