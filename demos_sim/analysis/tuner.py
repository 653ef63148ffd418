"""Point-value tuning: ``demos-sim tune TUNE.toml`` searches integer rule parameters for targets.

A tune file is an experiment file (the keys of ``demos-sim run``: ``game``, settings such as
``rules``/``mode``/``seating`` or ``mode``/``level``, one ``players`` count, ``policies``,
``plugins``, ``seed``, ``[variants]``; ``games`` is the number of games of every search
trial) plus ``[tune]`` tables — and no ``[grid]``, ``[baseline]`` or ``[stop]``::

    [tune]
    trials = 80            # search trials (asked of optuna in batches of `batch`)
    final_games = 65536    # games of each finalist in the last racing round
    top = 8                # candidates taken from the search into the race
    sampler = "auto"       # auto (exhaustive when the space has <= trials points) | tpe |
                           # random | grid (exhaustive)
    batch = 4              # trials evaluated together, on the same deals
    bootstrap = 1000       # resamples for the intervals

    [tune.params]          # integer ranges (inclusive), or explicit value lists
    carre_points = { low = 10, high = 50, step = 2 }     # any integer variant
    "run_base.0" = { low = 4, high = 20 }                # one entry of a list variant
    seating = { values = "all" }    # a setting: every distinct seating (or a list)

    [tune.targets.parity]  # one table per target
    metric = "seat_parity" # max - min win share over the sides (seats, or teams)
    weight = 1.0
    [tune.targets.carre]
    metric = "combo_share" # any runner quantity of the game; `side` picks its column
    side = "carre"         # (a side label, a seat number or a bin label)
    goal = 0.025           # loss |value - goal|; or direction = "min" | "max"
    weight = 1.0

Parameters are the game's variants (integer ones with ``low``/``high``/``step``, any one
with ``values = [...]``), an entry ``NAME.i`` of a list variant (DĒMOS ``run_base.0`` is
the one-suit run base) or a setting (``seating`` — ``values = "all"`` is every distinct
arrangement of the mode's team labels —, Protocole's ``level``). Targets: ``seat_parity``
(alias ``side_parity``), or any quantity of the game's runner adapter (``no_winner``,
``rounds``, ``win_share`` with ``side``, ``combo_share`` with a bin, …). The objective the
search minimises is the weighted sum of the target losses (the weights are stated in the
output); the trade-offs appear as the Pareto front of the evaluated points over the
losses of the single targets.

Method
------
1. *Search, common random numbers.* Every trial plays the same chunks (games
   ``0 … games-1`` of the file's seed), so two trials differ by their rules only, never by
   their deals; a batch of trials plays as grid points of one block. optuna's seeded TPE
   sampler (or, for a space of at most ``trials`` points, every point: an exhaustive
   enumeration, said so in the output) proposes the points; the default setting is
   evaluated first when it lies in the space. A point already evaluated is not played
   again (same deals, same result).
2. *Racing (successive halving) on fresh deals.* The ``top`` best distinct points and the
   default setting (a contestant when it lies in the space, else only a reference) are
   played again on chunks the search never used, with games doubling each round up to
   ``final_games`` while the worse half is dropped, down to two finalists (the default is
   played in every round, eliminated or not, as the reference). The best is the finalist with the lower objective; it is reported with a
   95% interval and with its paired differences from the runner-up and from the default
   setting (same deals): percentile intervals of a bootstrap over batches of games,
   resampling the same batches for every candidate (so the differences are paired).
3. *Importance.* optuna's PED-ANOVA importance of each parameter for the objective, and a
   main-effect variance decomposition of the distinct evaluated points for the objective
   and every target (the share of the variance explained by each parameter's value alone;
   exact first-order shares for an exhaustive grid, indicative for TPE samples, which are
   not uniform).

Everything is deterministic for a given seed, whatever ``--workers``. Bad input (an unknown
parameter or target metric, an empty range, a bad budget) stops with one line before any
game. Results go, each file written atomically, to ``results/<name>/``: ``trials.csv``
(every trial), ``racing.csv`` (every racing round), ``best.csv`` (best, runner-up and
default with intervals and paired differences), ``importance.csv`` and ``summary.json``
(seed, configuration, budget, the best, version, git revision).

``play_hook(values, seed, chunk, count) -> {quantity: int array (count, columns)}`` in
:func:`tune` replaces the games by a synthetic objective (the tests plant an optimum).
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import re
import tempfile
import time
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from demos_sim import ConfigError

TUNE_KEYS = ("params", "targets", "trials", "final_games", "top", "sampler", "batch",
             "bootstrap")
PARAM_KEYS = ("low", "high", "step", "values")
TARGET_KEYS = ("metric", "side", "goal", "direction", "weight")
PARITY = ("seat_parity", "side_parity")
SAMPLERS = ("auto", "tpe", "random", "grid")
REFUSED = ("grid", "baseline", "stop", "sweep")
MAX_GRID = 20000                     # largest space enumerated exhaustively
MAX_VALUES = 100000                  # largest range of one parameter
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"' -]+?)\s*\]\]?\s*(#.*)?$")


class TuneError(ConfigError):
    """A malformed tune file (``FILE: KEY: problem``)."""


@dataclass(frozen=True)
class Param:
    name: str                 # as written: "carre_points", "run_base.0", "seating"
    where: str                # "variant" | "entry" | "setting"
    key: str                  # the variant or setting
    index: int | None         # entry of a list variant
    values: tuple             # every value, in order
    default: Any              # its value in the untuned configuration
    low: int | None = None
    high: int | None = None
    step: int | None = None

    def distribution(self):
        from optuna.distributions import CategoricalDistribution, IntDistribution

        if self.low is not None:
            return IntDistribution(self.low, self.high, step=self.step)
        return CategoricalDistribution(list(self.values))

    def spec(self) -> dict:
        if self.low is not None:
            return {"low": self.low, "high": self.high, "step": self.step}
        return {"values": list(self.values)}


@dataclass(frozen=True)
class Target:
    name: str
    metric: str               # quantity name, or "seat_parity"
    side: str | None
    goal: float | None
    direction: str            # "goal" | "min" | "max"
    weight: float

    def loss(self, value):
        if self.direction == "goal":
            return np.abs(value - self.goal)
        return value if self.direction == "min" else -value

    def describe(self) -> str:
        what = self.metric + (f"[{self.side}]" if self.side is not None else "")
        goal = (f"-> {self.goal:g}" if self.direction == "goal" else
                "minimise" if self.direction == "min" else "maximise")
        return f"{self.name}: {what} {goal} (weight {self.weight:g})"


@dataclass
class TuneSpec:
    path: str
    text: str
    name: str
    exp: Any                  # the runner's Experiment of the untuned configuration
    params: list[Param]
    targets: list[Target]
    trials: int
    games: int                # per search trial
    final_games: int
    top: int
    sampler: str
    batch: int
    bootstrap: int
    settings: dict = field(default_factory=dict)
    variants: dict = field(default_factory=dict)

    @property
    def adapter(self):
        return self.exp.adapter

    @property
    def seed(self) -> int:
        return self.exp.seed

    @property
    def players(self) -> int:
        return self.exp.points[0].players

    @property
    def policies(self) -> tuple:
        return self.exp.points[0].policies

    @property
    def base_config(self):
        return self.exp.points[0].config

    @property
    def space_size(self) -> int:
        return math.prod(len(p.values) for p in self.params)

    @property
    def exhaustive(self) -> bool:
        return self.sampler == "grid" or (self.sampler == "auto" and self.space_size <= self.trials)

    def default_values(self) -> dict:
        return {p.name: p.default for p in self.params}

    def key(self, values: dict) -> str:
        return json.dumps([values[p.name] for p in self.params])

    def config(self, values: dict):
        sett = dict(self.settings)
        var = copy.deepcopy(self.variants)
        base = self.adapter.describe(self.base_config)["variants"]
        for p in self.params:
            v = values[p.name]
            if p.where == "setting":
                sett[p.key] = v
            elif p.where == "variant":
                var[p.key] = v
            else:
                lst = list(var.get(p.key, base[p.key]))
                lst[p.index] = v
                var[p.key] = lst
        return self.adapter.make_config(sett, self.players, var)

    def quantities(self) -> list[str]:
        out = []
        for t in self.targets:
            qs = ["win_share"] if t.metric in PARITY else [t.metric]
            q = self.adapter.quantity(qs[0])
            if q.per is not None:
                qs.append(q.per)
            out += [x for x in qs if x not in out]
        return out

    def with_budget(self, trials=None, games=None, final_games=None) -> TuneSpec:
        import dataclasses

        for what, v in (("--trials", trials), ("--games", games), ("--final-games", final_games)):
            if v is not None and (not isinstance(v, int) or v < 1):
                raise TuneError(f"{what} must be at least 1, got {v}")
        return dataclasses.replace(self, trials=trials or self.trials, games=games or self.games,
                                   final_games=final_games or self.final_games)


# --------------------------------------------------------------------------- loading


def _split_tune(text: str) -> str:
    """The file's text without its ``[tune…]`` tables (what the runner reads)."""
    out, skip = [], False
    for line in text.splitlines(keepends=True):
        m = _HEADER.match(line)
        if m:
            head = m.group(1).replace('"', "").replace("'", "").strip()
            skip = head == "tune" or head.startswith("tune.")
        if not skip:
            out.append(line)
    return "".join(out)


