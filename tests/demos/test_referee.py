"""Self-check of the DĒMOS referee (tests/referee_demos.py) and reference scorer.

Shows that the referee passes legal games and fails illegal ones:

- ``ref_best`` on hands computed by hand (RULES.md D4.1–D4.3, X1);
- ``election_winners`` on hand-made endings (D7.3–D7.4, D9.5, D9.6), and for contract 2
  X2 (announced trios), D9.5 ``team_trio = pooled`` and D9.6 step 3
  ``p3_points_tiebreak``;
- a tiny scripted player (``play_game`` below) that plays legal games by RULES.md Part
  D and writes GAME_RECORD.md records; rigged decks give games whose outcome is known
  by hand (Carrés, reveals, a Media action);
- every such record audits clean, and one-field mutations of them are each reported;
- contract-2 records rigged with Carrés so that figures land where a rule needs them: a
  pooled trio that exists only across two members, a side with two covered E figures
  (no pooled trio), an X2 harmony tie, a D9.6 step-3 tie (sum vs max).

Nothing here imports ``demos_sim``.
"""

from __future__ import annotations

import copy
import random
import sys
from itertools import product
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # also when tests/ is a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ref_scoring import (
    combination_score,
    max_suit_count,
    ref_best,
    ref_best_combinations,
    ref_round_key,
)
import referee_demos
from referee_demos import audit_demos, election_winners, people_deck, power_pile_cards

SUITS = "SHDC"


# ---------------------------------------------------------------------------------------
# ref_best on hands computed by hand


def test_example_of_d41_seven_eight_nine_of_spades():
    # ♠7 ♠8 ♠9 = 12 + 7 = 19; unplayed 1H + 3D = 4.
    assert ref_best(["7S", "8S", "9S", "1H", "3D"]) == ("run", 19, 4)


def test_carre_beats_everything_and_leaves_one_card():
    assert ref_best(["5S", "5H", "5D", "5C", "9H"]) == ("carre", 30, 9)
    assert ref_best(["5S", "5H", "5D", "5C", "9H"], carre_points=17) == ("carre", 17, 9)
    assert ref_round_key(["5S", "5H", "5D", "5C", "9H"]) == (30, 2, 9)


def test_no_carre_in_simplified_rules():
    # D8: four of a kind is no combination; two values only, so no run either.
    assert ref_best(["5S", "5H", "5D", "5C", "9H"], rules="simplified") == (None, 0, 29)
    assert ref_round_key(["5S", "5H", "5D", "5C", "9H"], rules="simplified") is None


def test_no_wrap_ten_one_two_is_not_a_run():
    assert ref_best(["10S", "1S", "2S", "5H", "7D"]) == (None, 0, 25)
    assert combination_score(["10S", "1S", "2S"]) is None


def test_four_card_run_scores_its_best_three_card_part():
    # 4S 5S 6S 7H: 4-5-6 one suit = 12 + 4 = 16; 5-6-7 two suits = 8 + 5 = 13.
    assert ref_best(["4S", "5S", "6S", "7H", "1D"]) == ("run", 16, 8)
    # 3H 4S 5S 6S: 4-5-6 one suit = 16 beats 3-4-5 two suits = 11.
    assert ref_best(["3H", "4S", "5S", "6S", "10D"]) == ("run", 16, 13)


def test_two_suit_and_three_suit_runs():
    assert ref_best(["2S", "3S", "4H", "9D", "9C"]) == ("run", 10, 18)  # 8 + 2
    assert ref_best(["2S", "3H", "4D", "9D", "9C"]) == ("run", 6, 18)  # 4 + 2
    assert ref_best(["2S", "3H", "4D", "9D", "9C"], run_base=(20, 10, 5)) == ("run", 7, 18)


def test_d42_best_score_then_unplayed_total():
    # 3-4-5 three suits = 4 + 3 = 7 (unplayed 6 + 10); 4-5-6 three suits = 4 + 4 = 8
    # (unplayed 3 + 10): the score comes first.
    assert ref_best(["3S", "4H", "5D", "6C", "10S"]) == ("run", 8, 13)
    # Two equal runs (8H or 8D as the third card) leave the same total.
    best = ref_best_combinations(["6S", "7S", "8H", "8D", "1C"])
    assert {b[1] for b in best} == {("6S", "7S", "8H"), ("6S", "7S", "8D")}
    assert ref_best(["6S", "7S", "8H", "8D", "1C"]) == ("run", 14, 9)
    # Equal scores from different runs (run_base 10/9/0): 3S4S5S = 13 leaves 16,
    # 4S5S6H = 13 leaves 13, so 3S4S5S is played.
    assert ref_best(["3S", "4S", "5S", "6H", "10C"], run_base=(10, 9, 0)) == ("run", 13, 16)


def test_run_beats_higher_unplayed_run():
    # 8-9-10 three suits = 4 + 8 = 12 vs 1-2-3 one suit = 12 + 1 = 13.
    assert ref_best(["1S", "2S", "3S", "9H", "10D"])[:2] == ("run", 13)


def test_favourite_suit_bonus_x1():
    hand = ["7S", "8S", "9S", "1H", "3D"]
    assert ref_best(hand, favourite_suit="S", favourite_suit_bonus=10) == ("run", 29, 4)
    assert ref_best(hand, favourite_suit="H", favourite_suit_bonus=10) == ("run", 19, 4)
    # The bonus can change the choice: 2H3H4H (12+2+10 = 24) over 7S8S9S (19).
    hand = ["2H", "3H", "4H", "7S", "8S"]
    assert ref_best(hand, favourite_suit="H", favourite_suit_bonus=10) == ("run", 24, 15)


def test_round_key_suit_count_step():
    # D4.3 step 1 counts all 5 cards, not only the combination.
    assert max_suit_count(["7S", "8H", "9D", "1S", "3S"]) == 3
    assert ref_round_key(["7S", "8H", "9D", "1S", "3S"]) == (11, 3, 4)
    assert ref_round_key(["1H", "3D", "10C", "6S", "8H"]) is None


def test_ref_best_rejects_bad_hands():
    with pytest.raises(ValueError):
        ref_best(["7S", "8S", "9S", "1H"])
    with pytest.raises(ValueError):
        ref_best(["7S", "7S", "9S", "1H", "2H"])
    with pytest.raises(ValueError):
        ref_best(["1S", "8S", "9S", "4H", "2H"], rules="simplified")
    with pytest.raises(ValueError):
        ref_best(["11S", "8S", "9S", "4H", "2H"])


def test_hand_counts_over_a_sample():
    # Every hand holding a Carré scores carre_points; every other hand is a run or none.
    rng = random.Random(3)
    deck = people_deck("full")
    for _ in range(3000):
        hand = rng.sample(deck, 5)
        kind, score, unplayed = ref_best(hand)
        values = [int(c[:-1]) for c in hand]
        if max(values.count(x) for x in values) == 4:
            assert (kind, score) == ("carre", 30)
        assert unplayed <= sum(values)


# ---------------------------------------------------------------------------------------
# election_winners on hand-made endings

V = dict(
    no_trio_winner="none",
    team_points_tiebreak="max",
    independent_points_strict=True,
    p3_harmonies="bicolour_then_mono",
    announced_trio=False,
    team_trio="best_member",
    p3_points_tiebreak="sum",
)


def ev(**over):
    out = dict(V)
    out.update(over)
    return out


def test_individual_election_d73_d74():
    labels = ["0", "1", "2", "3"]
    assert election_winners("individual", labels, [{3}, {2}, {3, 1}, set()], [10, 50, 20, 0], V) == ["2"]
    assert election_winners("individual", labels, [{3}, {2}, {3}, set()], [20, 50, 20, 0], V) == ["0", "2"]
    assert election_winners("individual", labels, [set()] * 4, [1, 9, 9, 0], V) == []
    assert election_winners("individual", labels, [set()] * 4, [1, 9, 9, 0], ev(no_trio_winner="points")) == ["1", "2"]
    # A player with a trio beats everyone without one, whatever the points.
    assert election_winners("individual", labels, [set(), {1}, set(), set()], [99, 0, 0, 0], ev(no_trio_winner="points")) == ["1"]


def test_team_election_d95():
    labels = list("ABAB")
    # A = seats 0, 2; B = seats 1, 3. Both sides reach 2 colours.
    h = [{2}, {1}, {1}, {2}]
    assert election_winners("2v2", labels, h, [30, 20, 0, 20], V) == ["A"]  # max: 30 > 20
    assert election_winners("2v2", labels, h, [30, 20, 0, 20], ev(team_points_tiebreak="sum")) == ["B"]  # 40 > 30
    assert election_winners("2v2", labels, h, [30, 30, 0, 0], V) == ["A", "B"]
    assert election_winners("2v2", labels, [set(), {1}, {3}, set()], [0, 99, 0, 0], V) == ["A"]
    assert election_winners("2v2", labels, [set()] * 4, [0, 99, 0, 0], ev(no_trio_winner="points")) == []
    labels = list("ABABB")
    assert election_winners("2v3", labels, [set(), {1}, {1}, set(), set()], [5, 1, 0, 0, 7], V) == ["B"]


