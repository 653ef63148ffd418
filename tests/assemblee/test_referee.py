"""Self-check of the L'Assemblée referee (tests/referee_assemblee.py).

Shows that the referee passes legal games and fails illegal ones:

- the rule helpers (A4, A5.2, A5.3, A8, A9, A10, A11) on hand-made cases;
- a 4-player, 2-round record built by hand from RULES.md Part A (every figure worked
  out in the comments) audits clean, and one-field mutations of it (wrong income, cost,
  holder, share rounding, winner …) are each reported with the rule they break;
- a tiny scripted player (``play_game`` below) that plays random legal games by RULES.md
  Part A and writes GAME_RECORD.md records — with personalities, assassinations, exiles,
  collapses, reshuffles — whose records audit clean, and whose mutations are caught;
- malformed records give violations, never exceptions.

Nothing here imports ``demos_sim``.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parents[1]) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_assemblee import (
    CHARACTERS,
    EVENTS,
    GOOD,
    HARMFUL,
    auction_candidates,
    audit,
    audit_assemblee,
    characters_revealed,
    collapse_threshold,
    event_cost,
    final_winners,
    honour_candidates,
    income_of,
    ostracism_thresholds,
    personalities_dealt_legally,
)

DECK = ["flood", "harvest", "epidemic", "famine", "olympics", "crime_lord", "earthquake", "embargo",
        "sparta", "metics", "rumour", "idol", "triumph", "wedding", "blank"]
DEFAULTS = {"rounds": 10, "collapse_threshold": None, "min_players": 3, "personalities": False,
            "akikos_income": "bonus", "oracle_view": "three_bids", "postpone_surcharge": "per_round",
            "event_draw": "deck", "final_tie": "shared"}


def rules_of(violations):
    return {v.split("[", 1)[1].split("]", 1)[0] for v in violations}


# ---------------------------------------------------------------------------------------
# Rule helpers


def test_helpers():
    assert [characters_revealed(x) for x in (2, 4, 6, 7, 15)] == [6, 6, 6, 7, 15]
    assert [collapse_threshold(n, None) for n in (4, 7, 8, 11, 12, 15)] == [20, 20, 35, 35, 40, 40]
    assert collapse_threshold(9, 5) == 5
    assert event_cost("flood", 6, 2) == 5 + 6 + 6 and event_cost("rumour", 4, 0) == 6
    # A5.2 postpone_surcharge = once: + 3 for the first postponement only
    assert [event_cost("flood", 6, p, "once") for p in (0, 1, 2, 5)] == [11, 14, 14, 14]
    assert [event_cost("flood", 6, p, "per_round") for p in (0, 1, 2, 5)] == [11, 14, 17, 26]
    assert ostracism_thresholds(4, 63) == (3, 16)
    assert ostracism_thresholds(6, 0) == (4, 0)
    assert ostracism_thresholds(9, 40) == (6, 10)
    assert income_of(None, False, "bonus") == 7 and income_of(None, True, "bonus") == 1
    assert income_of("akikos", False, "bonus") == 13 and income_of("akikos", False, "total") == 6
    assert income_of("akikos", True, "total") == 1 and income_of("akikos", True, "bonus") == 1


def test_auction_candidates():
    renown = [0, 2, 2, 5]
    assert auction_candidates([0, 0, 0, 0], range(4), renown, "priest") == []
    assert auction_candidates([1, 3, 3, 0], range(4), renown, "priest") == [1, 2]   # MC's choice
    assert auction_candidates([1, 3, 0, 3], range(4), renown, "priest") == [3]      # most renown
    pers = ["leremac", "ulios", "ulios", "ulios"]
    assert auction_candidates([0, 1, 0, 0], range(4), renown, "thief", pers) == [0]  # 0 + 2 > 1
    assert auction_candidates([0, 2, 0, 0], range(4), [3, 0, 0, 0], "assassin", pers) == [0]
    assert auction_candidates([0, 1, 0, 0], range(4), renown, "priest", pers) == [1]  # no +2 here
    assert auction_candidates([5, 0, 0, 9], [0, 1, 2], renown, "priest") == [0]      # seat 3 out


def test_honours_and_winners():
    assert honour_candidates({0: 2, 1: 2, 2: 3, 3: 2}, [0, 0, 0, 0]) == [2]
    assert honour_candidates({0: 1, 1: 0}, [4, 4]) == [0, 1]
    assert honour_candidates({0: 1, 1: 0}, [5, 4]) == [0]
    assert final_winners({0: 12, 1: 12, 3: 17}, {0: 17, 1: 15, 3: 17}) == [3]
    assert final_winners({0: 12, 1: 12}, {0: 17, 1: 15}) == [0]
    assert final_winners({0: 12, 1: 12}, {0: 15, 1: 15}) == [0, 1]


def test_personality_dealing():
    assert personalities_dealt_legally(["akikos", "leremac", "mirnok", "nimos"])
    six = ["akikos", "leremac", "mirnok", "nimos", "arthas", "ulios"]
    assert personalities_dealt_legally(six + ["nimos", "ulios"])
    assert not personalities_dealt_legally(["akikos", "akikos", "mirnok", "nimos"])
    assert personalities_dealt_legally(six + six[::-1] + ["mirnok"])
    assert not personalities_dealt_legally(["ulios"] * 7)


# ---------------------------------------------------------------------------------------
# A record built by hand: 4 players, 2 rounds, MC seat 1.


def hand_record() -> dict:
    """Every figure worked out by hand from RULES.md Part A."""
    r0 = {
        "in_game": [0, 1, 2, 3],
        "mc": 1,
        "income": [7, 7, 7, 7],                      # A2: gold 7 7 7 7
        "event_deck": None,
        "event": "flood",                            # A3: top card; pending flood p=0
        "revealed": ["thief", "priest", "guard", "builder", "oracle", "spectacles"],  # A4: max(6, 4)
        "oracle": None,
        "bids": [[2, 0, 1, 0],                       # thief -> 0; gold 5 7 6 7
                 [0, 3, 0, 3],                       # priest: 1 and 3 tied, renown 0: MC's choice 3; 5 4 6 4
                 [1, 0, 0, 0],                       # guard -> 0; 4 4 6 4
                 [0, 0, 2, 0],                       # builder -> 2; 4 4 4 4
                 [0, 1, 0, 0],                       # oracle -> 1; 4 3 4 4
                 [0, 0, 0, 0]],                      # spectacles: nobody
        "nimos": None,
        "holders": [0, 3, 0, 2, 1, None],
        "good_event": None,
        # A5.2 flood 5 + 4 + 0 = 9; pledges 6 < 9: nothing paid, postponed.
        "pending": [{"event": "flood", "postponed": 0, "cost": 9, "spent_by": None,
                     "pledges": [1, 1, 2, 2], "resolved": False}],
        "collapse": False,                           # A5.3 flood p=1: 5 + 4 + 3 = 12 < 20
        "benefits": [
            {"character": "thief", "seat": 0, "target": 3, "choice": None, "blocked": False},  # 4 // 2 = 2: 6 3 4 2
            {"character": "priest", "seat": 3, "target": None, "choice": None, "blocked": False},  # renown 0 0 0 3
            {"character": "guard", "seat": 0, "target": None, "choice": None, "blocked": False},
            {"character": "builder", "seat": 2, "target": None, "choice": 4, "blocked": False},  # 4 -> 5: 6 3 0 2; 0 0 5 3
            {"character": "oracle", "seat": 1, "target": None, "choice": None, "blocked": False},
        ],
        # A8: 2 supporters < ceil(2/3 × 4) = 3: fails; pledges paid: 5 2 0 2.
        "ostracism": {"proposer": 0, "target": 2, "supporters": [0, 1], "pledges": [1, 1, 0, 0],
                      "passed": False, "new_mc": None},
        "honours": [2, 2, 3, 2],                     # A9: seat 2, 3 votes: renown 0 0 10 3
        "honoured": 2,
        "gold": [5, 2, 0, 2],
        "renown": [0, 0, 10, 3],
    }
    r1 = {
        "in_game": [0, 1, 2, 3],
        "mc": 1,
        "income": [7, 7, 7, 7],                      # gold 12 9 7 9
        "event_deck": None,
        "event": "harvest",
        "revealed": ["assassin", "brigand", "hero", "courtesan", "priest", "crier"],
        # last round's Oracle applied; three_bids: one other player's bid at each of auctions
        # 0, 1, 2 (seat 0 seen twice: draws are independent)
        "oracle": {"seat": 1, "views": [[0, 0], [1, 2], [2, 0]]},
        "bids": [[0, 0, 0, 0],                       # assassin: nobody
                 [2, 1, 0, 2],                       # brigand: 0 and 3 tied, renown 0 < 3 -> 3; 10 8 7 7
                 [1, 1, 1, 0],                       # hero: 0, 1, 2 tied, renown 10 -> 2; 9 7 6 7
                 [0, 2, 0, 0],                       # courtesan -> 1; 9 5 6 7
                 [3, 0, 0, 1],                       # priest -> 0; 6 5 6 6
                 [0, 0, 0, 0]],                      # crier: nobody
        "nimos": None,
        "holders": [None, 3, 2, 1, 0, None],
        "good_event": {"event": "harvest", "stopped_by": None, "players": None},  # +10: 16 15 16 16
        # flood p=1: 5 + 4 + 3 = 12; the Priest's holder 0 spends it: +3 renown: 3 0 10 3
        "pending": [{"event": "flood", "postponed": 1, "cost": 12, "spent_by": 0, "pledges": None,
                     "resolved": True}],
        "collapse": False,
        "benefits": [
            {"character": "brigand", "seat": 3, "target": 0, "choice": None, "blocked": False},
            {"character": "hero", "seat": 2, "target": None, "choice": None, "blocked": False},   # 3 0 14 3
            {"character": "courtesan", "seat": 1, "target": 2, "choice": None, "blocked": False},  # 3 0 10 3
        ],
        # A8: 3 supporters >= 3; pledges 16 >= ceil(63 / 4) = 16: passes. Paid: 11 9 16 11.
        # Seat 2's 16 gold and 10 renown over 3 players left: ceil 6 and 4 each: 17 15 - 17; 7 4 - 7;
        # proposer +3: 7 7 - 7.
        "ostracism": {"proposer": 1, "target": 2, "supporters": [1, 0, 3], "pledges": [5, 6, 0, 5],
                      "passed": True, "new_mc": None},
        "honours": [3, 3, None, 0],                  # seat 3: 2 votes, +5: 7 7 - 12
        "honoured": 3,
        "gold": [17, 15, None, 17],
        "renown": [7, 7, None, 12],
    }
    return {
        "game": "assemblee",
        "contract": 2,
        "players": 4,
        "variants": dict(DEFAULTS, rounds=2),
        "seed": 99,
        "policies": ["civic", "free_rider", "aggressive", "random"],
        "personalities": None,
        "mc": 1,
        "event_deck": list(DECK),
        "rounds": [r0, r1],
        # A10: 7 + 17 // 3 = 12, 7 + 5 = 12, 12 + 5 = 17.
        "final": {"collapse": False, "scores": [12, 12, None, 17], "winners": [3], "tie_choice": None},
    }


def test_hand_record_is_clean():
    rec = hand_record()
    assert audit_assemblee(rec) == []
    assert audit(rec) == []
    assert audit_assemblee(json.loads(json.dumps(rec)), check_schema=False) == []


def _set(rec, path, value):
    obj = rec
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


R0, R1 = ("rounds", 0), ("rounds", 1)

MUTATIONS = {
    "wrong income": ([(R0 + ("income",), [7, 7, 7, 6])], "A2"),
    "wrong cost": ([(R1 + ("pending", 0, "cost"), 9)], "A5.2/A6"),
    "postponement not counted": ([(R1 + ("pending", 0, "postponed"), 0), (R1 + ("pending", 0, "cost"), 9)], "A5.2"),
    "resolved while pledges short": ([(R0 + ("pending", 0, "resolved"), True)], "A5.2"),
    "spent by a non-holder": ([(R1 + ("pending", 0, "spent_by"), 3)], "A5.2"),
    "wrong holder": ([(R0 + ("holders",), [2, 3, 0, 2, 1, None])], "A4"),
    "tie not by renown": ([(R1 + ("holders",), [None, 0, 2, 1, 0, None])], "A4"),
    "holder without a bid": ([(R0 + ("holders",), [0, 3, 0, 2, 1, 2])], "A4"),
    "bid above gold": ([(R0 + ("bids", 0), [8, 0, 1, 0])], "A4"),
    "too few characters": ([(R0 + ("revealed",), ["thief", "priest", "guard", "builder", "oracle"]),
                            (R0 + ("bids",), [[2, 0, 1, 0], [0, 3, 0, 3], [1, 0, 0, 0], [0, 0, 2, 0],
                                              [0, 1, 0, 0]]),
                            (R0 + ("holders",), [0, 3, 0, 2, 1])], "A4"),
    "event not the top card": ([(R0 + ("event",), "famine")], "A3"),
    "reshuffle without an empty deck": ([(R1 + ("event_deck",), list(reversed(DECK)))], "A3"),
    "oracle advantage missing": ([(R1 + ("oracle",), None)], "A4"),
    "oracle sees too few bids": ([(R1 + ("oracle", "views"), [[0, 0], [1, 2]])], "A4"),
    "oracle sees himself": ([(R1 + ("oracle", "views"), [[0, 0], [1, 1], [2, 0]])], "A4"),
    "oracle sees an exiled or unknown seat": ([(R1 + ("oracle", "views"), [[0, 0], [1, 7], [2, 0]])], "A4"),
    "oracle sees two bids at one auction": ([(R1 + ("oracle", "views"), [[0, 0], [0, 2], [2, 0]])], "A4"),
    "oracle sees a bid at auction 3": ([(R1 + ("oracle", "views"), [[0, 0], [1, 2], [3, 0]])], "A4"),
    "oracle sees 3 players all round under three_bids": (
        [(R1 + ("oracle", "views"), [[i, s] for i in range(6) for s in (0, 2, 3)])], "A4"),
    "three_bids views under three_players": ([("variants", "oracle_view", "three_players")], "A4"),
    "oracle record of contract 1 (sees)": ([(R1 + ("oracle",), {"seat": 1, "sees": [0, 2, 3]})], "A4"),
    "oracle in round 0": ([(R0 + ("oracle",), {"seat": 1, "views": [[0, 0], [1, 2], [2, 3]]})], "A4"),
    "contract 1": ([("contract", 1)], "GAME_RECORD"),
    "unknown oracle_view": ([("variants", "oracle_view", "two_bids")], "Part V"),
    "unknown postpone_surcharge": ([("variants", "postpone_surcharge", "twice")], "Part V"),
    "unknown event_draw": ([("variants", "event_draw", "random")], "Part V"),
    "unknown final_tie": ([("variants", "final_tie", "oldest")], "Part V"),
    "event deck under independent": ([("variants", "event_draw", "independent")], "A3"),
    "tie_choice under shared": ([("final", "tie_choice", {"mc": 1, "tied": [0, 3], "chosen": 3})], "A10"),
    "tie_choice without a tie": ([("variants", "final_tie", "mc_choice"),
                                  ("final", "tie_choice", {"mc": 1, "tied": [0, 3], "chosen": 3})], "A10"),
    "tie_choice missing": ([("final", "tie_choice", "DELETE")], "GAME_RECORD"),
    "harvest stopped by a non-holder": ([(R1 + ("good_event",), {"event": "harvest", "stopped_by": 0,
                                                                  "players": None})], "A5.1"),
    "good event on a harmful draw": ([(R0 + ("good_event",), {"event": "harvest", "stopped_by": None,
                                                               "players": None})], "A5.1"),
    "collapse below the threshold": ([(R0 + ("collapse",), True)], "A5.3"),
    "no collapse at the threshold": ([("variants", "collapse_threshold", 12)], "A5.3"),
    "thief targets himself": ([(R0 + ("benefits", 0, "target"), 0)], "A7/A12"),
    "thief without target": ([(R0 + ("benefits", 0, "target"), None)], "A7/A12"),
    "brigand blocked for no reason": ([(R1 + ("benefits", 0, "blocked"), True)], "A7/A11"),
    "benefit missing": ([(R0 + ("benefits",), [b for i, b in enumerate(hand_record()["rounds"][0]["benefits"])
                                               if i != 1])], "A7"),
    "spent character gives a benefit": ([(R1 + ("benefits",), hand_record()["rounds"][1]["benefits"] + [
        {"character": "priest", "seat": 0, "target": None, "choice": None, "blocked": False}])], "A7"),
    "builder purchase not in the table": ([(R0 + ("benefits", 3, "choice"), 5)], "schema"),
    "builder buys beyond his gold": ([(R0 + ("benefits", 3, "choice"), 6)], "A7"),
    "ostracism passes without supporters": ([(R0 + ("ostracism", "passed"), True)], "A8"),
    "ostracism fails with both thresholds": ([(R1 + ("ostracism", "passed"), False)], "A8"),
    "pledges short of a quarter": ([(R1 + ("ostracism", "pledges"), [5, 5, 0, 5])], "A8"),
    "target supports": ([(R1 + ("ostracism", "supporters"), [1, 0, 3, 2])], "A8"),
    "non-supporter pledges": ([(R0 + ("ostracism", "pledges"), [1, 1, 0, 1])], "A12"),
    "new MC without an exiled MC": ([(R1 + ("ostracism", "new_mc"), 0)], "A8"),
    "share rounded down": ([(R1 + ("gold",), [16, 14, None, 16]), (R1 + ("renown",), [6, 6, None, 11]),
                            ("final", "scores", [11, 10, None, 16])], "A2–A9"),
    "proposer +3 when it fails": ([(R0 + ("renown",), [3, 0, 10, 3])], "A2–A9"),
    "vote for himself": ([(R0 + ("honours",), [2, 2, 2, 2])], "A9"),
    "wrong honoured": ([(R0 + ("honoured",), 3)], "A9"),
    "exiled player still in the game": ([(R1 + ("gold",), [17, 15, 0, 17])], "A2–A9"),
    "wrong in_game": ([(R1 + ("in_game",), [0, 1, 3])], "A7/A8"),
    "wrong mc": ([(R1 + ("mc",), 0)], "A7/A8"),
    "mirnok without the variant": ([("personalities", ["mirnok", "ulios", "akikos", "nimos"])], "A11"),
    "wrong winner": ([("final", "winners", [0])], "A10"),
    "tie on score without gold": ([("final", "winners", [0, 1, 3])], "A10"),
    "wrong score": ([("final", "scores", [12, 12, None, 12])], "A10"),
    "collapse flagged at the end": ([("final", "collapse", True), ("final", "winners", [])], "A5.3"),
    "too few rounds": ([("variants", "rounds", 3)], "A1"),
    "too many rounds": ([("variants", "rounds", 1)], "A10"),
    "unknown variant": ([("variants", "assassin_price", 25)], "Part V"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutations_of_the_hand_record_are_caught(name):
    changes, rule = MUTATIONS[name]
    rec = hand_record()
    for change in changes:
        # (path tuple, value), or a flat (key, key, …, value)
        path, value = (change[0], change[1]) if isinstance(change[0], tuple) else (change[:-1], change[-1])
        if value == "DELETE":
            obj = rec
            for key in path[:-1]:
                obj = obj[key]
            del obj[path[-1]]
            continue
        _set(rec, path, value)
    violations = audit_assemblee(rec)
    if rule is None:
        assert violations == []
        return
    assert violations, name
    assert rule in rules_of(violations), violations


def test_brigand_target_gets_one_gold_next_round():
    """A third round after the hand record: seat 0, the Brigand's target, gets 1."""
    rec = hand_record()
    rec["variants"]["rounds"] = 3
    r2 = copy.deepcopy(rec["rounds"][1])
    r2.update({"in_game": [0, 1, 3], "income": [1, 7, 0, 7], "event": "epidemic", "oracle": None,
               "revealed": ["spectacles", "guard", "thief", "assassin", "peddler", "courtesan"],
               "bids": [[0] * 4] * 6, "holders": [None] * 6, "good_event": None,
               "pending": [{"event": "epidemic", "postponed": 0, "cost": 9, "spent_by": None,
                            "pledges": [3, 3, 0, 3], "resolved": True}],
               "benefits": [], "ostracism": None, "honours": [1, 0, None, 0], "honoured": 0,
               "gold": [15, 19, None, 21], "renown": [12, 7, None, 12]})
    # gold 18 22 - 24 after income, 15 19 - 21 after the pledges; seat 0 (2 votes) +5.
    rec["rounds"].append(r2)
    rec["final"] = {"collapse": False, "scores": [17, 13, None, 19], "winners": [3], "tie_choice": None}
    assert audit_assemblee(rec) == []
    r2["income"] = [7, 7, 0, 7]
    assert "A2" in rules_of(audit_assemblee(rec))


