"""Playing and scoring candidates: games on given chunks, targets, bootstrap intervals.

:class:`Evaluator` plays candidate settings on the same chunks (common random numbers),
in worker processes, and keeps per-batch sums of the quantities the targets need (cached:
a point already played on a chunk is not played again). :func:`score` turns those sums
into target values, losses and the objective, with bootstrap replicates over batches of
games (:func:`bootstrap_weights`: the same resamples for every candidate of a stage, so
differences are paired); :func:`percentile_ci` gives their 95% percentile interval.
:func:`replay` plays chosen settings again (another bot, the racing deals) and scores them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from demos_sim.game import get_game
from demos_sim.runner.backends import InlineBackend, make_backend
from demos_sim.sim_common import chunks_of, cut, parts_per_job
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


def _play_sums(game, seed, chunk, count, cands, plugins, quantities, batch, first=0):
    """Worker: play games first…first+count-1 of ``chunk`` for every (config, specs);
    batch sums."""
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    ad = get_game(game)
    for plugin in plugins:
        ad.load_plugin(plugin)
    return [_batch_sums(ad.play(config, list(specs), tuple(plugins), seed, chunk, count,
                                metrics=tuple(quantities), first=first),
                        quantities, count, batch) for config, specs in cands]


class Evaluator:
    """Plays candidates on given chunks (cached), returns per-batch sums of quantities."""

    def __init__(self, spec: TuneSpec, workers: int = 1, play_hook: Callable | None = None):
        self.spec = spec
        self.hook = play_hook
        self.quantities = spec.quantities()
        self.backend = InlineBackend() if play_hook is not None else make_backend("local", workers)
        self.workers = workers
        self.cache: dict = {}
        self.games_played = 0
        self._warm = False

    def close(self):
        self.backend.close()

    def measure(self, cands: list[dict], games: int, chunk0: int) -> list[dict]:
        """Sums per batch of every candidate over games ``0…games-1`` from chunk ``chunk0``."""
        spec = self.spec
        batch = _batch_size(games)
        keys = [spec.key(v) for v in cands]
        jobs = []
        for c, k in chunks_of(games):
            chunk = chunk0 + c
            todo = []
            for key, v in zip(keys, cands):
                if (key, chunk, k, batch) not in self.cache and key not in [t[0] for t in todo]:
                    todo.append((key, v))
            if todo:
                jobs.append((chunk, k, todo))
        if self.hook is not None:
            for chunk, k, todo in jobs:
                for key, v in todo:
                    self.cache[(key, chunk, k, batch)] = _batch_sums(
                        self.hook(dict(v), spec.seed, chunk, k), self.quantities, k, batch)
                    self.games_played += k
        elif jobs:
            if not self._warm:
                self.backend.warm(_play_sums, spec.exp.game, spec.seed, 0, 1,
                                  [(spec.base_config, spec.policies)], spec.exp.plugins,
                                  self.quantities, 1)
                self._warm = True
            # few chunks (a replay by a slow bot): one job per setting and piece of a
            # chunk, so that every worker plays
            n_jobs = sum(len(todo) for _, _, todo in jobs)
            n = parts_per_job(n_jobs, self.workers)
            futs = []
            for chunk, k, todo in jobs:
                for group in ([[t] for t in todo] if n > 1 else [todo]):
                    args = [(spec.config(v), spec.policies) for _, v in group]
                    parts = cut(k, n, batch)
                    futs.append((chunk, k, group, [self.backend.submit(
                        _play_sums, spec.exp.game, spec.seed, chunk, m, args,
                        spec.exp.plugins, self.quantities, batch, f) for f, m in parts]))
            for chunk, k, group, fs in futs:
                done = [f.result() for f in fs]
                for i, (key, _) in enumerate(group):
                    res = [d[i] for d in done]
                    self.cache[(key, chunk, k, batch)] = {
                        q: np.concatenate([r[q] for r in res]) for q in res[0]}
                    self.games_played += k
        out = []
        for key in keys:
            parts = [self.cache[(key, chunk0 + c, k, batch)] for c, k in chunks_of(games)]
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
           workers: int = 1, stage: int = 99) -> dict[str, Scored]:
    """Play the settings ``roles`` (``[(role, values)]``) on games ``0…games-1`` from chunk
    ``chunk0`` — e.g. a tune's best, runner-up and default, by another bot (``spec`` loaded
    for that bot) on the racing deals — and score them with the bootstrap weights of
    ``stage``, the same for every role (paired)."""
    ev = Evaluator(spec, workers)
    try:
        meas = ev.measure([v for _, v in roles], games, chunk0)
    finally:
        ev.close()
    W = bootstrap_weights(spec, len(meas[0]["_n"]), stage)
    return {r: score(spec, v, m, W) for (r, v), m in zip(roles, meas)}
