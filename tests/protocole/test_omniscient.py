"""Protocole ``omniscient`` (reads every hand, exempt from M2) and its truth block.

The truth block is written for reference seats only, and the observation row, which the
seats share, is cleared for the others (else the ordinary seats' M2 check would find
the block: it rebuilds their rows with it zero); the M2 check leaves reference seats
out, and when forced on them (``C_CHECK_OBS`` = 2) finds that omniscient's decisions
move with the hidden hands; determinism.
"""

import numpy as np
import pytest

from demos_sim.protocole import engine as E
from demos_sim.protocole.policies import available, get
from demos_sim.protocole.record import play_logged
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.sim_common import chunk_game_keys

SETUPS = [("each", None, 4), ("each", None, 3), ("coop", 2, 3), ("coop", 3, 4)]


def test_omniscient_is_the_only_reference():
    assert [n for n in available() if get(n).reference] == ["omniscient"]
    assert "REFERENCE, exempt from M2" in get("omniscient").description


@pytest.mark.parametrize("mode, level, n", SETUPS)
def test_reference_seats_are_left_out_and_the_others_still_checked(mode, level, n):
    cfg = ProtocoleConfig(mode, level, n, {})
    mixed = alone = 0
    for key in chunk_game_keys(31, 0, 0, 6):
        specs = ["omniscient"] + ["planner"] * (n - 1)
        _, _, d = play_logged(cfg, specs, key, check_obs=1)
        assert d[E.D_OBS_DIFF] == 0 and d[E.D_DECISION_DIFF] == 0, "truth block leaked"
        mixed += d[E.D_CHECKED]
        _, _, d = play_logged(cfg, ["omniscient"], key, check_obs=1)
        alone += d[E.D_CHECKED]
    assert mixed > 50 and alone == 0


@pytest.mark.parametrize("mode, level, n", SETUPS)
def test_omniscient_does_read_the_hands(mode, level, n):
    """Forced M2 check (2): the block moves with the hidden hands, and so do some
    decisions (planner draws no chance, so a moved decision is the hands'); planner
    under the same forced check moves nothing."""
    cfg = ProtocoleConfig(mode, level, n, {})
    obs_diff = dec_diff = checked = 0
    for key in chunk_game_keys(32, 0, 0, 12):
        _, _, d = play_logged(cfg, ["omniscient"], key, check_obs=2)
        obs_diff += d[E.D_OBS_DIFF]
        dec_diff += d[E.D_DECISION_DIFF]
        checked += d[E.D_CHECKED]
        _, _, c = play_logged(cfg, ["planner"], key, check_obs=2)
        assert c[E.D_OBS_DIFF] == 0 and c[E.D_DECISION_DIFF] == 0
    assert checked > 50 and obs_diff > 0.5 * checked
    assert dec_diff > 0, (dec_diff, checked)


def test_same_seed_same_games():
    cfg = ProtocoleConfig("coop", 2, 3, {})
    key = chunk_game_keys(33, 0, 0, 1)[0]
    a = play_logged(cfg, ["omniscient"], key)[0]
    assert np.array_equal(a, play_logged(cfg, ["omniscient"], key)[0])