def test_collapse_ends_the_game_with_no_winner():
    """With collapse_threshold 12 round 0 collapses (flood p=1 costs 12): the round stops."""
    rec = hand_record()
    rec["variants"]["collapse_threshold"] = 12
    r0 = rec["rounds"][0]
    r0.update({"collapse": True, "benefits": None, "ostracism": None, "honours": None, "honoured": None,
               "gold": [4, 3, 4, 4], "renown": [0, 0, 0, 0]})
    rec["rounds"] = [r0]
    rec["final"] = {"collapse": True, "scores": [1, 1, 1, 1], "winners": [], "tie_choice": None}
    assert audit_assemblee(rec) == []
    rec["final"]["winners"] = [0, 1, 2, 3]
    assert "A10" in rules_of(audit_assemblee(rec, check_schema=False))


def test_hand_record_under_the_other_variant_values():
    """The hand record read under three_players (its views rewritten: the same 3 players
    at all 6 auctions), under postpone_surcharge = once (no event is postponed twice, so
    every cost is the same: flood p=1 costs 5 + 4 + 3·min(1, 1) = 12) and under final_tie
    = mc_choice (no tie after gold: tie_choice stays null)."""
    rec = hand_record()
    rec["variants"]["oracle_view"] = "three_players"
    rec["rounds"][1]["oracle"]["views"] = [[i, s] for i in range(6) for s in (0, 2, 3)]
    assert audit_assemblee(rec) == []
    rec["rounds"][1]["oracle"]["views"] = [[i, s] for i in range(6) for s in (0, 2)]  # 2 < 3
    assert "A4" in rules_of(audit_assemblee(rec))
    rec["rounds"][1]["oracle"]["views"] = [[i, s] for i in range(5) for s in (0, 2, 3)]  # auction 5 unseen
    assert "A4" in rules_of(audit_assemblee(rec))
    rec["rounds"][1]["oracle"]["views"] = [[i, (0, 2, 3)[i % 3]] for i in range(6)]  # one a time
    assert "A4" in rules_of(audit_assemblee(rec))
    for name, value in (("postpone_surcharge", "once"), ("final_tie", "mc_choice")):
        rec = hand_record()
        rec["variants"][name] = value
        assert audit_assemblee(rec) == [], name


