"""DĒMOS policies (see :mod:`demos_sim.registry` for the policy signature).

Register a new one without touching engine code, either one function for every
decision::

    import numba
    from demos_sim.demos.policies import register, POLICY_SIG
    @register("lowest", description="always the first legal option")
    @numba.njit(POLICY_SIG, cache=True)
    def lowest(cfg, obs, opts, n_opts, params, rng):
        return 0

or one function per decision kind, the others at random (or as ``others``)::

    register("keeper", discard=keep_high, veto=never_veto, description="…")

Observation offsets and option encodings: :mod:`demos_sim.demos.layout`; option helpers
and the decision kinds: :mod:`demos_sim.demos.kit`; the guide: docs/writing-a-bot.md.
"""

from demos_sim.registry import (  # noqa: F401  (re-exported)
    N_PARAMS, POLICY_SIG, Policy, PolicyRegistry, load_plugin, loaded_plugins,
)

REGISTRY = PolicyRegistry("DĒMOS", builtins="demos_sim.demos.policies.builtin",
                          declared="demos_sim.demos.policies.declared")
available = REGISTRY.available
describe = REGISTRY.describe
get = REGISTRY.get
resolve = REGISTRY.resolve


def register(name: str, params=(), description: str = "", flags: dict | None = None,
             others=None, budget: int | None = None, reference: str | None = None,
             **decisions):
    """Register a DĒMOS policy under ``name``.

    Without decision keywords this is a decorator for one POLICY_SIG function that
    answers every decision (``@register("lowest", …)``).

    With decision keywords (:data:`demos_sim.demos.kit.KIND_KEYWORDS`: ``discard``
    — the three discard turns —, ``public``, ``secret``, ``unanimous``, ``veto``,
    ``allocate``, ``media``, ``colour``, ``favourite``, ``announce``), each a numba
    function with the policy signature, it composes them into one policy, registers it
    and returns it. Decisions without a keyword go to ``others``: a numba function or
    the name of a registered policy (default ``"random"``, uniform among the legal
    options). A named ``others`` lends its parameters and restricted forms
    (``greedy:noveto``) and its ``@N`` budget unless ``params`` or ``flags`` are given.

    ``budget`` is the index in ``params`` that the spec ``name@N`` sets (the search
    effort of the policy; see :mod:`demos_sim.registry`); without it ``name@N`` is
    refused. ``reference`` (e.g. ``"omniscient"``) declares a reference policy: its
    seat's observation gets the truth block (``O_T_*`` of :mod:`demos_sim.demos.layout`),
    it is exempt from M2 and the analyses refuse it unless asked (:mod:`demos_sim.registry`).
    """
    if not decisions:
        if others is not None:
            raise TypeError("others= needs at least one decision keyword (discard=, veto=, …)")
        return REGISTRY.register(name, params=params, description=description, flags=flags,
                                 budget=budget, reference=reference)
    other_name = others if isinstance(others, str) else None
    if other_name is not None:
        base = REGISTRY.get(other_name)
        others = base.fn
        if not params and not flags:
            params = tuple(base.params)
            flags = dict(base.flags)
            if budget is None:
                budget = base.budget
    from demos_sim.demos import kit     # here: its uniform is compiled when defined

    fn = kit.compose(others=others, **decisions)
    if not description:
        parts = [f"{kw}={getattr(f, '__name__', '?')}" for kw, f in decisions.items()]
        description = ", ".join(parts) + f"; the rest {other_name or 'random'}"
    REGISTRY.register(name, params=params, description=description, flags=flags,
                      budget=budget, reference=reference)(fn)
    return fn
