"""``demos-sim skill``: the skill trace's arithmetic, Holm and depth, bad input, determinism,
a tiny real run that writes its files, and the game-generic path (a toy budgeted plugin in
Protocole all together, where the gain is a paired win-rate difference)."""

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.cli import main
from demos_sim.skill import (
    budget_specs, gain_of, holm_depth, parse_budgets, skill_trace, title, write_trace,
)
from demos_sim.tournament import Match, make_config

DEMOS4 = make_config("demos", 4, rules="full")


# ------------------------------------------------------------------ arithmetic by hand


def test_gain_of_a_competitive_match_is_the_win_share_minus_a_half_by_hand():
    # two rotations per deal; A's and B's M1 wins summed over them, four deals
    a = np.array([2.0, 1.0, 1.0, 0.0])
    b = np.array([0.0, 1.0, 0.0, 1.0])
    m = Match("demos", ("x@8", "x@4"), 4, 0, ["ABAB", "BABA"], a, b, 0.0)
    g = gain_of(m)
    # W = Σa / Σ(a + b) = 4 / 6; z_g = a_g - W (a_g + b_g) = (2 - 4/3, 1 - 4/3, 1 - 2/3, -2/3)
    w = 4 / 6
    z = a - w * (a + b)
    se = z.std(ddof=1) / (np.mean(a + b) * 2)          # sd(z) / (mean(a + b) sqrt(4))
    assert g["measure"] == "win share - 0.5"
    assert g["gain"] == pytest.approx(w - 0.5, abs=1e-12)
    assert g["se"] == pytest.approx(se, rel=1e-12)
    assert g["ci_lo"] == pytest.approx(w - 1.959963984540054 * se - 0.5, rel=1e-9)
    # the tournament clips the interval to [0, 1]: at 4 deals the upper end is clipped
    assert w + 1.959963984540054 * se > 1 and g["ci_hi"] == 0.5
    # two-sided normal p of z = gain / se
    assert g["p"] == pytest.approx(math.erfc(abs(w - 0.5) / se / math.sqrt(2)), rel=1e-9)


def test_gain_of_a_cooperative_match_is_the_paired_win_rate_difference():
    a = np.array([1.0, 1.0, 0.0, 1.0, 0.0])          # the larger budget's team won
    b = np.array([0.0, 1.0, 0.0, 0.0, 0.0])
    m = Match("protocole", ("x@8", "x@4"), 5, 0, [], a, b, 0.0, coop=True)
    g = gain_of(m)
    d = a - b                                         # (1, 0, 0, 1, 0): mean 0.4
    se = d.std(ddof=1) / math.sqrt(5)
    assert g["measure"] == "win-rate difference"
    assert g["gain"] == pytest.approx(0.4)
    assert g["se"] == pytest.approx(se, rel=1e-9)
    assert g["ci_lo"] == pytest.approx(0.4 - 1.959963984540054 * se, rel=1e-9)


def test_skill_depth_counts_positive_gains_significant_after_holm():
    # raw p 0.001, 0.02, 0.04, 0.3: three below 5%, but Holm multiplies by 4, 3, 2, 1 and
    # keeps the order (0.004, 0.06, 0.08, 0.3): only the first stays significant
    steps = [{"gain": 0.05, "p": 0.02}, {"gain": 0.10, "p": 0.001},
             {"gain": 0.01, "p": 0.3}, {"gain": 0.03, "p": 0.04}]
    assert holm_depth(steps) == 1
    assert [s["p_holm"] for s in steps] == pytest.approx([0.06, 0.004, 0.3, 0.08])
    assert [s["significant"] for s in steps] == [False, True, False, False]
    # a significant *loss* is not a gain: it does not count toward the depth
    steps = [{"gain": -0.2, "p": 1e-6}, {"gain": 0.2, "p": 1e-6}]
    assert holm_depth(steps) == 1
    assert [s["significant"] for s in steps] == [False, True]