def three_round_record(surcharge="per_round", tie=False, final_tie="shared", independent=False) -> dict:
    """The hand record made 3 rounds long, with the MC changed and an event postponed twice.

    Changes to the first two rounds: the setup MC is seat 2, so the exile of round 1 exiles
    the MC, who names seat 0 (the MC at the end); in round 1 nobody spends the Priest on
    the flood (pledges 0: postponed again, p = 2) and the Priest's benefit gives seat 0
    the same +3 renown instead, so every figure of rounds 0–1 is unchanged. Round 1's
    flood p=1 costs 12 under both surcharges; A5.3 after it: p=2, 5 + 4 + 6 = 15 or
    5 + 4 + 3 = 12 (once), both < 20.

    Round 2, players 0, 1, 3 (X = 3), MC 0: income 1 7 - 7 (seat 0 was the Brigand's
    target): gold 18 22 - 24. Event: the deck's third card, epidemic (independent: flood,
    a repeat of round 0's). No bid. Pending, oldest first:
    - flood p=2: per_round 5 + 3 + 6 = 14, pledges 4+4+4 = 12 < 14: postponed (p -> 3);
      once 5 + 3 + 3·min(2, 1) = 11: 12 >= 11, resolved and paid: 14 18 - 20.
    - epidemic p=0: 6 + 3 = 9 (flood: 5 + 3 = 8); pledges 3+3+3 = 9 (tie: 3+7+9 = 19):
      resolved and paid.
    A5.3: per_round flood p=3 costs 5 + 3 + 9 = 17 < 20; once nothing pending.
    Gold: per_round 15 19 - 21 (tie: 15 15 - 15); once 11 15 - 17 (tie: 11 11 - 11).
    Honours: [1, 0, -, 0]: seat 0, +5: renown 12 7 - 12; tie: [1, 3, -, 1]: seat 1, +5:
    renown 7 12 - 12.
    Scores: per_round 17 13 - 19, once 15 12 - 17: seat 3 wins. Tie: per_round 12 17 - 17
    (gold 15 = 15), once 10 15 - 15 (gold 11 = 11): seats 1 and 3 tied after gold; under
    mc_choice the MC at the end, seat 0, names seat 3."""
    rec = hand_record()
    rec["variants"].update(rounds=3, postpone_surcharge=surcharge, final_tie=final_tie,
                           event_draw="independent" if independent else "deck")
    if independent:
        rec["event_deck"] = None
    rec["mc"] = 2
    r0, r1 = rec["rounds"]
    r0["mc"] = r1["mc"] = 2
    r1["ostracism"]["new_mc"] = 0
    r1["pending"] = [{"event": "flood", "postponed": 1, "cost": 12, "spent_by": None, "pledges": [0, 0, 0, 0],
                      "resolved": False}]
    r1["benefits"].append({"character": "priest", "seat": 0, "target": None, "choice": None, "blocked": False})
    once = surcharge == "once"
    new = "flood" if independent else "epidemic"
    second = [3, 7, 0, 9] if tie else [3, 3, 0, 3]
    r2 = {
        "in_game": [0, 1, 3], "mc": 0, "income": [1, 7, 0, 7], "event_deck": None, "event": new,
        "revealed": ["spectacles", "guard", "thief", "assassin", "peddler", "courtesan"], "oracle": None,
        "bids": [[0] * 4 for _ in range(6)], "nimos": None, "holders": [None] * 6, "good_event": None,
        "pending": [{"event": "flood", "postponed": 2, "cost": 11 if once else 14, "spent_by": None,
                     "pledges": [4, 4, 0, 4], "resolved": once},
                    {"event": new, "postponed": 0, "cost": 8 if independent else 9, "spent_by": None,
                     "pledges": second, "resolved": True}],
        "collapse": False, "benefits": [], "ostracism": None,
        "honours": [1, 3, None, 1] if tie else [1, 0, None, 0], "honoured": 1 if tie else 0,
    }
    gold = {(False, False): [15, 19, None, 21], (False, True): [15, 15, None, 15],
            (True, False): [11, 15, None, 17], (True, True): [11, 11, None, 11]}[(once, tie)]
    r2["gold"] = gold
    r2["renown"] = [7, 12, None, 12] if tie else [12, 7, None, 12]
    scores = {(False, False): [17, 13, None, 19], (True, False): [15, 12, None, 17],
              (False, True): [12, 17, None, 17], (True, True): [10, 15, None, 15]}[(once, tie)]
    rec["rounds"].append(r2)
    final = {"collapse": False, "scores": scores, "winners": [3], "tie_choice": None}
    if tie and final_tie == "shared":
        final["winners"] = [1, 3]
    elif tie:
        final["tie_choice"] = {"mc": 0, "tied": [1, 3], "chosen": 3}
    rec["final"] = final
    return rec


