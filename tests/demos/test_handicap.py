"""The trial handicaps (demos_sim.demos.rules.TRIAL_RULES): not rules of contract 2, so
every check here is against their one-line definitions — ``handicap_points``: every member
of the smaller side (2v3: the team of two; 2v2+1: the Independent) starts with that many
cumulative points, which then count wherever the rules compare points (D7.3, D9.5, D9.6);
``handicap_vetoes``: the smaller side holds that many vetoes more (D9.3).
"""

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.demos import layout as L
from demos_sim.demos.record import iter_records, play_logged, write_records
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import chunk_game_keys, play_chunk

GAMES = 400


def _rows(cfg: DemosConfig, policies, seed=5, count=GAMES):
    return play_chunk(cfg.to_array(stats=True), policies, seed, cfg.players, 0, count)


@pytest.mark.parametrize("mode, seating, h, start", [
    ("2v3", "ABABB", 7, [7, 0, 7, 0, 0]),
    ("2v3", "BBAAB", 7, [0, 0, 7, 7, 0]),        # the team of two is A wherever it sits
    ("2v3", "ABBBA", 0, [0, 0, 0, 0, 0]),
    ("2v2+1", "ABABI", 30, [0, 0, 0, 0, 30]),
    ("2v2+1", "IABAB", 30, [30, 0, 0, 0, 0]),
])
def test_start_points_by_seat(mode, seating, h, start):
    cfg = DemosConfig("full", mode, 5, seating=seating, handicap_points=h)
    assert cfg.start_points() == start
    a = cfg.to_array()
    assert list(a[L.C_START_CUM:L.C_START_CUM + 5]) == start


@pytest.mark.parametrize("kwargs, words", [
    (dict(mode="2v2", players=4, handicap_points=5), r"applies to 2v3 and 2v2\+1"),
    (dict(mode="individual", players=4, handicap_points=5), r"applies to 2v3 and 2v2\+1"),
    (dict(mode="2v3", players=5, handicap_points=-1), "an integer from 0 to 1000000"),
    (dict(mode="2v3", players=5, handicap_points=2.5), "an integer from 0 to 1000000"),
    (dict(mode="2v3", players=5, handicap_points=True), "an integer from 0 to 1000000"),
    (dict(mode="2v2", players=4, handicap_vetoes=1), r"handicap_vetoes applies to 2v3"),
    (dict(mode="2v2+1", players=5, handicap_vetoes=-2), "an integer from 0 to 1000000"),
])
def test_bad_handicap_is_refused_in_one_line(kwargs, words):
    with pytest.raises(ConfigError, match=words) as e:
        DemosConfig("full", **kwargs)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("mode", ["2v3", "2v2+1"])
def test_points_start_above_zero_and_rounds_add_to_them(mode):
    """D4.7 with the handicap: ``random`` players decide from their random stream only,
    so the games are the same with and without it, and every seat's final points differ
    by exactly its start points."""
    base = DemosConfig("full", mode, 5)
    hand = base.replace(handicap_points=25)
    r0, r1 = _rows(base, ["random"]), _rows(hand, ["random"])
    cum0 = r0[:, L.R_CUM:L.R_CUM + 5]
    cum1 = r1[:, L.R_CUM:L.R_CUM + 5]
    assert (cum1 - cum0 == np.array(hand.start_points())).all()
    assert (r0[:, L.R_ROUNDS] == r1[:, L.R_ROUNDS]).all()


def test_an_overwhelming_handicap_gives_the_independent_every_step_2():
    """D9.6: with 10,000 points the Independent strictly has the most points of all, so
    every game that step 1 does not decide is his at step 2a: none reaches step 3 or ends
    without a winner, and every game decided at step 2 is won by him alone."""
    cfg = DemosConfig("full", "2v2+1", 5, handicap_points=10_000)
    r = _rows(cfg, ["greedy"])
    dec = r[:, L.R_DECIDED]
    assert not np.isin(dec, [L.DEC_P3, L.DEC_NONE]).any()
    i_side = cfg.side_labels().index("I")
    step2 = dec == L.DEC_P2
    assert step2.sum() > 50                         # about 30% of games without a 3-colour trio
    assert (r[step2, L.R_WINSIDES] == 1 << i_side).all()
    # without the handicap some games do reach step 3 on the same deals
    r0 = _rows(cfg.replace(handicap_points=0), ["greedy"])
    assert (r0[:, L.R_DECIDED] == L.DEC_P3).sum() > 0


