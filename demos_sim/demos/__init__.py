"""DĒMOS (RULES.md Part D): configuration, scoring, engine, policies, records.

For bot writers (docs/writing-a-bot.md): :func:`position` builds one decision from card
notation, :mod:`demos_sim.demos.kit` reads options in the rules' words.
"""

from demos_sim.demos import kit
from demos_sim.demos.kit import describe_option, describe_options
from demos_sim.demos.positions import Choice, Position, position
from demos_sim.demos.scoring import Combination, best_combination, best_combinations

__all__ = ["Choice", "Combination", "Position", "best_combination", "best_combinations",
           "describe_option", "describe_options", "kit", "position"]
