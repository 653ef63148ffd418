"""Bots and tournaments: heuristic, ismcts, planner, seat rotations, ladder order.

The M2 observation tests (tests/demos/test_observation.py, tests/protocole/test_observation.py)
run over every registered policy and its restricted forms, so ``heuristic``,
``heuristic:noveto|notake|nomedia|legacy`` and ``planner`` are checked there; the first test
here only makes sure they are registered, so that those tests do see them.

Strength tests are one-sided: a policy must beat the other by more than
``SIGMAS`` = 3 standard errors of the win share (delta method over deals, the same
estimate the tournament prints), i.e. a false failure has probability about 0.1% if the
true edge were exactly at the bound; the measured edges (results/ladder) are 4–100
standard errors at the sizes used here. The search rungs' edges are too small for a test's
size: their live checks are the planted-weakness tests (tests/demos/test_planted_weakness.py),
and their order is read from the committed ladder.
"""

import math

import numpy as np
import pytest

from demos_sim.demos.policies import available as demos_available, get as demos_get
from demos_sim.protocole.policies import available as protocole_available
from demos_sim.tournament import (
    bradley_terry, make_config, match, rotations, run_tournament,
)

SIGMAS = 3.0


def test_bots_are_registered_with_their_restricted_forms():
    assert "heuristic" in demos_available()
    assert set(demos_get("heuristic").flags) == {"noveto", "notake", "nomedia", "legacy"}
    assert "planner" in protocole_available()
    for flag in ("noveto", "notake", "nomedia", "legacy"):
        p = demos_get(f"heuristic:{flag}")
        assert p.params[p.flags[flag]] == 1.0


def test_rotations_give_every_seat_to_each_policy_equally():
    assert rotations(4) == ["ABAB", "BABA"]
    assert sorted(rotations(3)) == sorted(["ABA", "BAA", "AAB", "BAB", "ABB", "BBA"])
    for n in (2, 3, 4, 5):
        rots = rotations(n)
        for seat in range(n):
            col = [r[seat] for r in rots]
            assert col.count("A") == col.count("B")


def test_tournament_is_deterministic_for_a_seed():
    cfg = make_config("demos", 4, rules="full")
    m1 = match("demos", cfg, "heuristic", "greedy", 300, 11)
    m2 = match("demos", cfg, "heuristic", "greedy", 300, 11)
    assert np.array_equal(m1.a, m2.a) and np.array_equal(m1.b, m2.b)
    assert m1.summary()["win_share"] == m2.summary()["win_share"]
    m3 = match("demos", cfg, "heuristic", "greedy", 300, 12)
    assert not np.array_equal(m1.a, m3.a)
    # the same deals in every rotation: a policy against itself is exactly even per deal
    m4 = match("demos", cfg, "greedy", "greedy", 200, 11)
    assert np.array_equal(m4.a, m4.b)


def _se(m):
    s = m.a + m.b
    w = m.a.sum() / s.sum()
    z = m.a - w * s
    return w, float(z.std(ddof=1)) / (s.mean() * math.sqrt(len(s)))


@pytest.mark.parametrize("strong, weak, deals", [("greedy", "random", 1000),
                                                 ("heuristic", "greedy", 12000),
                                                 ("tuned", "heuristic", 12000)])
def test_demos_ladder_order(strong, weak, deals):
    m = match("demos", make_config("demos", 4, rules="full"), strong, weak, deals, 2027)
    w, se = _se(m)
    assert w - SIGMAS * se > 0.5, (strong, weak, w, se)


