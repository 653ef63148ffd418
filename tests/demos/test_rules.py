"""Hand-made rule tests for the DĒMOS engine, one or more per rule ID of RULES.md Part D
(with X1, Part V and the D5/D2 whole-game properties).

Every expected value below was worked out by hand from ../shared/RULES.md; the comment
next to it shows the arithmetic. Positions are built with tests/harness.py (the real
kernel phases ``_showdown`` = D4, ``_scandal`` = D6, ``_election`` = D7/D9) and decisions
come from ``t_script``, a tiny test policy whose option index per decision kind is set
per test in its parameter row (``params[kind]``: an index, negative = from the end), and
which records what it was offered for a Media decision (``params[8]`` = number of
options, ``params[9:15]`` = the first options) and, for a colour decision, the figure it
was shown (``params[15]`` = obs[O_ARG1]).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.cards import card_id, figure_id
from demos_sim.demos import layout as L
from demos_sim.demos.layout import K_ALLOC, K_COLOUR, K_MEDIA, O_ARG1, O_KIND
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.record import iter_records
from demos_sim.demos.rules import VARIANTS, DemosConfig
from demos_sim.demos.scoring import best_combination, best_combinations
from harness import Table

# ------------------------------------------------------------------ test policy

_SPY_N, _SPY_OPTS, _SPY_ARG1 = 8, 9, 15


@register("t_script", params=[0.0] * 8 + [-1.0] * 7 + [-9.0],
          description="test: option params[kind] (negative from the end); spies Media options")
@numba.njit(POLICY_SIG, cache=False)
def t_script(cfg, obs, opts, n_opts, params, rng):
    k = obs[O_KIND]
    if k == K_MEDIA:
        params[8] = n_opts
        for i in range(min(n_opts, 6)):
            params[9 + i] = opts[i]
    elif k == K_COLOUR:
        params[15] = obs[O_ARG1]
    v = np.int64(params[k])
    idx = v if v >= 0 else n_opts + v
    if idx < 0:
        idx = 0
    if idx >= n_opts:
        idx = n_opts - 1
    return idx


def _check_position(hands=None, figures=None, pile=None):
    """Guard against typos in a hand-made position: no card or figure used twice."""
    seen = []
    for cards in (hands or {}).values():
        assert len(cards) == 5
        seen += [card_id(c) for c in cards]
    assert len(seen) == len(set(seen)), "a card is used twice in the test position"
    figs = []
    for codes in (figures or {}).values():
        figs += [c for c in codes if c != "M"]
    figs += [c for c in (pile or []) if c != "M"]
    assert len(figs) == len(set(figs)), "a figure is used twice in the test position"
    n_media = sum(codes.count("M") for codes in (figures or {}).values()) + (pile or []).count("M")
    assert n_media <= 2


def table(config, hands=None, figures=None, pile=None, **kw):
    _check_position(hands, figures, pile)
    return Table(config, policies=("t_script",), hands=hands, figures=figures, pile=pile, **kw)


def choose(t, kind, index, seats=None):
    """Every listed seat (default all) picks option ``index`` for decisions of ``kind``."""
    for p in (range(t.config.players) if seats is None else seats):
        t.params[p][kind] = index


def media_options(t, seat):
    """Options offered to ``seat``'s last Media decision, or None if it was never asked."""
    n = int(t.params[seat][_SPY_N])
    if n < 0:
        return None
    return [int(x) for x in t.params[seat][_SPY_OPTS:_SPY_OPTS + min(n, 6)]]


def fig_up(t, seat, code):
    return bool((int(t.st[L.S_FIGUP + seat]) >> figure_id(code)) & 1)


def cover_of(t, code):
    c = int(t.st[L.S_COVER + figure_id(code)])
    return None if c < 0 else "SHDC"[c]


FULL4 = DemosConfig(players=4)


# ================================================================== D1 / D2 / D9 / Part V: configuration

def test_D2_3_six_players_refused_deck_check():
    """D2.3: deck_size ≥ 5N + turns·N. Full, 6 players: 40 < 30 + 18 = 48; simplified,
    6 players: 36 < 30 + 12 = 42. Refused with a one-line ConfigError."""
    for rules in ("full", "simplified"):
        with pytest.raises(ConfigError) as exc:
            DemosConfig(rules=rules, players=6)
        msg = str(exc.value)
        assert "\n" not in msg and msg
        assert "6" in msg


def test_D2_3_standard_configurations_pass():
    """D2.3: full 5p = 40 ≥ 25 + 15 and simplified 5p = 36 ≥ 25 + 10 both pass."""
    assert DemosConfig(rules="full", players=5).players == 5
    assert DemosConfig(rules="simplified", players=5).players == 5


def test_D2_2_player_counts():
    """D2.2: 3–5 individual players; 2 (and 1, 0) are refused; non-integers refused."""
    for n in (3, 4, 5):
        assert DemosConfig(rules="full", players=n).players == n
        assert DemosConfig(rules="simplified", players=n).players == n
    for n in (2, 1, 0):
        with pytest.raises(ConfigError) as exc:
            DemosConfig(players=n)
        assert "\n" not in str(exc.value)
    for bad in ("4", 4.0, True):
        with pytest.raises(ConfigError):
            DemosConfig(players=bad)


def test_D9_1_team_modes_player_counts():
    """D9.1: 2v2 = 4 players, 2v3 = 5, 2v2+1 = 5; any other count is refused."""
    assert DemosConfig(mode="2v2", players=4).players == 4
    assert DemosConfig(mode="2v3", players=5).players == 5
    assert DemosConfig(mode="2v2+1", players=5).players == 5
    for mode, n in (("2v2", 5), ("2v2", 3), ("2v3", 4), ("2v2+1", 4)):
        with pytest.raises(ConfigError):
            DemosConfig(mode=mode, players=n)


def test_D9_2_team_modes_use_full_rules():
    """D9.2: "Team modes use the full rules": simplified team games are refused."""
    for mode, n in (("2v2", 4), ("2v3", 5), ("2v2+1", 5)):
        with pytest.raises(ConfigError) as exc:
            DemosConfig(rules="simplified", mode=mode, players=n)
        assert "\n" not in str(exc.value)


def test_D9_2_default_seating():
    """D9.2: defaults 2v2 = ABAB, 2v3 = ABABB (team A has 2), 2v2+1 = ABABI."""
    assert DemosConfig(mode="2v2", players=4).seating == "ABAB"
    assert DemosConfig(mode="2v3", players=5).seating == "ABABB"
    assert DemosConfig(mode="2v2+1", players=5).seating == "ABABI"
    assert DemosConfig(players=4).seating is None


def test_D9_2_custom_seating_accepted():
    """D9.2: seating is a string of team labels by seat; any arrangement of the mode's
    sides fits (teams of 2/2, 2/3, or 2/2 + one Independent labelled I)."""
    assert DemosConfig(mode="2v2", players=4, seating="AABB").side_of_seat() == [0, 0, 1, 1]
    assert DemosConfig(mode="2v3", players=5, seating="ABABA").side_of_seat() == [0, 1, 0, 1, 0]
    c = DemosConfig(mode="2v2+1", players=5, seating="IABAB")
    # side ids follow the labels' alphabetical order, whatever the seating
    assert c.side_labels() == ["A", "B", "I"]
    assert c.side_of_seat() == [2, 0, 1, 0, 1]
    assert DemosConfig(mode="2v2", players=4, seating="BBAA").side_of_seat() == [1, 1, 0, 0]


@pytest.mark.parametrize("mode,n,seating", [
    ("2v2", 4, "ABA"),      # too short
    ("2v2", 4, "ABABA"),    # too long
    ("2v2", 4, "abab"),     # not capital letters
    ("2v2", 4, "AB1B"),     # not a letter
    ("2v2", 4, "AAAB"),     # teams of 3 and 1
    ("2v2", 4, "ABAC"),     # three sides
    ("2v3", 5, "ABABC"),    # three sides
    ("2v3", 5, "AAAAB"),    # 4 + 1
    ("2v2+1", 5, "ABABC"),  # no Independent labelled I
    ("2v2+1", 5, "ABIBI"),  # two Independents
    ("2v2+1", 5, "AAABI"),  # teams of 3 and 1
])
def test_D9_2_bad_seating_refused(mode, n, seating):
    """D9.2: a seating that does not describe the mode's sides is refused (ConfigError)."""
    with pytest.raises(ConfigError) as exc:
        DemosConfig(mode=mode, players=n, seating=seating)
    assert "\n" not in str(exc.value)


def test_D9_2_seating_only_for_team_modes():
    """D9.2: seating is a property of team games; an individual game with one is refused."""
    with pytest.raises(ConfigError):
        DemosConfig(players=4, seating="ABAB")


def test_D1_unknown_rules_and_mode_refused():
    """D1/D9.1: rules are full or simplified; modes individual, 2v2, 2v3, 2v2+1."""
    with pytest.raises(ConfigError):
        DemosConfig(rules="advanced")
    with pytest.raises(ConfigError):
        DemosConfig(mode="3v2", players=5)


def test_V_unknown_variant_refused():
    """Part V: only the listed variants exist; an unknown name is a ConfigError."""
    with pytest.raises(ConfigError) as exc:
        DemosConfig(variants={"carre_bonus": 10})
    assert "carre_bonus" in str(exc.value)


@pytest.mark.parametrize("name,value", [
    ("carre_points", -1), ("carre_points", "30"), ("carre_points", 2.5), ("carre_points", True),
    ("carre_points", None),
    ("round_cap", 0), ("round_cap", None), ("max_rounds", 0), ("max_rounds", -3),
    ("max_rounds", "5"),
    ("favourite_suit_bonus", -1), ("team_vetoes", -1), ("team_vetoes", 1.5),
    ("secret_optional", "true"), ("secret_optional", None),
    ("media_targets_revealed", "no"), ("media_optional", 2),
    ("independent_points_strict", "false"),
    ("no_trio_winner", "maybe"), ("team_points_tiebreak", "avg"),
    ("independent_double_media", "discard"), ("p3_harmonies", "mono"),
])
def test_V_bad_variant_values_refused(name, value):
    """Part V: integers are whole numbers (point values, favourite_suit_bonus, team_vetoes
    ≥ 0; round_cap ≥ 1; max_rounds null or ≥ 1); bools are bools; enumerations take only
    the listed strings."""
    with pytest.raises(ConfigError):
        DemosConfig(variants={name: value})


