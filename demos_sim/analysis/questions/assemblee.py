"""L'Assemblée analyses (RULES.md Part A): collapse, characters, free riding, ostracism,
personalities, variants and a tuning example.

Experiments (``experiments/analyses/assemblee_*.toml``); the rung (``{bot}``) is the
persona of the cooperating population — civic, against reciprocal or aggressive, and
``adaptive`` (see :data:`EXPERIMENT_RUNGS`), the robustness axis:

- ``assemblee_collapse``: players 4–15 × populations (all {bot}, all free_rider, all
  aggressive, all random): collapse rate, events pending at collapses, ostracism.
- ``assemblee_public_goods_6p`` / ``_10p``: k free riders (seats 0 … k−1) among N − k
  cooperators, k = 0 … N, same deals: the public-goods curve.
- ``assemblee_characters``: 6 players; seat 0 never bids on one character
  (``{bot}:no_<character>``, persona parameter ``never_bid``) against the unrestricted
  reference on the same deals: the paired gain of access to each character; mean
  winning bid from the reference point.
- ``assemblee_characters_br``: the same question for a best-responding bidder: seat 0
  plays ``adaptive`` (tuned as a best response to a civic city) among five civic
  players, against ``adaptive:no_<character>`` on the same deals.
- ``assemblee_personalities``: 6 players with personalities; seat 0 forced to each
  personality (runner setting ``force_personality``, outside Part V) against ulios.
- ``assemblee_variants_6p`` / ``_10p``: ``collapse_threshold`` and ``rounds`` one at a
  time against the default, paired.
- ``assemblee_tune`` (a ``demos-sim tune`` file, :data:`TUNES`): the
  ``collapse_threshold`` that brings an 8-player city with two free riders to a 10%
  collapse rate, at the first rung.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.answers import Finding, Statement, Tables, by_rung, games, pct
from demos_sim.analysis.core.board import (BoardRow, Est, Item, Light, MAX_WORDS, fit,
                                           key_effects, notice, noticed, read_key_figures,
                                           tost_est)
from demos_sim.analysis.core.formatting import interval
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import error_bars, save_tight, tight_figure
from demos_sim.analysis.core.protocol import Page, Report, Row, Tune
from demos_sim.analysis.core.stats import FAIR_MARGIN, adjust, p_value, share_ci

TITLE = "L'Assemblée: collapse, characters, free riding, ostracism, personalities"
METHOD = (
    "Bots: the population's persona is the rung: civic (first rung) against reciprocal "
    "(pledges only when every other player pledged at the last call; half the games) where "
    "free riders play and for the variants, against aggressive (half the games) for the "
    "character and personality values; and everywhere against adaptive (half the games: "
    "the persona tuned as a best response to a civic city, demos-sim tune-bot --game "
    "assemblee); the collapse-by-player-count screen runs at civic "
    "only (its other populations do not depend on the rung). Means carry 95% normal intervals over "
    "games; a share counted in games (collapse, early end, no winner) carries the Wilson "
    "interval (0 of n is [0, z²/(n + z²)], never [0, 0]); ratios (mean winning bid, cost "
    "per ostracism) carry delta-method intervals, and ratios that are shares (win share of "
    "holders) the Wilson interval on their effective number of games; the share of "
    "collapses with an event pending and the pass rate of ostracisms are Wilson intervals "
    "from the counts (pooled over player counts for the pass rate). "
    "Comparisons are paired on the same deals (common random numbers: every grid point of "
    "a block plays the same chunks): a character's value is seat 0's win share when it may "
    "bid on the character minus its win share when it never does (persona parameter "
    "never_bid, i.e. {bot}:no_<character>), p-values two-sided normal, Holm-adjusted over "
    "the 15 characters (per population); the same for a best-responding bidder, adaptive "
    "in seat 0 of a civic city (adaptive:no_<character>); a personality's value is seat 0's paired win-share difference "
    "against being forced ulios (setting force_personality: the A11 deal, then seat 0 swaps "
    "to the named one), Holm over the 5 abilities; variants are changed one at a time "
    "against the default (Holm over the rows of each file). Group win shares (the free "
    "riders', the cooperators') are averages of per-seat shares with the average of the "
    "per-seat half-widths as a conservative interval. The tuning example runs demos-sim "
    "tune (every threshold on common deals, racing and a confirmation on fresh deals, "
    "bootstrap intervals) "
    "at the first rung only.")
# the characters' value to a best-responding bidder: adaptive in seat 0 of a civic city
BR_CHARACTERS_FILE = "assemblee_characters_br"
EXPERIMENTS = ["assemblee_collapse", "assemblee_public_goods_6p", "assemblee_public_goods_10p",
               "assemblee_characters", BR_CHARACTERS_FILE, "assemblee_personalities",
               "assemblee_variants_6p",
               "assemblee_variants_10p"]
# rungs: the cooperating population. civic against reciprocal (pledges only when every
# other player pledged at the last call: it answers a free rider by withdrawing) where
# free riders play; civic against aggressive (attacks and ostracises the leader) for the
# character and personality values. `conditional` (threshold 1/2) plays exactly like
# civic in every population here, so it would only repeat the first rung.
# `adaptive` (the persona tuned as a best response to a civic city, `demos-sim tune-bot
# --game assemblee`) is the third population everywhere a population is compared.
RUNGS = {"civic": 1.0, "reciprocal": 0.5, "adaptive": 0.5}
EXPERIMENT_RUNGS = {"assemblee_collapse": {"civic": 1.0},
                    "assemblee_characters": {"civic": 1.0, "aggressive": 0.5, "adaptive": 0.5},
                    BR_CHARACTERS_FILE: {"civic": 1.0},
                    "assemblee_personalities": {"civic": 1.0, "aggressive": 0.5,
                                                "adaptive": 0.5}}
TUNE_FILE = "assemblee_tune"
# at the first rung; a quick look (--games G): at most 8 trials of G games, the race to 4G
TUNES = [Tune(TUNE_FILE, quick_final=4, quick_trials=8)]
SHOW = ["collapse_summary", "collapse_events", "public_goods", "characters", "personalities",
        "ostracism", "variants", "tune_best", "seat_balance"]
def _population(policies: str) -> str:
    ps = policies.split(",")
    if len(set(ps)) == 1:
        return ps[0]
    return policies


# --------------------------------------------------------------------------- tables
def _collapse_tables(runs) -> dict[str, pd.DataFrame]:
    df = runs.results("assemblee_collapse")
    df = df.assign(population=df["policies"].map(_population))
    key = ["bot", "population", "players"]
    rows = []
    for (bot, pop, n), g in df.groupby(key, sort=False):
        m = g.set_index("metric")
        r = {"bot": bot, "population": pop, "players": int(n),
             "games": int(m.loc["collapse", "games"])}
        for name in ("collapse", "early_end", "no_winner", "rounds"):
            r[name] = m.loc[name, "mean"]
            r[f"{name}_ci_low"] = m.loc[name, "ci_low"]
            r[f"{name}_ci_high"] = m.loc[name, "ci_high"]
        rows.append(r)
    summary = pd.DataFrame(rows)

    ev_rows = []
    for (bot, pop), g in df.groupby(["bot", "population"], sort=False):
        for metric, what in (("collapse_event", "pending"), ("collapse_tip", "tipping")):
            sub = g[g["metric"] == metric]
            for ev, e in sub.groupby("side", sort=False):
                k, n = e["total"].sum(), e["denominator"].sum()
                p, lo, hi = share_ci(k, n)          # Wilson: 1 of 1 is [0.21, 1]
                ev_rows.append({"bot": bot, "population": pop, "event": ev, "kind": what,
                                "collapses": int(n), "count": int(k), "share": p,
                                "ci_low": lo, "ci_high": hi})
    events = pd.DataFrame(ev_rows)
    events = events[events["collapses"] > 0].reset_index(drop=True)

    o_rows = []
    for (bot, pop, n), g in df.groupby(key, sort=False):
        m = g.set_index("metric")
        props, passes = m.loc["ostracism_proposals", "total"], m.loc["ostracism_passes", "total"]
        p, lo, hi = share_ci(passes, props)            # Wilson (proposals as trials)
        r = {"bot": bot, "population": pop, "players": int(n),
             "games": int(m.loc["collapse", "games"]),
             "proposals_per_game": m.loc["ostracism_proposals", "mean"],
             "proposals_ci_low": m.loc["ostracism_proposals", "ci_low"],
             "proposals_ci_high": m.loc["ostracism_proposals", "ci_high"],
             "passes_per_game": m.loc["ostracism_passes", "mean"],
             "passes_ci_low": m.loc["ostracism_passes", "ci_low"],
             "passes_ci_high": m.loc["ostracism_passes", "ci_high"],
             "proposals": int(props), "passes": int(passes), "pass_rate": p,
             "pass_rate_ci_low": lo, "pass_rate_ci_high": hi}
        for name, col in (("ost_pledged_per_proposal", "pledged_per_proposal"),
                          ("exile_gold", "exiled_gold_per_exile"),
                          ("exile_renown", "exiled_renown_per_exile")):
            r[col] = m.loc[name, "mean"]
            r[f"{col}_ci_low"] = m.loc[name, "ci_low"]
            r[f"{col}_ci_high"] = m.loc[name, "ci_high"]
        o_rows.append(r)
    return {"collapse_summary": summary, "collapse_events": events,
            "ostracism": pd.DataFrame(o_rows)}


def _group_share(ws: pd.DataFrame, seats: list[int]) -> tuple[float, float, float]:
    if not seats:
        return (math.nan, math.nan, math.nan)
    s = ws[ws["side"].astype(int).isin(seats)]
    # the mean of the seats' bounds (each seat's own interval: Wilson when its games are
    # 0/1, never zero-wide at 0): conservative for the mean of the seats, as adding
    # half-widths is (sd of a mean ≤ mean of the sds)
    return s["mean"].mean(), s["ci_low"].mean(), s["ci_high"].mean()


def _public_goods(runs) -> pd.DataFrame:
    rows = []
    for stem in ("assemblee_public_goods_6p", "assemblee_public_goods_10p"):
        df = runs.results(stem)
        for (bot, point), g in df.groupby(["bot", "point"], sort=False):
            pol = g["policies"].iloc[0].split(",")
            n, k = len(pol), pol.count("free_rider")
            m = g[g["level"] == "game"].set_index("metric")
            ws = g[g["metric"] == "win_share"]
            fr = _group_share(ws, list(range(k)))
            co = _group_share(ws, list(range(k, n)))
            s0 = ws[ws["side"].astype(str) == "0"].iloc[0]
            rows.append({
                "bot": bot, "players": n, "free_riders": k,
                "games": int(m.loc["collapse", "games"]),
                "collapse": m.loc["collapse", "mean"],
                "collapse_ci_low": m.loc["collapse", "ci_low"],
                "collapse_ci_high": m.loc["collapse", "ci_high"],
                "collapse_diff": m.loc["collapse", "diff"],
                "collapse_diff_ci_low": m.loc["collapse", "diff_ci_low"],
                "collapse_diff_ci_high": m.loc["collapse", "diff_ci_high"],
                "fair_share": (1 - m.loc["no_winner", "mean"]) / n,
                "free_rider_share": fr[0], "free_rider_ci_low": fr[1],
                "free_rider_ci_high": fr[2],
                "cooperator_share": co[0], "cooperator_ci_low": co[1],
                "cooperator_ci_high": co[2],
                "seat0_share": s0["mean"], "seat0_ci_low": s0["ci_low"],
                "seat0_ci_high": s0["ci_high"], "seat0_diff": s0["diff"],
                "seat0_diff_ci_low": s0["diff_ci_low"], "seat0_diff_ci_high": s0["diff_ci_high"],
                "rounds": m.loc["rounds", "mean"]})
    return pd.DataFrame(rows)


def _characters(runs) -> pd.DataFrame:
    """Seat 0's paired gain of access to each character: the city's own persona (each
    population of assemblee_characters), then the best-responding bidder, ``adaptive``
    in seat 0 of a city of the rung's persona (assemblee_characters_br)."""
    br = runs.results(BR_CHARACTERS_FILE)
    df = pd.concat([runs.results("assemblee_characters"),
                    br.assign(bot="adaptive in a " + br["bot"] + " city")], ignore_index=True)
    rows = []
    for bot, g in df.groupby("bot", sort=False):
        ref = g[g["ref_point"].isna()]
        refm = {(r.metric, r.side): r for r in ref.itertuples()}
        out = []
        for point, p in g[g["ref_point"].notna()].groupby("point", sort=False):
            spec = p["policies"].iloc[0].split(",")[0]
            char = spec.split(":no_")[1]
            s0 = p[(p["metric"] == "win_share") & (p["side"].astype(str) == "0")].iloc[0]
            bid, held = refm[("char_bid", char)], refm[("win_if_held", char)]
            sold, rev = refm[("char_sold", char)], refm[("char_revealed", char)]
            gain = -s0["diff"]
            out.append({
                "bot": bot, "character": char, "games": int(s0["games"]),
                "revealed_per_game": rev.mean, "sold_per_game": sold.mean,
                "mean_winning_bid": bid.mean, "bid_ci_low": bid.ci_low,
                "bid_ci_high": bid.ci_high, "auctions_won": int(bid.denominator),
                "win_if_held": held.mean, "held_ci_low": held.ci_low,
                "held_ci_high": held.ci_high, "holders": int(held.denominator),
                "seat0_share_without": s0["mean"],
                "gain": gain, "gain_ci_low": -s0["diff_ci_high"],
                "gain_ci_high": -s0["diff_ci_low"],
                "p": p_value(gain, s0["diff_half_width"])})
        t = pd.DataFrame(out)
        t["p_holm"] = adjust(t["p"].to_numpy(), "holm")
        rows.append(t)
    return pd.concat(rows, ignore_index=True)


