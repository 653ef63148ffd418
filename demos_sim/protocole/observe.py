"""What one seat may know (RULES.md M2, P2.1, P5.1): the only door policies get through.

``observe`` writes seat ``seat``'s observation into ``obs`` from the full state:

- its own hand and its own Foyer (P2.1: a player may always look at it);
- everything face up and every public action: the Selection, this round's Norm, the
  cards each seat played face up this round, the cards seen leaving the game (Selection
  discards — "face down: they were seen when played", P3.1 — and the colour/symbol
  removed at setup, P1.2), the set of cards dealt this round (after round 0 it is the
  previous Norm, which everyone saw);
- counts: hand sizes and Foyer sizes (P2.1: public), who is still in the game, the
  Initiative holder, cumulative points (P4.2: scored at public controls).

Other players' hands and Foyers, and the Foyers of eliminated players (out of the game
unrevealed, P4.2), are hidden. In the cooperative mode nothing more is shared (P5.1: no
communication); conventions live in the policies' code.

``scramble_hidden`` permutes everything a seat cannot see; the observation test asserts
that ``observe`` and every policy's decision are unchanged by it.
"""

import numpy as np
from numba import njit

from demos_sim.bits import lowest_bit, popcount
from demos_sim.protocole.layout import (
    C_N, MAXP, NCARD, O_ALIVE, O_DECKSET, O_FOYER, O_FOYERN, O_GONE, O_HAND, O_HANDN,
    O_INIT, O_KIND, O_N, O_NORM, O_PLAYED, O_POINTS, O_ROUND, O_SEAT, O_SEL, O_TURN,
    S_ALIVE, S_DEAD, S_DECKSET, S_FOYER, S_GONE, S_HAND, S_INIT, S_NORM, S_PLAYED,
    S_POINTS, S_REMOVED, S_ROUND, S_SEL, S_TURN,
)
from demos_sim.rng import below


@njit(cache=True, inline="always")
def observe(st, cfg, seat, kind, obs):
    """Write ``seat``'s observation for a decision of ``kind`` into ``obs`` (OBS_LEN int64)."""
    n = cfg[C_N]
    obs[O_KIND] = kind
    obs[O_SEAT] = seat
    obs[O_N] = n
    obs[O_ROUND] = st[S_ROUND]
    obs[O_INIT] = st[S_INIT]
    obs[O_TURN] = st[S_TURN]
    obs[O_HAND] = st[S_HAND + seat]
    obs[O_FOYER] = st[S_FOYER + seat]
    obs[O_SEL] = st[S_SEL]
    obs[O_NORM] = st[S_NORM]
    obs[O_GONE] = st[S_GONE] | st[S_REMOVED]
    obs[O_DECKSET] = st[S_DECKSET]
    obs[O_ALIVE] = st[S_ALIVE]
    for p in range(MAXP):
        obs[O_HANDN + p] = popcount(st[S_HAND + p])
        obs[O_FOYERN + p] = popcount(st[S_FOYER + p])
        obs[O_POINTS + p] = st[S_POINTS + p]
        obs[O_PLAYED + p] = st[S_PLAYED + p]


@njit(cache=True)
def _hidden_locations(st, cfg, seat, locs):
    """State offsets of every location ``seat`` cannot see; returns how many."""
    k = 0
    for p in range(cfg[C_N]):
        if p != seat:
            locs[k] = S_HAND + p
            locs[k + 1] = S_FOYER + p
            k += 2
    locs[k] = S_DEAD
    return k + 1


@njit(cache=True)
def scramble_hidden(st, cfg, seat, kind, rng):
    """Permute, in place, the cards ``seat`` cannot see: other players' hands and Foyers
    and eliminated players' Foyers. Every location keeps its size, so public counts are
    unchanged."""
    locs = np.empty(2 * MAXP + 1, np.int64)
    nl = _hidden_locations(st, cfg, seat, locs)
    cards = np.empty(NCARD, np.int64)
    nc = 0
    for i in range(nl):
        x = st[locs[i]]
        while x:
            cards[nc] = lowest_bit(x)
            x &= x - 1
            nc += 1
    for k in range(nc - 1, 0, -1):
        j = below(rng, 0, k + 1)
        t = cards[k]
        cards[k] = cards[j]
        cards[j] = t
    k = 0
    for i in range(nl):
        cnt = popcount(st[locs[i]])
        m = 0
        for _ in range(cnt):
            m |= np.int64(1) << cards[k]
            k += 1
        st[locs[i]] = m
