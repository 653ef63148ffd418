"""Hand-made rule tests for the Protocole engine, one or more per rule ID of RULES.md
Part P (with Part V, M1 and the exhaustive Norm-selection test).

Every expected value below was worked out by hand from ../shared/RULES.md; the comment
next to it shows the reasoning. Positions are set up by ``PTable`` (below) and played by
the real kernel phases (``_setup`` P1.2, ``deal`` P1.3/P4.3, ``play_turns`` P2/P3,
``control`` P4/P5, ``next_round`` P4.3, ``play_round``), with decisions from
``t_pscript``: each seat plays the lowest card id in its hand (the highest when
``params[1]`` is 1), into its Foyer when that card is in the mask ``params[0]``, else
into the Selection. Every table runs in check mode, so card conservation is verified at
every decision, and at the control of a whole round (``diag[D_INVARIANT]``).

Card ids (colour * 6 + symbol): RM 0 RQ 1 RT 2 RS 3 RX 4 RO 5 | BM 6 BQ 7 BT 8 BS 9 BX 10
BO 11 | GM 12 GQ 13 GT 14 GS 15 GX 16 GO 17 | YM 18 YQ 19 YT 20 YS 21 YX 22 YO 23 |
KM 24 KQ 25 KT 26 KS 27 KX 28 KO 29 | PM 30 PQ 31 PT 32 PS 33 PX 34 PO 35.
"""

from __future__ import annotations

from itertools import combinations

import numba
import numpy as np
import pytest
from ref_norm import ALL_CARDS, ref_norm_selection

from demos_sim import ConfigError
from demos_sim.protocole import engine as E
from demos_sim.protocole import layout as L
from demos_sim.protocole import norm_selection
from demos_sim.protocole.cards import COLOURS, SYMBOLS, card_code, card_id, codes_of, mask_of
from demos_sim.protocole.norm import norm_keep_batch
from demos_sim.protocole.observe import observe
from demos_sim.protocole.policies import POLICY_SIG, register, resolve
from demos_sim.protocole.record import iter_records
from demos_sim.protocole.rules import VARIANTS, ProtocoleConfig
from demos_sim.protocole.sim import policy_tuple
from demos_sim.runner.intervals import mean_ci
from demos_sim.runner.simulate import simulate


# ------------------------------------------------------------------ test policy and table
@register("t_pscript", params=[0.0] * 16,
          description="test: lowest card first (highest if params[1]); Foyer when in mask params[0]")
@numba.njit(POLICY_SIG, cache=False)
def t_pscript(cfg, obs, opts, n_opts, params, rng):
    base = 0
    if params[1] > 0:
        base = n_opts - 2
    c = opts[base] >> 1
    m = np.int64(params[0])
    return base + 1 if (m >> c) & 1 else base


class PTable:
    """A hand-built Protocole position in record notation; cards placed nowhere are
    counted as out of the game so that card conservation holds."""

    def __init__(self, config, hands=None, foyers=None, selection=(), norm=(), init=0,
                 alive=None, points=None, to_foyer=(), deck=None, highest=False):
        self.config = config
        n = config.players
        self.cfg = config.to_array(check_obs=True, log=True)
        self.fns, self.params = policy_tuple(resolve(["t_pscript"], n))
        for p in range(n):
            self.params[p][0] = float(mask_of(to_foyer))
            self.params[p][1] = 1.0 if highest else 0.0
        self.st = np.zeros(L.ST_LEN, np.int64)
        self.obs = np.zeros(L.OBS_LEN, np.int64)
        self.opts = np.zeros(L.MAXOPT, np.int64)
        self.prng = np.zeros(L.NSTREAM, np.uint64)
        self.srng = np.zeros(1, np.uint64)
        self.wk = np.zeros(L.WK_LEN, np.int64)
        self.res = np.zeros(L.RES_LEN, np.int64)
        self.diag = np.zeros(E.DIAG_LEN, np.int64)
        self.log = np.zeros(L.EV_W * 4000, np.int64)
        self.log[0] = L.EV_W
        E.init_state(self.cfg, np.uint64(777), self.st, self.prng, self.srng, self.res)
        st = self.st
        placed = []
        for p, cards in (hands or {}).items():
            st[L.S_HAND + p] = mask_of(cards)
            placed += cards
        for p, cards in (foyers or {}).items():
            st[L.S_FOYER + p] = mask_of(cards)
            placed += cards
        st[L.S_SEL] = mask_of(selection)
        st[L.S_NORM] = mask_of(norm)
        placed += list(selection) + list(norm)
        if deck is not None:
            for i, c in enumerate(deck):
                st[L.S_DECK + i] = card_id(c)
            st[L.S_DECK_LEN] = len(deck)
            placed += list(deck)
        assert len(placed) == len(set(placed)), "a card is used twice in the test position"
        st[L.S_GONE] = L.FULL & ~mask_of(placed)
        if alive is not None:
            st[L.S_ALIVE] = sum(1 << p for p in alive)
        st[L.S_INIT] = init
        for p, v in enumerate(points or []):
            st[L.S_POINTS + p] = v

    # ---------------------------------------------------------------- phases
    def deal(self, foyer_start):
        E.deal(self.st, self.cfg, foyer_start, self.log)

    def turns(self):
        E.play_turns(self.fns, self.st, self.cfg, self.obs, self.opts, self.params,
                     self.prng, self.srng, self.wk, self.diag, self.log, self.st[L.S_INIT])

    def control(self):
        return E.control(self.st, self.cfg, self.log, self.res)

    def round(self, foyer_start=0):
        return E.play_round(self.fns, self.st, self.cfg, self.obs, self.opts, self.params,
                            self.prng, self.srng, self.wk, self.diag, self.log, self.res,
                            foyer_start)

    # ---------------------------------------------------------------- reading back
    def events(self):
        ev = self.log[L.EV_W:self.log[0]].reshape(-1, L.EV_W)
        return [tuple(int(x) for x in e) for e in ev]

    def of_type(self, t):
        return [e[1:] for e in self.events() if e[0] == t]

    def turn_list(self):
        return [(a, card_code(b), "foyer" if c else "selection")
                for a, b, c, *_ in self.of_type(L.EV_TURN)]

    def selections(self):
        return [(set(codes_of(a)), set(codes_of(b))) for a, b, *_ in self.of_type(L.EV_SELECTION)]

    def control_results(self):
        return {a: bool(b) for a, b, *_ in self.of_type(L.EV_CONTROL)}

    def reinforced(self):
        r = self.of_type(L.EV_REINF)
        return None if not r else bool(r[0][0])

    def hand(self, p):
        return set(codes_of(int(self.st[L.S_HAND + p])))

    def foyer(self, p):
        return set(codes_of(int(self.st[L.S_FOYER + p])))

    def norm(self):
        return set(codes_of(int(self.st[L.S_NORM])))

    def selection(self):
        return set(codes_of(int(self.st[L.S_SEL])))

    def points(self):
        return [int(self.st[L.S_POINTS + p]) for p in range(self.config.players)]

    def alive(self):
        return [p for p in range(self.config.players) if (int(self.st[L.S_ALIVE]) >> p) & 1]

    def winners(self):
        return [p for p in range(self.config.players) if (int(self.res[L.R_WINMASK]) >> p) & 1]

    def clean(self):
        return self.diag[E.D_INVARIANT] == 0