def _personalities(runs) -> pd.DataFrame:
    df = runs.results("assemblee_personalities")
    rows = []
    for bot, g in df.groupby("bot", sort=False):
        free = g[g["force_personality"] == "none"]
        by = free[free["metric"] == "win_by_pers"].set_index("side")
        out = []
        for fp, p in g[g["force_personality"] != "none"].groupby("force_personality",
                                                                 sort=False):
            pe = fp.split("=")[1]
            s0 = p[(p["metric"] == "win_share") & (p["side"].astype(str) == "0")].iloc[0]
            b = by.loc[pe]
            out.append({
                "bot": bot, "personality": pe, "games": int(s0["games"]),
                "seat0_share": s0["mean"], "seat0_ci_low": s0["ci_low"],
                "seat0_ci_high": s0["ci_high"], "diff_vs_ulios": s0["diff"],
                "diff_ci_low": s0["diff_ci_low"], "diff_ci_high": s0["diff_ci_high"],
                "p": p_value(s0["diff"], s0["diff_half_width"]) if pe != "ulios" else np.nan,
                "share_unforced": b["mean"], "unforced_ci_low": b["ci_low"],
                "unforced_ci_high": b["ci_high"], "seats_unforced": int(b["denominator"])})
        t = pd.DataFrame(out)
        mask = t["personality"] != "ulios"
        t["p_holm"] = np.nan
        t.loc[mask, "p_holm"] = adjust(t.loc[mask, "p"].to_numpy(), "holm")
        rows.append(t)
    return pd.concat(rows, ignore_index=True)


