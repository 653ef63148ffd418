"""``belief`` with one setting changed, for the ablations of ``experiments/belief_ablations.sh``
(each registered under its own name so that a tournament plays it against ``ismcts`` or
``belief`` on common deals)."""

from demos_sim.demos.policies import register
from demos_sim.demos.policies.heuristic import P_NOMEDIA, P_NOTAKE, P_NOVETO
from demos_sim.demos.policies.ismcts import (
    BELIEF_PARAMS, P_BUDGET, P_EPS, P_GAME, P_POOL, P_TEMP, P_VETO_SKILL, ismcts_policy,
)

FLAGS = {"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA}


def variant(name, **changes):
    params = list(BELIEF_PARAMS)
    for key, value in changes.items():
        params[{"pool": P_POOL, "temp": P_TEMP, "eps": P_EPS, "veto_skill": P_VETO_SKILL,
                "game": P_GAME}[key]] = value
    register(name, params=tuple(params), description=f"belief with {changes}", flags=FLAGS,
             budget=P_BUDGET)(ismcts_policy)


variant("belief_pool512", pool=512.0)
variant("belief_t4", temp=4.0)
variant("belief_t1", temp=1.0)
variant("belief_vskill3", veto_skill=3.0)
variant("belief_p512_t4", pool=512.0, temp=4.0)
variant("belief_p1024_t8", pool=1024.0, temp=8.0)
variant("belief_p1024_t4", pool=1024.0, temp=4.0)
variant("belief_game", game=1.0)
