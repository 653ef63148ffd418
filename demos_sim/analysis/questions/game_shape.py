"""Seat advantage and game shape.

For every DĒMOS rules set (full, simplified), mode (individual 3/4/5 players, 2v2, 2v3,
2v2+1) and bot rung: the win share by seat (seat 0 is the first dealer, D2.1, and so
the last to act in round 0), or by side in the team modes; how long games last; how
often nobody wins a round or the game; which combinations win rounds; which harmonies
win games.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.fairness import run_margin, with_verdicts
from demos_sim.analysis.core.formatting import pp
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import figure, heatmap
from demos_sim.analysis.core.protocol import DEMOS_BOTS, DEMOS_RUNGS
from demos_sim.analysis.core.stats import (FAIR_MARGIN, adjust, p_value, share_of_won,
                                           share_of_won_ci)

TITLE = "Seat advantage and game shape"
METHOD = (
    "Every seat plays the same bot (" + DEMOS_BOTS + "). "
    "Individual modes: full and simplified rules at 3, 4 and 5 players; team modes "
    "2v2 (ABAB), 2v3 (ABABB) and 2v2+1 (ABABI), full rules. Seat 0 deals round 0 "
    "(D2.1), so it acts last in round 0 and seat 1 first; the seat number is the offset "
    "from the first dealer. Win shares follow M1 (a shared win counts 1/k); because some "
    "games have no winner, the seat-parity test uses each seat's (side's) share of the "
    "games that had a winner, x̄/w̄ with w the per-game indicator 'somebody won', with a "
    "delta-method interval computed exactly from the run's sums (Cov(x, w) = x̄(1 − w̄) "
    "since x = 0 whenever w = 0), against parity 1/N (N seats, or N sides in the team "
    "modes — there the sides differ in size in 2v3 and 2v2+1, so a deviation is a "
    "fairness question for the team-fairness analysis rather than a seat effect). "
    "p-values are two-sided normal; a seat is flagged when its Holm-adjusted p-value "
    "(Holm–Bonferroni over every seat/side of every setup, separately for each bot rung) "
    "is below 0.05; column fairness is the TOST verdict of the same difference against the "
    "designer's margin (fair_margin in the experiment file, default ±1 pp of share of won "
    "games): fair when its 90% interval lies inside ±margin, unfair when it lies wholly "
    "beyond, not shown fair otherwise. Rounds per game, no-winner share of games (normal "
    "intervals), share of rounds nobody wins, and the share of round wins by combination "
    "(ratios with delta-method intervals: their denominators are rounds and round wins) and the "
    "distribution of the winning trio's harmony (share of games) complete the shape."
)
EXPERIMENTS = ["game_shape_individual", "game_shape_2v2", "game_shape_2v3", "game_shape_2v2p1"]
RUNGS = DEMOS_RUNGS
SHOW = ["seat_share", "shape", "combo_share"]   # win_harmony: its plot (90 rows)
ALPHA = 0.05
HOLM = "holm"

_MODE_OF = {"game_shape_2v2": "2v2", "game_shape_2v3": "2v3", "game_shape_2v2p1": "2v2+1"}


def _setup_cols(df: pd.DataFrame, stem: str) -> pd.DataFrame:
    df = df.copy()
    if stem == "game_shape_individual":
        df["mode"] = "individual"
        df["setup"] = df["rules"] + " " + df["players"].astype(str) + "p"
    else:
        df["rules"] = "full"
        df["mode"] = _MODE_OF[stem]
        df["setup"] = df["mode"]
    return df


def _all(runs, metric: str) -> pd.DataFrame:
    parts = []
    for stem in EXPERIMENTS:
        if stem in {e for e, _ in runs.items}:
            parts.append(_setup_cols(runs.results(stem, metric), stem))
    return pd.concat(parts, ignore_index=True)


def _order(df: pd.DataFrame) -> pd.DataFrame:
    rank = {"individual": 0, "2v2": 1, "2v3": 2, "2v2+1": 3}
    return (df.assign(_m=df["mode"].map(rank), _r=(df["rules"] != "full").astype(int))
              .sort_values(["bot", "_m", "_r", "players"], kind="stable")
              .drop(columns=["_m", "_r"]).reset_index(drop=True))


# ------------------------------------------------------------------ tables
KEYS = ["bot", "rules", "mode", "players", "setup"]


def seat_table(ws: pd.DataFrame, nw: pd.DataFrame, tr: pd.DataFrame,
               margin: float = FAIR_MARGIN) -> pd.DataFrame:
    """Win share by seat/side, share of won games vs parity, Holm-adjusted per bot, and
    the TOST verdict against the designer's margin (``fairness``)."""
    g = ws.merge(nw[KEYS + ["mean"]].rename(columns={"mean": "no_winner"}), on=KEYS)
    g = g.merge(tr[KEYS + ["mean"]].rename(columns={"mean": "truncated"}), on=KEYS)
    nsides = g.groupby(KEYS)["side"].transform("count")
    rows = []
    for r, k in zip(g.itertuples(index=False), nsides):
        won = 1.0 - r.no_winner - r.truncated
        s, hw = share_of_won(r.mean, r.sd, r.games, won)    # hw: the p-value's normal scale
        _, s_lo, s_hi = share_of_won_ci(r.mean, r.sd, r.games, won)
        parity = 1.0 / k
        rows.append({
            "bot": r.bot, "rules": r.rules, "mode": r.mode, "players": r.players,
            "setup": r.setup, "side": r.side, "seats": r.seats, "games": r.games,
            "win_share": r.mean, "ci_low": r.ci_low, "ci_high": r.ci_high,
            "won_games": won, "share_of_won": s, "sow_ci_low": s_lo, "sow_ci_high": s_hi,
            "parity": parity, "excess": s - parity, "p_value": p_value(s - parity, hw)})
    out = _order(pd.DataFrame(rows))
    out["p_holm"] = np.nan
    for idx in out.groupby("bot").groups.values():
        out.loc[idx, "p_holm"] = adjust(out.loc[idx, "p_value"].to_numpy(), HOLM)
    out["flag"] = out["p_holm"] < ALPHA
    return with_verdicts(out, "excess", "sow_ci_low", "sow_ci_high", margin, "parity")


