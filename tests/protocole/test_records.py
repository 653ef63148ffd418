"""Protocole game records (GAME_RECORD.md) from the engine: schema and audit by the
independent referee (tests/referee_protocole.py) over both modes, every level, every
player count, with variants and every policy; invariants (card conservation, empty hands
at every control); determinism; records and simulations are the same games."""

import json
from collections import Counter

import numpy as np
import pytest
from ref_norm import ref_norm_selection
from referee_protocole import audit_protocole

from demos_sim.protocole import engine as E
from demos_sim.protocole import layout as L
from demos_sim.protocole.policies import resolve
from demos_sim.protocole.record import iter_records, play_logged
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.protocole.sim import policy_tuple
from demos_sim.sim_common import CHUNK, chunk_game_keys

SETUPS = [(mode, level, n) for mode, level in (("each", None), ("coop", 1), ("coop", 2), ("coop", 3))
          for n in (2, 3, 4)]
VARIANT_SETS = [{}, {"standard_tie": "discard_all", "reinforced_scope": "team"},
                {"round_cap": 1}, {"round_cap": 2},
                {"majority_scope": "per_dimension"},                                  # P3.1a
                {"majority_scope": "per_dimension", "standard_tie": "discard_all", "reinforced_scope": "team"}]
VARIANT_IDS = ["defaults", "discard_all-team", "cap1", "cap2", "per_dimension", "per_dimension-discard_all-team"]
POLICY_SETS = [["random"], ["cautious"], ["convention"], ["cautious", "random", "convention", "random"]]


def _id(s):
    return "-".join(map(str, s))


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=VARIANT_IDS)
def test_records_follow_the_contract(setup, variants):
    """Every record validates against the schema (contract 2) and the referee finds no
    violation."""
    mode, level, n = setup
    cfg = ProtocoleConfig(mode, level, n, variants)
    for pols in POLICY_SETS:
        for rec in iter_records(cfg, pols[:n], 5, 21):
            json.loads(json.dumps(rec))  # plain JSON
            assert audit_protocole(rec) == []
            assert rec["variants"] == cfg.variants and rec["level"] == level
            assert rec["contract"] == 2


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
@pytest.mark.parametrize("variants", [{}, {"majority_scope": "per_dimension"},
                                      {"majority_scope": "per_dimension", "standard_tie": "discard_all"}],
                         ids=["defaults", "per_dimension", "per_dimension-discard_all"])
def test_many_games_audit_clean(setup, variants):
    """150 games per setup and variant set (random and the setup's heuristic; under
    per_dimension, P3.1a, also planner), replayed by the referee."""
    mode, level, n = setup
    cfg = ProtocoleConfig(mode, level, n, variants)
    pols = ["random", "cautious" if mode == "each" else "convention"]
    if variants:
        pols.append("planner")
    differ = 0   # selections that the pooled rule would resolve otherwise
    for pol in pols:
        for rec in iter_records(cfg, [pol], 75, 5):
            v = audit_protocole(rec, check_schema=False)
            assert v == [], v[:3]
            for rnd in rec["rounds"]:
                for sel in rnd["selections"]:
                    pooled = ref_norm_selection(sel["cards"], mode == "coop", cfg.variants["standard_tie"])
                    differ += set(pooled) != set(sel["kept"])
    assert (differ > 0) == (cfg.variants["majority_scope"] == "per_dimension")


