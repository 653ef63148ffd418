"""L'Assemblée over whole games: the M2 observation test for every policy, invariants
(gold never negative, gold and renown accounted for across every transfer, players out
take no action), determinism, records against the schema for 4–15 players, CLI errors."""

from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from contract import SCHEMA_PATH

from demos_sim.assemblee import engine as E
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.policies import available
from demos_sim.assemblee.record import iter_records, play_logged, to_record
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim.assemblee.sim import play_games
from demos_sim.runner.simulate import simulate
from demos_sim.sim_common import chunk_game_keys

SCHEMA = json.loads(SCHEMA_PATH.read_text())
MIX = ["civic", "aggressive", "free_rider", "conditional", "random"]


def _mix(n):
    return [MIX[i % len(MIX)] for i in range(n)]


@pytest.mark.parametrize("policy", [p for p in available() if not p.startswith("t_")])
def test_M2_decisions_ignore_hidden_state(policy):
    checked = 0
    for n, variants in ((4, {}), (9, {"personalities": True}), (15, {"personalities": True}),
                        (6, {"oracle_view": "three_players", "postpone_surcharge": "once",
                             "event_draw": "independent", "final_tie": "mc_choice"}),
                        (5, {"final_tie": "mc_choice", "personalities": True})):
        cfg = AssembleeConfig(n, variants).to_array()
        specs = [policy if i % 2 == 0 else "random" for i in range(n)]
        _, diag = play_games(cfg, specs, 11, n, 0, 12, check_obs=True)
        assert diag[E.D_PUB_DIFF] == 0, "board differs from the state's public parts"
        assert diag[E.D_OBS_DIFF] == 0, "observation leaks hidden state"
        assert diag[E.D_DECISION_DIFF] == 0
        assert diag[E.D_INVARIANT] == 0 and diag[E.D_OUT_ACTED] == 0
        checked += diag[E.D_CHECKED]
    assert checked > 1000


def _ledger_check(rec):
    """Gold and renown of the players in the game, round by round, from the record's own
    transfers: income, good events, bids, pledges, benefits, ostracism, honours."""
    n = rec["players"]
    gold = [0] * n
    ren = [3 if (rec["personalities"] or [None] * n)[p] == "mirnok" else 0 for p in range(n)]
    for r in rec["rounds"]:
        g0, r0 = sum(gold[p] for p in r["in_game"]), sum(ren[p] for p in r["in_game"])
        dg = sum(r["income"]) - sum(map(sum, r["bids"]))
        dr = 0
        ge = r["good_event"]
        if ge and ge["stopped_by"] is None:
            if ge["event"] == "wedding":
                dr += 6
            else:
                dg += (10 if ge["event"] == "harvest" else 5) * len(r["in_game"])
        for pe in r["pending"]:
            if pe["spent_by"] is not None:
                dr += 3
            elif pe["resolved"]:
                dg -= sum(pe["pledges"])
        for b in r["benefits"] or []:
            c = b["character"]
            dr += {"spectacles": 5, "priest": 3, "athlete": 3, "hero": 4, "philosopher": 2}.get(c, 0)
            dg += {"peddler": 7, "broker": 4}.get(c, 0)
            if c in ("builder", "crier") and b["choice"]:
                dg -= b["choice"]
                dr += {("builder", 3): 2, ("builder", 4): 5, ("builder", 6): 8,
                       ("crier", 3): 1, ("crier", 4): 2, ("crier", 6): 3}[(c, b["choice"])]
            if c == "assassin" and b["target"] is not None:
                dg -= 25
        # removed players: everything they held leaves; exile shares come back
        g1 = sum(x for x in r["gold"] if x is not None)
        r1 = sum(x for x in r["renown"] if x is not None)
        o = r["ostracism"]
        if o is not None:
            dg -= sum(o["pledges"])
            if o["passed"]:
                dr += 3
        if r["honoured"] is not None:
            dr += 5
        # the Thief is zero-sum; the Courtesan removes up to 4 renown each (bounded below);
        # rounds where a player left (his figures at that moment are not recorded) only get
        # the sign and "players out take no action" checks
        gold = [x if x is not None else 0 for x in r["gold"]]
        ren = [x if x is not None else 0 for x in r["renown"]]
        assert all(x >= 0 for x in gold + ren)
        removed = [p for p in r["in_game"] if r["gold"][p] is None]
        left = [p for p in r["in_game"] if r["gold"][p] is not None]
        for p in range(n):
            if p not in r["in_game"]:
                assert r["income"][p] == 0 and all(b[p] == 0 for b in r["bids"])
                assert (r["honours"] is None or r["honours"][p] is None)
        if removed or not left:
            continue
        court = sum(1 for b in r["benefits"] or [] if b["character"] == "courtesan")
        assert g1 - g0 == dg, (rec["seed"], r)
        assert r0 + dr - 4 * court <= r1 <= r0 + dr


