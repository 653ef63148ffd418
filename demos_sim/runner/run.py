"""Run an experiment: schedule chunks, store each one, resume, stop, write the tables.

Games of every grid point are numbered and chunked exactly as in
:mod:`demos_sim.sim_common` (chunk ``c`` is seeded by ``SeedSequence(seed,
spawn_key=(c,))``), and every grid point of a block plays the same chunks, so the deals
are common to all of them. A *task* is one (block, chunk): it plays that chunk at every
grid point of the block and returns its exact integer aggregate
(:mod:`demos_sim.runner.tasks`), which is written at once, atomically, to the chunk store
(:mod:`demos_sim.runner.store`).

Chunks are added to the running totals strictly in chunk order (a chunk that finishes
early waits, in memory, for the ones before it; at most ``2 × workers`` are in flight).
So the totals after chunk ``k`` are the same whatever the backend, the number of
workers or the order in which chunks finished — and a stopping rule, checked after every
chunk, stops at the same chunk. A run started again on the same folder reads the chunks
already stored instead of playing them: nothing is lost, nothing counted twice.
"""

from __future__ import annotations

import datetime as _dt
import io
import json
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from demos_sim.runner.experiment import Experiment
from demos_sim.runner.store import ChunkStore, atomic_write_bytes, atomic_write_text, \
    fingerprint, sha256_file
from demos_sim.runner.tables import build_tables, tracked_half_widths
from demos_sim.runner.tasks import add_into, play_task
from demos_sim.sim_common import CHUNK, check_games, cut, parts_per_job

RESULTS = "results.parquet"
HISTOGRAMS = "histograms.parquet"
META = "meta.json"


@dataclass
class RunResult:
    out: Path
    meta: dict
    results: object        # pandas DataFrame
    histograms: object


def _versions() -> dict:
    import dask
    import distributed
    import joblib
    import numba
    import numpy
    import pandas
    import pyarrow

    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "numba": numba.__version__, "pandas": pandas.__version__,
            "pyarrow": pyarrow.__version__, "joblib": joblib.__version__,
            "dask": dask.__version__, "distributed": distributed.__version__}


def _task_points(exp: Experiment, block: int) -> list[tuple]:
    return [(i, exp.points[i].config, exp.points[i].policies, exp.points[i].ref)
            for i in exp.blocks[block].points]


def progress_bar(total: int, initial: int, quiet: bool, desc: str):
    """A progress bar on a terminal; plain lines elsewhere (``make demo`` in CI, a log
    file: :class:`PlainProgress`); nothing with ``quiet``."""
    if not quiet and not sys.stderr.isatty():
        sys.stderr.write(f"{desc}: {total - initial:,} games to play; on a first run numba "
                         "compiles the game's kernels before any game ends (minutes; later "
                         "runs load them from its cache)\n")
        sys.stderr.flush()
        return PlainProgress(total, initial, desc, sys.stderr)
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc=desc, unit="game", unit_scale=True,
                disable=quiet, dynamic_ncols=True, smoothing=0.05, file=sys.stderr)


