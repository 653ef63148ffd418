"""L'Assemblée policies (see :mod:`demos_sim.registry` for the policy signature).

Built in: ``random`` and the personas of ``personas.toml`` (``civic``, ``free_rider``,
``aggressive``, ``conditional``), which all run one generic kernel
(:func:`demos_sim.assemblee.policies.basic.persona`) driven by their parameter vector.
A designer adds personas without code: a TOML file in the same format, loaded with
``--plugin FILE.toml`` (:func:`load_extension`). A new kernel registers like any other
game's policy::

    import numba
    from demos_sim.assemblee.policies import register, POLICY_SIG
    @register("first", description="always the first legal option")
    @numba.njit(POLICY_SIG, cache=True)
    def first(cfg, obs, opts, n_opts, params, rng):
        return 0

Decision kinds, options and observation offsets: :mod:`demos_sim.assemblee.layout` and
:mod:`demos_sim.assemblee.engine` (amount decisions: the index is the amount).
"""

from demos_sim.registry import (  # noqa: F401  (re-exported)
    N_PARAMS, POLICY_SIG, Policy, PolicyRegistry, load_plugin, loaded_plugins,
)

REGISTRY = PolicyRegistry("L'Assemblée", builtins="demos_sim.assemblee.policies.builtin",
                          declared="demos_sim.assemblee.policies.declared")
register = REGISTRY.register
available = REGISTRY.available
describe = REGISTRY.describe
get = REGISTRY.get
resolve = REGISTRY.resolve

_persona_files: list[str] = []


def load_extension(spec: str) -> None:
    """``FILE.toml``: register its personas; anything else: :func:`load_plugin`."""
    if spec.endswith(".toml"):
        from demos_sim.assemblee.policies.personas import load_personas

        if spec not in _persona_files:
            REGISTRY._load_builtins()
            load_personas(spec)
            _persona_files.append(spec)
    else:
        load_plugin(spec)


def loaded_extensions() -> list[str]:
    """Plugins and persona files loaded so far (worker processes load them again)."""
    return list(loaded_plugins()) + list(_persona_files)
