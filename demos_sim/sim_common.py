"""Game-neutral simulation plumbing shared by every game's ``sim.py`` and ``record.py``.

- Chunking: games are numbered ``0 … G-1`` and cut into chunks of :data:`CHUNK`; game
  ``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``, whose key comes from
  ``SeedSequence(seed, spawn_key=(chunk,))`` (:func:`demos_sim.rng.chunk_key`). Any
  worker can play any chunk alone, so results do not depend on the number of workers.
- :func:`run_chunks`: play the chunks on 1 or more joblib workers, warming every
  process (numba compile or cache load) before the clock starts; per-chunk integer
  aggregates come back in chunk order, so their sum is exact and order-free.
- :func:`share_ci`: the M1 win share with its 95% normal interval.
- :func:`write_jsonl_atomic`: JSON Lines written to a temp file renamed at the end.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from demos_sim import ConfigError
from demos_sim.rng import chunk_key, game_keys

CHUNK = 4096
Z95 = 1.959963984540054


def chunks_of(games: int) -> list[tuple[int, int]]:
    """``[(chunk, games in it), …]`` covering games ``0 … games-1``."""
    return [(c, min(CHUNK, games - c * CHUNK)) for c in range((games + CHUNK - 1) // CHUNK)]


def chunk_game_keys(seed: int, chunk: int, first: int, count: int) -> np.ndarray:
    """64-bit keys of games ``first … first+count-1`` of chunk ``chunk`` of a run."""
    return game_keys(np.uint64(chunk_key(seed, chunk)), first, count)


def game_key(seed: int, g: int) -> tuple[np.uint64, list[int]]:
    """Key of game ``g`` of the run seeded ``seed`` and its record seed ``[seed, chunk, index]``."""
    chunk, idx = divmod(g, CHUNK)
    return chunk_game_keys(seed, chunk, idx, 1)[0], [seed, chunk, idx]


def play_rows(play_batch: Callable, cfg_arr: np.ndarray, policies, maxp: int, res_len: int,
              diag_len: int, seed: int, chunk: int, count: int, plugins: tuple = ()):
    """Games ``0 … count-1`` of chunk ``chunk`` through a game's ``play_batch`` kernel.

    ``policies`` is a function returning the resolved policies (called after the
    ``plugins`` are loaded, so worker processes know the user's policies too). Returns
    the per-game result rows (count, res_len) and the kernel's diagnostics vector; raises
    when the kernel flagged an error (:func:`demos_sim.kernel.check_errors`).
    """
    from demos_sim.kernel import check_errors
    from demos_sim.registry import load_plugin, policy_tuple

    for plugin in plugins:
        load_plugin(plugin)
    fns, params = policy_tuple(policies(), maxp)
    res = np.zeros((count, res_len), np.int64)
    diag = np.zeros(diag_len, np.int64)
    play_batch(fns, cfg_arr, params, chunk_game_keys(seed, chunk, 0, count), res, diag)
    check_errors(diag)
    return res, diag


def share_counts(winmask: np.ndarray, nwin: np.ndarray, nsides: int, maxk: int) -> np.ndarray:
    """M1 counts: ``out[s, k-1]`` = games side ``s`` won shared by ``k`` winners."""
    out = np.zeros((nsides, maxk), np.int64)
    for s in range(nsides):
        won = (winmask >> s) & 1 == 1
        for k in range(1, maxk + 1):
            out[s, k - 1] = (won & (nwin == k)).sum()
    return out


def share_ci(counts, n: int) -> tuple[float, list[float]]:
    """M1 share and 95% CI from ``counts[k-1]`` = games won shared by ``k``, over ``n`` games.

    Each game contributes ``1/k`` (0 when not won); the interval is the normal interval of
    the mean per-game share with the sample variance, clipped to [0, 1].
    """
    counts = np.asarray(counts, np.float64)
    ks = np.arange(1, len(counts) + 1)
    total = float((counts / ks).sum())
    sq = float((counts / ks ** 2).sum())
    mean = total / n
    var = max(sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * np.sqrt(var / n)
    return mean, [max(0.0, mean - half), min(1.0, mean + half)]


def check_run_args(games: int, workers: int = 1) -> None:
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")


def _in_worker(run_chunk: Callable, *args):
    """A worker's call: numba's first-class-function notice is expected, not news."""
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    return run_chunk(*args)


def run_chunks(run_chunk: Callable, args: tuple, games: int,
               workers: int = 1) -> tuple[np.ndarray, float]:
    """Sum of ``run_chunk(*args, chunk, count)`` over the chunks of ``games``; and wall time.

    ``run_chunk`` must be a module-level function (workers import it) returning an int64
    aggregate vector. Every process plays one 1-game chunk first so that the timing
    measures playing, not start-up.
    """
    jobs = chunks_of(games)
    if workers == 1 or len(jobs) == 1:
        run_chunk(*args, 0, 1)
        t0 = time.perf_counter()
        aggs = [run_chunk(*args, c, k) for c, k in jobs]
    else:
        from joblib import Parallel, delayed

        with Parallel(n_jobs=workers, backend="loky") as par:
            par(delayed(_in_worker)(run_chunk, *args, 0, 1) for _ in range(workers))
            t0 = time.perf_counter()
            aggs = par(delayed(_in_worker)(run_chunk, *args, c, k) for c, k in jobs)
    wall = time.perf_counter() - t0
    return np.sum(aggs, axis=0), wall


@contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w"):
    """Open a temporary file beside ``path``; on success it is flushed, synced and
    renamed over ``path``, on any failure removed: readers never see a partial file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
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


def write_jsonl_atomic(path: str | os.PathLike, records: Iterable[dict]) -> int:
    """Write ``records`` as JSON Lines to ``path`` atomically (:func:`atomic_open`).

    A failed or interrupted run leaves no partial file. Returns the number written.
    """
    path = Path(path)
    if path.parent and not path.parent.exists():
        raise ConfigError(f"output folder {str(path.parent)!r} does not exist")
    n = 0
    with atomic_open(path) as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    return n


@dataclass
class SimResultBase:
    """What every game's ``simulate`` returns: the exact aggregate vector of the run (its
    first entry is the number of games) with the configuration, policies and seed that
    made it, wall time and workers. Each game's ``SimResult`` adds its summaries."""

    config: Any
    policies: list[str]
    seed: int
    agg: np.ndarray
    wall_s: float
    workers: int

    @property
    def games(self) -> int:
        return int(self.agg[0])

    def changed_variants(self) -> dict:
        """The variants whose value differs from the contract's default (Part V)."""
        import dataclasses

        default = dataclasses.replace(self.config, variants={}).variants
        return {k: v for k, v in self.config.variants.items() if v != default[k]}


def print_variants(result: SimResultBase) -> None:
    """The text summaries' line naming the variants set, if any."""
    changed = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
               for k, v in result.changed_variants().items()]
    if changed:
        print("variants: " + ", ".join(changed))


def print_throughput(s: dict, workers: int) -> None:
    print(f"throughput: {s['rounds_per_s']:,.0f} rounds/s, {s['games_per_s']:,.0f} games/s "
          f"({workers} worker{'s' if workers > 1 else ''}, {s['wall_s']:.2f} s)")
