"""The README's policy example is the file it names, and it works end to end."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_policy_example_is_examples_highcards():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    example = (ROOT / "examples" / "highcards.py").read_text()
    assert example in blocks


def test_readme_policy_example_runs_through_the_cli():
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "simulate", "--plugin",
                        str(ROOT / "examples" / "highcards.py"), "--policies",
                        "highcards,greedy,greedy,greedy", "--games", "500", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert '"highcards"' in p.stdout


def test_readme_doctests():
    """Every ``>>>`` example of the README (hand scoring, Norm selection) runs as shown."""
    import doctest

    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(>>> .*?)```", readme, re.S)
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", "README.md", 0))
    assert runner.failures == 0 and runner.tries >= 6
