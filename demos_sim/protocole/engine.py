"""The Protocole game kernel: whole games in numba, policies called through function pointers.

One game is ``play_game``: setup (P1), rounds of turns and Norm selections (P2, P3),
Household controls (P4.1–P4.2, P5.2–P5.3), redistribution of the Norm and the
Initiative (P4.3) until an end condition (P4.4, P5.2) or the round cap (P4.5). The same
architecture as the DĒMOS kernel (:mod:`demos_sim.demos.engine`): every decision goes
through ``_decide``, the step of :mod:`demos_sim.kernel`, which builds the seat's
observation (``observe``), calls that seat's policy (a first-class numba function), —
when ``cfg[C_CHECK_OBS]`` is set — replays the decision on a scrambled copy of the
hidden state (the M2 observation test) and checks card conservation, and validates the
index. With ``cfg[C_LOG]`` set, the game writes the event log
:mod:`demos_sim.protocole.record` turns into a record. Offsets are read as ``L.NAME``
(:mod:`demos_sim.protocole.layout`).

Random streams of a game with 64-bit key ``key``: the setup removal and round 0's deck
``derive(key, 0, 0)``; round ``r``'s shuffle of the previous Norm ``derive(key, 0, r)``;
seat ``p``'s policy ``derive(key, 1, p)``; the observation test's scrambles
``derive(key, 2, 0)``. Setup and the first deal therefore do not depend on policies or
variants (common random numbers).

Readings of RULES.md made here:

- P1.2: the colour and the symbol removed at 2 players, and the colour-or-symbol removed
  at 3 players, are chance: at 2 players a colour uniform among 6 then a symbol uniform
  among 6; at 3 players one attribute uniform among the 12 (6 colours, 6 symbols).
- P1.3 / P4.3: "one card at a time in turn order starting with the Initiative holder"
  counts only players still in the game; hands are ``len // players`` each and the
  remainder (fewer cards than players) goes face up into the Selection in deck order.
- P2.1: since every hand starts a round with the same size and each turn plays one card,
  turns simply go round the players still in the game from the Initiative holder until
  every hand is empty; a player may always choose either destination (no Foyer limit).
- P4.2: an eliminated player's Foyer leaves the game unrevealed (controls are made
  "without revealing the cards", seed booklet), so it stays hidden from the others.
- P4.4: "All but one eliminated" is checked before the Norm size, at every control.
- P5.2 / P5.3: in coop mode the basic control is applied to every Foyer (a failing Foyer
  leaves the game as in P4.2) before the loss; the reinforced control is checked only
  when no Foyer failed. ``reinforced_scope`` ``each_player``: every Foyer needs ``need``
  cards with both attributes in the Norm (an empty Foyer has none); ``team``: ``need``
  over all Foyers together.
"""

import numpy as np

from demos_sim import kernel as K
from demos_sim.bits import lowest_bit, popcount, wrap
from demos_sim.eventlog import log_event
from demos_sim.jit import kernel
from demos_sim.kernel import (  # noqa: F401  (re-exported: E.DIAG_LEN, E.D_INVARIANT …)
    D_CHECKED, D_DECISION_DIFF, D_ERROR, D_INVARIANT, D_OBS_DIFF, DIAG_LEN, check_errors,
)
from demos_sim.protocole import layout as L
from demos_sim.protocole.norm import colour_cover, covered, double_covered, norm_keep, symbol_cover
from demos_sim.protocole.observe import observe, scramble_hidden
from demos_sim.rng import below, derive, shuffle_inplace


# what a control decided (returned by control)
CTRL_GO_ON, CTRL_END = 0, 1


# ------------------------------------------------------------------ small helpers
@kernel(inline=True)
def _log(cfg, log, t, a, b, c, d, e):
    log_event(cfg[L.C_LOG], log, t, a, b, c, d, e)


@kernel(inline=True)
def _bit(i):
    return np.int64(1) << i


@kernel
def _check_invariants(st, cfg, diag, at_control):
    """Card conservation: hands, Foyers, Selection, Norm, cards out of the game and cards
    removed at setup are disjoint and hold all 36 cards; hands are empty at a control."""
    n = cfg[L.C_N]
    union = st[L.S_SEL] | st[L.S_NORM] | st[L.S_GONE] | st[L.S_DEAD] | st[L.S_REMOVED]
    total = (popcount(st[L.S_SEL]) + popcount(st[L.S_NORM]) + popcount(st[L.S_GONE])
             + popcount(st[L.S_DEAD]) + popcount(st[L.S_REMOVED]))
    hands = 0
    for p in range(n):
        union |= st[L.S_HAND + p] | st[L.S_FOYER + p]
        total += popcount(st[L.S_HAND + p]) + popcount(st[L.S_FOYER + p])
        hands |= st[L.S_HAND + p]
        if not (st[L.S_ALIVE] >> p) & 1 and (st[L.S_HAND + p] | st[L.S_FOYER + p]) != 0:
            diag[K.D_INVARIANT] += 1
    if union != L.FULL or total != L.NCARD or (at_control and hands != 0):
        diag[K.D_INVARIANT] += 1


