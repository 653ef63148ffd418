"""The built-in Protocole policies, registered in this order when the registry is first
used: ``random``, ``cautious`` and ``convention`` (basic), then ``planner``."""

from demos_sim.protocole.policies import basic, planner  # noqa: F401
from demos_sim.protocole.policies import omniscient  # noqa: F401  (a reference: sees all)
