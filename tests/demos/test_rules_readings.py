"""Hand-made tests of the readings that contract 2 made switches (RULES.md D9.2, D9.5,
D9.6, X2): ``team_trio``, ``team_talk``, ``p3_points_tiebreak`` and ``announced_trio``.

Each test sets a table by hand (tests/harness.py) and runs the engine's own election
(``_election``); every expected winner is worked out from the rule text in the
docstring. Figure codes: type (E, L, J) then colour (S ♠, H ♥, D ♦, C ♣).
"""

import numpy as np
import pytest
from harness import Table

from demos_sim import ConfigError
from demos_sim.demos import layout as L
from demos_sim.demos.engine import DIAG_LEN, play_batch
from demos_sim.demos.observe import observe, scramble_hidden
from demos_sim.demos.policies import resolve
from demos_sim.demos.record import iter_records
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import chunk_game_keys, policy_tuple


def cfg(mode="individual", players=None, **variants):
    players = players or {"individual": 4, "2v2": 4, "2v3": 5, "2v2+1": 5}[mode]
    return DemosConfig(mode=mode, players=players, variants=variants)


def elect(config, figures, cum, covers=None, announced=None):
    t = Table(config, policies=("random",), figures=figures, cum=cum, covers=covers,
              announced=announced)
    t.election()
    return t


# ================================================================== D9.5 team_trio
def test_D9_5_pooled_trio_exists_only_across_two_members():
    """2v2 ABAB. A: seat 0 holds ES LH, seat 2 holds JD — neither member has a trio of
    his own, but pooled the side has E♠ L♥ J♦ (3 colours). B: seat 1 holds EC LC JC (1
    colour). ``best_member``: A has no trio, B wins. ``pooled``: A's 3 colours beat B's 1."""
    figs = {0: ["ES", "LH"], 2: ["JD"], 1: ["EC", "LC", "JC"]}
    cum = [10, 10, 10, 10]
    t = elect(cfg("2v2"), figs, cum)
    assert t.result() == (["B"], [1, 3])
    t = elect(cfg("2v2", team_trio="pooled"), figs, cum)
    assert t.result() == (["A"], [0, 2])
    assert t.side_trio("A") == (["ES", "LH", "JD"], "SHD", 3)
    assert t.side_trio("B") == (["EC", "LC", "JC"], "CCC", 1)
    assert t.trio(0) == (None, 0)          # the members' own trios are unchanged (D7.1)


def test_D9_5_pooled_two_covered_figures_of_one_type_leave_no_trio():
    """2v2. A: seat 0 ES LH JD with ES covered ♠, seat 2 EH LS JC with EH covered ♥; each
    member alone has a 3-colour trio, but pooled the side must contain both covered E
    figures: no trio. B: seat 1 ED LD JS (2 colours). ``best_member`` → A (3 > 2);
    ``pooled`` → B (A has none)."""
    figs = {0: ["ES", "LH", "JD"], 2: ["EH", "LS", "JC"], 1: ["ED", "LD", "JS"]}
    covers = {"ES": "S", "EH": "H"}
    cum = [0, 0, 0, 0]
    t = elect(cfg("2v2"), figs, cum, covers)
    assert t.result() == (["A"], [0, 2])
    t = elect(cfg("2v2", team_trio="pooled"), figs, cum, covers)
    assert t.side_trio("A") == (None, None, 0)
    assert t.result() == (["B"], [1, 3])


def test_D9_5_pooled_trio_must_contain_a_members_covered_figure():
    """2v3 ABABB. Team B: seat 1 ES (covered ♦ by a Media), seat 3 EH LS, seat 4 JC. The
    pooled trio must use the covered ES (as ♦): ES(♦) LS JC = 3 colours, never EH."""
    figs = {1: ["ES"], 3: ["EH", "LS"], 4: ["JC"], 0: ["ED", "LD", "JD"]}
    t = elect(cfg("2v3", team_trio="pooled"), figs, [0] * 5, covers={"ES": "D"})
    assert t.side_trio("B") == (["ES", "LS", "JC"], "DSC", 3)
    assert t.result() == (["B"], [1, 3, 4])