def test_2v2_plus_1_priorities_d96():
    labels = list("ABABI")  # A = 0, 2; B = 1, 3; I = 4
    # Step 1: 3-colour trios, their holders' own points decide.
    assert election_winners("2v2+1", labels, [{3}, {3}, set(), set(), {2}], [10, 20, 90, 0, 99], V) == ["B"]
    assert election_winners("2v2+1", labels, [{3}, set(), {3}, set(), set()], [10, 20, 10, 0, 99], V) == ["A"]
    assert election_winners("2v2+1", labels, [{3}, {3}, set(), set(), set()], [10, 10, 0, 0, 0], V) == ["A", "B"]
    assert election_winners("2v2+1", labels, [set(), set(), set(), set(), {3}], [10, 10, 0, 0, 0], V) == ["I"]
    # Step 2 (a): strictly most points; a tie counts only when not strict.
    no3 = [{2}, {1}, set(), set(), set()]
    assert election_winners("2v2+1", labels, no3, [10, 5, 0, 0, 11], V) == ["I"]
    assert election_winners("2v2+1", labels, no3, [11, 5, 0, 0, 11], V) == ["A"]
    assert election_winners("2v2+1", labels, no3, [11, 5, 0, 0, 11], ev(independent_points_strict=False)) == ["I"]
    # Step 2 (b): both Media and a J figure; (c): a 2-colour trio.
    assert election_winners("2v2+1", labels, no3, [11, 5, 0, 0, 0], V, independent_media=2, independent_has_j=True) == ["I"]
    assert election_winners("2v2+1", labels, no3, [11, 5, 0, 0, 0], V, independent_media=2, independent_has_j=False) == ["A"]
    assert election_winners("2v2+1", labels, no3, [11, 5, 0, 0, 0], V, independent_media=1, independent_has_j=True) == ["A"]
    assert election_winners("2v2+1", labels, [{2}, {1}, set(), set(), {2, 1}], [11, 5, 0, 0, 0], V) == ["I"]
    assert election_winners("2v2+1", labels, [{2}, {1}, set(), set(), {1}], [11, 5, 0, 0, 0], V) == ["A"]
    # Step 3: 2 colours above 1 colour; ties as D9.5; no trio -> no winner.
    assert election_winners("2v2+1", labels, [{1}, {2}, set(), set(), set()], [50, 5, 0, 0, 0], V) == ["B"]
    assert election_winners("2v2+1", labels, [{2}, {2}, set(), set(), set()], [50, 5, 0, 0, 0], V) == ["A"]
    assert election_winners("2v2+1", labels, [set()] * 5, [50, 5, 0, 0, 0], V) == []
    # mono_only: only a member who can form a 1-colour trio qualifies.
    mono = ev(p3_harmonies="mono_only")
    assert election_winners("2v2+1", labels, [{2}, {2, 1}, set(), set(), set()], [50, 5, 0, 0, 0], mono) == ["B"]
    assert election_winners("2v2+1", labels, [{1}, {2, 1}, set(), set(), set()], [50, 5, 0, 0, 0], mono) == ["A"]
    assert election_winners("2v2+1", labels, [{2}, {2}, set(), set(), set()], [50, 5, 0, 0, 0], mono) == []


# ---------------------------------------------------------------------------------------
# A tiny scripted player writing GAME_RECORD.md records


def default_variants(rules: str, **over) -> dict:
    v = dict(
        carre_points=30,
        run_base=[12, 8, 4],
        secret_optional=rules == "full",
        max_rounds=None,
        round_cap=200,
        media_targets_revealed=False,
        media_optional=False,
        no_trio_winner="none",
        team_vetoes=2,
        team_points_tiebreak="max",
        independent_double_media="keep",
        independent_points_strict=True,
        p3_harmonies="bicolour_then_mono",
        favourite_suit_bonus=0,
        announced_trio=False,
        team_trio="best_member",
        team_talk="figures",
        p3_points_tiebreak="sum",
    )
    v.update(over)
    return v


def play_game(
    rules="full",
    mode="individual",
    players=4,
    seed=0,
    variants=None,
    seating=None,
    decks=None,
    power_pile=None,
    greedy=0.6,
    p_pass=0.25,
    p_veto=0.2,
    p_media_skip=0.3,
    announce=None,
    owners=None,
    media_choice=None,
) -> dict:
    """Play one legal DĒMOS game with seeded choices and return its record.

    Policies mix random legal moves with a greedy move that peeks at the next deck card
    (legal as far as the record goes: the referee judges moves, not knowledge). Decks
    and the Power pile may be given (rigged) per round. For rigged games: ``announce``
    fixes the X2 announcements (side label -> [E, L, J] suits); ``owners`` fixes which
    member of a winning team receives a figure (figure code -> seat; Media by order of
    drawing as "M0", "M1"); ``media_choice(holder, legal)`` picks a Media action
    ``(target, figure, colour)`` among the legal targets.
    """
    rng = random.Random(seed)
    V = default_variants(rules, **(variants or {}))
    n = players
    if mode == "individual":
        seating_out, labels = None, [str(s) for s in range(n)]
    else:
        seating_out = seating or {"2v2": "ABAB", "2v3": "ABABB", "2v2+1": "ABABI"}[mode]
        labels = list(seating_out)
    members = {}
    for s, lab in enumerate(labels):
        members.setdefault(lab, []).append(s)
    fav = [rng.choice(SUITS) for _ in range(n)] if V["favourite_suit_bonus"] > 0 else None
    # X2: every side announces the suits of E, L, J (after X1's announcements).
    announced = None
    if V["announced_trio"]:
        announced = {lab: [rng.choice(SUITS) for _ in "ELJ"] for lab in members}
        announced.update(announce or {})
    people = people_deck(rules)
    pile = list(power_pile) if power_pile else rng.sample(power_pile_cards(rules), len(power_pile_cards(rules)))
    vetoes = {lab: (V["team_vetoes"] if mode == "2v3" and len(ms) == 2 else 1) for lab, ms in members.items()}
    owned = {s: [] for s in range(n)}
    face_up = {s: set() for s in range(n)}
    cum = [0] * n
    rounds = []
    pile_pos = 0
    truncated = False

    def args(s):
        return dict(rules=rules, carre_points=V["carre_points"], run_base=tuple(V["run_base"]),
                    favourite_suit=fav[s] if fav else None, favourite_suit_bonus=V["favourite_suit_bonus"])

    def key(hand, s):
        k = ref_round_key(hand, **args(s))
        return k if k is not None else (-1, 0, 0)

    def choose(options, s):
        if rng.random() < greedy:
            return max(options, key=lambda o: key(o[1], s))[0]
        return rng.choice(options)[0]

    def discard_take(hands, s, pool, deck, pos):
        """D3.3 / D3.4.3: seat s discards c, then draws the deck's top or takes t from pool."""
        opts = []
        for c in hands[s]:
            rest = [x for x in hands[s] if x != c]
            opts.append(((c, "deck"), rest + [deck[pos]]))
            opts += [((c, t), rest + [t]) for t in pool]
        c, t = choose(opts, s)
        rest = [x for x in hands[s] if x != c]
        if t == "deck":
            hands[s] = rest + [deck[pos]]
            pos += 1
        else:
            pool.remove(t)
            hands[s] = rest + [t]
        return c, t, pos

    r = 0
    while True:
        dealer = r % n
        order = [(dealer + 1 + i) % n for i in range(n)]
        deck = list(decks[r]) if decks and r < len(decks) and decks[r] else rng.sample(people, len(people))
        pos = 0
        hands = {s: [] for s in range(n)}
        for _ in range(5):
            for s in order:
                hands[s].append(deck[pos])
                pos += 1
        # Public discard (D3.2).
        public, table = [], []
        for s in order:
            nxt = deck[pos]
            opts = [(c, [x for x in hands[s] if x != c] + [nxt]) for c in hands[s]]
            c = choose(opts, s)
            hands[s] = [x for x in hands[s] if x != c] + [nxt]
            pos += 1
            table.append(c)
            public.append({"seat": s, "discard": c})
        # Secret discard (D3.3).
        secret, secret_discards = [], []
        for s in order:
            if V["secret_optional"] and rng.random() < p_pass:
                secret.append({"seat": s, "discard": None, "take": None})
                continue
            c, t, pos = discard_take(hands, s, table, deck, pos)
            secret_discards.append(c)
            secret.append({"seat": s, "discard": c, "take": t})
        # Veto and unanimous discard (D3.4).
        veto, unanimous = None, None
        if rules == "full":
            seen = set()
            for s in order:
                lab = labels[s]
                if lab in seen:
                    continue
                seen.add(lab)
                if vetoes[lab] > 0 and rng.random() < p_veto:
                    vetoes[lab] -= 1
                    veto = {"seat": s}
                    break
            if veto is None:
                visible = table + secret_discards
                unanimous = []
                for s in order:
                    c, t, pos = discard_take(hands, s, visible, deck, pos)
                    unanimous.append({"seat": s, "discard": c, "take": t})
        # Showdown (D4.1–D4.3).
        combos, points, keys = {}, [0] * n, {}
        for s in range(n):
            bests = ref_best_combinations(hands[s], **args(s))
            if bests:
                kind, cards, score, _ = rng.choice(bests)
                combos[str(s)] = {"kind": kind, "cards": list(cards), "score": score}
                points[s] = score
                keys[s] = ref_round_key(hands[s], **args(s))
            else:
                combos[str(s)] = None
        top = max(keys.values()) if keys else None
        winners = [s for s in order if s in keys and keys[s] == top]
        # Figures (D4.5, D9.4).
        figures, carre_labels, served = [], set(), []
        for w in winners:
            lab = labels[w]
            if lab in served:
                continue
            served.append(lab)
            carre = any(combos[str(x)]["kind"] == "carre" for x in winners if labels[x] == lab)
            if carre:
                carre_labels.add(lab)
            for _ in range(2 if carre else 1):
                if pile_pos < len(pile):
                    fig = pile[pile_pos]
                    pile_pos += 1
                    receiver = w if mode == "individual" else rng.choice(members[lab])
                    name = fig if fig != "M" else f"M{pile[:pile_pos - 1].count('M')}"
                    if owners and name in owners:
                        receiver = owners[name]
                    owned[receiver].append(fig)
                    figures.append({"seat": receiver, "figure": fig})
        # Carré reveal (D4.6).
        reveals = []
        if carre_labels:
            for s in range(n):
                if labels[s] in carre_labels:
                    continue
                first = [f for f in owned[s] if f != "M"][:1]
                if first and first[0] not in face_up[s]:
                    face_up[s].add(first[0])
                    reveals.append({"seat": s, "figure": first[0]})
        cum = [a + b for a, b in zip(cum, points)]
        rounds.append({
            "dealer": dealer, "deck": deck, "public": public, "secret": secret, "veto": veto,
            "unanimous": unanimous, "hands": {str(s): sorted(hands[s]) for s in range(n)},
            "combos": combos, "winners": winners, "figures": figures, "reveals": reveals,
            "points": points,
        })
        r += 1
        if pile_pos >= len(pile) or (V["max_rounds"] is not None and r >= V["max_rounds"]):
            break
        if r >= V["round_cap"]:
            truncated = True
            break

    scandal, final = None, None
    covered = {}  # (seat, figure) -> colour
    if not truncated and rules == "full":
        media = {s: owned[s].count("M") for s in range(n)}
        indep = labels.index("I") if mode == "2v2+1" else None
        cancelled = [s for s in range(n) if media[s] == 2 and s != indep]
        kept = [indep] if indep is not None and media[indep] == 2 and V["independent_double_media"] == "keep" else []
        last_order = [((r - 1) % n + 1 + i) % n for i in range(n)]
        actions = []
        for s in last_order:
            if s in cancelled or s in kept:
                continue
            for _ in range(media[s]):
                legal = [(t, f) for t in range(n) if t != s for f in owned[t]
                         if f != "M" and (t, f) not in covered
                         and (f not in face_up[t] or V["media_targets_revealed"])]
                if not legal or (V["media_optional"] and rng.random() < p_media_skip):
                    continue
                if media_choice:
                    t, f, colour = media_choice(s, legal)
                else:
                    t, f = rng.choice(legal)
                    colour = rng.choice(SUITS)
                covered[(t, f)] = colour
                actions.append({"seat": s, "target": t, "figure": f, "colour": colour})
        scandal = {"cancelled": cancelled, "kept": kept, "actions": actions}
    if not truncated:
        trios, trio_colours, harmony, colourings = {}, {}, [], []

        def pick(options, ann):
            # D7.1: a trio of the best harmony; X2: a matching one when there is one.
            best = max(o[-1] for o in options)
            top = [o for o in options if o[-1] == best]
            hits = [o for o in top if ann is not None and list(o[-2]) == list(ann)]
            return rng.choice(hits or top)

        for s in range(n):
            cov = {f: c for (t, f), c in covered.items() if t == s}
            figs = owned[s]
            options = []
            for trio in product(*[[f for f in figs if f[0] == t] for t in "ELJ"]):
                if all(f in trio for f in cov):
                    cols = [cov.get(f, f[1]) for f in trio]
                    options.append((list(trio), cols, len(set(cols))))
            colourings.append({tuple(o[1]) for o in options})
            if options:
                trio, cols, h = pick(options, announced and announced[labels[s]])
                trios[str(s)], trio_colours[str(s)] = trio, cols
                harmony.append(h)
            else:
                trios[str(s)] = trio_colours[str(s)] = None
                harmony.append(0)
        # D9.5 team_trio = pooled: one E, L, J from any members, every covered figure in.
        side_trios, side_colourings = None, None
        if mode != "individual" and V["team_trio"] == "pooled":
            side_trios, side_colourings = {}, {}
            for lab, ms in members.items():
                if lab == "I":
                    continue
                held = {t: [(m, f) for m in ms for f in owned[m] if f[0] == t] for t in "ELJ"}
                must = [(m, f) for (m, f) in covered if m in ms]
                options = []
                for picks in product(held["E"], held["L"], held["J"]):
                    if all(x in picks for x in must):
                        cols = [covered.get(x, x[1][1]) for x in picks]
                        options.append(([f for _, f in picks], [m for m, _ in picks], cols, len(set(cols))))
                side_colourings[lab] = {tuple(o[2]) for o in options}
                if options:
                    figs, seats, cols, h = pick(options, announced and announced[lab])
                    side_trios[lab] = {"figures": figs, "seats": seats, "colours": cols, "harmony": h}
                else:
                    side_trios[lab] = None
        indep = labels.index("I") if mode == "2v2+1" else None
        sides = election_winners(
            mode, labels, colourings, cum, V,
            independent_media=owned[indep].count("M") if indep is not None else 0,
            independent_has_j=indep is not None and any(f[0] == "J" for f in owned[indep]),
            announced={k: tuple(a) for k, a in announced.items()} if announced else None,
            side_trios=side_colourings,
        )
        final = {
            "cumulative_points": cum, "trios": trios, "trio_colours": trio_colours,
            "harmony": harmony, "winners": [s for s in range(n) if labels[s] in sides],
            "winning_sides": sides, "side_trios": side_trios,
        }
    return {
        "game": "demos", "contract": 2, "rules": rules, "mode": mode, "players": n,
        "seating": seating_out, "variants": V, "seed": seed, "policies": ["scripted"] * n,
        "favourite_suits": fav, "announced_trios": announced, "power_pile": pile,
        "rounds": rounds, "truncated": truncated, "scandal": scandal, "final": final,
    }