def test_committed_ladder_has_every_rung_above_the_one_below():
    """The search rungs' steps are too small to show here (a step of 0.52 on 4,000 games
    has an interval of ±0.016; 3σ at that edge needs ~30,000 games, 20 minutes), so their
    evidence is the committed ladder: every adjacent pair of every ladder in
    :data:`LADDERS` (the rungs the code declares) has a row there whose 95% interval
    excludes the reference, or, for a step declared a tie below, whose value is above the
    reference with an interval that includes it (the rungs are in the order measured, and
    the declaration is dropped once the step is shown). A rung added to the code without
    regenerating the ladder, a rung below the one it is placed above, or a regenerated
    ladder where an undeclared step is not shown, fails here."""
    import csv
    from pathlib import Path

    from demos_sim.tournament import LADDERS

    # L'Assemblée's personas are characters, not a skill order: in a civic city a random
    # player does better than a civic one (0.450 [0.446, 0.455]); the step must stay shown,
    # downwards
    below = {("assemblee 10p, one seat in a civic city", "civic", "random")}
    # DĒMOS: belief@64 and ismcts@64 are level on the ladder's 2,000 deals (1/50)
    tied = {("demos full 4p individual", "ismcts@64", "belief@64")}
    rows = list(csv.DictReader(open(Path(__file__).resolve().parents[2]
                                    / "results" / "ladder" / "ladder.csv")))
    for ld in LADDERS:
        for lo, hi in zip(ld.rungs, ld.rungs[1:]):
            row = [r for r in rows if (r["game"], r["policy"], r["against"]) == (ld.label, hi, lo)]
            assert len(row) == 1, (ld.label, hi, lo)
            if (ld.label, hi, lo) in below:
                assert float(row[0]["ci_hi"]) < float(row[0]["reference"]), row[0]
            elif (ld.label, hi, lo) in tied:
                assert float(row[0]["value"]) > float(row[0]["reference"]) \
                    >= float(row[0]["ci_lo"]), row[0]
            else:
                assert float(row[0]["ci_lo"]) > float(row[0]["reference"]), row[0]


def test_protocole_planner_beats_cautious_and_convention():
    m = match("protocole", make_config("protocole", 4, mode="each"),
              "planner", "cautious", 6000, 2027)
    w, se = _se(m)
    assert w - SIGMAS * se > 0.5, (w, se)
    c = match("protocole", make_config("protocole", 4, mode="coop", level=2),
              "planner", "convention", 30000, 2027)
    d = c.a - c.b
    se_d = float(d.std(ddof=1)) / math.sqrt(len(d))
    assert d.mean() - SIGMAS * se_d > 0, (d.mean(), se_d)


def test_bradley_terry_recovers_an_order():
    wins = np.array([[0, 30, 10], [70, 0, 30], [90, 70, 0]], float)
    r = bradley_terry(["a", "b", "c"], wins)
    assert r["a"] == 0.0 and r["a"] < r["b"] < r["c"]


def test_round_robin_prints_ratings():
    out = run_tournament("demos", make_config("demos", 4, rules="full"),
                         ["random", "greedy", "heuristic"], 100, 3)
    assert "Bradley–Terry" in out and "heuristic" in out


@pytest.mark.parametrize("mode, rots", [("2v2", ["AB", "BA"]), ("2v3", ["AB", "BA"]),
                                        ("2v2+1", ["ABA", "BAB", "AAB", "BBA", "BAA", "ABB"])])
def test_team_mode_tournament_rotates_policies_over_sides(mode, rots):
    """D9: in team modes a policy plays for a whole side, and each policy holds every side
    (2v3: the team of two and the team of three) equally often; a policy against itself is
    exactly even deal by deal, and each deal's wins add up to the sides' shares."""
    cfg = make_config("demos", mode=mode)
    m = match("demos", cfg, "greedy", "random", 200, 5)
    assert sorted(m.rotations) == sorted(rots)
    total = m.a + m.b
    assert np.all(total <= len(rots) + 1e-9)
    assert m.summary()["win_share"]["greedy"] > 0.5 + 3 * _se(m)[1]
    same = match("demos", cfg, "greedy", "greedy", 100, 5)
    assert np.array_equal(same.a, same.b)


def test_assemblee_tournament():
    """L'Assemblée through the same interface: seats rotate, a collapse (A5.3) counts for
    neither policy, the same persona against itself is even deal by deal."""
    cfg = make_config("assemblee", 6)
    m = match("assemblee", cfg, "civic", "free_rider", 300, 5)
    assert m.rotations == ["ABABAB", "BABABA"]
    same = match("assemblee", cfg, "civic", "civic", 100, 5)
    assert np.array_equal(same.a, same.b)
    s = m.summary()
    assert 0 <= s["win_share"]["civic"] <= 1