def test_team_trio_and_team_talk_have_no_effect_in_individual_games():
    """D9.5 / D9.2: ``team_trio`` and ``team_talk`` only concern teams: individual games
    are identical, game by game, under every value."""
    def run(**v):
        c = DemosConfig("full", "individual", 4, variants=v)
        fns, params = policy_tuple(resolve(["greedy"], 4))
        keys = chunk_game_keys(11, 0, 0, 300)
        res = np.zeros((300, L.RES_LEN), np.int64)
        play_batch(fns, c.to_array(), params, keys, res, np.zeros(DIAG_LEN, np.int64))
        return res
    base = run()
    assert np.array_equal(base, run(team_trio="pooled", team_talk="hands"))
    assert np.array_equal(base, run(p3_points_tiebreak="max"))


# ================================================================== D9.6 with pooled trios
def test_D9_6_pooled_step1_side_points_break_the_tie():
    """2v2+1 ABABI. A: seat 0 ES LH (20 points), seat 2 JD (25): pooled 3 colours; the
    Independent (seat 4, 30 points) EH LD JS: 3 colours of his own. ``best_member``: no A
    member has a trio → only the Independent has 3 colours → I. ``pooled``: A and I both
    have 3 colours; the tie compares the sides' points as in D9.5: ``max`` A 25 < I 30 → I;
    ``sum`` A 45 > I 30 → A."""
    figs = {0: ["ES", "LH"], 2: ["JD"], 4: ["EH", "LD", "JS"]}
    cum = [20, 0, 25, 0, 30]
    assert elect(cfg("2v2+1"), figs, cum).result() == (["I"], [4])
    assert elect(cfg("2v2+1", team_trio="pooled"), figs, cum).result() == (["I"], [4])
    t = elect(cfg("2v2+1", team_trio="pooled", team_points_tiebreak="sum"), figs, cum)
    assert t.result() == (["A"], [0, 2])
    assert t.decided() == "p1_three_colour"


def test_D9_6_pooled_step3_mono_only_counts_pooled_one_colour_trios():
    """2v2+1, ``p3_harmonies = mono_only``. A: seat 0 ES LS, seat 2 JS JH — pooled, E♠ L♠ J♠
    is a 1-colour trio (their best is 2 colours, ES LS JH). B: seat 1 EH LD JD (2 colours,
    cannot be 1). Nobody has 3 colours; the Independent (seat 4, no figures, 0 points)
    meets no condition. ``best_member``: no member can form a 1-colour trio → no winner.
    ``pooled``: A qualifies → A."""
    figs = {0: ["ES", "LS"], 2: ["JS", "JH"], 1: ["EH", "LD", "JD"]}
    cum = [5, 5, 5, 5, 0]
    assert elect(cfg("2v2+1", p3_harmonies="mono_only"), figs, cum).result() == ([], [])
    t = elect(cfg("2v2+1", p3_harmonies="mono_only", team_trio="pooled"), figs, cum)
    assert t.result() == (["A"], [0, 2])
    assert t.decided() == "p3_team_trios"
    assert t.side_trio("A")[2] == 2      # the side's best pooled trio is still 2 colours


def test_D9_6_pooled_independent_keeps_his_own_trio():
    """Under ``pooled`` the Independent's trio is always his own and he gets no side trio:
    step 2 (c) Dissident with his 2-colour trio EH LH JD wins when no side has 3 colours."""
    figs = {4: ["EH", "LH", "JD"], 0: ["ES", "LS"], 2: ["JS"]}
    t = elect(cfg("2v2+1", team_trio="pooled"), figs, [10, 0, 10, 0, 0])
    assert t.result() == (["I"], [4])
    with pytest.raises(KeyError):
        t.side_trio("I")


