"""Atomic writes (``sim_common.atomic_open``): what a reader sees, file modes, leftovers."""

import os
import stat

import pytest

from demos_sim.sim_common import atomic_open


@pytest.fixture
def umask():
    """Set the process umask for one test and restore it after."""
    old = os.umask(0o022)
    yield lambda m: os.umask(m)
    os.umask(old)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask, expected", [
    (0o022, 0o644),   # 0666 & ~0022
    (0o027, 0o640),   # 0666 & ~0027
    (0o002, 0o664),   # 0666 & ~0002
])
def test_new_file_mode_follows_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    with atomic_open(tmp_path / "a.txt") as f:
        f.write("x")
    assert _mode(tmp_path / "a.txt") == expected


def test_overwriting_keeps_the_umask_mode(tmp_path, umask):
    umask(0o022)
    p = tmp_path / "b.bin"
    p.write_bytes(b"old")
    os.chmod(p, 0o644)
    with atomic_open(p, "wb") as f:
        f.write(b"new")
    assert p.read_bytes() == b"new"
    assert _mode(p) == 0o644      # 0666 & ~0022, not mkstemp's 0600


KILLED_WRITE = """
import os, signal, sys
from demos_sim.sim_common import atomic_open
with atomic_open(sys.argv[1]) as f:
    f.write("x" * 100000)
    f.flush()
    os.kill(os.getpid(), signal.SIGKILL)    # what kill -9 of record or run does mid-write
"""


def _killed_write(path):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(path)], capture_output=True)
    assert p.returncode == -9, p.stderr


def _parts(folder):
    return sorted(f.name for f in folder.iterdir() if f.name.endswith(".part"))


def test_writes_killed_with_kill_9_leave_one_file_that_the_next_write_removes(tmp_path,
                                                                             capsys):
    from demos_sim.sim_common import write_jsonl_atomic

    target = tmp_path / "g.jsonl"
    _killed_write(target)
    _killed_write(target)
    _killed_write(target)
    assert _parts(tmp_path) == [".g.jsonl.part"]   # three kills, one leftover (reused)
    assert not target.exists()
    assert write_jsonl_atomic(target, [{"a": 1}]) == 1
    assert sorted(f.name for f in tmp_path.iterdir()) == ["g.jsonl"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "removed 1 temporary file" in err
    assert ".g.jsonl.part" in err


def test_the_next_write_removes_earlier_unique_names_of_its_target_only(tmp_path, capsys):
    from demos_sim.sim_common import write_jsonl_atomic

    (tmp_path / ".g.jsonl.ab12_xyz.part").write_text("half")   # mkstemp's 8 characters
    (tmp_path / ".g.jsonl.part").write_text("half")
    (tmp_path / ".other.jsonl.part").write_text("someone else's")
    (tmp_path / ".g.jsonl.notours.part").write_text("not our pattern")
    write_jsonl_atomic(tmp_path / "g.jsonl", [])
    assert _parts(tmp_path) == [".g.jsonl.notours.part", ".other.jsonl.part"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "removed 2 temporary files" in err


def test_a_temporary_file_held_by_a_live_writer_is_kept(tmp_path):
    import fcntl

    from demos_sim.sim_common import clean_parts

    held = tmp_path / ".t.bin.part"
    fd = os.open(held, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)        # another process writing t.bin right now
    try:
        assert clean_parts(tmp_path, "t.bin") == []
        assert clean_parts(tmp_path) == []
        with atomic_open(tmp_path / "t.bin", "wb") as f:   # a second writer: another name
            f.write(b"new")
        assert (tmp_path / "t.bin").read_bytes() == b"new"
        assert _parts(tmp_path) == [".t.bin.part"]
    finally:
        os.close(fd)
    assert clean_parts(tmp_path) == [held]


def test_a_planted_link_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (tmp_path / ".t.txt.part").symlink_to(victim)
    with atomic_open(tmp_path / "t.txt") as f:
        f.write("new")
    assert victim.read_text() == "keep me" and (tmp_path / "t.txt").read_text() == "new"


def test_a_run_folder_is_cleaned_of_leftovers_when_a_run_starts(tmp_path, capsys):
    from demos_sim.runner.store import ChunkStore

    out = tmp_path / "r"
    chunks = out / "chunks" / "f"
    chunks.mkdir(parents=True)
    (chunks / ".b0-c3-n4096.npz.part").write_bytes(b"half a zip")
    (out / ".results.parquet.Ab3_x9Qz.part").write_bytes(b"PAR1")
    store = ChunkStore(out, "f", {"x": 1})
    try:
        assert _parts(out) == [] and _parts(chunks) == []
    finally:
        store.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "removed 2 temporary files" in err
