"""The L'Assemblée game kernel: whole games in numba, policies called through function pointers.

One game is ``play_game``: setup (A1, A11), then rounds of income (A2), event (A3),
auction (A4, A11 Leremac and Nimos), good event (A5.1), pending harmful events (A5.2),
collapse (A5.3), benefits (A7), ostracism (A8) and honours (A9), until the last round,
a collapse or fewer than ``min_players`` (A8, A12); then the scores (A10). Every
decision goes through ``_decide``: it writes the decision header into the seat's
observation (the public board kept by the engine, :mod:`demos_sim.assemblee.observe`),
calls that seat's policy (a first-class numba function), — when ``cfg[C_CHECK_OBS]``
is set — rebuilds the board from the state, and again from a state whose hidden parts
were redrawn (M2), replays the decision on it, and checks the invariants (gold and
renown never negative, the ledger of every gold and renown created and destroyed
balances the figures of the players in the game), then validates the index: the step
of :mod:`demos_sim.kernel` shared by the three games. Offsets are read as ``L.NAME``
(:mod:`demos_sim.assemblee.layout`). With
``cfg[C_LOG]`` set the game writes the event log :mod:`demos_sim.assemblee.record`
turns into a GAME_RECORD.md record. Hot functions are compiled with :func:`demos_sim.jit.kernel`
(no allocation: every buffer comes from ``play_batch``).

Options. Amount decisions (``K_BID``, ``K_PLEDGE``, ``K_OST_PLEDGE``) have ``n_opts =
max + 1`` and the index *is* the amount (``opts`` is not filled). List decisions fill
``opts``: seats (``K_TARGET`` — ``-1`` first for the Assassin's decline —, ``K_PROPOSE``
with ``-1`` = no proposal, ``K_VOTE``, ``K_NAME_MC``, ``K_TIE`` — ``O_TIE_WHAT`` says
which tie: 0 an auction, 1 the honours, 2 the final tie of A10 under ``final_tie =
mc_choice``), ``[0, 1]`` (``K_STOP``,
``K_SPEND``, ``K_SUPPORT``: 1 = yes), ``[0, -1, +1]`` as allowed (``K_NIMOS``), the
affordable ``[0, 3, 4, 6]`` (``K_BUY``). A forced choice (one option) calls no policy.

Random streams of a game with 64-bit key ``key`` (chance never depends on policies,
so decks are common random numbers across policies and variants): setup — event deck,
then the MC, then personalities — ``derive(key, 0, 0)`` (the deck is shuffled under
``event_draw = independent`` too, unused, so that the MC and personalities are the
same); round ``r``'s reshuffle ``derive(key, 5, r)``, characters revealed ``derive(key,
6, r)`` (a shuffle of the 15, the first ``max(6, min(15, X))`` revealed), the Oracle's
seen players ``derive(key, 7, r)`` (``three_players``: the first ``min(3, k)`` of a
partial shuffle of the ``k`` other players in the game, in seat order) or ``derive(key,
9, r)`` (``three_bids``: three draws, uniform among the same ``k``, for auctions 0, 1,
2), the wedding's players ``derive(key, 8, r)``, the event under ``event_draw =
independent`` ``derive(key, 10, r)`` (uniform among the 15); seat ``p``'s policy
``derive(key, 1, p)``; the observation test's redraws ``derive(key, 2, 0)``.

Readings of RULES.md made here (also in the README):

- A1: the MC stays the same from round to round; he changes only when assassinated
  (A7) or exiled (A8). Turn order (bids, pledges, proposals, votes — all sealed, so the
  order matters only for who proposes first, A8, and for several Nimos, A11) starts at
  his left.
- A4: bids are paid once the auction's bids are revealed (after Nimos), so gold shown
  while bidding never leaks a sealed bid; each later auction is bid from what is left.
  Leremac's effective bid (paid + 2) counts for "the highest bid, if at least 1", so he
  can win the Thief, Assassin or Brigand with a bid of 0. Ties compare effective bids.
  The winner is decided once, after every Nimos adjustment of that auction.
- A4 Oracle (``oracle_view``): he bids last. ``three_players``: the 3 seen players are
  drawn among the other players in the game at the start of the auction phase; he sees
  their bid on each character before bidding on it. ``three_bids`` (default): the seat
  he sees at each of auctions 0, 1 and 2 is drawn independently at the start of the
  auction phase (the players in the game do not change during A4, so this is the same
  as drawing at each auction) and made public when that auction opens (``O_SEES``, as
  the 3 seats are under three_players); from auction 3 on he sees nothing.
- A5.1 / A5.2: only a character revealed and won this round can be spent; its holder
  decides. A character spent on a good event cannot also resolve a harmful one. Pledges
  are bounded by the pledger's gold, paid in full (even beyond the cost) when the total
  reaches the cost; each later pending event is pledged from what is left. ``X`` is the
  number of players in the game at A5.
- A7: a holder removed earlier in A7 (assassinated) gets no benefit, and his character
  is not listed in ``benefits``. The Guard's immunity blocks a Thief, Assassin or
  Brigand aimed at its holder; the Assassin's 25 gold are paid whenever he names a
  target (blocked by the Guard or by Arthas too). Arthas's cancel (A11) is automatic:
  the first Thief, Assassin or Brigand effect aimed at him that the Guard did not
  already block. Targets are any other player in the game (the Guard's holder
  included: the effect is then blocked). The Brigand's cut income applies in the next
  round only; a player can be cut only once.
- A8: supports and ostracism pledges are sealed together: a supporter decides his
  pledge without seeing the other supports. The gold threshold is ``ceil(G / 4)`` of
  the gold ``G`` of every player in the game (target included) before the pledges; the
  pledged gold goes to the bank. An exiled MC names the new MC (his policy decides,
  the one decision a player out of the game takes).
- A9, A4 ties "then the MC's choice": a decision of the MC's policy among the tied.
- A10 / A12: a game ended by ``min_players`` is scored at once like a finished game.
  ``final_tie = mc_choice``: the MC in the game at the end (after any assassination or
  exile) names the winner among the players tied on score and gold (himself included
  when tied); no choice after a collapse.
- A5.2 ``postpone_surcharge = once``: every cost (A5.2, A5.3, and the pending total shown
  to policies) is ``base + X + 3·min(p, 1)``.
"""

import numpy as np

from demos_sim import kernel as K
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.observe import event_cost, observe_full, pending_cost, scramble_hidden
from demos_sim.bits import wrap
from demos_sim.eventlog import log_event
from demos_sim.jit import kernel
from demos_sim.kernel import (  # noqa: F401  (re-exported: E.DIAG_LEN, E.D_PUB_DIFF …)
    D_CHECKED, D_DECISION_DIFF, D_ERROR, D_FIRST_DIFF, D_INVARIANT, D_OBS_DIFF, D_OUT_ACTED,
    D_PUB_DIFF, DIAG_LEN, check_errors,
)
from demos_sim.rng import below, derive, shuffle_inplace

