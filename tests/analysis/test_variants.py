"""Variant impact (Part V) and the one-at-a-time sweep behind it."""

import numpy as np
import pytest

from demos_sim.analysis.core.protocol import experiment_path, rungs
from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.core.stats import adjust
from demos_sim.analysis.questions import variants
from demos_sim.runner.experiment import load_experiment
from tests.stats.reference import holm


@pytest.fixture(scope="module")
def tables(small_analysis):
    return load_tables(small_analysis("variants") / "variants")


def test_sweep_each_changes_one_key_at_a_time():
    exp = load_experiment(experiment_path("variants_demos_individual"), bot="greedy")
    base = exp.points[0].values
    assert exp.points[0].ref is None and all(p.ref == 0 for p in exp.points[1:])
    n_alt = sum(len(v) - 1 for v in
                load_experiment(experiment_path("variants_demos_individual"),
                                bot="greedy").data["grid"].values())
    assert len(exp.points) == 1 + n_alt
    for p in exp.points[1:]:
        changed = [k for k in base if p.values[k] != base[k]]
        assert len(changed) == 1 and p.label.startswith(changed[0] + "=")


# safety caps, not rule variants: DĒMOS D5.1 and Protocole P4.5 make `round_cap` a hard
# cap that ends a game making no progress and reports it as truncated; the screens leave
# it out (a cap low enough to bite measures truncation, not a rule)
SAFETY_CAPS = {"round_cap"}


def test_every_part_v_variant_is_screened():
    """Every Part V variant appears in a variant screen: DĒMOS and Protocole in the
    variants analysis, L'Assemblée in its variant experiments (the contract-2 ones in
    both). Safety caps (D5.1, P4.5: ``round_cap``) are not rule variants and are not
    screened."""
    from demos_sim.assemblee.rules import VARIANTS as AV
    from demos_sim.demos.rules import VARIANTS as DV
    from demos_sim.protocole.rules import VARIANTS as PV

    import tomllib

    def grid(stem):
        return set(tomllib.loads(experiment_path(stem).read_text())["grid"])

    screened = set()
    for stem in variants.EXPERIMENTS:
        screened |= grid(stem)
    assert (set(DV) | set(PV)) - SAFETY_CAPS <= screened
    assert not SAFETY_CAPS & screened                       # D5.1, P4.5: not a variant
    assert SAFETY_CAPS <= set(DV) and SAFETY_CAPS <= set(PV)   # still a rules setting
    # personalities are dealt in their own experiment (assemblee_personalities)
    g6, g10 = grid("assemblee_variants_6p"), grid("assemblee_variants_10p")
    assert set(AV) - {"personalities"} <= g6 | g10
    new = {"oracle_view", "postpone_surcharge", "event_draw", "final_tie"}
    assert new <= g6 and new <= g10


def test_summary_holds_every_variant_value_with_intervals(tables):
    s, e = tables["summary"], tables["effects"]
    assert set(s["rung"]) == set(range(len(variants.RUNGS)))     # places on the ladder
    # one summary row per (experiment, bot, variant value)
    assert len(s) == len(e.drop_duplicates(["experiment", "bot", "variant", "value"]))
    assert (s["win_share_ci_low"] <= s["win_share_diff"]).all()
    assert (s["win_share_diff"] <= s["win_share_ci_high"]).all()
    # sorted by |effect| within a rung
    for _, g in s.groupby("rung", sort=False):
        a = g["win_share_diff"].abs().to_numpy()
        assert (np.diff(a) <= 1e-12).all()


def test_holm_adjustment_is_applied_per_bot(tables):
    e = tables["effects"]
    for _, g in e.groupby("bot"):
        assert np.allclose(g["p_holm"], holm(g["p"]), equal_nan=True)   # reference Holm
        ok = g["p"].notna()
        assert (g.loc[ok, "p_holm"] >= g.loc[ok, "p"] - 1e-15).all()


def test_a_variant_that_cannot_matter_has_zero_effect(tables):
    """A structural zero: `team_points_tiebreak` (D9.5) only decides between sides tied
    on harmony, and a tie it does not break is shared, so it can never turn a won 2v2
    game into one without a winner: its paired effect on the no-winner share is exactly
    0, with an interval that contains 0."""
    e = tables["effects"]
    x = e[(e["experiment"] == "variants_demos_2v2") & (e["variant"] == "team_points_tiebreak")
          & (e["metric"] == "no_winner")]
    assert len(x) == len(rungs(variants, "variants_demos_2v2")) == 4 and (x["diff"] == 0).all()
    assert (x["diff_ci_low"] <= 0).all() and (x["diff_ci_high"] >= 0).all()


def test_hand_computed_holm():
    # Holm on (0.01, 0.04, 0.03): sorted 0.01*3, max(0.03*2, .), max(0.04*1, .)
    assert np.allclose(adjust([0.01, 0.04, 0.03], "holm"), [0.03, 0.06, 0.06])
    # BH on (0.01, 0.04, 0.03): 0.01*3/1, 0.03*3/2=0.045, 0.04*3/3=0.04 -> monotone 0.04
    assert np.allclose(adjust([0.01, 0.04, 0.03], "fdr_bh"), [0.03, 0.04, 0.04])
    assert np.isnan(adjust([np.nan, 0.5], "holm")[0])