EACH2, EACH3, EACH4 = (ProtocoleConfig("each", None, n) for n in (2, 3, 4))
COOP1_2, COOP1_4 = ProtocoleConfig("coop", 1, 2), ProtocoleConfig("coop", 1, 4)
COOP2_4, COOP3_4 = ProtocoleConfig("coop", 2, 4), ProtocoleConfig("coop", 3, 4)


def one_line_error(fn, *args, **kw):
    with pytest.raises(ConfigError) as exc:
        fn(*args, **kw)
    msg = str(exc.value)
    assert msg and "\n" not in msg
    return msg


# ================================================================== configuration, Part V

def test_P1_2_player_counts():
    """P1.2: 2–4 players; 1 and 5 refused; non-integers refused (one-line errors)."""
    for n in (2, 3, 4):
        assert ProtocoleConfig("each", None, n).players == n
        assert ProtocoleConfig("coop", 2, n).players == n
    for n in (0, 1, 5, 6):
        assert "2–4" in one_line_error(ProtocoleConfig, "each", None, n)
    for bad in ("4", 4.0, True):
        one_line_error(ProtocoleConfig, "each", None, bad)


def test_P5_3_levels_1_to_3_only_in_coop():
    """P5.3: coop levels 1, 2, 3; a level outside them, a coop game without one and a
    level in each-for-themselves mode are refused."""
    for lv in (1, 2, 3):
        assert ProtocoleConfig("coop", lv, 3).level == lv
    for lv in (0, 4, -1, "2", 2.0, True):
        one_line_error(ProtocoleConfig, "coop", lv, 3)
    assert "level" in one_line_error(ProtocoleConfig, "coop", None, 3)
    for lv in (1, 2, 3):
        assert "each" in one_line_error(ProtocoleConfig, "each", lv, 3)
    assert "mode" in one_line_error(ProtocoleConfig, "individual", None, 3)


def test_V_variants_defaults_and_names():
    """Part V (contract 2): exactly standard_tie (keep_tied), reinforced_scope
    (each_player), round_cap (100) and majority_scope (pooled, P3.1a), every one
    recorded."""
    assert set(VARIANTS) == {"standard_tie", "reinforced_scope", "round_cap", "majority_scope"}
    assert ProtocoleConfig().variants == {"standard_tie": "keep_tied",
                                          "reinforced_scope": "each_player", "round_cap": 100,
                                          "majority_scope": "pooled"}
    c = ProtocoleConfig("coop", 2, 4, {"reinforced_scope": "team", "round_cap": 1,
                                       "standard_tie": "discard_all",
                                       "majority_scope": "per_dimension"})
    assert c.variants == {"standard_tie": "discard_all", "reinforced_scope": "team", "round_cap": 1,
                          "majority_scope": "per_dimension"}


@pytest.mark.parametrize("name, value", [
    ("nosuch", 1), ("standard_tie", "keep"), ("standard_tie", True),
    ("reinforced_scope", "everyone"), ("round_cap", 0), ("round_cap", -3),
    ("round_cap", 1.5), ("round_cap", True), ("round_cap", "10"), ("round_cap", None),
    ("majority_scope", "per_colour"), ("majority_scope", True), ("majority_scope", None),
])
def test_V_bad_variants_refused(name, value):
    """Part V: unknown names and values outside each variant's values are refused;
    round_cap is an integer >= 1."""
    msg = one_line_error(ProtocoleConfig, "each", None, 4, {name: value})
    assert name in msg


def test_V_config_vector():
    """P1.3, P3.2, P5.3 as kernel constants: Foyer cards at setup 2 / 1 / 2 / 3, reinforced
    selection at every coop level, the reinforced control's count 0 / 0 / 1 / 2."""
    for (mode, lv), foyer, need in ((("each", None), 2, 0), (("coop", 1), 1, 0),
                                    (("coop", 2), 2, 1), (("coop", 3), 3, 2)):
        a = ProtocoleConfig(mode, lv, 4).to_array()
        assert a[L.C_FOYER_START] == foyer and a[L.C_NEED] == need
        assert a[L.C_REINF_SEL] == (mode == "coop")
        assert a[L.C_PER_DIM] == 0                                   # P3.1a default pooled
        assert ProtocoleConfig(mode, lv, 4, {"majority_scope": "per_dimension"}).to_array()[L.C_PER_DIM] == 1


# ================================================================== P1 components and setup

def test_P1_1_card_notation_round_trip():
    """P1.1: 36 cards, 6 colours x 6 symbols; GAME_RECORD.md letters R B G Y K P and
    M Q T S X O; "KT" = black triangle = 4*6 + 2 = 26."""
    assert COLOURS == "RBGYKP" and SYMBOLS == "MQTSXO"
    codes = [card_code(i) for i in range(36)]
    assert len(set(codes)) == 36 and codes[0] == "RM" and codes[35] == "PO"
    assert card_id("KT") == 26 and card_id("BM") == 6 and card_id("RQ") == 1
    assert all(card_id(c) == i for i, c in enumerate(codes))
    assert codes_of(mask_of(["PO", "RM", "KT"])) == ["RM", "KT", "PO"]
    for bad in ("KZ", "ZT", "K", "KTT", 26, "kt"):
        with pytest.raises(ValueError):
            card_id(bad)


def _setup_removed(n, key):
    t = PTable(ProtocoleConfig("each", None, n))
    t.prng[L.RNG_CHANCE] = E.derive(np.uint64(key), 0, 0)
    E._setup(t.st, t.cfg, t.prng, t.log)
    removed = set(codes_of(int(t.st[L.S_REMOVED])))
    deck = [card_code(int(t.st[L.S_DECK + i])) for i in range(int(t.st[L.S_DECK_LEN]))]
    return removed, deck


def test_P1_2_removal_by_player_count():
    """P1.2: 4 players keep all 36; 3 remove every card of one colour or of one symbol
    (6 cards, 30 left); 2 remove one colour AND one symbol (6 + 6 - 1 shared = 11 cards,
    25 left). The deck is exactly the other cards, shuffled; which colour/symbol is
    removed is chance (over 400 keys every one of the 12 attributes is removed at 3
    players, and both a colour and a symbol each time at 2)."""
    seen3 = set()
    seen2_colours, seen2_symbols = set(), set()
    for key in range(400):
        removed, deck = _setup_removed(4, key)
        assert removed == set() and sorted(deck) == sorted(ALL_CARDS)
        removed, deck = _setup_removed(3, key)
        assert len(removed) == 6 and len(deck) == 30 and not removed & set(deck)
        colours = {c[0] for c in removed}
        symbols = {c[1] for c in removed}
        assert len(colours) == 1 or len(symbols) == 1
        seen3.add(colours.pop() if len(colours) == 1 else symbols.pop())
        removed, deck = _setup_removed(2, key)
        assert len(removed) == 11 and len(deck) == 25 and not removed & set(deck)
        col = [c for c in COLOURS if sum(x[0] == c for x in removed) == 6]
        sym = [s for s in SYMBOLS if sum(x[1] == s for x in removed) == 6]
        assert len(col) == 1 and len(sym) == 1
        assert removed == {col[0] + s for s in SYMBOLS} | {c + sym[0] for c in COLOURS}
        seen2_colours.add(col[0])
        seen2_symbols.add(sym[0])
    assert seen3 == set(COLOURS) | set(SYMBOLS)
    assert seen2_colours == set(COLOURS) and seen2_symbols == set(SYMBOLS)


