"""Protocole card notation <-> small integers, at the edges only (STYLE.md habit 2).

P1.1: 36 cards, colour x symbol. Record notation (GAME_RECORD.md) is the colour letter
then the symbol letter, colours ``R B G Y K P``, symbols ``M Q T S X O``; the id is
``colour * 6 + symbol`` in those orders, so ``"RM"`` = 0, ``"RQ"`` = 1, ``"BM"`` = 6,
``"PO"`` = 35, and a set of cards is a 36-bit mask.
"""

from __future__ import annotations

COLOURS = "RBGYKP"
SYMBOLS = "MQTSXO"


def card_id(code: str) -> int:
    """``"KT"`` -> 26 (black = 4, triangle = 2); raises ``ValueError`` on anything else."""
    if (not isinstance(code, str) or len(code) != 2 or code[0] not in COLOURS
            or code[1] not in SYMBOLS):
        raise ValueError(f"not a Protocole card: {code!r}")
    return COLOURS.index(code[0]) * 6 + SYMBOLS.index(code[1])


def card_code(cid: int) -> str:
    """0 -> ``"RM"``, 35 -> ``"PO"``."""
    if not 0 <= cid < 36:
        raise ValueError(f"not a Protocole card id: {cid!r}")
    return COLOURS[cid // 6] + SYMBOLS[cid % 6]


def mask_of(codes) -> int:
    m = 0
    for c in codes:
        m |= 1 << card_id(c)
    return m


def codes_of(mask: int) -> list[str]:
    return [card_code(i) for i in range(36) if (mask >> i) & 1]
