"""A restricted form whose decision never arises under the chosen rules is refused with one
line naming the rule and what enables it (demos_sim/restricted.py), at every command, and
accepted under the rules that enable it. Nothing here plays a game: every refusal comes
before the first one."""

import subprocess
import sys
from pathlib import Path

import pytest

from demos_sim import ConfigError
from demos_sim.game import get_game
from demos_sim.restricted import check_specs, flag_of, form_of, idle_reason

ROOT = Path(__file__).resolve().parents[2]
DEMOS = get_game("demos")
NOMEDIA_LINE = ("greedy:nomedia cannot decline the Media: it is compulsory under D6.2 "
                "unless media_optional = true")


def demos(rules="full", mode="individual", players=4, **variants):
    return DEMOS.config_from_options({"rules": rules, "mode": mode}, players, variants)


def flagged(game, flag):
    """Every registered policy of ``game`` that declares ``flag``."""
    g = get_game(game)
    return [n for n in g.policies.available() if flag in g.policies.get(n).flags]


def refused(game, config, spec) -> str:
    with pytest.raises(ConfigError) as e:
        check_specs(get_game(game), [spec], config)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


# ------------------------------------------------------------- one case per flag, by hand


def test_nomedia_refused_while_the_media_is_compulsory():
    # D6.2: compulsory by default (media_optional = false) — the brief's own line
    assert refused("demos", demos(), "greedy:nomedia") == NOMEDIA_LINE
    # team modes too (the Media is the team's decision, still compulsory)
    assert "compulsory under D6.2" in refused("demos", demos(mode="2v2"), "heuristic:nomedia")
    # simplified rules (D8): no Media at all; both settings are named
    msg = refused("demos", demos(rules="simplified"), "greedy:nomedia")
    assert msg == ("greedy:nomedia cannot decline the Media: there is no Media under the "
                   "simplified rules (D8: no unanimous turn, no Scandal phase) unless "
                   "rules = full and media_optional = true")


@pytest.mark.parametrize("policy", flagged("demos", "nomedia"))
def test_nomedia_every_policy(policy):
    assert "D6.2" in refused("demos", demos(), f"{policy}:nomedia")
    for mode, n in (("individual", 3), ("2v2", 4), ("2v3", 5), ("2v2+1", 5)):
        cfg = demos(mode=mode, players=n, media_optional=True)
        assert check_specs(DEMOS, [f"{policy}:nomedia"], cfg) == [f"{policy}:nomedia"] * n


@pytest.mark.parametrize("policy", flagged("demos", "noveto"))
def test_noveto_needs_the_full_rules(policy):
    # D8: the simplified rules have no unanimous turn, so no veto (D3.4.1)
    msg = refused("demos", demos(rules="simplified"), f"{policy}:noveto")
    assert msg.endswith("unless rules = full")
    assert "D8" in msg and msg.startswith(f"{policy}:noveto cannot give up the veto")
    check_specs(DEMOS, [f"{policy}:noveto"], demos())                       # full: accepted
    check_specs(DEMOS, [f"{policy}:noveto"] * 5, demos(mode="2v3", players=5))


@pytest.mark.parametrize("policy", flagged("demos", "legacy"))
def test_legacy_needs_the_full_rules(policy):
    # legacy changes the veto threshold, the Media aim and the allocation: full rules only
    assert refused("demos", demos(rules="simplified"),
                   f"{policy}:legacy").endswith("unless rules = full")
    check_specs(DEMOS, [f"{policy}:legacy"], demos())


@pytest.mark.parametrize("policy", flagged("demos", "notake"))
def test_notake_applies_under_both_rule_sets(policy):
    # D3.3: the secret turn's take exists in full and simplified rules
    for rules in ("full", "simplified"):
        check_specs(DEMOS, [f"{policy}:notake"], demos(rules=rules))


def test_protocole_basic_applies_everywhere():
    g = get_game("protocole")
    for options in ({"mode": "each"}, {"mode": "coop", "level": 1},
                    {"mode": "coop", "level": 3}):
        cfg = g.config_from_options(options, 3, {})
        check_specs(g, ["ismcts:basic"], cfg)


def test_assemblee_no_character_applies_everywhere():
    g = get_game("assemblee")
    for variants in ({}, {"personalities": True}):
        cfg = g.config_from_options({}, 6, variants)
        check_specs(g, ["civic:no_thief", "adaptive:no_crier"] + ["civic"] * 4, cfg)


def test_budget_and_flag_in_either_order():
    for spec in ("ismcts:nomedia@8", "ismcts@8:nomedia"):
        assert refused("demos", demos(), spec).startswith(f"{spec} cannot decline the Media")
    assert flag_of("ismcts@8:noveto") == "noveto" and flag_of("greedy@8") == ""


def test_one_seat_is_enough_and_plain_names_pass():
    cfg = demos()
    with pytest.raises(ConfigError, match="^greedy:nomedia cannot"):
        check_specs(DEMOS, ["greedy", "greedy:nomedia", "greedy", "greedy"], cfg)
    assert idle_reason(DEMOS, cfg, "greedy") is None
    assert idle_reason(DEMOS, cfg, "greedy:notake") is None


def test_unknown_policy_still_named_first():
    with pytest.raises(ConfigError, match="unknown DĒMOS policy 'nosuch'"):
        check_specs(DEMOS, ["nosuch:nomedia"], demos())


