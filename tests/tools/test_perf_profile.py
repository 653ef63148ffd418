"""benchmarks/perf_profile.py: numba's mangled names read back, perf's JIT map, and a real
profile of a small Protocole run (where perf is installed and allowed)."""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "perf_profile.py"


def _module():
    spec = importlib.util.spec_from_file_location("perf_profile", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_mangled_numba_names_read_as_dotted_paths():
    pp = _module()
    # a real symbol of the DĒMOS engine (ABI tag and argument types after the name)
    sym = ("_ZN9demos_sim5demos6engine11_play_roundB4v352B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMVC"
           "_2fAwA_3dE8UniTupleI222FunctionType_5bint64_28array_28int64")
    assert pp._readable(sym) == "demos_sim.demos.engine._play_round"
    assert pp._readable("_ZN9demos_sim3rng9game_keysB3v12B40abcE") == "demos_sim.rng.game_keys"
    assert pp._readable("NRT_incref") == "NRT_incref"     # runtime symbols are not mangled


def test_the_jit_map_lists_every_function_once_without_overlaps(tmp_path, monkeypatch):
    pp = _module()
    syms = {0x7F0000001000: "b", 0x7F0000000000: "a", 0x7F0000003000: "c"}
    monkeypatch.setattr(pp.os, "getpid", lambda: 424242)
    target = Path("/tmp/perf-424242.map")
    try:
        pp._write_map(syms)
        rows = [line.split() for line in target.read_text().splitlines()]
    finally:
        target.unlink(missing_ok=True)
    assert [r[2] for r in rows] == ["a", "b", "c"]            # sorted by address
    starts = [int(r[0], 16) for r in rows]
    ends = [s + int(r[1], 16) for s, r in zip(starts, rows)]
    assert all(e <= s for e, s in zip(ends, starts[1:]))       # no function overlaps the next
    assert ends[0] == starts[1] and ends[1] == starts[2]       # sized up to the next one


def _perf_works():
    if shutil.which("perf") is None:
        return False
    r = subprocess.run(["perf", "stat", "-e", "task-clock", "true"], capture_output=True)
    return r.returncode == 0


@pytest.mark.skipif(not _perf_works(), reason="perf is not installed or not allowed here")
def test_a_real_profile_names_the_protocole_kernels():
    r = subprocess.run([sys.executable, str(SCRIPT), "--game", "protocole", "--games", "30000",
                        "--top", "40"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout
    assert "protocole cautious: 30,000 games" in out
    rows = dict(reversed(m.groups()) for m in
                (re.match(r"\s*([\d.]+)%\s+(\S+)$", line) for line in out.splitlines()) if m)
    # the turn loop and the policy are where a Protocole game spends its time; no
    # reference counting is left in it (NRT_incref would be listed, it was 34% once)
    assert float(rows["demos_sim.protocole.engine.play_turns"]) > 5
    assert float(rows["demos_sim.protocole.policies.basic.cautious"]) > 20
    assert float(rows.get("NRT_incref", 0)) < 10