@pytest.mark.parametrize("n", [4, 7, 10, 15])
def test_invariants_and_accounting_from_records(n):
    for rec in iter_records(AssembleeConfig(n, {"personalities": True}), _mix(n), 6, 21):
        _ledger_check(rec)


@pytest.mark.parametrize("n", range(4, 16))
def test_records_validate_for_every_player_count(n):
    for v in ({}, {"personalities": True, "akikos_income": "total", "rounds": 17}):
        for rec in iter_records(AssembleeConfig(n, v), _mix(n), 2, n):
            jsonschema.validate(rec, SCHEMA)
            assert len(rec["rounds"]) >= 1
            json.dumps(rec)


def test_record_matches_simulation_results():
    cfg = AssembleeConfig(8)
    res, _ = play_games(cfg.to_array(), _mix(8), 4, 8, 0, 5)
    for g, rec in enumerate(iter_records(cfg, _mix(8), 5, 4)):
        win = sum(1 << p for p in rec["final"]["winners"])
        assert win == res[g, L.R_WINMASK]
        assert [s if s is not None else -1 for s in rec["final"]["scores"]] == \
            list(res[g, L.R_SCORE:L.R_SCORE + 8])
        assert len(rec["rounds"]) == res[g, L.R_ROUNDS]


def _totals(cfg, specs, games, seed, workers=1):
    """Every exact total of a simulation's table (metric, side -> Σ value)."""
    df = simulate("assemblee", cfg, specs, games, seed, workers=workers).results
    return df.set_index(["metric", "side"])["total"]


def test_determinism_any_workers():
    cfg = AssembleeConfig(6)
    a = _totals(cfg, _mix(6), 5000, 9, workers=1)
    b = _totals(cfg, _mix(6), 5000, 9, workers=1)
    c = _totals(cfg, _mix(6), 5000, 9, workers=2)
    assert a.equals(b) and a.equals(c)
    d = _totals(cfg, _mix(6), 5000, 10, workers=1)
    assert not a.equals(d)


def test_common_random_numbers_decks_do_not_depend_on_policies():
    key = chunk_game_keys(3, 0, 0, 1)[0]
    cfg = AssembleeConfig(6)
    r1 = to_record(cfg, ["civic"], 0, play_logged(cfg, ["civic"], key)[0])
    r2 = to_record(cfg, ["random"], 0, play_logged(cfg, ["random"], key)[0])
    assert r1["event_deck"] == r2["event_deck"] and r1["mc"] == r2["mc"]
    assert r1["rounds"][0]["revealed"] == r2["rounds"][0]["revealed"]
    # nor on the variants that change no chance draw before round 0's auction
    for v in ({"oracle_view": "three_players"}, {"postpone_surcharge": "once"},
              {"final_tie": "mc_choice"}, {"event_draw": "independent"}):
        c = AssembleeConfig(6, v)
        r3 = to_record(c, ["civic"], 0, play_logged(c, ["civic"], key)[0])
        assert r3["mc"] == r1["mc"] and r3["rounds"][0]["revealed"] == r1["rounds"][0]["revealed"]
    # independent events: the same for every policy
    c = AssembleeConfig(6, {"event_draw": "independent", "collapse_threshold": 10 ** 6})
    e1 = [r["event"] for r in to_record(c, ["civic"], 0, play_logged(c, ["civic"], key)[0])["rounds"]]
    e2 = [r["event"] for r in to_record(c, ["random"], 0, play_logged(c, ["random"], key)[0])["rounds"]]
    k = min(len(e1), len(e2))
    assert k >= 1 and e1[:k] == e2[:k]