@pytest.mark.parametrize("surcharge", ["per_round", "once"])
@pytest.mark.parametrize("tie,final_tie", [(False, "shared"), (False, "mc_choice"), (True, "shared"),
                                           (True, "mc_choice")])
@pytest.mark.parametrize("independent", [False, True])
def test_three_round_records_are_clean(surcharge, tie, final_tie, independent):
    rec = three_round_record(surcharge, tie, final_tie, independent)
    assert audit_assemblee(rec) == []


def test_A5_2_costs_follow_postpone_surcharge():
    """A record made under one surcharge read under the other: round 2's flood p=2 costs
    14 per round, 11 once."""
    for made, read in (("per_round", "once"), ("once", "per_round")):
        rec = three_round_record(made)
        rec["variants"]["postpone_surcharge"] = read
        v = audit_assemblee(rec)
        assert "A5.2/A6" in rules_of(v), v
        assert any("round 2" in x and "flood" in x for x in v), v


def test_A5_3_collapse_threshold_reached_under_per_round_only():
    """collapse_threshold 17: after round 2, per_round leaves the flood p=3 at 5 + 3 + 9
    = 17 >= 17 (a collapse the record does not show); once leaves nothing pending (and
    the earlier totals, 12 and 12, stay below 17)."""
    rec = three_round_record("per_round")
    rec["variants"]["collapse_threshold"] = 17
    v = audit_assemblee(rec)
    assert "A5.3" in rules_of(v) and any("round 2" in x for x in v if "[A5.3]" in x), v
    rec = three_round_record("once")
    rec["variants"]["collapse_threshold"] = 17
    assert audit_assemblee(rec) == []


