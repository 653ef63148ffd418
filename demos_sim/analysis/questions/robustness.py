"""Skill robustness: do the conclusions survive a stronger bot?

Every analysis runs its experiments at two or more rungs of the bot ladder (DĒMOS
``greedy`` and ``heuristic``; Protocole's policies) and names its headline figures in
``key_figures(tables)``: a figure (usually a paired difference or a distance from
parity), the bot, its mean and 95% interval. This analysis declares
``READS_KEY_FIGURES``: the suite hands it the key figures of the sections already written
in the output folder (``runs.key_figures``), and it compares every figure across bots.

The sign of a figure at one bot is ``+`` when its interval lies above 0, ``-`` below, and
``0`` when it contains 0. A conclusion **flips** when one bot's sign is ``+`` and
another's ``-`` (flagged in the report); it is **fragile** when one bot finds an effect
and the other does not (listed, not flagged: the weaker bot's effect may simply be
smaller, or the stronger bot's sample smaller).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.key_figures import sign
from demos_sim.analysis.core.plotting import panels, png_bytes

TITLE = "Skill robustness: conclusions across rungs of the bot ladder"
METHOD = (
    "Each analysis's headline figures (its key_figures) are computed with at least two "
    "bots: DĒMOS greedy and heuristic (the heuristic plays fewer games: it is slower), "
    "Protocole's policies. A figure's sign at a bot is + or - when its 95% interval "
    "excludes 0, and 0 otherwise; a conclusion flips when two bots give opposite signs "
    "(flagged) and is fragile when only one bot detects it.")
READS_KEY_FIGURES = True
SHOW = ["flips", "comparison"]


def compare(kf: pd.DataFrame) -> pd.DataFrame:
    """One row per figure and pair of bots: both estimates, signs, verdict."""
    rows = []
    for (analysis, figure), g in kf.groupby(["analysis", "figure"], sort=False):
        g = g.drop_duplicates("bot")
        recs = list(g.itertuples(index=False))
        for i in range(len(recs)):
            for j in range(i + 1, len(recs)):
                a, b = recs[i], recs[j]
                sa, sb = sign(a.ci_low, a.ci_high), sign(b.ci_low, b.ci_high)
                verdict = ("flips" if sa * sb == -1 else
                           "agrees" if sa == sb else "fragile")
                rows.append({"analysis": analysis, "figure": figure,
                             "bot_a": a.bot, "mean_a": a.mean, "ci_low_a": a.ci_low,
                             "ci_high_a": a.ci_high, "sign_a": sa,
                             "bot_b": b.bot, "mean_b": b.mean, "ci_low_b": b.ci_low,
                             "ci_high_b": b.ci_high, "sign_b": sb, "verdict": verdict})
    cols = ["analysis", "figure", "bot_a", "mean_a", "ci_low_a", "ci_high_a", "sign_a",
            "bot_b", "mean_b", "ci_low_b", "ci_high_b", "sign_b", "verdict"]
    return pd.DataFrame(rows, columns=cols)


def tables(runs) -> dict[str, pd.DataFrame]:
    """Every key figure compared across bots (``runs.key_figures``: the other sections')."""
    kf = runs.key_figures
    comp = compare(kf)
    return {"comparison": comp, "flips": comp[comp["verdict"] == "flips"],
            "key_figures": kf}


def plots(tables: dict, folder: Path) -> list[str]:
    c = tables["comparison"]
    if not len(c):
        return []
    fig, (ax,) = panels(1, height=4.6)
    colour = {"agrees": "#7f8c8d", "fragile": "#e67e22", "flips": "#c0392b"}
    for verdict, g in c.groupby("verdict"):
        ax.errorbar(g["mean_a"], g["mean_b"],
                    xerr=np.vstack([g["mean_a"] - g["ci_low_a"], g["ci_high_a"] - g["mean_a"]]),
                    yerr=np.vstack([g["mean_b"] - g["ci_low_b"], g["ci_high_b"] - g["mean_b"]]),
                    fmt="o", ms=3, lw=0.7, color=colour.get(verdict, "k"),
                    label=f"{verdict} ({len(g)})")
    lim = np.nanmax(np.abs(c[["ci_low_a", "ci_high_a", "ci_low_b", "ci_high_b"]].to_numpy()))
    lim = float(lim) * 1.05 if np.isfinite(lim) and lim > 0 else 1.0
    ax.plot([-lim, lim], [-lim, lim], color="k", lw=0.6, ls=":")
    ax.axhline(0, color="k", lw=0.5)
    ax.axvline(0, color="k", lw=0.5)
    ax.set_xlabel("key figure, weaker bot (95% CI)")
    ax.set_ylabel("key figure, stronger bot (95% CI)")
    ax.legend(fontsize=8)
    name = "robustness.png"
    (Path(folder) / name).write_bytes(png_bytes(fig))
    return [name]


def findings(tables: dict) -> tuple[list[str], list[str]]:
    c = tables["comparison"]
    if not len(c):
        return ["No key figures found: run the other analyses first."], []
    n = len(c)
    counts = c["verdict"].value_counts()
    out = [f"{n} comparisons of {c['figure'].nunique()} key figures across bots: "
           f"{counts.get('agrees', 0)} agree, {counts.get('fragile', 0)} are fragile "
           f"(one bot detects an effect the other does not), {counts.get('flips', 0)} flip."]
    flags = []
    for r in c[c["verdict"] == "flips"].itertuples():
        flags.append(f"{r.analysis}: {r.figure}: {r.bot_a} {r.mean_a:+.4f} "
                     f"[{r.ci_low_a:+.4f}, {r.ci_high_a:+.4f}] vs {r.bot_b} {r.mean_b:+.4f} "
                     f"[{r.ci_low_b:+.4f}, {r.ci_high_b:+.4f}]: the sign flips between bots")
    for r in c[c["verdict"] == "fragile"].head(8).itertuples():
        out.append(f"fragile: {r.analysis}: {r.figure}: {r.bot_a} {r.mean_a:+.4f} "
                   f"[{r.ci_low_a:+.4f}, {r.ci_high_a:+.4f}], {r.bot_b} {r.mean_b:+.4f} "
                   f"[{r.ci_low_b:+.4f}, {r.ci_high_b:+.4f}]")
    return out, flags
