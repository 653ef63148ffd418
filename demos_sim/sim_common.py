"""Game-neutral simulation plumbing shared by every game's ``sim.py`` and ``record.py``.

- Chunking: games are numbered ``0 … G-1`` and cut into chunks of :data:`CHUNK`; game
  ``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``, whose key comes from
  ``SeedSequence(seed, spawn_key=(chunk,))`` (:func:`demos_sim.rng.chunk_key`). Any
  worker can play any chunk alone, so results do not depend on the number of workers.
- :func:`play_rows`: one chunk through a game's ``play_batch`` kernel.
- :func:`write_jsonl_atomic`: JSON Lines written to a temp file renamed at the end.
"""

from __future__ import annotations

import glob
import json
import os
import re
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from demos_sim import ConfigError
from demos_sim.rng import chunk_key, game_keys

CHUNK = 4096
# The most games a run (per grid point), a simulation or a tournament takes: a million
# million, about a week per point at 1.5 M games/s; a run's chunks are made as they are
# played, so memory does not grow with the count, and a stopping rule ends it sooner.
MAX_GAMES = 10**12
Z95 = 1.959963984540054


def check_games(games: int, what: str = "--games") -> int:
    """``games`` if it is at most :data:`MAX_GAMES`, else a one-line ConfigError."""
    if games > MAX_GAMES:
        raise ConfigError(f"{what} is at most {MAX_GAMES:,} (a million million), "
                          f"got {games:,}")
    return games