def _plain(df: pd.DataFrame, cols=("mean", "ci_low", "ci_high")) -> pd.DataFrame:
    return df[KEYS + ["games", *cols]]


def shape_table(runs) -> pd.DataFrame:
    parts = {}
    for metric, col in (("rounds", "rounds"), ("nowin_rounds", "nowin_rounds"),
                        ("no_winner", "no_winner"), ("truncated", "truncated"),
                        ("vetoes", "vetoes")):
        d = _all(runs, metric)
        d = d[KEYS + ["games", "mean", "ci_low", "ci_high"]].rename(columns={
            "mean": col, "ci_low": f"{col}_ci_low", "ci_high": f"{col}_ci_high"})
        parts[metric] = d
    out = parts["rounds"]
    for m in ("nowin_rounds", "no_winner", "truncated", "vetoes"):
        out = out.merge(parts[m].drop(columns="games"), on=KEYS)
    return _order(out)


def bins_table(runs, metric: str) -> pd.DataFrame:
    d = _all(runs, metric)
    d = d[KEYS + ["side", "games", "denominator", "count", "mean", "ci_low", "ci_high"]]
    d = d.rename(columns={"side": "bin", "mean": "share"})
    return _order(d)


def tables(runs) -> dict[str, pd.DataFrame]:
    ws, nw, tr = _all(runs, "win_share"), _all(runs, "no_winner"), _all(runs, "truncated")
    combo = bins_table(runs, "combo_share")
    combo = combo.rename(columns={"denominator": "round_wins"}).drop(columns="count")
    harm = bins_table(runs, "win_harmony").drop(columns="denominator")
    margin = run_margin(runs.get(EXPERIMENTS[0], next(iter(RUNGS))))
    return {"seat_share": seat_table(ws, nw, tr, margin), "shape": shape_table(runs),
            "combo_share": combo, "win_harmony": harm}


