"""DĒMOS ``heuristic``: expected values over the cards the seat has not seen.

Everything is computed from the seat's observation (RULES.md M2):

- **unseen cards** ``U`` = the cards of the game minus the own hand, every card face up
  this round (``O_FACEUP``, which contains ``O_TABLE``) and the own face-down discards
  (``O_OWN_OUT``). Without further information each unseen card is equally likely to be
  the next card drawn (the deck and the other hands are exchangeable from this seat), so
  a blind draw is a uniform draw over ``U``.
- **discards / takes**: for a blind draw after discarding ``d`` the exact expectation
  over ``c`` in ``U`` of the utility of ``h - d + c``: only the unseen cards that complete
  a run or a Carré with the 4 kept cards are scored one by one (their copies are counted
  exactly: a card seen anywhere is not drawable), the others leave the kept combination
  as it is. The utility of a hand is its points above ``params[P_FLOOR]`` (a low run
  rarely wins a round) plus a twentieth of its points; the hand value includes the D4.3
  tie-breaks (largest suit, unplayed total), so the suit tie-break is part of the choice.
  The public discard looks ``params[P_HORIZON]`` draws ahead (the gain is scaled to the
  chance of completing within that many draws) and adds ``params[P_SHAPE]`` × greedy's
  shape estimate of the 4 kept cards. A take is scored exactly; a pass keeps the hand.
  When the hand holds a combination, only cards outside it are discard candidates.
- **veto**: cancel the unanimous turn when the own hand is a likely winner now —
  ``value5(h) >= params[P_VETO_AT]`` — lowered by ``params[P_LATE]`` when the Power pile
  is nearly empty (a veto unused at the end is wasted) and raised by ``params[P_NEED]``
  × (1 - need) where *need* is the chance that the next figure improves the seat's
  best trio (round-level awareness: winning matters less when the trio is complete).
  Under ``team_talk = hands`` (D9.2) the team's best hand is valued instead of the own.
  The threshold is then moved by
  :func:`~demos_sim.demos.policies.teamplay.veto_shift` (D3.4.1, D9.3, M2): down by
  ``params[P_VETO_SPEND]`` × min(1, vetoes left / rounds left) — a side with vetoes
  left (the 2v3 team of two's second) uses them as rounds run out — and up by
  ``params[P_VETO_FREE]`` for each opponent side still to be asked this round that holds
  a veto and has a member who passed or took a face-up card in the secret turn (it is
  likely to veto itself).
- **X2 announcement**: ``greedy``'s (a three-colour colouring clashing least with those
  already announced).
- **team allocation** (D9.4): an E/L/J figure to the member for which the team's best
  trio (the best member's trio, D9.5) gains most; ties go to the member whose own trio
  gains, then to the one with fewer figures of that type. A Media by
  :func:`~demos_sim.demos.policies.teamplay.alloc_media`: never to a member already
  holding one while another holds none (D6.1: both would cancel out), preferably to the
  member whose teammate a Media can complete (D6.2: a holder cannot aim at itself).
- **Media**: the target side and colour that minimise the targeted opponent's expected
  harmony (sampled: the face-down figures are drawn ``params[P_SAMPLES]`` times from the
  figures this seat has not seen), weighted towards the opponents that threaten most
  (highest cumulative points, the D7.3 tie-break): an opponent ``q`` scores
  ``loss × (1 + (1 + params[P_AIM_THREAT]) × before) + (0.5 + params[P_AIM_HARM]) ×
  before + (0.01 + params[P_AIM_LEAD]) × (cum[q] − top)``, where *before* is its
  expected harmony untouched, *loss* what the Media takes from it and *top* the highest
  cumulative score; the three ``P_AIM_*`` are 0 in ``heuristic`` and ``tuned`` and are
  searched only for a best response (``demos-sim tune-bot --params aim_threat,…``).
  In a team mode the team knows its
  figures (D9.2): a teammate's figure is covered instead when that raises the side's
  harmony (D9.5 best member) by ``g`` ≥ 1 steps for sure and ``params[P_MATE_W]`` × g
  exceeds the expected harmony loss of the best opponent target; the colour then gives
  the teammate its best harmony with the covered figure in its trio (D7.1). When the
  action is compulsory and only teammates are legal, the least harmful teammate target.

``params[P_LEGACY]`` = 1 (the restricted form ``heuristic:legacy``) plays the
allocation, Media and veto decisions of the bot before team play was added, to measure
the change on the same deals.

Parameters live in ``params`` (indices ``P_*``), so variants of the bot are data. The
restricted forms ``heuristic:noveto``, ``:notake`` and ``:nomedia`` use the same flag
indices as ``greedy``.
"""