def test_the_sentence_title_names_the_depth():
    t = {"policy": "ismcts", "budgets": [4, 8, 16], "skill_depth": 1,
         "steps": [{"low": 4, "high": 8, "significant": True},
                   {"low": 8, "high": 16, "significant": False}]}
    assert title(t) == ("1 of 2 doublings of ismcts (@4 to @16) make it stronger, the last "
                        "@4→@8 (skill depth 1)")
    t["skill_depth"] = 0
    t["steps"][0]["significant"] = False
    assert title(t).startswith("No doubling of ismcts from @4 to @16")


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("text, says", [
    ("8", "at least two budgets"), ("4,4", "must increase: 4 after 4"),
    ("8,4", "must increase"), ("4,x", "'x' is not a whole number"),
    ("0,4", "'0' is not a whole number"), ("4,-8", "is not a whole number"), ("", "at least two"),
])
def test_bad_budgets_are_one_line_errors(text, says):
    with pytest.raises(ConfigError, match=says):
        parse_budgets(text)


def test_budget_specs_refuse_a_policy_without_a_budget_or_with_one_already():
    assert budget_specs("demos", DEMOS4, "ismcts", [4, 8]) == ["ismcts@4", "ismcts@8"]
    with pytest.raises(ConfigError, match="'greedy' takes no @N budget"):
        budget_specs("demos", DEMOS4, "greedy", [4, 8])
    with pytest.raises(ConfigError, match="without '@N'"):
        budget_specs("demos", DEMOS4, "ismcts@4", [4, 8])
    with pytest.raises(ConfigError, match="unknown"):
        budget_specs("demos", DEMOS4, "nope", [4, 8])


