"""`demos-sim analyse --backend/--scheduler`: every declared run and tune of an analysis,
and its follow-up games (Runs.backend, read by the questions), play where it says."""

import pytest

from demos_sim import ConfigError
from demos_sim.analysis import suite


def test_runs_and_tunes_are_played_on_the_backend_asked(tmp_path, monkeypatch):
    played = []

    def run_experiment(exp, **k):
        played.append(("run", k["backend"], k["scheduler"], k["workers"]))
        raise ConfigError("stop")

    monkeypatch.setattr(suite, "run_experiment", run_experiment)
    with pytest.raises(ConfigError, match="stop"):
        suite.declared_runs("veto", suite.module("veto"), tmp_path, 2, games=4, quiet=True,
                            backend="dask", scheduler="tcp://cluster:8786")
    assert played == [("run", "dask", "tcp://cluster:8786", 2)]

    tuned = []

    def tune(spec, **k):
        tuned.append((k["backend"], k["scheduler"], k["workers"]))
        raise ConfigError("stop")

    monkeypatch.setattr(suite, "tune", tune)
    runs = suite.Runs(workers=2, backend="dask", scheduler="tcp://cluster:8786")
    with pytest.raises(ConfigError, match="stop"):
        suite.run_tunes(suite.module("tuning"), tmp_path, 2, 4, True, runs)
    assert tuned == [("dask", "tcp://cluster:8786", 2)]


def test_a_scheduler_without_dask_is_one_line(capsys):
    from demos_sim.cli import main

    assert main(["analyse", "veto", "--scheduler", "tcp://x:1", "--out", "/nonexistent"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "demos-sim: error: --scheduler needs --backend dask"