# A6: base cost and resolving character of each harmful event, as arrays for the kernels
EVENT_BASE_ARR = np.array(L.EVENT_BASE, np.int64)
EVENT_RESOLVER_ARR = np.array(L.EVENT_RESOLVER, np.int64)
WK_LEN = L.WK_LEN   # callers' name


# ------------------------------------------------------------------ small helpers
@kernel(inline=True)
def _log(cfg, log, t, a, b, c, d, e):
    log_event(cfg[L.C_LOG], log, t, a, b, c, d, e)


@kernel(inline=True)
def _bit(i):
    return np.int64(1) << i


@kernel(inline=True)
def _in(st, p):
    return (st[L.S_IN] >> p) & 1 == 1


@kernel(inline=True)
def _gold(st, obs, p, d):
    """Gold of seat ``p`` changes by ``d``; the ledger and the public board follow."""
    st[L.S_GOLD + p] += d
    if d > 0:
        st[L.S_GOLD_IN] += d
    else:
        st[L.S_GOLD_OUT] -= d
    obs[L.O_GOLD + p] = st[L.S_GOLD + p]


@kernel(inline=True)
def _ren(st, obs, p, d):
    st[L.S_REN + p] += d
    if d > 0:
        st[L.S_REN_IN] += d
    else:
        st[L.S_REN_OUT] -= d
    obs[L.O_REN + p] = st[L.S_REN + p]


@kernel
def _turn_order(st, cfg, seats):
    """Seats in the game in turn order (the MC's left first, the MC last); returns count."""
    n = cfg[L.C_N]
    k = 0
    for j in range(n):
        p = wrap(st[L.S_MC] + 1 + j, n)
        if _in(st, p):
            seats[k] = p
            k += 1
    return k


@kernel
def _ctx(obs, char, pos, event, cost):
    obs[L.O_CHAR] = char
    obs[L.O_POS] = pos
    obs[L.O_EVENT] = event
    obs[L.O_COST] = cost


@kernel
def _check_invariants(st, cfg, diag):
    """Gold and renown never negative; the ledger balances the players in the game; no
    gold or renown held by a player out of the game."""
    n = cfg[L.C_N]
    g = 0
    r = 0
    for p in range(L.MAXP):
        if st[L.S_GOLD + p] < 0 or st[L.S_REN + p] < 0:
            diag[K.D_INVARIANT] += 1
        if p >= n or not _in(st, p):
            if st[L.S_GOLD + p] != 0 or st[L.S_REN + p] != 0:
                diag[K.D_INVARIANT] += 1
        g += st[L.S_GOLD + p]
        r += st[L.S_REN + p]
    if g != st[L.S_GOLD_IN] - st[L.S_GOLD_OUT] or r != st[L.S_REN_IN] - st[L.S_REN_OUT]:
        diag[K.D_INVARIANT] += 1


@kernel
def _check_decision(fns, st, cfg, obs, seat, opts, n_opts, params, prng, wk, diag, idx,
                    saved):
    """M2 check (:mod:`demos_sim.kernel` step 2): board == board rebuilt from the state
    == board rebuilt from a state whose hidden parts were redrawn, and the policy decides
    the same on the latter; then the invariants."""
    obs2 = wk[L.W_OBS2:L.W_OBS2 + L.OBS_LEN]
    observe_full(st, cfg, obs, obs2, EVENT_BASE_ARR)
    K.compare(obs, obs2, diag, K.D_PUB_DIFF)
    st2 = wk[L.W_ST2:L.W_ST2 + L.ST_LEN]
    for i in range(L.ST_LEN):
        st2[i] = st[i]
    scramble_hidden(st2, cfg, seat, prng[L.RNG_SCRAMBLE:L.RNG_SCRAMBLE + 1],
                    wk[L.W_SCRAMBLE:L.W_SCRAMBLE + L.NEVENT])
    obs3 = wk[L.W_OBS3:L.W_OBS3 + L.OBS_LEN]
    observe_full(st2, cfg, obs, obs3, EVENT_BASE_ARR)
    K.compare(obs2, obs3, diag, K.D_OBS_DIFF)
    K.replay(fns, cfg, obs3, opts, n_opts, params, prng, seat, saved, idx, diag)
    if not _in(st, seat) and obs[L.O_KIND] != L.K_NAME_MC:
        diag[K.D_OUT_ACTED] += 1
    _check_invariants(st, cfg, diag)


@kernel(inline=True)
def _decide(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, wk, diag):
    """The decision step (:mod:`demos_sim.kernel`): ``seat``'s policy chooses among
    ``n_opts`` options (``opts[:n_opts]``, or the amounts 0 … n_opts-1); returns the
    index of the option played. The board ``obs`` is kept public by the engine; only the
    decision header is written here."""
    obs[L.O_KIND] = kind
    obs[L.O_SEAT] = seat
    if n_opts == 1:
        return 0  # a forced move is no decision: no policy call, no random draw
    saved = prng[seat]
    idx = fns[seat](cfg, obs, opts, n_opts, params[seat], prng[seat:seat + 1])
    if cfg[L.C_CHECK_OBS] != 0:
        _check_decision(fns, st, cfg, obs, seat, opts, n_opts, params, prng, wk, diag, idx,
                        saved)
    return K.validate(idx, n_opts, st, L.S_ERROR)


@kernel(inline=True)
def _amount(fns, st, cfg, obs, seat, kind, top, opts, params, prng, wk, diag):
    """An amount decision 0 … top (the index is the amount)."""
    obs[L.O_MAX] = top
    return _decide(fns, st, cfg, obs, seat, kind, opts, top + 1, params, prng, wk, diag)


@kernel(inline=True)
def _yes_no(fns, st, cfg, obs, seat, kind, opts, params, prng, wk, diag):
    opts[0] = 0
    opts[1] = 1
    return _decide(fns, st, cfg, obs, seat, kind, opts, 2, params, prng, wk, diag) == 1


@kernel
def _other_seats(st, cfg, seat, opts, k):
    """Append every other seat in the game (seat order) to ``opts`` from ``k``; new count."""
    for q in range(cfg[L.C_N]):
        if q != seat and _in(st, q):
            opts[k] = q
            k += 1
    return k


