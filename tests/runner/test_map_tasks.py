"""The runner's one pool for work that is not games at points (map_tasks): results in the
order of the arguments, whatever the backend and the number of workers."""

import operator

import pytest

from demos_sim import ConfigError
from demos_sim.runner.backends import map_tasks


@pytest.mark.parametrize("workers", [1, 2])
def test_results_in_argument_order(workers):
    args = [(i, 7 - i) for i in range(11)]          # more tasks than 2 x workers in flight
    assert list(map_tasks(operator.sub, args, workers)) == [2 * i - 7 for i in range(11)]


def test_no_tasks_and_bad_workers():
    assert list(map_tasks(operator.sub, [], 2)) == []
    with pytest.raises(ConfigError, match="--workers must be at least 1"):
        list(map_tasks(operator.sub, [(1, 2)], 0))


def test_a_failing_task_raises_in_the_caller():
    with pytest.raises(ZeroDivisionError):
        list(map_tasks(operator.truediv, [(1, 1), (1, 0)], 1))
