"""The kernel contract (:mod:`demos_sim.kernel`) and the declared layouts
(:mod:`demos_sim.layout_alloc`), the same for DĒMOS, Protocole and L'Assemblée.

- every engine's decision step has the same diagnostics: the M2 check mode changes no
  game (the check runs on its own scratch), and a policy returning an index outside its
  options plays option 0, is flagged in the state's ``S_ERROR`` and so in
  ``diag[D_ERROR]``, and is raised by :func:`check_errors` as a one-line
  :class:`ConfigError`;
- every layout names each field once, its lengths follow from the fields, and a vector
  prints field by field.
"""

import importlib

import numpy as np
import pytest
from numba import njit

from demos_sim import ConfigError
from demos_sim import kernel as K
from demos_sim.layout_alloc import Fields
from demos_sim.registry import POLICY_SIG, Policy, policy_tuple
from demos_sim.sim_common import chunk_game_keys

GAMES = ("demos", "protocole", "assemblee")

# name -> (game, config factory, policies by seat, games)
SETUPS = {
    "demos-full-4p": ("demos", lambda m: m.DemosConfig("full", "individual", 4),
                      ["greedy", "heuristic", "random", "greedy"], 300),
    "demos-2v2p1": ("demos", lambda m: m.DemosConfig("full", "2v2+1", 5),
                    ["greedy", "random", "heuristic", "greedy", "random"], 300),
    "demos-simplified-3p": ("demos", lambda m: m.DemosConfig("simplified", "individual", 3),
                            ["greedy", "random", "greedy"], 300),
    "protocole-each-4p": ("protocole", lambda m: m.ProtocoleConfig("each", None, 4),
                          ["cautious", "planner", "random", "cautious"], 300),
    "protocole-coop-l3-3p": ("protocole", lambda m: m.ProtocoleConfig("coop", 3, 3),
                             ["convention", "planner", "random"], 300),
    "assemblee-8p": ("assemblee",
                     lambda m: m.AssembleeConfig(8, {"personalities": True,
                                                     "final_tie": "mc_choice"}),
                     ["civic", "free_rider", "aggressive", "conditional", "random",
                      "reciprocal", "civic", "random"], 100),
}


def _modules(game):
    E = importlib.import_module(f"demos_sim.{game}.engine")
    L = importlib.import_module(f"demos_sim.{game}.layout")
    rules = importlib.import_module(f"demos_sim.{game}.rules")
    policies = importlib.import_module(f"demos_sim.{game}.policies")
    return E, L, rules, policies


def _play(game, config, policies, games, check_obs, seed=11):
    """(result rows, diag) of games 0 … games-1 of ``seed`` through ``play_batch``."""
    E, L, _, _ = _modules(game)
    fns, params = policy_tuple(policies, L.MAXP)
    res = np.zeros((games, L.RES_LEN), np.int64)
    diag = K.new_diag()
    E.play_batch(fns, config.to_array(check_obs=check_obs), params,
                 chunk_game_keys(seed, 0, 0, games), res, diag)
    return res, diag


@pytest.mark.parametrize("game", GAMES)
def test_engines_share_the_diagnostics(game):
    E = _modules(game)[0]
    assert E.DIAG_LEN == K.DIAG_LEN
    for name in ("D_CHECKED", "D_OBS_DIFF", "D_DECISION_DIFF", "D_ERROR"):
        assert getattr(E, name) == getattr(K, name)
    assert E.check_errors is K.check_errors


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_check_mode_changes_no_game(name):
    """M2 check mode replays every decision on a scrambled state, in the kernels' own
    scratch: the games (every result column) are those of the plain run."""
    game, make, specs, games = SETUPS[name]
    _, L, rules, pol = _modules(game)
    config = make(rules)
    policies = pol.resolve(specs, config.players)
    plain, d0 = _play(game, config, policies, games, False)
    checked, diag = _play(game, config, policies, games, True)
    assert d0[K.D_CHECKED] == 0 and not d0.any()
    assert np.array_equal(plain, checked), f"{name}: check mode changed games"
    assert diag[K.D_CHECKED] > games
    assert diag[K.D_OBS_DIFF] == diag[K.D_DECISION_DIFF] == diag[K.D_ERROR] == 0
    assert diag[K.D_INVARIANT] == diag[K.D_PUB_DIFF] == diag[K.D_OUT_ACTED] == 0
    assert diag[K.D_FIRST_DIFF] == 0