@kernel
def _mc_tie(fns, st, cfg, obs, tied, nt, what, opts, params, prng, wk, diag):
    """A4/A9 ties: most renown now among ``tied[:nt]``, then the MC's choice."""
    best = -1
    k = 0
    for i in range(nt):
        r = st[L.S_REN + tied[i]]
        if r > best:
            best = r
            k = 0
        if r == best:
            opts[k] = tied[i]
            k += 1
    obs[L.O_TIE_WHAT] = what
    i = _decide(fns, st, cfg, obs, st[L.S_MC], L.K_TIE, opts, k, params, prng, wk, diag)
    return opts[i]


@kernel
def _remove(st, obs, cfg, p):
    """Player ``p`` leaves the game with his possessions (A7 Assassin, A8 exile)."""
    _gold(st, obs, p, -st[L.S_GOLD + p])
    _ren(st, obs, p, -st[L.S_REN + p])
    st[L.S_IN] &= ~_bit(p)
    st[L.S_NIN] -= 1
    obs[L.O_IN] = st[L.S_IN]
    obs[L.O_NIN] = st[L.S_NIN]
    obs[L.O_PEND_COST] = pending_cost(st, cfg, EVENT_BASE_ARR)


@kernel
def _pub_pending(st, cfg, obs):
    for e in range(L.NHARM):
        obs[L.O_PEND_COUNT + e] = 0
    for i in range(st[L.S_NPEND]):
        obs[L.O_PEND_COUNT + st[L.S_PEND_EV + i]] += 1
    obs[L.O_NPEND] = st[L.S_NPEND]
    obs[L.O_PEND_COST] = pending_cost(st, cfg, EVENT_BASE_ARR)


# ------------------------------------------------------------------ A1, A11 setup
@kernel
def init_state(cfg, key, st, obs, prng, res):
    """Empty table before A1: everyone in the game with 0 gold and 0 renown."""
    n = cfg[L.C_N]
    for i in range(L.ST_LEN):
        st[i] = 0
    for i in range(L.OBS_LEN):
        obs[i] = 0
    for i in range(L.RES_LEN):
        res[i] = 0
    res[L.R_COLLAPSE_NEW] = -1
    st[L.S_IN] = (np.int64(1) << n) - 1
    st[L.S_NIN] = n
    st[L.S_ORACLE_NEXT] = -1
    st[L.S_ORACLE] = -1
    st[L.S_EVENT_NOW] = -1
    for p in range(L.MAXP):
        st[L.S_PERS + p] = -1
        prng[p] = derive(key, 1, p)
    for k in range(L.NCHAR):
        st[L.S_REV + k] = -1
        st[L.S_HOLDER + k] = -1
        st[L.S_HOLDS + k] = -1
        st[L.S_PREV_HOLDS + k] = -1
    prng[L.RNG_SCRAMBLE] = derive(key, 2, 0)
    obs[L.O_N] = n
    obs[L.O_IN] = st[L.S_IN]
    obs[L.O_NIN] = n
    obs[L.O_ROUNDS] = cfg[L.C_ROUNDS]
    obs[L.O_THRESH] = cfg[L.C_THRESH]
    obs[L.O_LAST_TOTAL] = -1
    obs[L.O_LAST_COST] = -1
    obs[L.O_ORACLE] = -1
    obs[L.O_EVENT_NOW] = -1
    for p in range(L.MAXP):
        obs[L.O_LAST_PLEDGE + p] = -1
        obs[L.O_LAST_VOTE + p] = -1
        obs[L.O_PERS + p] = -1
    for k in range(L.NCHAR):
        obs[L.O_REV + k] = -1
        obs[L.O_HOLDER + k] = -1
        obs[L.O_HOLDS + k] = -1
        obs[L.O_PREV_HOLDS + k] = -1
    for k in range(L.NCHAR * L.MAXP):
        obs[L.O_BIDS + k] = -1


@kernel
def setup(st, cfg, obs, prng, key, log, res):
    """A1: the event deck shuffled, the MC drawn; A11 personalities dealt in seat order
    from a shuffled 6, reshuffled each time all 6 are dealt; Mirnok starts with 3 renown."""
    n = cfg[L.C_N]
    prng[L.RNG_CHANCE] = derive(key, 0, 0)
    for i in range(L.NEVENT):
        st[L.S_DECK + i] = i
    shuffle_inplace(st[L.S_DECK:L.S_DECK + L.NEVENT], L.NEVENT, prng, L.RNG_CHANCE)
    st[L.S_MC] = below(prng, L.RNG_CHANCE, n)
    obs[L.O_MC] = st[L.S_MC]
    res[L.R_MC0] = st[L.S_MC]
    _log(cfg, log, L.L_SETUP, st[L.S_MC], 0, 0, 0, 0)
    # event_draw = independent: no event deck (A3); the shuffle above still runs, so that
    # the MC and the personalities are the same
    if cfg[L.C_EVENT_INDEP] == 0:
        for i in range(L.NEVENT):
            _log(cfg, log, L.L_DECK, i, st[L.S_DECK + i], 0, 0, 0)
    if cfg[L.C_PERS] != 0:
        pile = st[L.S_SEALED:L.S_SEALED + 6]
        for p in range(n):
            if p % 6 == 0:
                for i in range(6):
                    pile[i] = i
                shuffle_inplace(pile, 6, prng, L.RNG_CHANCE)
            st[L.S_PERS + p] = pile[p % 6]
        for p in range(n):          # force_personality (a runner setting, not Part V):
            f = cfg[L.C_FORCE + p]    # the seat swaps with the first seat dealt that one
            if f >= 0 and st[L.S_PERS + p] != f:
                for q in range(n):
                    if q != p and st[L.S_PERS + q] == f and cfg[L.C_FORCE + q] != f:
                        st[L.S_PERS + q] = st[L.S_PERS + p]
                        break
                st[L.S_PERS + p] = f
        for p in range(n):
            pe = st[L.S_PERS + p]
            obs[L.O_PERS + p] = pe
            res[L.R_PERS + p] = pe
            _log(cfg, log, L.L_PERS, p, pe, 0, 0, 0)
            if pe == L.PE_MIRNOK:
                _ren(st, obs, p, 3)
        for i in range(6):
            pile[i] = 0
    else:
        for p in range(L.MAXP):
            res[L.R_PERS + p] = -1


# ------------------------------------------------------------------ A2–A4
@kernel
def _income(st, cfg, obs, log):
    """A2, A11 Akikos, A12: 7 gold (Akikos 13 or 6), 1 after a Brigand."""
    for p in range(cfg[L.C_N]):
        if not _in(st, p):
            continue
        inc = 7
        if st[L.S_PERS + p] == L.PE_AKIKOS:
            inc = 6 if cfg[L.C_AKIKOS_TOTAL] != 0 else 13
        if (st[L.S_BRIG_NOW] >> p) & 1:
            inc = 1
        _gold(st, obs, p, inc)
        _log(cfg, log, L.L_INCOME, p, inc, 0, 0, 0)
    st[L.S_BRIG_NOW] = 0


