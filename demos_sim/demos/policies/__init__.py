"""DĒMOS policies (see :mod:`demos_sim.registry` for the policy signature).

Register a new one without touching engine code::

    import numba
    from demos_sim.demos.policies import register, POLICY_SIG
    @register("lowest", description="always the first legal option")
    @numba.njit(POLICY_SIG, cache=True)
    def lowest(cfg, obs, opts, n_opts, params, rng):
        return 0

Observation offsets and option encodings: :mod:`demos_sim.demos.layout`.
"""

from demos_sim.registry import (  # noqa: F401  (re-exported)
    N_PARAMS, POLICY_SIG, Policy, PolicyRegistry, load_plugin, loaded_plugins,
)

REGISTRY = PolicyRegistry("DĒMOS", builtins="demos_sim.demos.policies.basic")
register = REGISTRY.register
available = REGISTRY.available
get = REGISTRY.get
resolve = REGISTRY.resolve
