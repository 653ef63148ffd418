"""Playing and scoring candidates: games on given chunks, targets, bootstrap intervals.

:class:`Evaluator` plays candidate settings on the same chunks (common random numbers)
through the runner's :func:`demos_sim.runner.points.play_points` (this process, a local
pool or Dask; resumable from a store folder) and keeps per-batch sums of the quantities
the targets need (cached: a point already played on a chunk is not played again).
:func:`score` turns those sums into target values, losses and the objective, with
bootstrap replicates over batches of games (:func:`bootstrap_weights`: the same resamples
for every candidate of a stage, so differences are paired); :func:`percentile_ci` gives
their 95% percentile interval.
:func:`replay` plays chosen settings again (another bot, the racing deals) and scores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from demos_sim.sim_common import chunks_of
from demos_sim.tuner.spec import PARITY, TuneSpec, resolve_columns


# --------------------------------------------------------------------------- playing
def _batch_size(games: int) -> int:
    """Games per bootstrap batch: a power of two (so batches never straddle chunks)."""
    b = 1
    while b < 64 and b * 2 * 256 <= games:
        b *= 2
    return b


def _batch_sums(qs: dict, quantities, count: int, batch: int) -> dict:
    starts = np.arange(0, count, batch)
    out = {q: np.add.reduceat(np.asarray(qs[q], np.int64).reshape(count, -1), starts, axis=0)
           for q in quantities}
    out["_n"] = np.diff(np.append(starts, count)).astype(np.int64)
    return out


def _runs(chunks: list[int]) -> list[tuple[int, int]]:
    """``(first, last + 1)`` of every run of consecutive chunk indices in ``chunks``."""
    out: list[list[int]] = []
    for c in chunks:
        if out and out[-1][1] == c:
            out[-1][1] = c + 1
        else:
            out.append([c, c + 1])
    return [(a, b) for a, b in out]


class Evaluator:
    """Plays candidates on given chunks (cached), returns per-batch sums of quantities.

    The games are played by :func:`demos_sim.runner.points.play_points` (``workers``,
    ``backend``, ``scheduler``: this process, a local pool or Dask; ``store``: a folder
    where every played task is kept, so that a tune killed and started again reads them
    instead of playing them). ``play_hook(values, seed, chunk, count)`` replaces the
    games by synthetic per-game values (the tests plant an optimum)."""

    def __init__(self, spec: TuneSpec, workers: int = 1, play_hook: Callable | None = None,
                 backend: str = "local", scheduler: str | None = None,
                 store: str | Path | None = None):
        self.spec = spec
        self.hook = play_hook
        self.quantities = spec.quantities()
        self.workers = workers
        self.store = store
        self.cache: dict = {}
        self.games_played = 0       # games evaluated (cache hits not counted; resumed ones are)
        self.games_resumed = 0      # … of which read back from the store
        self._backend = None
        # the runner's backend, opened once and handed to every play_points call (a Dask
        # LocalCluster started per call costs 7-10 s, a tune makes dozens of calls); a bad
        # backend or scheduler stops here, before any game
        if play_hook is None:
            from demos_sim.runner.backends import make_backend

            self._backend = make_backend(backend, workers, scheduler)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Release the pool or Dask client kept over the calls, if one was started."""
        if self._backend is not None:
            self._backend.close()
            self._backend = None

    def _per_game(self, chunk0: int, jobs: list[tuple[dict, int]]) -> list[dict]:
        """Per-game values of every ``(values, games)`` of ``jobs`` on deals
        ``0 … games-1`` from chunk ``chunk0``."""
        spec = self.spec
        if self.hook is not None:
            out = []
            for v, games in jobs:
                parts = [(k, self.hook(dict(v), spec.seed, chunk0 + c, k))
                         for c, k in chunks_of(games)]
                out.append({q: np.concatenate([np.asarray(p[q], np.int64).reshape(k, -1)
                                               for k, p in parts]) for q in self.quantities})
            return out
        from demos_sim.runner.points import Point, play_points

        played = play_points(spec.exp.game, [Point(spec.config(v), spec.policies)
                                             for v, _ in jobs],
                             [g for _, g in jobs], spec.seed, metrics=tuple(self.quantities),
                             plugins=tuple(spec.exp.plugins), chunk0=chunk0,
                             backend=self._backend, store=self.store, desc="tune games")
        self.games_resumed += played.meta["games_resumed"]
        return played.values

    def measure(self, cands: list[dict], games: int, chunk0: int) -> list[dict]:
        """Sums per batch of every candidate over games ``0…games-1`` from chunk ``chunk0``
        (a chunk a candidate was already measured on, with the same batch size, is not
        played again)."""
        spec = self.spec
        batch = _batch_size(games)
        keys = [spec.key(v) for v in cands]
        chunks = chunks_of(games)
        size = dict(chunks)
        groups: dict[int, list] = {}        # first chunk -> [(key, values, last + 1)]
        seen = set()
        for key, v in zip(keys, cands):
            if key in seen:
                continue
            seen.add(key)
            missing = [c for c, k in chunks if (key, chunk0 + c, k, batch) not in self.cache]
            for a, b in _runs(missing):
                groups.setdefault(a, []).append((key, v, b))
        for a, todo in groups.items():
            counts = [sum(size[c] for c in range(a, b)) for _, _, b in todo]
            values = self._per_game(chunk0 + a, [(v, n) for (_, v, _), n in zip(todo, counts)])
            for (key, _, b), got in zip(todo, values):
                at = 0
                for c in range(a, b):
                    k = size[c]
                    self.cache[(key, chunk0 + c, k, batch)] = _batch_sums(
                        {q: x[at:at + k] for q, x in got.items()}, self.quantities, k, batch)
                    at += k
                    self.games_played += k
        out = []
        for key in keys:
            parts = [self.cache[(key, chunk0 + c, k, batch)] for c, k in chunks]
            out.append({q: np.concatenate([p[q] for p in parts]) for q in parts[0]})
        return out


