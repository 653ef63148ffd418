"""The built-in DĒMOS policies, registered in this order when the registry is first used:
``random`` and ``greedy`` (basic), ``heuristic`` (which builds on greedy's pieces),
``tuned`` (heuristic's function with the self-play-tuned parameters of ``tuned.toml``),
``veto_br`` and ``media_br`` (tuned with its veto or Media-aim parameters tuned as a best
response to tuned players, ``veto_br.toml`` and ``media_br.toml``),
``search`` (heuristic plus a look-ahead in the secret turn), ``ismcts`` (Monte Carlo
search of the round over the seat's information set), then the reference ``omniscient``
(ismcts on the true deal: it sees every hidden card, exempt from M2)."""

from demos_sim.demos.policies import basic, heuristic, ismcts, search, tuned  # noqa: F401
from demos_sim.demos.policies import best_response  # noqa: F401  (after tuned: reads its vector)
from demos_sim.demos.policies import omniscient  # noqa: F401  (a reference: sees all)
from demos_sim.demos.policies import apprentice  # noqa: F401  (after heuristic)