def test_P1_3_deal_three_players():
    """P1.3: one card at a time in turn order from the Initiative holder (seat 0): first
    2 rounds into the Foyers, then the hands (30 - 6 = 24 cards, 8 each), no remainder.
    Deck = the 30 cards R..K in id order (purple removed): Foyers s0 {RM, RS}, s1 {RQ, RX},
    s2 {RT, RO}; then card 6 + 3k to s0, 7 + 3k to s1, 8 + 3k to s2."""
    deck = [card_code(i) for i in range(30)]
    t = PTable(EACH3, deck=deck)
    t.deal(2)
    assert t.foyer(0) == {"RM", "RS"} and t.foyer(1) == {"RQ", "RX"} and t.foyer(2) == {"RT", "RO"}
    assert t.hand(0) == {"BM", "BS", "GM", "GS", "YM", "YS", "KM", "KS"}
    assert t.hand(1) == {"BQ", "BX", "GQ", "GX", "YQ", "YX", "KQ", "KX"}
    assert t.hand(2) == {"BT", "BO", "GT", "GO", "YT", "YO", "KT", "KO"}
    assert t.selection() == set()
    assert [(a, card_code(b)) for a, b, *_ in t.of_type(L.EV_FOYER_DEAL)] == [
        (0, "RM"), (1, "RQ"), (2, "RT"), (0, "RS"), (1, "RX"), (2, "RO")]


def test_P1_3_deal_two_players_level_1_remainder():
    """P1.3 at coop level 1 with 2 players (purple and circle removed, 25 cards in id
    order): 1 Foyer card each (RM s0, RQ s1), 23 left -> 11 each alternately from s0,
    and the 1 remaining card (KX, the last) face up into the Selection."""
    deck = [c + s for c in "RBGYK" for s in "MQTSX"]
    t = PTable(COOP1_2, deck=deck)
    t.deal(1)
    assert t.foyer(0) == {"RM"} and t.foyer(1) == {"RQ"}
    assert t.hand(0) == {"RT", "RX", "BQ", "BS", "GM", "GT", "GX", "YQ", "YS", "KM", "KT"}
    assert t.hand(1) == {"RS", "BM", "BT", "BX", "GQ", "GS", "YM", "YT", "YX", "KQ", "KS"}
    assert t.selection() == {"KX"}


@pytest.mark.parametrize("mode, level, n, foyer, hand, rest", [
    # P1.3: hands = (deck - foyer_start * n) // n, remainder < n into the Selection
    ("each", None, 4, 2, 7, 0), ("each", None, 3, 2, 8, 0), ("each", None, 2, 2, 10, 1),
    ("coop", 1, 4, 1, 8, 0), ("coop", 1, 3, 1, 9, 0), ("coop", 1, 2, 1, 11, 1),
    ("coop", 2, 4, 2, 7, 0), ("coop", 2, 3, 2, 8, 0), ("coop", 2, 2, 2, 10, 1),
    ("coop", 3, 4, 3, 6, 0), ("coop", 3, 3, 3, 7, 0), ("coop", 3, 2, 3, 9, 1),
])
def test_P1_3_setup_sizes_in_records(mode, level, n, foyer, hand, rest):
    """P1.3 / P5.3: 2 Foyer cards in each mode, 1 / 2 / 3 at levels 1 / 2 / 3; with 36 /
    30 / 25 cards (P1.2): e.g. 4p each 36 - 8 = 28 -> 7; 2p level 1 25 - 2 = 23 -> 11 + 1."""
    for rec in iter_records(ProtocoleConfig(mode, level, n), ["random"], 5, 3):
        r0 = rec["rounds"][0]
        assert sorted(map(int, r0["foyers_dealt"])) == list(range(n))
        assert all(len(v) == foyer for v in r0["foyers_dealt"].values())
        assert all(len(v) == hand for v in r0["hands"].values())
        assert len(r0["selection_start"]) == rest
        assert len(r0["deck"]) == {4: 36, 3: 30, 2: 25}[n]


def test_P1_4_seat_0_starts_and_play_is_clockwise():
    """P1.4: seat 0 holds the Initiative and plays first; then clockwise 1, 2, 3, 0, …"""
    for rec in iter_records(EACH4, ["random"], 5, 11):
        r0 = rec["rounds"][0]
        assert r0["initiative"] == 0
        seats = [t["seat"] for t in r0["turns"]]
        assert seats == [i % 4 for i in range(len(seats))]


# ================================================================== P2 turns

def test_P2_1_empty_hands_skipped_and_both_destinations():
    """P2.1: seat 1 (in the game) has no cards and is skipped: from seat 0, s0 plays RM
    (its lowest id), s2 GT, s0 BQ — into its Foyer (face down) by the script. P3.3: the 2
    cards left in the Selection, RM and GT (different colours and symbols, m = 1, a tie)
    are kept whole under keep_tied."""
    t = PTable(EACH3, hands={0: ["RM", "BQ"], 1: [], 2: ["GT"]}, to_foyer=["BQ"])
    t.turns()
    assert t.turn_list() == [(0, "RM", "selection"), (2, "GT", "selection"), (0, "BQ", "foyer")]
    assert t.foyer(0) == {"BQ"} and t.norm() == {"RM", "GT"} and t.clean()


def test_P2_1_turns_start_with_the_initiative_holder():
    """P2.1 / P4.3: with the Initiative at seat 2, s2 plays GT, then s0 RM, (s1, s2 empty)
    then s0 BQ."""
    t = PTable(EACH3, hands={0: ["RM", "BQ"], 1: [], 2: ["GT"]}, init=2)
    t.turns()
    assert t.turn_list() == [(2, "GT", "selection"), (0, "RM", "selection"), (0, "BQ", "selection")]


def test_P2_1_own_foyer_visible_sizes_public():
    """P2.1: a player always sees their own Foyer; other Foyers only by their size."""
    t = PTable(EACH3, hands={0: ["RM"], 1: ["RQ"], 2: ["RT"]},
               foyers={0: ["BM", "BQ"], 1: ["GT"], 2: []})
    obs = np.zeros(L.OBS_LEN, np.int64)
    observe(t.st, t.cfg, 0, L.K_PLAY, obs)
    assert codes_of(int(obs[L.O_FOYER])) == ["BM", "BQ"]
    assert list(obs[L.O_FOYERN:L.O_FOYERN + 3]) == [2, 1, 0]
    assert list(obs[L.O_HANDN:L.O_HANDN + 3]) == [1, 1, 1]


