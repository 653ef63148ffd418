"""D4 combinations and round keys: the kernels and the public scoring API.

A hand is a 40-bit mask (card id = suit*10 + value-1), so suit ``s`` is the 10-bit slice
``(mask >> 10*s) & 0x3FF`` and the values present are the OR of the four slices.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from demos_sim.bits import highest_bit, popcount
from demos_sim.cards import card_id, codes_of, SUITS
from demos_sim.demos import layout as L
from demos_sim.jit import kernel

KIND_NONE, KIND_RUN, KIND_CARRE = 0, 1, 2
KIND_NAMES = {KIND_NONE: None, KIND_RUN: "run", KIND_CARRE: "carre"}
_LOW10 = 0x3FF


@kernel(inline=True)
def suit_slice(mask, s):
    return (mask >> (10 * s)) & _LOW10


# sum of the face values (bit i = value i+1) of every 10-bit suit slice
_SLICE_SUM = np.array([sum(i + 1 for i in range(10) if (m >> i) & 1) for m in range(1024)],
                      dtype=np.int64)


@kernel
def total_value(mask):
    """Sum of the face values of the cards in ``mask`` (D3.0)."""
    return (_SLICE_SUM[mask & _LOW10] + _SLICE_SUM[(mask >> 10) & _LOW10]
            + _SLICE_SUM[(mask >> 20) & _LOW10] + _SLICE_SUM[(mask >> 30) & _LOW10])


@kernel
def max_suit_count(mask):
    """D4.3 step 1: the largest number of cards of one suit in ``mask``."""
    best = 0
    for s in range(4):
        c = popcount(suit_slice(mask, s))
        if c > best:
            best = c
    return best


@kernel(inline=True)
def _windows(s):
    """Bit b set: the 10-bit slice ``s`` holds the values b+1, b+2, b+3."""
    return s & (s >> 1) & (s >> 2)


@kernel
def _best_run_monotone(mask, runs, rb0, rb1, rb2, fav, bonus):
    """(score, combo mask) of the best run when run_base[0] >= [1] >= [2] (``runs`` != 0).

    Each window b (values b+1 … b+3) scores by the fewest suits that hold it (D4.1), a
    one-suit run in the favourite suit with the X1 bonus, and that suit first when it
    holds the window; the best window is the highest score, then the lowest b (the most
    unplayed value, D4.2). Every window is classed at once with bit operations (one
    suit, two suits, three) and only the chosen one is built: the same choice, suit for
    suit, as trying the windows one by one (:func:`_best_run_any`)."""
    s0 = suit_slice(mask, 0)
    s1 = suit_slice(mask, 1)
    s2 = suit_slice(mask, 2)
    s3 = suit_slice(mask, 3)
    one = _windows(s0) | _windows(s1) | _windows(s2) | _windows(s3)
    two = (_windows(s0 | s1) | _windows(s0 | s2) | _windows(s0 | s3) | _windows(s1 | s2)
           | _windows(s1 | s3) | _windows(s2 | s3))
    wf = _windows(suit_slice(mask, fav)) if fav >= 0 else 0
    best = -1
    bb = 0
    cls = 0
    for c in range(4):                # 0 favourite suit, 1 one suit, 2 two, 3 three
        if c == 0:
            m, base = wf, rb0 + bonus
        elif c == 1:
            m, base = one & ~wf, rb0
        elif c == 2:
            m, base = two & ~one, rb1
        else:
            m, base = runs & ~two, rb2
        if m:
            b = highest_bit(m)
            sc = base + b + 1
            if sc > best or (sc == best and b < bb):
                best = sc
                bb = b
                cls = c
    w = 7 << bb
    if cls == 0:
        return best, w << (10 * fav)
    if cls == 1:
        for s in range(4):
            if (suit_slice(mask, s) & w) == w:
                return best, w << (10 * s)
    if cls == 2:
        for x in range(4):
            sx = suit_slice(mask, x)
            for y in range(x + 1, 4):
                sy = suit_slice(mask, y)
                if ((sx | sy) & w) == w:
                    return best, ((sx & w) << (10 * x)) | (((sy & w) & ~sx) << (10 * y))
    cm = 0
    for i in range(3):
        bit = 1 << (bb + i)
        for s in range(4):
            if suit_slice(mask, s) & bit:
                cm |= bit << (10 * s)
                break
    return best, cm


@kernel
def _best_run_any(mask, runs, rb0, rb1, rb2, fav, bonus):
    """(score, combo mask) of the best run for any run_base: every choice of one card per
    value of every window (``runs`` != 0)."""
    best_score = -1
    best_unpl = -1
    best_cm = 0
    for b in range(8):
        if not (runs >> b) & 1:
            continue
        score = -1
        cm = 0
        for a in range(4):
            if not suit_slice(mask, a) & (1 << b):
                continue
            for c in range(4):
                if not suit_slice(mask, c) & (1 << (b + 1)):
                    continue
                for d in range(4):
                    if not suit_slice(mask, d) & (1 << (b + 2)):
                        continue
                    k = 1 + (c != a) + (d != a and d != c)
                    sc = (rb0 if k == 1 else (rb1 if k == 2 else rb2)) + b + 1
                    if k == 1 and a == fav:
                        sc += bonus
                    if sc > score:
                        score = sc
                        cm = ((1 << b) << (10 * a)) | ((2 << b) << (10 * c)) | ((4 << b) << (10 * d))
        unpl = -(6 + 3 * b)   # relative: total is common to every candidate
        if score > best_score or (score == best_score and unpl > best_unpl):
            best_score = score
            best_unpl = unpl
            best_cm = cm
    return best_score, best_cm


@kernel(inline=True)
def scoring_rules(cfg):
    """The scoring rules of a DĒMOS configuration (D4.1–D4.2, X1, D8) as one value ``sr``,
    a tuple of six int64 read once from ``cfg`` (no array traffic after):
    ``(full, carre_points, run_base[0], run_base[1], run_base[2], favourite_suit_bonus)``,
    ``full`` being 1 under the full rules (the Carré exists) and 0 under the simplified."""
    return (np.int64(cfg[L.C_RULES] == 0), cfg[L.C_CARRE], cfg[L.C_RB], cfg[L.C_RB + 1],
            cfg[L.C_RB + 2], cfg[L.C_FAV_BONUS])


@kernel
def best_combo(mask, sr, fav):
    """Best combination of a hand (D4.1–D4.2, X1).

    Parameters
    ----------
    mask : int64 hand mask (any number of cards; 5 at showdown).
    sr : the scoring rules, :func:`scoring_rules` of the configuration (or the same six
        integers: full rules 1 / simplified 0, ``carre_points``, ``run_base``,
        ``favourite_suit_bonus``).
    fav : the hand's favourite suit (-1 none).

    Returns
    -------
    (kind, score, combo_mask) : kind 0 none / 1 run / 2 Carré; among all combinations
    the one maximising (score, total value of the cards left unplayed).
    """
    full, carre, rb0, rb1, rb2, bonus = sr
    s0 = suit_slice(mask, 0)
    s1 = suit_slice(mask, 1)
    s2 = suit_slice(mask, 2)
    s3 = suit_slice(mask, 3)
    vals = s0 | s1 | s2 | s3
    runs = _windows(vals)
    best_kind = 0
    best_score = -1
    best_unpl = -1
    best_cm = 0
    if runs:
        if rb0 >= rb1 and rb1 >= rb2:
            best_score, best_cm = _best_run_monotone(mask, runs, rb0, rb1, rb2, fav, bonus)
        else:
            best_score, best_cm = _best_run_any(mask, runs, rb0, rb1, rb2, fav, bonus)
        best_kind = 1
        best_unpl = -total_value(best_cm)
    if full:
        quad = s0 & s1 & s2 & s3
        if quad:
            for b in range(10):
                if (quad >> b) & 1:
                    unpl = -4 * (b + 1)
                    if carre > best_score or (carre == best_score and unpl > best_unpl):
                        best_kind = 2
                        best_score = carre
                        best_unpl = unpl
                        best_cm = (1 << b) | (1 << (b + 10)) | (1 << (b + 20)) | (1 << (b + 30))
    if best_kind == 0:
        return 0, 0, 0
    return best_kind, best_score, best_cm


@kernel
def round_key(mask, kind, score, cm):
    """D4.3 order as one integer: (score, largest suit count, unplayed total); -1 abandoned."""
    if kind == 0:
        return -1
    unpl = total_value(mask) - total_value(cm)
    return (score * 16 + max_suit_count(mask)) * 64 + unpl


@kernel
def _best_many(masks, sr, favs, kinds, scores, cms, unpl):
    for i in range(masks.shape[0]):
        k, s, c = best_combo(masks[i], sr, favs[i])
        kinds[i] = k
        scores[i] = s
        cms[i] = c
        unpl[i] = total_value(masks[i]) - total_value(c)


class Combination(NamedTuple):
    """The combination a hand plays (D4.1–D4.2)."""

    kind: str | None       # "carre", "run" or None (abandoned)
    cards: list[str]       # the cards played, record notation
    score: int             # 0 when abandoned
    unplayed_total: int    # face value of the cards not played (all 5 when abandoned)


def _variant_args(rules: str, variants: dict):
    """:func:`scoring_rules` of the rules ``rules`` with ``variants`` (Python ints)."""
    from demos_sim.demos.rules import DemosConfig

    cfg = DemosConfig(rules=rules, mode="individual", players=4, variants=variants)
    v = cfg.variants
    rb = v["run_base"]
    return (1 if rules == "full" else 0, v["carre_points"], rb[0], rb[1], rb[2],
            v["favourite_suit_bonus"])


def _suit_index(favourite_suit) -> int:
    if favourite_suit is None:
        return -1
    if favourite_suit not in SUITS:
        raise ValueError(f"favourite_suit must be one of S, H, D, C, got {favourite_suit!r}")
    return SUITS.index(favourite_suit)


def best_combination(hand: Sequence[str], rules: str = "full", favourite_suit: str | None = None,
                     **variants) -> Combination:
    """Best combination of a 5-card hand, per D4.1–D4.2 (and X1 with a favourite suit).

    >>> best_combination(["7S", "8S", "9S", "1H", "3D"])
    Combination(kind='run', cards=['7S', '8S', '9S'], score=19, unplayed_total=4)
    """
    if len(hand) != 5 or len(set(hand)) != 5:
        raise ValueError(f"a hand is 5 distinct cards, got {list(hand)!r}")
    ids = [card_id(c) for c in hand]
    if rules == "simplified" and any(i % 10 == 0 for i in ids):
        raise ValueError("simplified rules have no aces (D1)")
    sr = _variant_args(rules, variants)
    mask = 0
    for i in ids:
        mask |= 1 << i
    kind, score, cm = best_combo(np.int64(mask), sr, _suit_index(favourite_suit))
    unplayed = int(total_value(np.int64(mask)) - total_value(np.int64(cm)))
    return Combination(KIND_NAMES[int(kind)], codes_of(int(cm)), int(score), unplayed)


def best_combinations(hands, rules: str = "full", favourite_suits=None, **variants):
    """Vectorised :func:`best_combination`.

    Parameters
    ----------
    hands : ndarray(int, ndim=2), shape (n, 5) of card ids (``demos_sim.cards.card_id``),
        or ndarray(int64, ndim=1), shape (n,) of hand masks.
    favourite_suits : None, or ndarray(int, ndim=1), shape (n,): suit index 0–3 or -1.

    Returns
    -------
    dict of ndarrays of shape (n,): ``kind`` (0 none, 1 run, 2 Carré), ``score``,
    ``combo_mask`` (int64 mask of the cards played) and ``unplayed_total``.
    """
    hands = np.asarray(hands)
    if hands.ndim == 2:
        masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), hands.astype(np.int64)), axis=1)
    elif hands.ndim == 1:
        masks = hands.astype(np.int64)
    else:
        raise ValueError("hands must have shape (n, 5) of card ids or (n,) of masks")
    n = masks.shape[0]
    sr = _variant_args(rules, variants)
    favs = (np.full(n, -1, np.int64) if favourite_suits is None
            else np.asarray(favourite_suits, np.int64))
    kinds = np.empty(n, np.int64)
    scores = np.empty(n, np.int64)
    cms = np.empty(n, np.int64)
    unpl = np.empty(n, np.int64)
    _best_many(masks, sr, favs, kinds, scores, cms, unpl)
    return {"kind": kinds, "score": scores, "combo_mask": cms, "unplayed_total": unpl}
