"""The apprentice's learned decisions one kind at a time, the rest ``heuristic``: where its
strength comes from (``demos-sim tournament --plugin experiments/plugins/apprentice_parts.py
--policies apppub,heuristic --games 8000 --seed 8``; the figures are in
``demos_sim/demos/policies/apprentice.py``'s docstring).

- ``appveto``: the learned veto (D3.4.1) only; ``appdisc``: the learned discard turns only;
- ``apppub``, ``appsec``, ``appunan``: the learned public (D3.2), secret (D3.3) or
  unanimous (D3.4.3) turn only; ``apppubsec``: the public and secret turns.
"""
from numba import njit

from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.policies.apprentice import APPRENTICE_W, choose


@njit(POLICY_SIG)
def _app(cfg, obs, opts, n_opts, params, rng):
    return choose(cfg, obs, opts, n_opts, params, APPRENTICE_W)


register("appveto", veto=_app, others="heuristic")
register("appdisc", discard=_app, others="heuristic")
register("apppub", public=_app, others="heuristic")
register("appsec", secret=_app, others="heuristic")
register("appunan", unanimous=_app, others="heuristic")
register("apppubsec", public=_app, secret=_app, others="heuristic")