def rigged_deck(rules: str, fixed: dict[int, str], seed: int) -> list[str]:
    """A People deck with ``fixed`` cards at the given positions, the rest shuffled."""
    rest = [c for c in people_deck(rules) if c not in fixed.values()]
    random.Random(seed).shuffle(rest)
    deck = []
    for i in range(len(people_deck(rules))):
        deck.append(fixed[i] if i in fixed else rest.pop())
    return deck


CARRE_PILE = ["ES", "LH", "JD", "M", "EH", "LD", "JS", "EC", "LC", "JH", "M", "ED", "LS", "JC"]


def carre_game(**variants) -> dict:
    """4 players, full rules, 3 rounds, each won with a rigged Carré.

    Round 0 (dealer 0, order 1 2 3 0): seat 2 is dealt the four 7s (deck positions 1, 5,
    9, 13) and wins ES, LH. Round 1 (order 2 3 0 1): seat 1 is dealt the four 8s and wins
    JD, M; seat 2 reveals ES. Round 2 (order 3 0 1 2): seat 3 is dealt the four 9s and
    wins EH, LD; seat 2's ES is already face up (nothing more), seat 1 reveals JD.
    Scandal: seat 1's Media must target LH (seat 2), EH or LD (seat 3).
    """
    decks = [
        rigged_deck("full", {1: "7S", 5: "7H", 9: "7D", 13: "7C"}, 11),
        rigged_deck("full", {3: "8S", 7: "8H", 11: "8D", 15: "8C"}, 12),
        rigged_deck("full", {0: "9S", 4: "9H", 8: "9D", 12: "9C"}, 13),
    ]
    v = dict(max_rounds=3)
    v.update(variants)
    return play_game("full", "individual", 4, seed=5, variants=v, decks=decks,
                     power_pile=CARRE_PILE, greedy=1.0, p_pass=0.0, p_veto=0.0)


# ---------------------------------------------------------------------------------------
# Clean games audit clean


def test_carre_game_outcome_known_by_hand():
    rec = carre_game()
    r0, r1, r2 = rec["rounds"]
    assert {"7S", "7H", "7D", "7C"} <= set(r0["hands"]["2"])
    assert r0["combos"]["2"]["kind"] == "carre" and r0["combos"]["2"]["score"] == 30
    assert r0["winners"] == [2]
    assert r0["figures"] == [{"seat": 2, "figure": "ES"}, {"seat": 2, "figure": "LH"}]
    assert r0["reveals"] == []
    assert r1["winners"] == [1]
    assert r1["figures"] == [{"seat": 1, "figure": "JD"}, {"seat": 1, "figure": "M"}]
    assert r1["reveals"] == [{"seat": 2, "figure": "ES"}]
    assert r2["winners"] == [3]
    assert r2["figures"] == [{"seat": 3, "figure": "EH"}, {"seat": 3, "figure": "LD"}]
    assert r2["reveals"] == [{"seat": 1, "figure": "JD"}]
    assert len(rec["scandal"]["actions"]) == 1
    assert rec["scandal"]["actions"][0]["seat"] == 1
    assert (rec["scandal"]["actions"][0]["target"], rec["scandal"]["actions"][0]["figure"]) in {
        (2, "LH"), (3, "EH"), (3, "LD")}
    assert rec["final"]["harmony"] == [0, 0, 0, 0]
    assert rec["final"]["winners"] == [] and rec["final"]["winning_sides"] == []
    assert audit_demos(rec) == []


GAMES = (
    [("simplified", "individual", p, s) for p in (3, 4, 5) for s in range(4)]
    + [("full", "individual", p, s) for p in (3, 4, 5) for s in range(4)]
    + [("full", m, 4 if m == "2v2" else 5, s) for m in ("2v2", "2v3", "2v2+1") for s in range(6)]
)


@pytest.mark.parametrize("rules,mode,players,seed", GAMES)
def test_scripted_games_audit_clean(rules, mode, players, seed):
    rec = play_game(rules, mode, players, seed=seed)
    assert audit_demos(rec) == []


@pytest.mark.parametrize("variants", [
    dict(favourite_suit_bonus=10),
    dict(carre_points=19, run_base=[20, 10, 0]),
    dict(media_targets_revealed=True),
    dict(media_optional=True),
    dict(no_trio_winner="points"),
    dict(max_rounds=2),
    dict(secret_optional=False),
])
def test_variant_games_audit_clean(variants):
    for seed in range(3):
        assert audit_demos(play_game("full", "individual", 4, seed=seed, variants=variants)) == []
    assert audit_demos(carre_game(**variants)) == []


@pytest.mark.parametrize("variants", [
    dict(independent_double_media="act"),
    dict(independent_points_strict=False, p3_harmonies="mono_only"),
    dict(team_points_tiebreak="sum", team_vetoes=0),
])
def test_team_variant_games_audit_clean(variants):
    for mode in ("2v3", "2v2+1"):
        for seed in range(3):
            assert audit_demos(play_game("full", mode, 5, seed=seed, variants=variants)) == []


def test_independent_double_media_both_ways():
    # The Independent (seat 4) is dealt a Carré in round 0 (order 1 2 3 4 0: deck
    # positions 3, 8, 13, 18) and draws both Media; he keeps them, or plays both (D9.6).
    pile = ["M", "M", "ES", "LH", "JD", "EH", "LD", "JS", "EC", "LC", "JH", "ED", "LS", "JC"]
    deck = rigged_deck("full", {3: "6S", 8: "6H", 13: "6D", 18: "6C"}, 21)
    for how in ("keep", "act"):
        rec = play_game("full", "2v2+1", 5, seed=1, power_pile=pile, decks=[deck], greedy=1.0,
                        p_veto=0.0, variants=dict(independent_double_media=how))
        assert rec["rounds"][0]["figures"] == [{"seat": 4, "figure": "M"}] * 2
        assert audit_demos(rec) == []
        assert rec["scandal"]["cancelled"] == []
        if how == "keep":
            assert rec["scandal"]["kept"] == [4] and rec["scandal"]["actions"] == []
            # Playing a kept Media is a violation.
            bad = mutate(rec, lambda r: r["scandal"]["actions"].append(
                {"seat": 4, "target": 0, "figure": r["power_pile"][2], "colour": "S"}))
            assert reported(bad, "[D6.2]")
        else:
            assert rec["scandal"]["kept"] == []
            assert [a["seat"] for a in rec["scandal"]["actions"]] == [4, 4]
            assert reported(mutate(rec, lambda r: r["scandal"]["actions"].pop()), "[D6.2]", "compulsory")
            assert reported(mutate(rec, lambda r: r["scandal"].update(cancelled=[4])), "[D6.1]")


