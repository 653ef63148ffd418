"""Protocole (RULES.md Part P): configuration, Norm selection, engine, policies, records."""

from demos_sim.protocole.norm import norm_selection

__all__ = ["norm_selection"]
