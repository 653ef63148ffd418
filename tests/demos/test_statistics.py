"""The DĒMOS kernel's game statistics (layout ``R_*`` columns behind the analyses).

Invariants over whole games of every setup, exact links between columns, hand-made
election cases for the ``decided`` code, and the ratio interval on a hand-computed input.
"""

import math

import numpy as np
import pytest

from demos_sim.runner.intervals import Z95, ratio_ci
from demos_sim.demos import layout as L
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import play_chunk

SETUPS = [("full", "individual", 3), ("full", "individual", 4), ("full", "individual", 5),
          ("simplified", "individual", 4), ("full", "2v2", 4), ("full", "2v3", 5),
          ("full", "2v2+1", 5)]


@pytest.fixture(scope="module", params=SETUPS, ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def games(request):
    rules, mode, n = request.param
    cfg = DemosConfig(rules=rules, mode=mode, players=n, seating=None, variants={})
    res = play_chunk(cfg.to_array(stats=True), ["greedy"] * n, 11, n, 0, 600)
    return cfg, res


def test_veto_columns_add_up(games):
    cfg, res = games
    used = res[:, L.R_VETOES_USED]
    assert (res[:, L.R_VETO_SIDE:L.R_VETO_SIDE + L.MAXP].sum(1) == used).all()
    assert (res[:, L.R_VETO_RND:L.R_VETO_RND + L.NVB].sum(1) == used).all()
    # D3.4.1 / D9.3: a side never uses more vetoes than it holds
    for s, v in enumerate(cfg.to_array()[L.C_SIDE_VETOES:L.C_SIDE_VETOES + L.MAXP]):
        assert (res[:, L.R_VETO_SIDE + s] <= v).all()
    # every round is either vetoed or plays the unanimous turn (full rules only)
    if cfg.rules == "full":
        assert (res[:, L.R_UNAN] + used == res[:, L.R_ROUNDS]).all()
    else:
        assert (res[:, L.R_UNAN] == 0).all() and (used == 0).all()


def test_round_win_columns(games):
    cfg, res = games
    wins = res[:, L.R_WINKIND:L.R_WINKIND + 4]
    won_rounds = res[:, L.R_ROUNDS] - res[:, L.R_NOWIN_ROUNDS]
    # a won round has at least one winning player, at most N
    assert (wins.sum(1) >= won_rounds).all()
    assert (wins.sum(1) <= cfg.players * won_rounds).all()
    if cfg.rules == "simplified":
        assert (wins[:, 0] == 0).all()       # D8: no Carré
    # D4.5: a Carré win draws 2 figures; the pile holds 14 (full) or 12
    pile = 14 if cfg.rules == "full" else 12
    assert (wins[:, 0] <= pile).all()


def test_media_columns(games):
    cfg, res = games
    n = cfg.players
    media = res[:, L.R_MEDIA:L.R_MEDIA + n]
    if cfg.rules == "simplified":
        assert (media == 0).all()
        return
    assert (media.sum(1) <= 2).all()
    assert ((media == 2).any(1) | (res[:, L.R_MEDIA_CANCEL] == 0)).all()
    actions = (res[:, L.R_ACT_MATE:L.R_ACT_MATE + n] + res[:, L.R_ACT_OPP:L.R_ACT_OPP + n])
    assert (res[:, L.R_TARGETED:L.R_TARGETED + n].sum(1) == actions.sum(1)).all()
    # D6.2: at most one action per Media, and only by its holders
    assert (actions <= media).all()
    if cfg.mode == "individual":
        assert (res[:, L.R_ACT_MATE:L.R_ACT_MATE + n] == 0).all()   # no teammates


def test_decided_codes_match_the_result(games):
    cfg, res = games
    dec = res[:, L.R_DECIDED]
    nwin = res[:, L.R_NWIN]
    assert ((dec == L.DEC_NONE) == (nwin == 0)).all()
    assert ((dec == L.DEC_SHARED) <= (nwin > 1)).all()
    team_priority = np.isin(dec, [L.DEC_P1, L.DEC_P2, L.DEC_P3])
    assert (team_priority == ((cfg.mode == "2v2+1") & (nwin > 0))).all()
    if cfg.mode == "2v2+1":
        # step 2 wins exactly when one of the Independent's conditions holds
        reached = res[:, L.R_IND_COND] > 0
        assert ((dec == L.DEC_P2) <= reached).all()
        sides = cfg.side_labels()
        assert (res[dec == L.DEC_P2, L.R_WINSIDES] == 1 << sides.index("I")).all()
    harm = res[:, L.R_WIN_HARM]
    assert ((harm == -1) == (nwin == 0)).all()
    assert ((dec == L.DEC_P1) <= (harm == 3)).all()


def test_unanimous_turn_statistics(games):
    cfg, res = games
    un = res[:, L.R_UNAN]
    assert (res[:, L.R_UNAN_FLIP] <= un).all()
    assert ((un > 0) | (res[:, L.R_UNAN_DELTA] == 0)).all()


def test_ratio_ci_hand_computed():
    # x = (2, 0, 1, 3), y = (1, 1, 1, 2): R = 6/5
    x, y = np.array([2, 0, 1, 3]), np.array([1, 1, 1, 2])
    e = ratio_ci(x.sum(), (x * x).sum(), y.sum(), (y * y).sum(), (x * y).sum(), 4)
    r = 6 / 5
    vx, vy = np.var(x, ddof=1), np.var(y, ddof=1)
    cxy = np.cov(x, y, ddof=1)[0, 1]
    se = math.sqrt((vx - 2 * r * cxy + r * r * vy) / (4 * y.mean() ** 2))
    assert e.mean == pytest.approx(r)
    assert e.half_width == pytest.approx(Z95 * se)
    # the interval of a constant ratio has zero width
    e = ratio_ci(6, 12, 3, 3, 6, 3)        # x = 2 y with y = 1
    assert e.mean == 2 and e.half_width == pytest.approx(0)
    # scale: win shares stored ×60
    e2 = ratio_ci(60 * x.sum(), 3600 * (x * x).sum(), y.sum(), (y * y).sum(),
                  60 * (x * y).sum(), 4, scale=60)
    assert e2.mean == pytest.approx(r) and e2.half_width == pytest.approx(Z95 * se)


def test_statistics_flag_changes_no_game():
    """C_STATS only adds the unanimous-turn search: same deals, same games, same results;
    without it the two columns it feeds stay 0."""
    cfg = DemosConfig(rules="full", mode="individual", players=4, seating=None, variants={})
    with_s = play_chunk(cfg.to_array(stats=True), ["greedy"] * 4, 5, 4, 0, 300)
    without = play_chunk(cfg.to_array(), ["greedy"] * 4, 5, 4, 0, 300)
    cols = [L.R_UNAN_DELTA, L.R_UNAN_FLIP]
    keep = [c for c in range(L.RES_LEN) if c not in cols]
    assert (with_s[:, keep] == without[:, keep]).all()
    assert (without[:, cols] == 0).all() and (with_s[:, L.R_UNAN_FLIP] > 0).any()