import numpy as np

from demos_sim.bits import lowest_bit, popcount
from demos_sim.demos import layout as L
from demos_sim.demos.kit import find_turn_option
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.policies.basic import (
    greedy_colour, announce_colouring, team_hand_value, value4, value5)
from demos_sim.demos.policies.teamplay import (  # noqa: F401  (harmony_of, colour_sets re-exported)
    alloc_media, best_mate_target, colour_sets, harmony_of, veto_shift,
)
from demos_sim.demos.scoring import best_combo, scoring_rules, suit_slice, total_value
from demos_sim.jit import kernel
from demos_sim.rng import below

P_VETO_AT, P_LATE, P_NOVETO, P_NOTAKE, P_NOMEDIA, P_NEED, P_SAMPLES, P_KEEP, P_DRAW_W, P_FLOOR, P_HORIZON, P_SHAPE = range(12)
# 12 and 13 are search's (P_BUDGET, P_Q)
P_LEGACY, P_VETO_SPEND, P_VETO_FREE, P_MATE_W = 14, 15, 16, 17
# Media aim: changes to the target weights, 0 in the rule described above. They sit after
# ismcts's own parameters (18-27), which ismcts passes on with the decisions it leaves here.
P_AIM_THREAT, P_AIM_HARM, P_AIM_LEAD = 28, 29, 30
HEURISTIC_PARAMS = (17.0, 3.0, 0.0, 0.0, 0.0, 2.0, 6.0, 0.0, 1.0, 11.0, 3.0, 1.0,
                    0.0, 0.0, 0.0, 6.0, 2.0, 1.0)

ALL_FULL = (1 << 40) - 1
NO_ACES = ALL_FULL & ~((1 << 0) | (1 << 10) | (1 << 20) | (1 << 30))
SUITS4 = 1 | (1 << 10) | (1 << 20) | (1 << 30)
# 10-bit value mask -> bit v moved to bit 4v (one nibble a value)
_NIB = np.array([sum(1 << (4 * v) for v in range(10) if (m >> v) & 1) for m in range(1024)],
                dtype=np.int64)


# ------------------------------------------------------------------ cards
@kernel(inline=True)
def util(v, fl):
    """Utility of a hand value: the points above ``fl`` (low runs rarely win a round)
    plus a twentieth of the points (they still count for the D7.3 tie-break)."""
    return (v - fl if v > fl else 0.0) + 0.05 * v


@kernel(inline=True)
def unseen_cards(cfg, obs):
    """Mask of the cards this seat has never seen this round (the blind-draw support)."""
    allc = ALL_FULL if cfg[L.C_RULES] == 0 else NO_ACES
    return allc & ~(obs[L.O_HAND] | obs[L.O_FACEUP] | obs[L.O_OWN_OUT])


@kernel(inline=True)
def _spread(vmask):
    """A 10-bit value mask -> the 40-bit mask of those values in every suit."""
    return vmask | (vmask << 10) | (vmask << 20) | (vmask << 30)