def _variants(runs) -> pd.DataFrame:
    rows = []
    for stem in ("assemblee_variants_6p", "assemblee_variants_10p"):
        df = runs.results(stem)
        for bot, g in df.groupby("bot", sort=False):
            base = g[g["ref_point"].isna()]["label"].iloc[0]
            out = []
            for point, p in g[g["ref_point"].notna()].groupby("point", sort=False):
                label = p["label"].iloc[0]
                var, _, val = label.partition("=")
                for metric, side in (("collapse", "all"), ("rounds", "all"),
                                     ("ostracism_passes", "all"), ("win_share", "0")):
                    r = p[(p["metric"] == metric) & (p["side"].astype(str) == side)].iloc[0]
                    out.append({"bot": bot, "setup": stem.replace("assemblee_variants_", ""),
                                "baseline": base, "variant": var, "value": val,
                                "metric": metric if side == "all" else "seat0_win_share",
                                "games": int(r["games"]), "mean": r["mean"],
                                "diff": r["diff"], "diff_ci_low": r["diff_ci_low"],
                                "diff_ci_high": r["diff_ci_high"],
                                "p": p_value(r["diff"], r["diff_half_width"])})
            t = pd.DataFrame(out)
            t["p_holm"] = adjust(t["p"].fillna(1.0).to_numpy(), "holm")
            rows.append(t)
    return pd.concat(rows, ignore_index=True)


