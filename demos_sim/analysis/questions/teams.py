"""Team-mode fairness (D9): is each side's chance to win the same?

**Fair** here means every *player* has the same chance of being on the winning side. A
team's members all win when it wins, so this is the same as equal side win shares: in
2v2 and 2v3 team A and team B at the same share, in 2v2+1 teams A, B and the
Independent at the same share — each 1/3 of the won games (not the Independent at 1/5,
which would be parity of the *per-seat* share; that share, side share / side size, is
reported too). Games without a winner count for nobody; their share is reported apart.

Whether a default seating is *fair* is decided against the designer's margin
(``fair_margin`` in the experiment file, default ±1 pp of share of won games) by an
interval-based TOST on the share of won games, under both definitions — per side (1/K)
and per seat (1/n) — in table ``fairness`` (:mod:`demos_sim.analysis.core.fairness`).

For a game with side shares ``x_s`` (M1: a shared win counts 1/k) the *gap* of side
``s`` is ``g_s = x_s − mean_k x_k``, a per-game linear quantity whose mean is the side's
distance from parity. Since ``Σ_k x_k = 1 − u`` (``u``: no winner or truncated, a 0/1
value disjoint from every win), ``Var g_s = Var x_s + Var u / K² − 2 μ_s μ_u / K``
exactly, so its 95% normal interval comes from the runner's per-side sums. The mode's
**unfairness** ``U`` is the largest |gap| over sides (for two sides ``|x_A − x_B| / 2``);
its interval is the interval of that side's gap (the choice of the side is not
adjusted for).

The options searched (exhaustively, every one on the same deals): every distinct seating
string of the labels (2v2: AABB; 2v3: AABBB; 2v2+1: AABBI), and in 2v3 ``team_vetoes``
0..4 at the default seating. Screening tests every option's gaps against 0 (Holm within
mode and bot). The best option (smallest ``U``) and the runner-up are then replayed on
**fresh deals** (another seed, so the winner's curse of the screen does not bias them),
with the default, and their paired difference of ``U`` (each option's worst side from the
screen, with its sign, per game) gives the interval of "best − runner-up" and
"best − default". The same question is put to the generic tuner too (:data:`TUNES`, run by
the suite; table ``tuner``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.fairness import fairness, mode_verdict
from demos_sim.analysis.core.formatting import pp
from demos_sim.analysis.core.key_figures import COLUMNS, sign_flips
from demos_sim.analysis.core.plotting import error_bars, figure
from demos_sim.analysis.core.protocol import DEMOS_RUNGS, FAST_RUNGS, Tune, experiment_path
from demos_sim.analysis.core.stats import Z95, adjust, p_value, sample_mean_ci
from demos_sim.game import SHARE_SCALE, get_game
from demos_sim.runner.experiment import load_experiment
from demos_sim.sim_common import chunks_of, cut, parts_per_job

TITLE = "Team-mode fairness: sides by seating, and the one change that evens them"
METHOD = (
    "Every seat plays the same bot (greedy; heuristic and tuned at a quarter "
    "of the games; ismcts@64 at 1/256: the ladder's rungs, weaker first). Fair = "
    "every player has the same chance to be on the winning side = equal side win shares "
    "(M1; 2v2+1: teams A, B and the Independent at 1/3 of the won games each; the "
    "per-seat share, side share / side size, is shown too). A side's gap is its share "
    "minus the mean of the side shares, a per-game linear quantity with an exact 95% "
    "normal interval; a mode's unfairness U is its largest |gap| (two sides: |A − B| / 2). "
    "Options: every distinct seating of the labels (6 in 2v2, 10 in 2v3, 30 in 2v2+1) and "
    "in 2v3 team_vetoes 0–4 at ABABB, all on the same deals. The gap tests of a mode's "
    "screen are Holm-adjusted (family-wise 5%, within mode and bot). The best option and "
    "the runner-up are replayed with the default on fresh deals (a second seed, so the "
    "selection does not bias them) and compared by the paired per-game difference of their "
    "worst side's signed gap (95% interval). The same question is also put to the "
    "generic tuner (demos-sim tune): one tune file per single change (a seating, "
    "or team_vetoes 0-4 in 2v3), exhaustive, side parity = max - min side win share, "
    "raced on fresh deals, 95% paired bootstrap intervals (table tuner). Table fairness "
    "tests the default seatings against the designer's margin (fair_margin in the "
    "experiment file, default ±1 pp of share of won games) with an interval-based TOST: "
    "fair when the 90% interval of the difference lies inside ±margin, unfair when it lies "
    "wholly beyond it, not shown fair otherwise; per side (each side's share of won games "
    "against 1/K, K sides) and per seat (each seat's share, side share / side size, "
    "against 1/n, n players), delta-method intervals of the share of won games.")
EXPERIMENTS = ["teams_2v2", "teams_2v3", "teams_2v3_vetoes", "teams_2v2p1"]
RUNGS = DEMOS_RUNGS
# the search rung screens 2v2's seatings only (the modes' default seatings are in
# game_shape at every rung); 2v3's and 2v2+1's screens of 10 and 30 options at the fast rungs
EXPERIMENT_RUNGS = {s: FAST_RUNGS for s in ("teams_2v3", "teams_2v3_vetoes", "teams_2v2p1")}
# each mode's files: its seating screen, then (2v3) its team-vetoes screen
MODE_FILES = {"2v2": ["teams_2v2"], "2v3": ["teams_2v3", "teams_2v3_vetoes"],
              "2v2+1": ["teams_2v2p1"]}


def screened(bot: str, mode: str) -> bool:
    """Does the rung ``bot`` screen the options of ``mode`` (:data:`EXPERIMENT_RUNGS`)?"""
    return all(bot in EXPERIMENT_RUNGS.get(f, RUNGS) for f in MODE_FILES[mode])


def _not_screened(ax, mode: str, bot: str) -> None:
    ax.set_axis_off()
    ax.set_title(f"{mode} — {bot}")
    ax.text(0.5, 0.5, "not screened at this rung\n(its default seating: game_shape)",
            ha="center", va="center", transform=ax.transAxes, fontsize=8, color="#666")
SHOW = ["fairness", "confirm", "tuner", "options", "decided"]   # summary: summary.csv (wide)
# the same question through the generic tuner: one file per single rule change, run by
# the suite at the first rung (a quick look: --games per trial, the race to 4x)
TUNE_FILES = {"teams_tune_2v2_seating": "2v2", "teams_tune_2v3_seating": "2v3",
              "teams_tune_2v3_team_vetoes": "2v3", "teams_tune_2v2p1_seating": "2v2+1"}
TUNES = [Tune(f, quick_final=4) for f in TUNE_FILES]
MODES = {"teams_2v2": "2v2", "teams_2v3": "2v3", "teams_2v3_vetoes": "2v3",
         "teams_2v2p1": "2v2+1"}
DEFAULT_SEATING = {"2v2": "ABAB", "2v3": "ABABB", "2v2+1": "ABABI"}
DEFAULT_VETOES = 2
CONFIRM_SEED_OFFSET = 1_000_003
ALPHA = 0.05


# ------------------------------------------------------------------------- statistics
def gap_estimates(shares: np.ndarray, sds: np.ndarray, u: float, n: int):
    """Side gaps from parity with 95% intervals, from per-side marginals.

    ``shares``/``sds``: per-side mean and sample sd of the per-game share ``x_s``; ``u``:
    share of games with no winner (or truncated); ``n``: games. Returns ``(gap, half)``
    arrays: ``gap_s = x̄_s − mean_k x̄_k`` and the half-width of its 95% interval,
    ``z·sqrt(Var x_s + Var u/K² − 2 μ_s μ_u/K)/√n`` (exact for games whose side shares
    sum to 1 − u).
    """
    shares = np.asarray(shares, float)
    sds = np.asarray(sds, float)
    k = len(shares)
    gap = shares - shares.mean()
    c = n / max(n - 1, 1)                   # sample (n − 1) moments, like the sds
    var_u = u * (1 - u) * c
    var = sds ** 2 + var_u / k ** 2 - 2 * c * shares * u / k
    half = Z95 * np.sqrt(np.clip(var, 0, None) / n)
    return gap, half


def per_game_gap(x: np.ndarray) -> np.ndarray:
    """Per-game gaps ``x_s − mean_k x_k`` (games × sides), any scale."""
    x = np.asarray(x, float)
    return x - x.mean(axis=1, keepdims=True)


# ------------------------------------------------------------------------------ tables
def _options(runs) -> pd.DataFrame:
    """One row per (bot, mode, option, side) with the side's share and gap."""
    rows = []
    for (stem, bot), run in runs.items.items():
        if stem not in MODES:
            continue
        mode = MODES[stem]
        df = run.results
        ref_rows = df[df["ref_point"].isna()]
        for point, g in df.groupby("point", sort=True):
            r0 = g.iloc[0]
            if "seating" in g:
                seating, vetoes, change = r0["seating"], DEFAULT_VETOES, "seating"
            else:
                seating, vetoes, change = DEFAULT_SEATING[mode], int(r0["team_vetoes"]), \
                    "team_vetoes"
                if vetoes == DEFAULT_VETOES:     # the same games as the default seating
                    continue
            is_default = seating == DEFAULT_SEATING[mode] and vetoes == DEFAULT_VETOES
            option = ("default" if is_default else
                      f"seating={seating}" if change == "seating" else f"team_vetoes={vetoes}")
            w = g[g["metric"] == "win_share"].reset_index(drop=True)
            n = int(w["games"].iloc[0])
            nw = g[g["metric"] == "no_winner"]["mean"].iloc[0]
            tr = g[g["metric"] == "truncated"]["mean"].iloc[0]
            u = nw + tr
            gap, half = gap_estimates(w["mean"], w["sd"], u, n)
            ref_w = ref_rows[ref_rows["metric"] == "win_share"].reset_index(drop=True)
            for j, r in w.iterrows():
                size = len(str(r["seats"]).split(","))
                # the runner pairs side columns by position; only where the label at this
                # column is the reference's is the difference the same team's
                same = (j < len(ref_w) and ref_w.loc[j, "side"] == r["side"]
                        and not pd.isna(r["diff"]))
                rows.append({
                    "bot": bot, "mode": mode, "experiment": stem, "option": option,
                    "change": "none" if is_default else change, "seating": seating,
                    "team_vetoes": vetoes, "side": r["side"], "seats": r["seats"],
                    "side_size": size, "games": n, "share": r["mean"],
                    "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                    "per_seat": r["mean"] / size, "per_seat_ci_low": r["ci_low"] / size,
                    "per_seat_ci_high": r["ci_high"] / size,
                    "parity": float(w["mean"].mean()), "gap": gap[j],
                    "gap_ci_low": gap[j] - half[j], "gap_ci_high": gap[j] + half[j],
                    "gap_half_width": half[j], "no_winner": nw, "truncated": tr,
                    "sd": r["sd"],
                    "diff_vs_default": r["diff"] if same else np.nan,
                    "diff_ci_low": r["diff_ci_low"] if same else np.nan,
                    "diff_ci_high": r["diff_ci_high"] if same else np.nan})
    sides = pd.DataFrame(rows)
    sides["p_gap"] = [p_value(g, h) for g, h in zip(sides["gap"], sides["gap_half_width"])]
    sides["p_gap_holm"] = np.nan
    for idx in sides.groupby(["bot", "mode"]).groups.values():
        sub = sides.loc[idx]
        # two sides: g_A = −g_B, one test per option (the first side)
        test = sub[~((sub["mode"] != "2v2+1") & sub.duplicated(["option"]))]
        adj = adjust(test["p_gap"].to_numpy(), "holm")
        sides.loc[test.index, "p_gap_holm"] = adj
        if (sub["mode"] != "2v2+1").all():
            first = dict(zip(test["option"], adj))
            sides.loc[idx, "p_gap_holm"] = [first[o] for o in sub["option"]]
    return sides