@kernel
def _draw_event(st, cfg, obs, prng, key, log):
    """A3, A12: the top card; an empty deck is reshuffled whole (pending cards included).
    ``event_draw = independent``: one of the 15 uniformly, repeats allowed, no deck."""
    if cfg[L.C_EVENT_INDEP] != 0:
        prng[L.RNG_CHANCE] = derive(key, 10, st[L.S_ROUND])
        ev = below(prng, L.RNG_CHANCE, L.NEVENT)
    else:
        ev = _deck_draw(st, cfg, obs, prng, key, log)
    st[L.S_EVENT_NOW] = ev
    obs[L.O_EVENT_NOW] = ev
    _log(cfg, log, L.L_EVENT, ev, 0, 0, 0, 0)
    if ev < L.NHARM:
        k = st[L.S_NPEND]
        st[L.S_PEND_EV + k] = ev
        st[L.S_PEND_P + k] = 0
        st[L.S_NPEND] = k + 1
        _pub_pending(st, cfg, obs)
    return ev


@kernel
def _deck_draw(st, cfg, obs, prng, key, log):
    """A3 ``event_draw = deck``: the top card, reshuffling an empty deck first."""
    if st[L.S_DECK_POS] >= L.NEVENT:
        prng[L.RNG_CHANCE] = derive(key, 5, st[L.S_ROUND])
        for i in range(L.NEVENT):
            st[L.S_DECK + i] = i
        shuffle_inplace(st[L.S_DECK:L.S_DECK + L.NEVENT], L.NEVENT, prng, L.RNG_CHANCE)
        st[L.S_DECK_POS] = 0
        obs[L.O_DRAWN] = 0
        for i in range(L.NEVENT):
            _log(cfg, log, L.L_RESHUFFLE, i, st[L.S_DECK + i], 0, 0, 0)
    ev = st[L.S_DECK + st[L.S_DECK_POS]]
    st[L.S_DECK_POS] += 1
    obs[L.O_DRAWN] |= _bit(ev)
    return ev


@kernel
def _reveal(st, cfg, obs, prng, key, log, res, wk):
    """A4: max(6, min(15, X)) characters drawn at random; the Oracle advantage set up."""
    nin = st[L.S_NIN]
    nrev = max(6, min(L.NCHAR, nin))
    chars = wk[L.W_LIST:L.W_LIST + L.NCHAR]
    for i in range(L.NCHAR):
        chars[i] = i
    prng[L.RNG_CHANCE] = derive(key, 6, st[L.S_ROUND])
    shuffle_inplace(chars, L.NCHAR, prng, L.RNG_CHANCE)
    st[L.S_NREV] = nrev
    obs[L.O_NREV] = nrev
    for k in range(nrev):
        st[L.S_REV + k] = chars[k]
        obs[L.O_REV + k] = chars[k]
        res[L.R_REVEALED + chars[k]] += 1
        _log(cfg, log, L.L_REVEAL, k, chars[k], 0, 0, 0)
    o = st[L.S_ORACLE_NEXT]
    st[L.S_ORACLE_NEXT] = -1
    st[L.S_ORACLE] = -1
    st[L.S_SEES] = 0
    if o >= 0 and _in(st, o):           # A12: the benefit applied and he is still in
        others = wk[L.W_LIST:L.W_LIST + L.MAXP]
        k = 0
        for q in range(cfg[L.C_N]):
            if q != o and _in(st, q):
                others[k] = q
                k += 1
        sees = 0
        if cfg[L.C_ORACLE_PLAYERS] != 0:     # three_players: 3 seats for the whole round
            prng[L.RNG_CHANCE] = derive(key, 7, st[L.S_ROUND])
            m = min(3, k)
            for i in range(m):             # partial Fisher–Yates: the first m of a shuffle
                j = i + below(prng, L.RNG_CHANCE, k - i)
                t = others[i]
                others[i] = others[j]
                others[j] = t
                sees |= _bit(others[i])
        else:                  # three_bids: one seat for each of auctions 0-2,
            prng[L.RNG_CHANCE] = derive(key, 9, st[L.S_ROUND])  # independently (repeats ok)
            for i in range(3):
                st[L.S_VIEWS + i] = others[below(prng, L.RNG_CHANCE, k)]
        st[L.S_ORACLE] = o
        st[L.S_SEES] = sees
        _log(cfg, log, L.L_ORACLE, o, sees, 0, 0, 0)
    obs[L.O_ORACLE] = st[L.S_ORACLE]
    obs[L.O_SEES] = st[L.S_SEES]


