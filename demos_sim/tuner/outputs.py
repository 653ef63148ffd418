"""What the tuner writes: the best table, the summary, the files, the printed description.

``<out>/`` gets, each file written atomically: ``trials.csv`` (every search trial),
``racing.csv`` (every racing round), ``best.csv`` (best, runner-up and default on the
fresh confirmation deals: every target and the objective with intervals, paired
differences from the best), ``deviations.csv`` (the best's one-step neighbours, paired
with it), ``changes.csv`` (the best objective with at most c rules changed),
``importance.csv`` and ``summary.json`` (seed, configuration, budget, the best, rules
contract, version, git revision, the tune file's text).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from demos_sim import __version__
from demos_sim.provenance import CONTRACT, git_revision
from demos_sim.runner.store import atomic_write_text
from demos_sim.tuner.evaluate import Scored, percentile_ci
from demos_sim.tuner.spec import TuneSpec


def best_table(spec: TuneSpec, scored: dict[str, Scored], best: dict,
               runner_up: dict | None) -> pd.DataFrame:
    """``best.csv``: best, runner-up and default, every target and the objective with its
    interval; for the others, the paired difference best − other (same batches) and, for
    the objective, the share of resamples where the best is better."""
    tnames = [t.name for t in spec.targets]
    sb = scored[spec.key(best)]
    roles = [("best", best), ("runner_up", runner_up), ("default", spec.default_values())]
    rows = []
    for role, c in roles:
        if c is None:
            continue
        s = scored[spec.key(c)]
        for i, mname in enumerate(tnames + ["objective"]):
            if mname == "objective":
                v, bv, bb = s.objective, s.boot_objective, sb.boot_objective
                vb = sb.objective
            else:
                v, bv, bb = s.values[i], s.boot_values[:, i], sb.boot_values[:, i]
                vb = sb.values[i]
            lo, hi = percentile_ci(bv)
            row = {"role": role, **c, "measure": mname, "value": v, "ci_low": lo,
                   "ci_high": hi, "games": s.games}
            if role == "best":
                row.update(diff=np.nan, diff_ci_low=np.nan, diff_ci_high=np.nan,
                           p_best_better=np.nan)
            else:
                d = bb - bv
                dlo, dhi = percentile_ci(d)
                row.update(diff=vb - v, diff_ci_low=dlo, diff_ci_high=dhi,
                           p_best_better=float(np.mean(d < 0)) if mname == "objective"
                           else np.nan)
            rows.append(row)
    return pd.DataFrame(rows)


def summary_of(spec: TuneSpec, found: Any, raced: Any, conf: Any, imp: pd.DataFrame,
               front: pd.DataFrame, at_edge: list[str], games_played: int, workers: int,
               synthetic: bool, wall_s: float) -> dict:
    """``summary.json`` from the search (``found``), the race (``raced``), the fresh-deal
    confirmation (``conf``: every figure of the best, runner-up and default comes from it),
    the importance table, the change front and the parameters at an edge of their range."""
    tnames = [t.name for t in spec.targets]
    scored = conf.scored
    default = spec.default_values()
    best, runner = conf.best, conf.runner_up
    sb = scored[spec.key(best)]

    def figs(role_c):
        s = scored[spec.key(role_c)]
        d = {}
        for i, tn in enumerate(tnames):
            lo, hi = percentile_ci(s.boot_values[:, i])
            d[tn] = {"value": float(s.values[i]), "ci95": [lo, hi]}
        lo, hi = percentile_ci(s.boot_objective)
        d["objective"] = {"value": s.objective, "ci95": [lo, hi]}
        return d

    def diff(c):
        if c is None:
            return None
        dd = sb.boot_objective - scored[spec.key(c)].boot_objective
        return {"objective_diff": sb.objective - scored[spec.key(c)].objective,
                "ci95": list(percentile_ci(dd)), "p_best_better": float(np.mean(dd < 0))}

    me = imp[(imp["method"] == "main_effect") & (imp["measure"] == "objective")]
    n_imp = int(me["points"].iloc[0]) if len(me) else 0
    dev = conf.deviations
    better = dev[dev["better"].astype(bool)]
    return {
        "name": spec.name, "tune_file": spec.path, "seed": spec.seed, "game": spec.exp.game,
        "config": spec.adapter.describe(spec.base_config), "policies": list(spec.policies),
        "params": {p.name: p.spec() | {"default": p.default} for p in spec.params},
        "targets": [{"name": t.name, "metric": t.metric, "side": t.side, "goal": t.goal,
                     "direction": t.direction, "weight": t.weight} for t in spec.targets],
        "objective": "sum of weight × loss; loss = |value − goal|, value (min) or −value (max)",
        "search": {"method": "exhaustive" if spec.exhaustive else
                   ("random" if spec.sampler == "random" else "tpe"),
                   "description": found.how, "trials": len(found.trials),
                   "distinct_points": len(found.distinct), "space_size": spec.space_size,
                   "games_per_trial": spec.games, "batch": spec.batch,
                   "default_in_space": found.in_space},
        "racing": {"schedule_games": raced.schedule, "candidates": len(raced.candidates),
                   "first_chunk": raced.chunk0, "final_games": spec.final_games,
                   "winner": raced.best},
        "confirmation": {"first_chunk": conf.chunk0, "games": conf.games,
                         "overturned": conf.overturned,
                         "note": "best, runner-up and default replayed on deals neither the "
                                 "search nor the race used; the finalist with the lower "
                                 "objective here is the best" + (
                                     " (the race's winner lost here: overturned)"
                                     if conf.overturned else "")},
        "local_optimum": bool(len(better) == 0),
        "better_neighbours": better[["parameter", "value", "diff", "diff_ci_low",
                                     "diff_ci_high"]].to_dict("records"),
        "at_edge": at_edge,
        "max_changes": spec.max_changes,
        "change_front": front.to_dict("records"),
        "best": {"values": best, **figs(best)},
        "runner_up": None if runner is None else {"values": runner, **figs(runner)},
        "default": {"values": default, **figs(default)},
        "best_minus_runner_up": diff(runner), "best_minus_default": diff(default),
        "importance": {r.parameter: r.importance for r in me.itertuples()},
        "importance_points": n_imp,
        "importance_method": ("main effects over every point of the space" if spec.exhaustive
                              else f"main effects over {n_imp} points drawn uniformly "
                                   "(values binned in four), search deals"),
        "pareto_points": int(found.distinct["pareto"].sum()),
        "bootstrap": spec.bootstrap, "interval": "95% percentile bootstrap over batches of "
                                                "games, paired (same batches)",
        "games_played": games_played, "workers": workers,
        "synthetic": synthetic, "contract": CONTRACT,
        "version": __version__, "git_revision": git_revision(),
        "wall_s": wall_s, "file": spec.text,
    }


def jsonable(v):
    """``json.dumps(default=…)``: numpy scalars as Python numbers, anything else as text."""
    if isinstance(v, np.generic):
        return v.item()
    return str(v)


def write_results(out: Path, trials: pd.DataFrame, racing: pd.DataFrame, best: pd.DataFrame,
                  imp: pd.DataFrame, summary: dict, deviations: pd.DataFrame,
                  changes: pd.DataFrame) -> None:
    """The tuner's files in ``out`` (created), each written atomically."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "deviations.csv", deviations.to_csv(index=False))
    atomic_write_text(out / "changes.csv", changes.to_csv(index=False))
    atomic_write_text(out / "trials.csv", trials.to_csv(index=False))
    atomic_write_text(out / "racing.csv", racing.to_csv(index=False))
    atomic_write_text(out / "best.csv", best.to_csv(index=False))
    atomic_write_text(out / "importance.csv", imp.to_csv(index=False))
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=1, default=jsonable) + "\n")


