"""Team-mode fairness (D9): is each side's chance to win the same?

**Fair** here means every *player* has the same chance of being on the winning side. A
team's members all win when it wins, so this is the same as equal side win shares: in
2v2 and 2v3 team A and team B at the same share, in 2v2+1 teams A, B and the
Independent at the same share — each 1/3 of the won games (not the Independent at 1/5,
which would be *per-seat* parity: every side winning its seats' share size/n, also
tested). Games without a winner count for nobody; their share is reported apart.

Whether a default seating is *fair* is decided against the designer's margin
(``fair_margin`` in the experiment file, default ±1 pp of share of won games) by an
interval-based TOST on the share of won games, under both definitions — per side (1/K)
and per seat (size/n, the same margin) — in table ``fairness`` (:mod:`demos_sim.analysis.core.fairness`).

For a game with side shares ``x_s`` (M1: a shared win counts 1/k) the *gap* of side
``s`` is ``g_s = x_s − mean_k x_k``, a per-game linear quantity whose mean is the side's
distance from parity. Since ``Σ_k x_k = 1 − u`` (``u``: no winner or truncated, a 0/1
value disjoint from every win), ``Var g_s = Var x_s + Var u / K² − 2 μ_s μ_u / K``
exactly, so its 95% normal interval comes from the runner's per-side sums. The mode's
**unfairness** ``U`` is the largest |gap| over sides (for two sides ``|x_A − x_B| / 2``);
its interval is the interval of that side's gap (the choice of the side is not
adjusted for).

The single changes searched (exhaustively, every one on the same deals): every distinct
seating of the labels (2v2: AABB; 2v3: AABBB; 2v2+1: AABBI, one seating of each A<->B
mirror pair), in 2v3 ``team_vetoes`` 0..4 at the default seating, each team-mode variant of
Part V flipped alone (:data:`VARIANT_KEYS`: the Independent's own and the D9.6 steps' in
2v2+1, the D9.5 tie-break, pooled trios, team talk and X2 in both), and two **trial
handicaps**: in 2v2+1 ``handicap_vetoes`` (the Independent's extra vetoes; 2v3's
counterpart is ``team_vetoes``), and in 2v3 and 2v2+1 ``handicap_points`` (every member
of the smaller side starts with that many cumulative points). The handicaps are not rules
of contract 2 (game records refuse them; :data:`demos_sim.demos.rules.TRIAL_RULES`): they
are changes the designer could print on a card, and the analysis labels them so.
Screening tests every option's gaps against 0 (Holm within mode, bot and screen) and
judges every option against the margin (TOST per side, Holm over the screen's distinct
games: ``shown_fair``). The best option (smallest ``U``) and the runner-up (the next
*distinct* game: a seating's mirror is the same game) are then replayed on **fresh
deals** (another seed, so the winner's curse of the screen does not bias them), with the
default. On the fresh deals each one's worst side is found again (not the screen's), and
reported with its signed gap, its 95% interval and its TOST verdict (90% interval); the
paired difference of these per-game gaps gives "best − runner-up" and "best − default".
A pick of the screen is not reported without its replay.

When no single change reaches the margin, the **pairs** screen (:data:`PAIR_FILES`, its own
deals, two rungs) plays changes combined — a product grid of seating × team_vetoes ×
handicap in 2v3, seating × handicap in 2v2+1 — and is checked on four times its games of
fresh deals the same way; its fairest option per number of changed rules is plotted
(``pairs.png``, the replayed best marked). The same question is put to the generic tuner
too (:data:`TUNES`, run by the suite; one seating per mirror pair; table ``tuner``, whose
best is read from its own fresh-deal confirmation and named only when that replay shows
it better than the default).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.fairness import fairness, mode_verdict, run_margin
from demos_sim.analysis.core.formatting import pp
from demos_sim.analysis.core.key_figures import COLUMNS, sign_flips
from demos_sim.analysis.core.plotting import error_bars, figure, text_colour
from demos_sim.analysis.core.protocol import DEMOS_BOTS, DEMOS_RUNGS, Tune
from demos_sim.analysis.core.stats import (FAIR_MARGIN, Z95, adjust, p_value,
                                           sample_mean_ci)
from demos_sim.game import SHARE_SCALE, get_game
from demos_sim.runner.points import Point, play_points

TITLE = "Team-mode fairness: sides by seating, and the one change that evens them"
METHOD = (
    "Every seat plays the same bot (" + DEMOS_BOTS + "). Fair = "
    "every player has the same chance to be on the winning side = equal side win shares "
    "(M1; 2v2+1: teams A, B and the Independent at 1/3 of the won games each; per seat, "
    "each side against its seats' share size/n, is tested too). A side's gap is its share "
    "minus the mean of the side shares, a per-game linear quantity with an exact 95% "
    "normal interval; a mode's unfairness U is its largest |gap| (two sides: |A − B| / 2). "
    "Single changes: every distinct seating of the labels (6 in 2v2, 10 in 2v3, 15 in "
    "2v2+1: a seating and its A<->B mirror are the same game), in 2v3 team_vetoes 0–4 at "
    "ABABB, each team-mode variant flipped alone (2v3: team_points_tiebreak, team_trio, "
    "team_talk, announced_trio; 2v2+1 also independent_double_media, "
    "independent_points_strict, p3_harmonies, p3_points_tiebreak), "
    "in 2v2+1 the trial handicap handicap_vetoes 1–3 (the Independent's extra vetoes), "
    "and in 2v3 and 2v2+1 the trial handicap handicap_points (every member of the "
    "smaller side — the team of two, the Independent — starts with that many cumulative "
    "points; NOT a rule of contract 2, a change the designer could print on a card), all "
    "on the same deals. The gap tests of a mode's screen are Holm-adjusted (family-wise "
    "5%, within mode, bot and screen), and every option is judged against the margin "
    "per side (TOST, Holm over the screen's distinct games). The best option and the runner-up (the "
    "next distinct game: a seating's mirror is the same game) are replayed with the default "
    "on fresh deals (a second seed, so the selection does not bias them); on those deals "
    "each one's worst side is found again and reported with its signed gap (95% interval) "
    "and its TOST verdict (90% interval), and best and runner-up are compared by the paired "
    "per-game difference of these gaps (95% interval). A screen's pick is not reported "
    "without its replay. Combined changes (screen \"pairs\", greedy and apprentice, 8,192 "
    "games a point, its own deals): 2v3 seating × team_vetoes 2/4 × handicap 0/80, 2v2+1 "
    "seating × handicap 0/40/50, the best replayed on four times the games of fresh deals (plot "
    "pairs.png: the fairest option per number of changed rules on the screen, the replayed "
    "best marked). The same question is also put to the generic tuner (demos-sim tune): "
    "one tune file per single change (a seating, one per A<->B mirror pair, or "
    "team_vetoes 0-4 in 2v3), exhaustive, side parity = max - min side win share, raced "
    "and confirmed on fresh deals, 95% paired bootstrap intervals (table tuner: its best is "
    "named only when its replay shows it better than the default). Table fairness tests "
    "the default seatings against the designer's margin (fair_margin in the experiment "
    "file, default ±1 pp of share of won games) with an interval-based TOST: fair when the "
    "90% interval of the difference lies inside ±margin, unfair when it lies wholly beyond "
    "it, not shown fair otherwise (each verdict printed with that 90% interval); per side "
    "(each side's share of won games against 1/K, K sides) and per seat (the same share — "
    "each seat of a side wins when its side wins — against the side's seats' share "
    "size/n, n players; the same margin, so in 2v2, where both parities are ½, both "
    "verdicts agree), delta-method intervals of the share of won games.")
# each mode's single-change screen: its seating file first (its default point is the
# mode's default game), then the files of one other rule each, on the same deals (same seed)
MODE_FILES = {"2v2": ["teams_2v2"],
              "2v3": ["teams_2v3", "teams_2v3_vetoes", "teams_2v3_handicap",
                      "teams_2v3_variants"],
              "2v2+1": ["teams_2v2p1", "teams_2v2p1_handicap", "teams_2v2p1_vetoes",
                        "teams_2v2p1_variants"]}
# each unfair mode's screen of combined changes (a product grid on its own deals)
PAIR_FILES = {"2v3": "teams_2v3_pairs", "2v2+1": "teams_2v2p1_pairs"}
SCREENS = ("single", "pairs")
EXPERIMENTS = [f for files in MODE_FILES.values() for f in files] + list(PAIR_FILES.values())
RUNGS = DEMOS_RUNGS
# the screens of combined changes at the ladder's two ends (the board quotes the strongest),
# each at full size: at a quarter of the games apprentice's pick for 2v2+1 was another pair,
# unfair on its fresh deals (−1.9 pp); the full screen's was off parity by +1.0 pp only
PAIR_RUNGS = {"greedy": 1.0, "apprentice": 1.0}
EXPERIMENT_RUNGS = {s: PAIR_RUNGS for s in PAIR_FILES.values()}
# the rules an option may change, and their values as written (D9.2, D9.3; the handicap is
# a trial rule outside contract 2, demos_sim.demos.rules.TRIAL_RULES; then the team-mode
# variants of Part V that teams_*_variants.toml flip one at a time: D9.5, D9.6, X2)
VARIANT_KEYS = ("team_points_tiebreak", "team_trio", "team_talk", "announced_trio",
                "independent_double_media", "independent_points_strict", "p3_harmonies",
                "p3_points_tiebreak")
KEYS = ("seating", "team_vetoes", "handicap_points", "handicap_vetoes") + VARIANT_KEYS


def screened(bot: str, mode: str, screen: str = "single") -> bool:
    """Does the rung ``bot`` play ``screen`` of ``mode`` (:data:`EXPERIMENT_RUNGS`)?"""
    files = MODE_FILES[mode] if screen == "single" else [PAIR_FILES.get(mode)]
    return all(f is not None and bot in EXPERIMENT_RUNGS.get(f, RUNGS) for f in files)


def defaults(mode: str) -> dict:
    """The rules as written, for the keys an option may change."""
    variants = get_game("demos").variant_defaults()
    return {"seating": DEFAULT_SEATING[mode], "team_vetoes": DEFAULT_VETOES,
            "handicap_points": 0, "handicap_vetoes": 0,
            **{k: variants[k] for k in VARIANT_KEYS}}


def _text(v) -> str:
    return ("true" if v else "false") if isinstance(v, (bool, np.bool_)) else str(v)


def _typed(x, default):
    """A value read back (from a label or a results column) as its default's type."""
    if isinstance(default, bool):
        return x in (True, "true", "True")          # np.bool_(True) == True
    return int(x) if isinstance(default, int) else str(x)


