"""The two reference policies: ``random`` and ``greedy``.

``random`` picks uniformly among the legal options of every decision (discards and
takes, passes, veto, team allocation, Media target and colour, favourite suit).

``greedy`` is a one-step heuristic that looks only at its own observation:

- discards/takes: the option whose resulting hand is best — an exact D4 evaluation when
  the hand is known after the action (a take), an estimate for a blind deck draw (the
  combination already held in the 4 kept cards, or ``params[1]`` × the best run one card
  short); a pass keeps the current hand;
- veto: when its own hand already scores at least ``params[0]`` points;
- team allocation: the member whose best trio harmony gains most from the figure;
- Media: an opponent's figure (a teammate's only when nothing else is legal and the
  action is compulsory, then the colour that best helps the teammate); against an
  opponent, the colour most common among their figures it can see.
"""

import numpy as np
from numba import njit

from demos_sim.demos.layout import (
    C_CARRE, C_FAV_BONUS, C_RB, C_RULES, DECK_TOP, K_ALLOC, K_COLOUR, K_FAV, K_MEDIA,
    K_PUBLIC, K_SECRET, K_UNAN, K_VETO, MEDIA0, NFIG, O_ARG0, O_ARG1, O_COVER, O_FAV,
    O_FIGS, O_HAND, O_KIND, O_NFIG, O_SEAT, O_SIDE, O_TABLE,
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
@njit(cache=True)
def value5(cfg, h, fav):
    """Exact value of a known 5-card hand: score, then D4.3 tie-breaks as fractions."""
    kd, sc, cm = best_combo(h, 1 if cfg[C_RULES] == 0 else 0, cfg[C_CARRE], cfg[C_RB],
                            cfg[C_RB + 1], cfg[C_RB + 2], fav, cfg[C_FAV_BONUS])
    if kd == 0:
        return 0.0
    return sc + 0.01 * max_suit_count(h) + 0.0005 * (total_value(h) - total_value(cm))


@njit(cache=True)
def value4(cfg, h4, fav, weight):
    """Estimated value of 4 kept cards plus one blind draw."""
    full = 1 if cfg[C_RULES] == 0 else 0
    kd, sc, cm = best_combo(h4, full, cfg[C_CARRE], cfg[C_RB], cfg[C_RB + 1], cfg[C_RB + 2],
                            fav, cfg[C_FAV_BONUS])
    if kd != 0:
        return sc + 0.0005 * (total_value(h4) - total_value(cm) + 5)
    # one card short of a run: the best window with two of its three values
    s0 = suit_slice(h4, 0)
    s1 = suit_slice(h4, 1)
    s2 = suit_slice(h4, 2)
    s3 = suit_slice(h4, 3)
    vals = s0 | s1 | s2 | s3
    lo = 1 if full else 2
    best = 0.0
    for b in range(lo - 1, 8):
        w = 7 << b
        have = vals & w
        cnt = (have & 1 << b != 0) + (have & 2 << b != 0) + (have & 4 << b != 0)
        if cnt < 2:
            continue
        k = 3
        for s in range(4):
            c = ((suit_slice(h4, s) & w) != 0)
            if c and suit_slice(h4, s) & w == have:
                k = 2   # the two cards share a suit: one- or two-suit run possible
        v = (cfg[C_RB + k - 1] + b + 1) * weight
        if v > best:
            best = v
    if full:
        quad = s0 & s1 & s2
        trips = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
        if trips or quad:
            v = cfg[C_CARRE] * weight * 0.5
            if v > best:
                best = v
    return best


@njit(cache=True)
def _discard_take_value(cfg, h, d, t, fav, weight):
    k = h & ~(1 << d)
    if t == DECK_TOP:
        return value4(cfg, k, fav, weight)
    return value5(cfg, k | (1 << t), fav)


# ------------------------------------------------------------------ figures
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


@register("greedy", params=GREEDY_PARAMS,
          description="one-step heuristic for every decision",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA})
@njit(POLICY_SIG, cache=True)
def greedy_policy(cfg, obs, opts, n_opts, params, rng):
    kind = obs[O_KIND]
    seat = obs[O_SEAT]
    fav = obs[O_FAV + seat]
    h = obs[O_HAND]
    weight = params[P_DRAW_WEIGHT]
    if kind == K_PUBLIC:
        best = -1.0
        bi = 0
        for i in range(n_opts):
            v = value4(cfg, h & ~(1 << opts[i]), fav, weight) + 0.0001 * (10 - opts[i] % 10)
            if v > best:
                best = v
                bi = i
        return bi
    if kind == K_SECRET or kind == K_UNAN:
        # options: [pass], then for each discard d: (d, deck) followed by (d, t) for each
        # face-up t. A take is only worth an exact look when t can join a combination.
        useful = 0 if params[P_NOTAKE] > 0 else _useful_takes(h, obs[O_TABLE], cfg[C_RULES] == 0)
        best = -1.0
        bi = 0
        for i in range(n_opts):
            o = opts[i]
            if o < 0:
                v = value5(cfg, h, fav)          # pass: keep the hand as it is
            else:
                d = o // 64
                t = o % 64
                if t == DECK_TOP:
                    v = value4(cfg, h & ~(1 << d), fav, weight)
                else:
                    if not (useful >> t) & 1:
                        continue
                    v = value5(cfg, (h & ~(1 << d)) | (1 << t), fav)
                v += 0.0001 * (10 - d % 10)
            if v > best:
                best = v
                bi = i
        return bi
    if kind == K_VETO:
        if params[P_NOVETO] > 0:
            return 0
        return 1 if value5(cfg, h, fav) >= params[P_VETO_AT] else 0
    if kind == K_FAV:
        return seat % 4
    if kind == K_ALLOC:
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
    if kind == K_MEDIA:
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
        if bi >= 0 and params[P_NOMEDIA] == 0:
            return bi
        for i in range(n_opts):            # decline when allowed
            if opts[i] < 0:
                return i
        if bi >= 0:
            return bi
        return 0                           # only teammates left and compulsory
    if kind == K_COLOUR:
        q = obs[O_ARG0]
        f = obs[O_ARG1]
        if obs[O_SIDE + q] == obs[O_SIDE + seat] and f >= 0:
            # help a teammate: the colour giving its best harmony
            bc = 0
            bh = -1
            save = obs[O_COVER + f]
            for c in range(4):
                obs[O_COVER + f] = c
                hh = _trio_harmony(obs, q, -1)
                if hh > bh:
                    bh = hh
                    bc = c
            obs[O_COVER + f] = save
            return bc
        counts = np.zeros(4, np.int64)
        for i in range(obs[O_NFIG + q]):
            g = obs[O_FIGS + q * NFIG + i]
            if 0 <= g < MEDIA0 and g != f:
                c = obs[O_COVER + g] if obs[O_COVER + g] >= 0 else g % 4
                counts[c] += 1
        bc = 0
        for c in range(4):
            if counts[c] > counts[bc]:
                bc = c
        return bc
    return 0