def _seat_balance(runs) -> pd.DataFrame:
    """Seat win shares of the all-{bot} 10-player point (identical personas: exchangeable)."""
    df = runs.results("assemblee_public_goods_10p", "win_share")
    df = df[df["ref_point"].isna()]
    out = []
    for bot, g in df.groupby("bot", sort=False):
        n = len(g)
        for r in g.itertuples():
            sigma = r.sd / math.sqrt(r.games)
            out.append({"bot": bot, "players": n, "seat": int(r.side), "games": int(r.games),
                        "share": r.mean, "ci_low": r.ci_low, "ci_high": r.ci_high,
                        "z_vs_parity": (r.mean - 1.0 / n) / sigma if sigma > 0 else 0.0})
    return pd.DataFrame(out)


def tables(runs) -> dict[str, pd.DataFrame]:
    t = _collapse_tables(runs)
    t["public_goods"] = _public_goods(runs)
    t["characters"] = _characters(runs)
    t["personalities"] = _personalities(runs)
    t["variants"] = _variants(runs)
    t["seat_balance"] = _seat_balance(runs)
    tuned = runs.tune(TUNE_FILE)
    t["tune_best"] = tuned.table("best").assign(bot=tuned.bot, target=0.10)
    t["tune_trials"] = tuned.table("trials").assign(bot=tuned.bot)
    return t


# --------------------------------------------------------------------------- plots
def _err(ax, x, y, lo, hi, label, fmt="o-"):
    ax.errorbar(x, np.asarray(y, float), yerr=error_bars(y, lo, hi), fmt=fmt, capsize=3,
                label=label, ms=4)