@pytest.mark.parametrize("value", [[12, 8], [12, 8, 4, 0], "12,8,4", [12, 8, -4],
                                   [12, 8, 4.5], 12, None, [12, "8", 4]])
def test_V_run_base_malformed_refused(value):
    """Part V: run_base is [one suit, two suits, three suits], 3 integers ≥ 0."""
    with pytest.raises(ConfigError):
        DemosConfig(variants={"run_base": value})


def test_V_good_variant_values_accepted():
    """Part V: boundary values that the index allows are accepted."""
    c = DemosConfig(variants={"carre_points": 0, "run_base": [0, 0, 0], "max_rounds": 1,
                              "round_cap": 1, "favourite_suit_bonus": 0, "team_vetoes": 0})
    assert c.variants["carre_points"] == 0 and c.variants["round_cap"] == 1
    assert DemosConfig(variants={"max_rounds": None}).variants["max_rounds"] is None


def test_V_defaults_and_D3_3_secret_optional_default():
    """Part V defaults; D3.3 secret_optional: true in full rules, false in simplified,
    and an explicit value wins."""
    full = DemosConfig(rules="full", players=4).variants
    assert set(full) == {
        "carre_points", "run_base", "secret_optional", "max_rounds", "round_cap",
        "media_targets_revealed", "media_optional", "no_trio_winner", "team_vetoes",
        "team_points_tiebreak", "independent_double_media", "independent_points_strict",
        "p3_harmonies", "favourite_suit_bonus", "announced_trio", "team_trio", "team_talk",
        "p3_points_tiebreak"}
    assert set(VARIANTS) == set(full)
    assert full["carre_points"] == 30
    assert list(full["run_base"]) == [12, 8, 4]
    assert full["secret_optional"] is True
    assert full["max_rounds"] is None
    assert full["round_cap"] == 200
    assert full["media_targets_revealed"] is False
    assert full["media_optional"] is False
    assert full["no_trio_winner"] == "none"
    assert full["team_vetoes"] == 2
    assert full["team_points_tiebreak"] == "max"
    assert full["independent_double_media"] == "keep"
    assert full["independent_points_strict"] is True
    assert full["p3_harmonies"] == "bicolour_then_mono"
    assert full["favourite_suit_bonus"] == 0
    assert full["announced_trio"] is False
    assert full["team_trio"] == "best_member"
    assert full["team_talk"] == "figures"
    assert full["p3_points_tiebreak"] == "sum"     # contract 2: D9.6 step 3's own words
    assert DemosConfig(rules="simplified", players=4).variants["secret_optional"] is False
    assert DemosConfig(rules="simplified", players=4,
                       variants={"secret_optional": True}).variants["secret_optional"] is True
    assert DemosConfig(rules="full", players=4,
                       variants={"secret_optional": False}).variants["secret_optional"] is False


# ================================================================== D4.1 / D4.2 combinations

def _bc(hand, **kw):
    c = best_combination(hand, **kw)
    return c.kind, sorted(c.cards), c.score, c.unplayed_total


def test_D4_1_carre():
    """D4.1 Carré: four of a value = carre_points (30); unplayed 9."""
    assert _bc(["5S", "5H", "5D", "5C", "9H"]) == ("carre", sorted(["5S", "5H", "5D", "5C"]), 30, 9)


def test_D4_1_carre_points_variant():
    """D4.1 / Part V carre_points: the Carré scores the variant's value."""
    assert _bc(["5S", "5H", "5D", "5C", "9H"], carre_points=17)[2] == 17
    assert _bc(["10S", "10H", "10D", "10C", "1H"], carre_points=0)[::2] == ("carre", 0)


def test_D4_1_run_one_two_three_suits():
    """D4.1 runs: run_base[k] + lowest value with k = distinct suits (12/8/4):
    ♠7♠8♠9 = 19; ♠7♥8♠9 = 8+7 = 15; ♠7♥8♦9 = 4+7 = 11; unplayed 1+3 = 4."""
    assert _bc(["7S", "8S", "9S", "1H", "3D"]) == ("run", ["7S", "8S", "9S"], 19, 4)
    assert _bc(["7S", "8H", "9S", "1H", "3D"]) == ("run", ["7S", "8H", "9S"], 15, 4)
    assert _bc(["7S", "8H", "9D", "1C", "3D"]) == ("run", ["7S", "8H", "9D"], 11, 4)
    # Aces are 1s (D3.0): 1-2-3 is a run, 12 + 1 = 13.
    assert _bc(["1D", "2D", "3D", "6H", "9C"]) == ("run", ["1D", "2D", "3D"], 13, 15)


def test_D4_1_no_wrap():
    """D4.1: no wrap — 10-1-2 and 9-10-1 are not runs; such hands abandon."""
    c = best_combination(["10S", "1S", "2S", "5H", "7D"])
    assert c.kind is None and c.score == 0
    c = best_combination(["9S", "10S", "1S", "5H", "7D"])
    assert c.kind is None and c.score == 0


def test_D4_1_longer_run_scores_best_three_card_part():
    """D4.1: a longer run is scored as its best 3-card part.
    3H 4S 5S 6S: 3-4-5 two suits 8+3 = 11, 4-5-6 one suit 12+4 = 16 → 16 (unpl 3+9).
    2S..6S: windows 14, 15, 16 → 4S5S6S = 16 (unpl 2+3).
    4S5S6S 7H 8D: 16, 8+5 = 13, 4+6 = 10 → 16 (unpl 15)."""
    assert _bc(["3H", "4S", "5S", "6S", "9D"]) == ("run", ["4S", "5S", "6S"], 16, 12)
    assert _bc(["2S", "3S", "4S", "5S", "6S"]) == ("run", ["4S", "5S", "6S"], 16, 5)
    assert _bc(["4S", "5S", "6S", "7H", "8D"]) == ("run", ["4S", "5S", "6S"], 16, 15)


def test_D4_1_no_carre_in_simplified_rules():
    """D1/D8: the simplified rules have no Carré; four of a kind is no combination."""
    c = best_combination(["5S", "5H", "5D", "5C", "9H"], rules="simplified")
    assert c.kind is None and c.score == 0
    assert _bc(["2S", "3S", "4S", "9H", "10D"], rules="simplified") == (
        "run", ["2S", "3S", "4S"], 14, 19)


def test_D4_1_run_base_variant():
    """Part V run_base: [20, 10, 0] → a 3-suit 7-8-9 = 0 + 7 = 7, 2-suit = 17, 1-suit = 27."""
    rb = [20, 10, 0]
    assert _bc(["7S", "8H", "9D", "1C", "3D"], run_base=rb)[2] == 7
    assert _bc(["7S", "8H", "9S", "1C", "3D"], run_base=rb)[2] == 17
    assert _bc(["7S", "8S", "9S", "1C", "3D"], run_base=rb)[2] == 27


def test_D4_2_run_base_where_more_suits_score_more():
    """D4.1–D4.2 with run_base [4, 8, 12]: the player picks the suits of the run that
    maximise the score: 5H 6S 7D (3 suits) = 12+5 = 17 beats 5S 6S 7D (2 suits) = 13."""
    assert _bc(["5S", "5H", "6S", "7D", "9C"], run_base=[4, 8, 12]) == (
        "run", ["5H", "6S", "7D"], 17, 14)


def test_X1_favourite_suit_bonus_one_suit_run_only():
    """X1: a run entirely in the favourite suit scores the bonus extra; a run only partly
    in it does not; a run in another suit does not."""
    assert _bc(["7S", "8S", "9S", "1H", "3D"], favourite_suit="S",
               favourite_suit_bonus=10)[2] == 29          # 12 + 7 + 10
    assert _bc(["7S", "8S", "9S", "1H", "3D"], favourite_suit="H",
               favourite_suit_bonus=10)[2] == 19          # not the favourite suit
    assert _bc(["7S", "8S", "9H", "1H", "3D"], favourite_suit="S",
               favourite_suit_bonus=10)[2] == 15          # two suits: 8 + 7, no bonus
    assert _bc(["7S", "8S", "9S", "1H", "3D"], favourite_suit="S",
               favourite_suit_bonus=0)[2] == 19           # bonus 0 = off


def test_X1_bonus_can_change_the_choice():
    """X1 + D4.2, run_base [5, 8, 4]: 3D 4D 5D 6S 7S. Without a bonus: 3-4-5 one suit
    5+3 = 8, 4-5-6 two suits 8+4 = 12, 5-6-7 two suits 8+5 = 13 → 5D6S7S = 13, unplayed
    3+4 = 7. Favourite ♦ with bonus 10: 3D4D5D = 5+3+10 = 18 → played, unplayed 13."""
    hand = ["3D", "4D", "5D", "6S", "7S"]
    assert _bc(hand, run_base=[5, 8, 4]) == ("run", ["5D", "6S", "7S"], 13, 7)
    assert _bc(hand, run_base=[5, 8, 4], favourite_suit="D", favourite_suit_bonus=10) == (
        "run", ["3D", "4D", "5D"], 18, 13)


@pytest.mark.parametrize("run_base", [[9, 8, 4], [9, 8, 10]])
def test_D4_2_equal_scores_maximise_unplayed(run_base):
    """D4.2: maximise (score, unplayed total). 3S 4S 5S 6H 10D with run_base [9, 8, x]:
    3S4S5S = 9+3 = 12 leaves 6+10 = 16; 4S5S6H = 8+4 = 12 leaves 3+10 = 13 → 3S4S5S."""
    assert _bc(["3S", "4S", "5S", "6H", "10D"], run_base=run_base) == (
        "run", ["3S", "4S", "5S"], 12, 16)


def test_D4_2_score_before_unplayed():
    """D4.2: score comes first: 3S 4H 5D 6C 10S: 3-4-5 = 4+3 = 7 (leaves 16), 4-5-6 =
    4+4 = 8 (leaves 13) → 8."""
    assert _bc(["3S", "4H", "5D", "6C", "10S"]) == ("run", ["4H", "5D", "6C"], 8, 13)


def test_D4_1_vectorised_scoring_agrees_with_hand_values():
    """D4.1–D4.2 through best_combinations (the vectorised API), same hand-made values."""
    hands = [["5S", "5H", "5D", "5C", "9H"], ["7S", "8S", "9S", "1H", "3D"],
             ["7S", "8H", "9D", "1C", "3D"], ["10S", "1S", "2S", "5H", "7D"]]
    ids = np.array([[card_id(c) for c in h] for h in hands])
    out = best_combinations(ids)
    assert list(out["kind"]) == [2, 1, 1, 0]
    assert list(out["score"]) == [30, 19, 11, 0]
    assert list(out["unplayed_total"]) == [9, 4, 4, 25]