def test_A3_repeats_only_under_independent():
    """Round 2 draws a second flood: legal under event_draw = independent, not under deck
    (the third card of the deck is the epidemic)."""
    rec = three_round_record(independent=True)
    assert audit_assemblee(rec) == []
    rec["variants"]["event_draw"] = "deck"
    rec["event_deck"] = list(DECK)
    v = audit_assemblee(rec)
    assert "A3" in rules_of(v) and any("epidemic" in x for x in v), v
    rec = three_round_record(independent=True)
    rec["rounds"][2]["event_deck"] = list(DECK)          # no deck to reshuffle
    assert "A3" in rules_of(audit_assemblee(rec))
    rec = three_round_record(independent=True)
    rec["rounds"][2]["event"] = "nothing"
    assert audit_assemblee(rec)


TIE_MUTATIONS = {
    "the setup MC chooses": ({"mc": 2}, None),
    "a player not the MC chooses": ({"mc": 1}, None),
    "an untied player named": ({"chosen": 0}, None),
    "tied set too large": ({"tied": [0, 1, 3]}, None),
    "tied set too small": ({"tied": [3]}, None),
    "both tied still win": (None, [1, 3]),
    "another player wins": (None, [1]),
}


@pytest.mark.parametrize("name", sorted(TIE_MUTATIONS))
def test_A10_tie_choice_mutations_are_caught(name):
    change, winners = TIE_MUTATIONS[name]
    rec = three_round_record(tie=True, final_tie="mc_choice")
    if change:
        rec["final"]["tie_choice"].update(change)
    if winners:
        rec["final"]["winners"] = winners
    assert "A10" in rules_of(audit_assemblee(rec, check_schema=False))


def test_A10_tie_choice_present_exactly_when_due():
    rec = three_round_record(tie=True, final_tie="mc_choice")
    rec["final"]["tie_choice"] = None
    rec["final"]["winners"] = [1, 3]
    assert "A10" in rules_of(audit_assemblee(rec))        # mc_choice: the MC must name one
    rec = three_round_record(tie=True, final_tie="shared")
    rec["final"]["tie_choice"] = {"mc": 0, "tied": [1, 3], "chosen": 3}
    rec["final"]["winners"] = [3]
    assert "A10" in rules_of(audit_assemblee(rec))        # shared: no choice
    rec = three_round_record(tie=True, final_tie="mc_choice")
    rec["final"]["tie_choice"]["chosen"] = 1               # the MC may name either
    rec["final"]["winners"] = [1]
    assert audit_assemblee(rec) == []


def test_malformed_records_give_violations_not_exceptions():
    for bad in (None, [], {"game": "assemblee"}, {"game": "demos"},
                dict(hand_record(), rounds=[]), dict(hand_record(), rounds=[{}]),
                dict(hand_record(), rounds=[{"in_game": "x", "revealed": [1, 2]}]),
                dict(hand_record(), players=3), dict(hand_record(), event_deck=["flood"] * 15),
                dict(hand_record(), final=None), dict(hand_record(), variants=None)):
        v = audit_assemblee(bad)
        assert isinstance(v, list) and v
    rec = hand_record()
    rec["rounds"][1]["pending"] = [{"event": "nothing"}]
    assert audit_assemblee(rec)
    rec = hand_record()
    rec["rounds"][0]["bids"] = "x"
    assert audit_assemblee(rec)


# ---------------------------------------------------------------------------------------
# A tiny scripted player: random legal games by RULES.md Part A, written as records.

SIX = ["akikos", "leremac", "mirnok", "nimos", "arthas", "ulios"]
BUY = {"builder": {3: 2, 4: 5, 6: 8}, "crier": {3: 1, 4: 2, 6: 3}}
FIXED_RENOWN = {"spectacles": 5, "priest": 3, "hero": 4, "athlete": 3, "philosopher": 2}
FIXED_GOLD = {"peddler": 7, "broker": 4}



