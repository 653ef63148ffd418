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

from demos_sim.assemblee import layout as L
from demos_sim.bits import wrap
from demos_sim.jit import kernel
from demos_sim.rng import below

_BASE = np.array(L.EVENT_BASE, np.int64)


@kernel(inline=True)
def event_cost(cfg, b, x, p):
    """A5.2: ``base + X + 3p`` (``postpone_surcharge = per_round``) or ``base + X +
    3·min(p, 1)`` (``once``), for base ``b``, ``x`` players in the game, ``p`` rounds
    postponed."""
    if cfg[L.C_SURCHARGE_ONCE] != 0 and p > 1:
        p = 1
    return b + x + 3 * p


@kernel
def pending_cost(st, cfg, base):
    """A5.2/A5.3: total cost of the pending events (:func:`event_cost`), X = players in
    now."""
    t = 0
    x = st[L.S_NIN]
    for i in range(st[L.S_NPEND]):
        t += event_cost(cfg, base[st[L.S_PEND_EV + i]], x, st[L.S_PEND_P + i])
    return t


@kernel
def observe_full(st, cfg, ref, out, base):
    """Rebuild seat ``ref[O_SEAT]``'s board from the state into ``out`` (OBS_LEN).

    The header and the public history counters are copied from ``ref``; everything the
    state determines is recomputed, with the A0/A4 visibility of sealed bids."""
    for i in range(L.OBS_LEN):
        out[i] = ref[i]
    seat = ref[L.O_SEAT]
    n = cfg[L.C_N]
    out[L.O_N] = n
    out[L.O_ROUND] = st[L.S_ROUND]
    out[L.O_ROUNDS] = cfg[L.C_ROUNDS]
    out[L.O_THRESH] = cfg[L.C_THRESH]
    out[L.O_MC] = st[L.S_MC]
    out[L.O_IN] = st[L.S_IN]
    out[L.O_NIN] = st[L.S_NIN]
    out[L.O_ORACLE] = st[L.S_ORACLE]
    out[L.O_SEES] = st[L.S_SEES] if st[L.S_ORACLE] >= 0 else 0
    out[L.O_NREV] = st[L.S_NREV]
    out[L.O_SPENT] = st[L.S_SPENT]
    out[L.O_BRIG] = st[L.S_BRIG_NEXT]
    out[L.O_ARTHAS_USED] = st[L.S_ARTHAS_USED]
    out[L.O_EVENT_NOW] = st[L.S_EVENT_NOW]
    drawn = 0
    for i in range(st[L.S_DECK_POS]):
        drawn |= np.int64(1) << st[L.S_DECK + i]
    out[L.O_DRAWN] = drawn
    for p in range(L.MAXP):
        out[L.O_GOLD + p] = st[L.S_GOLD + p]
        out[L.O_REN + p] = st[L.S_REN + p]
        out[L.O_PERS + p] = st[L.S_PERS + p]
    for k in range(L.NCHAR):
        out[L.O_REV + k] = st[L.S_REV + k]
        out[L.O_HOLDS + k] = st[L.S_HOLDS + k]
        out[L.O_PREV_HOLDS + k] = st[L.S_PREV_HOLDS + k]
        out[L.O_HOLDER + k] = st[L.S_HOLDER + k]
    cur = st[L.S_CUR]
    for k in range(L.NCHAR):
        for p in range(L.MAXP):
            v = -1
            if k < cur:
                v = st[L.S_BIDS + k * L.MAXP + p]
            elif (k == cur and st[L.S_PHASE] == L.PH_BID and seat == st[L.S_ORACLE]
                  and (st[L.S_SEES] >> p) & 1):
                v = st[L.S_BIDS + k * L.MAXP + p]
            out[L.O_BIDS + k * L.MAXP + p] = v
    for e in range(L.NHARM):
        out[L.O_PEND_COUNT + e] = 0
    for i in range(st[L.S_NPEND]):
        out[L.O_PEND_COUNT + st[L.S_PEND_EV + i]] += 1
    out[L.O_NPEND] = st[L.S_NPEND]
    out[L.O_PEND_COST] = pending_cost(st, cfg, base)


@kernel
def scramble_hidden(st, cfg, seat, rng, tmp):
    """Redraw, in place, everything ``seat`` cannot see: the order of the event deck's
    remaining cards, the Oracle's views of auctions not yet opened (three_bids) and
    every other seat's sealed decision still open."""
    pos = st[L.S_DECK_POS]
    k = L.NEVENT - pos
    for i in range(k):
        tmp[i] = st[L.S_DECK + pos + i]
    for i in range(k - 1, 0, -1):
        j = below(rng, 0, i + 1)
        t = tmp[i]
        tmp[i] = tmp[j]
        tmp[j] = t
    for i in range(k):
        st[L.S_DECK + pos + i] = tmp[i]
    ph = st[L.S_PHASE]
    n = cfg[L.C_N]
    o = st[L.S_ORACLE]
    if o >= 0 and cfg[L.C_ORACLE_PLAYERS] == 0:
        # auction S_CUR is open while its bids are made (PH_BID); after its reveal S_CUR
        # already names the next one, not opened yet
        first = st[L.S_CUR] + 1 if ph == L.PH_BID else st[L.S_CUR]
        for i in range(first, 3):
            v = below(rng, 0, n - 1)       # any other seat in the game
            if v >= o:
                v += 1
            while not (st[L.S_IN] >> v) & 1:
                v = wrap(v + 1, n)
                if v == o:
                    v = wrap(v + 1, n)
            st[L.S_VIEWS + i] = v
    for q in range(n):
        if q == seat or not (st[L.S_IN] >> q) & 1:
            continue
        g = st[L.S_GOLD + q]
        if ph == L.PH_BID:
            if seat == st[L.S_ORACLE] and (st[L.S_SEES] >> q) & 1:
                continue
            st[L.S_BIDS + st[L.S_CUR] * L.MAXP + q] = below(rng, 0, g + 1)
        elif ph == L.PH_PLEDGE:
            st[L.S_SEALED + q] = below(rng, 0, g + 1)
        elif ph == L.PH_SUPPORT:
            st[L.S_SEALED + q] = below(rng, 0, 2)
        elif ph == L.PH_OSTP:
            st[L.S_SEALED + q] = below(rng, 0, 2)
            st[L.S_SEALED2 + q] = below(rng, 0, g + 1)
        elif ph == L.PH_VOTE:
            st[L.S_SEALED + q] = below(rng, 0, n)
