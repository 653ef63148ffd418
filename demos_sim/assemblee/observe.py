"""What one seat may know (RULES.md A0, M2): the only door policies get through.

The engine keeps the observation ``obs`` as a *public board* it writes at the moments
things become public (every figure change — gold and renown are public, A0 —, each
auction's bids once everyone has bid, pledges, supports and votes once revealed, the
event drawn, holders, spent characters, pending events), plus a decision header
(``O_KIND`` … ``O_TIE_WHAT``) written before each decision. A policy gets that buffer and
nothing else.

Hidden from every seat: the order of the event deck's remaining cards, the chance draws
to come (under ``oracle_view = three_bids``: the seats the Oracle will see at the
auctions not yet opened), and sealed decisions not yet revealed — the other players'
bids on the character being auctioned (except, for the Oracle advantage seat, the bids
of the seats he sees at this auction, A4), the other players' pledges, supports,
ostracism pledges and honours votes while they are being made. Which seat the Oracle
sees at an auction is public once that auction opens (``O_SEES``).

:func:`observe_full` rebuilds every board field that follows from the state from the
state alone (copying the header and the public history counters from the board), and
:func:`scramble_hidden` permutes or redraws everything the deciding seat cannot see. The
check mode of the engine asserts, at every decision, that the board equals the rebuilt
one, that it is unchanged by a scramble, and that the policy decides the same.
"""

import numpy as np
from numba import njit

from demos_sim.assemblee.layout import (
    C_N, C_ORACLE_PLAYERS, C_ROUNDS, C_SURCHARGE_ONCE, C_THRESH, EVENT_BASE, MAXP, NCHAR,
    NEVENT, NHARM, O_ARTHAS_USED, O_BIDS,
    O_BRIG, O_DRAWN, O_EVENT_NOW, O_GOLD, O_HOLDER, O_HOLDS, O_IN, O_MC, O_N, O_NIN,
    O_NPEND, O_NREV, O_ORACLE, O_PEND_COST, O_PEND_COUNT, O_PERS, O_PREV_HOLDS, O_REN,
    O_REV, O_ROUND, O_ROUNDS, O_SEAT, O_SEES, O_SPENT, O_THRESH, OBS_LEN, PH_BID,
    PH_OSTP, PH_PLEDGE, PH_SUPPORT, PH_VOTE, S_ARTHAS_USED, S_BIDS, S_BRIG_NEXT, S_CUR,
    S_DECK, S_DECK_POS, S_EVENT_NOW, S_GOLD, S_HOLDER, S_HOLDS, S_IN, S_MC, S_NIN,
    S_NPEND, S_NREV, S_ORACLE, S_PEND_EV, S_PEND_P, S_PERS, S_PHASE, S_PREV_HOLDS,
    S_REN, S_REV, S_ROUND, S_SEALED, S_SEALED2, S_SEES, S_SPENT, S_VIEWS,
)
from demos_sim.rng import below

_BASE = np.array(EVENT_BASE, np.int64)


@njit(cache=True, _nrt=False, inline="always")
def event_cost(cfg, b, x, p):
    """A5.2: ``base + X + 3p`` (``postpone_surcharge = per_round``) or ``base + X +
    3·min(p, 1)`` (``once``), for base ``b``, ``x`` players in the game, ``p`` rounds
    postponed."""
    if cfg[C_SURCHARGE_ONCE] != 0 and p > 1:
        p = 1
    return b + x + 3 * p


@njit(cache=True, _nrt=False)
def pending_cost(st, cfg, base):
    """A5.2/A5.3: total cost of the pending events (:func:`event_cost`), X = players in
    now."""
    t = 0
    x = st[S_NIN]
    for i in range(st[S_NPEND]):
        t += event_cost(cfg, base[st[S_PEND_EV + i]], x, st[S_PEND_P + i])
    return t