@kernel
def _auction(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, pos):
    """A4 one character: sealed bids (the Oracle last), reveal, Nimos, winner, payment."""
    n = cfg[L.C_N]
    c = st[L.S_REV + pos]
    row = L.S_BIDS + pos * L.MAXP
    seats = wk[L.W_SEATS:L.W_SEATS + L.MAXP]
    ns = _turn_order(st, cfg, seats)
    oracle = st[L.S_ORACLE]
    if oracle >= 0 and cfg[L.C_ORACLE_PLAYERS] == 0:   # three_bids: this auction's view opens
        st[L.S_SEES] = _bit(st[L.S_VIEWS + pos]) if pos < 3 else 0
        obs[L.O_SEES] = st[L.S_SEES]
        if pos < 3:
            _log(cfg, log, L.L_VIEW, pos, st[L.S_VIEWS + pos], 0, 0, 0)
    st[L.S_PHASE] = L.PH_BID
    _ctx(obs, c, pos, -1, 0)
    for j in range(ns):
        p = seats[j]
        if p == oracle:
            continue
        st[row + p] = _amount(fns, st, cfg, obs, p, L.K_BID, st[L.S_GOLD + p], opts, params,
                              prng, wk, diag)
    if oracle >= 0:
        for q in range(n):
            if (st[L.S_SEES] >> q) & 1:
                obs[L.O_BIDS + pos * L.MAXP + q] = st[row + q]
        st[row + oracle] = _amount(fns, st, cfg, obs, oracle, L.K_BID, st[L.S_GOLD + oracle],
                                   opts, params, prng, wk, diag)
    st[L.S_PHASE] = L.PH_NONE
    st[L.S_CUR] = pos + 1                     # revealed
    for q in range(L.MAXP):
        obs[L.O_BIDS + pos * L.MAXP + q] = st[row + q]
    for q in range(n):
        if _in(st, q):
            _log(cfg, log, L.L_BID, pos, q, st[row + q], 0, 0)
    if cfg[L.C_PERS] != 0:                    # A11 Nimos, A12: the bid just revealed, by 1
        for j in range(ns):
            p = seats[j]
            if st[L.S_PERS + p] != L.PE_NIMOS or (st[L.S_NIMOS_USED] >> p) & 1:
                continue
            b = st[row + p]
            k = 1
            opts[0] = 0
            if b >= 1:
                opts[k] = -1
                k += 1
            if b + 1 <= st[L.S_GOLD + p]:
                opts[k] = 1
                k += 1
            d = opts[_decide(fns, st, cfg, obs, p, L.K_NIMOS, opts, k, params, prng, wk, diag)]
            if d != 0:
                st[L.S_NIMOS_USED] |= _bit(p)
                st[row + p] = b + d
                obs[L.O_BIDS + pos * L.MAXP + p] = b + d
                _log(cfg, log, L.L_NIMOS, p, pos, b, b + d, 0)
    best = 0
    lere = c == L.CH_THIEF or c == L.CH_ASSASSIN or c == L.CH_BRIGAND
    tied = wk[L.W_LIST:L.W_LIST + L.MAXP]
    nt = 0
    for q in range(n):
        if not _in(st, q):
            continue
        e = st[row + q]
        if lere and st[L.S_PERS + q] == L.PE_LEREMAC:
            e += 2
        if e > best:
            best = e
            nt = 0
        if e == best and e >= 1:
            tied[nt] = q
            nt += 1
    w = -1
    if nt == 1:
        w = tied[0]
    elif nt > 1:
        w = _mc_tie(fns, st, cfg, obs, tied, nt, 0, opts, params, prng, wk, diag)
    for q in range(n):
        if _in(st, q) and st[row + q] > 0:
            _gold(st, obs, q, -st[row + q])
    st[L.S_HOLDER + pos] = w
    obs[L.O_HOLDER + pos] = w
    _log(cfg, log, L.L_HOLDER, pos, w, 0, 0, 0)
    if w >= 0:
        st[L.S_HOLDS + c] = w
        obs[L.O_HOLDS + c] = w
        res[L.R_SOLD + c] += 1
        res[L.R_WINBID + c] += st[row + w]
        res[L.R_HOLD + c * L.MAXP + w] += 1


# ------------------------------------------------------------------ A5 events
@kernel
def _good_event(fns, st, cfg, obs, opts, params, prng, wk, diag, log, key, ev):
    """A5.1: a good event, unless its stopping character's holder spends it."""
    stopper = L.CH_BRIGAND
    if ev == L.EV_TRIUMPH:
        stopper = L.CH_THIEF
    elif ev == L.EV_WEDDING:
        stopper = L.CH_SPECTACLES
    h = st[L.S_HOLDS + stopper]
    stopped = -1
    if h >= 0 and _in(st, h):
        _ctx(obs, stopper, -1, ev, 0)
        if _yes_no(fns, st, cfg, obs, h, L.K_STOP, opts, params, prng, wk, diag):
            stopped = h
            st[L.S_SPENT] |= _bit(stopper)
            obs[L.O_SPENT] = st[L.S_SPENT]
    p1 = -1
    p2 = -1
    if stopped < 0:
        n = cfg[L.C_N]
        if ev == L.EV_WEDDING:
            lst = wk[L.W_LIST:L.W_LIST + L.MAXP]
            k = 0
            for q in range(n):
                if _in(st, q):
                    lst[k] = q
                    k += 1
            prng[L.RNG_CHANCE] = derive(key, 8, st[L.S_ROUND])
            i = below(prng, L.RNG_CHANCE, k)
            p1 = lst[i]
            lst[i] = lst[k - 1]
            p2 = lst[below(prng, L.RNG_CHANCE, k - 1)]
            _ren(st, obs, p1, 3)
            _ren(st, obs, p2, 3)
        else:
            g = 10 if ev == L.EV_HARVEST else 5
            for q in range(n):
                if _in(st, q):
                    _gold(st, obs, q, g)
    _log(cfg, log, L.L_GOOD, ev, stopped, p1, p2, 0)


