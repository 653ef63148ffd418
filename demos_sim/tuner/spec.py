"""Tune files: the format (``[tune]``, ``[tune.params]``, ``[tune.targets.NAME]``) and its checks.

:func:`load_tune` reads a tune file into a :class:`TuneSpec` — the runner's experiment of
the untuned configuration, the parameters with their values and defaults, the targets,
the budget — or stops with one :class:`TuneError` line (``FILE: KEY: problem``) before any
game. The format is described in :mod:`demos_sim.tuner` and the README ("Tuning point
values").
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from demos_sim import ConfigError
from demos_sim.runner.experiment import parse_experiment

TUNE_KEYS = ("params", "targets", "trials", "final_games", "top", "sampler", "batch",
             "bootstrap", "confirm_games", "design", "max_changes")
PARAM_KEYS = ("low", "high", "step", "values")
TARGET_KEYS = ("metric", "side", "goal", "direction", "weight")
PARITY = ("seat_parity", "side_parity")
SAMPLERS = ("auto", "tpe", "random", "grid")
REFUSED = ("grid", "baseline", "stop", "sweep")
MAX_GRID = 20000                     # largest space enumerated exhaustively
MAX_1D = 128                         # a one-parameter space this small is always enumerated
MAX_VALUES = 100000                  # largest range of one parameter


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
    confirm_games: int = 0    # games of the fresh-deal confirmation (0: final_games)
    design: int = 32          # points of the uniform designed sample (importance)
    max_changes: int | None = None   # most parameters a candidate may move off the default

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
        """Every point is played: ``grid``, or ``auto`` when the space has at most ``trials``
        points or is one parameter of at most :data:`MAX_1D` values (a sampler can skip
        the very value that meets a goal; enumerating one short axis cannot)."""
        if self.sampler == "grid":
            return True
        return self.sampler == "auto" and (
            self.space_size <= self.trials or (len(self.params) == 1
                                               and self.space_size <= MAX_1D))

    @property
    def confirm(self) -> int:
        """Games of every candidate in the fresh-deal confirmation."""
        return self.confirm_games or self.final_games

    def changes(self, values: dict) -> int:
        """How many parameters ``values`` moves off the untuned configuration."""
        return sum(values[p.name] != p.default for p in self.params)

    def allowed(self, values: dict) -> bool:
        return self.max_changes is None or self.changes(values) <= self.max_changes

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
        for what, v in (("--trials", trials), ("--games", games), ("--final-games", final_games)):
            if v is not None and (not isinstance(v, int) or v < 1):
                raise TuneError(f"{what} must be at least 1, got {v}")
        return dataclasses.replace(self, trials=trials or self.trials, games=games or self.games,
                                   final_games=final_games or self.final_games)


# --------------------------------------------------------------------------- loading
def _seatings(seating: str) -> list[str]:
    return sorted({"".join(p) for p in itertools.permutations(seating)})


def _read(path: Path, bot: str | None, fail) -> tuple[str, dict]:
    """The file's text and its TOML, read once (``{bot}`` replaced by ``bot``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TuneError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise TuneError(f"{path}: cannot read: {e}") from None
    try:
        data = tomllib.loads(text.replace("{bot}", bot) if bot is not None else text)
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
    return text, data


def _budget(tune: dict, exp, fail) -> dict:
    """The ``[tune]`` budget and sampler, checked."""
    for key in tune:
        if key not in TUNE_KEYS:
            fail(f"tune.{key}", f"unknown key (known: {', '.join(TUNE_KEYS)})")

    def int_at_least(key, default, lo):
        v = tune.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            fail(f"tune.{key}", f"must be an integer >= {lo}, got {v!r}")
        return v

    out = {"trials": int_at_least("trials", 50, 1),
           "final_games": int_at_least("final_games", 8 * exp.games, 1),
           "top": int_at_least("top", 8, 2), "batch": int_at_least("batch", 4, 1),
           "bootstrap": int_at_least("bootstrap", 1000, 100),
           "confirm_games": (int_at_least("confirm_games", 1, 1)
                             if "confirm_games" in tune else 0),
           "design": int_at_least("design", 32, 0),
           "max_changes": (int_at_least("max_changes", None, 1)
                           if tune.get("max_changes") is not None else None),
           "sampler": tune.get("sampler", "auto")}
    if out["sampler"] not in SAMPLERS:
        fail("tune.sampler", f"must be one of {', '.join(SAMPLERS)}, got {out['sampler']!r}")
    return out


