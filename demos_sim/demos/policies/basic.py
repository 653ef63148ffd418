"""The two reference policies: ``random`` and ``greedy``.

``random`` picks uniformly among the legal options of every decision (discards and
takes, passes, veto, team allocation, Media target and colour, favourite suit).

``greedy`` is a one-step heuristic that looks only at its own observation:

- discards/takes: the option whose resulting hand is best — an exact D4 evaluation when
  the hand is known after the action (a take), an estimate for a blind deck draw (the
  combination already held in the 4 kept cards, or ``params[1]`` × the best run one card
  short); a pass keeps the current hand;
- veto: when its own hand already scores at least ``params[0]`` points (under
  ``team_talk = hands``, D9.2: the best hand of the team), a threshold moved by
  :func:`~demos_sim.demos.policies.teamplay.veto_shift` (D3.4.1, D9.3): it falls by
  ``params[6]`` × min(1, vetoes left / rounds left), so vetoes still held are used as the
  game runs out (also the 2v3 team of two's second, and every further veto a larger
  ``team_vetoes`` gives), and it rises by ``params[7]`` for each opponent side still to
  be asked this round that holds a veto and has a member who passed or took a face-up
  card in the secret turn (the opponents' vetoes left are public, M2);
- X2 announcement: a three-colour colouring sharing as few figures as possible with the
  colourings already announced (sides announcing the same figure compete for it);
- team allocation (D9.4): an E/L/J figure to the member whose best trio harmony gains
  most from it; a Media by :func:`~demos_sim.demos.policies.teamplay.alloc_media` —
  never to a member already holding one while another holds none (D6.1: the two would
  cancel out), preferably to the member whose *teammate* a Media can complete (D6.2);
- Media (D6.2, team decision): a teammate's figure when covering it raises the side's
  harmony (D9.5 best member) by at least ``params[8]`` steps (the team knows its
  figures, D9.2), else an opponent's figure (the opponent with the most figures; a
  teammate's only when nothing else is legal and the action is compulsory: the one that
  hurts the side least); against an opponent, the colour most common among their
  figures it can see; for a teammate, the colour giving its best harmony with the
  covered figure in the trio (D7.1), the team's announced one (X2) first on a tie.

``params[5]`` = 1 (the restricted form ``greedy:legacy``) plays the allocation, Media
and veto decisions of the bot before team play was added (both Media to the first
member, Media never aimed at a teammate by choice, a fixed veto threshold), to measure
the change on the same deals.
"""

import numpy as np

from demos_sim.demos import layout as L
from demos_sim.demos.kit import find_turn_option
from demos_sim.demos import tables as T
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.policies.teamplay import (
    alloc_media, best_mate_target, covered_harmony, veto_shift,
)
from demos_sim.demos.scoring import (  # noqa: F401  (scoring_rules re-exported)
    best_combo, max_suit_count, scoring_rules, suit_slice, total_value)
from demos_sim.bits import lowest_bit, popcount
from demos_sim.jit import kernel
from demos_sim.rng import below

P_VETO_AT, P_DRAW_WEIGHT, P_NOVETO, P_NOTAKE, P_NOMEDIA = 0, 1, 2, 3, 4
P_LEGACY, P_VETO_SPEND, P_VETO_FREE, P_MATE_GAIN = 5, 6, 7, 8
GREEDY_PARAMS = (19.0, 0.35, 0.0, 0.0, 0.0, 0.0, 16.0, 2.0, 1.0)
_LOW10 = 0x3FF          # the ten values of one suit (bits 0-9)


@register("random", description="uniform among the legal options of every decision")
@kernel(POLICY_SIG)
def random_policy(cfg, obs, opts, n_opts, params, rng):
    return below(rng, 0, n_opts)


# ------------------------------------------------------------------ hand values
@kernel(inline=True)
def value5(sr, h, fav):
    """Exact value of a known 5-card hand: score, then D4.3 tie-breaks as fractions."""
    kd, sc, cm = best_combo(h, sr, fav)
    if kd == 0:
        return 0.0
    return sc + 0.01 * max_suit_count(h) + 0.0005 * (total_value(h) - total_value(cm))


