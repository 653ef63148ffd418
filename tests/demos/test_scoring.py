"""D4.1–D4.2: the kernel scorer against an independent brute-force scorer, on every hand.

All C(40,5) = 658,008 full-rules hands and all C(36,5) = 376,992 simplified hands (no
aces): kind, score and unplayed total must agree exactly, and the cards the kernel says
it plays must form a combination of that kind and score.
"""

import itertools

import numpy as np
import pytest
from ref_scoring import combination_score, ref_best

from demos_sim.cards import SUITS, card_code
from demos_sim.demos.scoring import best_combination, best_combinations

KIND = {0: None, 1: "run", 2: "carre"}


def _all_hands(ids):
    return np.array(list(itertools.combinations(ids, 5)), dtype=np.int64)


def _check_all(hands, rules, **variants):
    out = best_combinations(hands, rules=rules, **variants)
    vkw = {k: variants[k] for k in ("carre_points", "run_base") if k in variants}
    if "run_base" in vkw:
        vkw["run_base"] = tuple(vkw["run_base"])
    bad = []
    for i, h in enumerate(hands):
        codes = [card_code(int(c)) for c in h]
        kind, score, unpl = ref_best(codes, rules=rules, **vkw)
        got = (KIND[int(out["kind"][i])], int(out["score"][i]), int(out["unplayed_total"][i]))
        if got != (kind, score, unpl):
            bad.append((codes, got, (kind, score, unpl)))
            if len(bad) > 5:
                break
        cm = int(out["combo_mask"][i])
        hm = int(np.bitwise_or.reduce(np.left_shift(1, h)))
        assert cm & ~hm == 0, codes          # the combination is drawn from the hand
        ncards = bin(cm).count("1")
        assert ncards == {None: 0, "run": 3, "carre": 4}[kind], codes
        if kind is not None:                 # the cards played score what is claimed
            played = [card_code(c) for c in range(40) if (cm >> c) & 1]
            assert combination_score(played, rules, **vkw) == (kind, score), codes
    assert not bad, bad


@pytest.mark.parametrize("rules", ["full", "simplified"])
def test_D4_every_hand_matches_reference(rules):
    ids = [c for c in range(40) if rules == "full" or c % 10 != 0]
    hands = _all_hands(ids)
    assert len(hands) == {"full": 658_008, "simplified": 376_992}[rules]
    _check_all(hands, rules)


def test_D4_variants_on_a_sample():
    """carre_points and a non-monotone run_base (more suits score more) on 40,000 hands."""
    rng = np.random.default_rng(3)
    hands = np.array([rng.choice(40, 5, replace=False) for _ in range(40_000)], np.int64)
    _check_all(hands, "full", carre_points=19, run_base=[4, 8, 12])
    _check_all(hands, "full", carre_points=0, run_base=[0, 0, 0])


def test_D4_scalar_and_vectorised_agree():
    rng = np.random.default_rng(4)
    for _ in range(300):
        h = rng.choice(40, 5, replace=False)
        codes = [card_code(int(c)) for c in h]
        fav = SUITS[int(rng.integers(4))]
        one = best_combination(codes, favourite_suit=fav, favourite_suit_bonus=10)
        many = best_combinations(h[None, :], favourite_suits=[SUITS.index(fav)],
                                 favourite_suit_bonus=10)
        assert (one.score, one.unplayed_total) == (int(many["score"][0]),
                                                   int(many["unplayed_total"][0]))
        ref = ref_best(codes, favourite_suit=fav, favourite_suit_bonus=10)
        assert (one.kind, one.score, one.unplayed_total) == ref


def _ref_best_any(codes, fav, bonus, run_base):
    """D4.2 over every 3- and 4-card subset of a hand of any size (the brute force)."""
    total = sum(int(c[:-1]) for c in codes)
    best = (None, 0, total)
    for size in (3, 4):
        for sub in itertools.combinations(codes, size):
            r = combination_score(sub, "full", 30, run_base, fav, bonus)
            if r is not None:
                key = (r[1], total - sum(int(c[:-1]) for c in sub))
                if best[0] is None or key > best[1:]:
                    best = (r[0], *key)
    return best


@pytest.mark.parametrize("run_base", [(12, 8, 4), (10, 10, 4), (4, 8, 12)])
def test_D4_six_card_hands_with_favourite_suits(run_base):
    """The bots score 6-card hands (a hand and a card they could take) and favourite
    suits (X1): 4,000 random hands of 6 against the brute force, for the default
    run_base, one with a one-suit / two-suit tie (10, 10: a window held in one suit and
    in two must score once), and a non-monotone one; the cards played score the claim."""
    from demos_sim.demos.scoring import best_combo

    rng = np.random.default_rng(6)
    for _ in range(4000):
        ids = rng.choice(40, 6, replace=False)
        codes = [card_code(int(c)) for c in ids]
        f = int(rng.integers(-1, 4))
        bonus = int(rng.choice([0, 3, 9]))
        fav = SUITS[f] if f >= 0 else None
        mask = int(np.bitwise_or.reduce(np.left_shift(np.int64(1), ids.astype(np.int64))))
        kd, sc, cm = best_combo(mask, (1, 30, *run_base, bonus), f)
        total = sum(int(c[:-1]) for c in codes)
        played = [card_code(c) for c in range(40) if (cm >> c) & 1]
        got = (KIND[kd], sc, total - sum(int(c[:-1]) for c in played))
        assert got == _ref_best_any(codes, fav, bonus, run_base), (codes, fav, bonus)
        if kd:
            assert cm & ~mask == 0
            assert combination_score(played, "full", 30, run_base, fav, bonus) == (KIND[kd], sc)
