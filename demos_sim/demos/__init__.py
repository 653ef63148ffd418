"""DĒMOS (RULES.md Part D): configuration, scoring, engine, policies, records.

For bot writers (docs/writing-a-bot.md): :func:`position` builds one decision from card
notation, :mod:`demos_sim.demos.kit` reads options in the rules' words.

The names below are imported on first use (PEP 562): importing a module of the package
(``demos_sim.demos.rules`` for ``demos-sim variants``) does not import :mod:`.kit`, whose
``uniform`` is compiled when defined.
"""

from __future__ import annotations

import importlib

_LAZY = {"kit": None, "describe_option": "kit", "describe_options": "kit",
         "Choice": "positions", "Position": "positions", "position": "positions",
         "Combination": "scoring", "best_combination": "scoring",
         "best_combinations": "scoring"}

__all__ = ["Choice", "Combination", "Position", "best_combination", "best_combinations",
           "describe_option", "describe_options", "kit", "position"]


def __getattr__(name: str):
    if name in _LAZY:
        module = _LAZY[name]
        if module is None:
            return importlib.import_module(f"{__name__}.{name}")
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
