"""Protocole level difficulty (RULES.md P5, P4).

All together (coop, RULES.md P5): the team's win rate at levels 1, 2 and 3 for 2, 3 and
4 players with each policy at every seat; the record (cards in all Foyers, P5.2) of won
games; how games are lost (elimination or reinforced control, against which Norm, how
many Foyers at once); whether every level is harder than the one below it (paired, on
the same deals). Each for themselves (P4): elimination rates, seat advantage, and the
``standard_tie`` variant. Coop levels 2 and 3: the ``reinforced_scope`` variant.

Protocole has no bot ladder like DĒMOS: the policies themselves are the skill axis
(:data:`RUNGS`: the analysis runs every experiment file once per policy, ``{bot}`` in the
file is the policy at every seat, the run is named ``<file>-<policy>``). ``random`` is a
floor shown in the tables; the difficulty flags and the key figures use the four
playing policies (:data:`SKILL`), the search ``ismcts@16`` on far fewer games.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.answers import (Finding, Statement, Tables, ci, games,
                                             games_phrase, pct as pct_ci, span)
from demos_sim.analysis.core.board import (BoardRow, Est, Item, Light, fit, key_effects, notice,
                                           noticed, quoted, read_key_figures)
from demos_sim.analysis.core.formatting import interval, pct, pp
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import figure, heatmap
from demos_sim.analysis.core.protocol import Page, Report, Row
from demos_sim.analysis.core.stats import Z95, adjust, p_value

TITLE = "Protocole: level difficulty, losses, seat advantage and variants"
METHOD = (
    "Every seat plays the same policy; the policies are the skill axis (random, cautious "
    "— built for each for themselves —, convention and planner — built for all together). "
    "All together: levels 1–3 × 2–4 players, the three levels of a player count on the "
    "same deals (same setup removal and round-0 shuffle; the level changes the Foyer deal, "
    "P1.3). Win rates and outcome shares are means of per-game indicators with normal 95% "
    "intervals; shares of losses (cause of loss) are ratios over lost games with "
    "delta-method intervals; the record of won games (cards in all Foyers) is summarised "
    "from its exact histogram (mean with a normal interval, quantiles). Difficulty: for "
    "each player count and policy, the paired difference of win rates level L+1 − level L "
    "on the same deals and a one-sided normal test of 'level L+1 is harder' (H0: "
    "difference ≥ 0); the p-values of the 24 comparisons of cautious, convention, "
    "planner and ismcts@16 (2 steps × 3 player counts × 4 policies) are Holm–Bonferroni "
    "adjusted, and a "
    "step is flagged when its adjusted p-value is 0.05 or more (not shown harder) — "
    "random's steps are listed with raw p-values only. Each for themselves: elimination "
    "rate and M1 win share by seat (seat 0 holds the first Initiative, P1.4); the seat "
    "edge is the per-game difference between the seat's share and the mean share of all "
    "seats, so its interval is exact (0 = parity), two-sided p-values Holm-adjusted over "
    "every seat × player count × policy. Variants, paired against the default on the "
    "same deals: standard_tie = discard_all in each for themselves (it has no effect in "
    "coop, whose selection is always reinforced, P3.2: the coop runs include it as a "
    "check that must give exactly 0) and reinforced_scope = team at coop levels 2 and 3 "
    "(it cannot matter at level 1); two-sided p-values Holm-adjusted over the whole "
    "variant table.")
EXPERIMENTS = ["protocole_levels_coop", "protocole_levels_each",
               "protocole_levels_scope_l2", "protocole_levels_scope_l3"]
# policy -> share of each file's games (random only sets a floor: half the games); the
# search at a budget it affords: ismcts@16 (planner's rollouts from determinised hands, in
# all-together mode the convention plus search of P5.1) plays about 110 games/s a core
# against planner's 100,000, hence 1/256 of the games
RUNGS = {"random": 0.5, "cautious": 1.0, "convention": 1.0, "planner": 1.0, "ismcts@16": 1 / 256}
SKILL = ("cautious", "convention", "planner", "ismcts@16")
SHOW = ["coop_win", "level_steps", "record", "losses", "each_seats", "each_summary",
        "variants"]
ALPHA = 0.05
HOLM = "holm"
LEVEL_COL = "grid_level"          # the runner's column of the swept `level` setting
SCOPE_STEMS = {"protocole_levels_scope_l2": 2, "protocole_levels_scope_l3": 3}

_CI = ["mean", "ci_low", "ci_high"]


# ------------------------------------------------------------------ statistics
def one_sided_p(diff: float, half_width: float, z: float = Z95) -> float:
    """p-value of H0 ``difference ≥ 0`` against H1 ``difference < 0`` (normal).

    ``half_width`` is the 95% half-width of the difference (``z · se``). Zero spread: 0
    when the difference is negative, 1 otherwise.
    """
    from scipy.stats import norm

    if not (half_width > 0):
        if math.isnan(half_width):
            return float("nan")
        return 0.0 if diff < 0 else 1.0
    return float(norm.cdf(diff / (half_width / z)))


def hist_summary(values, counts, z: float = Z95) -> dict:
    """Mean (normal 95% interval), sd, quantiles of a distribution given as a histogram."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    keep = c > 0
    v, c = v[keep], c[keep]
    n = c.sum()
    out = {"n": int(n), "mean": np.nan, "sd": np.nan, "ci_low": np.nan, "ci_high": np.nan,
           "p10": np.nan, "median": np.nan, "p90": np.nan, "min": np.nan, "max": np.nan}
    if n < 1:
        return out
    order = np.argsort(v)
    v, c = v[order], c[order]
    mean = float((v * c).sum() / n)
    out.update(mean=mean, min=float(v[0]), max=float(v[-1]))
    if n >= 2:
        var = float((c * (v - mean) ** 2).sum() / (n - 1))
        sd = math.sqrt(var)
        half = z * sd / math.sqrt(n)
        out.update(sd=sd, ci_low=mean - half, ci_high=mean + half)
    cum = np.cumsum(c) / n
    for name, q in (("p10", 0.1), ("median", 0.5), ("p90", 0.9)):
        out[name] = float(v[np.searchsorted(cum, q - 1e-12)])
    return out