@kernel(inline=True)
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
        kd, sc, cm = best_combo(h4, sr, fav)
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


@kernel
def team_hand_value(sr, obs, seat):
    """Best exact value among the hands the deciding seat may see: its own, and under
    ``team_talk = hands`` (D9.2) in a team decision its teammates' (``O_MATE_HAND``)."""
    v = value5(sr, obs[L.O_HAND], obs[L.O_FAV + seat])
    for p in range(L.MAXP):
        h = obs[L.O_MATE_HAND + p]
        if h != 0:
            w = value5(sr, h, obs[L.O_FAV + p])
            if w > v:
                v = w
    return v


# ------------------------------------------------------------------ figures
@kernel
def announced_colour(ann, t):
    """The suit an X2 colouring ``ann`` (E*16 + L*4 + J) announces for figure type t."""
    return (ann >> (2 * (2 - t))) & 3


@kernel
def announce_colouring(obs):
    """X2: a three-colour colouring (the best harmony) that shares the fewest figures with
    the colourings already announced; the search starts at a seat-dependent colouring."""
    taken = 0                               # figure ids type*4 + colour announced so far
    for p in range(obs[L.O_N]):
        a = obs[L.O_ANN + p]
        if a >= 0:
            for t in range(3):
                taken |= 1 << (4 * t + announced_colour(a, t))
    best = 4
    code = 0
    for k in range(64):
        c = (k + 21 * obs[L.O_SEAT]) % 64
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
@kernel
def _trio_harmony(obs, seat, extra):
    """Best harmony of ``seat``'s known figures plus figure ``extra`` (-1 none)."""
    best = 0
    nf = obs[L.O_NFIG + seat]
    base = L.O_FIGS + seat * L.NFIG
    for a in range(nf + 1):
        e = extra if a == nf else obs[base + a]
        if e < 0 or e >= L.MEDIA0 or e // 4 != 0:
            continue
        for b in range(nf + 1):
            l = extra if b == nf else obs[base + b]
            if l < 0 or l >= L.MEDIA0 or l // 4 != 1:
                continue
            for c in range(nf + 1):
                j = extra if c == nf else obs[base + c]
                if j < 0 or j >= L.MEDIA0 or j // 4 != 2:
                    continue
                ce = obs[L.O_COVER + e] if obs[L.O_COVER + e] >= 0 else e % 4
                cl = obs[L.O_COVER + l] if obs[L.O_COVER + l] >= 0 else l % 4
                cj = obs[L.O_COVER + j] if obs[L.O_COVER + j] >= 0 else j % 4
                h = 1 + (cl != ce) + (cj != ce and cj != cl)
                if h > best:
                    best = h
    return best


