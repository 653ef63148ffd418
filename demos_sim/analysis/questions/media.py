"""Media impact: what the two Media cards (D6) do to who wins.

Two kinds of evidence, kept apart:

- **Observational** (default rules, every seat the same bot): the win share of a player
  by the number of Media held when the Scandal starts (0, 1, 2 — two cancel out, D6.1),
  of players aimed at by a Media action or not, and of the acting side by whom its Media
  aimed at (a teammate or an opponent, team modes). These are conditional means
  (ratio estimates with delta-method intervals) and are **confounded**: who holds a
  Media, and who is aimed at, depends on how the game went — a Media can only target a
  player who owns face-down figures, and the bots aim at the opponent with the most
  figures (greedy) or the most threatening one (heuristic), i.e. at the leaders. So
  "targeted players win more" describes the selection, not the Media's effect.
- **Causal, by restricted play**: with ``media_optional = true``, every seat plays the
  bot against every seat playing ``bot:nomedia`` (nobody plays a Media) on the same
  deals; the paired difference of each seat's (side's) win share is the swing Media
  actions cause. The same design gives the Independent's ``keep`` vs ``act``
  (``independent_double_media``, 2v2+1) and ``media_targets_revealed`` on vs off.

Setups: individual full rules with 3, 4 and 5 players and the team modes 2v2 (ABAB), 2v3
(ABABB), 2v2+1 (ABABI).

**Value to the tuned player** (4 players, tuned field): ``media_br`` is ``tuned`` with its
Media aim (whom it points at, D6.2) searched by ``demos-sim tune-bot --params aim_threat,
aim_harm,aim_lead --in-place`` for one seat among three ``tuned`` players; the search found
nothing better than ``tuned`` (its gain over tuned, +0.001 pp [−0.008, +0.011] on 32,000
fresh deals, is not shown either way), so this is the value of the Media to the tuned
player, not to a proven best response. One experiment per seat pairs it with
``media_br:nomedia`` in that seat (``media_optional``), same deals: the Media's worth
(``worth`` = −diff, positive: worth that much) per seat, on average and per Media action
(:mod:`demos_sim.analysis.core.best_response`).

**Social dilemma** (4 players, greedy, heuristic and tuned, ``media_optional``):
``media_lone_4p`` lets one seat play its Media among three opponents who decline theirs
(every seat in turn), against nobody and everyone playing, same deals;
``media_users_4p`` has one seat decline among opponents who play theirs. Table
``media_dilemma``: the Media's worth to a lone user, to one user among users, and a
seat's change when everyone plays rather than nobody.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.answers import (Finding, Statement, Tables, by_rung, ci,
                                             dilemma_reading, dilemma_statement, span,
                                             tuned_value_statement)
from demos_sim.analysis.core.best_response import (
    best_response_table, dilemma_findings, dilemma_plot, dilemma_table, users_table, with_users,
)
from demos_sim.analysis.core.board import (BoardRow, EFFECT, Est, Item, Light, base_rate, fit,
                                           key_effects, notice, noticed, pp_text, quoted,
                                           read_key_figures, tost_est)
from demos_sim.analysis.core.formatting import interval, pct, pp
from demos_sim.analysis.core.key_figures import COLUMNS, sign_flips
from demos_sim.analysis.core.plotting import error_bars, figure, heatmap, panels
from demos_sim.analysis.core.protocol import DEMOS_BOTS, DEMOS_RUNGS, Derived, Page, Report, Row
from demos_sim.analysis.core.stats import FAIR_MARGIN, adjust, diff_same_games, p_value

TITLE = "Media impact: who holds them, who they hit, what they change"
METHOD = (
    "Every seat plays the same bot (" + DEMOS_BOTS + "). "
    "Observational tables come from the default rules (Media compulsory, D6.2): win share "
    "(M1) of a player by Media held at the Scandal (0/1/2), of players aimed at by a Media "
    "or not, and of the acting side by the target's side — ratio estimates over "
    "player-games with delta-method 95% intervals. They are confounded (only players with "
    "face-down figures can be aimed at, and the bots aim at the leaders), so the effect of "
    "the Media is measured by restricted play: with media_optional = true, every seat "
    "plays the bot vs every seat plays bot:nomedia (nobody plays a Media) on the same deals, "
    "and the paired difference of each seat's or side's win share and of the no-winner "
    "share is the swing Media actions cause (95% normal interval of the mean paired "
    "difference). independent_double_media keep vs act (2v2+1) and media_targets_revealed "
    "off vs on are paired the same way. p-values are two-sided normal tests of the paired "
    "differences, Holm-adjusted within each table and bot (family-wise 5%). "
    "Differences between two conditional means (targeted minus not targeted) are "
    "descriptive; they come from the same games, so their interval adds the two ratios' "
    "half-widths (each a per-game delta-method interval): conservative whatever the "
    "correlation within a game (Var(a - b) <= (sd_a + sd_b)^2). "
    "Value to the tuned player (4 players, tuned field, media_optional): media_br is tuned "
    "with its Media aim searched for one seat among three tuned players "
    "(policies/media_br.toml, 50 trials, one seed); it found nothing better than tuned "
    "(gain over tuned +0.001 pp [-0.008, +0.011] of win share on 32,000 fresh deals), so "
    "this is not a proven best response. One file a seat pairs media_br with "
    "media_br:nomedia in that seat, same deals: the Media's worth = win share playing "
    "minus declining (positive: worth that much), per seat, average (conservative: the "
    "mean of the seats' half-widths) and per Media action (delta method, Cauchy-Schwarz). "
    "Social dilemma (4 players, greedy, heuristic and tuned, media_optional): "
    "media_lone_4p's reference has every seat decline (bot:nomedia), one point a seat lets "
    "that seat alone play its Media, the last lets every seat play, same deals (the "
    "Media's worth to a lone user among abstainers; each seat's change when everyone "
    "plays rather than nobody); media_users_4p's reference has every seat play and one "
    "point a seat has that seat decline (its worth among users). The Media acts in the "
    "Scandal, after the rounds' points (D6), so it moves no points: its effects are in "
    "win share only. All shares and differences are fractions of all games (0.01 = 1 "
    "percentage point).")
# the best response: one file a seat (the runner pairs a block's points with one reference)
BEST_RESPONSE = [f"media_best_response_4p_s{s}" for s in range(4)]
# the social dilemma: one seat plays its Media among abstainers / declines among users
LONE, USERS = "media_lone_4p", "media_users_4p"
EXPERIMENTS = ["media_individual", "media_individual_nomedia", "media_2v2", "media_2v2_nomedia",
               "media_2v3", "media_2v3_nomedia", "media_2v2p1", "media_2v2p1_nomedia"
               ] + BEST_RESPONSE + [LONE, USERS]
RUNGS = DEMOS_RUNGS
# media_br's search was among tuned players: its files run with tuned as the field only;
# the dilemma files are small: every rung at full size
EXPERIMENT_RUNGS = {**{s: {"tuned": 1.0} for s in BEST_RESPONSE},
                    **{s: {b: 1.0 for b in DEMOS_RUNGS} for s in (LONE, USERS)}}
SHOW = ["swing", "media_dilemma", "media_best_response", "by_media", "targeted",
        "media_target", "cancel", "independent", "revealed"]  # held_by_seat: CSV too
ALPHA = 0.05
OBS = {"media_individual": "individual", "media_2v2": "2v2", "media_2v3": "2v3",
       "media_2v2p1": "2v2+1"}
CAUSAL = {f"{k}_nomedia": v for k, v in OBS.items()}


def _setup(mode: str, players: int) -> str:
    return f"individual {players}p" if mode == "individual" else mode


def _ref_rows(runs, stems: dict) -> pd.DataFrame:
    """Rows of the reference point of every block of the named experiments."""
    parts = []
    for (stem, bot), run in runs.items.items():
        if stem not in stems:
            continue
        df = run.results
        df = df[df["ref_point"].isna()]
        parts.append(df.assign(bot=bot, setup=[_setup(stems[stem], p) for p in df["players"]]))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _diff_rows(runs, stems: dict) -> pd.DataFrame:
    parts = []
    for (stem, bot), run in runs.items.items():
        if stem not in stems:
            continue
        df = run.results
        df = df[df["ref_point"].notna()]
        parts.append(df.assign(bot=bot, setup=[_setup(stems[stem], p) for p in df["players"]]))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _mean_player_share(ref: pd.DataFrame) -> dict:
    """(bot, setup) -> average win share of a player (a player's win is its side's)."""
    out = {}
    for (bot, setup), g in ref.groupby(["bot", "setup"]):
        w = g[g["metric"] == "win_share"]
        sizes = w["seats"].astype(str).str.count(",") + 1
        out[(bot, setup)] = float((w["mean"] * sizes).sum() / sizes.sum())
    return out


def _paired(df: pd.DataFrame, metrics=("win_share", "no_winner")) -> pd.DataFrame:
    """Paired-difference rows (non-reference points) with Holm-adjusted p-values by bot."""
    d = df[df["metric"].isin(metrics)].copy()
    d["p"] = [p_value(a, h) for a, h in zip(d["diff"], d["diff_half_width"])]
    d["p_holm"] = np.nan
    for idx in d.groupby("bot").groups.values():
        d.loc[idx, "p_holm"] = adjust(d.loc[idx, "p"].to_numpy(), "holm")
    return d


def tables(runs) -> dict[str, pd.DataFrame]:
    ref = _ref_rows(runs, OBS)
    share = _mean_player_share(ref)
    out = {}

    # --- win share by Media held (observational)
    bm = ref[ref["metric"] == "win_by_media"]
    held = ref[ref["metric"] == "players_by_media"].set_index(["bot", "setup", "side"])
    rows = []
    for r in bm.itertuples():
        h = held.loc[(r.bot, r.setup, r.side)]
        rows.append({"bot": r.bot, "setup": r.setup, "media_held": int(r.side),
                     "player_games": int(r.denominator), "games": int(r.games),
                     "players_per_game": h["mean"],
                     "win_share": r.mean, "ci_low": r.ci_low, "ci_high": r.ci_high,
                     "mean_player_share": share[(r.bot, r.setup)]})
    out["by_media"] = pd.DataFrame(rows)

    # --- targeted or not (observational) + the causal swing of the no-winner share
    tg = ref[ref["metric"] == "win_by_targeted"]
    rows = []
    for (bot, setup), g in tg.groupby(["bot", "setup"], sort=False):
        t = g[g["side"] == "targeted"].iloc[0]
        u = g[g["side"] == "not_targeted"].iloc[0]
        gap, hw = diff_same_games(t["mean"], t["half_width"], u["mean"], u["half_width"])
        rows.append({"bot": bot, "setup": setup, "games": int(t["games"]),
                     "targeted_player_games": int(t["denominator"]),
                     "targeted": t["mean"], "targeted_ci_low": t["ci_low"],
                     "targeted_ci_high": t["ci_high"],
                     "not_targeted_player_games": int(u["denominator"]),
                     "not_targeted": u["mean"], "not_targeted_ci_low": u["ci_low"],
                     "not_targeted_ci_high": u["ci_high"],
                     "gap": gap, "gap_ci_low": gap - hw, "gap_ci_high": gap + hw,
                     "gap_method": "same games: half-widths added"})
    out["targeted"] = pd.DataFrame(rows)

    # --- Media aimed at a teammate or an opponent (team modes, compulsory Media)
    ma = ref[ref["metric"].isin(["media_actions", "win_by_media_target"])]
    rows = []
    for (bot, setup), g in ma.groupby(["bot", "setup"], sort=False):
        if setup.startswith("individual"):
            continue
        for target in ("teammate", "opponent"):
            a = g[(g["metric"] == "media_actions") & (g["side"] == target)].iloc[0]
            w = g[(g["metric"] == "win_by_media_target") & (g["side"] == target)].iloc[0]
            rows.append({"bot": bot, "setup": setup, "target": target, "games": int(a["games"]),
                         "actions_per_game": a["mean"], "actions_ci_low": a["ci_low"],
                         "actions_ci_high": a["ci_high"], "actions": int(w["denominator"]),
                         "actor_side_win_share": w["mean"], "ci_low": w["ci_low"],
                         "ci_high": w["ci_high"]})
    out["media_target"] = pd.DataFrame(rows)

    # --- Media held by seat (who ends up with them)
    mh = ref[ref["metric"] == "media_held"]
    out["held_by_seat"] = pd.DataFrame({
        "bot": mh["bot"], "setup": mh["setup"], "seat": mh["side"].astype(int),
        "games": mh["games"].astype(int), "media_per_game": mh["mean"],
        "ci_low": mh["ci_low"], "ci_high": mh["ci_high"]}).reset_index(drop=True)

    # --- two-Media cancellation (D6.1), default rules; 2v2+1 under act as well
    mc = ref[ref["metric"] == "media_cancel"]
    out["cancel"] = pd.DataFrame({"bot": mc["bot"], "setup": mc["setup"],
                                  "games": mc["games"].astype(int),
                                  "cancel_share": mc["mean"], "ci_low": mc["ci_low"],
                                  "ci_high": mc["ci_high"]}).reset_index(drop=True)

    # --- causal swing: bot vs bot:nomedia, media_optional = true
    cz = _diff_rows(runs, CAUSAL)
    cref = _ref_rows(runs, CAUSAL)
    out["swing"] = _swing_table(cz, cref)

    # --- Independent keep vs act, media_targets_revealed off vs on
    dz = _diff_rows(runs, OBS)
    oref = ref
    ind = dz[dz["setup"] == "2v2+1"]
    if "independent_double_media" in ind:
        ind = ind[(ind["independent_double_media"] == "act")
                  & (ind["media_targets_revealed"] == False)]
    out["independent"] = _swing_table(
        ind, oref, metrics=("win_share", "no_winner", "independent_condition", "media_cancel"),
        with_col="act", without_col="keep")
    rv = dz[dz["media_targets_revealed"] == True]
    if "independent_double_media" in rv:
        rv = rv[rv["independent_double_media"].isna()
                | (rv["independent_double_media"] == "keep")]
    out["revealed"] = _swing_table(rv, oref, metrics=("win_share", "no_winner", "media_actions"),
                                   with_col="revealed_on", without_col="revealed_off")
    # --- the Media's value to the tuned player (media_br vs media_br:nomedia)
    out["media_best_response"] = best_response_table(
        runs, BEST_RESPONSE, "media_br", "nomedia", "actions", "media_actions_by_seat",
        "per_action")
    # --- the social dilemma: lone user among abstainers, one user among users, everyone
    dl = with_users(dilemma_table(runs, LONE, "nomedia", "media_actions_by_seat"),
                    users_table(runs, USERS, "nomedia"))
    # the Media acts after the rounds' points (D6): no points columns
    out["media_dilemma"] = dl.drop(columns=[c for c in dl.columns if "points" in c])
    return out


def _swing_table(diffs: pd.DataFrame, refs: pd.DataFrame,
                 metrics=("win_share", "no_winner"), with_col="with_media",
                 without_col="no_media") -> pd.DataFrame:
    """One row per (bot, setup, metric, side): both points' means and the paired diff.

    For the nomedia experiments the reference is 'with Media' and the point is 'no
    Media': the swing Media cause is reference − point = −diff. For keep/act and
    revealed the reference is the default and the point the variant: effect = diff.
    """
    cols = ["bot", "setup", "metric", "side", "seats", "games", with_col, without_col,
            "effect", "effect_ci_low", "effect_ci_high", "p", "p_holm"]
    if diffs is None or len(diffs) == 0:
        return pd.DataFrame(columns=cols)
    d = _paired(diffs, metrics)
    key = ["bot", "setup", "metric", "side"]
    r = refs.set_index(key)["mean"]
    causal = with_col == "with_media"
    rows = []
    for x in d.itertuples():
        ref_mean = r.get((x.bot, x.setup, x.metric, x.side), np.nan)
        if causal:      # reference = with Media; point = nobody plays one
            eff, lo, hi = -x.diff, -x.diff_ci_high, -x.diff_ci_low
            a, b = ref_mean, x.mean
        else:           # reference = default; point = the variant
            eff, lo, hi = x.diff, x.diff_ci_low, x.diff_ci_high
            a, b = x.mean, ref_mean
        rows.append({"bot": x.bot, "setup": x.setup, "metric": x.metric, "side": x.side,
                     "seats": x.seats, "games": int(x.games), with_col: a, without_col: b,
                     "effect": eff, "effect_ci_low": lo, "effect_ci_high": hi,
                     "p": x.p, "p_holm": x.p_holm})
    return pd.DataFrame(rows, columns=cols)


# ------------------------------------------------------------------------------ plots
def _bots(df) -> list[str]:
    return list(dict.fromkeys(df["bot"])) if len(df) else []


def plots(tables: dict, folder: Path) -> list[str]:
    folder = Path(folder)
    names = []
    bm = tables["by_media"]
    if len(bm):
        bots = _bots(bm)
        fig, axes = panels(len(bots), wrap=2)
        for ax, bot in zip(axes, bots):
            g = bm[bm["bot"] == bot]
            setups = list(dict.fromkeys(g["setup"]))
            x = np.arange(len(setups))
            for k, off in zip((0, 1, 2), (-0.27, 0, 0.27)):
                h = g[g["media_held"] == k].set_index("setup").reindex(setups)
                ax.bar(x + off, h["win_share"], 0.26, label=f"{k} Media",
                       yerr=error_bars(h["win_share"], h["ci_low"], h["ci_high"]), capsize=2)
            par = g.drop_duplicates("setup").set_index("setup").reindex(setups)
            ax.scatter(x, par["mean_player_share"], marker="_", s=400, color="k",
                       label="mean player", zorder=3)
            ax.set_xticks(x, setups, rotation=20)
            ax.set_ylabel("win share of the player (95% CI)")
            ax.set_title(f"Win share by Media held at the Scandal — {bot}")
            ax.legend(fontsize=7)
        fig.savefig(folder / "by_media.png")
        names.append("by_media.png")

    sw = tables["swing"]
    if len(sw):
        bots = _bots(sw)
        fig, axes = panels(len(bots), height=4.0, wrap=2)
        for ax, bot in zip(axes, bots):
            g = sw[sw["bot"] == bot].reset_index(drop=True)
            labels = [f"{s} {('no winner' if m == 'no_winner' else side)}"
                      for s, m, side in zip(g["setup"], g["metric"], g["side"])]
            y = np.arange(len(g))
            colours = ["#c44" if m == "no_winner" else "#36a" for m in g["metric"]]
            ax.errorbar(g["effect"], y, xerr=error_bars(g["effect"], g["effect_ci_low"],
                                                  g["effect_ci_high"]),
                        fmt="none", ecolor="k", capsize=2)
            ax.scatter(g["effect"], y, c=colours, zorder=3)
            ax.axvline(0, color="grey", lw=0.8)
            ax.set_yticks(y, labels, fontsize=6)
            ax.invert_yaxis()
            ax.set_xlabel("with Media − nobody plays a Media (paired, 95% CI)")
            ax.set_title(f"Swing Media actions cause — {bot}")
        fig.savefig(folder / "swing.png")
        names.append("swing.png")

        ind = sw[(sw["metric"] == "win_share") & sw["setup"].str.startswith("individual")]
        if len(ind):
            bots = _bots(ind)
            fig, axes = panels(len(bots), height=3.0, wrap=2)
            for ax, bot in zip(axes, bots):
                g = ind[ind["bot"] == bot]
                setups = list(dict.fromkeys(g["setup"]))
                seats = sorted({int(s) for s in g["side"]})
                m = np.full((len(setups), len(seats)), np.nan)
                for r in g.itertuples():
                    m[setups.index(r.setup), int(r.side)] = 100 * r.effect
                heatmap(ax, m, [[f"{v:+.1f}" for v in row] for row in m],
                        label="pp of games", cmap="RdBu")
                ax.set_xticks(range(len(seats)), [f"seat {s}" for s in seats])
                ax.set_yticks(range(len(setups)), [s.replace("individual ", "")
                                                   for s in setups])
                ax.set_title(bot)
            fig.suptitle("Media swing by seat: win share with Media − nobody plays a Media "
                         "(pp of games; each rung on its own scale)")
            fig.savefig(folder / "swing_seats.png")
            names.append("swing_seats.png")

    tg = tables["targeted"]
    if len(tg):
        bots = _bots(tg)
        fig, axes = panels(len(bots), wrap=2)
        for ax, bot in zip(axes, bots):
            g = tg[tg["bot"] == bot]
            x = np.arange(len(g))
            ax.bar(x - 0.2, g["targeted"], 0.4, label="aimed at by a Media",
                   yerr=error_bars(g["targeted"], g["targeted_ci_low"], g["targeted_ci_high"]),
                   capsize=2)
            ax.bar(x + 0.2, g["not_targeted"], 0.4, label="not aimed at",
                   yerr=error_bars(g["not_targeted"], g["not_targeted_ci_low"],
                             g["not_targeted_ci_high"]), capsize=2)
            ax.set_xticks(x, g["setup"], rotation=20)
            ax.set_ylabel("win share of the player (95% CI)")
            ax.set_title(bot)
            ax.legend(fontsize=7)
        fig.suptitle("Win share when aimed at by a Media or not (observational, confounded)")
        fig.savefig(folder / "targeted.png")
        names.append("targeted.png")

    parts = [(n, tables[n]) for n in ("independent", "revealed") if len(tables.get(n, ()))]
    if parts:
        # one row per variant, one panel per rung; a row's height follows its number of
        # lines (0.17 inch a label: 25 lines of media_targets_revealed at every rung no
        # longer share one 4-inch panel)
        parts = [(n, t[t["metric"].isin(["win_share", "no_winner"])]) for n, t in parts]
        bots = _bots(parts[0][1])
        rows = [max(len(t[t["bot"] == b]) for b in bots) for _, t in parts]
        heights = [0.17 * r + 1.3 for r in rows]
        fig, axes = figure(len(bots), len(parts), w=3.3, h=sum(heights) / len(parts),
                           height_ratios=heights)
        for k, (name, t) in enumerate(parts):
            what = ("independent_double_media\nact − keep (2v2+1)" if name == "independent"
                    else "media_targets_revealed\non − off")
            for j, bot in enumerate(bots):
                ax = axes[k][j]
                g = t[t["bot"] == bot].reset_index(drop=True)
                labels = [f"{s.replace('individual ', '')} "
                          f"{'no winner' if m == 'no_winner' else ('seat ' if s.startswith('individual') else '') + str(side)}"
                          for s, m, side in zip(g["setup"], g["metric"], g["side"])]
                y = np.arange(len(g))
                e = 100 * g["effect"]
                ax.errorbar(e, y, xerr=error_bars(e, 100 * g["effect_ci_low"],
                                                  100 * g["effect_ci_high"]),
                            fmt="o", ms=3, capsize=2)
                ax.axvline(0, color="grey", lw=0.8)
                ax.set_yticks(y, labels, fontsize=7)
                ax.set_ylim(rows[k] - 0.5, -0.5)
                ax.set_title(bot, fontsize=9)
                if j == 0:
                    ax.set_ylabel(what)
                if k == len(parts) - 1:
                    ax.set_xlabel("variant − default (pp of games)")
        fig.suptitle("Media variants: paired differences on the same deals (95% CI)")
        fig.savefig(folder / "variants.png")
        names.append("variants.png")
    dl = tables.get("media_dilemma", pd.DataFrame())
    if len(dl):
        dilemma_plot(dl[dl["seat"] == "average"], folder / "media_dilemma.png", "Media")
        names.append("media_dilemma.png")
    return names


# --------------------------------------------------------------------------- findings
def _ci(lo: float, hi: float) -> str:
    """An interval in signed percentage points: ``[+1.2, +3.4]``."""
    return interval(lo, hi, "{:+.1f}", scale=100)


def findings(tables: dict) -> tuple[list[str], list[str]]:
    found, flags = [], []
    bm, tg, sw = tables["by_media"], tables["targeted"], tables["swing"]
    mt, mc = tables["media_target"], tables["cancel"]
    ind, rv = tables["independent"], tables["revealed"]
    for bot in _bots(bm):
        g = bm[bm["bot"] == bot]
        parts = []
        for setup, h in g.groupby("setup", sort=False):
            v = h.set_index("media_held")
            # n/a: nobody held that many (the team bots never stack both Media, D9.4)
            w = [pct(v.loc[k, "win_share"]) if v.loc[k, "player_games"] else "n/a"
                 for k in range(3)]
            parts.append(f"{setup} {w[0]} / {w[1]} / {w[2]}")
        found.append(f"{bot}: win share of a player holding 0 / 1 / 2 Media at the Scandal "
                     f"(observational): {'; '.join(parts)}. Holding Media goes with "
                     "winning rounds (Media are figures), so these describe the leaders, "
                     "not what a Media is worth.")
    for bot in _bots(tg):
        g = tg[tg["bot"] == bot]
        parts = [f"{r.setup} {pct(r.targeted)} vs {pct(r.not_targeted)}"
                 for r in g.itertuples()]
        found.append(f"{bot}: players aimed at by a Media win more often than the others "
                     f"({'; '.join(parts)}) — confounded: only a player with face-down "
                     "figures can be aimed at and the bots aim at the leader; the causal "
                     "effect is the restricted-play swing.")
    for bot in _bots(sw):
        g = sw[sw["bot"] == bot]
        nw = g[g["metric"] == "no_winner"]
        parts = [f"{r.setup} {100 * r.effect:+.2f} pp [{100 * r.effect_ci_low:+.2f}, "
                 f"{100 * r.effect_ci_high:+.2f}]" for r in nw.itertuples()]
        found.append(f"{bot}: Media actions change the no-winner share by "
                     f"{'; '.join(parts)} (every seat plays vs nobody plays a Media, same "
                     "deals, media_optional = true).")
        ws = g[(g["metric"] == "win_share")]
        sig = ws[ws["p_holm"] < ALPHA]
        if len(sig):
            top = sig.reindex(sig["effect"].abs().sort_values(ascending=False).index).head(4)
            found.append(f"{bot}: the largest significant swings of win share (Holm 5%): "
                         + "; ".join(f"{r.setup} {'seat' if r.setup.startswith('individual') else 'side'} "
                                     f"{r.side} {pp(r.effect)} pp "
                                     f"{_ci(r.effect_ci_low, r.effect_ci_high)}"
                                     for r in top.itertuples()) + ".")
        else:
            found.append(f"{bot}: no seat's or side's win share is shown to move when "
                         "nobody plays a Media (Holm 5%): not shown either way, which is not "
                         "a finding of no effect.")
    br = tables.get("media_best_response", pd.DataFrame())
    for fld in (dict.fromkeys(br["field"]) if len(br) else []):
        d = br[br["field"] == fld]
        a = d[d["seat"] == "average"].iloc[0]
        seats = d[d["seat"] != "average"]
        found.append(
            f"Value of the Media to the {fld} player (one seat among {fld} players who play "
            f"theirs; media_br, {fld} with a Media aim searched for that seat, gained nothing "
            f"measurable over {fld}): its Media actions are worth {pp(a['worth'], '{:+.2f}')} pp "
            f"{_ci(a['worth_ci_low'], a['worth_ci_high'])} of win share on average over the "
            "seats (" + "; ".join(f"seat {r.seat} {pp(r.worth, '{:+.2f}')} "
                                  f"{_ci(r.worth_ci_low, r.worth_ci_high)}"
                                  for r in seats.itertuples())
            + f"; media_br vs media_br:nomedia in that seat, media_optional, same deals); it "
            f"plays {a['actions_ref']:.2f} Media actions a game, so one is worth "
            f"{pp(a['worth_per_action'])} pp "
            f"{_ci(a['worth_per_action_ci_low'], a['worth_per_action_ci_high'])}.")
        for r in seats[seats["diff_ci_low"] > 0].itertuples():
            flags.append(f"media_br, seat {r.seat}: the Media's worth is negative "
                         f"({pp(r.worth)} pp {_ci(r.worth_ci_low, r.worth_ci_high)}): a "
                         "holder would do better to decline where the rules let it.")
    found += dilemma_findings(tables.get("media_dilemma", pd.DataFrame()), "Media",
                              "Media actions", "media_lone_4p, media_users_4p")
    for bot in _bots(mt):
        g = mt[mt["bot"] == bot]
        parts = []
        for setup, h in g.groupby("setup", sort=False):
            v = h.set_index("target")
            tm, op = v.loc["teammate"], v.loc["opponent"]
            share = tm["actions_per_game"] / max(tm["actions_per_game"] + op["actions_per_game"],
                                                 1e-12)
            parts.append(f"{setup}: {pct(share)} of Media actions hit a teammate "
                         f"({int(tm['actions'])} actions; their side then wins "
                         f"{pct(tm['actor_side_win_share']) if tm['actions'] else 'n/a'}, vs "
                         f"{pct(op['actor_side_win_share'])} after hitting an opponent)")
        found.append(f"{bot}, compulsory Media: " + "; ".join(parts) + ". A teammate is hit "
                     "only when no opponent has a face-down figure left — typically opponents "
                     "holding no figure at all, who cannot win — so this is a selection, not "
                     "an effect.")
    for bot in _bots(mc):
        g = mc[mc["bot"] == bot]
        found.append(f"{bot}: a player's two Media cancel out (D6.1) in "
                     + "; ".join(f"{r.setup} {pct(r.cancel_share)} "
                                 f"[{pct(r.ci_low)}, {pct(r.ci_high)}]"
                                 for r in g.itertuples()) + " of games.")
    hs = tables.get("held_by_seat")
    if hs is not None and len(hs):
        for bot in _bots(hs):
            g = hs[(hs["bot"] == bot) & ~hs["setup"].str.startswith("individual")]
            never = g[g["media_per_game"] == 0]
            if len(never):
                flags.append(
                    f"{bot}: in team modes some seats never hold a Media ("
                    + "; ".join(f"{s}: seats {', '.join(map(str, h['seat']))}"
                                for s, h in never.groupby("setup", sort=False))
                    + "): the bot's team figure allocation gives every Media to the same "
                    "member (a Media does not change the receiver's trio), so a team that "
                    "wins both Media cancels them (D6.1) — a bot weakness that inflates the "
                    "cancellation share and under-states the Media in team modes.")
    for bot in _bots(ind):
        g = ind[(ind["bot"] == bot)]
        w = g[g["metric"].isin(["win_share", "no_winner"])]
        found.append(f"{bot}, 2v2+1: the Independent playing both Media (act) instead of "
                     "keeping them (keep) changes " + "; ".join(
                         f"{'no winner' if r.metric == 'no_winner' else 'side ' + r.side} "
                         f"{pp(r.effect)} pp {_ci(r.effect_ci_low, r.effect_ci_high)}"
                         for r in w.itertuples()) + " (same deals).")
    for bot in _bots(rv):
        g = rv[(rv["bot"] == bot) & rv["metric"].isin(["win_share", "no_winner"])]
        sig = g[g["p_holm"] < ALPHA]
        big = g.reindex(g["effect"].abs().sort_values(ascending=False).index).iloc[0]
        found.append(f"{bot}: media_targets_revealed on vs off: "
                     + (f"{len(sig)} of {len(g)} win-share/no-winner differences significant "
                        "(Holm 5%); " if len(sig) else "no difference shown either way (Holm "
                        "5%; not a finding of no effect); ")
                     + f"the largest is {big.setup} "
                     f"{'no winner' if big.metric == 'no_winner' else big.side} "
                     f"{pp(big.effect)} pp {_ci(big.effect_ci_low, big.effect_ci_high)}.")
    # sign flips across bots within this analysis (the robustness analysis checks them all)
    flags += sign_flips(key_figures(tables))
    return found, flags


def key_figures(tables: dict) -> pd.DataFrame:
    rows = []
    for r in tables["swing"].itertuples():
        what = "no-winner share" if r.metric == "no_winner" else f"win share of {r.side}"
        rows.append({"figure": f"Media swing (with - without), {r.setup}, {what}",
                     "bot": r.bot, "mean": r.effect, "ci_low": r.effect_ci_low,
                     "ci_high": r.effect_ci_high})
    for r in tables["targeted"].itertuples():
        rows.append({"figure": f"targeted - not targeted win share (observational), {r.setup}",
                     "bot": r.bot, "mean": r.gap, "ci_low": r.gap_ci_low,
                     "ci_high": r.gap_ci_high})
    for name, t in (("act - keep", tables["independent"]),
                    ("media_targets_revealed on - off", tables["revealed"])):
        for r in t[t["metric"].isin(["win_share", "no_winner"])].itertuples():
            what = "no-winner share" if r.metric == "no_winner" else f"win share of {r.side}"
            rows.append({"figure": f"{name}, {r.setup}, {what}", "bot": r.bot,
                         "mean": r.effect, "ci_low": r.effect_ci_low,
                         "ci_high": r.effect_ci_high})
    for r in tables["cancel"].itertuples():
        rows.append({"figure": f"two-Media cancellation share, {r.setup}", "bot": r.bot,
                     "mean": r.cancel_share, "ci_low": r.ci_low, "ci_high": r.ci_high})
    dl = tables.get("media_dilemma", pd.DataFrame())
    for r in (dl[dl["seat"] == "average"].itertuples() if len(dl) else []):
        for col, name in (("lone_worth", "Media worth to a lone user among abstainers"),
                          ("users_worth", "Media worth to one user among users"),
                          ("everyone_change", "Media: everyone plays - nobody does, win "
                                              "share of a seat")):
            rows.append({"figure": f"{name}, 4 players, average over seats", "bot": r.bot,
                         "mean": getattr(r, col), "ci_low": getattr(r, f"{col}_ci_low"),
                         "ci_high": getattr(r, f"{col}_ci_high")})
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
def _answer(t: Tables) -> Finding:
    f = Finding("media", "Media")
    name = "media/swing.csv"
    sw = t.get(name, "bot", "setup", "metric", "side", "effect", "effect_ci_low",
               "effect_ci_high")
    if sw is not None:
        r = sw[(sw["setup"] == "individual 4p") & (sw["metric"] == "no_winner")]
        if len(r):
            lab = t.label("media", "Media swing (with - without), individual 4p, "
                                   "no-winner share", f)
            f.statements.append(Statement(
                f"**Every player using the Media adds {span(r, 'effect', signed=True)} pp "
                "of 4-player games without a winner** (against nobody, same deals): "
                + by_rung(t, r, lambda x: ci(
                    x["effect"], x["effect_ci_low"], x["effect_ci_high"]))
                + (f"; {lab}" if lab else ""), t.source(name)))
    dilemma_statement(t, f, "media/media_dilemma.csv", "the Media", "Media")
    tuned_value_statement(t, f, "media/media_best_response.csv", "its Media actions",
                          "actions_ref", "worth_per_action", "Media action")
    return f


DILEMMA = {"a social dilemma": "a social dilemma: each gains, all lose",
           "not shown to pay whatever the others do": "not shown to pay whatever others do"}


def _media_row(t: Tables) -> BoardRow | None:
    name = "media/swing.csv"
    sw = t.get(name, "bot", "setup", "metric", "effect", "effect_ci_low", "effect_ci_high")
    if sw is None:
        return None
    r = sw[(sw["setup"] == "individual 4p") & (sw["metric"] == "no_winner")]
    if r.empty:
        return None
    rungs = []
    for b in t.order(r["bot"]):
        x = r[r["bot"] == b].iloc[0]
        e = tost_est(x["effect"], x["effect_ci_low"], x["effect_ci_high"], FAIR_MARGIN)
        rungs.append(Est(b, e.est, e.lo, e.hi, EFFECT[e.verdict],
                         int(x["games"]) if "games" in x else None))
    q = quoted(t, r["bot"])
    at = next(e for e in rungs if e.bot == q)
    x = r[r["bot"] == q].iloc[0]
    reading = ""
    dl = t.get("media/media_dilemma.csv", "bot", "seat", "lone_worth", "lone_worth_ci_low",
               "everyone_change_ci_low", "everyone_change_ci_high")
    if dl is not None:
        a = dl[(dl["seat"].astype(str) == "average") & (dl["bot"] == q)]
        if len(a):
            rd = dilemma_reading(a.iloc[0])
            reading = f"; it is {DILEMMA.get(rd, rd)}"
    sentence = fit(f"Playing the Media adds {pp_text(at.est)} pp of 4-player games without a "
                   f"winner ({q} bots)", reading, ".")
    p0 = float(x["no_media"]) if "no_media" in x else 0.15
    return BoardRow(
        "media", "What does the Media change?", [Light("", at.verdict)], sentence,
        noticed(at.est / 100, p0, True), "more games without a winner with the Media",
        [Item(e.bot, e, [e]) for e in rungs], "pp of games without a winner", "90%",
        100 * FAIR_MARGIN, "media", [t.source(name), t.source("media/media_dilemma.csv")], q)


def _notice(out: Path) -> str:
    """The games people would need to notice the Media's change of games without a
    winner."""
    kf = read_key_figures(out)
    nowin = base_rate(kf, "no-winner share, full 4p", 0.17)
    return notice(key_effects(kf, "media", "Media swing (with - without), individual 4p, "
                                           "no-winner share"), nowin, True,
                  "the Media's change of 4-player games without a winner")


def _targeted_gap(df: pd.DataFrame) -> pd.DataFrame:
    """The targeted − not-targeted gap with the same-games interval
    (:func:`stats.diff_same_games`) from each ratio's stored 95% interval (``targeted.csv``
    written before the analysis computed the gap's own interval)."""
    df = df.copy()
    ht = (df["targeted_ci_high"] - df["targeted_ci_low"]) / 2
    hu = (df["not_targeted_ci_high"] - df["not_targeted_ci_low"]) / 2
    gap, hw = diff_same_games(df["targeted"], ht, df["not_targeted"], hu)
    df["gap"], df["gap_ci_low"], df["gap_ci_high"] = gap, gap - hw, gap + hw
    return df


REPORT = Report(
    question="What does the Media change, and is it a social dilemma?", key_plot="swing.png",
    answer=_answer, notice=_notice,
    rows=(Row("media", 30, _media_row, Page(
        "media", "What does the Media change?",
        "What the Media (D6) does to games without a winner, what it is worth to the player "
        "who plays it, and whether it is a social dilemma.",
        ("media/swing.png", "media/media_dilemma.png", "media/swing_seats.png",
         "media/targeted.png", "media/variants.png")), readme=True),),
    derived=(Derived("targeted", _targeted_gap,
                     "interval of the gap is recomputed by the report from the two ratios' "
                     "intervals in targeted.csv (added half-widths: conservative for two "
                     "ratios of the same games; the section predates it)",
                     lacks="gap_method"),))