def test_truncated_and_cap_games():
    rec = play_game("full", "individual", 4, seed=1, variants=dict(round_cap=2))
    assert rec["truncated"] is True and len(rec["rounds"]) == 2
    assert audit_demos(rec) == []
    # A normal end (max_rounds) on the round_cap round is a normal end (D5.1).
    rec = play_game("full", "individual", 4, seed=1, variants=dict(round_cap=2, max_rounds=2))
    assert rec["truncated"] is False
    assert audit_demos(rec) == []
    rec["truncated"], rec["scandal"], rec["final"] = True, None, None
    assert any("[D5.1]" in m for m in audit_demos(rec))


# ---------------------------------------------------------------------------------------
# Mutations are reported


def mutate(record, fn):
    rec = copy.deepcopy(record)
    fn(rec)
    return audit_demos(rec)


def reported(violations, *needles):
    return violations and all(any(n in v for v in violations) for n in needles)


@pytest.fixture(scope="module")
def full4():
    return play_game("full", "individual", 4, seed=2)


@pytest.fixture(scope="module")
def simple3():
    return play_game("simplified", "individual", 3, seed=1)


@pytest.fixture(scope="module")
def team5():
    return play_game("full", "2v2+1", 5, seed=3, p_veto=0.5)


@pytest.fixture(scope="module")
def carre():
    return carre_game()


def test_fixtures_are_clean(full4, simple3, team5, carre):
    for rec in (full4, simple3, team5, carre):
        assert audit_demos(rec) == []


def test_wrong_draw_card(full4):
    n = full4["players"]

    def swap(rec):
        d = rec["rounds"][0]["deck"]
        d[5 * n], d[5 * n + 1] = d[5 * n + 1], d[5 * n]

    assert reported(mutate(full4, swap), "[D3")


def test_recorded_hand_differs(full4):
    def fn(rec):
        h = rec["rounds"][0]["hands"]["1"]
        h[0] = next(c for c in rec["rounds"][0]["deck"] if c not in sum(rec["rounds"][0]["hands"].values(), []))

    assert reported(mutate(full4, fn), "[D3.5]")


def test_public_discard_not_in_hand(full4):
    def fn(rec):
        rnd = rec["rounds"][0]
        rnd["public"][0]["discard"] = rnd["deck"][-1]  # the last deck card is never dealt or drawn

    assert reported(mutate(full4, fn), "[D3.2]", "not in their hand")


def test_public_out_of_order(full4):
    def fn(rec):
        p = rec["rounds"][0]["public"]
        p[0], p[1] = p[1], p[0]

    assert reported(mutate(full4, fn), "[D3.2]", "action order")


def test_take_of_a_card_already_taken(full4, team5):
    for base in (full4, team5):
        found = False
        for r, rnd in enumerate(base["rounds"]):
            takes = [i for i, e in enumerate(rnd["secret"]) if e["take"] not in (None, "deck")]
            later = [j for j, e in enumerate(rnd["secret"]) if takes and j > takes[0] and e["take"] is not None]
            if takes and later:
                i, j = takes[0], later[0]

                def fn(rec, r=r, i=i, j=j):
                    s = rec["rounds"][r]["secret"]
                    s[j]["take"] = s[i]["take"]

                assert reported(mutate(base, fn), "[D3.3]", "not a public discard still on the table")
                found = True
                break
        assert found


def test_secret_take_of_a_secret_discard(full4):
    # A secret discard is face down: it cannot be taken in the secret turn (D3.3).
    r = next(i for i, rnd in enumerate(full4["rounds"])
             if rnd["secret"][0]["discard"] is not None and rnd["secret"][1]["discard"] is not None)

    def fn(rec):
        s = rec["rounds"][r]["secret"]
        s[1]["take"] = s[0]["discard"]

    assert reported(mutate(full4, fn), "[D3.3]", "not a public discard still on the table")


def test_pass_when_secret_optional_is_false(simple3):
    def fn(rec):
        rec["rounds"][0]["secret"][1].update(discard=None, take=None)

    assert reported(mutate(simple3, fn), "[D3.3]", "passes but secret_optional is false")


def test_unanimous_take_of_an_out_of_round_card(full4):
    r = next(i for i, rnd in enumerate(full4["rounds"]) if rnd["unanimous"])

    def fn(rec):
        u = rec["rounds"][r]["unanimous"]
        u[1]["take"] = u[0]["discard"]

    assert reported(mutate(full4, fn), "[D3.4.3]", "out of the round")


def test_veto_problems(full4, simple3, team5):
    # A veto in simplified rules.
    assert reported(mutate(simple3, lambda rec: rec["rounds"][0].update(veto={"seat": 1})), "[D8]")
    # A second veto by a side that used its only one.
    vetoed = [i for i, rnd in enumerate(team5["rounds"]) if rnd["veto"]]
    assert vetoed, "the team fixture should hold a veto"
    v0 = vetoed[0]
    seat = team5["rounds"][v0]["veto"]["seat"]
    later = next(i for i in range(v0 + 1, len(team5["rounds"])) if team5["rounds"][i]["veto"] is None)

    def again(rec):
        rec["rounds"][later]["veto"] = {"seat": seat}
        rec["rounds"][later]["unanimous"] = None

    assert reported(mutate(team5, again), "[D3.4.1]", "holds no veto")
    # A team's veto recorded at its second member in action order (D9.3).
    r = next(i for i, rnd in enumerate(team5["rounds"]) if rnd["veto"] and team5["seating"][rnd["veto"]["seat"]] != "I")

    def second(rec):
        rnd = rec["rounds"][r]
        s = rnd["veto"]["seat"]
        rnd["veto"]["seat"] = next(t for t in range(5) if t != s and rec["seating"][t] == rec["seating"][s])

    assert reported(mutate(team5, second), "[D9.3]")
    # A vetoed round that still plays the unanimous turn.

    def both(rec):
        rec["rounds"][r]["unanimous"] = copy.deepcopy(full4["rounds"][0]["unanimous"])

    assert reported(mutate(team5, both), "[D3.4.1]")


def test_wrong_combo_score(full4):
    r, s = next((i, k) for i, rnd in enumerate(full4["rounds"]) for k, c in rnd["combos"].items() if c)

    def fn(rec):
        rec["rounds"][r]["combos"][s]["score"] += 1

    assert reported(mutate(full4, fn), "[D4.2]")


def test_combo_not_best_or_missing(full4):
    r, s = next((i, k) for i, rnd in enumerate(full4["rounds"]) for k, c in rnd["combos"].items() if c)
    assert reported(mutate(full4, lambda rec: rec["rounds"][r]["combos"].update({s: None})), "[D4.1]")
    r2, s2 = next((i, k) for i, rnd in enumerate(full4["rounds"]) for k, c in rnd["combos"].items() if c is None)

    def fake(rec):
        rec["rounds"][r2]["combos"][s2] = {"kind": "run", "cards": rec["rounds"][r2]["hands"][s2][:3], "score": 10}

    assert reported(mutate(full4, fake), "[D4.1]")


def test_combo_with_a_worse_unplayed_total_is_reported():
    # run_base (10, 9, 0): 3S4S5S = 10 + 3 = 13 and 4S5S6H = 9 + 4 = 13 tie on score;
    # D4.2 then plays the one leaving more unplayed: 3S4S5S leaves 6 + 10 = 16 > 13.
    hand = ["3S", "4S", "5S", "6H", "10C"]
    assert ref_best(hand, run_base=(10, 9, 0)) == ("run", 13, 16)
    referee = referee_demos._Referee({})
    referee.rules, referee.run_base, referee.favourites = "full", (10, 9, 0), [None]
    referee.v = default_variants("full", run_base=[10, 9, 0])
    best = ref_best(hand, run_base=(10, 9, 0))
    referee.check_combo("t", 0, hand, {"kind": "run", "cards": ["3S", "4S", "5S"], "score": 13}, best)
    assert referee.violations == []
    referee.check_combo("t", 0, hand, {"kind": "run", "cards": ["4S", "5S", "6H"], "score": 13}, best)
    assert reported(referee.violations, "[D4.2]")


def test_no_figure_when_everyone_abandons():
    rec, r = next((g, i) for seed in range(50)
                  for g in [play_game("full", "individual", 4, seed=seed)]
                  for i, rnd in enumerate(g["rounds"]) if not rnd["winners"])
    assert rec["rounds"][r]["figures"] == [] and audit_demos(rec) == []
    assert all(c is None for c in rec["rounds"][r]["combos"].values())

    def fig(x):
        x["rounds"][r]["figures"] = [{"seat": 0, "figure": x["power_pile"][0]}]

    assert reported(mutate(rec, fig), "[D4.5]")
    assert reported(mutate(rec, lambda x: x["rounds"][r].update(winners=[0])), "[D4.3]")


def test_wrong_round_winner(full4):
    r = next(i for i, rnd in enumerate(full4["rounds"]) if rnd["winners"])

    def fn(rec):
        w = rec["rounds"][r]["winners"]
        rec["rounds"][r]["winners"] = [(w[0] + 1) % 4]

    assert reported(mutate(full4, fn), "[D4.3]")


def test_wrong_figure_receiver_and_card(full4, team5):
    r = next(i for i, rnd in enumerate(full4["rounds"]) if rnd["figures"])

    def receiver(rec):
        f = rec["rounds"][r]["figures"][0]
        f["seat"] = (f["seat"] + 1) % 4

    assert reported(mutate(full4, receiver), "[D4.5]")

    def card(rec):
        f = rec["rounds"][r]["figures"][0]
        f["figure"] = next(x for x in rec["power_pile"] if x != f["figure"] and x != "M")

    assert reported(mutate(full4, card), "[D4.5]")

    def extra(rec):
        rec["rounds"][r]["figures"].append(dict(rec["rounds"][r]["figures"][0]))

    assert reported(mutate(full4, extra), "[D4.5]")
    # Team mode: a figure handed to a member of another side (D9.4).
    r = next(i for i, rnd in enumerate(team5["rounds"]) if rnd["figures"])

    def other_side(rec):
        f = rec["rounds"][r]["figures"][0]
        f["seat"] = next(t for t in range(5) if rec["seating"][t] != rec["seating"][f["seat"]])

    assert reported(mutate(team5, other_side), "[D9.4]")


