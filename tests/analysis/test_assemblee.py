"""L'Assemblée analyses (Part A) and the engine/persona additions behind them."""

import math

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.analysis.core.sections import load_tables
from demos_sim.analysis.questions import assemblee as A
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.rules import AssembleeConfig, parse_force
from tests.conftest import SMALL_GAMES


@pytest.fixture(scope="module")
def tables(small_analysis):
    return load_tables(small_analysis("assemblee") / "assemblee")


def _play(config, specs, count, seed=1):
    from demos_sim.assemblee.sim import play_chunk

    return play_chunk(config.to_array(), list(specs), seed, config.players, 0, count)


# ------------------------------------------------------------------ tables
def test_tables_present_and_sized(tables):
    for name in A.SHOW:
        assert name in tables and len(tables[name]), name
    cs = tables["collapse_summary"]
    assert sorted(cs["players"].unique()) == list(range(4, 16))
    assert (cs["games"] == SMALL_GAMES).all()
    ch = tables["characters"]
    assert sorted(ch["bot"].unique()) == ["adaptive", "adaptive in a civic city", "aggressive",
                                          "civic"]
    assert (ch.groupby("bot").size() == 15).all()
    pg = tables["public_goods"]
    assert set(pg.groupby(["bot", "players"]).size().items()) == {
        (("civic", 6), 7), (("civic", 10), 11), (("reciprocal", 6), 7), (("reciprocal", 10), 11),
        (("adaptive", 6), 7), (("adaptive", 10), 11)}


def test_shares_and_intervals(tables):
    cs = tables["collapse_summary"]
    for m in ("collapse", "early_end", "no_winner"):
        assert cs[m].between(0, 1).all()
        assert (cs[f"{m}_ci_low"] <= cs[m] + 1e-12).all()
        assert (cs[m] <= cs[f"{m}_ci_high"] + 1e-12).all()
    ev = tables["collapse_events"]
    assert ev["share"].between(0, 1).all()
    assert ((ev["ci_low"] <= ev["share"] + 1e-12) & (ev["share"] <= ev["ci_high"] + 1e-12)).all()
    # every collapse has exactly one newest pending event
    tip = ev[ev["kind"] == "tipping"].groupby(["bot", "population"])
    assert ((tip["count"].sum() == tip["collapses"].first())).all()
    ch = tables["characters"]
    assert ((ch["gain_ci_low"] <= ch["gain"] + 1e-12) & (ch["gain"] <= ch["gain_ci_high"] + 1e-12)).all()
    assert (ch["p_holm"] >= ch["p"] - 1e-12).all()
    pe = tables["personalities"]
    assert pe["seat0_share"].between(0, 1).all()
    ul = pe[pe["personality"] == "ulios"]
    assert ul["diff_vs_ulios"].isna().all() and ul["p_holm"].isna().all()   # the reference
    pg = tables["public_goods"]
    k0 = pg[pg["free_riders"] == 0]
    assert k0["collapse_diff"].isna().all()         # the reference point
    ost = tables["ostracism"]
    assert (ost["passes"] <= ost["proposals"]).all()


def test_known_zero_effects(tables):
    """akikos_income cannot matter without personalities: its paired differences are 0
    and their intervals contain 0. civic:no_assassin differs from civic only when a Crime
    Lord is pending (civic does not assassinate): its gain's interval contains 0."""
    va = tables["variants"]
    z = va[va["variant"] == "akikos_income"]
    assert len(z) == 4 * 3                         # 4 metrics x 3 rungs (10 players)
    assert (z["diff"] == 0).all()
    assert ((z["diff_ci_low"] <= 0) & (z["diff_ci_high"] >= 0)).all()
    ch = tables["characters"]
    a = ch[(ch["bot"] == "civic") & (ch["character"] == "assassin")].iloc[0]
    assert a["gain_ci_low"] <= 0 <= a["gain_ci_high"]


def test_key_figures(tables):
    kf = A.key_figures(tables)
    assert {"figure", "bot", "mean", "ci_low", "ci_high"} <= set(kf.columns)
    assert len(kf["bot"].unique()) >= 2
    assert any(kf.groupby("figure")["bot"].nunique() >= 2)


def test_findings_and_plots(tables, tmp_path):
    found, flags = A.findings(tables)
    assert found and all(isinstance(s, str) for s in found)
    names = A.plots(tables, tmp_path)
    assert names and all((tmp_path / n).stat().st_size > 0 for n in names)


