"""Tests that could pass without checking anything under CI (``CI=true``): a missing
browser, a missing game, digests being rewritten. Each must fail there, not skip."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception),
                                         ("1", pytest.fail.Exception),
                                         ("", pytest.skip.Exception),
                                         ("false", pytest.skip.Exception)])
def test_a_missing_browser_fails_under_ci_and_skips_elsewhere(monkeypatch, ci, outcome):
    import browserkit

    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(browserkit.shutil, "which", lambda name: None)
    with pytest.raises(outcome) as e:
        browserkit.browser_or_skip()
    assert "no headless browser" in str(e.value)


def test_no_test_skips_quietly():
    """Every ``pytest.skip`` in the tests is one reviewed here: a skip on a missing browser
    goes through browserkit.browser_or_skip (it fails under CI); a skip on a missing game
    is gone (L'Assemblée is a game)."""
    reviewed = {
        "tests/browserkit.py": 1,              # outside CI only
        "tests/stats/test_plots_read.py": 1,   # a committed section not yet regenerated
        "tests/report/test_findings.py": 1,    # no committed analyses
        "tests/tools/test_numba_cache.py": 1,  # a numba without environment locators
    }
    found = {}
    for f in TESTS.rglob("*.py"):
        n = len(re.findall(r"\bpytest\.skip\(", f.read_text(encoding="utf-8")))
        rel = str(f.relative_to(ROOT))
        if n and rel != "tests/tools/test_ci_guards.py":
            found[rel] = n
    assert found == reviewed


def _digests_module():
    spec = importlib.util.spec_from_file_location("digests_under_test",
                                                  TESTS / "runner" / "test_digests.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_updating_the_digests_under_ci_fails_and_writes_nothing(monkeypatch, tmp_path):
    mod = _digests_module()
    copy = tmp_path / "digests.json"
    copy.write_text("{}\n")
    monkeypatch.setattr(mod, "PATH", copy)
    monkeypatch.setattr(mod, "digests", lambda name: {"results": "x", "records": "y"})
    monkeypatch.setenv("DEMOS_SIM_UPDATE_DIGESTS", "1")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="DEMOS_SIM_UPDATE_DIGESTS"):
        mod.test_same_seed_same_games(sorted(mod.SETUPS)[0])
    assert copy.read_text() == "{}\n"


def _ci_run(tmp_path, ci: str):
    """.ci/run with no chromium and no apt-get on PATH, and ``make`` a stub."""
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    for tool in ("dirname", "id", "cat", "env"):
        os.symlink(shutil.which(tool), bin_ / tool) if not (bin_ / tool).exists() else None
    (bin_ / "make").write_text("#!/bin/sh\necho MAKE RAN\n")
    (bin_ / "make").chmod(0o755)
    env = {"PATH": str(bin_), "CI": ci, "HOME": str(tmp_path)}
    return subprocess.run([shutil.which("bash"), str(ROOT / ".ci" / "run")], env=env,
                          capture_output=True, text=True, timeout=60)


def test_ci_run_without_a_browser_exits_non_zero_under_ci(tmp_path):
    p = _ci_run(tmp_path, "true")
    assert p.returncode != 0 and "MAKE RAN" not in p.stdout, p.stdout + p.stderr
    assert "chromium" in p.stderr
    p = _ci_run(tmp_path, "")                # a developer's machine: a note, then the tests
    assert p.returncode == 0 and "MAKE RAN" in p.stdout, p.stdout + p.stderr