@njit(POLICY_SIG, cache=False)
def _past_the_end(cfg, obs, opts, n_opts, params, rng):
    return n_opts


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_index_is_flagged_then_raised(game):
    """Validate step: an index outside ``0 … n_opts-1`` plays option 0 and sets
    ``ERR_BAD_INDEX`` (``S_ERROR``, then ``diag``); the kernel neither raises nor stops;
    ``check_errors`` raises."""
    name = next(n for n, s in SETUPS.items() if s[0] == game)
    _, make, specs, _ = SETUPS[name]
    _, L, rules, pol = _modules(game)
    config = make(rules)
    bad = Policy("t_past_the_end", _past_the_end, np.zeros(32))
    policies = [bad] + pol.resolve(specs, config.players)[1:]
    res, diag = _play(game, config, policies, 20, False)
    assert diag[K.D_ERROR] == K.ERR_BAD_INDEX
    assert (res[:, L.R_ROUNDS] > 0).all()          # every game was played to its end
    st = np.zeros(L.ST_LEN, np.int64)
    assert K.validate(5, 5, st, L.S_ERROR) == 0 and st[L.S_ERROR] == K.ERR_BAD_INDEX
    assert K.validate(-1, 5, st, L.S_ERROR) == 0 and K.validate(4, 5, st, L.S_ERROR) == 4
    with pytest.raises(ConfigError, match="outside its legal options"):
        K.check_errors(diag)
    K.check_errors(K.new_diag())                   # nothing flagged: no error
    assert K.describe(diag)["error"] == K.ERR_BAD_INDEX


@pytest.mark.parametrize("game", GAMES)
def test_layouts_are_declared_once(game):
    """Each vector's fields tile it (in order, gaps declared), every ``C_/S_/O_/R_/W_``
    constant names one field, the lengths are the layouts' sizes, and ``to_array`` fills
    a configuration of CFG_LEN."""
    _, L, rules, _ = _modules(game)
    layouts = {"C_": (L.CFG, L.CFG_LEN), "S_": (L.STATE, L.ST_LEN),
               "O_": (L.OBS, L.OBS_LEN), "R_": (L.RESULTS, L.RES_LEN)}
    if hasattr(L, "SCRATCH"):
        layouts["W_"] = (L.SCRATCH, L.WK_LEN)
    for prefix, (lay, length) in layouts.items():
        assert len(lay) == length
        names = {k for k, v in vars(L).items() if k.startswith(prefix) and type(v) is int}
        assert names == set(lay), prefix
        end = 0
        for name, (offset, shape) in lay.fields.items():
            assert offset >= end and getattr(L, name) == offset
            end = offset + int(np.prod(shape))
        assert end == length
    config = SETUPS[next(n for n, s in SETUPS.items() if s[0] == game)][1](rules)
    assert config.to_array().shape == (L.CFG_LEN,)


def test_views_print_fields_by_name():
    from demos_sim.demos import layout as L

    st = np.zeros(L.ST_LEN, np.int64)
    st[L.S_ROUND] = 3
    st[L.S_HAND + 2] = 7
    st[L.S_FIG + 1 * L.NFIG + 4] = 9
    v = L.view_state(st)
    assert v.S_ROUND == 3 and v["S_HAND"][2] == 7 and v.S_FIG[1, 4] == 9
    assert v.S_FIG.shape == (L.MAXP, L.NFIG)
    text = str(v)
    assert text.splitlines()[0] == f"state ({L.ST_LEN} words)"
    assert all(name in text for name in L.STATE)
    assert v.as_dict()["S_HAND"] == [0, 0, 7, 0, 0]
    assert L.STATE.name_at(L.S_FIG + L.NFIG + 4) == "S_FIG[1, 4]"
    assert L.OBS.name_at(L.O_KIND) == "O_KIND"
    with pytest.raises(ValueError):
        L.view_obs(st)                                  # not an observation's length
    from demos_sim.assemblee import layout as AL

    assert AL.OBS.name_at(AL.O_EVENT_NOW + 1) == f"<unused {AL.O_EVENT_NOW + 1}>"


def test_fields_allocator():
    f = Fields("demo")
    ns = {"X_A": f.add(), "X_B": f.add(3), "X_T": f.add((2, 2))}
    f.skip(2)
    ns["X_Z"] = f.add()
    assert (ns["X_A"], ns["X_B"], ns["X_T"], ns["X_Z"], f.size) == (0, 1, 4, 10, 11)
    lay = f.named(ns, "X_")
    assert list(lay) == ["X_A", "X_B", "X_T", "X_Z"]
    with pytest.raises(ValueError, match="name no declared field"):
        f.named({**ns, "X_STRAY": 5}, "X_")
    with pytest.raises(ValueError, match="has names"):
        f.named({k: v for k, v in ns.items() if k != "X_B"}, "X_")
    with pytest.raises(ValueError):
        f.add(0)
