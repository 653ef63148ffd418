"""Norm selection (P3.1–P3.2) and Household-control coverage (P4.1, P5.3) on card masks.

Kernels work on 36-bit masks (:mod:`demos_sim.protocole.layout`); the public
:func:`norm_selection` takes and returns record notation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from demos_sim.bits import popcount
from demos_sim.protocole.cards import card_code, card_id
from demos_sim.protocole.layout import COLOUR0, SYMBOL0

STANDARD_TIES = ("keep_tied", "discard_all")


@njit(cache=True, inline="always")
def colour_cover(m):
    """Every card whose colour is present in ``m`` (6 bits set per present colour)."""
    x = m | (m >> 1) | (m >> 2) | (m >> 3) | (m >> 4) | (m >> 5)
    return (x & SYMBOL0) * COLOUR0          # bit 6c marks colour c; spread it over its group


@njit(cache=True, inline="always")
def symbol_cover(m):
    """Every card whose symbol is present in ``m``."""
    g = (m | (m >> 6) | (m >> 12) | (m >> 18) | (m >> 24) | (m >> 30)) & COLOUR0
    return g * SYMBOL0                      # symbol bits copied into every colour group


@njit(cache=True, inline="always")
def covered(norm):
    """P4.1: the cards sharing their colour or their symbol with at least one Norm card."""
    return colour_cover(norm) | symbol_cover(norm)


@njit(cache=True, inline="always")
def double_covered(norm):
    """P5.3: the cards whose colour and symbol are both present in the Norm (on the same
    or different Norm cards)."""
    return colour_cover(norm) & symbol_cover(norm)


@njit(cache=True)
def norm_keep(sel, reinforced, tie_discard):
    """P3.1–P3.2: the kept cards (mask) of a Norm selection of the Selection ``sel``.

    ``m`` = the highest count among the 6 colours and 6 symbols of the Selection. A single
    card goes whole to the Norm under every rule. Otherwise, when several attributes reach
    ``m``, reinforced selection (P3.2) and standard ``discard_all`` remove every card;
    standard ``keep_tied`` keeps every card carrying any attribute at ``m`` (so 5 distinct
    colours and symbols, all at ``m`` = 1, are kept whole). With one attribute at ``m``,
    the cards carrying it are kept.
    """
    if popcount(sel) <= 1:
        return sel
    m = 0
    n_at = 0
    keep = 0
    for c in range(6):
        a = COLOUR0 << (6 * c)
        k = popcount(sel & a)
        if k > m:
            m = k
            n_at = 1
            keep = a
        elif k == m:
            n_at += 1
            keep |= a
    for s in range(6):
        a = SYMBOL0 << s
        k = popcount(sel & a)
        if k > m:
            m = k
            n_at = 1
            keep = a
        elif k == m:
            n_at += 1
            keep |= a
    if n_at > 1 and (reinforced or tie_discard):
        return 0
    return sel & keep


@njit(cache=True)
def norm_keep_batch(sels, reinforced, tie_discard, out):
    """:func:`norm_keep` over an array of Selection masks, into ``out``."""
    for i in range(sels.shape[0]):
        out[i] = norm_keep(sels[i], reinforced, tie_discard)


def norm_selection(cards, reinforced: bool = False, standard_tie: str = "keep_tied") -> list[str]:
    """The cards a Norm selection keeps (P3.1, P3.2), in the order given.

    Parameters
    ----------
    cards : 1–5 distinct cards in record notation, e.g. ``["KT", "KO", "BS", "KM", "YQ"]``.
    reinforced : the reinforced selection of the cooperative levels (P3.2).
    standard_tie : ``"keep_tied"`` (default) or ``"discard_all"``: the Part V variant for
        a tie at ``m`` under standard selection; ignored when ``reinforced``.

    >>> norm_selection(["KT", "KO", "BS", "KM", "YQ"])
    ['KT', 'KO', 'KM']
    """
    if standard_tie not in STANDARD_TIES:
        raise ValueError(f"standard_tie must be keep_tied or discard_all, got {standard_tie!r}")
    cards = list(cards)
    if not 1 <= len(cards) <= 5:
        raise ValueError(f"a Norm selection takes 1–5 cards (P2.2, P3.3), got {len(cards)}")
    ids = [card_id(c) for c in cards]
    if len(set(ids)) != len(ids):
        raise ValueError(f"a Selection holds distinct cards, got {cards}")
    sel = 0
    for i in ids:
        sel |= 1 << i
    kept = int(norm_keep(np.int64(sel), bool(reinforced), standard_tie == "discard_all"))
    return [card_code(i) for i in ids if (kept >> i) & 1]