@kernel
def _check_decision(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, srng, wk,
                    diag, idx, saved):
    """M2 check (:mod:`demos_sim.kernel` step 2): the same decision from a state whose
    hidden cards were reshuffled; then card conservation."""
    st2 = wk[L.W_ST2:L.W_ST2 + L.ST_LEN]
    for i in range(L.ST_LEN):
        st2[i] = st[i]
    scramble_hidden(st2, cfg, seat, kind, srng,
                    wk[L.W_SCRAMBLE:L.W_SCRAMBLE + L.SCRAMBLE_LEN])
    row2 = wk[L.W_OBS2:L.W_OBS2 + L.OBS_LEN]
    for i in range(L.O_T_ON):
        row2[i] = -9
    for i in range(L.O_T_ON, L.OBS_LEN):     # the truth block: 0 unless a reference seat
        row2[i] = 0
    observe(st2, cfg, seat, kind, row2)
    K.compare(obs, row2, diag, K.D_OBS_DIFF)
    K.replay(fns, cfg, row2, opts, n_opts, params, prng, seat, saved, idx, diag)
    _check_invariants(st, cfg, diag, False)


@kernel(inline=True)
def _decide(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, srng, wk, diag):
    """The decision step (:mod:`demos_sim.kernel`): ``seat``'s policy chooses among
    ``opts[:n_opts]``; returns the index of the option played."""
    if n_opts == 1:
        return 0  # a forced move is no decision: no policy call, no random draw
    observe(st, cfg, seat, kind, obs)
    saved = prng[seat]
    idx = fns[seat](cfg, obs, opts, n_opts, params[seat], prng[seat:seat + 1])
    # M2 check; a reference seat (cfg C_TRUTH: sees the true state by design) only when
    # C_CHECK_OBS is 2 (then it must fail: a test shows it reads hidden cards)
    if cfg[L.C_CHECK_OBS] > ((cfg[L.C_TRUTH] >> seat) & 1):
        _check_decision(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, srng,
                        wk, diag, idx, saved)
    return K.validate(idx, n_opts, st, L.S_ERROR)


# ------------------------------------------------------------------ P1 setup, P1.3 / P4.3 deal
@kernel
def _setup(st, cfg, prng, log):
    """P1.2 removal (chance, see module docstring) and round 0's shuffled deck."""
    n = cfg[L.C_N]
    removed = np.int64(0)
    if n == 2:
        c = below(prng, L.RNG_CHANCE, 6)
        s = below(prng, L.RNG_CHANCE, 6)
        removed = (np.int64(L.COLOUR0) << (6 * c)) | (np.int64(L.SYMBOL0) << s)
    elif n == 3:
        a = below(prng, L.RNG_CHANCE, 12)
        if a < 6:
            removed = np.int64(L.COLOUR0) << (6 * a)
        else:
            removed = np.int64(L.SYMBOL0) << (a - 6)
    st[L.S_REMOVED] = removed
    _log(cfg, log, L.EV_SETUP, removed, 0, 0, 0, 0)
    k = 0
    for c in range(L.NCARD):
        if not (removed >> c) & 1:
            st[L.S_DECK + k] = c
            k += 1
    st[L.S_DECK_LEN] = k
    shuffle_inplace(st[L.S_DECK:L.S_DECK + k], k, prng, L.RNG_CHANCE)   # P1.3 shuffle


@kernel(inline=True)
def _nth(order, j):
    return (order >> (4 * j)) & 15


