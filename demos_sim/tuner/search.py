"""The tuner's method: search on common deals, racing and confirmation on fresh deals,
importance from a design.

:func:`tune` runs the four steps described in :mod:`demos_sim.tuner` —
:func:`search` (optuna's seeded sampler, or every point of a small space, each trial on
the same chunks), :func:`race` (successive halving of the best points and the default on
chunks the search never used), :func:`confirm` (the finalists, the default and the best's
one-step neighbours on chunks neither used) and :func:`importance` (main effects over
:func:`design`'s points, PED-ANOVA over the trials) — then writes the results with
:mod:`demos_sim.tuner.outputs`.
"""

from __future__ import annotations

import itertools
import json
import math
import shutil
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from demos_sim.sim_common import chunks_of
from demos_sim.tuner.evaluate import Evaluator, Scored, bootstrap_weights, percentile_ci, score
from demos_sim.tuner.outputs import best_table, describe, summary_of, write_results
from demos_sim.tuner.spec import TuneError, TuneSpec


def pareto_mask(losses: np.ndarray) -> np.ndarray:
    """Non-dominated rows of ``losses`` (n, T) when every column is minimised."""
    n = len(losses)
    keep = np.ones(n, bool)
    for i in range(n):
        dom = np.all(losses <= losses[i], 1) & np.any(losses < losses[i], 1)
        keep[i] = not dom.any()
    return keep


def main_effects(points: pd.DataFrame, params: list[str], measures: list[str],
                 bins: int | None = None) -> pd.DataFrame:
    """Share of the variance of each measure explained by each parameter's value alone.

    With ``bins``, a numeric parameter with more distinct values than that is grouped into
    ``bins`` equal-count bins first (a sample of a few dozen points leaves most single
    values alone, and a group of one explains its own noise)."""
    rows = []
    for m in measures:
        y = points[m].astype(float)
        tot = float(((y - y.mean()) ** 2).mean())
        for p in params:
            x = points[p]
            if bins and x.nunique() > bins and pd.api.types.is_numeric_dtype(x):
                x = pd.qcut(x.rank(method="first"), bins, labels=False)
            if x.nunique() < 2 or not tot > 0:
                share = float("nan") if not tot > 0 else 0.0
            else:
                g = y.groupby(x.astype(str))
                share = float((g.count() * (g.mean() - y.mean()) ** 2).sum() / len(y) / tot)
            rows.append({"parameter": p, "measure": m, "method": "main_effect",
                         "importance": share, "points": len(points)})
    return pd.DataFrame(rows)


def _optuna_importance(study, params: list[str]) -> pd.DataFrame:
    import optuna

    free = [p for p in params
            if len({json.dumps(t.params.get(p)) for t in study.trials}) > 1]
    rows = []
    try:
        imp = optuna.importance.get_param_importances(
            study, evaluator=optuna.importance.PedAnovaImportanceEvaluator(), params=free) \
            if free else {}
    except Exception:       # noqa: BLE001  (too few trials for PED-ANOVA: reported as NaN)
        imp = {}
    for p in params:
        rows.append({"parameter": p, "measure": "objective", "method": "ped_anova",
                     "importance": float(imp.get(p, float("nan"))), "points": len(study.trials)})
    return pd.DataFrame(rows)


def _schedule(top: int, final_games: int) -> list[int]:
    """Cumulative games per racing round: halving candidates, doubling games."""
    rounds = 1 + max(0, math.ceil(math.log2(max(top, 2) / 2)))
    return [max(1, final_games >> (rounds - 1 - r)) for r in range(rounds)]


def project(spec: TuneSpec, values: dict) -> dict:
    """``values`` cut to ``spec.max_changes`` parameters off the default: the largest moves
    (in steps, relative to each range's length; a list value counts as a whole move) are
    kept, the others go back to the default."""
    if spec.allowed(values):
        return values

    def size(p):
        if p.low is None or p.high == p.low:
            return 1.0
        return abs(values[p.name] - p.default) / (p.high - p.low)

    fixed = [p for p in spec.params if p.default not in p.values]   # always off the default
    moved = [p for p in spec.params if values[p.name] != p.default and p not in fixed]
    room = max(0, spec.max_changes - len(fixed))
    keep = {p.name for p in sorted(moved, key=size, reverse=True)[:room]} | \
        {p.name for p in fixed}
    return {p.name: values[p.name] if p.name in keep else p.default for p in spec.params}