def test_missing_or_wrong_carre_reveal(carre):
    assert reported(mutate(carre, lambda rec: rec["rounds"][1].update(reveals=[])), "[D4.6]")
    assert reported(mutate(carre, lambda rec: rec["rounds"][1].update(reveals=[{"seat": 2, "figure": "LH"}])), "[D4.6]")
    # Already face up: nothing more is revealed (D4.6).
    assert reported(mutate(carre, lambda rec: rec["rounds"][2]["reveals"].append({"seat": 2, "figure": "LH"})), "[D4.6]")
    # The Carré winner does not reveal.
    assert reported(mutate(carre, lambda rec: rec["rounds"][2]["reveals"].append({"seat": 3, "figure": "EH"})), "[D4.6]")


def test_wrong_points(full4):
    def fn(rec):
        rec["rounds"][0]["points"][0] += 3

    assert reported(mutate(full4, fn), "[D4.7]")
    assert reported(mutate(full4, lambda rec: rec["final"]["cumulative_points"].__setitem__(1, 999)), "[D4.7]")


def test_wrong_dealer_and_decks(full4):
    assert reported(mutate(full4, lambda rec: rec["rounds"][1].update(dealer=0)), "[D2.1]")

    def dup(rec):
        rec["rounds"][0]["deck"][-1] = rec["rounds"][0]["deck"][-2]

    assert reported(mutate(full4, dup), "[D1]")

    def pile(rec):
        rec["power_pile"][rec["power_pile"].index("M")] = "ES" if rec["power_pile"][0] != "ES" else "EH"

    assert reported(mutate(full4, pile), "[D1]")


def test_extra_round_after_pile_emptied(full4):
    assert full4["variants"]["max_rounds"] is None and not full4["truncated"]

    def fn(rec):
        extra = copy.deepcopy(rec["rounds"][-1])
        extra["dealer"] = len(rec["rounds"]) % 4
        rec["rounds"].append(extra)

    assert reported(mutate(full4, fn), "[D5.1]", "must end after")


def test_game_stops_too_early(full4):
    assert reported(mutate(full4, lambda rec: rec["rounds"].pop()), "[D5.1]", "not over")


def test_max_rounds_respected():
    rec = play_game("full", "individual", 4, seed=4, variants=dict(max_rounds=3))
    assert len(rec["rounds"]) == 3 and audit_demos(rec) == []
    assert reported(mutate(rec, lambda x: x["variants"].update(max_rounds=2)), "[D5.1]")


def test_scandal_mutations(carre, full4):
    # The compulsory Media action is missing.
    assert reported(mutate(carre, lambda rec: rec["scandal"].update(actions=[])), "[D6.2]", "compulsory")
    # Targeting a Carré-revealed figure (D6.3) or one's own figure.
    def revealed(rec):
        rec["scandal"]["actions"][0].update(target=2, figure="ES")

    assert reported(mutate(carre, revealed), "[D6.2]")

    def own(rec):
        rec["scandal"]["actions"][0].update(target=1, figure="JD")

    assert reported(mutate(carre, own), "[D6.2]")
    # With media_targets_revealed the revealed ES is a legal target (but the colour
    # then changes the election only through trio_colours; seat 2 has no J, no trio).
    rec = carre_game(media_targets_revealed=True)

    def es(r):
        r["scandal"]["actions"][0].update(target=2, figure="ES")

    assert mutate(rec, es) == []
    # With media_optional the action may be skipped.
    rec = carre_game(media_optional=True)
    assert mutate(rec, lambda r: r["scandal"].update(actions=[])) == []
    # Wrong cancellation.
    assert reported(mutate(carre, lambda rec: rec["scandal"].update(cancelled=[1])), "[D6.1]")
    # An invented action.
    assert reported(mutate(carre, lambda rec: rec["scandal"]["actions"].append(
        {"seat": 0, "target": 3, "figure": "EH", "colour": "S"})), "[D6.2]")


def test_final_mutations(full4, team5):
    def winner(rec):
        w = rec["final"]["winners"]
        rec["final"]["winners"] = [(w[0] + 1) % 4] if w else [0]

    assert reported(mutate(full4, winner), "[D7.3]")
    assert reported(mutate(full4, lambda rec: rec["final"].update(winning_sides=["9"])), "[D7.3]")
    assert reported(mutate(team5, lambda rec: rec["final"].update(winners=[0, 1, 2, 3, 4])), "[D9.6]")
    s = next(k for k, t in full4["final"]["trios"].items() if t)
    assert reported(mutate(full4, lambda rec: rec["final"]["trios"].update({s: None})), "[D7.1]")
    assert reported(mutate(full4, lambda rec: rec["final"]["harmony"].__setitem__(int(s), 0)), "[D7.2]")

    def colours(rec):
        c = rec["final"]["trio_colours"][s]
        c[0] = next(x for x in SUITS if x != c[0])

    assert reported(mutate(full4, colours), "[D7.1]")


def test_structure_and_variants(full4):
    assert reported(mutate(full4, lambda rec: rec["variants"].update(house_rule=1)), "[Part V]", "[schema]")
    assert reported(mutate(full4, lambda rec: rec["variants"].pop("media_optional")), "[Part V]")
    assert reported(mutate(full4, lambda rec: rec.update(contract=1)), "[schema]", "[GAME_RECORD]")
    # Part V value ranges are checked with or without the schema.
    for name, value in [("p3_harmonies", "mono"), ("round_cap", 0), ("secret_optional", 1),
                        ("run_base", [12, 8]), ("max_rounds", 0)]:
        out = audit_demos(copy.deepcopy(full4) | {"variants": full4["variants"] | {name: value}},
                          check_schema=False)
        assert reported(out, "[Part V]", name)
    assert audit_demos(full4, check_schema=False) == []
    # secret_optional may be any bool, whatever the rules.
    rec = play_game("simplified", "individual", 4, seed=0, variants=dict(secret_optional=True))
    assert audit_demos(rec) == []


@pytest.mark.parametrize("garbage", [
    None, 42, [], {}, {"game": "demos"}, {"game": "protocole"},
    {"game": "demos", "rules": "full", "mode": "individual", "players": 4, "variants": {}},
])
def test_malformed_records_never_crash(garbage):
    out = audit_demos(garbage)
    assert isinstance(out, list) and out


def test_malformed_rounds_never_crash(full4):
    for fn in (
        lambda rec: rec["rounds"][0].update(deck=None),
        lambda rec: rec["rounds"][0].update(public="x"),
        lambda rec: rec["rounds"][0].update(hands={"0": [1, 2]}),
        lambda rec: rec["rounds"][0]["combos"].update({"0": {"kind": "run", "cards": [[1]], "score": "x"}}),
        lambda rec: rec.update(rounds=[None]),
        lambda rec: rec.update(final={"trios": {"0": [{}]}}),
        lambda rec: rec["variants"].update(run_base="abc"),
        lambda rec: rec.update(power_pile=7),
    ):
        out = mutate(full4, fn)
        assert isinstance(out, list) and out


# ---------------------------------------------------------------------------------------
# Contract 2: X2 announced_trio, D9.5 team_trio, D9.6 step 3 p3_points_tiebreak
#
# Each election below is computed by hand in the comments. A trio is given to
# election_winners by its colours in order E, L, J (after Media); its harmony is the
# number of distinct colours (D7.2).

X3 = ev(announced_trio=True)
POOLED = ev(team_trio="pooled")


def test_pooled_trio_options_d95():
    # Seat 0 holds ES, LH; seat 2 holds JD: neither has a trio of their own (D7.1), the
    # team pools ES LH JD (3 colours) from two members.
    assert referee_demos.trio_options(["ES", "LH"]) == []
    assert referee_demos.trio_options(["JD"]) == []
    opts = referee_demos.pooled_trio_options({0: ["ES", "LH"], 2: ["JD", "M"]})
    assert opts == [(("ES", "LH", "JD"), (0, 0, 2), ("S", "H", "D"), 3)]
    # A covered figure of any member must be in the pooled trio, with its Media colour.
    opts = referee_demos.pooled_trio_options({0: ["ES", "LH", "JD"], 2: ["EH"]}, {(2, "EH"): "D"})
    assert opts == [(("EH", "LH", "JD"), (2, 0, 0), ("D", "H", "D"), 2)]
    # Two covered figures of one type on the side: no pooled trio, although each member
    # alone still has one (D9.5).
    figs = {0: ["ES", "LH", "JD"], 2: ["EH", "LC", "JC"]}
    cov = {(0, "ES"): "C", (2, "EH"): "D"}
    assert referee_demos.pooled_trio_options(figs, cov) == []
    assert referee_demos.trio_options(figs[0], {"ES": "C"}) == [(("ES", "LH", "JD"), ("C", "H", "D"), 3)]
    assert referee_demos.trio_options(figs[2], {"EH": "D"}) == [(("EH", "LC", "JC"), ("D", "C", "C"), 2)]


