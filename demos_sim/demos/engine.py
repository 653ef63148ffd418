"""The DĒMOS game kernel: whole games in numba, policies called through function pointers.

One game is ``play_game``: setup (D2) with the X1 and X2 announcements, rounds (D3–D5),
Scandal (D6), election (D7, D9; with ``team_trio``, ``p3_points_tiebreak`` and X2's
precedence).
Every decision goes through ``_decide``, the step of :mod:`demos_sim.kernel` shared by
the three games: it builds the seat's observation (``observe``), calls that seat's
policy (a first-class numba function, so policies plug in without touching this file),
— when ``cfg[C_CHECK_OBS]`` is set — replays the decision on a scrambled copy of the
hidden state (the M2 observation test; a *reference* seat, ``cfg[C_TRUTH]``, which sees
the true state by design, only with ``C_CHECK_OBS`` = 2), and validates the index it returns. With
``cfg[C_LOG]`` set, the game writes an event log that :mod:`demos_sim.demos.record`
turns into a GAME_RECORD.md record: records come from this same kernel. Offsets are
read as ``L.NAME`` (:mod:`demos_sim.demos.layout`; numba folds them into constants).

Hot functions are compiled with :func:`demos_sim.jit.kernel`: they never allocate, and numba's
reference counting of their array arguments (half of the run time when measured) is off.
Scratch space lives in ``wk``, one named region per use (``L.W_*``).

Random streams of a game with 64-bit key ``key``: the Power pile ``derive(key, 0, 0)``,
round ``r``'s People deck ``derive(key, 0, r+1)``, seat ``p``'s policy
``derive(key, 1, p)``, the observation test's scrambles ``derive(key, 2, 0)``. Decks
therefore do not depend on the policies or on the variants (common random numbers).
"""

import numpy as np

from demos_sim import kernel as K
from demos_sim.bits import lowest_bit, wrap
from demos_sim.demos import layout as L
from demos_sim.demos.observe import observe, scramble_hidden
from demos_sim.demos.scoring import best_combo, round_key, scoring_rules
from demos_sim.eventlog import log_event
from demos_sim.jit import kernel
from demos_sim.kernel import (  # noqa: F401  (re-exported: E.DIAG_LEN, E.check_errors …)
    D_CHECKED, D_DECISION_DIFF, D_ERROR, D_OBS_DIFF, DIAG_LEN, check_errors,
)
from demos_sim.rng import derive, shuffle_inplace


# ------------------------------------------------------------------ small helpers
@kernel(inline=True)
def _log(cfg, log, t, a, b, c, d, e):
    log_event(cfg[L.C_LOG], log, t, a, b, c, d, e)


@kernel(inline=True)
def _seat_at(st, cfg, j):
    """The j-th seat of the round's action order: dealer+1, dealer+2, …, dealer."""
    return wrap(st[L.S_DEALER] + 1 + j, cfg[L.C_N])


@kernel(inline=True)
def _draw(st):
    pos = st[L.S_DECK_POS]
    if pos >= st[L.S_DECK_LEN]:      # impossible under D2.3; flagged, never silent
        K.flag(st, K.ERR_DECK_EMPTY, L.S_ERROR)
        return st[L.S_DECK]
    st[L.S_DECK_POS] = pos + 1
    return st[L.S_DECK + pos]


@kernel
def _check_decision(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, wk, diag,
                    idx, saved):
    """M2 check (:mod:`demos_sim.kernel` step 2): the same decision from a state whose
    hidden cards were reshuffled."""
    row = obs[seat]
    st2 = wk[L.W_ST2:L.W_ST2 + L.ST_LEN]
    for i in range(L.ST_LEN):
        st2[i] = st[i]
    scramble_hidden(st2, cfg, seat, kind, prng,
                    wk[L.W_SCRAMBLE:L.W_SCRAMBLE + L.NCARD + L.NFIG])
    row2 = wk[L.W_OBS2:L.W_OBS2 + L.OBS_LEN]
    for i in range(L.O_T_ON):
        row2[i] = -9
    for i in range(L.O_T_ON, L.OBS_LEN):     # the truth block: 0 unless a reference seat
        row2[i] = 0
    observe(st2, cfg, seat, kind, row2)
    row2[L.O_GVER] = row[L.O_GVER]          # versions are bookkeeping, not information
    for p in range(L.MAXP):
        row2[L.O_FVER + p] = row[L.O_FVER + p]
    K.compare(row, row2, diag, K.D_OBS_DIFF)
    K.replay(fns, cfg, row2, opts, n_opts, params, prng, seat, saved, idx, diag)
    observe(st, cfg, seat, kind, row)  # restore the team-view flag of the real state


@kernel(inline=True)
def _decide(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, wk, diag):
    """The decision step (:mod:`demos_sim.kernel`): ``seat``'s policy chooses among
    ``opts[:n_opts]``; returns the index of the option played."""
    if n_opts == 1:
        return 0  # a forced move is no decision: no policy call, no random draw
    row = obs[seat]
    observe(st, cfg, seat, kind, row)
    saved = prng[seat]
    idx = fns[seat](cfg, row, opts, n_opts, params[seat], prng[seat:seat + 1])
    # M2 check; a reference seat (cfg C_TRUTH: it sees the true state, by design) only
    # when C_CHECK_OBS is 2 (then it must fail: a test shows it reads hidden cards)
    if cfg[L.C_CHECK_OBS] > ((cfg[L.C_TRUTH] >> seat) & 1):
        _check_decision(fns, st, cfg, obs, seat, kind, opts, n_opts, params, prng, wk,
                        diag, idx, saved)
    return K.validate(idx, n_opts, st, L.S_ERROR)


