"""The documentation's examples run as written: the policy example of the Policies page
(docs/reference/policies.md) is the file it names and works end to end, and every ``>>>``
example of the reference pages (hand scoring, Norm selection) gives what it shows."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


POLICIES = ROOT / "docs" / "reference" / "policies.md"
DOCTEST_PAGES = [ROOT / "docs" / "reference" / "simulate.md",
                 ROOT / "docs" / "reference" / "protocole.md"]


def test_readme_policy_example_is_examples_highcards():
    blocks = re.findall(r"```python\n(.*?)```", POLICIES.read_text(), re.S)
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
    """Every ``>>>`` example of the reference pages (hand scoring, Norm selection) runs as
    shown."""
    import doctest

    blocks = [b for page in DOCTEST_PAGES
              for b in re.findall(r"```python\n(>>> .*?)```", page.read_text(), re.S)]
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"docs block {i}", "docs", 0))
    assert runner.failures == 0 and runner.tries >= 6