def test_x2_individual_precedence_d73():
    labels = ["0", "1", "2", "3"]
    trios = [{("S", "H", "D"), ("C", "H", "D")}, {("H", "D", "S")}, {("S", "S", "H")}, set()]
    points = [10, 50, 90, 0]
    ann = {"0": ("C", "H", "D"), "1": ("S", "S", "S"), "2": ("S", "S", "H"), "3": ("H", "H", "H")}
    # Without X2: seats 0 and 1 tie on 3 colours; 50 > 10 -> seat 1.
    assert election_winners("individual", labels, trios, points, V) == ["1"]
    assert election_winners("individual", labels, trios, points, V, announced=ann) == ["1"]
    # X2: seat 0's C H D trio matches its announcement, seat 1's does not: seat 0 wins
    # before points are compared. Seat 2 matches too but has a worse harmony (2 < 3): X2
    # never beats a better harmony, whatever the points (90).
    assert election_winners("individual", labels, trios, points, X3, announced=ann) == ["0"]
    # Both tied players match: points decide (50 > 10).
    both = dict(ann, **{"1": ("H", "D", "S")})
    assert election_winners("individual", labels, trios, points, X3, announced=both) == ["1"]
    # An announcement matching only a trio below the player's best harmony does not
    # count (D7.1: the player shows a best-harmony trio): seat 0 announces S S D, which
    # is one of its trios but a 2-colour one; seat 1 then wins on points again.
    low = dict(ann, **{"0": ("S", "S", "D")})
    trios_low = [trios[0] | {("S", "S", "D")}] + trios[1:]
    assert election_winners("individual", labels, trios_low, points, X3, announced=low) == ["1"]
    # A trio given by its harmony alone never matches.
    assert election_winners("individual", labels, [{3}, {3}, {2}, set()], points, X3, announced=ann) == ["1"]
    # No trio anywhere: D7.4 as before.
    assert election_winners("individual", labels, [set()] * 4, points, dict(X3, no_trio_winner="points"), announced=ann) == ["2"]


def test_x2_team_best_member_d95():
    labels = list("ABAB")  # A = 0, 2; B = 1, 3
    trios = [{("S", "S", "H")}, {("H", "H", "S")}, {("D", "D", "C")}, set()]
    points = [10, 40, 0, 0]
    ann = {"A": ("D", "D", "C"), "B": ("C", "C", "C")}
    # Both sides at 2 colours; without X2, max 10 vs 40 -> B.
    assert election_winners("2v2", labels, trios, points, V) == ["B"]
    # X2: seat 2's trio, of the side's harmony 2, has A's colours -> A.
    assert election_winners("2v2", labels, trios, points, X3, announced=ann) == ["A"]
    # A member's matching trio below the side's harmony does not make the side match:
    # seat 2 now only has D D D (1 colour), the side's harmony is 2 (seat 0) -> B.
    trios_low = [trios[0], trios[1], {("D", "D", "D")}, set()]
    assert election_winners("2v2", labels, trios_low, points, X3, announced={"A": ("D", "D", "D"), "B": ann["B"]}) == ["B"]


def test_pooled_team_victory_d95():
    labels = list("ABAB")
    # A: no member has a trio of their own, the team pools S H D; B: seat 1 has H H S.
    trios = [set(), {("H", "H", "S")}, set(), set()]
    pooled = {"A": {("S", "H", "D"), ("H", "H", "D")}, "B": {("H", "H", "S")}}
    points = [0, 50, 0, 0]
    assert election_winners("2v2", labels, trios, points, V) == ["B"]  # best_member: only B has a trio
    assert election_winners("2v2", labels, trios, points, POOLED, side_trios=pooled) == ["A"]  # 3 > 2
    # A side with no pooled trio (two covered figures of one type) cannot win, even
    # when a member holds a 3-colour trio of their own.
    trios = [{("C", "H", "D")}, set(), {("D", "C", "C")}, {("H", "H", "H")}]
    pooled = {"A": set(), "B": {("H", "H", "H")}}
    assert election_winners("2v2", labels, trios, points, V) == ["A"]
    assert election_winners("2v2", labels, trios, points, POOLED, side_trios=pooled) == ["B"]
    # No pooled trio on any side: no winner (D7.4 in 2v2 / 2v3).
    assert election_winners("2v2", labels, trios, points, POOLED, side_trios={"A": set(), "B": set()}) == []
    # Ties on pooled harmony: team_points_tiebreak (max 30 > 20 -> A; sum 30 < 40 -> B).
    pooled = {"A": {("S", "H", "D")}, "B": {("C", "H", "D")}}
    pts = [30, 20, 0, 20]
    assert election_winners("2v2", labels, [set()] * 4, pts, POOLED, side_trios=pooled) == ["A"]
    assert election_winners("2v2", labels, [set()] * 4, pts, dict(POOLED, team_points_tiebreak="sum"), side_trios=pooled) == ["B"]
    # X2 under pooled: the team's own pooled trio of the best harmony has the colours.
    pooled = {"A": {("S", "H", "D"), ("S", "H", "C")}, "B": {("H", "D", "C")}}
    ann = {"A": ("S", "H", "C"), "B": ("H", "D", "S")}
    assert election_winners("2v2", labels, [set()] * 4, [5, 50, 0, 0], POOLED, side_trios=pooled, announced=ann) == ["B"]
    assert election_winners("2v2", labels, [set()] * 4, [5, 50, 0, 0], dict(POOLED, announced_trio=True),
                            side_trios=pooled, announced=ann) == ["A"]
    # 2v3 is D9.5 too.
    assert election_winners("2v3", list("ABABB"), [set()] * 5, [0, 0, 0, 0, 9], POOLED,
                            side_trios={"A": {("S", "S", "S")}, "B": set()}) == ["A"]
    with pytest.raises(ValueError):
        election_winners("2v2", labels, [set()] * 4, pts, POOLED)


def test_d96_step1_pooled_and_x2():
    labels = list("ABABI")  # A = 0, 2; B = 1, 3; I = 4
    # Seat 0 holds a 3-colour trio of its own, but A's pooled trio is only 2-colour (a
    # teammate's covered figure must be in it). best_member: step 1 -> A. pooled: a
    # member's own trio no longer counts on its own at step 1; step 2 (a): the
    # Independent's 60 is strictly the most -> I.
    trios = [{("S", "H", "D")}, set(), set(), set(), set()]
    pooled = {"A": {("S", "S", "D")}, "B": set()}
    points = [50, 0, 0, 0, 60]
    assert election_winners("2v2+1", labels, trios, points, V) == ["A"]
    assert election_winners("2v2+1", labels, trios, points, POOLED, side_trios=pooled) == ["I"]
    # Step 1 under pooled: A's pooled 3-colour trio against the Independent's own; a
    # tie between sides compares points as in D9.5: team_points_tiebreak max -> A 30
    # vs I 40 -> I; sum -> A 60 vs I 40 -> A. best_member: the Independent is the only
    # player with a 3-colour trio -> I.
    trios = [set(), set(), set(), set(), {("S", "H", "D")}]
    pooled = {"A": {("C", "H", "D")}, "B": set()}
    points = [30, 10, 30, 0, 40]
    assert election_winners("2v2+1", labels, trios, points, V) == ["I"]
    assert election_winners("2v2+1", labels, trios, points, POOLED, side_trios=pooled) == ["I"]
    assert election_winners("2v2+1", labels, trios, points, dict(POOLED, team_points_tiebreak="sum"), side_trios=pooled) == ["A"]
    # X2 at step 1 (pooled): A's pooled trio matches, the Independent's does not -> A,
    # before points.
    ann = {"A": ("C", "H", "D"), "B": ("S", "S", "S"), "I": ("S", "S", "S")}
    assert election_winners("2v2+1", labels, trios, points, dict(POOLED, announced_trio=True),
                            side_trios=pooled, announced=ann) == ["A"]
    # X2 at step 1 (best_member): the 3-colour players are 0 (10 pts), 1 (30), 2 (50).
    # Without X2 seat 2's 50 -> A. With X2 only seats 0 (A: S H D) and 1 (B: H D C)
    # match; the non-matching seat 2 drops out before points: 30 > 10 -> B.
    trios = [{("S", "H", "D")}, {("H", "D", "C")}, {("C", "D", "S")}, set(), set()]
    points = [10, 30, 50, 0, 0]
    ann = {"A": ("S", "H", "D"), "B": ("H", "D", "C"), "I": ("S", "S", "S")}
    assert election_winners("2v2+1", labels, trios, points, V, announced=ann) == ["A"]
    assert election_winners("2v2+1", labels, trios, points, X3, announced=ann) == ["B"]


def test_d96_x2_plays_no_part_at_step2():
    labels = list("ABABI")
    # No 3-colour trio; the Independent's 1-colour trio matches his announcement but no
    # step-2 condition holds (5 < 10 points, no Media, no 2-colour trio); step 3: A's
    # 2-colour trio -> A (the Independent takes no part).
    trios = [{("S", "S", "H")}, set(), set(), set(), {("H", "H", "H")}]
    ann = {"A": ("C", "C", "C"), "B": ("C", "C", "C"), "I": ("H", "H", "H")}
    assert election_winners("2v2+1", labels, trios, [10, 0, 0, 0, 5], X3, announced=ann) == ["A"]


def test_d96_step3_points_tiebreak_sum_default_and_max():
    labels = list("ABABI")
    # Step 3, both teams at 2 colours; A = 30 + 0, B = 20 + 20. p3_points_tiebreak sum
    # (default): 30 < 40 -> B; max: 30 > 20 -> A. team_points_tiebreak no longer rules
    # step 3.
    trios = [{("S", "S", "H")}, {("D", "D", "C")}, set(), set(), set()]
    points = [30, 20, 0, 20, 0]
    assert election_winners("2v2+1", labels, trios, points, V) == ["B"]
    assert election_winners("2v2+1", labels, trios, points, ev(p3_points_tiebreak="max")) == ["A"]
    assert election_winners("2v2+1", labels, trios, points, ev(team_points_tiebreak="sum", p3_points_tiebreak="max")) == ["A"]
    assert election_winners("2v2+1", labels, trios, points, ev(team_points_tiebreak="max", p3_points_tiebreak="sum")) == ["B"]
    assert election_winners("2v2+1", labels, trios, [30, 10, 0, 20, 0], V) == ["A", "B"]  # 30 = 30: shared
    # Under pooled, step 3 compares the pooled trios, the same tie-break.
    pooled = {"A": {("S", "S", "H")}, "B": {("D", "D", "C")}}
    assert election_winners("2v2+1", labels, [set()] * 5, points, POOLED, side_trios=pooled) == ["B"]
    assert election_winners("2v2+1", labels, [set()] * 5, points, dict(POOLED, p3_points_tiebreak="max"), side_trios=pooled) == ["A"]
    # X2 at step 3 (bicolour_then_mono): A's S S H matches -> A, before points.
    ann = {"A": ("S", "S", "H"), "B": ("C", "C", "C"), "I": ("S", "H", "D")}
    assert election_winners("2v2+1", labels, trios, points, X3, announced=ann) == ["A"]