def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    names = []
    cs = tables["collapse_summary"]
    bots = list(dict.fromkeys(cs["bot"]))
    fig, ax = tight_figure()
    for (bot, pop), g in cs.groupby(["bot", "population"], sort=False):
        if bot != bots[0] and pop in ("free_rider", "aggressive", "random"):
            continue           # the same games at every rung
        _err(ax, g["players"], g["collapse"], g["collapse_ci_low"], g["collapse_ci_high"],
             f"all {pop}")
    ax.set_xlabel("players")
    ax.set_ylabel("collapse rate (A5.3)")
    ax.set_title("Collapse rate by player count and population (95% CI)")
    ax.legend(fontsize=8)
    names.append(save_tight(fig, folder, "collapse_by_players.png"))

    ev = tables["collapse_events"]
    ev = ev[(ev["kind"] == "pending") & (ev["bot"] == bots[0])]
    if len(ev):
        fig, ax = tight_figure(8, 4.2)
        pops = list(dict.fromkeys(ev["population"]))
        events = list(dict.fromkeys(ev["event"]))
        w = 0.8 / max(1, len(pops))
        for i, pop in enumerate(pops):
            e = ev[ev["population"] == pop].set_index("event").reindex(events)
            x = np.arange(len(events)) + i * w
            y = e["share"].to_numpy(float)
            ax.bar(x, y, w, label=pop, yerr=[y - e["ci_low"].to_numpy(float),
                                              e["ci_high"].to_numpy(float) - y], capsize=2)
        ax.set_xticks(np.arange(len(events)) + 0.4 - w / 2)
        ax.set_xticklabels(events, rotation=45, ha="right", fontsize=8)
        ax.set_ylabel("share of collapses with it pending")
        ax.set_title("Events pending at collapses (all player counts)")
        ax.legend(fontsize=8)
        names.append(save_tight(fig, folder, "collapse_events.png"))

    pg = tables["public_goods"]
    for n, g0 in pg.groupby("players"):
        fig, (a1, a2) = tight_figure(9, 3.8, ncols=2)
        for bot, g in g0.groupby("bot", sort=False):
            _err(a1, g["free_riders"], g["collapse"], g["collapse_ci_low"],
                 g["collapse_ci_high"], bot)
            _err(a2, g["free_riders"], g["free_rider_share"], g["free_rider_ci_low"],
                 g["free_rider_ci_high"], f"free rider ({bot} city)")
            _err(a2, g["free_riders"], g["cooperator_share"], g["cooperator_ci_low"],
                 g["cooperator_ci_high"], f"{bot}", fmt="s--")
        a2.plot(g0["free_riders"], g0["fair_share"], ":", color="grey", label="fair share")
        a1.set_xlabel("free riders k")
        a1.set_ylabel("collapse rate")
        a1.legend(fontsize=8)
        a2.set_xlabel("free riders k")
        a2.set_ylabel("win share per seat")
        a2.legend(fontsize=7)
        fig.suptitle(f"Public-goods curve, {n} players (95% CI)")
        names.append(save_tight(fig, folder, f"public_goods_{n}p.png"))

    ch = tables["characters"]
    fig, (a1, a2) = tight_figure(10, 4.2, ncols=2)
    chars = list(dict.fromkeys(ch["character"]))
    for i, (bot, g) in enumerate(ch.groupby("bot", sort=False)):
        g = g.set_index("character").reindex(chars)
        y = np.arange(len(chars)) + 0.2 * i
        for ax, col, lo, hi in ((a1, "mean_winning_bid", "bid_ci_low", "bid_ci_high"),
                                (a2, "gain", "gain_ci_low", "gain_ci_high")):
            v = g[col].to_numpy(float)
            ax.errorbar(v, y, xerr=[v - g[lo].to_numpy(float), g[hi].to_numpy(float) - v],
                        fmt="o", capsize=2, ms=4, label=bot)
    for ax in (a1, a2):
        ax.set_yticks(np.arange(len(chars)))
        ax.set_yticklabels(chars, fontsize=8)
        ax.legend(fontsize=8)
    a1.set_xlabel("mean winning bid (gold)")
    a2.axvline(0, color="grey", lw=0.8)
    a2.set_xlabel("win-share gain of access (paired)")
    fig.suptitle("Value of each character, 6 players (95% CI)")
    names.append(save_tight(fig, folder, "characters.png"))

    pe = tables["personalities"]
    fig, ax = tight_figure()
    ps = list(dict.fromkeys(pe["personality"]))
    for i, (bot, g) in enumerate(pe.groupby("bot", sort=False)):
        g = g.set_index("personality").reindex(ps)
        x = np.arange(len(ps)) + 0.15 * i
        _err(ax, x, g["diff_vs_ulios"], g["diff_ci_low"], g["diff_ci_high"], bot, fmt="o")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(np.arange(len(ps)))
    ax.set_xticklabels(ps)
    ax.set_ylabel("seat 0 win share − as ulios (paired)")
    ax.set_title("Personality balance, 6 players (95% CI)")
    ax.legend(fontsize=8)
    names.append(save_tight(fig, folder, "personalities.png"))

    va = tables["variants"]
    va = va[(va["metric"] == "collapse") & (va["variant"] == "collapse_threshold")]
    if len(va):
        fig, ax = tight_figure()
        for (bot, setup), g in va.groupby(["bot", "setup"], sort=False):
            x = g["value"].astype(int)
            _err(ax, x, g["mean"], g["mean"] - (g["diff"] - g["diff_ci_low"]),
                 g["mean"] + (g["diff_ci_high"] - g["diff"]), f"{setup} {bot}")
        ax.set_xlabel("collapse_threshold")
        ax.set_ylabel("collapse rate (bars: paired diff CI)")
        ax.set_title("collapse_threshold")
        ax.legend(fontsize=8)
        names.append(save_tight(fig, folder, "variants_threshold.png"))

    if "tune_trials" in tables and len(tables["tune_trials"]):
        tr = tables["tune_trials"]
        col = "collapse_threshold"
        val = "collapse_value" if "collapse_value" in tr else None
        if col in tr and val:
            fig, ax = tight_figure()
            tr = tr.sort_values(col)
            ax.plot(tr[col], tr[val], "o", label="search trials")
            ax.axhline(0.10, color="grey", ls=":", label="target 10%")
            best = tables["tune_best"]
            b = best[(best["role"] == "best") & (best["measure"] == "collapse")]
            if len(b):
                b = b.iloc[0]
                ax.errorbar([b[col]], [b["value"]], yerr=[[b["value"] - b["ci_low"]],
                                                          [b["ci_high"] - b["value"]]],
                            fmt="s", color="red", capsize=3, label="best (raced)")
            ax.set_xlabel(col)
            ax.set_ylabel("collapse rate")
            ax.set_title("Tuning collapse_threshold toward 10% (8 players, 2 free riders)")
            ax.legend(fontsize=8)
            names.append(save_tight(fig, folder, "tuning.png"))
    return names