@kernel
def _types_held(obs, seat):
    m = 0
    for i in range(obs[L.O_NFIG + seat]):
        f = obs[L.O_FIGS + seat * L.NFIG + i]
        if 0 <= f < L.MEDIA0:
            m |= 1 << (f // 4)
    return m


@kernel
def _useful_takes(h, table, full):
    """Mask of the face-up cards that can join a run (or a Carré) with cards of ``h``.

    Bit-parallel over the ten values: value b is useful when b, b+1, b+2 or b-1, b, b+1
    or b-2, b-1, b is a run with the values of ``h``, or (full rules) ``h`` holds b in
    three suits; the face-up cards of the useful values are the answer."""
    s0 = suit_slice(h, 0)
    s1 = suit_slice(h, 1)
    s2 = suit_slice(h, 2)
    s3 = suit_slice(h, 3)
    vals = s0 | s1 | s2 | s3
    ok = (((vals >> 1) & (vals >> 2)) | ((vals << 1) & (vals >> 1))
          | ((vals << 1) & (vals << 2))) & _LOW10
    if full:
        ok |= (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    return table & (ok | (ok << 10) | (ok << 20) | (ok << 30))


@kernel
def _best_blind_discard(sr, h, fav, weight):
    """(value, card): the discard leaving the best 4 cards before a blind draw (lower
    cards first on ties). It is the whole public turn, and the deck options of the others.

    A discard outside the hand's best combination keeps that combination (a subset of
    the hand cannot do better), so only discards inside it need a fresh look.
    """
    kd, sc, cm = best_combo(h, sr, fav)
    best = -1.0
    card = 0
    x = h
    while x:
        d = lowest_bit(x)
        x &= x - 1
        v = blind_value(sr, h, fav, weight, kd, sc, cm, d)
        if v > best:
            best = v
            card = d
    return best, card


@kernel(inline=True)
def blind_value(sr, h, fav, weight, kd, sc, cm, d):
    """Value of discarding ``d`` from ``h`` before a blind draw (``kd, sc, cm``:
    ``best_combo`` of ``h``), with the lower-card tie-break."""
    h4 = h & ~(1 << d)
    if kd != 0 and not (cm >> d) & 1:
        v = sc + 0.0005 * (total_value(h4) - total_value(cm) + 5)
    else:
        v = value4(sr, h4, fav, weight)
    return v + 0.0001 * (10 - d % 10)


# ------------------------------------------------------------------ the blind discard as a table
# _best_blind_discard for every 5-card hand (demos_sim.demos.tables), under the standard
# scoring, no favourite suit and greedy's draw weight: byte 1 = the card | kind << 6,
# byte 2 = what its value is made of, so that the value is the same float as computed.
_BK_RUN, _BK_CARRE, _BK_DRAW, _BK_CONST = 0, 1, 2, 3


@kernel(inline=True)
def _blind_decode(b1, b2, weight):
    """(value, card) of a table entry (see :func:`_blind_encode`)."""
    d = np.int64(b1 & 63)
    k = np.int64(b1 >> 6)
    c = np.int64(b2)
    if k == _BK_RUN:            # a run is kept: its score, the unplayed card, the draw
        v = (5 + (c >> 4)) + 0.0005 * ((c & 15) + 5)
    elif k == _BK_CARRE:
        v = T.STD_CARRE + 0.0005 * (c + 5)
    elif k == _BK_DRAW:         # value4: a run one card short
        v = c * weight
    else:                       # value4: nothing, or a Carré one card short
        v = T.STD_CARRE * weight * 0.5 if c else 0.0
    return v + 0.0001 * (10 - d % 10), d


@kernel
def _blind_encode(sr, h, weight):
    """The two bytes of ``h`` (-1, -1 when the value has no encoding)."""
    v, d = _best_blind_discard(sr, h, -1, weight)
    kd, sc, cm = best_combo(h, sr, -1)
    h4 = h & ~(1 << d)
    if not (kd != 0 and not (cm >> d) & 1):
        kd, sc, cm = best_combo(h4, sr, -1)
    k = -1
    c = -1
    if kd == 2 and sc == T.STD_CARRE:
        k, c = _BK_CARRE, total_value(h4) - total_value(cm)
    elif kd == 1 and 5 <= sc <= 20:
        k, c = _BK_RUN, (sc - 5) * 16 + total_value(h4) - total_value(cm)
    elif kd == 0:
        v4 = value4(sr, h4, -1, weight)
        if v4 == 0.0:
            k, c = _BK_CONST, 0
        elif v4 == T.STD_CARRE * weight * 0.5:
            k, c = _BK_CONST, 1
        else:
            k, c = _BK_DRAW, np.int64(round(v4 / weight))
    if k < 0 or c < 0 or c > 255:
        return -1, -1
    b1 = d | (k << 6)
    v2, d2 = _blind_decode(np.uint8(b1), np.uint8(c), weight)
    if v2 != v or d2 != d:
        return -1, -1
    return b1, c


@kernel(allocates=True)
def _blind_discard_table(full):
    """Rows 0 and 1: bytes 1 and 2 of every 5-card hand (rank order)."""
    hs = T.hands5(full)
    sr = (np.int64(full), np.int64(T.STD_CARRE), np.int64(T.STD_RB0), np.int64(T.STD_RB1),
          np.int64(T.STD_RB2), np.int64(0))
    out = np.empty((2, hs.shape[0]), np.uint8)
    for i in range(hs.shape[0]):
        b1, b2 = _blind_encode(sr, hs[i], GREEDY_PARAMS[P_DRAW_WEIGHT])
        if b1 < 0:
            raise ValueError("a blind discard with no table encoding")
        out[0, i] = b1
        out[1, i] = b2
    return out


_BLIND_TABLES = T.build_tables(_blind_discard_table, 2)
_BF1 = np.ascontiguousarray(_BLIND_TABLES[0][0])     # full rules, byte 1
_BF2 = np.ascontiguousarray(_BLIND_TABLES[0][1])
_BS1 = np.ascontiguousarray(_BLIND_TABLES[1][0])     # simplified rules
_BS2 = np.ascontiguousarray(_BLIND_TABLES[1][1])
del _BLIND_TABLES


@kernel(inline=True)
def _blind_table_covers(sr, h, fav, weight):
    return (_BF1.shape[0] > 0 and weight == GREEDY_PARAMS[P_DRAW_WEIGHT]
            and T.std_scoring(sr, fav) and T.is_hand5(h, sr[0]))


@kernel
def blind_discard(sr, h, fav, weight):
    """:func:`_best_blind_discard` — (value, card) — read from its table when the table
    covers the case (5 cards, standard scoring, no favourite suit, greedy's weight)."""
    if _blind_table_covers(sr, h, fav, weight):
        i = T.rank5(h, sr[0])
        if sr[0]:
            return _blind_decode(_BF1[i], _BF2[i], weight)
        return _blind_decode(_BS1[i], _BS2[i], weight)
    return _best_blind_discard(sr, h, fav, weight)


@kernel
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
    v, d = blind_discard(sr, h, fav, weight)
    if v > best:
        best = v
        code = d * 64 + L.DECK_TOP
    useful = 0 if notake else _useful_takes(h, table, full == 1)
    while useful:
        t = lowest_bit(useful)
        useful &= useful - 1
        h6 = h | (1 << t)
        kd, sc, cm = best_combo(h6, sr, fav)
        if kd == 0:
            continue
        unpl6 = total_value(h6) - total_value(cm)     # d's face value d % 10 + 1 leaves
        rest = h & ~cm
        while rest:
            d = lowest_bit(rest)
            rest &= rest - 1
            h5 = h6 & ~(1 << d)
            v = (sc + 0.01 * max_suit_count(h5) + 0.0005 * (unpl6 - (d % 10 + 1))
                 + 0.0001 * (10 - d % 10))
            if v > best:
                best = v
                code = d * 64 + t
    return code


@kernel
def _greedy_alloc(obs, opts, n_opts, legacy):
    f = obs[L.O_ARG0]
    if f >= L.MEDIA0 and not legacy:
        return alloc_media(obs, opts, n_opts)         # D9.4 with D6.1, D6.2
    bi = 0
    bv = -1
    for i in range(n_opts):
        q = opts[i]
        gain = _trio_harmony(obs, q, f) * 4 - _trio_harmony(obs, q, -1) * 4
        if f < L.MEDIA0 and not (_types_held(obs, q) >> (f // 4)) & 1:
            gain += 1
        if gain > bv:
            bv = gain
            bi = i
    return bi


@kernel
def _greedy_media(obs, opts, n_opts, seat, nomedia, legacy, mate_gain):
    myside = obs[L.O_SIDE + seat]
    mi = -1
    if not legacy:
        # D6.2, D9.2: the team sees its figures; a Media on a teammate's figure that
        # raises the side's harmony (D9.5 best member) is played there
        mi, mg = best_mate_target(obs, opts, n_opts, seat)
        if mi >= 0 and mg >= mate_gain and not nomedia:
            return mi
    bi = -1
    bv = -1
    for i in range(n_opts):
        o = opts[i]
        if o < 0:
            continue
        q = o // 16
        if obs[L.O_SIDE + q] == myside:
            continue
        v = obs[L.O_NFIG + q]            # the opponent with the most figures
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
    if mi >= 0:
        return mi                      # only teammates left and compulsory: the least harm
    return 0


@kernel
def greedy_colour(obs, seat, legacy):
    q = obs[L.O_ARG0]
    f = obs[L.O_ARG1]
    if obs[L.O_SIDE + q] == obs[L.O_SIDE + seat] and f >= 0 and not legacy:
        return covered_harmony(obs, q, f)[1]   # the covered figure joins the trio (D7.1)
    if obs[L.O_SIDE + q] == obs[L.O_SIDE + seat] and f >= 0:
        # help a teammate: the colour giving its best harmony
        bc = 0
        bh = -1
        save = obs[L.O_COVER + f]
        ann = obs[L.O_ANN + q]
        want = announced_colour(ann, f // 4) if ann >= 0 else -1
        for c in range(4):
            obs[L.O_COVER + f] = c
            hh = _trio_harmony(obs, q, -1)
            if hh > bh or (hh == bh and c == want):
                bh = hh
                bc = c
        obs[L.O_COVER + f] = save
        return bc
    # an opponent: the colour most common among its other figures it can see
    bc = 0
    bn = -1
    for c in range(4):
        cnt = 0
        for i in range(obs[L.O_NFIG + q]):
            g = obs[L.O_FIGS + q * L.NFIG + i]
            if 0 <= g < L.MEDIA0 and g != f:
                gc = obs[L.O_COVER + g] if obs[L.O_COVER + g] >= 0 else g % 4
                cnt += gc == c
        if cnt > bn:
            bn = cnt
            bc = c
    return bc


@register("greedy", params=GREEDY_PARAMS,
          description="one-step heuristic for every decision",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA,
                 "legacy": P_LEGACY})
@kernel(POLICY_SIG)
def greedy_policy(cfg, obs, opts, n_opts, params, rng):
    kind = obs[L.O_KIND]
    seat = obs[L.O_SEAT]
    if kind == L.K_PUBLIC or kind == L.K_SECRET or kind == L.K_UNAN:
        sr = scoring_rules(cfg)
        if kind == L.K_PUBLIC:
            code = blind_discard(sr, obs[L.O_HAND], obs[L.O_FAV + seat],
                                 params[P_DRAW_WEIGHT])[1]
        else:
            code = _greedy_discard_take(sr, obs[L.O_HAND], obs[L.O_TABLE], obs[L.O_FAV + seat],
                                        params[P_DRAW_WEIGHT], params[P_NOTAKE] > 0,
                                        opts[0] < 0)
        i = find_turn_option(obs, opts, n_opts, code)
        return i if i >= 0 else 0
    if kind == L.K_VETO:
        if params[P_NOVETO] > 0:
            return 0
        sr = scoring_rules(cfg)
        thr = params[P_VETO_AT]
        if params[P_LEGACY] == 0:
            thr += veto_shift(cfg, obs, seat, params[P_VETO_SPEND], params[P_VETO_FREE])
        return 1 if team_hand_value(sr, obs, seat) >= thr else 0
    if kind == L.K_FAV:
        return seat % 4
    if kind == L.K_ANNOUNCE:
        return announce_colouring(obs)
    if kind == L.K_ALLOC:
        return _greedy_alloc(obs, opts, n_opts, params[P_LEGACY] > 0)
    if kind == L.K_MEDIA:
        return _greedy_media(obs, opts, n_opts, seat, params[P_NOMEDIA] > 0,
                             params[P_LEGACY] > 0, params[P_MATE_GAIN])
    if kind == L.K_COLOUR:
        return greedy_colour(obs, seat, params[P_LEGACY] > 0)
    return 0



# greedy's discard-turn choices under public names, for other policies' rollouts (ismcts)
greedy_blind_discard = blind_discard
greedy_discard_take = _greedy_discard_take
