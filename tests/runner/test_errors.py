"""Every malformed or inconsistent experiment file is refused with one line naming the
file, the key and the problem, before any game is played or any folder is made."""

import subprocess
import sys

import pytest

from demos_sim.cli import main

BASE = """game = "demos"
seed = 1
games = 100
[grid]
carre_points = [30, 20]
"""
STOP = 'game = "demos"\nseed = 1\n[stop]\nhalf_width = 0.01\nmax_games = 100\n'

CASES = [
    # unknown keys
    ('colour = "red"\n' + BASE, "colour", "unknown key"),
    (STOP + "foo = 1\n", "stop.foo", "unknown key"),
    # wrong types
    (BASE.replace("seed = 1", 'seed = "one"'), "seed", "must be an integer >= 0"),
    (BASE.replace("games = 100", "games = 1.5"), "games", "must be an integer >= 1"),
    (BASE.replace("games = 100", "games = true"), "games", "must be an integer >= 1"),
    (BASE.replace("games = 100", "games = 0"), "games", "must be an integer >= 1"),
    ('players = "four"\n' + BASE, "players", "integer or a non-empty list of integers"),
    ("players = [4, 4]\n" + BASE, "players", "twice"),
    ("policies = 3\n" + BASE, "policies", "non-empty list of strings"),
    ("variants = 3\n" + BASE, "variants", "must be a table"),
    (BASE.replace("[30, 20]", "20"), "grid.carre_points", "must be a list"),
    ('name = "../up"\n' + BASE, "name", "folder name"),
    ('description = 3\n' + BASE, "description", "must be a string"),
    ('metrics = "win_share"\n' + BASE, "metrics", "non-empty list of strings"),
    # variants that do not exist, values the game refuses
    (BASE + "[variants]\nnosuch = 1\n", "variants.nosuch", "unknown DĒMOS variant 'nosuch'"),
    (BASE + "nosuch = [1, 2]\n", "grid.nosuch", "unknown DĒMOS variant 'nosuch'"),
    (BASE.replace("[30, 20]", "[30, -1]"), "grid.carre_points", "must be an integer >= 0"),
    # past int64: once an OverflowError after the results folder was made
    (BASE.replace("[30, 20]", "[30, 99999999999999999999999999]"), "grid.carre_points",
     "at most 1000000"),
    (BASE + "[variants]\nround_cap = 99999999999\n", "variants.round_cap", "at most 10000"),
    (BASE + 'no_trio_winner = ["none", "maybe"]\n', "grid.no_trio_winner", "must be one of"),
    (BASE + "[variants]\nmedia_optional = 1\n", "variants.media_optional", "true or false"),
    (BASE + "[variants]\ncarre_points = 30\n", "grid.carre_points", "also fixed in [variants]"),
    # empty or inconsistent grids
    (BASE.replace("carre_points = [30, 20]\n", ""), "grid", "is empty"),
    (BASE.replace("[30, 20]", "[]"), "grid.carre_points", "empty list"),
    (BASE.replace("[30, 20]", "[30, 30]"), "grid.carre_points", "repeats a value"),
    (BASE + "[baseline]\ncarre_points = 25\n", "baseline.carre_points", "not one of the grid"),
    (BASE + "[baseline]\nround_cap = 25\n", "baseline.round_cap", "not a grid key"),
    (BASE.replace("[grid]\ncarre_points = [30, 20]\n", "[baseline]\ncarre_points = 30\n"),
     "baseline", "needs a [grid]"),
    ('policies = ["greedy"]\n' + BASE + 'policies = [["random"], ["greedy"]]\n',
     "grid.policies", "also given as policies"),
    # game, settings, players, policies
    (BASE.replace('"demos"', '"chess"'), "game", "unknown game 'chess'"),
    (BASE.replace('game = "demos"\n', ""), "game", "missing"),
    (BASE.replace("seed = 1\n", ""), "seed", "missing"),
    (BASE.replace("games = 100\n", ""), "games", "missing"),
    ('rules = "fancy"\n' + BASE, "rules", "must be one of full, simplified"),
    ('mode = "3v3"\n' + BASE, "mode", "must be one of"),
    ('mode = "2v2"\nplayers = 5\n' + BASE, "players", "mode 2v2 takes 4 players"),
    ("players = 6\n" + BASE, "players", "D2.3"),
    ('rules = "simplified"\nmode = "2v2"\n' + BASE, "rules", "uses the full rules"),
    ('mode = "2v2"\nseating = "AABC"\n' + BASE, "seating", "does not fit mode 2v2"),
    ('seating = "ABAB"\n' + BASE, "seating", "team modes only"),
    ('policies = ["nosuch"]\n' + BASE, "policies", "unknown DĒMOS policy 'nosuch'"),
    ('policies = ["greedy", "random"]\n' + BASE, "policies", "names 2 policies for 4 players"),
    ('policies = ["greedy@8"]\n' + BASE, "policies", "'greedy' takes no @N budget"),
    ('policies = ["ismcts@0"]\n' + BASE, "policies", "the budget must be at least 1"),
    (BASE + 'policies = [["greedy"], ["greedy:nosuch"]]\n', "grid.policies",
     "no restricted form"),
    ('plugins = ["no/such/file.py"]\n' + BASE, "plugins", "does not exist"),
    # metrics and the stopping rule
    ('metrics = ["elo"]\n' + BASE, "metrics", "unknown metric 'elo'"),
    (STOP.replace("0.01", '"narrow"'), "stop.half_width", "must be a finite number > 0"),
    (STOP.replace('seed = 1\n', 'seed = 1\ngames = 5\n'), "games", "either games or a [stop]"),
    (STOP.replace("max_games = 100\n", ""), "stop.max_games", "missing"),
    (STOP.replace("0.01", "0"), "stop.half_width", "must be a finite number > 0"),
    # an infinite target is met by any interval: the run stopped after one chunk
    (STOP.replace("0.01", "inf"), "stop.half_width", "must be a finite number > 0"),
    (STOP.replace("0.01", "nan"), "stop.half_width", "must be a finite number > 0"),
    (STOP.replace("max_games = 100", "max_games = -3"), "stop.max_games", "integer >= 1"),
    (STOP + 'track = ["elo"]\n', "stop.track", "unknown or unreported metric 'elo'"),
    (STOP + 'track = ["diff:win_share"]\n', "stop.track", "needs a grid of at least two"),
    ('metrics = ["rounds"]\n' + STOP + 'track = ["points"]\n', "stop.track",
     "unknown or unreported metric 'points'"),
]


@pytest.mark.parametrize("text, key, fragment", CASES,
                         ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)])
def test_bad_experiment_is_one_line_naming_file_key_problem(tmp_path, capsys, text, key,
                                                            fragment):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"demos-sim: error: {path}: {key}: "), err
    assert fragment in err, err
    assert not out.exists()


def test_invalid_toml_and_missing_file(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("game = demos\n")
    assert main(["run", str(bad), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"demos-sim: error: {bad}: invalid TOML") and err.count("\n") == 1
    assert main(["run", str(tmp_path / "none.toml")]) == 2
    assert "none.toml: file not found" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args, fragment", [
    (["--games", "0"], "--games must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
])
def test_bad_run_options(tmp_path, capsys, args, fragment):
    path = tmp_path / "ok.toml"
    path.write_text(BASE)
    assert main(["run", str(path), "--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err
    assert not (tmp_path / "o").exists()


def test_exit_status_2_and_no_traceback_from_the_command(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BASE + "[variants]\nnosuch = 1\n")
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "run", str(path)],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.startswith(f"demos-sim: error: {path}: variants.nosuch: unknown DĒMOS "
                               "variant 'nosuch' (known: carre_points, ")
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert not (tmp_path / "results").exists()
