"""The Protocole kit: options in words, and positions from card notation (RULES.md Part P).

- ``describe_option`` and the option helpers read an option as P2.1 says: a hand card,
  face up into the Selection or face down into the own Foyer.
- ``position(...)`` gives the observation and options the engine itself gives: checked
  at decisions of real games (snapshots taken inside the engine) in both modes, every
  level, 2–4 players, with eliminations and later rounds; hand-set positions list their
  options as written by hand from P2.1; impossible positions are refused with the rule.
"""

import re

import numpy as np
import pytest
from numba import njit

from demos_sim.protocole import engine as E
from demos_sim.protocole import kit
from demos_sim.protocole import layout as L
from demos_sim.protocole.cards import COLOURS, SYMBOLS, card_id, codes_of
from demos_sim.protocole.policies import POLICY_SIG, register
from demos_sim.protocole.positions import Position, position
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.registry import N_PARAMS
from demos_sim.rng import below
from demos_sim.sim_common import chunk_game_keys

C = card_id


# ------------------------------------------------------------------ options
def test_options_decode_like_the_rules():
    # P2.1: an option is card * 2 + destination (0 the Selection, face up; 1 the Foyer)
    o = kit.option_of(C("KT"), kit.TO_FOYER)
    assert o == 26 * 2 + 1 and kit.card_of(o) == C("KT")
    assert kit.to_foyer(o) and not kit.to_selection(o)
    o = kit.option_of(C("RM"), kit.TO_SELECTION)
    assert o == 0 and kit.to_selection(o) and not kit.to_foyer(o)
    assert kit.card_colour(C("KT")) == COLOURS.index("K")
    assert kit.card_symbol(C("KT")) == SYMBOLS.index("T")
    assert codes_of(int(kit.colour_cards(COLOURS.index("B")))) == [
        "BM", "BQ", "BT", "BS", "BX", "BO"]
    assert codes_of(int(kit.symbol_cards(SYMBOLS.index("O")))) == [
        "RO", "BO", "GO", "YO", "KO", "PO"]
    # P4.1: a card is safe when its colour or its symbol is in the Norm
    norm = (1 << C("KO")) | (1 << C("GQ"))
    assert kit.safe_in_norm(C("KT"), norm) and kit.safe_in_norm(C("RQ"), norm)
    assert not kit.safe_in_norm(C("RT"), norm)


def test_describe_option_prints_card_and_destination():
    assert kit.describe_option("play", C("KT") * 2 + 1) == "KT to the Foyer"
    assert kit.describe_option(kit.PLAY, C("PO") * 2) == "PO to the Selection"
    assert kit.card_words(C("KT")) == "black triangle"
    with pytest.raises(ValueError, match="unknown Protocole decision kind"):
        kit.describe_option("bid", 3)
    with pytest.raises(ValueError, match="not a Protocole option"):
        kit.describe_option("play", 72)


# ------------------------------------------------------------------ hand-set positions
def test_a_hand_set_turn_lists_the_options_of_P2_1():
    # P2.1: every hand card, to the Selection (face up) or to the own Foyer (face down);
    # listed by card id (RS = red star = 3 before KT = black triangle = 26)
    pos = position(hand="KT RS", foyer="KM BQ YX", selection="PM", norm="KO GO BO",
                   gone="RQ YT")
    assert isinstance(pos, Position) and pos.kind_name == "play"
    assert pos.texts() == ["RS to the Selection", "RS to the Foyer",
                           "KT to the Selection", "KT to the Foyer"]
    # what the seat sees (M2): own hand and Foyer, everything face up, counts
    ob = pos.obs
    assert codes_of(int(ob[L.O_HAND])) == ["RS", "KT"]
    assert codes_of(int(ob[L.O_FOYER])) == ["BQ", "YX", "KM"]
    assert codes_of(int(ob[L.O_GONE])) == ["RQ", "YT"]
    # P1.3 at 4 players: 2 Foyer cards and 7 in hand each; 5 turns each played
    assert [int(ob[L.O_HANDN + p]) for p in range(4)] == [2, 2, 2, 2]
    assert int(ob[L.O_TURN]) == 20
    # 6 cards went face up (Selection 1, Norm 3, gone 2), 4 of them by seat 0 (5 turns,
    # 1 to its Foyer): the others' Foyers hold 2 dealt + 15 turns - 2 face up = 19
    assert sum(int(ob[L.O_FOYERN + p]) for p in (1, 2, 3)) == 19
    assert all(ob[L.O_T_ON:] == 0)                      # no truth block (not a reference)