def _duration(s: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    s = max(0, round(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class PlainProgress:
    """Progress as whole lines, for a stderr that is not a terminal (a bar redrawn with
    carriage returns would show nothing until the end, or garble a log): a line whenever
    another tenth of the games is done, at most one every :attr:`EVERY_S` seconds, and
    at least one a minute — games done, their share, the rate of this run and the time
    left at that rate, read from the games since the first update (the wait for the
    kernels to compile on a first run does not count; the first line gives that wait)::

        demo: 36,000 of 120,000 games (30%), 410 games/s, about 3 min 25 s left

    Same interface as the tqdm bar the runner uses (``update``, ``close``)."""

    EVERY_S = 10.0       # never two lines closer than this
    AT_LEAST_S = 60.0    # a line at least this often while games are played

    def __init__(self, total: int, initial: int, desc: str, stream, clock=time.monotonic):
        self.total, self.initial, self.done, self.desc = total, initial, initial, desc
        self.stream, self.clock = stream, clock
        self.t0 = self.t_last = clock()
        self.done_last = initial
        self.first: tuple[float, int] | None = None     # (time, games done) at the first update

    def update(self, n: int) -> None:
        self.done += n
        now = self.clock()
        if self.first is None:
            self.first = (now, self.done)
        since = now - self.t_last
        tenth = self.done - self.done_last >= self.total / 10
        if since >= self.AT_LEAST_S or (tenth and since >= self.EVERY_S):
            self.t_last, self.done_last = now, self.done
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float) -> str:
        share = 100 * self.done / self.total if self.total else 100.0
        text = f"{self.desc}: {self.done:,} of {self.total:,} games ({share:.0f}%)"
        played, elapsed = self.done - self.initial, now - self.t0
        if self.first is not None and now == self.first[0] and self.done < self.total:
            # the first games only: their time holds the start (and a first run's
            # compiling), no rate to read the rest from
            return text + f", the first after {_duration(elapsed)}"
        if self.first is not None and now > self.first[0] and self.done > self.first[1]:
            played, elapsed = self.done - self.first[1], now - self.first[0]
        if played > 0 and elapsed > 0:
            rate = played / elapsed
            text += f", {rate:,.0f} games/s"
            if self.done < self.total:
                text += f", about {_duration((self.total - self.done) / rate)} left"
        return text

    def close(self) -> None:
        """Nothing to clear: every line was written whole (the run's summary follows)."""


class _NoStore:
    """The chunk store of a run kept in memory only (``keep=False``): nothing is read or
    written, so nothing resumes."""

    def finished(self) -> set:
        return set()

    def save(self, b, c, k, agg) -> None:
        pass

    def other_fingerprints(self) -> list:
        return []

    def close(self) -> None:
        pass


MIN_PART = 16      # games: the smallest part a chunk is cut into (split_jobs)


def split_jobs(jobs: list[tuple[int, int, int]], workers: int) -> list[tuple]:
    """``(block, chunk, games, first, count)`` tasks for the ``(block, chunk, games)``
    jobs. With fewer than two jobs per worker (a slow bot's small run: one block, one
    chunk) the workers would sit idle, so each job is cut into parts of consecutive games
    (at least :data:`MIN_PART`); a game's key alone makes its deal and its policies'
    chance, and a chunk's aggregates are integer sums, so the parts add up to exactly the
    chunk's totals whatever the cut."""
    return list(iter_tasks(jobs, parts_per_job(len(jobs), workers)))


def _parts(k: int, n: int) -> list[tuple[int, int]]:
    """A job of ``k`` games cut for ``n`` parts a job (:func:`split_jobs`)."""
    return cut(k, max(1, min(n, k // MIN_PART)))


def iter_tasks(jobs, n: int):
    """:func:`split_jobs`'s tasks one at a time, for ``n`` parts a job (``jobs`` may be a
    generator: a run's chunks are made as they are played, never listed)."""
    for b, c, k in jobs:
        for first, count in _parts(k, n):
            yield b, c, k, first, count


class _Schedule:
    """The chunks of one run, played and added up in chunk order (see the module doc).

    Chunks are made as they are played, never listed (memory flat in the games count):
    chunk ``c`` holds :meth:`count_of` games, and the jobs are ``(block, chunk, count)``
    in chunk order, then block order, as ``chunks_of()`` would list them. Those already
    in the store are read instead of played."""

    def __init__(self, exp: Experiment, store, on_chunk=None):
        check_games(exp.games)
        self.exp, self.store, self.on_chunk = exp, store, on_chunk
        self.nchunks = -(-exp.games // CHUNK)
        self.nb = len(exp.blocks)
        self.pts = [len(b.points) for b in exp.blocks]        # points of each block
        self.finished = {(b, c, k) for b, c, k in store.finished()
                         if 0 <= b < self.nb and 0 <= c < self.nchunks
                         and k == self.count_of(c)}
        self.resumed = sum(k * self.pts[b] for b, _, k in self.finished)
        self.totals: list[dict | None] = [None] * self.nb
        self.ready: dict[tuple[int, int], dict] = {}    # finished, not yet added (chunk order)
        self.k = 0                                       # chunks added to the totals
        self.stopped: str | None = None                  # why the run stops, once it does
        self.widest: float | None = None                 # the stopping rule's widest interval
        self.played, self.play_s = 0, 0.0                # games played by this run, and when

    def count_of(self, c: int) -> int:
        return min(CHUNK, self.exp.games - c * CHUNK)

    def todo(self):
        """The jobs not in the store, in order."""
        for c in range(self.nchunks):
            k = self.count_of(c)
            for b in range(self.nb):
                if (b, c, k) not in self.finished:
                    yield b, c, k

    def fold(self) -> None:
        """Add every chunk that is next in order and complete, checking the stopping rule
        and ``on_chunk`` after each."""
        exp = self.exp
        while self.k < self.nchunks and self.stopped is None:
            c = self.k
            k = self.count_of(c)
            if not all((b, c) in self.ready or (b, c, k) in self.finished
                       for b in range(self.nb)):
                return
            for b in range(self.nb):
                agg = self.ready.pop((b, c), None)
                if agg is None:
                    agg = self.store.load(b, c, k)
                self.totals[b] = add_into(self.totals[b], agg)
            self.k += 1
            if exp.stop is not None:
                widths = tracked_half_widths(exp, self.totals)
                self.widest = max(w for _, w in widths)
                if self.widest <= exp.stop.half_width:
                    self.stopped = "half_width"
            if self.on_chunk is not None:
                games_now = min(exp.games, self.k * CHUNK)
                if self.on_chunk(self.totals, games_now) is False and self.stopped is None:
                    self.stopped = "on_chunk"

    def play(self, be, bar) -> None:
        """Play the jobs left on backend ``be`` (at most ``2 × workers`` tasks in flight),
        each chunk saved to the store once its parts are in, until done or stopped."""
        exp = self.exp
        per_job = parts_per_job(self.nchunks * self.nb - len(self.finished), be.workers)
        parts: dict[tuple, list] = {}
        queue = iter_tasks(self.todo(), per_job)
        inflight: dict = {}
        exhausted = False
        first_job = next(self.todo(), None)
        if self.stopped is None and first_job is not None:
            b0, c0, _ = first_job
            be.warm(play_task, exp.game, exp.seed, c0, 1, _task_points(exp, b0),
                    exp.plugins, exp.metrics)
        t_play = time.perf_counter()
        while True:
            while self.stopped is None and not exhausted and len(inflight) < 2 * be.workers:
                job = next(queue, None)
                if job is None:
                    exhausted = True
                    break
                b, c, k, first, n = job
                fut = be.submit(play_task, exp.game, exp.seed, c, n, _task_points(exp, b),
                                exp.plugins, exp.metrics, first)
                inflight[fut] = job
            if not inflight:
                break
            done, _ = be.wait_any(set(inflight))
            for fut in done:
                b, c, k, first, _ = inflight.pop(fut)
                got = parts.setdefault((b, c, k), [])
                got.append((first, fut.result()))
                if len(got) < len(_parts(k, per_job)):
                    continue
                agg = got[0][1]
                if len(got) > 1:          # the parts of one chunk, in game order
                    agg = None
                    for _, part in sorted(got, key=lambda x: x[0]):
                        agg = add_into(agg, part)
                del parts[(b, c, k)]
                self.store.save(b, c, k, agg)
                self.played += k * self.pts[b]
                bar.update(k * self.pts[b])
                if self.stopped is None:
                    self.ready[(b, c)] = agg
            self.fold()
        self.play_s = time.perf_counter() - t_play


def _write_tables(out: Path, results, hists) -> None:
    for name, table in ((RESULTS, results), (HISTOGRAMS, hists)):
        buf = io.BytesIO()
        table.to_parquet(buf, index=False)
        atomic_write_bytes(out / name, buf.getvalue())


def _meta(exp: Experiment, sched: _Schedule, be, scheduler: str | None, fp: str,
          out: Path | None, other_fingerprints: list, t_start: float) -> dict:
    """The run's ``meta.json``: the experiment, its points, the games played and why the
    run stopped, the time it took and where, its fingerprint and the versions."""
    from demos_sim import __version__
    from demos_sim.provenance import CONTRACT, git_revision

    games = min(exp.games, sched.k * CHUNK)
    played, play_s = sched.played, sched.play_s
    return {
        "experiment": {"name": exp.name, "path": exp.path, "description": exp.description,
                       "file": exp.text, "parsed": exp.data},
        "game": exp.game, "title": exp.adapter.title, "seed": exp.seed,
        "settings": exp.settings, "grid_keys": list(exp.grid_keys),
        "metrics": list(exp.metrics),
        "points": [{"point": p.index, "block": p.block, "players": p.players,
                    "label": p.label, "values": p.values,
                    "config": exp.adapter.describe(p.config), "policies": list(p.policies),
                    "ref_point": p.ref,
                    "sides": exp.adapter.labels(p.config, "side")} for p in exp.points],
        "games_per_point": games, "chunks": sched.k, "chunk_size": CHUNK,
        "games_played": games * len(exp.points),
        "stop": None if exp.stop is None else {
            "half_width": exp.stop.half_width, "max_games": exp.stop.max_games,
            "track": list(exp.stop.track), "widest_half_width": sched.widest},
        "stopped_by": sched.stopped,
        "games_played_this_run": played, "games_resumed": sched.resumed,
        "play_s": play_s, "wall_s": time.perf_counter() - t_start,
        "games_per_s": played / play_s if played and play_s > 0 else None,
        "backend": be.name, "workers": be.workers, "scheduler": scheduler,
        "fingerprint": fp, "contract": CONTRACT, "version": __version__,
        "git_revision": git_revision(),
        "versions": _versions(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "files": {RESULTS: sha256_file(out / RESULTS),
                  HISTOGRAMS: sha256_file(out / HISTOGRAMS)} if out is not None else {},
        "other_fingerprints": other_fingerprints,
    }


def run_experiment(exp: Experiment, out: str | Path | None = None, workers: int = 1,
                   backend: str = "local", scheduler: str | None = None,
                   quiet: bool = False, dask_processes: bool = True,
                   keep: bool = True, on_chunk=None) -> RunResult:
    """Run (or resume) ``exp`` into ``out`` (default ``results/<name>``); see the module doc.

    With ``keep=False`` the run is played in memory only — no chunk store, no tables or
    ``meta.json`` written, ``out`` ignored — and the returned :class:`RunResult` has
    ``out=None`` (``demos-sim simulate`` and ``demos-sim compare`` are such runs).

    ``on_chunk(totals, games)``, when given, is called after every chunk is added to the
    running totals (in chunk order, resumed chunks included), with the per-block totals
    so far (:func:`demos_sim.runner.tables.build_tables` turns them into tables; they
    change after the call, so copy what you keep) and the games per point they hold.
    Returning ``False`` stops the run there, as a stopping rule would
    (``meta["stopped_by"] == "on_chunk"``); any other return value goes on. The explorer
    (``demos-sim serve``) draws its live intervals and stops on request with it."""
    from demos_sim.runner.backends import make_backend

    t_start = time.perf_counter()
    if keep:
        out = Path(out) if out is not None else Path("results") / exp.name
    else:
        out = None
    fp = fingerprint(exp)
    be = make_backend(backend, workers, scheduler, dask_processes)   # refuses bad options
    store = None
    try:
        store = ChunkStore(out, fp, {"fingerprint": fp, "experiment": exp.source(),
                                     "canonical": exp.canonical()}) if keep else _NoStore()
        sched = _Schedule(exp, store, on_chunk)
        bar = progress_bar(exp.games * sum(sched.pts), sched.resumed, quiet, exp.name)
        sched.fold()
        try:
            sched.play(be, bar)
        finally:
            bar.close()
        if sched.stopped is None:
            sched.stopped = "max_games" if exp.stop is not None else "games"

        results, hists = build_tables(exp, sched.totals)
        if keep:
            _write_tables(out, results, hists)
        meta = _meta(exp, sched, be, scheduler, fp, out, store.other_fingerprints(), t_start)
        if keep:
            atomic_write_text(out / META, json.dumps(meta, indent=1, default=str) + "\n")
        return RunResult(out, meta, results, hists)
    finally:
        if store is not None:
            store.close()
        be.close()
