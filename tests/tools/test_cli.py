"""The demos-sim command line: summaries, JSON, records, one-line errors, workers."""

import json
import subprocess
import sys

import pytest
from referee_demos import audit_demos

from demos_sim.cli import main


def run(*args):
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", *args], capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_simulate_json_has_the_documented_keys(capsys):
    assert main(["simulate", "--games", "300", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for k in ("rounds_per_s", "games_per_s", "sides", "no_winner_share", "truncated_share",
              "mean_rounds", "seed", "variants", "version", "git_revision"):
        assert k in out
    assert out["games"] == 300
    total = sum(s["share"] for s in out["sides"]) + out["no_winner_share"] + out["truncated_share"]
    assert abs(total - 1) < 1e-9  # M1: every game is a win (shared or not) or counted apart
    for s in out["sides"]:
        assert s["ci95"][0] <= s["share"] <= s["ci95"][1]


def test_simulate_same_numbers_for_any_worker_count(capsys):
    args = ["simulate", "--games", "9000", "--seed", "5", "--policies", "random", "--json"]
    main(args + ["--workers", "1"])
    one = json.loads(capsys.readouterr().out)
    main(args + ["--workers", "2"])
    two = json.loads(capsys.readouterr().out)
    for k in ("sides", "no_winner_share", "truncated_share", "mean_rounds", "rounds"):
        assert one[k] == two[k]


def test_simulate_text_summary_team_mode(capsys):
    assert main(["simulate", "--mode", "2v2+1", "--games", "200", "--policies",
                 "greedy,random,greedy,random,greedy"]) == 0
    out = capsys.readouterr().out
    assert "win share" in out and "rounds/s" in out
    for label in ("A", "B", "I"):
        assert any(line.split()[:1] == [label] for line in out.splitlines())


def test_record_writes_valid_jsonl(tmp_path):
    out = tmp_path / "g.jsonl"
    assert main(["record", "--game", "demos", "--rules", "simplified", "--mode", "individual",
                 "--players", "5", "--games", "4", "--seed", "1", "--policies", "greedy",
                 "--set", "max_rounds=5", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        rec = json.loads(line)
        assert rec["variants"]["max_rounds"] == 5
        assert audit_demos(rec) == []
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("args, fragment", [
    (["--players", "6"], "D2.3"),
    (["--players", "2"], "3–5 players"),
    (["--mode", "2v3", "--players", "4"], "takes 5 players"),
    (["--mode", "2v2", "--rules", "simplified"], "full rules"),
    (["--mode", "2v2", "--seating", "AABC"], "does not fit mode 2v2"),
    (["--mode", "2v2+1", "--seating", "ABABA"], "Independent"),
    (["--policies", "nosuch"], "unknown DĒMOS policy 'nosuch'"),
    (["--policies", "greedy,random"], "names 2 policies for 4 players"),
    (["--policies", "greedy:nosuch"], "no restricted form"),
    (["--set", "nosuch=1"], "unknown DĒMOS variant 'nosuch'"),
    (["--set", "no_trio_winner=maybe"], "no_trio_winner must be one of"),
    (["--set", "run_base=[1,2]"], "run_base"),
    (["--set", "media_optional=1"], "true or false"),
    (["--set", "max_rounds=0"], "max_rounds"),
    (["--set", "carre_points=-1"], "carre_points"),
    # past int64 (9223372036854775807): an OverflowError when packed for the kernel
    (["--set", "carre_points=99999999999999999999999999"], "carre_points is at most 1000000"),
    (["--set", "run_base=[1,2,99999999999999999999]"], "from 0 to 1000000"),
    (["--set", "round_cap=10001"], "round_cap is at most 10000"),
    (["--mode", "2v3", "--handicap-points", "99999999999999999999"], "from 0 to 1000000"),
    (["--game", "protocole", "--set", "round_cap=99999999999999999999"], "at most 10000"),
    (["--game", "assemblee", "--set", "collapse_threshold=99999999999999999999"],
     "from 1 to 1000000"),
    (["--seed", "-1"], "--seed must be a whole number >= 0, got -1"),
    (["--game", "chess"], "unknown game 'chess'"),
])
def test_bad_input_is_one_line_error(tmp_path, args, fragment):
    out = tmp_path / "x.jsonl"
    code, stdout, stderr = run("record", *args, "--games", "2", "--out", str(out))
    assert code == 2
    assert stderr.count("\n") == 1 and stderr.startswith("demos-sim: error:"), stderr
    assert fragment in stderr, stderr
    assert not out.exists() and not list(tmp_path.iterdir())


def test_record_into_missing_folder_is_refused(tmp_path):
    code, _, stderr = run("record", "--games", "1", "--out", str(tmp_path / "no" / "x.jsonl"))
    assert code == 2 and "does not exist" in stderr


def test_policies_lists_the_builtins(capsys):
    assert main(["policies"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "greedy" in out


def test_simulate_header_names_the_variants_set(capsys):
    """The text summary says which Part V variants differ from the defaults, and only those."""
    assert main(["simulate", "--mode", "2v2", "--games", "50", "--set", "team_trio=pooled",
                 "--set", "team_talk=figures"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "variants: team_trio=pooled"
    assert main(["simulate", "--games", "50"]) == 0
    assert not any(line.startswith("variants:") for line in capsys.readouterr().out.splitlines())


@pytest.mark.parametrize("game", ["demos", "protocole", "assemblee"])
def test_variants_lists_every_part_v_variant(capsys, game):
    """``demos-sim variants`` lists every variant of the game, each with its rule ID, and
    then, apart, the trial rules that are not in the contract (DĒMOS: handicap_points)."""
    import importlib
    import re

    assert main(["variants", "--game", game]) == 0
    out = capsys.readouterr().out.splitlines()
    names = importlib.import_module(f"demos_sim.{game}.rules").VARIANTS
    end = next(i for i, line in enumerate(out) if line.startswith("set one with"))
    listed = {line.split()[0]: line for line in out[1:end]}
    assert set(listed) == set(names)
    for line in listed.values():
        assert re.search(r"\b[DPAX]\d", line), line
    trial = out[end + 1:]
    if game == "demos":
        assert trial[1].startswith("trial rules (not in the contract")
        assert trial[2].split()[0] == "handicap_points" and "not in contract 2" in trial[2]
        assert "--handicap-points N" in trial[3]
    else:
        assert trial == []


BIG = "99999999999999999999"   # past int64's 9223372036854775807: once played as budget 1


@pytest.mark.parametrize("args", [
    ["simulate", "--policies", f"ismcts@{BIG}", "--games", "1"],
    ["tournament", "--policies", f"greedy,ismcts@{BIG}", "--games", "1"],
    ["skill", "--policy", "ismcts", "--budgets", f"4,{BIG}", "--games", "2"],
    ["record", "--policies", f"search@{BIG}", "--games", "1", "--out", "/nonexistent/x"],
])
def test_a_budget_past_the_maximum_is_one_line(capsys, args):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the budget is at most 1000000" in err, err


@pytest.mark.parametrize("args", [
    ["simulate"], ["tournament", "--policies", "greedy,random"],
    ["skill", "--policy", "ismcts", "--budgets", "4,8"],
    ["record", "--out", "/nonexistent/x.jsonl"],
])
def test_a_negative_seed_is_one_line(capsys, args):
    assert main([*args, "--seed", "-1", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed must be a whole number >= 0, got -1" in err, err


def test_record_into_a_folder_is_one_line_before_playing(tmp_path, capsys):
    assert main(["record", "--games", "100000", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a folder; give a file name" in err, err
    assert list(tmp_path.iterdir()) == []


def test_skill_out_naming_a_file_is_one_line_before_playing(tmp_path, capsys):
    f = tmp_path / "taken"
    f.write_text("mine")
    assert main(["skill", "--policy", "ismcts", "--budgets", "4,8", "--games", "100000",
                 "--out", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file; it names the folder" in err, err
    assert f.read_text() == "mine"


def test_report_compare_out_naming_a_file_is_one_line(tmp_path, capsys):
    from pathlib import Path

    demo = Path(__file__).resolve().parents[2] / "results" / "demo"
    if not (demo / "meta.json").exists():
        pytest.fail("results/demo (committed) is missing")
    f = tmp_path / "taken"
    f.write_text("mine")
    assert main(["report", "--compare", str(demo), str(demo), "--out", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a file is where a folder is needed" in err, err
    assert f.read_text() == "mine"


def test_disk_full_while_recording_is_one_line_and_leaves_nothing(tmp_path, capsys,
                                                                  monkeypatch):
    import errno
    import os

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "g.jsonl"
    assert main(["record", "--games", "3", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("demos-sim: error: No space left on device")
    assert "no file was left half-written" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("hw", ["inf", "nan", "-0.01", "0"])
def test_compare_half_width_must_be_finite_and_positive(capsys, hw):
    assert main(["compare", "--set", "carre_points=20", "--half-width", hw]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--half-width must be a finite number > 0" in err, err
