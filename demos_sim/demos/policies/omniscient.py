"""DĒMOS ``omniscient``: the reference that sees every hidden card (the ceiling of skill).

**A reference, not a player.** Every other policy decides from its seat's observation
only (RULES.md M2). ``omniscient`` is registered with ``reference="omniscient"``: the
engine writes the *truth block* (``O_T_*`` of :mod:`demos_sim.demos.layout`: every hand,
the face-down secret and unanimous discards, the People deck and the Power pile in draw
order, every figure) into its seat's observation — and only its seat's — and leaves its
decisions out of the M2 check (``C_CHECK_OBS`` = 2 checks them too, and then they move:
the test that shows it reads hidden cards). ``demos-sim run``, the experiments and the
analyses refuse it unless the experiment says ``allow_reference = true``; ``simulate``
and ``tournament`` play it (that is where the bound is measured) and say it is a
reference.

**What it is**: :mod:`demos_sim.demos.policies.ismcts` itself — the same function, the
same candidates, rollouts and evaluation (one forward model) — with the parameter
``P_TRUTH`` = 1, which makes the search deal the true state (:func:`ismcts.deal_truth`)
instead of sampling a determinisation from the observation. The rollouts draw no chance
of their own, so every iteration would replay the same games: the search does one, and
``omniscient@N`` (accepted, so a skill trace can name it beside ``ismcts@N``) plays the
same as ``omniscient``. The decisions ``ismcts`` leaves to ``heuristic`` (favourite suit,
X2 announcement, team allocation, Media) stay observation-only. It is therefore a
*lower* bound on what perfect information is worth to this search (its own later turns
in a rollout are still ``greedy``'s), measured, not assumed.

**Measured** (the gap the skill trace quotes; full rules, seat-rotated two-policy
tournament on common deals, :func:`demos_sim.tournament.match`, seed 7, win share of the
wins the two took with its 95% delta-method interval):

- 4 players: against ``heuristic`` 0.728 [0.716, 0.739] (3,000 deals), against
  ``ismcts@64`` 0.721 [0.705, 0.738] (1,500 deals), against ``ismcts@256`` 0.668
  [0.637, 0.699] (500 deals) — ``ismcts@64`` itself beats ``heuristic`` 0.552 only, so
  most of the ceiling is information, and the budget closes a little of it;
- 2v2 (both members omniscient) against ``heuristic``: 0.936 [0.928, 0.945] (1,500
  deals).

``demos-sim tournament --policies omniscient,ismcts@64 --games 1500 --seed 7`` gives the
second figure. Speed: that of ``ismcts@1`` (one rollout per candidate): at every seat,
``demos-sim simulate --policies omniscient --games 1000`` 384 games/s against 372 for
``ismcts@1`` and 8 for ``ismcts@64`` at the same moment (wall time, one worker, a
loaded machine).

**``omniscient_hands``: the same search given every hand but not the deck's order**
(``P_TRUTH`` = 2, :func:`ismcts.deal_hands_truth`): the true hands and face-down cards,
the People deck's cards reshuffled at every iteration. No player can know the deck's
order, but a player who read the others' play perfectly would know their hands: this is
the bound on what such reading could be worth, and its budget counts
(``omniscient_hands@N``). A reference too (exempt from M2, refused by the analyses).
Measured (4 players, full rules, seat-rotated, seed 11, against ``heuristic``):
``omniscient_hands@64`` 0.688 [0.671, 0.705] (1,500 deals), where ``ismcts@64`` wins
0.540 [0.522, 0.559] on the same deals (paired difference +0.148 [+0.123, +0.172],
bootstrap over deals): the other hands are most of ``omniscient``'s advantage, the
deck's order the rest. ``demos-sim tournament --policies omniscient_hands@64,heuristic
--games 1500 --seed 11`` gives the first figure.
"""

from demos_sim.demos.policies import register
from demos_sim.demos.policies.heuristic import P_NOMEDIA, P_NOTAKE, P_NOVETO
from demos_sim.demos.policies.ismcts import ISMCTS_PARAMS, P_BUDGET, P_TRUTH, ismcts_policy


def register_truth_reference(name: str, truth: float, description: str) -> None:
    """Register ``ismcts`` with ``P_TRUTH`` = ``truth`` (what of the truth block its search
    deals: :func:`~demos_sim.demos.policies.ismcts.search`) as a reference policy."""
    params = list(ISMCTS_PARAMS)
    params[P_TRUTH] = truth
    register(name, params=tuple(params), description="REFERENCE, exempt from M2: " + description,
             flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA},
             budget=P_BUDGET, reference="omniscient")(ismcts_policy)


register_truth_reference("omniscient", 1.0,
                         "sees every hidden card (ismcts searching the true deal); a bound "
                         "on skill, refused by run/analyses unless allow_reference")
register_truth_reference("omniscient_hands", 2.0,
                         "sees every hand and face-down card but not the deck's order "
                         "(ismcts searching the true hands); the bound on what reading the "
                         "others' play could be worth")
