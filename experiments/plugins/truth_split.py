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

from demos_sim.demos.policies.omniscient import register_truth_reference

register_truth_reference("omniscient_veto", 3.0, "ismcts with the true hands at the veto only")
register_truth_reference("omniscient_discards", 4.0,
                         "ismcts with the true hands at the discard turns only")