def test_cli_tournament(capsys):
    from demos_sim.cli import main

    assert main(["tournament", "--game", "demos", "--rules", "full", "--players", "4",
                 "--policies", "greedy,random", "--games", "50", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "ABAB BABA" in out and "95% CI" in out and "paired" in out
    assert main(["tournament", "--policies", "greedy,nope", "--games", "5"]) == 2
    assert main(["tournament", "--game", "protocole", "--mode", "coop", "--level", "2",
                 "--policies", "planner,convention", "--games", "50"]) == 0
    assert "win rate" in capsys.readouterr().out
    assert main(["tournament", "--mode", "2v3", "--set", "team_trio=pooled",
                 "--policies", "greedy,random", "--games", "30"]) == 0
    assert "AB BA" in capsys.readouterr().out
    assert main(["tournament", "--game", "assemblee", "--players", "5",
                 "--policies", "civic,aggressive", "--games", "30"]) == 0
    assert "ABABA" in capsys.readouterr().out
    assert main(["tournament", "--game", "protocole", "--rules", "full",
                 "--policies", "planner,cautious"]) == 2


def test_heuristic_blind_expectation_is_exact():
    """blind_ev's bit-mask scorer equals brute force over every unseen card."""
    from numba import njit

    from demos_sim.demos.policies.basic import value5
    from demos_sim.demos.policies.heuristic import blind_ev, util

    @njit
    def brute(sr, h4, fav, un, n, fl):
        t = 0.0
        for c in range(40):
            if (un >> c) & 1:
                t += util(value5(sr, h4 | (1 << c), fav), fl)
        return t / n

    rng = np.random.default_rng(2)
    for sr in [(1, 30, 12, 8, 4, 0), (0, 30, 12, 8, 4, 0), (1, 30, 12, 8, 4, 10)]:
        for _ in range(400):
            cards = [int(x) for x in rng.choice(40, 14, replace=False)
                     if sr[0] == 1 or x % 10 != 0]
            h4 = sum(1 << c for c in cards[:4])
            un = sum(1 << c for c in cards[4:])
            n = bin(un).count("1")
            fav = int(rng.integers(-1, 4))
            for fl in (0.0, 11.0):
                a = blind_ev(sr, h4, fav, un, n, fl)[0]
                b = brute(sr, h4, fav, un, n, fl)
                # exact in points; the no-completion tie-break fractions are estimated
                assert abs(a - b) < 0.05, (sr, h4, fav, fl, a, b)


def test_search_samples_only_unseen_cards():
    """search's determinisation draws only cards the seat has not seen, without repeats."""
    from demos_sim.demos.policies.search import sample_unseen

    assert "search" in demos_available()
    assert set(demos_get("search").flags) == {"noveto", "notake", "nomedia", "legacy"}
    rng = np.random.default_rng(5)
    state = np.array([123456789], np.uint64)
    full = (1 << 40) - 1
    for _ in range(2000):
        seen = 0
        for c in rng.choice(40, int(rng.integers(5, 30)), replace=False):
            seen |= 1 << int(c)
        unseen = full & ~seen
        k = int(rng.integers(1, 45))
        smp = sample_unseen(unseen, k, state)
        assert smp & seen == 0
        assert smp & ~unseen == 0
        assert bin(smp).count("1") == min(k, bin(unseen).count("1"))


def test_the_bots_page_shows_the_committed_ladder(tmp_path):
    """The Bots page's ladder is results/ladder/ladder.md as committed, less its title,
    put where the page says <!-- ladder --> when the site is built (never typed there): a
    figure changed in the file changes on the page; without the file the page says so."""
    import importlib.util

    from demos_sim.docs_site import ROOT, ladder_markdown

    assert ladder_markdown(tmp_path / "none").startswith("*Not available")
    (tmp_path / "ladder.md").write_text("# Policy ladder\n\nRegenerate: `x`.\n\n| policy | value |"
                                        "\n|---|---|\n| tuned | 0.5181 |\n")
    assert ladder_markdown(tmp_path) == \
        "Regenerate: `x`.\n\n| policy | value |\n|---|---|\n| tuned | 0.5181 |\n"
    page = (ROOT / "docs" / "reference" / "bots.md").read_text()
    assert page.count("\n<!-- ladder -->\n") == 1
    spec = importlib.util.spec_from_file_location("docs_hook", ROOT / "docs" / "hooks" /
                                                  "generate.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    built = hook.on_page_markdown(page, None, None, None)
    assert "<!-- ladder -->" not in built
    import csv
    for r in csv.DictReader(open(ROOT / "results" / "ladder" / "ladder.csv")):
        assert f"| {r['policy']} | {r['against']} | {r['measure']} | {r['value']} |" in built