def _seatings(seating: str) -> list[str]:
    return sorted({"".join(p) for p in itertools.permutations(seating)})


def load_tune(path: str | Path, bot: str | None = None) -> TuneSpec:
    """Read and validate a tune file; :class:`TuneError` (one line) on any problem."""
    from demos_sim.runner.experiment import load_experiment

    path = Path(path)

    def fail(key, problem):
        raise TuneError(f"{path}: {key}: {problem}")

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TuneError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise TuneError(f"{path}: cannot read: {e}") from None
    sub = text.replace("{bot}", bot) if bot is not None else text
    try:
        data = tomllib.loads(sub)
    except tomllib.TOMLDecodeError as e:
        raise TuneError(f"{path}: invalid TOML: {e}") from None
    if "tune" not in data or not isinstance(data["tune"], dict):
        fail("tune", "missing (a [tune] table with [tune.params] and [tune.targets])")
    for key in REFUSED:
        if key in data:
            fail(key, "a tune file takes no [grid]/[baseline]/[stop]/sweep: the tuner chooses "
                      "the points ([tune.params]) and the games (games, [tune] budget)")
    if isinstance(data.get("players"), list):
        fail("players", "a tune file takes one player count")
    rest = _split_tune(text)
    rest_data = tomllib.loads(rest.replace("{bot}", bot) if bot is not None else rest)
    if "tune" in rest_data or {k: v for k, v in data.items() if k != "tune"} != rest_data:
        fail("tune", "write the tune settings as [tune], [tune.params] and [tune.targets.NAME] "
                     "tables (no inline or dotted tune keys)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp) / path.name
        tmp_path.write_text(rest, encoding="utf-8")
        try:
            exp = load_experiment(tmp_path, bot=bot)
        except ConfigError as e:
            raise TuneError(str(e).replace(str(tmp_path), str(path))) from None
    ad = exp.adapter
    tune = data["tune"]
    for key in tune:
        if key not in TUNE_KEYS:
            fail(f"tune.{key}", f"unknown key (known: {', '.join(TUNE_KEYS)})")

    def int_at_least(key, default, lo):
        v = tune.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            fail(f"tune.{key}", f"must be an integer >= {lo}, got {v!r}")
        return v

    trials = int_at_least("trials", 50, 1)
    final_games = int_at_least("final_games", 8 * exp.games, 1)
    top = int_at_least("top", 8, 2)
    batch = int_at_least("batch", 4, 1)
    boot = int_at_least("bootstrap", 1000, 100)
    sampler = tune.get("sampler", "auto")
    if sampler not in SAMPLERS:
        fail("tune.sampler", f"must be one of {', '.join(SAMPLERS)}, got {sampler!r}")

    settings = dict(exp.settings)
    variants = {}
    for k, v in data.get("variants", {}).items():
        variants[k] = ad.check_variant(k, v)
    base = exp.points[0].config
    desc = ad.describe(base)
    base_var = desc["variants"]

    # parameters
    raw = tune.get("params")
    if not isinstance(raw, dict) or not raw:
        fail("tune.params", "missing or empty (give at least one parameter with a range)")
    params: list[Param] = []
    for name, spec in raw.items():
        k = f"tune.params.{name}"
        if not isinstance(spec, dict):
            fail(k, f"must be a table {{ low = …, high = …[, step = …] }} or {{ values = [...] }}, "
                    f"got {spec!r}")
        for sk in spec:
            if sk not in PARAM_KEYS:
                fail(k, f"unknown key {sk!r} (known: {', '.join(PARAM_KEYS)})")
        key, index = name, None
        if name in ad.settings:
            where = "setting"
            default = desc.get(name, settings.get(name))
        elif name in ad.variant_names():
            where = "variant"
            default = base_var[name]
        elif "." in name and name.rsplit(".", 1)[0] in ad.variant_names():
            key, idx = name.rsplit(".", 1)
            where = "entry"
            lst = base_var[key]
            if not isinstance(lst, list):
                fail(k, f"variant {key} is not a list; tune it as {key}")
            if not idx.isdigit() or int(idx) >= len(lst):
                fail(k, f"{key} has entries 0–{len(lst) - 1}, got {idx!r}")
            index = int(idx)
            default = lst[index]
        else:
            fail(k, f"unknown parameter {name!r} (a variant of {ad.title}: "
                    f"{', '.join(ad.variant_names())}; an entry NAME.i of a list variant; "
                    f"or a setting: {', '.join(ad.settings)})")
        if name in variants or (where == "entry" and key in variants) or \
                (where == "setting" and name in data):
            fail(k, "is also fixed in the file (tune it or fix it, not both)")
        low = high = step = None
        if "values" in spec:
            if set(spec) != {"values"}:
                fail(k, "give either values or low/high[/step]")
            vals = spec["values"]
            if vals == "all":
                if name != "seating" or not isinstance(desc.get("seating"), str):
                    fail(k, 'values = "all" is for the seating of a team mode')
                vals = _seatings(desc["seating"])
            if not isinstance(vals, list) or not vals:
                fail(k, f"is an empty range (values must be a non-empty list), got {vals!r}")
            if len({json.dumps(v) for v in vals}) != len(vals):
                fail(k, "repeats a value")
            if not all(isinstance(v, (int, str, bool, float)) for v in vals):
                fail(k, f"values must be integers, strings or booleans, got {vals!r}")
        else:
            for sk in ("low", "high"):
                if sk not in spec:
                    fail(k, f"missing {sk} (or give values = [...])")
            low, high, step = spec["low"], spec["high"], spec.get("step", 1)
            for sk, v in (("low", low), ("high", high), ("step", step)):
                if not isinstance(v, int) or isinstance(v, bool):
                    fail(k, f"{sk} must be an integer, got {v!r}")
            if step < 1:
                fail(k, f"step must be at least 1, got {step}")
            if high < low:
                fail(k, f"is an empty range: high {high} < low {low}")
            if (high - low) % step:
                fail(k, f"high - low ({high - low}) must be a multiple of step {step}")
            if (high - low) // step + 1 > MAX_VALUES:
                fail(k, f"has more than {MAX_VALUES} values")
            vals = list(range(low, high + 1, step))
        params.append(Param(name, where, key, index, tuple(vals), default, low, high, step))

    targets = _load_targets(tune.get("targets"), ad, base, fail)

    spec = TuneSpec(str(path), text, exp.name, exp, params, targets, trials, exp.games,
                    final_games, top, sampler, batch, boot, settings, variants)
    if spec.sampler == "grid" and spec.space_size > MAX_GRID:
        fail("tune.sampler", f"grid enumerates every point, but the space has "
                             f"{spec.space_size} (at most {MAX_GRID})")
    # every value of every parameter, the others at their default (ranges of up to a few
    # thousand values are all checked; longer ones at their ends and middle)
    dflt = spec.default_values()
    for p in params:
        vals = p.values if len(p.values) <= 5000 else (p.values[0], p.values[len(p.values) // 2],
                                                       p.values[-1])
        for v in vals:
            try:
                if p.where == "variant":
                    ad.check_variant(p.key, v)
                cfg = spec.config(dict(dflt, **{p.name: v}))
                _resolve_columns(spec, cfg)
            except TuneError:
                raise
            except ConfigError as e:
                fail(f"tune.params.{p.name}", f"value {v!r}: {e}")
    return spec


def _load_targets(raw, ad, base, fail) -> list[Target]:
    if not isinstance(raw, dict) or not raw:
        fail("tune.targets", "missing or empty (give at least one [tune.targets.NAME] table)")
    known = [q.name for q in ad.quantities]
    targets = []
    for name, t in raw.items():
        k = f"tune.targets.{name}"
        if not isinstance(t, dict):
            fail(k, f"must be a table with metric, goal or direction, weight; got {t!r}")
        for tk in t:
            if tk not in TARGET_KEYS:
                fail(k, f"unknown key {tk!r} (known: {', '.join(TARGET_KEYS)})")
        metric = t.get("metric")
        if metric not in known and metric not in PARITY:
            fail(f"{k}.metric", f"unknown target metric {metric!r} (known: "
                                f"{', '.join(PARITY)}, {', '.join(known)})")
        side = t.get("side")
        if side is not None:
            side = str(side)
        if metric in PARITY:
            if side is not None:
                fail(f"{k}.side", "a parity target is over every side; give no side")
        else:
            q = ad.quantity(metric)
            if q.level == "game":
                if side not in (None, "all"):
                    fail(f"{k}.side", f"{metric} is one value per game; give no side")
                side = None
            else:
                labels = (list(q.bins) if q.level == "bins" else ad.labels(base, q.level))
                if side is None:
                    fail(f"{k}.side", f"{metric} has one value per {q.level}: give side = one of "
                                      f"{', '.join(labels)}")
                if side not in labels:
                    fail(f"{k}.side", f"unknown {q.level} {side!r} of {metric} "
                                      f"(known: {', '.join(labels)})")
        goal, direction = t.get("goal"), t.get("direction")
        if goal is not None and direction is not None:
            fail(k, "give either goal or direction")
        if goal is not None:
            if not isinstance(goal, (int, float)) or isinstance(goal, bool):
                fail(f"{k}.goal", f"must be a number, got {goal!r}")
            direction = "goal"
        elif direction is None:
            if metric not in PARITY:
                fail(k, 'give goal = VALUE or direction = "min" | "max"')
            direction = "min"
        elif direction not in ("min", "max"):
            fail(f"{k}.direction", f"must be min or max, got {direction!r}")
        weight = t.get("weight", 1.0)
        if not isinstance(weight, (int, float)) or isinstance(weight, bool) or not weight > 0:
            fail(f"{k}.weight", f"must be a number > 0, got {weight!r}")
        targets.append(Target(name, metric, side, None if goal is None else float(goal),
                              direction, float(weight)))
    return targets


def _resolve_columns(spec: TuneSpec, config) -> list[int | None]:
    """Column of every target's quantity at ``config`` (None: parity over all columns)."""
    ad = spec.adapter
    cols = []
    for t in spec.targets:
        if t.metric in PARITY:
            cols.append(None)
            continue
        q = ad.quantity(t.metric)
        if q.level == "game":
            cols.append(0)
        elif q.level == "bins":
            cols.append(list(q.bins).index(t.side))
        else:
            labels = ad.labels(config, q.level)
            if t.side not in labels:
                raise TuneError(f"{spec.path}: tune.targets.{t.name}.side: {t.side!r} is not a "
                                f"{q.level} of {ad.describe(config)}")
            cols.append(labels.index(t.side))
    return cols


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


def _play_sums(game, seed, chunk, count, cands, plugins, quantities, batch):
    """Worker: play games 0…count-1 of ``chunk`` for every (config, specs); batch sums."""
    from demos_sim.registry import load_plugin
    from demos_sim.runner.games import adapter

    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    for plugin in plugins:
        load_plugin(plugin)
    ad = adapter(game)
    return [_batch_sums(ad.play(config, list(specs), tuple(plugins), seed, chunk, count),
                        quantities, count, batch) for config, specs in cands]


class Evaluator:
    """Plays candidates on given chunks (cached), returns per-batch sums of quantities."""

    def __init__(self, spec: TuneSpec, workers: int = 1, play_hook: Callable | None = None):
        from demos_sim.runner.backends import InlineBackend, make_backend

        self.spec = spec
        self.hook = play_hook
        self.quantities = spec.quantities()
        self.backend = InlineBackend() if play_hook is not None else make_backend("local", workers)
        self.cache: dict = {}
        self.games_played = 0
        self._warm = False

    def close(self):
        self.backend.close()

    def measure(self, cands: list[dict], games: int, chunk0: int) -> list[dict]:
        """Sums per batch of every candidate over games ``0…games-1`` from chunk ``chunk0``."""
        from demos_sim.sim_common import chunks_of

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
            futs = []
            for chunk, k, todo in jobs:
                args = [(spec.config(v), spec.policies) for _, v in todo]
                futs.append((chunk, k, todo, self.backend.submit(
                    _play_sums, spec.exp.game, spec.seed, chunk, k, args, spec.exp.plugins,
                    self.quantities, batch)))
            for chunk, k, todo, fut in futs:
                for (key, _), res in zip(todo, fut.result()):
                    self.cache[(key, chunk, k, batch)] = res
                    self.games_played += k
        out = []
        for key in keys:
            parts = [self.cache[(key, chunk0 + c, k, batch)] for c, k in chunks_of(games)]
            out.append({q: np.concatenate([p[q] for p in parts]) for q in parts[0]})
        return out


# --------------------------------------------------------------------------- scoring


def _values(spec: TuneSpec, config, sums: dict, n) -> np.ndarray:
    """Target values (..., T) from summed quantities (..., cols) and game counts (...)."""
    ad = spec.adapter
    cols = _resolve_columns(spec, config)
    out = []
    for t, j in zip(spec.targets, cols):
        if t.metric in PARITY:
            q = ad.quantity("win_share")
            share = sums["win_share"] / (q.scale * n[..., None])
            out.append(share.max(-1) - share.min(-1))
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


def _weights(spec: TuneSpec, nb: int, stage: int) -> np.ndarray:
    """Bootstrap multinomial weights (B, nb), the same for every candidate of a stage."""
    rng = np.random.default_rng([spec.seed, 7919, stage, nb])
    return rng.multinomial(nb, np.full(nb, 1.0 / nb), size=spec.bootstrap).astype(np.float64)


@dataclass
class Scored:
    values: np.ndarray        # (T,) point estimates
    losses: np.ndarray
    objective: float
    boot_values: np.ndarray   # (B, T)
    boot_objective: np.ndarray  # (B,)
    games: int


def _score(spec: TuneSpec, cand: dict, meas: dict, W: np.ndarray) -> Scored:
    config = spec.config(cand)
    tot = {q: meas[q].sum(0) for q in meas}
    v = _values(spec, config, tot, np.asarray(tot["_n"], float))
    loss = _losses(spec, v)
    bsum = {q: W @ meas[q] for q in meas if q != "_n"}
    bv = _values(spec, config, bsum, W @ meas["_n"])
    return Scored(v, loss, float(_objective(spec, loss)), bv,
                  _objective(spec, _losses(spec, bv)), int(tot["_n"]))


def _ci(x: np.ndarray) -> tuple[float, float]:
    x = x[np.isfinite(x)]
    if not len(x):
        return float("nan"), float("nan")
    lo, hi = np.percentile(x, [2.5, 97.5])
    return float(lo), float(hi)


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


# --------------------------------------------------------------------------- the tuner


def _schedule(top: int, final_games: int) -> list[int]:
    """Cumulative games per racing round: halving candidates, doubling games."""
    rounds = 1 + max(0, math.ceil(math.log2(max(top, 2) / 2)))
    return [max(1, final_games >> (rounds - 1 - r)) for r in range(rounds)]


def tune(spec: TuneSpec, out: str | Path | None = None, workers: int = 1, quiet: bool = True,
         play_hook: Callable | None = None) -> dict:
    """Search, race, write the results; returns the summary (also ``summary.json``)."""
    import optuna

    from demos_sim import __version__
    from demos_sim.provenance import git_revision
    from demos_sim.runner.store import atomic_write_text
    from demos_sim.sim_common import chunks_of

    t0 = time.perf_counter()
    if workers < 1:
        raise TuneError(f"--workers must be at least 1, got {workers}")
    out = Path(out) if out is not None else Path("results") / spec.name
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    names = [p.name for p in spec.params]
    tnames = [t.name for t in spec.targets]
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))

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

    ev = Evaluator(spec, workers, play_hook)
    try:
        # ---- 1. search on chunks 0…, common random numbers
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
                W = _weights(spec, len(meas[0]["_n"]), 0)
            for t, cand, m in zip(ts, cands, meas):
                s = _score(spec, cand, m, W)
                study.tell(t, s.objective)
                key = spec.key(cand)
                lo, hi = _ci(s.boot_objective)
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
            if not quiet and (asked % max(spec.batch, 20 // spec.batch * spec.batch) == 0
                              or asked == n_trials):
                best = min(rows, key=lambda r: r["objective"])
                say(f"  {asked}/{n_trials} trials, best so far "
                    + ", ".join(f"{n}={best[n]}" for n in names)
                    + f" objective {best['objective']:.4f}")
        trials = pd.DataFrame(rows)
        distinct = trials[trials["first"]].copy()
        distinct["pareto"] = pareto_mask(distinct[[f"{t}_loss" for t in tnames]].to_numpy())
        trials["pareto"] = False
        trials.loc[distinct.index, "pareto"] = distinct["pareto"]

        # ---- 2. racing on fresh chunks
        chunk0 = len(chunks_of(spec.games))
        order = distinct.sort_values(["objective", "trial"], kind="stable")
        cands = [{n: rows[i][n] for n in names} for i in order.head(spec.top).index]
        dkey = spec.key(default)
        race_rows = []
        if in_space and dkey not in [spec.key(c) for c in cands]:
            cands.append(dict(default))   # a point of the space: it may win the race too
        alive = list(cands)
        schedule = _schedule(len(cands), spec.final_games)
        scored: dict[str, Scored] = {}
        for r, g in enumerate(schedule):
            play = alive + ([default] if dkey not in [spec.key(c) for c in alive] else [])
            meas = ev.measure(play, g, chunk0)
            Wr = _weights(spec, len(meas[0]["_n"]), 1 + r)
            scored = {spec.key(c): _score(spec, c, m, Wr) for c, m in zip(play, meas)}
            ranked = sorted(alive, key=lambda c: scored[spec.key(c)].objective)
            keep = ranked if r == len(schedule) - 1 else ranked[:max(2, math.ceil(len(ranked) / 2))]
            keep_keys = {spec.key(c) for c in keep}
            for c in play:
                s = scored[spec.key(c)]
                row = {"round": r, "games": s.games, **c, "is_default": spec.key(c) == dkey,
                       "raced": spec.key(c) in [spec.key(a) for a in alive]}
                for i, tn in enumerate(tnames):
                    lo, hi = _ci(s.boot_values[:, i])
                    row.update({f"{tn}_value": s.values[i], f"{tn}_ci_low": lo,
                                f"{tn}_ci_high": hi})
                lo, hi = _ci(s.boot_objective)
                row.update(objective=s.objective, objective_ci_low=lo, objective_ci_high=hi,
                           rank=(ranked.index(c) + 1) if row["raced"] else None,
                           kept=spec.key(c) in keep_keys)
                race_rows.append(row)
            alive = keep
        racing = pd.DataFrame(race_rows)
        finalists = sorted(alive, key=lambda c: scored[spec.key(c)].objective)
        best, runner = finalists[0], finalists[1] if len(finalists) > 1 else None
        sb = scored[spec.key(best)]
        roles = [("best", best), ("runner_up", runner), ("default", default)]
        best_rows = []
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
                lo, hi = _ci(bv)
                row = {"role": role, **c, "measure": mname, "value": v, "ci_low": lo,
                       "ci_high": hi, "games": s.games}
                if role == "best":
                    row.update(diff=np.nan, diff_ci_low=np.nan, diff_ci_high=np.nan,
                               p_best_better=np.nan)
                else:
                    d = bb - bv
                    dlo, dhi = _ci(d)
                    row.update(diff=vb - v, diff_ci_low=dlo, diff_ci_high=dhi,
                               p_best_better=float(np.mean(d < 0)) if mname == "objective"
                               else np.nan)
                best_rows.append(row)
        best_df = pd.DataFrame(best_rows)

        # ---- 3. importance
        imp = pd.concat([
            _optuna_importance(study, names),
            main_effects(distinct, names, ["objective"] + [f"{t}_loss" for t in tnames]),
        ], ignore_index=True)
        imp["measure"] = imp["measure"].str.replace("_loss$", "", regex=True)

        def figs(role_c):
            s = scored[spec.key(role_c)]
            d = {}
            for i, tn in enumerate(tnames):
                lo, hi = _ci(s.boot_values[:, i])
                d[tn] = {"value": float(s.values[i]), "ci95": [lo, hi]}
            lo, hi = _ci(s.boot_objective)
            d["objective"] = {"value": s.objective, "ci95": [lo, hi]}
            return d

        def diff(c):
            if c is None:
                return None
            dd = sb.boot_objective - scored[spec.key(c)].boot_objective
            return {"objective_diff": sb.objective - scored[spec.key(c)].objective,
                    "ci95": list(_ci(dd)), "p_best_better": float(np.mean(dd < 0))}

        me = imp[(imp["method"] == "main_effect") & (imp["measure"] == "objective")]
        summary = {
            "name": spec.name, "tune_file": spec.path, "seed": spec.seed, "game": spec.exp.game,
            "config": spec.adapter.describe(spec.base_config), "policies": list(spec.policies),
            "params": {p.name: p.spec() | {"default": p.default} for p in spec.params},
            "targets": [{"name": t.name, "metric": t.metric, "side": t.side, "goal": t.goal,
                         "direction": t.direction, "weight": t.weight} for t in spec.targets],
            "objective": "sum of weight × loss; loss = |value − goal|, value (min) or −value (max)",
            "search": {"method": "exhaustive" if spec.exhaustive else
                       ("random" if spec.sampler == "random" else "tpe"),
                       "description": how, "trials": len(trials),
                       "distinct_points": len(distinct), "space_size": spec.space_size,
                       "games_per_trial": spec.games, "batch": spec.batch,
                       "default_in_space": in_space},
            "racing": {"schedule_games": schedule, "candidates": len(cands),
                       "first_chunk": chunk0, "final_games": spec.final_games},
            "best": {"values": best, **figs(best)},
            "runner_up": None if runner is None else {"values": runner, **figs(runner)},
            "default": {"values": default, **figs(default)},
            "best_minus_runner_up": diff(runner), "best_minus_default": diff(default),
            "importance": {r.parameter: r.importance for r in me.itertuples()},
            "pareto_points": int(distinct["pareto"].sum()),
            "bootstrap": spec.bootstrap, "interval": "95% percentile bootstrap over batches of "
                                                    "games, paired (same batches)",
            "games_played": ev.games_played, "workers": workers,
            "synthetic": play_hook is not None,
            "version": __version__, "git_revision": git_revision(),
            "wall_s": time.perf_counter() - t0, "file": spec.text,
        }
    finally:
        ev.close()
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "trials.csv", trials.to_csv(index=False))
    atomic_write_text(out / "racing.csv", racing.to_csv(index=False))
    atomic_write_text(out / "best.csv", best_df.to_csv(index=False))
    atomic_write_text(out / "importance.csv", imp.to_csv(index=False))
    atomic_write_text(out / "summary.json", json.dumps(summary, indent=1, default=_jsonable) + "\n")
    say(_describe(summary))
    return summary


