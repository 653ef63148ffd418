"""The built-in Protocole policies, registered in this order when the registry is first
used: ``random``, ``cautious`` and ``convention`` (basic), then ``planner``, then
``ismcts`` (search with ``planner`` rollouts)."""

from demos_sim.protocole.policies import basic, ismcts, planner  # noqa: F401
