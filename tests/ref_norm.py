"""Reference Norm selection for Protocole (RULES.md P3.1–P3.3), written from the text only.

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
"""

from __future__ import annotations

COLOURS = "RBGYKP"  # red blue green yellow black purple (GAME_RECORD.md)
SYMBOLS = "MQTSXO"  # moon square triangle star cross circle
ALL_CARDS = tuple(c + s for c in COLOURS for s in SYMBOLS)  # P1.1: 36 cards
STANDARD_TIES = ("keep_tied", "discard_all")  # Part V, Protocole

_CARD_SET = frozenset(ALL_CARDS)


def ref_norm_selection(cards, reinforced: bool = False, standard_tie: str = "keep_tied") -> list[str]:
    """The cards of a Selection that a Norm selection keeps (P3.1, P3.2).

    Parameters
    ----------
    cards : iterable of str
        The Selection: 0–5 distinct Protocole cards (``"KT"`` …).
    reinforced : bool
        Reinforced selection (P3.2, cooperative levels 1–3) instead of standard.
    standard_tie : {"keep_tied", "discard_all"}
        Variant ``standard_tie`` for standard selection; ignored when ``reinforced``.

    Returns
    -------
    list of str
        The kept cards (they join the Norm), in the order of ``cards``; the others leave
        the game.

    Raises
    ------
    ValueError
        On an unknown ``standard_tie``, an invalid or repeated card, or more than 5 cards.
    """
    cards = list(cards)
    if standard_tie not in STANDARD_TIES:
        raise ValueError(f"standard_tie must be one of {STANDARD_TIES}, got {standard_tie!r}")
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
    m = max(max(colour_count.values()), max(symbol_count.values()))
    attributes_at_m = sum(1 for k in colour_count.values() if k == m) + sum(
        1 for k in symbol_count.values() if k == m
    )

    # P3.2 reinforced, and P3.1 standard `discard_all`: a tie at m removes every card.
    if (reinforced or standard_tie == "discard_all") and attributes_at_m > 1:
        return []

    # P3.1: keep every card carrying a colour or a symbol whose count is m.
    return [card for card in cards if colour_count[card[0]] == m or symbol_count[card[1]] == m]
