"""Where is knowing the other hands worth most? Two references for that question.

``omniscient_hands`` (demos_sim/demos/policies/omniscient.py) searches every decision on
the true hands and face-down cards (the deck's order unknown). These two use them at one
kind of decision only and search the others, like ``ismcts``, on determinisations drawn
from the seat's observation (RULES.md M2):

- ``omniscient_veto``: the true hands at the veto check (D3.4.1) only;
- ``omniscient_discards``: the true hands at the public, secret and unanimous turns
  (D3.2, D3.3, D3.4.3) only.

Both are references (exempt from M2, refused by the analyses), with a budget (``@N``)::

    demos-sim tournament --plugin experiments/plugins/truth_split.py \\
        --policies omniscient_veto@64,heuristic --games 1500 --seed 11
"""

from demos_sim.demos.policies import register
from demos_sim.demos.policies.heuristic import P_NOMEDIA, P_NOTAKE, P_NOVETO
from demos_sim.demos.policies.ismcts import ISMCTS_PARAMS, P_BUDGET, P_TRUTH, ismcts_policy

for name, truth, what in (("omniscient_veto", 3.0, "at the veto only"),
                          ("omniscient_discards", 4.0, "at the discard turns only")):
    params = list(ISMCTS_PARAMS)
    params[P_TRUTH] = truth
    register(name, params=tuple(params),
             description=f"REFERENCE, exempt from M2: ismcts with the true hands {what}",
             flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA},
             budget=P_BUDGET, reference="omniscient")(ismcts_policy)