def option_label(mode: str, values: dict) -> str:
    """``default``, or the changed rules in :data:`KEYS` order: ``seating=BBAAB,
    handicap_points=80``, ``independent_points_strict=false``."""
    d = defaults(mode)
    changed = [f"{k}={_text(values[k])}" for k in KEYS if values.get(k, d[k]) != d[k]]
    return ", ".join(changed) or "default"


def option_values(mode: str, option: str) -> dict:
    """The inverse of :func:`option_label`."""
    v = defaults(mode)
    if option != "default":
        for part in option.split(", "):
            k, x = part.split("=", 1)
            v[k] = _typed(x, v[k])
    return v


SHOW = ["fairness", "confirm", "tuner", "options", "decided"]   # summary: summary.csv (wide)
# the same question through the generic tuner: one file per single rule change, run by
# the suite at the first rung (a quick look: --games per trial, the race to 4x)
TUNE_FILES = {"teams_tune_2v2_seating": "2v2", "teams_tune_2v3_seating": "2v3",
              "teams_tune_2v3_team_vetoes": "2v3", "teams_tune_2v2p1_seating": "2v2+1"}
TUNES = [Tune(f, quick_final=4) for f in TUNE_FILES]
MODES = {**{f: m for m, files in MODE_FILES.items() for f in files},
         **{f: m for m, f in PAIR_FILES.items()}}
SCREEN_OF = {f: ("pairs" if f in PAIR_FILES.values() else "single") for f in MODES}
DEFAULT_SEATING = {"2v2": "ABAB", "2v3": "ABABB", "2v2+1": "ABABI"}
DEFAULT_VETOES = 2
CONFIRM_SEED_OFFSET = 1_000_003
CONFIRM_GAMES = {"single": 1, "pairs": 4}    # fresh-deal games per screen game
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
    """One row per (bot, mode, screen, option, side) with the side's share and gap."""
    rows = []
    for (stem, bot), run in runs.items.items():
        if stem not in MODES:
            continue
        mode, screen = MODES[stem], SCREEN_OF[stem]
        dflt = defaults(mode)
        df = run.results
        ref_rows = df[df["ref_point"].isna()]
        for point, g in df.groupby("point", sort=True):
            r0 = g.iloc[0]
            values = {k: (_typed(r0[k], d) if k in g.columns else d)
                      for k, d in dflt.items()}
            option = option_label(mode, values)
            # a single-change file's default point is the seating file's default game
            if option == "default" and screen == "single" and stem != MODE_FILES[mode][0]:
                continue
            changed = [k for k in KEYS if values[k] != dflt[k]]
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
                    "bot": bot, "mode": mode, "screen": screen, "experiment": stem,
                    "option": option, "change": "+".join(changed) or "none",
                    "changes": len(changed), **values,
                    "side": r["side"], "seats": r["seats"],
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
    for idx in sides.groupby(["bot", "mode", "screen"]).groups.values():
        sub = sides.loc[idx]
        # two sides: g_A = −g_B, one test per option (the first side)
        test = sub[~((sub["mode"] != "2v2+1") & sub.duplicated(["option"]))]
        adj = adjust(test["p_gap"].to_numpy(), "holm")
        sides.loc[test.index, "p_gap_holm"] = adj
        if (sub["mode"] != "2v2+1").all():
            first = dict(zip(test["option"], adj))
            sides.loc[idx, "p_gap_holm"] = [first[o] for o in sub["option"]]
    return sides


def _option_summary(sides: pd.DataFrame, margins: dict | None = None) -> pd.DataFrame:
    rows = []
    for (bot, mode, screen, option), g in sides.groupby(["bot", "mode", "screen", "option"],
                                                        sort=False):
        w = g.loc[g["gap"].abs().idxmax()]
        rows.append({"bot": bot, "mode": mode, "screen": screen, "option": option,
                     "change": w["change"], "changes": int(w["changes"]),
                     "games": int(w["games"]), "unfairness": abs(w["gap"]),
                     "u_ci_low": max(0.0, abs(w["gap"]) - w["gap_half_width"]),
                     "u_ci_high": abs(w["gap"]) + w["gap_half_width"],
                     "worst_side": w["side"], "worst_gap": w["gap"],
                     "no_winner": w["no_winner"],
                     "shares": " ".join(f"{s}={v:.3f}" for s, v in zip(g["side"], g["share"])),
                     "p_holm": float(g["p_gap_holm"].min())})
    opts = pd.DataFrame(rows)
    opts["mirror_class"] = [mirror_class(m, s) for m, s in zip(opts["mode"], opts["option"])]
    # rank the distinct games of a screen: a seating and its A<->B mirror (2v2, 2v2+1) share
    # a rank; a class's representative is its fairest option, the first by name among
    # equals (the mirror of a seating plays the same games: a stable order, whatever the
    # other rows)
    group = ["bot", "mode", "screen"]
    first = (opts.sort_values(["unfairness", "option"], kind="stable")
             .drop_duplicates(group + ["mirror_class"]))
    first = first.assign(rank=first.groupby(group)["unfairness"]
                         .rank(method="first").astype(int))
    opts = opts.merge(first[group + ["mirror_class", "rank"]], on=group + ["mirror_class"])
    reps = set(zip(first["bot"], first["mode"], first["screen"], first["option"]))
    opts["representative"] = [k in reps for k in zip(opts["bot"], opts["mode"], opts["screen"],
                                                     opts["option"])]
    opts = option_tost(sides, opts, margins)
    return opts.sort_values(group + ["rank", "option"]).reset_index(drop=True)


def option_tost(sides: pd.DataFrame, opts: pd.DataFrame,
                margins: dict | None = None) -> pd.DataFrame:
    """``opts`` with each option's TOST verdict per side on its screen (``tost_verdict``:
    fair when every side's 90% interval of its share of won games minus 1/K lies inside
    the margin, :func:`fairness.mode_verdict`; ``tost_worst_side``: the verdict of its
    side furthest from parity, with the 90% interval), ``p_tost`` (the largest of its sides' TOST
    p-values: all sides equivalent, an intersection–union test) and ``p_tost_holm``, Holm
    over the screen's distinct games (one per mirror class: a seating and its mirror are
    the same games), with ``shown_fair`` = ``p_tost_holm`` < 5%. ``margins``: the margin
    per (bot, mode, screen) (default: :data:`FAIR_MARGIN`)."""
    out = []
    for key, o in opts.groupby(["bot", "mode", "screen"], sort=False):
        m = (margins or {}).get(key, FAIR_MARGIN)
        sd = sides[(sides["bot"] == key[0]) & (sides["mode"] == key[1])
                   & (sides["screen"] == key[2])]
        f = fairness(sd, m, options=None)
        f = f[f["definition"] == "per side"]
        verdict = {opt: mode_verdict(h) for opt, h in f.groupby("option", sort=False)}
        p = f.groupby("option", sort=False)["p_tost"].max()
        w = f.loc[f["diff"].abs().groupby(f["option"], sort=False).idxmax()]
        text = dict(zip(w["option"], w["side"] + ": " + w["verdict_text"]))
        o = o.assign(fair_margin=m, tost_verdict=o["option"].map(verdict),
                     tost_worst_side=o["option"].map(text), p_tost=o["option"].map(p))
        rep = o[o["representative"]]
        adj = dict(zip(rep["mirror_class"], adjust(rep["p_tost"].to_numpy(), "holm")))
        o["p_tost_holm"] = o["mirror_class"].map(adj)
        o["shown_fair"] = o["p_tost_holm"] < ALPHA
        out.append(o)
    return pd.concat(out) if out else opts


