"""Experiments at scale: experiment files, chunk scheduling, backends, storage, resume.

Path of data: experiment file (:mod:`.experiment`) → tasks of one chunk at every grid
point (:mod:`.tasks`, through the game's :class:`demos_sim.game.Game`) → backends (:mod:`.backends`)
→ atomic chunk store (:mod:`.store`) → totals in chunk order, stopping rule (:mod:`.run`)
→ tidy tables (:mod:`.tables`) → report (:mod:`demos_sim.report`). ``demos-sim simulate``
is the same run of one grid point kept in memory (:mod:`.simulate`).

The names below are imported on first use (PEP 562), so importing a light module of the
package (``demos_sim.runner.cli_cmds`` for ``demos-sim --help``) does not import pandas.
"""

from __future__ import annotations

import importlib

_LAZY = {"Experiment": "experiment", "ExperimentError": "experiment",
         "load_experiment": "experiment", "run_experiment": "run"}
__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
