"""Play these points: the one call every game played outside an experiment file goes
through (tournaments and ladders, skill traces, the tuner's evaluations, fresh-deal
confirmations).

A *point* is a configuration and one policy per seat. ``play_points(game, points, games,
seed)`` plays deals ``0 … games-1`` of ``seed`` at every point — the same deals at every
point (common random numbers: deal ``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``,
:mod:`demos_sim.sim_common`) — and returns each point's per-game values, in deal order::

    played = play_points("demos", [Point(cfg, ("heuristic",) * 4),
                                   Point(cfg, ("greedy", "heuristic") * 2)],
                         games=2000, seed=7, metrics=("win_share",), workers=2)
    played.values[1]["win_share"]       # int64 (2000, 4): the second point, deal by deal

What it gives every caller without its own code:

- **backends**: this process (``workers=1``), a local process pool, or Dask
  (``backend="dask"``, ``scheduler=ADDRESS``) — :mod:`demos_sim.runner.backends`;
  the values do not depend on the backend or the number of workers (a task is a pure
  function of its chunk and games, :func:`demos_sim.sim_common.play_rows`);
- **resume**: with ``store=FOLDER`` every finished task (a piece of one chunk at one point)
  is written at once, atomically, to ``FOLDER/<digest>.npz``; a call killed (kill -9) and
  made again reads them instead of playing them. The digest names everything that decides
  the games — contract, game, the point's full configuration and policies, plugins, seed,
  chunk, games, wanted quantities and the source of the game's engine and policies
  (:func:`demos_sim.runner.store.code_digest`) — so a changed rule or bot never reuses
  an old result;
- **provenance**: :attr:`Played.meta` (seed, every point's configuration and policies,
  contract, package version, git revision, backend, workers, games played and resumed);
- **a progress line** (``quiet=False``), as a run's.

Per-game values are kept for every point (a tournament's paired and luck statistics need
them), so the call refuses (one line) a request whose values would not fit in
:data:`MAX_VALUES_BYTES`; an experiment (:func:`demos_sim.runner.run.run_experiment`)
keeps only sums and has no such bound.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.sim_common import CHUNK, check_games, cut, parts_per_job

STORE_VERSION = 1
MAX_VALUES_BYTES = 4 * 2**30      # per-game values held for one call


@dataclass(frozen=True)
class Point:
    """A configuration and one policy spec per seat."""
    config: object
    specs: tuple[str, ...]


@dataclass
class Played:
    """What :func:`play_points` returns: ``values[i][quantity]`` is an int64 array
    ``(games_i, columns)`` for point ``i``, deal by deal; ``meta`` its provenance."""
    values: list[dict[str, np.ndarray]]
    meta: dict = field(default_factory=dict)


def play_piece(game: str, config, specs: tuple, plugins: tuple, seed: int, chunk: int,
               first: int, count: int, metrics: tuple | None) -> dict[str, np.ndarray]:
    """A worker's task: games ``first … first+count-1`` of chunk ``chunk`` at one point."""
    import warnings

    from demos_sim.game import get_game

    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    ad = get_game(game)
    ad.load_plugins(plugins)
    want = ad.needed(metrics)
    got = ad.play(config, list(specs), seed, chunk, count, metrics=want,
                  first=first)
    keep = want if metrics is None else tuple(metrics)
    return {q: np.asarray(got[q], np.int64) for q in keep}