SYMMETRIC = ("2v2", "2v2+1")     # teams A and B have the same rules: A<->B is a relabelling


def mirror_class(mode: str, option: str) -> str:
    """The option's class of identical games: a seating and its A<->B mirror (2v2,
    2v2+1) are the same game with the labels swapped (the other rules equal)."""
    v = option_values(mode, option)
    if mode in SYMMETRIC:
        mirror = v["seating"].translate(str.maketrans("AB", "BA"))
        v["seating"] = (DEFAULT_SEATING[mode] if DEFAULT_SEATING[mode] in (v["seating"], mirror)
                        else min(v["seating"], mirror))
    return option_label(mode, v)


def _bins(runs, metric: str) -> pd.DataFrame:
    rows = []
    for (stem, bot), run in runs.items.items():
        if stem not in MODES or stem != MODE_FILES[MODES[stem]][0]:   # seating screens
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
    margins = {(bot, mode, screen): run_margin(runs.get(
        MODE_FILES[mode][0] if screen == "single" else PAIR_FILES[mode], bot))
        for bot, mode, screen in sides[["bot", "mode", "screen"]].drop_duplicates()
        .itertuples(index=False)}
    opts = _option_summary(sides, margins)
    decided = _bins(runs, "decided")
    decided_all = decided
    decided = decided[(decided["seating"] == decided["mode"].map(DEFAULT_SEATING))
                      & (decided["share"] > 0)].reset_index(drop=True)
    ind = _bins(runs, "independent_condition")
    ind = ind[ind["mode"] == "2v2+1"].reset_index(drop=True)
    conf = confirm(runs, opts, runs.workers)
    seating_files = [files[0] for files in MODE_FILES.values()]
    fair = pd.concat([fairness(g, run_margin(runs.get(stem, bot))) for (stem, bot), g
                      in sides[sides["experiment"].isin(seating_files)]
                      .groupby(["experiment", "bot"], sort=False)], ignore_index=True)
    return {"fairness": fair, "sides": sides, "options": opts, "decided": decided,
            "decided_by_seating": decided_all, "independent_condition": ind,
            "summary": _summary(opts, conf),
            "confirm": conf, "tuner": tuner_table(runs, opts)}


# ------------------------------------------------------------------ fresh-deal check
def _point(runs, mode: str, screen: str, bot: str, values: dict):
    """The run and its point (``meta.json``'s) that play the rules ``values``, with the
    point's configuration, rebuilt from the configuration the run's metadata describes."""
    files = MODE_FILES[mode] if screen == "single" else [PAIR_FILES[mode]]
    for stem in files:
        run = runs.get(stem, bot)
        for p in run.meta["points"]:
            if {k: p["values"].get(k, d) for k, d in defaults(mode).items()} == values:
                ad = get_game(run.meta["game"])
                c = p["config"]
                config = ad.make_config({k: c[k] for k in ad.settings if k in c},
                                        c["players"], c["variants"])
                return run, Point(config, tuple(p["policies"]))
    raise KeyError(f"{mode} {screen}: no point plays {values}")


def confirm_store(runs) -> Path | None:
    """Where the fresh-deal replays keep their games (``confirm/`` beside the runs'
    folders), so that an analysis killed and started again reads them back."""
    folders = [Path(r.folder) for r in runs.items.values()]
    return folders[0].parent / "confirm" if folders else None


def _fresh_worst(x: np.ndarray, labels: list[str], sizes: list[int], margin_: float):
    """The side that is worst **on the replayed games** ``x`` (games × sides win shares),
    with its per-side TOST verdict (share of won games against 1/K).

    Returns ``(mode verdict, worst side, its verdict text, h)``: ``h`` is the per-game
    signed gap of that side (``x_s − mean_k x_k``, signed so that its mean is ≥ 0), so
    ``mean(h)`` is the replay's unfairness ``U``. The worst side is the one furthest from
    parity in share of won games, which is also the one with the largest |gap| (``diff_s
    = gap_s / w̄``): the side is chosen on the same games (as on the screen), not adjusted
    for. The screen's worst side is not used: a replay re-decides which side is worse."""
    n = len(x)
    sides = pd.DataFrame({"bot": "", "mode": "", "option": "", "side": labels,
                          "side_size": sizes, "games": n, "share": x.mean(0),
                          "sd": x.std(0, ddof=1)})
    f = fairness(sides, margin_, options=None)
    f = f[f["definition"] == "per side"].reset_index(drop=True)
    j = int(f["diff"].abs().idxmax())
    worst = f.loc[j]
    g = per_game_gap(x)[:, labels.index(worst.side)]
    sign = -1.0 if g.mean() < 0 else 1.0
    return mode_verdict(f), str(worst.side), f"{worst.side}: {worst.verdict_text}", sign * g