def _fmt_values(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def describe(s: dict) -> str:
    """The summary in a few lines (what ``demos-sim tune`` prints)."""
    lines = [f"{s['search']['description']}; {s['search']['distinct_points']} distinct points "
             f"evaluated, {s['pareto_points']} on the Pareto front of the targets"]
    for role in ("best", "runner_up", "default"):
        r = s[role]
        if r is None:
            continue
        figs = "; ".join(f"{k} {v['value']:.4f} [{v['ci95'][0]:.4f}, {v['ci95'][1]:.4f}]"
                         for k, v in r.items() if k != "values")
        lines.append(f"{role:>9}: {_fmt_values(r['values'])}: {figs}")
    for what in ("best_minus_runner_up", "best_minus_default"):
        d = s[what]
        if d is not None:
            lines.append(f"{what.replace('_', ' ')}: objective {d['objective_diff']:+.4f} "
                         f"[{d['ci95'][0]:+.4f}, {d['ci95'][1]:+.4f}], best better in "
                         f"{d['p_best_better']:.0%} of resamples")
    c = s["confirmation"]
    lines.append(f"figures above: {c['games']:,} games of fresh deals per point (neither "
                 "search nor race used them)"
                 + ("; the race's winner lost to the runner-up there: overturned"
                    if c["overturned"] else ""))
    if s["local_optimum"]:
        lines.append("one step along any parameter does no significantly better (paired)")
    else:
        lines.append("NOT a local optimum: one step does better: " + "; ".join(
            f"{d['parameter']}={d['value']} {d['diff']:+.4f} [{d['diff_ci_low']:+.4f}, "
            f"{d['diff_ci_high']:+.4f}]" for d in s["better_neighbours"]))
    if s["at_edge"]:
        lines.append("at the edge of its range (widen it: the optimum may lie beyond): "
                     + ", ".join(s["at_edge"]))
    imp = ", ".join(f"{k} {v:.2f}" for k, v in sorted(s["importance"].items(),
                                                       key=lambda kv: -(kv[1] or 0)))
    lines.append(f"main-effect share of the objective's variance ({s['importance_method']}): "
                 f"{imp}")
    lines.append(f"{s['games_played']:,} games, {s['wall_s']:.1f} s")
    return "\n".join(lines)