def test_P2_2_norm_selection_at_five_cards():
    """P2.2: the 5th card triggers a Norm selection at once. Turns s0 RM, s1 RQ, s2 RT,
    s3 KX, s0 BQ -> {RM, RQ, RT, KX, BQ}: red 3, every other count <= 2 -> keep RM RQ RT.
    Then GT, YS, PO remain: P3.3 resolves them (all colours and symbols at 1, a tie:
    keep_tied keeps them). Norm = 6 cards."""
    t = PTable(EACH4, hands={0: ["RM", "BQ"], 1: ["RQ", "GT"], 2: ["RT", "YS"], 3: ["KX", "PO"]})
    t.turns()
    sels = t.selections()
    assert sels[0] == ({"RM", "RQ", "RT", "KX", "BQ"}, {"RM", "RQ", "RT"})
    assert sels[1] == ({"GT", "YS", "PO"}, {"GT", "YS", "PO"})
    assert len(sels) == 2
    assert t.norm() == {"RM", "RQ", "RT", "GT", "YS", "PO"}
    assert t.selection() == set() and t.clean()
    gone = set(codes_of(int(t.st[L.S_GONE])))
    assert {"KX", "BQ"} <= gone


# ================================================================== P3 Norm selection

def test_P3_1_examples_by_hand():
    """P3.1: GAME_RECORD.md's example (black 3 -> KT KO KM); a colour and a symbol tied at
    2 (R and M): keep_tied keeps every card carrying R or M; 5 distinct colours and
    symbols (m = 1): kept whole; a single card goes whole to the Norm."""
    assert sorted(norm_selection(["KT", "KO", "BS", "KM", "YQ"])) == ["KM", "KO", "KT"]
    assert sorted(norm_selection(["RM", "RQ", "BM", "GT", "YS"])) == ["BM", "RM", "RQ"]
    five = ["RM", "BQ", "GT", "YS", "KX"]
    assert norm_selection(five) == five
    assert norm_selection(["PO"]) == ["PO"]
    # a symbol majority: moon 3 (RM BM GM) against red 2 (RM RQ)
    assert sorted(norm_selection(["RM", "BM", "GM", "RQ", "YT"])) == ["BM", "GM", "RM"]


def test_P3_1_standard_tie_discard_all():
    """P3.1 variant standard_tie = discard_all: a tie at m removes every card; without a
    tie it keeps the same cards as keep_tied; a single card still goes to the Norm."""
    d = dict(standard_tie="discard_all")
    assert norm_selection(["RM", "RQ", "BM", "GT", "YS"], **d) == []
    assert norm_selection(["RM", "BQ", "GT", "YS", "KX"], **d) == []
    assert sorted(norm_selection(["KT", "KO", "BS", "KM", "YQ"], **d)) == ["KM", "KO", "KT"]
    assert norm_selection(["PO"], **d) == ["PO"]
    assert norm_selection(["RM", "BQ"], **d) == []          # 4 attributes at m = 1


def test_P3_1_norm_selection_api_input_errors():
    """P3.1 API: 1–5 distinct cards in record notation; anything else is a ValueError."""
    for bad in ([], ["RM"] * 2, ["RM", "RQ", "RT", "RS", "RX", "RO"], ["ZZ"], ["RM", 3]):
        with pytest.raises(ValueError):
            norm_selection(bad)
    with pytest.raises(ValueError):
        norm_selection(["RM"], standard_tie="maybe")


def test_P3_1_engine_uses_the_standard_tie_variant():
    """P3.1 in the engine, standard_tie = discard_all, the P2.2 position: the first
    Selection has a unique majority (red 3): RM RQ RT kept; the last 3 cards tie: all
    removed. Norm = {RM, RQ, RT}."""
    t = PTable(ProtocoleConfig("each", None, 4, {"standard_tie": "discard_all"}),
               hands={0: ["RM", "BQ"], 1: ["RQ", "GT"], 2: ["RT", "YS"], 3: ["KX", "PO"]})
    t.turns()
    assert t.norm() == {"RM", "RQ", "RT"}
    assert t.selections()[1] == ({"GT", "YS", "PO"}, set())


def test_P3_2_reinforced_selection_in_coop():
    """P3.2: at every coop level a tie at m removes the whole Selection. 2 players, lowest
    id first: s0 RM, s1 GT, s0 RT, s1 YS, s0 BQ -> red 2 and triangle 2 tie at m = 2: all
    5 leave. s1's last card KX alone: a single card goes to the Norm (P3.1, P3.3): Norm
    {KX}. In each-for-themselves mode (standard keep_tied) the same play keeps the cards
    carrying red or triangle: RM, RT, GT; then KX."""
    hands = {0: ["RM", "RT", "BQ"], 1: ["GT", "YS", "KX"]}
    for lv in (1, 2, 3):
        t = PTable(ProtocoleConfig("coop", lv, 2), hands=hands)
        t.turns()
        assert t.selections() == [({"RM", "GT", "RT", "YS", "BQ"}, set()), ({"KX"}, {"KX"})]
        assert t.norm() == {"KX"} and t.clean()
    t = PTable(EACH2, hands=hands)
    t.turns()
    assert t.norm() == {"RM", "RT", "GT", "KX"}


def test_P3_2_reinforced_ignores_standard_tie():
    """P3.2: reinforced selection is the coop rule whatever standard_tie says."""
    assert norm_selection(["RM", "BQ", "GT", "YS", "KX"], reinforced=True) == []
    assert norm_selection(["RM", "BQ", "GT", "YS", "KX"], reinforced=True,
                          standard_tie="discard_all") == []
    assert sorted(norm_selection(["KT", "KO", "BS", "KM", "YQ"], reinforced=True)) == ["KM", "KO", "KT"]
    assert norm_selection(["PO"], reinforced=True) == ["PO"]


def test_P3_3_last_cards_resolved_before_the_control():
    """P3.3: when every hand is empty, a Selection of 1–4 cards is resolved first: here
    4 cards RM RQ GT GS (red 2, green 2: a tie, keep_tied keeps all 4) before the control."""
    t = PTable(EACH2, hands={0: ["RM", "GT"], 1: ["RQ", "GS"]})
    t.turns()
    assert t.selections() == [({"RM", "RQ", "GT", "GS"}, {"RM", "RQ", "GT", "GS"})]
    assert t.norm() == {"RM", "RQ", "GT", "GS"}


# ------------------------------------------------------------------ P3.1a majority_scope
PD = dict(majority_scope="per_dimension")
RULES3 = ({}, {"standard_tie": "discard_all"}, {"reinforced": True})   # the three selection rules