# ================================================================== X2 announced_trio
def test_X2_announcement_breaks_a_harmony_tie_before_points():
    """Individual, 4 players. Seat 0 E♠ L♥ J♦ (10 points), seat 1 E♥ L♦ J♠ (50 points):
    both 3 colours. Without X2 points decide → seat 1. Seat 0 announced ♠♥♦ (its trio),
    seat 1 ♣♣♣: seat 0's trio matches → seat 0, before points. Both matching → points."""
    figs = {0: ["ES", "LH", "JD"], 1: ["EH", "LD", "JS"]}
    cum = [10, 50, 0, 0]
    assert elect(cfg(), figs, cum).result() == (["1"], [1])
    t = elect(cfg(announced_trio=True), figs, cum, announced={"0": "SHD", "1": "CCC"})
    assert t.result() == (["0"], [0])
    assert t.decided() == "announced"
    t = elect(cfg(announced_trio=True), figs, cum, announced={"0": "SHD", "1": "HDS"})
    assert t.result() == (["1"], [1])
    assert t.decided() == "points"


def test_X2_never_beats_a_better_harmony():
    """Seat 0 E♠ L♠ J♦ (2 colours) announced ♠♠♦ and matches; seat 1 E♥ L♦ J♣ (3 colours,
    fewer points) announced ♠♥♦ and does not match: the better harmony wins → seat 1."""
    figs = {0: ["ES", "LS", "JD"], 1: ["EH", "LD", "JC"]}
    t = elect(cfg(announced_trio=True), figs, [50, 0, 0, 0],
              announced={"0": "SSD", "1": "SHD", "2": "SHD", "3": "SHD"})
    assert t.result() == (["1"], [1])


def test_X2_the_player_chooses_the_matching_trio():
    """D7.1 with X2: seat 0 holds ES EH LD JC — two 3-colour trios, E♠ L♦ J♣ and E♥ L♦ J♣.
    Announced ♥♦♣ → the recorded trio is EH LD JC; announced ♠♦♣ → ES LD JC."""
    figs = {0: ["ES", "EH", "LD", "JC"]}
    t = elect(cfg(announced_trio=True), figs, [0] * 4, announced={"0": "HDC"})
    assert t.trio(0) == (["EH", "LD", "JC"], 3)
    t = elect(cfg(announced_trio=True), figs, [0] * 4, announced={"0": "SDC"})
    assert t.trio(0) == (["ES", "LD", "JC"], 3)


def test_X2_in_team_games_best_member_and_pooled():
    """2v2. A: seat 0 E♠ L♥ J♦ (0 points); B: seat 1 E♥ L♦ J♠ (40 points); both 3 colours.
    A announced ♠♥♦ → under ``best_member`` A's member's trio matches → A. Under
    ``pooled`` with A's figures split (seat 0 ES LH, seat 2 JD) the pooled trio matches → A."""
    t = elect(cfg("2v2", announced_trio=True), {0: ["ES", "LH", "JD"], 1: ["EH", "LD", "JS"]},
              [0, 40, 0, 0], announced={"A": "SHD", "B": "CCC"})
    assert t.result() == (["A"], [0, 2])
    t = elect(cfg("2v2", announced_trio=True, team_trio="pooled"),
              {0: ["ES", "LH"], 2: ["JD"], 1: ["EH", "LD", "JS"]},
              [0, 40, 0, 0], announced={"A": "SHD", "B": "CCC"})
    assert t.result() == (["A"], [0, 2])
    assert t.side_trio("A") == (["ES", "LH", "JD"], "SHD", 3)


def test_X2_D9_6_step1_and_step3():
    """2v2+1. Step 1: A's seat 0 E♠ L♥ J♦ (10 points) and the Independent E♥ L♦ J♠ (40):
    without X2 points → I; A announced ♠♥♦ (I ♣♣♣) → A.
    Step 3 (``mono_only``): A seat 0 E♠ L♠ J♠ (10), B seat 1 E♥ L♥ J♥ (30), Independent
    without figures: B has more points → B; A announced ♠♠♠ → A; A announced ♠♥♦ (three
    colours: only a one-suit announcement can match at step 3) → B."""
    figs = {0: ["ES", "LH", "JD"], 4: ["EH", "LD", "JS"]}
    assert elect(cfg("2v2+1"), figs, [10, 0, 0, 0, 40]).result() == (["I"], [4])
    t = elect(cfg("2v2+1", announced_trio=True), figs, [10, 0, 0, 0, 40],
              announced={"A": "SHD", "B": "SHD", "I": "CCC"})
    assert t.result() == (["A"], [0, 2])
    figs = {0: ["ES", "LS", "JS"], 1: ["EH", "LH", "JH"]}
    mono = dict(p3_harmonies="mono_only", announced_trio=True)
    for ann_a, want in (("DDD", ["B"]), ("SSS", ["A"]), ("SHD", ["B"])):
        t = elect(cfg("2v2+1", **mono), figs, [10, 30, 0, 0, 0],
                  announced={"A": ann_a, "B": "CDH", "I": "CCC"})
        assert t.result()[0] == want, ann_a


