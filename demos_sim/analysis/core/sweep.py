"""Sweeps: one numeric rule played at several values on the same deals, and what it moves.

``demos-sim sweep --set carre_points=20:60:10`` plays the game once per value of one
numeric setting — a variant of RULES.md Part V (``carre_points``, ``team_vetoes``,
``max_rounds`` …), a numeric setting of the game (Protocole ``level``) or a trial rule
(DĒMOS ``handicap_points``) — through the runner: an experiment of one point per value
(:func:`demos_sim.runner.experiment.experiment_of`), every point on the same deals (the
same chunk seeds: common random numbers, as ``demos-sim compare``). The point at the
setting's default value (the first value when the default is not swept) is the
reference, and every other value's *effect* is its paired difference from it, game by
game, with its 95% interval (:mod:`demos_sim.runner.intervals`: Wilson for a share).

:func:`sweep_table` turns a run's results table into one row per value and figure — win
share by seat (individual play) or side (teams), games without a winner, the Carré's
share of round wins where the game records it, game length and points by seat — and
:func:`plot_sweep` draws them as effect-against-value curves with 95% bands. The same
two functions draw the curve of a grid report whose grid sweeps a number
(:func:`grid_sweeps`, ``demos-sim report``), and the explorer calls :func:`plan_sweep`,
runs its experiment with a callback and redraws the curves as chunks arrive.

The Carré's share of round wins is a ratio (Carré wins over round wins), which the runner
does not pair: its effect's interval adds the two values' half-widths (conservative
whatever their correlation: :func:`demos_sim.analysis.core.stats.diff_same_games`).
Effects are tested together: Holm over every effect of the sweep (family-wise 5%), as
``demos-sim compare`` does over its rows.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim import MAX_SETTING, ConfigError
from demos_sim.analysis.core.stats import adjust, p_value
from demos_sim.game import Game, get_game
from demos_sim.restricted import lineup
from demos_sim.runner.experiment import experiment_of
from demos_sim.runner.run import RunResult, run_experiment
from demos_sim.runner.tables import grid_column
from demos_sim.runner.units import pct, pct_ci, pp, pp_ci

MAX_VALUES = 64          # values one sweep plays (each is a full set of games)
CARRE = ("combo_share", "carre")      # DĒMOS: the Carré's share of round wins (D4.1)
# (figure name, metric, level in the runner's table); in the order they are shown
FIGURES = (("win share", "win_share"), ("no winner", "no_winner"),
           ("Carré share of round wins", CARRE[0]), ("game length", None),
           ("points", "points"))
_RANGE = re.compile(r"^\s*(-?\d+)\s*:\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$")


# ------------------------------------------------------------------ the values
def parse_values(value) -> list[int]:
    """The values of a swept setting as written after ``--set NAME=``: ``START:STOP:STEP``
    (STOP included when a step lands on it: ``20:60:10`` is 20, 30, 40, 50, 60),
    ``START:STOP`` (step 1), or a comma list ``20,30,45``; a single whole number is one
    value. ``value`` is what :func:`demos_sim.game.parse_set` made of the text (a number
    stays a number, a range or a list stays text). One-line error on anything else."""
    if isinstance(value, bool):
        raise ConfigError(f"{value!r} is not a whole number (write START:STOP:STEP or A,B,C)")
    if isinstance(value, int):
        return [value]
    if not isinstance(value, str):
        raise ConfigError(f"{json.dumps(value)} is not a range of whole numbers "
                          "(write START:STOP:STEP or A,B,C)")
    m = _RANGE.match(value)
    if m:
        start, stop = int(m.group(1)), int(m.group(2))
        step = int(m.group(3)) if m.group(3) is not None else 1
        if step <= 0:
            raise ConfigError(f"{value}: the step must be a whole number >= 1, got {step}")
        if stop < start:
            raise ConfigError(f"{value}: STOP ({stop}) is below START ({start})")
        n = (stop - start) // step + 1
        if n > MAX_VALUES:
            raise ConfigError(f"{value} gives {n:,} values; a sweep plays at most "
                              f"{MAX_VALUES} (a larger step?)")
        return list(range(start, stop + 1, step))
    parts = [p.strip() for p in value.split(",")]
    out = []
    for p in parts:
        if not re.fullmatch(r"-?\d+", p):
            raise ConfigError(f"{value}: {p!r} is not a whole number (write START:STOP:STEP "
                              "or A,B,C)")
        out.append(int(p))
    if len(set(out)) != len(out):
        raise ConfigError(f"{value}: a value is given twice")
    if len(out) > MAX_VALUES:
        raise ConfigError(f"{value} gives {len(out)} values; a sweep plays at most "
                          f"{MAX_VALUES}")
    return out


def is_range(value) -> bool:
    """Whether a ``--set`` value (after :func:`demos_sim.game.parse_set`) is written as
    several values — ``20:60:10`` or ``20,30,40`` — rather than one."""
    return isinstance(value, str) and (":" in value or "," in value)


def split_sets(variants: dict) -> tuple[str, list[int], dict]:
    """``(name, values, fixed)`` from the ``--set`` items of a sweep (as
    :func:`demos_sim.game.parse_set` read them): the one item written as a range or a
    list is the swept setting; the others are fixed variants."""
    swept = [k for k, v in variants.items() if is_range(v)]
    if not swept:
        raise ConfigError("give the setting to sweep as --set NAME=START:STOP:STEP or "
                          "--set NAME=A,B,C (e.g. --set carre_points=20:60:10)")
    if len(swept) > 1:
        raise ConfigError(f"sweep one setting at a time, got ranges for {', '.join(swept)}")
    name = swept[0]
    try:
        values = parse_values(variants[name])
    except ConfigError as e:
        raise ConfigError(f"--set {name}={variants[name]}: {e}") from None
    if len(values) < 2:
        raise ConfigError(f"--set {name}: a sweep needs at least two values")
    return name, values, {k: v for k, v in variants.items() if k != name}


# ------------------------------------------------------------------ the setting swept
@dataclass(frozen=True)
class Knob:
    """A numeric setting of one game: a variant of Part V (``kind = "variant"``) or one of
    the game's settings (``"setting"``: Protocole ``level``, DĒMOS trial rules). ``lo`` and
    ``hi`` bound the whole numbers the game accepts for it in this configuration;
    ``default`` is its value when not given (None when that is not a number: DĒMOS
    ``max_rounds`` null, no cap)."""

    game: str
    name: str
    kind: str
    lo: int
    hi: int
    default: int | None

    def config(self, settings: dict, players: int | None, variants: dict, value: int):
        """The configuration with this setting at ``value`` (the game's one-line error
        when it refuses the value)."""
        g = get_game(self.game)
        if self.kind == "variant":
            return g.make_config(dict(settings), players, {**variants, self.name: value})
        return g.make_config({**settings, self.name: g.check_setting(self.name, value)},
                             players, dict(variants))


def _accepts(g: Game, kind: str, name: str, settings, players, variants, value) -> bool:
    try:
        if kind == "variant":
            g.make_config(dict(settings), players, {**variants, name: value})
        else:
            g.make_config({**settings, name: g.check_setting(name, value)}, players,
                          dict(variants))
        return True
    except ConfigError:
        return False


def numeric_names(g: Game) -> list[str]:
    """The settings of ``g`` a sweep or a search can take: variants and settings whose
    values are whole numbers (read from the game's own validation)."""
    out = []
    for name in list(g.variant_names()):
        if any(_ok(lambda v, n=name: g.check_variant(n, v), v) for v in (0, 1, 2, 3)):
            out.append(name)
    for name in g.settings:
        if any(_ok(lambda v, n=name: g.check_setting(n, v), v) for v in (0, 1, 2, 3)):
            out.append(name)
    return out


def _ok(check, value) -> bool:
    try:
        check(value)
        return True
    except ConfigError:
        return False


def knob(game: str | Game, name: str, settings: dict, players: int | None,
         variants: dict) -> Knob:
    """The numeric setting ``name`` of ``game`` in the configuration ``settings`` /
    ``players`` / ``variants`` (the fixed ones), with the range of whole numbers the game
    accepts there. One-line errors: an unknown name, a setting that is not a number, a
    variant that cannot change a game of this configuration (the scope the runner checks:
    :meth:`demos_sim.game.Game.variant_scope`) or a setting this configuration refuses
    (DĒMOS ``handicap_points`` outside 2v3 and 2v2+1)."""
    g = get_game(game) if isinstance(game, str) else game
    numeric = numeric_names(g)
    if name in g.variant_names():
        kind = "variant"
    elif name in g.settings:
        kind = "setting"
    else:
        raise ConfigError(f"{name!r} is not a setting of {g.title} (numeric ones: "
                          f"{', '.join(numeric)}; `demos-sim variants --game {g.name}`)")
    if name not in numeric:
        raise ConfigError(f"{name} is not a number, so it has no range to sweep or search "
                          f"(numeric settings of {g.title}: {', '.join(numeric)})")
    if kind == "setting" and settings.get(name) is not None:
        raise ConfigError(f"{name} is the setting swept or searched: do not also fix it "
                          f"(--{name.replace('_', '-')})")
    if kind == "variant" and name in variants:
        raise ConfigError(f"{name} is the setting swept or searched: do not also fix it "
                          "with --set")
    if kind == "variant":
        base = g.make_config(dict(settings), players, dict(variants))
        where = g.variant_scope(base, name)
        if where:
            raise ConfigError(f"{name} applies {where}, not to this game: every value would "
                              "play the same games")

    def ok(v: int) -> bool:
        return _accepts(g, kind, name, settings, players, variants, v)

    accepted = [v for v in (0, 1, 2, 3) if ok(v)]
    if len(accepted) < 2:
        # none, or only the value that turns it off (a trial rule outside its modes): the
        # configuration's own error says where the setting applies
        Knob(g.name, name, kind, 0, 0, None).config(settings, players, variants,
                                                     accepted[0] + 1 if accepted else 1)
        raise ConfigError(f"{name} takes no range of values in this configuration")
    seed = accepted[0]
    a, b = 0, seed                     # smallest accepted value (they form one interval)
    while a < b:
        mid = (a + b) // 2
        if ok(mid):
            b = mid
        else:
            a = mid + 1
    lo = b
    top = MAX_SETTING
    a, b = seed, top                   # largest accepted value
    if ok(top):
        a = top
    while a < b:
        mid = (a + b + 1) // 2
        if ok(mid):
            a = mid
        else:
            b = mid - 1
    hi = a
    # the default: the value in force when the setting is not given
    if kind == "variant":
        d = g.variant_defaults().get(name)
        default = d if isinstance(d, int) and not isinstance(d, bool) else None
    else:
        d = g.settings.get(name)
        default = d if isinstance(d, int) and not isinstance(d, bool) else None
        if default is None:             # None may stand for a value: the rules as written
            try:
                base = g.describe(g.make_config(dict(settings), players, dict(variants)))
            except ConfigError:         # the setting is required here (Protocole coop level)
                base = None
            if base is not None and base == g.describe(
                    Knob(g.name, name, kind, lo, hi, None).config(settings, players,
                                                                  variants, lo)):
                default = lo
    return Knob(g.name, name, kind, lo, hi, default)


# ------------------------------------------------------------------ a sweep
@dataclass
class SweepPlan:
    """A validated sweep, not yet played: the experiment (one point per value, the
    reference point at ``ref_value``) and what it was made from. The explorer runs
    ``experiment`` with a callback and calls :func:`sweep_table` on its partial tables."""

    game: str
    knob: Knob
    values: list[int]
    ref_value: int
    settings: dict
    players: int | None
    variants: dict
    policies: list[str]
    experiment: object

    def table(self, results: pd.DataFrame) -> pd.DataFrame:
        g = get_game(self.game)
        coop = g.cooperative(self.experiment.points[0].config)
        return sweep_table(results, self.game, self.knob.name, cooperative=coop)


def plan_sweep(game: str, name: str, values: list[int], settings: dict | None = None,
               players: int | None = None, variants: dict | None = None,
               policies: list[str] | None = None, games: int = 10000, seed: int = 0,
               plugins: tuple[str, ...] = (), allow_reference: bool = False,
               out_name: str | None = None) -> SweepPlan:
    """Validate a sweep of setting ``name`` over ``values`` (whole numbers, at least two)
    with the fixed ``settings`` and ``variants`` and build its experiment; one-line errors
    on bad input, before any game is played."""
    g = get_game(game)
    settings = {k: v for k, v in dict(settings or {}).items() if v is not None}
    variants = dict(variants or {})
    values = [int(v) for v in values]
    if len(values) < 2:
        raise ConfigError(f"a sweep of {name} needs at least two values")
    if len(set(values)) != len(values):
        raise ConfigError(f"a value of {name} is given twice")
    if len(values) > MAX_VALUES:
        raise ConfigError(f"a sweep plays at most {MAX_VALUES} values, got {len(values)}")
    k = knob(g, name, settings, players, variants)
    for v in values:
        if not k.lo <= v <= k.hi:
            raise ConfigError(f"{name} = {v} is outside what the rules allow here "
                              f"({k.lo} to {k.hi:,})")
    values = sorted(values)
    configs = [k.config(settings, players, variants, v) for v in values]
    ref_value = k.default if k.default in values else values[0]
    specs = list(policies) if policies else [g.default_policies(configs[0])]
    seats = [lineup(g, specs, cfg, plugins) for cfg in configs]
    if not allow_reference:
        seats[0].refuse_references("sweep", "--allow-reference")
    plugins = tuple(dict.fromkeys(tuple(plugins) + g.loaded_plugins()))
    names = {q.name for q in g.quantities}
    metrics = tuple(m for m in ("win_share", "no_winner", "truncated", g.length, "points",
                                CARRE[0]) if m in names)
    exp = experiment_of(g.name, [(f"{name}={v}", cfg, s)
                                 for v, cfg, s in zip(values, configs, seats)],
                        games, seed, plugins, name=out_name or f"sweep-{name}",
                        values=[{name: v} for v in values], metrics=metrics,
                        ref=values.index(ref_value))
    return SweepPlan(g.name, k, values, ref_value, settings, players, variants, specs, exp)


@dataclass
class Sweep:
    """A finished sweep: its plan, the run (``run.out``: the results folder, or None) and
    its table (:func:`sweep_table`)."""

    plan: SweepPlan
    run: RunResult
    table: pd.DataFrame

    @property
    def games(self) -> int:
        return int(self.run.meta["games_per_point"])


def run_sweep(plan: SweepPlan, out: str | Path | None = None, workers: int = 1,
              quiet: bool = True) -> Sweep:
    """Play ``plan`` through the runner: into the results folder ``out`` (resumable, and
    ``demos-sim report OUT`` draws the same curves), or in memory when ``out`` is None."""
    run = run_experiment(plan.experiment, out=out, workers=workers, quiet=quiet,
                         keep=out is not None)
    return Sweep(plan, run, plan.table(run.results))


# ------------------------------------------------------------------ the table
def _who(rows: pd.DataFrame) -> dict:
    """Row index -> ``"seat 0"``, ``"side A"`` or ``"game"``: a side is a team (or the
    Independent) only when some side has several seats; in individual play every player
    is a side of one, named by their seat (M1)."""
    ws = rows[rows["metric"] == "win_share"]
    teams = any("," in str(s) for s in ws["seats"])
    out = {}
    for i, r in rows.iterrows():
        if r["level"] == "game" or r["metric"] == CARRE[0]:
            out[i] = "game"
        elif r["level"] == "seat" or (not teams and "," not in str(r["seats"])):
            out[i] = f"seat {r['side']}"
        else:
            out[i] = f"side {r['side']}"
    return out


COLUMNS = ["setting", "value", "reference", "figure", "metric", "who", "rate", "unit",
           "games", "mean", "ci_low", "ci_high", "diff", "diff_ci_low", "diff_ci_high",
           "paired", "p", "p_holm", "moved"]


def sweep_table(results: pd.DataFrame, game: str, key: str,
                cooperative: bool = False) -> pd.DataFrame:
    """One row per value of grid key ``key`` and figure of the curves (:data:`FIGURES`),
    from a runner results table whose points differ in ``key`` only (one block): the
    figure's level and 95% interval (``mean``, ``ci_low``, ``ci_high``: fractions for
    shares, ``rate`` true) and its effect against the reference point (``diff`` …, the
    paired difference; ``paired`` false for the Carré's share, whose interval is the
    conservative one of the module doc), Holm-adjusted over every effect (``moved``: below
    5%). Rows are in the order of the values, figures as :data:`FIGURES`. In a
    ``cooperative`` game (Protocole all together, P5) every seat's win share is the
    team's: one row, ``all seats``."""
    g = get_game(game)
    col = grid_column(key)
    length = g.length
    rows = results[results["metric"].isin(
        ["win_share", "no_winner", length, "points", CARRE[0]])].copy()
    rows = rows[(rows["metric"] != CARRE[0]) | (rows["side"] == CARRE[1])]
    if cooperative:
        first = rows[rows["metric"] == "win_share"]["side"].iloc[0]
        rows = rows[(rows["metric"] != "win_share") | (rows["side"] == first)]
    if rows.empty:
        return pd.DataFrame(columns=COLUMNS)
    refs = rows[rows["ref_point"].isna()]["point"].unique()
    ref_point = int(refs[0]) if len(refs) else int(rows["point"].min())
    who = _who(rows)
    names = {m or length: f for f, m in FIGURES}
    order = {m or length: i for i, (_, m) in enumerate(FIGURES)}
    ref_rows = rows[rows["point"] == ref_point].set_index(["metric", "side"])
    out = []
    if cooperative:
        who.update({i: "all seats" for i in rows.index[rows["metric"] == "win_share"]})
    for i, r in rows.iterrows():
        q = g.quantity(r["metric"])
        is_ref = int(r["point"]) == ref_point
        d = dict(diff=np.nan, diff_ci_low=np.nan, diff_ci_high=np.nan, paired=True)
        if is_ref:
            d.update(diff=0.0, diff_ci_low=0.0, diff_ci_high=0.0)
        elif r["metric"] == CARRE[0]:
            b = ref_rows.loc[(r["metric"], r["side"])]
            # a ratio: not paired by the runner; the two 95% half-widths add (conservative)
            d.update(diff=float(r["mean"] - b["mean"]),
                     diff_ci_low=float(r["ci_low"] - b["ci_high"]),
                     diff_ci_high=float(r["ci_high"] - b["ci_low"]), paired=False)
        else:
            d.update(diff=float(r["diff"]), diff_ci_low=float(r["diff_ci_low"]),
                     diff_ci_high=float(r["diff_ci_high"]))
        unit = ("fraction of games" if q.rate and q.per is None else
                "fraction of round wins" if q.rate else
                "rounds" if r["metric"] == length else r["metric"])
        out.append({"setting": key, "value": r[col], "reference": is_ref,
                    "figure": names[r["metric"]], "metric": r["metric"], "who": who[i],
                    "rate": bool(q.rate), "unit": unit, "games": int(r["games"]),
                    "mean": float(r["mean"]), "ci_low": float(r["ci_low"]),
                    "ci_high": float(r["ci_high"]), **d,
                    "_order": order[r["metric"]]})
    t = pd.DataFrame(out)
    half = (t["diff_ci_high"] - t["diff_ci_low"]) / 2
    t["p"] = [p_value(dv, h) if not ref else np.nan
              for dv, h, ref in zip(t["diff"], half, t["reference"])]
    t["p_holm"] = adjust(t["p"].to_numpy(), "holm")
    t["moved"] = np.nan_to_num(t["p_holm"].to_numpy(), nan=1.0) < 0.05
    t["_who"] = t["who"].map(_who_key)
    t = t.sort_values(["_order", "_who", "value"], kind="stable")
    return t.drop(columns=["_order", "_who"]).reset_index(drop=True)[COLUMNS]


def _who_key(w: str):
    kind, _, label = w.partition(" ")
    return (kind, int(label) if label.isdigit() else 0, label)


# ------------------------------------------------------------------ words
def _effect(r, unit: bool = True) -> str:
    if r["rate"]:
        return f"{pp(r['diff'])} {pp_ci(r['diff_ci_low'], r['diff_ci_high'])}"
    u = f" {r['unit']}" if unit else ""
    return f"{r['diff']:+.2f}{u} [{r['diff_ci_low']:+.2f}, {r['diff_ci_high']:+.2f}]"


def _level(r) -> str:
    if r["rate"]:
        return f"{pct(r['mean'])} {pct_ci(r['ci_low'], r['ci_high'])}"
    return f"{r['mean']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"


def verdict(t: pd.DataFrame) -> str:
    """The sweep in sentences: the range, the reference, the games, then for each figure
    its largest change (interval, seat or side, value; "beyond chance" after Holm)."""
    if t.empty:
        return "nothing was played"
    key = t["setting"].iloc[0]
    vals = sorted(t["value"].unique())
    ref = t[t["reference"]]["value"].iloc[0]
    games = int(t["games"].iloc[0])
    head = (f"{key} from {vals[0]} to {vals[-1]} ({len(vals)} values, each against "
            f"{key} = {ref} on the same {games:,} deals)")
    parts = []
    for fig in dict.fromkeys(t["figure"]):
        f = t[(t["figure"] == fig) & ~t["reference"]]
        if f.empty or f["diff"].isna().all():
            continue
        r = f.loc[f["diff"].abs().idxmax()]
        where = ([r["who"]] if r["who"] != "game" else []) + [f"at {r['value']}"]
        if r["moved"]:
            where.append("beyond chance")
        parts.append(f"{fig} {_effect(r, unit=r['unit'] != fig)} ({', '.join(where)})")
    moved = t[t["moved"]]
    n_eff = int((~t["reference"]).sum())
    tail = (f"{len(moved)} of {n_eff} changes are beyond chance (Holm, family-wise 5%)"
            if len(moved) else f"none of the {n_eff} changes is beyond chance (Holm, "
            "family-wise 5%; not shown equal either: see the intervals)")
    return f"{head}. Largest changes: " + "; ".join(parts) + f". {tail}."


def format_sweep(t: pd.DataFrame, title: str = "") -> str:
    """The text of ``demos-sim sweep``: the verdict first, then one line per figure and
    value — the level with its 95% interval (shares in %) and the effect against the
    reference (pp for shares) with its interval; * beyond chance after Holm."""
    lines = [f"{title}: " + verdict(t) if title else verdict(t), ""]
    key = t["setting"].iloc[0] if len(t) else ""
    ref = t[t["reference"]]["value"].iloc[0] if len(t) else ""
    lines.append(f"{'figure':<27}{'seat/side':<10}{key:>14}  {'estimate [95% CI]':<26}"
                 f"effect vs {ref} [95% CI]")
    for _, r in t.iterrows():
        eff = "reference" if r["reference"] else _effect(r) + ("  *" if r["moved"] else "")
        if not r["reference"] and not r["paired"]:
            eff += "  (not paired)"
        lines.append(f"{r['figure']:<27}{r['who']:<10}{r['value']:>14}  {_level(r):<26}{eff}")
    lines.append("Shares in %, their effects in pp (percentage points); game length in "
                 "rounds, points per seat. * beyond chance: paired difference significant "
                 f"after Holm over the {int((~t['reference']).sum())} effects (family-wise "
                 "5%). Every value plays the same deals (common random numbers).")
    if (~t["paired"]).any():
        lines.append("The Carré's share of round wins is a ratio the runner does not pair: "
                     "its interval adds both values' half-widths (conservative).")
    return "\n".join(lines)


# ------------------------------------------------------------------ the curves
def plot_sweep(t: pd.DataFrame, title: str = ""):
    """Effect-against-value curves with 95% bands, one panel per figure (win share, no
    winner, the Carré's share, game length, points), one line per seat or side; the
    reference value marked. Returns the matplotlib figure (save it with ``savefig`` or
    :func:`demos_sim.analysis.core.plotting.png_bytes`)."""
    from demos_sim.analysis.core.plotting import panels

    figs = [f for f in dict.fromkeys(t["figure"]) if not t[t["figure"] == f]["diff"].isna().all()]
    fig, axes = panels(max(1, len(figs)), height=3.3, width=4.4, wrap=3)
    key = t["setting"].iloc[0] if len(t) else ""
    ref = t[t["reference"]]["value"].iloc[0] if len(t) else None
    for ax, name in zip(axes, figs):
        f = t[t["figure"] == name]
        rate = bool(f["rate"].iloc[0])
        scale = 100.0 if rate else 1.0
        for who, w in f.groupby("who", sort=False):
            w = w.sort_values("value")
            x = w["value"].to_numpy(float)
            lev = w[w["reference"]]
            at = (f"{pct(lev['mean'].iloc[0], 1)}" if rate else f"{lev['mean'].iloc[0]:.1f}"
                  ) if len(lev) else ""
            label = (who if who != "game" else name) + (f" ({at} at {ref})" if at else "")
            line, = ax.plot(x, scale * w["diff"].to_numpy(float), marker="o", ms=3, lw=1.3,
                            label=label)
            ax.fill_between(x, scale * w["diff_ci_low"].to_numpy(float),
                            scale * w["diff_ci_high"].to_numpy(float),
                            color=line.get_color(), alpha=0.18, lw=0)
        ax.axhline(0.0, color="0.4", lw=0.8, ls="--")
        if ref is not None:
            ax.axvline(float(ref), color="0.6", lw=0.8, ls=":")
        unit = "pp" if rate else ("rounds" if name == "game length" else "points")
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(key)
        ax.set_ylabel(f"change vs {ref} ({unit})")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small", loc="best")
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


# ------------------------------------------------------------------ provenance
def provenance_table(t: pd.DataFrame, meta: dict, game: str) -> pd.DataFrame:
    """:func:`sweep_table` with what made it, on every row (the file ``sweep.csv``): the
    game, seed, policies by seat, the full configuration of the row's value (JSON), rules
    contract, package version and git revision. Shares stay fractions there (column
    ``unit``)."""
    cfg = {}
    pols = {}
    for p in meta["points"]:
        for k, v in p["values"].items():
            cfg[v] = json.dumps(p["config"], sort_keys=True, default=str)
            pols[v] = ",".join(p["policies"])
    out = t.copy()
    out.insert(0, "game", game)
    out["seed"] = meta["seed"]
    out["policies"] = out["value"].map(pols)
    out["configuration"] = out["value"].map(cfg)
    out["contract"] = meta["contract"]
    out["version"] = meta["version"]
    out["git_revision"] = meta["git_revision"]
    return out


# ------------------------------------------------------------------ grid reports
def grid_sweeps(meta: dict, results: pd.DataFrame) -> list[tuple[str, int, pd.DataFrame]]:
    """``[(key, players, table), …]``: every numeric grid key of a run (whole-number
    values) that takes at least two values while the other keys stay at the block's
    reference point, with the :func:`sweep_table` of those points (the report draws each
    with :func:`plot_sweep`)."""
    out = []
    keys = list(meta.get("grid_keys") or [])
    for key in keys:
        vals = [p["values"].get(key) for p in meta["points"]]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            continue
        for b in sorted({p["block"] for p in meta["points"]}):
            pts = [p for p in meta["points"] if p["block"] == b]
            ref = next((p for p in pts if p["ref_point"] is None), None)
            if ref is None:
                continue
            same = [p["point"] for p in pts
                    if all(p["values"].get(k) == ref["values"].get(k) for k in keys if k != key)]
            if len({pts_v for pts_v in (p["values"][key] for p in pts
                                        if p["point"] in same)}) < 2:
                continue
            rows = results[results["point"].isin(same)]
            out.append((key, int(ref["players"]), sweep_table(rows, meta["game"], key)))
    return out
