"""A plain pure-Python reading of one DĒMOS round: a speed reference only.

This is *not* part of the simulator and imports nothing from ``demos_sim`` (nor numpy or
numba). It plays one full-rules DĒMOS round (RULES.md D3–D4) for 4 individual players
with the greedy policy on every seat, written the idiomatic way — cards are
``(value, suit)`` tuples, hands are lists, the deck is shuffled with ``random.shuffle``
and combinations are found with ``itertools.combinations`` — so that its rounds per
second can be set next to the numba engine's. The greedy decisions mirror the engine's
``greedy`` policy, so the work done per round is comparable.

Run ``python benchmarks/pure_python_round.py [seconds]`` to print the rate.

Rules followed (RULES.md Part D):

- D3.1 40 cards (values 1–10 × ♠ ♥ ♦ ♣), shuffled; 5 cards each, dealt one at a time in
  action order (dealer's left first); draws take the next card.
- D3.2 public discard: each, in action order, discards one card face up, then draws.
- D3.3 secret discard (optional in the full rules): pass, or discard one card face down,
  then draw or take one public discard still on the table.
- D3.4 unanimous discard: veto check in action order (one veto per player per game); if
  not cancelled, the secret discards turn face up and each, in action order, discards
  one card face down (out of the round) then draws or takes one visible discard.
- D4.1–D4.3 showdown: Carré Harmonieux = 30, run = run_base[k] + lowest value
  (run_base = {1: 12, 2: 8, 3: 4} by number of distinct suits, no wrap); the combination
  maximising (score, unplayed total) is played; the round winners are the highest
  (score, largest single-suit count, unplayed total), ties all winning.

Greedy policy (as in ``demos_sim.demos.policies.basic``, parameters 19 / 0.35):

- the *exact value* of a known 5-card hand is its score plus tie-break fractions
  (0.01 × largest suit count + 0.0005 × unplayed total), 0 with no combination;
- the *estimate* of 4 kept cards plus one blind draw is the value of a combination
  already among them, else 0.35 × the best run one card short (a window of 3
  consecutive values with 2 present, priced as a 2-suit run when the two share a suit,
  a 3-suit run otherwise), or 0.35 × half a Carré when three cards share a value;
- public discard: the card whose removal leaves the best estimate;
- secret / unanimous: the best of pass (exact value of the hand as it is; secret turn
  only), (discard d, draw) = estimate of the 4 kept cards, and (discard d, take t) =
  exact value of the new hand, looked at only for face-up cards t that can join a run or
  a Carré with the hand; ties go to discarding the lower card (then to the first option
  met: pass, then per discard the draw before the takes);
- veto: when the hand as it is already scores at least 19.
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations

N_PLAYERS = 4
SUITS = ("S", "H", "D", "C")
VALUES = tuple(range(1, 11))
CARRE_POINTS = 30
RUN_BASE = {1: 12, 2: 8, 3: 4}
VETO_AT = 19.0
DRAW_WEIGHT = 0.35
ROUNDS_PER_GAME = 14        # the vetoes are reset this often (about one game of rounds)

Card = tuple[int, str]


# ------------------------------------------------------------------ D4 scoring
def best_combo(hand: list[Card]) -> tuple[int, int, tuple[Card, ...]] | None:
    """Best combination of ``hand`` (D4.1–D4.2): ``(score, unplayed total, cards)``.

    Every 4-card subset is tried as a Carré and every 3-card subset as a run; the one
    maximising (score, total value of the cards left unplayed) wins. None when the hand
    holds no combination (the player abandons).
    """
    total = sum(v for v, _ in hand)
    best = None
    for four in combinations(hand, 4):
        if len({v for v, _ in four}) == 1:
            key = (CARRE_POINTS, total - 4 * four[0][0], four)
            if best is None or key[:2] > best[:2]:
                best = key
    for trio in combinations(hand, 3):
        lo, mid, hi = sorted(v for v, _ in trio)
        if mid == lo + 1 and hi == lo + 2:
            score = RUN_BASE[len({s for _, s in trio})] + lo
            key = (score, total - lo - mid - hi, trio)
            if best is None or key[:2] > best[:2]:
                best = key
    return best


def max_suit_count(hand: list[Card]) -> int:
    """D4.3 step 1: the largest number of cards of one suit in the hand."""
    counts = {}
    for _, s in hand:
        counts[s] = counts.get(s, 0) + 1
    return max(counts.values())


def round_key(hand: list[Card]) -> tuple[int, int, int] | None:
    """D4.3 ordering key (score, largest suit count, unplayed total); None = abandons."""
    combo = best_combo(hand)
    if combo is None:
        return None
    return combo[0], max_suit_count(hand), combo[1]


# ------------------------------------------------------------------ greedy values
def value5(hand: list[Card]) -> float:
    """Exact value of a known 5-card hand: score, then the D4.3 tie-breaks as fractions."""
    combo = best_combo(hand)
    if combo is None:
        return 0.0
    return combo[0] + 0.01 * max_suit_count(hand) + 0.0005 * combo[1]


def value4(kept: list[Card]) -> float:
    """Estimated value of 4 kept cards plus one blind draw."""
    combo = best_combo(kept)
    if combo is not None:
        return combo[0] + 0.0005 * (combo[1] + 5)
    values = {v for v, _ in kept}
    best = 0.0
    for lo in range(1, 9):                       # windows lo, lo+1, lo+2 (no wrap)
        window = {lo, lo + 1, lo + 2}
        have = values & window
        if len(have) < 2:
            continue
        k = 3
        for s in SUITS:
            in_suit = {v for v, t in kept if t == s and v in window}
            if in_suit and in_suit == have:
                k = 2                            # the two share a suit
        best = max(best, (RUN_BASE[k] + lo) * DRAW_WEIGHT)
    counts = {}
    for v, _ in kept:
        counts[v] = counts.get(v, 0) + 1
    if max(counts.values()) >= 3:                # three of a value: a Carré one card short
        best = max(best, CARRE_POINTS * DRAW_WEIGHT * 0.5)
    return best


def useful_takes(hand: list[Card], table: list[Card]) -> list[Card]:
    """The face-up cards that can join a run or a Carré with cards of ``hand``."""
    values = {v for v, _ in hand}
    out = []
    for card in table:
        v = card[0]
        with_t = values | {v}
        joins = any({lo, lo + 1, lo + 2} <= with_t for lo in (v - 2, v - 1, v))
        if not joins and sum(1 for w, _ in hand if w == v) >= 3:
            joins = True
        if joins:
            out.append(card)
    return out


def without(hand: list[Card], card: Card) -> list[Card]:
    return [c for c in hand if c != card]


def greedy_public(hand: list[Card]) -> Card:
    """D3.2: the discard leaving the best 4-card estimate (lower cards on ties)."""
    return max(hand, key=lambda d: value4(without(hand, d)) + 0.0001 * (11 - d[0]))


def greedy_exchange(hand: list[Card], table: list[Card], may_pass: bool):
    """D3.3 / D3.4.3: ``None`` (pass) or ``(discard, take)`` with ``take`` None = deck."""
    useful = useful_takes(hand, table)
    best_v = value5(hand) if may_pass else -1.0
    best = None
    for d in hand:
        kept = without(hand, d)
        tie = 0.0001 * (11 - d[0])
        v = value4(kept) + tie
        if v > best_v:
            best_v, best = v, (d, None)
        for t in useful:
            v = value5(kept + [t]) + tie
            if v > best_v:
                best_v, best = v, (d, t)
    return best


# ------------------------------------------------------------------ one round
def play_round_full(rng: random.Random, dealer: int, vetoes: list[int]):
    """One round; returns ``(hands, scores, winners, vetoed)``. ``vetoes`` is updated."""
    order = [(dealer + 1 + j) % N_PLAYERS for j in range(N_PLAYERS)]
    deck = [(v, s) for s in SUITS for v in VALUES]
    rng.shuffle(deck)
    deck.reverse()                               # deck[-1] is the top card: pop() draws
    hands = [[] for _ in range(N_PLAYERS)]
    for _ in range(5):                           # D3.1: one card at a time, action order
        for p in order:
            hands[p].append(deck.pop())

    public = []                                  # D3.2: face-up discards on the table
    for p in order:
        d = greedy_public(hands[p])
        hands[p].remove(d)
        public.append(d)
        hands[p].append(deck.pop())

    secret = []                                  # D3.3: face-down discards
    for p in order:
        choice = greedy_exchange(hands[p], public, may_pass=True)
        if choice is None:
            continue
        d, t = choice
        hands[p].remove(d)
        secret.append(d)
        if t is None:
            hands[p].append(deck.pop())
        else:
            public.remove(t)
            hands[p].append(t)

    vetoed = False                               # D3.4.1: veto check in action order
    for p in order:
        if vetoes[p] > 0 and value5(hands[p]) >= VETO_AT:
            vetoes[p] -= 1
            vetoed = True
            break
    if not vetoed:                               # D3.4.2–D3.4.3
        visible = public + secret
        for p in order:
            d, t = greedy_exchange(hands[p], visible, may_pass=False)
            hands[p].remove(d)                   # out of the round
            if t is None:
                hands[p].append(deck.pop())
            else:
                visible.remove(t)
                hands[p].append(t)

    keys = [round_key(h) for h in hands]         # D4 showdown
    scores = [0 if k is None else k[0] for k in keys]
    contenders = [k for k in keys if k is not None]
    top = max(contenders) if contenders else None
    winners = [p for p in order if top is not None and keys[p] == top]
    return hands, scores, winners, vetoed


def play_round(rng: random.Random, dealer: int, vetoes: list[int]) -> list[int]:
    """Play one round and return the round scores by seat (0 = abandoned)."""
    return play_round_full(rng, dealer, vetoes)[1]


def rounds_per_second(seconds: float = 2.0, seed: int = 1) -> float:
    """Play rounds back to back for about ``seconds`` and return rounds per second."""
    rng = random.Random(seed)
    vetoes = [1] * N_PLAYERS
    n = 0
    start = time.perf_counter()
    while True:
        if n % ROUNDS_PER_GAME == 0:
            vetoes = [1] * N_PLAYERS
        play_round(rng, n % N_PLAYERS, vetoes)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rate = rounds_per_second(secs)
    print(f"pure Python DĒMOS round (4 players, full rules, greedy): {rate:,.0f} rounds/s")
