"""The built-in L'Assemblée policies, registered when the registry is first used:
``random`` and the persona kernel (basic), then the personas of ``personas.toml``, then
``adaptive`` (``adaptive.toml``: the best response to a city of civic players that
``demos-sim tune-bot --game assemblee`` found; the file says how)."""

from demos_sim.assemblee.policies import basic  # noqa: F401
from demos_sim.assemblee.policies.personas import (
    ADAPTIVE_FILE, BUILTIN_FILE, builtin_params, parse_personas, register_personas,
)

register_personas(parse_personas(BUILTIN_FILE.read_text(encoding="utf-8"), "personas.toml", {}),
                  allow_replace=True)
register_personas(parse_personas(ADAPTIVE_FILE.read_text(encoding="utf-8"), "adaptive.toml",
                                 builtin_params()), allow_replace=True)
