"""Per-hand tables (demos_sim.demos.tables) and greedy's blind discard read from one;
greedy's bit-parallel useful takes against their card-by-card definition.

The table form must give exactly what the direct computation gives — the same card and
the same float — for every 5-card hand of both decks, and must not be read for a scoring
or a draw weight it was not computed for.
"""

import numpy as np
import pytest
from numba import njit

from demos_sim.bits import popcount
from demos_sim.demos import tables as T
from demos_sim.demos.policies import basic as B


def _sr(full, carre=30, rb=(12, 8, 4), bonus=0):
    return tuple(np.int64(x) for x in (full, carre, *rb, bonus))


@njit(cache=True)
def _ranks(hs, full):
    out = np.empty(hs.shape[0], np.int64)
    for i in range(hs.shape[0]):
        out[i] = T.rank5(hs[i], full)
    return out


@njit(cache=True)
def _mismatches(hs, sr, fav, weight):
    """Hands where the table form and the direct computation differ (value or card)."""
    bad = 0
    first = -1
    for i in range(hs.shape[0]):
        v1, d1 = B.blind_discard(sr, hs[i], fav, weight)
        v2, d2 = B._best_blind_discard(sr, hs[i], fav, weight)
        if v1 != v2 or d1 != d2:
            bad += 1
            if first < 0:
                first = i
    return bad, first


@njit(cache=True)
def _values(hs, sr, fav, weight):
    out = np.empty(hs.shape[0], np.float64)
    for i in range(hs.shape[0]):
        out[i] = B._best_blind_discard(sr, hs[i], fav, weight)[0]
    return out


@pytest.mark.parametrize("full,n,deck", [(1, 658_008, 40), (0, 376_992, 36)])
def test_rank5_numbers_every_hand_of_the_deck_once(full, n, deck):
    hs = T.hands5(full)
    assert hs.shape == (n,) == (T.N_FULL if full else T.N_SIMPLE,)
    assert len(np.unique(hs)) == n
    assert all(popcount(int(h)) == 5 for h in hs[:: 997])
    cards = np.bitwise_or.reduce(hs)
    aces = sum(1 << (10 * s) for s in range(4))
    assert cards == ((1 << 40) - 1 if full else ((1 << 40) - 1) & ~aces)   # D1: no aces
    assert (_ranks(hs, full) == np.arange(n)).all()
    # colex order by hand: the first hands are the lowest cards
    assert hs[0] == (0b11111 if full else 0b111110)


@pytest.mark.parametrize("full", [1, 0])
def test_blind_discard_table_equals_the_direct_computation_for_every_hand(full):
    """D3.2 / D3.3 / D3.4.3 greedy: every 5-card hand, the same card and the same value."""
    hs = T.hands5(full)
    assert B._BF1.shape[0] == T.N_FULL and B._BS1.shape[0] == T.N_SIMPLE   # tables in use
    bad, first = _mismatches(hs, _sr(full), -1, B.GREEDY_PARAMS[B.P_DRAW_WEIGHT])
    assert bad == 0, f"first differing hand {hs[first]:#x}"


@pytest.mark.parametrize("change", [
    {"carre": 20}, {"rb": (12, 9, 4)}, {"rb": (4, 8, 12)}, {"fav": 1, "bonus": 5},
    {"weight": 0.5},
])
def test_the_table_is_read_only_for_its_scoring_and_weight(change):
    """With another carre_points, run_base, a favourite suit (X1) or draw weight the
    answers differ from the standard ones for some hands, and the table is not read."""
    full = 1
    hs = T.hands5(full)[::7]
    weight = change.get("weight", B.GREEDY_PARAMS[B.P_DRAW_WEIGHT])
    fav = change.get("fav", -1)
    sr = _sr(full, change.get("carre", 30), change.get("rb", (12, 8, 4)), change.get("bonus", 0))
    std = _values(hs, _sr(full), -1, B.GREEDY_PARAMS[B.P_DRAW_WEIGHT])
    other = _values(hs, sr, fav, weight)
    assert (std != other).any()           # the change matters: a stale table would show
    assert _mismatches(hs, sr, fav, weight) == (0, -1)


def test_hands_of_other_sizes_are_computed_directly():
    sr = _sr(1)
    for h in (0b1111, 0b111111, (1 << 0) | (1 << 1) | (1 << 2) | (1 << 12)):
        assert B.blind_discard(sr, np.int64(h), -1, 0.35) == B._best_blind_discard(
            sr, np.int64(h), -1, 0.35)


def test_tables_are_kept_on_disk_and_built_once(monkeypatch):
    calls = []

    def kernel(full):
        calls.append(full)
        return np.full((1, T.N_FULL if full else T.N_SIMPLE), 7 + full, np.uint8)

    kernel.__module__ = __name__
    try:
        a = T.build_tables(kernel, 1)
        b = T.build_tables(kernel, 1)
        assert calls == [1, 0]                       # the second came from the disk
        assert (a[0] == 8).all() and (b[1] == 7).all() and b[0].shape == (1, T.N_FULL)
    finally:
        from pathlib import Path

        for f in (Path(T.__file__).parent / "__pycache__").glob(f"{__name__}.kernel-*.npz"):
            f.unlink()


# ------------------------------------------------------------------ greedy's useful takes
@njit(cache=True)
def _useful_ref(h, table, full):
    """The face-up cards t for which some run of 3 values (D4.1) holds t's value and two
    values of ``h``, or (full rules) ``h`` holds t's value in three suits (a Carré with t):
    card by card, window by window."""
    out = 0
    for t in range(40):
        if not (table >> t) & 1:
            continue
        b = t % 10
        ok = False
        for lo in range(max(0, b - 2), min(b, 7) + 1):         # windows lo..lo+2 holding b
            have = True
            for v in range(lo, lo + 3):
                held = False
                for s in range(4):
                    held = held or (h >> (10 * s + v)) & 1 == 1
                if v != b and not held:
                    have = False
            ok = ok or have
        suits = 0
        for s in range(4):
            suits += (h >> (10 * s + b)) & 1
        if full and suits >= 3:
            ok = True
        if ok:
            out |= 1 << t
    return out


@njit(cache=True)
def _useful_mismatches(n, seed):
    np.random.seed(seed)
    bad = 0
    for _ in range(n):
        cards = np.random.permutation(40)
        k = 5 + np.random.randint(0, 2)                     # 5 cards, or 6 (a take held)
        h = 0
        for i in range(k):
            h |= 1 << cards[i]
        table = 0
        for i in range(k, k + np.random.randint(0, 13)):
            table |= 1 << cards[i]
        for full in (True, False):
            if B._useful_takes(h, table, full) != _useful_ref(h, table, full):
                bad += 1
    return bad


def test_useful_takes_equals_the_card_by_card_definition():
    """greedy's D3.3 / D3.4.3 take candidates (bit-parallel) against the definition,
    card by card, on 20,000 random hands and tables (5 or 6 cards, 0-12 face up)."""
    assert _useful_mismatches(20_000, 3) == 0
    # hand-made: 7S 8S 4H 4D 4C — 9x and 6x complete 7-8; 4S a Carré; 2x nothing
    h = sum(1 << c for c in (6, 7, 13, 23, 33))
    table = sum(1 << c for c in (18, 5, 3, 1))              # 9H, 6S, 4S, 2S
    assert B._useful_takes(np.int64(h), np.int64(table), True) == (1 << 18) | (1 << 5) | (1 << 3)
    assert B._useful_takes(np.int64(h), np.int64(table), False) == (1 << 18) | (1 << 5)
