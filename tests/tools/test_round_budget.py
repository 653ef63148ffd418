"""benchmarks/round_budget.py: the round's pieces, counted and timed."""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import round_budget  # noqa: E402


def test_decisions_a_round_are_the_rules_count():
    # D3.2 and D3.3: 4 public and 4 secret turns with 5 cards each (never forced); at most
    # one veto question a side (D3.4.1) and 4 unanimous turns (D3.4.3)
    calls, n_opts = round_budget.decisions(300)
    assert 8 < calls <= 16
    # the secret turn offers 5 x (deck + face-up cards) + a pass, the public 5
    assert 5 < n_opts < 5 * 9 + 1


def test_every_piece_is_timed_and_the_report_prints(capsys):
    ns = round_budget.pieces(2000)
    assert len(ns) == 10 and all(math.isfinite(t) and t > 0 for t in ns.values())
    round_budget.main(["--games", "200", "--calls", "2000"])
    out = capsys.readouterr().out
    assert "greedy's own kernels alone" in out and "the engine's pieces alone" in out
