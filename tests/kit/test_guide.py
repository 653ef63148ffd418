"""docs/writing-a-bot.md runs as printed: its files are the example files, its ``>>>``
examples and its shell commands run, and its sample outputs are what the commands print.
"""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
GUIDE = (ROOT / "docs" / "writing-a-bot.md").read_text()


def _blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", GUIDE, re.S)


def test_the_guide_shows_the_example_files_verbatim():
    python = _blocks("python")
    for name in ("my_first_bot.py", "test_my_first_bot.py"):
        assert (ROOT / "examples" / name).read_text() in python, name


def test_the_guide_examples_run_as_shown(monkeypatch):
    monkeypatch.chdir(ROOT)                       # load_plugin("examples/…") as a reader would
    runner = doctest.DocTestRunner()
    parser = doctest.DocTestParser()
    blocks = [b for b in _blocks("python") if b.startswith(">>> ")]
    assert len(blocks) >= 2
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"guide block {i}", "writing-a-bot.md", 0))
    assert runner.failures == 0 and runner.tries >= 9


def test_every_game_has_a_section_whose_bot_and_position_run():
    """Protocole and L'Assemblée: a bot registered, a position built, its choice printed,
    in blocks that the doctest above runs."""
    blocks = [b for b in _blocks("python") if b.startswith(">>> ")]
    for game in ("protocole", "assemblee"):
        block = next(b for b in blocks if f"demos_sim.{game}.positions import position" in b)
        assert f"demos_sim.{game}.policies import POLICY_SIG, register" in block
        assert ".decide(" in block
        assert f"check-policy --game {game}" in GUIDE


def _run(line: str) -> subprocess.CompletedProcess:
    """A guide command: ``demos-sim`` and ``python`` are this interpreter's."""
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    words = shlex.split(line)
    while "=" in words[0]:
        k, v = words.pop(0).split("=", 1)
        env[k] = v
    if words[0] == "demos-sim":
        words = [sys.executable, "-m", "demos_sim.cli", *words[1:]]
    elif words[0] == "python":
        words = [sys.executable, *words[1:]]
    return subprocess.run(words, capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env=env)


COMMANDS = [line for b in _blocks("sh") for line in b.strip().splitlines()]


def test_the_guide_commands_are_the_ones_tested():
    assert [c.split()[0 if not c.startswith("NUMBA") else 1] for c in COMMANDS] == [
        "python", "demos-sim", "demos-sim", "demos-sim", "python"]


@pytest.mark.parametrize("line", COMMANDS)
def test_the_guide_commands_run(line):
    p = _run(line)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    out = p.stdout
    if "pytest" in line:
        assert "3 passed" in out
    elif "check-policy" in line or "tournament" in line:
        # the guide's sample output is this command's output (up to the "…")
        sample = next(b for b in _blocks("text") if b.startswith(out.splitlines()[0]))
        shown = sample.split("…")[0].rstrip().splitlines()
        assert out.splitlines()[:len(shown)] == shown
    elif "simulate" in line:
        assert "policies first_bot,greedy,greedy,greedy, seed 1" in out
    else:                                           # the debug script, as plain Python
        assert "first_bot chooses: discard 1C, take 9S" in out


def test_the_debugger_stop_is_inside_the_bot():
    line = int(re.search(r"b examples/my_first_bot.py:(\d+)", GUIDE).group(1))
    assert f"my_first_bot.py:{line}" in (ROOT / "examples" / "debug_first_bot.py").read_text()
    src = (ROOT / "examples" / "my_first_bot.py").read_text().splitlines()
    start = next(i for i, s in enumerate(src, 1) if s.startswith("def best_hand"))
    end = next(i for i, s in enumerate(src, 1) if s.strip() == "return best_i")
    assert start < line < end


def test_the_readme_and_the_policies_page_point_to_the_guide():
    readme = (ROOT / "README.md").read_text()
    assert "(docs/writing-a-bot.md)" in readme
    policies = (ROOT / "docs" / "reference" / "policies.md").read_text()
    assert "(../writing-a-bot.md)" in policies
