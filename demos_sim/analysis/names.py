"""The analyses' names and default folder, as plain data: ``demos-sim --help`` lists them
without importing the analyses (:mod:`demos_sim.analysis.suite` runs them)."""

from __future__ import annotations

from pathlib import Path

# name -> module, in report order
ANALYSES = {
    "veto": "demos_sim.analysis.questions.veto",
    "media": "demos_sim.analysis.questions.media",
    "teams": "demos_sim.analysis.questions.teams",
    "protocole_levels": "demos_sim.analysis.questions.protocole_levels",
    "game_shape": "demos_sim.analysis.questions.game_shape",
    "tuning": "demos_sim.analysis.questions.tuning",
    "variants": "demos_sim.analysis.questions.variants",
    "assemblee": "demos_sim.analysis.questions.assemblee",
    "robustness": "demos_sim.analysis.questions.robustness",   # last: reads the others
}
DEFAULT_OUT = Path("results") / "analyses"
