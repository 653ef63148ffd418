"""``report --compare`` of runs of two different games is refused with one line (there is
no figure the two share: a DĒMOS seat's win share is not a Protocole one's)."""

import subprocess
import sys
from pathlib import Path

import pytest

from demos_sim import ConfigError
from demos_sim.analysis.core.revisions import compare_runs

ROOT = Path(__file__).resolve().parents[2]
DEMOS, PROTOCOLE = ROOT / "results" / "demo", ROOT / "results" / "protocole_scope"


def test_runs_of_two_games_are_refused():
    with pytest.raises(ConfigError, match="cannot compare a demos run .* with a protocole run"):
        compare_runs(DEMOS, PROTOCOLE)


def test_the_command_says_it_in_one_line_and_writes_nothing(tmp_path):
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "report", "--compare",
                        str(DEMOS), str(PROTOCOLE), "--out", str(tmp_path / "cmp")],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode != 0
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "cannot compare a demos run" in lines[0], p.stderr
    assert not (tmp_path / "cmp").exists()
