"""Variant impact: every RULES.md Part V variant against its default.

Each experiment file ``experiments/analyses/variants_*.toml`` takes one setup (DĒMOS full
and simplified 4-player games, 2v2, 2v3, 2v2+1; Protocole all-together level 2 and each
for themselves) and changes one variant at a time from its default (``sweep = "each"``),
every point on the baseline's deals. The effect of a variant value is the paired
difference of each main metric — win share of every seat or side, no-winner share, game
length — from the baseline, with its 95% interval. The screen tests many differences at
once, so every p-value is Holm-adjusted within a bot (family-wise error 5%) and the
summary table sorts the variants by their largest win-share effect.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.formatting import interval
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import panels, png_bytes
from demos_sim.analysis.core.protocol import DEMOS_RUNGS, FAST_RUNGS
from demos_sim.analysis.core.stats import adjust, p_value

TITLE = "Variant impact: which readings of the ambiguous rules matter"
METHOD = (
    "Each Part V variant of RULES.md is changed alone from its default in the setup where "
    "it applies (DĒMOS full 4 players, simplified 4 players, 2v2, 2v3, 2v2+1; Protocole "
    "coop level 2 and each-for-themselves, 4 players), on the same deals as the default "
    "(common random numbers). Effects are paired differences of the per-game win share of "
    "every seat or side (M1), the no-winner share and the game length, with 95% normal "
    "intervals of the mean paired difference. p-values are two-sided normal tests of "
    "each difference, Holm-adjusted over every test of a bot's screen (family-wise 5%). "
    "The summary shows, per variant value, the seat or side it moves most.")
EXPERIMENTS = ["variants_demos_individual", "variants_demos_simplified", "variants_demos_2v2",
               "variants_demos_2v3", "variants_demos_2v2p1", "variants_protocole",
               "variants_protocole_each"]
RUNGS = DEMOS_RUNGS
# the search rung plays the individual variants; the team modes' at the fast rungs
EXPERIMENT_RUNGS = {"variants_protocole": {"convention": 1.0, "planner": 0.25},
                    "variants_protocole_each": {"cautious": 1.0, "planner": 0.25},
                    **{s: FAST_RUNGS for s in ("variants_demos_2v2", "variants_demos_2v3",
                                               "variants_demos_2v2p1")}}
METRICS = ("win_share", "no_winner", "rounds")
SHOW = ["summary"]
ALPHA = 0.05


def _setup(meta: dict) -> str:
    s = meta["settings"]
    players = sorted({p["players"] for p in meta["points"]})
    parts = [meta["title"]] + [f"{v}" for k, v in s.items() if v is not None]
    return " ".join(parts) + f" {','.join(map(str, players))}p"


def _skill(bot: str, experiment: str) -> int:
    """Rung of the ladder: the bot's place among the file's rungs (0: the weakest)."""
    return list(EXPERIMENT_RUNGS.get(experiment, RUNGS)).index(bot)


def _rungs(s: pd.DataFrame) -> list[int]:
    return sorted(int(r) for r in s["rung"].unique())


def _rung_name(s: pd.DataFrame, rung: int) -> str:
    """'rung 2 (tuned, planner)': the bots that play at that place of their files' ladders."""
    bots = list(dict.fromkeys(s.loc[s["rung"] == rung, "bot"]))
    return f"rung {rung + 1} ({', '.join(bots)})"


def tables(runs) -> dict[str, pd.DataFrame]:
    rows = []
    for (stem, bot), run in runs.items.items():
        df = run.results
        df = df[df["metric"].isin(METRICS) & df["ref_point"].notna()]
        setup = _setup(run.meta)
        for r in df.itertuples(index=False):
            var, _, value = r.label.partition("=")
            rows.append({"experiment": stem, "setup": setup, "bot": bot,
                         "rung": _skill(bot, stem), "variant": var, "value": value,
                         "metric": r.metric, "side": r.side, "games": r.games,
                         "mean": r.mean, "diff": r.diff, "diff_ci_low": r.diff_ci_low,
                         "diff_ci_high": r.diff_ci_high,
                         "p": p_value(r.diff, r.diff_half_width)})
    effects = pd.DataFrame(rows)
    effects["p_holm"] = np.nan
    for bot, idx in effects.groupby("bot").groups.items():
        effects.loc[idx, "p_holm"] = adjust(effects.loc[idx, "p"].to_numpy(), "holm")
    effects["significant"] = effects["p_holm"] < ALPHA

    summary = []
    keys = ["experiment", "setup", "bot", "rung", "variant", "value"]
    for key, g in effects.groupby(keys, sort=False):
        ws = g[g["metric"] == "win_share"]
        top = ws.loc[ws["diff"].abs().idxmax()] if len(ws) else None
        nw = g[g["metric"] == "no_winner"]
        rd = g[g["metric"] == "rounds"]
        rec = dict(zip(keys, key))
        rec["games"] = int(g["games"].iloc[0])
        if top is not None:
            rec.update(side=top["side"], win_share_diff=top["diff"],
                       win_share_ci_low=top["diff_ci_low"], win_share_ci_high=top["diff_ci_high"],
                       win_share_p_holm=top["p_holm"])
        for name, part in (("no_winner", nw), ("rounds", rd)):
            if len(part):
                x = part.iloc[0]
                rec.update({f"{name}_diff": x["diff"], f"{name}_ci_low": x["diff_ci_low"],
                            f"{name}_ci_high": x["diff_ci_high"], f"{name}_p_holm": x["p_holm"]})
        rec["any_significant"] = bool(g["significant"].any())
        summary.append(rec)
    summary = pd.DataFrame(summary)
    summary["abs_effect"] = summary["win_share_diff"].abs()
    summary = summary.sort_values(["rung", "abs_effect"], ascending=[True, False])
    summary = summary.drop(columns="abs_effect").reset_index(drop=True)
    return {"summary": summary, "effects": effects}


