"""The two reference policies: ``random`` and ``greedy``.

``random`` picks uniformly among the legal options of every decision (discards and
takes, passes, veto, team allocation, Media target and colour, favourite suit).

``greedy`` is a one-step heuristic that looks only at its own observation:

- discards/takes: the option whose resulting hand is best — an exact D4 evaluation when
  the hand is known after the action (a take), an estimate for a blind deck draw (the
  combination already held in the 4 kept cards, or ``params[1]`` × the best run one card
  short); a pass keeps the current hand;
- veto: when its own hand already scores at least ``params[0]`` points (under
  ``team_talk = hands``, D9.2: the best hand of the team);
- X2 announcement: a three-colour colouring sharing as few figures as possible with the
  colourings already announced (sides announcing the same figure compete for it);
- team allocation: the member whose best trio harmony gains most from the figure;
- Media: an opponent's figure (a teammate's only when nothing else is legal and the
  action is compulsory, then the colour that best helps the teammate); against an
  opponent, the colour most common among their figures it can see; for a teammate, the
  colour giving its best harmony, the team's announced one (X2) first on a tie.
"""

import numpy as np
from numba import njit

from demos_sim.demos.layout import (
    C_CARRE, C_FAV_BONUS, C_RB, C_RULES, DECK_TOP, K_ALLOC, K_ANNOUNCE, K_COLOUR, K_FAV,
    K_MEDIA, K_PUBLIC, K_SECRET, K_UNAN, K_VETO, MAXP, MEDIA0, NFIG, O_ANN, O_ARG0, O_ARG1,
    O_COVER, O_FAV, O_FIGS, O_HAND, O_KIND, O_MATE_HAND, O_N, O_NFIG, O_SEAT, O_SIDE,
    O_TABLE,
)
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.scoring import best_combo, max_suit_count, suit_slice, total_value
from demos_sim.bits import lowest_bit, popcount
from demos_sim.rng import below

P_VETO_AT, P_DRAW_WEIGHT, P_NOVETO, P_NOTAKE, P_NOMEDIA = 0, 1, 2, 3, 4
GREEDY_PARAMS = (19.0, 0.35, 0.0, 0.0, 0.0)


@register("random", description="uniform among the legal options of every decision")
@njit(POLICY_SIG, cache=True)
def random_policy(cfg, obs, opts, n_opts, params, rng):
    return below(rng, 0, n_opts)


# ------------------------------------------------------------------ hand values
@njit(cache=True, inline="always")
def scoring_rules(cfg):
    """The scoring part of the configuration as a tuple of scalars (no array traffic):
    (full rules, carre_points, run_base[0], run_base[1], run_base[2], favourite bonus)."""
    return (np.int64(cfg[C_RULES] == 0), cfg[C_CARRE], cfg[C_RB], cfg[C_RB + 1],
            cfg[C_RB + 2], cfg[C_FAV_BONUS])


@njit(cache=True, inline="always")
def value5(sr, h, fav):
    """Exact value of a known 5-card hand: score, then D4.3 tie-breaks as fractions."""
    kd, sc, cm = best_combo(h, sr[0], sr[1], sr[2], sr[3], sr[4], fav, sr[5])
    if kd == 0:
        return 0.0
    return sc + 0.01 * max_suit_count(h) + 0.0005 * (total_value(h) - total_value(cm))


@njit(cache=True, inline="always")
def value4(sr, h4, fav, weight):
    """Estimated value of 4 kept cards plus one blind draw."""
    full = sr[0]
    s0 = suit_slice(h4, 0)
    s1 = suit_slice(h4, 1)
    s2 = suit_slice(h4, 2)
    s3 = suit_slice(h4, 3)
    vals = s0 | s1 | s2 | s3
    v1 = vals >> 1
    v2 = vals >> 2
    if (vals & v1 & v2) or (full and (s0 & s1 & s2 & s3)):
        # a combination is already held: its exact value, the draw adds to the unplayed
        kd, sc, cm = best_combo(h4, full, sr[1], sr[2], sr[3], sr[4], fav, sr[5])
        return sc + 0.0005 * (total_value(h4) - total_value(cm) + 5)
    # one card short of a run: windows b..b+2 with two of their three values
    two = ((vals & v1) | (vals & v2) | (v1 & v2)) & 0xFF
    if not full:
        two &= ~1            # no aces: the window 1-2-3 cannot be completed (D8)
    best = 0.0
    while two:
        b = lowest_bit(two)
        two &= two - 1
        have = vals & (7 << b)
        k = 3
        if ((s0 & have) == have or (s1 & have) == have or (s2 & have) == have
                or (s3 & have) == have):
            k = 2            # the two cards share a suit: a one- or two-suit run is open
        v = ((sr[3] if k == 2 else sr[4]) + b + 1) * weight
        if v > best:
            best = v
    if full:
        trips = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
        if trips:
            v = sr[1] * weight * 0.5
            if v > best:
                best = v
    return best