def confirm(runs, opts: pd.DataFrame, workers: int = 1) -> pd.DataFrame:
    """Replay default, best and runner-up of every (bot, mode, screen) on fresh deals,
    paired (:data:`CONFIRM_GAMES`: the pairs screen at four times its games). Each role's
    ``worst_side`` is the side worst on the fresh deals (:func:`_fresh_worst`; the screen's
    is kept as ``screen_worst_side``), ``unfairness`` its signed gap there (≥ 0, 95%
    interval) and ``worst_side_verdict`` the same side's TOST verdict with its 90%
    interval; the paired differences compare these per-game gaps."""
    rows = []
    for (bot, mode, screen), g in opts.groupby(["bot", "mode", "screen"], sort=False):
        b, r2, d = _picks(g)
        picks = {"best": b, "runner-up": r2, "default": d}
        points, seed, margin_ = [], None, None
        for role, r in picks.items():
            run, pt = _point(runs, mode, screen, bot, option_values(mode, r["option"]))
            seed = run.meta["seed"] + CONFIRM_SEED_OFFSET
            margin_ = run_margin(run)
            points.append(pt)
        n = int(g["games"].iloc[0]) * CONFIRM_GAMES[screen]
        played = play_points("demos", points, n, seed, metrics=("win_share",),
                             workers=workers, backend=runs.backend,
                             scheduler=runs.scheduler, store=confirm_store(runs))
        h, verdicts = {}, {}
        for i, (role, r) in enumerate(picks.items()):
            x = played.values[i]["win_share"] / SHARE_SCALE
            cfg = points[i].config
            labels = cfg.side_labels()
            sizes = [list(cfg.seating).count(c) for c in labels]
            verdict, side, text, h[role] = _fresh_worst(x, labels, sizes, margin_)
            verdicts[role] = (verdict, side, text)
        for role, r in picks.items():
            e = sample_mean_ci(h[role])
            rows.append({"bot": bot, "mode": mode, "screen": screen, "role": role,
                         "option": r["option"], "changes": int(r["changes"]),
                         "seed": seed, "games": n, "screen_unfairness": r["unfairness"],
                         "screen_worst_side": r["worst_side"],
                         "worst_side": verdicts[role][1],
                         "unfairness": e[0], "ci_low": e[1], "ci_high": e[2],
                         "fair_per_side": verdicts[role][0],
                         "worst_side_verdict": verdicts[role][2],
                         "vs": "", "diff": np.nan, "diff_ci_low": np.nan,
                         "diff_ci_high": np.nan, "distinguishable": None})
        for a, b in (("best", "runner-up"), ("best", "default")):
            if picks[a]["option"] == picks[b]["option"]:
                continue
            e = sample_mean_ci(h[a] - h[b])
            rows.append({"bot": bot, "mode": mode, "screen": screen, "role": f"{a} - {b}",
                         "option": picks[a]["option"], "changes": int(picks[a]["changes"]),
                         "seed": seed, "games": n,
                         "screen_unfairness": picks[a]["unfairness"] - picks[b]["unfairness"],
                         "screen_worst_side": "", "worst_side": "", "unfairness": np.nan,
                         "ci_low": np.nan, "ci_high": np.nan,
                         "fair_per_side": "", "worst_side_verdict": "",
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
    for (bot, mode, screen), g in opts.groupby(["bot", "mode", "screen"], sort=False):
        b, r2, d = _picks(g)
        row = {"bot": bot, "mode": mode, "screen": screen, "games": int(d["games"]),
               "default_shares": d["shares"], "default_no_winner": d["no_winner"],
               "default_unfairness": d["unfairness"], "default_u_ci_low": d["u_ci_low"],
               "default_u_ci_high": d["u_ci_high"], "default_worst_side": d["worst_side"],
               "default_verdict": d["tost_verdict"],
               "default_worst_side_verdict": d["tost_worst_side"],
               "options": len(g), "distinct_games": int(g["mirror_class"].nunique()),
               "options_shown_fair": int(g[g["representative"]]["shown_fair"].sum()),
               "best": b["option"], "best_changes": int(b["changes"]),
               "best_unfairness": b["unfairness"],
               "best_u_ci_low": b["u_ci_low"], "best_u_ci_high": b["u_ci_high"],
               "runner_up": r2["option"], "runner_up_unfairness": r2["unfairness"]}
        if conf is not None and len(conf):
            c = conf[(conf["bot"] == bot) & (conf["mode"] == mode)
                     & (conf["screen"] == screen)]
            br = c[c["role"] == "best"]
            ru = c[c["role"] == "runner-up"]
            vs = c[c["role"] == "best - runner-up"]
            vd = c[c["role"] == "best - default"]
            if len(br):
                row.update(fresh_games=int(br["games"].iloc[0]),
                           fresh_best_unfairness=br["unfairness"].iloc[0],
                           fresh_best_ci_low=br["ci_low"].iloc[0],
                           fresh_best_ci_high=br["ci_high"].iloc[0],
                           fresh_best_fair=br["fair_per_side"].iloc[0],
                           fresh_best_worst_side=br["worst_side_verdict"].iloc[0])
            if len(ru):
                row.update(fresh_runner_up_unfairness=ru["unfairness"].iloc[0],
                           fresh_runner_up_ci_low=ru["ci_low"].iloc[0],
                           fresh_runner_up_ci_high=ru["ci_high"].iloc[0],
                           fresh_runner_up_fair=ru["fair_per_side"].iloc[0],
                           fresh_runner_up_worst_side=ru["worst_side_verdict"].iloc[0])
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


def tuner_table(runs, opts: pd.DataFrame | None = None) -> pd.DataFrame:
    """The closest-to-fair single change found by ``demos-sim tune`` (exhaustive over each
    file's one parameter, racing on fresh deals), first rung only: side parity = max − min
    side win share, its 95% bootstrap interval, and the paired differences from the
    default setting and the runner-up, all on the tuner's confirmation deals (its replay).
    See :func:`tuner_rows`."""
    rows = []
    for stem, mode in TUNE_FILES.items():
        t = runs.tune(stem)
        rows.append((mode, t.bot, t.summary))
    return tuner_rows(rows, opts)


TUNER_VERDICTS = ("better than the default", "worse than the default",
                  "not shown different from the default")


def tuner_rows(tunes: list[tuple[str, str, dict]], opts: pd.DataFrame | None = None
               ) -> pd.DataFrame:
    """One row per tune ``(mode, bot, summary.json)``.

    A runner-up that is the best's A<->B mirror (2v2, 2v2+1: the same game with the labels
    swapped, so ``best − runner-up`` is 0 [0, 0] by construction) is no runner-up: it is
    dropped (``runner_up`` empty, no difference). ``verdict`` reads the replay's ``best −
    default`` (:data:`TUNER_VERDICTS`: better or worse when its 95% interval excludes 0,
    else not shown different): a best not shown better than the default is the tuner's
    pick among equals, not a finding. ``screen_rank`` (of ``screen_distinct``) and
    ``screen_unfairness`` place the tuner's best among the teams screen's distinct games
    that change the same rule, the default included (same rung, other deals), when
    ``opts`` is given."""
    rows = []
    for mode, bot, s in tunes:
        (param,) = s["params"]
        best = s["best"]["values"][param]
        row = {"mode": mode, "parameter": param, "bot": bot,
               "search": s["search"]["description"], "default": s["default"]["values"][param],
               "default_parity": s["default"]["side_parity"]["value"],
               "best": best,
               "best_parity": s["best"]["side_parity"]["value"],
               "best_ci_low": s["best"]["side_parity"]["ci95"][0],
               "best_ci_high": s["best"]["side_parity"]["ci95"][1],
               "games": s["confirmation"]["games"]}
        ru = s.get("runner_up")
        ru_value = None if ru is None else ru["values"][param]
        if ru_value is not None and _tuned_class(mode, param, ru_value) == \
                _tuned_class(mode, param, best):
            ru_value = None                       # the mirror of the best: the same game
        row["runner_up"] = ru_value
        for key, name in (("best_minus_default", "vs_default"),
                          ("best_minus_runner_up", "vs_runner_up")):
            d = s.get(key)
            if d is not None and (name == "vs_default" or ru_value is not None):
                row.update({f"{name}_diff": d["objective_diff"],
                            f"{name}_ci_low": d["ci95"][0], f"{name}_ci_high": d["ci95"][1]})
        lo, hi = row.get("vs_default_ci_low", np.nan), row.get("vs_default_ci_high", np.nan)
        row["verdict"] = (TUNER_VERDICTS[0] if hi < 0 else TUNER_VERDICTS[1] if lo > 0
                          else TUNER_VERDICTS[2])
        if opts is not None and len(opts):
            # the screen's options that change the same rule (and the default), one per
            # distinct game, fairest first
            o = opts[(opts["bot"] == bot) & (opts["mode"] == mode)
                     & (opts["screen"] == "single") & opts["representative"]
                     & ((opts["change"] == param) | (opts["option"] == "default"))]
            o = o.sort_values(["unfairness", "option"], kind="stable").reset_index(drop=True)
            hit = o.index[o["mirror_class"] == _tuned_class(mode, param, best)]
            if len(hit):
                h = o.loc[hit[0]]
                row.update(screen_rank=int(hit[0]) + 1, screen_distinct=len(o),
                           screen_unfairness=float(h["unfairness"]),
                           screen_u_ci_low=float(h["u_ci_low"]),
                           screen_u_ci_high=float(h["u_ci_high"]))
        rows.append(row)
    return pd.DataFrame(rows)


def _tuned_class(mode: str, param: str, value) -> str:
    """The mirror class of the single change ``param = value`` (:func:`mirror_class`)."""
    d = defaults(mode)
    return mirror_class(mode, option_label(mode, {**d, param: _typed(value, d[param])}))


# ------------------------------------------------------------------------------- plots
def short(option: str) -> str:
    """An option's label for a plot axis: ``BBAAB tv=4 hp=80``."""
    return (option.replace("seating=", "").replace("team_vetoes=", "tv=")
            .replace("handicap_points=", "hp=").replace("handicap_vetoes=", "hv=").replace(", ", " ")
            .replace("independent_", "ind_").replace("team_points_tiebreak", "tp_tiebreak"))


def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    names = []
    sides, opts = tables["sides"], tables["options"]
    pairs = opts[opts["screen"] == "pairs"]
    sides, opts = sides[sides["screen"] == "single"], opts[opts["screen"] == "single"]
    bots = list(dict.fromkeys(sides["bot"]))
    modes = [m for m in ("2v2", "2v3", "2v2+1") if m in set(sides["mode"])]
    if len(sides):
        names += [_sides_plot(sides, modes, bots, folder), _unfairness_plot(opts, modes, bots, folder)]

    if len(pairs):
        names.append(_pairs_plot(pairs, tables.get("confirm"), folder))

    dec = tables.get("decided_by_seating")
    if dec is not None and len(dec) and (dec["mode"] == "2v2+1").any():
        d = dec[dec["mode"] == "2v2+1"]
        bins = [b for b in dict.fromkeys(d["bin"]) if d[d["bin"] == b]["share"].max() > 0]
        bots = list(dict.fromkeys(d["bot"]))
        n_seat = d["seating"].nunique()
        fig, axes = figure(len(bots), 1, 3.4, 0.24 * n_seat + 1.6, min_width=5.5)
        im = None
        for ax, bot in zip(axes[0], bots):
            g = d[d["bot"] == bot]
            seats = list(dict.fromkeys(g["seating"]))
            m = np.array([[g[(g["seating"] == s) & (g["bin"] == b)]["share"].iloc[0]
                           for b in bins] for s in seats]) * 100
            im = ax.imshow(m, aspect="auto", cmap="viridis", vmin=0, vmax=100)
            for (i, j), v in np.ndenumerate(m):
                ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=7,
                        color=text_colour(im.cmap(im.norm(v))))
            ax.set_xticks(range(len(bins)), bins, rotation=30, ha="right", fontsize=7)
            ax.set_yticks(range(len(seats)), seats, fontsize=7)
            ax.set_title(bot, fontsize=9)
        fig.colorbar(im, ax=axes, shrink=0.6, label="% of games")
        fig.suptitle("2v2+1: how the game is decided, by seating (% of games)")
        fig.savefig(folder / "decided_2v2p1.png")
        names.append("decided_2v2p1.png")
    return names


SIDE_COLOURS = {"A": "#3a6fb0", "B": "#d9822b", "I": "#4a9d5b"}
RUNG_MARKERS = "osD^v"


def _mode_panels(modes: list[str], n_options: dict):
    """One full-width panel per mode, stacked (a figure read at the report's width: 12
    panels side by side left 6-point labels a few pixels tall), each panel's height
    following its number of options a little."""
    heights = [2.6 + 0.02 * n_options[m] for m in modes]
    fig, axes = figure(1, len(modes), 10.0, sum(heights) / len(modes),
                       height_ratios=heights)
    return fig, [a[0] for a in axes]


def _option_labels(order: list[str], mode: str) -> list[str]:
    return [f"{DEFAULT_SEATING[mode]}*" if o == "default" else short(o) for o in order]


def _offsets(n: int, step: float) -> np.ndarray:
    return (np.arange(n) - (n - 1) / 2) * step


def _sides_plot(sides: pd.DataFrame, modes: list[str], bots: list[str], folder: Path) -> str:
    """Each side's win share by option, every rung, with parity: one panel per mode."""
    from matplotlib.lines import Line2D

    n_opt = {m: sides[sides["mode"] == m]["option"].nunique() for m in modes}
    fig, axes = _mode_panels(modes, n_opt)
    for ax, mode in zip(axes, modes):
        g0 = sides[sides["mode"] == mode]
        order = list(dict.fromkeys(g0["option"]))
        x = np.arange(len(order))
        side_list = sorted(set(g0["side"]))
        rungs = [b for b in bots if (g0["bot"] == b).any()]
        par = g0.drop_duplicates("option").set_index("option").reindex(order)["parity"]
        ax.hlines(100 * par, x - 0.42, x + 0.42, color="k", lw=1.2, label="parity", zorder=1)
        for k, s in enumerate(side_list):
            for b, bot in enumerate(rungs):
                h = (g0[(g0["side"] == s) & (g0["bot"] == bot)].set_index("option")
                     .reindex(order))
                dx = _offsets(len(side_list), 0.26)[k] + _offsets(len(rungs), 0.07)[b]
                y = 100 * h["share"]
                ax.errorbar(x + dx, y, yerr=error_bars(y, 100 * h["ci_low"], 100 * h["ci_high"]),
                            fmt=RUNG_MARKERS[b % len(RUNG_MARKERS)], ms=3, lw=0.8, capsize=0,
                            color=SIDE_COLOURS.get(s), zorder=2)
        ax.set_xticks(x, _option_labels(order, mode), rotation=90, fontsize=7)
        ax.set_xlim(-0.6, len(order) - 0.4)
        ax.set_ylabel("win share (%, 95% CI)")
        missing = [b for b in bots if b not in rungs]
        ax.set_title(f"{mode}: win share of each side by option (* the default)"
                     + (f"; not screened at {', '.join(missing)} (its default seating: "
                        "game_shape)" if missing else ""), fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        # the key beside the panel: colour = side, marker = rung
        key = ([Line2D([], [], color="k", lw=1.2, label="parity")]
               + [Line2D([], [], color=SIDE_COLOURS.get(s), marker="o", ls="", label=f"side {s}")
                  for s in side_list]
               + [Line2D([], [], color="0.4", marker=RUNG_MARKERS[b % len(RUNG_MARKERS)],
                         ls="", ms=4, label=bot) for b, bot in enumerate(rungs)])
        ax.legend(handles=key, fontsize=7, loc="upper left", bbox_to_anchor=(1.005, 1))
    fig.savefig(folder / "sides.png")
    return "sides.png"


def _unfairness_plot(opts: pd.DataFrame, modes: list[str], bots: list[str],
                     folder: Path) -> str:
    """Unfairness U of each option at every rung, best first at the first rung: one
    panel per mode; the default's label marked."""
    n_opt = {m: opts[opts["mode"] == m]["option"].nunique() for m in modes}
    fig, axes = _mode_panels(modes, n_opt)
    for ax, mode in zip(axes, modes):
        g0 = opts[opts["mode"] == mode]
        rungs = [b for b in bots if (g0["bot"] == b).any()]
        order = list(g0[g0["bot"] == rungs[0]].sort_values("rank")["option"])
        x = np.arange(len(order))
        for b, bot in enumerate(rungs):
            h = g0[g0["bot"] == bot].set_index("option").reindex(order)
            y = 100 * h["unfairness"]
            ax.errorbar(x + _offsets(len(rungs), 0.18)[b], y,
                        yerr=error_bars(y, 100 * h["u_ci_low"], 100 * h["u_ci_high"]),
                        fmt=RUNG_MARKERS[b % len(RUNG_MARKERS)], ms=3, lw=0.8, capsize=0,
                        label=bot)
        ax.set_xticks(x, _option_labels(order, mode), rotation=90, fontsize=7)
        for lab, o in zip(ax.get_xticklabels(), order):
            if o == "default":
                lab.set_color("#c44")
        ax.set_xlim(-0.6, len(order) - 0.4)
        ax.set_ylabel("U = max |gap| (pp, 95% CI)")
        missing = [b for b in bots if b not in rungs]
        ax.set_title(f"{mode}: unfairness of each option, fairest first at {rungs[0]} "
                     "(red *: the default)"
                     + (f"; not screened at {', '.join(missing)}" if missing else ""),
                     fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.005, 1))
    fig.savefig(folder / "unfairness.png")
    return "unfairness.png"


def _pairs_plot(pairs: pd.DataFrame, conf: pd.DataFrame | None, folder: Path) -> str:
    """The fairest option by number of changed rules (a Pareto front), per mode and rung,
    on the pairs screen's deals, with the margin and the fresh-deal replay of the best."""
    modes = [m for m in ("2v3", "2v2+1") if m in set(pairs["mode"])]
    bots = list(dict.fromkeys(pairs["bot"]))
    fig, axes = figure(len(modes), len(bots), 4.6, 3.6, min_width=5.5)
    for bi, bot in enumerate(bots):
        for ax, mode in zip(axes[bi], modes):
            g = pairs[(pairs["mode"] == mode) & (pairs["bot"] == bot)]
            best = g.loc[g.groupby("changes")["unfairness"].idxmin()].sort_values("changes")
            x = best["changes"].to_numpy()
            ax.errorbar(x, 100 * best["unfairness"], fmt="o-", color="#3a6fb0", capsize=3,
                        yerr=100 * error_bars(best["unfairness"], best["u_ci_low"],
                                              best["u_ci_high"]), label="screen")
            for xi, r in zip(x, best.itertuples()):
                ax.annotate(short(r.option), (xi, 100 * r.unfairness), fontsize=6,
                            xytext=(4, 6), textcoords="offset points")
            if conf is not None and len(conf):
                c = conf[(conf["mode"] == mode) & (conf["bot"] == bot)
                         & (conf["screen"] == "pairs") & (conf["role"] == "best")]
                for r in c.itertuples():       # its worst side on the fresh deals
                    ax.errorbar([r.changes + 0.12], [100 * r.unfairness], fmt="s",
                                color="#c44", capsize=3, label="best, fresh deals",
                                yerr=100 * error_bars([r.unfairness], [r.ci_low], [r.ci_high]))
            ax.axhline(1.0, color="k", ls=":", lw=1, label="margin ±1 pp")
            ax.set_xticks(range(0, 4), ["none", "one", "two", "three"])
            ax.set_xlabel("rules changed")
            ax.set_ylabel("unfairness U (pp of win share, 95% CI)")
            ax.set_title(f"{mode} — {bot}: fairest option per number of changes", fontsize=8)
            ax.legend(fontsize=6)
    fig.savefig(folder / "pairs.png")
    return "pairs.png"


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
    for r in summ[summ["screen"] == "pairs"].itertuples():
        found.append(_pairs_finding(r, summ, tables["options"]))
    for r in summ[summ["screen"] == "single"].itertuples():
        d = sides[(sides["bot"] == r.bot) & (sides["mode"] == r.mode)
                  & (sides["option"] == "default") & (sides["screen"] == "single")]
        per = "; ".join(f"{s.side} {_p(s.share)}% [{_p(s.ci_low)}, {_p(s.ci_high)}]"
                        + (f" ({s.side_size} seats)" if s.side_size > 1 else "")
                        for s in d.itertuples())
        verdict = _default_verdict(r)
        found.append(
            f"{r.bot}, {r.mode} (default {DEFAULT_SEATING[r.mode]}, {r.games} games): side "
            f"shares {per}; no winner {_p(r.default_no_winner)}%. {verdict}; the "
            f"largest gap from parity is side {r.default_worst_side}, U = "
            f"{_p(r.default_unfairness)} pts [{_p(r.default_u_ci_low)}, "
            f"{_p(r.default_u_ci_high)}] of win share.")
        found.append(f"{r.bot}, {r.mode}: " + _best_of_screen(r) + "; "
                     + _shown_fair(r) + ".")
        o = tables["options"]
        o = o[(o["bot"] == r.bot) & (o["mode"] == r.mode) & (o["screen"] == "single")]
        dflt = o[o["option"] == "default"].iloc[0]
        same = o[(o["change"] == "team_vetoes") & (o["shares"] == dflt["shares"])
                 & (o["no_winner"] == dflt["no_winner"])]
        if len(same):
            found.append(f"{r.bot}, {r.mode}: {', '.join(same['option'])} play(s) exactly the "
                         f"games of the default (team_vetoes = {DEFAULT_VETOES}) on the same "
                         "deals: this bot's team of two never uses a veto beyond the second.")
        if getattr(r, "fresh_best_fair", None) == "unfair":
            flags.append(f"{r.bot}, {r.mode}: no option searched reaches the margin — even "
                         f"the best ({r.best}), replayed on fresh deals, is unfair ("
                         f"{r.fresh_best_worst_side}).")
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
        for r in tu.itertuples():
            found.append(tuner_finding(r))
    return found, flags


def _default_verdict(r) -> str:
    """The default's TOST verdict per side on the screen (with its worst side's 90%
    interval), or a summary from before the TOST columns."""
    v = getattr(r, "default_verdict", None)
    if not isinstance(v, str):
        return "Not judged against the margin"
    return (f"Per side against the margin (TOST): {v} "
            f"({getattr(r, 'default_worst_side_verdict', '')})")


def _best_of_screen(r) -> str:
    """The screen's best and runner-up, each with its fresh-deal replay (a figure taken
    from a screen is not shown without it)."""
    head = (f"the closest to fair of {r.options} options ({r.distinct_games} distinct games "
            f"up to the A<->B mirror) on the screen is {r.best}, runner-up {r.runner_up}")
    if pd.isna(getattr(r, "fresh_best_unfairness", np.nan)):
        return head + " (not replayed on fresh deals: the screen's order is not a finding)"
    out = head + f"; the best {_fresh(r)}"
    if not pd.isna(getattr(r, "fresh_runner_up_unfairness", np.nan)) and \
            r.runner_up != r.best:
        out += (f", the runner-up's worst side is {_p(r.fresh_runner_up_unfairness)} pts "
                f"[{_p(r.fresh_runner_up_ci_low)}, {_p(r.fresh_runner_up_ci_high)}] from "
                f"parity, per side {r.fresh_runner_up_fair} ({r.fresh_runner_up_worst_side})")
    if not pd.isna(getattr(r, "best_minus_runner_up", np.nan)):
        out += (f"; best − runner-up {_p(r.best_minus_runner_up)} pts [{_p(r.bmr_ci_low)}, "
                f"{_p(r.bmr_ci_high)}]: "
                + ("the best is shown fairer" if r.bmr_ci_high < 0 else
                   "the runner-up is shown fairer" if r.bmr_ci_low > 0 else
                   "their order is not shown either way"))
    if not pd.isna(getattr(r, "best_minus_default", np.nan)):
        out += (f"; best − default {_p(r.best_minus_default)} pts "
                f"[{_p(r.bmd_ci_low)}, {_p(r.bmd_ci_high)}]")
    return out


def _shown_fair(r) -> str:
    n = getattr(r, "options_shown_fair", None)
    if n is None or pd.isna(n):
        return "no option judged against the margin"
    return (f"{int(n)} of {r.distinct_games} distinct games are shown fair on the screen "
            "(every side within the margin, TOST, Holm over the screen's games)")


def tuner_finding(r) -> str:
    """The tuner's answer, always with its replay (best − default on its confirmation
    deals) and, where the teams screen has the same seating, the screen's figure."""
    nan = float("nan")
    vd = [getattr(r, f"vs_default_{k}", nan) for k in ("diff", "ci_low", "ci_high")]
    verdict = getattr(r, "verdict", None)
    if not isinstance(verdict, str):
        verdict = TUNER_VERDICTS[0] if vd[2] < 0 else TUNER_VERDICTS[1] if vd[1] > 0 \
            else TUNER_VERDICTS[2]
    what = (f"the {r.parameter} closest to side parity is {r.best}"
            if verdict == TUNER_VERDICTS[0] else
            f"no {r.parameter} is shown closer to side parity than the default "
            f"{r.default} (the tuner's pick, {r.best}, is one among equals)")
    out = (f"tuner ({r.bot}, {r.search}): in {r.mode} {what}: replayed on {r.games} fresh "
           f"games, max - min side share {_p(r.best_parity)} pts [{_p(r.best_ci_low)}, "
           f"{_p(r.best_ci_high)}], default {r.default} {_p(r.default_parity)}; best - "
           f"default {_p(vd[0])} pts [{_p(vd[1])}, {_p(vd[2])}], {verdict}")
    rank = getattr(r, "screen_rank", nan)
    if not pd.isna(rank):
        out += (f"; on the teams screen (other deals) {r.best} ranks {int(rank)} of the "
                f"{int(r.screen_distinct)} distinct {r.parameter} options (U = "
                f"{_p(r.screen_unfairness)} pts "
                f"[{_p(r.screen_u_ci_low)}, {_p(r.screen_u_ci_high)}])")
    ru = getattr(r, "runner_up", None)
    if not isinstance(ru, str) and (ru is None or pd.isna(ru)):
        out += "; no runner-up (the race's other finalist was its A<->B mirror)" \
            if r.mode in SYMMETRIC and r.parameter == "seating" else ""
    return out + "."


def _fresh(r) -> str:
    """The fresh-deal replay of a screen's best option: its worst side *on the fresh
    deals*, with that side's TOST verdict and 90% interval."""
    if pd.isna(getattr(r, "fresh_best_unfairness", np.nan)):
        return "not replayed on fresh deals"
    return (f"on {r.fresh_games} fresh deals its worst side is "
            f"{_p(r.fresh_best_unfairness)} pts [{_p(r.fresh_best_ci_low)}, "
            f"{_p(r.fresh_best_ci_high)}] of win share from parity, per side "
            f"{r.fresh_best_fair} ({r.fresh_best_worst_side})")


def _pairs_finding(r, summ: pd.DataFrame, opts: pd.DataFrame) -> str:
    """Whether one change reaches the margin and what the best combination does, each
    with its fresh-deal replay (the screen's fairest pair or triple is named only when it
    is the replayed best: a screen's pick is not shown without its replay)."""
    one = summ[(summ["bot"] == r.bot) & (summ["mode"] == r.mode)
               & (summ["screen"] == "single")]
    head = f"{r.bot}, {r.mode}, combined changes: "
    if len(one):
        o = one.iloc[0]
        v = o.get("fresh_best_fair")
        said = ("one change reaches" if v == "fair" else "no single change reaches"
                if v == "unfair" else "no single change is shown to reach")
        head += f"{said} the margin (the best of {o.options}, {o.best}: {_fresh(o)}); "
    what = ("seating, team_vetoes and the trial handicap_points" if r.mode == "2v3" else
            "seating and the trial handicap_points")
    return (head + f"of {r.options} combinations of {what} ({r.games} games each on the "
            f"screen, the default U = {_p(r.default_unfairness)}), the best on the screen, "
            f"{r.best} ({r.best_changes} change{'' if r.best_changes == 1 else 's'}), "
            f"{_fresh(r)}.")


def fairness_findings(fair: pd.DataFrame) -> list[str]:
    """One sentence per (bot, mode): the TOST verdicts per side and per seat."""
    out = []
    for (bot, mode), g in fair.groupby(["bot", "mode"], sort=False):
        m = f"{100 * g['margin'].iloc[0]:g}"
        parts = []
        for d, h in g.groupby("definition", sort=False):
            sides_txt = "; ".join(f"{r.side} {_p(r.share_won)}% of won games vs "
                                  f"{_p(r.parity)}%: {r.verdict_text}" for r in h.itertuples())
            whom = ("each side against its seats' share size/n" if d == "per seat" else
                    "each side against 1/K")
            parts.append(f"{d} ({whom}): {mode_verdict(h)} ({sides_txt})")
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
    s = s[s["screen"] == "single"] if "screen" in s else s
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
    if "handicap_points" in s:
        small = {"2v3": "A", "2v2+1": "I"}
        for r in s[(s["change"] == "handicap_points")
                   & (s["side"] == s["mode"].map(small))].itertuples():
            rows.append({"figure": f"{r.mode} handicap_points={r.handicap_points}, side "
                                   f"{r.side} share - parity",
                         "bot": r.bot, "mean": r.gap, "ci_low": r.gap_ci_low,
                         "ci_high": r.gap_ci_high})
    if conf is not None and len(conf):
        conf = conf[conf["screen"] == "single"] if "screen" in conf else conf
        for r in conf[conf["role"] == "best - default"].itertuples():
            rows.append({"figure": f"{r.mode}: best option - default, unfairness (fresh deals)",
                         "bot": r.bot, "mean": r.diff, "ci_low": r.diff_ci_low,
                         "ci_high": r.diff_ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name. (Imported here,
# at the end, with the declarations they serve.)
import math
import re

from demos_sim.analysis.core.answers import Finding, Statement, Tables, by_rung, ci, span
from demos_sim.analysis.core.board import (BoardRow, Est, Item, Light, fit, notice, noticed,
                                           pp_text, quoted)
from demos_sim.analysis.core.protocol import DERIVED_NOTE, Derived, Page, Part, Report, Row


def _worst(g: pd.DataFrame) -> pd.Series:
    """The side that decides a mode's verdict (one bot's rows of one definition): the
    side furthest from parity (largest |diff|) among the unfair sides, else among the
    sides not shown fair, else among all (every side fair); between sides as far from
    parity (two sides: their shares of won games add up to 1), the one behind."""
    v = g["verdict"].astype(str)
    for k in ("unfair", "not shown fair"):
        if (v == k).any():
            g = g[v == k]
            break
    far = g["diff"].abs().round(12)
    return g[far == far.max()].sort_values("diff", kind="stable").iloc[0]


def _mode_verdict(g: pd.DataFrame) -> str:
    """A mode is fair when every side is, unfair when one side is (as
    :func:`demos_sim.analysis.core.fairness.mode_verdict`)."""
    v = set(g["verdict"].astype(str))
    return "fair" if v == {"fair"} else "unfair" if "unfair" in v else "not shown fair"


def _tost_text(r) -> str:
    """A side's TOST verdict with the 90% interval it rests on (``stats.Equivalence.text``
    from the table's columns; the table's own text when it lacks the 90% interval)."""
    if all(c in r and pd.notna(r[c]) for c in ("ci90_low", "ci90_high", "margin")):
        from demos_sim.analysis.core.stats import Equivalence

        e = Equivalence(float(r["diff"]), float(r["ci_low"]), float(r["ci_high"]),
                        float(r["ci90_low"]), float(r["ci90_high"]), float(r["margin"]),
                        float(r["p_tost"]) if "p_tost" in r else math.nan,
                        str(r["verdict"]))
        return e.text()
    return str(r["verdict_text"]) if "verdict_text" in r else str(r["verdict"])


def _same_test(g: pd.DataFrame) -> bool:
    """Per side and per seat test the same hypothesis (every side's two parities agree,
    as in 2v2: ½ = 2/4)."""
    ps = g.pivot_table(index=["bot", "side"], columns="definition", values="parity")
    return ({"per side", "per seat"} <= set(ps.columns)
            and bool(((ps["per side"] - ps["per seat"]).abs() < 1e-12).all()))


def _answer(t: Tables) -> Finding:
    f = Finding("teams", "Team modes")
    name = "teams/fairness.csv"
    fa = t.get(name, "bot", "mode", "side", "definition", "diff", "ci_low", "ci_high",
               "verdict")
    sides = t.get("teams/sides.csv", "bot", "mode", "option", "side", "gap", "gap_ci_low",
                  "gap_ci_high")
    if fa is not None:
        if "option" in fa:
            fa = fa[fa["option"] == "default"]
        margin = (f"±{100 * float(fa['margin'].iloc[0]):g} pp" if "margin" in fa
                  and len(fa) else "the margin")
        said = []
        for mode, g in fa.groupby("mode", sort=False):
            parts = []
            same = _same_test(g)
            for d in ("per side", "per seat"):
                h = g[g["definition"] == d]
                if h.empty:
                    continue
                if d == "per seat" and same:
                    parts.append(f"**{mode} per seat**: the same test as per side (each "
                                 "side's seats' share of the table is its parity per side)")
                    continue
                rows = pd.DataFrame([_worst(h[h["bot"] == b]) for b in t.order(h["bot"])])
                rows["mode_verdict"] = [_mode_verdict(h[h["bot"] == b]) for b in rows["bot"]]
                bit = f"**{mode} {d}**: " + by_rung(
                    t, rows, lambda x: f"side {x['side']} {_tost_text(x)}", "", sep="; ")
                if d == "per side" and sides is not None:
                    un = rows[rows["mode_verdict"] == "unfair"]
                    a = sides[(sides["mode"] == mode) & (sides["option"] == "default")
                              & sides["bot"].isin(un["bot"])]
                    if "screen" in a:
                        a = a[a["screen"] == "single"]
                    a = a[a["side"].astype(str) == str(un["side"].iloc[0])] if len(un) else a
                    if len(un) and len(a):
                        bit += (f" (where unfair, side {un['side'].iloc[0]} is "
                                f"{span(a, 'gap', signed=True)} pp of all games from the "
                                f"sides' mean, `{t.source('teams/sides.csv')}`)")
                parts.append(bit)
            said.append(". ".join(parts))
        f.statements.append(Statement(
            f"Fair = within {margin} of parity in share of won games, the 90% interval "
            "inside the margin (TOST); per side, every side's parity is ½ of the won games "
            "(⅓ in 2v2+1); per seat, a side's parity is its seats' share of the table, "
            "size/n (2v3: ⅖ and ⅗; 2v2+1: ⅖, ⅖, ⅕), since each of its seats wins when it "
            "wins. A mode is fair when every side is, unfair when one side is; shown: the "
            "side that decides it, its verdict, distance from parity (pp of won games) and "
            "90% interval. " + ". ".join(said), t.source(name)))
    _fresh_deals(t, f)
    return f


def _fresh_deals(t: Tables, f: Finding) -> None:
    """The best change of each unfair mode replayed on fresh deals (``teams/confirm.csv``):
    the side worst *on those deals* with its TOST verdict, its gap ``U`` in pp of all games
    and the paired difference from the default; ``teams/summary.csv`` when the section has
    no replay table."""
    name = "teams/confirm.csv"
    co = t.get(name, "bot", "mode", "role", "option", "worst_side", "unfairness", "ci_low",
               "ci_high", "fair_per_side", "worst_side_verdict")
    if co is None:
        return _fresh_deals_summary(t, f)
    for mode in ("2v3", "2v2+1"):
        m = co[co["mode"] == mode]
        if "screen" in m and (m["screen"] == "pairs").any():
            m = m[m["screen"] == "pairs"]
        best = m[m["role"] == "best"]
        if best.empty:
            continue
        vs = m[m["role"] == "best - default"]
        fair = [b for b in t.order(best["bot"])
                if (best[best["bot"] == b]["fair_per_side"] == "fair").any()]
        n = ""
        su = t.get("teams/summary.csv", "bot", "mode", "options")
        if su is not None and len(su[su["mode"] == mode]):
            sm = su[su["mode"] == mode]
            if "screen" in sm and "screen" in m:
                sm = sm[sm["screen"].isin(m["screen"])]
            if len(sm):
                n = f" of the {int(sm['options'].max())} options"
        bits = []
        for opt, rs in best.groupby("option", sort=False):
            def fmt(x, vs=vs):
                d = vs[vs["bot"] == x["bot"]]
                diff = ""
                if len(d) and {"diff", "diff_ci_low", "diff_ci_high"} <= set(d.columns):
                    r = d.iloc[0]
                    diff = ("; best − default "
                            f"{ci(r['diff'], r['diff_ci_low'], r['diff_ci_high'])}")
                return (f"worst side {x['worst_side_verdict']} (U "
                        f"{ci(x['unfairness'], x['ci_low'], x['ci_high'])} pp of all games"
                        f"{diff})")
            bits.append(f"`{opt}`: " + by_rung(t, rs, fmt, "", n="games", sep="; "))
        head = (f"In {mode} a change tried is fair on fresh deals at {', '.join(fair)}"
                if fair else f"**No change tried makes {mode} fair**")
        f.statements.append(Statement(
            head + f"; the best{n}, replayed on fresh deals, with the side worst on those "
            "deals (its verdict per side in pp of won games; U its gap from the sides' mean "
            "in pp of all games, and best − default the paired change of U from the "
            "default seating and rules): "
            + "; ".join(bits), t.source(name)))


def _fresh_deals_summary(t: Tables, f: Finding) -> None:
    name = "teams/summary.csv"
    su = t.get(name, "bot", "mode", "best", "fresh_best_worst_side")
    if su is None:
        return
    for mode in ("2v3", "2v2+1"):
        m = su[su["mode"] == mode]
        if "screen" in m and (m["screen"] == "pairs").any():
            m = m[m["screen"] == "pairs"]
        if m.empty:
            continue
        n = f" {int(m['options'].max())}" if "options" in m else ""
        fair = "fresh_best_fair" in m and (m["fresh_best_fair"] == "fair").any()
        bits = []
        for best, rs in m.groupby("best", sort=False):
            bits.append(f"`{best}`: " + by_rung(
                t, rs, lambda x: f"{x['fresh_best_worst_side']}", "",
                n="fresh_games" if "fresh_games" in rs else "games"))
        head = (f"In {mode} a change tried is fair on fresh deals" if fair else
                f"**No change tried makes {mode} fair**")
        f.statements.append(Statement(
            head + f"; the best of the{n} options replayed on fresh deals (their "
            "worst side): " + "; ".join(bits), t.source(name)))


def _teams_row(t: Tables) -> BoardRow | None:
    name = "teams/fairness.csv"
    fa = t.get(name, "bot", "mode", "side", "definition", "diff", "ci_low", "ci_high",
               "ci90_low", "ci90_high", "verdict", "parity")
    if fa is None:
        return None
    if "option" in fa:
        fa = fa[fa["option"] == "default"]
    fa = fa[fa["definition"] == "per side"]
    q = quoted(t, fa["bot"])
    items, lights, said = [], [], []
    for mode, g in fa.groupby("mode", sort=False):
        h = g[g["bot"] == q]
        if h.empty:
            continue
        w = _worst(h)
        v = _mode_verdict(h)
        rungs = []
        for b in t.order(g["bot"]):
            r = g[(g["bot"] == b) & (g["side"] == w["side"])]
            if len(r):
                r = r.iloc[0]
                rungs.append(Est(b, 100 * r["diff"], 100 * r["ci90_low"], 100 * r["ci90_high"],
                                 _mode_verdict(g[g["bot"] == b]),
                                 int(r["games"]) if "games" in r else None))
        at = Est(q, 100 * w["diff"], 100 * w["ci90_low"], 100 * w["ci90_high"], v)
        items.append(Item(f"{mode} side {w['side']}", at, rungs))
        lights.append(Light(mode, v))
        said.append((mode, w, v))
    if not items:
        return None
    order = {"unfair": 0, "not shown fair": 1, "fair": 2}
    said.sort(key=lambda x: (order[x[2]], -abs(x[1]["diff"])))
    bits = [f"{m} {v} ({w['side']} {pp_text(100 * w['diff'])} pp)" for m, w, v in said]
    sentence = fit(f"Share of won games against parity ({q} bots): " + ", ".join(bits), ".")
    m, w, v = said[0]
    return BoardRow(
        "teams", "Are the team modes fair?", lights, sentence,
        noticed(abs(w["diff"]), float(w["parity"]), False),
        f"{m}'s side {w['side']} off parity", items, "pp of won games from parity", "90%",
        100 * float(fa["margin"].iloc[0]) if "margin" in fa else 100 * FAIR_MARGIN,
        "teams", [t.source(name)], q)


_VERDICT = re.compile(r"^(?P<side>[^:]+): (?P<v>[^:]+): (?P<d>[+−-][\d.]+) pp, 90% "
                      r"\[(?P<lo>[+−-][\d.]+), (?P<hi>[+−-][\d.]+)\]")


def _signed_number(s: str) -> float:
    return float(s.replace("−", "-"))


def _change_row(t: Tables) -> BoardRow | None:
    """The best change of each unfair team mode replayed on fresh deals
    (``teams/confirm.csv``: the side worst on those deals, its TOST verdict and 90%
    interval in pp of won games)."""
    name = "teams/confirm.csv"
    co = t.get(name, "bot", "mode", "role", "option", "worst_side_verdict")
    if co is None:
        return None
    items, lights, said = [], [], []
    q = quoted(t, co["bot"])
    for mode in ("2v3", "2v2+1"):
        m = co[co["mode"] == mode]
        if "screen" in m and (m["screen"] == "pairs").any():
            m = m[m["screen"] == "pairs"]

        def parse(role: str, b: str):
            r = m[(m["role"] == role) & (m["bot"] == b)]
            g = r.iloc[0] if len(r) else None
            hit = _VERDICT.match(str(g["worst_side_verdict"])) if g is not None else None
            return g, hit

        rungs = []
        for b in t.order(m["bot"]):
            g, hit = parse("best", b)
            if hit:
                rungs.append(Est(b, _signed_number(hit["d"]), _signed_number(hit["lo"]),
                                 _signed_number(hit["hi"]), hit["v"],
                                 int(g["games"]) if "games" in g else None))
        g, hit = parse("best", q)
        if not hit:
            continue
        _, dhit = parse("default", q)
        at = next(x for x in rungs if x.bot == q)
        items.append(Item(f"{mode} side {hit['side']}", at, rungs,
                          _signed_number(dhit["d"]) if dhit else None))
        lights.append(Light(mode, at.verdict))
        said.append((mode, g["option"], at))
    if not items:
        return None
    bits = []
    for mode, opt, at in said:
        if at.verdict == "fair":
            bits.append(f"{mode}: {opt} makes it fair ({pp_text(at.est)} pp)")
        else:
            bits.append(f"{mode}: the best tried, {opt}, leaves {pp_text(at.est)} pp, "
                        f"{at.verdict}")
    sentence = fit("; ".join(bits), f" ({q} bots).")
    if not sentence.endswith("."):
        sentence += "."
    head = max(said, key=lambda s: abs(s[2].est))
    # the side's parity per side (fairness.csv), ½ of the won games for two sides
    parity = 0.5
    fa = t.get("teams/fairness.csv", "mode", "definition", "parity")
    if fa is not None:
        p = fa[(fa["mode"] == head[0]) & (fa["definition"] == "per side")]["parity"]
        parity = float(p.iloc[0]) if len(p) else parity
    return BoardRow(
        "change", "What would make 2v3 and 2v2+1 fair?", lights, sentence,
        noticed(abs(head[2].est) / 100, parity, False),
        f"{head[0]}'s unfairness left by its best change", items,
        "pp of won games from parity (○ default)", "90%", 100 * FAIR_MARGIN, "teams",
        [t.source(name)], q)


def _fairness_table(out: Path) -> pd.DataFrame | None:
    """``teams/fairness.csv``, or the report's derivation of it from ``sides.csv``."""
    folder = Path(out) / "teams"
    if (folder / "fairness.csv").exists():
        return pd.read_csv(folder / "fairness.csv")
    if (folder / "sides.csv").exists():
        return fairness(pd.read_csv(folder / "sides.csv"))
    return None


def _notice(out: Path) -> str:
    """The games people would need to notice the 2v3 team of two's and the 2v2+1
    Independent's deficits."""
    fair = _fairness_table(out)
    if fair is None:
        return ""
    if "option" in fair:
        fair = fair[fair["option"] == "default"]
    said = []
    for mode, side, d, p0, what in (("2v3", "A", "per side", 0.5,
                                     "the 2v3 team of two's deficit"),
                                    ("2v2+1", "I", "per seat", 0.2,
                                     "the 2v2+1 Independent's per-seat deficit")):
        r = fair[(fair["mode"] == mode) & (fair["side"] == side) & (fair["definition"] == d)]
        said.append(notice([(b, float(x)) for b, x in zip(r["bot"], r["diff"])][:2],
                           p0, False, what))
    return "".join(said)


REPORT = Report(
    question="Are the team modes fair, and what would fix 2v3 and 2v2+1?", key_plot="sides.png",
    answer=_answer, notice=_notice,
    rows=(Row("teams", 10, _teams_row, Page(
              "team-modes", "Are the team modes fair?",
              "Whether 2v2, 2v3 and 2v2+1 give each side and each seat its fair part of the "
              "won games, and what change comes closest to fair where they do not.",
              ("teams/sides.png", "teams/unfairness.png", "teams/decided_2v2p1.png",
               "teams/pairs.png")), readme=True),
          Row("change", 80, _change_row, Page(
              "what-to-change", "What should change?",
              "The changes the analyses tried that move the balance most, and the best "
              "candidates they found for the team modes, the point values and the city's "
              "collapse threshold.",
              ("variants/variant_effects.png", "teams/pairs.png"),
              (Part("teams", ("confirm",)), Part("tuning"), Part("variants"),
               Part("assemblee", ("tune_best",)))))),
    derived=(Derived("fairness", fairness, "table " + DERIVED_NOTE.format(src="sides.csv"),
                     source="sides"),))
