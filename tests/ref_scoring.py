"""Brute-force reference scorer for DĒMOS showdowns (RULES.md D4.1–D4.3, X1).

Written only from RULES.md, independently of ``demos_sim``, to referee it. It is
deliberately slow and plain: every 3-card subset of the hand is tried as a run and
every 4-card subset as a Carré Harmonieux, and the best one is picked by the D4.2 key
``(score, total value of the cards left unplayed)``.

Cards use the record notation of GAME_RECORD.md: value then suit letter, ``"1S"`` …
``"10C"`` (suits ``S`` ♠, ``H`` ♥, ``D`` ♦, ``C`` ♣).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

SUITS = ("S", "H", "D", "C")
RULE_SETS = ("full", "simplified")


@lru_cache(maxsize=None)
def parse_card(card: str) -> tuple[int, str]:
    """``"10C"`` -> ``(10, "C")``. Raises ``ValueError`` on anything else (D3.0)."""
    if not isinstance(card, str) or len(card) < 2:
        raise ValueError(f"not a DĒMOS numeric card: {card!r}")
    text, suit = card[:-1], card[-1]
    if suit not in SUITS or text not in {str(v) for v in range(1, 11)}:
        raise ValueError(f"not a DĒMOS numeric card: {card!r}")
    return int(text), suit


def card_value(card: str) -> int:
    """Face value of a card (D3.0: aces are the 1s)."""
    return parse_card(card)[0]


def _check_args(cards, rules: str) -> list[str]:
    cards = list(cards)
    if rules not in RULE_SETS:
        raise ValueError(f"rules must be 'full' or 'simplified', not {rules!r}")
    if len(cards) != 5 or len(set(cards)) != 5:
        raise ValueError(f"a showdown hand is 5 distinct cards (D3.5), got {cards!r}")
    for card in cards:
        value, _ = parse_card(card)
        if rules == "simplified" and value == 1:
            raise ValueError(f"the simplified People deck has no aces (D1): {card!r}")
    return cards


def combination_score(
    cards,
    rules: str = "full",
    carre_points: int = 30,
    run_base=(12, 8, 4),
    favourite_suit: str | None = None,
    favourite_suit_bonus: int = 0,
) -> tuple[str, int] | None:
    """Kind and score of ``cards`` played as one combination, or None if it is none.

    - 3 cards of consecutive values, no wrap (D4.1): a run scoring
      ``run_base[k-1] + lowest value`` where ``k`` = number of distinct suits, plus
      ``favourite_suit_bonus`` when all 3 are in the player's favourite suit (X1).
    - 4 cards of one value, full rules only (D4.1, D8): a Carré scoring ``carre_points``.
    """
    parsed = [parse_card(c) for c in cards]
    if len(set(cards)) != len(cards):
        return None
    if len(parsed) == 3:
        values = sorted(v for v, _ in parsed)
        low = values[0]
        if values != [low, low + 1, low + 2]:  # consecutive, so 10-1-2 is not a run
            return None
        suits = {s for _, s in parsed}
        score = run_base[len(suits) - 1] + low
        if favourite_suit is not None and suits == {favourite_suit}:
            score += favourite_suit_bonus  # X1: a run entirely in the favourite suit
        return "run", score
    if len(parsed) == 4:
        if rules != "full":
            return None  # D8: four of a kind is no combination in simplified rules
        if len({v for v, _ in parsed}) == 1:
            return "carre", carre_points
        return None
    return None


def ref_candidates(
    cards,
    rules: str = "full",
    carre_points: int = 30,
    run_base=(12, 8, 4),
    favourite_suit: str | None = None,
    favourite_suit_bonus: int = 0,
) -> list[tuple[str, tuple[str, ...], int, int]]:
    """Every combination in a 5-card hand: ``(kind, cards, score, unplayed_total)``."""
    cards = _check_args(cards, rules)
    total = sum(card_value(c) for c in cards)
    found = []
    for size in (3, 4):
        for subset in combinations(cards, size):
            scored = combination_score(
                subset, rules, carre_points, run_base, favourite_suit, favourite_suit_bonus
            )
            if scored is not None:
                kind, score = scored
                unplayed = total - sum(card_value(c) for c in subset)
                found.append((kind, tuple(subset), score, unplayed))
    return found


def ref_best(
    cards,
    rules: str = "full",
    carre_points: int = 30,
    run_base=(12, 8, 4),
    favourite_suit: str | None = None,
    favourite_suit_bonus: int = 0,
) -> tuple[str | None, int, int]:
    """The combination a player plays (D4.2): ``(kind, score, unplayed_total)``.

    ``kind`` is ``"carre"``, ``"run"`` or None (no combination: the player abandons,
    D4.1, and the result is ``(None, 0, total value of the 5 cards)``).
    """
    found = ref_candidates(
        cards, rules, carre_points, run_base, favourite_suit, favourite_suit_bonus
    )
    if not found:
        return None, 0, sum(card_value(c) for c in cards)
    # D4.2: maximise (score, unplayed total). A hand holding a Carré has only two
    # distinct values, so it holds no run: the best key never mixes two kinds.
    kind, _, score, unplayed = max(found, key=lambda f: (f[2], f[3]))
    return kind, score, unplayed


def ref_best_combinations(
    cards,
    rules: str = "full",
    carre_points: int = 30,
    run_base=(12, 8, 4),
    favourite_suit: str | None = None,
    favourite_suit_bonus: int = 0,
) -> list[tuple[str, tuple[str, ...], int, int]]:
    """Every combination achieving the D4.2 maximum (several when suits differ only)."""
    found = ref_candidates(
        cards, rules, carre_points, run_base, favourite_suit, favourite_suit_bonus
    )
    if not found:
        return []
    best = max((f[2], f[3]) for f in found)
    return [f for f in found if (f[2], f[3]) == best]


def max_suit_count(cards) -> int:
    """D4.3 step 1: the largest number of cards of any one suit among the cards."""
    return max(Counter(parse_card(c)[1] for c in cards).values())


def ref_round_key(
    cards,
    rules: str = "full",
    carre_points: int = 30,
    run_base=(12, 8, 4),
    favourite_suit: str | None = None,
    favourite_suit_bonus: int = 0,
) -> tuple[int, int, int] | None:
    """D4.3 comparison key ``(score, most cards of one suit among all 5, unplayed total)``.

    None when the player abandons (no combination, D4.1): such a player cannot win.
    Higher keys win; equal keys win ex aequo (D4.3 step 3).
    """
    kind, score, unplayed = ref_best(
        cards, rules, carre_points, run_base, favourite_suit, favourite_suit_bonus
    )
    if kind is None:
        return None
    return score, max_suit_count(cards), unplayed