def _jsonable(v):
    if isinstance(v, np.generic):
        return v.item()
    return str(v)


def _fmt_values(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _describe(s: dict) -> str:
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
    imp = ", ".join(f"{k} {v:.2f}" for k, v in sorted(s["importance"].items(),
                                                       key=lambda kv: -(kv[1] or 0)))
    lines.append(f"main-effect share of the objective's variance: {imp}")
    lines.append(f"{s['games_played']:,} games, {s['wall_s']:.1f} s")
    return "\n".join(lines)


# --------------------------------------------------------------------------- command line


def add_tune_parser(sub) -> None:
    ap = sub.add_parser(
        "tune", help="search integer rule parameters (point values …) for balance targets",
        description="Tune integer parameters of a rule set toward targets (seat parity, a "
                    "combination's share of round wins, …): seeded optuna search on common "
                    "deals, racing of the best on fresh deals, intervals, paired differences "
                    "from the runner-up and the default, parameter importance. The file "
                    "format is in the README (section 'Tuning point values').")
    ap.add_argument("file", metavar="TUNE.toml")
    ap.add_argument("--out", default=None, metavar="DIR", help="output folder "
                    "(default results/<name>)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes")
    ap.add_argument("--trials", type=int, default=None, help="search trials (file's default)")
    ap.add_argument("--games", type=int, default=None, help="games per search trial")
    ap.add_argument("--final-games", type=int, default=None,
                    help="games of each finalist in the last racing round")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--quiet", action="store_true")
    ap.set_defaults(func=cmd_tune)


def cmd_tune(args) -> int:
    if args.workers < 1:
        raise TuneError(f"--workers must be at least 1, got {args.workers}")
    spec = load_tune(args.file).with_budget(args.trials, args.games, args.final_games)
    s = tune(spec, out=args.out, workers=args.workers, quiet=args.quiet or args.json)
    if args.json:
        print(json.dumps({k: v for k, v in s.items() if k != "file"}, indent=1,
                         default=_jsonable))
    else:
        print(f"wrote {Path(args.out) if args.out else Path('results') / spec.name}")
    return 0