def test_d96_step3_mono_only_and_x2():
    labels = list("ABABI")
    mono = ev(p3_harmonies="mono_only")
    # Seat 0 (A) can form S S H and S S S; seat 1 (B) D D D. Both teams qualify; sum
    # A 10 < B 30 -> B.
    trios = [{("S", "S", "H"), ("S", "S", "S")}, {("D", "D", "D")}, set(), set(), set()]
    points = [10, 30, 0, 0, 0]
    assert election_winners("2v2+1", labels, trios, points, mono) == ["B"]
    # X2: A announced S S S, one of its 1-colour trios -> A.
    x = dict(mono, announced_trio=True)
    assert election_winners("2v2+1", labels, trios, points, x, announced={"A": ("S", "S", "S"), "B": ("H", "H", "H"), "I": ("S", "S", "S")}) == ["A"]
    # Only a one-suit announcement can match at step 3 under mono_only: A announced
    # S S H, the colours of seat 0's best (shown) trio, yet it does not match -> B.
    assert election_winners("2v2+1", labels, trios, points, x, announced={"A": ("S", "S", "H"), "B": ("H", "H", "H"), "I": ("S", "S", "S")}) == ["B"]
    # The same trios under bicolour_then_mono: A's 2-colour trio beats B's 1-colour.
    assert election_winners("2v2+1", labels, trios, points, V) == ["A"]
    # Pooled, mono_only: a team qualifies when one of its pooled trios is 1-colour.
    pooled = {"A": {("S", "S", "H"), ("S", "S", "S")}, "B": {("D", "D", "D")}}
    pm = dict(POOLED, p3_harmonies="mono_only")
    assert election_winners("2v2+1", labels, [set()] * 5, points, pm, side_trios=pooled) == ["B"]
    assert election_winners("2v2+1", labels, [set()] * 5, points, dict(pm, announced_trio=True), side_trios=pooled,
                            announced={"A": ("S", "S", "S"), "B": ("C", "C", "C"), "I": ("S", "S", "S")}) == ["A"]
    assert election_winners("2v2+1", labels, [set()] * 5, points, pm, side_trios={"A": {("S", "S", "H")}, "B": set()}) == []


# Rigged records: a chosen seat is dealt a Carré each round (greedy play keeps it), so
# the figures of the Power pile go where the test says.

def pile_of(first: list[str]) -> list[str]:
    rest = ["ES", "EH", "ED", "EC", "LS", "LH", "LD", "LC", "JS", "JH", "JD", "JC", "M", "M"]
    for f in first:
        rest.remove(f)
    return list(first) + rest


def carre_wins(mode, players, winners, first_figures, owners=None, variants=None, deck_seed=100, **kw):
    """Round r (dealer r mod N) deals the four cards of value 10 - r to ``winners[r]``;
    the game stops after those rounds (max_rounds), before any Media is drawn unless
    ``first_figures`` puts it first."""
    decks = []
    for r, w in enumerate(winners):
        order = [(r % players + 1 + i) % players for i in range(players)]
        i = order.index(w)
        decks.append(rigged_deck("full", {i + k * players: f"{10 - r}{s}" for k, s in enumerate(SUITS)}, deck_seed + r))
    v = dict(max_rounds=len(winners))
    v.update(variants or {})
    rec = play_game("full", mode, players, seed=0, variants=v, decks=decks, power_pile=pile_of(first_figures),
                    owners=owners, greedy=1.0, p_pass=0.0, p_veto=0.0, **kw)
    assert [rnd["winners"] for rnd in rec["rounds"]] == [[w] for w in winners]
    return rec


def x2_individual(announce, second_j="JS"):
    """4 players. Seat 1 wins ES LH, then JD EC; seat 2 wins EH LD, then ``second_j`` LC.
    Round points give seat 1 88 and seat 2 74 cumulative points."""
    rec = carre_wins("individual", 4, [1, 2, 1, 2], ["ES", "LH", "EH", "LD", "JD", "EC", second_j, "LC"],
                     variants=dict(announced_trio=announce is not None), announce=announce)
    assert rec["final"]["cumulative_points"] == [37, 88, 74, 72]
    return rec


def test_x2_record_announcement_decides_a_harmony_tie():
    # Seat 1: ES LH JD (S H D) or EC LH JD (C H D); seat 2: EH LD JS (H D S) or EH LC JS
    # (H C S): both 3 colours. Without X2 points decide: 88 > 74 -> seat 1.
    rec = x2_individual(None)
    assert rec["announced_trios"] is None and rec["final"]["winners"] == [1]
    assert audit_demos(rec) == []
    # X2: seat 2 announced H C S and shows EH LC JS; seat 1 announced S S S: seat 2 wins
    # despite fewer points (X2, D7.3).
    rec = x2_individual({"0": ["S", "S", "S"], "1": ["S", "S", "S"], "2": ["H", "C", "S"], "3": ["D", "D", "D"]})
    assert rec["announced_trios"]["2"] == ["H", "C", "S"]
    assert rec["final"]["trios"]["2"] == ["EH", "LC", "JS"] and rec["final"]["trio_colours"]["2"] == ["H", "C", "S"]
    assert rec["final"]["winners"] == [2] and rec["final"]["winning_sides"] == ["2"]
    assert audit_demos(rec) == []

    # D7.1 with X2: the recorded trio must be the matching one when one of the best
    # harmony matches.
    def other_trio(r):
        r["final"]["trios"]["2"], r["final"]["trio_colours"]["2"] = ["EH", "LD", "JS"], ["H", "D", "S"]

    assert reported(mutate(rec, other_trio), "[X2]", "seat 2", "EH', 'LC', 'JS'")
    # The points winner is a wrong winner here.
    assert reported(mutate(rec, lambda r: r["final"].update(winners=[1], winning_sides=["1"])), "[D7.3]")
    # Both match: points decide again (88 > 74); seat 1 must show EC LH JD.
    rec = x2_individual({"0": ["S", "S", "S"], "1": ["C", "H", "D"], "2": ["H", "C", "S"], "3": ["D", "D", "D"]})
    assert rec["final"]["trios"]["1"] == ["EC", "LH", "JD"] and rec["final"]["winners"] == [1]
    assert audit_demos(rec) == []


def test_x2_record_never_beats_a_better_harmony():
    # Seat 2 now wins JH instead of JS: EH LD JH (H D H) or EH LC JH (H C H), 2 colours,
    # and announced H C H (it shows EH LC JH); seat 1 keeps a 3-colour trio -> seat 1.
    ann = {"0": ["S", "S", "S"], "1": ["S", "S", "S"], "2": ["H", "C", "H"], "3": ["D", "D", "D"]}
    rec = x2_individual(ann, second_j="JH")
    assert rec["final"]["harmony"] == [0, 3, 2, 0]
    assert rec["final"]["trios"]["2"] == ["EH", "LC", "JH"]
    assert rec["final"]["winners"] == [1]
    assert audit_demos(rec) == []
    assert reported(mutate(rec, lambda r: r["final"].update(winners=[2], winning_sides=["2"])), "[D7.3]")


def pooled_2v2(**variants):
    """2v2 (A = 0, 2). Round 0: seat 0 wins ES, LH (both to seat 0); round 1: seat 2
    wins JD, EH (to seat 2); round 2: seat 2 wins EC (to seat 0), LD (to seat 2).
    Seat 0: ES LH EC, no J -> no trio; seat 2: EH LD JD -> H D D (2 colours).
    A's pooled trios: E in {ES, EH, EC}, L in {LH, LD}, J = JD; 3 colours: ES LH JD
    (S H D) and EC LH JD (C H D). B has no figure."""
    return carre_wins("2v2", 4, [0, 2, 2], ["ES", "LH", "JD", "EH", "EC", "LD"],
                      owners={"ES": 0, "LH": 0, "JD": 2, "EH": 2, "EC": 0, "LD": 2}, variants=variants,
                      announce={"A": ["C", "H", "D"], "B": ["S", "S", "S"]})


def test_pooled_record_trio_across_two_members():
    rec = pooled_2v2(team_trio="pooled")
    f = rec["final"]
    assert f["trios"] == {"0": None, "1": None, "2": ["EH", "LD", "JD"], "3": None} and f["harmony"] == [0, 0, 2, 0]
    assert f["side_trios"]["B"] is None
    assert f["side_trios"]["A"]["harmony"] == 3 and f["side_trios"]["A"]["figures"] in (["ES", "LH", "JD"], ["EC", "LH", "JD"])
    assert f["winners"] == [0, 2] and f["winning_sides"] == ["A"]
    assert audit_demos(rec) == []
    # The same game under best_member: A's trio is seat 2's (2 colours), B has none -> A,
    # and side_trios is null.
    bm = pooled_2v2()
    assert bm["final"]["side_trios"] is None and bm["final"]["winners"] == [0, 2]
    assert audit_demos(bm) == []

    # Mutations the referee must flag (D9.5).
    assert reported(mutate(rec, lambda r: r["final"].update(side_trios=None)), "[D9.5]", "pooled")
    assert reported(mutate(bm, lambda r: r["final"].update(side_trios=copy.deepcopy(f["side_trios"]))), "[D9.5]", "best_member")
    assert reported(mutate(rec, lambda r: r["final"].pop("side_trios")), "side_trios")
    two = {"figures": ["EH", "LH", "JD"], "seats": [2, 0, 2], "colours": ["H", "H", "D"], "harmony": 2}
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(A=two)), "[D9.5]", "the best is 3")
    wrong_seat = dict(f["side_trios"]["A"], seats=[0, 0, 0])
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(A=wrong_seat)), "[D9.5]", "not a legal pooled trio")
    wrong_colours = dict(f["side_trios"]["A"], colours=["S", "S", "S"])
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(A=wrong_colours)), "[D9.5]", "colours")
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(A=None)), "[D9.5]", "must record it")
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(B=two)), "[D9.5]", "can form no pooled trio")
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(I=None)), "[D9.5]", "exactly the team labels")
    assert reported(mutate(rec, lambda r: r["final"].update(winners=[], winning_sides=[])), "[D9.5]")