# --------------------------------------------------------------------------- findings
def findings(tables: dict) -> tuple[list[str], list[str]]:
    found, flags = [], []
    cs = tables["collapse_summary"]
    for (bot, pop), g in cs.groupby(["bot", "population"], sort=False):
        lo, hi = g["collapse"].min(), g["collapse"].max()
        found.append(f"[{bot}] all {pop}: collapse rate {lo:.3f}–{hi:.3f} over 4–15 players "
                     f"({int(g['games'].iloc[0])} games per count); mean rounds "
                     f"{g['rounds'].min():.1f}–{g['rounds'].max():.1f}.")
    ev = tables["collapse_events"]
    ev = ev[ev["kind"] == "pending"]
    for (bot, pop), g in ev.groupby(["bot", "population"], sort=False):
        g = g.sort_values("share", ascending=False).head(3)
        if len(g) and g["collapses"].iloc[0] >= 20:     # too few collapses say nothing
            found.append(f"[{bot}] all {pop}: events most often pending at a collapse "
                         f"({int(g['collapses'].iloc[0])} collapses): " + "; ".join(
                             f"{r.event} {r.share:.2f} {interval(r.ci_low, r.ci_high, '{:.2f}')}"
                             for r in g.itertuples()) + ".")
    pg = tables["public_goods"]
    for (bot, n), g in pg.groupby(["bot", "players"], sort=False):
        g = g.set_index("free_riders")
        if 1 in g.index:
            r = g.loc[1]
            found.append(
                f"[{bot}] {n} players: one free rider among cooperators wins "
                f"{r.seat0_share:.3f} {interval(r.seat0_ci_low, r.seat0_ci_high)} vs the same seat "
                f"cooperating: paired gain {r.seat0_diff:+.3f} "
                f"{interval(r.seat0_diff_ci_low, r.seat0_diff_ci_high)}; collapse rate "
                f"{r.collapse:.3f} (k=0: {g.loc[0, 'collapse']:.3f}).")
            if r.seat0_diff_ci_low > 0:
                flags.append(f"[{bot}] {n} players: free-riding pays against cooperators "
                             f"(+{r.seat0_diff:.3f} win share, paired): the fair-share "
                             "pledge has no sanction.")
        half = g[g["collapse"] >= 0.5]
        if len(half):
            found.append(f"[{bot}] {n} players: collapse reaches 50% at k = "
                         f"{int(half.index.min())} free riders "
                         f"({half['collapse'].iloc[0]:.3f}).")
    ch = tables["characters"]
    for bot, g in ch.groupby("bot", sort=False):
        top = g.sort_values("mean_winning_bid", ascending=False).head(3)
        found.append(f"[{bot}] highest mean winning bids (6 players): " + "; ".join(
            f"{r.character} {r.mean_winning_bid:.2f} gold "
            f"{interval(r.bid_ci_low, r.bid_ci_high, '{:.2f}')}" for r in top.itertuples()) + ".")
        sig = g[g["p_holm"] < 0.05].sort_values("gain", ascending=False)
        found.append(f"[{bot}] characters whose access changes seat 0's win share (Holm 5%, "
                     f"{int(g['games'].iloc[0])} paired games): " + ("; ".join(
                         f"{r.character} {r.gain:+.4f} "
                         f"{interval(r.gain_ci_low, r.gain_ci_high, '{:+.4f}')}"
                         for r in sig.itertuples()) or "none") + ".")
        neg = sig[sig["gain"] < 0]
        if len(neg):
            flags.append(f"[{bot}] bidding on {', '.join(neg['character'])} lowers the "
                         "bidder's win share (all-pay overbidding for this persona).")
    pe = tables["personalities"]
    for bot, g in pe.groupby("bot", sort=False):
        g2 = g[g["personality"] != "ulios"].sort_values("diff_vs_ulios", ascending=False)
        found.append(f"[{bot}] personality value vs ulios (seat 0, 6 players, paired, Holm): "
                     + "; ".join(f"{r.personality} {r.diff_vs_ulios:+.3f} "
                                 f"{interval(r.diff_ci_low, r.diff_ci_high, '{:+.3f}')}"
                                 f"{' *' if r.p_holm < 0.05 else ''}"
                                 for r in g2.itertuples()) + ".")
        best = g2.iloc[0]
        if best.p_holm < 0.05 and best.diff_vs_ulios > 0.05:
            flags.append(f"[{bot}] {best.personality} is strong: +{best.diff_vs_ulios:.3f} win "
                         "share over ulios at 6 players.")
    ost = tables["ostracism"]
    for (bot, pop), g in ost.groupby(["bot", "population"], sort=False):
        if g["proposals"].sum() == 0:
            continue
        k, n = g["passes"].sum(), g["proposals"].sum()
        p, lo, hi = share_ci(k, n)
        found.append(f"[{bot}] all {pop}: {g['proposals_per_game'].mean():.2f} ostracism "
                     f"proposals per game (mean over 4–15 players), {p:.2f} "
                     f"{interval(lo, hi, '{:.2f}')} of them pass; pledged per proposal "
                     f"{g['pledged_per_proposal'].mean():.1f} gold; an exile shares out "
                     f"{g['exiled_gold_per_exile'].mean():.1f} gold and "
                     f"{g['exiled_renown_per_exile'].mean():.1f} renown.")
    va = tables["variants"]
    sig = va[(va["p_holm"] < 0.05) & va["metric"].isin(["collapse", "seat0_win_share"])]
    for (bot, setup), g in sig.groupby(["bot", "setup"], sort=False):
        found.append(f"[{bot}] {setup}: variants that move collapse or seat 0 (Holm 5%): "
                     + "; ".join(f"{r.variant}={r.value} {r.metric} {r.diff:+.3f} "
                                 f"{interval(r.diff_ci_low, r.diff_ci_high, '{:+.3f}')}"
                                 for r in g.head(8).itertuples()) + ".")
    if "tune_best" in tables:
        b = tables["tune_best"]
        b = b[b["measure"] == "collapse"].set_index("role")
        if "best" in b.index:
            r = b.loc["best"]
            d = b.loc["default"] if "default" in b.index else None
            found.append(f"Tuning: collapse_threshold = {int(r.collapse_threshold)} gives "
                         f"a collapse rate {r.value:.3f} {interval(r.ci_low, r.ci_high)} (target "
                         f"0.10, 8 players with 2 free riders, {int(r.games)} games)"
                         + (f"; the A5.3 default gives {d.value:.3f}." if d is not None
                            else "."))
    sb = tables["seat_balance"]
    for bot, g in sb.groupby("bot", sort=False):
        zmax = g["z_vs_parity"].abs().max()
        found.append(f"[{bot}] seat balance, 10 identical players: max |z| vs 1/10 = "
                     f"{zmax:.2f} over 10 seats.")
        if zmax > 3.5:
            flags.append(f"[{bot}] seats are not exchangeable with identical personas "
                         f"(max |z| {zmax:.1f}): a seat-order artefact?")
    return found, flags


