"""Self-check of the Protocole referee (tests/referee_protocole.py) and reference Norm
selection (tests/ref_norm.py).

Shows that the referee passes legal games and fails illegal ones:

- ``ref_norm_selection`` on Selections computed by hand (RULES.md P3.1–P3.3, P3.1a), and
  against a second, differently written selection over many Selections, under both
  ``majority_scope`` values;
- the rule helpers (P1.2, P4.1, P4.3, P4.4, P5.3) on hand-made cases;
- a tiny scripted player (``play_game`` below) that plays legal games by RULES.md Part P
  and writes GAME_RECORD.md records, in every mode, level and number of players;
- every such record audits clean, and one-field mutations of them are each reported
  with the rule they break;
- malformed records give violations, never exceptions.

Nothing here imports ``demos_sim``.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections import Counter
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # also when tests/ is a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ref_norm import ALL_CARDS, ref_norm_selection
from referee_protocole import (
    audit_protocole,
    common_attributes,
    each_winners,
    foyer_passes,
    legal_removals,
    next_holder,
    reinforced_count,
    reinforced_passes,
)

COLS = "RBGYKP"
SYMS = "MQTSXO"
DECK36 = [c + s for c in COLS for s in SYMS]
DEFAULTS = {"standard_tie": "keep_tied", "reinforced_scope": "each_player", "round_cap": 100,
            "majority_scope": "pooled"}
PER_DIM = {"majority_scope": "per_dimension"}  # P3.1a
SETUPS = [("each", None, n) for n in (2, 3, 4)] + [("coop", lv, n) for lv in (1, 2, 3) for n in (2, 3, 4)]


# ---------------------------------------------------------------------------------------
# ref_norm_selection, by hand


def _set(cards):
    return sorted(cards)


def test_p31_example_five_distinct_colours_and_symbols():
    sel = ["RM", "BQ", "GT", "YS", "KX"]  # every count is 1: 10 attributes tie at m = 1
    assert _set(ref_norm_selection(sel)) == _set(sel)  # keep_tied keeps it whole
    assert ref_norm_selection(sel, standard_tie="discard_all") == []
    assert ref_norm_selection(sel, reinforced=True) == []


def test_record_example_black_majority():
    # GAME_RECORD.md's example: black counted 3, nothing else reaches 3.
    sel = ["KT", "KO", "BS", "KM", "YQ"]
    for kw in ({}, {"standard_tie": "discard_all"}, {"reinforced": True}):
        assert _set(ref_norm_selection(sel, **kw)) == ["KM", "KO", "KT"]


def test_only_the_highest_count_keeps():
    # red 3, moon 2: only red cards are kept; BM carries moon (2 < 3) and leaves.
    sel = ["RM", "RQ", "RT", "BM", "YS"]
    for kw in ({}, {"standard_tie": "discard_all"}, {"reinforced": True}):
        assert _set(ref_norm_selection(sel, **kw)) == ["RM", "RQ", "RT"]


def test_colour_and_symbol_tie():
    # red 2, moon 2: keep_tied keeps cards with red or moon; a tie removes all otherwise.
    sel = ["RM", "RQ", "BM", "GT", "YS"]
    assert _set(ref_norm_selection(sel)) == ["BM", "RM", "RQ"]
    assert ref_norm_selection(sel, standard_tie="discard_all") == []
    assert ref_norm_selection(sel, reinforced=True) == []
    # red 3, moon 3 (RM carries both): keep_tied keeps all five.
    sel = ["RM", "RQ", "RT", "BM", "GM"]
    assert _set(ref_norm_selection(sel)) == _set(sel)
    assert ref_norm_selection(sel, reinforced=True) == []


def test_two_colours_tie():
    sel = ["RM", "RQ", "BT", "BS", "GX"]  # red 2, blue 2
    assert _set(ref_norm_selection(sel)) == ["BS", "BT", "RM", "RQ"]
    assert ref_norm_selection(sel, standard_tie="discard_all") == []


def test_single_card_goes_whole_to_the_norm():
    for kw in ({}, {"standard_tie": "discard_all"}, {"reinforced": True}):
        assert ref_norm_selection(["KT"], **kw) == ["KT"]


def test_small_final_selections():
    # P3.3: 1–4 cards are resolved the same way.
    assert _set(ref_norm_selection(["RM", "BQ"])) == ["BQ", "RM"]  # four attributes at m = 1
    assert ref_norm_selection(["RM", "BQ"], reinforced=True) == []
    assert _set(ref_norm_selection(["RM", "RQ"], reinforced=True)) == ["RM", "RQ"]  # red alone at 2
    assert _set(ref_norm_selection(["RM", "RQ", "BT", "GS"], standard_tie="discard_all")) == ["RM", "RQ"]
    assert ref_norm_selection(["RM", "BM", "GQ", "GT"], reinforced=True) == []  # moon 2, green 2
    assert ref_norm_selection([]) == []


# P3.1a, majority_scope = per_dimension, by hand
PD = dict(majority_scope="per_dimension")
RULES3 = ({}, {"standard_tie": "discard_all"}, {"reinforced": True})


def test_p31a_example_five_red_cards():
    # P3.1a's example: red 5, every symbol 1 -> the symbols take no part, red alone at the
    # top, no tie: all five kept under every rule.
    sel = ["RM", "RQ", "RT", "RS", "RX"]
    for kw in RULES3:
        assert ref_norm_selection(sel, **kw, **PD) == sel


def test_p31a_one_colour_and_one_symbol_is_not_a_tie():
    # red 3, star 2: red and star at the top -> all five, under every rule (pooled: red
    # alone at m = 3 -> RM RQ RT).
    sel = ["RM", "RQ", "RT", "BS", "GS"]
    for kw in RULES3:
        assert ref_norm_selection(sel, **kw, **PD) == sel
    assert _set(ref_norm_selection(sel)) == ["RM", "RQ", "RT"]
    # red 2, moon 2: red and moon at the top, no tie -> RM RQ BM (pooled discard_all: [])
    sel = ["RM", "RQ", "BM", "GT", "YS"]
    for kw in RULES3:
        assert _set(ref_norm_selection(sel, **kw, **PD)) == ["BM", "RM", "RQ"]


def test_p31a_two_colours_or_two_symbols_tie():
    sel = ["RM", "RQ", "BT", "BS", "GX"]  # red 2, blue 2; symbols all 1 (none at the top)
    assert _set(ref_norm_selection(sel, **PD)) == ["BS", "BT", "RM", "RQ"]
    assert ref_norm_selection(sel, standard_tie="discard_all", **PD) == []
    assert ref_norm_selection(sel, reinforced=True, **PD) == []
    sel = ["RM", "BM", "GQ", "YQ", "KT"]  # colours all 1 (none at the top); moon 2, square 2
    assert _set(ref_norm_selection(sel, **PD)) == ["BM", "GQ", "RM", "YQ"]
    assert ref_norm_selection(sel, reinforced=True, **PD) == []


def test_p31a_every_count_one_is_a_tie():
    for sel in (["RM", "BQ", "GT", "YS", "KX"], ["RM", "BQ"]):
        assert ref_norm_selection(sel, **PD) == sel  # every attribute at the top: keep_tied
        assert ref_norm_selection(sel, standard_tie="discard_all", **PD) == []
        assert ref_norm_selection(sel, reinforced=True, **PD) == []


def test_p31a_a_dimension_at_one_has_nothing_at_the_top():
    # colours all 1, moon 2 alone: RM BM kept under every rule; a single card goes whole.
    for kw in RULES3:
        assert _set(ref_norm_selection(["RM", "BM", "GQ", "YT", "KS"], **kw, **PD)) == ["BM", "RM"]
        assert ref_norm_selection(["PO"], **kw, **PD) == ["PO"]


def test_bad_input_raises():
    with pytest.raises(ValueError):
        ref_norm_selection(["RM"], majority_scope="per_colour")
    with pytest.raises(ValueError):
        ref_norm_selection(["RM"], standard_tie="keep")
    with pytest.raises(ValueError):
        ref_norm_selection(["RM", "RQ", "RT", "RS", "RX", "RO"])
    with pytest.raises(ValueError):
        ref_norm_selection(["RM", "RM"])
    with pytest.raises(ValueError):
        ref_norm_selection(["ZZ"])


def _other_selection(selection, reinforced, tie, scope="pooled"):
    """A second, differently written P3.1/P3.2/P3.1a (also used by the scripted player)."""
    if len(selection) == 1:
        return list(selection)
    count = Counter()
    for card in selection:
        count["colour " + card[0]] += 1
        count["symbol " + card[1]] += 1
    if scope == "per_dimension":  # P3.1a: the top of each dimension apart
        high = {dim: max(k for a, k in count.items() if a.startswith(dim)) for dim in ("colour", "symbol")}
        nothing_repeats = high["colour"] == high["symbol"] == 1
        top = {a for a, k in count.items() if k == high[a.split()[0]] and (k > 1 or nothing_repeats)}
        tied = any(sum(a.startswith(dim) for a in top) > 1 for dim in ("colour", "symbol"))
    else:
        m = max(count.values())
        top = {a for a, k in count.items() if k == m}
        tied = len(top) > 1
    if tied and (reinforced or tie == "discard_all"):
        return []
    return [c for c in selection if "colour " + c[0] in top or "symbol " + c[1] in top]


def test_ref_norm_against_a_second_implementation():
    rng = random.Random(2024)
    selections = [list(c) for k in (1, 2, 3) for c in combinations(ALL_CARDS, k)]
    selections += [rng.sample(ALL_CARDS, k) for k in (4, 5) for _ in range(15000)]
    for sel in selections:
        for scope in ("pooled", "per_dimension"):
            tied = ref_norm_selection(sel, majority_scope=scope)
            strict = ref_norm_selection(sel, standard_tie="discard_all", majority_scope=scope)
            assert ref_norm_selection(sel, reinforced=True, majority_scope=scope) == strict
            assert tied == _other_selection(sel, False, "keep_tied", scope)
            assert strict == _other_selection(sel, True, "keep_tied", scope)
            assert set(strict) <= set(tied) <= set(sel) and tied  # keep_tied always keeps something


@pytest.mark.slow
def test_ref_norm_exhaustive_five_card_selections():
    # Every one of the C(36, 5) = 376,992 five-card Selections, under keep_tied and
    # reinforced (= discard_all, checked on a sample above), with majority_scope pooled
    # and per_dimension (P3.1a), against the second version.
    count = 0
    for sel in combinations(ALL_CARDS, 5):
        count += 1
        for scope in ("pooled", "per_dimension"):  # P3.1a
            tied = ref_norm_selection(sel, majority_scope=scope)
            strict = ref_norm_selection(sel, reinforced=True, majority_scope=scope)
            assert tied == _other_selection(sel, False, "keep_tied", scope)
            assert strict == _other_selection(sel, True, "keep_tied", scope)
    assert count == 376_992


# ---------------------------------------------------------------------------------------
# rule helpers, by hand


def test_legal_removals():
    two = legal_removals(2)
    assert len(two) == 36 and all(len(r) == 11 for r in two)
    assert frozenset([c for c in DECK36 if c[0] == "R" or c[1] == "M"]) in two
    three = legal_removals(3)
    assert len(three) == 12 and all(len(r) == 6 for r in three)
    assert legal_removals(4) == [frozenset()]


def test_foyer_control_p41():
    norm = ["RM", "BQ"]
    assert foyer_passes(["RT", "GQ"], norm)  # red; square
    assert not foyer_passes(["RT", "GS"], norm)  # GS shares nothing
    assert foyer_passes([], norm)  # an empty Foyer passes
    assert foyer_passes([], [])
    assert not foyer_passes(["RM"], [])  # an empty Norm fails every non-empty Foyer


def test_reinforced_control_p53():
    norm = ["RM", "BQ"]
    # RQ: red (RM) and square (BQ) on different Norm cards counts; RT: no triangle.
    assert reinforced_count(["RQ", "RT", "BM"], norm) == 2
    foyers = {0: ["RQ", "GS"], 1: ["RT", "GX"]}
    assert not reinforced_passes(foyers, norm, 2, "each_player")  # seat 1 has none
    assert reinforced_passes(foyers, norm, 2, "team")  # one over the team
    assert not reinforced_passes(foyers, norm, 3, "team")  # level 3 needs two
    assert reinforced_passes({0: ["RQ", "BM"], 1: ["RM", "BQ"]}, norm, 3, "each_player")


def test_winners_p44():
    norm = ["RM", "BQ"]
    foyers = {0: ["RT", "GS"], 1: ["RQ", "GS"], 2: ["KX"]}
    assert each_winners([0, 1, 2], [2, 5, 1], foyers, norm) == [1]
    # 0 and 1 tie on points; attributes in common: 0 -> 1 (red), 1 -> 2 (red, square).
    assert common_attributes(foyers[0], norm) == 1 and common_attributes(foyers[1], norm) == 2
    assert each_winners([0, 1, 2], [4, 4, 1], foyers, norm) == [1]
    assert each_winners([0, 1], [4, 4, 0], {0: ["RT"], 1: ["GQ"]}, norm) == [0, 1]  # shared
    assert each_winners([2], [0, 0, 1], foyers, norm) == [2]  # all but one eliminated
    assert each_winners([], [0, 0, 0], foyers, norm) == []


def test_next_holder_p43():
    assert next_holder(0, [0, 1, 2], 3) == 1
    assert next_holder(2, [0, 1, 2], 3) == 0
    assert next_holder(0, [0, 2, 3], 4) == 2  # seat 1 eliminated
    assert next_holder(1, [0, 3], 4) == 3  # the old holder was just eliminated


# ---------------------------------------------------------------------------------------
# a tiny scripted legal player


def play_game(mode="each", level=None, players=3, seed=0, variants=None, foyer_rate=0.25):
    """Play one legal Protocole game with random decisions and return its record.

    Written from RULES.md Part P directly (not from the referee): P1.2 removal, P1.3
    deal, P2 turns (a random card, to the Foyer with probability ``foyer_rate``), P3
    Norm selections, P4 control and scoring, P5 cooperative rules, P4.5 round cap."""
    rng = random.Random(seed)
    v = dict(DEFAULTS, **(variants or {}))
    n, coop = players, mode == "coop"
    if n == 2:  # P1.2
        col, sym = rng.choice(COLS), rng.choice(SYMS)
        removed = [c for c in DECK36 if c[0] == col or c[1] == sym]
    elif n == 3:
        which = rng.randrange(2)
        x = rng.choice(COLS if which == 0 else SYMS)
        removed = [c for c in DECK36 if c[which] == x]
    else:
        removed = []
    deck = [c for c in DECK36 if c not in removed]
    rng.shuffle(deck)
    alive = list(range(n))
    foyers = {s: [] for s in range(n)}
    points = [0] * n
    holder, rounds, outcome, winners, norm, end = 0, [], None, None, [], False
    k = 2 if not coop else level
    for r in range(v["round_cap"]):
        if r > 0:  # P4.3
            holder = next((holder + i) % n for i in range(1, n + 1) if (holder + i) % n in alive)
            deck = list(norm)
            rng.shuffle(deck)
        order = [(holder + i) % n for i in range(n) if (holder + i) % n in alive]
        pos, dealt = 0, None
        if r == 0:  # P1.3
            dealt = {str(s): [] for s in order}
            for _ in range(k):
                for s in order:
                    dealt[str(s)].append(deck[pos])
                    pos += 1
            for s in order:
                foyers[s] = list(dealt[str(s)])
        each = (len(deck) - pos) // len(order)
        hands = {s: [] for s in order}
        for _ in range(each):
            for s in order:
                hands[s].append(deck[pos])
                pos += 1
        selection = deck[pos:]
        rnd = {"initiative": holder, "deck": list(deck), "foyers_dealt": dealt,
               "hands": {str(s): list(h) for s, h in hands.items()}, "selection_start": list(selection)}
        turns, sels, norm = [], [], []

        def resolve():
            kept = _other_selection(selection, coop, v["standard_tie"], v["majority_scope"])
            sels.append({"cards": list(selection), "kept": list(kept)})
            norm.extend(kept)
            selection.clear()

        i = 0
        while any(hands[s] for s in order):  # P2.1
            s = order[i % len(order)]
            i += 1
            if not hands[s]:
                continue
            card = rng.choice(hands[s])
            hands[s].remove(card)
            to = "foyer" if rng.random() < foyer_rate else "selection"
            turns.append({"seat": s, "card": card, "to": to})
            if to == "foyer":
                foyers[s].append(card)
            else:
                selection.append(card)
                if len(selection) == 5:  # P2.2
                    resolve()
        if selection:  # P3.3
            resolve()
        cols, syms = {c[0] for c in norm}, {c[1] for c in norm}
        control = {str(s): ("pass" if all(c[0] in cols or c[1] in syms for c in foyers[s]) else "fail")
                   for s in order}
        failed = [s for s in order if control[str(s)] == "fail"]
        rnd.update(turns=turns, selections=sels, norm=list(norm), control=control)
        reinforced = None
        if not coop:  # P4.2–P4.4
            for s in order:
                if s in failed:
                    points[s] = 0
                    foyers[s] = []
                else:
                    points[s] += len(foyers[s])
            alive = [s for s in alive if s not in failed]
            rnd.update(reinforced=None, points=list(points))
            if len(alive) <= 1 or len(norm) <= 7:
                end = True
                if len(alive) <= 1:
                    winners = list(alive)
                else:
                    best = max(points[s] for s in alive)
                    tied = [s for s in alive if points[s] == best]
                    if len(tied) > 1:
                        score = {s: sum((c[0] in cols) + (c[1] in syms) for c in foyers[s]) for s in tied}
                        tied = [s for s in tied if score[s] == max(score.values())]
                    winners = tied
        else:  # P5.2, P5.3
            if failed:
                outcome = "loss"
            elif level >= 2:
                good = [sum(1 for c in foyers[s] if c[0] in cols and c[1] in syms) for s in order]
                ok = sum(good) >= level - 1 if v["reinforced_scope"] == "team" else min(good) >= level - 1
                reinforced = "pass" if ok else "fail"
                if not ok:
                    outcome = "loss"
            if outcome is None and len(norm) <= 7:
                outcome = "win"
            rnd.update(reinforced=reinforced, points=None)
            end = outcome is not None
        rounds.append(rnd)
        if end:
            break
    if not end:  # P4.5
        result = None
    elif coop:
        win = outcome == "win"
        result = {"winners": list(range(n)) if win else [], "outcome": outcome,
                  "foyer_cards": sum(len(f) for f in foyers.values()) if win else None}
    else:
        result = {"winners": winners, "outcome": None, "foyer_cards": None}
    return {"game": "protocole", "contract": 2, "mode": mode, "level": level if coop else None,
            "players": n, "variants": v, "seed": seed, "policies": ["scripted"] * n,
            "removed": removed, "rounds": rounds, "truncated": not end, "result": result}


@lru_cache(maxsize=None)
def _games(mode, level, players, variants_items=(), count=120):
    variants = dict(variants_items)
    return tuple(
        json.dumps(play_game(mode, level, players, seed, variants, foyer_rate=(0.1, 0.25, 0.4)[seed % 3]))
        for seed in range(count)
    )


def find(pred, setups=SETUPS, variants=None, count=120):
    """The first scripted game (as a fresh dict) that satisfies ``pred``."""
    items = tuple(sorted((variants or {}).items()))
    for mode, level, n in setups:
        for text in _games(mode, level, n, items, count):
            rec = json.loads(text)
            if pred(rec):
                return rec
    raise AssertionError("no scripted game has the wanted feature")


EACH = [s for s in SETUPS if s[0] == "each"]
COOP = [s for s in SETUPS if s[0] == "coop"]
COOP23 = [s for s in COOP if s[1] >= 2]


def _fails(rnd):
    return [int(s) for s, c in rnd["control"].items() if c == "fail"]


def _tie_on_points(rec):
    last = rec["rounds"][-1]
    alive = [int(s) for s, c in last["control"].items() if c == "pass"]
    if len(alive) < 2:
        return False
    pts = last["points"]
    best = max(pts[s] for s in alive)
    return sum(pts[s] == best for s in alive) > 1


# Scenario finders (each returns a legal record with the feature).
SCENARIOS = {
    "each multi-round after an elimination": lambda: find(
        lambda r: len(r["rounds"]) >= 2 and _fails(r["rounds"][0]) and len(r["rounds"][0]["control"]) >= 3, EACH),
    "each old holder eliminated": lambda: find(
        lambda r: len(r["rounds"]) >= 2 and r["rounds"][0]["initiative"] in _fails(r["rounds"][0]), EACH),
    "each holder skips an eliminated seat": lambda: find(
        lambda r: len(r["rounds"]) >= 2 and r["rounds"][1]["initiative"] != (r["rounds"][0]["initiative"] + 1) % r["players"], EACH),
    "each all but one eliminated, Norm 8+": lambda: find(
        lambda r: len(r["result"]["winners"]) == 1 and len(r["rounds"][-1]["norm"]) >= 8, EACH),
    "each everyone eliminated": lambda: find(lambda r: r["result"]["winners"] == [], EACH),
    "each tie on points broken by attributes": lambda: find(
        lambda r: _tie_on_points(r) and len(r["result"]["winners"]) == 1, EACH, count=400),
    "each shared victory": lambda: find(lambda r: len(r["result"]["winners"]) >= 2, EACH),
    "each discard_all tie": lambda: find(
        lambda r: any(len(s["cards"]) > 1 and not s["kept"] for rd in r["rounds"] for s in rd["selections"]),
        EACH, variants={"standard_tie": "discard_all"}),
    "coop win": lambda: find(lambda r: r["result"]["outcome"] == "win", COOP),
    "coop win level 3": lambda: find(lambda r: r["result"]["outcome"] == "win", [s for s in COOP if s[1] == 3], count=400),
    "coop multi-round win": lambda: find(lambda r: r["result"]["outcome"] == "win" and len(r["rounds"]) >= 2, COOP),
    "coop empty Norm": lambda: find(lambda r: any(not rd["norm"] for rd in r["rounds"]), COOP),
    "coop basic loss": lambda: find(lambda r: _fails(r["rounds"][-1]), COOP23),
    "coop reinforced loss": lambda: find(lambda r: r["rounds"][-1]["reinforced"] == "fail", COOP23),
    "coop team scope pass where each_player fails": lambda: find(
        lambda r: any(rd["reinforced"] == "pass" and min(
            reinforced_count(_foyers_at(r, i)[int(s)], rd["norm"]) for s in rd["control"]) < r["level"] - 1
            for i, rd in enumerate(r["rounds"])),
        COOP23, variants={"reinforced_scope": "team"}, count=400),
    "truncated": lambda: find(lambda r: r["truncated"], EACH + COOP, variants={"round_cap": 1}),
    # P3.1a: a Selection that per_dimension resolves otherwise than pooled would.
    "each per_dimension differs from pooled": lambda: find(
        lambda r: any(_scopes_differ(s, False, r["variants"]["standard_tie"]) for rd in r["rounds"]
                      for s in rd["selections"]), EACH, variants=PER_DIM),
    "each per_dimension discard_all differs from pooled": lambda: find(
        lambda r: any(_scopes_differ(s, False, "discard_all") for rd in r["rounds"] for s in rd["selections"]),
        EACH, variants=dict(PER_DIM, standard_tie="discard_all")),
    "coop per_dimension differs from pooled": lambda: find(
        lambda r: any(_scopes_differ(s, True, "keep_tied") for rd in r["rounds"] for s in rd["selections"]),
        COOP, variants=PER_DIM),
    "each pooled where per_dimension differs": lambda: find(
        lambda r: any(_scopes_differ(s, False, "keep_tied") for rd in r["rounds"] for s in rd["selections"]),
        EACH),
    "ends on the cap round": lambda: find(lambda r: not r["truncated"] and len(r["rounds"]) == 2, EACH,
                                          variants={"round_cap": 2}),
}


def _scopes_differ(selection, reinforced, tie):
    """P3.1a: the two majority scopes keep different cards of this recorded Selection."""
    cards = selection["cards"]
    return set(_other_selection(cards, reinforced, tie, "pooled")) != set(
        _other_selection(cards, reinforced, tie, "per_dimension"))


def _foyers_at(rec, r):
    """Foyers at the control of round r (for the scenario finder only)."""
    foyers = {int(s): list(c) for s, c in rec["rounds"][0]["foyers_dealt"].items()}
    for i, rd in enumerate(rec["rounds"][: r + 1]):
        for t in rd["turns"]:
            if t["to"] == "foyer":
                foyers[t["seat"]].append(t["card"])
        if i < r:
            for s in _fails(rd):
                foyers[s] = []
    return foyers


@lru_cache(maxsize=None)
def scenario_text(name):
    return json.dumps(SCENARIOS[name]())


def scenario(name):
    return json.loads(scenario_text(name))


# ---------------------------------------------------------------------------------------
# legal games audit clean


@pytest.mark.parametrize("mode,level,players", SETUPS)
def test_legal_games_audit_clean(mode, level, players):
    for seed, text in enumerate(_games(mode, level, players)):
        rec = json.loads(text)
        violations = audit_protocole(rec, check_schema=seed < 10)
        assert violations == [], (seed, violations[:5])


@pytest.mark.parametrize("variants", [
    {"standard_tie": "discard_all"},
    {"reinforced_scope": "team"},
    {"round_cap": 1},
    {"round_cap": 2, "standard_tie": "discard_all", "reinforced_scope": "team"},
    PER_DIM,
    dict(PER_DIM, standard_tie="discard_all"),
    dict(PER_DIM, reinforced_scope="team", round_cap=2),
])
def test_legal_games_with_variants_audit_clean(variants):
    items = tuple(sorted(variants.items()))
    for mode, level, n in SETUPS:
        for seed, text in enumerate(_games(mode, level, n, items, 30)):
            violations = audit_protocole(json.loads(text), check_schema=seed < 3)
            assert violations == [], (mode, level, n, seed, violations[:5])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenarios_exist_and_audit_clean(name):
    rec = scenario(name)
    assert audit_protocole(rec) == []


def test_records_are_json_lines():
    rec = scenario("each multi-round after an elimination")
    assert json.loads(json.dumps(rec)) == rec
    assert audit_protocole(json.loads(json.dumps(rec))) == []


def test_referee_matches_hand_facts_of_a_game():
    # Sanity checks on the scripted records themselves, computed directly from the text.
    rec = scenario("each multi-round after an elimination")
    r0 = rec["rounds"][0]
    n = rec["players"]
    assert len(r0["deck"]) == 36 - {2: 11, 3: 6, 4: 0}[n]
    assert all(len(f) == 2 for f in r0["foyers_dealt"].values())
    assert sorted(r0["foyers_dealt"]["0"]) == sorted([r0["deck"][0], r0["deck"][n]])
    assert sorted(r0["deck"]) == sorted(r0["norm"] + [c for s in r0["selections"] for c in s["cards"]
                                                      if c not in s["kept"]]
                                        + [c for f in r0["foyers_dealt"].values() for c in f]
                                        + [t["card"] for t in r0["turns"] if t["to"] == "foyer"])


# ---------------------------------------------------------------------------------------
# one-field mutations are reported


def _rules_of(violations):
    return {v.split("[", 1)[1].split("]", 1)[0] for v in violations if "[" in v}


def _assert_reported(rec, rule, check_schema=False):
    violations = audit_protocole(rec, check_schema=check_schema)
    assert violations, "the mutation was not reported"
    assert rule in _rules_of(violations), (rule, violations[:6])
    assert all(isinstance(v, str) for v in violations)
    return violations


def _first_selection(rec, pred):
    for r, rd in enumerate(rec["rounds"]):
        for i, sel in enumerate(rd["selections"]):
            if pred(sel):
                return r, i, sel
    raise AssertionError("no such selection")


def test_wrong_kept_cards_each():
    rec = scenario("each multi-round after an elimination")
    r, i, sel = _first_selection(rec, lambda s: len(s["cards"]) == 5 and 0 < len(s["kept"]) < 5)
    sel["kept"] = sel["kept"][:-1]
    _assert_reported(rec, "P3.1")


def test_wrong_kept_cards_adds_a_leaving_card():
    rec = scenario("each multi-round after an elimination")
    r, i, sel = _first_selection(rec, lambda s: len(s["kept"]) < len(s["cards"]))
    sel["kept"].append(next(c for c in sel["cards"] if c not in sel["kept"]))
    _assert_reported(rec, "P3.1")


def test_keep_tied_used_under_discard_all():
    rec = scenario("each discard_all tie")
    r, i, sel = _first_selection(rec, lambda s: len(s["cards"]) > 1 and not s["kept"])
    sel["kept"] = ref_norm_selection(sel["cards"])
    _assert_reported(rec, "P3.1")


def test_discard_all_variant_flipped_in_record():
    rec = scenario("each discard_all tie")
    rec["variants"]["standard_tie"] = "keep_tied"
    _assert_reported(rec, "P3.1")


def _first_differing(rec, reinforced, tie):
    return _first_selection(rec, lambda s: _scopes_differ(s, reinforced, tie))


def test_pooled_kept_under_per_dimension_each():
    # P3.1a: the record says per_dimension, a Selection is resolved as pooled.
    for name, tie in (("each per_dimension differs from pooled", "keep_tied"),
                      ("each per_dimension discard_all differs from pooled", "discard_all")):
        rec = scenario(name)
        r, i, sel = _first_differing(rec, False, tie)
        sel["kept"] = ref_norm_selection(sel["cards"], standard_tie=tie, majority_scope="pooled")
        _assert_reported(rec, "P3.1a")


def test_pooled_kept_under_per_dimension_coop():
    rec = scenario("coop per_dimension differs from pooled")
    r, i, sel = _first_differing(rec, True, "keep_tied")
    sel["kept"] = ref_norm_selection(sel["cards"], reinforced=True, majority_scope="pooled")
    _assert_reported(rec, "P3.1a")


def test_per_dimension_kept_under_pooled():
    rec = scenario("each pooled where per_dimension differs")
    r, i, sel = _first_differing(rec, False, "keep_tied")
    sel["kept"] = ref_norm_selection(sel["cards"], majority_scope="per_dimension")
    _assert_reported(rec, "P3.1")


def test_majority_scope_flipped_in_record():
    # The games were played under one scope, the record names the other.
    rec = scenario("each per_dimension differs from pooled")
    rec["variants"]["majority_scope"] = "pooled"
    _assert_reported(rec, "P3.1")
    rec = scenario("coop per_dimension differs from pooled")
    rec["variants"]["majority_scope"] = "pooled"
    _assert_reported(rec, "P3.2")
    rec = scenario("each pooled where per_dimension differs")
    rec["variants"]["majority_scope"] = "per_dimension"
    _assert_reported(rec, "P3.1a")


def test_contract_one_is_refused():
    # GAME_RECORD.md version 2: records say "contract": 2.
    rec = scenario("coop win")
    rec["contract"] = 1
    _assert_reported(rec, "GAME_RECORD")
    _assert_reported(rec, "schema", check_schema=True)


def test_standard_selection_in_coop():
    rec = find(lambda r: any(len(s["cards"]) > 1 and not s["kept"] for rd in r["rounds"] for s in rd["selections"]), COOP)
    r, i, sel = _first_selection(rec, lambda s: len(s["cards"]) > 1 and not s["kept"])
    sel["kept"] = ref_norm_selection(sel["cards"])
    _assert_reported(rec, "P3.2")


def test_turn_from_a_card_not_in_hand():
    rec = scenario("each multi-round after an elimination")
    rd = rec["rounds"][0]
    turn = rd["turns"][0]
    other = next(h for s, h in rd["hands"].items() if int(s) != turn["seat"])
    turn["card"] = other[-1]
    _assert_reported(rec, "P2.1")


def test_turn_from_a_removed_card():
    rec = find(lambda r: r["players"] == 2, EACH)
    rec["rounds"][0]["turns"][3]["card"] = rec["removed"][0]
    _assert_reported(rec, "P2.1")


def test_turns_out_of_order():
    rec = scenario("each multi-round after an elimination")
    turns = rec["rounds"][0]["turns"]
    turns[0]["seat"], turns[1]["seat"] = turns[1]["seat"], turns[0]["seat"]
    turns[0]["card"], turns[1]["card"] = turns[1]["card"], turns[0]["card"]
    _assert_reported(rec, "P2.1")


def test_turn_missing_leaves_cards_in_hand():
    rec = scenario("each multi-round after an elimination")
    del rec["rounds"][0]["turns"][-1]
    _assert_reported(rec, "P3.3")


def test_turn_after_the_hands_are_empty():
    rec = scenario("each multi-round after an elimination")
    turns = rec["rounds"][0]["turns"]
    turns.append(dict(turns[-1]))
    _assert_reported(rec, "P3.3")


def test_foyer_play_recorded_as_selection_play():
    rec = scenario("each multi-round after an elimination")
    turn = next(t for t in rec["rounds"][0]["turns"] if t["to"] == "foyer")
    turn["to"] = "selection"
    assert audit_protocole(rec, check_schema=False)


def test_missing_final_selection_resolution():
    rec = find(lambda r: 1 <= len(r["rounds"][0]["selections"][-1]["cards"]) <= 4, EACH)
    del rec["rounds"][0]["selections"][-1]
    _assert_reported(rec, "P3.3")


def test_missing_norm_selection_at_five_cards():
    rec = scenario("each multi-round after an elimination")
    del rec["rounds"][0]["selections"][0]
    _assert_reported(rec, "P2.2")


def test_norm_selection_too_late():
    # The first two Norm selections merged into one of more than 5 cards.
    rec = scenario("each multi-round after an elimination")
    sels = rec["rounds"][0]["selections"]
    a, b = sels[0], sels[1]
    sels[0:2] = [{"cards": a["cards"] + b["cards"], "kept": a["kept"] + b["kept"]}]
    _assert_reported(rec, "P2.2")
    _assert_reported(rec, "schema", check_schema=True)  # more than 5 cards


def test_norm_missing_a_card():
    rec = scenario("each multi-round after an elimination")
    rec["rounds"][0]["norm"] = rec["rounds"][0]["norm"][1:]
    _assert_reported(rec, "P3")


def test_wrong_control_result():
    rec = scenario("each multi-round after an elimination")
    rd = rec["rounds"][0]
    seat = next(s for s, c in rd["control"].items() if c == "pass")
    rd["control"][seat] = "fail"
    _assert_reported(rec, "P4.1")


def test_failed_control_recorded_as_pass():
    rec = scenario("each multi-round after an elimination")
    rd = rec["rounds"][0]
    rd["control"][str(_fails(rd)[0])] = "pass"
    _assert_reported(rec, "P4.1")


def test_control_missing_a_player():
    rec = scenario("each multi-round after an elimination")
    rd = rec["rounds"][0]
    del rd["control"][next(iter(rd["control"]))]
    _assert_reported(rec, "P4.1")


def test_control_lists_an_eliminated_player():
    rec = scenario("each multi-round after an elimination")
    rec["rounds"][1]["control"][str(_fails(rec["rounds"][0])[0])] = "pass"
    _assert_reported(rec, "P4.1")


def test_wrong_points():
    rec = scenario("each multi-round after an elimination")
    pts = rec["rounds"][0]["points"]
    s = next(i for i, p in enumerate(pts) if p > 0)
    pts[s] += 1
    _assert_reported(rec, "P4.2")


def test_eliminated_player_keeps_points():
    rec = scenario("each multi-round after an elimination")
    rd = rec["rounds"][0]
    rd["points"][_fails(rd)[0]] = 2
    _assert_reported(rec, "P4.2")


def test_points_not_cumulative():
    # P4.2: Foyer cards score again at every control; here round 1 records only its gain.
    rec = find(lambda r: len(r["rounds"]) >= 2 and any(
        r["rounds"][0]["points"][int(s)] > 0 for s in r["rounds"][1]["control"]), EACH)
    r0, r1 = rec["rounds"][0], rec["rounds"][1]
    r1["points"] = [b - a if b else 0 for a, b in zip(r0["points"], r1["points"])]
    _assert_reported(rec, "P4.2")


def test_initiative_not_passed():
    rec = scenario("each multi-round after an elimination")
    rec["rounds"][1]["initiative"] = rec["rounds"][0]["initiative"]
    _assert_reported(rec, "P4.3")


def test_initiative_to_an_eliminated_player():
    rec = scenario("each holder skips an eliminated seat")
    rec["rounds"][1]["initiative"] = (rec["rounds"][0]["initiative"] + 1) % rec["players"]
    _assert_reported(rec, "P4.3")


def test_initiative_skips_the_eliminated_old_holder_wrongly():
    # The old holder was eliminated: the Initiative still goes clockwise from that seat.
    rec = scenario("each old holder eliminated")
    r1 = rec["rounds"][1]
    alive = sorted(int(s) for s in r1["control"])
    wrong = next((s for s in alive if s != r1["initiative"]), None)
    r1["initiative"] = wrong
    _assert_reported(rec, "P4.3")


def test_initiative_of_round_zero():
    rec = scenario("each multi-round after an elimination")
    rec["rounds"][0]["initiative"] = 1
    _assert_reported(rec, "P1.4")


def test_wrong_winner():
    rec = find(lambda r: len(r["result"]["winners"]) == 1 and r["players"] >= 3, EACH)
    w = rec["result"]["winners"][0]
    rec["result"]["winners"] = [(w + 1) % rec["players"]]
    _assert_reported(rec, "P4.4")


def test_shared_victory_reported_as_single():
    rec = scenario("each shared victory")
    rec["result"]["winners"] = rec["result"]["winners"][:1]
    _assert_reported(rec, "P4.4")


def test_tie_break_ignored():
    rec = scenario("each tie on points broken by attributes")
    last = rec["rounds"][-1]
    alive = [int(s) for s, c in last["control"].items() if c == "pass"]
    best = max(last["points"][s] for s in alive)
    rec["result"]["winners"] = sorted(s for s in alive if last["points"][s] == best)
    _assert_reported(rec, "P4.4")


def test_no_winner_when_everyone_is_eliminated():
    rec = scenario("each everyone eliminated")
    rec["result"]["winners"] = [0]
    _assert_reported(rec, "P4.4")


def test_game_must_stop_when_all_but_one_are_eliminated():
    rec = scenario("each all but one eliminated, Norm 8+")
    extra = copy.deepcopy(rec["rounds"][-1])
    rec["rounds"].append(extra)
    _assert_reported(rec, "P4.3")


def test_record_stops_before_the_end():
    rec = find(lambda r: len(r["rounds"]) >= 2, EACH)
    rec["rounds"].pop()
    _assert_reported(rec, "P4.3")


def test_truncated_flag_wrong_on_a_normal_game():
    rec = scenario("each multi-round after an elimination")
    rec["truncated"] = True
    _assert_reported(rec, "P4.5")


def test_truncated_flag_wrong_on_a_capped_game():
    rec = scenario("truncated")
    rec["truncated"] = False
    _assert_reported(rec, "P4.5")


def test_truncated_game_with_a_result():
    rec = scenario("truncated")
    rec["result"] = {"winners": [0], "outcome": None, "foyer_cards": None}
    _assert_reported(rec, "P4.5")
    _assert_reported(rec, "schema", check_schema=True)


def test_game_ending_on_the_cap_round_is_not_truncated():
    rec = scenario("ends on the cap round")
    rec["truncated"] = True
    rec["result"] = None
    _assert_reported(rec, "P4.5")


def test_truncation_ignored():
    rec = scenario("truncated")
    rec["variants"]["round_cap"] = 100
    _assert_reported(rec, "P4.3")


def test_wrong_removal():
    rec = find(lambda r: r["players"] == 2, EACH)
    rec["removed"] = rec["removed"][1:]
    _assert_reported(rec, "P1.2")
    rec = find(lambda r: r["players"] == 3, EACH)
    rec["removed"][0] = next(c for c in DECK36 if c not in rec["removed"])
    _assert_reported(rec, "P1.2")
    rec = find(lambda r: r["players"] == 4, EACH)
    rec["removed"] = ["RM"]
    _assert_reported(rec, "P1.2")


def test_deck_not_the_remaining_cards():
    rec = find(lambda r: r["players"] == 3, EACH)
    rec["rounds"][0]["deck"][-1] = rec["removed"][0]
    _assert_reported(rec, "P1.3")


def test_later_deck_not_the_previous_norm():
    rec = scenario("each multi-round after an elimination")
    deck = rec["rounds"][1]["deck"]
    deck[0] = next(c for c in rec["rounds"][0]["deck"] if c not in deck)
    _assert_reported(rec, "P4.3")


def test_foyers_dealt_wrong():
    rec = scenario("each multi-round after an elimination")
    fd = rec["rounds"][0]["foyers_dealt"]
    fd["0"][0], fd["1"][0] = fd["1"][0], fd["0"][0]
    _assert_reported(rec, "P1.3")


def test_foyers_dealt_from_the_wrong_end():
    rec = find(lambda r: True, COOP23)
    rd = rec["rounds"][0]
    k, n = rec["level"], rec["players"]
    for s in range(n):  # dealt k cards at a time instead of one card at a time
        rd["foyers_dealt"][str(s)] = rd["deck"][s * k:(s + 1) * k]
    _assert_reported(rec, "P1.3")


def test_hands_dealt_wrong():
    rec = scenario("each multi-round after an elimination")
    h = rec["rounds"][0]["hands"]
    h["0"][0], h["1"][0] = h["1"][0], h["0"][0]
    _assert_reported(rec, "P1.3")


def test_selection_start_wrong():
    rec = find(lambda r: r["rounds"][0]["selection_start"], EACH)
    rd = rec["rounds"][0]
    rd["selection_start"][0], rd["hands"]["0"][0] = rd["hands"]["0"][0], rd["selection_start"][0]
    _assert_reported(rec, "P1.3")


def test_foyers_dealt_after_round_zero():
    rec = scenario("each multi-round after an elimination")
    rec["rounds"][1]["foyers_dealt"] = {"0": ["RM"], "1": ["RQ"]}
    _assert_reported(rec, "P4.3")
    _assert_reported(rec, "schema", check_schema=True)


def test_eliminated_player_dealt_a_hand():
    rec = scenario("each multi-round after an elimination")
    rec["rounds"][1]["hands"][str(_fails(rec["rounds"][0])[0])] = []
    _assert_reported(rec, "P4.3")


def test_coop_reinforced_flipped():
    rec = scenario("coop reinforced loss")
    rec["rounds"][-1]["reinforced"] = "pass"
    _assert_reported(rec, "P5.3")


def test_coop_reinforced_at_level_one():
    rec = find(lambda r: True, [s for s in COOP if s[1] == 1])
    rec["rounds"][0]["reinforced"] = "pass"
    _assert_reported(rec, "P5.3")
    _assert_reported(rec, "schema", check_schema=True)


def test_coop_reinforced_checked_after_a_basic_loss():
    rec = scenario("coop basic loss")
    rec["rounds"][-1]["reinforced"] = "pass"
    _assert_reported(rec, "P5.2")


def test_coop_reinforced_missing():
    rec = scenario("coop win level 3")
    rec["rounds"][-1]["reinforced"] = None
    _assert_reported(rec, "P5.3")


def test_coop_team_scope_flipped():
    rec = scenario("coop team scope pass where each_player fails")
    rec["variants"]["reinforced_scope"] = "each_player"
    _assert_reported(rec, "P5.3")


def test_coop_outcome_wrong():
    rec = scenario("coop win")
    rec["result"] = {"winners": [], "outcome": "loss", "foyer_cards": None}
    _assert_reported(rec, "P5.2")
    rec = scenario("coop basic loss")
    rec["result"] = {"winners": list(range(rec["players"])), "outcome": "win", "foyer_cards": 9}
    _assert_reported(rec, "P5.2")


def test_coop_winners_wrong():
    rec = scenario("coop win")
    rec["result"]["winners"] = [0]
    _assert_reported(rec, "P5.2")


def test_coop_foyer_cards_wrong():
    rec = scenario("coop multi-round win")
    rec["result"]["foyer_cards"] += 1
    _assert_reported(rec, "P5.2")
    rec = scenario("coop basic loss")
    rec["result"]["foyer_cards"] = 3
    _assert_reported(rec, "P5.2")


def test_empty_norm_fails_every_foyer():
    rec = scenario("coop empty Norm")
    rd = next(rd for rd in rec["rounds"] if not rd["norm"])
    assert set(rd["control"].values()) == {"fail"}
    rd["control"] = {s: "pass" for s in rd["control"]}
    _assert_reported(rec, "P4.1")


def test_missing_keys_are_reported():
    rec = scenario("coop multi-round win")
    del rec["rounds"][0]["reinforced"]  # null would be right: the key is still required
    _assert_reported(rec, "GAME_RECORD")
    rec = scenario("coop multi-round win")
    del rec["result"]["foyer_cards"]
    _assert_reported(rec, "GAME_RECORD")
    rec = scenario("each shared victory")
    del rec["seed"]
    _assert_reported(rec, "GAME_RECORD")


def test_coop_has_no_points():
    rec = scenario("coop win")
    rec["rounds"][0]["points"] = [0] * rec["players"]
    _assert_reported(rec, "P5.1")
    _assert_reported(rec, "schema", check_schema=True)


def test_coop_game_going_on_after_a_loss():
    rec = scenario("coop reinforced loss")
    rec["rounds"].append(copy.deepcopy(rec["rounds"][-1]))
    _assert_reported(rec, "P4.3")


def test_variants_exactly_part_v():
    rec = scenario("coop win")
    rec["variants"]["favourite_suit_bonus"] = 0
    _assert_reported(rec, "Part V")
    _assert_reported(rec, "schema", check_schema=True)
    rec = scenario("coop win")
    del rec["variants"]["reinforced_scope"]
    _assert_reported(rec, "Part V")
    rec = scenario("coop win")
    del rec["variants"]["majority_scope"]  # contract 2: P3.1a's variant is required
    _assert_reported(rec, "Part V")
    _assert_reported(rec, "schema", check_schema=True)
    for name, value in (("round_cap", 0), ("standard_tie", "keep"), ("reinforced_scope", "all"), ("round_cap", True),
                        ("majority_scope", "both"), ("majority_scope", None)):
        rec = scenario("coop win")
        rec["variants"][name] = value
        _assert_reported(rec, "Part V")


def test_mode_level_players_consistency():
    rec = scenario("each shared victory")
    rec["level"] = 2
    _assert_reported(rec, "P5.3")
    rec = scenario("coop win")
    rec["level"] = None
    _assert_reported(rec, "P5.3")
    rec = scenario("coop win")
    rec["level"] = 4
    _assert_reported(rec, "P5.3")
    rec = scenario("coop win")
    rec["players"] = 5
    _assert_reported(rec, "P1.2")
    rec = scenario("coop win")
    rec["mode"] = "team"
    _assert_reported(rec, "P5")


def test_conservation_reported():
    # A Foyer card also appears in the deck of the next round.
    rec = scenario("each multi-round after an elimination")
    survivor = next(s for s, c in rec["rounds"][0]["control"].items() if c == "pass")
    foyer_card = rec["rounds"][0]["foyers_dealt"][survivor][0]
    rec["rounds"][1]["deck"][0] = foyer_card
    _assert_reported(rec, "P1.1")


def test_schema_catches_bad_notation():
    rec = scenario("coop win")
    rec["rounds"][0]["turns"][0]["card"] = "ZZ"
    _assert_reported(rec, "schema", check_schema=True)


# ---------------------------------------------------------------------------------------
# robustness: never raises


@pytest.mark.parametrize("record", [None, [], "x", 3, {}, {"game": "demos"}, {"game": "protocole"},
                                    {"game": "protocole", "mode": "each", "players": 3, "rounds": "x"},
                                    {"game": "protocole", "mode": "each", "players": 3, "rounds": [None]},
                                    {"game": "protocole", "mode": "coop", "level": 2, "players": 2,
                                     "rounds": [{"deck": None}]}])
def test_malformed_records_give_violations(record):
    for schema in (True, False):
        violations = audit_protocole(record, check_schema=schema)
        assert violations and all(isinstance(v, str) for v in violations)


def _random_edit(obj, rng):
    """Replace one random node of a JSON tree by junk."""
    junk = [None, -1, 7, "ZZ", "KT", [], {}, True, ["RM", "RM"], {"0": "pass"}, 1.5]
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + [i])

    walk(obj, [])
    path = rng.choice(paths[1:])
    node = obj
    for key in path[:-1]:
        node = node[key]
    if rng.random() < 0.2 and isinstance(node, dict):
        del node[path[-1]]
    elif rng.random() < 0.2 and isinstance(node, list):
        del node[path[-1]]
    else:
        node[path[-1]] = rng.choice(junk)


def test_random_corruptions_never_raise():
    rng = random.Random(7)
    bases = [scenario(name) for name in ("each multi-round after an elimination", "coop multi-round win",
                                          "coop reinforced loss", "truncated")]
    flagged = 0
    for i in range(400):
        rec = copy.deepcopy(bases[i % len(bases)])
        for _ in range(rng.randint(1, 3)):
            _random_edit(rec, rng)
        violations = audit_protocole(rec, check_schema=i % 10 == 0)
        assert isinstance(violations, list) and all(isinstance(v, str) for v in violations)
        flagged += bool(violations) or rec == bases[i % len(bases)]
    assert flagged >= 390  # nearly every corruption is seen (a few replace a value by itself)
