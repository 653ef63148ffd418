"""The built-in L'Assemblée policies as data, for listing them without importing (and
compiling) their modules: written by ``python -m demos_sim.declare`` from the registered
policies; do not edit (a test checks it against them)."""

from demos_sim.registry import Declared

DECLARED = (
    Declared('adaptive', 'demos_sim.assemblee.policies.builtin',
             'best response to a civic city (tune-bot seed 2026): win share 0.869 [0.868, 0.870] against civic in its place',
             flags={'no_spectacles': 16, 'no_guard': 17, 'no_thief': 18, 'no_assassin': 19, 'no_peddler': 20, 'no_courtesan': 21, 'no_oracle': 22, 'no_priest': 23, 'no_hero': 24, 'no_brigand': 25, 'no_athlete': 26, 'no_broker': 27, 'no_builder': 28, 'no_philosopher': 29, 'no_crier': 30}, budget=None, default_budget=None, reference=None),
    Declared('aggressive', 'demos_sim.assemblee.policies.builtin',
             'favours Thief, Assassin, Courtesan and Brigand against the leader; proposes and supports his ostracism',
             flags={'no_spectacles': 16, 'no_guard': 17, 'no_thief': 18, 'no_assassin': 19, 'no_peddler': 20, 'no_courtesan': 21, 'no_oracle': 22, 'no_priest': 23, 'no_hero': 24, 'no_brigand': 25, 'no_athlete': 26, 'no_broker': 27, 'no_builder': 28, 'no_philosopher': 29, 'no_crier': 30}, budget=None, default_budget=None, reference=None),
    Declared('civic', 'demos_sim.assemblee.policies.builtin',
             "bids by a character's value, pledges its fair share, ostracism only against a runaway leader",
             flags={'no_spectacles': 16, 'no_guard': 17, 'no_thief': 18, 'no_assassin': 19, 'no_peddler': 20, 'no_courtesan': 21, 'no_oracle': 22, 'no_priest': 23, 'no_hero': 24, 'no_brigand': 25, 'no_athlete': 26, 'no_broker': 27, 'no_builder': 28, 'no_philosopher': 29, 'no_crier': 30}, budget=None, default_budget=None, reference=None),
    Declared('conditional', 'demos_sim.assemblee.policies.builtin',
             'pledges its fair share when at least half of the others pledged at the last call',
             flags={'no_spectacles': 16, 'no_guard': 17, 'no_thief': 18, 'no_assassin': 19, 'no_peddler': 20, 'no_courtesan': 21, 'no_oracle': 22, 'no_priest': 23, 'no_hero': 24, 'no_brigand': 25, 'no_athlete': 26, 'no_broker': 27, 'no_builder': 28, 'no_philosopher': 29, 'no_crier': 30}, budget=None, default_budget=None, reference=None),
    Declared('free_rider', 'demos_sim.assemblee.policies.builtin',
             'bids like civic, never pledges for the city',
             flags={'no_spectacles': 16, 'no_guard': 17, 'no_thief': 18, 'no_assassin': 19, 'no_peddler': 20, 'no_courtesan': 21, 'no_oracle': 22, 'no_priest': 23, 'no_hero': 24, 'no_brigand': 25, 'no_athlete': 26, 'no_broker': 27, 'no_builder': 28, 'no_philosopher': 29, 'no_crier': 30}, budget=None, default_budget=None, reference=None),
    Declared('random', 'demos_sim.assemblee.policies.basic',
             'uniform among the legal options of every decision (amounts: uniform from 0 to the most allowed)',
             flags={}, budget=None, default_budget=None, reference=None),
    Declared('reciprocal', 'demos_sim.assemblee.policies.builtin',
             'pledges its fair share only when every other player pledged at the last call (a strict conditional cooperator)',
             flags={'no_spectacles': 16, 'no_guard': 17, 'no_thief': 18, 'no_assassin': 19, 'no_peddler': 20, 'no_courtesan': 21, 'no_oracle': 22, 'no_priest': 23, 'no_hero': 24, 'no_brigand': 25, 'no_athlete': 26, 'no_broker': 27, 'no_builder': 28, 'no_philosopher': 29, 'no_crier': 30}, budget=None, default_budget=None, reference=None),
)