def test_every_builtin_flag_is_declared():
    # a new flag must say under which rules it can change a decision
    for name in ("demos", "protocole", "assemblee"):
        g = get_game(name)
        for p in g.policies.available():
            for flag in g.policies.get(p).flags:
                assert form_of(g, flag) is not None, f"{name} {p}:{flag} undeclared"


# ------------------------------------------------------------- every command refuses


def test_simulate_refuses():
    from demos_sim.runner.simulate import simulate

    with pytest.raises(ConfigError, match=NOMEDIA_LINE):
        simulate("demos", demos(), ["greedy:nomedia"], games=10, seed=1)


def test_compare_refuses_either_side():
    from demos_sim.analysis.core.whatif import plan

    # the changed side: media_optional = true makes it legal there, not in the reference
    plan("demos", {}, 4, {"carre_points": 20}, against={"media_optional": True},
         policies=["greedy:nomedia"], games=10)
    with pytest.raises(ConfigError, match=NOMEDIA_LINE):
        plan("demos", {}, 4, {"carre_points": 20}, policies=["greedy:nomedia"], games=10)
    with pytest.raises(ConfigError, match=NOMEDIA_LINE):     # the reference side only
        plan("demos", {}, 4, {"media_optional": True}, policies=["greedy"],
             against_policies=["greedy:nomedia"], games=10)


def test_tournament_and_skill_refuse():
    from demos_sim.skill import budget_specs
    from demos_sim.tournament import run_tournament

    with pytest.raises(ConfigError, match=NOMEDIA_LINE):
        run_tournament("demos", demos(), ["greedy", "greedy:nomedia"], games=10, seed=1)
    with pytest.raises(ConfigError, match="ismcts:noveto@4 cannot give up the veto"):
        budget_specs("demos", demos(rules="simplified"), "ismcts:noveto", [4, 8])
    assert budget_specs("demos", demos(), "ismcts:noveto", [4, 8]) == [
        "ismcts:noveto@4", "ismcts:noveto@8"]


def test_explorer_refuses_the_what_if_and_the_sample_game():
    from demos_sim.explorer.form import Setup
    from demos_sim.explorer.replay import sample

    s = Setup("demos", {}, 4, {"carre_points": 20}, {}, ["greedy:nomedia"], None, 10, 1,
              None)
    with pytest.raises(ConfigError, match=NOMEDIA_LINE):
        sample(s, "change", 0)
    from demos_sim.analysis.core.whatif import plan

    with pytest.raises(ConfigError, match=NOMEDIA_LINE):
        plan(**s.plan_args())


RUN_FILE = """game = "demos"
name = "idle"
seed = 1
games = 10
players = 4
[grid]
media_optional = [true, false]
policies = [["greedy"], ["greedy:nomedia"]]
"""


def test_run_refuses_at_load_before_any_folder(tmp_path):
    from demos_sim.cli import main

    path = tmp_path / "idle.toml"
    path.write_text(RUN_FILE)
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out)]) == 2
    assert not out.exists()
    # the point media_optional = false with greedy:nomedia is the idle one
    from demos_sim.runner.experiment import ExperimentError, loads_experiment

    with pytest.raises(ExperimentError, match=f"grid.policies: {NOMEDIA_LINE}"):
        loads_experiment(RUN_FILE, "idle.toml")
    loads_experiment(RUN_FILE.replace("[true, false]", "[true]"), "ok.toml")


def test_record_cli_one_line_nonzero_nothing_written(tmp_path):
    out = tmp_path / "games.jsonl"
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "record", "--game", "demos",
                        "--players", "4", "--policies", "greedy:nomedia", "--games", "5",
                        "--out", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr == f"demos-sim: error: {NOMEDIA_LINE}\n"
    assert p.stdout == ""
    assert list(tmp_path.iterdir()) == []
    # the enabling variant: the same command is accepted (checked without playing)
    cfg = demos(media_optional=True)
    assert check_specs(DEMOS, ["greedy:nomedia"], cfg) == ["greedy:nomedia"] * 4


# ------------------------------------------------------------- the analyses still load


def test_every_analysis_experiment_loads_at_its_rungs():
    """The analyses use :noveto, :nomedia and :no_<character>; each file (at every rung
    its module runs it, and every tune file) passes the check under its own rules."""
    import importlib

    from demos_sim.analysis import suite
    from demos_sim.analysis.core import protocol
    from demos_sim.analysis.core.protocol import experiment_path
    from demos_sim.runner.experiment import load_experiment
    from demos_sim.tuner.spec import load_tune

    stems = set()
    for modname in suite.ANALYSES.values():
        mod = importlib.import_module(modname)
        for stem in getattr(mod, "EXPERIMENTS", []):
            for bot in protocol.rungs(mod, stem):
                load_experiment(experiment_path(stem), bot=bot)
                stems.add(stem)
        for t in protocol.tunes(mod):
            load_tune(experiment_path(t.file), bot=t.bot)
            stems.add(Path(t.file).stem)
    uses = [p.stem for p in (ROOT / "experiments" / "analyses").glob("*.toml")
            if ":no" in p.read_text()]
    assert uses and set(uses) <= stems      # every file with a restricted form was loaded
