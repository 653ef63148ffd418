"""The ``tuned`` rung: its data file, its registration, and the optimiser that wrote it
(demos_sim/tuner/bot.py) on tiny budgets with a planted evaluation."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import pytest

from demos_sim import ConfigError
from demos_sim.demos.policies import N_PARAMS, available, get
from demos_sim.demos.policies.heuristic import (
    HEURISTIC_PARAMS, P_FLOOR, P_LEGACY, P_NOMEDIA, P_NOTAKE, P_NOVETO, P_VETO_AT,
)
from demos_sim.demos.policies.tuned import TUNED_FILE, load_tuned
from demos_sim.game import get_game
from demos_sim.provenance import CONTRACT
from demos_sim.sim_common import chunk_game_keys, chunks_of
from demos_sim.tournament import make_config
from demos_sim.tuner.bot import CANDIDATE, deal_seed, space_for, tune_bot

SPACE = get_game("demos").tune_space(team=True)     # every parameter tune-bot may search

CFG = make_config("demos", 4, rules="full")


# ------------------------------------------------------------------ the data file
def test_tuned_is_heuristic_with_the_file_s_parameters_only():
    t, h = get("tuned"), get("heuristic")
    assert "tuned" in available()
    assert t.fn is h.fn                          # the same decisions, other numbers
    assert t.flags == h.flags and t.budget == h.budget is None
    data = load_tuned()
    vec = np.zeros(N_PARAMS)
    vec[:len(data["params"])] = data["params"]
    assert np.array_equal(t.params, vec)
    for i in (P_NOVETO, P_NOTAKE, P_NOMEDIA, P_LEGACY):      # flags are not tuned
        assert t.params[i] == 0
    # only the searched indices may differ from heuristic's vector
    searched = {i for i, *_ in SPACE.values()}
    differ = {i for i in range(N_PARAMS) if t.params[i] != h.params[i]}
    assert differ <= searched
    assert get("tuned:noveto").params[P_NOVETO] == 1
    assert get("tuned:noveto").params[P_VETO_AT] == t.params[P_VETO_AT]


def test_tuned_file_records_how_it_was_found():
    with open(TUNED_FILE, "rb") as f:
        d = tomllib.load(f)
    assert d["policy"] == "heuristic" and d["sampler"] == "tpe"
    assert d["contract"] == CONTRACT
    assert d["trials"] >= 1 and d["games"] >= 1 and d["field"]
    assert d["git_revision"] and d["command"].startswith("demos-sim tune-bot")
    assert d["default"] == list(HEURISTIC_PARAMS)
    assert d["config"]["rules"] == "full" and d["config"]["players"] == 4
    c = d["confirmation"]
    assert c["against"] == "heuristic" and c["deals"] >= 20000
    lo, hi = c["ci95"]
    assert lo <= c["win_share"] <= hi
    # the file's [tuned] table is the vector's searched entries
    for name, (default, tuned) in d["tuned"].items():
        i = SPACE[name][0]
        assert d["params"][i] == tuned and d["default"][i] == default


def test_policies_command_says_where_tuned_comes_from(capsys):
    from demos_sim.cli import main

    assert main(["policies"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("tuned "))
    assert "tuned.toml" in line and "tuned:noveto" in line


def test_load_tuned_refuses_bad_files(tmp_path):
    good = 'policy = "heuristic"\nparams = [17.0, 3.0]\n'
    p = tmp_path / "t.toml"
    p.write_text(good)
    assert load_tuned(p)["params"] == [17.0, 3.0]
    for bad in ['policy = "greedy"\nparams = [1.0]\n',
                'policy = "heuristic"\nparams = []\n',
                'policy = "heuristic"\nparams = [17.0, 3.0, 1.0]\n',          # noveto set
                f'policy = "heuristic"\nparams = {[0.0] * (N_PARAMS + 1)}\n']:
        p.write_text(bad)
        with pytest.raises(ValueError):
            load_tuned(p)


# ------------------------------------------------------------------ the optimiser
def planted_play(log=None):
    """A fake ``play``: per-deal win sums of a 4-seat match (2 rotations, 2 wins a deal)
    from a true strength — best at veto_at = 20 — plus deal noise that is the same for
    every vector on a seed (common random numbers). On the search seed (2026) only, a
    vector with floor >= 13 is *lucky*: +0.08; on every other seed it is 0.03 worse."""
    def play(vec, opponent, seed, deals):
        if log is not None:
            log.append((seed, deals))
        q = 0.5 + 0.03 * (1 - abs(vec[P_VETO_AT] - 20) / 8)
        lucky = vec[P_FLOOR] >= 13
        q += (0.08 if seed == 2026 else -0.03) if lucky else 0.0
        noise = np.random.default_rng([seed, len(opponent)]).normal(0, 0.3, deals)
        a = 2 * np.clip(q + noise, 0, 1)
        return a, 2 - a
    return play


def _tune(seed=2026, log=None, **kw):
    args = dict(trials=30, games=256, top=4, race_games=4096, confirm_games=2048)
    args.update(kw)
    return tune_bot(CFG, seed=seed, play=planted_play(log), **args)


def test_fresh_deals_overturn_a_winner_that_was_only_lucky_in_the_search():
    res = _tune()
    top = max(res.search_rows, key=lambda r: r["score"])
    assert top["floor"] >= 13                          # the search fell for the luck
    assert res.best[P_FLOOR] < 13                      # the race did not
    # the race's first round had the lucky vector and ranked it low on fresh deals
    r0 = [r for r in res.race_rows if r["round"] == 0]
    assert any(r["floor"] >= 13 for r in r0)
    assert max(r0, key=lambda r: r["score"])["floor"] < 13
    assert res.headline()["against"] == "heuristic"


def test_same_seed_same_vector_and_trials():
    a, b = _tune(), _tune()
    assert np.array_equal(a.best, b.best)
    assert [r["score"] for r in a.search_rows] == [r["score"] for r in b.search_rows]
    assert a.race_rows == b.race_rows and a.confirmation == b.confirmation


def test_confirmation_and_race_deals_are_disjoint_from_the_search_s():
    log = []
    res = _tune(log=log)
    seeds = [s for s, _ in log]
    s_search, c_seed = deal_seed(2026, "search"), deal_seed(2026, "confirm")
    assert set(res.race_seeds) | {s_search, c_seed} == set(seeds)
    assert len(set(res.race_seeds) | {s_search, c_seed}) == len(res.race_seeds) + 2
    # the games each stage plays: deals 0 … n-1 of its seed; their keys never meet
    def keys(seed, n):
        return {int(k) for c, cnt in chunks_of(n)
                for k in chunk_game_keys(seed, c, 0, cnt)}
    search = keys(s_search, max(n for s, n in log if s == s_search))
    confirm = keys(c_seed, res.confirm_games)
    assert not search & confirm
    for r_seed in res.race_seeds:
        assert not search & keys(r_seed, max(n for s, n in log if s == r_seed))


def test_race_halves_and_doubles_and_plays_the_default_every_round():
    res = _tune()
    rounds = sorted({r["round"] for r in res.race_rows})
    n = 4 + 1                                             # top and the default
    assert len(rounds) == 1 + math.ceil(math.log2(n / 2))
    deals = [next(r["deals"] for r in res.race_rows if r["round"] == k) for k in rounds]
    assert deals[-1] == 4096 and all(b == 2 * a for a, b in zip(deals, deals[1:]))
    for k in rounds:
        assert any(r["is_default"] for r in res.race_rows if r["round"] == k)


def test_the_search_space_has_no_flags_and_team_only_weights_only_in_team_modes():
    idx = {i for i, *_ in SPACE.values()}
    assert not idx & {P_NOVETO, P_NOTAKE, P_NOMEDIA, P_LEGACY, 12, 13}
    assert not idx & set(range(18, 28))        # ismcts's own parameters (P_BUDGET …)
    assert "mate_w" not in space_for(CFG)
    assert "mate_w" in space_for(make_config("demos", None, mode="2v2"))
    h = get("heuristic").params                          # padded with zeros to N_PARAMS
    for name, (i, lo, hi, step) in SPACE.items():        # heuristic's default is inside
        assert lo <= h[i] <= hi, name
        assert round((hi - lo) / step, 9).is_integer(), name   # optuna's grid fits


def test_the_media_aim_is_searched_only_when_named():
    aim = ["aim_threat", "aim_harm", "aim_lead"]
    assert not set(aim) & set(space_for(CFG))            # tuned.toml's space, unchanged
    assert list(space_for(CFG, names=aim)) == aim
    assert {SPACE[n][0] for n in aim} == {28, 29, 30}


def test_the_default_is_kept_when_no_finalist_beats_it_in_the_last_round():
    """A planted race: every other vector is lucky (+0.02) on the first race round's deals
    and 0.02 worse than the default on the later ones (twice as many), so the default is
    dropped after round 1 (it ranks last there) but leads on the last round's deals.
    The deal noise is common to all vectors on a seed, so the order is exact."""
    r0 = deal_seed(2026, "race", 0)
    default = get("heuristic").params

    def play(vec, opponent, seed, deals):
        q = 0.5
        if not np.array_equal(vec, default):
            q += 0.02 if seed == r0 else -0.02
        noise = np.random.default_rng([seed, 1]).normal(0, 0.3, deals)
        a = 2 * np.clip(q + noise, 0, 1)
        return a, 2 - a

    res = tune_bot(CFG, seed=2026, play=play, trials=12, games=64, top=4, race_games=4096,
                   confirm_games=256)
    first = [r for r in res.race_rows if r["round"] == 0]
    assert not next(r for r in first if r["is_default"])["kept"]     # dropped in round 1
    last = max(r["round"] for r in res.race_rows)
    fin = [r for r in res.race_rows if r["round"] == last]
    assert max(fin, key=lambda r: r["score"])["is_default"]          # … leads at the end
    assert np.array_equal(res.best, default)                        # … and is kept


def test_bad_input_is_refused_before_any_game():
    def boom(*a):
        raise AssertionError("played")
    for kw in ({"policy": "greedy"}, {"field": ["nosuch"]}, {"trials": 0}, {"field": []}):
        with pytest.raises(ConfigError):
            tune_bot(CFG, play=boom, **kw)


def test_what_tune_bot_may_tune_is_the_game_s():
    """The game decides what tune-bot tunes (Game.tunable reads the spec with the
    registry's parser): the heuristic family, restricted or with a budget, is tunable,
    greedy is not; Protocole has no tunable bot, and the refusal names the games that do."""
    def boom(*a):
        raise AssertionError("played")
    ad = get_game("demos")
    assert ad.tunable("heuristic:noveto") is None and ad.tunable("tuned") is None
    assert ad.tunable("search@8") is None
    assert "not 'greedy'" in ad.tunable("greedy")
    assert "not 'greedy:nomedia'" in ad.tunable("greedy:nomedia")
    assert get_game("protocole").tune_space(team=False) == {}
    with pytest.raises(ConfigError, match="--game protocole has no tunable bot") as e:
        tune_bot(make_config("protocole", 4), policy="cautious", field=["cautious"],
                 game="protocole", play=boom)
    assert "DĒMOS" in str(e.value) and "L'Assemblée" in str(e.value)
    with pytest.raises(ConfigError, match="--warm"):
        get_game("protocole").tune_warm("x.toml")


def test_a_tiny_real_run_writes_a_file_tuned_can_be_loaded_from(tmp_path, capsys):
    from demos_sim.cli import main

    out = tmp_path / "tuned.toml"
    assert main(["tune-bot", "--against", "greedy", "--trials", "3", "--games", "32",
                 "--top", "2", "--race-games", "32", "--confirm-games", "64", "--seed", "5",
                 "--out", str(out), "--quiet"]) == 0
    d = load_tuned(out)
    assert d["field"] == ["greedy"] and d["trials"] == 3 and d["seed"] == 5
    assert d["confirmation"]["deals"] == 64 and d["confirmation"]["against"] == "heuristic"
    assert "--seed 5" in d["command"]
    assert CANDIDATE not in available()              # the candidate was registered a while
    assert "confirmation vs heuristic" in capsys.readouterr().out
