"""Experiments at scale: experiment files, chunk scheduling, backends, storage, resume.

Path of data: experiment file (:mod:`.experiment`) → tasks of one chunk at every grid
point (:mod:`.tasks`, through the game's :class:`demos_sim.game.Game`) → backends (:mod:`.backends`)
→ atomic chunk store (:mod:`.store`) → totals in chunk order, stopping rule (:mod:`.run`)
→ tidy tables (:mod:`.tables`) → report (:mod:`demos_sim.report`). ``demos-sim simulate``
is the same run of one grid point kept in memory (:mod:`.simulate`).
"""

from demos_sim.runner.experiment import Experiment, ExperimentError, load_experiment  # noqa: F401
from demos_sim.runner.run import run_experiment  # noqa: F401