def test_a_3_player_game_removes_one_attribute_and_deals_the_rest():
    # P1.2: 30 cards at 3 players; P1.3: 2 Foyer cards each, 8 in hand, no remainder
    pos = position(hand="RM RQ RT RS RX RO BM BQ", foyer="GM GQ", players=3, removed="P")
    assert pos.n_opts == 16
    assert codes_of(int(pos.obs[L.O_GONE])) == ["PM", "PQ", "PT", "PS", "PX", "PO"]
    assert [int(pos.obs[L.O_HANDN + p]) for p in range(3)] == [8, 8, 8]
    assert int(pos.obs[L.O_TURN]) == 0
    # seat 2 after seats 0 and 1 have played one turn each: 7 cards left for everyone
    # but seat 2 holds its 8 until its turn (P2.1 turns go round from the Initiative)
    pos = position(hand="RM RQ RT RS RX RO BM BQ", foyer="GM GQ", seat=2, players=3,
                   removed="Y", selection="KM KQ", played={0: "KM", 1: "KQ"})
    assert [int(pos.obs[L.O_HANDN + p]) for p in range(3)] == [7, 7, 8]
    assert codes_of(int(pos.obs[L.O_PLAYED + 1])) == ["KQ"]


def test_a_later_round_deals_the_last_norm():
    # P4.3: the previous Norm (10 cards) is dealt again, 3 each at 3 players in the game
    # and 1 into the Selection; seat 1 is out (P4.2), the Initiative at seat 2
    dealt = "RM RQ RT RS BM BQ BT GM GQ GT"
    pos = position(hand="RM RQ RT", seat=2, players=3, round=2, initiative=2,
                   dealt=dealt, selection="GT", out=[1], foyer="YM", points=[4, 0, 6],
                   foyers={0: 3})
    ob = pos.obs
    assert int(ob[L.O_ALIVE]) == 0b101 and int(ob[L.O_DECKSET]) == sum(
        1 << C(c) for c in dealt.split())
    assert [int(ob[L.O_HANDN + p]) for p in range(3)] == [3, 0, 3]
    assert [int(ob[L.O_FOYERN + p]) for p in range(3)] == [3, 0, 1]
    assert [int(ob[L.O_POINTS + p]) for p in range(3)] == [4, 0, 6]
    assert pos.texts()[:2] == ["RM to the Selection", "RM to the Foyer"]


def test_position_refuses_what_cannot_happen():
    bad = [
        (dict(hand="KT", selection="RM RQ RT RS RX"), "resolved at once (P2.2)"),
        (dict(hand=""), "skipped (P2.1)"),
        (dict(hand="KT KT"), "given twice"),
        (dict(hand="KT", foyer="KT RM"), "KT: in the Foyer and elsewhere"),
        (dict(hand="KT", players=3, removed="P O"), "P1.2"),
        (dict(hand="KT", players=2, removed="P"), "P1.2"),
        (dict(hand="KT", players=3, removed="K"), "KT: in the hand and elsewhere"),
        (dict(hand="KT", round=1), "previous round's Norm"),
        (dict(hand="KT", round=1, dealt="KT RM RQ"), "7 cards or fewer ends the game"),
        (dict(hand="RM RQ RT RS RX RO BM BQ", foyer="KM", mode="coop", level=1,
              points=[1, 0, 0, 0]), "P5.1"),
        (dict(hand="KT", out=[1]), "round 0"),
        (dict(hand="RM RQ RT RS RX RO BM BQ"), "more than the 7 dealt"),
        (dict(hand="KT", foyer="KM", selection="PM"), "P1.3"),
        (dict(hand="KT RS", foyer="KM BQ", selection="PM", played={0: "RQ"}),
         "was not played this round"),
    ]
    for kw, msg in bad:
        with pytest.raises(ValueError, match=re.escape(msg)):
            position(**kw)