@kernel
def completing_cards(h4, full):
    """Mask of the cards that make a run (or, full rules, a Carré) with cards of ``h4``."""
    s0 = suit_slice(h4, 0)
    s1 = suit_slice(h4, 1)
    s2 = suit_slice(h4, 2)
    s3 = suit_slice(h4, 3)
    v = s0 | s1 | s2 | s3
    need = (((v >> 1) & (v >> 2)) | ((v << 1) & (v >> 1)) | ((v << 1) & (v << 2))) & 0x3FF
    m = _spread(need)
    if full:
        trips = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
        m |= _spread(trips)
    return m


@kernel
def blind_ev(sr, h4, fav, unseen, n_unseen, fl):
    """:func:`blind_ev_k` with ``best_combo`` of ``h4`` computed here."""
    kd, sc, cm = best_combo(h4, sr, fav)
    return blind_ev_k(sr, h4, fav, unseen, n_unseen, fl, kd, sc, cm)


@kernel
def blind_ev_k(sr, h4, fav, unseen, n_unseen, fl, kd, sc, cm):
    """(E[util(value5(h4 + c))] for ``c`` uniform over ``unseen``, the utility when ``c``
    completes nothing, the number of completing unseen cards).

    A card that completes nothing leaves the combination of ``h4`` (if any). For a
    completing card the new combinations all contain it, so its score is the best of the
    held combination and of the windows it closes (the fewest suits, D4.1), computed from
    bit masks; the D4.3 tie-breaks (largest suit, unplayed total) follow. Non-monotone
    ``run_base`` values go through the general scorer.
    """
    if n_unseen <= 0:
        v = util(value5(sr, h4, fav), fl)
        return v, v, 0
    full = sr[0] == 1
    r = completing_cards(h4, full) & unseen
    tv4 = total_value(h4)
    base = 0.0
    if kd != 0:
        base = util(sc + 0.0005 * (tv4 - total_value(cm) + 5), fl)
    outs = popcount(r)
    total = (n_unseen - outs) * base
    if not (sr[2] >= sr[3] and sr[3] >= sr[4]):
        while r:
            c = lowest_bit(r)
            r &= r - 1
            total += util(value5(sr, h4 | (1 << c), fav), fl)
        return total / n_unseen, base, outs
    s0 = suit_slice(h4, 0)
    s1 = suit_slice(h4, 1)
    s2 = suit_slice(h4, 2)
    s3 = suit_slice(h4, 3)
    n0 = popcount(s0)
    n1 = popcount(s1)
    n2 = popcount(s2)
    n3 = popcount(s3)
    cm_tv = total_value(cm) if kd != 0 else 0
    # 4 bits a value: the suits holding it
    P = _NIB[s0] | (_NIB[s1] << 1) | (_NIB[s2] << 2) | (_NIB[s3] << 3)
    msc0 = max(max(n0, n1), max(n2, n3))
    # one value at a time: the windows through it are looked at once for all its suits
    rv = suit_slice(r, 0) | suit_slice(r, 1) | suit_slice(r, 2) | suit_slice(r, 3)
    bsc0 = sc if kd != 0 else -1
    while rv:
        b = lowest_bit(rv)
        rv &= rv - 1
        ub = (((r >> b) & 1) | (((r >> (b + 10)) & 1) << 1) | (((r >> (b + 20)) & 1) << 2)
              | (((r >> (b + 30)) & 1) << 3))           # suits of the unseen copies of b
        # per suit: best score, and the total of its combination (D4.2)
        bs0 = bsc0
        bs1 = bsc0
        bs2 = bsc0
        bs3 = bsc0
        bt0 = cm_tv
        bt1 = cm_tv
        bt2 = cm_tv
        bt3 = cm_tv
        wtop = min(b, 7)
        if sr[2] + wtop + 1 + max(sr[5], 0) < bsc0:
            wtop = -1                  # no window through b can beat the held combination
        for w in range(max(0, b - 2), wtop + 1):           # windows w..w+2 holding b
            o1 = w if b != w else w + 1                     # the two other values
            o2 = w + 2 if b != w + 2 else w + 1
            A = (P >> (4 * o1)) & 15
            B = (P >> (4 * o2)) & 15
            if A == 0 or B == 0:
                continue
            one = A & B
            two = (A | B) | (15 if one else 0)
            tw = 3 * w + 6
            for s in range(4):
                if not (ub >> s) & 1:
                    continue
                if (one >> s) & 1:
                    v = sr[2] + w + 1 + (sr[5] if s == fav else 0)
                elif (two >> s) & 1:
                    v = sr[3] + w + 1
                else:
                    v = sr[4] + w + 1
                if s == 0:
                    if v > bs0 or (v == bs0 and tw < bt0):
                        bs0 = v
                        bt0 = tw
                elif s == 1:
                    if v > bs1 or (v == bs1 and tw < bt1):
                        bs1 = v
                        bt1 = tw
                elif s == 2:
                    if v > bs2 or (v == bs2 and tw < bt2):
                        bs2 = v
                        bt2 = tw
                else:
                    if v > bs3 or (v == bs3 and tw < bt3):
                        bs3 = v
                        bt3 = tw
        carre = full and popcount((h4 >> b) & 0x40100401) >= 3
        tc = 4 * (b + 1)
        for s in range(4):
            if not (ub >> s) & 1:
                continue
            if s == 0:
                bsc, btot, ns = bs0, bt0, n0
            elif s == 1:
                bsc, btot, ns = bs1, bt1, n1
            elif s == 2:
                bsc, btot, ns = bs2, bt2, n2
            else:
                bsc, btot, ns = bs3, bt3, n3
            if carre and (sr[1] > bsc or (sr[1] == bsc and tc < btot)):
                bsc = sr[1]
                btot = tc
            if bsc < 0:
                continue
            msc = max(msc0, ns + 1)
            total += util(bsc + 0.01 * msc + 0.0005 * (tv4 + b + 1 - btot), fl)
    return total / n_unseen, base, outs