# ------------------------------------------------------------------ tables
def _res(runs, stem: str, metric: str) -> pd.DataFrame:
    if stem not in {e for e, _ in runs.items}:
        return pd.DataFrame()
    df = runs.results(stem, metric).copy()
    if LEVEL_COL in df.columns:
        df["lvl"] = df[LEVEL_COL].astype(int)
    elif stem in SCOPE_STEMS:
        df["lvl"] = SCOPE_STEMS[stem]
    return df


def _bot_order(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    rank = {b: i for i, b in enumerate(RUNGS)}
    return (df.assign(_b=df["bot"].map(rank).fillna(99)).sort_values(["_b", *keys], kind="stable")
              .drop(columns="_b").reset_index(drop=True))


def coop_win_table(runs) -> pd.DataFrame:
    """Team win rate by policy × players × level, with rounds and the outcome shares."""
    ws = _res(runs, "protocole_levels_coop", "win_share")
    ws = ws[ws["side"] == "0"]
    key = ["bot", "players", "lvl"]
    out = ws[key + ["games", "count", *_CI]].rename(
        columns={"count": "wins", "mean": "win_rate"})
    rd = _res(runs, "protocole_levels_coop", "rounds")[key + _CI].rename(
        columns={"mean": "rounds", "ci_low": "rounds_ci_low", "ci_high": "rounds_ci_high"})
    out = out.merge(rd, on=key)
    oc = _res(runs, "protocole_levels_coop", "outcome")
    for b in ("loss_elimination", "loss_reinforced", "truncated"):
        part = oc[oc["side"] == b][key + ["mean"]].rename(columns={"mean": b})
        out = out.merge(part, on=key)
    return _bot_order(out.rename(columns={"lvl": "level"}), ["players", "level"])


def level_steps_table(runs) -> pd.DataFrame:
    """Paired win-rate differences level L+1 − level L (same deals), one-sided tests.

    The coop file's reference is level 2, so the runner's paired differences are
    ``L1 − L2`` (negated here into the step 2 vs 1) and ``L3 − L2`` (the step 3 vs 2).
    """
    ws = _res(runs, "protocole_levels_coop", "win_share")
    ws = ws[ws["side"] == "0"]
    rows = []
    for (bot, n), g in ws.groupby(["bot", "players"], sort=False):
        by = {int(r.lvl): r for r in g.itertuples(index=False)}
        if not {1, 2, 3} <= set(by):
            continue
        for lo_lvl, hi_lvl in ((1, 2), (2, 3)):
            lo, hi = by[lo_lvl], by[hi_lvl]
            if hi_lvl == 3:
                d, dl, dh, hw = hi.diff, hi.diff_ci_low, hi.diff_ci_high, hi.diff_half_width
            else:
                d, dl, dh, hw = -lo.diff, -lo.diff_ci_high, -lo.diff_ci_low, lo.diff_half_width
            rows.append({"bot": bot, "players": n, "step": f"{hi_lvl} vs {lo_lvl}",
                         "lower_level": lo_lvl, "upper_level": hi_lvl, "games": hi.games,
                         "win_lower": lo.mean, "win_upper": hi.mean, "diff": d,
                         "diff_ci_low": dl, "diff_ci_high": dh,
                         "p_one_sided": one_sided_p(d, hw)})
    out = pd.DataFrame(rows, columns=[
        "bot", "players", "step", "lower_level", "upper_level", "games", "win_lower",
        "win_upper", "diff", "diff_ci_low", "diff_ci_high", "p_one_sided"])
    out["in_family"] = out["bot"].isin(SKILL)
    out["p_holm"] = np.nan
    fam = out["in_family"].to_numpy()
    if fam.any():
        out.loc[fam, "p_holm"] = adjust(out.loc[fam, "p_one_sided"].to_numpy(), HOLM)
    out["harder"] = np.where(out["in_family"], out["p_holm"] < ALPHA,
                             out["p_one_sided"] < ALPHA)
    out["easier"] = out["diff_ci_low"] > 0
    return _bot_order(out, ["players", "lower_level"])


def record_tables(runs) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The record of won games (cards in all Foyers, P5.2): summary and histogram."""
    stem = "protocole_levels_coop"
    if stem not in {e for e, _ in runs.items}:
        return pd.DataFrame(), pd.DataFrame()
    h = runs.hists(stem, "foyer_cards").copy()
    h["lvl"] = h[LEVEL_COL].astype(int)
    h = h[h["lo"] >= 1]          # 0 = a loss (won games hold every Foyer: >= players·level)
    ws = _res(runs, stem, "win_share")
    ws = ws[ws["side"] == "0"].set_index(["bot", "players", "lvl"])
    srows, hrows = [], []
    for (bot, n, lvl), g in ws.groupby(level=[0, 1, 2], sort=False):
        hg = h[(h["bot"] == bot) & (h["players"] == n) & (h["lvl"] == lvl)]
        s = hist_summary(hg["lo"], hg["count"])
        r = g.iloc[0]
        srows.append({"bot": bot, "players": n, "level": lvl, "games": int(r.games),
                      "won_games": s["n"], "record_mean": s["mean"], "ci_low": s["ci_low"],
                      "ci_high": s["ci_high"], "sd": s["sd"], "min": s["min"],
                      "p10": s["p10"], "median": s["median"], "p90": s["p90"],
                      "max": s["max"], "min_possible": n * lvl})
        tot = hg["count"].sum()
        for x in hg.sort_values("lo").itertuples(index=False):
            hrows.append({"bot": bot, "players": n, "level": lvl, "cards": int(x.lo),
                          "won_games": int(x.count), "share_of_wins": x.count / tot})
    rec = _bot_order(pd.DataFrame(srows), ["players", "level"])
    hist = pd.DataFrame(hrows, columns=["bot", "players", "level", "cards", "won_games",
                                        "share_of_wins"])
    return rec, _bot_order(hist, ["players", "level", "cards"])


def losses_table(runs) -> pd.DataFrame:
    """How games end (share of games) and how they are lost (share of lost games)."""
    key = ["bot", "players", "lvl"]
    parts = []
    for metric, over in (("outcome", "games"), ("loss_cause", "lost games"),
                         ("failed_foyers", "lost games")):
        df = _res(runs, "protocole_levels_coop", metric)
        if metric == "failed_foyers":
            df = df[df["side"].astype(int) <= df["players"]]
        parts.append(df[key + ["side", "games", "denominator", "count", *_CI]]
                     .assign(measure=metric, share_of=over))
    out = pd.concat(parts, ignore_index=True).rename(
        columns={"side": "category", "mean": "share", "lvl": "level"})
    out = out[["bot", "players", "level", "measure", "share_of", "category", "games",
               "denominator", "count", "share", "ci_low", "ci_high"]]
    return _bot_order(out, ["players", "level"])


def each_tables(runs) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each for themselves at the default rules: by seat, and by game."""
    stem = "protocole_levels_each"
    if stem not in {e for e, _ in runs.items}:
        return pd.DataFrame(), pd.DataFrame()

    def ref(metric):
        df = _res(runs, stem, metric)
        return df[df["standard_tie"] == "keep_tied"]

    key = ["bot", "players", "side"]
    ws = ref("win_share")[key + ["games", *_CI]].rename(
        columns={"mean": "win_share", "ci_low": "win_ci_low", "ci_high": "win_ci_high"})
    el = ref("eliminated")[key + _CI].rename(
        columns={"mean": "eliminated", "ci_low": "elim_ci_low", "ci_high": "elim_ci_high"})
    ed = ref("seat_edge")[key + _CI + ["half_width"]].rename(
        columns={"mean": "edge", "ci_low": "edge_ci_low", "ci_high": "edge_ci_high"})
    seats = ws.merge(el, on=key).merge(ed, on=key).rename(columns={"side": "seat"})
    seats["seat"] = seats["seat"].astype(int)
    seats["parity"] = seats["win_share"] - seats["edge"]
    seats["p_value"] = [p_value(e, hw) for e, hw in zip(seats["edge"], seats["half_width"])]
    seats = seats.drop(columns="half_width")
    seats["p_holm"] = adjust(seats["p_value"].to_numpy(), HOLM) if len(seats) else []
    seats = _bot_order(seats, ["players", "seat"])

    gk = ["bot", "players"]
    summ = ref("no_winner")[gk + ["games", *_CI]].rename(
        columns={"mean": "no_winner", "ci_low": "no_winner_ci_low",
                 "ci_high": "no_winner_ci_high"})
    for metric, name in (("truncated", "truncated"), ("rounds", "rounds")):
        d = ref(metric)[gk + _CI].rename(columns={"mean": name, "ci_low": f"{name}_ci_low",
                                                  "ci_high": f"{name}_ci_high"})
        summ = summ.merge(d, on=gk)
    pts = ref("points").groupby(gk)["mean"].mean().rename("mean_points").reset_index()
    summ = summ.merge(pts, on=gk)
    el = ref("eliminated").groupby(gk)["mean"].mean().rename("elim_rate_mean").reset_index()
    summ = summ.merge(el, on=gk)
    return seats, _bot_order(summ, ["players"])


def variants_table(runs) -> pd.DataFrame:
    """Paired effect of each variant against its default, on the same deals."""
    rows = []

    def add(df, variant, value, mode, metrics):
        for r in df.itertuples(index=False):
            rows.append({"variant": variant, "value": value, "mode": mode,
                         "level": getattr(r, "lvl", np.nan), "bot": r.bot,
                         "players": r.players, "metric": metrics[(r.metric, r.side)],
                         "games": r.games, "reference": r.mean - r.diff, "value_mean": r.mean,
                         "diff": r.diff, "diff_ci_low": r.diff_ci_low,
                         "diff_ci_high": r.diff_ci_high,
                         "p_value": p_value(r.diff, r.diff_half_width)})

    stem = "protocole_levels_each"
    if stem in {e for e, _ in runs.items}:
        res = runs.results(stem)
        res = res[res["standard_tie"] == "discard_all"]
        names = {("no_winner", "all"): "no-winner share", ("rounds", "all"): "rounds per game"}
        for s in range(4):
            names[("win_share", str(s))] = f"win share seat {s}"
            names[("eliminated", str(s))] = f"elimination rate seat {s}"
        sel = res[[(m, sd) in names for m, sd in zip(res["metric"], res["side"])]]
        add(sel, "standard_tie", "discard_all", "each", names)
    names = {("win_share", "0"): "team win rate", ("outcome", "loss_reinforced"):
             "loss by reinforced control"}
    for stem, lvl in SCOPE_STEMS.items():
        if stem not in {e for e, _ in runs.items}:
            continue
        res = runs.results(stem).assign(lvl=lvl)
        sel = res[[(m, sd) in names for m, sd in zip(res["metric"], res["side"])]]
        team = sel[(sel["reinforced_scope"] == "team") & (sel["standard_tie"] == "keep_tied")]
        add(team, "reinforced_scope", "team", f"coop level {lvl}", names)
        tie = sel[(sel["reinforced_scope"] == "each_player")
                  & (sel["standard_tie"] == "discard_all")]
        add(tie, "standard_tie", "discard_all (no-op check)", f"coop level {lvl}", names)
    cols = ["variant", "value", "mode", "level", "bot", "players", "metric", "games",
            "reference", "value_mean", "diff", "diff_ci_low", "diff_ci_high", "p_value"]
    out = pd.DataFrame(rows, columns=cols)
    out["p_holm"] = adjust(out["p_value"].to_numpy(), HOLM) if len(out) else []
    return _bot_order(out, ["variant", "mode", "players", "metric"])


def tables(runs) -> dict[str, pd.DataFrame]:
    record, record_hist = record_tables(runs)
    seats, summary = each_tables(runs)
    return {"coop_win": coop_win_table(runs), "level_steps": level_steps_table(runs),
            "record": record, "record_hist": record_hist, "losses": losses_table(runs),
            "each_seats": seats, "each_summary": summary, "variants": variants_table(runs)}


# ------------------------------------------------------------------ plots
def _bots(df: pd.DataFrame) -> list[str]:
    return [b for b in RUNGS if b in set(df["bot"])] if len(df) else []


def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    cw = tables["coop_win"]
    if len(cw):
        ps = sorted(cw["players"].unique())
        fig, ax = figure(len(ps), 1, 4.4, 3.4)
        for j, n in enumerate(ps):
            a = ax[0][j]
            for k, bot in enumerate(_bots(cw)):
                d = cw[(cw["players"] == n) & (cw["bot"] == bot)].sort_values("level")
                x = d["level"].to_numpy() + (k - 1.5) * 0.04
                y = d["win_rate"].to_numpy()
                a.errorbar(x, y, yerr=[y - d["ci_low"].to_numpy(), d["ci_high"].to_numpy() - y],
                           marker="o", capsize=3, label=bot)
            a.set_xticks([1, 2, 3])
            a.set_xlabel("level")
            a.set_title(f"{n} players")
            a.set_ylim(0, 1)
            a.grid(alpha=0.3)
        ax[0][0].set_ylabel("team win rate (95% CI)")
        ax[0][-1].legend(fontsize=8)
        fig.suptitle("All together: difficulty curves")
        fig.savefig(folder / "difficulty_curves.png")
        names.append("difficulty_curves.png")

    ls = tables["losses"]
    if len(ls):
        oc = ls[ls["measure"] == "outcome"]
        bots = _bots(oc)
        fig, ax = figure(len(bots), 1, 4.0, 3.4)
        colours = {"win": "tab:green", "loss_elimination": "tab:red",
                   "loss_reinforced": "tab:orange", "truncated": "tab:grey"}
        for j, bot in enumerate(bots):
            a = ax[0][j]
            d = oc[oc["bot"] == bot]
            setups = d[["players", "level"]].drop_duplicates().sort_values(["players", "level"])
            labels = [f"{p}p L{lv}" for p, lv in setups.itertuples(index=False)]
            bottom = np.zeros(len(setups))
            for cat, col in colours.items():
                v = np.array([d[(d["players"] == p) & (d["level"] == lv)
                                & (d["category"] == cat)]["share"].sum()
                              for p, lv in setups.itertuples(index=False)])
                a.bar(range(len(v)), v, bottom=bottom, color=col, label=cat)
                bottom += v
            a.set_xticks(range(len(labels)), labels, rotation=60, fontsize=7)
            a.set_title(bot)
            a.set_ylim(0, 1)
        ax[0][0].set_ylabel("share of games")
        ax[0][-1].legend(fontsize=7)
        fig.suptitle("All together: how games end")
        fig.savefig(folder / "outcomes.png")
        names.append("outcomes.png")

    rh = tables["record_hist"]
    if len(rh):
        bots = [b for b in _bots(rh) if b in SKILL] or _bots(rh)
        ps = sorted(rh["players"].unique())
        fig, ax = figure(len(ps), len(bots), 3.8, 2.8)
        for i, bot in enumerate(bots):
            for j, n in enumerate(ps):
                a = ax[i][j]
                for lvl in (1, 2, 3):
                    d = rh[(rh["bot"] == bot) & (rh["players"] == n) & (rh["level"] == lvl)]
                    if len(d):
                        a.plot(d["cards"], d["share_of_wins"], marker=".", label=f"level {lvl}")
                a.set_title(f"{bot}, {n} players", fontsize=9)
                a.grid(alpha=0.3)
                if i == len(bots) - 1:
                    a.set_xlabel("record: cards in all Foyers")
        ax[0][0].set_ylabel("share of won games")
        ax[0][-1].legend(fontsize=7)
        fig.suptitle("All together: the record of won games")
        fig.savefig(folder / "record.png")
        names.append("record.png")

    es = tables["each_seats"]
    if len(es):
        bots = _bots(es)
        # each bot on a scale of its own (random's ±0.2 pp would be white on cautious's
        # ±12 pp): the colour says which seat has the edge, the number how much
        fig, ax = figure(len(bots), 1, 3.6, 2.8)
        for j, bot in enumerate(bots):
            a = ax[0][j]
            d = es[es["bot"] == bot]
            ps = sorted(d["players"].unique())
            m = np.full((len(ps), 4), np.nan)
            for r in d.itertuples(index=False):
                m[ps.index(r.players), r.seat] = 100 * r.edge
            heatmap(a, m, [[f"{v:+.1f}" for v in row] for row in m], label="pp",
                    fontsize=7)
            a.set_xticks(range(4))
            a.set_yticks(range(len(ps)), [f"{p}p" for p in ps])
            a.set_xlabel("seat (0: first Initiative)")
            a.set_title(bot)
        fig.suptitle("Each for themselves: seat edge, win share − mean share (pp of games; "
                     "each bot on its own scale)")
        fig.savefig(folder / "seat_edge.png")
        names.append("seat_edge.png")

    va = tables["variants"]
    if len(va):
        d = va[va["metric"].isin(["team win rate", "no-winner share"])
               & ~va["value"].str.contains("no-op")]
        if len(d):
            d = d.reset_index(drop=True)
            fig, ax = figure(1, 1, 7.0, 0.22 * len(d) + 1.2)
            a = ax[0][0]
            y = np.arange(len(d))
            x = d["diff"].to_numpy()
            a.errorbar(x, y, xerr=[x - d["diff_ci_low"].to_numpy(),
                                   d["diff_ci_high"].to_numpy() - x], fmt="o", capsize=2)
            a.axvline(0, color="k", lw=0.8)
            a.set_yticks(y, [f"{r.variant}={r.value}, {r.mode}, {r.players}p, {r.bot}: "
                             f"{r.metric}" for r in d.itertuples(index=False)], fontsize=7)
            a.invert_yaxis()
            a.set_xlabel("paired difference vs default (95% CI)")
            fig.savefig(folder / "variants.png")
            names.append("variants.png")
    return names


# ------------------------------------------------------------------ findings
def _ci(lo: float, hi: float) -> str:
    """An interval of a share in percent: ``[12.3, 14.5]``."""
    return interval(lo, hi, "{:.1f}", scale=100)


def _pp(x: float, lo: float, hi: float) -> str:
    """A difference in percentage points with its interval: ``+1.2 points [+0.4, +2.0]``."""
    return f"{pp(x)} points {interval(lo, hi, '{:+.1f}', scale=100)}"


def findings(tables: dict) -> tuple[list[str], list[str]]:
    found, flags = [], []
    cw = tables["coop_win"]
    for bot in _bots(cw):
        d = cw[cw["bot"] == bot]
        parts = []
        for n, g in d.groupby("players"):
            g = g.sort_values("level")
            parts.append(f"{n} players " + " / ".join(
                f"{pct(r.win_rate)} {_ci(r.ci_low, r.ci_high)}" for r in g.itertuples()))
        found.append(f"All together, {bot} at every seat wins (levels 1 / 2 / 3, "
                     f"{int(d['games'].iloc[0])} games each): " + "; ".join(parts) + ".")
    st = tables["level_steps"]
    fam = st[st["in_family"]]
    if len(fam):
        bad = fam[~fam["harder"]]
        if len(bad) == 0:
            sm = fam.loc[fam["diff"].idxmax()]
            found.append(f"Every level is harder than the one below it for cautious, "
                         f"convention and planner at 2, 3 and 4 players: all {len(fam)} "
                         f"paired one-sided tests reject 'not harder' after Holm correction; "
                         f"the smallest step is level {sm.step} at {sm.players} players with "
                         f"{sm.bot}: {_pp(sm['diff'], sm.diff_ci_low, sm.diff_ci_high)}.")
        for r in bad.itertuples():
            kind = "EASIER than" if r.easier else "not shown harder than"
            flags.append(f"Level {r.upper_level} is {kind} level {r.lower_level} at "
                         f"{r.players} players with {r.bot}: win rate "
                         f"{pct(r.win_lower)} → {pct(r.win_upper)}, paired difference "
                         f"{_pp(r.diff, r.diff_ci_low, r.diff_ci_high)}, Holm-adjusted "
                         f"one-sided p = {r.p_holm:.3g}.")
    rnd = st[~st["in_family"]]
    if len(rnd):
        nh = rnd[~rnd["harder"]]
        if len(nh):
            found.append(f"With random play, {len(nh)} of {len(rnd)} level steps are not "
                         f"detectably harder (raw one-sided p ≥ 0.05; random rarely wins "
                         f"at any level): " + ", ".join(
                             f"{r.step} at {r.players}p ({pct(r.win_lower)} → "
                             f"{pct(r.win_upper)})" for r in nh.itertuples()) + ".")
    rec = tables["record"]
    if len(rec):
        for bot in [b for b in _bots(rec) if b in SKILL]:
            d = rec[(rec["bot"] == bot) & (rec["won_games"] > 0)]
            if len(d):
                found.append(f"Record of won games with {bot} (cards in all Foyers, median "
                             f"[10th–90th percentile]): " + "; ".join(
                                 f"{r.players}p L{r.level} {r.median:.0f} [{r.p10:.0f}–"
                                 f"{r.p90:.0f}]" for r in d.itertuples()) + ".")
    if len(cw):
        found.append(f"All-together games are short: {cw['rounds'].min():.2f}–"
                     f"{cw['rounds'].max():.2f} rounds on average (a round ending with 7 or "
                     f"fewer Norm cards ends the game, P5.2).")
    ls = tables["losses"]
    if len(ls):
        lc = ls[(ls["measure"] == "loss_cause") & ls["bot"].isin(SKILL)
                & (ls["denominator"] > 0)]
        parts = []
        for cat, g in lc.groupby("category", sort=False):
            top = g.loc[g["share"].idxmax()]
            parts.append(f"{cat} {pct(g['share'].min())}–{pct(top.share)} (highest: "
                         f"{top.bot}, {top.players}p, level {top.level})")
        if parts:
            found.append("How all-together games are lost (share of lost games, range over "
                         "levels, player counts and cautious/convention/planner): "
                         + "; ".join(parts) + ". elim_final is an elimination at a control "
                         "with 1–7 Norm cards, the control that would have ended the game.")
        ff = ls[(ls["measure"] == "failed_foyers") & ls["bot"].isin(SKILL)
                & (ls["category"].astype(str) == ls["players"].astype(str))]
        if len(ff):
            top = ff.loc[ff["share"].idxmax()]
            found.append(f"Every Foyer failing at once ends up to {pct(top.share)} "
                         f"{_ci(top.ci_low, top.ci_high)} of losses ({top.bot}, "
                         f"{top.players}p, level {top.level}).")
        oc = ls[(ls["measure"] == "outcome") & (ls["category"] == "truncated")]
        if len(oc) and (oc["count"] > 0).any():
            flags.append(f"{int(oc['count'].sum())} coop games hit round_cap (truncated).")
    es = tables["each_seats"]
    if len(es):
        for bot in _bots(es):
            d = es[es["bot"] == bot]
            parts = []
            for n, g in d.groupby("players"):
                g = g.sort_values("seat")
                parts.append(f"{n}p " + " / ".join(
                    f"{pct(r.eliminated)}" for r in g.itertuples()))
            found.append(f"Each for themselves, {bot}: elimination rate by seat "
                         f"(seat 0 first) " + "; ".join(parts) + ".")
        s0 = es[(es["seat"] == 0) & es["bot"].isin(SKILL)]
        if len(s0):
            found.append("Seat 0 (first Initiative) edge, each for themselves: " + "; ".join(
                f"{r.bot} {r.players}p {_pp(r.edge, r.edge_ci_low, r.edge_ci_high)}"
                for r in s0.itertuples()) + ".")
        sig = es[es["p_holm"] < ALPHA]
        if len(sig):
            top = sig.loc[sig["edge"].abs().idxmax()]
            found.append(f"Seat advantage (each for themselves): {len(sig)} of {len(es)} "
                         f"seats differ from parity after Holm correction; the largest is "
                         f"seat {top.seat} at {top.players} players with {top.bot}: "
                         f"{_pp(top.edge, top.edge_ci_low, top.edge_ci_high)} of win share "
                         f"(share {pct(top.win_share)} vs mean {pct(top.parity)}).")
            flags.append(f"Each for themselves is not seat-fair: {len(sig)} seat(s) off "
                         f"parity (Holm p < 0.05), largest "
                         f"{_pp(top.edge, top.edge_ci_low, top.edge_ci_high)} "
                         f"(seat {top.seat}, {top.players}p, {top.bot}).")
        else:
            found.append("Each for themselves: no seat differs from parity after Holm "
                         "correction.")
    va = tables["variants"]
    if len(va):
        noop = va[va["value"].str.contains("no-op")]
        if len(noop) and (noop["diff"].abs() > 0).any():
            flags.append("standard_tie changed coop results although coop selection is "
                         "always reinforced (P3.2): check the engine.")
        elif len(noop):
            found.append(f"standard_tie = discard_all changes nothing in coop (all "
                         f"{len(noop)} paired differences exactly 0), as P3.2 says.")
        tm = va[(va["variant"] == "reinforced_scope") & (va["metric"] == "team win rate")]
        if len(tm):
            found.append("reinforced_scope = team (reinforced control over all Foyers "
                         "together) raises the team win rate by: " + "; ".join(
                             f"{r.bot} L{int(r.level)} {r.players}p "
                             f"{_pp(r.diff, r.diff_ci_low, r.diff_ci_high)}"
                             for r in tm.itertuples()) + ".")
        sti = va[(va["variant"] == "standard_tie") & (va["mode"] == "each")
                 & (va["metric"] == "no-winner share")]
        if len(sti):
            found.append("standard_tie = discard_all in each for themselves changes the "
                         "no-winner share (everyone eliminated) by: " + "; ".join(
                             f"{r.bot} {r.players}p {_pp(r.diff, r.diff_ci_low, r.diff_ci_high)}"
                             for r in sti.itertuples()) + ".")
        big = va[(va["p_holm"] < ALPHA) & (va["mode"] == "each")]
        if len(big):
            found.append(f"{len(big)} of {int((va['mode'] == 'each').sum())} each-for-"
                         f"themselves effects of standard_tie are significant after Holm "
                         f"correction.")
    return found, flags


# ------------------------------------------------------------------ robustness (key figures)
def key_figures(tables: dict) -> pd.DataFrame:
    """Level steps, seat edges and variant effects by policy (the skill axis)."""
    rows = []
    st = tables["level_steps"]
    for r in st[st["bot"].isin(SKILL)].itertuples():
        rows.append({"figure": f"coop win rate, level {r.step}, {r.players}p", "bot": r.bot,
                     "mean": r.diff, "ci_low": r.diff_ci_low, "ci_high": r.diff_ci_high})
    es = tables["each_seats"]
    if len(es):
        for r in es[es["bot"].isin(SKILL)].itertuples():
            rows.append({"figure": f"each: seat {r.seat} win-share edge, {r.players}p",
                         "bot": r.bot, "mean": r.edge, "ci_low": r.edge_ci_low,
                         "ci_high": r.edge_ci_high})
    va = tables["variants"]
    if len(va):
        sel = va[va["bot"].isin(SKILL) & ~va["value"].str.contains("no-op")
                 & va["metric"].isin(["team win rate", "no-winner share"])]
        for r in sel.itertuples():
            rows.append({"figure": f"{r.variant}={r.value} effect on {r.metric}, {r.mode}, "
                                   f"{r.players}p", "bot": r.bot, "mean": r.diff,
                         "ci_low": r.diff_ci_low, "ci_high": r.diff_ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
def _answer(t: Tables) -> Finding:
    f = Finding("protocole_levels", "Protocole levels")
    name = "protocole_levels/level_steps.csv"
    st = t.get(name, "bot", "players", "step", "harder")
    if st is not None:
        tested = st[st["in_family"].astype(bool)] if "in_family" in st else st
        harder = tested["harder"].astype(bool)
        s = (f"**{int(harder.sum())} of {len(tested)} paired level steps find the upper "
             "level harder** (Holm)")
        if (~harder).any() and {"win_lower", "win_upper", "games"} <= set(st.columns):
            s += "; not shown harder: " + ", ".join(
                f"{r['step']} at {r['bot']}, {r['players']} players "
                f"({100 * r['win_lower']:.1f}% → {100 * r['win_upper']:.1f}%, "
                f"{games(r['games'])} games)" for _, r in tested[~harder].iterrows())
        f.statements.append(Statement(s, t.source(name)))
    name = "protocole_levels/coop_win.csv"
    cw = t.get(name, "bot", "players", "level", "win_rate", "ci_low", "ci_high")
    if cw is not None:
        c4 = cw[cw["players"] == 4]
        bots = [b for b in t.order(c4["bot"]) if b != "random"]
        bits = []
        for b in bots[-2:]:               # the strongest rungs: the scripted one, the search
            cb = c4[c4["bot"] == b].sort_values("level")
            g = f" ({games(cb['games'].iloc[0])} games a level)" if "games" in cb else ""
            bits.append(f"{b} " + " / ".join(pct_ci(r['win_rate'], r['ci_low'], r['ci_high'])
                                             for _, r in cb.iterrows()) + g)
        if bits:
            levels = " / ".join(str(int(x)) for x in sorted(c4["level"].unique()))
            f.statements.append(Statement(
                f"Four players win levels {levels}: " + "; ".join(bits), t.source(name)))
    name = "protocole_levels/each_seats.csv"
    es = t.get(name, "bot", "players", "seat", "edge", "edge_ci_low", "edge_ci_high")
    if es is not None:
        s0 = es[(es["seat"] == 0) & (es["bot"] != "random")]
        behind, other = [], []
        for b in t.order(s0["bot"]):
            r = s0[s0["bot"] == b].sort_values("players")
            if (r["edge_ci_high"] < 0).all():
                behind.append(b)
            else:
                g = f" ({games(r['games'].iloc[0])} games)" if "games" in r else ""
                other.append(f"{b} " + ", ".join(
                    f"{ci(x['edge'], x['edge_ci_low'], x['edge_ci_high'])} ({x['players']}p)"
                    for _, x in r.iterrows()) + " pp" + g)
        lab = t.label("protocole_levels", "each: seat 0 win-share edge, 4p", f)
        s = "Each for themselves, the first Initiative (seat 0) "
        if behind:
            r = s0[s0["bot"].isin(behind)]
            g = (f", {games_phrase(r['games'])}" if "games" in r else "")
            s += (f"**is behind at every player count at {', '.join(behind)}** "
                  f"({span(r, 'edge', signed=True)} pp, every interval below 0{g})")
        if other:
            s += ("; " if behind else "") + "not shown behind at every count at " + \
                "; ".join(other)
        s += " (pp of all games" + (f"; 4 players {lab}" if lab else "") + ")"
        f.statements.append(Statement(s, t.source(name)))
    return f


def _levels_row(t: Tables) -> BoardRow | None:
    name = "protocole_levels/level_steps.csv"
    st = t.get(name, "bot", "players", "step", "diff", "diff_ci_low", "diff_ci_high", "harder")
    if st is None:
        return None
    tested = st[st["in_family"].astype(bool)] if "in_family" in st else st
    if tested.empty:
        return None
    q = quoted(t, tested["bot"])

    def est(x) -> Est:
        return Est(str(x["bot"]), 100 * x["diff"], 100 * x["diff_ci_low"],
                   100 * x["diff_ci_high"], "harder" if bool(x["harder"]) else
                   "not shown harder", int(x["games"]) if "games" in x else None)

    items = []
    for (p, step), g in tested.groupby(["players", "step"], sort=True):
        rungs = [est(g[g["bot"] == b].iloc[0]) for b in t.order(g["bot"])]
        at = next((x for x in rungs if x.bot == q), None)
        if at is not None:
            items.append(Item(f"{p}p {step}", at, rungs))
    if not items:
        return None
    at_q = tested[tested["bot"] == q]
    n, k = len(at_q), int(at_q["harder"].astype(bool).sum())
    v = "harder" if k == n else "not shown harder"
    head = (f"Each level is harder than the one below ({k} of {n} steps, Holm, {q} bots)"
            if k == n else
            f"Only {k} of {n} level steps are shown harder (Holm, {q} bots)")
    rates = ""
    cw = t.get("protocole_levels/coop_win.csv", "bot", "players", "level", "win_rate")
    if cw is not None:
        c4 = cw[(cw["players"] == 4) & (cw["bot"] == q)].sort_values("level")
        if len(c4):
            rates = ("; 4 players win " + ", ".join(f"{100 * x:.0f}%" for x in c4["win_rate"])
                     + f" of levels {int(c4['level'].min())}–{int(c4['level'].max())}")
    smallest = min((x for x in at_q.itertuples() if x.players == at_q["players"].max()),
                   key=lambda x: abs(x.diff), default=None)
    p, what = math.nan, "the smallest level step"
    if smallest is not None and hasattr(smallest, "win_lower"):
        p = noticed(smallest.diff, smallest.win_lower, True)
        upper, lower = smallest.step.split(" vs ")
        what = f"level {upper} harder than {lower} at {smallest.players} players"
    return BoardRow(
        "levels", "Is each Protocole level harder than the one below?", [Light("", v)],
        fit(head, rates, "."), p, what, items, "pp of games won, upper − lower level",
        "95%", None, "protocole_levels",
        [t.source(name), t.source("protocole_levels/coop_win.csv")], q)


def _notice(out: Path) -> str:
    """The games people would need to notice the first Initiative's deficit."""
    kf = read_key_figures(out)
    return notice(key_effects(kf, "protocole_levels", "each: seat 0 win-share edge, 4p"),
                  0.25, False,
                  "the first Initiative's deficit (each for themselves, 4 players)")


REPORT = Report(
    question="Is each Protocole level harder than the one below?",
    key_plot="difficulty_curves.png", answer=_answer, notice=_notice,
    rows=(Row("levels", 60, _levels_row, Page(
        "protocole-levels", "Is each Protocole level harder than the one below?",
        "How often a table wins each level of all together (P5), how games are lost, and the "
        "first Initiative's edge each for themselves (P4).",
        ("protocole_levels/difficulty_curves.png", "protocole_levels/outcomes.png",
         "protocole_levels/seat_edge.png", "protocole_levels/variants.png"))),))
