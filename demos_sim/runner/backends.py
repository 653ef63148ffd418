"""Where chunks run: this process, joblib's process pool, or a Dask cluster.

All three offer the same three calls — ``submit(fn, *args)`` returning a future,
``wait_any(futures)`` returning ``(done, not_done)``, ``warm(fn, *args)`` running a call
on every worker (numba cache load) — so the scheduler in :mod:`demos_sim.runner.run` is
one loop. Results never depend on the backend: every task is a pure function of its
chunk index, and the runner adds exact integer aggregates.

- ``inline`` (``--workers 1``): tasks run in this process when submitted.
- ``local`` (``--workers W`` ≥ 2): joblib's loky process pool
  (``joblib.executor.get_memmapping_executor``, the executor behind
  ``joblib.Parallel(backend="loky")``), used directly so that the runner can submit
  chunks one at a time and stop early.
- ``dask``: ``distributed.Client`` futures, on the cluster at ``--scheduler ADDRESS`` or
  on a ``distributed.LocalCluster`` of ``W`` single-threaded worker processes started on
  this machine. Workers of a remote cluster need demos-sim (and any plugin file) installed.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging

from demos_sim import ConfigError


class InlineBackend:
    name = "inline"

    def __init__(self):
        self.workers = 1

    def submit(self, fn, *args):
        fut: cf.Future = cf.Future()
        try:
            fut.set_result(fn(*args))
        except BaseException as e:  # noqa: BLE001  (delivered by result())
            if isinstance(e, KeyboardInterrupt):
                raise
            fut.set_exception(e)
        return fut

    def wait_any(self, futures):
        return cf.wait(futures, return_when=cf.FIRST_COMPLETED)

    def warm(self, fn, *args):
        fn(*args)

    def close(self):
        pass


class LocalBackend:
    name = "local"

    def __init__(self, workers: int):
        # joblib's own constructor of the loky executor: the process-wide singleton it
        # returns stays usable by joblib.Parallel (simulate) in the same process.
        from joblib.executor import get_memmapping_executor

        self.workers = workers
        self._ex = get_memmapping_executor(workers, timeout=60)

    def submit(self, fn, *args):
        return self._ex.submit(fn, *args)

    def wait_any(self, futures):
        return cf.wait(futures, return_when=cf.FIRST_COMPLETED)

    def warm(self, fn, *args):
        for f in [self._ex.submit(fn, *args) for _ in range(self.workers)]:
            f.result()

    def close(self):
        pass  # the reusable executor stays for the next run of this process


class DaskBackend:
    name = "dask"

    def __init__(self, workers: int, scheduler: str | None = None, processes: bool = True):
        from distributed import Client, LocalCluster

        self._cluster = None
        self.scheduler = scheduler
        try:
            if scheduler:
                self.client = Client(scheduler, timeout="20s")
            else:
                self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                             processes=processes, dashboard_address=None,
                                             silence_logs=logging.ERROR)
                self.client = Client(self._cluster)
        except (OSError, TimeoutError) as e:
            raise ConfigError(f"cannot reach the Dask scheduler {scheduler!r}: {e}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait_any(self, futures):
        from distributed import wait

        res = wait(list(futures), return_when="FIRST_COMPLETED")
        return res.done, res.not_done

    def warm(self, fn, *args):
        self.client.run(fn, *args)

    def close(self):
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


BACKEND_HELP = ("local: processes on this machine; dask: distributed (a LocalCluster unless "
                "--scheduler)")


def add_backend_options(p, workers: int = 1, backend_help: str = BACKEND_HELP) -> None:
    """``--workers``, ``--backend`` and ``--scheduler`` of a command that plays games: where
    they play (:func:`make_backend`); the numbers do not depend on them."""
    p.add_argument("--workers", type=int, default=workers,
                   help="worker processes (local) or LocalCluster workers (dask); the "
                        "numbers are the same for any count")
    p.add_argument("--backend", choices=("local", "dask"), default="local", help=backend_help)
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (default with "
                        "--backend dask: a local cluster of --workers processes)")


def make_backend(backend: str, workers: int, scheduler: str | None = None,
                 dask_processes: bool = True):
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    if backend not in ("local", "dask"):
        raise ConfigError(f"--backend must be local or dask, got {backend!r}")
    if scheduler and backend != "dask":
        raise ConfigError("--scheduler needs --backend dask")
    if backend == "dask":
        return DaskBackend(workers, scheduler, dask_processes)
    return InlineBackend() if workers == 1 else LocalBackend(workers)


def map_tasks(fn, args: list[tuple], workers: int = 1, backend: str = "local",
              scheduler: str | None = None):
    """``fn(*a)`` for every ``a`` of ``args``, yielded in order, on the backend
    :func:`make_backend` gives (at most ``2 × workers`` in flight): the one pool for work
    that is not games at grid points — a trainer's labelled decisions
    (``demos-sim train-apprentice``), the numba cache warm-up (:mod:`demos_sim.warm`).
    Games at points are played by :func:`demos_sim.runner.points.play_points`."""
    from collections import deque

    be = make_backend(backend, workers, scheduler)
    try:
        inflight: deque = deque()
        for a in args:
            inflight.append(be.submit(fn, *a))
            if len(inflight) >= 2 * be.workers:
                yield inflight.popleft().result()
        while inflight:
            yield inflight.popleft().result()
    finally:
        be.close()