@kernel(inline=True)
def _add_figure(st, p, f):
    st[L.S_FVER + p] += 1
    k = st[L.S_NFIG + p]
    st[L.S_FIG + p * L.NFIG + k] = f
    st[L.S_NFIG + p] = k + 1


@kernel(inline=True)
def _discard_take_options(opts, k, h, tab):
    """Append every (discard d from hand, then take: deck or face-up card t) as d*64 + t."""
    x = h
    while x:
        d = lowest_bit(x)
        x &= x - 1
        opts[k] = d * 64 + L.DECK_TOP
        k += 1
        y = tab
        while y:
            opts[k] = d * 64 + lowest_bit(y)
            y &= y - 1
            k += 1
    return k


@kernel(inline=True)
def _discard_take(st, p, o):
    """Apply option ``o`` = d*64 + t to ``p``'s hand: discard d, draw or take t (D3.3,
    D3.4.3)."""
    d = o // 64
    t = o % 64
    h = st[L.S_HAND + p] & ~(1 << d)
    if t == L.DECK_TOP:
        h |= 1 << _draw(st)
    else:
        h |= 1 << t
        st[L.S_TABLE] &= ~(1 << t)     # a taken card is gone from the table
    st[L.S_HAND + p] = h
    return d, t


# ------------------------------------------------------------------ D3 a round
@kernel
def _play_round(fns, st, cfg, obs, opts, params, prng, wk, diag, key, log, res):
    """D3.1–D3.4 deal and the discard turns of round ``st[S_ROUND]``, then the showdown."""
    n = cfg[L.C_N]
    full = cfg[L.C_RULES] == 0
    r = st[L.S_ROUND]
    st[L.S_DEALER] = r % n                                    # D2.1
    # D3.1 gather and shuffle the People deck (simplified: no aces, D1)
    m = 0
    for c in range(40):
        if full or c % 10 != 0:
            st[L.S_DECK + m] = c
            m += 1
    st[L.S_DECK_LEN] = m
    st[L.S_DECK_POS] = 0
    prng[L.RNG_CHANCE] = derive(key, 0, r + 1)
    shuffle_inplace(st[L.S_DECK:L.S_DECK + m], m, prng, L.RNG_CHANCE)
    _log(cfg, log, L.EV_ROUND, r, st[L.S_DEALER], m, 0, 0)
    for i in range(m):
        _log(cfg, log, L.EV_DECK, st[L.S_DECK + i], 0, 0, 0, 0)
    for p in range(L.MAXP):
        st[L.S_HAND + p] = 0
        st[L.S_PUB + p] = -1
        st[L.S_SEC + p] = -1
        st[L.S_SEC_TAKE + p] = -2
        st[L.S_UNAN + p] = -1
        st[L.S_UNAN_TAKE + p] = -2
    st[L.S_TABLE] = 0
    st[L.S_FACEUP] = 0
    st[L.S_SEC_UP] = 0
    st[L.S_VETOED] = 0
    for _ in range(5):                                       # D3.1 deal one at a time
        for j in range(n):
            p = _seat_at(st, cfg, j)
            st[L.S_HAND + p] |= 1 << _draw(st)

    # D3.2 public discard
    for j in range(n):
        p = _seat_at(st, cfg, j)
        h = st[L.S_HAND + p]
        k = 0
        x = h
        while x:
            opts[k] = lowest_bit(x)
            x &= x - 1
            k += 1
        d = opts[_decide(fns, st, cfg, obs, p, L.K_PUBLIC, opts, k, params, prng, wk, diag)]
        st[L.S_HAND + p] = (h & ~(1 << d)) | (1 << _draw(st))
        st[L.S_PUB + p] = d
        st[L.S_TABLE] |= 1 << d
        st[L.S_FACEUP] |= 1 << d
        _log(cfg, log, L.EV_PUBLIC, p, d, 0, 0, 0)

    # D3.3 secret discard
    for j in range(n):
        p = _seat_at(st, cfg, j)
        h = st[L.S_HAND + p]
        tab = st[L.S_TABLE]
        k = 0
        if cfg[L.C_SECRET_OPT]:
            opts[k] = -1
            k += 1
        k = _discard_take_options(opts, k, h, tab)
        o = opts[_decide(fns, st, cfg, obs, p, L.K_SECRET, opts, k, params, prng, wk, diag)]
        if o < 0:
            st[L.S_SEC_TAKE + p] = -1                          # a pass (full rules)
            _log(cfg, log, L.EV_SECRET, p, -1, -1, 0, 0)
            continue
        d, t = _discard_take(st, p, o)
        st[L.S_SEC + p] = d
        st[L.S_SEC_TAKE + p] = t
        _log(cfg, log, L.EV_SECRET, p, d, t, 0, 0)

    if full:
        # D3.4.1 veto check: each side holding a veto, asked once, at its first member
        asked = 0
        for j in range(n):
            p = _seat_at(st, cfg, j)
            side = cfg[L.C_SIDE + p]
            if (asked >> side) & 1:
                continue
            asked |= 1 << side
            if st[L.S_VETO + side] <= 0:
                continue
            opts[0] = 0
            opts[1] = 1
            # options 0 / 1 (the index is the option): 1 = veto
            if _decide(fns, st, cfg, obs, p, L.K_VETO, opts, 2, params, prng, wk, diag) == 1:
                st[L.S_VETO + side] -= 1
                st[L.S_VETOED] = 1
                st[L.S_GVER] += 1
                res[L.R_VETOES_USED] += 1
                res[L.R_VETO_SIDE + side] += 1
                res[L.R_VETO_RND + min(r, L.NVB - 1)] += 1
                _log(cfg, log, L.EV_VETO, p, 0, 0, 0, 0)
                break
        if st[L.S_VETOED] == 0:
            # D3.4.2 secret discards face up; visible = public not taken + all secret
            for p in range(n):
                if st[L.S_SEC_TAKE + p] >= 0:
                    st[L.S_TABLE] |= 1 << st[L.S_SEC + p]
                    st[L.S_FACEUP] |= 1 << st[L.S_SEC + p]
            st[L.S_SEC_UP] = 1
            if cfg[L.C_STATS]:
                _pre_unanimous(st, cfg, wk)
            # D3.4.3 each discards face down (out of the round), then draws or takes
            for j in range(n):
                p = _seat_at(st, cfg, j)
                h = st[L.S_HAND + p]
                tab = st[L.S_TABLE]
                k = _discard_take_options(opts, 0, h, tab)
                o = opts[_decide(fns, st, cfg, obs, p, L.K_UNAN, opts, k, params, prng, wk,
                                 diag)]
                d, t = _discard_take(st, p, o)
                st[L.S_UNAN + p] = d
                st[L.S_UNAN_TAKE + p] = t
                _log(cfg, log, L.EV_UNAN, p, d, t, 0, 0)

    _showdown(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
    if full and st[L.S_VETOED] == 0:
        _post_unanimous(st, cfg, wk, res)       # R_UNAN always; the rest with C_STATS


@kernel
def _winner_seats(keys, n):
    """Seats with the best D4.3 key (0 when everyone abandoned)."""
    best = -1
    for p in range(n):
        if keys[p] > best:
            best = keys[p]
    m = 0
    if best >= 0:
        for p in range(n):
            if keys[p] == best:
                m |= 1 << p
    return m


@kernel
def _pre_unanimous(st, cfg, wk):
    """Statistics only: round scores and keys the hands would show without D3.4.3."""
    sr = scoring_rules(cfg)                   # full rules: D3.4.3 is a full-rules turn
    for p in range(cfg[L.C_N]):
        h = st[L.S_HAND + p]
        kd, sc, cm = best_combo(h, sr, st[L.S_FAV + p])
        wk[L.W_PRE_SCORE + p] = sc
        wk[L.W_PRE_KEY + p] = round_key(h, kd, sc, cm)


@kernel
def _post_unanimous(st, cfg, wk, res):
    """What the unanimous turn changed: Σ round-score change, and whether winners changed."""
    n = cfg[L.C_N]
    res[L.R_UNAN] += 1
    if cfg[L.C_STATS] == 0:
        return
    for p in range(n):
        res[L.R_UNAN_DELTA] += st[L.S_SCORE + p] - wk[L.W_PRE_SCORE + p]
    if _winner_seats(wk[L.W_PRE_KEY:L.W_PRE_KEY + L.MAXP], n) != _winner_seats(
            st[L.S_KEY:L.S_KEY + L.MAXP], n):
        res[L.R_UNAN_FLIP] += 1


@kernel
def _showdown(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    """D4: combinations, round winners, figures, Carré reveal and points of the round."""
    n = cfg[L.C_N]
    full = cfg[L.C_RULES] == 0
    # D4 showdown (hands hold 5 cards, D3.5)
    keys = st[L.S_KEY:L.S_KEY + L.MAXP]
    kinds = st[L.S_KIND:L.S_KIND + L.MAXP]
    scores = st[L.S_SCORE:L.S_SCORE + L.MAXP]
    best = -1
    sr = scoring_rules(cfg)
    for p in range(n):
        h = st[L.S_HAND + p]
        kd, sc, cm = best_combo(h, sr, st[L.S_FAV + p])
        kinds[p] = kd
        scores[p] = sc
        keys[p] = round_key(h, kd, sc, cm)
        # statistics: combination class 0 Carré, 1–3 a run of that many suits (counted as
        # integers: numpy adds two bools as a logical or when the JIT is off)
        wk[L.W_CLASS + p] = 0 if kd == 2 else (
            int((cm & 0x3FF) != 0) + int((cm & (0x3FF << 10)) != 0)
            + int((cm & (0x3FF << 20)) != 0) + int((cm & (0x3FF << 30)) != 0))
        if keys[p] > best:
            best = keys[p]
        _log(cfg, log, L.EV_SHOW, p, h, kd, cm, sc)
    # D4.3 / D9.4 winners, and the drawing order of D4.5
    ent_seat = st[L.S_ENT_SEAT:L.S_ENT_SEAT + L.MAXP]   # the place (seat) of each winning side
    ent_side = st[L.S_ENT_SIDE:L.S_ENT_SIDE + L.MAXP]
    ent_carre = st[L.S_ENT_CARRE:L.S_ENT_CARRE + L.MAXP]
    n_ent = 0
    if best >= 0:
        for j in range(n):
            p = _seat_at(st, cfg, j)
            if keys[p] != best:
                continue
            _log(cfg, log, L.EV_WIN, p, 0, 0, 0, 0)
            res[L.R_WINKIND + wk[L.W_CLASS + p]] += 1
            side = cfg[L.C_SIDE + p]
            e = -1
            for x in range(n_ent):
                if ent_side[x] == side:
                    e = x
            if e < 0:
                e = n_ent
                ent_seat[e] = p
                ent_side[e] = side
                ent_carre[e] = 0
                n_ent += 1
            if kinds[p] == 2:
                ent_carre[e] = 1
    if best < 0:
        res[L.R_NOWIN_ROUNDS] += 1
    carre_win = False
    for e in range(n_ent):                                     # D4.5
        if ent_carre[e]:
            carre_win = True
        owed = 2 if ent_carre[e] else 1
        for _ in range(owed):
            if st[L.S_PILE_POS] >= st[L.S_PILE_LEN]:
                break
            f = st[L.S_PILE + st[L.S_PILE_POS]]
            st[L.S_PILE_POS] += 1
            receiver = ent_seat[e]
            if cfg[L.C_MODE] != 0:
                k = 0
                for q in range(n):
                    if cfg[L.C_SIDE + q] == ent_side[e]:
                        opts[k] = q
                        k += 1
                if k > 1:                                      # D9.4 the team allocates
                    st[L.S_ARG0] = f
                    receiver = opts[_decide(fns, st, cfg, obs, ent_seat[e], L.K_ALLOC, opts,
                                            k, params, prng, wk, diag)]
            _add_figure(st, receiver, f)
            st[L.S_GVER] += 1
            _log(cfg, log, L.EV_FIG, receiver, f, 0, 0, 0)
    if carre_win:                                              # D4.6, D9.4 Carré reveal
        for j in range(n):
            p = _seat_at(st, cfg, j)
            exempt = False
            for e in range(n_ent):
                if ent_carre[e] and ent_side[e] == cfg[L.C_SIDE + p]:
                    if cfg[L.C_MODE] != 0 or kinds[p] == 2:
                        exempt = True
            if exempt:
                continue
            for i in range(st[L.S_NFIG + p]):
                f = st[L.S_FIG + p * L.NFIG + i]
                if f < L.MEDIA0:
                    if not (st[L.S_FIGUP + p] >> f) & 1:
                        st[L.S_FIGUP + p] |= 1 << f
                        st[L.S_FVER + p] += 1
                        _log(cfg, log, L.EV_REVEAL, p, f, 0, 0, 0)
                    break
    for p in range(n):                                         # D4.7
        st[L.S_CUM + p] += scores[p]
        _log(cfg, log, L.EV_POINTS, p, scores[p], 0, 0, 0)
    st[L.S_GVER] += 1


# ------------------------------------------------------------------ D6 Scandal
@kernel
def _legal_targets(st, cfg, p, opts, k0):
    """Append every legal Media target of ``p`` (D6.2, D6.3) as target*16 + slot."""
    k = k0
    for q in range(cfg[L.C_N]):
        if q == p:
            continue
        for i in range(st[L.S_NFIG + q]):
            f = st[L.S_FIG + q * L.NFIG + i]
            if f >= L.MEDIA0 or st[L.S_COVER + f] >= 0:
                continue
            if (st[L.S_FIGUP + q] >> f) & 1 and cfg[L.C_MEDIA_REVEALED] == 0:
                continue
            opts[k] = q * 16 + i
            k += 1
    return k


@kernel
def _scandal(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res):
    n = cfg[L.C_N]
    indep = cfg[L.C_INDEP]
    held = wk[L.W_HELD:L.W_HELD + L.MAXP]
    plays = wk[L.W_PLAYS:L.W_PLAYS + L.MAXP]
    for p in range(L.MAXP):
        held[p] = 0
        plays[p] = 0
    for p in range(n):                                      # D6.2 Media are revealed
        for i in range(st[L.S_NFIG + p]):
            f = st[L.S_FIG + p * L.NFIG + i]
            if f >= L.MEDIA0:
                held[p] += 1
                st[L.S_FIGUP + p] |= 1 << f
                st[L.S_FVER + p] += 1
    for p in range(n):
        st[L.S_MEDIA_OWNED + p] = held[p]
        res[L.R_MEDIA + p] = held[p]
        if held[p] == 2:
            if p == indep:                                  # D9.6 the Independent's choice
                if cfg[L.C_IND_ACT]:
                    plays[p] = 2
                else:
                    _log(cfg, log, L.EV_KEPT, p, 0, 0, 0, 0)
            else:                                           # D6.1 they cancel out
                st[L.S_MEDIA_OWNED + p] = 0
                res[L.R_MEDIA_CANCEL] = 1
                _log(cfg, log, L.EV_CANCEL, p, 0, 0, 0, 0)
        elif held[p] == 1:
            plays[p] = 1
    st[L.S_GVER] += 1
    for j in range(n):                                      # action order of the last round
        p = _seat_at(st, cfg, j)
        for _ in range(plays[p]):
            k = 0
            if cfg[L.C_MEDIA_OPT]:
                opts[0] = -1
                k = 1
            k1 = _legal_targets(st, cfg, p, opts, k)
            if k1 == k:
                continue                                    # no legal target: no effect
            o = opts[_decide(fns, st, cfg, obs, p, L.K_MEDIA, opts, k1, params, prng, wk,
                             diag)]
            if o < 0:
                continue
            q = o // 16
            i = o % 16
            f = st[L.S_FIG + q * L.NFIG + i]
            st[L.S_ARG0] = q
            st[L.S_ARG1] = i
            for c in range(4):
                opts[c] = c
            colour = _decide(fns, st, cfg, obs, p, L.K_COLOUR, opts, 4, params, prng, wk,
                             diag)                 # options 0–3 = S H D C
            st[L.S_COVER + f] = colour
            res[L.R_TARGETED + q] += 1
            if cfg[L.C_SIDE + q] == cfg[L.C_SIDE + p]:
                res[L.R_ACT_MATE + p] += 1
            else:
                res[L.R_ACT_OPP + p] += 1
            st[L.S_FIGUP + q] |= 1 << f
            st[L.S_FVER + q] += 1
            st[L.S_GVER] += 1
            _log(cfg, log, L.EV_MEDIA, p, q, f, colour, 0)


# ------------------------------------------------------------------ D7 / D9 election
@kernel
def best_trio(st, seats, ann, tmp):
    """D7.1–D7.2: the best trio from the figures of the players in bitmask ``seats``.

    One seat: the player's own trio (D7.1); a team's members under ``team_trio =
    pooled``: the side's pooled trio (D9.5). Returns (harmony, e, l, j, achievable,
    match): harmony 3/2/1 = 3/2/1 distinct colours after Media, 0 = no trio; e, l, j the
    figure ids of the trio chosen; ``achievable`` the bitmask of the harmonies some trio
    reaches; ``match`` 1 when some trio has exactly the colouring ``ann`` (X2, E*16 + L*4
    + J; -1 = none announced). Every Media-covered figure must be in the trio; two covered
    figures of one type leave no trio. Among the trios of the best harmony the one chosen
    is, per X2, one with the announced colouring when there is one (else the first found).
    """
    cand = tmp[0:12]          # candidates of type t at cand[4*t + i] (4 figures a type)
    ncand = tmp[12:15]
    ncov = tmp[15:18]
    for i in range(18):
        tmp[i] = -1 if i < 12 else 0
    for p in range(L.MAXP):
        if not (seats >> p) & 1:
            continue
        for i in range(st[L.S_NFIG + p]):
            f = st[L.S_FIG + p * L.NFIG + i]
            if f >= L.MEDIA0:
                continue
            t = f // 4
            if st[L.S_COVER + f] >= 0:
                ncov[t] += 1
                cand[4 * t] = f
                ncand[t] = -1            # marks "covered: only this one"
            elif ncand[t] >= 0:
                cand[4 * t + ncand[t]] = f
                ncand[t] += 1
    for t in range(3):
        if ncov[t] >= 2:
            return 0, -1, -1, -1, 0, 0
        if ncand[t] == -1:
            ncand[t] = 1
        if ncand[t] == 0:
            return 0, -1, -1, -1, 0, 0
    bh = 0
    be = -1
    bl = -1
    bj = -1
    achievable = 0
    match = 0
    for a in range(ncand[0]):
        e = cand[a]
        ce = st[L.S_COVER + e] if st[L.S_COVER + e] >= 0 else e % 4
        for b in range(ncand[1]):
            l = cand[4 + b]
            cl = st[L.S_COVER + l] if st[L.S_COVER + l] >= 0 else l % 4
            for c in range(ncand[2]):
                jf = cand[8 + c]
                cj = st[L.S_COVER + jf] if st[L.S_COVER + jf] >= 0 else jf % 4
                distinct = 1 + (cl != ce) + (cj != ce and cj != cl)
                achievable |= 1 << distinct
                hit = (ce * 4 + cl) * 4 + cj == ann
                if hit:
                    match = 1
                if distinct > bh or (distinct == bh and hit):
                    bh = distinct
                    be = e
                    bl = l
                    bj = jf
    return bh, be, bl, bj, achievable, match


@kernel
def _colour_of(st, f):
    return st[L.S_COVER + f] if st[L.S_COVER + f] >= 0 else f % 4


@kernel
def _trio_code(st, e, l, j, h):
    """EV_TRIO / EV_SIDE_TRIO argument: the colouring packed over the harmony (0: none)."""
    if h == 0:
        return 0
    return ((_colour_of(st, e) * 4 + _colour_of(st, l)) * 4 + _colour_of(st, j)) * 4 + h


@kernel
def announced_harmony(ann):
    """Harmony of an announced colouring E*16 + L*4 + J (X2): its number of colours."""
    ce = ann // 16
    cl = (ann // 4) % 4
    cj = ann % 4
    return 1 + (cl != ce) + (cj != ce and cj != cl)


@kernel
def _side_points(st, cfg, side, use_sum):
    """Points a side brings to a tie: its top member (``max``) or the members' total
    (``sum``) — D9.5 ``team_points_tiebreak``, D9.6 step 3 ``p3_points_tiebreak``."""
    v = 0
    for q in range(cfg[L.C_N]):
        if cfg[L.C_SIDE + q] == side:
            c = st[L.S_CUM + q]
            if use_sum:
                v += c
            elif c > v:
                v = c
    return v


@kernel
def _pick(cands, pts, match, k):
    """Break a tie on harmony among the contenders in bitmask ``cands`` (indices < k).

    X2: contenders whose trio has the announced colouring (``match``) win over the others;
    then the most points (``pts``); still tied: shared. Returns (winners bitmask, DEC_*
    code saying what decided).
    """
    m = 0
    n_c = 0
    for i in range(k):
        if (cands >> i) & 1:
            n_c += 1
            if match[i]:
                m |= 1 << i
    if n_c == 1:
        return cands, L.DEC_HARMONY
    if m != 0 and m != cands:
        cands = m
        if m & (m - 1) == 0:
            return cands, L.DEC_ANNOUNCED
    bv = -1
    for i in range(k):
        if (cands >> i) & 1 and pts[i] > bv:
            bv = pts[i]
    win = 0
    n_w = 0
    for i in range(k):
        if (cands >> i) & 1 and pts[i] == bv:
            win |= 1 << i
            n_w += 1
    return win, (L.DEC_POINTS if n_w == 1 else L.DEC_SHARED)


@kernel
def _top(vals, eligible, k):
    """(best value among ``eligible`` indices, bitmask of the indices that reach it)."""
    b = 0
    for i in range(k):
        if eligible[i] and vals[i] > b:
            b = vals[i]
    m = 0
    if b > 0:
        for i in range(k):
            if eligible[i] and vals[i] == b:
                m |= 1 << i
    return b, m


@kernel
def _election(st, cfg, wk, log, res):
    """D7 (individual), D9.5 (2v2, 2v3) and D9.6 (2v2+1), with X2 and ``team_trio``."""
    n = cfg[L.C_N]
    mode = cfg[L.C_MODE]
    ns = cfg[L.C_NSIDES]
    pooled = mode != 0 and cfg[L.C_POOLED] != 0
    harm = wk[L.W_HARM:L.W_HARM + L.MAXP]        # by seat: own trio (D7.1)
    ach = wk[L.W_ACH:L.W_ACH + L.MAXP]           # by seat: harmonies some own trio reaches
    pmatch = wk[L.W_PMATCH:L.W_PMATCH + L.MAXP]  # by seat: an own trio has the X2 colouring
    side_h = wk[L.W_SIDE_H:L.W_SIDE_H + L.MAXP]  # by side: its trio (D9.5 best member/pooled)
    side_ach = wk[L.W_SIDE_ACH:L.W_SIDE_ACH + L.MAXP]
    side_mt = wk[L.W_SIDE_MT:L.W_SIDE_MT + L.MAXP]
    eligible = wk[L.W_ELIGIBLE:L.W_ELIGIBLE + L.MAXP]
    pts = wk[L.W_PTS:L.W_PTS + L.MAXP]
    match = wk[L.W_MATCH:L.W_MATCH + L.MAXP]
    ann_of = wk[L.W_ANN_OF:L.W_ANN_OF + L.MAXP]  # by side: the announced colouring, -1
    for i in range(L.MAXP):
        harm[i] = 0
        ach[i] = 0
        pmatch[i] = 0
        side_h[i] = 0
        side_ach[i] = 0
        side_mt[i] = 0
        eligible[i] = 0
        pts[i] = 0
        match[i] = 0
    for s in range(L.MAXP):
        ann_of[s] = st[L.S_ANN + s] if cfg[L.C_ANNOUNCE] else -1
    for p in range(n):
        s = cfg[L.C_SIDE + p]
        h, e, l, j, a, mt = best_trio(st, 1 << p, ann_of[s], wk[L.W_TRIO:L.W_TRIO + 18])
        harm[p] = h
        ach[p] = a
        pmatch[p] = mt
        _log(cfg, log, L.EV_TRIO, p, e, l, j, _trio_code(st, e, l, j, h))
        res[L.R_HARMONY + p] = h
        if not pooled or p == cfg[L.C_INDEP]:   # the Independent's trio is always his own
            if h > side_h[s]:
                side_h[s] = h
            side_ach[s] |= a
            side_mt[s] |= mt
    if pooled:                                            # D9.5 team_trio = pooled
        for s in range(ns):
            if cfg[L.C_INDEP] >= 0 and s == cfg[L.C_SIDE + cfg[L.C_INDEP]]:
                continue
            members = 0
            for q in range(n):
                if cfg[L.C_SIDE + q] == s:
                    members |= 1 << q
            h, e, l, j, a, mt = best_trio(st, members, ann_of[s], wk[L.W_TRIO:L.W_TRIO + 18])
            side_h[s] = h
            side_ach[s] = a
            side_mt[s] = mt
            _log(cfg, log, L.EV_SIDE_TRIO, s, e, l, j, _trio_code(st, e, l, j, h))
    win = 0
    dec = 0                 # statistics: how the winner was found (DEC_*)
    if mode == 0:                                            # D7.3, D7.4
        for p in range(n):
            eligible[p] = 1
            pts[p] = st[L.S_CUM + p]
        bh, cands = _top(harm, eligible, n)
        if bh > 0:
            for p in range(n):
                match[p] = pmatch[p] and ann_of[p] >= 0 and announced_harmony(ann_of[p]) == bh
            win, dec = _pick(cands, pts, match, n)
        elif cfg[L.C_NO_TRIO_POINTS]:
            win, dec = _pick((1 << n) - 1, pts, match, n)
            dec = L.DEC_NOTRIO_POINTS
    elif mode != L.MODE_2V2P1:                                 # D9.5
        for s in range(ns):
            eligible[s] = 1
            pts[s] = _side_points(st, cfg, s, cfg[L.C_TP_SUM])
        bh, cands = _top(side_h, eligible, ns)
        if bh > 0:
            for s in range(ns):
                match[s] = side_mt[s] and ann_of[s] >= 0 and announced_harmony(ann_of[s]) == bh
            win, dec = _pick(cands, pts, match, ns)
    else:                                                    # D9.6
        indep = cfg[L.C_INDEP]
        si = cfg[L.C_SIDE + indep]
        # 1. three-colour harmony
        if pooled:            # the sides' trios; a tie compares the sides' points (D9.5)
            for s in range(ns):
                eligible[s] = side_h[s] == 3
                pts[s] = _side_points(st, cfg, s, cfg[L.C_TP_SUM])
                match[s] = side_mt[s] and ann_of[s] >= 0 and announced_harmony(ann_of[s]) == 3
            win, _ = _pick(_top(side_h, eligible, ns)[1], pts, match, ns)
        else:                 # those players' own points decide
            for p in range(n):
                eligible[p] = harm[p] == 3
                pts[p] = st[L.S_CUM + p]
                s = cfg[L.C_SIDE + p]
                match[p] = pmatch[p] and ann_of[s] >= 0 and announced_harmony(ann_of[s]) == 3
            wp, _ = _pick(_top(harm, eligible, n)[1], pts, match, n)
            for p in range(n):
                if (wp >> p) & 1:
                    win |= 1 << cfg[L.C_SIDE + p]
        if win:
            dec = L.DEC_P1
        else:
            # 2. the Independent's own conditions
            ci = st[L.S_CUM + indep]
            most = True
            for q in range(n):
                if q != indep:
                    if st[L.S_CUM + q] > ci or (cfg[L.C_IND_STRICT] and st[L.S_CUM + q] == ci):
                        most = False
            has_j = False
            for i in range(st[L.S_NFIG + indep]):
                f = st[L.S_FIG + indep * L.NFIG + i]
                if f < L.MEDIA0 and f // 4 == 2:
                    has_j = True
            controller = st[L.S_MEDIA_OWNED + indep] == 2 and has_j
            dissident = harm[indep] == 2
            res[L.R_IND_COND] = (1 if most else 0) | (2 if controller else 0) | (
                4 if dissident else 0)
            if most or controller or dissident:
                win = 1 << si
                dec = L.DEC_P2
            else:
                # 3. residual team trios (the Independent takes no part); p3_harmonies
                h3 = wk[L.W_H3:L.W_H3 + L.MAXP]
                for s in range(ns):
                    eligible[s] = s != si
                    pts[s] = _side_points(st, cfg, s, cfg[L.C_P3_SUM])
                    # mono_only: only a 1-colour trio qualifies
                    h3[s] = (side_ach[s] >> 1) & 1 if cfg[L.C_P3_MONO] else side_h[s]
                bh, cands = _top(h3, eligible, ns)
                if bh > 0:
                    for s in range(ns):
                        match[s] = (side_mt[s] and ann_of[s] >= 0
                                    and announced_harmony(ann_of[s]) == bh)
                    win, _ = _pick(cands, pts, match, ns)
                    dec = L.DEC_P3
    nwin = 0
    seats = 0
    wh = -1
    for s in range(L.MAXP):
        if (win >> s) & 1:
            nwin += 1
            if side_h[s] > wh:
                wh = side_h[s]
    for p in range(n):
        if (win >> cfg[L.C_SIDE + p]) & 1:
            seats |= 1 << p
    res[L.R_NWIN] = nwin
    res[L.R_WINSIDES] = win
    res[L.R_DECIDED] = dec if win else 0
    res[L.R_WIN_HARM] = wh
    _log(cfg, log, L.EV_RESULT, win, seats, 0, 0, 0)


# ------------------------------------------------------------------ X2 announcements
@kernel
def _announce(fns, st, cfg, obs, opts, params, prng, wk, diag, log):
    """X2: before the game, after X1, every side publicly announces a colouring for its
    trio (E*16 + L*4 + J, one of 64) — in seat order, each side once, asked at its first
    seat; a team's announcement is a team decision (D9.2). Each sees those made before."""
    asked = 0
    for p in range(cfg[L.C_N]):
        side = cfg[L.C_SIDE + p]
        if (asked >> side) & 1:
            continue
        asked |= 1 << side
        for c in range(64):
            opts[c] = c
        st[L.S_ANN + side] = _decide(fns, st, cfg, obs, p, L.K_ANNOUNCE, opts, 64, params,
                                     prng, wk, diag)     # options 0–63 = the colourings
        st[L.S_GVER] += 1
        _log(cfg, log, L.EV_ANNOUNCE, side, st[L.S_ANN + side], 0, 0, 0)


# ------------------------------------------------------------------ one game, a batch
@kernel
def init_state(cfg, key, st, obs, prng, res):
    """Empty table before D2.1: no figures, every side's vetoes (D9.3), no points (D4.7
    adds every round score to them; a trial handicap may start some seats above 0)."""
    for i in range(L.ST_LEN):
        st[i] = 0
    for i in range(obs.shape[0]):
        obs[i, L.O_GVER] = -1
        for p in range(L.MAXP):
            obs[i, L.O_FVER + p] = -1
    for i in range(L.RES_LEN):
        res[i] = 0
    for f in range(L.NFIG):
        st[L.S_COVER + f] = -1
    for p in range(L.MAXP):
        st[L.S_FAV + p] = -1
        st[L.S_ANN + p] = -1
        st[L.S_VETO + p] = cfg[L.C_SIDE_VETOES + p]
        st[L.S_CUM + p] = cfg[L.C_START_CUM + p]
        st[L.S_PUB + p] = -1
        st[L.S_SEC + p] = -1
        st[L.S_SEC_TAKE + p] = -2
        st[L.S_UNAN + p] = -1
        st[L.S_UNAN_TAKE + p] = -2
        prng[p] = derive(key, 1, p)
    prng[L.RNG_SCRAMBLE] = derive(key, 2, 0)


@kernel
def play_game(fns, cfg, params, key, st, obs, opts, prng, wk, log, diag, res):
    """Play one whole game with 64-bit ``key``; results into ``res`` (RES_LEN)."""
    n = cfg[L.C_N]
    full = cfg[L.C_RULES] == 0
    init_state(cfg, key, st, obs, prng, res)
    # D2.1 the Power pile (D1: 12 figures, and the 2 Media in full rules)
    npile = L.NFIG if full else L.MEDIA0
    for f in range(npile):
        st[L.S_PILE + f] = f
    st[L.S_PILE_LEN] = npile
    prng[L.RNG_CHANCE] = derive(key, 0, 0)
    shuffle_inplace(st[L.S_PILE:L.S_PILE + npile], npile, prng, L.RNG_CHANCE)
    for f in range(npile):
        _log(cfg, log, L.EV_PILE, st[L.S_PILE + f], 0, 0, 0, 0)
    if cfg[L.C_FAV_BONUS] > 0:                                # X1 favourite suits
        for p in range(n):
            for c in range(4):
                opts[c] = c
            st[L.S_FAV + p] = _decide(fns, st, cfg, obs, p, L.K_FAV, opts, 4, params, prng,
                                      wk, diag)          # options 0–3 = S H D C
            _log(cfg, log, L.EV_FAV, p, st[L.S_FAV + p], 0, 0, 0)
        st[L.S_GVER] += 1
    if cfg[L.C_ANNOUNCE]:                                     # X2 announced colourings
        _announce(fns, st, cfg, obs, opts, params, prng, wk, diag, log)
    while True:                                              # D5.1
        _play_round(fns, st, cfg, obs, opts, params, prng, wk, diag, key, log, res)
        st[L.S_ROUND] += 1
        r = st[L.S_ROUND]
        if st[L.S_PILE_POS] >= st[L.S_PILE_LEN]:
            break
        if cfg[L.C_MAX_ROUNDS] > 0 and r >= cfg[L.C_MAX_ROUNDS]:
            break
        if r >= cfg[L.C_ROUND_CAP]:
            st[L.S_TRUNC] = 1
            break
    res[L.R_ROUNDS] = st[L.S_ROUND]
    res[L.R_TRUNC] = st[L.S_TRUNC]
    for p in range(n):
        res[L.R_CUM + p] = st[L.S_CUM + p]
    _log(cfg, log, L.EV_END, st[L.S_TRUNC], 0, 0, 0, 0)
    if st[L.S_TRUNC] == 0:
        if full:
            _scandal(fns, st, cfg, obs, opts, params, prng, wk, diag, log, res)
        _election(st, cfg, wk, log, res)
    K.flag(diag, st[L.S_ERROR])


@kernel(allocates=True)
def play_batch(fns, cfg, params, keys, res, diag):
    """Play ``keys.shape[0]`` games; row ``g`` of ``res`` gets game ``g``'s results."""
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    wk = np.zeros(L.WK_LEN, np.int64)
    log = np.zeros(2, np.int64)
    for g in range(keys.shape[0]):
        play_game(fns, cfg, params, keys[g], st, obs, opts, prng, wk, log, diag, res[g])
