"""Reference Norm selection for Protocole (RULES.md P3.1–P3.3, P3.1a), written from the text only.

Independent of ``demos_sim``: the engine's Norm selection is checked against this, and the
Protocole referee (tests/referee_protocole.py) replays records with it.

Card notation (GAME_RECORD.md): colour letter then symbol letter, e.g. ``"KT"``.

Readings
--------
- P3.1 counts the 6 colours and the 6 symbols over the Selection; ``m`` is the highest
  of those 12 counts. An attribute "reaches m" when its count is ``m``.
- Standard ``keep_tied`` keeps every card carrying a colour or a symbol whose count is
  ``m`` (with a tie, cards carrying any of the tied attributes are kept).
- Standard ``discard_all`` and reinforced selection (P3.2) say the same thing: when more
  than one attribute reaches ``m`` every card leaves; with exactly one, the cards
  carrying it are kept. So the two rules give the same result.
- A single-card Selection goes whole to the Norm under every rule (P3.1, P3.2), even
  though its colour and its symbol both reach ``m`` = 1. An empty Selection keeps nothing.
- The kept cards are returned in the order of ``cards``; the order carries no meaning
  (GAME_RECORD.md: kept cards are a set).

P3.1a, variant ``majority_scope`` (contract version 2)
- ``pooled`` (default) is the reading above: one highest count over the 12 attributes.
- ``per_dimension``: the colours and the symbols are counted apart. ``mc`` is the
  highest colour count, ``ms`` the highest symbol count. The colours "at the top" are
  the colours counted ``mc`` and the symbols at the top the symbols counted ``ms``,
  except that a dimension whose highest count is 1 (nothing repeats in it) puts nothing
  at the top, unless ``mc`` and ``ms`` are both 1: then every colour and every symbol
  present in the Selection is at the top.
- Every card carrying an attribute at the top is kept. "A tie" is two or more colours
  at the top, or two or more symbols at the top; one colour plus one symbol at the top
  is not a tie. On a tie, standard ``keep_tied`` keeps the cards carrying any attribute
  at the top; standard ``discard_all`` and reinforced selection (P3.1a: "Reinforced
  selection (P3.2) removes every card on such a tie") remove every card. Without a tie
  reinforced selection keeps what standard selection keeps.
- With ``mc`` = ``ms`` = 1 and 2+ cards there are 2+ colours at the top: a tie. A single
  card still goes whole to the Norm (P3.1 "under every selection rule").
"""

from __future__ import annotations

COLOURS = "RBGYKP"  # red blue green yellow black purple (GAME_RECORD.md)
SYMBOLS = "MQTSXO"  # moon square triangle star cross circle
ALL_CARDS = tuple(c + s for c in COLOURS for s in SYMBOLS)  # P1.1: 36 cards
STANDARD_TIES = ("keep_tied", "discard_all")  # Part V, Protocole
MAJORITY_SCOPES = ("pooled", "per_dimension")  # P3.1a

_CARD_SET = frozenset(ALL_CARDS)


def ref_norm_selection(cards, reinforced: bool = False, standard_tie: str = "keep_tied",
                       majority_scope: str = "pooled") -> list[str]:
    """The cards of a Selection that a Norm selection keeps (P3.1, P3.1a, P3.2).

    Parameters
    ----------
    cards : iterable of str
        The Selection: 0–5 distinct Protocole cards (``"KT"`` …).
    reinforced : bool
        Reinforced selection (P3.2, cooperative levels 1–3) instead of standard.
    standard_tie : {"keep_tied", "discard_all"}
        Variant ``standard_tie`` for standard selection; ignored when ``reinforced``.
    majority_scope : {"pooled", "per_dimension"}
        Variant ``majority_scope`` (P3.1a).

    Returns
    -------
    list of str
        The kept cards (they join the Norm), in the order of ``cards``; the others leave
        the game.

    Raises
    ------
    ValueError
        On an unknown ``standard_tie`` or ``majority_scope``, an invalid or repeated card, or more than 5 cards.
    """
    cards = list(cards)
    if standard_tie not in STANDARD_TIES:
        raise ValueError(f"standard_tie must be one of {STANDARD_TIES}, got {standard_tie!r}")
    if majority_scope not in MAJORITY_SCOPES:
        raise ValueError(f"majority_scope must be one of {MAJORITY_SCOPES}, got {majority_scope!r}")
    if len(cards) > 5:
        raise ValueError(f"a Selection holds at most 5 cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"repeated card in {cards}")
    for card in cards:
        if card not in _CARD_SET:
            raise ValueError(f"not a Protocole card: {card!r}")

    # P3.1 / P3.2: a single card goes whole to the Norm under every rule.
    if len(cards) <= 1:
        return cards

    # P3.1: count each colour and each symbol over the Selection.
    colour_count: dict[str, int] = {}
    symbol_count: dict[str, int] = {}
    for card in cards:
        colour_count[card[0]] = colour_count.get(card[0], 0) + 1
        symbol_count[card[1]] = symbol_count.get(card[1], 0) + 1
    strict = reinforced or standard_tie == "discard_all"
    if majority_scope == "per_dimension":
        return _per_dimension(cards, colour_count, symbol_count, strict)

    m = max(max(colour_count.values()), max(symbol_count.values()))
    attributes_at_m = sum(1 for k in colour_count.values() if k == m) + sum(
        1 for k in symbol_count.values() if k == m
    )

    # P3.2 reinforced, and P3.1 standard `discard_all`: a tie at m removes every card.
    if (reinforced or standard_tie == "discard_all") and attributes_at_m > 1:
        return []

    # P3.1: keep every card carrying a colour or a symbol whose count is m.
    return [card for card in cards if colour_count[card[0]] == m or symbol_count[card[1]] == m]


def _per_dimension(cards, colour_count, symbol_count, strict):
    """P3.1a ``per_dimension`` on a Selection of 2+ cards (readings in the module text)."""
    mc = max(colour_count.values())
    ms = max(symbol_count.values())
    if mc == 1 and ms == 1:
        # Nothing repeats in either dimension: every attribute present is at the top.
        top_colours = set(colour_count)
        top_symbols = set(symbol_count)
    else:
        # A dimension whose highest count is 1 has no attribute at the top.
        top_colours = {c for c, k in colour_count.items() if k == mc} if mc > 1 else set()
        top_symbols = {s for s, k in symbol_count.items() if k == ms} if ms > 1 else set()
    tie = len(top_colours) > 1 or len(top_symbols) > 1
    if tie and strict:  # standard discard_all, reinforced selection: remove every card
        return []
    return [card for card in cards if card[0] in top_colours or card[1] in top_symbols]
