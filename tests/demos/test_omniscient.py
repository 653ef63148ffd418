"""The ``omniscient`` reference (sees every hidden card, exempt from M2) and its plumbing.

What is checked: the truth block is written for the reference seat only (every other
seat's block, and every seat's in an ordinary game, stays zero, so ordinary games are
unchanged: tests/runner/test_digests.py); the M2 check leaves reference seats out
(``C_CHECK_OBS`` = 1) and, when forced on them (2), finds that ``omniscient``'s decisions
move with the hidden cards — it does read them — while an ordinary policy's do not;
``deal_truth`` copies the true deal; determinism (and the inert budget); the refusal by
experiments/compare and their opt-in; the notes of simulate and tournament.
"""

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.demos import engine as E
from demos_sim.demos import layout as L
from demos_sim.demos.policies import available, get, resolve
from demos_sim.demos.policies.ismcts import (
    WDECK, WH, WND, WS_LEN, WSEC, deal_hands_truth, deal_truth,
)
from demos_sim.demos.positions import position
from demos_sim.demos.record import play_logged
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import chunk_game_keys, policy_tuple
from demos_sim.registry import reference_mask
from demos_sim.runner.experiment import loads_experiment
from demos_sim.sim_common import play_rows

TRUTH = slice(L.O_T_ON, L.OBS_LEN)      # the truth block is the observation's tail


def test_omniscient_is_a_registered_reference_and_the_others_are_not():
    assert "omniscient" in available()
    assert get("omniscient").reference == "omniscient"
    assert get("omniscient:noveto@8").reference == "omniscient"
    assert "REFERENCE, exempt from M2" in get("omniscient").description
    assert [n for n in available() if get(n).reference] == ["omniscient", "omniscient_hands"]
    assert "not the deck's order" in get("omniscient_hands").description
    assert reference_mask(resolve(["greedy", "omniscient", "heuristic", "omniscient"], 4)) == 0b1010