@kernel
def _harmful(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A5.2: every pending event, oldest first: spent character or pledges."""
    n = cfg[L.C_N]
    x = st[L.S_NIN]
    seats = wk[L.W_SEATS:L.W_SEATS + L.MAXP]
    ns = _turn_order(st, cfg, seats)
    keep = 0
    npend = st[L.S_NPEND]
    for i in range(npend):
        ev = st[L.S_PEND_EV + i]
        pp = st[L.S_PEND_P + i]
        cost = event_cost(cfg, EVENT_BASE_ARR[ev], x, pp)
        _log(cfg, log, L.L_PEND, ev, pp, cost, 0, 0)
        rc = EVENT_RESOLVER_ARR[ev]
        h = st[L.S_HOLDS + rc]
        resolved = False
        spent_by = -1
        if h >= 0 and not (st[L.S_SPENT] >> rc) & 1:
            _ctx(obs, rc, -1, ev, cost)
            if _yes_no(fns, st, cfg, obs, h, L.K_SPEND, opts, params, prng, wk, diag):
                st[L.S_SPENT] |= _bit(rc)
                obs[L.O_SPENT] = st[L.S_SPENT]
                _ren(st, obs, h, 3)
                resolved = True
                spent_by = h
                res[L.R_SPENT_RESOLVED] += 1
        if not resolved:
            st[L.S_PHASE] = L.PH_PLEDGE
            _ctx(obs, -1, -1, ev, cost)
            total = 0
            for j in range(ns):
                p = seats[j]
                a = _amount(fns, st, cfg, obs, p, L.K_PLEDGE, st[L.S_GOLD + p], opts, params,
                            prng, wk, diag)
                st[L.S_SEALED + p] = a
                total += a
            st[L.S_PHASE] = L.PH_NONE
            resolved = total >= cost
            calls = obs[L.O_PLEDGE_CALLS] + 1
            obs[L.O_PLEDGE_CALLS] = calls
            obs[L.O_LAST_TOTAL] = total
            obs[L.O_LAST_COST] = cost
            for p in range(L.MAXP):
                obs[L.O_LAST_PLEDGE + p] = -1
            for j in range(ns):
                p = seats[j]
                a = st[L.S_SEALED + p]
                st[L.S_SEALED + p] = 0
                _log(cfg, log, L.L_PLEDGE, p, a, 0, 0, 0)
                obs[L.O_LAST_PLEDGE + p] = a
                obs[L.O_PLEDGED + p] += a
                if a > 0:
                    obs[L.O_PLEDGE_POS + p] += 1
                if resolved and a > 0:
                    _gold(st, obs, p, -a)
            if resolved:
                res[L.R_PLEDGE_RESOLVED] += 1
            else:
                res[L.R_POSTPONED] += 1
        _log(cfg, log, L.L_PEND_END, spent_by, 1 if resolved else 0, 0, 0, 0)
        st[L.S_PEND_DONE + i] = 1 if resolved else 0
    for i in range(npend):          # the list changes once A5.2 is over
        if st[L.S_PEND_DONE + i] == 0:
            st[L.S_PEND_EV + keep] = st[L.S_PEND_EV + i]
            st[L.S_PEND_P + keep] = st[L.S_PEND_P + i] + 1
            keep += 1
        st[L.S_PEND_DONE + i] = 0
    st[L.S_NPEND] = keep
    _ctx(obs, -1, -1, -1, 0)
    _pub_pending(st, cfg, obs)
    return n


@kernel
def _collapse(st, cfg, log, res):
    """A5.3: the pending events' total cost reaches the threshold."""
    total = pending_cost(st, cfg, EVENT_BASE_ARR)
    if total >= cfg[L.C_THRESH]:
        mask = 0
        for i in range(st[L.S_NPEND]):
            mask |= _bit(st[L.S_PEND_EV + i])
        res[L.R_COLLAPSE] = 1
        res[L.R_COLLAPSE_PEND] = mask
        if st[L.S_NPEND] > 0:
            res[L.R_COLLAPSE_NEW] = st[L.S_PEND_EV + st[L.S_NPEND] - 1]
        for e in range(L.NHARM):
            if (mask >> e) & 1:
                res[L.R_COLLAPSE_EV + e] = 1
        st[L.S_ENDED] = 1
        _log(cfg, log, L.L_COLLAPSE, 1, total, 0, 0, 0)
        return True
    _log(cfg, log, L.L_COLLAPSE, 0, total, 0, 0, 0)
    return False


# ------------------------------------------------------------------ A7 benefits
@kernel
def _replace_mc(st, cfg, obs):
    """A7: an assassinated MC is replaced by the next player on his left in the game."""
    n = cfg[L.C_N]
    for j in range(1, n + 1):
        q = wrap(st[L.S_MC] + j, n)
        if _in(st, q):
            st[L.S_MC] = q
            break
    obs[L.O_MC] = st[L.S_MC]


@kernel
def _buy(fns, st, cfg, obs, h, c, opts, params, prng, wk, diag):
    """Builder 3/4/6 gold -> 2/5/8 renown; Town Crier 3/4/6 -> 1/2/3 (one purchase)."""
    g = st[L.S_GOLD + h]
    k = 1
    opts[0] = 0
    for price in (3, 4, 6):
        if g >= price:
            opts[k] = price
            k += 1
    choice = opts[_decide(fns, st, cfg, obs, h, L.K_BUY, opts, k, params, prng, wk, diag)]
    if choice > 0:
        gain = 0
        if c == L.CH_BUILDER:
            gain = 2 if choice == 3 else 5 if choice == 4 else 8
        else:
            gain = 1 if choice == 3 else 2 if choice == 4 else 3
        _gold(st, obs, h, -choice)
        _ren(st, obs, h, gain)
    return choice


@kernel
def _benefits(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A7 in the order revealed; returns True when the game ended (min_players, A12)."""
    _log(cfg, log, L.L_A7, 0, 0, 0, 0, 0)
    guard = st[L.S_HOLDS + L.CH_GUARD]
    if (st[L.S_SPENT] >> L.CH_GUARD) & 1:        # A12: lost if the Guard was spent
        guard = -1
    for pos in range(st[L.S_NREV]):
        c = st[L.S_REV + pos]
        h = st[L.S_HOLDER + pos]
        if h < 0 or (st[L.S_SPENT] >> c) & 1 or not _in(st, h):
            continue
        target = -1
        choice = 0
        blocked = 0
        _ctx(obs, c, pos, -1, 0)
        if c == L.CH_SPECTACLES:
            _ren(st, obs, h, 5)
        elif c == L.CH_PEDDLER:
            _gold(st, obs, h, 7)
        elif c == L.CH_ORACLE:
            st[L.S_ORACLE_NEXT] = h
        elif c == L.CH_PRIEST or c == L.CH_ATHLETE:
            _ren(st, obs, h, 3)
        elif c == L.CH_HERO:
            _ren(st, obs, h, 4)
        elif c == L.CH_BROKER:
            _gold(st, obs, h, 4)
        elif c == L.CH_PHILOSOPHER:
            _ren(st, obs, h, 2)
        elif c == L.CH_BUILDER or c == L.CH_CRIER:
            choice = _buy(fns, st, cfg, obs, h, c, opts, params, prng, wk, diag)
        elif c == L.CH_THIEF or c == L.CH_COURTESAN or c == L.CH_BRIGAND or c == L.CH_ASSASSIN:
            k = 0
            if c == L.CH_ASSASSIN:
                if st[L.S_GOLD + h] >= 25:
                    opts[0] = -1                       # A12: only he may decline
                    k = _other_seats(st, cfg, h, opts, 1)
            else:
                k = _other_seats(st, cfg, h, opts, 0)
            if k > 0:
                target = opts[_decide(fns, st, cfg, obs, h, L.K_TARGET, opts, k, params, prng,
                                      wk, diag)]
            if target >= 0:
                obs[L.O_TARGETED + target] += 1
                obs[L.O_ATTACKS + h] += 1
                if c == L.CH_COURTESAN:
                    _ren(st, obs, target, -min(4, st[L.S_REN + target]))
                else:
                    if c == L.CH_ASSASSIN:
                        _gold(st, obs, h, -25)         # paid even when cancelled (A12)
                    if target == guard:
                        blocked = 1
                    elif (st[L.S_PERS + target] == L.PE_ARTHAS
                          and not (st[L.S_ARTHAS_USED] >> target) & 1):
                        blocked = 1
                        st[L.S_ARTHAS_USED] |= _bit(target)
                        obs[L.O_ARTHAS_USED] = st[L.S_ARTHAS_USED]
                    if blocked == 0:
                        if c == L.CH_THIEF:
                            t = st[L.S_GOLD + target] // 2
                            st[L.S_GOLD + target] -= t  # a transfer: the ledger is unchanged
                            st[L.S_GOLD + h] += t
                            obs[L.O_GOLD + target] = st[L.S_GOLD + target]
                            obs[L.O_GOLD + h] = st[L.S_GOLD + h]
                        elif c == L.CH_BRIGAND:
                            st[L.S_BRIG_NEXT] |= _bit(target)
                            obs[L.O_BRIG] = st[L.S_BRIG_NEXT]
        _log(cfg, log, L.L_BENEFIT, c, h, target, choice, blocked)
        if c == L.CH_ASSASSIN and target >= 0 and blocked == 0:
            was_mc = st[L.S_MC] == target
            _remove(st, obs, cfg, target)
            res[L.R_ASSASSINATED] |= _bit(target)
            if was_mc:
                _replace_mc(st, cfg, obs)
            if st[L.S_NIN] < cfg[L.C_MINP]:
                st[L.S_ENDED] = 2
                return True
    _ctx(obs, -1, -1, -1, 0)
    return False


# ------------------------------------------------------------------ A8, A9
@kernel
def _ostracism(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A8 (A12): at most one proposal; returns True when the game ended (min_players)."""
    n = cfg[L.C_N]
    seats = wk[L.W_SEATS:L.W_SEATS + L.MAXP]
    ns = _turn_order(st, cfg, seats)
    proposer = -1
    target = -1
    _ctx(obs, -1, -1, -1, 0)
    for j in range(ns):
        p = seats[j]
        opts[0] = -1
        k = _other_seats(st, cfg, p, opts, 1)
        t = opts[_decide(fns, st, cfg, obs, p, L.K_PROPOSE, opts, k, params, prng, wk, diag)]
        if t >= 0:
            proposer = p
            target = t
            break
    if proposer < 0:
        return False
    res[L.R_OST_PROPOSALS] += 1
    obs[L.O_OST_PROPOSALS] += 1
    obs[L.O_PROPOSED + proposer] += 1
    nin = st[L.S_NIN]
    need_sup = (2 * nin + 2) // 3
    gold_all = 0
    for q in range(n):
        if _in(st, q):
            gold_all += st[L.S_GOLD + q]
    need_gold = (gold_all + 3) // 4
    obs[L.O_TARGET] = target
    obs[L.O_PROPOSER] = proposer
    obs[L.O_NEED_SUP] = need_sup
    obs[L.O_NEED_GOLD] = need_gold
    _log(cfg, log, L.L_OST, proposer, target, need_sup, need_gold, 0)
    st[L.S_PHASE] = L.PH_SUPPORT
    for j in range(ns):
        p = seats[j]
        if p == target or p == proposer:
            continue
        st[L.S_SEALED + p] = 1 if _yes_no(fns, st, cfg, obs, p, L.K_SUPPORT, opts, params,
                                          prng, wk, diag) else 0
    st[L.S_SEALED + proposer] = 1
    st[L.S_PHASE] = L.PH_OSTP
    nsup = 0
    total = 0
    for j in range(ns):
        p = seats[j]
        if p == target or st[L.S_SEALED + p] == 0:
            continue
        nsup += 1
        a = _amount(fns, st, cfg, obs, p, L.K_OST_PLEDGE, st[L.S_GOLD + p], opts, params, prng,
                    wk, diag)
        st[L.S_SEALED2 + p] = a
        total += a
    st[L.S_PHASE] = L.PH_NONE
    for j in range(ns):
        p = seats[j]
        if st[L.S_SEALED + p] == 1:
            a = st[L.S_SEALED2 + p]
            _log(cfg, log, L.L_OST_PLEDGE, p, a, 0, 0, 0)
            if a > 0:
                _gold(st, obs, p, -a)
        st[L.S_SEALED + p] = 0
        st[L.S_SEALED2 + p] = 0
    res[L.R_OST_PLEDGED] += total
    passed = nsup >= need_sup and total >= need_gold
    new_mc = -1
    ended = False
    if passed:
        res[L.R_OST_PASSES] += 1
        res[L.R_EXILED] |= _bit(target)
        g = st[L.S_GOLD + target]
        r = st[L.S_REN + target]
        res[L.R_EXILE_GOLD] += g
        res[L.R_EXILE_REN] += r
        was_mc = st[L.S_MC] == target
        _remove(st, obs, cfg, target)
        left = st[L.S_NIN]
        sg = (g + left - 1) // left
        sr = (r + left - 1) // left
        for q in range(n):
            if _in(st, q):
                if sg > 0:
                    _gold(st, obs, q, sg)
                if sr > 0:
                    _ren(st, obs, q, sr)
        _ren(st, obs, proposer, 3)
        if was_mc:
            k = _other_seats(st, cfg, target, opts, 0)
            obs[L.O_TARGET] = target
            new_mc = opts[_decide(fns, st, cfg, obs, target, L.K_NAME_MC, opts, k, params,
                                  prng, wk, diag)]
            st[L.S_MC] = new_mc
            obs[L.O_MC] = new_mc
        if st[L.S_NIN] < cfg[L.C_MINP]:
            st[L.S_ENDED] = 2
            ended = True
    _log(cfg, log, L.L_OST_END, 1 if passed else 0, new_mc, nsup, total, 0)
    obs[L.O_TARGET] = -1
    obs[L.O_PROPOSER] = -1
    return ended


@kernel
def _honours(fns, st, cfg, obs, opts, params, prng, wk, diag, log):
    """A9: everyone in the game votes for another; the most votes gains 5 renown."""
    n = cfg[L.C_N]
    _log(cfg, log, L.L_A9, 0, 0, 0, 0, 0)
    seats = wk[L.W_SEATS:L.W_SEATS + L.MAXP]
    ns = _turn_order(st, cfg, seats)
    st[L.S_PHASE] = L.PH_VOTE
    _ctx(obs, -1, -1, -1, 0)
    for j in range(ns):
        p = seats[j]
        k = _other_seats(st, cfg, p, opts, 0)
        st[L.S_SEALED + p] = opts[_decide(fns, st, cfg, obs, p, L.K_VOTE, opts, k, params,
                                          prng, wk, diag)]
    st[L.S_PHASE] = L.PH_NONE
    votes = wk[L.W_VOTES:L.W_VOTES + L.MAXP]
    for q in range(L.MAXP):
        votes[q] = 0
    for j in range(ns):
        p = seats[j]
        v = st[L.S_SEALED + p]
        st[L.S_SEALED + p] = 0
        votes[v] += 1
        obs[L.O_LAST_VOTE + p] = v
        _log(cfg, log, L.L_VOTE, p, v, 0, 0, 0)
    best = 0
    for q in range(n):
        best = max(best, votes[q])
    tied = wk[L.W_LIST:L.W_LIST + L.MAXP]
    nt = 0
    for q in range(n):
        if votes[q] == best and _in(st, q):
            tied[nt] = q
            nt += 1
    w = tied[0]
    if nt > 1:
        w = _mc_tie(fns, st, cfg, obs, tied, nt, 1, opts, params, prng, wk, diag)
    _ren(st, obs, w, 5)
    _log(cfg, log, L.L_HONOURED, w, 0, 0, 0, 0)


# ------------------------------------------------------------------ a round, a game
@kernel
def _new_round(st, cfg, obs, log):
    n = cfg[L.C_N]
    r = st[L.S_ROUND]
    obs[L.O_ROUND] = r
    for k in range(L.NCHAR):
        st[L.S_PREV_HOLDS + k] = st[L.S_HOLDS + k]
        obs[L.O_PREV_HOLDS + k] = st[L.S_HOLDS + k]
        st[L.S_HOLDS + k] = -1
        obs[L.O_HOLDS + k] = -1
        st[L.S_REV + k] = -1
        obs[L.O_REV + k] = -1
        st[L.S_HOLDER + k] = -1
        obs[L.O_HOLDER + k] = -1
    for k in range(L.NCHAR * L.MAXP):
        st[L.S_BIDS + k] = 0
        obs[L.O_BIDS + k] = -1
    st[L.S_NREV] = 0
    obs[L.O_NREV] = 0
    st[L.S_CUR] = 0
    st[L.S_SPENT] = 0
    obs[L.O_SPENT] = 0
    st[L.S_NIMOS_USED] = 0
    st[L.S_EVENT_NOW] = -1
    obs[L.O_EVENT_NOW] = -1
    st[L.S_BRIG_NOW] = st[L.S_BRIG_NEXT]
    st[L.S_BRIG_NEXT] = 0
    obs[L.O_BRIG] = 0
    _log(cfg, log, L.L_ROUND, r, st[L.S_MC], st[L.S_IN], 0, 0)
    return n


@kernel
def play_round(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, key):
    """One round, A2 to A9. Returns True when the game ended in it."""
    n = _new_round(st, cfg, obs, log)
    _income(st, cfg, obs, log)
    ev = _draw_event(st, cfg, obs, prng, key, log)
    _reveal(st, cfg, obs, prng, key, log, res, wk)
    for pos in range(st[L.S_NREV]):
        _auction(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, pos)
    _ctx(obs, -1, -1, -1, 0)
    if ev == L.EV_HARVEST or ev == L.EV_TRIUMPH or ev == L.EV_WEDDING:
        _good_event(fns, st, cfg, obs, opts, params, prng, wk, diag, log, key, ev)
    _harmful(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    ended = _collapse(st, cfg, log, res)
    if not ended:
        ended = _benefits(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    if not ended:
        ended = _ostracism(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    if not ended:
        _honours(fns, st, cfg, obs, opts, params, prng, wk, diag, log)
    if cfg[L.C_CHECK_OBS] != 0:
        _check_invariants(st, cfg, diag)
    for p in range(n):
        _log(cfg, log, L.L_FIG, p, st[L.S_GOLD + p], st[L.S_REN + p], 1 if _in(st, p) else 0,
             0)
    _log(cfg, log, L.L_ROUND_END, 0, 0, 0, 0, 0)
    return ended


@kernel
def _final(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A10: score = renown + gold // 3; highest wins, ties most gold, then shared — or,
    under ``final_tie = mc_choice``, the MC at the end of the game names the one winner
    among those still tied (a ``K_TIE`` decision with ``O_TIE_WHAT = 2``); a collapse
    has no winner and no tie choice (scores still recorded)."""
    n = cfg[L.C_N]
    best_s = -1
    best_g = -1
    win = 0
    for p in range(L.MAXP):
        res[L.R_SCORE + p] = -1
    for p in range(n):
        res[L.R_GOLD + p] = st[L.S_GOLD + p]
        res[L.R_REN + p] = st[L.S_REN + p]
        if not _in(st, p):
            continue
        s = st[L.S_REN + p] + st[L.S_GOLD + p] // 3
        g = st[L.S_GOLD + p]
        res[L.R_SCORE + p] = s
        if s > best_s or (s == best_s and g > best_g):
            best_s = s
            best_g = g
            win = _bit(p)
        elif s == best_s and g == best_g:
            win |= _bit(p)
    if st[L.S_ENDED] == 1:
        win = 0
    k = 0
    for p in range(n):
        k += (win >> p) & 1
    tied = win
    chosen = -1
    if k > 1:
        res[L.R_FINAL_TIED] = k
        if cfg[L.C_FINAL_MC] != 0:
            m = 0
            for p in range(n):
                if (win >> p) & 1:
                    opts[m] = p
                    m += 1
            _ctx(obs, -1, -1, -1, 0)
            obs[L.O_TIE_WHAT] = 2
            obs[L.O_ROUND] = st[L.S_ROUND]      # the game is over: the rounds played
            chosen = opts[_decide(fns, st, cfg, obs, st[L.S_MC], L.K_TIE, opts, m, params,
                                  prng, wk, diag)]
            win = _bit(chosen)
            k = 1
    res[L.R_WINMASK] = win
    res[L.R_NWIN] = k
    res[L.R_EARLY] = 1 if st[L.S_ENDED] == 2 else 0
    res[L.R_ERROR] = st[L.S_ERROR]
    _log(cfg, log, L.L_FINAL, 1 if st[L.S_ENDED] == 1 else 0, win, 0, 0, 0)
    for p in range(n):
        _log(cfg, log, L.L_SCORE, p, res[L.R_SCORE + p], 0, 0, 0)
    if chosen >= 0:
        _log(cfg, log, L.L_FINAL_TIE, st[L.S_MC], chosen, tied, 0, 0)


@kernel
def play_game(fns, cfg, params, key, st, obs, opts, prng, wk, log, diag, res):
    """Play one whole game with 64-bit ``key``; results into ``res`` (RES_LEN)."""
    init_state(cfg, key, st, obs, prng, res)
    setup(st, cfg, obs, prng, key, log, res)
    rounds = cfg[L.C_ROUNDS]
    while st[L.S_ROUND] < rounds:
        ended = play_round(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, key)
        st[L.S_ROUND] += 1
        if ended:
            break
    res[L.R_ROUNDS] = st[L.S_ROUND]
    _final(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    K.flag(diag, st[L.S_ERROR])


@kernel(allocates=True)
def play_batch(fns, cfg, params, keys, res, diag):
    """Play ``keys.shape[0]`` games; row ``g`` of ``res`` gets game ``g``'s results."""
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    wk = np.zeros(L.WK_LEN, np.int64)
    log = np.zeros(2, np.int64)
    for g in range(keys.shape[0]):
        play_game(fns, cfg, params, keys[g], st, obs, opts, prng, wk, log, diag, res[g])