def test_P3_1a_colour_majority_with_distinct_symbols():
    """P3.1a's example: five red cards with five different symbols. mc = 5 (red), ms = 1:
    the symbols take no part, red alone is at the top, no tie -> all five kept under
    every rule. Red 3 with distinct symbols (RM RQ RT BS GX): red alone at the top ->
    RM RQ RT; BS and GX leave."""
    five = ["RM", "RQ", "RT", "RS", "RX"]
    for kw in RULES3:
        assert norm_selection(five, **kw, **PD) == five
        assert sorted(norm_selection(["RM", "RQ", "RT", "BS", "GX"], **kw, **PD)) == ["RM", "RQ", "RT"]


def test_P3_1a_one_colour_and_one_symbol_at_the_top_is_not_a_tie():
    """P3.1a: RM RQ RT BS GS: red 3 (mc), star 2 (ms): red and star at the top, one
    colour + one symbol is not a tie -> all five kept under keep_tied, discard_all and
    reinforced. (pooled, P3.1: m = 3, red alone -> RM RQ RT.) RM RQ BM GT YS: red 2,
    moon 2: red and moon at the top, no tie -> RM RQ BM under every rule (pooled: red and
    moon tie at m = 2 -> discard_all and reinforced remove all)."""
    sel = ["RM", "RQ", "RT", "BS", "GS"]
    for kw in RULES3:
        assert norm_selection(sel, **kw, **PD) == sel
    assert sorted(norm_selection(sel)) == ["RM", "RQ", "RT"]
    sel = ["RM", "RQ", "BM", "GT", "YS"]
    for kw in RULES3:
        assert sorted(norm_selection(sel, **kw, **PD)) == ["BM", "RM", "RQ"]
    assert norm_selection(sel, standard_tie="discard_all") == []


def test_P3_1a_two_colours_at_the_top_is_a_tie():
    """P3.1a: RM RQ BT BS GX: red 2, blue 2 (mc = 2), every symbol 1 (no symbol at the
    top): two colours at the top, a tie -> keep_tied keeps the cards of either colour
    (RM RQ BT BS), discard_all removes all. RM RQ BM BS GT: red 2, blue 2, moon 2: the
    tie keeps RM RQ BM BS (GT carries nothing at the top). Two symbols: RM BM GQ YQ KT:
    every colour 1 (none at the top), moon 2 and square 2 -> keep_tied RM BM GQ YQ,
    discard_all nothing."""
    sel = ["RM", "RQ", "BT", "BS", "GX"]
    assert sorted(norm_selection(sel, **PD)) == ["BS", "BT", "RM", "RQ"]
    assert norm_selection(sel, standard_tie="discard_all", **PD) == []
    assert sorted(norm_selection(["RM", "RQ", "BM", "BS", "GT"], **PD)) == ["BM", "BS", "RM", "RQ"]
    assert norm_selection(["RM", "RQ", "BM", "BS", "GT"], standard_tie="discard_all", **PD) == []
    sel = ["RM", "BM", "GQ", "YQ", "KT"]
    assert sorted(norm_selection(sel, **PD)) == ["BM", "GQ", "RM", "YQ"]
    assert norm_selection(sel, standard_tie="discard_all", **PD) == []


def test_P3_1a_all_counts_one_in_both_dimensions_is_a_tie():
    """P3.1a: mc = ms = 1 (5 distinct colours and symbols): every attribute is at the
    top, several colours -> a tie: keep_tied keeps all five, discard_all and reinforced
    remove all. The same for a 2-card Selection RM BQ (P3.3)."""
    for sel in (["RM", "BQ", "GT", "YS", "KX"], ["RM", "BQ"]):
        assert norm_selection(sel, **PD) == sel
        assert norm_selection(sel, standard_tie="discard_all", **PD) == []
        assert norm_selection(sel, reinforced=True, **PD) == []


def test_P3_1a_one_dimension_at_one_only_the_other_counts():
    """P3.1a: RM BM GQ YT KS: every colour 1 (mc = 1, no colour at the top), moon 2 (ms
    = 2) alone at the top: no tie, RM BM kept under every rule. RM RQ: red 2, symbols 1
    -> red at the top, both kept under every rule."""
    for kw in RULES3:
        assert sorted(norm_selection(["RM", "BM", "GQ", "YT", "KS"], **kw, **PD)) == ["BM", "RM"]
        assert norm_selection(["RM", "RQ"], **kw, **PD) == ["RM", "RQ"]


def test_P3_1a_reinforced_removes_every_card_on_a_tie():
    """P3.1a / P3.2: reinforced selection on a tie (red 2, blue 2: RM RQ BT BS GX)
    removes every card, whatever standard_tie says; without a tie (red 3, star 2: RM RQ
    RT BS GS) it keeps every card carrying an attribute at the top: all five."""
    for tie in ("keep_tied", "discard_all"):
        assert norm_selection(["RM", "RQ", "BT", "BS", "GX"], True, tie, "per_dimension") == []
        assert norm_selection(["RM", "RQ", "RT", "BS", "GS"], True, tie, "per_dimension") == [
            "RM", "RQ", "RT", "BS", "GS"]


def test_P3_1a_single_card_goes_whole_to_the_norm():
    """P3.1 / P3.1a: a single card goes whole to the Norm under every selection rule."""
    for kw in RULES3:
        assert norm_selection(["PO"], **kw, **PD) == ["PO"]


def test_P3_1a_api_refuses_a_bad_scope():
    """P3.1a API: majority_scope is pooled or per_dimension, anything else a ValueError
    that names the argument."""
    for bad in ("per_colour", "", None, True):
        with pytest.raises(ValueError, match="majority_scope"):
            norm_selection(["RM"], majority_scope=bad)


def test_P3_1a_engine_uses_majority_scope():
    """P3.1a in the engine, the P3.2 position (2 players, lowest id first): s0 RM, s1 GT,
    s0 RT, s1 YS, s0 BQ -> red 2 (mc), triangle 2 (ms): one colour and one symbol at the
    top, no tie, so per_dimension reinforced selection keeps RM RT GT (pooled removes
    all five: red and triangle tie at m = 2); then KX alone goes to the Norm. Norm {RM,
    RT, GT, KX} at every coop level and in each-for-themselves with discard_all."""
    hands = {0: ["RM", "RT", "BQ"], 1: ["GT", "YS", "KX"]}
    configs = [ProtocoleConfig("coop", lv, 2, PD) for lv in (1, 2, 3)]
    configs.append(ProtocoleConfig("each", None, 2, {"standard_tie": "discard_all", **PD}))
    for config in configs:
        t = PTable(config, hands=hands)
        t.turns()
        assert t.selections() == [({"RM", "GT", "RT", "YS", "BQ"}, {"RM", "RT", "GT"}), ({"KX"}, {"KX"})]
        assert t.norm() == {"RM", "RT", "GT", "KX"} and t.clean()


SELECTION_RULES = ((False, "keep_tied"), (False, "discard_all"), (True, "keep_tied"),
                   (True, "discard_all"))


