"""Runs what-ifs for the explorer, one at a time, with live partial tables.

A :class:`Job` is one what-if of one page: its :class:`~demos_sim.explorer.form.Setup`,
its state (``queued``, ``starting``, ``running``, ``done``, ``stopped``, ``error``) and the
latest comparison table, which :func:`execute` replaces after every chunk of games through
``run_experiment``'s ``on_chunk`` hook (the runner's own chunks, seeds and intervals: the
numbers on the page are those of ``demos-sim compare`` with the same setup after as many
games). A job stops at its target interval (the comparison's stopping rule), at its
number of games, or when asked (:meth:`Job.cancel`: a new run from the same page, the
Stop button, or the page gone quiet — no poll for :data:`HEARTBEAT_S` seconds).

The :class:`Engine` plays the jobs in order, one at a time (the machine has two cores;
``workers = 1``). By default it plays them in a child process, so that the numba kernels,
which hold the interpreter lock while a chunk plays, never stall the web server; a job
that does not stop within :data:`KILL_AFTER_S` of being cancelled has its process ended
(and a new one started for the next job). ``inline=True`` plays them in a thread of this
process instead (the unit tests).
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import queue
import threading
import time
import traceback
from dataclasses import dataclass, field

from demos_sim import ConfigError

HEARTBEAT_S = 6.0      # a running job whose page has not polled for this long is stopped
KILL_AFTER_S = 15.0    # a cancelled job still playing after this long: its process is ended
log = logging.getLogger("demos_sim.explorer")


def execute(args: dict, emit, cancelled) -> None:
    """Play the what-if ``args`` (:meth:`Setup.plan_args`): ``emit(message)`` after every
    chunk (``{"type": "chunk", "games": n, "rows": [...]}``) and once at the end
    (``"done"`` with ``stopped_by``, or ``"error"`` with a one-line ``message``);
    ``cancelled()`` is asked after every chunk."""
    try:
        from demos_sim.analysis.core.whatif import plan
        from demos_sim.runner.run import run_experiment
        from demos_sim.runner.tables import build_tables

        p = plan(**args)
        exp = p.experiment
        emit({"type": "running", "reference": p.reference, "change": p.change})

        length = exp.adapter.length

        def figures(results) -> dict:
            """The comparison rows and each point's value with its interval."""
            shown = results[results["metric"].isin(("win_share", "no_winner", length))]
            return {"rows": p.table(results).to_dict(orient="records"),
                    "cis": {f"{r.point}|{r.metric}|{r.side}": [r.mean, r.ci_low, r.ci_high]
                            for r in shown.itertuples()}}

        def on_chunk(totals, games):
            emit({"type": "chunk", "games": games, **figures(build_tables(exp, totals)[0])})
            return not cancelled()

        run = run_experiment(exp, workers=1, quiet=True, keep=False, on_chunk=on_chunk)
        emit({"type": "done", "games": int(run.meta["games_per_point"]),
              "stopped_by": run.meta["stopped_by"], **figures(run.results)})
    except ConfigError as e:
        emit({"type": "error", "message": str(e)})
    except Exception as e:  # noqa: BLE001  (a message on the page; the traceback in the log)
        log.error("what-if failed:\n%s", traceback.format_exc())
        emit({"type": "error", "message": f"the run failed: {type(e).__name__}: {e}"})


@dataclass
class Job:
    setup: object                        # demos_sim.explorer.form.Setup
    id: int = 0
    state: str = "queued"
    games: int = 0
    rows: list = field(default_factory=list)
    cis: dict = field(default_factory=dict)
    message: str = ""
    reference: str = ""
    change: str = ""
    stopped_by: str | None = None
    started: float = field(default_factory=time.monotonic)
    cancel_requested: bool = False
    cancel_reason: str = ""

    @property
    def finished(self) -> bool:
        return self.state in ("done", "stopped", "error")

    @property
    def active(self) -> bool:
        return not self.finished

    def cancel(self, reason: str) -> None:
        if self.active and not self.cancel_requested:
            self.cancel_requested, self.cancel_reason = True, reason

    def take(self, msg: dict) -> None:
        """Fold one message of :func:`execute` into the job."""
        kind = msg["type"]
        if kind == "running":
            self.state, self.reference, self.change = "running", msg["reference"], msg["change"]
        elif kind == "chunk":
            self.games, self.rows, self.cis = msg["games"], msg["rows"], msg["cis"]
        elif kind == "done":
            self.games, self.rows, self.cis = msg["games"], msg["rows"], msg["cis"]
            self.stopped_by = msg["stopped_by"]
            self.state = "stopped" if msg["stopped_by"] == "on_chunk" else "done"
        elif kind == "error":
            self.state, self.message = "error", msg["message"]


def _child(conn, cancel) -> None:
    """The engine process: play every what-if it is sent, until it is sent None."""
    import warnings

    warnings.filterwarnings("ignore", message="First-class function type")
    while True:
        args = conn.recv()
        if args is None:
            return
        execute(args, conn.send, cancel.is_set)


class Engine:
    """Plays queued jobs one at a time (see the module docstring)."""

    def __init__(self, inline: bool = False):
        self.inline = inline
        self._queue: queue.Queue = queue.Queue()
        self._ids = 0
        self._lock = threading.Lock()
        self._proc = None
        self._conn = None
        self._cancel = None
        self._thread = threading.Thread(target=self._loop, name="explorer-engine", daemon=True)
        self._thread.start()

    def submit(self, setup) -> Job:
        with self._lock:
            self._ids += 1
            job = Job(setup, id=self._ids)
        self._queue.put(job)
        return job

    def close(self) -> None:
        self._queue.put(None)
        self._stop_child()

    # ------------------------------------------------------------ playing
    def _loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if job.cancel_requested:
                job.state = "stopped"
                continue
            job.state = "starting"
            try:
                if self.inline:
                    execute(job.setup.plan_args(), job.take, lambda: job.cancel_requested)
                else:
                    self._play_in_child(job)
            except Exception as e:  # noqa: BLE001
                log.error("engine: %s", traceback.format_exc())
                job.take({"type": "error", "message": f"the engine failed: {e}"})
            if job.active:                 # ended without a last word
                job.take({"type": "error", "message": "the run ended without a result"})

    def _ensure_child(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            return
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        self._cancel = ctx.Event()
        self._proc = ctx.Process(target=_child, args=(child, self._cancel), daemon=True,
                                 name="explorer-engine")
        self._proc.start()
        self._conn = parent

    def _stop_child(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.is_alive():
            proc.terminate()
            proc.join(5)

    def _play_in_child(self, job: Job) -> None:
        self._ensure_child()
        self._cancel.clear()
        self._conn.send(job.setup.plan_args())
        cancelled_at = None
        while True:
            if job.cancel_requested:
                self._cancel.set()
                cancelled_at = cancelled_at or time.monotonic()
                if time.monotonic() - cancelled_at > KILL_AFTER_S:
                    self._stop_child()
                    job.state, job.stopped_by = "stopped", "on_chunk"
                    return
            try:
                ready = self._conn.poll(0.1)
                msg = self._conn.recv() if ready else None
            except (EOFError, OSError):
                self._stop_child()
                job.take({"type": "error", "message": "the engine process ended"})
                return
            if msg is None:
                continue
            job.take(msg)
            if msg["type"] in ("done", "error"):
                return