def _tasks(n_games: list[int], chunk0: int, workers: int):
    """``(point, chunk, first, count, deal offset)`` for every point: chunk-major, so that
    the points of one chunk finish together; each chunk cut into parts when there are too
    few jobs to keep the workers busy (a slow bot's few hundred games)."""
    jobs = [(i, c, min(CHUNK, g - c * CHUNK)) for c in range(max(
        (-(-g // CHUNK) for g in n_games), default=0))
        for i, g in enumerate(n_games) if c * CHUNK < g]
    per = parts_per_job(len(jobs), workers)
    for i, c, k in jobs:
        for first, count in cut(k, max(1, min(per, k // 16))):
            yield i, chunk0 + c, first, count, c * CHUNK + first


def _task_digest(base: dict, point_doc: dict, chunk: int, first: int, count: int) -> str:
    doc = dict(base, point=point_doc, chunk=chunk, first=first, count=count)
    blob = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def play_points(game: str, points: list[Point], games: int | list[int], seed: int, *,
                metrics: tuple[str, ...] | None = ("win_share",), plugins: tuple = (),
                chunk0: int = 0, workers: int = 1, backend="local",
                scheduler: str | None = None, store: str | Path | None = None,
                quiet: bool = True, desc: str = "games") -> Played:
    """Deals ``0 … games-1`` of ``seed`` (chunks ``chunk0, chunk0+1, …``) at every point
    (``games`` one count for all, or one per point: the first ``games[i]`` deals); see the
    module docstring. ``backend``: ``"local"`` or ``"dask"`` (made for this call with
    ``workers`` and ``scheduler``, closed after it), or a backend the caller made with
    :func:`demos_sim.runner.backends.make_backend` and keeps open over many calls (a
    tune's hundreds of evaluations), which the caller closes."""
    from demos_sim import __version__
    from demos_sim.game import get_game
    from demos_sim.provenance import CONTRACT, git_revision
    from demos_sim.runner.backends import make_backend
    from demos_sim.runner.run import progress_bar
    from demos_sim.runner.store import atomic_write_bytes, code_digest
    from demos_sim.sim_common import clean_parts, note_cleaned

    t0 = time.perf_counter()
    ad = get_game(game)
    points = [Point(p.config, tuple(p.specs)) for p in points]
    n_games = [int(games)] * len(points) if np.ndim(games) == 0 else [int(g) for g in games]
    if len(n_games) != len(points):
        raise ConfigError(f"{len(n_games)} game counts for {len(points)} points")
    for g in n_games:
        if g < 0:
            raise ConfigError(f"games must be at least 0, got {g}")
        check_games(g)
    if seed < 0:
        raise ConfigError(f"the seed is a whole number >= 0, got {seed}")
    ad.load_plugins(plugins)
    want = ad.needed(metrics)
    keep = want if metrics is None else tuple(metrics)
    cols = {q: ad.quantity(q) for q in keep}
    widths = [sum(_columns(ad, p.config, cols[q]) for q in keep) for p in points]
    need = 8 * sum(g * w for g, w in zip(n_games, widths))
    if need > MAX_VALUES_BYTES:
        raise ConfigError(f"{sum(n_games):,} games at {len(points)} points keep "
                          f"{need / 2**30:.0f} GiB of per-game values, more than "
                          f"{MAX_VALUES_BYTES // 2**30} GiB: play fewer games or "
                          "use an experiment file (demos-sim run), which keeps sums")
    docs = [{"config": ad.describe(p.config), "policies": list(p.specs)} for p in points]
    folder = None
    if store is not None:
        folder = Path(store)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(f"cannot create the folder {str(folder)!r}: {e}") from None
        note_cleaned(clean_parts(folder))
        base = {"store_version": STORE_VERSION, "chunk_size": CHUNK, "contract": CONTRACT,
                "game": game, "seed": seed, "plugins": list(plugins), "metrics": list(keep),
                "code": code_digest(ad, plugins)}

    values = [{q: np.zeros((g, _columns(ad, p.config, cols[q])), np.int64) for q in keep}
              for p, g in zip(points, n_games)]
    own = isinstance(backend, str)
    be = make_backend(backend, workers, scheduler) if own else backend
    played = resumed = 0
    bar = None
    try:
        todo = []
        for i, chunk, first, count, at in _tasks(n_games, chunk0, be.workers):
            path = None
            if folder is not None:
                path = folder / (_task_digest(base, docs[i], chunk, first, count) + ".npz")
                got = _load(path, keep)
                if got is not None:
                    _put(values[i], got, at)
                    resumed += count
                    continue
            todo.append((i, chunk, first, count, at, path))
        bar = progress_bar(sum(n_games), resumed, quiet, desc)
        if todo:
            i, chunk, first, _, _, _ = todo[0]
            p = points[i]
            be.warm(play_piece, game, p.config, p.specs, tuple(plugins), seed, chunk, first,
                    1, keep)
        queue = iter(todo)
        inflight: dict = {}
        while True:
            while len(inflight) < 2 * be.workers:
                task = next(queue, None)
                if task is None:
                    break
                i, chunk, first, count, _, _ = task
                p = points[i]
                inflight[be.submit(play_piece, game, p.config, p.specs, tuple(plugins), seed,
                                   chunk, first, count, keep)] = task
            if not inflight:
                break
            done, _ = be.wait_any(set(inflight))
            for fut in done:
                i, chunk, first, count, at, path = inflight.pop(fut)
                got = fut.result()
                if path is not None:
                    buf = io.BytesIO()
                    np.savez(buf, **got)
                    atomic_write_bytes(path, buf.getvalue())
                _put(values[i], got, at)
                played += count
                bar.update(count)
    finally:
        if bar is not None:
            bar.close()
        if own:
            be.close()
    meta = {"game": game, "seed": seed, "chunk0": chunk0, "games": n_games,
            "points": docs, "metrics": list(keep), "plugins": list(plugins),
            "contract": CONTRACT, "version": __version__, "git_revision": git_revision(),
            "backend": be.name, "workers": be.workers, "scheduler": scheduler,
            "games_played_this_call": played, "games_resumed": resumed,
            "wall_s": time.perf_counter() - t0}
    return Played(values, meta)


def _columns(ad, config, q) -> int:
    """Columns of quantity ``q`` at ``config``: one per side, seat or one for the game."""
    if q.level == "game":
        return 1
    if q.level == "bins":
        return len(q.bins)
    return len(ad.labels(config, q.level))


def _put(dest: dict, got: dict, at: int) -> None:
    for q, x in got.items():
        dest[q][at:at + len(x)] = x


def _load(path: Path, keep: tuple) -> dict | None:
    """A stored task's values, or None when absent or unreadable (then played again)."""
    try:
        with np.load(path) as z:
            if set(z.files) != set(keep):
                return None
            return {q: z[q] for q in keep}
    except (OSError, ValueError, EOFError):
        return None
