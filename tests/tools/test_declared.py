"""The built-in policies declared as data (``<game>/policies/declared.py``): the table says
what the registered policies say, a policy's module is imported only when its function is
asked for, and the function and parameters then are the very ones a full import gives
(so games play bit for bit as before); names outside the table (plugins, tests, a
built-in policy not yet declared) still work the old way."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from demos_sim import ConfigError
from demos_sim.declare import table
from demos_sim.game import GAMES, get_game


@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_says_what_the_registered_policies_say(game):
    path, text = table(game)            # imports every policy module of the game
    assert path.read_text(encoding="utf-8") == text, (
        f"{path} is out of date: run python -m demos_sim.declare")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_declared_policy_is_registered_by_its_module(game):
    """A fresh interpreter: importing a row's module registers its policy, with the
    declared description, restricted forms, budget and reference."""
    code = textwrap.dedent(f"""
        import importlib
        from demos_sim.game import get_game
        reg = get_game({game!r}).policies.REGISTRY
        for d in reg.declared().values():
            importlib.import_module(d.module)
            p = reg._policies[d.name]
            assert (p.description, p.flags, p.budget, p.default_budget, p.reference) == (
                d.description, d.flags, d.budget, d.default_budget, d.reference), d.name
        print(len(reg.declared()))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    assert int(p.stdout) == len(get_game(game).policies.REGISTRY.declared()) >= 5


def test_get_imports_only_the_policys_module_and_gives_the_same_policy():
    """greedy (basic.py) without ismcts.py; then every built-in module: the same function
    object and parameters, a restricted form and a budget alike."""
    code = textwrap.dedent("""
        import sys
        import numpy as np
        from demos_sim.demos import policies as P
        g = P.get("greedy"); r = P.get("greedy:noveto")
        assert "demos_sim.demos.policies.ismcts" not in sys.modules
        assert "demos_sim.demos.policies.builtin" not in sys.modules
        assert "greedy" in P.available() and "ismcts" in P.available()
        i = P.get("ismcts@8")
        P.REGISTRY._load_builtins()
        for before, spec in ((g, "greedy"), (r, "greedy:noveto"), (i, "ismcts@8")):
            after = P.get(spec)
            assert after.fn is before.fn, spec
            assert np.array_equal(after.params, before.params), spec
        print("ok")
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


def test_a_name_outside_the_table_loads_every_builtin_module():
    """A built-in policy the table has not caught up with yet is found all the same."""
    code = textwrap.dedent("""
        import sys
        from demos_sim.demos import policies as P
        P.REGISTRY.declared()
        del P.REGISTRY._declared["search"]
        assert "search" not in P.available()
        assert P.get("search@4").params[12] == 4.0
        assert "demos_sim.demos.policies.builtin" in sys.modules
        assert "search" in P.available()
        print("ok")
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


def test_a_policy_registered_the_old_way_is_listed_and_described():
    import numba

    from demos_sim.demos import policies as P

    @P.register("t_declared_first", params=(5.0,), description="always the first option",
                budget=0)
    @numba.njit(P.POLICY_SIG, cache=True)
    def first(cfg, obs, opts, n_opts, params, rng):
        return 0

    try:
        assert "t_declared_first" in P.available()
        d = P.describe("t_declared_first")
        assert (d.description, d.budget, d.default_budget) == ("always the first option", 0, 5)
        assert P.get("t_declared_first@7").params[0] == 7.0
        assert P.get("t_declared_first").fn is first
    finally:
        P.REGISTRY.unregister("t_declared_first")
    with pytest.raises(ConfigError, match="unknown DĒMOS policy 'nobody'.*greedy"):
        P.get("nobody")
    with pytest.raises(ConfigError, match="unknown DĒMOS policy 'nobody'"):
        P.describe("nobody")


def test_describe_reads_the_table_before_the_module_is_imported():
    """Protocole's ismcts described from the table (its module not imported) as the
    registered policy describes it."""
    code = textwrap.dedent("""
        import json, sys
        from demos_sim.protocole import policies as P
        d = P.describe("ismcts")
        assert "demos_sim.protocole.policies.ismcts" not in sys.modules
        print(json.dumps([d.description, d.flags, d.budget, d.default_budget]))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    from demos_sim.protocole import policies as P

    pol = P.get("ismcts")
    assert json.loads(p.stdout) == [pol.description, pol.flags, pol.budget,
                                    int(pol.params[pol.budget])]
