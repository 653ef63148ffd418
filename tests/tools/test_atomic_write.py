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