def key_figures(tables: dict) -> pd.DataFrame:
    rows = []
    pg = tables["public_goods"]
    for r in pg[pg["free_riders"] == 1].itertuples():
        rows.append({"figure": f"free rider gain, {r.players}p", "bot": r.bot,
                     "mean": r.seat0_diff, "ci_low": r.seat0_diff_ci_low,
                     "ci_high": r.seat0_diff_ci_high})
    cs = tables["collapse_summary"]
    for r in cs[cs["players"].isin([6, 10])].itertuples():
        if r.population in ("civic", "conditional"):
            rows.append({"figure": f"collapse rate, cooperators {r.players}p", "bot": r.bot,
                         "mean": r.collapse, "ci_low": r.collapse_ci_low,
                         "ci_high": r.collapse_ci_high})
    for r in tables["characters"].itertuples():
        rows.append({"figure": f"access gain {r.character}", "bot": r.bot, "mean": r.gain,
                     "ci_low": r.gain_ci_low, "ci_high": r.gain_ci_high})
    for r in tables["personalities"].itertuples():
        if r.personality != "ulios":
            rows.append({"figure": f"{r.personality} vs ulios", "bot": r.bot,
                         "mean": r.diff_vs_ulios, "ci_low": r.diff_ci_low,
                         "ci_high": r.diff_ci_high})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
def _answer(t: Tables) -> Finding:
    f = Finding("assemblee", "L'Assemblée collapse")
    name = "assemblee/collapse_summary.csv"
    cs = t.get(name, "bot", "population", "players", "games", "collapse", "collapse_ci_low",
               "collapse_ci_high")
    if cs is not None:
        c = cs[(cs["bot"] == "civic") & (cs["population"] == "civic")]
        if len(c):
            worst = c.loc[c["collapse"].idxmax()]
            k = int(round(worst["collapse"] * worst["games"]))
            p0, p1 = int(c["players"].min()), int(c["players"].max())
            if k == 0:
                s = (f"**Cities of civic players did not collapse** in any of "
                     f"{games(worst['games'])} games a player count ({p0}–{p1} players; "
                     f"upper bound {100 * c['collapse_ci_high'].max():.2g}%)")
            else:
                s = (f"**Cities of civic players rarely collapse**: at most {k} of "
                     f"{games(worst['games'])} games a player count ({p0}–{p1} players; "
                     + pct(worst["collapse"], worst["collapse_ci_low"], worst["collapse_ci_high"]) +
                     f" at {int(worst['players'])})")
            f.statements.append(Statement(s, t.source(name)))
    name = "assemblee/public_goods.csv"
    pg = t.get(name, "bot", "players", "free_riders", "free_rider_share", "free_rider_ci_low",
               "free_rider_ci_high")
    if pg is not None:
        r = pg[(pg["players"] == 10) & (pg["free_riders"] == 1)]
        if len(r):
            fair = f" (fair share {100 * r['fair_share'].iloc[0]:.0f}%)" if "fair_share" in r \
                else ""
            pays = [str(x["bot"]) for _, x in r.iterrows()
                    if "cooperator_share" in r and x["free_rider_ci_low"] > x["cooperator_share"]]
            f.statements.append(Statement(
                f"**Free riding beats cooperating among {', '.join(pays) or 'no'} players**: "
                f"one free rider among 10 wins{fair} " + by_rung(
                    t, r, lambda x: pct(x["free_rider_share"], x["free_rider_ci_low"],
                                        x["free_rider_ci_high"])
                    + (f" (a cooperator {100 * x['cooperator_share']:.1f}%)"
                       if "cooperator_share" in r else ""), ""), t.source(name)))
    name = "assemblee/tune_best.csv"
    tb = t.get(name, "role", "measure", "value", "ci_low", "ci_high", "collapse_threshold")
    if tb is not None:
        c = tb[tb["measure"] == "collapse"]
        best, default = c[c["role"] == "best"], c[c["role"] == "default"]
        if len(best):
            b = best.iloc[0]
            tgt = f", target {100 * b['target']:g}%" if "target" in b else ""
            who = f"{b['bot']} players with free riders, " if "bot" in b else ""
            s = (f"A collapse threshold of **{b['collapse_threshold']:g}** gives "
                 f"{pct(b['value'], b['ci_low'], b['ci_high'])} collapses ({who}"
                 f"{games(b['games'])} games{tgt})")
            if len(default):
                d = default.iloc[0]
                s += f"; the default {pct(d['value'], d['ci_low'], d['ci_high'])}"
            f.statements.append(Statement(s, t.source(name)))
    return f


