"""Card notation <-> small integers, at the edges only (STYLE.md habit 2).

DĒMOS numeric cards: id = suit * 10 + (value - 1), suits in the order S H D C, so a hand
is a 40-bit mask and suit ``s`` occupies bits ``10*s … 10*s+9`` (value ``v`` at bit
``v-1``). Figures: id = type * 4 + colour with types E=0, L=1, J=2 and colours as suits;
the two Media are ids 12 and 13 (both written ``"M"``).
"""

from __future__ import annotations

SUITS = "SHDC"
FIG_TYPES = "ELJ"
MEDIA_IDS = (12, 13)
N_FIGURES_FULL = 14
N_FIGURES_SIMPLIFIED = 12


def card_id(code: str) -> int:
    """``"7S"`` -> 6 (value 7 of ♠); raises ``ValueError`` on anything else."""
    if not isinstance(code, str) or len(code) < 2 or code[-1] not in SUITS:
        raise ValueError(f"not a DĒMOS card: {code!r}")
    try:
        value = int(code[:-1])
    except ValueError:
        raise ValueError(f"not a DĒMOS card: {code!r}") from None
    if not 1 <= value <= 10 or code[:-1] != str(value):
        raise ValueError(f"not a DĒMOS card: {code!r}")
    return SUITS.index(code[-1]) * 10 + value - 1


def card_code(cid: int) -> str:
    """0 -> ``"1S"``, 39 -> ``"10C"``."""
    return f"{cid % 10 + 1}{SUITS[cid // 10]}"


def card_value(cid: int) -> int:
    return cid % 10 + 1


def figure_code(fid: int) -> str:
    """0 -> ``"ES"``, 11 -> ``"JC"``, 12 and 13 -> ``"M"``."""
    if fid in MEDIA_IDS:
        return "M"
    return FIG_TYPES[fid // 4] + SUITS[fid % 4]


def figure_id(code: str) -> int:
    if code == "M":
        return MEDIA_IDS[0]
    if len(code) != 2 or code[0] not in FIG_TYPES or code[1] not in SUITS:
        raise ValueError(f"not a DĒMOS figure: {code!r}")
    return FIG_TYPES.index(code[0]) * 4 + SUITS.index(code[1])


def mask_of(codes) -> int:
    m = 0
    for c in codes:
        m |= 1 << card_id(c)
    return m


def codes_of(mask: int) -> list[str]:
    return [card_code(i) for i in range(40) if (mask >> i) & 1]