@njit(cache=True, _nrt=False)
def observe_full(st, cfg, ref, out, base):
    """Rebuild seat ``ref[O_SEAT]``'s board from the state into ``out`` (OBS_LEN).

    The header and the public history counters are copied from ``ref``; everything the
    state determines is recomputed, with the A0/A4 visibility of sealed bids."""
    for i in range(OBS_LEN):
        out[i] = ref[i]
    seat = ref[O_SEAT]
    n = cfg[C_N]
    out[O_N] = n
    out[O_ROUND] = st[S_ROUND]
    out[O_ROUNDS] = cfg[C_ROUNDS]
    out[O_THRESH] = cfg[C_THRESH]
    out[O_MC] = st[S_MC]
    out[O_IN] = st[S_IN]
    out[O_NIN] = st[S_NIN]
    out[O_ORACLE] = st[S_ORACLE]
    out[O_SEES] = st[S_SEES] if st[S_ORACLE] >= 0 else 0
    out[O_NREV] = st[S_NREV]
    out[O_SPENT] = st[S_SPENT]
    out[O_BRIG] = st[S_BRIG_NEXT]
    out[O_ARTHAS_USED] = st[S_ARTHAS_USED]
    out[O_EVENT_NOW] = st[S_EVENT_NOW]
    drawn = 0
    for i in range(st[S_DECK_POS]):
        drawn |= np.int64(1) << st[S_DECK + i]
    out[O_DRAWN] = drawn
    for p in range(MAXP):
        out[O_GOLD + p] = st[S_GOLD + p]
        out[O_REN + p] = st[S_REN + p]
        out[O_PERS + p] = st[S_PERS + p]
    for k in range(NCHAR):
        out[O_REV + k] = st[S_REV + k]
        out[O_HOLDS + k] = st[S_HOLDS + k]
        out[O_PREV_HOLDS + k] = st[S_PREV_HOLDS + k]
        out[O_HOLDER + k] = st[S_HOLDER + k]
    cur = st[S_CUR]
    for k in range(NCHAR):
        for p in range(MAXP):
            v = -1
            if k < cur:
                v = st[S_BIDS + k * MAXP + p]
            elif (k == cur and st[S_PHASE] == PH_BID and seat == st[S_ORACLE]
                  and (st[S_SEES] >> p) & 1):
                v = st[S_BIDS + k * MAXP + p]
            out[O_BIDS + k * MAXP + p] = v
    for e in range(NHARM):
        out[O_PEND_COUNT + e] = 0
    for i in range(st[S_NPEND]):
        out[O_PEND_COUNT + st[S_PEND_EV + i]] += 1
    out[O_NPEND] = st[S_NPEND]
    out[O_PEND_COST] = pending_cost(st, cfg, base)


@njit(cache=True, _nrt=False)
def scramble_hidden(st, cfg, seat, rng, tmp):
    """Redraw, in place, everything ``seat`` cannot see: the order of the event deck's
    remaining cards, the Oracle's views of auctions not yet opened (three_bids) and
    every other seat's sealed decision still open."""
    pos = st[S_DECK_POS]
    k = NEVENT - pos
    for i in range(k):
        tmp[i] = st[S_DECK + pos + i]
    for i in range(k - 1, 0, -1):
        j = below(rng, 0, i + 1)
        t = tmp[i]
        tmp[i] = tmp[j]
        tmp[j] = t
    for i in range(k):
        st[S_DECK + pos + i] = tmp[i]
    ph = st[S_PHASE]
    n = cfg[C_N]
    o = st[S_ORACLE]
    if o >= 0 and cfg[C_ORACLE_PLAYERS] == 0:
        # auction S_CUR is open while its bids are made (PH_BID); after its reveal S_CUR
        # already names the next one, not opened yet
        first = st[S_CUR] + 1 if ph == PH_BID else st[S_CUR]
        for i in range(first, 3):
            v = below(rng, 0, n - 1)       # any other seat in the game
            if v >= o:
                v += 1
            while not (st[S_IN] >> v) & 1:
                v = (v + 1) % n
                if v == o:
                    v = (v + 1) % n
            st[S_VIEWS + i] = v
    for q in range(n):
        if q == seat or not (st[S_IN] >> q) & 1:
            continue
        g = st[S_GOLD + q]
        if ph == PH_BID:
            if seat == st[S_ORACLE] and (st[S_SEES] >> q) & 1:
                continue
            st[S_BIDS + st[S_CUR] * MAXP + q] = below(rng, 0, g + 1)
        elif ph == PH_PLEDGE:
            st[S_SEALED + q] = below(rng, 0, g + 1)
        elif ph == PH_SUPPORT:
            st[S_SEALED + q] = below(rng, 0, 2)
        elif ph == PH_OSTP:
            st[S_SEALED + q] = below(rng, 0, 2)
            st[S_SEALED2 + q] = below(rng, 0, g + 1)
        elif ph == PH_VOTE:
            st[S_SEALED + q] = below(rng, 0, n)