def test_P3_exhaustive_norm_selection_against_the_reference():
    """P3.1–P3.2 and P3.1a exhaustively: every one of the C(36,5) = 376,992 five-card
    Selections under majority_scope pooled and per_dimension x standard_tie keep_tied /
    discard_all x standard or reinforced selection, kernel vs the independent
    tests/ref_norm.py; and every 1–4-card Selection (66,711) through the public
    norm_selection API."""
    combos = list(combinations(range(36), 5))
    assert len(combos) == 376_992
    idx = np.array(combos, np.int64)
    masks = (np.int64(1) << idx).sum(axis=1)
    named = [[ALL_CARDS[c] for c in combo] for combo in combos]
    out = np.zeros_like(masks)
    kept = {}
    for scope in ("pooled", "per_dimension"):
        for reinforced, tie in SELECTION_RULES:
            norm_keep_batch(masks, reinforced, tie == "discard_all", scope == "per_dimension", out)
            bad = 0
            for i, cards in enumerate(named):
                m = 0
                for c in ref_norm_selection(cards, reinforced, tie, scope):
                    m |= 1 << card_id(c)
                bad += m != out[i]
            assert bad == 0, (scope, reinforced, tie, bad)
            kept[scope, reinforced, tie] = out.copy()
    for rule in SELECTION_RULES:   # per_dimension is a different rule on some Selections
        assert (kept[("pooled", *rule)] != kept[("per_dimension", *rule)]).any(), rule
    for k in range(1, 5):
        for combo in combinations(ALL_CARDS, k):
            for scope in ("pooled", "per_dimension"):
                for reinforced, tie in SELECTION_RULES:
                    assert (sorted(norm_selection(combo, reinforced, tie, scope))
                            == sorted(ref_norm_selection(combo, reinforced, tie, scope)))


# ================================================================== P4 Household control

def test_P4_1_control_pass_and_fail():
    """P4.1, Norm {RM, BQ} (colours R B, symbols M Q): {RT, GM} passes (R, M); {GT} fails
    (neither G nor T); {BX, YQ} passes (B, Q); an empty Foyer passes."""
    t = PTable(ProtocoleConfig("each", None, 4), norm=["RM", "BQ"],
               foyers={0: ["RT", "GM"], 1: ["GT"], 2: ["BX", "YQ"], 3: []})
    t.control()
    assert t.control_results() == {0: True, 1: False, 2: True, 3: True}


def test_P4_1_empty_norm_fails_every_non_empty_foyer():
    """P4.1: an empty Norm fails every non-empty Foyer; an empty Foyer still passes."""
    t = PTable(EACH3, norm=[], foyers={0: ["RT"], 1: [], 2: ["PO", "KX"]})
    t.control()
    assert t.control_results() == {0: False, 1: True, 2: False}


def test_P4_2_scoring_and_elimination():
    """P4.2, Norm {RM, BQ}, points before [3, 5, 2]: s0 {RT, GM} passes: 3 + 2 = 5; s1 {GT}
    fails: eliminated, 0 points, its card out of the game; s2 {} passes: 2 + 0 = 2.
    Norm of 2 cards (<= 7): the game ends, P4.4: s0 (5) beats s2 (2)."""
    t = PTable(EACH3, norm=["RM", "BQ"], foyers={0: ["RT", "GM"], 1: ["GT"], 2: []},
               points=[3, 5, 2])
    assert t.control() == E.CTRL_END
    assert t.points() == [5, 0, 2]
    assert t.alive() == [0, 2] and t.foyer(1) == set()
    assert "GT" in codes_of(int(t.st[L.S_DEAD]))
    assert t.winners() == [0] and t.res[L.R_ELIM] == 0b010
    assert [(a, b) for a, b, *_ in t.of_type(L.EV_POINTS)] == [(0, 5), (1, 0), (2, 2)]


def test_P4_2_foyer_cards_score_again_at_every_control():
    """P4.2: Foyer cards stay and score at every later control: 2 cards, two controls
    with a 9-card Norm covering them (the game goes on, P4.3): 2 then 4 points."""
    norm = ["RM", "RQ", "RT", "RS", "RX", "RO", "BM", "BQ", "BT"]
    t = PTable(EACH2, norm=norm, foyers={0: ["GM", "YQ"], 1: []})
    assert t.control() == E.CTRL_GO_ON
    assert t.points() == [2, 0]
    assert t.control() == E.CTRL_GO_ON
    assert t.points() == [4, 0]


def test_P4_3_new_round_initiative_and_deal():
    """P4.3: Norm of 8 cards (>= 8) with 2 players left: a new round. The Initiative (at
    seat 1, eliminated now) passes to the next player on the left still in the game:
    seat 2 is out too, so seat 3. The shuffled Norm is dealt from seat 3: 8 // 2 = 4
    each, deck cards 0, 2, 4, 6 to seat 3 and 1, 3, 5, 7 to seat 0; Foyers are kept."""
    norm = ["RM", "RQ", "RT", "RS", "BM", "BQ", "BT", "BS"]
    t = PTable(EACH4, norm=norm, init=1, foyers={0: ["GM"], 1: ["PO"], 2: ["KX"], 3: []})
    assert t.control() == E.CTRL_GO_ON
    assert t.alive() == [0, 3]
    t.st[L.S_ROUND] = 1
    E.next_round(t.st, t.cfg, np.uint64(5))
    assert t.st[L.S_INIT] == 3 and t.norm() == set()
    deck = [card_code(int(t.st[L.S_DECK + i])) for i in range(int(t.st[L.S_DECK_LEN]))]
    assert sorted(deck) == sorted(norm)
    t.deal(0)
    assert t.hand(3) == {deck[0], deck[2], deck[4], deck[6]}
    assert t.hand(0) == {deck[1], deck[3], deck[5], deck[7]}
    assert t.hand(1) == set() and t.hand(2) == set() and t.selection() == set()
    assert t.foyer(0) == {"GM"}


def test_P4_3_deal_with_remainder_to_the_selection():
    """P4.3 / P1.3: 10 Norm cards, players 1, 2, 3 in the game, Initiative at seat 2:
    order 2, 3, 1; 10 // 3 = 3 each, 1 left face up into the Selection (the last card)."""
    deck = ["GM", "RQ", "KT", "BS", "YX", "PO", "RM", "BQ", "GT", "YS"]
    t = PTable(EACH4, deck=deck, alive=[1, 2, 3], init=2)
    t.deal(0)
    assert t.hand(2) == {"GM", "BS", "RM"} and t.hand(3) == {"RQ", "YX", "BQ"}
    assert t.hand(1) == {"KT", "PO", "GT"} and t.selection() == {"YS"}
    assert t.hand(0) == set()


def test_P4_3_seven_or_fewer_ends_the_game():
    """P4.3: a Norm of 7 cards ends the game after the control; 8 goes on."""
    seven = ["RM", "RQ", "RT", "RS", "RX", "RO", "BM"]
    t = PTable(EACH2, norm=seven, foyers={0: [], 1: []})
    assert t.control() == E.CTRL_END
    t = PTable(EACH2, norm=seven + ["BQ"], foyers={0: [], 1: []})
    assert t.control() == E.CTRL_GO_ON


