"""Protocole policies (see :mod:`demos_sim.registry` for the policy signature).

Register a new one without touching engine code::

    import numba
    from demos_sim.protocole.policies import register, POLICY_SIG
    @register("first", description="always the first legal option")
    @numba.njit(POLICY_SIG, cache=True)
    def first(cfg, obs, opts, n_opts, params, rng):
        return 0

The one decision (``obs[O_KIND] == K_PLAY``, P2.1) offers ``card * 2 + to`` for every
card in hand, ``to`` = 0 (the Selection, face up) or 1 (the own Foyer, face down), cards
in increasing id order. Observation offsets: :mod:`demos_sim.protocole.layout`.
"""

from demos_sim.registry import (  # noqa: F401  (re-exported)
    N_PARAMS, POLICY_SIG, Policy, PolicyRegistry, load_plugin, loaded_plugins,
)

REGISTRY = PolicyRegistry("Protocole", builtins="demos_sim.protocole.policies.builtin",
                          declared="demos_sim.protocole.policies.declared")
register = REGISTRY.register
available = REGISTRY.available
describe = REGISTRY.describe
get = REGISTRY.get
resolve = REGISTRY.resolve
