"""The demos-sim command line for Protocole: summaries, JSON, records, one-line errors,
workers; DĒMOS stays the default game."""

import json
import subprocess
import sys

import pytest
from referee_protocole import audit_protocole

from demos_sim.cli import main


def run(*args):
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", *args], capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_simulate_each_json(capsys):
    assert main(["simulate", "--game", "protocole", "--players", "3", "--games", "3000",
                 "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for k in ("games_per_s", "rounds_per_s", "sides", "seats", "no_winner_share",
              "truncated_share", "mean_rounds", "seed", "variants", "version", "git_revision",
              "policies", "contract"):
        assert k in out
    assert out["games"] == 3000 and out["policies"] == ["cautious"] * 3 and len(out["sides"]) == 3
    total = sum(s["share"] for s in out["sides"]) + out["no_winner_share"] + out["truncated_share"]
    assert abs(total - 1) < 1e-9  # M1
    for s in out["seats"]:
        assert 0 <= s["eliminated"] <= 1 and s["points"] >= 0


def test_simulate_coop_json(capsys):
    assert main(["simulate", "--game", "protocole", "--mode", "coop", "--level", "2",
                 "--games", "3000", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["policies"] == ["convention"] * 4 and out["level"] == 2 and out["cooperative"]
    # P5.2: every seat carries the team's outcome
    assert len({s["share"] for s in out["sides"]}) == 1
    outcome = out["metrics"]["outcome"]["bins"]
    assert outcome["win"]["mean"] == out["sides"][0]["share"]
    assert out["sides"][0]["wins"] == round(outcome["win"]["mean"] * 3000)
    total = sum(b["mean"] for b in outcome.values())
    assert abs(total - 1) < 1e-9
    assert out["games_per_s"] > 0


def test_simulate_text_summaries(capsys):
    assert main(["simulate", "--game", "protocole", "--games", "500", "--policies",
                 "cautious,random,cautious,random"]) == 0
    out = capsys.readouterr().out
    assert "win share" in out and "eliminated" in out and "points" in out
    assert "games/s" in out
    assert main(["simulate", "--game", "protocole", "--mode", "coop", "--level", "1",
                 "--players", "2", "--games", "500"]) == 0
    out = capsys.readouterr().out
    assert "the team wins" in out and "loss reinforced" in out and "loss elimination" in out


def test_simulate_same_numbers_for_any_worker_count(capsys):
    args = ["simulate", "--game", "protocole", "--games", "9000", "--seed", "5",
            "--policies", "random", "--json"]
    main(args + ["--workers", "1"])
    one = json.loads(capsys.readouterr().out)
    main(args + ["--workers", "2"])
    two = json.loads(capsys.readouterr().out)
    for k in ("sides", "seats", "metrics", "no_winner_share", "truncated_share", "mean_rounds",
              "rounds"):
        assert one[k] == two[k]


@pytest.mark.parametrize("mode", [["--mode", "each"], ["--mode", "coop", "--level", "3"]])
def test_record_writes_audited_jsonl(tmp_path, mode):
    out = tmp_path / "p.jsonl"
    assert main(["record", "--game", "protocole", *mode, "--players", "2", "--games", "4",
                 "--seed", "1", "--policies", "random", "--set", "round_cap=3",
                 "--set", "standard_tie=discard_all", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    for i, line in enumerate(lines):
        rec = json.loads(line)
        assert rec["seed"] == [1, 0, i] and rec["variants"]["round_cap"] == 3
        assert audit_protocole(rec) == []
    assert not list(tmp_path.glob("*.part"))


@pytest.mark.parametrize("mode", [["--mode", "each"], ["--mode", "coop", "--level", "2"]])
def test_record_and_simulate_with_majority_scope(tmp_path, capsys, mode):
    """P3.1a: --set majority_scope=per_dimension reaches the games: records carry it
    (contract 2) and audit clean, and simulate reports it in its configuration."""
    out = tmp_path / "p.jsonl"
    assert main(["record", "--game", "protocole", *mode, "--games", "6", "--seed", "2",
                 "--set", "majority_scope=per_dimension", "--out", str(out)]) == 0
    for line in out.read_text().splitlines():
        rec = json.loads(line)
        assert rec["contract"] == 2 and rec["variants"]["majority_scope"] == "per_dimension"
        assert audit_protocole(rec) == []
    capsys.readouterr()
    assert main(["simulate", "--game", "protocole", *mode, "--games", "500", "--seed", "2",
                 "--set", "majority_scope=per_dimension", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variants"]["majority_scope"] == "per_dimension" and summary["contract"] == 2


@pytest.mark.parametrize("args, fragment", [
    (["--players", "5"], "2–4"),
    (["--players", "1"], "2–4"),
    (["--mode", "coop"], "needs a level"),
    (["--mode", "coop", "--level", "4"], "level must be 1, 2 or 3"),
    (["--level", "2"], "coop mode only"),
    (["--mode", "individual"], "unknown Protocole mode"),
    (["--policies", "greedy"], "unknown Protocole policy 'greedy'"),
    (["--policies", "random,random"], "names 2 policies for 4 players"),
    (["--set", "nosuch=1"], "unknown Protocole variant 'nosuch'"),
    (["--set", "standard_tie=maybe"], "standard_tie must be one of"),
    (["--set", "majority_scope=both"], "majority_scope must be one of"),        # P3.1a
    (["--set", "round_cap=0"], "round_cap"),
    (["--rules", "simplified"], "--rules does not apply to Protocole"),
    (["--seating", "ABAB"], "--seating does not apply to Protocole"),
])
def test_bad_input_is_one_line_error(tmp_path, args, fragment):
    out = tmp_path / "x.jsonl"
    code, stdout, stderr = run("record", "--game", "protocole", *args, "--games", "2",
                               "--out", str(out))
    assert code == 2
    assert stderr.count("\n") == 1 and stderr.startswith("demos-sim: error:"), stderr
    assert fragment in stderr, stderr
    assert not out.exists() and not list(tmp_path.iterdir())


def test_level_refused_for_demos():
    code, _, stderr = run("simulate", "--level", "2", "--games", "2")
    assert code == 2 and "--level" in stderr and stderr.count("\n") == 1


def test_policies_lists_protocole_policies(capsys):
    assert main(["policies", "--game", "protocole"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    for name in ("random", "cautious", "convention"):
        assert name in names
    assert "greedy" not in names
    assert main(["policies"]) == 0
    assert "greedy" in capsys.readouterr().out


def test_protocole_page_norm_selection_doctest():
    """The Protocole page's Norm-selection examples run as written."""
    import doctest
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "reference" / "protocole.md"
    text = page.read_text()
    section = text[text.index("## Norm selection"):]
    block = re.search(r"```python\n(>>> .*?)```", section, re.S).group(1)
    test = doctest.DocTestParser().get_doctest(block, {}, "protocole.md", str(page), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3


PLUGIN = '''
import numba
from demos_sim.protocole.policies import POLICY_SIG, register

@register("t_first_plugin", description="test plugin: always the first legal option")
@numba.njit(POLICY_SIG, cache=False)
def t_first_plugin(cfg, obs, opts, n_opts, params, rng):
    return 0
'''


def test_plugin_policy_reaches_every_worker(tmp_path):
    """--plugin registers a user's Protocole policy in the worker processes too."""
    plugin = tmp_path / "firstplug.py"
    plugin.write_text(PLUGIN)
    args = ["simulate", "--game", "protocole", "--plugin", str(plugin), "--policies",
            "t_first_plugin,cautious,cautious,cautious", "--games", "5000", "--json"]
    outs = []
    for workers in ("1", "2"):
        code, stdout, stderr = run(*args, "--workers", workers)
        assert code == 0, stderr
        outs.append(json.loads(stdout))
    assert outs[0]["policies"][0] == "t_first_plugin"
    assert outs[0]["seats"] == outs[1]["seats"]
