"""The tuning analysis (worked example of demos-sim tune) on a tiny seeded run."""

from __future__ import annotations

import numpy as np
import pytest

from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.questions import tuning
from conftest import SMALL_GAMES_OF

GAMES = SMALL_GAMES_OF["tuning"]   # 128 games per trial; the race ends at 8 x 128 = 1024 games


@pytest.fixture(scope="module")
def tables(small_analysis):
    """The session's small run (also the notebook test's)."""
    out = small_analysis("tuning")
    return load_tables(out / "tuning"), out


def test_tables_structure(tables):
    t, out = tables
    assert set(t) == {"search", "params", "targets", "trials", "pareto", "racing", "best",
                      "importance", "rungs"}
    se = t["search"].iloc[0]
    assert se["method"] == "tpe" and se["trials"] == len(t["trials"]) == 120
    assert (t["trials"]["games"] == GAMES).all()
    assert list(t["params"]["parameter"]) == ["run_base.0", "carre_points",
                                              "favourite_suit_bonus"]
    # every evaluated value lies in its range
    for r in t["params"].itertuples():
        assert t["trials"][r.parameter].between(r.low, r.high).all()
    for col in ("seat_parity_value", "carre_share_value"):
        assert t["trials"][col].between(0, 1).all()
    # the objective is the stated weighted sum of the losses
    tr = t["trials"]
    obj = tr["seat_parity_loss"] + (tr["carre_share_value"] - 0.025).abs()
    assert np.allclose(obj, tr["objective"])
    assert (out / "tuning" / "tuning_tradeoff.png").exists()


def test_best_intervals_and_roles(tables):
    t, _ = tables
    b = t["best"]
    assert set(b["role"]) == {"best", "runner_up", "default"}
    assert (b["games"] == 8 * GAMES).all()
    assert ((b["ci_low"] <= b["value"] + 1e-12) & (b["value"] <= b["ci_high"] + 1e-12)).all()
    o = b[b["measure"] == "objective"].set_index("role")["value"]
    assert o["best"] <= o["runner_up"]          # the best is the finalist with the lower one
    d = b[b["role"] != "best"]
    assert ((d["diff_ci_low"] <= d["diff"] + 1e-12) & (d["diff"] <= d["diff_ci_high"] + 1e-12)).all()
    # the racing's last round holds the two finalists
    rc = t["racing"]
    last = rc[rc["round"] == rc["round"].max()]
    assert last["raced"].sum() == 2 and (last["games"] == 8 * GAMES).all()


def test_importance_and_pareto(tables):
    t, _ = tables
    imp = t["importance"]
    me = imp[imp["method"] == "main_effect"]
    assert me["importance"].between(0, 1).all()
    assert set(me["measure"]) == {"objective", "seat_parity", "carre_share"}
    p = t["pareto"]
    assert len(p) >= 1
    # no point on the front is dominated by any evaluated point
    pts = t["trials"][t["trials"]["first"]]
    L = pts[["seat_parity_loss", "carre_share_loss"]].to_numpy()
    for r in p[["seat_parity_loss", "carre_share_loss"]].to_numpy():
        assert not (np.all(L <= r, 1) & np.any(L < r, 1)).any()


def test_rungs_and_key_figures(tables):
    t, _ = tables
    ru = t["rungs"]
    assert set(ru["bot"]) == set(tuning.RUNGS)
    h = ru[ru["bot"] == "heuristic"]
    assert (h["games"] == round(8 * GAMES * tuning.RUNGS["heuristic"])).all()
    kf = tuning.key_figures(t)
    assert list(kf.columns) == ["figure", "bot", "mean", "ci_low", "ci_high"]
    assert set(kf["bot"]) == set(tuning.RUNGS)
    found, flags = tuning.findings(t)
    assert any(f.startswith("Best setting") for f in found)


def test_rung_replays_are_kept_and_read_back(tables, monkeypatch):
    """The next rungs' replays keep their games beside the runs (runs/confirm, the
    runner's play_points store): replayed again they play nothing and give the section's
    rows."""
    import json

    from demos_sim.analysis.core.protocol import experiment_path
    from demos_sim.runner import points
    from demos_sim.tuner.spec import load_tune

    t, out = tables
    bot = "heuristic"
    spec = load_tune(experiment_path(tuning.TUNE_FILE), bot=next(iter(tuning.RUNGS)))
    s = json.loads((out / "runs" / spec.name / "summary.json").read_text())
    spec_b = load_tune(experiment_path(tuning.TUNE_FILE), bot=bot).with_budget(
        games=GAMES, final_games=8 * GAMES)
    n = round(s["confirmation"]["games"] * tuning.RUNGS[bot])
    counts = []
    piece = points.play_piece
    monkeypatch.setattr(points, "play_piece", lambda *a: counts.append(a[7]) or piece(*a))
    from demos_sim.analysis.core.protocol import Runs

    rows = tuning._rung_rows(spec_b, s, bot, n, Runs(workers=1),
                             s["confirmation"]["first_chunk"], store=out / "runs" / "confirm")
    assert counts == []                       # every game read back
    saved = t["rungs"][t["rungs"]["bot"] == bot].reset_index(drop=True)
    assert len(rows) == len(saved) and n == int(saved["games"].iloc[0])
    for r, (_, x) in zip(rows, saved.iterrows()):
        assert (r["role"], r["measure"]) == (x["role"], x["measure"])
        assert r["value"] == pytest.approx(x["value"], rel=1e-12, abs=1e-15)
