"""The L'Assemblée game kernel: whole games in numba, policies called through function pointers.

One game is ``play_game``: setup (A1, A11), then rounds of income (A2), event (A3),
auction (A4, A11 Leremac and Nimos), good event (A5.1), pending harmful events (A5.2),
collapse (A5.3), benefits (A7), ostracism (A8) and honours (A9), until the last round,
a collapse or fewer than ``min_players`` (A8, A12); then the scores (A10). Every
decision goes through ``_ask``: it writes the decision header into the seat's
observation (the public board kept by the engine, :mod:`demos_sim.assemblee.observe`),
calls that seat's policy (a first-class numba function), checks the answer is a legal
option and — when ``cfg[C_CHECK_OBS]`` is set — rebuilds the board from the state, and
again from a state whose hidden parts were redrawn (M2), replays the decision on it, and
checks the invariants (gold and renown never negative, the ledger of every gold and
renown created and destroyed balances the figures of the players in the game). With
``cfg[C_LOG]`` set the game writes the event log :mod:`demos_sim.assemblee.record`
turns into a GAME_RECORD.md record. Hot functions are compiled with ``_nrt=False``
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
from numba import njit

from demos_sim.assemblee.layout import (
    C_AKIKOS_TOTAL, C_CHECK_OBS, C_EVENT_INDEP, C_FINAL_MC, C_FORCE, C_LOG, C_MINP, C_N,
    C_ORACLE_PLAYERS, C_PERS, C_ROUNDS, C_THRESH,
    CH_ASSASSIN, CH_ATHLETE, CH_BRIGAND, CH_BROKER, CH_BUILDER, CH_COURTESAN, CH_CRIER,
    CH_GUARD, CH_HERO, CH_ORACLE, CH_PEDDLER, CH_PHILOSOPHER, CH_PRIEST, CH_SPECTACLES,
    CH_THIEF, EV_HARVEST, EV_TRIUMPH, EV_WEDDING, K_BID, K_BUY, K_NAME_MC, K_NIMOS,
    K_OST_PLEDGE, K_PLEDGE, K_PROPOSE, K_SPEND, K_STOP, K_SUPPORT, K_TARGET, K_TIE,
    K_VOTE, L_A7, L_A9, L_BENEFIT, L_BID, L_COLLAPSE, L_DECK, L_EVENT, L_FIG, L_FINAL,
    L_FINAL_TIE, L_GOOD, L_HOLDER, L_HONOURED, L_INCOME, L_NIMOS, L_ORACLE, L_OST, L_OST_END,
    L_OST_PLEDGE, L_PEND, L_PEND_END, L_PERS, L_PLEDGE, L_RESHUFFLE, L_REVEAL, L_ROUND,
    L_ROUND_END, L_SCORE, L_SETUP, L_VIEW, L_VOTE, MAXP, NCHAR, NEVENT, NHARM, O_ARTHAS_USED,
    O_ATTACKS, O_BIDS, O_BRIG, O_CHAR, O_COST, O_DRAWN, O_EVENT, O_EVENT_NOW, O_GOLD,
    O_HOLDER, O_HOLDS, O_IN, O_KIND, O_LAST_COST, O_LAST_PLEDGE, O_LAST_TOTAL,
    O_LAST_VOTE, O_MAX, O_MC, O_N, O_NEED_GOLD, O_NEED_SUP, O_NIN, O_NPEND, O_NREV,
    O_ORACLE, O_OST_PROPOSALS, O_PEND_COST, O_PEND_COUNT, O_PERS, O_PLEDGE_CALLS,
    O_PLEDGE_POS, O_PLEDGED, O_POS, O_PREV_HOLDS, O_PROPOSED, O_PROPOSER, O_REN, O_REV,
    O_ROUND, O_ROUNDS, O_SEAT, O_SEES, O_SPENT, O_TARGET, O_TARGETED, O_THRESH,
    O_TIE_WHAT, OBS_LEN, PE_AKIKOS, PE_ARTHAS, PE_LEREMAC, PE_MIRNOK, PE_NIMOS, PH_BID,
    PH_NONE, PH_OSTP, PH_PLEDGE, PH_SUPPORT, PH_VOTE, R_ASSASSINATED, R_COLLAPSE,
    R_COLLAPSE_EV, R_COLLAPSE_NEW, R_COLLAPSE_PEND, R_EARLY, R_EXILE_GOLD, R_EXILE_REN,
    R_ERROR, R_EXILED, R_FINAL_TIED, R_GOLD, R_HOLD, R_MC0,
    R_NWIN, R_OST_PASSES, R_OST_PLEDGED, R_OST_PROPOSALS, R_PERS, R_PLEDGE_RESOLVED,
    R_POSTPONED, R_REN, R_REVEALED, R_ROUNDS, R_SCORE, R_SOLD, R_SPENT_RESOLVED,
    R_WINBID, R_WINMASK, RES_LEN, RNG_CHANCE, RNG_SCRAMBLE, S_ARTHAS_USED, S_BIDS,
    S_BRIG_NEXT, S_BRIG_NOW, S_CUR, S_DECK, S_DECK_POS, S_ENDED, S_ERROR, S_EVENT_NOW,
    S_GOLD, S_GOLD_IN, S_GOLD_OUT, S_HOLDER, S_HOLDS, S_IN, S_MC, S_NIMOS_USED, S_NIN,
    S_NPEND, S_NREV, S_ORACLE, S_ORACLE_NEXT, S_PEND_EV, S_PEND_P, S_PERS, S_PHASE,
    S_PEND_DONE, S_PREV_HOLDS, S_REN, S_REN_IN, S_REN_OUT, S_REV, S_ROUND, S_SEALED, S_SEALED2,
    S_SEES, S_SPENT, S_VIEWS, ST_LEN,
)
from demos_sim.assemblee.observe import event_cost, observe_full, pending_cost, scramble_hidden
from demos_sim.eventlog import log_event
from demos_sim.rng import below, derive, shuffle_inplace

D_CHECKED, D_OBS_DIFF, D_PUB_DIFF, D_DECISION_DIFF, D_INVARIANT, D_OUT_ACTED = 0, 1, 2, 3, 4, 5
D_FIRST_DIFF = 6     # 1 + the first board offset found to differ (0: none), for debugging
DIAG_LEN = 7

ERR_BAD_INDEX = 1

EVENT_BASE_ARR = np.array((6, 5, 5, 3, 2, 6, 3, 5, 4, 2, 4), np.int64)
EVENT_RESOLVER_ARR = np.array((CH_ORACLE, CH_PEDDLER, CH_PRIEST, CH_ATHLETE, CH_ASSASSIN,
                               CH_BUILDER, CH_COURTESAN, CH_GUARD, CH_PHILOSOPHER, CH_CRIER,
                               CH_HERO), np.int64)

# workspace offsets (wk, int64)
W_ST2 = 0
W_OBS2 = ST_LEN
W_OBS3 = W_OBS2 + OBS_LEN
W_TMP = W_OBS3 + OBS_LEN           # 16 scratch words
W_SEATS = W_TMP + 16               # MAXP: seats in turn order
W_LIST = W_SEATS + MAXP            # MAXP scratch seat list
W_VOTES = W_LIST + MAXP            # MAXP honours votes received
WK_LEN = W_VOTES + MAXP


# ------------------------------------------------------------------ small helpers
@njit(cache=True, _nrt=False, inline="always")
def _log(cfg, log, t, a, b, c, d, e):
    log_event(cfg[C_LOG], log, t, a, b, c, d, e)


@njit(cache=True, _nrt=False, inline="always")
def _bit(i):
    return np.int64(1) << i


@njit(cache=True, _nrt=False, inline="always")
def _in(st, p):
    return (st[S_IN] >> p) & 1 == 1


@njit(cache=True, _nrt=False, inline="always")
def _gold(st, obs, p, d):
    """Gold of seat ``p`` changes by ``d``; the ledger and the public board follow."""
    st[S_GOLD + p] += d
    if d > 0:
        st[S_GOLD_IN] += d
    else:
        st[S_GOLD_OUT] -= d
    obs[O_GOLD + p] = st[S_GOLD + p]


@njit(cache=True, _nrt=False, inline="always")
def _ren(st, obs, p, d):
    st[S_REN + p] += d
    if d > 0:
        st[S_REN_IN] += d
    else:
        st[S_REN_OUT] -= d
    obs[O_REN + p] = st[S_REN + p]


@njit(cache=True, _nrt=False)
def _turn_order(st, cfg, seats):
    """Seats in the game in turn order (the MC's left first, the MC last); returns count."""
    n = cfg[C_N]
    k = 0
    for j in range(n):
        p = (st[S_MC] + 1 + j) % n
        if _in(st, p):
            seats[k] = p
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _ctx(obs, char, pos, event, cost):
    obs[O_CHAR] = char
    obs[O_POS] = pos
    obs[O_EVENT] = event
    obs[O_COST] = cost


@njit(cache=True, _nrt=False)
def _check_invariants(st, cfg, diag):
    """Gold and renown never negative; the ledger balances the players in the game; no
    gold or renown held by a player out of the game."""
    n = cfg[C_N]
    g = 0
    r = 0
    for p in range(MAXP):
        if st[S_GOLD + p] < 0 or st[S_REN + p] < 0:
            diag[D_INVARIANT] += 1
        if p >= n or not _in(st, p):
            if st[S_GOLD + p] != 0 or st[S_REN + p] != 0:
                diag[D_INVARIANT] += 1
        g += st[S_GOLD + p]
        r += st[S_REN + p]
    if g != st[S_GOLD_IN] - st[S_GOLD_OUT] or r != st[S_REN_IN] - st[S_REN_OUT]:
        diag[D_INVARIANT] += 1


@njit(cache=True, _nrt=False)
def _check_decision(fns, st, cfg, obs, seat, opts, n_opts, params, prng, wk, diag, idx,
                    saved):
    """M2 check: board == board rebuilt from the state == board rebuilt from a state
    whose hidden parts were redrawn, and the policy decides the same on the latter."""
    after = prng[seat]
    obs2 = wk[W_OBS2:W_OBS2 + OBS_LEN]
    observe_full(st, cfg, obs, obs2, EVENT_BASE_ARR)
    diag[D_CHECKED] += 1
    for i in range(OBS_LEN):
        if obs2[i] != obs[i]:
            diag[D_PUB_DIFF] += 1
            if diag[D_FIRST_DIFF] == 0:
                diag[D_FIRST_DIFF] = i + 1
            break
    st2 = wk[W_ST2:W_ST2 + ST_LEN]
    for i in range(ST_LEN):
        st2[i] = st[i]
    scramble_hidden(st2, cfg, seat, prng[RNG_SCRAMBLE:RNG_SCRAMBLE + 1], wk[W_TMP:W_TMP + 16])
    obs3 = wk[W_OBS3:W_OBS3 + OBS_LEN]
    observe_full(st2, cfg, obs, obs3, EVENT_BASE_ARR)
    for i in range(OBS_LEN):
        if obs3[i] != obs2[i]:
            diag[D_OBS_DIFF] += 1
            if diag[D_FIRST_DIFF] == 0:
                diag[D_FIRST_DIFF] = i + 1
            break
    prng[seat] = saved
    idx2 = fns[seat](cfg, obs3, opts, n_opts, params[seat], prng[seat:seat + 1])
    if idx2 != idx:
        diag[D_DECISION_DIFF] += 1
    prng[seat] = after
    if not _in(st, seat) and obs[O_KIND] != K_NAME_MC:
        diag[D_OUT_ACTED] += 1
    _check_invariants(st, cfg, diag)


@njit(cache=True, _nrt=False, inline="always")
def _ask(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, wk, diag):
    """Ask ``seat``'s policy for a decision of ``kind``; return the option's index."""
    obs[O_KIND] = kind
    obs[O_SEAT] = seat
    if n_opts == 1:
        return 0  # a forced move is no decision: no policy call, no random draw
    saved = prng[seat]
    idx = fns[seat](cfg, obs, opts, n_opts, params[seat], prng[seat:seat + 1])
    if cfg[C_CHECK_OBS] != 0:
        _check_decision(fns, st, cfg, obs, seat, opts, n_opts, params, prng, wk, diag, idx,
                        saved)
    if idx < 0 or idx >= n_opts:   # flagged (the Python layer raises), the first option played
        st[S_ERROR] = ERR_BAD_INDEX
        return 0
    return idx


@njit(cache=True, _nrt=False, inline="always")
def _amount(fns, st, cfg, obs, seat, kind, top, opts, params, prng, wk, diag):
    """An amount decision 0 … top (the index is the amount)."""
    obs[O_MAX] = top
    return _ask(fns, st, cfg, obs, seat, kind, opts, top + 1, params, prng, wk, diag)


@njit(cache=True, _nrt=False, inline="always")
def _yes_no(fns, st, cfg, obs, seat, kind, opts, params, prng, wk, diag):
    opts[0] = 0
    opts[1] = 1
    return _ask(fns, st, cfg, obs, seat, kind, opts, 2, params, prng, wk, diag) == 1


@njit(cache=True, _nrt=False)
def _other_seats(st, cfg, seat, opts, k):
    """Append every other seat in the game (seat order) to ``opts`` from ``k``; new count."""
    for q in range(cfg[C_N]):
        if q != seat and _in(st, q):
            opts[k] = q
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _mc_tie(fns, st, cfg, obs, tied, nt, what, opts, params, prng, wk, diag):
    """A4/A9 ties: most renown now among ``tied[:nt]``, then the MC's choice."""
    best = -1
    k = 0
    for i in range(nt):
        r = st[S_REN + tied[i]]
        if r > best:
            best = r
            k = 0
        if r == best:
            opts[k] = tied[i]
            k += 1
    obs[O_TIE_WHAT] = what
    i = _ask(fns, st, cfg, obs, st[S_MC], K_TIE, opts, k, params, prng, wk, diag)
    return opts[i]


@njit(cache=True, _nrt=False)
def _remove(st, obs, cfg, p):
    """Player ``p`` leaves the game with his possessions (A7 Assassin, A8 exile)."""
    _gold(st, obs, p, -st[S_GOLD + p])
    _ren(st, obs, p, -st[S_REN + p])
    st[S_IN] &= ~_bit(p)
    st[S_NIN] -= 1
    obs[O_IN] = st[S_IN]
    obs[O_NIN] = st[S_NIN]
    obs[O_PEND_COST] = pending_cost(st, cfg, EVENT_BASE_ARR)


@njit(cache=True, _nrt=False)
def _pub_pending(st, cfg, obs):
    for e in range(NHARM):
        obs[O_PEND_COUNT + e] = 0
    for i in range(st[S_NPEND]):
        obs[O_PEND_COUNT + st[S_PEND_EV + i]] += 1
    obs[O_NPEND] = st[S_NPEND]
    obs[O_PEND_COST] = pending_cost(st, cfg, EVENT_BASE_ARR)


# ------------------------------------------------------------------ A1, A11 setup
@njit(cache=True, _nrt=False)
def init_state(cfg, key, st, obs, prng, res):
    """Empty table before A1: everyone in the game with 0 gold and 0 renown."""
    n = cfg[C_N]
    for i in range(ST_LEN):
        st[i] = 0
    for i in range(OBS_LEN):
        obs[i] = 0
    for i in range(RES_LEN):
        res[i] = 0
    res[R_COLLAPSE_NEW] = -1
    st[S_IN] = (np.int64(1) << n) - 1
    st[S_NIN] = n
    st[S_ORACLE_NEXT] = -1
    st[S_ORACLE] = -1
    st[S_EVENT_NOW] = -1
    for p in range(MAXP):
        st[S_PERS + p] = -1
        prng[p] = derive(key, 1, p)
    for k in range(NCHAR):
        st[S_REV + k] = -1
        st[S_HOLDER + k] = -1
        st[S_HOLDS + k] = -1
        st[S_PREV_HOLDS + k] = -1
    prng[RNG_SCRAMBLE] = derive(key, 2, 0)
    obs[O_N] = n
    obs[O_IN] = st[S_IN]
    obs[O_NIN] = n
    obs[O_ROUNDS] = cfg[C_ROUNDS]
    obs[O_THRESH] = cfg[C_THRESH]
    obs[O_LAST_TOTAL] = -1
    obs[O_LAST_COST] = -1
    obs[O_ORACLE] = -1
    obs[O_EVENT_NOW] = -1
    for p in range(MAXP):
        obs[O_LAST_PLEDGE + p] = -1
        obs[O_LAST_VOTE + p] = -1
        obs[O_PERS + p] = -1
    for k in range(NCHAR):
        obs[O_REV + k] = -1
        obs[O_HOLDER + k] = -1
        obs[O_HOLDS + k] = -1
        obs[O_PREV_HOLDS + k] = -1
    for k in range(NCHAR * MAXP):
        obs[O_BIDS + k] = -1


@njit(cache=True, _nrt=False)
def setup(st, cfg, obs, prng, key, log, res):
    """A1: the event deck shuffled, the MC drawn; A11 personalities dealt in seat order
    from a shuffled 6, reshuffled each time all 6 are dealt; Mirnok starts with 3 renown."""
    n = cfg[C_N]
    prng[RNG_CHANCE] = derive(key, 0, 0)
    for i in range(NEVENT):
        st[S_DECK + i] = i
    shuffle_inplace(st[S_DECK:S_DECK + NEVENT], NEVENT, prng, RNG_CHANCE)
    st[S_MC] = below(prng, RNG_CHANCE, n)
    obs[O_MC] = st[S_MC]
    res[R_MC0] = st[S_MC]
    _log(cfg, log, L_SETUP, st[S_MC], 0, 0, 0, 0)
    if cfg[C_EVENT_INDEP] == 0:     # event_draw = independent: no event deck (A3); the
        for i in range(NEVENT):     # shuffle above still runs, so that the MC and the
            _log(cfg, log, L_DECK, i, st[S_DECK + i], 0, 0, 0)   # personalities are the same
    if cfg[C_PERS] != 0:
        pile = st[S_SEALED:S_SEALED + 6]
        for p in range(n):
            if p % 6 == 0:
                for i in range(6):
                    pile[i] = i
                shuffle_inplace(pile, 6, prng, RNG_CHANCE)
            st[S_PERS + p] = pile[p % 6]
        for p in range(n):          # force_personality (a runner setting, not Part V):
            f = cfg[C_FORCE + p]    # the seat swaps with the first seat dealt that one
            if f >= 0 and st[S_PERS + p] != f:
                for q in range(n):
                    if q != p and st[S_PERS + q] == f and cfg[C_FORCE + q] != f:
                        st[S_PERS + q] = st[S_PERS + p]
                        break
                st[S_PERS + p] = f
        for p in range(n):
            pe = st[S_PERS + p]
            obs[O_PERS + p] = pe
            res[R_PERS + p] = pe
            _log(cfg, log, L_PERS, p, pe, 0, 0, 0)
            if pe == PE_MIRNOK:
                _ren(st, obs, p, 3)
        for i in range(6):
            pile[i] = 0
    else:
        for p in range(MAXP):
            res[R_PERS + p] = -1


# ------------------------------------------------------------------ A2–A4
@njit(cache=True, _nrt=False)
def _income(st, cfg, obs, log):
    """A2, A11 Akikos, A12: 7 gold (Akikos 13 or 6), 1 after a Brigand."""
    for p in range(cfg[C_N]):
        if not _in(st, p):
            continue
        inc = 7
        if st[S_PERS + p] == PE_AKIKOS:
            inc = 6 if cfg[C_AKIKOS_TOTAL] != 0 else 13
        if (st[S_BRIG_NOW] >> p) & 1:
            inc = 1
        _gold(st, obs, p, inc)
        _log(cfg, log, L_INCOME, p, inc, 0, 0, 0)
    st[S_BRIG_NOW] = 0


@njit(cache=True, _nrt=False)
def _draw_event(st, cfg, obs, prng, key, log):
    """A3, A12: the top card; an empty deck is reshuffled whole (pending cards included).
    ``event_draw = independent``: one of the 15 uniformly, repeats allowed, no deck."""
    if cfg[C_EVENT_INDEP] != 0:
        prng[RNG_CHANCE] = derive(key, 10, st[S_ROUND])
        ev = below(prng, RNG_CHANCE, NEVENT)
    else:
        ev = _deck_draw(st, cfg, obs, prng, key, log)
    st[S_EVENT_NOW] = ev
    obs[O_EVENT_NOW] = ev
    _log(cfg, log, L_EVENT, ev, 0, 0, 0, 0)
    if ev < NHARM:
        k = st[S_NPEND]
        st[S_PEND_EV + k] = ev
        st[S_PEND_P + k] = 0
        st[S_NPEND] = k + 1
        _pub_pending(st, cfg, obs)
    return ev


@njit(cache=True, _nrt=False)
def _deck_draw(st, cfg, obs, prng, key, log):
    """A3 ``event_draw = deck``: the top card, reshuffling an empty deck first."""
    if st[S_DECK_POS] >= NEVENT:
        prng[RNG_CHANCE] = derive(key, 5, st[S_ROUND])
        for i in range(NEVENT):
            st[S_DECK + i] = i
        shuffle_inplace(st[S_DECK:S_DECK + NEVENT], NEVENT, prng, RNG_CHANCE)
        st[S_DECK_POS] = 0
        obs[O_DRAWN] = 0
        for i in range(NEVENT):
            _log(cfg, log, L_RESHUFFLE, i, st[S_DECK + i], 0, 0, 0)
    ev = st[S_DECK + st[S_DECK_POS]]
    st[S_DECK_POS] += 1
    obs[O_DRAWN] |= _bit(ev)
    return ev


@njit(cache=True, _nrt=False)
def _reveal(st, cfg, obs, prng, key, log, res, wk):
    """A4: max(6, min(15, X)) characters drawn at random; the Oracle advantage set up."""
    nin = st[S_NIN]
    nrev = max(6, min(NCHAR, nin))
    chars = wk[W_LIST:W_LIST + NCHAR]
    for i in range(NCHAR):
        chars[i] = i
    prng[RNG_CHANCE] = derive(key, 6, st[S_ROUND])
    shuffle_inplace(chars, NCHAR, prng, RNG_CHANCE)
    st[S_NREV] = nrev
    obs[O_NREV] = nrev
    for k in range(nrev):
        st[S_REV + k] = chars[k]
        obs[O_REV + k] = chars[k]
        res[R_REVEALED + chars[k]] += 1
        _log(cfg, log, L_REVEAL, k, chars[k], 0, 0, 0)
    o = st[S_ORACLE_NEXT]
    st[S_ORACLE_NEXT] = -1
    st[S_ORACLE] = -1
    st[S_SEES] = 0
    if o >= 0 and _in(st, o):           # A12: the benefit applied and he is still in
        others = wk[W_LIST:W_LIST + MAXP]
        k = 0
        for q in range(cfg[C_N]):
            if q != o and _in(st, q):
                others[k] = q
                k += 1
        sees = 0
        if cfg[C_ORACLE_PLAYERS] != 0:     # three_players: 3 seats for the whole round
            prng[RNG_CHANCE] = derive(key, 7, st[S_ROUND])
            m = min(3, k)
            for i in range(m):             # partial Fisher–Yates: the first m of a shuffle
                j = i + below(prng, RNG_CHANCE, k - i)
                t = others[i]
                others[i] = others[j]
                others[j] = t
                sees |= _bit(others[i])
        else:                              # three_bids: one seat for each of auctions 0-2,
            prng[RNG_CHANCE] = derive(key, 9, st[S_ROUND])   # independently (repeats allowed)
            for i in range(3):
                st[S_VIEWS + i] = others[below(prng, RNG_CHANCE, k)]
        st[S_ORACLE] = o
        st[S_SEES] = sees
        _log(cfg, log, L_ORACLE, o, sees, 0, 0, 0)
    obs[O_ORACLE] = st[S_ORACLE]
    obs[O_SEES] = st[S_SEES]


@njit(cache=True, _nrt=False)
def _auction(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, pos):
    """A4 one character: sealed bids (the Oracle last), reveal, Nimos, winner, payment."""
    n = cfg[C_N]
    c = st[S_REV + pos]
    row = S_BIDS + pos * MAXP
    seats = wk[W_SEATS:W_SEATS + MAXP]
    ns = _turn_order(st, cfg, seats)
    oracle = st[S_ORACLE]
    if oracle >= 0 and cfg[C_ORACLE_PLAYERS] == 0:   # three_bids: this auction's view opens
        st[S_SEES] = _bit(st[S_VIEWS + pos]) if pos < 3 else 0
        obs[O_SEES] = st[S_SEES]
        if pos < 3:
            _log(cfg, log, L_VIEW, pos, st[S_VIEWS + pos], 0, 0, 0)
    st[S_PHASE] = PH_BID
    _ctx(obs, c, pos, -1, 0)
    for j in range(ns):
        p = seats[j]
        if p == oracle:
            continue
        st[row + p] = _amount(fns, st, cfg, obs, p, K_BID, st[S_GOLD + p], opts, params,
                              prng, wk, diag)
    if oracle >= 0:
        for q in range(n):
            if (st[S_SEES] >> q) & 1:
                obs[O_BIDS + pos * MAXP + q] = st[row + q]
        st[row + oracle] = _amount(fns, st, cfg, obs, oracle, K_BID, st[S_GOLD + oracle],
                                   opts, params, prng, wk, diag)
    st[S_PHASE] = PH_NONE
    st[S_CUR] = pos + 1                     # revealed
    for q in range(MAXP):
        obs[O_BIDS + pos * MAXP + q] = st[row + q]
    for q in range(n):
        if _in(st, q):
            _log(cfg, log, L_BID, pos, q, st[row + q], 0, 0)
    if cfg[C_PERS] != 0:                    # A11 Nimos, A12: the bid just revealed, by 1
        for j in range(ns):
            p = seats[j]
            if st[S_PERS + p] != PE_NIMOS or (st[S_NIMOS_USED] >> p) & 1:
                continue
            b = st[row + p]
            k = 1
            opts[0] = 0
            if b >= 1:
                opts[k] = -1
                k += 1
            if b + 1 <= st[S_GOLD + p]:
                opts[k] = 1
                k += 1
            d = opts[_ask(fns, st, cfg, obs, p, K_NIMOS, opts, k, params, prng, wk, diag)]
            if d != 0:
                st[S_NIMOS_USED] |= _bit(p)
                st[row + p] = b + d
                obs[O_BIDS + pos * MAXP + p] = b + d
                _log(cfg, log, L_NIMOS, p, pos, b, b + d, 0)
    best = 0
    lere = c == CH_THIEF or c == CH_ASSASSIN or c == CH_BRIGAND
    tied = wk[W_LIST:W_LIST + MAXP]
    nt = 0
    for q in range(n):
        if not _in(st, q):
            continue
        e = st[row + q]
        if lere and st[S_PERS + q] == PE_LEREMAC:
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
    st[S_HOLDER + pos] = w
    obs[O_HOLDER + pos] = w
    _log(cfg, log, L_HOLDER, pos, w, 0, 0, 0)
    if w >= 0:
        st[S_HOLDS + c] = w
        obs[O_HOLDS + c] = w
        res[R_SOLD + c] += 1
        res[R_WINBID + c] += st[row + w]
        res[R_HOLD + c * MAXP + w] += 1


# ------------------------------------------------------------------ A5 events
@njit(cache=True, _nrt=False)
def _good_event(fns, st, cfg, obs, opts, params, prng, wk, diag, log, key, ev):
    """A5.1: a good event, unless its stopping character's holder spends it."""
    stopper = CH_BRIGAND
    if ev == EV_TRIUMPH:
        stopper = CH_THIEF
    elif ev == EV_WEDDING:
        stopper = CH_SPECTACLES
    h = st[S_HOLDS + stopper]
    stopped = -1
    if h >= 0 and _in(st, h):
        _ctx(obs, stopper, -1, ev, 0)
        if _yes_no(fns, st, cfg, obs, h, K_STOP, opts, params, prng, wk, diag):
            stopped = h
            st[S_SPENT] |= _bit(stopper)
            obs[O_SPENT] = st[S_SPENT]
    p1 = -1
    p2 = -1
    if stopped < 0:
        n = cfg[C_N]
        if ev == EV_WEDDING:
            lst = wk[W_LIST:W_LIST + MAXP]
            k = 0
            for q in range(n):
                if _in(st, q):
                    lst[k] = q
                    k += 1
            prng[RNG_CHANCE] = derive(key, 8, st[S_ROUND])
            i = below(prng, RNG_CHANCE, k)
            p1 = lst[i]
            lst[i] = lst[k - 1]
            p2 = lst[below(prng, RNG_CHANCE, k - 1)]
            _ren(st, obs, p1, 3)
            _ren(st, obs, p2, 3)
        else:
            g = 10 if ev == EV_HARVEST else 5
            for q in range(n):
                if _in(st, q):
                    _gold(st, obs, q, g)
    _log(cfg, log, L_GOOD, ev, stopped, p1, p2, 0)


@njit(cache=True, _nrt=False)
def _harmful(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A5.2: every pending event, oldest first: spent character or pledges."""
    n = cfg[C_N]
    x = st[S_NIN]
    seats = wk[W_SEATS:W_SEATS + MAXP]
    ns = _turn_order(st, cfg, seats)
    keep = 0
    npend = st[S_NPEND]
    for i in range(npend):
        ev = st[S_PEND_EV + i]
        pp = st[S_PEND_P + i]
        cost = event_cost(cfg, EVENT_BASE_ARR[ev], x, pp)
        _log(cfg, log, L_PEND, ev, pp, cost, 0, 0)
        rc = EVENT_RESOLVER_ARR[ev]
        h = st[S_HOLDS + rc]
        resolved = False
        spent_by = -1
        if h >= 0 and not (st[S_SPENT] >> rc) & 1:
            _ctx(obs, rc, -1, ev, cost)
            if _yes_no(fns, st, cfg, obs, h, K_SPEND, opts, params, prng, wk, diag):
                st[S_SPENT] |= _bit(rc)
                obs[O_SPENT] = st[S_SPENT]
                _ren(st, obs, h, 3)
                resolved = True
                spent_by = h
                res[R_SPENT_RESOLVED] += 1
        if not resolved:
            st[S_PHASE] = PH_PLEDGE
            _ctx(obs, -1, -1, ev, cost)
            total = 0
            for j in range(ns):
                p = seats[j]
                a = _amount(fns, st, cfg, obs, p, K_PLEDGE, st[S_GOLD + p], opts, params,
                            prng, wk, diag)
                st[S_SEALED + p] = a
                total += a
            st[S_PHASE] = PH_NONE
            resolved = total >= cost
            calls = obs[O_PLEDGE_CALLS] + 1
            obs[O_PLEDGE_CALLS] = calls
            obs[O_LAST_TOTAL] = total
            obs[O_LAST_COST] = cost
            for p in range(MAXP):
                obs[O_LAST_PLEDGE + p] = -1
            for j in range(ns):
                p = seats[j]
                a = st[S_SEALED + p]
                st[S_SEALED + p] = 0
                _log(cfg, log, L_PLEDGE, p, a, 0, 0, 0)
                obs[O_LAST_PLEDGE + p] = a
                obs[O_PLEDGED + p] += a
                if a > 0:
                    obs[O_PLEDGE_POS + p] += 1
                if resolved and a > 0:
                    _gold(st, obs, p, -a)
            if resolved:
                res[R_PLEDGE_RESOLVED] += 1
            else:
                res[R_POSTPONED] += 1
        _log(cfg, log, L_PEND_END, spent_by, 1 if resolved else 0, 0, 0, 0)
        st[S_PEND_DONE + i] = 1 if resolved else 0
    for i in range(npend):          # the list changes once A5.2 is over
        if st[S_PEND_DONE + i] == 0:
            st[S_PEND_EV + keep] = st[S_PEND_EV + i]
            st[S_PEND_P + keep] = st[S_PEND_P + i] + 1
            keep += 1
        st[S_PEND_DONE + i] = 0
    st[S_NPEND] = keep
    _ctx(obs, -1, -1, -1, 0)
    _pub_pending(st, cfg, obs)
    return n


@njit(cache=True, _nrt=False)
def _collapse(st, cfg, log, res):
    """A5.3: the pending events' total cost reaches the threshold."""
    total = pending_cost(st, cfg, EVENT_BASE_ARR)
    if total >= cfg[C_THRESH]:
        mask = 0
        for i in range(st[S_NPEND]):
            mask |= _bit(st[S_PEND_EV + i])
        res[R_COLLAPSE] = 1
        res[R_COLLAPSE_PEND] = mask
        if st[S_NPEND] > 0:
            res[R_COLLAPSE_NEW] = st[S_PEND_EV + st[S_NPEND] - 1]
        for e in range(NHARM):
            if (mask >> e) & 1:
                res[R_COLLAPSE_EV + e] = 1
        st[S_ENDED] = 1
        _log(cfg, log, L_COLLAPSE, 1, total, 0, 0, 0)
        return True
    _log(cfg, log, L_COLLAPSE, 0, total, 0, 0, 0)
    return False


# ------------------------------------------------------------------ A7 benefits
@njit(cache=True, _nrt=False)
def _replace_mc(st, cfg, obs):
    """A7: an assassinated MC is replaced by the next player on his left in the game."""
    n = cfg[C_N]
    for j in range(1, n + 1):
        q = (st[S_MC] + j) % n
        if _in(st, q):
            st[S_MC] = q
            break
    obs[O_MC] = st[S_MC]


@njit(cache=True, _nrt=False)
def _buy(fns, st, cfg, obs, h, c, opts, params, prng, wk, diag):
    """Builder 3/4/6 gold -> 2/5/8 renown; Town Crier 3/4/6 -> 1/2/3 (one purchase)."""
    g = st[S_GOLD + h]
    k = 1
    opts[0] = 0
    for price in (3, 4, 6):
        if g >= price:
            opts[k] = price
            k += 1
    choice = opts[_ask(fns, st, cfg, obs, h, K_BUY, opts, k, params, prng, wk, diag)]
    if choice > 0:
        gain = 0
        if c == CH_BUILDER:
            gain = 2 if choice == 3 else 5 if choice == 4 else 8
        else:
            gain = 1 if choice == 3 else 2 if choice == 4 else 3
        _gold(st, obs, h, -choice)
        _ren(st, obs, h, gain)
    return choice


@njit(cache=True, _nrt=False)
def _benefits(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A7 in the order revealed; returns True when the game ended (min_players, A12)."""
    _log(cfg, log, L_A7, 0, 0, 0, 0, 0)
    guard = st[S_HOLDS + CH_GUARD]
    if (st[S_SPENT] >> CH_GUARD) & 1:        # A12: lost if the Guard was spent
        guard = -1
    for pos in range(st[S_NREV]):
        c = st[S_REV + pos]
        h = st[S_HOLDER + pos]
        if h < 0 or (st[S_SPENT] >> c) & 1 or not _in(st, h):
            continue
        target = -1
        choice = 0
        blocked = 0
        _ctx(obs, c, pos, -1, 0)
        if c == CH_SPECTACLES:
            _ren(st, obs, h, 5)
        elif c == CH_PEDDLER:
            _gold(st, obs, h, 7)
        elif c == CH_ORACLE:
            st[S_ORACLE_NEXT] = h
        elif c == CH_PRIEST or c == CH_ATHLETE:
            _ren(st, obs, h, 3)
        elif c == CH_HERO:
            _ren(st, obs, h, 4)
        elif c == CH_BROKER:
            _gold(st, obs, h, 4)
        elif c == CH_PHILOSOPHER:
            _ren(st, obs, h, 2)
        elif c == CH_BUILDER or c == CH_CRIER:
            choice = _buy(fns, st, cfg, obs, h, c, opts, params, prng, wk, diag)
        elif c == CH_THIEF or c == CH_COURTESAN or c == CH_BRIGAND or c == CH_ASSASSIN:
            k = 0
            if c == CH_ASSASSIN:
                if st[S_GOLD + h] >= 25:
                    opts[0] = -1                       # A12: only he may decline
                    k = _other_seats(st, cfg, h, opts, 1)
            else:
                k = _other_seats(st, cfg, h, opts, 0)
            if k > 0:
                target = opts[_ask(fns, st, cfg, obs, h, K_TARGET, opts, k, params, prng, wk,
                                   diag)]
            if target >= 0:
                obs[O_TARGETED + target] += 1
                obs[O_ATTACKS + h] += 1
                if c == CH_COURTESAN:
                    _ren(st, obs, target, -min(4, st[S_REN + target]))
                else:
                    if c == CH_ASSASSIN:
                        _gold(st, obs, h, -25)         # paid even when cancelled (A12)
                    if target == guard:
                        blocked = 1
                    elif (st[S_PERS + target] == PE_ARTHAS
                          and not (st[S_ARTHAS_USED] >> target) & 1):
                        blocked = 1
                        st[S_ARTHAS_USED] |= _bit(target)
                        obs[O_ARTHAS_USED] = st[S_ARTHAS_USED]
                    if blocked == 0:
                        if c == CH_THIEF:
                            t = st[S_GOLD + target] // 2
                            st[S_GOLD + target] -= t     # a transfer: the ledger is unchanged
                            st[S_GOLD + h] += t
                            obs[O_GOLD + target] = st[S_GOLD + target]
                            obs[O_GOLD + h] = st[S_GOLD + h]
                        elif c == CH_BRIGAND:
                            st[S_BRIG_NEXT] |= _bit(target)
                            obs[O_BRIG] = st[S_BRIG_NEXT]
        _log(cfg, log, L_BENEFIT, c, h, target, choice, blocked)
        if c == CH_ASSASSIN and target >= 0 and blocked == 0:
            was_mc = st[S_MC] == target
            _remove(st, obs, cfg, target)
            res[R_ASSASSINATED] |= _bit(target)
            if was_mc:
                _replace_mc(st, cfg, obs)
            if st[S_NIN] < cfg[C_MINP]:
                st[S_ENDED] = 2
                return True
    _ctx(obs, -1, -1, -1, 0)
    return False


# ------------------------------------------------------------------ A8, A9
@njit(cache=True, _nrt=False)
def _ostracism(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A8 (A12): at most one proposal; returns True when the game ended (min_players)."""
    n = cfg[C_N]
    seats = wk[W_SEATS:W_SEATS + MAXP]
    ns = _turn_order(st, cfg, seats)
    proposer = -1
    target = -1
    _ctx(obs, -1, -1, -1, 0)
    for j in range(ns):
        p = seats[j]
        opts[0] = -1
        k = _other_seats(st, cfg, p, opts, 1)
        t = opts[_ask(fns, st, cfg, obs, p, K_PROPOSE, opts, k, params, prng, wk, diag)]
        if t >= 0:
            proposer = p
            target = t
            break
    if proposer < 0:
        return False
    res[R_OST_PROPOSALS] += 1
    obs[O_OST_PROPOSALS] += 1
    obs[O_PROPOSED + proposer] += 1
    nin = st[S_NIN]
    need_sup = (2 * nin + 2) // 3
    gold_all = 0
    for q in range(n):
        if _in(st, q):
            gold_all += st[S_GOLD + q]
    need_gold = (gold_all + 3) // 4
    obs[O_TARGET] = target
    obs[O_PROPOSER] = proposer
    obs[O_NEED_SUP] = need_sup
    obs[O_NEED_GOLD] = need_gold
    _log(cfg, log, L_OST, proposer, target, need_sup, need_gold, 0)
    st[S_PHASE] = PH_SUPPORT
    for j in range(ns):
        p = seats[j]
        if p == target or p == proposer:
            continue
        st[S_SEALED + p] = 1 if _yes_no(fns, st, cfg, obs, p, K_SUPPORT, opts, params, prng,
                                        wk, diag) else 0
    st[S_SEALED + proposer] = 1
    st[S_PHASE] = PH_OSTP
    nsup = 0
    total = 0
    for j in range(ns):
        p = seats[j]
        if p == target or st[S_SEALED + p] == 0:
            continue
        nsup += 1
        a = _amount(fns, st, cfg, obs, p, K_OST_PLEDGE, st[S_GOLD + p], opts, params, prng,
                    wk, diag)
        st[S_SEALED2 + p] = a
        total += a
    st[S_PHASE] = PH_NONE
    for j in range(ns):
        p = seats[j]
        if st[S_SEALED + p] == 1:
            a = st[S_SEALED2 + p]
            _log(cfg, log, L_OST_PLEDGE, p, a, 0, 0, 0)
            if a > 0:
                _gold(st, obs, p, -a)
        st[S_SEALED + p] = 0
        st[S_SEALED2 + p] = 0
    res[R_OST_PLEDGED] += total
    passed = nsup >= need_sup and total >= need_gold
    new_mc = -1
    ended = False
    if passed:
        res[R_OST_PASSES] += 1
        res[R_EXILED] |= _bit(target)
        g = st[S_GOLD + target]
        r = st[S_REN + target]
        res[R_EXILE_GOLD] += g
        res[R_EXILE_REN] += r
        was_mc = st[S_MC] == target
        _remove(st, obs, cfg, target)
        left = st[S_NIN]
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
            obs[O_TARGET] = target
            new_mc = opts[_ask(fns, st, cfg, obs, target, K_NAME_MC, opts, k, params, prng,
                               wk, diag)]
            st[S_MC] = new_mc
            obs[O_MC] = new_mc
        if st[S_NIN] < cfg[C_MINP]:
            st[S_ENDED] = 2
            ended = True
    _log(cfg, log, L_OST_END, 1 if passed else 0, new_mc, nsup, total, 0)
    obs[O_TARGET] = -1
    obs[O_PROPOSER] = -1
    return ended


@njit(cache=True, _nrt=False)
def _honours(fns, st, cfg, obs, opts, params, prng, wk, diag, log):
    """A9: everyone in the game votes for another; the most votes gains 5 renown."""
    n = cfg[C_N]
    _log(cfg, log, L_A9, 0, 0, 0, 0, 0)
    seats = wk[W_SEATS:W_SEATS + MAXP]
    ns = _turn_order(st, cfg, seats)
    st[S_PHASE] = PH_VOTE
    _ctx(obs, -1, -1, -1, 0)
    for j in range(ns):
        p = seats[j]
        k = _other_seats(st, cfg, p, opts, 0)
        st[S_SEALED + p] = opts[_ask(fns, st, cfg, obs, p, K_VOTE, opts, k, params, prng, wk,
                                     diag)]
    st[S_PHASE] = PH_NONE
    votes = wk[W_VOTES:W_VOTES + MAXP]
    for q in range(MAXP):
        votes[q] = 0
    for j in range(ns):
        p = seats[j]
        v = st[S_SEALED + p]
        st[S_SEALED + p] = 0
        votes[v] += 1
        obs[O_LAST_VOTE + p] = v
        _log(cfg, log, L_VOTE, p, v, 0, 0, 0)
    best = 0
    for q in range(n):
        best = max(best, votes[q])
    tied = wk[W_LIST:W_LIST + MAXP]
    nt = 0
    for q in range(n):
        if votes[q] == best and _in(st, q):
            tied[nt] = q
            nt += 1
    w = tied[0]
    if nt > 1:
        w = _mc_tie(fns, st, cfg, obs, tied, nt, 1, opts, params, prng, wk, diag)
    _ren(st, obs, w, 5)
    _log(cfg, log, L_HONOURED, w, 0, 0, 0, 0)


# ------------------------------------------------------------------ a round, a game
@njit(cache=True, _nrt=False)
def _new_round(st, cfg, obs, log):
    n = cfg[C_N]
    r = st[S_ROUND]
    obs[O_ROUND] = r
    for k in range(NCHAR):
        st[S_PREV_HOLDS + k] = st[S_HOLDS + k]
        obs[O_PREV_HOLDS + k] = st[S_HOLDS + k]
        st[S_HOLDS + k] = -1
        obs[O_HOLDS + k] = -1
        st[S_REV + k] = -1
        obs[O_REV + k] = -1
        st[S_HOLDER + k] = -1
        obs[O_HOLDER + k] = -1
    for k in range(NCHAR * MAXP):
        st[S_BIDS + k] = 0
        obs[O_BIDS + k] = -1
    st[S_NREV] = 0
    obs[O_NREV] = 0
    st[S_CUR] = 0
    st[S_SPENT] = 0
    obs[O_SPENT] = 0
    st[S_NIMOS_USED] = 0
    st[S_EVENT_NOW] = -1
    obs[O_EVENT_NOW] = -1
    st[S_BRIG_NOW] = st[S_BRIG_NEXT]
    st[S_BRIG_NEXT] = 0
    obs[O_BRIG] = 0
    _log(cfg, log, L_ROUND, r, st[S_MC], st[S_IN], 0, 0)
    return n


@njit(cache=True, _nrt=False)
def play_round(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, key):
    """One round, A2 to A9. Returns True when the game ended in it."""
    n = _new_round(st, cfg, obs, log)
    _income(st, cfg, obs, log)
    ev = _draw_event(st, cfg, obs, prng, key, log)
    _reveal(st, cfg, obs, prng, key, log, res, wk)
    for pos in range(st[S_NREV]):
        _auction(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, pos)
    _ctx(obs, -1, -1, -1, 0)
    if ev == EV_HARVEST or ev == EV_TRIUMPH or ev == EV_WEDDING:
        _good_event(fns, st, cfg, obs, opts, params, prng, wk, diag, log, key, ev)
    _harmful(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    ended = _collapse(st, cfg, log, res)
    if not ended:
        ended = _benefits(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    if not ended:
        ended = _ostracism(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    if not ended:
        _honours(fns, st, cfg, obs, opts, params, prng, wk, diag, log)
    if cfg[C_CHECK_OBS] != 0:
        _check_invariants(st, cfg, diag)
    for p in range(n):
        _log(cfg, log, L_FIG, p, st[S_GOLD + p], st[S_REN + p], 1 if _in(st, p) else 0, 0)
    _log(cfg, log, L_ROUND_END, 0, 0, 0, 0, 0)
    return ended


@njit(cache=True, _nrt=False)
def _final(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """A10: score = renown + gold // 3; highest wins, ties most gold, then shared — or,
    under ``final_tie = mc_choice``, the MC at the end of the game names the one winner
    among those still tied (a ``K_TIE`` decision with ``O_TIE_WHAT = 2``); a collapse
    has no winner and no tie choice (scores still recorded)."""
    n = cfg[C_N]
    best_s = -1
    best_g = -1
    win = 0
    for p in range(MAXP):
        res[R_SCORE + p] = -1
    for p in range(n):
        res[R_GOLD + p] = st[S_GOLD + p]
        res[R_REN + p] = st[S_REN + p]
        if not _in(st, p):
            continue
        s = st[S_REN + p] + st[S_GOLD + p] // 3
        g = st[S_GOLD + p]
        res[R_SCORE + p] = s
        if s > best_s or (s == best_s and g > best_g):
            best_s = s
            best_g = g
            win = _bit(p)
        elif s == best_s and g == best_g:
            win |= _bit(p)
    if st[S_ENDED] == 1:
        win = 0
    k = 0
    for p in range(n):
        k += (win >> p) & 1
    tied = win
    chosen = -1
    if k > 1:
        res[R_FINAL_TIED] = k
        if cfg[C_FINAL_MC] != 0:
            m = 0
            for p in range(n):
                if (win >> p) & 1:
                    opts[m] = p
                    m += 1
            _ctx(obs, -1, -1, -1, 0)
            obs[O_TIE_WHAT] = 2
            obs[O_ROUND] = st[S_ROUND]      # the game is over: the rounds played
            chosen = opts[_ask(fns, st, cfg, obs, st[S_MC], K_TIE, opts, m, params, prng, wk,
                               diag)]
            win = _bit(chosen)
            k = 1
    res[R_WINMASK] = win
    res[R_NWIN] = k
    res[R_EARLY] = 1 if st[S_ENDED] == 2 else 0
    res[R_ERROR] = st[S_ERROR]
    _log(cfg, log, L_FINAL, 1 if st[S_ENDED] == 1 else 0, win, 0, 0, 0)
    for p in range(n):
        _log(cfg, log, L_SCORE, p, res[R_SCORE + p], 0, 0, 0)
    if chosen >= 0:
        _log(cfg, log, L_FINAL_TIE, st[S_MC], chosen, tied, 0, 0)


@njit(cache=True, _nrt=False)
def play_game(fns, cfg, params, key, st, obs, opts, prng, wk, log, diag, res):
    """Play one whole game with 64-bit ``key``; results into ``res`` (RES_LEN)."""
    init_state(cfg, key, st, obs, prng, res)
    setup(st, cfg, obs, prng, key, log, res)
    rounds = cfg[C_ROUNDS]
    while st[S_ROUND] < rounds:
        ended = play_round(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res, key)
        st[S_ROUND] += 1
        if ended:
            break
    res[R_ROUNDS] = st[S_ROUND]
    _final(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)


@njit(cache=True)
def play_batch(fns, cfg, params, keys, res, diag):
    """Play ``keys.shape[0]`` games; row ``g`` of ``res`` gets game ``g``'s results."""
    st = np.zeros(ST_LEN, np.int64)
    obs = np.zeros(OBS_LEN, np.int64)
    opts = np.zeros(MAXP + 1, np.int64)
    prng = np.zeros(MAXP + 2, np.uint64)
    wk = np.zeros(WK_LEN, np.int64)
    log = np.zeros(2, np.int64)
    for g in range(keys.shape[0]):
        play_game(fns, cfg, params, keys[g], st, obs, opts, prng, wk, log, diag, res[g])
