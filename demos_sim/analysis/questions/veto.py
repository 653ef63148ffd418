"""Veto value: what the veto of the unanimous turn (D3.4.1) is worth.

A bot plays against copies of itself, once with every seat free to veto (the
reference) and once with one seat — in team modes one whole side — barred from vetoing
(``{bot}:noveto``), on the same deals. The restricted seat's win-share difference,
restricted minus reference (``diff``), is the paired value of its veto; every table also
gives the veto's ``worth`` = −diff (positive: the veto is worth that much to its holder).
In 2v3 the team of two's number of vetoes (``team_vetoes`` 2, 1, 0) is swept as well. The
reference runs also say how often vetoes are used, by whom and in which round, and what
the unanimous turn does to round scores when it is played. Three further tables: the
veto's value to the tuned player (``veto_br``: a search of tuned's veto parameters for one
seat among tuned players that kept tuned's own values, so it plays exactly as tuned;
against ``veto_br:noveto`` in that seat; per seat, average, per veto used); the social
dilemma (``veto_dilemma``: one seat vetoing among opponents barred from it, against
nobody vetoing and everyone vetoing, same deals, next to its value among users); and,
in 2v3, the deterrence of a held veto (the team of two holding one unused veto against
none, the opponents reading it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.answers import (Finding, SEARCH, Statement, Tables, by_rung, ci,
                                             dilemma_statement, span, tuned_value_statement,
                                             worth)
from demos_sim.analysis.core.best_response import best_response_table as best_response_table_of
from demos_sim.analysis.core.best_response import (
    dilemma_findings, dilemma_plot, with_users,
)
from demos_sim.analysis.core.best_response import dilemma_table as dilemma_table_of
from demos_sim.analysis.core.board import (BoardRow, EFFECT, Est, Item, Light, base_rate, fit,
                                           key_effects, key_table, key_value, notice, noticed,
                                           pp_text, quoted, read_key_figures, tost_est)
from demos_sim.analysis.core.formatting import estimate
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import figure, heatmap
from demos_sim.analysis.core.protocol import DEMOS_BOTS, DEMOS_RUNGS, Page, Report, Row
from demos_sim.analysis.core.stats import (
    FAIR_MARGIN, adjust, diff_same_games, p_value, share_of_won_ci,
)

TITLE = "Veto value"
METHOD = (
    "Restricted play on common random numbers. For each setup — full rules, individual, "
    "3, 4 and 5 players; 2v2 (ABAB), 2v3 (ABABB), 2v2+1 (ABABI) — the reference point has "
    "every seat play the bot (" + DEMOS_BOTS + ") and each "
    "other point bars one seat (individual: every seat in turn) or one whole side (team "
    "modes: every side in turn; a team's veto is decided by its first member in action "
    "order, so all its members are restricted) from vetoing with `bot:noveto`, on the "
    "same deals. The veto value of a seat/side is the paired difference of its M1 win "
    "share, restricted minus reference (diff), with the normal interval of the per-game "
    "paired differences; its worth is −diff (positive: the veto is worth that much to "
    "its holder, in percentage points of all games). The average over the seats of "
    "one player count averages estimates that come from different grid points on the "
    "same deals, so they are correlated and the runner keeps no cross-products between "
    "them; its interval is conservative: the sd of a sum is at most the sum of the sds "
    "(triangle inequality), so the half-width used is the mean of the seats' half-widths "
    "(valid for any correlation; up to √N too wide if they are uncorrelated). p-values "
    "are two-sided normal; the table of veto values screens every seat/side of every "
    "setup and carries Holm–Bonferroni adjusted p-values (per bot rung). In 2v3 the team "
    "of two (A) plays with team_vetoes = 2 (default, reference), 1 and 0 against team B's "
    "one, all seats the same bot, same deals: paired side win-share differences, and "
    "each side's share of the games that had a winner (delta method) against parity 1/2. "
    "Usage (vetoes per game, by side and by round; unanimous turns per game) comes from "
    "the reference points; the effect of a played unanimous turn is a ratio per "
    "unanimous turn (Σ over players of the change of round score it makes; share of "
    "unanimous turns that change the round's winners) with a delta-method interval. "
    "Value to the tuned player (4 players, tuned field): `veto_br` is the result of a "
    "search of tuned's five veto parameters by `demos-sim tune-bot --params … --in-place` "
    "for one seat among three tuned players (policies/veto_br.toml, 50 trials, one seed); "
    "the race kept tuned's own values, so veto_br plays exactly as tuned (no better veto "
    "rule was found; this is not a proven best response). One experiment per seat pairs "
    "`veto_br` in that seat with `veto_br:noveto` there on the same deals: the veto's worth "
    "to the tuned player among tuned players; per veto used = that worth over the seat's vetoes "
    "per game in the reference (a ratio of two estimates of the same games: conservative "
    "delta-method interval, the half-widths combined by Cauchy–Schwarz). Deterrence (2v3, "
    "the bots' veto rule reads the opponents' vetoes left): the team of two holding one "
    "veto it never uses (team_vetoes = 1, `bot:noveto`, the reference) against holding "
    "none (team_vetoes = 0) and against using it, same deals. Social dilemma (4 players, "
    "greedy, heuristic and tuned, veto_lone_4p): the reference has every seat barred "
    "(`bot:noveto`), one point per seat lets that seat alone veto (`bot`), the last lets "
    "every seat veto, same deals: the worth of the veto to a lone user among abstainers "
    "(its paired win-share and points difference; what the three abstainers lose "
    "meanwhile), next to its worth among users (the veto value table, other deals), and "
    "each seat's change when everyone vetoes rather than nobody (points: cumulative "
    "points at the end of the game, D4.7). All shares and differences are fractions of "
    "all games (0.01 = 1 percentage point)."
)
INDIVIDUAL = ["veto_individual_3p", "veto_individual_4p", "veto_individual_5p"]
TEAMS = {"veto_2v2": "2v2", "veto_2v3": "2v3", "veto_2v2p1": "2v2+1"}
TEAM_VETOES = "veto_2v3_team_vetoes"
# the best response: one file a seat (the runner pairs a block's points with one reference)
BEST_RESPONSE = [f"veto_best_response_4p_s{s}" for s in range(4)]
DETERRENCE = "veto_2v3_deterrence"
# the social dilemma: one seat vetoing among opponents barred from it (every seat in turn)
LONE = "veto_lone_4p"
EXPERIMENTS = INDIVIDUAL + list(TEAMS) + [TEAM_VETOES] + BEST_RESPONSE + [DETERRENCE, LONE]
RUNGS = DEMOS_RUNGS
# veto_br was searched among tuned players: its files run with tuned as the field only
EXPERIMENT_RUNGS = {**{s: {"tuned": 1.0} for s in BEST_RESPONSE},
                    LONE: {b: 1.0 for b in DEMOS_RUNGS}}    # small: every rung at full size
SHOW = ["veto_value", "veto_average", "veto_dilemma", "team_vetoes", "veto_best_response",
        "veto_deterrence", "veto_usage", "veto_by_side"]
# veto_round (16 rounds x setups x rungs) is shown by its plot; its CSV has every row
ALPHA = 0.05
HOLM = "holm"


def _setup(stem: str, players: int) -> tuple[str, str]:
    if stem in TEAMS:
        return TEAMS[stem], TEAMS[stem]
    return "individual", f"individual {players}p"


def _present(runs, stems):
    have = {e for e, _ in runs.items}
    return [s for s in stems if s in have]


def _restricted_seats(policies: str) -> tuple[int, ...]:
    return tuple(i for i, p in enumerate(policies.split(",")) if p.endswith(":noveto"))


# ------------------------------------------------------------------ tables
def value_table(runs) -> pd.DataFrame:
    """One row per restricted seat/side: reference and restricted shares, paired diff."""
    rows = []
    for stem in _present(runs, INDIVIDUAL + list(TEAMS)):
        ws = runs.results(stem, "win_share")
        vs = runs.results(stem, "veto_by_side")
        nw = runs.results(stem, "no_winner")
        for (bot, point), d in ws.groupby(["bot", "point"], sort=False):
            if pd.isna(d["ref_point"].iloc[0]):
                continue
            seats = _restricted_seats(d["policies"].iloc[0])
            key = ",".join(map(str, seats))
            r = d[d["seats"] == key]
            if len(r) != 1:
                raise ValueError(f"{stem} point {point}: restricted seats {key} are not a side")
            r = r.iloc[0]
            ref_pt = int(r["ref_point"])
            ref = ws[(ws["bot"] == bot) & (ws["point"] == ref_pt) & (ws["seats"] == key)].iloc[0]
            v_ref = vs[(vs["bot"] == bot) & (vs["point"] == ref_pt) & (vs["seats"] == key)].iloc[0]
            v_res = vs[(vs["bot"] == bot) & (vs["point"] == point) & (vs["seats"] == key)].iloc[0]
            nwp = nw[(nw["bot"] == bot) & (nw["point"] == point)].iloc[0]
            mode, setup = _setup(stem, int(r["players"]))
            rows.append({
                "bot": bot, "mode": mode, "players": int(r["players"]), "setup": setup,
                "restricted": str(r["side"]), "seats": key, "games": int(r["games"]),
                "share_ref": ref["mean"], "ref_ci_low": ref["ci_low"],
                "ref_ci_high": ref["ci_high"],
                "share_noveto": r["mean"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                "worth": 0.0 - r["diff"] + 0.0, "worth_ci_low": 0.0 - r["diff_ci_high"] + 0.0,
                "worth_ci_high": 0.0 - r["diff_ci_low"] + 0.0, "diff": r["diff"], "diff_ci_low": r["diff_ci_low"],
                "diff_ci_high": r["diff_ci_high"], "diff_half_width": r["diff_half_width"],
                "p_value": p_value(r["diff"], r["diff_half_width"]),
                "vetoes_ref": v_ref["mean"], "vetoes_noveto": v_res["mean"],
                "no_winner_diff": nwp["diff"], "no_winner_diff_ci_low": nwp["diff_ci_low"],
                "no_winner_diff_ci_high": nwp["diff_ci_high"]})
    out = pd.DataFrame(rows)
    out["p_holm"] = np.nan
    for idx in out.groupby("bot").groups.values():
        out.loc[idx, "p_holm"] = adjust(out.loc[idx, "p_value"].to_numpy(), HOLM)
    return out


def average_table(value: pd.DataFrame) -> pd.DataFrame:
    """Mean veto value over the seats of each individual player count (conservative CI)."""
    rows = []
    ind = value[value["mode"] == "individual"]
    for (bot, players), d in ind.groupby(["bot", "players"], sort=False):
        m = float(d["diff"].mean())
        hw = float(d["diff_half_width"].mean())           # sd(Σ) ≤ Σ sd
        rows.append({"bot": bot, "setup": d["setup"].iloc[0], "players": players,
                     "seats": len(d), "games": int(d["games"].iloc[0]),
                     "worth": 0.0 - m + 0.0, "worth_ci_low": 0.0 - m - hw + 0.0,
                     "worth_ci_high": 0.0 - m + hw + 0.0, "mean_diff": m,
                     "ci_low": m - hw, "ci_high": m + hw, "half_width": hw,
                     "interval": "conservative (mean of half-widths)",
                     "p_value": p_value(m, hw)})
    return pd.DataFrame(rows)


def team_vetoes_table(runs) -> pd.DataFrame:
    if not _present(runs, [TEAM_VETOES]):
        return pd.DataFrame()
    ws = runs.results(TEAM_VETOES, "win_share")
    vs = runs.results(TEAM_VETOES, "veto_by_side")
    nw = runs.results(TEAM_VETOES, "no_winner")
    tr = runs.results(TEAM_VETOES, "truncated")
    rows = []
    for r in ws.itertuples(index=False):
        def sel(t, r=r):
            return t[(t["bot"] == r.bot) & (t["point"] == r.point)]

        v = sel(vs)
        v = v[v["side"] == r.side].iloc[0]
        won = 1.0 - sel(nw)["mean"].iloc[0] - sel(tr)["mean"].iloc[0]
        s, s_lo, s_hi = share_of_won_ci(r.mean, r.sd, r.games, won)
        rows.append({"bot": r.bot, "team_vetoes": int(r.team_vetoes), "side": r.side,
                     "seats": r.seats, "games": int(r.games), "win_share": r.mean,
                     "ci_low": r.ci_low, "ci_high": r.ci_high, "diff": r.diff,
                     "diff_ci_low": r.diff_ci_low, "diff_ci_high": r.diff_ci_high,
                     "p_value": p_value(r.diff, r.diff_half_width),
                     "share_of_won": s, "sow_ci_low": s_lo, "sow_ci_high": s_hi,
                     "parity": 0.5, "vetoes_used": v["mean"], "vetoes_ci_low": v["ci_low"],
                     "vetoes_ci_high": v["ci_high"],
                     "no_winner": sel(nw)["mean"].iloc[0]})
    out = pd.DataFrame(rows)
    out["p_holm"] = np.nan
    for idx in out.groupby("bot").groups.values():
        out.loc[idx, "p_holm"] = adjust(out.loc[idx, "p_value"].to_numpy(), HOLM)
    return out


def best_response_table(runs) -> pd.DataFrame:
    """The veto's value to the tuned player (``veto_br``, which plays exactly as tuned: its
    search kept tuned's values; one seat among the field ``bot``): per seat,
    ``veto_br:noveto`` minus ``veto_br`` on the same deals (``diff``) and the worth
    −diff, the vetoes the seat used per game in the reference and the worth per veto used,
    then the average over the seats (:func:`demos_sim.analysis.core.best_response.
    best_response_table`)."""
    return best_response_table_of(runs, BEST_RESPONSE, "veto_br", "noveto", "vetoes",
                                  "veto_by_side", "per_veto")


def dilemma_table(runs, value: pd.DataFrame | None = None) -> pd.DataFrame:
    """The veto as a social dilemma (4 players, :data:`LONE`), per rung and seat: its worth
    to a lone user among abstainers, what they lose meanwhile, its worth among users (the
    veto value table's worth at that rung and seat, other deals) and the seat's change when
    everyone vetoes rather than nobody (:func:`demos_sim.analysis.core.best_response.
    dilemma_table`)."""
    t = dilemma_table_of(runs, LONE, "noveto", "veto_by_side")
    if not len(t):
        return t
    value = value_table(runs) if value is None else value
    v = value[value["setup"] == "individual 4p"]
    users = pd.DataFrame({"bot": v["bot"], "seat": v["restricted"].astype(str),
                          "users_games": v["games"], "users_worth": v["worth"],
                          "users_worth_ci_low": v["worth_ci_low"],
                          "users_worth_ci_high": v["worth_ci_high"],
                          "users_points": np.nan, "users_points_ci_low": np.nan,
                          "users_points_ci_high": np.nan})
    a = average_table(value)
    a = a[a["players"] == 4]
    users = pd.concat([users, pd.DataFrame({
        "bot": a["bot"], "seat": "average", "users_games": a["games"],
        "users_worth": a["worth"], "users_worth_ci_low": a["worth_ci_low"],
        "users_worth_ci_high": a["worth_ci_high"], "users_points": np.nan,
        "users_points_ci_low": np.nan, "users_points_ci_high": np.nan})], ignore_index=True)
    return with_users(t, users).drop(columns=["users_points", "users_points_ci_low",
                                              "users_points_ci_high"])


def deterrence_table(runs) -> pd.DataFrame:
    """2v3, the team of two (A) per rung: the reference holds one veto it never uses
    (``team_vetoes = 1``, A ``:noveto``). ``deterrence``: reference minus the point where A
    holds none (``team_vetoes = 0``; B knows it) — what an unused veto is worth through
    the opponents' reading of it; ``use``: A using its veto minus the reference;
    ``total``: using it minus holding none (two differences of the same games,
    conservative :func:`diff_same_games`)."""
    if not _present(runs, [DETERRENCE]):
        return pd.DataFrame()
    ws = runs.results(DETERRENCE, "win_share")
    vs = runs.results(DETERRENCE, "veto_by_side")
    rows = []
    for bot, d in ws.groupby("bot", sort=False):
        a = d[d["side"] == "A"]
        none = a[a["team_vetoes"] == 0].iloc[0]
        used = a[(a["team_vetoes"] == 1) & ~a["policies"].str.contains(":noveto")].iloc[0]
        ref = a[a["ref_point"].isna()].iloc[0]
        v = vs[(vs["bot"] == bot) & (vs["side"] == "A") & (vs["point"] == used["point"])]
        tot, tot_hw = diff_same_games(used["diff"], used["diff_half_width"], none["diff"],
                                      none["diff_half_width"])
        rows.append({"bot": bot, "side": "A", "seats": ref["seats"], "games": int(ref["games"]),
                     "share_unused_veto": ref["mean"], "share_no_veto": none["mean"],
                     "share_used_veto": used["mean"],
                     "deterrence": 0.0 - none["diff"] + 0.0,      # + 0.0: no −0.0
                     "deterrence_ci_low": 0.0 - none["diff_ci_high"] + 0.0,
                     "deterrence_ci_high": 0.0 - none["diff_ci_low"] + 0.0,
                     "deterrence_p": p_value(none["diff"], none["diff_half_width"]),
                     "use": used["diff"], "use_ci_low": used["diff_ci_low"],
                     "use_ci_high": used["diff_ci_high"],
                     "total": tot, "total_ci_low": tot - tot_hw, "total_ci_high": tot + tot_hw,
                     "vetoes_used": v["mean"].iloc[0]})
    return pd.DataFrame(rows)


def _refs(runs, metric: str) -> pd.DataFrame:
    parts = []
    for stem in _present(runs, INDIVIDUAL + list(TEAMS)):
        d = runs.results(stem, metric)
        d = d[d["ref_point"].isna()].copy()
        ms = [_setup(stem, int(p)) for p in d["players"]]
        d["mode"] = [m for m, _ in ms]
        d["setup"] = [s for _, s in ms]
        parts.append(d)
    return pd.concat(parts, ignore_index=True)


def usage_table(runs) -> pd.DataFrame:
    cols = {"vetoes": "vetoes", "unanimous": "unanimous",
            "unan_score_change": "unan_score_change",
            "unan_winner_change": "unan_winner_change", "no_winner": "no_winner"}
    out = None
    for metric, name in cols.items():
        d = _refs(runs, metric)
        keep = ["bot", "mode", "players", "setup", "games", "mean", "ci_low", "ci_high"]
        if metric.startswith("unan_"):
            d = d.rename(columns={"denominator": f"{name}_turns"})
            keep.append(f"{name}_turns")
        d = d[keep].rename(columns={"mean": name, "ci_low": f"{name}_ci_low",
                                    "ci_high": f"{name}_ci_high"})
        out = d if out is None else out.merge(
            d.drop(columns="games"), on=["bot", "mode", "players", "setup"])
    out["unan_score_change_per_player"] = out["unan_score_change"] / out["players"]
    return out.drop(columns=["unan_winner_change_turns"]).rename(
        columns={"unan_score_change_turns": "unanimous_turns"})


def by_side_table(runs) -> pd.DataFrame:
    d = _refs(runs, "veto_by_side")
    return d[["bot", "mode", "players", "setup", "side", "seats", "games", "mean", "ci_low",
              "ci_high"]].rename(columns={"mean": "vetoes_per_game"})


def round_table(runs) -> pd.DataFrame:
    d = _refs(runs, "veto_round")
    tot = _refs(runs, "vetoes")[["bot", "setup", "mean"]].rename(columns={"mean": "_tot"})
    d = d.merge(tot, on=["bot", "setup"])
    d["share_of_vetoes"] = d["mean"] / d["_tot"]
    return d[["bot", "mode", "players", "setup", "side", "games", "mean", "ci_low", "ci_high",
              "share_of_vetoes"]].rename(columns={"side": "round", "mean": "vetoes_per_game"})


def tables(runs) -> dict[str, pd.DataFrame]:
    value = value_table(runs)
    return {"veto_value": value, "veto_average": average_table(value),
            "team_vetoes": team_vetoes_table(runs), "veto_usage": usage_table(runs),
            "veto_by_side": by_side_table(runs), "veto_round": round_table(runs),
            "veto_best_response": best_response_table(runs),
            "veto_deterrence": deterrence_table(runs),
            "veto_dilemma": dilemma_table(runs, value)}


# ------------------------------------------------------------------ plots
def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    files = []
    val = tables["veto_value"]
    bots = list(dict.fromkeys(val["bot"]))

    # 1. veto value by seat/side, every setup, CI error bars
    setups = list(dict.fromkeys(val["setup"]))
    fig, axes = figure(len(setups), 1, w=3.2, h=3.4)
    for k, su in enumerate(setups):
        ax = axes[0][k]
        for b, bot in enumerate(bots):
            d = val[(val["setup"] == su) & (val["bot"] == bot)]
            x = np.arange(len(d)) + (b - (len(bots) - 1) / 2) * 0.25
            y = d["worth"].to_numpy() * 100
            ax.errorbar(x, y, yerr=[y - d["worth_ci_low"].to_numpy() * 100,
                                    d["worth_ci_high"].to_numpy() * 100 - y],
                        fmt="o", ms=4, capsize=2, label=bot)
        d = val[(val["setup"] == su) & (val["bot"] == bots[0])]
        ax.axhline(0, color="0.4", ls="--", lw=0.8)
        ax.set_xticks(range(len(d)), list(d["restricted"]))
        ax.set_xlabel("seat" if d["mode"].iloc[0] == "individual" else "side")
        ax.set_title(su, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("veto worth (pp of games)")
    axes[0][0].legend(fontsize="small")
    fig.suptitle("Veto worth: win share with the veto − without (pp of games, 95% CI)")
    fig.savefig(folder / "veto_value.png")
    files.append("veto_value.png")

    # 2. heat-map seat × player count (individual)
    ind = val[val["mode"] == "individual"]
    if len(ind):
        # each rung on a scale of its own: the search rung's few games give ±9 pp that a
        # shared scale would let whiten the other rungs' ±1 pp
        fig, axes = figure(len(bots), 1, w=4.0, h=2.8)
        for b, bot in enumerate(bots):
            ax = axes[0][b]
            d = ind[ind["bot"] == bot]
            pcs = sorted(d["players"].unique())
            nmax = max(pcs)
            m = np.full((len(pcs), nmax), np.nan)
            texts = [[None] * nmax for _ in pcs]
            for r in d.itertuples():
                m[pcs.index(r.players), int(r.restricted)] = r.worth * 100
                star = "*" if r.p_holm < ALPHA else ""
                texts[pcs.index(r.players)][int(r.restricted)] = f"{r.worth * 100:+.2f}{star}"
            heatmap(ax, m, texts, label="pp of games")
            ax.set_xticks(range(nmax), [str(s) for s in range(nmax)])
            ax.set_yticks(range(len(pcs)), [f"{p}p" for p in pcs])
            ax.set_xlabel("seat (0 = first dealer)")
            ax.set_title(bot)
        fig.suptitle("Veto worth by seat: win share with − without (pp of games; "
                     "* Holm p < 0.05; each rung on its own scale)")
        fig.savefig(folder / "veto_heatmap.png")
        files.append("veto_heatmap.png")

    # 3. vetoes by round
    rd = tables["veto_round"]
    fig, axes = figure(len(bots), 1, w=5.0, h=3.4)
    for b, bot in enumerate(bots):
        ax = axes[0][b]
        d = rd[rd["bot"] == bot]
        rounds = list(dict.fromkeys(d["round"]))
        for su in dict.fromkeys(d["setup"]):
            e = d[d["setup"] == su].set_index("round").reindex(rounds)
            y = e["vetoes_per_game"].to_numpy()
            ax.errorbar(range(len(rounds)), y,
                        yerr=[y - e["ci_low"].to_numpy(), e["ci_high"].to_numpy() - y],
                        marker="o", ms=3, capsize=2, label=su)
        ax.set_xticks(range(len(rounds)), rounds, fontsize=7)
        ax.set_xlabel("round")
        ax.set_ylabel("vetoes per game in the round")
        ax.set_title(bot)
        ax.grid(alpha=0.3)
    axes[0][-1].legend(fontsize="x-small")
    fig.savefig(folder / "veto_round.png")
    files.append("veto_round.png")

    # 4. 2v3: share of won games by team_vetoes
    tv = tables["team_vetoes"]
    if len(tv):
        fig, axes = figure(1, 1, w=5.0, h=3.4)
        ax = axes[0][0]
        for bot in bots:
            for side in ("A", "B"):
                d = tv[(tv["bot"] == bot) & (tv["side"] == side)].sort_values("team_vetoes")
                y = d["share_of_won"].to_numpy()
                ax.errorbar(d["team_vetoes"], y, yerr=[y - d["sow_ci_low"].to_numpy(),
                                                      d["sow_ci_high"].to_numpy() - y],
                            marker="o", capsize=3, label=f"{bot}, team {side}")
        ax.axhline(0.5, color="0.4", ls="--", lw=0.8)
        ax.set_xticks(sorted(tv["team_vetoes"].unique()))
        ax.set_xlabel("team_vetoes (vetoes of the team of two, A)")
        ax.set_ylabel("share of won games (95% CI)")
        ax.set_title("2v3 (ABABB)")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
        fig.savefig(folder / "team_vetoes.png")
        files.append("team_vetoes.png")

    # 5. the social dilemma: lone user, among users, everyone vs nobody (average seat)
    dl = tables.get("veto_dilemma", pd.DataFrame())
    if len(dl):
        dilemma_plot(dl[dl["seat"] == "average"], folder / "veto_dilemma.png", "veto")
        files.append("veto_dilemma.png")
    return files


# ------------------------------------------------------------------ findings
def _ci(m, lo, hi) -> str:
    """A difference and its interval in percentage points: ``+1.23 [+0.45, +2.01]``."""
    return estimate(m, lo, hi, "{:+.2f}", scale=100)


def findings(tables: dict) -> tuple[list[str], list[str]]:
    val, avg, tv = tables["veto_value"], tables["veto_average"], tables["team_vetoes"]
    use, rd = tables["veto_usage"], tables["veto_round"]
    found, flags = [], []
    for bot in dict.fromkeys(val["bot"]):
        a = avg[avg["bot"] == bot]
        if len(a):
            found.append(f"{bot}: the veto is worth "
                         + "; ".join(f"{r.players}p {_ci(r.worth, r.worth_ci_low, r.worth_ci_high)}"
                                     " pp" for r in a.itertuples())
                         + " of win share (pp of all games; a seat with its veto against the "
                           "same seat barred from vetoing, same deals; average over seats, "
                           "conservative 95% interval).")
        for su, d in val[val["bot"] == bot].groupby("setup", sort=False):
            found.append(f"{bot}, {su}: veto worth by "
                         + ("seat" if d["mode"].iloc[0] == "individual" else "side") + ": "
                         + "; ".join(f"{r.restricted} "
                                     f"{_ci(r.worth, r.worth_ci_low, r.worth_ci_high)}"
                                     for r in d.itertuples()) + " pp of win share.")
        bad = val[(val["bot"] == bot) & (val["diff_ci_low"] > 0) & (val["p_holm"] < ALPHA)]
        for r in bad.itertuples():
            flags.append(f"{bot}, {r.setup}, {r.restricted}: the veto's worth is negative "
                         f"({_ci(r.worth, r.worth_ci_low, r.worth_ci_high)} pp, Holm p = "
                         f"{r.p_holm:.2g}): the bot's vetoes hurt it there.")
    # sign flips between rungs (both intervals exclude 0)
    if val["bot"].nunique() > 1:
        for (su, rs), d in val.groupby(["setup", "restricted"], sort=False):
            sig = d[(d["diff_ci_low"] > 0) | (d["diff_ci_high"] < 0)]
            if sig["diff"].gt(0).any() and sig["diff"].lt(0).any():
                flags.append(f"{su}, {rs}: the veto's worth changes sign between rungs ("
                             + ", ".join(f"{r.bot} {r.worth * 100:+.2f} pp"
                                         for r in sig.itertuples()) + ").")
    if len(tv):
        for bot in dict.fromkeys(tv["bot"]):
            d = tv[(tv["bot"] == bot) & (tv["side"] == "A")].set_index("team_vetoes")
            parts = [f"{k} vetoes {r.share_of_won:.3f} [{r.sow_ci_low:.3f}, {r.sow_ci_high:.3f}]"
                     for k, r in d.sort_index(ascending=False).iterrows()]
            msg = (f"{bot}, 2v3: team of two's share of won games (parity 0.5): "
                   + "; ".join(parts) + ".")
            if 1 in d.index:
                r1 = d.loc[1]
                msg += (f" Its second veto is worth {_ci(-r1['diff'], -r1['diff_ci_high'], -r1['diff_ci_low'])}"
                        " pp of win share (team_vetoes 2 vs 1, paired)")
                a2 = d.loc[2]
                if a2["sow_ci_high"] < 0.5:
                    msg += "; with it the team of two is still below parity: it does not compensate its size."
                elif a2["sow_ci_low"] > 0.5:
                    msg += "; with it the team of two is above parity: it over-compensates."
                else:
                    msg += "; with it the team of two is at parity within the interval."
            found.append(msg)
    br = tables.get("veto_best_response", pd.DataFrame())
    for fld in (dict.fromkeys(br["field"]) if len(br) else []):
        d = br[br["field"] == fld]
        a = d[d["seat"] == "average"].iloc[0]
        seats = d[d["seat"] != "average"]
        msg = (f"Value of the veto to the {fld} player (one seat among {fld} players; a search "
               f"of {fld}'s veto parameters for that seat, veto_br, found nothing better and "
               f"kept {fld}'s own): the veto is worth "
               f"{_ci(a['worth'], a['worth_ci_low'], a['worth_ci_high'])} pp of win share on "
               "average over the seats (" + "; ".join(
                   f"seat {r.seat} {_ci(r.worth, r.worth_ci_low, r.worth_ci_high)}"
                   for r in seats.itertuples())
               + f"); it uses {a['vetoes_ref']:.2f} vetoes a game, so a veto used is worth "
               f"{_ci(a['worth_per_veto'], a['worth_per_veto_ci_low'], a['worth_per_veto_ci_high'])}"
               " pp.")
        own = avg[(avg["bot"] == fld) & (avg["players"] == 4)]
        if len(own):
            o = own.iloc[0]
            msg += (f" The veto value table measures the same thing on other deals: "
                    f"{_ci(o.worth, o.worth_ci_low, o.worth_ci_high)} pp.")
        found.append(msg)
        for r in seats[seats["diff_ci_low"] > 0].itertuples():
            flags.append(f"veto_br, seat {r.seat}: the veto's worth is negative "
                         f"({_ci(r.worth, r.worth_ci_low, r.worth_ci_high)} pp): "
                         f"{fld}'s vetoes hurt it there; never vetoing would do better.")
    found += dilemma_findings(tables.get("veto_dilemma", pd.DataFrame()), "veto", "vetoes",
                              "veto_lone_4p")
    det = tables.get("veto_deterrence", pd.DataFrame())
    for r in det.itertuples() if len(det) else []:
        found.append(f"{r.bot}, 2v3: the team of two's veto held but never used is worth "
                     f"{_ci(r.deterrence, r.deterrence_ci_low, r.deterrence_ci_high)} pp "
                     "(deterrence: the opponents read it), used "
                     f"{_ci(r.use, r.use_ci_low, r.use_ci_high)} pp more; in all "
                     f"{_ci(r.total, r.total_ci_low, r.total_ci_high)} pp against holding none.")
    for bot in dict.fromkeys(use["bot"]):
        u = use[use["bot"] == bot]
        found.append(f"{bot}: vetoes used per game: " + "; ".join(
            f"{r.setup} {r.vetoes:.2f} [{r.vetoes_ci_low:.2f}, {r.vetoes_ci_high:.2f}]"
            for r in u.itertuples()) + ".")
        d = rd[rd["bot"] == bot]
        peak = d.loc[d.groupby("setup", sort=False)["vetoes_per_game"].idxmax()]
        early = d[d["round"].isin(["1", "2", "3"])].groupby("setup", sort=False)[
            "share_of_vetoes"].sum()
        found.append(f"{bot}: vetoes peak in round " + "; ".join(
            f"{r.round} ({r.setup})" for r in peak.itertuples())
            + "; share of vetoes in rounds 1-3: " + ", ".join(
            f"{su} {v:.2f}" for su, v in early.items()) + ".")
        found.append(f"{bot}: a played unanimous turn changes the round's winners in "
                     + "; ".join(f"{r.setup} {r.unan_winner_change:.3f} "
                                 f"[{r.unan_winner_change_ci_low:.3f}, "
                                 f"{r.unan_winner_change_ci_high:.3f}]"
                                 for r in u.itertuples())
                     + " of cases, and moves the players' round scores by "
                     + "; ".join(f"{r.setup} {r.unan_score_change:+.2f} "
                                 f"[{r.unan_score_change_ci_low:+.2f}, "
                                 f"{r.unan_score_change_ci_high:+.2f}]"
                                 for r in u.itertuples())
                     + " points in all (Σ over players) per unanimous turn.")
    return found, flags


def key_figures(tables: dict) -> pd.DataFrame:
    rows = []
    for r in tables["veto_value"].itertuples():
        rows.append({"figure": f"veto value, {r.setup}, {r.restricted}", "bot": r.bot,
                     "mean": r.worth, "ci_low": r.worth_ci_low, "ci_high": r.worth_ci_high})
    for r in tables["veto_average"].itertuples():
        rows.append({"figure": f"veto value, {r.setup}, average over seats", "bot": r.bot,
                     "mean": r.worth, "ci_low": r.worth_ci_low, "ci_high": r.worth_ci_high})
    dl = tables.get("veto_dilemma", pd.DataFrame())
    for r in (dl[dl["seat"] == "average"].itertuples() if len(dl) else []):
        rows.append({"figure": "veto worth to a lone user among abstainers, 4 players, "
                               "average over seats", "bot": r.bot, "mean": r.lone_worth,
                     "ci_low": r.lone_worth_ci_low, "ci_high": r.lone_worth_ci_high})
        rows.append({"figure": "veto: everyone vetoes - nobody does, win share of a seat, "
                               "4 players, average over seats", "bot": r.bot,
                     "mean": r.everyone_change, "ci_low": r.everyone_change_ci_low,
                     "ci_high": r.everyone_change_ci_high})
    tv = tables["team_vetoes"]
    if len(tv):
        for r in tv[(tv["side"] == "A") & (tv["team_vetoes"] != 2)].itertuples():
            rows.append({"figure": f"2v3 team A win share, team_vetoes {r.team_vetoes} - 2",
                         "bot": r.bot, "mean": r.diff, "ci_low": r.diff_ci_low,
                         "ci_high": r.diff_ci_high})
        for r in tv[tv["side"] == "A"].itertuples():
            rows.append({"figure": f"2v3 team A share of won games - 1/2, team_vetoes "
                                   f"{r.team_vetoes}", "bot": r.bot,
                         "mean": r.share_of_won - 0.5, "ci_low": r.sow_ci_low - 0.5,
                         "ci_high": r.sow_ci_high - 0.5})
    for r in tables["veto_usage"].itertuples():
        rows.append({"figure": f"vetoes per game, {r.setup}", "bot": r.bot, "mean": r.vetoes,
                     "ci_low": r.vetoes_ci_low, "ci_high": r.vetoes_ci_high})
        rows.append({"figure": f"unanimous turn changes the winners, {r.setup}", "bot": r.bot,
                     "mean": r.unan_winner_change, "ci_low": r.unan_winner_change_ci_low,
                     "ci_high": r.unan_winner_change_ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
def _w(r) -> str:
    return ci(r["w"], r["w_lo"], r["w_hi"], signed=False)


def _answer(t: Tables) -> Finding:
    f = Finding("veto", "Veto")
    name = "veto/veto_average.csv"
    v = t.get(name, "bot", "setup", "mean_diff", "ci_low", "ci_high")
    if v is not None:
        r = worth(v[v["setup"] == "individual 4p"], "mean_diff", "ci_low", "ci_high")
        if len(r):
            lab = t.label("veto", "veto value, individual 4p, average over seats", f)
            f.statements.append(Statement(
                f"**The veto is worth {span(r, 'w')} pp of win share** to a 4-player seat "
                "(pp of all games, averaged over the seats): " + by_rung(t, r, _w)
                + (f"; {lab}" if lab else ""), t.source(name)))
    name = "veto/team_vetoes.csv"
    tv = t.get(name, "bot", "team_vetoes", "side", "diff", "diff_ci_low", "diff_ci_high")
    if tv is not None:
        r = worth(tv[(tv["team_vetoes"] == 1) & (tv["side"] == "A")].dropna(subset=["diff"]),
                  "diff", "diff_ci_low", "diff_ci_high")
        if len(r):
            f.statements.append(Statement(
                "The 2v3 team of two's second veto is worth " + by_rung(t, r, _w)
                + " of its win share", t.source(name)))
    dilemma_statement(t, f, "veto/veto_dilemma.csv", "the veto", "veto")
    tuned_value_statement(t, f, "veto/veto_best_response.csv", "its vetoes", "vetoes_ref",
                          "worth_per_veto", "veto used")
    return f


def _veto_row(t: Tables) -> BoardRow | None:
    name = "veto/veto_average.csv"
    v = t.get(name, "bot", "setup", "mean_diff", "ci_low", "ci_high")
    if v is None:
        return None
    r = worth(v[v["setup"] == "individual 4p"], "mean_diff", "ci_low", "ci_high")
    if r.empty:
        return None
    m = FAIR_MARGIN
    rungs = []
    for b in t.order(r["bot"]):
        x = r[r["bot"] == b].iloc[0]
        e = tost_est(x["w"], x["w_lo"], x["w_hi"], m)
        rungs.append(Est(b, e.est, e.lo, e.hi, EFFECT[e.verdict],
                         int(x["games"]) if "games" in x else None))
    q = quoted(t, r["bot"])
    at = next(e for e in rungs if e.bot == q)
    main = [e for e in rungs if not e.bot.startswith(SEARCH)]
    weak = main[0] if main and main[0].bot != q else None
    sentence = fit(f"Holding the veto adds {pp_text(at.est, False)} pp to a 4-player seat's win "
                   f"share with {q} bots",
                   f", {pp_text(weak.est, False)} pp with {weak.bot}" if weak else "", ".")
    kf = key_table(t)
    nowin = key_value(kf, "no-winner share, full 4p", q, 0.17)
    p0 = 0.25 * (1 - nowin)
    return BoardRow(
        "veto", "What is the veto worth?", [Light("", at.verdict)], sentence,
        noticed(at.est / 100, p0, True), "a seat with its veto against one without",
        [Item(e.bot, e, [e]) for e in rungs if not e.bot.startswith(SEARCH)]
        + [Item(e.bot, e, [e]) for e in rungs if e.bot.startswith(SEARCH)],
        "pp of win share (worth)", "90%",
        100 * m, "veto", [t.source(name)], q)


def _notice(out: Path) -> str:
    """The games people would need to notice the 4-player veto's worth."""
    kf = read_key_figures(out)
    nowin = base_rate(kf, "no-winner share, full 4p", 0.17)
    # the key figure is the veto's worth (with − without); the change measured from the
    # reference (with the veto) to the barred seat is −worth
    return notice(key_effects(kf, "veto", "veto value, individual 4p, average over seats",
                              -1.0), 0.25 * (1 - nowin), True,
                  "the 4-player veto's worth (a seat with its veto against the same seat "
                  "without)")


REPORT = Report(
    question="How much is the veto worth, and to whom?", key_plot="veto_heatmap.png",
    answer=_answer, notice=_notice,
    rows=(Row("veto", 20, _veto_row, Page(
        "veto", "What is the veto worth?",
        "What holding a veto (D3.4.1) adds to a seat's win share, to the tuned player, and "
        "whether everyone vetoing leaves a seat worse off.",
        ("veto/veto_heatmap.png", "veto/veto_value.png", "veto/veto_dilemma.png",
         "veto/team_vetoes.png", "veto/veto_round.png")), readme=True),))