def _final_obs(specs, key, n=4, mode="individual"):
    config = DemosConfig("full", mode, n)
    pols = resolve(specs, n)
    cfg = config.to_array()
    cfg[L.C_TRUTH] = reference_mask(pols)
    fns, params = policy_tuple(pols)
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
    log = np.zeros(2, np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_game(fns, cfg, params, np.uint64(key), st, obs, np.zeros(L.MAXOPT, np.int64),
                np.zeros(L.NSTREAM, np.uint64), np.zeros(L.WK_LEN, np.int64), log, diag,
                np.zeros(L.RES_LEN, np.int64))
    return obs


def test_truth_block_is_written_for_the_reference_seat_only():
    key = chunk_game_keys(3, 0, 0, 1)[0]
    obs = _final_obs(["greedy", "omniscient", "heuristic", "greedy"], key)
    assert obs[1, L.O_T_ON] == 1 and obs[1, L.O_T_DECK_N] >= 0
    for seat in (0, 2, 3, 4):
        assert not obs[seat, TRUTH].any(), seat
    plain = _final_obs(["greedy", "ismcts@2", "heuristic", "greedy"], key)
    assert not plain[:, TRUTH].any()         # an ordinary game: the block stays zero


def test_deal_truth_copies_the_true_deal():
    """On a hand-set unanimous turn: the hands, secret discards and deck the reference
    searches are exactly the state's (D3.3 secret discards face down included)."""
    pos = position(hand="7S 8S 9S 2H 5D", kind="secret", seat=0,
                   public={1: "3C", 2: "4D", 3: "1H", 0: "10S"},
                   secret={1: ("6D", "4D"), 2: "pass", 3: "5C"})
    cfg = pos.cfg.copy()
    cfg[L.C_TRUTH] = 1                      # seat 0 is a reference seat
    from demos_sim.demos.observe import observe
    obs = pos.obs.copy()
    observe(pos.st, cfg, 0, pos.kind, obs)
    assert np.array_equal(obs[:L.O_T_ON], pos.obs[:L.O_T_ON])  # the M2 part is unchanged
    ws = np.zeros(WS_LEN, np.int64)
    nd = deal_truth(cfg, obs, ws)
    st = pos.st
    for p in range(4):
        assert ws[WH + p] == st[L.S_HAND + p]
        want = st[L.S_SEC + p] if st[L.S_SEC_TAKE + p] >= 0 else -1
        assert ws[WSEC + p] == want
    pos0 = st[L.S_DECK_POS]
    assert nd == ws[WND] == st[L.S_DECK_LEN] - pos0 == pos.obs[L.O_DECK_LEFT]
    assert list(ws[WDECK:WDECK + nd]) == list(st[L.S_DECK + pos0:L.S_DECK + pos0 + nd])
    assert ws[WSEC + 1] == st[L.S_SEC + 1] and ws[WSEC + 1] >= 0   # seat 1's face-down 6D


def test_deal_hands_truth_keeps_the_hands_and_shuffles_the_deck():
    """``omniscient_hands``: the true hands and face-down secret discards (D3.3), the
    People deck's true cards in a fresh order each time (its order stays unknown)."""
    pos = position(hand="7S 8S 9S 2H 5D", kind="secret", seat=0,
                   public={1: "3C", 2: "4D", 3: "1H", 0: "10S"},
                   secret={1: ("6D", "4D"), 2: "pass", 3: "5C"})
    cfg = pos.cfg.copy()
    cfg[L.C_TRUTH] = 1
    from demos_sim.demos.observe import observe
    obs = pos.obs.copy()
    observe(pos.st, cfg, 0, pos.kind, obs)
    true = np.zeros(WS_LEN, np.int64)
    nd = deal_truth(cfg, obs, true)
    rng = np.array([5], np.uint64)
    orders = set()
    for _ in range(20):
        ws = np.zeros(WS_LEN, np.int64)
        assert deal_hands_truth(cfg, obs, ws, rng) == nd == ws[WND]
        assert np.array_equal(ws[WH:WH + L.MAXP], true[WH:WH + L.MAXP])
        assert np.array_equal(ws[WSEC:WSEC + L.MAXP], true[WSEC:WSEC + L.MAXP])
        deck = list(ws[WDECK:WDECK + nd])
        assert sorted(deck) == sorted(true[WDECK:WDECK + nd])
        orders.add(tuple(deck))
    assert nd > 10 and len(orders) == 20          # a new order every time


def test_reference_seats_are_left_out_of_the_M2_check():
    config = DemosConfig("full", "individual", 4)
    keys = chunk_game_keys(21, 0, 0, 3)
    mixed = alone = 0
    for key in keys:
        _, _, d = play_logged(config, ["omniscient", "heuristic", "greedy", "heuristic"], key,
                              check_obs=1)
        assert d[E.D_OBS_DIFF] == 0 and d[E.D_DECISION_DIFF] == 0
        mixed += d[E.D_CHECKED]
        _, _, d = play_logged(config, ["omniscient"], key, check_obs=1)
        alone += d[E.D_CHECKED]
    assert mixed > 100          # the ordinary seats are still checked …
    assert alone == 0           # … the reference seats are not


@pytest.mark.parametrize("ref, mode, n", [("omniscient", "individual", 4),
                                          ("omniscient", "2v2", 4),
                                          ("omniscient_hands@4", "individual", 4)])
def test_omniscient_does_read_hidden_cards(ref, mode, n):
    """The M2 check forced on reference seats (C_CHECK_OBS = 2): the truth block moves
    when the hidden cards are reshuffled, and so do omniscient's decisions (it draws no
    chance of its own in the searched decisions, so a moved decision is the hidden
    cards'). The same forced check on ismcts finds nothing: 2 only adds reference seats."""
    config = DemosConfig("full", mode, n)
    obs_diff = dec_diff = checked = 0
    for key in chunk_game_keys(8, 0, 0, 4):
        _, _, d = play_logged(config, [ref], key, check_obs=2)
        obs_diff += d[E.D_OBS_DIFF]
        dec_diff += d[E.D_DECISION_DIFF]
        checked += d[E.D_CHECKED]
        _, _, c = play_logged(config, ["ismcts@4"], key, check_obs=2)
        assert c[E.D_OBS_DIFF] == 0 and c[E.D_DECISION_DIFF] == 0 and c[E.D_CHECKED] > 0
    assert checked > 100
    assert obs_diff > 0.5 * checked          # nearly every decision sees hidden cards
    assert dec_diff > 0.05 * checked, (dec_diff, checked)


def test_same_seed_same_games_and_the_budget_changes_nothing():
    """Deterministic; and with the true deal every iteration is the same game (the
    rollouts draw no chance), so the search does one: @1 and @64 play the same games."""
    config = DemosConfig("full", "individual", 4)
    key = chunk_game_keys(13, 0, 0, 1)[0]
    a = play_logged(config, ["omniscient", "heuristic", "ismcts@4", "greedy"], key)[0]
    b = play_logged(config, ["omniscient", "heuristic", "ismcts@4", "greedy"], key)[0]
    assert np.array_equal(a, b)
    c = play_logged(config, ["omniscient@1", "heuristic", "ismcts@4", "greedy"], key)[0]
    assert np.array_equal(a, c)
    d = play_logged(config, ["ismcts@1", "heuristic", "ismcts@4", "greedy"], key)[0]
    assert not np.array_equal(a, d)          # and it is not ismcts


def test_omniscient_hands_is_deterministic_and_its_budget_counts():
    """Same seed, same games; the deck's order is sampled, so unlike ``omniscient`` the
    budget changes its play; and it plays neither as ``omniscient`` nor as ``ismcts``."""
    config = DemosConfig("full", "individual", 4)
    key = chunk_game_keys(13, 0, 0, 1)[0]
    rest = ["heuristic", "ismcts@4", "greedy"]
    a = play_logged(config, ["omniscient_hands@8"] + rest, key)[0]
    assert np.array_equal(a, play_logged(config, ["omniscient_hands@8"] + rest, key)[0])
    for other in ("omniscient_hands@1", "omniscient", "ismcts@8"):
        assert not np.array_equal(a, play_logged(config, [other] + rest, key)[0]), other


def test_a_game_without_a_truth_block_refuses_a_reference():
    with pytest.raises(ConfigError, match="truth block"):
        play_rows(None, np.zeros(L.CFG_LEN, np.int64), lambda: resolve(["omniscient"], 4),
                  L.MAXP, L.RES_LEN, E.DIAG_LEN, 0, 0, 1)


# ------------------------------------------------------------------ refused unless asked
EXP = 'name = "x"\ngame = "demos"\nplayers = 4\ngames = 10\nseed = 1\npolicies = {pols}\n{extra}'


def test_experiments_refuse_a_reference_unless_allowed():
    with pytest.raises(ConfigError) as e:
        loads_experiment(EXP.format(pols='["omniscient", "greedy", "greedy", "greedy"]',
                                    extra=""), "x.toml")
    msg = str(e.value)
    assert "omniscient is a reference policy" in msg and "allow_reference = true" in msg
    assert "\n" not in msg
    with pytest.raises(ConfigError, match="reference policy"):   # in a swept grid too
        loads_experiment(EXP.format(pols='"greedy"', extra="")
                         .replace('policies = "greedy"\n', "")
                         + '[grid]\npolicies = [["greedy"], ["omniscient@8"]]\n', "x.toml")
    exp = loads_experiment(EXP.format(pols='["omniscient", "greedy", "greedy", "greedy"]',
                                      extra="allow_reference = true\n"), "x.toml")
    assert exp.points[0].policies[0] == "omniscient"
    with pytest.raises(ConfigError, match="allow_reference: must be true or false"):
        loads_experiment(EXP.format(pols='"greedy"', extra='allow_reference = "yes"\n'),
                         "x.toml")


def test_compare_refuses_a_reference_unless_allowed():
    from demos_sim.analysis.core.whatif import plan

    with pytest.raises(ConfigError, match="--allow-reference"):
        plan("demos", {}, 4, {"max_rounds": 5}, policies=["omniscient"])
    p = plan("demos", {}, 4, {"max_rounds": 5}, policies=["omniscient"], games=10,
             allow_reference=True)
    assert p.experiment.points[1].policies[0] == "omniscient"


def test_simulate_and_tournament_say_it_is_a_reference(capsys):
    from demos_sim.cli import main
    from demos_sim.tournament import make_config, run_tournament

    assert main(["simulate", "--policies", "omniscient,greedy,greedy,greedy",
                 "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "note: omniscient is a reference policy" in out
    assert main(["simulate", "--policies", "greedy", "--games", "4"]) == 0
    assert "reference" not in capsys.readouterr().out
    text = run_tournament("demos", make_config("demos", 4), ["omniscient", "greedy"], 2, 0)
    assert "note: omniscient is a reference policy" in text
    assert main(["policies"]) == 0
    assert "REFERENCE, exempt from M2" in capsys.readouterr().out


def test_truth_split_references_read_the_hands_only_where_they_say():
    """experiments/plugins/truth_split.py: ``omniscient_veto`` reads the hidden cards at
    the veto check (D3.4.1) only — without a veto (``:noveto``) nothing it decides moves
    when they are reshuffled —, ``omniscient_discards`` at the discard turns."""
    import runpy
    from pathlib import Path

    from demos_sim.demos.policies import REGISTRY

    runpy.run_path(str(Path(__file__).resolve().parents[2] / "experiments" / "plugins"
                       / "truth_split.py"))
    try:
        _truth_split_checks()
    finally:                      # the other tests see the built-in registry only
        REGISTRY.unregister("omniscient_veto")
        REGISTRY.unregister("omniscient_discards")


def _truth_split_checks():
    assert get("omniscient_veto").reference == get("omniscient_discards").reference
    config = DemosConfig("full", "individual", 4)
    moved = {}
    for spec in ("omniscient_veto@8", "omniscient_veto:noveto@8", "omniscient_discards@8"):
        dec = checked = 0
        for key in chunk_game_keys(8, 0, 0, 4):
            _, _, d = play_logged(config, [spec], key, check_obs=2)
            dec += d[E.D_DECISION_DIFF]
            checked += d[E.D_CHECKED]
        assert checked > 100
        moved[spec] = dec
    assert moved["omniscient_veto:noveto@8"] == 0
    assert moved["omniscient_veto@8"] > 0
    assert moved["omniscient_discards@8"] > moved["omniscient_veto@8"]