# ------------------------------------------------------------------ plots
def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    files = []
    seat = tables["seat_share"]
    bots = list(dict.fromkeys(seat["bot"]))

    # 1. heat-map: seat × player count, excess share of won games over parity (pp)
    ind = seat[seat["mode"] == "individual"]
    rules = list(dict.fromkeys(ind["rules"]))
    if len(ind):
        # each panel on a scale of its own: the search rung's few games (±3 pp) would
        # whiten the other rungs' ±0.5 pp on a shared one
        fig, axes = figure(len(rules), len(bots), w=4.4, h=2.6)
        for i, bot in enumerate(bots):
            for j, rs in enumerate(rules):
                ax = axes[i][j]
                d = ind[(ind["bot"] == bot) & (ind["rules"] == rs)]
                pcs = sorted(d["players"].unique())
                nmax = max(pcs) if pcs else 0
                m = np.full((len(pcs), nmax), np.nan)
                texts = [[None] * nmax for _ in pcs]
                for r in d.itertuples():
                    m[pcs.index(r.players), int(r.side)] = r.excess * 100
                    texts[pcs.index(r.players)][int(r.side)] = (
                        f"{r.excess * 100:+.1f}{'*' if r.flag else ''}")
                heatmap(ax, m, texts, label="pp")
                ax.set_xticks(range(nmax), [str(s) for s in range(nmax)])
                ax.set_yticks(range(len(pcs)), [f"{p}p" for p in pcs])
                ax.set_xlabel("seat (0 = first dealer)")
                ax.set_title(f"{rs} rules, {bot}")
        fig.suptitle("Seat advantage: share of won games − 1/N (pp; * Holm p < 0.05; "
                     "each panel on its own scale)")
        fig.savefig(folder / "seat_heatmap.png")
        files.append("seat_heatmap.png")

    # 2. share of won games by seat/side with CI, every setup, parity line
    setups = list(dict.fromkeys(seat["setup"]))
    ncol = min(5, len(setups))
    nrow = math.ceil(len(setups) / ncol)
    fig, axes = figure(ncol, nrow, w=3.4, h=3.0)
    for k, su in enumerate(setups):
        ax = axes[k // ncol][k % ncol]
        for b, bot in enumerate(bots):
            d = seat[(seat["setup"] == su) & (seat["bot"] == bot)]
            x = np.arange(len(d)) + (b - (len(bots) - 1) / 2) * 0.2
            y = d["share_of_won"].to_numpy()
            ax.errorbar(x, y, yerr=[y - d["sow_ci_low"].to_numpy(), d["sow_ci_high"].to_numpy() - y],
                        fmt="o", ms=4, capsize=2, label=bot)
        d = seat[(seat["setup"] == su) & (seat["bot"] == bots[0])]
        ax.axhline(float(d["parity"].iloc[0]), color="0.4", ls="--", lw=0.8)
        ax.set_xticks(range(len(d)), list(d["side"]))
        ax.set_title(su, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    for k in range(len(setups), nrow * ncol):
        axes[k // ncol][k % ncol].set_visible(False)
    axes[0][0].set_ylabel("share of won games (95% CI)")
    axes[0][0].legend(fontsize="small")
    fig.savefig(folder / "seat_share.png")
    files.append("seat_share.png")

    # 2b. seat advantage against skill: per setup, the first dealer (individual games) or
    # the side furthest from parity at the weakest rung (team modes), its excess share of
    # won games at every rung, the rungs in ladder order
    ladder = [b for b in RUNGS if b in bots] + [b for b in bots if b not in RUNGS]
    fig, axes = figure(2, 1, w=5.2, h=3.8)
    margin = float(seat["fair_margin"].iloc[0]) if "fair_margin" in seat else FAIR_MARGIN
    for ax, team in zip(axes[0], (False, True)):
        part = seat[(seat["mode"] != "individual") == team]
        for k, (su, g) in enumerate(part.groupby("setup", sort=False)):
            first = g[g["bot"] == ladder[0]]
            side = first.loc[first["excess"].abs().idxmax(), "side"] if team else "0"
            d = g[g["side"].astype(str) == str(side)].set_index("bot").reindex(ladder)
            x = np.arange(len(ladder)) + (k - len(part["setup"].unique()) / 2) * 0.04
            y = d["excess"].to_numpy(float) * 100
            ax.errorbar(x, y, yerr=[y - (d["sow_ci_low"] - d["parity"]).to_numpy(float) * 100,
                                    (d["sow_ci_high"] - d["parity"]).to_numpy(float) * 100 - y],
                        fmt="o-", ms=3, lw=0.8, capsize=2,
                        label=f"{su}, {'side' if team else 'seat'} {side}")
        ax.axhspan(-margin * 100, margin * 100, color="0.85", zorder=0)
        ax.axhline(0, color="k", lw=0.6)
        ax.set_xticks(range(len(ladder)), ladder, fontsize=8)
        ax.set_xlabel("bot (weaker → stronger)")
        ax.set_title("team modes: the side furthest from parity" if team
                     else "individual games: the first dealer (seat 0)", fontsize=10)
        ax.legend(fontsize=6)
    axes[0][0].set_ylabel("share of won games − parity (pp)")
    fig.suptitle("Seat advantage against skill (95% CI; grey: the fairness margin)")
    fig.savefig(folder / "seat_vs_skill.png")
    files.insert(0, "seat_vs_skill.png")

    # 3. game shape: rounds per game, no-winner rounds and games
    sh = tables["shape"]
    fig, axes = figure(3, 1, w=4.6, h=3.4)
    labels = list(dict.fromkeys(sh["setup"]))
    for c, (col, title) in enumerate((("rounds", "rounds per game"),
                                      ("nowin_rounds", "share of rounds nobody wins"),
                                      ("no_winner", "share of games with no winner"))):
        ax = axes[0][c]
        for b, bot in enumerate(bots):
            d = sh[sh["bot"] == bot].set_index("setup").reindex(labels)
            w = 0.8 / len(bots)
            x = np.arange(len(labels)) + (b - (len(bots) - 1) / 2) * w
            y = d[col].to_numpy()
            ax.bar(x, y, width=w, label=bot,
                   yerr=[y - d[f"{col}_ci_low"].to_numpy(), d[f"{col}_ci_high"].to_numpy() - y],
                   capsize=2)
        ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize="small")
    fig.savefig(folder / "game_shape.png")
    files.append("game_shape.png")

    # 4. stacked shares: combination of round wins, harmony of game wins
    for tname, fname, title in (("combo_share", "combo_share.png", "share of round wins"),
                                ("win_harmony", "win_harmony.png", "share of games")):
        t = tables[tname]
        fig, axes = figure(len(bots), 1, w=5.6, h=3.6)
        for b, bot in enumerate(bots):
            ax = axes[0][b]
            d = t[t["bot"] == bot]
            bins = list(dict.fromkeys(d["bin"]))
            su = list(dict.fromkeys(d["setup"]))
            bottom = np.zeros(len(su))
            for bn in bins:
                y = d[d["bin"] == bn].set_index("setup").reindex(su)["share"].fillna(0).to_numpy()
                ax.bar(range(len(su)), y, bottom=bottom, label=bn)
                bottom += y
            ax.set_xticks(range(len(su)), su, rotation=60, ha="right", fontsize=8)
            ax.set_title(f"{title}, {bot}", fontsize=10)
            ax.set_ylim(0, 1)
        axes[0][-1].legend(fontsize="small", loc="center left", bbox_to_anchor=(1, 0.5))
        fig.savefig(folder / fname)
        files.append(fname)
    return files


# ------------------------------------------------------------------ findings
def findings(tables: dict) -> tuple[list[str], list[str]]:
    seat, sh = tables["seat_share"], tables["shape"]
    combo, harm = tables["combo_share"], tables["win_harmony"]
    found, flags = [], []
    for bot, d in seat.groupby("bot", sort=False):
        fl = d[d["flag"]]
        ind = d[d["mode"] == "individual"]
        worst = ind.loc[ind["excess"].abs().idxmax()] if len(ind) else None
        msg = (f"{bot}: {len(fl)} of {len(d)} seats/sides differ from parity (share of won "
               f"games vs 1/N, Holm-adjusted p < {ALPHA} over the {len(d)} tests).")
        if worst is not None:
            msg += (f" Largest individual-mode gap: seat {worst['side']} at {worst['setup']}, "
                    f"{worst['share_of_won']:.3f} [{worst['sow_ci_low']:.3f}, "
                    f"{worst['sow_ci_high']:.3f}] of won games vs parity {worst['parity']:.3f} "
                    f"({pp(worst['excess'])} pp).")
        found.append(msg)
        s0 = ind[ind["side"].astype(str) == "0"]
        if len(s0):
            parts = [f"{r.setup} {pp(r.excess)} pp" for r in s0.itertuples()]
            found.append(f"{bot}: the first dealer (seat 0, last to act in round 0) vs parity: "
                         + "; ".join(parts) + ".")
        for r in fl.itertuples():
            if r.mode in ("individual", "2v2"):
                flags.append(f"seat advantage ({bot}, {r.setup}, seat/side {r.side}): "
                             f"{r.share_of_won:.3f} [{r.sow_ci_low:.3f}, {r.sow_ci_high:.3f}] "
                             f"of won games vs parity {r.parity:.3f} (Holm p = {r.p_holm:.2g})")
        tm = fl[fl["mode"].isin(["2v3", "2v2+1"])]
        if len(tm):
            found.append(f"{bot}: asymmetric team modes off side parity: " + "; ".join(
                f"{r.setup} side {r.side} {r.share_of_won:.3f} of won games" for r in
                tm.itertuples()) + " (sides of different sizes; see the team-fairness analysis).")
    for bot, d in sh.groupby("bot", sort=False):
        parts = [f"{r.setup} {r.rounds:.2f} rounds, {r.no_winner:.3f} no-winner games, "
                 f"{r.nowin_rounds:.3f} no-winner rounds" for r in d.itertuples()]
        found.append(f"{bot} game shape: " + "; ".join(parts) + ".")
        if (d["truncated"] > 0).any():
            flags.append(f"{bot}: truncated games (round_cap) in "
                         + ", ".join(d[d["truncated"] > 0]["setup"]))
    for bot, d in combo.groupby("bot", sort=False):
        c = d[d["bin"] == "carre"]
        full = c[c["rules"] == "full"]
        if len(full):
            found.append(f"{bot}: Carré share of round wins "
                         + ", ".join(f"{r.setup} {r.share:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]"
                                     for r in full.itertuples()) + ".")
        simp = c[(c["rules"] == "simplified") & (c["share"] > 0)]
        if len(simp):
            flags.append(f"{bot}: Carré wins under the simplified rules (no Carré there, D8): "
                         + ", ".join(simp["setup"]))
    for bot, d in harm.groupby("bot", sort=False):
        top = d[d["bin"] != "no_winner"]
        per = top.loc[top.groupby("setup", sort=False)["share"].idxmax()]
        found.append(f"{bot}: most common winning harmony: " + ", ".join(
            f"{r.setup} {r.bin} ({r.share:.3f})" for r in per.itertuples()) + ".")
    return found, flags


def key_figures(tables: dict) -> pd.DataFrame:
    """Seat/side shares of won games minus parity, and the shape figures, by bot."""
    rows = []
    for r in tables["seat_share"].itertuples():
        rows.append({"figure": f"share of won games - parity, {r.setup}, seat/side {r.side}",
                     "bot": r.bot, "mean": r.excess, "ci_low": r.sow_ci_low - r.parity,
                     "ci_high": r.sow_ci_high - r.parity})
    for r in tables["shape"].itertuples():
        for col, name in (("rounds", "rounds per game"), ("no_winner", "no-winner share"),
                          ("nowin_rounds", "no-winner rounds share")):
            rows.append({"figure": f"{name}, {r.setup}", "bot": r.bot,
                         "mean": getattr(r, col), "ci_low": getattr(r, f"{col}_ci_low"),
                         "ci_high": getattr(r, f"{col}_ci_high")})
    for r in tables["combo_share"].itertuples():
        if r.bin == "carre" and r.rules == "full":
            rows.append({"figure": f"Carré share of round wins, {r.setup}", "bot": r.bot,
                         "mean": r.share, "ci_low": r.ci_low, "ci_high": r.ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name. (Imported here,
# at the end, with the declarations they serve.)
from demos_sim.analysis.core.answers import (Finding, SEARCH, Statement, Tables, by_rung, pct,
                                             span)
from demos_sim.analysis.core.board import (BoardRow, Est, Item, Light, WORDS, fit, key_effects,
                                           main_rungs, notice, noticed, pp_text, quoted,
                                           read_key_figures, tost_est, worst_verdict)
from demos_sim.analysis.core.protocol import DERIVED_NOTE, Derived, Page, Report, Row


def _verdict_word(text: str) -> str:
    """A TOST text's verdict: ``not shown fair: −6.5 pp, 90% […], margin ±1 pp`` → ``not
    shown fair`` (older texts: ``unfair by 2.1 pp (…)`` → ``unfair``)."""
    return text.split(":")[0].split(" (")[0].split(" by ")[0]


def _answer(t: Tables) -> Finding:
    f = Finding("game_shape", "Seat advantage and game shape")
    name = "game_shape/seat_share.csv"
    ss = t.get(name, "bot", "rules", "mode", "players", "side", "share_of_won", "sow_ci_low",
               "sow_ci_high", "fairness")
    if ss is not None:
        r = ss[(ss["rules"] == "full") & (ss["mode"] == "individual") & (ss["players"] == 4)
               & (ss["side"].astype(str) == "0")]
        if len(r):
            groups: dict[str, list[str]] = {}
            for b in t.order(r["bot"]):
                v = str(r[r["bot"] == b]["fairness"].iloc[0])
                groups.setdefault(_verdict_word(v), []).append(b)
            head = "; ".join(f"{v} at {', '.join(bs)}" for v, bs in groups.items())
            lab = t.label("game_shape", "share of won games - parity, full 4p, seat/side 0", f)
            parity = f" (parity {100 * r['parity'].iloc[0]:g}%)" if "parity" in r else ""
            s = (f"**The first dealer (seat 0, 4 players, full rules) is {head}**: its share "
                 f"of won games{parity} " + by_rung(t, r, lambda x: pct(
                     x["share_of_won"], x["sow_ci_low"], x["sow_ci_high"]), ""))
            if r["fairness"].astype(str).str.contains("90% [", regex=False).all():
                s += ("; its distance from parity against the margin: " + by_rung(
                    t, r, lambda x: str(x["fairness"]).split(": ", 1)[-1], "", n="_",
                    sep="; "))
            f.statements.append(Statement(s + (f"; {lab}" if lab else ""), t.source(name)))
    name = "game_shape/shape.csv"
    sh = t.get(name, "bot", "rules", "mode", "players", "no_winner", "no_winner_ci_low",
               "no_winner_ci_high")
    if sh is not None:
        full = sh[(sh["rules"] == "full") & (sh["mode"] == "individual")]
        bits = []
        for p, g in full.groupby("players"):
            g = g[~g["bot"].astype(str).str.startswith(SEARCH)]
            lo, hi = g.loc[g["no_winner"].idxmin()], g.loc[g["no_winner"].idxmax()]
            if p == 4:
                bits.append(f"{_nw(lo)} ({lo['bot']}) to {_nw(hi)} ({hi['bot']}) at 4 players")
            else:
                bits.append(f"{span(g, 'no_winner')}% at {p}")
        if bits:
            f.statements.append(Statement(
                "Full games without a winner: " + "; ".join(bits), t.source(name)))
    return f


def _nw(r) -> str:
    return pct(r["no_winner"], r["no_winner_ci_low"], r["no_winner_ci_high"])


def _seats_row(t: Tables) -> BoardRow | None:
    name = "game_shape/seat_share.csv"
    ss = t.get(name, "bot", "rules", "mode", "players", "side", "share_of_won", "sow_ci_low",
               "sow_ci_high", "parity")
    if ss is None:
        return None
    r = ss[(ss["rules"] == "full") & (ss["mode"] == "individual") & (ss["players"] == 4)]
    if r.empty:
        return None
    m = float(r["fair_margin"].iloc[0]) if "fair_margin" in r else FAIR_MARGIN
    q = quoted(t, r["bot"])

    def est(x, b) -> Est:
        e = tost_est(x["share_of_won"] - x["parity"], x["sow_ci_low"] - x["parity"],
                     x["sow_ci_high"] - x["parity"], m)
        return Est(b, e.est, e.lo, e.hi, e.verdict, int(x["games"]) if "games" in x else None)

    items = []
    for side, g in r.groupby(r["side"].astype(str), sort=True):
        rungs = [est(g[g["bot"] == b].iloc[0], b) for b in t.order(g["bot"])]
        at = next((x for x in rungs if x.bot == q), None)
        if at is not None:
            items.append(Item(f"seat {side}", at, rungs))
    if not items:
        return None
    v = worst_verdict([i.at.verdict for i in items])
    far = max(items, key=lambda i: abs(i.at.est))
    parity = 100 * float(r["parity"].iloc[0])
    if v == "fair":
        head = (f"Every seat is within ±{100 * m:g} pp of a fair {parity:g}% of won games "
                f"at 4 players ({q} bots)")
    else:
        head = (f"At 4 players {far.label} is {WORDS[far.at.verdict][0]}: "
                f"{pp_text(far.at.est)} pp from its fair {parity:g}% of won games ({q} bots)")
    other = ""
    for b in main_rungs(t, r["bot"]):
        if b == q:
            continue
        worst = max((e for i in items for e in i.rungs if e.bot == b),
                    key=lambda e: abs(e.est), default=None)
        lab = next((i.label for i in items for e in i.rungs if e is worst), "")
        if worst is not None and worst.verdict != v:
            other = f"; {b}: {lab} {worst.verdict} ({pp_text(worst.est)} pp)"
            break
    return BoardRow(
        "seats", "Does the seat matter?", [Light("", v)], fit(head, other, "."),
        noticed(abs(far.at.est) / 100, parity / 100, False),
        f"{far.label}'s distance from parity", items, "pp of won games from parity", "90%",
        100 * m, "game_shape", [t.source(name)], q)


def _notice(out: Path) -> str:
    """The games people would need to notice the first dealer's deficit."""
    kf = read_key_figures(out)
    return notice(key_effects(kf, "game_shape",
                              "share of won games - parity, full 4p, seat/side 0"),
                  0.25, False, "the first dealer's deficit")


def _with_fairness(df: pd.DataFrame) -> pd.DataFrame:
    """``seat_share.csv`` with its TOST verdicts against the default margin."""
    return with_verdicts(df, "excess", "sow_ci_low", "sow_ci_high", offset="parity")


REPORT = Report(
    question="Does the seat matter, and what does a game look like?",
    key_plot="seat_heatmap.png", answer=_answer, notice=_notice,
    rows=(Row("seats", 50, _seats_row, Page(
        "seat-advantage", "Does the seat matter?",
        "Whether the first dealer or any other seat wins more or less than its share, and "
        "what a game looks like: its length and the games without a winner.",
        ("game_shape/seat_heatmap.png", "game_shape/seat_share.png",
         "game_shape/seat_vs_skill.png", "game_shape/game_shape.png")), readme=True),),
    derived=(Derived("seat_share", _with_fairness,
                     "column fairness " + DERIVED_NOTE.format(src="seat_share.csv"),
                     lacks="fairness"),))