def test_oracle_view_changes_no_builtin_game():
    """None of the built-in policies reads the bids the Oracle sees (A4), and the view
    draws come from their own chance stream: three_bids and three_players give the same
    games for them (a policy that reads them differs: test_oracle_view_matters_to_a_peeker)."""
    a, _ = play_games(AssembleeConfig(6, {"oracle_view": "three_players"}).to_array(), _mix(6),
                     4, 6, 0, 400)
    b, _ = play_games(AssembleeConfig(6).to_array(), _mix(6), 4, 6, 0, 400)
    assert (a == b).all()


def test_final_tie_mc_choice_in_whole_games():
    """A10 mc_choice through whole games: the civic MC names himself whenever he is one of
    the tied, and the record's tie_choice agrees with the results row."""
    cfg = AssembleeConfig(4, {"final_tie": "mc_choice"})
    res, _ = play_games(cfg.to_array(), ["civic"], 9, 4, 0, 400)
    ties = 0
    for g, rec in enumerate(iter_records(cfg, ["civic"], 400, 9)):
        tc = rec["final"]["tie_choice"]
        assert (tc is not None) == (res[g, L.R_FINAL_TIED] > 1)
        if tc is None:
            continue
        ties += 1
        assert rec["final"]["winners"] == [tc["chosen"]] and tc["chosen"] in tc["tied"]
        if tc["mc"] in tc["tied"]:
            assert tc["chosen"] == tc["mc"]
    assert ties >= 3


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "assemblee", "--players", "3"],
    ["simulate", "--game", "assemblee", "--players", "16"],
    ["simulate", "--game", "assemblee", "--set", "rounds=0"],
    ["simulate", "--game", "assemblee", "--set", "nope=1"],
    ["simulate", "--game", "assemblee", "--set", "oracle_view=two_bids"],
    ["simulate", "--game", "assemblee", "--set", "postpone_surcharge=3"],
    ["simulate", "--game", "assemblee", "--set", "event_draw=shuffled"],
    ["record", "--game", "assemblee", "--out", "x.jsonl", "--set", "final_tie=oldest"],
    ["simulate", "--game", "assemblee", "--policies", "nobody"],
    ["simulate", "--game", "assemblee", "--mode", "coop"],
    ["record", "--game", "assemblee", "--out", "/nonexistent/x.jsonl", "--games", "1"],
    ["simulate", "--game", "assemblee", "--plugin", "missing.toml"],
])
def test_cli_bad_input_one_line_exit_2(args):
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", *args], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("demos-sim: error:")


def test_cli_simulate_sets_the_contract_2_variants():
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "simulate", "--game", "assemblee",
                        "--players", "4", "--games", "400", "--seed", "2", "--set",
                        "oracle_view=three_players", "--set", "postpone_surcharge=once", "--set",
                        "event_draw=independent", "--set", "final_tie=mc_choice", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["variants"] == {"rounds": 10, "collapse_threshold": None, "min_players": 3,
                             "personalities": False, "akikos_income": "bonus",
                             "oracle_view": "three_players", "postpone_surcharge": "once",
                             "event_draw": "independent", "final_tie": "mc_choice"}
    # mc_choice: every game has one winner or none (a tie after gold is decided)
    total = sum(x["share"] for x in s["sides"]) + s["no_winner_share"]
    assert abs(total - 1) < 1e-9
    # no shared win: a seat's share sums whole wins, so share × games is its count of wins
    assert all(x["wins"] == round(x["share"] * 400) for x in s["sides"])


