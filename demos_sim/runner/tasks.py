"""A worker's whole job: play one chunk of one block for every grid point, aggregate it.

Per grid point ``p`` and quantity ``q`` (values ``x`` per game, integers, one column per
side/seat, or one for the game) the chunk aggregate holds exact int64 sums:

- ``p.n``            games
- ``p.q.sum``        Σ x          ``p.q.sq``  Σ x²        ``p.q.pos``  #{x > 0}
- ``p.q.cross``      Σ x·x_ref, with x_ref the same game played at the block's reference
  point (same deal: every grid point of a block plays the same chunk seeds); present for
  points that have a reference. With ``ref.q.sq`` this gives Σ (x − x_ref)², hence the
  sample variance of the per-game paired differences (:mod:`demos_sim.runner.intervals`).
- ``p.q.hist``       (columns, bins) histogram for quantities that keep one.
- ``p.q.xper``       Σ x·y for a ratio quantity (``Quantity.per``), ``y`` its
  denominator's value in the same game (the delta-method interval needs it).

Per-game values exist only inside this call, so memory does not grow with the games.
Sums of integers are exact and order-free: totals do not depend on which worker played
which chunk, or in which order chunks were added.
"""

from __future__ import annotations

import warnings

import numpy as np


def aggregate_outcomes(adapter, outcomes: dict[int, dict[str, np.ndarray]],
                       refs: dict[int, int | None]) -> dict[str, np.ndarray]:
    """Chunk aggregate (see the module docstring) from per-game quantity arrays (the
    quantities each outcome holds)."""
    agg: dict[str, np.ndarray] = {}
    for p, qs in outcomes.items():
        ref = refs.get(p)
        n = None
        for q in adapter.quantities:
            if q.name not in qs:
                continue
            x = qs[q.name].astype(np.int64, copy=False)
            n = x.shape[0]
            agg[f"{p}.{q.name}.sum"] = x.sum(axis=0)
            agg[f"{p}.{q.name}.sq"] = (x * x).sum(axis=0)
            agg[f"{p}.{q.name}.pos"] = (x > 0).sum(axis=0).astype(np.int64)
            if ref is not None:
                agg[f"{p}.{q.name}.cross"] = (x * outcomes[ref][q.name]).sum(axis=0)
            if q.per is not None:
                y = qs[q.per].astype(np.int64, copy=False)
                agg[f"{p}.{q.name}.xper"] = (x * y).sum(axis=0)
            if q.hist is not None:
                width, nbins = q.hist
                b = np.clip(x // width, 0, nbins - 1)
                agg[f"{p}.{q.name}.hist"] = np.stack(
                    [np.bincount(b[:, j], minlength=nbins) for j in range(x.shape[1])]
                ).astype(np.int64)
        agg[f"{p}.n"] = np.array([n], np.int64)
    return agg


def play_task(game: str, seed: int, chunk: int, count: int, points: list[tuple],
              plugins: tuple, metrics: tuple[str, ...] | None = None,
              first: int = 0) -> dict[str, np.ndarray]:
    """Play games ``first … first+count-1`` of chunk ``chunk`` at every point of one block
    (the aggregates are integer sums: a chunk's parts add up to the whole chunk's).

    ``points`` is ``[(index, config, policy specs, reference index or None), …]``; the
    reference point of the block is always among them. ``metrics`` (None: all) are the
    quantities aggregated, with their ratio denominators.
    """
    from demos_sim.game import get_game

    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    ad = get_game(game)
    ad.load_plugins(plugins)
    want = ad.needed(metrics)
    outcomes = {i: ad.play(config, list(specs), seed, chunk, count, metrics=want,
                           first=first)
                for i, config, specs, _ in points}
    return aggregate_outcomes(ad, outcomes, {i: ref for i, _, _, ref in points})


def add_into(total: dict[str, np.ndarray] | None, part: dict[str, np.ndarray]):
    """``total += part`` key by key (a copy of ``part`` when ``total`` is None)."""
    if total is None:
        return {k: v.astype(np.int64, copy=True) for k, v in part.items()}
    if total.keys() != part.keys():
        raise ValueError("chunk aggregates with different fields cannot be added")
    for k, v in part.items():
        total[k] += v
    return total