# ================================================================== D4.1–D4.7 through the engine's showdown

# Four hands: a Carré, a one-suit run, nothing, a three-suit run.
H_CARRE = ["5S", "5H", "5D", "5C", "9H"]       # 30
H_RUN19 = ["7S", "8S", "9S", "1H", "3D"]       # 12 + 7 = 19
H_NONE = ["2H", "4H", "6H", "8D", "10D"]       # 2,4,6,8,10: abandons
H_RUN6 = ["2S", "3H", "4D", "8C", "10C"]       # 4 + 2 = 6


def test_D4_7_round_points_added():
    """D4.1/D4.7: round scores 30, 19, 0 (abandoned), 6 are added to cumulative points
    10, 20, 30, 40 → 40, 39, 30, 46; the Carré wins (D4.3)."""
    t = table(FULL4, hands={0: H_CARRE, 1: H_RUN19, 2: H_NONE, 3: H_RUN6}, cum=[10, 20, 30, 40])
    t.showdown()
    assert t.points() == [40, 39, 30, 46]
    assert t.winners() == [0]
    assert [int(t.st[L.S_SCORE + p]) for p in range(4)] == [30, 19, 0, 6]


def test_D4_5_carre_winner_draws_two_figures():
    """D4.5: a Carré winner draws 2 figures from the top of the pile; the rest stays."""
    t = table(FULL4, hands={0: H_CARRE, 1: H_RUN19, 2: H_NONE, 3: H_RUN6},
              figures={0: ["LC"]}, pile=["ES", "LH", "JC"])
    t.showdown()
    assert t.figure_draws() == [(0, "ES"), (0, "LH")]
    assert t.figures_of(0) == ["LC", "ES", "LH"]
    assert int(t.st[L.S_PILE_POS]) == 2


def test_D4_5_run_winner_draws_one_figure():
    """D4.5: a run winner draws exactly 1 figure."""
    t = table(FULL4, hands={0: H_NONE, 1: H_RUN19, 2: ["1S", "3S", "5H", "10H", "6C"], 3: H_RUN6},
              pile=["ES", "LH", "JC"])
    t.showdown()
    assert t.winners() == [1]
    assert t.figure_draws() == [(1, "ES")]


def test_D4_1_simplified_four_of_a_kind_is_no_combination():
    """D8: in simplified rules 5♠5♥5♦5♣9♥ abandons (score 0); ♦2♦3♦4 = 12 + 2 = 14 wins."""
    cfg = DemosConfig(rules="simplified", players=4)
    t = table(cfg, hands={0: ["5S", "5H", "5D", "5C", "9H"], 1: ["2S", "4S", "6S", "8S", "10S"],
                          2: ["2H", "4H", "6H", "8H", "10H"], 3: ["2D", "3D", "4D", "8C", "10C"]},
              pile=["ES", "LH"])
    t.showdown()
    assert t.winners() == [3]
    assert t.points() == [0, 0, 0, 14]
    assert t.figure_draws() == [(3, "ES")]
    assert t.reveals() == []


def test_X1_favourite_suit_bonus_in_round_score():
    """X1 + D4.7: bonus 10. Seat 0 (favourite ♠) ♠7♠8♠9 = 29; seat 1 (favourite ♠)
    ♥8♥9♥10 = 20, no bonus; seat 2 (favourite ♥) ♥2♠3♥4 two suits = 10, no bonus; seat 3
    nothing. Seat 0 wins (without the bonus seat 1's 20 would beat 19)."""
    cfg = DemosConfig(players=4, variants={"favourite_suit_bonus": 10})
    t = table(cfg, hands={0: ["7S", "8S", "9S", "1H", "3D"], 1: ["8H", "9H", "10H", "2D", "4C"],
                          2: ["2H", "3S", "4H", "6C", "10D"], 3: ["1S", "3C", "5C", "7C", "10S"]},
              fav={0: "S", 1: "S", 2: "H", 3: "C"})
    t.showdown()
    assert t.points() == [29, 20, 10, 0]
    assert t.winners() == [0]


def test_D4_3_highest_score_wins():
    """D4.3: highest score wins: ♥8♥9♥10 = 12 + 8 = 20 beats ♠7♠8♠9 = 19 even though
    ♠7♠8♠9 + ♠2 has more cards of one suit (the score comes first)."""
    t = table(FULL4, hands={0: ["7S", "8S", "9S", "2S", "3D"], 1: ["8H", "9H", "10H", "2D", "4C"],
                            2: ["1S", "3S", "5H", "1H", "6C"], 3: ["2H", "4D", "6D", "8C", "10C"]})
    t.showdown()
    assert t.winners() == [1]


def test_D4_3_tiebreak_suit_count():
    """D4.3 step 1: equal scores (19 and 19) → the largest number of cards of one suit
    among all 5 cards: seat 0 ♠7♠8♠9♠2 = 4 spades (the unplayed ♠2 counts) beats seat 1's
    3 hearts, although seat 1's unplayed total (10+5 = 15) is higher than seat 0's (5)."""
    t = table(FULL4, hands={0: ["7S", "8S", "9S", "2S", "3D"], 1: ["7H", "8H", "9H", "10D", "5C"],
                            2: ["1S", "3S", "5H", "10H", "6C"], 3: ["2H", "4C", "6D", "8C", "10C"]},
              pile=["ES", "LH"])
    t.showdown()
    assert t.winners() == [0]
    assert t.figure_draws() == [(0, "ES")]
    assert t.points() == [19, 19, 0, 0]


def test_D4_3_tiebreak_unplayed_total():
    """D4.3 step 2: 19 vs 19, 3 vs 3 cards of one suit → unplayed total: seat 1 (4+2 = 6)
    beats seat 0 (1+3 = 4)."""
    t = table(FULL4, hands={0: ["7S", "8S", "9S", "1H", "3D"], 1: ["7H", "8H", "9H", "4D", "2C"],
                            2: ["1S", "3S", "5H", "10H", "6C"], 3: ["2S", "4C", "6D", "8C", "10C"]},
              pile=["ES", "LH"])
    t.showdown()
    assert t.winners() == [1]
    assert t.figure_draws() == [(1, "ES")]


def test_D4_3_tiebreak_uses_the_played_combination_of_D4_2():
    """D4.2 + D4.3 step 2, run_base [9, 8, 4]: seat 0 3S 4S 5S 6H 10D plays 3S4S5S = 12
    (not 4S5S6H = 12), leaving 16; seat 1 3H 4H 5H 10S 4C plays 3H4H5H = 12 leaving 14.
    Both have 3 cards of one suit → seat 0 wins on 16 > 14."""
    cfg = DemosConfig(players=4, variants={"run_base": [9, 8, 4]})
    t = table(cfg, hands={0: ["3S", "4S", "5S", "6H", "10D"], 1: ["3H", "4H", "5H", "10S", "4C"],
                          2: ["1S", "7S", "9H", "1D", "2C"], 3: ["2H", "6D", "8D", "10C", "10H"]})
    t.showdown()
    assert t.points() == [12, 12, 0, 0]
    assert t.winners() == [0]


# Two hands equal at every step: 19, 3 cards of one suit, unplayed 4.
H_TIE_A = ["7S", "8S", "9S", "1H", "3D"]
H_TIE_B = ["7H", "8H", "9H", "1D", "3C"]
H_NONE_A = ["2S", "4S", "6H", "10H", "1C"]     # 1,2,4,6,10: no run
H_NONE_B = ["2H", "4D", "6D", "8C", "10C"]     # 2,4,6,8,10: no run


def test_D4_3_ex_aequo_winners_D4_5_action_order():
    """D4.3 step 3: still tied → both win ex aequo. D4.5: joint winners are served in
    action order from the dealer's left: dealer 0 → order 1, 2, 3, 0: seat 1 draws ES,
    then seat 0 draws LH."""
    t = table(FULL4, dealer=0, hands={0: H_TIE_A, 1: H_TIE_B, 2: H_NONE_A, 3: H_NONE_B},
              pile=["ES", "LH", "JC"])
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(1, "ES"), (0, "LH")]
    assert t.points() == [19, 19, 0, 0]


def test_D4_5_action_order_depends_on_dealer():
    """D4.5 with dealer 3 → order 0, 1, 2, 3: seat 0 is served first this time."""
    t = table(FULL4, dealer=3, hands={0: H_TIE_A, 1: H_TIE_B, 2: H_NONE_A, 3: H_NONE_B},
              pile=["ES", "LH", "JC"])
    t.showdown()
    assert t.figure_draws() == [(0, "ES"), (1, "LH")]


def test_D4_5_figure_shortage_single_figure():
    """D4.5: "until the pile is empty": two joint run winners, 1 figure left: the first
    in action order (dealer 0 → seat 1) takes it, seat 0 gets nothing."""
    t = table(FULL4, dealer=0, hands={0: H_TIE_A, 1: H_TIE_B, 2: H_NONE_A, 3: H_NONE_B},
              pile=["JC"])
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(1, "JC")]
    assert t.figures_of(0) == []


def test_D4_4_everyone_abandons():
    """D4.4: every player abandons → nobody wins, no figure is drawn, nobody scores."""
    t = table(FULL4, hands={0: ["1S", "3S", "5S", "7S", "9S"], 1: ["2S", "4S", "6S", "8S", "10S"],
                            2: ["1H", "3H", "5H", "7H", "9H"], 3: ["2H", "4H", "6H", "8H", "10H"]},
              figures={1: ["EH"]}, cum=[5, 6, 7, 8], pile=["ES", "LH"])
    t.showdown()
    assert t.winners() == []
    assert t.figure_draws() == []
    assert t.reveals() == []
    assert t.points() == [5, 6, 7, 8]
    assert int(t.st[L.S_PILE_POS]) == 0