def chunks_of(games: int) -> list[tuple[int, int]]:
    """``[(chunk, games in it), …]`` covering games ``0 … games-1``."""
    return [(c, min(CHUNK, games - c * CHUNK)) for c in range((games + CHUNK - 1) // CHUNK)]


def parts_per_job(jobs: int, workers: int) -> int:
    """Into how many parts to cut each of ``jobs`` (chunk, setting) jobs so that
    ``workers`` processes all play: 1 with two jobs or more per worker (or one worker),
    else about ``2 × workers / jobs`` (a slow bot's small run: one chunk, a few settings)."""
    if workers > 1 and 0 < jobs < 2 * workers:
        return -(-2 * workers // jobs)
    return 1


def cut(count: int, parts: int, align: int = 1) -> list[tuple[int, int]]:
    """``[(first, count), …]``: games ``0 … count-1`` of a chunk in ``parts`` runs of
    consecutive games (fewer when there are not enough), each starting at a multiple of
    ``align`` (so that no bootstrap batch straddles two). A game's key alone makes its deal
    and its policies' chance, so the parts play exactly the games of the whole chunk."""
    units = -(-count // align)
    m = max(1, min(parts, units))
    ends = [min(count, (i * units // m) * align) for i in range(m + 1)]
    return [(a, b - a) for a, b in zip(ends, ends[1:])]


def chunk_game_keys(seed: int, chunk: int, first: int, count: int) -> np.ndarray:
    """64-bit keys of games ``first … first+count-1`` of chunk ``chunk`` of a run."""
    return game_keys(np.uint64(chunk_key(seed, chunk)), first, count)


def game_key(seed: int, g: int) -> tuple[np.uint64, list[int]]:
    """Key of game ``g`` of the run seeded ``seed`` and its record seed ``[seed, chunk, index]``."""
    chunk, idx = divmod(g, CHUNK)
    return chunk_game_keys(seed, chunk, idx, 1)[0], [seed, chunk, idx]


def play_rows(play_batch: Callable, cfg_arr: np.ndarray, policies, maxp: int, res_len: int,
              diag_len: int, seed: int, chunk: int, count: int,
              truth_slot: int | None = None, first: int = 0):
    """Games ``first … first+count-1`` of chunk ``chunk`` through a game's ``play_batch``
    kernel (a game's deal and every policy's chance come from its key alone, so a chunk
    played in parts gives the same games).

    ``policies`` is a function returning the resolved policies (the user's plugins are
    already loaded in this process: :meth:`demos_sim.game.Game.load_plugins`). Returns
    the per-game result rows (count, res_len) and the kernel's diagnostics vector; raises
    when the kernel flagged an error (:func:`demos_sim.kernel.check_errors`).

    ``truth_slot``: the configuration word where the game's kernel reads its reference
    seats (:func:`demos_sim.registry.reference_mask`; DĒMOS ``C_TRUTH``); a reference
    policy in a game without one is refused.
    """
    from demos_sim.kernel import check_errors
    from demos_sim.registry import policy_tuple, reference_mask

    pols = policies()
    mask = reference_mask(pols)
    if mask:
        if truth_slot is None:
            raise ConfigError("a reference policy needs its game's truth block, which this "
                              "game's kernel does not have")
        cfg_arr = cfg_arr.copy()
        cfg_arr[truth_slot] = mask
    fns, params = policy_tuple(pols, maxp)
    res = np.zeros((count, res_len), np.int64)
    diag = np.zeros(diag_len, np.int64)
    play_batch(fns, cfg_arr, params, chunk_game_keys(seed, chunk, first, count), res, diag)
    check_errors(diag)
    return res, diag


def _umask() -> int:
    """The process umask, read without changing it where the OS allows (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)   # elsewhere: set and restore (not thread-safe, but brief)
    os.umask(old)
    return old


def _lock(fd: int) -> bool:
    """Take an exclusive lock on an open file without waiting (True when taken; always
    True where the OS has no ``flock``). The OS drops it when the process dies."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _ours(fd: int) -> bool:
    """A plain file of this user with one name (not a file someone else planted)."""
    st = os.fstat(fd)
    return (stat.S_ISREG(st.st_mode) and st.st_nlink == 1
            and st.st_uid == getattr(os, "getuid", lambda: st.st_uid)())


def _same_file(fd: int, path: Path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _open_part(path: Path) -> tuple[int, Path]:
    """The temporary file of ``path``, open and locked: ``.NAME.part`` (so a write killed
    with kill -9 leaves at most that one file, which the next write of ``path`` reuses), or
    ``.NAME.XXXXXXXX.part`` while another live process holds that one."""
    for _ in range(8):
        tmp = path.parent / f".{path.name}.part"
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except OSError:
            fd = -1         # a link or a file we may not write: use a fresh name
        if fd < 0 or not _ours(fd) or not _lock(fd):
            if fd >= 0:
                os.close(fd)
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                        dir=path.parent)
            tmp = Path(name)
            if not _lock(fd):     # clean_parts is removing it: try again
                os.close(fd)
                continue
        if _same_file(fd, tmp):   # not removed by clean_parts between open and lock
            os.ftruncate(fd, 0)
            return fd, tmp
        os.close(fd)
    raise OSError(f"cannot hold a temporary file beside {str(path)!r}")


def _parts_of(folder: Path, target: str | None) -> list[Path]:
    """Temporary files of :func:`atomic_open` in ``folder`` (of one ``target`` name, or
    all of them), and the ``.tmp-*`` names of earlier versions."""
    if target is not None:
        return [f for f in folder.glob(f".{glob.escape(target)}.*part")
                if f.name == f".{target}.part" or _UNIQUE.fullmatch(f.name[len(target) + 1:])]
    return [f for f in folder.iterdir()
            if _PART.fullmatch(f.name) or f.name.startswith(".tmp-")]


_PART = re.compile(r"\..+\.part")                 # .NAME.part, .NAME.XXXXXXXX.part
_UNIQUE = re.compile(r"\.[A-Za-z0-9_]{8}\.part")  # mkstemp's 8 characters


def clean_parts(folder: str | os.PathLike, target: str | None = None) -> list[Path]:
    """Remove the temporary files that interrupted writes (kill -9, power loss) left in
    ``folder`` — those of ``target`` only, or all of ours when the folder is ours — and
    return them; a file a live writer still holds (its lock) is kept."""
    removed = []
    try:
        found = _parts_of(Path(folder), target)
    except OSError:
        return removed
    for f in found:
        try:
            fd = os.open(f, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            continue
        try:
            if _lock(fd) and _same_file(fd, f):
                os.unlink(f)        # under the lock: a writer opening it now sees it gone
                removed.append(f)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def note_cleaned(removed: list[Path]) -> None:
    """One line on stderr naming the temporary files :func:`clean_parts` removed."""
    if removed:
        names = ", ".join(str(f) for f in removed)
        print(f"demos-sim: removed {len(removed)} temporary file"
              f"{'s' if len(removed) > 1 else ''} left by an interrupted write: {names}",
              file=sys.stderr)


@contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w"):
    """Open a temporary file beside ``path``; on success it is flushed, synced and
    renamed over ``path``, on any failure removed: readers never see a partial file.

    The temporary file is ``.NAME.part`` (:func:`_open_part`), locked while written, so
    :func:`clean_parts` can tell a leftover from a live write.
    The file gets the mode a plain ``open`` would give a new file, ``0666 & ~umask``
    (also when it replaces an existing file), not the temporary file's ``0600``."""
    path = Path(path)
    fd, tmp = _open_part(path)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(os.dup(fd), mode,
                       **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        os.close(fd)        # the lock goes with the last descriptor


def check_out_file(path: str | os.PathLike, option: str = "--out") -> Path:
    """``path`` as a file to write: refused (one line) when it is a folder or its folder
    does not exist, before anything is played."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{option} {str(path)!r} is a folder; give a file name, e.g. "
                          f"{str(path / 'games.jsonl')!r}")
    if path.parent and not path.parent.exists():
        raise ConfigError(f"output folder {str(path.parent)!r} does not exist")
    return path


def check_out_folder(path: str | os.PathLike, option: str = "--out") -> Path:
    """``path`` as a folder to write into (made when missing): refused (one line) when a
    file has that name, before anything is played."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{option} {str(path)!r} is a file; it names the folder to "
                          "write into")
    return path


def write_jsonl_atomic(path: str | os.PathLike, records: Iterable[dict]) -> int:
    """Write ``records`` as JSON Lines to ``path`` atomically (:func:`atomic_open`).

    A failed or interrupted run leaves no partial file. Returns the number written.
    """
    path = check_out_file(path)
    note_cleaned(clean_parts(path.parent, path.name))
    n = 0
    with atomic_open(path) as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    return n