def _script_final(rng, v, n, alive, renown, gold, collapse, mc, mc0, stats):
    """A10 in a scripted game: scores, winners (ties: most gold), and under final_tie =
    mc_choice the MC at the end naming one of the tied at random."""
    scores = [renown[s] + gold[s] // 3 if s in alive else None for s in range(n)]
    winners, tie_choice = [], None
    if not collapse:
        top = max(scores[s] for s in alive)
        tied = [s for s in alive if scores[s] == top]
        g = max(gold[s] for s in tied)
        winners = [s for s in tied if gold[s] == g]
        if len(winners) > 1:
            stats["final_tie"] += 1
            if v["final_tie"] == "mc_choice":
                chosen = rng.choice(winners)
                tie_choice = {"mc": mc, "tied": list(winners), "chosen": chosen}
                winners = [chosen]
                stats["tie_choice"] += 1
                stats["tie_choice_new_mc"] += mc != mc0
                stats["tie_choice_mc_tied"] += mc in tie_choice["tied"]
    return {"collapse": collapse, "scores": scores, "winners": winners, "tie_choice": tie_choice}


def _script_honours(rng, alive, renown, n, rd):
    """A9 in a scripted game: random votes, the most votes gains 5 renown (ties: most
    renown, then the MC's choice, here at random)."""
    votes = [None] * n
    for s in alive:
        votes[s] = rng.choice([t for t in alive if t != s])
    cnt = Counter(x for x in votes if x is not None)
    top = max(cnt.values())
    tied = [s for s in cnt if cnt[s] == top]
    best = max(renown[s] for s in tied)
    hon = rng.choice([s for s in tied if renown[s] == best])
    renown[hon] += 5
    rd["honours"], rd["honoured"] = votes, hon

def play_game(n: int, seed: int, variants: dict | None = None, stats: Counter | None = None) -> dict:
    """One random legal game; ``stats`` counts the rare things that happened."""
    rng = random.Random(seed)
    v = dict(DEFAULTS, **(variants or {}))
    stats = stats if stats is not None else Counter()
    pers = None
    if v["personalities"]:
        pers, bag = [], []
        for _ in range(n):
            if not bag:
                bag = SIX[:]
                rng.shuffle(bag)
            pers.append(bag.pop())
    P = (lambda s: pers[s]) if pers else (lambda s: None)
    gold = [0] * n
    renown = [3 if P(s) == "mirnok" else 0 for s in range(n)]
    alive = list(range(n))
    mc = rng.randrange(n)
    deck = EVENTS[:] if isinstance(EVENTS, list) else list(EVENTS)
    rng.shuffle(deck)
    independent = v["event_draw"] == "independent"
    once = v["postpone_surcharge"] == "once"
    rec = {"game": "assemblee", "contract": 2, "players": n, "variants": v, "seed": seed,
           "policies": ["script"] * n, "personalities": pers, "mc": mc,
           "event_deck": None if independent else list(deck), "rounds": []}
    mc0 = mc
    seen_events = []
    pos, pending, brigand, oracle_next, arthas_used = 0, [], set(), None, set()
    threshold = v["collapse_threshold"] or (20 if n <= 7 else 35 if n <= 11 else 40)
    collapse = False
    for _r in range(v["rounds"]):
        X = len(alive)
        rd = {"in_game": list(alive), "mc": mc, "event_deck": None, "oracle": None, "nimos": None,
              "good_event": None, "benefits": None, "ostracism": None, "honours": None, "honoured": None}
        rec["rounds"].append(rd)
        inc = [0] * n
        for s in alive:
            inc[s] = 1 if s in brigand else (13 if v["akikos_income"] == "bonus" else 6) if P(s) == "akikos" else 7
            gold[s] += inc[s]
        rd["income"], brigand = inc, set()
        if independent:
            event = rng.choice(EVENTS)
            if event in seen_events:
                stats["repeat"] += 1
            seen_events.append(event)
        else:
            if pos == 15:
                deck = list(EVENTS)
                rng.shuffle(deck)
                rd["event_deck"], pos = list(deck), 0
                stats["reshuffle"] += 1
            event = deck[pos]
            pos += 1
        rd["event"] = event
        if event in HARMFUL:
            pending.append([event, 0])
        revealed = rng.sample(CHARACTERS, max(6, min(15, X)))
        rd["revealed"] = revealed
        if oracle_next in alive:
            others = [s for s in alive if s != oracle_next]
            if v["oracle_view"] == "three_bids":
                views = [[i, rng.choice(others)] for i in range(3)]
                if len({s for _, s in views}) < 3:
                    stats["oracle_repeat"] += 1
            else:
                seen = sorted(rng.sample(others, min(3, len(others))))
                views = [[i, s] for i in range(len(revealed)) for s in seen]
            rd["oracle"] = {"seat": oracle_next, "views": views}
            stats["oracle"] += 1
        bids, holders, nimos, nimos_used, holder_of = [], [], [], set(), {}
        for c in revealed:
            b = [0] * n
            for s in alive:
                if rng.random() < 0.35:
                    b[s] = rng.randint(0, min(gold[s], 4))
            for s in alive:
                if P(s) == "nimos" and s not in nimos_used and rng.random() < 0.3:
                    to = b[s] + rng.choice([-1, 1])
                    if 0 <= to <= gold[s]:
                        nimos.append({"seat": s, "character": c, "from": b[s], "to": to})
                        nimos_used.add(s)
                        b[s] = to
                        stats["nimos"] += 1
            eff = {s: b[s] + (2 if P(s) == "leremac" and c in ("thief", "assassin", "brigand") else 0) for s in alive}
            top = max(eff.values())
            h = None
            if top >= 1:
                tied = [s for s in alive if eff[s] == top]
                best = max(renown[s] for s in tied)
                h = rng.choice([s for s in tied if renown[s] == best])
                if eff[h] != b[h]:
                    stats["leremac"] += 1
            for s in alive:
                gold[s] -= b[s]
            bids.append(b)
            holders.append(h)
            holder_of[c] = h
        rd["bids"], rd["holders"] = bids, holders
        if nimos:
            rd["nimos"] = nimos[0] if len(nimos) == 1 else nimos
        spent = set()
        if event in GOOD:
            stopper = holder_of.get(GOOD[event])
            ge = {"event": event, "stopped_by": None, "players": None}
            if stopper is not None and rng.random() < 0.5:
                ge["stopped_by"] = stopper
                spent.add(GOOD[event])
                stats["stopped"] += 1
            elif event == "wedding":
                ge["players"] = rng.sample(alive, 2)
                for s in ge["players"]:
                    renown[s] += 3
            else:
                for s in alive:
                    gold[s] += 10 if event == "harvest" else 5
            rd["good_event"] = ge
        entries, left = [], []
        for e, p in pending:
            cost = HARMFUL[e][0] + X + 3 * (min(p, 1) if once else p)
            if p >= 2:
                stats["postponed_twice"] += 1
            ch = HARMFUL[e][1]
            x = {"event": e, "postponed": p, "cost": cost, "spent_by": None, "pledges": None, "resolved": True}
            if holder_of.get(ch) is not None and ch not in spent and rng.random() < 0.6:
                x["spent_by"] = holder_of[ch]
                spent.add(ch)
                renown[holder_of[ch]] += 3
                stats["spent"] += 1
            else:
                pl = [0] * n
                for s in alive:
                    pl[s] = rng.randint(0, min(gold[s], cost // X + 2))
                x["pledges"] = pl
                x["resolved"] = sum(pl) >= cost
                if x["resolved"]:
                    for s in alive:
                        gold[s] -= pl[s]
                else:
                    left.append([e, p + 1])
            entries.append(x)
        pending = left
        rd["pending"] = entries
        collapse = sum(HARMFUL[e][0] + X + 3 * (min(p, 1) if once else p) for e, p in pending) >= threshold
        rd["collapse"] = collapse
        ended = collapse
        if not collapse:
            guard = holder_of.get("guard") if "guard" not in spent else None
            bens, oracle_next = [], None
            for c in revealed:
                h = holder_of.get(c)
                if h is None or c in spent or h not in alive:
                    continue
                b = {"character": c, "seat": h, "target": None, "choice": None, "blocked": False}
                bens.append(b)
                others = [s for s in alive if s != h]
                if c in FIXED_RENOWN:
                    renown[h] += FIXED_RENOWN[c]
                elif c in FIXED_GOLD:
                    gold[h] += FIXED_GOLD[c]
                elif c in BUY:
                    opts = [k for k in BUY[c] if k <= gold[h]]
                    if opts and rng.random() < 0.7:
                        b["choice"] = k = rng.choice(opts)
                        gold[h] -= k
                        renown[h] += BUY[c][k]
                elif c == "oracle":
                    oracle_next = h
                elif c == "courtesan":
                    t = b["target"] = rng.choice(others)
                    renown[t] = max(0, renown[t] - 4)
                elif c in ("thief", "brigand") or (c == "assassin" and gold[h] >= 25 and rng.random() < 0.7):
                    t = b["target"] = rng.choice(others)
                    if c == "assassin":
                        gold[h] -= 25
                    if t == guard:
                        b["blocked"] = True
                        stats["guard"] += 1
                    elif P(t) == "arthas" and t not in arthas_used and rng.random() < 0.5:
                        b["blocked"] = True
                        arthas_used.add(t)
                        stats["arthas"] += 1
                    elif c == "thief":
                        k = gold[t] // 2
                        gold[t] -= k
                        gold[h] += k
                    elif c == "brigand":
                        brigand.add(t)
                    else:
                        alive.remove(t)
                        stats["assassination"] += 1
                        if t == mc:
                            stats["mc_assassinated"] += 1
                            mc = next(s for s in [(t + i) % n for i in range(1, n)] if s in alive)
                        if len(alive) < v["min_players"]:
                            ended = True
                            stats["ended_a7"] += 1
                            break
            rd["benefits"] = bens
        if not ended and rng.random() < 0.4:
            proposer = rng.choice(alive)
            target = rng.choice([s for s in alive if s != proposer])
            sup = [proposer] + [s for s in alive if s not in (proposer, target) and rng.random() < 0.75]
            pl = [0] * n
            for s in sup:
                pl[s] = rng.randint(0, gold[s])
            need_p, need_g = -(-2 * len(alive) // 3), -(-sum(gold[s] for s in alive) // 4)
            passed = len(sup) >= need_p and sum(pl) >= need_g
            for s in alive:
                gold[s] -= pl[s]
            o = {"proposer": proposer, "target": target, "supporters": sup, "pledges": pl, "passed": passed,
                 "new_mc": None}
            if passed:
                stats["exile"] += 1
                alive.remove(target)
                k = len(alive)
                gs, rs = -(-gold[target] // k), -(-renown[target] // k)
                for s in alive:
                    gold[s] += gs
                    renown[s] += rs
                renown[proposer] += 3
                if target == mc:
                    mc = o["new_mc"] = rng.choice(alive)
                    stats["new_mc"] += 1
                if len(alive) < v["min_players"]:
                    ended = True
                    stats["ended_a8"] += 1
            rd["ostracism"] = o
        if not ended:
            _script_honours(rng, alive, renown, n, rd)
        rd["gold"] = [gold[s] if s in alive else None for s in range(n)]
        rd["renown"] = [renown[s] if s in alive else None for s in range(n)]
        if ended:
            break
    rec["final"] = _script_final(rng, v, n, alive, renown, gold, collapse, mc, mc0, stats)
    if collapse:
        stats["collapse"] += 1
    return rec


def play_calm_game(n: int, seed: int, variants: dict | None = None, stats: Counter | None = None) -> dict:
    """A random legal game in which players stay level, so that final ties are common:
    nobody bids (no holder, no benefit, no Oracle), every pledge is the same share
    ``ceil(cost / X)``, and in round 0 everyone but the MC exiles the MC (equal pledges),
    the exiled MC naming a new one. Renown comes from weddings, the proposer's +3 and
    honours (random votes); gold stays equal among the players left."""
    rng = random.Random(seed)
    v = dict(DEFAULTS, **(variants or {}))
    stats = stats if stats is not None else Counter()
    independent = v["event_draw"] == "independent"
    once = v["postpone_surcharge"] == "once"
    gold, renown, alive = [0] * n, [0] * n, list(range(n))
    mc = mc0 = rng.randrange(n)
    deck = list(EVENTS)
    rng.shuffle(deck)
    rec = {"game": "assemblee", "contract": 2, "players": n, "variants": v, "seed": seed,
           "policies": ["calm"] * n, "personalities": None, "mc": mc,
           "event_deck": None if independent else list(deck), "rounds": []}
    pos, pending, collapse = 0, [], False
    threshold = v["collapse_threshold"] or (20 if n <= 7 else 35 if n <= 11 else 40)
    for r in range(v["rounds"]):
        X = len(alive)
        rd = {"in_game": list(alive), "mc": mc, "income": [7 if s in alive else 0 for s in range(n)],
              "event_deck": None, "oracle": None, "nimos": None, "good_event": None, "benefits": None,
              "ostracism": None, "honours": None, "honoured": None}
        rec["rounds"].append(rd)
        for s in alive:
            gold[s] += 7
        if independent:
            event = rng.choice(EVENTS)
        else:
            if pos == 15:
                rng.shuffle(deck)
                rd["event_deck"], pos = list(deck), 0
            event = deck[pos]
            pos += 1
        rd["event"] = event
        if event in HARMFUL:
            pending.append([event, 0])
        rd["revealed"] = rng.sample(CHARACTERS, max(6, min(15, X)))
        rd["bids"] = [[0] * n for _ in rd["revealed"]]
        rd["holders"] = [None] * len(rd["revealed"])
        if event in GOOD:
            ge = {"event": event, "stopped_by": None, "players": None}
            if event == "wedding":
                ge["players"] = rng.sample(alive, 2)
                for s in ge["players"]:
                    renown[s] += 3
            else:
                for s in alive:
                    gold[s] += 10 if event == "harvest" else 5
            rd["good_event"] = ge
        entries, left = [], []
        for e, p in pending:
            cost = HARMFUL[e][0] + X + 3 * (min(p, 1) if once else p)
            share = -(-cost // X)
            pl = [share if s in alive and gold[s] >= share else 0 for s in range(n)]
            done = sum(pl) >= cost
            if done:
                for s in alive:
                    gold[s] -= pl[s]
            else:
                left.append([e, p + 1])
            entries.append({"event": e, "postponed": p, "cost": cost, "spent_by": None, "pledges": pl,
                            "resolved": done})
        pending = left
        rd["pending"] = entries
        collapse = sum(HARMFUL[e][0] + X + 3 * (min(p, 1) if once else p) for e, p in pending) >= threshold
        rd["collapse"] = collapse
        ended = collapse
        if not collapse:
            rd["benefits"] = []
            if r == 0:
                sup = [s for s in alive if s != mc]
                proposer = rng.choice(sup)
                need = -(-sum(gold[s] for s in alive) // 4)
                each = -(-need // len(sup))
                pl = [each if s in sup else 0 for s in range(n)]
                for s in sup:
                    gold[s] -= each
                target = mc
                alive.remove(target)
                k = len(alive)
                gs, rs = -(-gold[target] // k), -(-renown[target] // k)
                for s in alive:
                    gold[s] += gs
                    renown[s] += rs
                renown[proposer] += 3
                mc = rng.choice(alive)
                rd["ostracism"] = {"proposer": proposer, "target": target, "supporters": sorted(sup), "pledges": pl,
                                   "passed": True, "new_mc": mc}
                if len(alive) < v["min_players"]:
                    ended = True
        if not ended:
            _script_honours(rng, alive, renown, n, rd)
        rd["gold"] = [gold[s] if s in alive else None for s in range(n)]
        rd["renown"] = [renown[s] if s in alive else None for s in range(n)]
        if ended:
            break
    rec["final"] = _script_final(rng, v, n, alive, renown, gold, collapse, mc, mc0, stats)
    if collapse:
        stats["collapse"] += 1
    return rec


CALM_SETS = [
    ({"final_tie": "mc_choice", "rounds": 3}, (4, 5, 6)),
    ({"final_tie": "shared", "rounds": 4, "event_draw": "independent", "postpone_surcharge": "once"}, (4, 7)),
    ({"final_tie": "mc_choice", "rounds": 5, "event_draw": "independent", "oracle_view": "three_players"}, (5, 9)),
]

SCRIPT_SETS = [
    ({}, range(4, 16)),
    ({"oracle_view": "three_players", "rounds": 12}, (4, 5, 9, 15)),
    ({"postpone_surcharge": "once", "collapse_threshold": 40}, (4, 7, 12)),
    ({"event_draw": "independent", "rounds": 18, "personalities": True}, (4, 8, 15)),
    ({"final_tie": "mc_choice", "rounds": 4}, (4, 5, 6, 10)),
    ({"final_tie": "mc_choice", "oracle_view": "three_players", "postpone_surcharge": "once",
      "event_draw": "independent", "rounds": 20, "min_players": 4}, (4, 5, 6)),
    ({"rounds": 20, "min_players": 4}, (4, 5, 6)),
    ({"personalities": True, "rounds": 16}, (4, 6, 7, 12, 15)),
    ({"personalities": True, "akikos_income": "total", "collapse_threshold": 25}, (5, 9)),
    ({"collapse_threshold": 12, "rounds": 15}, (4, 8, 13)),
]


def _scripted_records(stats=None):
    for variants, counts in SCRIPT_SETS:
        for n in counts:
            for seed in range(8):
                yield play_game(n, 1000 * n + seed, variants, stats)
    for variants, counts in CALM_SETS:
        for n in counts:
            for seed in range(8):
                yield play_calm_game(n, 1000 * n + seed, variants, stats)


def test_scripted_games_audit_clean_and_cover_the_rare_rules():
    stats: Counter = Counter()
    for rec in _scripted_records(stats):
        v = audit_assemblee(rec)
        assert v == [], (rec["players"], rec["variants"], rec["seed"], v[:3])
    for what in ("reshuffle", "oracle", "nimos", "leremac", "stopped", "spent", "guard", "arthas",
                 "assassination", "mc_assassinated", "exile", "new_mc", "collapse", "ended_a7", "ended_a8",
                 "oracle_repeat", "repeat", "postponed_twice", "final_tie", "tie_choice", "tie_choice_new_mc",
                 "tie_choice_mc_tied"):
        assert stats[what] > 0, (what, stats)


def _mutate(rec, rng):
    """One illegal change to a scripted record; returns its name."""
    rounds = rec["rounds"]
    r = rng.randrange(len(rounds))
    rd = rounds[r]
    alive = rd["in_game"]
    choices = ["income", "event", "bid", "winner", "score", "gold"]
    if any(h is not None for h in rd["holders"]):
        choices.append("holder")
    if rd["pending"]:
        choices.append("cost")
    if rd["benefits"]:
        choices.append("benefit_target")
    if rd["ostracism"]:
        choices.append("ostracism")
    what = rng.choice(choices)
    if what == "income":
        s = rng.choice(alive)
        rd["income"][s] += rng.choice([-1, 1]) if rd["income"][s] > 0 else 1
    elif what == "event":
        rd["event"] = next(e for e in EVENTS if e != rd["event"])
    elif what == "bid":
        s = rng.choice(alive)
        i = rng.randrange(len(rd["bids"]))
        rd["bids"][i][s] += 1000
    elif what == "winner":
        n = rec["players"]
        w = rec["final"]["winners"]
        rec["final"]["winners"] = [s for s in range(n) if s not in w][:1] or [0]
        if rec["final"]["winners"] == w:
            rec["final"]["winners"] = []
    elif what == "score":
        s = next(i for i, x in enumerate(rec["final"]["scores"]) if x is not None)
        rec["final"]["scores"][s] += 1
    elif what == "gold":
        s = rng.choice([i for i, x in enumerate(rd["gold"]) if x is not None])
        rd["gold"][s] += 1
    elif what == "holder":
        i = next(i for i, h in enumerate(rd["holders"]) if h is not None)
        rd["holders"][i] = None
    elif what == "cost":
        rd["pending"][0]["cost"] += 1
    elif what == "benefit_target":
        b = rd["benefits"][0]
        b["target"] = b["seat"]
        if b["character"] not in ("thief", "assassin", "courtesan", "brigand"):
            b["character"] = "thief" if b["character"] != "thief" else "priest"
    elif what == "ostracism":
        rd["ostracism"]["passed"] = not rd["ostracism"]["passed"]
    return what


def _new_field_mutations(rec):
    """Illegal changes to the fields of contract 2 that apply to a record, by name."""
    out = {}
    rounds = rec["rounds"]
    r = next((i for i, rd in enumerate(rounds) if rd["oracle"]), None)
    if r is not None:
        m = copy.deepcopy(rec)
        o = m["rounds"][r]["oracle"]
        o["views"][-1][1] = o["seat"]                      # the Oracle sees himself
        out["oracle_sees_himself"] = m
        m = copy.deepcopy(rec)
        m["rounds"][r]["oracle"]["views"].pop()            # one view too few
        out["oracle_view_missing"] = m
        m = copy.deepcopy(rec)
        v = m["variants"]
        v["oracle_view"] = "three_players" if v["oracle_view"] == "three_bids" else "three_bids"
        out["oracle_view_flipped"] = m
    if rec["final"]["tie_choice"]:
        m = copy.deepcopy(rec)
        tc = m["final"]["tie_choice"]
        tc["mc"] = next(s for s in range(rec["players"]) if s != tc["mc"])
        out["tie_choice_mc"] = m
        m = copy.deepcopy(rec)
        m["variants"]["final_tie"] = "shared"
        out["tie_choice_under_shared"] = m
    if any(x["postponed"] >= 2 for rd in rounds for x in rd["pending"]):
        m = copy.deepcopy(rec)
        v = m["variants"]
        v["postpone_surcharge"] = "once" if v["postpone_surcharge"] == "per_round" else "per_round"
        out["surcharge_flipped"] = m
    if rec["variants"]["event_draw"] == "independent" and len(rounds) > 1:
        m = copy.deepcopy(rec)
        m["rounds"][1]["event_deck"] = list(EVENTS)        # a deck that does not exist
        out["deck_under_independent"] = m
    return out


def test_mutations_of_scripted_games_are_caught():
    rng = random.Random(5)
    caught = Counter()
    for rec in _scripted_records():
        mutated = copy.deepcopy(rec)
        what = _mutate(mutated, rng)
        v = audit_assemblee(mutated, check_schema=False)
        assert v, (what, rec["seed"])
        caught[what] += 1
    assert len(caught) >= 8, caught


def test_mutations_of_the_new_fields_of_scripted_games_are_caught():
    """Every record, each applicable change to oracle views, tie_choice, the surcharge
    and the event deck (contract 2): each is reported."""
    caught = Counter()
    for rec in _scripted_records():
        for what, mutated in _new_field_mutations(rec).items():
            v = audit_assemblee(mutated, check_schema=False)
            assert v, (what, rec["seed"], rec["variants"])
            caught[what] += 1
    assert set(caught) == {"oracle_sees_himself", "oracle_view_missing", "oracle_view_flipped", "tie_choice_mc",
                           "tie_choice_under_shared", "surcharge_flipped", "deck_under_independent"}, caught