def test_D4_6_carre_reveal():
    """D4.6: seat 0 wins with a Carré. Every other player turns up their earliest E/L/J:
    seat 1 (M, EH, LS) → EH (its first figure is a Media; LS stays down, once a round);
    seat 2 (JD already face up, ED) → nothing more; seat 3 (no figure) → nothing. The
    Carré winner's own figures stay face down."""
    t = table(FULL4, hands={0: H_CARRE, 1: H_RUN19, 2: H_NONE, 3: H_RUN6},
              figures={0: ["LC"], 1: ["M", "EH", "LS"], 2: ["JD", "ED"]}, faceup={2: ["JD"]},
              pile=["ES", "LH", "JC"])
    t.showdown()
    assert t.winners() == [0]
    assert t.reveals() == [(1, "EH")]
    assert fig_up(t, 1, "EH") and not fig_up(t, 1, "LS") and not fig_up(t, 1, "M")
    assert fig_up(t, 2, "JD") and not fig_up(t, 2, "ED")
    assert not fig_up(t, 0, "LC") and not fig_up(t, 0, "ES") and not fig_up(t, 0, "LH")


def test_D4_6_no_reveal_after_a_run_win():
    """D4.6 applies only when the round is won with a Carré."""
    t = table(FULL4, hands={0: H_NONE, 1: H_RUN19, 2: ["1S", "3S", "5H", "10H", "6C"], 3: H_RUN6},
              figures={0: ["EH"], 2: ["LD"], 3: ["JS"]}, pile=["ES"])
    t.showdown()
    assert t.reveals() == []


def test_D4_6_two_joint_carre_winners_both_exempt_D4_5_shortage():
    """D4.3/D4.5/D4.6: 5555+9♥ and 7777+9♠ tie at every step (30, 2 of a suit, 9) → both
    win with a Carré. Dealer 0: seat 1 takes its 2 figures (ES, LH) first, then seat 0
    gets the last one (JC) — the pile runs out mid-way. Both Carré winners are exempt
    from the reveal; seat 2 (M, ED, LS) reveals ED and seat 3 reveals JH."""
    t = table(FULL4, dealer=0,
              hands={0: ["5S", "5H", "5D", "5C", "9H"], 1: ["7S", "7H", "7D", "7C", "9S"],
                     2: ["1S", "3S", "6H", "10H", "8C"], 3: ["2H", "4D", "6D", "8D", "10C"]},
              figures={0: ["EC"], 1: ["LD"], 2: ["M", "ED", "LS"], 3: ["JH"]},
              pile=["ES", "LH", "JC"])
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(1, "ES"), (1, "LH"), (0, "JC")]
    assert t.reveals() == [(2, "ED"), (3, "JH")]
    assert not fig_up(t, 0, "EC") and not fig_up(t, 1, "LD")
    assert t.points() == [30, 30, 0, 0]


def test_D4_3_carre_points_variant_run_can_beat_carre():
    """D4.3 note: with carre_points 19, 5555+9♥ (19, 2 of a suit) ties ♠7♠8♠9 (19) on
    score; step 1: 3 spades > 2 → the run wins, draws 1 figure, and no Carré reveal."""
    cfg = DemosConfig(players=4, variants={"carre_points": 19})
    t = table(cfg, hands={0: H_CARRE, 1: H_RUN19, 2: H_NONE, 3: H_RUN6},
              figures={2: ["LD"]}, pile=["ES", "LH"])
    t.showdown()
    assert t.winners() == [1]
    assert t.figure_draws() == [(1, "ES")]
    assert t.reveals() == []


def test_D4_6_run_co_winner_reveals_under_carre_points_variant():
    """D4.3/D4.5/D4.6 with carre_points 11: seat 1's Carré 5555+4♠ (11, 2 spades,
    unplayed 4) ties seat 0's ♠7♥8♦9 + ♠1♥3 (4+7 = 11, 2 of a suit, unplayed 4). Dealer 3
    → order 0, 1, 2, 3: seat 0 (run) draws 1 (ES), seat 1 (Carré) draws 2 (LH, JC). The
    run co-winner did not win with a Carré, so it reveals its earliest E/L/J (EC, behind
    a Media); seat 2 reveals LD; the Carré winner (JS) is exempt."""
    cfg = DemosConfig(players=4, variants={"carre_points": 11})
    t = table(cfg, dealer=3,
              hands={1: ["5S", "5H", "5D", "5C", "4S"], 0: ["7S", "8H", "9D", "1S", "3H"],
                     2: ["2S", "4H", "6H", "10H", "8C"], 3: ["2H", "4D", "6D", "10D", "9C"]},
              figures={0: ["M", "EC"], 1: ["JS"], 2: ["LD"]}, pile=["ES", "LH", "JC"])
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(0, "ES"), (1, "LH"), (1, "JC")]
    assert t.reveals() == [(0, "EC"), (2, "LD")]
    assert not fig_up(t, 1, "JS")
    assert t.points() == [11, 11, 0, 0]


# ================================================================== D6 Scandal

def test_D6_1_two_media_cancel():
    """D6.1: a player holding both Media discards both; nothing is played."""
    t = table(FULL4, figures={0: ["M", "EH", "M"], 1: ["LS"], 2: ["JD"]})
    t.scandal()
    assert t.media_actions() == []
    assert [e[0] for e in t.of_type(L.EV_CANCEL)] == [0]
    assert int(t.st[L.S_MEDIA_OWNED + 0]) == 0
    assert cover_of(t, "LS") is None and cover_of(t, "JD") is None


def test_D6_1_non_independent_cancels_in_2v2p1():
    """D6.1 in 2v2+1: a team player holding both Media still discards them."""
    cfg = DemosConfig(mode="2v2+1", players=5)
    t = table(cfg, figures={1: ["M", "M"], 0: ["EH"], 4: ["LS"]})
    t.scandal()
    assert t.media_actions() == []
    assert [e[0] for e in t.of_type(L.EV_CANCEL)] == [1]
    assert t.of_type(L.EV_KEPT) == []


def test_D6_1_D9_6_independent_keeps_both_media():
    """D6.1/D9.6 keep (default): the Independent (seat 4 in ABABI) holding both Media
    keeps them face up and plays neither; they do not cancel."""
    cfg = DemosConfig(mode="2v2+1", players=5)
    t = table(cfg, figures={4: ["M", "JS", "M"], 0: ["EH"], 1: ["LD"]})
    t.scandal()
    assert t.media_actions() == []
    assert t.of_type(L.EV_CANCEL) == []
    assert [e[0] for e in t.of_type(L.EV_KEPT)] == [4]
    assert int(t.st[L.S_MEDIA_OWNED + 4]) == 2


def test_D6_2_D9_6_independent_acts_with_both_media():
    """D6.2/D9.6 act: the Independent plays both Media one after the other. Taking the
    first option each time: first P0's EH (0*16+0), then the only target left, P1's LD."""
    cfg = DemosConfig(mode="2v2+1", players=5, variants={"independent_double_media": "act"})
    t = table(cfg, figures={4: ["M", "JS", "M"], 0: ["EH"], 1: ["LD"]})
    t.scandal()
    assert t.media_actions() == [(4, 0, "EH", "S"), (4, 1, "LD", "S")]
    assert t.of_type(L.EV_CANCEL) == []
    assert cover_of(t, "EH") == "S" and cover_of(t, "LD") == "S"


def _scandal_position(config, dealer):
    # seat 0: ES face down, LH face up (a Carré reveal); seat 1: Media + JD;
    # seat 2: EC, JS face down; seat 3: a Media only.
    return table(config, dealer=dealer,
                 figures={0: ["ES", "LH"], 1: ["M", "JD"], 2: ["EC", "JS"], 3: ["M"]},
                 faceup={0: ["LH"]})


def test_D6_2_legal_targets_and_action_order():
    """D6.2: legal targets are other players' E/L/J figures still face down and not
    covered. Dealer 0 → order 1, 2, 3, 0: seat 1 acts first, offered P0 slot 0 (ES; LH is
    face up), P2 slots 0 and 1 (EC, JS) — not its own JD, not P3's Media. It takes the
    last one (P2's JS) and names ♥. Then seat 3 is offered P0's ES, P1's JD (slot 1) and
    P2's EC — JS is now covered. The holder points blind: the colour decision does not
    show which figure it is."""
    t = _scandal_position(FULL4, dealer=0)
    choose(t, K_MEDIA, -1, [1])
    choose(t, K_COLOUR, 1, [1])
    t.scandal()
    assert media_options(t, 1) == [0 * 16 + 0, 2 * 16 + 0, 2 * 16 + 1]
    assert media_options(t, 3) == [0 * 16 + 0, 1 * 16 + 1, 2 * 16 + 0]
    assert t.media_actions() == [(1, 2, "JS", "H"), (3, 0, "ES", "S")]
    assert cover_of(t, "JS") == "H" and cover_of(t, "ES") == "S"
    assert fig_up(t, 2, "JS") and fig_up(t, 0, "ES")
    assert int(t.params[1][_SPY_ARG1]) == -1       # D6.2: "without seeing what it is"
    assert int(t.params[3][_SPY_ARG1]) == -1
    # D6.2: the Media holders reveal their Media
    assert fig_up(t, 1, "M")
    assert (int(t.st[L.S_FIGUP + 3]) >> 13) & 1


def test_D6_2_action_order_of_the_last_round():
    """D6.2: Media holders act in action order of the last round: dealer 2 → order
    3, 0, 1, 2: seat 3 acts first (offered ES, JD, EC, JS; takes ES, ♠), then seat 1
    (offered EC, JS; takes the last, JS, ♥)."""
    t = _scandal_position(FULL4, dealer=2)
    choose(t, K_MEDIA, -1, [1])
    choose(t, K_COLOUR, 1, [1])
    t.scandal()
    assert media_options(t, 3) == [0, 17, 32, 33]
    assert media_options(t, 1) == [32, 33]
    assert t.media_actions() == [(3, 0, "ES", "S"), (1, 2, "JS", "H")]


def test_D6_2_media_optional_allows_declining():
    """D6.2 media_optional true: the action may be declined (option -1 comes first)."""
    cfg = DemosConfig(players=4, variants={"media_optional": True})
    t = _scandal_position(cfg, dealer=0)
    choose(t, K_MEDIA, 0)
    t.scandal()
    assert media_options(t, 1) == [-1, 0, 32, 33]
    assert media_options(t, 3) == [-1, 0, 17, 32, 33]
    assert t.media_actions() == []


def test_D6_2_media_compulsory_by_default():
    """D6.2: by default the action is compulsory while a legal target exists: declining
    is never offered, and a single legal target is hit."""
    t = table(FULL4, figures={1: ["M"], 0: ["ES"]})
    t.scandal()
    assert t.media_actions() == [(1, 0, "ES", "S")]
    t = _scandal_position(FULL4, dealer=0)
    t.scandal()
    assert -1 not in media_options(t, 1) and -1 not in media_options(t, 3)
    assert len(t.media_actions()) == 2