def _option_summary(sides: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (bot, mode, option), g in sides.groupby(["bot", "mode", "option"], sort=False):
        w = g.loc[g["gap"].abs().idxmax()]
        rows.append({"bot": bot, "mode": mode, "option": option, "change": w["change"],
                     "seating": w["seating"], "team_vetoes": w["team_vetoes"],
                     "games": int(w["games"]), "unfairness": abs(w["gap"]),
                     "u_ci_low": max(0.0, abs(w["gap"]) - w["gap_half_width"]),
                     "u_ci_high": abs(w["gap"]) + w["gap_half_width"],
                     "worst_side": w["side"], "worst_gap": w["gap"],
                     "no_winner": w["no_winner"],
                     "shares": " ".join(f"{s}={v:.3f}" for s, v in zip(g["side"], g["share"])),
                     "p_holm": float(g["p_gap_holm"].min()),
                     "indistinguishable_from_fair": bool(g["p_gap_holm"].min() >= ALPHA)})
    opts = pd.DataFrame(rows)
    opts["mirror_class"] = [mirror_class(m, s) for m, s in zip(opts["mode"], opts["option"])]
    # rank the distinct games: a seating and its A<->B mirror (2v2, 2v2+1) share a rank; a
    # class's representative is its fairest option, the first by name among equals (the
    # mirror of a seating plays the same games: a stable order, whatever the other rows)
    first = (opts.sort_values(["unfairness", "option"], kind="stable")
             .drop_duplicates(["bot", "mode", "mirror_class"]))
    first = first.assign(rank=first.groupby(["bot", "mode"])["unfairness"]
                         .rank(method="first").astype(int))
    opts = opts.merge(first[["bot", "mode", "mirror_class", "rank"]],
                      on=["bot", "mode", "mirror_class"])
    reps = set(zip(first["bot"], first["mode"], first["option"]))
    opts["representative"] = [k in reps for k in zip(opts["bot"], opts["mode"], opts["option"])]
    return opts.sort_values(["bot", "mode", "rank", "option"]).reset_index(drop=True)


SYMMETRIC = ("2v2", "2v2+1")     # teams A and B have the same rules: A<->B is a relabelling


def mirror_class(mode: str, option: str) -> str:
    """The option's class of identical games: a seating and its A<->B mirror (2v2,
    2v2+1) are the same game with the labels swapped."""
    if not option.startswith("seating=") and option != "default":
        return option
    seating = DEFAULT_SEATING[mode] if option == "default" else option.split("=", 1)[1]
    if mode in SYMMETRIC:
        mirror = seating.translate(str.maketrans("AB", "BA"))
        if DEFAULT_SEATING[mode] in (seating, mirror):
            return "default"
        return min(seating, mirror)
    return "default" if seating == DEFAULT_SEATING[mode] else seating


def _bins(runs, metric: str) -> pd.DataFrame:
    rows = []
    for (stem, bot), run in runs.items.items():
        if stem not in MODES or stem == "teams_2v3_vetoes":
            continue
        df = run.metric(metric)
        for r in df.itertuples():
            rows.append({"bot": bot, "mode": MODES[stem], "seating": r.seating,
                         "bin": r.side, "games": int(r.games), "share": r.mean,
                         "ci_low": r.ci_low, "ci_high": r.ci_high})
    return pd.DataFrame(rows, columns=["bot", "mode", "seating", "bin", "games", "share",
                                       "ci_low", "ci_high"])


def tables(runs) -> dict[str, pd.DataFrame]:
    """The screen (sides, options, decided games), its summary, the fresh-deal check of
    the best options (follow-up games: ``runs.workers``) and the tuner's answer."""
    sides = _options(runs)
    opts = _option_summary(sides)
    decided = _bins(runs, "decided")
    decided_all = decided
    decided = decided[(decided["seating"] == decided["mode"].map(DEFAULT_SEATING))
                      & (decided["share"] > 0)].reset_index(drop=True)
    ind = _bins(runs, "independent_condition")
    ind = ind[ind["mode"] == "2v2+1"].reset_index(drop=True)
    conf = confirm(runs, opts, runs.workers)
    fair = pd.concat([fairness(g, margin(stem, bot)) for (stem, bot), g
                      in sides[sides["experiment"] != "teams_2v3_vetoes"]
                      .groupby(["experiment", "bot"], sort=False)], ignore_index=True)
    return {"fairness": fair, "sides": sides, "options": opts, "decided": decided,
            "decided_by_seating": decided_all, "independent_condition": ind,
            "summary": _summary(opts, conf),
            "confirm": conf, "tuner": tuner_table(runs)}


def margin(stem: str, bot: str) -> float:
    """The designer's margin of "fair" (``fair_margin`` in the experiment file)."""
    return load_experiment(experiment_path(stem), bot=bot).fair_margin


# ------------------------------------------------------------------ fresh-deal check
def _confirm_piece(config, spec: list, seed: int, chunk: int, count: int, first: int):
    return get_game("demos").play(config, list(spec), (), seed, chunk, count,
                                  metrics=("win_share",), first=first)["win_share"]


def confirm(runs, opts: pd.DataFrame, workers: int = 1) -> pd.DataFrame:
    """Replay default, best and runner-up of every (bot, mode) on fresh deals, paired."""
    rows = []
    for (bot, mode), g in opts.groupby(["bot", "mode"], sort=False):
        b, r2, d = _picks(g)
        picks = {"best": b, "runner-up": r2, "default": d}
        configs, specs, seed = [], [], None
        for role, r in picks.items():
            stem = MODE_FILES[mode][r["change"] == "team_vetoes"]
            exp = load_experiment(experiment_path(stem), bot=bot)
            seed = exp.seed + CONFIRM_SEED_OFFSET
            pt = next(p for p in exp.points
                      if (p.values.get("seating", DEFAULT_SEATING[mode]) == r["seating"]
                          and p.values.get("team_vetoes", DEFAULT_VETOES) == r["team_vetoes"]))
            configs.append(pt.config)
            specs.append(pt.policies)
        n = int(g["games"].iloc[0])
        # one job per (setting, chunk) — per piece of a chunk when they are too few to
        # keep the workers busy (the search rung's few hundred games)
        chunks = chunks_of(n)
        n_parts = parts_per_job(len(configs) * len(chunks), workers)
        jobs = [(i, c, f, m) for i in range(len(configs)) for c, k in chunks
                for f, m in cut(k, n_parts)]
        if workers > 1:
            from joblib import Parallel, delayed

            parts = Parallel(n_jobs=workers)(
                delayed(_confirm_piece)(configs[i], specs[i], seed, c, m, f)
                for i, c, f, m in jobs)
        else:
            parts = [_confirm_piece(configs[i], specs[i], seed, c, m, f) for i, c, f, m in jobs]
        h = {}
        for i, (role, r) in enumerate(picks.items()):
            x = np.concatenate([p for (j, _, _, _), p in zip(jobs, parts) if j == i])
            cfg = configs[i]
            labels = cfg.side_labels()
            j = labels.index(r["worst_side"])
            sign = 1.0 if r["worst_gap"] >= 0 else -1.0
            h[role] = sign * per_game_gap(x / SHARE_SCALE)[:, j]
        for role, r in picks.items():
            e = sample_mean_ci(h[role])
            rows.append({"bot": bot, "mode": mode, "role": role, "option": r["option"],
                         "seed": seed, "games": n, "screen_unfairness": r["unfairness"],
                         "unfairness": e[0], "ci_low": e[1], "ci_high": e[2],
                         "vs": "", "diff": np.nan, "diff_ci_low": np.nan,
                         "diff_ci_high": np.nan, "distinguishable": None})
        for a, b in (("best", "runner-up"), ("best", "default")):
            if picks[a]["option"] == picks[b]["option"]:
                continue
            e = sample_mean_ci(h[a] - h[b])
            rows.append({"bot": bot, "mode": mode, "role": f"{a} - {b}",
                         "option": picks[a]["option"], "seed": seed, "games": n,
                         "screen_unfairness": picks[a]["unfairness"] - picks[b]["unfairness"],
                         "unfairness": np.nan, "ci_low": np.nan, "ci_high": np.nan,
                         "vs": picks[b]["option"], "diff": e[0], "diff_ci_low": e[1],
                         "diff_ci_high": e[2], "distinguishable": bool(e[1] > 0 or e[2] < 0)})
    return pd.DataFrame(rows)


def _picks(g: pd.DataFrame):
    """(best, runner-up, default) rows of one mode's options: one row per distinct game
    (the default seating stands for its mirror class)."""
    d = g[g["option"] == "default"].iloc[0]
    reps = [d] + [r for _, r in g.iterrows()
                  if r["representative"] and r["mirror_class"] != "default"]
    reps = sorted(reps, key=lambda r: r["rank"])
    return reps[0], (reps[1] if len(reps) > 1 else reps[0]), d


def _summary(opts: pd.DataFrame, conf: pd.DataFrame | None) -> pd.DataFrame:
    rows = []
    for (bot, mode), g in opts.groupby(["bot", "mode"], sort=False):
        b, r2, d = _picks(g)
        row = {"bot": bot, "mode": mode, "games": int(d["games"]),
               "default_shares": d["shares"], "default_no_winner": d["no_winner"],
               "default_unfairness": d["unfairness"], "default_u_ci_low": d["u_ci_low"],
               "default_u_ci_high": d["u_ci_high"], "default_worst_side": d["worst_side"],
               "default_fair_holm": d["indistinguishable_from_fair"],
               "options": len(g), "distinct_games": int(g["mirror_class"].nunique()),
               "options_fair_holm": int(g["indistinguishable_from_fair"].sum()),
               "best": b["option"], "best_unfairness": b["unfairness"],
               "best_u_ci_low": b["u_ci_low"], "best_u_ci_high": b["u_ci_high"],
               "runner_up": r2["option"], "runner_up_unfairness": r2["unfairness"]}
        if conf is not None and len(conf):
            c = conf[(conf["bot"] == bot) & (conf["mode"] == mode)]
            br = c[c["role"] == "best"]
            vs = c[c["role"] == "best - runner-up"]
            vd = c[c["role"] == "best - default"]
            if len(br):
                row.update(fresh_best_unfairness=br["unfairness"].iloc[0],
                           fresh_best_ci_low=br["ci_low"].iloc[0],
                           fresh_best_ci_high=br["ci_high"].iloc[0])
            if len(vs):
                row.update(best_minus_runner_up=vs["diff"].iloc[0],
                           bmr_ci_low=vs["diff_ci_low"].iloc[0],
                           bmr_ci_high=vs["diff_ci_high"].iloc[0],
                           distinguishable=vs["distinguishable"].iloc[0])
            if len(vd):
                row.update(best_minus_default=vd["diff"].iloc[0],
                           bmd_ci_low=vd["diff_ci_low"].iloc[0],
                           bmd_ci_high=vd["diff_ci_high"].iloc[0])
        rows.append(row)
    return pd.DataFrame(rows)


def tuner_table(runs) -> pd.DataFrame:
    """The closest-to-fair single change found by ``demos-sim tune`` (exhaustive over each
    file's one parameter, racing on fresh deals), first rung only: side parity = max − min
    side win share, its 95% bootstrap interval, and the paired differences from the
    default setting and the runner-up."""
    rows = []
    for stem, mode in TUNE_FILES.items():
        t = runs.tune(stem)
        s, bot = t.summary, t.bot
        (param,) = s["params"]
        row = {"mode": mode, "parameter": param, "bot": bot,
               "search": s["search"]["description"], "default": s["default"]["values"][param],
               "default_parity": s["default"]["side_parity"]["value"],
               "best": s["best"]["values"][param],
               "best_parity": s["best"]["side_parity"]["value"],
               "best_ci_low": s["best"]["side_parity"]["ci95"][0],
               "best_ci_high": s["best"]["side_parity"]["ci95"][1],
               "games": s["confirmation"]["games"]}
        for key, name in (("best_minus_default", "vs_default"),
                          ("best_minus_runner_up", "vs_runner_up")):
            d = s.get(key)
            if d is not None:
                row.update({f"{name}_diff": d["objective_diff"],
                            f"{name}_ci_low": d["ci95"][0], f"{name}_ci_high": d["ci95"][1]})
        ru = s.get("runner_up")
        row["runner_up"] = None if ru is None else ru["values"][param]
        rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------- plots
def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    names = []
    sides, opts = tables["sides"], tables["options"]
    bots = list(dict.fromkeys(sides["bot"]))
    modes = [m for m in ("2v2", "2v3", "2v2+1") if m in set(sides["mode"])]
    colours = {"A": "#3a6fb0", "B": "#d9822b", "I": "#4a9d5b"}
    if len(sides):
        fig, axes = figure(len(modes), len(bots), 6.0, 3.8, min_width=5.5)
        for bi, bot in enumerate(bots):
            for ax, mode in zip(axes[bi], modes):
                g = sides[(sides["bot"] == bot) & (sides["mode"] == mode)]
                if g.empty:
                    _not_screened(ax, mode, bot)
                    continue
                order = list(dict.fromkeys(g["option"]))
                labels = ["ABAB.." if o == "default" else o.split("=")[1] for o in order]
                labels = [f"{DEFAULT_SEATING[mode]}*" if o == "default" else
                          (f"tv={o.split('=')[1]}" if o.startswith("team_vetoes") else lab)
                          for o, lab in zip(order, labels)]
                x = np.arange(len(order))
                side_list = sorted(set(g["side"]))
                wdt = 0.8 / len(side_list)
                for k, s in enumerate(side_list):
                    h = g[g["side"] == s].set_index("option").reindex(order)
                    ax.bar(x - 0.4 + wdt * (k + 0.5), h["share"], wdt, color=colours.get(s),
                           label=f"side {s}",
                           yerr=error_bars(h["share"], h["ci_low"], h["ci_high"]), capsize=1.5)
                par = g.drop_duplicates("option").set_index("option").reindex(order)
                ax.scatter(x, par["parity"], marker="_", s=160, color="k", zorder=3,
                           label="parity")
                ax.set_xticks(x, labels, rotation=90, fontsize=6)
                ax.set_ylabel("win share (95% CI)")
                ax.set_title(f"{mode} — {bot}")
                ax.legend(fontsize=6)
        fig.savefig(folder / "sides.png")
        names.append("sides.png")

        fig, axes = figure(len(modes), len(bots), 6.0, 3.8, min_width=5.5)
        for bi, bot in enumerate(bots):
            for ax, mode in zip(axes[bi], modes):
                g = opts[(opts["bot"] == bot) & (opts["mode"] == mode)].sort_values("rank")
                if g.empty:
                    _not_screened(ax, mode, bot)
                    continue
                x = np.arange(len(g))
                col = ["#c44" if o == "default" else "#3a6fb0" if r == 1 else "#999"
                       for o, r in zip(g["option"], g["rank"])]
                ax.bar(x, g["unfairness"], color=col, capsize=1.5,
                       yerr=error_bars(g["unfairness"], g["u_ci_low"], g["u_ci_high"]))
                ax.set_xticks(x, [o.replace("seating=", "").replace("team_vetoes=", "tv=")
                                  for o in g["option"]], rotation=90, fontsize=6)
                ax.set_ylabel("unfairness U = max |gap| (95% CI)")
                ax.set_title(f"{mode} options, best first (red: default) — {bot}")
        fig.savefig(folder / "unfairness.png")
        names.append("unfairness.png")

    dec = tables.get("decided_by_seating")
    if dec is not None and len(dec) and (dec["mode"] == "2v2+1").any():
        d = dec[dec["mode"] == "2v2+1"]
        bins = [b for b in dict.fromkeys(d["bin"]) if d[d["bin"] == b]["share"].max() > 0]
        bots = list(dict.fromkeys(d["bot"]))
        fig, axes = figure(len(bots), 1, 7.0, 4.5, min_width=5.5)
        for ax, bot in zip(axes[0], bots):
            g = d[d["bot"] == bot]
            seats = list(dict.fromkeys(g["seating"]))
            m = np.array([[g[(g["seating"] == s) & (g["bin"] == b)]["share"].iloc[0]
                           for b in bins] for s in seats])
            im = ax.imshow(m, aspect="auto", cmap="viridis", vmin=0, vmax=1)
            for i in range(m.shape[0]):
                for j in range(m.shape[1]):
                    ax.text(j, i, f"{100 * m[i, j]:.0f}", ha="center", va="center",
                            fontsize=5, color="w" if m[i, j] < 0.5 else "k")
            ax.set_xticks(range(len(bins)), bins, rotation=30, fontsize=7)
            ax.set_yticks(range(len(seats)), seats, fontsize=5)
            ax.set_title(f"2v2+1: how the game is decided (% of games) — {bot}")
            fig.colorbar(im, ax=ax, shrink=0.6)
        fig.savefig(folder / "decided_2v2p1.png")
        names.append("decided_2v2p1.png")
    return names


# ---------------------------------------------------------------------------- findings
def _p(x: float) -> str:
    """A share in percent, unsigned: ``12.3``."""
    return pp(x, "{:.1f}")


def findings(tables: dict) -> tuple[list[str], list[str]]:
    found, flags = [], []
    summ, sides = tables["summary"], tables["sides"]
    fair = tables.get("fairness")
    if fair is not None and len(fair):
        found += fairness_findings(fair)
    for r in summ.itertuples():
        d = sides[(sides["bot"] == r.bot) & (sides["mode"] == r.mode)
                  & (sides["option"] == "default")]
        per = "; ".join(f"{s.side} {_p(s.share)}% [{_p(s.ci_low)}, {_p(s.ci_high)}]"
                        + (f" ({_p(s.per_seat)}% per seat)" if s.side_size > 1 else "")
                        for s in d.itertuples())
        verdict = ("Indistinguishable from fair (Holm 5%)" if r.default_fair_holm else
                   "Unfair")
        found.append(
            f"{r.bot}, {r.mode} (default {DEFAULT_SEATING[r.mode]}, {r.games} games): side "
            f"shares {per}; no winner {_p(r.default_no_winner)}%. {verdict}: the "
            f"largest gap from parity is side {r.default_worst_side}, U = "
            f"{_p(r.default_unfairness)} pts [{_p(r.default_u_ci_low)}, "
            f"{_p(r.default_u_ci_high)}] of win share.")
        best = (f"the closest to fair of {r.options} options ({r.distinct_games} distinct "
                f"games up to the A<->B mirror) is {r.best} (U = "
                f"{_p(r.best_unfairness)} pts [{_p(r.best_u_ci_low)}, {_p(r.best_u_ci_high)}] "
                f"on the screen), runner-up {r.runner_up} ({_p(r.runner_up_unfairness)})")
        if hasattr(r, "best_minus_runner_up") and not pd.isna(getattr(r, "best_minus_runner_up",
                                                                      np.nan)):
            best += (f"; on fresh deals the best's signed gap is "
                     f"{_p(r.fresh_best_unfairness)} pts [{_p(r.fresh_best_ci_low)}, "
                     f"{_p(r.fresh_best_ci_high)}] and best − runner-up is "
                     f"{_p(r.best_minus_runner_up)} pts [{_p(r.bmr_ci_low)}, {_p(r.bmr_ci_high)}]"
                     f" — {'distinguishable' if r.distinguishable else 'not distinguishable'}")
        if hasattr(r, "best_minus_default") and not pd.isna(getattr(r, "best_minus_default",
                                                                    np.nan)):
            best += (f"; best − default {_p(r.best_minus_default)} pts "
                     f"[{_p(r.bmd_ci_low)}, {_p(r.bmd_ci_high)}]")
        found.append(f"{r.bot}, {r.mode}: {best}; {r.options_fair_holm} of {r.options} "
                     "options are indistinguishable from fair (Holm 5%).")
        o = tables["options"]
        o = o[(o["bot"] == r.bot) & (o["mode"] == r.mode)]
        dflt = o[o["option"] == "default"].iloc[0]
        same = o[(o["change"] == "team_vetoes") & (o["shares"] == dflt["shares"])
                 & (o["no_winner"] == dflt["no_winner"])]
        if len(same):
            found.append(f"{r.bot}, {r.mode}: {', '.join(same['option'])} play(s) exactly the "
                         f"games of the default (team_vetoes = {DEFAULT_VETOES}) on the same "
                         "deals: this bot's team of two never uses a veto beyond the second.")
        if not r.default_fair_holm and r.best_u_ci_low > 0:
            flags.append(f"{r.bot}, {r.mode}: no option searched reaches parity — even the "
                         f"best ({r.best}) leaves U = {_p(r.best_unfairness)} pts "
                         f"[{_p(r.best_u_ci_low)}, {_p(r.best_u_ci_high)}].")
    dec = tables.get("decided")
    if dec is not None and len(dec):
        for bot, g in dec[dec["mode"] == "2v2+1"].groupby("bot", sort=False):
            found.append(f"{bot}, 2v2+1 (ABABI): games decided by " + "; ".join(
                f"{r.bin} {_p(r.share)}% [{_p(r.ci_low)}, {_p(r.ci_high)}]"
                for r in g.itertuples()) + ".")
    ic = tables.get("independent_condition")
    if ic is not None and len(ic):
        for bot, g in ic[ic["seating"] == "ABABI"].groupby("bot", sort=False):
            found.append(f"{bot}, 2v2+1 (ABABI): games reaching D9.6 step 2 with the "
                         "Independent's condition " + "; ".join(
                             f"{r.bin} {_p(r.share)}%" for r in g.itertuples()) + ".")
    # mirror seatings of symmetric teams must give mirrored shares (same deals)
    for (bot, mode), g in sides[sides["mode"].isin(["2v2", "2v2+1"])].groupby(["bot", "mode"]):
        by = {(r.seating, r.side): r.share for r in g.itertuples()}
        swap = str.maketrans("AB", "BA")
        bad = [s for (s, side), v in by.items()
               if (s.translate(swap), side.translate(swap)) in by
               and abs(by[(s.translate(swap), side.translate(swap))] - v) > 1e-12]
        if bad:
            flags.append(f"{bot}, {mode}: mirror seatings (A and B swapped) give different "
                         f"shares on the same deals ({', '.join(sorted(set(bad))[:4])}): the "
                         "engine treats the team labels differently.")
    flags += sign_flips(key_figures(tables))
    tu = tables.get("tuner")
    if tu is not None and len(tu):
        nan = float("nan")
        for r in tu.itertuples():
            vd = [getattr(r, f"vs_default_{k}", nan) for k in ("diff", "ci_low", "ci_high")]
            found.append(
                f"tuner ({r.bot}, {r.search}): in {r.mode} the {r.parameter} closest to side "
                f"parity is {r.best} (max - min side share {_p(r.best_parity)} pts "
                f"[{_p(r.best_ci_low)}, {_p(r.best_ci_high)}]; default {r.default}: "
                f"{_p(r.default_parity)}; best - default {_p(vd[0])} pts "
                f"[{_p(vd[1])}, {_p(vd[2])}], {r.games} games).")
    return found, flags


def fairness_findings(fair: pd.DataFrame) -> list[str]:
    """One sentence per (bot, mode): the TOST verdicts per side and per seat."""
    out = []
    for (bot, mode), g in fair.groupby(["bot", "mode"], sort=False):
        m = f"{100 * g['margin'].iloc[0]:g}"
        parts = []
        for d, h in g.groupby("definition", sort=False):
            sides_txt = "; ".join(f"{r.side} {_p(r.share_won)}% of won games vs "
                                  f"{_p(r.parity)}%: {r.verdict_text}" for r in h.itertuples())
            parts.append(f"{d} ({'each seat' if d == 'per seat' else 'each side'}): "
                         f"{mode_verdict(h)} ({sides_txt})")
        out.append(f"{bot}, {mode} (default seating), margin ±{m} pp: " + ". ".join(parts)
                   + ".")
    return out


def key_figures(tables: dict) -> pd.DataFrame:
    rows = []
    fair = tables.get("fairness")
    if fair is not None:
        for r in fair.itertuples():
            rows.append({"figure": f"{r.mode} default seating, side {r.side} share of won "
                                   f"games - parity, {r.definition}",
                         "bot": r.bot, "mean": r.diff, "ci_low": r.ci_low,
                         "ci_high": r.ci_high})
    s = tables["sides"]
    for r in s[s["option"] == "default"].itertuples():
        rows.append({"figure": f"{r.mode} default seating, side {r.side} share - parity",
                     "bot": r.bot, "mean": r.gap, "ci_low": r.gap_ci_low,
                     "ci_high": r.gap_ci_high})
    if "team_vetoes" in s:
        for r in s[(s["change"] == "team_vetoes") & (s["side"] == "A")].itertuples():
            rows.append({"figure": f"2v3 team_vetoes={r.team_vetoes}, side A share - parity",
                         "bot": r.bot, "mean": r.gap, "ci_low": r.gap_ci_low,
                         "ci_high": r.gap_ci_high})
    conf = tables.get("confirm")
    if conf is not None and len(conf):
        for r in conf[conf["role"] == "best - default"].itertuples():
            rows.append({"figure": f"{r.mode}: best option - default, unfairness (fresh deals)",
                         "bot": r.bot, "mean": r.diff, "ci_low": r.diff_ci_low,
                         "ci_high": r.diff_ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)
