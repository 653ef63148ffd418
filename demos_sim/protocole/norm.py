"""Norm selection (P3.1–P3.2, P3.1a) and Household-control coverage (P4.1, P5.3) on card masks.

Kernels work on 36-bit masks (:mod:`demos_sim.protocole.layout`); the public
:func:`norm_selection` takes and returns record notation.
"""

from __future__ import annotations

import numpy as np

from demos_sim.bits import popcount
from demos_sim.jit import kernel
from demos_sim.protocole.cards import card_code, card_id
from demos_sim.protocole.layout import COLOUR0, SYMBOL0

STANDARD_TIES = ("keep_tied", "discard_all")
MAJORITY_SCOPES = ("pooled", "per_dimension")   # P3.1a


@kernel(inline=True)
def colour_cover(m):
    """Every card whose colour is present in ``m`` (6 bits set per present colour)."""
    x = m | (m >> 1) | (m >> 2) | (m >> 3) | (m >> 4) | (m >> 5)
    return (x & SYMBOL0) * COLOUR0          # bit 6c marks colour c; spread it over its group


@kernel(inline=True)
def symbol_cover(m):
    """Every card whose symbol is present in ``m``."""
    g = (m | (m >> 6) | (m >> 12) | (m >> 18) | (m >> 24) | (m >> 30)) & COLOUR0
    return g * SYMBOL0                      # symbol bits copied into every colour group


@kernel(inline=True)
def covered(norm):
    """P4.1: the cards sharing their colour or their symbol with at least one Norm card."""
    return colour_cover(norm) | symbol_cover(norm)


@kernel(inline=True)
def double_covered(norm):
    """P5.3: the cards whose colour and symbol are both present in the Norm (on the same
    or different Norm cards)."""
    return colour_cover(norm) & symbol_cover(norm)


@kernel
def norm_keep(sel, reinforced, tie_discard, per_dimension):
    """P3.1–P3.2, P3.1a: the kept cards (mask) of a Norm selection of the Selection ``sel``.

    ``per_dimension`` false (``majority_scope = pooled``, the default): ``m`` = the
    highest count among the 6 colours and 6 symbols of the Selection. A single card goes
    whole to the Norm under every rule. Otherwise, when several attributes reach ``m``,
    reinforced selection (P3.2) and standard ``discard_all`` remove every card; standard
    ``keep_tied`` keeps every card carrying any attribute at ``m`` (so 5 distinct colours
    and symbols, all at ``m`` = 1, are kept whole). With one attribute at ``m``, the cards
    carrying it are kept.

    ``per_dimension`` true: :func:`norm_keep_per_dimension` (P3.1a).
    """
    if popcount(sel) <= 1:
        return sel
    if per_dimension:
        return norm_keep_per_dimension(sel, reinforced or tie_discard)
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


@kernel
def norm_keep_per_dimension(sel, strict):
    """P3.1a ``majority_scope = per_dimension``: the kept cards of a Selection of 2+ cards.

    Colours and symbols are counted apart: ``mc`` = the highest colour count, ``ms`` the
    highest symbol count. The attributes "at the top" are the colours counted ``mc`` and
    the symbols counted ``ms``, except that a dimension whose highest count is 1 has no
    attribute at the top — unless ``mc`` and ``ms`` are both 1, and then every colour and
    every symbol present is at the top. Every card carrying an attribute at the top is
    kept. It is a tie when more than one colour or more than one symbol is at the top
    (one colour and one symbol at the top is not a tie); on a tie ``strict`` (reinforced
    selection, P3.2, or standard ``discard_all``) removes every card, ``keep_tied`` keeps
    the cards carrying any attribute at the top.

    Readings of P3.1a (stated once here): a single card is handled by the caller (it goes
    whole to the Norm, P3.1); with mc = ms = 1 the Selection has 2+ distinct colours, so
    it is a tie (keep_tied keeps it whole, discard_all and reinforced remove it); P3.2's
    "more than one attribute reaches m" reads, under per_dimension, as P3.1a's tie.
    """
    mc = 0
    nc = 0
    keep_c = 0
    for c in range(6):
        a = COLOUR0 << (6 * c)
        k = popcount(sel & a)
        if k > mc:
            mc = k
            nc = 1
            keep_c = a
        elif k == mc:
            nc += 1
            keep_c |= a
    ms = 0
    ns = 0
    keep_s = 0
    for s in range(6):
        a = SYMBOL0 << s
        k = popcount(sel & a)
        if k > ms:
            ms = k
            ns = 1
            keep_s = a
        elif k == ms:
            ns += 1
            keep_s |= a
    if mc == 1 and ms == 1:          # nothing repeats: every attribute is at the top
        return 0 if strict else sel  # 2+ colours at the top: a tie
    if mc == 1:                      # no colour at the top
        nc = 0
        keep_c = 0
    if ms == 1:                      # no symbol at the top
        ns = 0
        keep_s = 0
    if strict and (nc > 1 or ns > 1):
        return 0
    return sel & (keep_c | keep_s)


@kernel
def norm_keep_batch(sels, reinforced, tie_discard, per_dimension, out):
    """:func:`norm_keep` over an array of Selection masks, into ``out``."""
    for i in range(sels.shape[0]):
        out[i] = norm_keep(sels[i], reinforced, tie_discard, per_dimension)


def norm_selection(cards, reinforced: bool = False, standard_tie: str = "keep_tied",
                   majority_scope: str = "pooled") -> list[str]:
    """The cards a Norm selection keeps (P3.1, P3.1a, P3.2), in the order given.

    Parameters
    ----------
    cards : 1–5 distinct cards in record notation, e.g. ``["KT", "KO", "BS", "KM", "YQ"]``.
    reinforced : the reinforced selection of the cooperative levels (P3.2).
    standard_tie : ``"keep_tied"`` (default) or ``"discard_all"``: the Part V variant for
        a tie under standard selection; ignored when ``reinforced``.
    majority_scope : ``"pooled"`` (default: one highest count over the 12 attributes,
        P3.1) or ``"per_dimension"`` (colours and symbols counted apart, P3.1a; see
        :func:`norm_keep_per_dimension` for the reading).

    >>> norm_selection(["KT", "KO", "BS", "KM", "YQ"])
    ['KT', 'KO', 'KM']
    >>> norm_selection(["RM", "RQ", "RT", "BS", "GS"], majority_scope="per_dimension")
    ['RM', 'RQ', 'RT', 'BS', 'GS']
    """
    if standard_tie not in STANDARD_TIES:
        raise ValueError(f"standard_tie must be keep_tied or discard_all, got {standard_tie!r}")
    if majority_scope not in MAJORITY_SCOPES:
        raise ValueError(f"majority_scope must be pooled or per_dimension, got {majority_scope!r}")
    cards = list(cards)
    if not 1 <= len(cards) <= 5:
        raise ValueError(f"a Norm selection takes 1–5 cards (P2.2, P3.3), got {len(cards)}")
    ids = [card_id(c) for c in cards]
    if len(set(ids)) != len(ids):
        raise ValueError(f"a Selection holds distinct cards, got {cards}")
    sel = 0
    for i in ids:
        sel |= 1 << i
    kept = int(norm_keep(np.int64(sel), bool(reinforced), standard_tie == "discard_all",
                         majority_scope == "per_dimension"))
    return [card_code(i) for i in ids if (kept >> i) & 1]
