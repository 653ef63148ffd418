"""An experiment is validated from its data (the TOML read once, or a table built in code):
section by section, each value by one validator — a variant by the game's configuration."""

import tomllib

import pytest

from demos_sim.game import get_game
from demos_sim.runner.experiment import (ExperimentError, load_experiment, loads_experiment,
                                         parse_experiment)

TEXT = """\
game = "demos"
seed = 3
games = 50
policies = ["{bot}", "{bot}:noveto", "{bot}", "random"]
[variants]
carre_points = 40
[grid]
max_rounds = ["null", 10]
"""


def test_a_table_built_in_code_is_an_experiment_without_a_file():
    data = tomllib.loads(TEXT)
    exp = parse_experiment(data, "built/here.toml", bot="greedy")
    assert exp.name == "here-greedy" and exp.path == "built/here.toml"
    assert [p.policies for p in exp.points] == [("greedy", "greedy:noveto", "greedy",
                                                 "random")] * 2
    assert data["policies"][0] == "{bot}"                    # the caller's table is kept
    assert exp.data["policies"][:2] == ["greedy", "greedy:noveto"]
    # the same experiment as the file's: same points, same fingerprint inputs
    same = loads_experiment(TEXT, "built/here.toml", bot="greedy")
    assert exp.canonical() == same.canonical()
    assert same.text == TEXT.replace("{bot}", "greedy")      # the file's text, for the record


def test_a_table_naming_bot_without_one_is_one_line():
    with pytest.raises(ExperimentError, match=r"^x\.toml: names \{bot\}: run it through"):
        parse_experiment(tomllib.loads(TEXT), "x.toml")


def test_a_missing_key_names_the_path_given():
    with pytest.raises(ExperimentError, match=r"^mine\.toml: seed: missing"):
        parse_experiment({"game": "demos", "games": 10}, "mine.toml")


def test_variants_are_checked_by_the_configuration_alone(tmp_path, monkeypatch):
    """The game's configuration validates a variant (D5.1: max_rounds null or >= 1); the
    experiment reader no longer checks it a second time through Game.check_variant."""
    game = get_game("demos")

    def twice(*a, **k):
        raise AssertionError("a variant checked outside the configuration")

    monkeypatch.setattr(type(game), "check_variant", twice)
    path = tmp_path / "v.toml"
    path.write_text(TEXT)
    exp = load_experiment(path, bot="greedy")
    # TOML has no null: "null" stands for it, in the point and in the configuration
    assert [p.values["max_rounds"] for p in exp.points] == [None, 10]
    assert [p.config.variants["max_rounds"] for p in exp.points] == [None, 10]
    assert exp.points[1].config.variants["carre_points"] == 40
    path.write_text(TEXT.replace('["null", 10]', '["null", 0]'))
    with pytest.raises(ExperimentError,
                       match=r"v\.toml: grid\.max_rounds: variant max_rounds must be null or "
                             r"an integer >= 1, got 0$"):
        load_experiment(path, bot="greedy")


def test_the_source_names_the_text_by_its_digest(tmp_path):
    import hashlib

    path = tmp_path / "s.toml"
    path.write_text(TEXT)
    exp = load_experiment(path, bot="greedy")
    text = TEXT.replace("{bot}", "greedy")
    assert exp.source() == {"path": str(path),
                            "sha256": hashlib.sha256(text.encode()).hexdigest()}


def test_a_runs_text_is_kept_once(tmp_path):
    """meta.json holds the experiment's text; the chunk folder names it by its digest."""
    import hashlib
    import json

    from demos_sim.runner.run import run_experiment

    path = tmp_path / "once.toml"
    path.write_text(TEXT.replace("games = 50", "games = 20"))
    exp = load_experiment(path, bot="greedy")
    run_experiment(exp, out=tmp_path / "out", quiet=True)
    meta = json.loads((tmp_path / "out" / "meta.json").read_text())
    assert meta["experiment"]["file"] == exp.text
    [info] = (tmp_path / "out" / "chunks").glob("*/experiment.json")
    kept = json.loads(info.read_text())
    assert exp.text not in info.read_text() and "experiment_file" not in kept
    assert kept["experiment"]["sha256"] == hashlib.sha256(exp.text.encode()).hexdigest()


def test_a_text_is_not_data():
    with pytest.raises(TypeError, match="loads_experiment reads a text"):
        parse_experiment(TEXT, "x.toml", bot="greedy")
