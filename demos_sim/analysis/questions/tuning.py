"""Point-value tuning: one worked example of ``demos-sim tune``.

The suite runs the tuner (:mod:`demos_sim.tuner`) on
``experiments/analyses/tuning_example.toml`` (:data:`TUNES`) with the first rung's bot
(``greedy``): the
one-suit run base (``run_base.0``), ``carre_points`` and ``favourite_suit_bonus`` of
4-player full games, toward seat parity and a Carré share of round wins of 2.5%. Then the
best setting, the runner-up and the default are played again by the stronger rungs' bots
(``heuristic``, ``tuned``, ``apprentice``: :data:`RUNGS`) on the confirmation deals, so
that the robustness analysis can see whether the
improvement over the default survives a stronger bot.

Tables: ``search`` (how the space was searched), ``params`` (ranges, default, best),
``targets``, ``trials`` (every trial: parameters, target values and losses, objective with
its interval, Pareto flag), ``pareto`` (the distinct points on the Pareto front of the
target losses), ``racing`` (every racing round), ``best`` (best, runner-up, default: every
target and the objective with intervals, paired differences best − other), ``importance``
(PED-ANOVA and main-effect shares) and ``rungs`` (the best/runner-up/default at every rung).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.answers import Finding, Statement, Tables, by_rung, num
from demos_sim.analysis.core.formatting import interval
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import error_bars, figure
from demos_sim.analysis.core.protocol import Report, Tune, experiment_path
from demos_sim.tuner.evaluate import percentile_ci, replay
from demos_sim.tuner.spec import load_tune

TITLE = "Point-value tuning: a worked example"
METHOD = (
    "demos-sim tune searches integer rule parameters for targets. Here: run_base's one-suit "
    "entry (4–20), carre_points (10–50, step 2) and favourite_suit_bonus (0–12, step 2) in "
    "4-player full greedy games; objective = seat parity (max − min seat win share) + "
    "|Carré share of round wins − 0.025|, equal weights. optuna's seeded TPE sampler proposes "
    "the trials; every trial plays the same deals (common random numbers), so trials differ "
    "by their rules only. The best 8 distinct points and the default are raced by successive "
    "halving on fresh deals (games doubling, half dropped each round, two finalists). "
    "Intervals are 95% percentile intervals of a bootstrap over batches of games; the "
    "differences best − runner-up and best − default resample the same batches (paired). "
    "Seat parity as max − min of noisy shares is biased upward at small sizes (by about "
    "the spread of the seat estimates); the bias is common to all points on the same deals. "
    "Importance: optuna's PED-ANOVA for the objective, and the main-effect share of the "
    "variance of the distinct evaluated points for the objective and each target (shares "
    "from TPE samples are indicative: the samples are not uniform). The best, runner-up and "
    "default are replayed by the stronger bots (heuristic, tuned, apprentice: rungs table) on "
    "the confirmation deals.")
TUNE_FILE = "tuning_example"
RUNGS = {"greedy": 1.0, "heuristic": 0.5, "tuned": 0.5, "apprentice": 0.5}
# searched and raced at the first rung; a quick look (--games G): G games per trial, the
# race to 8G. The next rungs replay the best, runner-up and default (tables: rungs).
TUNES = [Tune(TUNE_FILE, quick_final=8)]
SHOW = ["best", "pareto", "importance", "rungs", "search"]


def _rung_rows(spec, summary, bot, games, runs, chunk0, store=None) -> list[dict]:
    """The best, runner-up and default played by ``bot`` on the confirmation deals (kept
    in ``store``, so that an analysis killed part way reads them back), on ``runs``'s
    workers and backend."""
    roles = [(r, summary[r]["values"]) for r in ("best", "runner_up", "default")
             if summary[r] is not None]
    sc = replay(spec, roles, games, chunk0, runs.workers, stage=99, backend=runs.backend,
                scheduler=runs.scheduler, store=store)
    rows = []
    names = [t.name for t in spec.targets] + ["objective"]
    for role, v in roles:
        s, b = sc[role], sc["best"]
        for i, m in enumerate(names):
            if m == "objective":
                x, bx, val, bval = s.boot_objective, b.boot_objective, s.objective, b.objective
            else:
                x, bx, val, bval = s.boot_values[:, i], b.boot_values[:, i], s.values[i], \
                    b.values[i]
            lo, hi = percentile_ci(x)
            row = {"bot": bot, "role": role, "setting": json.dumps(v), "measure": m,
                   "value": float(val), "ci_low": lo, "ci_high": hi, "games": s.games}
            if role == "best":
                row.update(diff=np.nan, diff_ci_low=np.nan, diff_ci_high=np.nan)
            else:
                dlo, dhi = percentile_ci(bx - x)
                row.update(diff=float(bval - val), diff_ci_low=dlo, diff_ci_high=dhi)
            rows.append(row)
    return rows


def tables(runs) -> dict[str, pd.DataFrame]:
    """The tuner's tables of the first rung, and the ``rungs`` table: the best, runner-up
    and default replayed by the next rungs on the confirmation deals (follow-up games)."""
    tuned = runs.tune(TUNE_FILE)
    spec, s, folder = tuned.spec, tuned.summary, tuned.folder
    bots = list(RUNGS)
    rung_rows = []
    chunk0 = s["confirmation"]["first_chunk"]
    b0 = tuned.table("best")       # the first rung: the confirmation deals
    for _, r in b0.iterrows():
        rung_rows.append({"bot": bots[0], "role": r["role"],
                          "setting": json.dumps({n: s[r["role"]]["values"][n]
                                                 for n in s["params"]}),
                          **{k: r[k] for k in ("measure", "value", "ci_low", "ci_high", "games",
                                               "diff", "diff_ci_low", "diff_ci_high")}})
    for bot in bots[1:]:
        n = max(1, round(spec.confirm * RUNGS[bot]))
        spec_b = load_tune(experiment_path(TUNE_FILE), bot=bot).with_budget(
            games=spec.games, final_games=spec.final_games)
        rung_rows += _rung_rows(spec_b, s, bot, n, runs, chunk0,
                                store=folder.parent / "confirm")
    return _tables(folder, s, pd.DataFrame(rung_rows))


def _tables(folder: Path, s: dict, rungs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    trials = pd.read_csv(folder / "trials.csv")
    racing = pd.read_csv(folder / "racing.csv")
    best = pd.read_csv(folder / "best.csv")
    imp = pd.read_csv(folder / "importance.csv")
    search = pd.DataFrame([{
        "method": s["search"]["method"], "description": s["search"]["description"],
        "space_size": s["search"]["space_size"], "trials": s["search"]["trials"],
        "distinct_points": s["search"]["distinct_points"],
        "games_per_trial": s["search"]["games_per_trial"],
        "racing_games": ",".join(map(str, s["racing"]["schedule_games"])),
        "final_games": s["racing"]["final_games"], "candidates": s["racing"]["candidates"],
        "bot": next(iter(RUNGS)), "seed": s["seed"], "bootstrap": s["bootstrap"],
        "games_played": s["games_played"], "objective": " + ".join(
            f"{t['weight']:g}×loss({t['name']})" for t in s["targets"])}])
    params = pd.DataFrame([{"parameter": n, "low": p.get("low"), "high": p.get("high"),
                            "step": p.get("step"), "default": p["default"],
                            "best": s["best"]["values"][n]} for n, p in s["params"].items()])
    targets = pd.DataFrame(s["targets"])
    pareto = trials[trials["first"] & trials["pareto"]].drop(columns=["first", "pareto"])
    pareto = pareto.sort_values("objective").reset_index(drop=True)
    return {"search": search, "params": params, "targets": targets, "trials": trials,
            "pareto": pareto, "racing": racing, "best": best, "importance": imp,
            "rungs": rungs}


# --------------------------------------------------------------------------- plots


def _figure(w=6.0, h=4.2, ncols=1):
    """``(fig, [ax, …])``: ``ncols`` panels side by side, ``w × h`` inches in all (panels
    are never added to a figure that already has one: it stayed, an empty 0–1 axes, under
    them)."""
    fig, axes = figure(ncols, 1, w / ncols, h)
    return fig, list(axes[0])


def _params(tables) -> list[str]:
    return list(tables["params"]["parameter"])


def _setting(row, params) -> str:
    return ", ".join(f"{p}={row[p]}" for p in params)


def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    params = _params(tables)
    tn = list(tables["targets"]["name"])
    goals = dict(zip(tables["targets"]["name"], tables["targets"]["goal"]))
    trials = tables["trials"]
    pts = trials[trials["first"]]
    best = tables["best"]
    out = []

    # 1. trade-off: target 1 vs target 2 of the evaluated points, Pareto front marked
    fig, (ax,) = _figure(8.0, 4.2)
    if len(tn) >= 2:
        x, y = f"{tn[1]}_value", f"{tn[0]}_value"
        ax.scatter(pts[x], pts[y], s=14, c=pts["objective"], cmap="viridis_r", alpha=0.8,
                   label="evaluated points (colour: objective)")
        fr = pts[pts["pareto"]].sort_values(x)
        ax.plot(fr[x], fr[y], "o-", color="crimson", mfc="none", ms=8, lw=1,
                label="Pareto front (target losses)")
        for role, mk, col in (("default", "s", "black"), ("best", "*", "orange")):
            b = best[best["role"] == role]
            if len(b):
                bx = b[b["measure"] == tn[1]].iloc[0]
                by = b[b["measure"] == tn[0]].iloc[0]
                ax.errorbar(bx["value"], by["value"],
                            xerr=[[bx["value"] - bx["ci_low"]], [bx["ci_high"] - bx["value"]]],
                            yerr=[[by["value"] - by["ci_low"]], [by["ci_high"] - by["value"]]],
                            fmt=mk, color=col, ms=11 if mk == "*" else 7, capsize=3,
                            label=f"{role} (fresh deals, 95% CI)")
        if goals.get(tn[1]) == goals.get(tn[1]) and goals.get(tn[1]) is not None:
            ax.axvline(goals[tn[1]], color="grey", ls=":", lw=1, label=f"goal {tn[1]}")
        ax.set_xlabel(tn[1])
        ax.set_ylabel(tn[0])
    else:
        ax.plot(trials["trial"], trials["objective"], ".", label="trial")
        ax.set_xlabel("trial")
        ax.set_ylabel("objective")
    ax.set_title("Trade-off between the targets (search stage)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.savefig(folder / "tuning_tradeoff.png")
    out.append("tuning_tradeoff.png")

    # 2. importance
    imp = tables["importance"]
    fig, (ax,) = _figure()
    groups = [("ped_anova", "objective")] + [("main_effect", m) for m in ["objective"] + tn]
    w = 0.8 / len(groups)
    for i, (meth, meas) in enumerate(groups):
        g = imp[(imp["method"] == meth) & (imp["measure"] == meas)].set_index("parameter")
        vals = [float(g["importance"].get(p, np.nan)) for p in params]
        ax.barh(np.arange(len(params)) + i * w, vals, height=w,
                label=f"{meas} ({'PED-ANOVA' if meth == 'ped_anova' else 'main effect'})")
    ax.set_yticks(np.arange(len(params)) + 0.4 - w / 2, params)
    ax.set_xlabel("importance (share)")
    ax.set_xlim(0, 1)
    ax.set_title("Which parameters matter")
    ax.legend(fontsize=7)
    fig.savefig(folder / "tuning_importance.png")
    out.append("tuning_importance.png")

    # 3. main effects: mean objective by parameter value
    fig, axes = _figure(4.0 * len(params), 3.4, ncols=len(params))
    for i, (p, ax) in enumerate(zip(params, axes)):
        g = pts.groupby(p)["objective"]
        m, sd, n = g.mean(), g.std(), g.count()
        half = 1.96 * sd / np.sqrt(n)
        ax.errorbar(m.index, m.values, yerr=half.fillna(0).values, fmt="o-", capsize=2, ms=3)
        ax.set_xlabel(p)
        if i == 0:
            ax.set_ylabel("mean objective of evaluated points (±1.96 se)")
    fig.suptitle("Main effects (search stage)")
    fig.savefig(folder / "tuning_main_effects.png")
    out.append("tuning_main_effects.png")

    # 4. racing: objective with CI by round
    rc = tables["racing"]
    fig, (ax,) = _figure(9.0, 4.2)
    rc = rc.assign(setting=[_setting(r, params) + (" (default)" if r["is_default"] else "")
                            for _, r in rc.iterrows()])
    labels = list(dict.fromkeys(rc.sort_values(["round", "objective"])["setting"]))
    for r, g in rc.groupby("round"):
        ypos = [labels.index(s) + 0.12 * r for s in g["setting"]]
        # a bootstrap percentile interval of a nonlinear objective need not contain the
        # point estimate: error_bars clips the lengths at 0
        ax.errorbar(g["objective"], ypos,
                    xerr=error_bars(g["objective"], g["objective_ci_low"],
                                    g["objective_ci_high"]),
                    fmt="o", capsize=2, ms=4, label=f"round {r}: {int(g['games'].iloc[0]):,} games")
    ax.set_yticks(range(len(labels)), labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("objective (95% CI), fresh deals")
    ax.set_title("Racing (successive halving)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.savefig(folder / "tuning_racing.png")
    out.append("tuning_racing.png")
    return out


# --------------------------------------------------------------------------- findings


def _iv(lo, hi, f="{:.4f}") -> str:
    return interval(lo, hi, f)


def findings(tables: dict) -> tuple[list[str], list[str]]:
    params = _params(tables)
    tn = list(tables["targets"]["name"])
    se = tables["search"].iloc[0]
    best = tables["best"]
    found, flags = [], []
    found.append(f"Search: {se['description']} ({se['distinct_points']} distinct points), "
                 f"{int(se['games_per_trial']):,} games per trial on the same deals; racing on "
                 f"fresh deals with {se['racing_games']} games; objective {se['objective']}.")

    def role_text(role):
        b = best[best["role"] == role]
        if not len(b):
            return None, None
        r0 = b.iloc[0]
        figs = "; ".join(f"{m['measure']} {m['value']:.4f} {_iv(m['ci_low'], m['ci_high'])}"
                         for _, m in b.iterrows())
        return _setting(r0, params), figs

    bs, bf = role_text("best")
    found.append(f"Best setting ({int(best[best['role'] == 'best']['games'].iloc[0]):,} games): "
                 f"{bs}: {bf}.")
    for role in ("default", "runner_up"):
        s, _ = role_text(role)
        if s is None:
            continue
        b = best[(best["role"] == role)]
        o = b[b["measure"] == "objective"].iloc[0]
        parts = [f"{m['measure']} {m['diff']:+.4f} {_iv(m['diff_ci_low'], m['diff_ci_high'], '{:+.4f}')}"
                 for _, m in b[b["measure"] != "objective"].iterrows()]
        found.append(f"Best − {role.replace('_', '-')} ({s}): objective {o['diff']:+.4f} "
                     f"{_iv(o['diff_ci_low'], o['diff_ci_high'], '{:+.4f}')} (best lower in "
                     f"{o['p_best_better']:.0%} of paired resamples); " + "; ".join(parts) + ".")
        if role == "runner_up" and not o["diff_ci_high"] < 0:
            flags.append(f"The best and the runner-up ({s}) are not separated: the paired "
                         f"interval of the objective difference "
                         f"{_iv(o['diff_ci_low'], o['diff_ci_high'], '{:+.4f}')} contains 0 — "
                         "either is as good at this sample size.")
        if role == "default" and not o["diff_ci_high"] < 0:
            flags.append("The best setting does not beat the default at 95% "
                         f"({_iv(o['diff_ci_low'], o['diff_ci_high'], '{:+.4f}')}).")
    imp = tables["importance"]
    me = imp[(imp["method"] == "main_effect")]
    for meas in ["objective"] + tn:
        g = me[me["measure"] == meas].sort_values("importance", ascending=False)
        if len(g) and g["importance"].notna().any():
            top = g.iloc[0]
            rest = ", ".join(f"{r.parameter} {r.importance:.2f}" for r in g.iloc[1:].itertuples())
            found.append(f"Most important for {meas}: {top['parameter']} (main-effect share "
                         f"{top['importance']:.2f} of the variance over the evaluated points; "
                         f"{rest}).")
    ped = imp[(imp["method"] == "ped_anova")].sort_values("importance", ascending=False)
    if ped["importance"].notna().any():
        found.append("PED-ANOVA importance for the objective: " + ", ".join(
            f"{r.parameter} {r.importance:.2f}" for r in ped.itertuples()) + ".")
    pr = tables["params"]
    for r in pr.itertuples():
        if r.low == r.low and r.low is not None and r.best in (r.low, r.high) and r.low != r.high:
            flags.append(f"The best {r.parameter} ({r.best}) is at the edge of its range "
                         f"[{int(r.low)}, {int(r.high)}]: widen the range to check beyond it.")
    ru = tables["rungs"]
    for bot, g in ru.groupby("bot", sort=False):
        o = g[(g["role"] == "default") & (g["measure"] == "objective")]
        if len(o):
            o = o.iloc[0]
            found.append(f"With {bot} bots ({int(o['games']):,} games on the confirmation "
                         "deals): "
                         f"best − default objective {o['diff']:+.4f} "
                         f"{_iv(o['diff_ci_low'], o['diff_ci_high'], '{:+.4f}')}.")
    signs = {}
    for bot, g in ru[(ru["role"] == "default") & (ru["measure"] == "objective")].groupby("bot"):
        r = g.iloc[0]
        signs[bot] = 1 if r["diff_ci_low"] > 0 else -1 if r["diff_ci_high"] < 0 else 0
    if 1 in signs.values() and -1 in signs.values():
        flags.append("The improvement over the default flips sign between bots: "
                     + ", ".join(f"{b} {s:+d}" for b, s in signs.items()) + ".")
    return found, flags


def key_figures(tables: dict) -> pd.DataFrame:
    """Best − default (objective and every target) at every rung."""
    ru = tables["rungs"]
    rows = []
    for r in ru[ru["role"] == "default"].itertuples():
        rows.append({"figure": f"tuning: best − default {r.measure}", "bot": r.bot,
                     "mean": r.diff, "ci_low": r.diff_ci_low, "ci_high": r.diff_ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
def _answer(t: Tables) -> Finding:
    f = Finding("tuning", "Point values")
    name = "robustness/key_figures.csv"
    kf = t.get(name, "analysis", "figure", "bot", "mean", "ci_low", "ci_high")
    tb = t.get("tuning/best.csv", "role", "measure")
    fig = "tuning: best − default objective"
    if tb is not None and kf is not None:
        rows = kf[(kf["analysis"] == "tuning") & (kf["figure"] == fig)]
        cols = list(tb.columns)
        best, default = tb[tb["role"] == "best"], tb[tb["role"] == "default"]
        if len(rows) and len(best) and len(default):
            params = cols[cols.index("role") + 1:cols.index("measure")]
            setting = ", ".join(f"{p} {best[p].iloc[0]}" for p in params)
            was = ", ".join(f"{default[p].iloc[0]}" for p in params)
            helps = [b for b in t.order(rows["bot"])
                     if float(rows[rows["bot"] == b]["ci_high"].iloc[0]) < 0]
            lab = t.label("tuning", fig, f)
            f.statements.append(Statement(
                f"**The tuner's point values ({setting}; default {was}) are shown to help "
                f"at {', '.join(helps) or 'no rung'}**: objective (seat spread and Carré "
                "share) best − default " + by_rung(t, rows, lambda x: num(
                    x["mean"], x["ci_low"], x["ci_high"]), "", n="_")
                + (f"; {lab}" if lab else "") + f" (`{t.source('tuning/best.csv')}`)",
                t.source(name)))
    return f


REPORT = Report(question="Which point values bring the seats closer to parity?",
                key_plot="tuning_tradeoff.png", answer=_answer)
