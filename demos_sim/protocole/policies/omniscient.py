"""Protocole ``omniscient``: the reference that reads every hand (the ceiling of skill).

**A reference, not a player.** Every other Protocole policy decides from its seat's
observation only (RULES.md M2; in *all together* P5.1 forbids any communication). This
one is registered with ``reference="omniscient"``: the engine writes the *truth block*
(``O_T_*`` of :mod:`demos_sim.protocole.layout`: every hand and Foyer, the eliminated
players' Foyers) into its seat's observation only, and leaves its decisions out of the
M2 check (``C_CHECK_OBS`` = 2 checks them too: the test that shows it reads hands).
With ``omniscient`` at every seat of *all together* it is a "perfect communication"
bound on a level's difficulty: every player knows every hand, as if the team could talk.

**What it is**: ``planner`` (:mod:`demos_sim.protocole.policies.planner`) with one
change. ``planner``'s look-ahead, when its card leaves the Selection one short of the
Norm selection, averages over every card the next play *could* be (the round's cards it
has not seen); ``omniscient`` averages over the cards the next player to move (the next
seat clockwise with a card in hand, P2.1) actually holds. It does so by handing
``planner`` a copy of the observation whose seen-leaving set (``O_GONE``) also holds every
other card of the deal, so ``planner``'s unseen cards are that hand — one planner, not
two. The rest of ``planner``'s scoring is unchanged, so this is a *lower* bound on what
seeing every hand is worth, and a weak one: measured against ``planner`` (4 players,
4,000 deals, seed 7, ``demos_sim.tournament.match``) each for themselves 0.502
[0.496, 0.508], all together level 1 win rate 0.603 vs 0.608, level 2 0.391 vs 0.371
(paired +0.020 [+0.005, +0.035]), level 3 0.200 vs 0.177 (+0.024 [+0.011, +0.036]).
(Also tried: counting the teammates' uncovered Foyer cards as its own in *all
together* — no better: +0.012, +0.018, -0.005.) A search that deals the truth block,
as DĒMOS's ``omniscient`` does, is the bound to build when Protocole has one.

Refused by ``demos-sim run``, the experiments and the analyses unless asked
(``allow_reference = true``); ``simulate`` and ``tournament`` play it and say it is a
reference.
"""


from demos_sim.bits import wrap
from demos_sim.jit import kernel
from demos_sim.protocole import layout as L
from demos_sim.protocole.policies import POLICY_SIG, register
from demos_sim.protocole.policies.planner import PLANNER_PARAMS, planner


@kernel
def next_hand(obs):
    """The hand of the next seat clockwise that will still have a card to play (P2.1:
    empty hands are skipped); the seat's own hand when nobody else has a card."""
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    for j in range(1, n):
        h = obs[L.O_T_HAND + wrap(seat + j, n)]
        if h != 0:
            return h
    return obs[L.O_HAND]


@register("omniscient", params=PLANNER_PARAMS,
          description="REFERENCE, exempt from M2: reads every hand (planner looking at the "
                      "next player's real hand); all together: a weak perfect-communication "
                      "bound; refused by run/analyses unless allow_reference",
          reference="omniscient")
@kernel(POLICY_SIG, allocates=True)
def omniscient(cfg, obs, opts, n_opts, params, rng):
    if obs[L.O_T_ON] != 1:                    # no truth block (not a reference seat)
        return planner(cfg, obs, opts, n_opts, params, rng)
    o2 = obs.copy()
    o2[L.O_GONE] |= obs[L.O_DECKSET] & ~next_hand(obs)
    return planner(cfg, o2, opts, n_opts, params, rng)
