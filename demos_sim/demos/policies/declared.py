"""The built-in DĒMOS policies as data, for listing them without importing (and
compiling) their modules: written by ``python -m demos_sim.declare`` from the registered
policies; do not edit (a test checks it against them)."""

from demos_sim.registry import Declared

DECLARED = (
    Declared('apprentice', 'demos_sim.demos.policies.apprentice',
             "a linear scorer of the discard and take options learned from ismcts@256's choices (demos-sim train-apprentice); the veto and the rest heuristic",
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4}, budget=None, default_budget=None, reference=None),
    Declared('belief', 'demos_sim.demos.policies.ismcts',
             "ismcts whose deals are weighted by how likely they make the other players' actions this round (policy inference with a greedy model of them); the rest heuristic",
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4}, budget=18, default_budget=64, reference=None),
    Declared('greedy', 'demos_sim.demos.policies.basic',
             'one-step heuristic for every decision',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4, 'legacy': 5}, budget=None, default_budget=None, reference=None),
    Declared('heuristic', 'demos_sim.demos.policies.heuristic',
             'expected value over unseen cards; veto, Media and figure planning',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4, 'legacy': 14}, budget=None, default_budget=None, reference=None),
    Declared('ismcts', 'demos_sim.demos.policies.ismcts',
             'information-set Monte Carlo search of the round (discards, veto; flat, round horizon); the rest heuristic',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4}, budget=18, default_budget=64, reference=None),
    Declared('media_br', 'demos_sim.demos.policies.best_response',
             'tuned, with the parameters that decide whom its Media targets searched for one seat among three tuned players (demos-sim tune-bot --in-place, policies/media_br.toml; not a proven best response): aim_threat 0→0.75, aim_harm 0→1.75, aim_lead 0→0.01; its gain over tuned in that seat: +0.001 pp of win share [-0.008, +0.011], 32000 fresh deals',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4, 'legacy': 14}, budget=None, default_budget=None, reference=None),
    Declared('omniscient', 'demos_sim.demos.policies.omniscient',
             'REFERENCE, exempt from M2: sees every hidden card (ismcts searching the true deal); a bound on skill, refused by run/analyses unless allow_reference',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4}, budget=18, default_budget=64, reference='omniscient'),
    Declared('omniscient_hands', 'demos_sim.demos.policies.omniscient',
             "REFERENCE, exempt from M2: sees every hand and face-down card but not the deck's order (ismcts searching the true hands); the bound on what reading the others' play could be worth",
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4}, budget=18, default_budget=64, reference='omniscient'),
    Declared('random', 'demos_sim.demos.policies.basic',
             'uniform among the legal options of every decision',
             flags={}, budget=None, default_budget=None, reference=None),
    Declared('search', 'demos_sim.demos.policies.search',
             'heuristic + determinised Monte Carlo of its next two turns (secret turn; budget params[12])',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4, 'legacy': 14}, budget=12, default_budget=12, reference=None),
    Declared('tuned', 'demos_sim.demos.policies.tuned',
             'heuristic with self-play-tuned parameters from policies/tuned.toml (demos-sim tune-bot, seed 2027, 150 trials × 3072 deals against heuristic+greedy; win share 0.518 [0.515, 0.521] against heuristic on 40000 fresh deals)',
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4, 'legacy': 14}, budget=None, default_budget=None, reference=None),
    Declared('veto_br', 'demos_sim.demos.policies.best_response',
             "tuned, with the parameters that decide when to veto the unanimous turn searched for one seat among three tuned players (demos-sim tune-bot --in-place, policies/veto_br.toml; not a proven best response): the search kept tuned's own values: it plays exactly as tuned",
             flags={'noveto': 2, 'notake': 3, 'nomedia': 4, 'legacy': 14}, budget=None, default_budget=None, reference=None),
)