def test_D6_2_no_legal_target_no_effect():
    """D6.2: a Media with no legal target has no effect (own figures and face-up
    figures are not targets); the holder is not even asked."""
    t = table(FULL4, figures={1: ["M", "EH"], 0: ["LH"]}, faceup={0: ["LH"]})
    t.scandal()
    assert t.media_actions() == []
    assert media_options(t, 1) is None
    assert cover_of(t, "LH") is None and cover_of(t, "EH") is None
    assert fig_up(t, 1, "M")


def test_D6_3_media_targets_revealed():
    """D6.3 media_targets_revealed true: a figure revealed by a Carré may be targeted;
    the holder then sees which figure it is."""
    cfg = DemosConfig(players=4, variants={"media_targets_revealed": True})
    t = table(cfg, figures={1: ["M", "EH"], 0: ["LH"]}, faceup={0: ["LH"]})
    choose(t, K_COLOUR, 2)
    t.scandal()
    assert t.media_actions() == [(1, 0, "LH", "D")]
    assert int(t.params[1][_SPY_ARG1]) == figure_id("LH")
    t = _scandal_position(cfg, dealer=0)
    choose(t, K_MEDIA, -1, [1])
    t.scandal()
    assert media_options(t, 1) == [0, 1, 32, 33]      # LH (P0 slot 1) now legal


def test_D6_3_covered_figures_never_targets():
    """D6.2/D6.3: a figure covered by a Media is not a target, even with
    media_targets_revealed: seat 1 covers P2's EC; seat 3 has nothing left."""
    cfg = DemosConfig(players=4, variants={"media_targets_revealed": True})
    t = table(cfg, dealer=0, figures={1: ["M"], 3: ["M"], 2: ["EC"]})
    t.scandal()
    assert t.media_actions() == [(1, 2, "EC", "S")]
    assert media_options(t, 3) is None


def test_D6_2_teammate_is_a_legal_target():
    """D6.2: the holder names another player, opponent or teammate: in 2v2 (ABAB) seat 0
    can only hit its teammate seat 2's EH, and must (compulsory)."""
    cfg = DemosConfig(mode="2v2", players=4)
    t = table(cfg, figures={0: ["M"], 2: ["EH"]})
    choose(t, K_COLOUR, 3)
    t.scandal()
    assert t.media_actions() == [(0, 2, "EH", "C")]


# ================================================================== D7 election (individual)

def test_D7_2_harmony_beats_points():
    """D7.2/D7.3: best harmony wins whatever the points: seat 0 (ES LH JD, 3 colours,
    0 points) beats 2-colour and 1-colour trios with 80–99 points."""
    t = table(FULL4, figures={0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JS"],
                              2: ["ED", "LD", "JH"], 3: ["EC", "LC", "JC"]},
              cum=[0, 90, 80, 99])
    t.election()
    assert t.result() == (["0"], [0])
    assert t.trio(0) == (["ES", "LH", "JD"], 3)
    assert t.trio(1)[1] == 2 and t.trio(2)[1] == 2
    assert t.trio(3) == (["EC", "LC", "JC"], 1)