# ------------------------------------------------------------------ deciding
def test_decide_names_the_choice_and_refuses_a_bad_index():
    pos = position(hand="KT RS", foyer="KM BQ YX", selection="PM", norm="KO GO BO",
                   gone="RQ YT")
    # cautious Foyers only a card the Norm already covers (P4.1): KT (black, like KO)
    c = pos.decide("cautious")
    assert (c.index, c.option, str(c)) == (3, C("KT") * 2 + 1, "KT to the Foyer")
    assert pos.index_of("KT to the Foyer") == 3
    for name in ("random", "planner", "ismcts@8", "sparta@4"):
        assert pos.decide(name).text in pos.texts()

    @njit(POLICY_SIG)
    def returns_the_option(cfg, obs, opts, n_opts, params, rng):
        return opts[n_opts - 1]

    with pytest.raises(ValueError, match=r"answered option index 53 .* 4 options"):
        pos.decide(returns_the_option)
    text = str(pos)
    assert "turn (P2.1) of seat 0" in text and "    3  KT to the Foyer" in text


@njit(POLICY_SIG, cache=True)
def _reads_truth(cfg, obs, opts, n_opts, params, rng):
    """Option 1 when the truth block is there and seat 1's hand holds KT, else 0."""
    if obs[L.O_T_ON] == 1 and (obs[L.O_T_HAND + 1] >> 26) & 1:
        return 1
    return 0


def test_a_reference_policy_decides_with_the_truth_block_as_in_a_game():
    register("t_pkit_truth", reference="t_pkit_truth")(_reads_truth)
    register("t_pkit_blind")(_reads_truth)
    pos = position(hand="RS BM BQ BT BS BX BO", hands={1: "KT RM RQ RT RX RO YM"},
                   foyer="GM GQ")
    assert pos.decide("t_pkit_truth").index == 1          # sees seat 1's KT
    assert pos.decide("t_pkit_blind").index == 0          # M2: no truth block
    assert codes_of(int(pos.st[L.S_HAND + 1])) == ["RM", "RQ", "RT", "RX", "RO", "YM", "KT"]


# ------------------------------------------------------------------ against the engine
SNAP_AT, SNAP_COUNT, SNAP_N = N_PARAMS, N_PARAMS + 1, N_PARAMS + 2
SNAP_OBS = N_PARAMS + 3
SNAP_OPTS = SNAP_OBS + L.OBS_LEN
SNAP_W = SNAP_OPTS + L.MAXOPT


@njit(POLICY_SIG, cache=True)
def _snapshot(cfg, obs, opts, n_opts, params, rng):
    """Random play; copies the observation and options of its SNAP_AT-th decision."""
    if params[SNAP_COUNT] == params[SNAP_AT]:
        for i in range(L.OBS_LEN):
            params[SNAP_OBS + i] = obs[i]
        for i in range(n_opts):
            params[SNAP_OPTS + i] = opts[i]
        params[SNAP_N] = n_opts
    params[SNAP_COUNT] += 1
    return below(rng, 0, n_opts)