# --------------------------------------------------------------------------- 1. search
@dataclass
class Searched:
    """What the search found: every trial, the distinct points, the optuna study."""

    how: str                   # "exhaustive: …" | "tpe search: …" (said in the output)
    trials: pd.DataFrame       # every trial, with its Pareto flag
    distinct: pd.DataFrame     # the first trial of each distinct point
    rows: list[dict]           # the trials' rows (``trials`` as records)
    study: Any
    in_space: bool             # the default setting lies in the space


def search(spec: TuneSpec, ev: Evaluator, say: Callable) -> Searched:
    """Step 1: ask optuna for points in batches, play each batch on chunks 0… (the same
    deals for every trial), tell the objective; the default first when in the space."""
    import optuna

    names = [p.name for p in spec.params]
    tnames = [t.name for t in spec.targets]
    dists = {p.name: p.distribution() for p in spec.params}
    default = spec.default_values()
    in_space = all(default[p.name] in p.values for p in spec.params)
    grid = []
    if spec.exhaustive:
        sampler = optuna.samplers.RandomSampler(seed=spec.seed)
        grid = [dict(zip(names, combo)) for combo in itertools.product(*[p.values
                                                                         for p in spec.params])]
        grid = [g for g in grid if spec.allowed(g)]
        n_trials = len(grid)
        how = f"exhaustive: every one of the {n_trials} points of the space"
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            sampler = (optuna.samplers.RandomSampler(seed=spec.seed) if spec.sampler == "random"
                       else optuna.samplers.TPESampler(
                           seed=spec.seed, multivariate=True, constant_liar=True,
                           n_startup_trials=max(4, min(20, spec.trials // 4))))
        n_trials = spec.trials
        how = (f"{spec.sampler if spec.sampler != 'auto' else 'tpe'} search: {n_trials} trials "
               f"of a space of {spec.space_size} points")
    if spec.max_changes is not None:
        how += (f", at most {spec.max_changes} parameter(s) off the default "
                "(a sampled point beyond that keeps its largest moves)")
    study = optuna.create_study(direction="minimize", sampler=sampler)
    if spec.exhaustive:
        for g in grid:
            study.enqueue_trial(g)
    elif in_space:
        study.enqueue_trial(default)
    say(f"tune {spec.name}: {how}, {spec.games} games per trial (the same deals for all)")
    say("objective = " + " + ".join(f"{t.weight:g}·loss({t.name})" for t in spec.targets))

    W = None                    # bootstrap weights, the same for every trial
    rows, seen = [], {}
    asked = 0
    while asked < n_trials:
        k = min(spec.batch, n_trials - asked)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ts = [study.ask(dists) for _ in range(k)]
        asked_pts = [{n: t.params[n] for n in names} for t in ts]
        cands = [project(spec, c) for c in asked_pts]
        meas = ev.measure(cands, spec.games, 0)
        if W is None:
            W = bootstrap_weights(spec, len(meas[0]["_n"]), 0)
        for t, a, cand, m in zip(ts, asked_pts, cands, meas):
            s = score(spec, cand, m, W)
            number = t.number
            if cand == a:
                study.tell(t, s.objective)
            else:                # the projected point is the one played and learnt from
                study.tell(t, state=optuna.trial.TrialState.PRUNED)
                study.add_trial(optuna.trial.create_trial(params=cand, distributions=dists,
                                                          value=s.objective))
                number = study.trials[-1].number
            key = spec.key(cand)
            lo, hi = percentile_ci(s.boot_objective)
            row = {"trial": number, **cand, "changes": spec.changes(cand)}
            for i, tn in enumerate(tnames):
                row[f"{tn}_value"] = s.values[i]
                row[f"{tn}_loss"] = s.losses[i]
            row.update(objective=s.objective, objective_ci_low=lo, objective_ci_high=hi,
                       games=s.games, first=key not in seen,
                       is_default=key == spec.key(default))
            seen.setdefault(key, len(rows))
            rows.append(row)
        asked += k
        if asked % max(spec.batch, 20 // spec.batch * spec.batch) == 0 or asked == n_trials:
            best = min(rows, key=lambda r: r["objective"])
            say(f"  {asked}/{n_trials} trials, best so far "
                + ", ".join(f"{n}={best[n]}" for n in names)
                + f" objective {best['objective']:.4f}")
    trials = pd.DataFrame(rows)
    distinct = trials[trials["first"]].copy()
    distinct["pareto"] = pareto_mask(distinct[[f"{t}_loss" for t in tnames]].to_numpy())
    trials["pareto"] = False
    trials.loc[distinct.index, "pareto"] = distinct["pareto"]
    return Searched(how, trials, distinct, rows, study, in_space)


# --------------------------------------------------------------------------- 2. racing
@dataclass
class Raced:
    """The race: every round, the contestants, the last round's scores, the finalists."""

    racing: pd.DataFrame       # every candidate of every round
    candidates: list[dict]     # the contestants of the first round
    schedule: list[int]        # cumulative games per round
    chunk0: int                # first chunk of the racing deals
    scored: dict[str, Scored]  # the last round's scores, by point key
    best: dict
    runner_up: dict | None


def race(spec: TuneSpec, ev: Evaluator, found: Searched) -> Raced:
    """Step 2: the ``top`` best distinct points (and the default when in the space) on
    chunks the search never used, games doubling and the worse half dropped each round,
    down to two finalists; the default is played every round as the reference."""
    names = [p.name for p in spec.params]
    tnames = [t.name for t in spec.targets]
    default = spec.default_values()
    rows = found.rows
    chunk0 = len(chunks_of(spec.games))
    order = found.distinct.sort_values(["objective", "trial"], kind="stable")
    cands = [{n: rows[i][n] for n in names} for i in order.head(spec.top).index]
    dkey = spec.key(default)
    race_rows = []
    if found.in_space and dkey not in [spec.key(c) for c in cands]:
        cands.append(dict(default))   # a point of the space: it may win the race too
    alive = list(cands)
    schedule = _schedule(len(cands), spec.final_games)
    scored: dict[str, Scored] = {}
    for r, g in enumerate(schedule):
        play = alive + ([default] if dkey not in [spec.key(c) for c in alive] else [])
        meas = ev.measure(play, g, chunk0)
        Wr = bootstrap_weights(spec, len(meas[0]["_n"]), 1 + r)
        scored = {spec.key(c): score(spec, c, m, Wr) for c, m in zip(play, meas)}
        ranked = sorted(alive, key=lambda c: scored[spec.key(c)].objective)
        keep = ranked if r == len(schedule) - 1 else ranked[:max(2, math.ceil(len(ranked) / 2))]
        keep_keys = {spec.key(c) for c in keep}
        for c in play:
            s = scored[spec.key(c)]
            row = {"round": r, "games": s.games, **c, "is_default": spec.key(c) == dkey,
                   "raced": spec.key(c) in [spec.key(a) for a in alive]}
            for i, tn in enumerate(tnames):
                lo, hi = percentile_ci(s.boot_values[:, i])
                row.update({f"{tn}_value": s.values[i], f"{tn}_ci_low": lo,
                            f"{tn}_ci_high": hi})
            lo, hi = percentile_ci(s.boot_objective)
            row.update(objective=s.objective, objective_ci_low=lo, objective_ci_high=hi,
                       rank=(ranked.index(c) + 1) if row["raced"] else None,
                       kept=spec.key(c) in keep_keys)
            race_rows.append(row)
        alive = keep
    finalists = sorted(alive, key=lambda c: scored[spec.key(c)].objective)
    best, runner = finalists[0], finalists[1] if len(finalists) > 1 else None
    return Raced(pd.DataFrame(race_rows), cands, schedule, chunk0, scored, best, runner)


# --------------------------------------------------------------------------- 3. confirmation
CONFIRM_STAGE = 50        # bootstrap stage of the confirmation (racing rounds are 1, 2, …)


@dataclass
class Confirmed:
    """The finalists, the default and the chosen point's one-step neighbours replayed on
    deals neither the search nor the race used."""

    chunk0: int                # first chunk of the confirmation deals
    games: int
    scored: dict[str, Scored]  # by point key
    best: dict                 # the finalist with the lower objective on these deals
    runner_up: dict | None
    race_winner: dict
    overturned: bool           # the race's winner lost to the runner-up here
    deviations: pd.DataFrame   # the chosen point's neighbours, paired with it


def neighbours(spec: TuneSpec, values: dict) -> list[tuple[str, int, dict]]:
    """The points one step from ``values`` along one integer-range parameter
    (``(parameter, ±1, point)``; list-valued parameters have no order, so no steps)."""
    out = []
    for p in spec.params:
        if p.low is None:
            continue
        i = p.values.index(values[p.name])
        for d in (-1, 1):
            if 0 <= i + d < len(p.values):
                point = dict(values) | {p.name: p.values[i + d]}
                if spec.allowed(point):
                    out.append((p.name, d, point))
    return out


def confirm(spec: TuneSpec, ev: Evaluator, raced: Raced) -> Confirmed:
    """Step 3: the race's two finalists and the default again, on ``spec.confirm`` games
    of fresh deals (chunks after the race's), and the chosen point's one-step neighbours on
    the same deals. Reusing the racing games would favour whichever finalist they happened
    to flatter (the winner's curse); here the finalist with the lower objective is chosen
    and every reported figure comes from these deals."""
    chunk0 = raced.chunk0 + len(chunks_of(spec.final_games))
    default = spec.default_values()
    pts = [raced.best] + ([raced.runner_up] if raced.runner_up is not None else [])
    play = pts + [default]
    meas = ev.measure(play, spec.confirm, chunk0)
    W = bootstrap_weights(spec, len(meas[0]["_n"]), CONFIRM_STAGE)
    scored = {spec.key(c): score(spec, c, m, W) for c, m in zip(play, meas)}
    best = min(pts, key=lambda c: scored[spec.key(c)].objective)
    runner = next((c for c in pts if c is not best), None)
    near = neighbours(spec, best)
    if near:
        nm = ev.measure([pt for _, _, pt in near], spec.confirm, chunk0)
        for (_, _, pt), m in zip(near, nm):
            scored.setdefault(spec.key(pt), score(spec, pt, m, W))
    sb = scored[spec.key(best)]
    rows = []
    for name, d, pt in near:
        s = scored[spec.key(pt)]
        dd = s.boot_objective - sb.boot_objective
        lo, hi = percentile_ci(dd)
        rows.append({"parameter": name, "step": d, "value": pt[name], "best_value": best[name],
                     "objective": s.objective, "diff": s.objective - sb.objective,
                     "diff_ci_low": lo, "diff_ci_high": hi, "better": bool(hi < 0),
                     "games": s.games})
    dev = pd.DataFrame(rows, columns=["parameter", "step", "value", "best_value", "objective",
                                      "diff", "diff_ci_low", "diff_ci_high", "better", "games"])
    return Confirmed(chunk0, spec.confirm, scored, best, runner, raced.best,
                     spec.key(best) != spec.key(raced.best), dev)


def edges(spec: TuneSpec, values: dict) -> list[str]:
    """The integer-range parameters (of three values or more) whose chosen value is an end
    of the range searched: the optimum may lie beyond it."""
    return [p.name for p in spec.params
            if p.low is not None and len(p.values) >= 3
            and values[p.name] in (p.values[0], p.values[-1])]


def change_front(spec: TuneSpec, found: Searched) -> pd.DataFrame:
    """The best search objective with at most c parameters off the default, c = 0 … P
    (``changes.csv``: what each extra rule change buys; search deals)."""
    d = found.distinct.assign(changes=[spec.changes(r) for r in found.distinct.to_dict("records")])
    names = [p.name for p in spec.params]
    rows = []
    for c in range(int(d["changes"].max()) + 1 if len(d) else 0):
        g = d[d["changes"] <= c]
        if not len(g):
            continue
        r = g.sort_values(["objective", "trial"], kind="stable").iloc[0]
        rows.append({"max_changes": c, "changes": int(r["changes"]),
                     **{n: r[n] for n in names}, "objective": r["objective"],
                     "objective_ci_low": r["objective_ci_low"],
                     "objective_ci_high": r["objective_ci_high"], "points": len(g)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- 4. importance
def design(spec: TuneSpec, ev: Evaluator, found: Searched) -> pd.DataFrame:
    """The points importance is estimated from: an exhaustive search's every point, else
    ``spec.design`` points drawn uniformly from the (allowed) space, seeded, on the search
    deals. An optimiser's own samples crowd round its optimum, so their spread says more
    about where it looked than about what each parameter does."""
    if spec.exhaustive or spec.design == 0:
        return found.distinct if spec.exhaustive else found.distinct.iloc[0:0]
    names = [p.name for p in spec.params]
    rng = np.random.default_rng([spec.seed, 4049])
    pts, seen, tries = [], set(), 0
    while len(pts) < min(spec.design, spec.space_size) and tries < 50 * spec.design:
        tries += 1
        pt = {p.name: p.values[int(rng.integers(len(p.values)))] for p in spec.params}
        pt = {n: v.item() if isinstance(v, np.generic) else v for n, v in pt.items()}
        if spec.allowed(pt) and spec.key(pt) not in seen:
            seen.add(spec.key(pt))
            pts.append(pt)
    meas = ev.measure(pts, spec.games, 0)
    W = bootstrap_weights(spec, len(meas[0]["_n"]), 0)
    rows = []
    for pt, m in zip(pts, meas):
        sc = score(spec, pt, m, W)
        rows.append({**pt, "objective": sc.objective,
                     **{f"{t.name}_loss": sc.losses[i] for i, t in enumerate(spec.targets)}})
    return pd.DataFrame(rows, columns=names + ["objective"]
                        + [f"{t.name}_loss" for t in spec.targets])


def importance(spec: TuneSpec, found: Searched, designed: pd.DataFrame) -> pd.DataFrame:
    """Step 4: main-effect shares of the designed points (:func:`design`) for the objective
    and every target (exact first-order shares for an exhaustive grid; binned in four for
    a sample), and optuna's PED-ANOVA importance of the objective over the optimiser's
    trials (labelled as such: indicative)."""
    names = [p.name for p in spec.params]
    tnames = [t.name for t in spec.targets]
    parts = [_optuna_importance(found.study, names)]
    if len(designed) >= 2:
        parts.append(main_effects(designed, names, ["objective"] + [f"{t}_loss" for t in tnames],
                                  bins=None if spec.exhaustive else 4))
    imp = pd.concat(parts, ignore_index=True)
    imp["measure"] = imp["measure"].str.replace("_loss$", "", regex=True)
    return imp


# --------------------------------------------------------------------------- the tuner
STORE = "chunks"          # the played games of a tune under way, in its output folder


def tune(spec: TuneSpec, out: str | Path | None = None, workers: int = 1, quiet: bool = True,
         play_hook: Callable | None = None, backend: str = "local",
         scheduler: str | None = None) -> dict:
    """Search, race, write the results; returns the summary (also ``summary.json``).

    The games are played by the runner (:class:`.evaluate.Evaluator`: ``workers``
    processes, or Dask with ``backend="dask"`` and ``scheduler``), each task kept in
    ``out/chunks/`` as it finishes: a tune killed (kill -9) and started again with the
    same file and output folder reads them back instead of playing them (the search,
    seeded, asks for the same points), and gives the same results. The folder is removed
    once the results are written."""
    import optuna

    t0 = time.perf_counter()
    if workers < 1:
        raise TuneError(f"--workers must be at least 1, got {workers}")
    out = Path(out) if out is not None else Path("results") / spec.name
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))

    store = None if play_hook is not None else out / STORE
    ev = Evaluator(spec, workers, play_hook, backend, scheduler, store)
    try:
        found = search(spec, ev, say)
        raced = race(spec, ev, found)
        conf = confirm(spec, ev, raced)
        best = best_table(spec, conf.scored, conf.best, conf.runner_up)
        imp = importance(spec, found, design(spec, ev, found))
        front = change_front(spec, found)
        summary = summary_of(spec, found, raced, conf, imp, front, edges(spec, conf.best),
                             ev.games_played, workers, synthetic=play_hook is not None,
                             wall_s=time.perf_counter() - t0)
    finally:
        ev.close()
    write_results(out, found.trials, raced.racing, best, imp, summary, conf.deviations, front)
    if store is not None:
        shutil.rmtree(store, ignore_errors=True)
    if ev.games_resumed:
        say(f"{ev.games_resumed:,} games read back from an interrupted run ({store})")
    say(describe(summary))
    return summary