# --------------------------------------------------------------------------- scoring
def parity(win: np.ndarray) -> np.ndarray:
    """``seat_parity`` of summed win shares ``win`` (..., sides): max − min over the sides
    of each side's share of the *won* games (games without a winner leave it unchanged, so
    a rule that makes nobody win cannot score as fair); 1 (the worst) when no game was won."""
    won = win.sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = win / won[..., None]
    return np.where(won > 0, share.max(-1) - share.min(-1), 1.0)


def debias(value: float, boot: np.ndarray) -> tuple[float, np.ndarray]:
    """Bootstrap bias correction of a max − min statistic: ``value − (mean(boot) − value)``
    and the replicates shifted by the same amount, both floored at 0.

    Noise always widens a range (max − min of noisy equal shares is > 0), so the raw
    ``seat_parity`` is biased upwards, most near parity: with k sides of sampling sd σ the
    raw value at exact parity averages d_k σ (d_4 ≈ 2.06). The bootstrap estimate of that
    bias removes part of it (roughly 40% at exact parity, all of it far from parity); the
    rest is bounded by the interval, which is what the racing and the confirmation
    compare."""
    bias = float(np.nanmean(boot)) - value
    return max(value - bias, 0.0), np.maximum(boot - bias, 0.0)


def _values(spec: TuneSpec, config, sums: dict, n) -> np.ndarray:
    """Target values (..., T) from summed quantities (..., cols) and game counts (...)."""
    ad = spec.adapter
    cols = resolve_columns(spec, config)
    out = []
    for t, j in zip(spec.targets, cols):
        if t.metric in PARITY:
            out.append(parity(np.asarray(sums["win_share"], float)))
            continue
        q = ad.quantity(t.metric)
        x = sums[t.metric][..., j]
        if q.per is not None:
            y = sums[q.per]
            y = y[..., j] if y.shape[-1] > 1 else y[..., 0]
            with np.errstate(invalid="ignore", divide="ignore"):
                out.append(x / (q.scale * y))
        else:
            out.append(x / (q.scale * n))
    return np.stack(out, -1)


def _losses(spec: TuneSpec, values: np.ndarray) -> np.ndarray:
    return np.stack([t.loss(values[..., i]) for i, t in enumerate(spec.targets)], -1)


def _objective(spec: TuneSpec, losses: np.ndarray) -> np.ndarray:
    w = np.array([t.weight for t in spec.targets])
    return (losses * w).sum(-1)


def bootstrap_weights(spec: TuneSpec, nb: int, stage: int) -> np.ndarray:
    """Bootstrap multinomial weights (B, nb), the same for every candidate of a stage."""
    rng = np.random.default_rng([spec.seed, 7919, stage, nb])
    return rng.multinomial(nb, np.full(nb, 1.0 / nb), size=spec.bootstrap).astype(np.float64)


@dataclass
class Scored:
    values: np.ndarray        # (T,) point estimates (seat_parity bias-corrected)
    losses: np.ndarray
    objective: float
    boot_values: np.ndarray   # (B, T)
    boot_objective: np.ndarray  # (B,)
    games: int
    raw_values: np.ndarray | None = None   # (T,) before the seat_parity bias correction


def score(spec: TuneSpec, cand: dict, meas: dict, W: np.ndarray) -> Scored:
    """Target values, losses and objective of ``cand`` from its per-batch sums ``meas``,
    with bootstrap replicates under the weights ``W`` (B, batches)."""
    config = spec.config(cand)
    tot = {q: meas[q].sum(0) for q in meas}
    v = _values(spec, config, tot, np.asarray(tot["_n"], float))
    bsum = {q: W @ meas[q] for q in meas if q != "_n"}
    bv = _values(spec, config, bsum, W @ meas["_n"])
    raw = v.copy()
    for i, t in enumerate(spec.targets):
        if t.metric in PARITY:
            v[i], bv[:, i] = debias(v[i], bv[:, i])
    loss = _losses(spec, v)
    return Scored(v, loss, float(_objective(spec, loss)), bv,
                  _objective(spec, _losses(spec, bv)), int(tot["_n"]), raw)


def percentile_ci(x: np.ndarray) -> tuple[float, float]:
    """95% percentile interval of bootstrap replicates ``x`` (non-finite ones dropped)."""
    x = x[np.isfinite(x)]
    if not len(x):
        return float("nan"), float("nan")
    lo, hi = np.percentile(x, [2.5, 97.5])
    return float(lo), float(hi)


def replay(spec: TuneSpec, roles: list[tuple[str, dict]], games: int, chunk0: int,
           workers: int = 1, stage: int = 99, backend: str = "local",
           scheduler: str | None = None, store: str | Path | None = None) -> dict[str, Scored]:
    """Play the settings ``roles`` (``[(role, values)]``) on games ``0…games-1`` from chunk
    ``chunk0`` — e.g. a tune's best, runner-up and default, by another bot (``spec`` loaded
    for that bot) on the racing deals — and score them with the bootstrap weights of
    ``stage``, the same for every role (paired). ``workers``, ``backend``, ``scheduler``,
    ``store``: as :class:`Evaluator`'s."""
    with Evaluator(spec, workers, backend=backend, scheduler=scheduler, store=store) as ev:
        meas = ev.measure([v for _, v in roles], games, chunk0)
    W = bootstrap_weights(spec, len(meas[0]["_n"]), stage)
    return {r: score(spec, v, m, W) for (r, v), m in zip(roles, meas)}