@kernel
def deal(st, cfg, foyer_start, log):
    """P1.3: deal the deck one card at a time in turn order from the Initiative holder,
    players still in the game only: ``foyer_start`` rounds into the Foyers, then the
    hands (``len // players`` each), then the remainder face up into the Selection."""
    n = cfg[L.C_N]
    alive = st[L.S_ALIVE]
    na = popcount(alive)
    order = 0                        # 4 bits a place: the seats in turn order
    k = 0
    for j in range(n):
        p = wrap(st[L.S_INIT] + j, n)
        if (alive >> p) & 1:
            order |= p << (4 * k)
            k += 1
    nd = st[L.S_DECK_LEN]
    deckset = np.int64(0)
    for i in range(nd):
        _log(cfg, log, L.EV_DECK, st[L.S_DECK + i], 0, 0, 0, 0)
        deckset |= _bit(st[L.S_DECK + i])
    st[L.S_DECKSET] = deckset
    pos = 0
    for _ in range(foyer_start):
        for j in range(na):
            c = st[L.S_DECK + pos]
            pos += 1
            st[L.S_FOYER + _nth(order, j)] |= _bit(c)
            _log(cfg, log, L.EV_FOYER_DEAL, _nth(order, j), c, 0, 0, 0)
    each = (nd - pos) // na
    for _ in range(each):
        for j in range(na):
            st[L.S_HAND + _nth(order, j)] |= _bit(st[L.S_DECK + pos])
            pos += 1
    for j in range(na):
        _log(cfg, log, L.EV_HAND, _nth(order, j), st[L.S_HAND + _nth(order, j)], 0, 0, 0)
    sel = np.int64(0)
    while pos < nd:
        sel |= _bit(st[L.S_DECK + pos])
        pos += 1
    st[L.S_SEL] = sel
    _log(cfg, log, L.EV_SEL_START, sel, 0, 0, 0, 0)


# ------------------------------------------------------------------ P2, P3 a round of turns
@kernel(inline=True)
def _norm_selection(st, cfg, log):
    """P3.1–P3.2, P3.1a: resolve the Selection into the round's Norm; the rest leave the game."""
    sel = st[L.S_SEL]
    kept = norm_keep(sel, cfg[L.C_REINF_SEL] != 0, cfg[L.C_TIE_DISCARD] != 0,
                     cfg[L.C_PER_DIM] != 0)
    st[L.S_NORM] |= kept
    st[L.S_GONE] |= sel & ~kept
    st[L.S_SEL] = 0
    _log(cfg, log, L.EV_SELECTION, sel, kept, 0, 0, 0)


@kernel(inline=True)
def apply_play(st, cfg, seat, o, log):
    """P2.1–P2.2: ``seat`` plays option ``o`` (``card * 2 + to``) from its hand: face up
    into the Selection or face down into its own Foyer; a Norm selection when the
    Selection reaches 5. Public for the search policies' forward model."""
    c = o >> 1
    st[L.S_HAND + seat] &= ~_bit(c)
    if o & 1 == L.TO_FOYER:
        st[L.S_FOYER + seat] |= _bit(c)
    else:
        st[L.S_SEL] |= _bit(c)
        st[L.S_PLAYED + seat] |= _bit(c)
    st[L.S_TURN] += 1
    _log(cfg, log, L.EV_TURN, seat, c, o & 1, 0, 0)
    if popcount(st[L.S_SEL]) == L.SEL_MAX:      # P2.2
        _norm_selection(st, cfg, log)


@kernel(inline=True)
def turn_options(st, seat, opts):
    """P2.1: ``seat``'s options into ``opts``: every hand card, in increasing id order, to
    the Selection (``card * 2``) then to the own Foyer (``card * 2 + 1``); returns how many."""
    k = 0
    x = st[L.S_HAND + seat]
    while x:
        c = lowest_bit(x)
        x &= x - 1
        opts[k] = 2 * c + L.TO_SELECTION         # face up
        opts[k + 1] = 2 * c + L.TO_FOYER         # face down
        k += 2
    return k


@kernel(inline=True)
def finish_turns(st, cfg, log):
    """P3.3: every hand is empty; a Selection of 1–4 cards is resolved."""
    if st[L.S_SEL] != 0:
        _norm_selection(st, cfg, log)


@kernel(inline=True)
def cards_in_hands(st, cfg):
    left = 0
    for p in range(cfg[L.C_N]):
        left += popcount(st[L.S_HAND + p])
    return left


@kernel
def play_turns(fns, st, cfg, obs, opts, params, prng, srng, wk, diag, log, seat):
    """P2.1–P2.2, P3.3: turns from ``seat`` (the Initiative holder at a round's start),
    clockwise, skipping empty hands; a Norm selection whenever the Selection reaches 5,
    and one for a last 1–4 cards. (The search policies' rollouts repeat this loop with
    their rollout policy called directly: :mod:`demos_sim.protocole.policies.ismcts`.)"""
    n = cfg[L.C_N]
    left = cards_in_hands(st, cfg)
    while left > 0:
        if st[L.S_HAND + seat] != 0:
            k = turn_options(st, seat, opts)
            o = opts[_decide(fns, st, cfg, obs, seat, L.K_PLAY, opts, k, params, prng,
                             srng, wk, diag)]
            apply_play(st, cfg, seat, o, log)
            left -= 1
        seat = wrap(seat + 1, n)
    finish_turns(st, cfg, log)