@kernel(inline=True)
def draw_value(sr, h4, fav, unseen, n_unseen, w, fl, kd, sc, cm):
    """Value of keeping ``h4`` before blind draws: with ``w`` = 1 the expectation of one
    draw; with ``w`` > 1 draws to come, the gain over the kept hand is scaled to the
    chance of completing in ``w`` draws, 1 - (1 - p)^w (p = completing cards / unseen)."""
    ev, base, outs = blind_ev_k(sr, h4, fav, unseen, n_unseen, fl, kd, sc, cm)
    if w <= 1.0 or outs == 0:
        return ev
    pr = outs / n_unseen
    q = 1.0 - pr
    qw = q * q * q if w == 3.0 else q ** w
    return base + (ev - base) / pr * (1.0 - qw)


@kernel
def best_blind(sr, h, fav, unseen, n_unseen, w, fl, lam, kd, sc, cm):
    """(expected value, card): the discard whose blind draw is worth most (low cards first).
    ``kd, sc, cm`` is ``best_combo`` of ``h``.

    When the hand already holds a combination, only the cards outside it are candidates
    (breaking a held combination for a one-card draw is never worth its expectation
    with the standard point values, and it saves most of the work); the 4 kept cards
    then hold the same best combination."""
    best = -1.0
    card = 0
    x = h & ~cm if kd != 0 else h
    while x:
        d = lowest_bit(x)
        x &= x - 1
        h4 = h & ~(1 << d)
        if kd != 0:
            v = draw_value(sr, h4, fav, unseen, n_unseen, w, fl, kd, sc, cm)
        else:
            k4, s4, c4 = best_combo(h4, sr, fav)
            v = draw_value(sr, h4, fav, unseen, n_unseen, w, fl, k4, s4, c4)
        v += 0.0001 * (10 - d % 10)
        if lam > 0:
            v += lam * value4(sr, h4, fav, 0.35)
        if v > best:
            best = v
            card = d
    return best, card


