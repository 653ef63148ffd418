"""`demos-sim compare`: a rule change against the defaults, paired on the same deals."""

import json

import numpy as np
import pytest

from demos_sim.analysis.core.whatif import compare
from demos_sim.cli import main


def test_a_variant_without_effect_moves_nothing_exactly():
    """D9 variants have no effect in individual games (RULES.md Part V: `team_trio` applies
    to team modes only): on the same deals every game is the same, so every paired
    difference is exactly 0 and no row is flagged."""
    w = compare("demos", {}, 4, {"team_trio": "pooled"}, games=600, seed=3)
    t = w.table
    assert (t["diff"] == 0).all()
    # a 0/1 rate with no game changed in 600 is bounded by ± 1 − 0.0125^(1/600) (no
    # changed game: Clopper–Pearson, closed form); every other interval is [0, 0]
    bound = 1 - 0.0125 ** (1 / 600)
    wide = t["diff_ci_high"] > 0
    assert set(t.loc[wide, "metric"]) <= {"win_share", "no_winner", "truncated"}
    assert np.allclose(t.loc[wide, "diff_ci_high"], bound)
    assert np.allclose(t.loc[wide, "diff_ci_low"], -bound)
    assert (t.loc[~wide, "diff_ci_low"] == 0).all() and (t.loc[~wide, "diff_ci_high"] == 0).all()
    assert not t["moved"].any()
    assert (t["reference"] == t["changed"]).all()


def test_a_dearer_carre_raises_every_seats_points():
    """D4.1: a Carré worth 40 instead of 30 adds points to every round won with a Carré and
    changes no one's hand: every seat's mean points rise, each flagged after Holm."""
    w = compare("demos", {}, 4, {"carre_points": 40}, games=3000, seed=1)
    t = w.table.set_index(["metric", "side"])
    for seat in "0123":
        row = t.loc[("points", seat)]
        assert row["diff"] > 0 and row["diff_ci_low"] > 0 and row["moved"]
        assert row["diff"] == pytest.approx(row["changed"] - row["reference"], abs=1e-9)
    assert (w.table["p_holm"] >= w.table["p"]).all()       # Holm never lowers a p-value


def test_policies_against_policies_on_the_same_deals():
    """The reference can be other policies: greedy against random at every seat is a big,
    flagged difference in the length of games and never a change of the rules."""
    w = compare("demos", {}, 4, {}, policies=["greedy"], against_policies=["random"],
                games=800, seed=2)
    assert "policies greedy" in w.change and "policies random" in w.reference
    assert w.table.set_index("metric").loc["vetoes", "moved"]


def test_the_stopping_rule_stops_before_the_maximum():
    w = compare("demos", {}, 4, {"carre_points": 40}, games=40000, seed=1, half_width=0.02)
    assert w.games < 40000 and w.run.meta["stopped_by"] == "half_width"


@pytest.mark.parametrize("args, message", [
    ([], "nothing to compare"),
    (["--set", "carre_points=-1"], "carre_points"),
    (["--set", "carre_points=40", "--half-width", "0"], "--half-width"),
    (["--set", "carre_points=40", "--level", "2"], "--level does not apply"),
    (["--set", "carre_points=40", "--policies", "nosuch"], "nosuch"),
])
def test_bad_input_is_one_line(capsys, args, message):
    assert main(["compare", "--games", "100", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_cli_text_and_json(capsys):
    assert main(["compare", "--game", "protocole", "--set", "standard_tie=discard_all",
                 "--games", "3000", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Protocole: standard_tie=discard_all against contract defaults")
    assert "Holm" in out and "difference [95% CI]" in out
    assert main(["compare", "--game", "assemblee", "--players", "5", "--set", "rounds=8",
                 "--games", "600", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["games"] == 600 and s["contract"] == 2
    rounds = [r for r in s["rows"] if r["metric"] == "rounds"][0]
    assert rounds["changed"] <= 8 and rounds["diff"] < 0 and rounds["moved"]   # A-rules: 8 rounds at most


@pytest.mark.parametrize("args, fragment", [
    (["--set", "team_vetoes=1"], "team_vetoes applies to mode 2v3 (D9.3), not to this game"),
    (["--mode", "2v2", "--set", "independent_double_media=act"],
     "independent_double_media applies to mode 2v2+1 (D9.6)"),
    (["--set", "team_talk=hands"], "team_talk applies to the team modes"),
    (["--set", "carre_points=40", "--against-set", "team_trio=pooled"],
     "team_trio applies to the team modes"),
    (["--rules", "simplified", "--set", "carre_points=40"],
     "carre_points applies to the full rules (D8"),
    (["--game", "protocole", "--mode", "coop", "--level", "1", "--set",
      "standard_tie=discard_all"], "standard_tie applies to mode each (P3.2"),
    (["--game", "protocole", "--set", "reinforced_scope=team"],
     "reinforced_scope applies to coop levels 2 and 3 (P5.3)"),
    (["--game", "assemblee", "--set", "akikos_income=total"],
     "akikos_income applies with personalities = true (A11)"),
])
def test_a_variant_outside_its_scope_is_refused(capsys, args, fragment):
    """Games that the rules make identical would print +0.0000 [+0.0000, +0.0000]: refused
    before anything is played, naming where the rule applies."""
    assert main(["compare", *args, "--games", "100000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err
    assert "identical" in err


@pytest.mark.parametrize("args", [
    ["--mode", "2v3", "--set", "team_vetoes=1"],
    ["--game", "protocole", "--mode", "coop", "--level", "2", "--set",
     "reinforced_scope=team"],
    ["--game", "assemblee", "--set", "personalities=true", "--set", "akikos_income=total"],
])
def test_a_variant_inside_its_scope_is_compared(capsys, args):
    assert main(["compare", *args, "--games", "20"]) == 0