def test_P4_4_points_then_attributes_then_shared():
    """P4.4, Norm {RM, BQ, GS} (colours R B G, symbols M Q S), points before [4, 4]: both
    pass with 2 cards -> 6 and 6. Attributes: s0 {RT, YM}: RT 1 (R) + YM 1 (M) = 2;
    s1 {RQ, BS}: RQ 2 + BS 2 = 4 -> s1 wins. With s1 = {RT2…} equal attributes: shared."""
    t = PTable(EACH2, norm=["RM", "BQ", "GS"], foyers={0: ["RT", "YM"], 1: ["RQ", "BS"]},
               points=[4, 4])
    assert t.control() == E.CTRL_END
    assert t.points() == [6, 6] and t.winners() == [1]
    # s0 {RT, YM} = 2 attributes, s1 {YQ, KM} = Q 1 + M 1 = 2: still tied -> shared
    t = PTable(EACH2, norm=["RM", "BQ", "GS"], foyers={0: ["RT", "YM"], 1: ["YQ", "KM"]},
               points=[4, 4])
    t.control()
    assert t.winners() == [0, 1] and t.res[L.R_NWIN] == 2
    # more points wins before attributes: s0 6 + 2 = 8 > s1 4 + 2 = 6
    t = PTable(EACH2, norm=["RM", "BQ", "GS"], foyers={0: ["RT", "YM"], 1: ["RQ", "BS"]},
               points=[6, 4])
    t.control()
    assert t.winners() == [0]


def test_P4_4_only_players_in_the_game_win():
    """P4.4: s0 had 10 points but fails (0, out); s1 (1 point) and s2 (0 + 0) remain,
    Norm {RM} (1 card): s1 has 1 + 1 (RQ covered by R) = 2 > s2's 0: s1 wins."""
    t = PTable(EACH3, norm=["RM"], foyers={0: ["GT"], 1: ["RQ"], 2: []}, points=[10, 1, 0])
    t.control()
    assert t.points() == [0, 2, 0] and t.winners() == [1]


def test_P4_4_everyone_eliminated_no_winner():
    """P4.4: every player eliminated -> no winner."""
    t = PTable(EACH2, norm=["RM"], foyers={0: ["GT"], 1: ["BQ"]}, points=[3, 3])
    assert t.control() == E.CTRL_END
    assert t.winners() == [] and t.res[L.R_NWIN] == 0 and t.points() == [0, 0]


def test_P4_4_last_player_standing_wins_at_once():
    """P4.4: all but one eliminated -> that player wins at once, whatever the Norm size
    (here 8 cards: colours R B G Y, symbols M Q, which would otherwise start a new
    round), even with fewer points before than the eliminated ones: s0 {GX} passes (G),
    s1 {KO} and s2 {PS} share nothing with the Norm."""
    norm = ["RM", "RQ", "BM", "BQ", "GM", "GQ", "YM", "YQ"]
    t = PTable(EACH3, norm=norm, foyers={0: ["GX"], 1: ["KO"], 2: ["PS"]}, points=[0, 9, 9])
    assert t.control() == E.CTRL_END
    assert t.winners() == [0] and t.alive() == [0]


def test_P4_5_round_cap_truncates():
    """P4.5: round_cap = 1: a game that does not end in its first round is truncated
    (result null, exactly 1 round); one that ends by itself in round 1 ends normally.
    "Ends by itself" read from the round by P4.3/P4.4: each mode: at most one player left
    or a Norm of 7 or fewer; coop: a fail, or a Norm of 7 or fewer."""
    kinds = set()
    for cfg in (ProtocoleConfig("each", None, 4, {"round_cap": 1}),
                ProtocoleConfig("coop", 2, 3, {"round_cap": 1})):
        for rec in iter_records(cfg, ["random"], 60, 4):
            assert len(rec["rounds"]) == 1
            r = rec["rounds"][0]
            left = sum(v == "pass" for v in r["control"].values())
            if cfg.mode == "each":
                ends = left <= 1 or len(r["norm"]) <= 7
            else:
                ends = left < cfg.players or r["reinforced"] == "fail" or len(r["norm"]) <= 7
            assert rec["truncated"] == (not ends)
            assert (rec["result"] is None) == rec["truncated"]
            kinds.add(rec["truncated"])
    assert kinds == {True, False}
    assert VARIANTS["round_cap"][1] == 100


def test_P4_5_truncated_games_are_counted():
    """P4.5 / M1: truncated games are reported apart: shares + no winner + truncated = 1."""
    r = simulate("protocole", ProtocoleConfig("each", None, 3, {"round_cap": 1}), ["random"],
                 500, 2).summary()
    assert r["truncated_share"] > 0
    total = sum(s["share"] for s in r["sides"]) + r["no_winner_share"] + r["truncated_share"]
    assert abs(total - 1) < 1e-9


# ================================================================== P5 all together

def test_P5_1_coop_keeps_no_points_and_hides_teammates():
    """P5.1: no points are kept in coop (records: points null; the kernel's points stay
    0); a seat's observation is the same whatever a teammate's Foyer holds."""
    for rec in iter_records(COOP2_4, ["convention"], 5, 1):
        assert all(r["points"] is None for r in rec["rounds"])
    t = PTable(COOP2_4, norm=["RM", "BQ", "GT", "YS"],
               foyers={0: ["RQ"], 1: ["BT"], 2: ["GM"], 3: ["YQ"]})
    t.control()
    assert t.points() == [0, 0, 0, 0]
    a = np.zeros(L.OBS_LEN, np.int64)
    b = np.zeros(L.OBS_LEN, np.int64)
    t2 = PTable(COOP2_4, foyers={0: ["RQ"], 1: ["PO"]}, hands={0: ["BM"], 2: ["KX"]})
    t3 = PTable(COOP2_4, foyers={0: ["RQ"], 1: ["KX"]}, hands={0: ["BM"], 2: ["PO"]})
    observe(t2.st, t2.cfg, 0, L.K_PLAY, a)
    observe(t3.st, t3.cfg, 0, L.K_PLAY, b)
    assert np.array_equal(a, b)


def test_P5_2_elimination_loses_and_skips_the_reinforced_control():
    """P5.2: one failing Foyer loses the game at once; the reinforced control is then not
    checked (no reinforced result). Norm {RM, BQ, GT, YS}; s2's PO shares nothing."""
    t = PTable(COOP2_4, norm=["RM", "BQ", "GT", "YS"],
               foyers={0: ["RQ"], 1: ["BT"], 2: ["PO"], 3: ["YQ"]})
    assert t.control() == E.CTRL_END
    assert t.res[L.R_OUTCOME] == L.OUT_LOSS_ELIM and t.winners() == []
    assert t.reinforced() is None
    assert t.of_type(L.EV_RESULT)[0][:3] == (0, L.OUT_LOSS_ELIM, -1)


