"""The built-in L'Assemblée policies, registered when the registry is first used:
``random`` and the persona kernel (basic), then the personas of ``personas.toml``."""

from demos_sim.assemblee.policies import basic  # noqa: F401
from demos_sim.assemblee.policies.personas import (
    BUILTIN_FILE, parse_personas, register_personas,
)

register_personas(parse_personas(BUILTIN_FILE.read_text(encoding="utf-8"), "personas.toml", {}),
                  allow_replace=True)
