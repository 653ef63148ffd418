"""The built-in Protocole policies as data, for listing them without importing (and
compiling) their modules: written by ``python -m demos_sim.declare`` from the registered
policies; do not edit (a test checks it against them)."""

from demos_sim.registry import Declared

DECLARED = (
    Declared('cautious', 'demos_sim.protocole.policies.basic',
             'each for themselves: Foyer only cards the Norm already covers; play to make the own Foyer safe',
             flags={}, budget=None, default_budget=None, reference=None),
    Declared('convention', 'demos_sim.protocole.policies.basic',
             "all together: follow the Selection's target (C1), double-covered cards to the Foyer first (C2)",
             flags={}, budget=None, default_budget=None, reference=None),
    Declared('ismcts', 'demos_sim.protocole.policies.ismcts',
             'information-set Monte Carlo search of every move to the end of the game, rollouts by planner (each); all together: convention-plus-search, the others assumed to follow the conventions (P5.1)',
             flags={'basic': 17}, budget=16, default_budget=16, reference=None),
    Declared('omniscient', 'demos_sim.protocole.policies.omniscient',
             "REFERENCE, exempt from M2: reads every hand (planner looking at the next player's real hand); all together: a weak perfect-communication bound; refused by run/analyses unless allow_reference",
             flags={}, budget=None, default_budget=None, reference='omniscient'),
    Declared('planner', 'demos_sim.protocole.policies.planner',
             'cautious (each) / convention (coop) plus a look at every way the Selection can still resolve',
             flags={}, budget=None, default_budget=None, reference=None),
    Declared('random', 'demos_sim.protocole.policies.basic',
             'uniform among the legal moves (a hand card to the Selection or the Foyer)',
             flags={}, budget=None, default_budget=None, reference=None),
    Declared('sparta', 'demos_sim.protocole.policies.sparta',
             "search over a blueprint (all together: convention; each: planner) with worlds weighted by the others' actions under it (face-down cards covered, the last control passed); deviates only by a margin",
             flags={'uniform': 17}, budget=16, default_budget=16, reference=None),
)
