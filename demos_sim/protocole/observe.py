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

The one exemption: a seat whose policy is a *reference* (``cfg[C_TRUTH]`` bit, set by the
runner from ``register(..., reference=...)``, e.g. ``omniscient``) also gets the truth
block ``O_T_*`` (every hand and Foyer); every other seat's decisions see it zero, and
the engine's M2 check leaves reference seats out unless ``C_CHECK_OBS`` is 2.

``scramble_hidden`` permutes everything a seat cannot see; the observation test asserts
that ``observe`` and every policy's decision are unchanged by it.
"""

import numpy as np

from demos_sim.bits import lowest_bit, popcount
from demos_sim.jit import kernel
from demos_sim.protocole import layout as L
from demos_sim.rng import below


@kernel(inline=True)
def observe(st, cfg, seat, kind, obs):
    """Write ``seat``'s observation for a decision of ``kind`` into ``obs`` (OBS_LEN int64)."""
    n = cfg[L.C_N]
    obs[L.O_KIND] = kind
    obs[L.O_SEAT] = seat
    obs[L.O_N] = n
    obs[L.O_ROUND] = st[L.S_ROUND]
    obs[L.O_INIT] = st[L.S_INIT]
    obs[L.O_TURN] = st[L.S_TURN]
    obs[L.O_HAND] = st[L.S_HAND + seat]
    obs[L.O_FOYER] = st[L.S_FOYER + seat]
    obs[L.O_SEL] = st[L.S_SEL]
    obs[L.O_NORM] = st[L.S_NORM]
    obs[L.O_GONE] = st[L.S_GONE] | st[L.S_REMOVED]
    obs[L.O_DECKSET] = st[L.S_DECKSET]
    obs[L.O_ALIVE] = st[L.S_ALIVE]
    for p in range(L.MAXP):
        obs[L.O_HANDN + p] = popcount(st[L.S_HAND + p])
        obs[L.O_FOYERN + p] = popcount(st[L.S_FOYER + p])
        obs[L.O_POINTS + p] = st[L.S_POINTS + p]
        obs[L.O_PLAYED + p] = st[L.S_PLAYED + p]
    if (cfg[L.C_TRUTH] >> seat) & 1:         # a reference seat only (not M2)
        obs[L.O_T_ON] = 1
        for p in range(L.MAXP):
            obs[L.O_T_HAND + p] = st[L.S_HAND + p]
            obs[L.O_T_FOYER + p] = st[L.S_FOYER + p]
        obs[L.O_T_DEAD] = st[L.S_DEAD]
    elif obs[L.O_T_ON] != 0:                 # the row is shared by the seats: clear it
        for i in range(L.O_T_ON, L.OBS_LEN):
            obs[i] = 0


@kernel
def _hidden_locations(st, cfg, seat, locs):
    """State offsets of every location ``seat`` cannot see; returns how many."""
    k = 0
    for p in range(cfg[L.C_N]):
        if p != seat:
            locs[k] = L.S_HAND + p
            locs[k + 1] = L.S_FOYER + p
            k += 2
    locs[k] = L.S_DEAD
    return k + 1


@kernel
def scramble_hidden(st, cfg, seat, kind, rng, scratch):
    """Permute, in place, the cards ``seat`` cannot see: other players' hands and Foyers
    and eliminated players' Foyers. Every location keeps its size, so public counts are
    unchanged. ``scratch``: int64 space for ``L.SCRAMBLE_LEN`` values."""
    locs = scratch[:2 * L.MAXP + 1]
    nl = _hidden_locations(st, cfg, seat, locs)
    cards = scratch[2 * L.MAXP + 1:L.SCRAMBLE_LEN]
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