@njit(cache=True)
def team_hand_value(sr, obs, seat):
    """Best exact value among the hands the deciding seat may see: its own, and under
    ``team_talk = hands`` (D9.2) in a team decision its teammates' (``O_MATE_HAND``)."""
    v = value5(sr, obs[O_HAND], obs[O_FAV + seat])
    for p in range(MAXP):
        h = obs[O_MATE_HAND + p]
        if h != 0:
            w = value5(sr, h, obs[O_FAV + p])
            if w > v:
                v = w
    return v


# ------------------------------------------------------------------ figures
@njit(cache=True)
def announced_colour(ann, t):
    """The suit an X2 colouring ``ann`` (E*16 + L*4 + J) announces for figure type t."""
    return (ann >> (2 * (2 - t))) & 3


@njit(cache=True)
def announce_colouring(obs):
    """X2: a three-colour colouring (the best harmony) that shares the fewest figures with
    the colourings already announced; the search starts at a seat-dependent colouring."""
    taken = 0                               # figure ids type*4 + colour announced so far
    for p in range(obs[O_N]):
        a = obs[O_ANN + p]
        if a >= 0:
            for t in range(3):
                taken |= 1 << (4 * t + announced_colour(a, t))
    best = 4
    code = 0
    for k in range(64):
        c = (k + 21 * obs[O_SEAT]) % 64
        ce = announced_colour(c, 0)
        cl = announced_colour(c, 1)
        cj = announced_colour(c, 2)
        if ce == cl or ce == cj or cl == cj:
            continue
        clash = popcount(taken & ((1 << ce) | (1 << (4 + cl)) | (1 << (8 + cj))))
        if clash < best:
            best = clash
            code = c
    return code
@njit(cache=True)
def _trio_harmony(obs, seat, extra):
    """Best harmony of ``seat``'s known figures plus figure ``extra`` (-1 none)."""
    best = 0
    nf = obs[O_NFIG + seat]
    base = O_FIGS + seat * NFIG
    for a in range(nf + 1):
        e = extra if a == nf else obs[base + a]
        if e < 0 or e >= MEDIA0 or e // 4 != 0:
            continue
        for b in range(nf + 1):
            l = extra if b == nf else obs[base + b]
            if l < 0 or l >= MEDIA0 or l // 4 != 1:
                continue
            for c in range(nf + 1):
                j = extra if c == nf else obs[base + c]
                if j < 0 or j >= MEDIA0 or j // 4 != 2:
                    continue
                ce = obs[O_COVER + e] if obs[O_COVER + e] >= 0 else e % 4
                cl = obs[O_COVER + l] if obs[O_COVER + l] >= 0 else l % 4
                cj = obs[O_COVER + j] if obs[O_COVER + j] >= 0 else j % 4
                h = 1 + (cl != ce) + (cj != ce and cj != cl)
                if h > best:
                    best = h
    return best