def test_pooled_record_with_x2_must_show_the_matching_trio():
    # A announced C H D: of A's two 3-colour pooled trios, EC LH JD (seats 0, 0, 2)
    # matches and must be shown (X2, D9.5).
    rec = pooled_2v2(team_trio="pooled", announced_trio=True)
    assert rec["announced_trios"] == {"A": ["C", "H", "D"], "B": ["S", "S", "S"]}
    assert rec["final"]["side_trios"]["A"] == {"figures": ["EC", "LH", "JD"], "seats": [0, 0, 2],
                                               "colours": ["C", "H", "D"], "harmony": 3}
    assert rec["final"]["winners"] == [0, 2]
    assert audit_demos(rec) == []
    other = {"figures": ["ES", "LH", "JD"], "seats": [0, 0, 2], "colours": ["S", "H", "D"], "harmony": 3}
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(A=other)), "[X2]", "team 'A'")
    # Team announcements are keyed by team label, not by seat (X2, GAME_RECORD).
    assert reported(mutate(rec, lambda r: r.update(announced_trios={"0": ["C", "H", "D"], "1": ["S", "S", "S"]})),
                    "[X2]", "side labels")


def covered_2v2(team_trio):
    """2v2. Round 0: seat 1 (B) wins both Media, one to seat 1 and one to seat 3; then A
    wins ES LH (seat 0), EH LC (seat 2), JD (seat 0) and JC (seat 2). Scandal (order of
    the last round, 0 1 2 3): seat 1 covers seat 0's ES as C, seat 3 covers seat 2's EH
    as D. Seat 0: ES LH JD -> C H D (3 colours); seat 2: EH LC JC -> D C C (2).
    Pooled, A's trio must hold both covered E: no pooled trio."""
    choices = {1: (0, "ES", "C"), 3: (2, "EH", "D")}

    def media(holder, legal):
        assert choices[holder][:2] in legal
        return choices[holder]

    return carre_wins("2v2", 4, [1, 0, 2, 0], ["M", "M", "ES", "LH", "EH", "LC", "JD", "JC"],
                      owners={"M0": 1, "M1": 3, "ES": 0, "LH": 0, "EH": 2, "LC": 2, "JD": 0, "JC": 2},
                      variants=dict(team_trio=team_trio), media_choice=media)


def test_pooled_record_two_covered_figures_of_one_type():
    rec = covered_2v2("pooled")
    assert rec["scandal"]["actions"] == [{"seat": 1, "target": 0, "figure": "ES", "colour": "C"},
                                         {"seat": 3, "target": 2, "figure": "EH", "colour": "D"}]
    f = rec["final"]
    assert f["trio_colours"] == {"0": ["C", "H", "D"], "1": None, "2": ["D", "C", "C"], "3": None}
    assert f["side_trios"] == {"A": None, "B": None}
    assert f["winners"] == [] and f["winning_sides"] == []  # no side trio: no winner (D9.5, D7.4)
    assert audit_demos(rec) == []
    bm = covered_2v2("best_member")
    assert bm["final"]["winners"] == [0, 2] and bm["final"]["side_trios"] is None  # seat 0's own trio
    assert audit_demos(bm) == []
    # A pooled trio recorded for A that leaves out seat 2's covered EH.
    fake = {"figures": ["ES", "LH", "JD"], "seats": [0, 0, 0], "colours": ["C", "H", "D"], "harmony": 3}
    assert reported(mutate(rec, lambda r: r["final"]["side_trios"].update(A=fake)), "[D9.5]", "can form no pooled trio")
    assert reported(mutate(rec, lambda r: r["final"].update(winners=[0, 2], winning_sides=["A"])), "[D9.5]")


def step3_game(**variants):
    """2v2+1 (A = 0, 2; B = 1, 3; I = 4). Carrés: seat 0 (ES LS to seat 0), seat 1 (EH
    LH to seat 1), seat 1 (JC to seat 1, ED to seat 3), seat 2 (JD to seat 0, EC to
    seat 2). Trios: seat 0 ES LS JD (S S D), seat 1 EH LH JC (H H C), 2 colours each; no
    one else has a trio. Points [56, 73, 67, 35, 56]: no 3-colour trio (step 1), the
    Independent's 56 is not the most and he has no figure (step 2)."""
    return carre_wins("2v2+1", 5, [0, 1, 1, 2], ["ES", "LS", "EH", "LH", "JC", "ED", "JD", "EC"],
                      owners={"ES": 0, "LS": 0, "EH": 1, "LH": 1, "JC": 1, "ED": 3, "JD": 0, "EC": 2},
                      variants=variants, deck_seed=0,
                      announce={"A": ["C", "C", "C"], "B": ["H", "H", "C"], "I": ["S", "H", "D"]})


def test_step3_record_sum_default_vs_max():
    # D9.6 step 3 tie at 2 colours. sum (default): A 56 + 67 = 123 > B 73 + 35 = 108 ->
    # A; max: A 67 < B 73 -> B. team_points_tiebreak does not rule step 3.
    rec = step3_game()
    assert rec["final"]["cumulative_points"] == [56, 73, 67, 35, 56]
    assert rec["final"]["harmony"] == [2, 2, 0, 0, 0]
    assert rec["final"]["winning_sides"] == ["A"] and audit_demos(rec) == []
    rec_max = step3_game(p3_points_tiebreak="max", team_points_tiebreak="sum")
    assert rec_max["final"]["winning_sides"] == ["B"] and rec_max["final"]["winners"] == [1, 3]
    assert audit_demos(rec_max) == []
    # Each record with the other's winners is wrong.
    assert reported(mutate(rec, lambda r: r["final"].update(winners=[1, 3], winning_sides=["B"])), "[D9.6]")
    assert reported(mutate(rec_max, lambda r: r["final"].update(winners=[0, 2], winning_sides=["A"])), "[D9.6]")
    # The same ending read with the contract-1 habit (team_points_tiebreak at step 3) is
    # caught when the two variants differ.
    assert reported(mutate(rec, lambda r: r["variants"].update(p3_points_tiebreak="max")), "[D9.6]")


def test_step3_record_x2_and_mono_only():
    # X2: B announced H H C, the colours of seat 1's trio -> B, before points.
    rec = step3_game(announced_trio=True)
    assert rec["final"]["trios"]["1"] == ["EH", "LH", "JC"]
    assert rec["final"]["winning_sides"] == ["B"] and audit_demos(rec) == []
    assert reported(mutate(rec, lambda r: r["announced_trios"].update(B=["C", "C", "C"])), "[D9.6]")
    # mono_only: no member can form a 1-colour trio -> no winner; B's 2-colour
    # announcement cannot match at step 3.
    rec = step3_game(announced_trio=True, p3_harmonies="mono_only")
    assert rec["final"]["winners"] == [] and audit_demos(rec) == []


# Header and structure (contract 2, Part V, X2)

NEW_VARIANTS = {"announced_trio": True, "team_trio": "pooled", "team_talk": "hands", "p3_points_tiebreak": "max"}


def test_contract_2_header(full4, team5):
    assert full4["contract"] == 2 and audit_demos(full4) == []
    for rec in (full4, team5):
        out = mutate(rec, lambda r: r.update(contract=1))
        assert reported(out, "[GAME_RECORD]", "contract must be 2")
        assert reported(audit_demos(copy.deepcopy(rec) | {"contract": 1}, check_schema=False), "contract must be 2")
    for name in NEW_VARIANTS:
        assert reported(mutate(full4, lambda r: r["variants"].pop(name)), "[Part V]", name)
    for name, value in [("announced_trio", "yes"), ("team_trio", "shared"), ("team_talk", "cards"),
                        ("p3_points_tiebreak", "mean"), ("announced_trio", 1)]:
        out = audit_demos(copy.deepcopy(full4) | {"variants": full4["variants"] | {name: value}}, check_schema=False)
        assert reported(out, "[Part V]", name)


def test_announced_trios_structure(full4, team5):
    # X2 off: announced_trios null.
    assert reported(mutate(full4, lambda r: r.update(announced_trios={str(s): ["S", "S", "S"] for s in range(4)})),
                    "[X2]", "must be null")
    # X2 on: a map by side label of 3 suits.
    rec = play_game("full", "individual", 4, seed=2, variants=dict(announced_trio=True))
    assert sorted(rec["announced_trios"]) == ["0", "1", "2", "3"] and audit_demos(rec) == []
    assert reported(mutate(rec, lambda r: r.update(announced_trios=None)), "[X2]")
    assert reported(mutate(rec, lambda r: r["announced_trios"].pop("3")), "[X2]", "side labels")
    assert reported(mutate(rec, lambda r: r["announced_trios"].update({"0": ["S", "X", "S"]})), "[X2]", "3 suit letters")
    assert reported(mutate(rec, lambda r: r["announced_trios"].update({"0": ["S", "S"]})), "[X2]")
    team = play_game("full", "2v2+1", 5, seed=3, variants=dict(announced_trio=True))
    assert sorted(team["announced_trios"]) == ["A", "B", "I"] and audit_demos(team) == []
    assert reported(mutate(team, lambda r: r["announced_trios"].pop("I")), "[X2]", "side labels")
    # team_trio and team_talk have no effect in individual games: side_trios stays null.
    ind = play_game("full", "individual", 4, seed=2, variants=dict(team_trio="pooled", team_talk="hands"))
    assert ind["final"]["side_trios"] is None and audit_demos(ind) == []
    assert reported(mutate(ind, lambda r: r["final"].update(side_trios={"A": None, "B": None})), "[D9.5]", "individual")


@pytest.mark.parametrize("variants", [
    dict(announced_trio=True),
    dict(team_trio="pooled"),
    dict(team_trio="pooled", announced_trio=True, p3_points_tiebreak="max"),
    dict(team_trio="pooled", p3_harmonies="mono_only", team_points_tiebreak="sum", team_talk="hands"),
    dict(announced_trio=True, p3_harmonies="mono_only", independent_double_media="act"),
])
def test_contract2_variant_games_audit_clean(variants):
    for mode, n in (("2v2", 4), ("2v3", 5), ("2v2+1", 5)):
        for seed in range(3):
            rec = play_game("full", mode, n, seed=seed, variants=variants)
            assert audit_demos(rec) == []
    for rules in ("full", "simplified"):
        assert audit_demos(play_game(rules, "individual", 4, seed=1, variants=variants)) == []