def test_an_overwhelming_handicap_wins_every_harmony_tie_for_the_team_of_two():
    """D9.5 (team_points_tiebreak = max): a harmony tie between the sides goes to the side
    whose top member has the most points, so with 10,000 points the team of two wins every
    tie (decided by points, never shared); its share is at least what it was without."""
    cfg = DemosConfig("full", "2v3", 5, handicap_points=10_000)
    r = _rows(cfg, ["greedy"])
    dec = r[:, L.R_DECIDED]
    a = 1 << cfg.side_labels().index("A")
    ties = dec == L.DEC_POINTS
    assert ties.sum() > 20
    assert (r[ties, L.R_WINSIDES] == a).all()
    assert not (dec == L.DEC_SHARED).any()
    r0 = _rows(cfg.replace(handicap_points=0), ["greedy"])
    assert ((r0[:, L.R_DECIDED] == L.DEC_POINTS) & (r0[:, L.R_WINSIDES] != a)).any()


@pytest.mark.parametrize("policies", [["greedy"], ["heuristic"], ["tuned"]])
def test_bots_see_only_their_observation_under_the_handicap(policies):
    """M2: the engine's observation check (every decision replayed on a scrambled hidden
    state) passes with start points (public, like every cumulative point)."""
    cfg = DemosConfig("full", "2v2+1", 5, handicap_points=40)
    for key in chunk_game_keys(9, 0, 0, 6):
        play_logged(cfg, policies, int(key), check_obs=1)


@pytest.mark.parametrize("rule", ["handicap_points", "handicap_vetoes"])
def test_game_records_refuse_the_trial_rule(tmp_path, rule):
    cfg = DemosConfig("full", "2v3", 5, **{rule: 1})
    with pytest.raises(ConfigError, match=f"{rule}=1 is a trial rule outside contract 2"):
        next(iter_records(cfg, ["greedy"], 1, 0))
    out = tmp_path / "r.jsonl"
    with pytest.raises(ConfigError, match="outside contract 2"):
        write_records(out, cfg, ["greedy"], 2, 0)
    assert not out.exists()                      # nothing partial left behind


@pytest.mark.parametrize("mode, h, vetoes", [
    ("2v2+1", 0, [1, 1, 1]), ("2v2+1", 2, [1, 1, 3]),
    ("2v3", 0, [2, 1]), ("2v3", 1, [3, 1]),
])
def test_extra_vetoes_by_side(mode, h, vetoes):
    """handicap_vetoes: the smaller side holds h vetoes more than D9.3 gives it (2v3: on
    top of team_vetoes); sides in label order (A, B, I)."""
    cfg = DemosConfig("full", mode, 5, handicap_vetoes=h)
    assert cfg.side_vetoes() == vetoes
    a = cfg.to_array()
    assert list(a[L.C_SIDE_VETOES:L.C_SIDE_VETOES + len(vetoes)]) == vetoes


def test_the_independent_uses_his_extra_vetoes():
    """D3.4.1 with the handicap: heuristic Independents veto more than once a game when they
    hold three vetoes, never more than three, and never more than once without it."""
    cfg = DemosConfig("full", "2v2+1", 5, handicap_vetoes=2)
    i = cfg.side_labels().index("I")
    used = _rows(cfg, ["heuristic"])[:, L.R_VETO_SIDE + i]
    assert used.max() <= 3 and (used >= 2).sum() > 0
    base = _rows(cfg.replace(handicap_vetoes=0), ["heuristic"])[:, L.R_VETO_SIDE + i]
    assert base.max() <= 1
