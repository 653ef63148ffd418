"""Results on disk: atomic writes, the per-run chunk store, the experiment fingerprint.

Layout of a results folder (default ``results/<experiment name>/``)::

    results.parquet        tidy table: grid point × side/seat/game × metric
    histograms.parquet     tidy histograms (game length, points) by grid point
    meta.json              experiment file, seed, contract, versions, git revision, games,
                           wall time
                           and the SHA-256 of both tables (written last)
    chunks/<fingerprint>/  one small .npz per finished (block, chunk): its exact aggregate
    .lock                  held (flock) by the run writing to this folder

Every file is written to a temporary name in the same folder, flushed, fsync'ed and
renamed over its final name (``os.replace``, atomic on POSIX), so a crashed or killed run
leaves either the old file or the new one, never half of one; leftover temporary files
(``.NAME.part``, :func:`demos_sim.sim_common.atomic_open`) are ignored and removed by the
next run, which names them in one line.

The fingerprint is a SHA-256 over what decides the games — the rules contract version, the
game, seed, every grid
point's full configuration and policies, plugins, chunk size, store format — and over the
source of the game's engine, policies and of the runner's aggregation code. A changed
experiment file or changed engine code therefore gets a new chunk folder instead of
being mixed with old chunks.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.provenance import CONTRACT
from demos_sim.sim_common import atomic_open, clean_parts, note_cleaned
from demos_sim.sim_common import CHUNK

STORE_VERSION = 1
_CHUNK_FILE = re.compile(r"^b(\d+)-c(\d+)-n(\d+)\.npz$")


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed over it."""
    with atomic_open(path, "wb") as f:
        f.write(data)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def sha256_file(path: str | os.PathLike) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def code_digest(adapter, plugins) -> str:
    """SHA-256 over the source files that decide a chunk's aggregate."""
    here = Path(__file__).resolve().parent
    files = [here / "tasks.py", here.parent / "game.py"] + list(adapter.source_files())
    for p in plugins:
        if p.endswith(".py") and Path(p).exists():
            files.append(Path(p).resolve())
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def fingerprint(exp) -> str:
    """16 hex digits naming the chunk folder of an experiment (see the module docstring)."""
    doc = {"store_version": STORE_VERSION, "chunk": CHUNK, "contract": CONTRACT,
           "experiment": exp.canonical(),
           "code": code_digest(exp.adapter, exp.plugins)}
    blob = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


class ChunkStore:
    """Finished chunks of one experiment fingerprint, one atomic ``.npz`` each."""

    def __init__(self, out_dir: str | os.PathLike, fp: str, description: dict):
        self.out = Path(out_dir)
        self.fp = fp
        self.dir = self.out / "chunks" / fp
        self._lock_fd = None
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(f"cannot create results folder {str(self.out)!r}: {e}") from None
        self.lock()
        self._clean_tmp()
        info = self.dir / "experiment.json"
        if not info.exists():
            atomic_write_text(info, json.dumps(description, indent=1, sort_keys=True,
                                               default=str))

    # ------------------------------------------------------------------ locking
    def lock(self):
        """Hold an exclusive lock on the folder (released by the OS even on kill -9)."""
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return
        fd = os.open(self.out / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ConfigError(f"another run is writing to {str(self.out)!r}") from None
        self._lock_fd = fd

    def close(self):
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _clean_tmp(self):
        """Remove what interrupted writes left here (the folder is locked: they are stale)
        and say so in one line."""
        note_cleaned(clean_parts(self.out) + clean_parts(self.dir))

    # ------------------------------------------------------------------ chunks
    def path(self, block: int, chunk: int, count: int) -> Path:
        return self.dir / f"b{block}-c{chunk}-n{count}.npz"

    def finished(self) -> set[tuple[int, int, int]]:
        """``{(block, chunk, count)}`` of the chunk files present."""
        out = set()
        for f in self.dir.iterdir():
            m = _CHUNK_FILE.match(f.name)
            if m:
                out.add(tuple(int(x) for x in m.groups()))
        return out

    def save(self, block: int, chunk: int, count: int, agg: dict[str, np.ndarray]) -> None:
        buf = io.BytesIO()
        np.savez_compressed(buf, _header=np.array([block, chunk, count], np.int64),
                            _fingerprint=np.array(self.fp), **agg)
        atomic_write_bytes(self.path(block, chunk, count), buf.getvalue())

    def load(self, block: int, chunk: int, count: int) -> dict[str, np.ndarray]:
        path = self.path(block, chunk, count)
        try:
            with np.load(path, allow_pickle=False) as z:
                head = [int(x) for x in z["_header"]]
                if head != [block, chunk, count] or str(z["_fingerprint"]) != self.fp:
                    raise ConfigError(f"chunk file {str(path)!r} does not belong to this run")
                return {k: z[k] for k in z.files if not k.startswith("_")}
        except ConfigError:
            raise
        except Exception as e:  # noqa: BLE001  (a damaged file of any kind: one line)
            raise ConfigError(f"chunk file {str(path)!r} is unreadable ({type(e).__name__}); "
                              "delete it and run again to replay that chunk") from e

    def other_fingerprints(self) -> list[str]:
        return sorted(d.name for d in (self.out / "chunks").iterdir()
                      if d.is_dir() and d.name != self.fp)
