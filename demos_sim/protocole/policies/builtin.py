"""The built-in Protocole policies, registered in this order when the registry is first
used: ``random``, ``cautious`` and ``convention`` (basic), then ``planner``, then
``ismcts`` (search with ``planner`` rollouts), ``sparta`` (search over a blueprint with
a belief), then the reference ``omniscient``."""

from demos_sim.protocole.policies import basic, ismcts, planner, sparta  # noqa: F401
from demos_sim.protocole.policies import omniscient  # noqa: F401  (a reference: sees all)