def _conservation(rec):
    """Card conservation read from a record, round by round (P1.1–P4.3)."""
    all36 = {c + s for c in "RBGYKP" for s in "MQTSXO"}
    removed = set(rec["removed"])
    assert removed | set(rec["rounds"][0]["deck"]) == all36
    assert not removed & set(rec["rounds"][0]["deck"])
    prev_norm = None
    for r in rec["rounds"]:
        deck = r["deck"]
        assert len(deck) == len(set(deck))
        if prev_norm is not None:
            assert set(deck) == prev_norm                       # P4.3 the Norm is redealt
        dealt = [c for v in (r["foyers_dealt"] or {}).values() for c in v]
        dealt += [c for v in r["hands"].values() for c in v] + r["selection_start"]
        assert sorted(dealt) == sorted(deck)                    # the whole deck is dealt
        played = Counter()
        for t in r["turns"]:
            assert t["card"] in r["hands"][str(t["seat"])]
            played[t["seat"]] += 1
        for seat, hand in r["hands"].items():                   # hands empty at the control
            assert played[int(seat)] == len(hand)
        to_sel = [t["card"] for t in r["turns"] if t["to"] == "selection"]
        sel_cards = [c for s in r["selections"] for c in s["cards"]]
        assert sorted(sel_cards) == sorted(to_sel + r["selection_start"])
        kept = [c for s in r["selections"] for c in s["kept"]]
        assert sorted(kept) == sorted(r["norm"])
        prev_norm = set(r["norm"])


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_invariants_card_conservation(setup):
    """Conservation across hands, Selection, Norm, Foyers and removed cards, and empty
    hands at every control: (a) read from 100 records per setup; (b) checked by the
    kernel itself (check mode) after every decision and at every control, 2,000 games."""
    mode, level, n = setup
    cfg = ProtocoleConfig(mode, level, n)
    for rec in iter_records(cfg, ["random"], 100, 9):
        _conservation(rec)
    fns, params = policy_tuple(resolve(["random"], n))
    keys = chunk_game_keys(9, 1, 0, 2000)
    res = np.zeros((2000, L.RES_LEN), np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_batch(fns, cfg.to_array(check_obs=True), params, keys, res, diag)
    assert diag[E.D_CHECKED] > 10_000
    assert diag[E.D_INVARIANT] == 0


def test_invariant_check_can_fail():
    """The kernel's conservation check reports a card lost, a card in two places, and a
    card left in a hand at a control."""
    cfg = ProtocoleConfig("each", None, 2).to_array()
    st = np.zeros(L.ST_LEN, np.int64)
    st[L.S_ALIVE] = 0b11
    st[L.S_GONE] = L.FULL
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E._check_invariants(st, cfg, diag, True)
    assert diag[E.D_INVARIANT] == 0
    st[L.S_GONE] = L.FULL & ~1
    E._check_invariants(st, cfg, diag, False)          # RM nowhere
    st[L.S_HAND + 0] = 3                               # RM in hand, RQ also out
    E._check_invariants(st, cfg, diag, False)
    st[L.S_GONE] = L.FULL & ~3
    E._check_invariants(st, cfg, diag, True)           # hand not empty at a control
    assert diag[E.D_INVARIANT] == 3


def test_records_are_deterministic_and_seeded():
    cfg = ProtocoleConfig("coop", 2, 3)
    a = list(iter_records(cfg, ["convention"], 5, 8))
    b = list(iter_records(cfg, ["convention"], 5, 8))
    c = list(iter_records(cfg, ["convention"], 5, 9))
    assert a == b and a != c
    assert [r["seed"] for r in a] == [[8, 0, i] for i in range(5)]
    edge = list(iter_records(cfg, ["random"], 3, 8, first=CHUNK - 1))
    assert [r["seed"] for r in edge] == [[8, 0, CHUNK - 1], [8, 1, 0], [8, 1, 1]]


def test_record_and_simulation_play_the_same_games():
    cfg = ProtocoleConfig("each", None, 4)
    recs = list(iter_records(cfg, ["cautious"], 60, 3))
    fns, params = policy_tuple(resolve(["cautious"], 4))
    keys = chunk_game_keys(3, 0, 0, 60)
    res = np.zeros((60, L.RES_LEN), np.int64)
    E.play_batch(fns, cfg.to_array(), params, keys, res, np.zeros(E.DIAG_LEN, np.int64))
    for rec, row in zip(recs, res):
        assert len(rec["rounds"]) == row[L.R_ROUNDS]
        assert rec["rounds"][-1]["points"] == list(row[L.R_POINTS:L.R_POINTS + 4])
        assert rec["result"]["winners"] == [p for p in range(4) if (row[L.R_WINMASK] >> p) & 1]
        assert sum(len(r["turns"]) for r in rec["rounds"]) == row[L.R_TURNS]


def test_same_deals_across_policies_and_variants():
    """Common random numbers: setup removal and round 0's deck depend only on the game."""
    for n in (2, 3, 4):
        a = next(iter_records(ProtocoleConfig("each", None, n), ["cautious"], 1, 4))
        b = next(iter_records(ProtocoleConfig("each", None, n, {"standard_tie": "discard_all"}),
                              ["random"], 1, 4))
        c = next(iter_records(ProtocoleConfig("coop", 3, n), ["convention"], 1, 4))
        assert a["removed"] == b["removed"] == c["removed"]
        assert a["rounds"][0]["deck"] == b["rounds"][0]["deck"] == c["rounds"][0]["deck"]


def test_play_logged_matches_the_batch_kernel_and_check_mode_changes_nothing():
    cfg = ProtocoleConfig("coop", 3, 4)
    key = chunk_game_keys(2, 0, 5, 1)[0]
    ev1, res1, _ = play_logged(cfg, ["convention"], key)
    ev2, res2, diag = play_logged(cfg, ["convention"], key, check_obs=True)
    assert np.array_equal(ev1, ev2) and np.array_equal(res1, res2)
    assert diag[E.D_CHECKED] > 0 and diag[E.D_OBS_DIFF] == diag[E.D_DECISION_DIFF] == 0
