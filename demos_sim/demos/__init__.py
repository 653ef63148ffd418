"""DĒMOS (RULES.md Part D): configuration, scoring, engine, policies, records."""

from demos_sim.demos.scoring import Combination, best_combination, best_combinations

__all__ = ["Combination", "best_combination", "best_combinations"]