def test_X2_announcements_in_records_and_by_the_bots():
    """X2: records list every side's announcement by label; the bots above ``random``
    announce a 3-colour colouring, and with 3 sides no two share a figure."""
    for pol in ("greedy", "heuristic", "search"):
        c = DemosConfig("full", "2v2+1", 5, variants={"announced_trio": True})
        rec = next(iter_records(c, [pol], 1, 5))
        ann = rec["announced_trios"]
        assert sorted(ann) == ["A", "B", "I"]
        for suits in ann.values():
            assert len(set(suits)) == 3, (pol, ann)
        for t in range(3):
            assert len({suits[t] for suits in ann.values()}) == 3, (pol, ann)
    rec = next(iter_records(DemosConfig("full", "individual", 4), ["greedy"], 1, 5))
    assert rec["announced_trios"] is None and rec["final"]["side_trios"] is None


# ================================================================== D9.2 team_talk
def _mid_game_state(config):
    """The state at the end of a real game of ``config`` (hands dealt, figures held)."""
    from demos_sim.demos.engine import play_game
    arr = config.to_array()
    fns, params = policy_tuple(resolve(["greedy"], config.players))
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
    args = (np.zeros(L.MAXOPT, np.int64), np.zeros(L.NSTREAM, np.uint64),
            np.zeros(L.WK_LEN, np.int64), np.zeros(2, np.int64), np.zeros(DIAG_LEN, np.int64),
            np.zeros(L.RES_LEN, np.int64))
    play_game(fns, arr, params, np.uint64(3), st, obs, *args)
    return arr, st


@pytest.mark.parametrize("talk", ["figures", "hands"])
def test_D9_2_team_talk_what_a_team_decision_sees(talk):
    """``figures``: a team decision (veto) sees no teammate's hand; ``hands``: it sees each
    teammate's hand at that moment — and a member's own discard never does. The M2
    scramble moves a teammate's hand only when the decision may not see it."""
    arr, st = _mid_game_state(DemosConfig("full", "2v2", 4, variants={"team_talk": talk}))
    mate = 2                                   # ABAB: seat 0's teammate
    for kind, team in ((L.K_VETO, True), (L.K_UNAN, False)):
        o = np.full(L.OBS_LEN, -9, np.int64)
        observe(st, arr, 0, kind, o)
        seen = o[L.O_MATE_HAND:L.O_MATE_HAND + L.MAXP]
        if talk == "hands" and team:
            assert seen[mate] == st[L.S_HAND + mate] and bin(int(seen[mate])).count("1") == 5
            assert seen[1] == 0 and seen[3] == 0 and seen[0] == 0   # opponents, self
        else:
            assert not seen.any()
        rng = np.zeros(L.NSTREAM, np.uint64)
        moved = 0
        for i in range(30):
            rng[L.RNG_SCRAMBLE] = i + 1
            st2 = st.copy()
            scramble_hidden(st2, arr, 0, kind, rng, np.zeros(64, np.int64))
            moved += st2[L.S_HAND + mate] != st[L.S_HAND + mate]
        assert (moved == 0) == (talk == "hands" and team)


def test_config_errors_name_the_new_variants():
    """Part V: unknown values of the new variants are refused with a one-line error."""
    for name, bad in (("team_trio", "shared"), ("team_talk", "cards"),
                      ("p3_points_tiebreak", "min"), ("announced_trio", "yes")):
        with pytest.raises(ConfigError, match=name) as e:
            DemosConfig(variants={name: bad})
        assert "\n" not in str(e.value)