# ------------------------------------------------------------------ P4, P5 controls and the end
@kernel
def _winners_each(st, cfg):
    """P4.4: most points among players still in the game; tie -> most attributes in common
    with the last Norm (1 per Foyer card for its colour present, 1 for its symbol);
    still tied -> shared. Returns a seat mask."""
    n = cfg[L.C_N]
    alive = st[L.S_ALIVE]
    norm = st[L.S_NORM]
    cc = colour_cover(norm)
    sc = symbol_cover(norm)
    best_p = -1
    best_a = -1
    win = 0
    for p in range(n):
        if not (alive >> p) & 1:
            continue
        f = st[L.S_FOYER + p]
        pts = st[L.S_POINTS + p]
        att = popcount(f & cc) + popcount(f & sc)
        if pts > best_p or (pts == best_p and att > best_a):
            best_p = pts
            best_a = att
            win = _bit(p)
        elif pts == best_p and att == best_a:
            win |= _bit(p)
    return win


@kernel
def control(st, cfg, log, res):
    """P4.1 control of every Foyer in the game, then P4.2 (each) or P5.2–P5.3 (coop), and
    the end conditions of P4.3–P4.4 / P5.2. Returns CTRL_END when the game is over (the
    result is then in ``res``), else CTRL_GO_ON."""
    n = cfg[L.C_N]
    norm = st[L.S_NORM]
    res[L.R_NORM_CARDS] = popcount(norm)
    cov = covered(norm)
    alive = st[L.S_ALIVE]
    failed = 0
    for p in range(n):
        if (alive >> p) & 1:
            ok = (st[L.S_FOYER + p] & ~cov) == 0      # P4.1 (empty passes; empty Norm fails)
            if not ok:
                failed |= _bit(p)
            _log(cfg, log, L.EV_CONTROL, p, 1 if ok else 0, 0, 0, 0)
    for p in range(n):                              # P4.2 elimination
        if (failed >> p) & 1:
            st[L.S_DEAD] |= st[L.S_FOYER + p]
            st[L.S_FOYER + p] = 0
            st[L.S_POINTS + p] = 0
            res[L.R_ELIM] |= _bit(p)
    alive &= ~failed
    st[L.S_ALIVE] = alive
    na = popcount(alive)
    small = popcount(norm) <= 7
    if cfg[L.C_MODE] == L.MODE_EACH:
        for p in range(n):                          # P4.2 scoring
            if (alive >> p) & 1:
                st[L.S_POINTS + p] += popcount(st[L.S_FOYER + p])
            _log(cfg, log, L.EV_POINTS, p, st[L.S_POINTS + p], 0, 0, 0)
        win = -1
        if na == 0:                                 # P4.4 everyone eliminated: no winner
            win = 0
        elif na == 1:                               # P4.4 the last one wins at once
            win = alive
        elif small:                                 # P4.3 seven or fewer: the end, P4.4
            win = _winners_each(st, cfg)
        if win < 0:
            return CTRL_GO_ON
        res[L.R_WINMASK] = win
        res[L.R_NWIN] = popcount(win)
        _log(cfg, log, L.EV_RESULT, win, L.OUT_NONE, 0, 0, 0)
        return CTRL_END
    outcome = L.OUT_NONE
    if failed != 0:                                 # P5.2 an elimination loses
        outcome = L.OUT_LOSS_ELIM
    elif cfg[L.C_NEED] > 0:                           # P5.3 reinforced control
        dbl = double_covered(norm)
        need = cfg[L.C_NEED]
        ok = True
        total = 0
        for p in range(n):
            k = popcount(st[L.S_FOYER + p] & dbl)
            total += k
            if k < need:
                ok = False
        if cfg[L.C_SCOPE_TEAM]:
            ok = total >= need
        _log(cfg, log, L.EV_REINF, 1 if ok else 0, 0, 0, 0, 0)
        if not ok:
            outcome = L.OUT_LOSS_REINF
    if outcome == L.OUT_NONE and small:               # P5.2 the team wins
        outcome = L.OUT_WIN
    if outcome == L.OUT_NONE:
        return CTRL_GO_ON
    res[L.R_OUTCOME] = outcome
    fc = 0
    for p in range(n):
        fc += popcount(st[L.S_FOYER + p])
    if outcome == L.OUT_WIN:
        res[L.R_WINMASK] = (1 << n) - 1
        res[L.R_NWIN] = n
    _log(cfg, log, L.EV_RESULT, res[L.R_WINMASK], outcome,
         fc if outcome == L.OUT_WIN else -1, 0, 0)
    return CTRL_END


