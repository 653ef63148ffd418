"""Resume and atomic writes: a run killed with SIGKILL and started again gives the same
results as an uninterrupted one; no half-written file is ever read."""

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from demos_sim import ConfigError
from demos_sim.runner import load_experiment, run_experiment
from demos_sim.runner.store import atomic_write_bytes
from demos_sim.sim_common import CHUNK

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "experiments" / "smoke.toml"
GAMES = 12 * CHUNK          # 12 chunks × 2 grid points ≈ 0.45 s a chunk on one core


def cli(*args):
    return [sys.executable, "-m", "demos_sim.cli", "run", str(SMOKE), "--games", str(GAMES),
            "--quiet", *args]


def test_kill_9_mid_run_then_same_command_gives_identical_results(tmp_path):
    out = tmp_path / "killed"
    proc = subprocess.Popen(cli("--out", str(out)), cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    chunks = []
    while time.monotonic() < deadline and proc.poll() is None:
        chunks = list(out.glob("chunks/*/*.npz"))
        if len(chunks) >= 3:
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.stderr.read().decode()
    os.killpg(proc.pid, signal.SIGKILL)               # the run and anything it started
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    done = len(list(out.glob("chunks/*/*.npz")))
    assert 3 <= done < 12                             # killed mid-run ...
    assert not (out / "results.parquet").exists()     # ... before any table was written

    again = subprocess.run(cli("--out", str(out)), cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert meta["games_resumed"] == done * CHUNK * 2
    assert meta["games_played_this_run"] + meta["games_resumed"] == GAMES * 2
    assert not list(out.rglob(".tmp-*")) and not list(out.rglob(".*.part"))

    clean = run_experiment(load_experiment(SMOKE).with_games(GAMES), out=tmp_path / "clean",
                           quiet=True)
    assert clean.meta["games_resumed"] == 0
    for f in ("results.parquet", "histograms.parquet"):
        assert (out / f).read_bytes() == (tmp_path / "clean" / f).read_bytes()


def test_more_games_later_reuses_the_finished_chunks(tmp_path):
    exp = load_experiment(SMOKE)
    run_experiment(exp.with_games(CHUNK), out=tmp_path / "a", quiet=True)
    a = run_experiment(exp.with_games(2 * CHUNK + 7), out=tmp_path / "a", quiet=True)
    assert a.meta["games_resumed"] == 2 * CHUNK
    assert a.meta["games_played_this_run"] == 2 * (CHUNK + 7)
    run_experiment(exp.with_games(2 * CHUNK + 7), out=tmp_path / "b", quiet=True)
    assert (tmp_path / "a" / "results.parquet").read_bytes() == \
        (tmp_path / "b" / "results.parquet").read_bytes()


def test_a_leftover_temporary_file_is_ignored_and_removed(tmp_path):
    exp = load_experiment(SMOKE).with_games(CHUNK)
    first = run_experiment(exp, out=tmp_path / "r", quiet=True)
    store = tmp_path / "r" / "chunks" / first.meta["fingerprint"]
    (store / "b0-c0-n4096.npz").unlink()
    # what a kill -9 during a write leaves: a temporary file, never the final name
    (store / ".tmp-b0-c0-n4096.npz-999-dead").write_bytes(b"half a zip")
    (tmp_path / "r" / ".tmp-results.parquet-999-dead").write_bytes(b"PAR1")
    (store / ".b0-c0-n4096.npz.part").write_bytes(b"half a zip")   # atomic_open's names
    (tmp_path / "r" / ".meta.json.x1y2z3w4.part").write_bytes(b"{")
    again = run_experiment(exp, out=tmp_path / "r", quiet=True)
    assert again.meta["games_played_this_run"] == 2 * CHUNK
    assert not list((tmp_path / "r").rglob(".tmp-*"))
    assert not list((tmp_path / "r").rglob(".*.part"))
    assert again.results.equals(first.results)


def test_atomic_write_leaves_old_file_or_new_file(tmp_path, monkeypatch):
    path = tmp_path / "t.bin"
    atomic_write_bytes(path, b"old")

    def crash(fd):
        raise OSError("disk gone")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError):
        atomic_write_bytes(path, b"new" * 1000)
    assert path.read_bytes() == b"old" and list(tmp_path.iterdir()) == [path]


def test_a_second_run_on_a_folder_in_use_is_refused(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(ConfigError, match="another run is writing"):
            run_experiment(load_experiment(SMOKE).with_games(10), out=out, quiet=True)
    finally:
        os.close(fd)


def test_disk_full_mid_run_is_one_line_and_the_same_command_resumes(tmp_path, capsys,
                                                                    monkeypatch):
    import errno

    from demos_sim.cli import main

    real, calls = os.fsync, []

    def full_after_two(fd):       # experiment.json and one chunk fit, then the disk is full
        calls.append(fd)
        if len(calls) > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    out = tmp_path / "r"
    args = ["run", str(SMOKE), "--games", str(2 * CHUNK), "--quiet", "--out", str(out)]
    monkeypatch.setattr(os, "fsync", full_after_two)
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("demos-sim: error: No space left"), err
    assert "finished chunks are kept" in err
    assert not list(out.rglob(".*.part")) and not (out / "results.parquet").exists()
    monkeypatch.setattr(os, "fsync", real)
    assert main(args) == 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["games_resumed"] == CHUNK * 2      # the one chunk written before, 2 points