@kernel
def discard_take(sr, h, table, fav, unseen, notake, can_pass, keep, w, fl):
    """Secret / unanimous turn: pass, (discard d, blind draw) or (discard d, take t)."""
    nu = popcount(unseen)
    best = -1.0
    code = -1
    kd, sc, cm = best_combo(h, sr, fav)
    if can_pass:
        best = util(value5(sr, h, fav), fl) + (keep if kd != 0 else 0.0)
    v, d = best_blind(sr, h, fav, unseen, nu, w, fl, 0.0, kd, sc, cm)
    if v > best:
        best = v
        code = d * 64 + L.DECK_TOP
    if notake:
        return code
    cand = completing_cards(h, sr[0] == 1) & table
    while cand:
        t = lowest_bit(cand)
        cand &= cand - 1
        h6 = h | (1 << t)
        kd, sc, cm = best_combo(h6, sr, fav)
        if kd == 0:
            continue
        rest = h & ~cm             # the six cards' combination is kept (as greedy)
        while rest:
            d = lowest_bit(rest)
            rest &= rest - 1
            h5 = h6 & ~(1 << d)
            v = util(value5(sr, h5, fav), fl) + 0.0001 * (10 - d % 10)
            if v > best:
                best = v
                code = d * 64 + t
    return code


# ------------------------------------------------------------------ figures
@kernel
def known_figures(obs):
    """Mask of the figure ids this seat knows the place of (own, face up, team view)."""
    m = 0
    for p in range(obs[L.O_N]):
        for i in range(obs[L.O_NFIG + p]):
            f = obs[L.O_FIGS + p * L.NFIG + i]
            if f >= 0:
                m |= 1 << f
    return m


@kernel
def need_of(obs, p):
    """Chance that one figure drawn from those unseen improves ``p``'s best harmony."""
    e, l, j = colour_sets(obs, p, -1, -1, -1, -1)
    h0 = harmony_of(e, l, j)
    if h0 == 3:
        return 0.0
    pool = ((1 << L.NFIG) - 1) & ~known_figures(obs)
    n = popcount(pool)
    if n == 0:
        return 0.0
    good = 0
    x = pool
    while x:
        f = lowest_bit(x)
        x &= x - 1
        if f >= L.MEDIA0:
            continue
        e2, l2, j2 = colour_sets(obs, p, f, -1, -1, -1)
        if harmony_of(e2, l2, j2) > h0:
            good += 1
    return good / n


@kernel
def _alloc(obs, opts, n_opts, legacy):
    f = obs[L.O_ARG0]
    if f >= L.MEDIA0 and not legacy:
        return alloc_media(obs, opts, n_opts)         # D9.4 with D6.1, D6.2
    team = 0
    for i in range(n_opts):
        e, l, j = colour_sets(obs, opts[i], -1, -1, -1, -1)
        team = max(team, harmony_of(e, l, j))
    bi = 0
    bv = -1e9
    for i in range(n_opts):
        q = opts[i]
        e0, l0, j0 = colour_sets(obs, q, -1, -1, -1, -1)
        e1, l1, j1 = colour_sets(obs, q, f, -1, -1, -1)
        h1 = harmony_of(e1, l1, j1)
        v = 100.0 * max(h1 - team, 0) + 10.0 * (h1 - harmony_of(e0, l0, j0))
        if f < L.MEDIA0:
            t = f // 4
            have = e0 if t == 0 else (l0 if t == 1 else j0)
            v -= popcount(have)                 # spread the types over the member
            v += popcount(e1 | l1 | j1) * 0.1   # more colours, more future trios
        if v > bv:
            bv = v
            bi = i
    return bi