# ------------------------------------------------------------------ small statistics
def test_group_share_is_the_average_of_seats():
    import pandas as pd

    # the mean of the seats' bounds: (0.18 + 0.36) / 2 = 0.27, (0.22 + 0.44) / 2 = 0.33;
    # two seats that never won keep their Wilson bounds, not [0, 0]
    ws = pd.DataFrame({"side": ["0", "1", "2"], "mean": [0.2, 0.4, 0.3],
                       "half_width": [0.02, 0.04, 0.06], "ci_low": [0.18, 0.36, 0.24],
                       "ci_high": [0.22, 0.44, 0.36]})
    m, lo, hi = A._group_share(ws, [0, 1])
    assert abs(m - 0.3) < 1e-12 and abs(lo - 0.27) < 1e-12 and abs(hi - 0.33) < 1e-12
    ws = pd.DataFrame({"side": ["0", "1"], "mean": [0.0, 0.0], "half_width": [0.0, 0.0],
                       "ci_low": [0.0, 0.0], "ci_high": [0.0370, 0.0370]})
    assert A._group_share(ws, [0, 1]) == (0.0, 0.0, 0.0370)


# ------------------------------------------------------------------ engine and personas
def test_identical_personas_are_exchangeable():
    """10 civic seats, 2000 games, seed 1: each seat's win share is within 4 sigma of 1/10
    (sigma = sqrt(0.1 * 0.9 / 2000) = 0.0067, shared wins only lower it) and no seat is
    the ostracism target of the others (a seat-order vote tie-break exiled seat 0 in 79%
    of these games and made seat 1 win 35%)."""
    n, g = 10, 2000
    res = _play(AssembleeConfig(n), ["civic"], g)
    nwin = res[:, L.R_NWIN]
    share = np.array([(((res[:, L.R_WINMASK] >> p) & 1) / np.maximum(nwin, 1)).mean()
                      for p in range(n)])
    sigma = math.sqrt(0.1 * 0.9 / g)
    assert np.abs(share - 1 / n).max() < 4 * sigma, share
    exiled = np.array([((res[:, L.R_EXILED] >> p) & 1).mean() for p in range(n)])
    assert exiled.max() < 0.15, exiled


def test_never_bid_restricted_form():
    cfg = AssembleeConfig(6)
    res = _play(cfg, ["civic:no_spectacles"] + ["civic"] * 5, 300)
    hold = res[:, L.R_HOLD:L.R_HOLD + L.NCHAR * L.MAXP].reshape(-1, L.NCHAR, L.MAXP)
    assert hold[:, L.CH_SPECTACLES, 0].sum() == 0
    assert hold[:, L.CH_SPECTACLES, 1:6].sum() > 0
    assert hold[:, :, 0].sum() > 0                      # it still bids on the others


def test_never_bid_persona_file(tmp_path):
    from demos_sim.assemblee.policies.personas import builtin_params, parse_personas

    got = parse_personas('[picky]\nnever_bid = ["thief", "crier"]\n', "x", builtin_params())
    params = got["picky"][0]
    assert params[16 + L.CH_THIEF] == 1 and params[16 + L.CH_CRIER] == 1
    assert params[16:31].sum() == 2
    with pytest.raises(ConfigError, match="never_bid"):
        parse_personas('[bad]\nnever_bid = ["dragon"]\n', "x", builtin_params())


def test_force_personality_setting():
    cfg = AssembleeConfig(6, {"personalities": True}, force_personality={0: "nimos"})
    res = _play(cfg, ["civic"], 200)
    pers = res[:, L.R_PERS:L.R_PERS + 6]
    assert (pers[:, 0] == L.PE_NIMOS).all()
    assert (np.sort(pers, axis=1) == np.arange(6)).all()   # still one of each (A11)
    # the other seats keep their deal except for one swap
    free = _play(AssembleeConfig(6, {"personalities": True}), ["civic"], 200)
    fp = free[:, L.R_PERS:L.R_PERS + 6]
    assert ((fp != pers).sum(axis=1) <= 2).all()
    assert (fp[:, 0] != L.PE_NIMOS).any()
    # outside Part V: the record's variants are unchanged
    from demos_sim.assemblee.rules import VARIANTS

    assert set(cfg.variants) == set(VARIANTS) and "force_personality" not in cfg.variants


def test_force_personality_errors():
    assert parse_force("0=nimos,3=ulios") == {0: "nimos", 3: "ulios"}
    assert parse_force("none") == {}
    with pytest.raises(ConfigError, match="unknown personality"):
        parse_force("0=zeus")
    with pytest.raises(ConfigError, match="seat"):
        AssembleeConfig(4, {"personalities": True}, force_personality={7: "nimos"})


def test_collapse_tip_column():
    cfg = AssembleeConfig(6)
    res = _play(cfg, ["free_rider"], 300)
    col = res[:, L.R_COLLAPSE] == 1
    tip = res[:, L.R_COLLAPSE_NEW]
    assert col.sum() > 0
    assert (tip[~col] == -1).all() and ((tip[col] >= 0) & (tip[col] < L.NHARM)).all()
    pend = res[:, L.R_COLLAPSE_PEND]
    assert all((pend[i] >> tip[i]) & 1 for i in np.flatnonzero(col))