@kernel(allocates=True)
def next_round(st, cfg, key):
    """P4.3: the Norm, shuffled, becomes the next deck; the Initiative passes to the next
    player on the left still in the game (clockwise from the old holder)."""
    n = cfg[L.C_N]
    norm = st[L.S_NORM]
    k = 0
    x = norm
    while x:
        st[L.S_DECK + k] = lowest_bit(x)
        x &= x - 1
        k += 1
    st[L.S_DECK_LEN] = k
    rng = np.empty(1, np.uint64)
    rng[0] = derive(key, 0, st[L.S_ROUND])
    shuffle_inplace(st[L.S_DECK:L.S_DECK + k], k, rng, 0)
    st[L.S_NORM] = 0
    st[L.S_TURN] = 0
    for p in range(L.MAXP):
        st[L.S_PLAYED + p] = 0
    init = st[L.S_INIT]
    for j in range(1, n + 1):
        q = wrap(init + j, n)
        if (st[L.S_ALIVE] >> q) & 1:
            st[L.S_INIT] = q
            break


# ------------------------------------------------------------------ one game, a batch
@kernel
def init_state(cfg, key, st, prng, srng, res):
    """Empty table before P1: everyone in the game, seat 0 holds the Initiative (P1.4)."""
    for i in range(L.ST_LEN):
        st[i] = 0
    for i in range(L.RES_LEN):
        res[i] = 0
    st[L.S_ALIVE] = (1 << cfg[L.C_N]) - 1
    st[L.S_INIT] = 0
    for p in range(L.MAXP):
        prng[p] = derive(key, 1, p)
    prng[L.RNG_CHANCE] = derive(key, 0, 0)
    srng[0] = derive(key, 2, 0)


@kernel
def play_round(fns, st, cfg, obs, opts, params, prng, srng, wk, diag, log, res,
               foyer_start):
    """One round from a dealt-to-be deck in ``st``: deal, turns, control. Returns the
    control's CTRL_* verdict."""
    _log(cfg, log, L.EV_ROUND, st[L.S_ROUND], st[L.S_INIT], 0, 0, 0)
    deal(st, cfg, foyer_start, log)
    play_turns(fns, st, cfg, obs, opts, params, prng, srng, wk, diag, log, st[L.S_INIT])
    res[L.R_TURNS] += st[L.S_TURN]
    if cfg[L.C_CHECK_OBS] != 0:
        _check_invariants(st, cfg, diag, True)
    return control(st, cfg, log, res)


@kernel(allocates=True)
def play_game(fns, cfg, params, key, st, obs, opts, prng, log, diag, res):
    """Play one whole game with 64-bit ``key``; results into ``res`` (RES_LEN)."""
    n = cfg[L.C_N]
    srng = np.empty(1, np.uint64)
    wk = np.empty(L.WK_LEN, np.int64)
    init_state(cfg, key, st, prng, srng, res)
    _setup(st, cfg, prng, log)
    foyer_start = cfg[L.C_FOYER_START]
    while True:
        verdict = play_round(fns, st, cfg, obs, opts, params, prng, srng, wk, diag, log,
                             res, foyer_start)
        foyer_start = 0
        st[L.S_ROUND] += 1
        if verdict == CTRL_END:
            break
        if st[L.S_ROUND] >= cfg[L.C_ROUND_CAP]:                # P4.5
            st[L.S_TRUNC] = 1
            break
        next_round(st, cfg, key)
    res[L.R_ROUNDS] = st[L.S_ROUND]
    res[L.R_TRUNC] = st[L.S_TRUNC]
    fc = 0
    for p in range(n):
        res[L.R_POINTS + p] = st[L.S_POINTS + p]
        fc += popcount(st[L.S_FOYER + p])
    res[L.R_FOYER_CARDS] = fc
    if st[L.S_TRUNC]:
        res[L.R_OUTCOME] = L.OUT_NONE
        res[L.R_WINMASK] = 0
        res[L.R_NWIN] = 0
    _log(cfg, log, L.EV_END, st[L.S_TRUNC], 0, 0, 0, 0)
    K.flag(diag, st[L.S_ERROR])


@kernel(allocates=True)
def play_batch(fns, cfg, params, keys, res, diag):
    """Play ``keys.shape[0]`` games; row ``g`` of ``res`` gets game ``g``'s results."""
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    log = np.zeros(2, np.int64)
    for g in range(keys.shape[0]):
        play_game(fns, cfg, params, keys[g], st, obs, opts, prng, log, diag, res[g])
