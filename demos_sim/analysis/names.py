"""The analyses' names, modules and games, and the default folder, as plain data:
``demos-sim --help`` lists them without importing the analyses
(:mod:`demos_sim.analysis.suite` runs them).

An analysis registers here once, with one line: its name, its question module (which
declares its runs and what the report shows of it, :mod:`demos_sim.analysis.core.protocol`)
and the game its figures are about — the game whose measured bot ladder orders them
(:func:`demos_sim.analysis.core.rungs.family`; None when each figure names its game).
The game lives here, not in the module, because the analysis core reads it and may not
import a question.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class Analysis(NamedTuple):
    name: str
    module: str
    game: str | None            # "demos", "protocole", "assemblee"; None: named by the figure


# in report order
REGISTERED = (
    Analysis("veto", "demos_sim.analysis.questions.veto", "demos"),
    Analysis("media", "demos_sim.analysis.questions.media", "demos"),
    Analysis("teams", "demos_sim.analysis.questions.teams", "demos"),
    Analysis("protocole_levels", "demos_sim.analysis.questions.protocole_levels", "protocole"),
    Analysis("game_shape", "demos_sim.analysis.questions.game_shape", "demos"),
    Analysis("tuning", "demos_sim.analysis.questions.tuning", "demos"),
    Analysis("variants", "demos_sim.analysis.questions.variants", None),
    Analysis("assemblee", "demos_sim.analysis.questions.assemblee", "assemblee"),
    # last: it reads the others' key figures
    Analysis("robustness", "demos_sim.analysis.questions.robustness", None),
)
ANALYSES = {a.name: a.module for a in REGISTERED}     # name -> module, in report order
GAMES = {a.name: a.game for a in REGISTERED}          # name -> game
DEFAULT_OUT = Path("results") / "analyses"