def test_D7_3_harmony_tie_cumulative_points():
    """D7.3: seats 0 and 2 both have 3 colours; 50 > 40 points → seat 0."""
    figs = {0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JS"], 2: ["ED", "LC", "JH"], 3: ["EC", "LD", "JC"]}
    t = table(FULL4, figures=figs, cum=[50, 99, 40, 0])
    t.election()
    assert t.result() == (["0"], [0])


def test_D7_3_shared_victory():
    """D7.3: same harmony, same points → shared victory."""
    figs = {0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JS"], 2: ["ED", "LC", "JH"], 3: ["EC", "LD", "JC"]}
    t = table(FULL4, figures=figs, cum=[50, 99, 50, 0])
    t.election()
    assert t.result() == (["0", "2"], [0, 2])


def test_D7_1_best_trio_choice():
    """D7.1: the player chooses their best trio: ES EH LS JS → EH LS JS (2 colours)."""
    t = table(FULL4, figures={0: ["ES", "EH", "LS", "JS"]})
    t.election()
    codes, h = t.trio(0)
    assert h == 2 and codes == ["EH", "LS", "JS"]


def test_D7_2_no_trio_cannot_win():
    """D7.2: no trio ranks below every trio: seat 0 (no J, 99 points) loses to seat 1's
    one-colour trio with 0 points."""
    t = table(FULL4, figures={0: ["ES", "EH", "LS"], 1: ["ED", "LD", "JD"]}, cum=[99, 0, 0, 0])
    t.election()
    assert t.trio(0) == (None, 0)
    assert t.result() == (["1"], [1])


def test_D7_4_no_trio_winner_none():
    """D7.4 default none: nobody has a trio → no winner."""
    t = table(FULL4, figures={0: ["ES", "LH"], 2: ["JD"]}, cum=[30, 50, 50, 10])
    t.election()
    assert t.result() == ([], [])


def test_D7_4_no_trio_winner_points():
    """D7.4 points: nobody has a trio → most cumulative points; a tie is shared."""
    cfg = DemosConfig(players=4, variants={"no_trio_winner": "points"})
    t = table(cfg, figures={0: ["ES", "LH"], 2: ["JD"]}, cum=[30, 50, 50, 10])
    t.election()
    assert t.result() == (["1", "2"], [1, 2])
    t = table(cfg, figures={0: ["ES", "LH"]}, cum=[30, 60, 50, 10])
    t.election()
    assert t.result() == (["1"], [1])


def test_D7_4_points_variant_only_when_no_trio_anywhere():
    """D7.4: under points, a game where someone has a trio is still decided by harmony."""
    cfg = DemosConfig(players=4, variants={"no_trio_winner": "points"})
    t = table(cfg, figures={0: ["EC", "LC", "JC"], 1: ["ES", "LH"]}, cum=[0, 99, 0, 0])
    t.election()
    assert t.result() == (["0"], [0])


def test_D7_1_forced_trio_with_covered_figure():
    """D7.1: a Media-covered figure must be in the trio. Seat 0: ES LH JD JC with JD
    covered ♠ → ES LH JD = ♠♥♠ = 2 colours (ES LH JC would be 3, not allowed). Seat 1 has
    2 colours too (ED LS JS) and more points → seat 1 wins."""
    t = table(FULL4, figures={0: ["ES", "LH", "JD", "JC"], 1: ["ED", "LS", "JS"]},
              covers={"JD": "S"}, cum=[5, 10, 0, 0])
    t.election()
    assert t.trio(0) == (["ES", "LH", "JD"], 2)
    assert t.result() == (["1"], [1])


def test_D7_1_media_colour_applied():
    """D6.2/D7.1: the covered figure takes the announced colour: EC LC JC with LC covered
    ♥ counts ♣♥♣ = 2 colours, beating seat 1's one-colour trio with more points."""
    t = table(FULL4, figures={0: ["EC", "LC", "JC"], 1: ["ES", "LS", "JS"]},
              covers={"LC": "H"}, cum=[0, 99, 0, 0])
    t.election()
    assert t.trio(0) == (["EC", "LC", "JC"], 2)
    assert t.result() == (["0"], [0])


def test_D7_1_two_covered_figures_of_one_type_no_trio():
    """D7.1: two covered figures of the same type (JD and JC) cannot both fit → no trio."""
    t = table(FULL4, figures={0: ["ES", "LH", "JD", "JC"], 1: ["ED", "LD", "JH"]},
              covers={"JD": "S", "JC": "H"}, cum=[99, 0, 0, 0])
    t.election()
    assert t.trio(0) == (None, 0)
    assert t.result() == (["1"], [1])


def test_D6_2_D7_1_scandal_then_forced_trio():
    """D6.2 → D7.1 end to end: seat 1's Media hits seat 0's JD (slot 2, the only choice
    left after its own figures) with ♠; seat 0 must then play ES LH JD(♠) = 2 colours
    instead of ES LH JC = 3 colours; seat 2's 2-colour trio with more points wins."""
    t = table(FULL4, dealer=0, figures={0: ["ES", "LH", "JD", "JC"], 1: ["M"], 2: ["ED", "LS", "JS"]},
              cum=[5, 0, 10, 0])
    # seat 1's options: P0 slots 0..3 = 0,1,2,3 then P2 slots 0..2 = 32,33,34: take P0 slot 2.
    choose(t, K_MEDIA, 2, [1])
    choose(t, K_COLOUR, 0, [1])
    t.scandal()
    assert t.media_actions() == [(1, 0, "JD", "S")]
    t.election()
    assert t.trio(0) == (["ES", "LH", "JD"], 2)
    assert t.result() == (["2"], [2])


# ================================================================== D9 team modes

def test_D9_3_side_vetoes():
    """D3.4.1/D9.3: individuals 1 veto each; 2v2 teams 1 each; 2v3: the team of two
    team_vetoes (default 2), the team of three 1; 2v2+1: every side 1."""
    assert DemosConfig(players=4).side_vetoes() == [1, 1, 1, 1]
    assert DemosConfig(players=5).side_vetoes() == [1, 1, 1, 1, 1]
    assert DemosConfig(mode="2v2", players=4).side_vetoes() == [1, 1]
    assert DemosConfig(mode="2v3", players=5).side_vetoes() == [2, 1]          # A = 2 players
    assert DemosConfig(mode="2v3", players=5, seating="ABABA").side_vetoes() == [1, 2]
    assert DemosConfig(mode="2v3", players=5, variants={"team_vetoes": 0}).side_vetoes() == [0, 1]
    assert DemosConfig(mode="2v3", players=5, variants={"team_vetoes": 3}).side_vetoes() == [3, 1]
    assert DemosConfig(mode="2v2+1", players=5).side_vetoes() == [1, 1, 1]
    assert DemosConfig(mode="2v2", players=4, variants={"team_vetoes": 5}).side_vetoes() == [1, 1]
    assert DemosConfig(mode="2v2+1", players=5,
                       variants={"team_vetoes": 5}).side_vetoes() == [1, 1, 1]


def test_D9_3_engine_starts_with_side_vetoes():
    """D9.3: the engine's state starts with every side's vetoes (2v3 ABABB: A 2, B 1)."""
    t = table(DemosConfig(mode="2v3", players=5, variants={"team_vetoes": 3}))
    assert [int(t.st[L.S_VETO + s]) for s in range(2)] == [3, 1]


TEAM4 = DemosConfig(mode="2v2", players=4)     # ABAB: A = {0, 2}, B = {1, 3}


def test_D9_4_teammates_tied_win_once():
    """D9.4: teammates seats 0 and 2 tie ex aequo → their team wins once and draws 1
    figure; the team decides which member receives it (options: seats 0, 2)."""
    for idx, receiver in ((-1, 2), (0, 0)):
        t = table(TEAM4, dealer=0, hands={0: H_TIE_A, 2: H_TIE_B, 1: H_NONE_A, 3: H_NONE_B},
                  pile=["ES", "LH", "JC"])
        choose(t, K_ALLOC, idx)
        t.showdown()
        assert sorted(t.winners()) == [0, 2]
        assert t.figure_draws() == [(receiver, "ES")]
        assert int(t.st[L.S_PILE_POS]) == 1
        assert t.points() == [19, 0, 19, 0]


def test_D9_4_different_sides_tied_each_draw():
    """D9.4: tied players of different sides: each side wins and draws, in action order
    (dealer 0 → seat 1's team B first); each team allocates (here: its last member)."""
    t = table(TEAM4, dealer=0, hands={0: H_TIE_A, 1: H_TIE_B, 2: H_NONE_A, 3: H_NONE_B},
              pile=["ES", "LH", "JC"])
    choose(t, K_ALLOC, -1)
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(3, "ES"), (2, "LH")]


def test_D9_4_team_carre_draws_two_and_reveal():
    """D9.4/D4.6: seat 1 (team B) wins with a Carré → team B draws 2 figures, each
    allocated by the team (here both to seat 3). Every player of the other side reveals
    (seat 0: EC; seat 2: LD behind its Media); team B's seat 3 — not itself a winner — is
    exempt, as is seat 1."""
    t = table(TEAM4, dealer=0, hands={1: H_CARRE, 0: H_RUN19, 2: H_NONE, 3: H_RUN6},
              figures={0: ["EC"], 2: ["M", "LD"], 3: ["JH"], 1: ["JS"]}, pile=["ES", "LH", "JC"])
    choose(t, K_ALLOC, -1)
    t.showdown()
    assert t.winners() == [1]
    assert t.figure_draws() == [(3, "ES"), (3, "LH")]
    assert t.reveals() == [(0, "EC"), (2, "LD")]
    assert not fig_up(t, 3, "JH") and not fig_up(t, 1, "JS")


def test_D9_4_carre_reveal_hits_the_independent():
    """D9.4: 2v2+1 (ABABI): seat 0 (team A) wins with a Carré; team A draws 2 (both to
    seat 0 here). Every player of every other side reveals, the Independent included:
    seat 1 EC, seat 3 JH, seat 4 ED (behind its Media); teammate seat 2 is exempt."""
    cfg = DemosConfig(mode="2v2+1", players=5)
    t = table(cfg, dealer=0,
              hands={0: H_CARRE, 1: H_RUN19, 2: H_NONE, 3: H_RUN6, 4: ["1S", "3S", "6D", "7C", "10H"]},
              figures={1: ["EC"], 2: ["LD"], 3: ["JH"], 4: ["M", "ED"]}, pile=["ES", "LH", "JC"])
    choose(t, K_ALLOC, 0)
    t.showdown()
    assert t.winners() == [0]
    assert t.figure_draws() == [(0, "ES"), (0, "LH")]
    assert t.reveals() == [(1, "EC"), (3, "JH"), (4, "ED")]
    assert not fig_up(t, 2, "LD")


def test_D9_5_team_points_tiebreak_max():
    """D9.5: both sides' best trios have 3 colours (seat 0 for A, seat 1 for B); ties:
    the side with the single top member wins (max): A max 30, B max 50 → B."""
    t = table(TEAM4, figures={0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JC"]}, cum=[30, 50, 30, 0])
    t.election()
    assert t.result() == (["B"], [1, 3])


def test_D9_5_team_points_tiebreak_sum():
    """D9.5 team_points_tiebreak sum: A 30 + 30 = 60 > B 50 + 0 → A."""
    cfg = DemosConfig(mode="2v2", players=4, variants={"team_points_tiebreak": "sum"})
    t = table(cfg, figures={0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JC"]}, cum=[30, 50, 30, 0])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_5_side_trio_is_best_members_trio():
    """D9.5: a side's trio is its best member's: seat 2 (A) 3 colours beats seat 1 (B)
    2 colours with 99 points, although seat 0 (A) has none."""
    t = table(TEAM4, figures={2: ["ES", "LH", "JD"], 1: ["EH", "LS", "JS"]}, cum=[0, 99, 0, 0])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_5_shared_team_victory():
    """D9.5: same harmony, same tie-break points → shared between the sides."""
    t = table(TEAM4, figures={0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JC"]}, cum=[30, 30, 0, 0])
    t.election()
    assert t.result() == (["A", "B"], [0, 1, 2, 3])


def test_D7_4_D9_5_no_trio_in_team_game_no_winner():
    """D7.4: in 2v2 and 2v3 a game with no trio anywhere has no winner (even under
    no_trio_winner points)."""
    for cfg in (DemosConfig(mode="2v2", players=4, variants={"no_trio_winner": "points"}),
                DemosConfig(mode="2v3", players=5, variants={"no_trio_winner": "points"})):
        t = table(cfg, figures={0: ["ES", "LH"], 1: ["JD"]}, cum=[10, 20] + [0] * (cfg.players - 2))
        t.election()
        assert t.result() == ([], [])


def test_D9_5_2v3_max_vs_sum():
    """D9.5 in 2v3 (ABABB: A = 0, 2; B = 1, 3, 4): both best trios 3 colours; A max 40 vs
    B max 20 → A; sum: A 40 + 0 = 40 vs B 20 + 15 + 10 = 45 → B."""
    figs = {0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JC"]}
    cum = [40, 20, 0, 15, 10]
    t = table(DemosConfig(mode="2v3", players=5), figures=figs, cum=cum)
    t.election()
    assert t.result() == (["A"], [0, 2])
    t = table(DemosConfig(mode="2v3", players=5, variants={"team_points_tiebreak": "sum"}),
              figures=figs, cum=cum)
    t.election()
    assert t.result() == (["B"], [1, 3, 4])


# ---------------------------------------------------------------- D9.6 (ABABI: A = 0, 2; B = 1, 3; I = 4)

P1 = DemosConfig(mode="2v2+1", players=5)


def _p1(variants=None):
    return DemosConfig(mode="2v2+1", players=5, variants=variants or {})


def test_D9_6_step1_three_colours_before_independent():
    """D9.6 step 1 first: seat 1 (B) has 3 colours with 10 points → B wins, although the
    Independent has strictly the most points and both Media and a J (steps 2a, 2b)."""
    t = table(P1, figures={1: ["ES", "LH", "JD"], 4: ["M", "JS", "M"]}, cum=[0, 10, 0, 0, 100])
    t.scandal()
    t.election()
    assert t.result() == (["B"], [1, 3])


def test_D9_6_step1_own_points_of_three_colour_players():
    """D9.6 step 1: between 3-colour players of different sides, those players' own
    points decide: seat 0 (A, 40) beats seat 1 (B, 30) although B's seat 3 has 60."""
    t = table(P1, figures={0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JC"]}, cum=[40, 30, 0, 60, 0])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step1_tie_shared():
    """D9.6 step 1: 3-colour players of different sides with equal points → shared."""
    t = table(P1, figures={0: ["ES", "LH", "JD"], 1: ["EH", "LS", "JC"]}, cum=[40, 40, 0, 0, 0])
    t.election()
    assert t.result() == (["A", "B"], [0, 1, 2, 3])


def test_D9_6_step1_teammates_both_three_colours():
    """D9.6 step 1: teammates both holding a 3-colour trio → their team wins."""
    t = table(P1, figures={0: ["ES", "LH", "JD"], 2: ["EH", "LS", "JC"]}, cum=[10, 0, 20, 0, 99])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step1_independent_three_colours():
    """D9.6 step 1: the Independent's own 3-colour trio counts like anyone's: 50 > 40."""
    t = table(P1, figures={4: ["ES", "LH", "JD"], 0: ["EH", "LS", "JC"]}, cum=[40, 0, 0, 0, 50])
    t.election()
    assert t.result() == (["I"], [4])


def test_D9_6_step2a_peoples_voice_strict():
    """D9.6 (a): no 3-colour trio; the Independent has strictly the most points (50) →
    he wins, before team A's 2-colour trio (step 3)."""
    t = table(P1, figures={0: ["ES", "LS", "JD"]}, cum=[40, 30, 20, 10, 50])
    t.election()
    assert t.result() == (["I"], [4])


def test_D9_6_step2a_tie_for_most_strict_true():
    """D9.6 (a) independent_points_strict true (default): a tie for the most (50 = 50)
    is not "strictly the most" → step 3: team A's 2-colour trio wins."""
    t = table(P1, figures={0: ["ES", "LS", "JD"]}, cum=[40, 50, 0, 0, 50])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step2a_tie_for_most_strict_false():
    """D9.6 (a) independent_points_strict false: a tie for the most counts → I wins."""
    t = table(_p1({"independent_points_strict": False}), figures={0: ["ES", "LS", "JD"]},
              cum=[40, 50, 0, 0, 50])
    t.election()
    assert t.result() == (["I"], [4])


def test_D9_6_step2b_media_controller_keep():
    """D9.6 (b) under keep: the Independent kept both Media and holds a J → he wins
    (fewest points, no trio), before team A's 2-colour trio."""
    t = table(P1, figures={4: ["M", "JS", "M"], 0: ["ES", "LS", "JD"]}, cum=[50, 0, 0, 0, 0])
    t.scandal()
    t.election()
    assert t.result() == (["I"], [4])


def test_D9_6_step2b_needs_a_j():
    """D9.6 (b): both Media but no J figure → no; step 3 gives team A the game."""
    t = table(P1, figures={4: ["M", "EH", "M"], 0: ["ES", "LS", "JD"]}, cum=[50, 0, 0, 0, 0])
    t.scandal()
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step2b_needs_both_media():
    """D9.6 (b): one Media and a J is not enough (the Media is played at the Scandal)."""
    t = table(P1, figures={4: ["M", "JS"], 0: ["ES", "LS", "JD"], 1: ["EH"]}, cum=[50, 0, 0, 0, 0])
    choose(t, K_MEDIA, -1)      # the Independent hits seat 1's EH
    t.scandal()
    assert t.media_actions() == [(4, 1, "EH", "S")]
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step2b_media_controller_act():
    """D9.6 (b) under act: the Independent plays both Media (on seat 0's ES then LS, ♠,
    leaving seat 0 with ♠♠♦ = 2 colours) and (b) counts the Media he collected → I wins."""
    t = table(_p1({"independent_double_media": "act"}),
              figures={4: ["M", "JS", "M"], 0: ["ES", "LS", "JD"]}, cum=[50, 0, 0, 0, 0])
    t.scandal()
    assert t.media_actions() == [(4, 0, "ES", "S"), (4, 0, "LS", "S")]
    t.election()
    assert t.trio(0)[1] == 2
    assert t.result() == (["I"], [4])


def test_D9_6_step2c_dissident():
    """D9.6 (c): the Independent has a 2-colour trio (EC LC JH) → he wins, before team
    A's 2-colour trio with more points."""
    t = table(P1, figures={4: ["EC", "LC", "JH"], 0: ["ES", "LS", "JD"]}, cum=[50, 0, 0, 0, 0])
    t.election()
    assert t.result() == (["I"], [4])


def test_D9_6_step2c_one_colour_is_not_dissident():
    """D9.6 (c): a 1-colour trio is not a 2-colour trio → step 3: team A wins."""
    t = table(P1, figures={4: ["EC", "LC", "JC"], 0: ["ES", "LS", "JD"]}, cum=[50, 0, 0, 0, 0])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step3_bicolour_then_mono():
    """D9.6 step 3 (default bicolour_then_mono): A's 2-colour trio (10 points) beats B's
    1-colour trio (40 points)."""
    t = table(P1, figures={0: ["ES", "LS", "JD"], 1: ["EH", "LH", "JH"]}, cum=[10, 40, 0, 0, 0])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step3_mono_only():
    """D9.6 step 3 mono_only: only a member who can form a 1-colour trio qualifies:
    seat 0 (ES LS JD) cannot, seat 1 (EH LH JH) can → B wins."""
    t = table(_p1({"p3_harmonies": "mono_only"}),
              figures={0: ["ES", "LS", "JD"], 1: ["EH", "LH", "JH"]}, cum=[10, 40, 0, 0, 0])
    t.election()
    assert t.result() == (["B"], [1, 3])


def test_D9_6_step3_mono_only_can_form_counts():
    """D9.6 step 3 mono_only: seat 0 (ES LS JS JH; best 2 colours) can also form the
    1-colour ES LS JS, so it qualifies; seat 1 (ED LD JD) too; tie → D9.5: max 20 > 10 →
    B. Under bicolour_then_mono A's 2 colours beat B's 1 colour → A."""
    figs = {0: ["ES", "LS", "JS", "JH"], 1: ["ED", "LD", "JD"]}
    t = table(_p1({"p3_harmonies": "mono_only"}), figures=figs, cum=[10, 20, 0, 0, 0])
    t.election()
    assert t.result() == (["B"], [1, 3])
    t = table(P1, figures=figs, cum=[10, 20, 0, 0, 0])
    t.election()
    assert t.result() == (["A"], [0, 2])


def test_D9_6_step3_mono_only_no_qualifier_no_winner():
    """D9.6 step 3 mono_only: nobody can form a 1-colour trio → no winner (under
    bicolour_then_mono the two 2-colour trios tie and points decide: B 20 > A 10)."""
    figs = {0: ["ES", "LH", "JH"], 1: ["ED", "LD", "JC"]}
    t = table(_p1({"p3_harmonies": "mono_only"}), figures=figs, cum=[10, 20, 0, 0, 0])
    t.election()
    assert t.result() == ([], [])
    t = table(P1, figures=figs, cum=[10, 20, 0, 0, 0])
    t.election()
    assert t.result() == (["B"], [1, 3])


def test_D9_6_step3_ties_p3_points_tiebreak():
    """D9.6 step 3 ties, ``p3_points_tiebreak``: both teams' best trios 2 colours; A 10 + 30
    vs B 35 + 0: ``sum`` (default, contract 2) → A (40 > 35); ``max`` → B (35 > 30).
    ``team_points_tiebreak`` (D9.5) plays no part at step 3. The Independent (0 points)
    takes no part."""
    figs = {0: ["ES", "LS", "JD"], 1: ["EH", "LH", "JC"]}
    cum = [10, 35, 30, 0, 0]
    for variants, want in (({}, (["A"], [0, 2])),
                           ({"team_points_tiebreak": "sum"}, (["A"], [0, 2])),
                           ({"p3_points_tiebreak": "max"}, (["B"], [1, 3])),
                           ({"p3_points_tiebreak": "max", "team_points_tiebreak": "sum"},
                            (["B"], [1, 3]))):
        t = table(_p1(variants), figures=figs, cum=cum)
        t.election()
        assert t.result() == want, variants


def test_D9_6_no_winner_independent_takes_no_part_in_step3():
    """D9.6: no 3-colour trio; the Independent has a 1-colour trio only, not the most
    points, no Media; the teams have no trio → step 3 finds nobody → no winner."""
    t = table(P1, figures={4: ["EC", "LC", "JC"], 0: ["ES", "LH"]}, cum=[20, 0, 0, 0, 10])
    t.election()
    assert t.result() == ([], [])


# ================================================================== whole games (records)

def _records(config, games, seed=11, policies=("random",)):
    return list(iter_records(config, list(policies), games, seed))


def test_D2_1_dealer_rotation():
    """D2.1: round r has dealer r mod N."""
    for cfg in (DemosConfig(players=3), DemosConfig(rules="simplified", players=5),
                DemosConfig(mode="2v2+1", players=5)):
        for rec in _records(cfg, 4):
            assert [r["dealer"] for r in rec["rounds"]] == [
                i % cfg.players for i in range(len(rec["rounds"]))]


def test_D1_components():
    """D1: full rules: 40 numeric cards and a Power pile of 12 E/L/J + 2 Media;
    simplified: 36 cards without aces and the 12 E/L/J."""
    elj = sorted(t + s for t in "ELJ" for s in "SHDC")
    full_deck = sorted(f"{v}{s}" for v in range(1, 11) for s in "SHDC")
    simp_deck = sorted(f"{v}{s}" for v in range(2, 11) for s in "SHDC")
    for rec in _records(DemosConfig(players=4), 3):
        assert sorted(rec["power_pile"]) == sorted(elj + ["M", "M"])
        for r in rec["rounds"]:
            assert sorted(r["deck"]) == full_deck
    for rec in _records(DemosConfig(rules="simplified", players=4), 3):
        assert sorted(rec["power_pile"]) == elj
        for r in rec["rounds"]:
            assert sorted(r["deck"]) == simp_deck


def test_D5_1_game_ends_when_pile_empty():
    """D5.1/D4.5: figures are drawn from the top of the Power pile in order; the main
    phase ends exactly after the round in which the pile becomes empty."""
    for cfg in (DemosConfig(players=4), DemosConfig(rules="simplified", players=3),
                DemosConfig(mode="2v3", players=5)):
        for rec in _records(cfg, 5):
            assert not rec["truncated"]
            drawn = [f["figure"] for r in rec["rounds"] for f in r["figures"]]
            assert drawn == rec["power_pile"]
            before_last = sum(len(r["figures"]) for r in rec["rounds"][:-1])
            assert before_last < len(rec["power_pile"])
            assert rec["final"] is not None


def test_D5_1_max_rounds():
    """D5.1: max_rounds ends the main phase after that many rounds (both rule sets);
    the game is not truncated and goes on to the election."""
    for rules in ("full", "simplified"):
        cfg = DemosConfig(rules=rules, players=4, variants={"max_rounds": 3})
        for rec in _records(cfg, 4):
            n_fig = sum(len(r["figures"]) for r in rec["rounds"])
            assert len(rec["rounds"]) == 3 or n_fig == len(rec["power_pile"])
            assert len(rec["rounds"]) <= 3
            assert rec["truncated"] is False and rec["final"] is not None


def test_D5_1_round_cap_truncates():
    """D5.1: round_cap 1 with a pile that cannot empty in one round (at most 2 figures a
    winner) → truncated after round 1: no Scandal, no election (scandal, final null)."""
    for rules in ("full", "simplified"):
        cfg = DemosConfig(rules=rules, players=4, variants={"round_cap": 1})
        for rec in _records(cfg, 4):
            assert len(rec["rounds"]) == 1
            assert sum(len(r["figures"]) for r in rec["rounds"]) < len(rec["power_pile"])
            assert rec["truncated"] is True
            assert rec["scandal"] is None and rec["final"] is None


def test_D5_1_normal_end_on_the_cap_round():
    """D5.1: a game whose normal end (max_rounds) falls on the round_cap round ends
    normally: max_rounds 1 + round_cap 1 → not truncated, Scandal and election happen."""
    cfg = DemosConfig(players=4, variants={"round_cap": 1, "max_rounds": 1})
    for rec in _records(cfg, 3):
        assert len(rec["rounds"]) == 1
        assert rec["truncated"] is False
        assert rec["scandal"] is not None and rec["final"] is not None


def test_D3_5_hands_hold_five_cards_and_D4_7_points_add_up():
    """D3.5: hands hold 5 cards at showdown. D4.7: final cumulative points are the sums of
    the round scores; a round score is its combination's score, 0 when abandoned."""
    for cfg in (DemosConfig(players=5), DemosConfig(rules="simplified", players=4),
                DemosConfig(mode="2v2", players=4)):
        for rec in _records(cfg, 3):
            n = cfg.players
            total = [0] * n
            for r in rec["rounds"]:
                for p in range(n):
                    assert len(r["hands"][str(p)]) == 5
                    combo = r["combos"][str(p)]
                    assert r["points"][p] == (0 if combo is None else combo["score"])
                    total[p] += r["points"][p]
            assert rec["final"]["cumulative_points"] == total


def test_D3_3_secret_pass_only_when_optional():
    """D3.3: a pass (no discard, no draw) exists only when secret_optional is true
    (default in full rules); simplified rules (and secret_optional false) never pass."""
    def passes(cfg):
        return sum(1 for rec in _records(cfg, 4) for r in rec["rounds"] for s in r["secret"]
                   if s["discard"] is None)
    assert passes(DemosConfig(rules="simplified", players=4)) == 0
    assert passes(DemosConfig(players=4, variants={"secret_optional": False})) == 0
    assert passes(DemosConfig(players=4)) > 0     # random passes now and then


def test_D8_simplified_has_no_unanimous_turn_no_carre_no_scandal():
    """D8/D1: simplified rules: no unanimous turn (no veto), no Carré, no Scandal."""
    for rec in _records(DemosConfig(rules="simplified", players=4), 4):
        assert rec["scandal"] is None
        for r in rec["rounds"]:
            assert r["unanimous"] is None and r["veto"] is None
            assert r["reveals"] == []
            assert all(c is None or c["kind"] == "run" for c in r["combos"].values())


def test_D9_3_vetoes_per_side_in_whole_games():
    """D3.4.1/D9.3 in whole 2v3 games (ABABB): team A (2 players) uses at most 2 vetoes,
    team B (3) at most 1; a team's veto is taken at its first member in action order."""
    cfg = DemosConfig(mode="2v3", players=5)
    side = cfg.side_of_seat()
    most = [0, 0]
    for rec in _records(cfg, 12):
        used = [0, 0]
        for r in rec["rounds"]:
            if r["veto"] is None:
                continue
            seat = r["veto"]["seat"]
            s = side[seat]
            used[s] += 1
            order = [(r["dealer"] + 1 + j) % 5 for j in range(5)]
            first = next(p for p in order if side[p] == s)
            assert seat == first
            assert r["unanimous"] is None
        assert used[0] <= 2 and used[1] <= 1
        most = [max(a, b) for a, b in zip(most, used)]
    assert most[0] == 2      # the team of two does hold a second veto


def test_D3_4_1_individual_one_veto_each():
    """D3.4.1: each individual has one veto per game."""
    for rec in _records(DemosConfig(players=4), 8):
        seats = [r["veto"]["seat"] for r in rec["rounds"] if r["veto"] is not None]
        assert len(seats) == len(set(seats))


def _replay_round_hands(r, n, secret_optional):
    """D3.1–D3.4 by hand from a record round: deal 5 cards one at a time in action order
    from the top of the deck, then the public, secret and unanimous turns; returns the
    showdown hands."""
    deck = r["deck"]
    pos = 0
    order = [(r["dealer"] + 1 + j) % n for j in range(n)]
    hands = {p: set() for p in range(n)}
    for _ in range(5):                                   # D3.1
        for p in order:
            hands[p].add(deck[pos])
            pos += 1
    table_up = set()
    assert [e["seat"] for e in r["public"]] == order     # D3.2
    for e in r["public"]:
        p, d = e["seat"], e["discard"]
        assert d in hands[p]
        hands[p].remove(d)
        hands[p].add(deck[pos])
        pos += 1
        table_up.add(d)
    assert [e["seat"] for e in r["secret"]] == order     # D3.3
    secret_down = []
    for e in r["secret"]:
        p, d, take = e["seat"], e["discard"], e["take"]
        if d is None:
            assert secret_optional and take is None
            continue
        assert d in hands[p]
        hands[p].remove(d)
        if take == "deck":
            hands[p].add(deck[pos])
            pos += 1
        else:
            assert take in table_up
            table_up.remove(take)
            hands[p].add(take)
        secret_down.append(d)
    if r["unanimous"] is not None:                       # D3.4.2 / D3.4.3
        assert r["veto"] is None
        table_up |= set(secret_down)
        assert [e["seat"] for e in r["unanimous"]] == order
        for e in r["unanimous"]:
            p, d, take = e["seat"], e["discard"], e["take"]
            assert d in hands[p]
            hands[p].remove(d)
            if take == "deck":
                hands[p].add(deck[pos])
                pos += 1
            else:
                assert take in table_up
                table_up.remove(take)
                hands[p].add(take)
    return {str(p): sorted(h) for p, h in hands.items()}


def test_D3_1_to_D3_4_deal_and_turns_replay_to_the_showdown_hands():
    """D3.1: 5 cards one at a time in action order (first card to the dealer's left);
    D3.2–D3.4: every turn in action order, each discard from the hand, each draw the next
    deck card, each take a card then on the table (public not yet taken; after D3.4.2 the
    secret discards too); a vetoed round has no unanimous turn. Replaying a record by
    these rules gives exactly its showdown hands (D3.5)."""
    for cfg in (DemosConfig(players=4), DemosConfig(rules="simplified", players=5),
                DemosConfig(mode="2v3", players=5), DemosConfig(players=3)):
        for rec in _records(cfg, 3, seed=5):
            for r in rec["rounds"]:
                want = {p: sorted(h) for p, h in r["hands"].items()}
                assert _replay_round_hands(r, cfg.players, cfg.variants["secret_optional"]) == want
                if cfg.rules == "full" and r["veto"] is None:
                    assert r["unanimous"] is not None


def test_X1_favourite_suits_and_bonus_in_whole_games():
    """X1: with favourite_suit_bonus > 0 every player announces a favourite suit before
    the game; a run entirely in it scores run_base[0] + lowest + bonus, every other run
    run_base[k] + lowest."""
    cfg = DemosConfig(players=4, variants={"favourite_suit_bonus": 10})
    rb = cfg.variants["run_base"]
    n_bonus = 0
    for rec in _records(cfg, 20, seed=3):
        fav = rec["favourite_suits"]
        assert len(fav) == 4 and all(s in "SHDC" for s in fav)
        for r in rec["rounds"]:
            for p, c in r["combos"].items():
                if c is None or c["kind"] != "run":
                    continue
                suits = {x[-1] for x in c["cards"]}
                low = min(int(x[:-1]) for x in c["cards"])
                bonus = 10 if suits == {fav[int(p)]} else 0
                n_bonus += bonus > 0
                assert c["score"] == rb[len(suits) - 1] + low + bonus
    assert n_bonus > 0        # the bonus case did occur in these games
    assert _records(DemosConfig(players=4), 1)[0]["favourite_suits"] is None


def test_D9_3_team_vetoes_zero_in_whole_games():
    """D9.3 team_vetoes 0: the 2v3 team of two never vetoes; the team of three at most once."""
    cfg = DemosConfig(mode="2v3", players=5, variants={"team_vetoes": 0})
    side = cfg.side_of_seat()
    for rec in _records(cfg, 8):
        used = [side[r["veto"]["seat"]] for r in rec["rounds"] if r["veto"] is not None]
        assert used.count(0) == 0 and used.count(1) <= 1


def test_D5_1_round_cap_below_max_rounds_truncates():
    """D5.1: max_rounds 5 with round_cap 2: the cap comes first → truncated after 2."""
    cfg = DemosConfig(players=4, variants={"max_rounds": 5, "round_cap": 2})
    for rec in _records(cfg, 3):
        assert len(rec["rounds"]) == 2
        assert rec["truncated"] is True and rec["final"] is None and rec["scandal"] is None


def test_D9_4_custom_seating_teammates_tied_win_once():
    """D9.2/D9.4 with seating AABB: seats 0 and 1 are teammates; tied, they win once and
    their team draws a single figure (allocated to its last member, seat 1)."""
    cfg = DemosConfig(mode="2v2", players=4, seating="AABB")
    t = table(cfg, dealer=0, hands={0: H_TIE_A, 1: H_TIE_B, 2: H_NONE_A, 3: H_NONE_B},
              pile=["ES", "LH"])
    choose(t, K_ALLOC, -1)
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(1, "ES")]


def test_D9_4_two_sides_win_carre_side_exempt_run_side_reveals():
    """D9.4/D4.6 in 2v2 with carre_points 11: seat 1 (B) Carré 11 ties seat 0 (A) run 11.
    Dealer 3 → order 0, 1, 2, 3: A draws 1 (ES, to seat 0), B draws 2 (LH, JC, to seat 1).
    B won with a Carré; A did not: A's players reveal (seat 0: EC, seat 2: LD), B's
    players (JS, JH) are exempt."""
    cfg = DemosConfig(mode="2v2", players=4, variants={"carre_points": 11})
    t = table(cfg, dealer=3,
              hands={1: ["5S", "5H", "5D", "5C", "4S"], 0: ["7S", "8H", "9D", "1S", "3H"],
                     2: ["2S", "4H", "6H", "10H", "8C"], 3: ["2H", "4D", "6D", "10D", "9C"]},
              figures={0: ["M", "EC"], 1: ["JS"], 2: ["LD"], 3: ["JH"]}, pile=["ES", "LH", "JC"])
    choose(t, K_ALLOC, 0)
    t.showdown()
    assert sorted(t.winners()) == [0, 1]
    assert t.figure_draws() == [(0, "ES"), (1, "LH"), (1, "JC")]
    assert t.reveals() == [(0, "EC"), (2, "LD")]


def test_D7_4_D9_6_no_trio_anywhere_independent_can_still_win():
    """D7.4: 2v2+1 follows D9.6, where the Independent can win without a trio: nobody
    has a trio, the Independent has strictly the most points → he wins."""
    t = table(P1, figures={0: ["ES", "LH"], 4: ["JD"]}, cum=[10, 20, 30, 0, 31])
    t.election()
    assert t.result() == (["I"], [4])


def test_D7_4_D9_6_no_trio_winner_points_does_not_apply():
    """D7.4: no_trio_winner is for individual games; in 2v2+1 with no trio anywhere and
    the Independent not on top, D9.6 finds no winner even under points."""
    t = table(_p1({"no_trio_winner": "points"}), figures={0: ["ES", "LH"]}, cum=[10, 40, 30, 0, 31])
    t.election()
    assert t.result() == ([], [])


def test_D9_6_custom_seating_independent_first():
    """D9.2/D9.6 with seating IABAB: the Independent sits at seat 0; with strictly the
    most points and no 3-colour trio anywhere he wins (a)."""
    cfg = DemosConfig(mode="2v2+1", players=5, seating="IABAB")
    t = table(cfg, figures={1: ["ES", "LS", "JD"]}, cum=[60, 10, 0, 0, 59])
    t.election()
    assert t.result() == (["I"], [0])


def test_D4_4_no_winner_round_still_counts_in_whole_games():
    """D4.4: a round where everyone abandons has no winner and no figure, yet counts:
    the next round's dealer is the next seat (D2.1)."""
    seen = 0
    for rec in _records(DemosConfig(players=4), 10, seed=2):
        rounds = rec["rounds"]
        for i, r in enumerate(rounds):
            if all(c is None for c in r["combos"].values()):
                seen += 1
                assert r["winners"] == [] and r["figures"] == [] and r["reveals"] == []
                assert r["points"] == [0, 0, 0, 0]
                if i + 1 < len(rounds):
                    assert rounds[i + 1]["dealer"] == (r["dealer"] + 1) % 4
    assert seen > 0