def plots(tables: dict, folder: Path) -> list[str]:
    """One panel: a row per variant value (the first rung's order), the largest paired
    win-share change at every rung of its file's ladder side by side (filled: Holm-
    significant)."""
    s = tables["summary"]
    rungs = _rungs(s)
    keys = ["experiment", "variant", "value"]
    rows = s[s["rung"] == 0].drop_duplicates(keys)
    fig, (ax,) = panels(1, height=0.22 * max(len(rows), 8) + 1.2, width=7.5)
    y = np.arange(len(rows))[::-1]
    pos = {tuple(r): yy for r, yy in zip(rows[keys].itertuples(index=False), y)}
    colours = ["#7f8c8d", "#2e86c1", "#8e44ad", "#c0392b", "#27ae60"]
    for k, rung in enumerate(rungs):
        g = s[s["rung"] == rung]
        yy = np.array([pos.get(tuple(r), np.nan) for r in g[keys].itertuples(index=False)])
        ok = ~np.isnan(yy)
        g, yy = g[ok], yy[ok] + (k - (len(rungs) - 1) / 2) * 0.18
        c = colours[k % len(colours)]
        ax.errorbar(g["win_share_diff"], yy,
                    xerr=[g["win_share_diff"] - g["win_share_ci_low"],
                          g["win_share_ci_high"] - g["win_share_diff"]],
                    fmt="none", ecolor=c, elinewidth=0.7, capsize=1.5)
        sig = g["any_significant"].to_numpy(bool)
        ax.scatter(g["win_share_diff"][sig], yy[sig], color=c, s=12, zorder=3,
                   label=_rung_name(s, rung))
        ax.scatter(g["win_share_diff"][~sig], yy[~sig], facecolors="white", edgecolors=c,
                   s=12, zorder=3)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{a}: {b}={c}" for a, b, c in
                        zip(rows["setup"], rows["variant"], rows["value"])], fontsize=6)
    ax.set_xlabel("largest paired Δ win share (seat/side), 95% CI; filled: Holm-significant")
    ax.legend(fontsize=7, loc="lower right")
    name = "variant_effects.png"
    (Path(folder) / name).write_bytes(png_bytes(fig))
    return [name]


def findings(tables: dict) -> tuple[list[str], list[str]]:
    s = tables["summary"]
    out, flags = [], []
    for rung in _rungs(s):
        g = s[s["rung"] == rung]
        name = _rung_name(s, rung)
        sig = g[g["any_significant"]]
        out.append(f"{name}: {len(sig)} of {len(g)} variant values change at least one "
                   "main metric after Holm adjustment.")
        for r in g.head(5).itertuples():
            out.append(
                f"{r.bot}: {r.setup}, {r.variant}={r.value} moves the win share of "
                f"{r.side} by {r.win_share_diff:+.4f} "
                f"{interval(r.win_share_ci_low, r.win_share_ci_high, '{:+.4f}')}"
                f" (no-winner {r.no_winner_diff:+.4f}, rounds {r.rounds_diff:+.2f}; "
                f"{r.games} paired games)")
        quiet = g[~g["any_significant"]]
        if len(quiet):
            out.append(f"{name}: no detectable effect on any main metric: " + ", ".join(
                f"{r.variant}={r.value} ({r.setup})" for r in quiet.itertuples()) + ".")
    return out, flags


def key_figures(tables: dict) -> pd.DataFrame:
    """Per variant value: the win-share effect, at every rung, on the side the first rung
    moves most."""
    s = tables["summary"]
    e = tables["effects"]
    low = s[s["rung"] == 0]
    rows = []
    for r in low.itertuples():
        for rung in _rungs(e):
            x = e[(e["experiment"] == r.experiment) & (e["rung"] == rung) &
                  (e["variant"] == r.variant) & (e["value"] == r.value) &
                  (e["metric"] == "win_share") & (e["side"] == r.side)]
            if len(x):
                x = x.iloc[0]
                rows.append({"figure": f"variants: {r.setup} {r.variant}={r.value}: "
                                       f"Δ win share {r.side}",
                             "bot": x["bot"], "mean": x["diff"], "ci_low": x["diff_ci_low"],
                             "ci_high": x["diff_ci_high"]})
    return pd.DataFrame(rows, columns=COLUMNS)
