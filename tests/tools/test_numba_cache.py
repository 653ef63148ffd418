"""numba's cache notices an edit of a module a cached kernel calls into
(:mod:`demos_sim.numba_cache`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import demos_sim
from demos_sim import numba_cache as nc

PKG = Path(demos_sim.__file__).resolve().parent


def _clear():
    for f in (nc.imports, nc._file_digest, nc.closure_digest):
        f.cache_clear()


def test_imports_reads_every_form(tmp_path, monkeypatch):
    src = tmp_path / "m.py"
    src.write_text(textwrap.dedent('''
        import numpy as np
        import demos_sim.rng, demos_sim.bits as B
        from demos_sim.demos import layout as L, engine
        from demos_sim.demos.scoring import (  # a comment
            best_combo,
            round_key)
        from demos_sim import ConfigError
        from numba import njit
        def f():
            from demos_sim.kernel import flag
    '''))
    _clear()
    got = {str(p.relative_to(PKG)) for p in nc.imports(src)}
    assert got == {"rng.py", "bits.py", "demos/layout.py", "demos/engine.py",
                   "demos/scoring.py", "__init__.py", "kernel.py"}


def test_the_engine_depends_on_what_it_calls():
    _clear()
    direct = {str(p.relative_to(PKG)) for p in nc.imports(PKG / "demos" / "engine.py")}
    # best_combo (scoring), observe (observe), the shared decision step (kernel), draws
    assert {"demos/scoring.py", "demos/observe.py", "kernel.py", "rng.py"} <= direct


def _mini_package(root: Path) -> Path:
    """A package named demos_sim with the real __init__ and numba_cache, and a cached
    kernel in one module calling a helper in another."""
    pkg = root / "demos_sim"
    pkg.mkdir()
    shutil.copy(PKG / "__init__.py", pkg)
    shutil.copy(PKG / "numba_cache.py", pkg)
    (pkg / "helper.py").write_text(textwrap.dedent('''
        from numba import njit
        @njit(cache=True)
        def points():
            return 1
    '''))
    (pkg / "kern.py").write_text(textwrap.dedent('''
        from numba import njit
        from demos_sim.helper import points
        @njit(cache=True)
        def score():
            return points() * 10
    '''))
    return pkg


def _score(root: Path, env_extra=None) -> int:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(env_extra or {})
    out = subprocess.run([sys.executable, "-c", "from demos_sim.kern import score; "
                          "print(score())"], cwd=root, env=env, capture_output=True,
                         text=True, check=True)
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no cache without JIT")
def test_an_edited_callee_is_recompiled(tmp_path):
    pkg = _mini_package(tmp_path)
    assert _score(tmp_path) == 10                     # compiled, cached
    assert any(pkg.joinpath("__pycache__").glob("kern.score-*.nbc"))
    assert _score(tmp_path) == 10                     # from the cache
    (pkg / "helper.py").write_text((pkg / "helper.py").read_text().replace("return 1",
                                                                          "return 2"))
    assert _score(tmp_path) == 20                     # kern.py unchanged, helper edited


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no cache without JIT")
def test_numba_alone_keeps_the_stale_kernel(tmp_path):
    """What the locators fix: with numba's own locator the edit goes unseen."""
    pkg = _mini_package(tmp_path)
    own = {"NUMBA_CACHE_LOCATOR_CLASSES": "InTreeCacheLocator"}
    import numba.core.config as cfg
    if not hasattr(cfg, "CACHE_LOCATOR_CLASSES"):
        pytest.skip("this numba cannot choose its locators from the environment")
    assert _score(tmp_path, own) == 10
    (pkg / "helper.py").write_text((pkg / "helper.py").read_text().replace("return 1",
                                                                          "return 2"))
    assert _score(tmp_path, own) == 10
