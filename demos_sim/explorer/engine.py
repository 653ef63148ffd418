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

A sample game (the page's *Show a sample game*) is a job of its own kind
(:meth:`Engine.submit_replay`, :func:`execute_replay`): it waits its turn in the same queue
and plays in the same engine process, so a slow one (a bot with a large search budget)
never holds the web server's interpreter lock. It has a time limit,
:data:`REPLAY_LIMIT_S` from the moment it starts playing: past it, the engine process is
ended (a game cannot be interrupted while a kernel plays it) and the job ends with one
line saying so (:func:`replay_limit_message`).
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
REPLAY_LIMIT_S = 30.0  # a sample game still playing after this long: stopped, with a message
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


def replay_limit_message(limit: float) -> str:
    return (f"the sample game did not finish within {limit:g} s, the limit for a sample game, "
            "and was stopped: its bots take too long (choose a smaller budget, e.g. "
            "ismcts@1000, or an earlier game)")


def execute_replay(args: dict, emit, cancelled) -> None:
    """Play sample game ``args["index"]`` of ``args["setup"]`` (``args["which"]`` side):
    ``emit`` a ``"running"`` message when it starts playing, then ``"replay"`` with the
    :class:`~demos_sim.explorer.replay.Replay`, or ``"error"``; ``cancelled()`` is asked
    between games."""
    try:
        from demos_sim.explorer.replay import sample

        if cancelled():                    # given up while it waited its turn
            emit({"type": "error", "message": "the sample game was stopped"})
            return
        emit({"type": "running"})
        rep = sample(args["setup"], args["which"], args["index"], cancelled=cancelled)
        if rep is None:
            emit({"type": "error", "message": "the sample game was stopped"})
        else:
            emit({"type": "replay", "replay": rep})
    except ConfigError as e:
        emit({"type": "error", "message": str(e)})
    except Exception as e:  # noqa: BLE001
        log.error("sample game failed:\n%s", traceback.format_exc())
        emit({"type": "error", "message": f"the sample game failed: {type(e).__name__}: {e}"})


class Stopped(Exception):
    """Raised from a search's callback when its job is cancelled (between values)."""


def execute_sweep(args: dict, emit, cancelled) -> None:
    """Play the sweep ``args`` (the arguments of
    :func:`demos_sim.analysis.core.sweep.plan_sweep`): after every chunk ``emit`` a
    ``"chunk"`` message with the sweep's table so far (``rows``, shares as fractions), its
    verdict sentence and its curves as PNG (:func:`~demos_sim.analysis.core.sweep.
    plot_sweep`), and once at the end ``"done"`` (or ``"error"``)."""
    try:
        from demos_sim.analysis.core.plotting import png_bytes
        from demos_sim.analysis.core.sweep import plan_sweep, plot_sweep, verdict
        from demos_sim.runner.run import run_experiment
        from demos_sim.runner.tables import build_tables

        title = args.pop("title", "")
        p = plan_sweep(**args)
        exp = p.experiment
        emit({"type": "running", "reference": f"{p.knob.name} = {p.ref_value}",
              "change": f"{p.knob.name} = " + ", ".join(str(v) for v in p.values)})

        def figures(results, games: int) -> dict:
            t = p.table(results)
            if t.empty:
                return {"rows": []}
            png = png_bytes(plot_sweep(t, f"{title}: {p.knob.name} on the same {games:,} "
                                          "deals a value (95% bands)"))
            return {"rows": t.to_dict(orient="records"), "sentence": verdict(t), "png": png}

        def on_chunk(totals, games):
            emit({"type": "chunk", "games": games,
                  **figures(build_tables(exp, totals)[0], games)})
            return not cancelled()

        run = run_experiment(exp, workers=1, quiet=True, keep=False, on_chunk=on_chunk)
        games = int(run.meta["games_per_point"])
        emit({"type": "done", "games": games, "stopped_by": run.meta["stopped_by"],
              **figures(run.results, games)})
    except ConfigError as e:
        emit({"type": "error", "message": str(e)})
    except Exception as e:  # noqa: BLE001
        log.error("sweep failed:\n%s", traceback.format_exc())
        emit({"type": "error", "message": f"the sweep failed: {type(e).__name__}: {e}"})


def probe_dict(p, fresh: bool) -> dict:
    """One value a search played (:class:`demos_sim.analysis.core.solve.Probe`) as plain
    data: its verdict and each side's share of won games (fractions) with its interval."""
    return {"value": p.value, "seed": p.seed, "games": p.games, "verdict": p.verdict,
            "fresh": fresh,
            "sides": [{"side": str(r["side"]), "share_won": float(r["share_won"]),
                       "low": float(r["share_won_ci_low"]),
                       "high": float(r["share_won_ci_high"]),
                       "parity": float(r["parity"]), "diff": float(r["diff"]),
                       "verdict": str(r["verdict"]), "text": str(r["verdict_text"])}
                      for _, r in p.sides.iterrows()]}


def execute_solve(args: dict, emit, cancelled) -> None:
    """Search the value ``args`` asks for (the arguments of
    :func:`demos_sim.analysis.core.solve.solve`, the target as text): ``emit`` a
    ``"probe"`` message for each value played (the last one on fresh deals, when a value
    was found), then ``"solved"`` with the answer's text; ``cancelled()`` is asked after
    each value."""
    try:
        from demos_sim.analysis.core.solve import format_solution, parse_target, solve

        args = dict(args)
        title = args.pop("title", "")
        target = parse_target(args.pop("target"))
        seed = args.get("seed", 0)
        emit({"type": "running", "reference": "", "change": ""})

        def on_probe(p):
            emit({"type": "probe", "probe": probe_dict(p, fresh=p.seed != seed)})
            if cancelled():
                raise Stopped

        sol = solve(target=target, on_probe=on_probe, **args)
        emit({"type": "solved", "text": format_solution(sol, title), "value": sol.value,
              "confirmed": sol.confirmed, "games": sol.probes[0].games if sol.probes else 0})
    except Stopped:
        emit({"type": "done", "games": 0, "rows": [], "stopped_by": "on_chunk"})
    except ConfigError as e:
        emit({"type": "error", "message": str(e).replace("--target", "the target")
                                              .replace("--range", "the range")})
    except Exception as e:  # noqa: BLE001
        log.error("search failed:\n%s", traceback.format_exc())
        emit({"type": "error", "message": f"the search failed: {type(e).__name__}: {e}"})


EXECUTORS = {"whatif": execute, "replay": execute_replay, "sweep": execute_sweep,
             "solve": execute_solve}


@dataclass
class Job:
    setup: object                        # demos_sim.explorer.form.Setup
    id: int = 0
    kind: str = "whatif"                 # "replay" (a sample game), "sweep", "solve" (args)
    args: dict = field(default_factory=dict)
    limit_s: float | None = None         # seconds it may play (replays)
    running_since: float | None = None
    replay: object = None                # the Replay of a finished sample game
    state: str = "queued"
    games: int = 0
    rows: list = field(default_factory=list)
    cis: dict = field(default_factory=dict)
    message: str = ""
    reference: str = ""
    change: str = ""
    stopped_by: str | None = None
    sentence: str = ""                   # a sweep's verdict
    png: bytes = b""                     # a sweep's curves
    probes: list = field(default_factory=list)     # a search's values played
    answer: dict = field(default_factory=dict)     # a search's answer
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
            self.state, self.running_since = "running", time.monotonic()
            self.reference, self.change = msg.get("reference", ""), msg.get("change", "")
        elif kind in ("chunk", "done"):
            self.games, self.rows = msg["games"], msg["rows"]
            self.cis = msg.get("cis", self.cis)
            self.sentence = msg.get("sentence", self.sentence)
            self.png = msg.get("png", self.png)
            if kind == "done":
                self.stopped_by = msg["stopped_by"]
                self.state = "stopped" if msg["stopped_by"] == "on_chunk" else "done"
        elif kind == "probe":
            self.probes.append(msg["probe"])
            self.games = msg["probe"]["games"]
        elif kind == "solved":
            self.answer, self.state = msg, "done"
        elif kind == "replay":
            self.replay, self.state = msg["replay"], "done"
        elif kind == "error":
            self.state, self.message = "error", msg["message"]

    def payload(self) -> dict:
        """What :func:`execute` or :func:`execute_replay` is given."""
        return self.setup.plan_args() if self.kind == "whatif" else dict(self.args)


def _child(conn, cancel) -> None:
    """The engine process: play every what-if it is sent, until it is sent None."""
    import warnings

    warnings.filterwarnings("ignore", message="First-class function type")
    while True:
        msg = conn.recv()
        if msg is None:
            return
        kind, args = msg
        EXECUTORS[kind](args, conn.send, cancel.is_set)


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

    def submit_replay(self, setup, which: str, index: int) -> Job:
        """Queue sample game ``index`` of ``setup`` (``which``: "change" or "against"); the
        finished job holds its ``replay``, or ``state == "error"`` and a ``message``."""
        with self._lock:
            self._ids += 1
            job = Job(setup, id=self._ids, kind="replay", limit_s=REPLAY_LIMIT_S,
                      args={"setup": setup, "which": which, "index": index})
        self._queue.put(job)
        return job

    def submit_kind(self, kind: str, setup, args: dict) -> Job:
        """Queue a job of ``kind`` ("sweep" or "solve") with its executor's ``args``."""
        with self._lock:
            self._ids += 1
            job = Job(setup, id=self._ids, kind=kind, args=dict(args))
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
                    EXECUTORS[job.kind](job.payload(), job.take, lambda: job.cancel_requested)
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
        self._conn.send((job.kind, job.payload()))
        cancelled_at = None
        while True:
            if (job.limit_s is not None and job.running_since is not None
                    and time.monotonic() - job.running_since > job.limit_s):
                self._stop_child()             # a kernel mid-game cannot be asked to stop
                job.take({"type": "error", "message": replay_limit_message(job.limit_s)})
                return
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
            if job.finished:           # "done", "error", a sample's "replay", a "solved"
                return