@kernel
def _sample_harmony(obs, q, slot, colour, pool, n_pool, samples, rng):
    """Expected harmony of ``q`` when its face-down figure at ``slot`` is covered with
    ``colour`` (colour -1: not covered), its face-down figures drawn from ``pool``."""
    nf = obs[L.O_NFIG + q]
    unknown = 0
    for i in range(nf):
        if obs[L.O_FIGS + q * L.NFIG + i] == -1:
            unknown += 1
    if unknown == 0 or n_pool < unknown:
        return 0.0
    total = 0.0
    saved = rng[0]         # common random numbers: every colour sees the same samples
    for _ in range(samples):
        left = pool
        nl = n_pool
        e = 0
        l = 0
        j = 0
        fe = -1
        fl = -1
        fj = -1
        for i in range(nf):
            f = obs[L.O_FIGS + q * L.NFIG + i]
            if f == -2:
                continue
            if f == -1:                       # draw one unseen figure without replacement
                k = below(rng, 0, nl)
                y = left
                for _ in range(k):
                    y &= y - 1
                f = lowest_bit(y)
                left &= ~(1 << f)
                nl -= 1
            if f >= L.MEDIA0:
                continue
            t = f // 4
            cov = colour if i == slot else obs[L.O_COVER + f]
            if cov >= 0:
                if t == 0:
                    fe = 99 if fe >= 0 else cov
                elif t == 1:
                    fl = 99 if fl >= 0 else cov
                else:
                    fj = 99 if fj >= 0 else cov
            elif t == 0:
                e |= 1 << (f % 4)
            elif t == 1:
                l |= 1 << (f % 4)
            else:
                j |= 1 << (f % 4)
        e = e if fe < 0 else (0 if fe == 99 else 1 << fe)
        l = l if fl < 0 else (0 if fl == 99 else 1 << fl)
        j = j if fj < 0 else (0 if fj == 99 else 1 << fj)
        total += harmony_of(e, l, j)
    rng[0] = saved
    return total / samples


@kernel
def _media(obs, opts, n_opts, seat, params, rng):
    """Index of the Media target: the largest expected harmony loss of a threatening
    opponent (its best colour is chosen again at K_COLOUR by the same sampling)."""
    myside = obs[L.O_SIDE + seat]
    nomedia = params[P_NOMEDIA] > 0
    if nomedia:
        for i in range(n_opts):
            if opts[i] < 0:
                return i
    samples = max(1, int(params[P_SAMPLES]))
    pool = ((1 << L.MEDIA0) - 1) & ~known_figures(obs)   # face-down figures are E/L/J
    n_pool = popcount(pool)
    top = 0
    for p in range(obs[L.O_N]):
        top = max(top, obs[L.O_CUM + p])
    bi = -1
    bv = -1e9
    bloss = 0.0
    done = 0
    for i in range(n_opts):
        o = opts[i]
        if o < 0:
            continue
        q = o // 16
        if obs[L.O_SIDE + q] == myside or (done >> q) & 1:
            continue
        done |= 1 << q             # its face-down slots all look alike: one is enough
        slot = o % 16
        if obs[L.O_FIGS + q * L.NFIG + slot] >= 0:
            done &= ~(1 << q)      # a known figure (team view, revealed): look at each
        before = _sample_harmony(obs, q, slot, -1, pool, n_pool, samples, rng)
        after = 9.0
        for c in range(4):
            a = _sample_harmony(obs, q, slot, c, pool, n_pool, samples, rng)
            after = min(after, a)
        # threat: the harmony it would have, then its points (the D7.3 tie-break)
        v = ((before - after) * (1.0 + (1.0 + params[P_AIM_THREAT]) * before)
             + (0.5 + params[P_AIM_HARM]) * before
             + (0.01 + params[P_AIM_LEAD]) * (obs[L.O_CUM + q] - top))
        if v > bv:
            bv = v
            bi = i
            bloss = before - after
    mi = -1
    if params[P_LEGACY] == 0:
        # D6.2, D9.2: a sure gain of the side's harmony against the expected loss of the
        # best opponent target, in harmony steps
        mi, mg = best_mate_target(obs, opts, n_opts, seat)
        if mi >= 0 and mg >= 1 and (bi < 0 or params[P_MATE_W] * mg > bloss):
            return mi
    if bi >= 0:
        return bi
    for i in range(n_opts):            # decline when allowed rather than hit a teammate
        if opts[i] < 0:
            return i
    if mi >= 0:
        return mi                      # only teammates left and compulsory: the least harm
    return 0


