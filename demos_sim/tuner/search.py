"""The tuner's method: search on common deals, racing on fresh deals, importance.

:func:`tune` runs the three steps described in :mod:`demos_sim.tuner` —
:func:`search` (optuna's seeded sampler, or every point of a small space, each trial on
the same chunks), :func:`race` (successive halving of the best points and the default on
chunks the search never used) and :func:`importance` (PED-ANOVA and main effects) — then
writes the results with :mod:`demos_sim.tuner.outputs`.
"""

from __future__ import annotations

import itertools
import json
import math
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


def main_effects(points: pd.DataFrame, params: list[str], measures: list[str]) -> pd.DataFrame:
    """Share of the variance of each measure explained by each parameter's value alone."""
    rows = []
    for m in measures:
        y = points[m].astype(float)
        tot = float(((y - y.mean()) ** 2).mean())
        for p in params:
            if points[p].nunique() < 2 or not tot > 0:
                share = float("nan") if not tot > 0 else 0.0
            else:
                g = y.groupby(points[p].astype(str))
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
    if spec.exhaustive:
        sampler = optuna.samplers.RandomSampler(seed=spec.seed)
        n_trials = spec.space_size
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
    study = optuna.create_study(direction="minimize", sampler=sampler)
    if spec.exhaustive:
        for combo in itertools.product(*[p.values for p in spec.params]):
            study.enqueue_trial(dict(zip(names, combo)))
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
        cands = [{n: t.params[n] for n in names} for t in ts]
        meas = ev.measure(cands, spec.games, 0)
        if W is None:
            W = bootstrap_weights(spec, len(meas[0]["_n"]), 0)
        for t, cand, m in zip(ts, cands, meas):
            s = score(spec, cand, m, W)
            study.tell(t, s.objective)
            key = spec.key(cand)
            lo, hi = percentile_ci(s.boot_objective)
            row = {"trial": t.number, **cand}
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


# --------------------------------------------------------------------------- 3. importance
def importance(spec: TuneSpec, found: Searched) -> pd.DataFrame:
    """Step 3: PED-ANOVA importance for the objective, and main-effect shares of the
    distinct points for the objective and every target."""
    names = [p.name for p in spec.params]
    tnames = [t.name for t in spec.targets]
    imp = pd.concat([
        _optuna_importance(found.study, names),
        main_effects(found.distinct, names, ["objective"] + [f"{t}_loss" for t in tnames]),
    ], ignore_index=True)
    imp["measure"] = imp["measure"].str.replace("_loss$", "", regex=True)
    return imp


# --------------------------------------------------------------------------- the tuner
def tune(spec: TuneSpec, out: str | Path | None = None, workers: int = 1, quiet: bool = True,
         play_hook: Callable | None = None) -> dict:
    """Search, race, write the results; returns the summary (also ``summary.json``)."""
    import optuna

    t0 = time.perf_counter()
    if workers < 1:
        raise TuneError(f"--workers must be at least 1, got {workers}")
    out = Path(out) if out is not None else Path("results") / spec.name
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))

    ev = Evaluator(spec, workers, play_hook)
    try:
        found = search(spec, ev, say)
        raced = race(spec, ev, found)
        best = best_table(spec, raced.scored, raced.best, raced.runner_up)
        imp = importance(spec, found)
        summary = summary_of(spec, found, raced, imp, ev.games_played, workers,
                             synthetic=play_hook is not None, wall_s=time.perf_counter() - t0)
    finally:
        ev.close()
    write_results(out, found.trials, raced.racing, best, imp, summary)
    say(describe(summary))
    return summary