@njit(cache=True)
def _types_held(obs, seat):
    m = 0
    for i in range(obs[O_NFIG + seat]):
        f = obs[O_FIGS + seat * NFIG + i]
        if 0 <= f < MEDIA0:
            m |= 1 << (f // 4)
    return m


@njit(cache=True)
def _useful_takes(h, table, full):
    """Mask of the face-up cards that can join a run (or a Carré) with cards of ``h``."""
    vals = suit_slice(h, 0) | suit_slice(h, 1) | suit_slice(h, 2) | suit_slice(h, 3)
    out = 0
    y = table
    while y:
        t = lowest_bit(y)
        y &= y - 1
        b = t % 10                      # value - 1
        lo = vals | (1 << b)
        ok = ((lo >> b) & 7) == 7
        if b >= 1 and ((lo >> (b - 1)) & 7) == 7:
            ok = True
        if b >= 2 and ((lo >> (b - 2)) & 7) == 7:
            ok = True
        if not ok and full and popcount((h >> b) & 0x40100401) >= 3:
            ok = True
        if ok:
            out |= 1 << t
    return out


@njit(cache=True)
def _best_blind_discard(sr, h, fav, weight):
    """(value, card): the discard leaving the best 4 cards before a blind draw (lower
    cards first on ties). It is the whole public turn, and the deck options of the others.

    A discard outside the hand's best combination keeps that combination (a subset of
    the hand cannot do better), so only discards inside it need a fresh look.
    """
    kd, sc, cm = best_combo(h, sr[0], sr[1], sr[2], sr[3], sr[4], fav, sr[5])
    best = -1.0
    card = 0
    x = h
    while x:
        d = lowest_bit(x)
        x &= x - 1
        h4 = h & ~(1 << d)
        if kd != 0 and not (cm >> d) & 1:
            v = sc + 0.0005 * (total_value(h4) - total_value(cm) + 5)
        else:
            v = value4(sr, h4, fav, weight)
        v += 0.0001 * (10 - d % 10)
        if v > best:
            best = v
            card = d
    return best, card


@njit(cache=True)
def _greedy_discard_take(sr, h, table, fav, weight, notake, can_pass):
    """Secret / unanimous turn: pass, (discard d, draw blind) or (discard d, take t).

    A take is only looked at when t can join a combination with the hand; then the
    combination of the six cards is played and d is any card outside it, valued exactly.
    """
    full = sr[0]
    best = -1.0
    code = -1
    if can_pass:
        best = value5(sr, h, fav)                # pass: keep the hand as it is
    v, d = _best_blind_discard(sr, h, fav, weight)
    if v > best:
        best = v
        code = d * 64 + DECK_TOP
    useful = 0 if notake else _useful_takes(h, table, full == 1)
    while useful:
        t = lowest_bit(useful)
        useful &= useful - 1
        h6 = h | (1 << t)
        kd, sc, cm = best_combo(h6, full, sr[1], sr[2], sr[3], sr[4], fav, sr[5])
        if kd == 0:
            continue
        rest = h & ~cm
        while rest:
            d = lowest_bit(rest)
            rest &= rest - 1
            h5 = h6 & ~(1 << d)
            v = (sc + 0.01 * max_suit_count(h5) + 0.0005 * (total_value(h5) - total_value(cm))
                 + 0.0001 * (10 - d % 10))
            if v > best:
                best = v
                code = d * 64 + t
    return code


@njit(cache=True)
def _greedy_alloc(obs, opts, n_opts):
    f = obs[O_ARG0]
    bi = 0
    bv = -1
    for i in range(n_opts):
        q = opts[i]
        gain = _trio_harmony(obs, q, f) * 4 - _trio_harmony(obs, q, -1) * 4
        if f < MEDIA0 and not (_types_held(obs, q) >> (f // 4)) & 1:
            gain += 1
        if gain > bv:
            bv = gain
            bi = i
    return bi


@njit(cache=True)
def _greedy_media(obs, opts, n_opts, seat, nomedia):
    myside = obs[O_SIDE + seat]
    bi = -1
    bv = -1
    for i in range(n_opts):
        o = opts[i]
        if o < 0:
            continue
        q = o // 16
        if obs[O_SIDE + q] == myside:
            continue
        v = obs[O_NFIG + q]            # the opponent with the most figures
        if v > bv:
            bv = v
            bi = i
    if bi >= 0 and not nomedia:
        return bi
    for i in range(n_opts):            # decline when allowed
        if opts[i] < 0:
            return i
    if bi >= 0:
        return bi
    return 0                           # only teammates left and compulsory


@njit(cache=True)
def greedy_colour(obs, seat):
    q = obs[O_ARG0]
    f = obs[O_ARG1]
    if obs[O_SIDE + q] == obs[O_SIDE + seat] and f >= 0:
        # help a teammate: the colour giving its best harmony
        bc = 0
        bh = -1
        save = obs[O_COVER + f]
        ann = obs[O_ANN + q]
        want = announced_colour(ann, f // 4) if ann >= 0 else -1
        for c in range(4):
            obs[O_COVER + f] = c
            hh = _trio_harmony(obs, q, -1)
            if hh > bh or (hh == bh and c == want):
                bh = hh
                bc = c
        obs[O_COVER + f] = save
        return bc
    # an opponent: the colour most common among its other figures it can see
    bc = 0
    bn = -1
    for c in range(4):
        cnt = 0
        for i in range(obs[O_NFIG + q]):
            g = obs[O_FIGS + q * NFIG + i]
            if 0 <= g < MEDIA0 and g != f:
                gc = obs[O_COVER + g] if obs[O_COVER + g] >= 0 else g % 4
                cnt += gc == c
        if cnt > bn:
            bn = cnt
            bc = c
    return bc


@register("greedy", params=GREEDY_PARAMS,
          description="one-step heuristic for every decision",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA})
@njit(POLICY_SIG, cache=True)
def greedy_policy(cfg, obs, opts, n_opts, params, rng):
    kind = obs[O_KIND]
    seat = obs[O_SEAT]
    if kind == K_PUBLIC or kind == K_SECRET or kind == K_UNAN:
        sr = scoring_rules(cfg)
        if kind == K_PUBLIC:
            code = _best_blind_discard(sr, obs[O_HAND], obs[O_FAV + seat],
                                       params[P_DRAW_WEIGHT])[1]
        else:
            code = _greedy_discard_take(sr, obs[O_HAND], obs[O_TABLE], obs[O_FAV + seat],
                                        params[P_DRAW_WEIGHT], params[P_NOTAKE] > 0,
                                        opts[0] < 0)
        for i in range(n_opts):
            if opts[i] == code:
                return i
        return 0
    if kind == K_VETO:
        if params[P_NOVETO] > 0:
            return 0
        sr = scoring_rules(cfg)
        return 1 if team_hand_value(sr, obs, seat) >= params[P_VETO_AT] else 0
    if kind == K_FAV:
        return seat % 4
    if kind == K_ANNOUNCE:
        return announce_colouring(obs)
    if kind == K_ALLOC:
        return _greedy_alloc(obs, opts, n_opts)
    if kind == K_MEDIA:
        return _greedy_media(obs, opts, n_opts, seat, params[P_NOMEDIA] > 0)
    if kind == K_COLOUR:
        return greedy_colour(obs, seat)
    return 0



# greedy's discard-turn choices under public names, for other policies' rollouts (ismcts)
greedy_blind_discard = _best_blind_discard
greedy_discard_take = _greedy_discard_take