def test_cli_simulate_json_and_persona_file(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('[stingy]\ndescription = "bids half"\nbid_per_point = 0.5\n')
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "simulate", "--game",
                        "assemblee", "--players", "5", "--games", "300", "--seed", "1",
                        "--policies", "civic,stingy,civic,stingy,free_rider", "--plugin",
                        str(f), "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    total = sum(x["share"] for x in s["sides"]) + s["no_winner_share"]
    assert abs(total - 1) < 1e-9                          # M1: shares add up
    assert s["contract"] == 2 and s["variants"]["oracle_view"] == "three_bids"
    assert {b["policy"] for b in s["by_policy"]} == {"civic", "stingy", "free_rider"}
    for b in s["by_policy"]:          # a policy's share is the sum of its seats' shares
        assert b["share"] == pytest.approx(sum(s["sides"][i]["share"] for i in b["seats"]),
                                           abs=1e-12)
        assert b["ci95"][0] <= b["share"] <= b["ci95"][1]
    bad = tmp_path / "bad.toml"
    bad.write_text('[x]\nbid_per_pont = 1\n')
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "policies", "--game",
                        "assemblee", "--plugin", str(bad)], capture_output=True, text=True)
    assert p.returncode == 2 and "bid_per_pont" in p.stderr


def test_oracle_view_matters_to_a_peeker(tmp_path):
    """A persona with ``peek = true`` uses the bids the Oracle sees (A4): three_bids and
    three_players then give different games, and the same ones as plain civic when no
    Oracle advantage ever applies (nobody bids on the Oracle: never_bid)."""
    from demos_sim.assemblee.policies import load_extension

    f = tmp_path / "peek.toml"
    f.write_text('[t_peek]\npeek = true\n[t_peek_no_oracle]\npeek = true\nnever_bid = ["oracle"]\n'
                 '[t_no_oracle]\nnever_bid = ["oracle"]\n')
    load_extension(str(f))
    n = 6
    a = _totals(AssembleeConfig(n), ["t_peek"] * n, 600, 4)
    b = _totals(AssembleeConfig(n, {"oracle_view": "three_players"}), ["t_peek"] * n, 600, 4)
    assert not a.equals(b)
    c = _totals(AssembleeConfig(n), ["t_peek_no_oracle"] * n, 600, 4)
    d = _totals(AssembleeConfig(n), ["t_no_oracle"] * n, 600, 4)
    assert c.equals(d)
    for view in ("three_bids", "three_players"):          # M2: it reads only what it may see
        cfg = AssembleeConfig(n, {"oracle_view": view}).to_array()
        _, diag = play_games(cfg, ["t_peek"] * n, 5, n, 0, 40, check_obs=True)
        assert diag[E.D_OBS_DIFF] == 0 and diag[E.D_DECISION_DIFF] == 0 and diag[E.D_PUB_DIFF] == 0


def test_a_policy_answering_outside_its_options_is_one_line():
    """The validate step (demos_sim/kernel.py): an index outside the legal options is
    played as option 0 and flagged; the chunk then raises one line, through the shared
    ``play_rows`` and ``check_errors``, not a per-game error column."""
    import numba

    from demos_sim import ConfigError
    from demos_sim.assemblee.policies import POLICY_SIG, register
    from demos_sim.assemblee.sim import play_chunk

    @numba.njit(POLICY_SIG, cache=False)
    def past_the_end(cfg, obs, opts, n_opts, params, rng):
        return n_opts

    register("t_past_the_end", description="test")(past_the_end)
    cfg = AssembleeConfig(4).to_array()
    assert play_chunk(cfg, ["civic"] * 4, 1, 4, 0, 3).shape == (3, L.RES_LEN)
    with pytest.raises(ConfigError) as e:
        play_chunk(cfg, ["t_past_the_end"] + ["civic"] * 3, 1, 4, 0, 3)
    assert str(e.value) == "a policy returned an index outside its legal options"