def test_P5_2_win_with_seven_or_fewer_and_record():
    """P5.2 / P5.3 level 2: Norm {RM, BQ, GT, YS} (colours R B G Y, symbols M Q T S).
    Cards with both attributes present: s0 RQ (R from RM, Q from BQ: different Norm
    cards count), s1 BT, s2 GM, s3 YQ; GX and PS pass the basic control (G; S) only.
    Everyone passes both controls, 4 <= 7 Norm cards: won; record 2 + 1 + 1 + 2 = 6."""
    t = PTable(COOP2_4, norm=["RM", "BQ", "GT", "YS"],
               foyers={0: ["RQ", "GX"], 1: ["BT"], 2: ["GM"], 3: ["YQ", "PS"]})
    assert t.control() == E.CTRL_END
    assert t.reinforced() is True
    assert t.res[L.R_OUTCOME] == L.OUT_WIN and t.winners() == [0, 1, 2, 3]
    assert t.of_type(L.EV_RESULT)[0][2] == 6


def test_P5_2_eight_norm_cards_go_on():
    """P5.2 / P4.3: all controls passed but 8 Norm cards: a new round, not yet a win."""
    norm = ["RM", "BQ", "GT", "YS", "KX", "PO", "RS", "BM"]
    t = PTable(COOP1_4, norm=norm, foyers={0: ["RQ"], 1: ["BT"], 2: ["GM"], 3: ["YQ"]})
    assert t.control() == E.CTRL_GO_ON and t.reinforced() is None


def test_P5_3_level_2_reinforced_control_each_player_and_team():
    """P5.3 level 2: s2's Foyer {GX} passes the basic control (green) but has no card with
    both attributes in the Norm (X absent): each_player fails -> lost by the reinforced
    control. reinforced_scope = team: 2 (RQ, GM) + 1 + 0 + 1 = 4 >= 1 -> passes, won."""
    foyers = {0: ["RQ", "GM"], 1: ["BT"], 2: ["GX"], 3: ["YQ"]}
    norm = ["RM", "BQ", "GT", "YS"]
    t = PTable(COOP2_4, norm=norm, foyers=foyers)
    assert t.control() == E.CTRL_END
    assert t.reinforced() is False and t.res[L.R_OUTCOME] == L.OUT_LOSS_REINF
    t = PTable(ProtocoleConfig("coop", 2, 4, {"reinforced_scope": "team"}), norm=norm, foyers=foyers)
    t.control()
    assert t.reinforced() is True and t.res[L.R_OUTCOME] == L.OUT_WIN


def test_P5_3_level_3_needs_two_per_foyer():
    """P5.3 level 3: at least two double-covered cards per Foyer. s0 {RQ, BM} has 2, the
    others 1 -> each_player fails; team: 2 + 1 + 1 + 1 = 5 >= 2 passes. And with every
    Foyer holding 2 (s1 {BT, RS}, s2 {GM, YT}, s3 {YQ, GS}) each_player passes."""
    norm = ["RM", "BQ", "GT", "YS"]
    f1 = {0: ["RQ", "BM"], 1: ["BT"], 2: ["GM"], 3: ["YQ"]}
    t = PTable(COOP3_4, norm=norm, foyers=f1)
    t.control()
    assert t.reinforced() is False
    t = PTable(ProtocoleConfig("coop", 3, 4, {"reinforced_scope": "team"}), norm=norm, foyers=f1)
    t.control()
    assert t.reinforced() is True
    f2 = {0: ["RQ", "BM"], 1: ["BT", "RS"], 2: ["GM", "YT"], 3: ["YQ", "GS"]}
    t = PTable(COOP3_4, norm=norm, foyers=f2)
    t.control()
    assert t.reinforced() is True and t.res[L.R_OUTCOME] == L.OUT_WIN


def test_P5_3_empty_foyer_fails_the_reinforced_control():
    """P5.3 (reading): "at least one Foyer card of each player" — an empty Foyer has none,
    so at level 2 each_player it fails, though it passes the basic control (P4.1)."""
    t = PTable(COOP2_4, norm=["RM", "BQ", "GT", "YS"],
               foyers={0: ["RQ"], 1: ["BT"], 2: [], 3: ["YQ"]})
    t.control()
    assert t.control_results()[2] is True and t.reinforced() is False


def test_P5_3_level_1_has_no_reinforced_control():
    """P5.3: level 1 is reinforced selection only: a Foyer without any double-covered card
    still wins."""
    t = PTable(COOP1_4, norm=["RM", "BQ"], foyers={0: ["RT"], 1: ["GQ"], 2: [], 3: []})
    t.control()
    assert t.reinforced() is None and t.res[L.R_OUTCOME] == L.OUT_WIN


# ================================================================== whole rounds, M1

def test_P2_P4_whole_round_from_a_dealt_deck():
    """P1.3 + P2 + P3 + P4 in one round, 2 players each, Initiative seat 0, deck of 12:
    RM BQ | GT YS (Foyers: s0 RM GT, s1 BQ YS) then hands alternately: s0 RQ RS BM BS,
    s1 RT RX BT BX. All to the Selection, lowest id first: s0 RQ, s1 RT, s0 RS, s1 RX,
    s0 BM -> {RQ, RT, RS, RX, BM}: red 4: keep the 4 reds. Then s1 BT, s0 BS, s1 BX
    -> {BT, BS, BX}: blue 3: kept. Norm {RQ RT RS RX BT BS BX} (7). Control: s0 {RM, GT}:
    RM red ok, GT: G no, T yes (RT) -> pass: 2 points; s1 {BQ, YS}: blue ok, S (RS) ok
    -> pass: 2. 7 cards: the end; tie 2-2; attributes s0: RM 1 (R) + GT 1 (T) = 2, s1:
    BQ 2 (B, and Q from RQ) + YS 1 (S) = 3 -> s1 wins."""
    deck = ["RM", "BQ", "GT", "YS", "RQ", "RT", "RS", "RX", "BM", "BT", "BS", "BX"]
    t = PTable(EACH2, deck=deck)
    assert t.round(2) == E.CTRL_END
    assert t.foyer(0) == {"RM", "GT"} and t.foyer(1) == {"BQ", "YS"}
    assert t.selections() == [({"RQ", "RT", "RS", "RX", "BM"}, {"RQ", "RT", "RS", "RX"}),
                              ({"BT", "BS", "BX"}, {"BT", "BS", "BX"})]
    assert t.points() == [2, 2] and t.winners() == [1] and t.clean()


def test_M1_shared_victory_counts_1_over_k():
    """M1: 4 games: 2 won alone, 2 shared by two -> shares 1, 1, 1/2, 1/2: mean 3/4,
    sample variance ((1/4)^2 * 4) / 3 = 1/12, 95% half-width 1.96 * sqrt(1/48)."""
    from demos_sim.game import SHARE_SCALE as U         # a win shared by k counts U // k

    x = [U, U, U // 2, U // 2]
    e = mean_ci(sum(x), sum(v * v for v in x), 4, U, True)
    assert e.mean == pytest.approx(0.75)
    half = 1.959963984540054 * (1 / 48) ** 0.5
    assert e.lo == pytest.approx(0.75 - half) and e.hi == 1.0