def _snapshots(config, key, at):
    """(seat, obs, opts) of each seat's ``at``-th decision, and the removed cards."""
    cfg = config.to_array(log=True)
    prm = np.zeros((L.MAXP, SNAP_W))
    prm[:, SNAP_AT] = at
    log = np.zeros(L.EV_W * 20000, np.int64)
    log[0] = L.EV_W
    E.play_game((_snapshot,) * L.MAXP, cfg, prm, np.uint64(key), np.zeros(L.ST_LEN, np.int64),
                np.zeros(L.OBS_LEN, np.int64), np.zeros(L.MAXOPT, np.int64),
                np.zeros(L.NSTREAM, np.uint64), log, np.zeros(E.DIAG_LEN, np.int64),
                np.zeros(L.RES_LEN, np.int64))
    events = log[L.EV_W:log[0]].reshape(-1, L.EV_W)
    removed = int(events[events[:, 0] == L.EV_SETUP][0, 1])
    out = []
    for seat in range(config.players):
        n = int(prm[seat, SNAP_N])
        if n:
            out.append((seat, prm[seat, SNAP_OBS:SNAP_OBS + L.OBS_LEN].astype(np.int64),
                        prm[seat, SNAP_OPTS:SNAP_OPTS + n].astype(np.int64)))
    return out, removed


def _attributes(removed: int) -> str:
    """The P1.2 removal as attribute letters (a colour or symbol whose 6 cards are gone)."""
    out = [a for i, a in enumerate(COLOURS) if removed & (L.COLOUR0 << 6 * i) == L.COLOUR0 << 6 * i]
    out += [a for i, a in enumerate(SYMBOLS) if removed & (L.SYMBOL0 << i) == L.SYMBOL0 << i]
    return " ".join(out)


@pytest.mark.parametrize("setup", [("each", None, 4, {}), ("each", None, 3, {}),
                                   ("each", None, 2, {"standard_tie": "discard_all"}),
                                   ("coop", 1, 4, {}), ("coop", 3, 3, {}),
                                   ("coop", 2, 2, {"majority_scope": "per_dimension"})])
def test_position_gives_the_engines_observation_and_options(setup):
    """Decisions of real games, rebuilt from what their observation shows: the same
    observation, field by field, and the same options."""
    mode, level, n, variants = setup
    config = ProtocoleConfig(mode, level, n, variants)
    compared = rounds = outs = 0
    for key in chunk_game_keys(5, 0, 0, 5):
        for at in (0, 2, 5, 9, 14, 20, 27):
            snaps, removed = _snapshots(config, key, at)
            for seat, ob, opts in snaps:
                alive = int(ob[L.O_ALIVE])
                r = int(ob[L.O_ROUND])
                pos = position(
                    codes_of(int(ob[L.O_HAND])), seat, config=config,
                    foyer=codes_of(int(ob[L.O_FOYER])), selection=codes_of(int(ob[L.O_SEL])),
                    norm=codes_of(int(ob[L.O_NORM])),
                    gone=codes_of(int(ob[L.O_GONE]) & ~removed), removed=_attributes(removed),
                    played={p: codes_of(int(ob[L.O_PLAYED + p])) for p in range(n)
                            if (alive >> p) & 1},
                    round=r, initiative=int(ob[L.O_INIT]),
                    dealt=codes_of(int(ob[L.O_DECKSET])) if r else None,
                    out=[p for p in range(n) if not (alive >> p) & 1],
                    points=[int(ob[L.O_POINTS + p]) for p in range(n)],
                    foyers={p: int(ob[L.O_FOYERN + p]) for p in range(n)
                            if p != seat and (alive >> p) & 1})
                assert pos.options() == opts.tolist(), (seat, at)
                diff = np.nonzero(pos.obs != ob)[0]
                assert diff.size == 0, (seat, at, [L.OBS.name(i) if hasattr(L.OBS, "name")
                                                   else i for i in diff])
                compared += 1
                rounds += r > 0
                outs += alive != (1 << n) - 1
    assert compared >= 10 * n
    if mode == "each" and n >= 3:        # random play reaches later rounds and eliminations
        assert rounds >= 1 and outs >= 1, (rounds, outs)