@pytest.mark.parametrize("args", [
    ["--policy", "ismcts", "--budgets", "8"],
    ["--policy", "ismcts", "--budgets", "8,4"],
    ["--policy", "ismcts@2", "--budgets", "2,4"],
    ["--policy", "greedy", "--budgets", "2,4"],
    ["--policy", "ismcts", "--budgets", "2,4", "--games", "1"],
    ["--policy", "ismcts", "--budgets", "2,4", "--ceiling", "nope"],
    ["--game", "protocole", "--policy", "planner", "--budgets", "2,4"],
    ["--policy", "ismcts", "--budgets", "2,4", "--level", "2"],
    ["--policy", "ismcts", "--budgets", "2,4", "--seed", "-1"],
    ["--policy", "ismcts", "--budgets", "2,4", "--workers", "0"],
    ["--policy", "ismcts", "--budgets", "2,4", "--scheduler", "tcp://x:1"],
])
def test_cli_bad_input_is_one_line_and_exit_2(args, capsys):
    assert main(["skill", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("demos-sim: error: ") and "\n" not in err


# ------------------------------------------------------------------ real runs, small


def _numbers(t):
    return [{k: v for k, v in s.items() if k != "wall_s"} for s in t["steps"]]


def test_same_seed_same_trace_and_another_seed_other_games():
    t1 = skill_trace("demos", DEMOS4, "ismcts", "1,2,4", 6, seed=5)
    t2 = skill_trace("demos", DEMOS4, "ismcts", [1, 2, 4], 6, seed=5)
    assert _numbers(t1) == _numbers(t2)
    assert t1["skill_depth"] == t2["skill_depth"]
    t3 = skill_trace("demos", DEMOS4, "ismcts", "1,2,4", 6, seed=6)
    assert _numbers(t3) != _numbers(t1)


def test_workers_and_a_resume_folder_leave_the_numbers_alone(tmp_path):
    """Each step is a match through the runner's play call: two workers give the trace of
    one, and the same trace run again with its resume folder reads every game back."""
    one = skill_trace("demos", DEMOS4, "ismcts", "1,2,4", 6, seed=5, ceiling="greedy")
    two = skill_trace("demos", DEMOS4, "ismcts", "1,2,4", 6, seed=5, ceiling="greedy",
                      workers=2, store=tmp_path)
    assert _numbers(two) == _numbers(one)
    assert {k: v for k, v in two["ceiling"].items() if k != "wall_s"} == \
        {k: v for k, v in one["ceiling"].items() if k != "wall_s"}
    assert one["run"]["backend"] == "inline" and two["run"]["backend"] == "local"
    assert two["run"] == {"games_played": 36, "games_resumed": 0, "backend": "local",
                          "workers": 2}                  # 3 matches × 6 deals × 2 rotations
    again = skill_trace("demos", DEMOS4, "ismcts", "1,2,4", 6, seed=5, ceiling="greedy",
                        workers=2, store=tmp_path)
    assert again["run"]["games_resumed"] == 36 and again["run"]["games_played"] == 0
    assert _numbers(again) == _numbers(one)


def test_tiny_cli_run_writes_the_files_with_provenance(tmp_path, capsys):
    out = tmp_path / "trace"
    assert main(["skill", "--game", "demos", "--players", "4", "--policy", "ismcts",
                 "--budgets", "1,2", "--games", "4", "--seed", "3", "--ceiling", "heuristic",
                 "--speed-games", "2", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "skill depth" in text and "@1 → @2" in text and "ceiling: heuristic vs ismcts@2" in text
    for name in ("skill.csv", "skill.json", "skill.md", "skill.png"):
        assert (out / name).stat().st_size > 0
    rows = list(csv.DictReader(open(out / "skill.csv")))
    assert [r["row"] for r in rows] == ["step", "ceiling"]
    assert rows[0]["policy"] == "ismcts@2" and rows[0]["against"] == "ismcts@1"
    assert rows[0]["games"] == "8"                   # 4 deals × rotations ABAB, BABA
    t = json.loads((out / "skill.json").read_text())
    for key in ("seed", "config", "contract", "version", "git_revision", "command"):
        assert key in t
    assert t["seed"] == 3 and t["config"]["players"] == 4 and t["budgets"] == [1, 2]
    assert [s["budget"] for s in t["speed"]] == [1, 2]
    assert all(s["games_per_s"] > 0 for s in t["speed"])
    # the written command regenerates the same numbers
    assert t["command"].startswith("demos-sim skill --game demos --players 4 --policy ismcts")
    argv = t["command"].split()[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "again")
    assert main(argv) == 0
    again = json.loads((tmp_path / "again" / "skill.json").read_text())
    assert _numbers(again) == _numbers(t)
    md = (out / "skill.md").read_text()
    assert "Regenerate: `demos-sim skill --game demos" in md and "Holm" in md


def test_team_mode_trace_rotates_sides():
    cfg = make_config("demos", None, mode="2v2")
    t = skill_trace("demos", cfg, "ismcts", "1,2", 4, seed=1)
    assert t["steps"][0]["games"] == 8               # rotations AB, BA
    assert t["config"]["mode"] == "2v2"


TOY = '''
import numba
from demos_sim.protocole.policies import POLICY_SIG, register
from demos_sim.protocole.policies.basic import CONVENTION_PARAMS, convention
from demos_sim.rng import below

PARAMS = list(CONVENTION_PARAMS) + [0.0] * (31 - len(CONVENTION_PARAMS)) + [1.0]

@register("t_budgeted", params=PARAMS, budget=31,
          description="test plugin: random with chance 1/N, else convention")
@numba.njit(POLICY_SIG, cache=False)
def t_budgeted(cfg, obs, opts, n_opts, params, rng):
    if below(rng, 0, int(params[31])) == 0:
        return below(rng, 0, n_opts)
    return convention(cfg, obs, opts, n_opts, params, rng)
'''


def test_generic_path_cooperative_game_with_a_toy_budgeted_plugin(tmp_path):
    """Protocole all together (P5), level 2: a toy whose budget N plays convention except
    with chance 1/N. @1 is uniform random, @8 plays convention 7/8 of the time: the paired
    win-rate difference of 1 → 8 must be significant and positive over 600 deals (measured
    +0.218 [+0.185, +0.252], about 13 standard errors, so the check has no realistic false
    failure); 8 → 16 is reported whatever it is."""
    plugin = tmp_path / "toybudget.py"
    plugin.write_text(TOY)
    from demos_sim.game import get_game

    get_game("protocole").load_plugin(str(plugin))
    cfg = make_config("protocole", 4, mode="coop", level=2)
    t = skill_trace("protocole", cfg, "t_budgeted", "1,8,16", 600, seed=2,
                    plugins=(str(plugin),), ceiling="convention")
    assert t["cooperative"] and t["steps"][0]["measure"] == "win-rate difference"
    first = t["steps"][0]
    assert first["gain"] > 0 and first["significant"]
    assert first["games"] == 1200                    # each budget plays every seat, 600 deals
    assert t["skill_depth"] == sum(s["significant"] for s in t["steps"]) >= 1
    assert t["ceiling"]["policy"] == "convention" and t["ceiling"]["against"] == "t_budgeted@16"
    write_trace(tmp_path / "out", t)
    assert "paired win-rate difference" in (tmp_path / "out" / "skill.md").read_text()


# ------------------------------------------------------------------ the committed traces


DEMOS_TABLE = "| step | DĒMOS full 4p | DĒMOS 2v2 |"
PROTOCOLE_TABLE = "| step | Protocole each 4p | Protocole all together, level 2 |"


@pytest.mark.parametrize("folder, column, table", [
    ("demos-4p", 1, DEMOS_TABLE), ("demos-2v2", 2, DEMOS_TABLE),
    ("protocole-each-4p", 1, PROTOCOLE_TABLE), ("protocole-coop-l2-4p", 2, PROTOCOLE_TABLE)])
def test_committed_traces_match_the_skill_page_and_make_skill(folder, column, table):
    """results/skill/<folder>/skill.json is what the skill page's table quotes (3 decimals,
    bold where significant, the depth, the gap to the omniscient ceiling) and was made by
    the command `make skill` runs."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    t = json.loads((root / "results" / "skill" / folder / "skill.json").read_text())
    page = (root / "docs" / "method" / "skill.md").read_text()
    whole = page[page.index("## How strong are the bots? The skill trace"):]
    section = whole[whole.index(table):]
    num = lambda x: f"{x:+.3f}".replace("-", "−")       # noqa: E731
    for s in t["steps"]:
        row = re.search(rf"^\| @{s['low']} → @{s['high']} \|(.*)$", section, re.M).group(1)
        cell = row.split("|")[column - 1].strip()
        gain = f"**{num(s['gain'])}**" if s["significant"] else num(s["gain"])
        assert cell == f"{gain} [{num(s['ci_lo'])}, {num(s['ci_hi'])}]"
    depth = re.search(r"^\| skill depth \(Holm\) \|(.*)$", section, re.M).group(1)
    assert depth.split("|")[column - 1].strip() == f"{t['skill_depth']} of {len(t['steps'])}"
    c = t["ceiling"]
    assert c["policy"] == "omniscient"
    top = "@" + c["against"].split("@")[1]
    row = re.search(rf"^\| omniscient − {top} \|(.*)$", section, re.M).group(1)
    assert row.split("|")[column - 1].strip() == (f"{num(c['gain'])} [{num(c['ci_lo'])}, "
                                                  f"{num(c['ci_hi'])}]")
    make = (root / "Makefile").read_text()
    assert "$(VENV)/bin/" + t["command"] in make
    assert t["command"] in whole
    assert t["git_revision"] and not t["git_revision"].endswith("-dirty")


@pytest.mark.parametrize("folder", sorted(p.name for p in (Path(__file__).resolve().parents[2]
                                                           / "results" / "skill").iterdir()))
def test_every_committed_trace_comes_from_make_skill_at_a_clean_checkout(folder):
    """Each results/skill/<folder> (the belief trace too, which its page shows whole) was
    written by a command that `make skill` runs, from a committed revision."""
    root = Path(__file__).resolve().parents[2]
    t = json.loads((root / "results" / "skill" / folder / "skill.json").read_text())
    assert "$(VENV)/bin/" + t["command"] in (root / "Makefile").read_text()
    assert t["command"].endswith(f"--out results/skill/{folder}")
    assert t["git_revision"] and not t["git_revision"].endswith("-dirty")
