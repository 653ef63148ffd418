"""L'Assemblée (RULES.md Part A): configuration, numba engine, policies, records."""

from demos_sim.assemblee.rules import AssembleeConfig  # noqa: F401