def _assemblee_row(t: Tables) -> BoardRow | None:
    name = "assemblee/public_goods.csv"
    pg = t.get(name, "bot", "players", "free_riders", "fair_share", "free_rider_share",
               "free_rider_ci_low", "free_rider_ci_high")
    if pg is None:
        return None
    r = pg[(pg["players"] == pg["players"].max()) & (pg["free_riders"] == 1)]
    if r.empty:
        return None
    players = int(r["players"].iloc[0])
    items = []
    for b in r["bot"].drop_duplicates():
        x = r[r["bot"] == b].iloc[0]
        e = tost_est(x["free_rider_share"] - x["fair_share"], x["free_rider_ci_low"]
                     - x["fair_share"], x["free_rider_ci_high"] - x["fair_share"], FAIR_MARGIN)
        est = Est(str(b), e.est, e.lo, e.hi, e.verdict, int(x["games"]) if "games" in x
                  else None)
        items.append(Item(str(b), est, [est]))
    q = items[0].label                      # the table's first population: the default
    at = items[0].at
    x = r[r["bot"] == q].iloc[0]
    coll = ""
    cs = t.get("assemblee/collapse_summary.csv", "bot", "population", "collapse", "games")
    if cs is not None:
        c = cs[(cs["bot"] == q) & (cs["population"] == q)]
        if len(c):
            w = c.loc[c["collapse"].idxmax()]
            k = int(round(w["collapse"] * w["games"]))
            coll = (f"{q.capitalize()} cities collapse in at most {k} of "
                    f"{int(w['games']):,} games; ")
    head = (f"one free rider among {players} {q} players wins "
            f"{100 * x['free_rider_share']:.0f}% (fair {100 * x['fair_share']:.0f}%): "
            + ("free riding pays" if at.verdict == "unfair" and at.est > 0 else
               "free riding is punished" if at.verdict == "unfair" else
               "no edge" if at.verdict == "fair" else "edge not shown either way"))
    sentence = fit(coll + head, ".") if coll else head[0].upper() + head[1:] + "."
    if len(sentence.split()) > MAX_WORDS:
        sentence = head[0].upper() + head[1:] + "."
    return BoardRow(
        "assemblee", "Does L'Assemblée's collapse stop free riders?",
        [Light("free rider", at.verdict)], sentence,
        noticed(at.est / 100, float(x["fair_share"]), False),
        "the free rider's edge", items, "pp of games won by the free rider, from fair",
        "90%", 100 * FAIR_MARGIN, "assemblee",
        [t.source(name), t.source("assemblee/collapse_summary.csv")], q)


def _notice(out: Path) -> str:
    """The games people would need to notice a free rider's gain among 10 players."""
    kf = read_key_figures(out)
    return notice(key_effects(kf, "assemblee", "free rider gain, 10p"), 0.1, True,
                  "the free rider's gain among 10 players (a free rider against a "
                  "cooperator)")


REPORT = Report(
    question="Does L'Assemblée punish free riders?", key_plot="public_goods_10p.png",
    answer=_answer, notice=_notice,
    rows=(Row("assemblee", 70, _assemblee_row, Page(
        "assemblee-collapse", "When does L'Assemblée's city collapse?",
        "How often the city collapses (A5.3), whether free riding pays, and which collapse "
        "threshold gives a chosen collapse rate.",
        ("assemblee/collapse_by_players.png", "assemblee/public_goods_10p.png",
         "assemblee/collapse_events.png", "assemblee/tuning.png"))),))
