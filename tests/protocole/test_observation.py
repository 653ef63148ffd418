"""M2 / P5.1: Protocole policies decide from their seat's observation only.

The engine's check mode (cfg[C_CHECK_OBS]) replays every decision on a copy of the
state in which everything the deciding seat cannot see — other players' hands and
Foyers, eliminated players' Foyers — has been reshuffled (observe.scramble_hidden): the
observation must be identical and the policy's answer the same. Run for every
registered policy, in both modes, every level and player count, with variants.
"""

import numpy as np
import pytest

from demos_sim.protocole import engine as E
from demos_sim.protocole import layout as L
from demos_sim.protocole.observe import observe, scramble_hidden
from demos_sim.protocole.policies import available, get
from demos_sim.protocole.record import play_logged
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.sim_common import chunk_game_keys

SETUPS = [("each", None, {}), ("each", None, {"standard_tie": "discard_all"}),
          ("coop", 1, {}), ("coop", 2, {}), ("coop", 3, {"reinforced_scope": "team"}),
          ("each", None, {"majority_scope": "per_dimension"}),                       # P3.1a
          ("coop", 2, {"majority_scope": "per_dimension"})]


def _policy_names():
    names = [n for n in available() if not get(n).reference]   # omniscient: exempt, by design
    return names + [f"{n}:{f}" for n in names for f in get(n).flags]


@pytest.mark.parametrize("policy", _policy_names())
def test_M2_decisions_ignore_hidden_cards(policy):
    checked = 0
    for mode, level, variants in SETUPS:
        for n in (2, 3, 4):
            cfg = ProtocoleConfig(mode, level, n, variants)
            for key in chunk_game_keys(99, 0, 0, 8):
                _, _, diag = play_logged(cfg, [policy], key, check_obs=True)
                assert diag[E.D_OBS_DIFF] == 0, (mode, level, n, "observation leaks hidden state")
                assert diag[E.D_DECISION_DIFF] == 0, (mode, level, n, "decision moved")
                assert diag[E.D_INVARIANT] == 0
                checked += diag[E.D_CHECKED]
    assert checked > 1000  # the check really ran on many decisions


def _mid_round_state():
    """A real 4-player position: round 0 dealt, 9 turns played by ``random``."""
    from demos_sim.protocole.policies import resolve
    from demos_sim.protocole.sim import policy_tuple

    cfg = ProtocoleConfig("each", None, 4)
    arr = cfg.to_array()
    fns, params = policy_tuple(resolve(["random"], 4))
    st = np.zeros(L.ST_LEN, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    srng = np.zeros(1, np.uint64)
    res = np.zeros(L.RES_LEN, np.int64)
    log = np.zeros(2, np.int64)
    E.init_state(arr, np.uint64(7), st, prng, srng, res)
    E._setup(st, arr, prng, log)
    E.deal(st, arr, 2, log)
    # play 9 turns by hand: each seat in turn puts its lowest card into the Selection
    for t in range(9):
        p = t % 4
        c = int(st[L.S_HAND + p]) & -int(st[L.S_HAND + p])
        st[L.S_HAND + p] &= ~c
        st[L.S_SEL] |= c
        st[L.S_PLAYED + p] |= c
        if bin(int(st[L.S_SEL])).count("1") == 5:
            E._norm_selection(st, arr, log)
    return arr, st


def test_M2_scramble_moves_hidden_cards_but_not_the_observation():
    """The test above can fail: scrambling really changes what the seat cannot see
    (others' hands and Foyers), never its own cards or anything public."""
    arr, st = _mid_round_state()
    rng = np.array([np.uint64(3)], np.uint64)
    moved_hand = moved_foyer = 0
    for seat in range(4):
        a = np.zeros(L.OBS_LEN, np.int64)
        observe(st, arr, seat, L.K_PLAY, a)
        for _ in range(20):
            st2 = st.copy()
            scramble_hidden(st2, arr, seat, L.K_PLAY, rng, np.zeros(L.SCRAMBLE_LEN, np.int64))
            b = np.zeros(L.OBS_LEN, np.int64)
            observe(st2, arr, seat, L.K_PLAY, b)
            assert np.array_equal(a, b)
            others = [p for p in range(4) if p != seat]
            moved_hand += any(st[L.S_HAND + p] != st2[L.S_HAND + p] for p in others)
            moved_foyer += any(st[L.S_FOYER + p] != st2[L.S_FOYER + p] for p in others)
            assert st2[L.S_HAND + seat] == st[L.S_HAND + seat]
            assert st2[L.S_FOYER + seat] == st[L.S_FOYER + seat]
            for off in (L.S_SEL, L.S_NORM, L.S_GONE, L.S_REMOVED):
                assert st2[off] == st[off]
    assert moved_hand > 0 and moved_foyer > 0


def test_M2_observation_shows_no_other_hand_or_foyer():
    """The observation changes when a seat's own cards change, not when another seat's
    hidden cards are swapped between that seat's hand and Foyer."""
    arr, st = _mid_round_state()
    a = np.zeros(L.OBS_LEN, np.int64)
    b = np.zeros(L.OBS_LEN, np.int64)
    observe(st, arr, 0, L.K_PLAY, a)
    st2 = st.copy()
    h = int(st2[L.S_HAND + 1])
    f = int(st2[L.S_FOYER + 1])
    hc, fc = h & -h, f & -f
    st2[L.S_HAND + 1] = (h & ~hc) | fc
    st2[L.S_FOYER + 1] = (f & ~fc) | hc
    observe(st2, arr, 0, L.K_PLAY, b)
    assert np.array_equal(a, b)
    observe(st2, arr, 1, L.K_PLAY, b)
    c = np.zeros(L.OBS_LEN, np.int64)
    observe(st, arr, 1, L.K_PLAY, c)
    assert not np.array_equal(b, c)