def _values_of(k: str, name: str, spec: dict, desc: dict, fail) -> tuple[list, tuple]:
    """A parameter's values and ``(low, high, step)`` (None for a list of values)."""
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
        return vals, (None, None, None)
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
    return list(range(low, high + 1, step)), (low, high, step)


def _param(name: str, spec, ad, desc: dict, settings: dict, variants: dict, data: dict,
           fail) -> Param:
    """One ``[tune.params]`` entry: a setting, a variant or an entry ``NAME.i`` of a list
    variant, with its values and its default in the untuned configuration."""
    k = f"tune.params.{name}"
    if not isinstance(spec, dict):
        fail(k, f"must be a table {{ low = …, high = …[, step = …] }} or {{ values = [...] }}, "
                f"got {spec!r}")
    for sk in spec:
        if sk not in PARAM_KEYS:
            fail(k, f"unknown key {sk!r} (known: {', '.join(PARAM_KEYS)})")
    key, index = name, None
    base_var = desc["variants"]
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
    vals, (low, high, step) = _values_of(k, name, spec, desc, fail)
    return Param(name, where, key, index, tuple(vals), default, low, high, step)


def _check_values(spec: TuneSpec, fail) -> None:
    """Every value of every parameter, the others at their default, makes a configuration
    whose targets resolve (ranges of up to a few thousand values are all checked; longer
    ones at their ends and middle)."""
    ad = spec.adapter
    dflt = spec.default_values()
    for p in spec.params:
        vals = p.values if len(p.values) <= 5000 else (p.values[0], p.values[len(p.values) // 2],
                                                       p.values[-1])
        for v in vals:
            try:
                if p.where == "variant":
                    ad.check_variant(p.key, v)
                cfg = spec.config(dict(dflt, **{p.name: v}))
                resolve_columns(spec, cfg)
            except TuneError:
                raise
            except ConfigError as e:
                fail(f"tune.params.{p.name}", f"value {v!r}: {e}")


def load_tune(path: str | Path, bot: str | None = None) -> TuneSpec:
    """Read and validate a tune file; :class:`TuneError` (one line) on any problem.

    ``bot`` replaces every ``{bot}`` in the text, as for an experiment file. The TOML is
    read once: its ``[tune]`` tables here, the rest (an experiment file's keys) by the
    runner's :func:`~demos_sim.runner.experiment.parse_experiment`."""
    path = Path(path)

    def fail(key, problem):
        raise TuneError(f"{path}: {key}: {problem}")

    text, data = _read(path, bot, fail)
    try:                      # the rest is an experiment file: the runner checks it
        exp = parse_experiment({k: v for k, v in data.items() if k != "tune"}, path, bot=bot,
                               text=text)
    except ConfigError as e:
        raise TuneError(str(e)) from None
    ad = exp.adapter
    tune = data["tune"]
    budget = _budget(tune, exp, fail)
    settings = dict(exp.settings)
    variants = {k: ad.check_variant(k, v) for k, v in data.get("variants", {}).items()}
    base = exp.points[0].config
    desc = ad.describe(base)
    raw = tune.get("params")
    if not isinstance(raw, dict) or not raw:
        fail("tune.params", "missing or empty (give at least one parameter with a range)")
    params = [_param(name, spec, ad, desc, settings, variants, data, fail)
              for name, spec in raw.items()]
    targets = _load_targets(tune.get("targets"), ad, base, fail)
    spec = TuneSpec(str(path), text, exp.name, exp, params, targets, budget["trials"],
                    exp.games, budget["final_games"], budget["top"], budget["sampler"],
                    budget["batch"], budget["bootstrap"], settings, variants,
                    budget["confirm_games"], budget["design"], budget["max_changes"])
    if spec.sampler == "grid" and spec.space_size > MAX_GRID:
        fail("tune.sampler", f"grid enumerates every point, but the space has "
                             f"{spec.space_size} (at most {MAX_GRID})")
    _check_values(spec, fail)
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


def resolve_columns(spec: TuneSpec, config) -> list[int | None]:
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