@kernel
def _colour(obs, seat, params, rng):
    q = obs[L.O_ARG0]
    if obs[L.O_SIDE + q] == obs[L.O_SIDE + seat]:
        return greedy_colour(obs, seat, params[P_LEGACY] > 0)
    f = obs[L.O_ARG1]
    samples = max(1, int(params[P_SAMPLES]))
    if f >= 0:                          # a known figure: exact
        best = 9
        bc = 0
        for c in range(4):
            e, l, j = colour_sets(obs, q, -1, -1, f, c)
            hh = harmony_of(e, l, j)
            if hh < best:
                best = hh
                bc = c
        return bc
    # blind: the face-down slot the Media points at is the first unknown one that
    # no Media covers; every face-down slot looks the same to this seat
    slot = -1
    for i in range(obs[L.O_NFIG + q]):
        if obs[L.O_FIGS + q * L.NFIG + i] == -1:
            slot = i
            break
    pool = ((1 << L.MEDIA0) - 1) & ~known_figures(obs)
    n_pool = popcount(pool)
    best = 9.0
    bc = 0
    for c in range(4):
        a = _sample_harmony(obs, q, slot, c, pool, n_pool, samples, rng)
        if a < best:
            best = a
            bc = c
    return bc


@register("heuristic", params=HEURISTIC_PARAMS,
          description="expected value over unseen cards; veto, Media and figure planning",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA,
                 "legacy": P_LEGACY})
@kernel(POLICY_SIG)
def heuristic_policy(cfg, obs, opts, n_opts, params, rng):
    kind = obs[L.O_KIND]
    seat = obs[L.O_SEAT]
    if kind == L.K_PUBLIC or kind == L.K_SECRET or kind == L.K_UNAN:
        sr = scoring_rules(cfg)
        unseen = unseen_cards(cfg, obs)
        fav = obs[L.O_FAV + seat]
        if kind == L.K_PUBLIC:
            h = obs[L.O_HAND]
            kd, sc, cm = best_combo(h, sr, fav)
            code = best_blind(sr, h, fav, unseen, popcount(unseen), params[P_HORIZON],
                              params[P_FLOOR], params[P_SHAPE], kd, sc, cm)[1]
        else:
            code = discard_take(sr, obs[L.O_HAND], obs[L.O_TABLE], fav, unseen,
                                params[P_NOTAKE] > 0, opts[0] < 0, params[P_KEEP],
                                params[P_DRAW_W], params[P_FLOOR])
        i = find_turn_option(obs, opts, n_opts, code)
        return i if i >= 0 else 0
    if kind == L.K_VETO:
        if params[P_NOVETO] > 0:
            return 0
        sr = scoring_rules(cfg)
        v0 = team_hand_value(sr, obs, seat)
        thr = params[P_VETO_AT]
        if obs[L.O_PILE_LEFT] <= obs[L.O_N]:
            thr -= params[P_LATE]
        if params[P_LEGACY] == 0:
            thr += veto_shift(cfg, obs, seat, params[P_VETO_SPEND], params[P_VETO_FREE])
        if v0 < thr:
            return 0
        if cfg[L.C_MODE] == 0 and v0 < thr + params[P_NEED]:   # only then is need looked at
            thr += params[P_NEED] * (1.0 - need_of(obs, seat))
        return 1 if v0 >= thr else 0
    if kind == L.K_FAV:
        return seat % 4
    if kind == L.K_ANNOUNCE:
        return announce_colouring(obs)
    if kind == L.K_ALLOC:
        return _alloc(obs, opts, n_opts, params[P_LEGACY] > 0)
    if kind == L.K_MEDIA:
        return _media(obs, opts, n_opts, seat, params, rng)
    if kind == L.K_COLOUR:
        return _colour(obs, seat, params, rng)
    return 0
