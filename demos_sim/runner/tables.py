"""Tidy tables from a run's exact totals.

``results.parquet`` has one row per grid point × side/seat/game × metric:

=================  ==============================================================
experiment         experiment name
block, players     player-count block and its player count
point, label       grid point index and ``key=value, …``
<grid keys>        one column per grid key (ints, bools, strings; lists as JSON); a key
                   named like a column of this table (Protocole's ``level`` setting)
                   is written as ``grid_<key>`` (:func:`grid_column`)
metric, level      e.g. ``win_share``/``side``, ``points``/``seat``, ``rounds``/``game``,
                   ``veto_round``/``bins``
side, seats        side label (seat number for seat metrics, ``all`` for game metrics,
                   the bin label for bins metrics);
                   the seats of the side
games              games played at this point
denominator        what the mean is over: games, or for a ratio quantity (``per``) the
                   total of its denominator (e.g. seats that held one Media)
count              games with a value > 0 (wins, no-winner games, …)
total, mean, sd    Σ value, its mean over games, the sample sd of one game's value
ci_low, ci_high    95% interval of the mean (:mod:`demos_sim.runner.intervals`: normal;
                   Wilson for a 0/1 rate; never zero-wide at 0 or 1 for a rate)
half_width         z·sd/√games (unclipped)
ref_point          the block's reference point (null at the reference itself)
diff, diff_sd      mean − reference mean over the same deals; sd of the per-game difference
diff_ci_low/high   95% interval of the paired difference; diff_half_width
=================  ==============================================================

``histograms.parquet``: experiment, block, players, point, label, metric, level, side,
bin, lo (bin's lowest value), width, count — non-empty bins only; the last bin of each
histogram also counts every larger value.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from demos_sim.runner.intervals import mean_ci, paired_diff_ci, ratio_ci


def _grid_column(values: list):
    if all(isinstance(v, bool) for v in values):
        return values
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return values
    if all(isinstance(v, str) for v in values):
        return values
    if all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in values):
        return [",".join(v) for v in values]
    return [json.dumps(v) for v in values]


def _who(exp, point, q):
    """``[(side label, seats), …]``: the columns of quantity ``q`` at ``point``."""
    ad = exp.adapter
    level = q.level
    if level == "game":
        return [("all", "")]
    if level == "bins":
        return [(b, "") for b in q.bins]
    labels = ad.labels(point.config, level)
    if level == "seat":
        return [(lab, lab) for lab in labels]
    seats = ad.side_seats(point.config)
    return [(lab, ",".join(map(str, seats[j]))) for j, lab in enumerate(labels)]


RESERVED = ("experiment", "block", "players", "point", "label", "metric", "level", "side",
            "seats", "bin", "lo", "width", "count")


def grid_column(key: str) -> str:
    """The table column of grid key ``key`` (``grid_<key>`` when ``key`` is taken)."""
    return f"grid_{key}" if key in RESERVED else key


def build_tables(exp, totals: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(results, histograms)`` DataFrames from the per-block totals of a run."""
    ad = exp.adapter
    rows, hrows = [], []
    grid_cols = {k: _grid_column([p.values[k] for p in exp.points]) for k in exp.grid_keys}
    for p in exp.points:
        agg = totals[p.block]
        n = int(agg[f"{p.index}.n"][0])
        base = {"experiment": exp.name, "block": p.block, "players": p.players,
                "point": p.index, "label": p.label}
        for k in exp.grid_keys:
            base[grid_column(k)] = grid_cols[k][p.index]
        for m in exp.metrics:
            q = ad.quantity(m)
            s, sq = agg[f"{p.index}.{m}.sum"], agg[f"{p.index}.{m}.sq"]
            pos = agg[f"{p.index}.{m}.pos"]
            for j, (side, seats) in enumerate(_who(exp, p, q)):
                if q.per is not None:
                    ys, ysq = agg[f"{p.index}.{q.per}.sum"], agg[f"{p.index}.{q.per}.sq"]
                    jy = j if len(ys) > 1 else 0
                    e = ratio_ci(s[j], sq[j], ys[jy], ysq[jy], agg[f"{p.index}.{m}.xper"][j], n,
                                 q.scale, q.rate)
                    total_y = int(ys[jy])
                else:
                    e = mean_ci(s[j], sq[j], n, q.scale, q.rate)
                    total_y = n
                row = dict(base, metric=m, level=q.level, side=side, seats=seats, games=n,
                           count=int(pos[j]), total=int(s[j]) / q.scale, mean=e.mean, sd=e.sd,
                           ci_low=e.lo, ci_high=e.hi, half_width=e.half_width,
                           ref_point=p.ref, diff=np.nan, diff_sd=np.nan, diff_ci_low=np.nan,
                           diff_ci_high=np.nan, diff_half_width=np.nan, denominator=total_y)
                if p.ref is not None and q.per is None:
                    r = exp.points[p.ref].index
                    d = paired_diff_ci(s[j], sq[j], agg[f"{r}.{m}.sum"][j],
                                       agg[f"{r}.{m}.sq"][j], agg[f"{p.index}.{m}.cross"][j],
                                       n, q.scale, rate=q.rate)
                    row.update(diff=d.mean, diff_sd=d.sd, diff_ci_low=d.lo, diff_ci_high=d.hi,
                               diff_half_width=d.half_width)
                rows.append(row)
                if q.hist is not None:
                    width, _ = q.hist
                    h = agg[f"{p.index}.{m}.hist"][j]
                    for b in np.flatnonzero(h):
                        hrows.append(dict(base, metric=m, level=q.level, side=side,
                                          bin=int(b), lo=int(b) * width, width=width,
                                          count=int(h[b])))
    results = pd.DataFrame(rows)
    results["ref_point"] = results["ref_point"].astype("Int64")
    hist_cols = ["experiment", "block", "players", "point", "label",
                 *map(grid_column, exp.grid_keys), "metric",
                 "level", "side", "bin", "lo", "width", "count"]
    hists = pd.DataFrame(hrows, columns=hist_cols)
    return results, hists


def tracked_half_widths(exp, totals: list[dict]) -> list[tuple[str, float]]:
    """``[(what, half-width), …]`` of every interval the stopping rule tracks."""
    from demos_sim.runner.experiment import DIFF

    ad = exp.adapter
    out = []
    for t in exp.stop.track:
        diff = t.startswith(DIFF)
        m = t[len(DIFF):] if diff else t
        q = ad.quantity(m)
        for p in exp.points:
            if diff and p.ref is None:
                continue
            agg = totals[p.block]
            if agg is None:
                return [(t, float("inf"))]
            n = int(agg[f"{p.index}.n"][0])
            s, sq = agg[f"{p.index}.{m}.sum"], agg[f"{p.index}.{m}.sq"]
            for j in range(len(_who(exp, p, q))):
                if diff:
                    r = p.ref
                    e = paired_diff_ci(s[j], sq[j], agg[f"{r}.{m}.sum"][j], agg[f"{r}.{m}.sq"][j],
                                       agg[f"{p.index}.{m}.cross"][j], n, q.scale,
                                       rate=q.rate)
                else:
                    e = mean_ci(s[j], sq[j], n, q.scale, q.rate)
                hw = e.half_width if e.half_width == e.half_width else float("inf")  # NaN
                out.append((f"{t} {p.label} {j}", hw))
    return out
