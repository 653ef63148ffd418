"""``tune-bot --params`` (a subset of the searched parameters), ``--in-place`` (a best
response: one seat among the field) and the policies they produced: ``veto_br``, tuned
with its D3.4.1 veto parameters tuned against three tuned players (policies/veto_br.toml),
and ``media_br``, tuned with its D6.2 Media aim tuned so (policies/media_br.toml)."""

from __future__ import annotations

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.demos.policies import N_PARAMS, available, get
from demos_sim.demos.policies.heuristic import P_FLOOR, P_NOMEDIA, P_NOVETO, P_VETO_AT
from demos_sim.demos.policies.tuned import TUNED_PARAMS
from demos_sim.demos.policies.best_response import (
    AIM_PARAMS, MEDIA_BR_FILE, VETO_BR_FILE, VETO_PARAMS, best_response_params,
    load_best_response,
)
from demos_sim.game import get_game
from demos_sim.tournament import make_config, side_shares
from demos_sim.tuner.bot import space_for, tune_bot

SPACE = get_game("demos").tune_space(team=True)     # every parameter tune-bot may search

CFG = make_config("demos", 4, rules="full")
VETO = ["veto_at", "late", "need", "veto_spend", "veto_free"]
AIM = ["aim_threat", "aim_harm", "aim_lead"]


def planted_play(vec, opponent, seed, deals):
    """As test_tuned's: best at veto_at = 20; floor >= 13 is lucky on the search seed."""
    q = 0.5 + 0.03 * (1 - abs(vec[P_VETO_AT] - 20) / 8)
    q += (0.08 if seed == 2026 else -0.03) if vec[P_FLOOR] >= 13 else 0.0
    noise = np.random.default_rng([seed, len(opponent)]).normal(0, 0.3, deals)
    a = 2 * np.clip(q + noise, 0, 1)
    return a, 2 - a


def _tune(**kw):
    args = dict(trials=20, games=128, top=3, race_games=512, confirm_games=256, seed=2026,
                play=planted_play)
    args.update(kw)
    return tune_bot(CFG, **args)


# ------------------------------------------------------------------ --params
def test_params_searches_only_the_named_parameters_the_rest_stay_bit_equal():
    res = _tune(policy="tuned", field=["tuned"], params=VETO)
    assert list(res.space) == VETO
    base = np.asarray(get("tuned").params, float)
    searched = {SPACE[n][0] for n in VETO}
    for i in range(N_PARAMS):
        if i not in searched:
            assert res.best[i].tobytes() == base[i].tobytes(), i     # bit-equal
    assert np.array_equal(res.default, base)
    # every searched row names only the subset (the table the data file writes)
    assert all(set(r) - {"trial", "score", "is_default"} == set(VETO) for r in res.search_rows)
    # the planted optimum is in the subset: the search found veto_at near 20, while the
    # lucky floor (not searched) could not be reached
    assert abs(res.best[P_VETO_AT] - 20) <= 4 and res.best[P_FLOOR] == base[P_FLOOR]


def test_params_refuses_unknown_names_in_one_line_naming_them():
    def boom(*a):
        raise AssertionError("played")
    for names, word in ((["veto_at", "vetoat"], "'vetoat'"), (["nosuch"], "'nosuch'"),
                        (["mate_w"], "'mate_w'"), ([" "], "--params")):
        with pytest.raises(ConfigError) as e:
            tune_bot(CFG, play=boom, params=names)
        assert word in str(e.value) and "\n" not in str(e.value)
    assert "mate_w" in space_for(make_config("demos", None, mode="2v2"), names=["mate_w"])


def test_cli_params_error_is_one_line(capsys):
    from demos_sim.cli import main

    rc = main(["tune-bot", "--params", "veto_at,bogus", "--trials", "1", "--games", "4"])
    err = capsys.readouterr().err.strip()
    assert rc != 0 and "'bogus'" in err and len(err.splitlines()) == 1


def test_in_place_real_run_the_policy_itself_scores_exactly_one_half(tmp_path):
    """--in-place on real games: the candidate with the policy's own vector plays exactly
    the games of the population player it replaces (same deals, same decisions), so its
    score is exactly 0.5; the file records the subset and the scoring."""
    from demos_sim.cli import main

    out = tmp_path / "br.toml"
    assert main(["tune-bot", "--policy", "tuned", "--against", "tuned", "--params",
                 ",".join(VETO), "--in-place", "--trials", "2", "--games", "16", "--top", "1",
                 "--race-games", "16", "--confirm-games", "16", "--seed", "3",
                 "--out", str(out), "--quiet"]) == 0
    d = load_best_response(out, VETO_PARAMS)
    assert d["searched"] == VETO and d["scoring"] == "in_place"
    assert "--in-place" in d["command"] and "--params veto_at,late" in d["command"]
    row0 = d["tuned"]
    if all(a == b for a, b in row0.values()):               # the own vector won
        assert d["confirmation"]["win_share"] == 0.5
    p = best_response_params(d, VETO_PARAMS)
    assert len(p) == len(TUNED_PARAMS)
    assert all(p[i] == TUNED_PARAMS[i] for i in range(len(p)) if i not in VETO_PARAMS.values())


# ------------------------------------------------------------------ the veto_br policy
def test_veto_param_names_are_tune_bot_s():
    assert {n: SPACE[n][0] for n in VETO} == VETO_PARAMS


def test_veto_br_is_tuned_with_the_file_s_veto_values_only():
    br, t = get("veto_br"), get("tuned")
    assert "veto_br" in available() and br.fn is t.fn and br.flags == t.flags
    d = load_best_response(VETO_BR_FILE, VETO_PARAMS)
    assert d["config"]["players"] == 4 and d["config"]["rules"] == "full"
    assert d["scoring"] == "in_place" and d["searched"] == VETO
    for i in range(N_PARAMS):
        if i in VETO_PARAMS.values():
            name = next(n for n, j in VETO_PARAMS.items() if j == i)
            assert br.params[i] == d["tuned"][name][1]
            assert d["tuned"][name][0] == t.params[i]     # searched from tuned's values
        else:
            assert br.params[i] == t.params[i]
    # the file was written from the current tuned vector (regenerate it if tuned changes)
    assert np.allclose(np.pad(d["params"], (0, N_PARAMS - len(d["params"]))), br.params)
    assert get("veto_br:noveto").params[P_NOVETO] == 1


def test_veto_br_is_deterministic_and_differs_from_tuned_only_by_vetoes():
    specs = ["tuned", "veto_br", "tuned", "tuned"]
    a = side_shares("demos", CFG, specs, 256, 17)
    b = side_shares("demos", CFG, specs, 256, 17)
    assert np.array_equal(a, b)
    # no veto in the simplified rules (D8: no unanimous turn): veto_br plays as tuned
    simp = make_config("demos", 4, rules="simplified")
    assert np.array_equal(side_shares("demos", simp, specs, 256, 17),
                          side_shares("demos", simp, ["tuned"] * 4, 256, 17))


def test_policies_command_describes_veto_br(capsys):
    from demos_sim.cli import main

    assert main(["policies"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("veto_br "))
    assert "veto the unanimous turn" in line and "veto_br.toml" in line
    assert "veto_br:noveto" in line


def test_load_veto_br_refuses_bad_files(tmp_path):
    p = tmp_path / "v.toml"
    good = 'policy = "tuned"\nfield = ["tuned"]\n[tuned]\nveto_at = [13.5, 15.0]\n'
    p.write_text(good)
    assert best_response_params(load_best_response(p, VETO_PARAMS), VETO_PARAMS)[P_VETO_AT] == 15.0
    for bad in [good.replace('"tuned"\nfield', '"heuristic"\nfield'),
                good.replace('["tuned"]', '["greedy"]'),
                good.replace("veto_at", "floor"),
                good.replace("[13.5, 15.0]", "[13.5]"),
                'policy = "tuned"\nfield = ["tuned"]\n']:
        p.write_text(bad)
        with pytest.raises(ValueError):
            load_best_response(p, VETO_PARAMS)
    assert VETO_BR_FILE.exists()


# ------------------------------------------------------------------ the media_br policy
def test_media_br_is_tuned_with_the_file_s_aim_values_only():
    assert {n: SPACE[n][0] for n in AIM} == AIM_PARAMS
    br, t = get("media_br"), get("tuned")
    assert "media_br" in available() and br.fn is t.fn and br.flags == t.flags
    d = load_best_response(MEDIA_BR_FILE, AIM_PARAMS)
    assert d["searched"] == AIM and d["scoring"] == "in_place"
    assert d["config"]["players"] == 4 and d["config"]["rules"] == "full"
    for i in range(N_PARAMS):
        name = next((n for n, j in AIM_PARAMS.items() if j == i), None)
        if name is None:
            assert br.params[i] == t.params[i]
        else:
            assert br.params[i] == d["tuned"][name][1] and d["tuned"][name][0] == 0
    assert get("media_br:nomedia").params[P_NOMEDIA] == 1


def test_the_media_aim_changes_only_whom_a_media_targets():
    """An extreme aim (the leader's points weigh most) plays other games than tuned's
    aim under the default rules, where Media are played; when every seat declines its
    Media (media_optional, ``:nomedia``) the two play exactly the same games."""
    from demos_sim.tuner.bot import candidate

    vec = np.array(get("tuned").params)
    vec[AIM_PARAMS["aim_threat"]], vec[AIM_PARAMS["aim_lead"]] = -1.0, 0.49
    opt = make_config("demos", 4, {"media_optional": True}, rules="full")
    with candidate("tuned", vec) as name:
        aim = side_shares("demos", CFG, [name] * 4, 512, 31)
        aim_off = side_shares("demos", opt, [f"{name}:nomedia"] * 4, 512, 31)
    assert not np.array_equal(aim, side_shares("demos", CFG, ["tuned"] * 4, 512, 31))
    assert np.array_equal(aim_off, side_shares("demos", opt, ["tuned:nomedia"] * 4, 512, 31))
