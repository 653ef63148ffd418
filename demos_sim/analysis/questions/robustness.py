"""Skill robustness: do the conclusions survive a stronger bot?

Every analysis runs its experiments at two or more rungs of the bot ladder (DĒMOS
``greedy``, ``heuristic``, ``tuned`` and ``ismcts@64``; Protocole's policies; L'Assemblée's
populations) and names its headline figures in
``key_figures(tables)``: a figure (usually a paired difference or a distance from
parity), the bot, its mean and 95% interval. This analysis declares
``READS_KEY_FIGURES``: the suite hands it the key figures of the sections already written
in the output folder (``runs.key_figures``), and it compares every figure across bots.

Every pair of bots (the weaker first: the order the analysis lists them, its rungs) gets a
label judged on the *size* of the figure, not only its sign. The sign at one bot is ``+``
when its interval lies above 0, ``-`` below, ``0`` when it contains 0; the change
``stronger − weaker`` gets the interval ``± sqrt(hw_a² + hw_b²)`` (the two figures treated
as independent: conservative, since the rungs play the same deals and their errors are
positively correlated). Then, in this order:

- **flips**: the signs are ``+`` and ``-`` (flagged in the report);
- **grows with skill** / **shrinks with skill**: the change's interval excludes 0 and the
  stronger bot's figure is further from / nearer to 0 (or past it) than the weaker's;
- **holds across skill**: the same non-zero sign and no significant change in size;
- **uncertain**: one bot detects the effect, the other not, and the change is not
  significant (the smaller sample, or a smaller effect: more games would tell);
- **none**: neither bot detects an effect.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.key_figures import sign

VERDICTS = ("holds across skill", "grows with skill", "shrinks with skill", "flips",
            "uncertain", "none")
PLURAL = {"holds across skill": "hold across skill", "grows with skill": "grow with skill",
          "shrinks with skill": "shrink with skill", "flips": "flip",
          "uncertain": "uncertain", "none": "show no effect at either bot"}
from demos_sim.analysis.core.plotting import panels, png_bytes

TITLE = "Skill robustness: conclusions across rungs of the bot ladder"
METHOD = (
    "Each analysis's headline figures (its key_figures) are computed with at least two "
    "bots: DĒMOS greedy, heuristic, tuned and ismcts@64 (the stronger play fewer games: "
    "they are slower), Protocole's policies and ismcts@16, L'Assemblée's populations. "
    "Each pair of bots is labelled on the size of the figure: flips "
    "(opposite significant signs, flagged), grows or shrinks with skill (the change "
    "stronger − weaker has a 95% interval ± sqrt(hw_a² + hw_b²), conservative, excluding 0), "
    "holds across skill (same significant sign, no significant change), uncertain (one bot "
    "detects it, the change is not significant), none (neither detects it). The ladder "
    "table labels each figure from its weakest rung to its strongest the same way and "
    "shows its sign at every rung.")
READS_KEY_FIGURES = True
SHOW = ["flips", "ladder"]        # every pair of rungs: comparison.csv


def label(mean_a: float, lo_a: float, hi_a: float, mean_b: float, lo_b: float,
          hi_b: float) -> tuple[str, float, float, float]:
    """(verdict, change, its interval) of a figure at a weaker bot ``a`` and a stronger
    ``b`` (module docstring)."""
    sa, sb = sign(lo_a, hi_a), sign(lo_b, hi_b)
    d = mean_b - mean_a
    hw = float(np.hypot((hi_a - lo_a) / 2, (hi_b - lo_b) / 2))
    lo, hi = d - hw, d + hw
    if sa * sb == -1:
        v = "flips"
    elif lo > 0 or hi < 0:
        ref = sa or sb or (1 if mean_a + mean_b >= 0 else -1)   # the effect's direction
        v = "grows with skill" if d * ref > 0 else "shrinks with skill"
    elif sa == sb:
        v = "none" if sa == 0 else "holds across skill"
    else:
        v = "uncertain"
    return v, d, lo, hi


def compare(kf: pd.DataFrame) -> pd.DataFrame:
    """One row per figure and pair of bots (weaker first): both estimates, signs, the
    change with its interval, the verdict (:func:`label`)."""
    rows = []
    for (analysis, figure), g in kf.groupby(["analysis", "figure"], sort=False):
        g = g.drop_duplicates("bot")
        recs = list(g.itertuples(index=False))
        for i in range(len(recs)):
            for j in range(i + 1, len(recs)):
                a, b = recs[i], recs[j]
                sa, sb = sign(a.ci_low, a.ci_high), sign(b.ci_low, b.ci_high)
                verdict, d, dlo, dhi = label(a.mean, a.ci_low, a.ci_high, b.mean, b.ci_low,
                                             b.ci_high)
                rows.append({"analysis": analysis, "figure": figure,
                             "bot_a": a.bot, "mean_a": a.mean, "ci_low_a": a.ci_low,
                             "ci_high_a": a.ci_high, "sign_a": sa,
                             "bot_b": b.bot, "mean_b": b.mean, "ci_low_b": b.ci_low,
                             "ci_high_b": b.ci_high, "sign_b": sb, "change": d,
                             "change_ci_low": dlo, "change_ci_high": dhi, "verdict": verdict})
    cols = ["analysis", "figure", "bot_a", "mean_a", "ci_low_a", "ci_high_a", "sign_a",
            "bot_b", "mean_b", "ci_low_b", "ci_high_b", "sign_b", "change", "change_ci_low",
            "change_ci_high", "verdict"]
    return pd.DataFrame(rows, columns=cols)


def ladder(kf: pd.DataFrame) -> pd.DataFrame:
    """One row per figure: its sign at every rung (weakest first, ``+``/``-``/``0``) and
    the verdict from the weakest rung to the strongest (:func:`label`), with a flag when
    any pair of rungs flips."""
    rows = []
    for (analysis, figure), g in kf.groupby(["analysis", "figure"], sort=False):
        g = g.drop_duplicates("bot")
        if len(g) < 2:
            continue
        a, b = g.iloc[0], g.iloc[-1]
        verdict, d, dlo, dhi = label(a["mean"], a["ci_low"], a["ci_high"], b["mean"],
                                     b["ci_low"], b["ci_high"])
        signs = [sign(r.ci_low, r.ci_high) for r in g.itertuples()]
        rows.append({"analysis": analysis, "figure": figure, "rungs": len(g),
                     "bots": " < ".join(g["bot"]),
                     "signs": " ".join("+" if x > 0 else "-" if x < 0 else "0" for x in signs),
                     "weakest": a["bot"], "mean_weakest": a["mean"], "strongest": b["bot"],
                     "mean_strongest": b["mean"], "ci_low_strongest": b["ci_low"],
                     "ci_high_strongest": b["ci_high"], "change": d, "change_ci_low": dlo,
                     "change_ci_high": dhi, "verdict": verdict,
                     "flips_somewhere": 1 in signs and -1 in signs})
    cols = ["analysis", "figure", "rungs", "bots", "signs", "weakest", "mean_weakest",
            "strongest", "mean_strongest", "ci_low_strongest", "ci_high_strongest", "change",
            "change_ci_low", "change_ci_high", "verdict", "flips_somewhere"]
    return pd.DataFrame(rows, columns=cols)


def tables(runs) -> dict[str, pd.DataFrame]:
    """Every key figure compared across bots (``runs.key_figures``: the other sections'):
    every pair of rungs (``comparison``) and the weakest against the strongest
    (``ladder``)."""
    kf = runs.key_figures
    comp = compare(kf)
    return {"ladder": ladder(kf), "comparison": comp,
            "flips": comp[comp["verdict"] == "flips"], "key_figures": kf}


def plots(tables: dict, folder: Path) -> list[str]:
    c = tables["comparison"]
    if not len(c):
        return []
    fig, (ax,) = panels(1, height=4.6)
    colour = {"holds across skill": "#7f8c8d", "grows with skill": "#2e86c1",
              "shrinks with skill": "#8e44ad", "flips": "#c0392b", "uncertain": "#e67e22",
              "none": "#bdc3c7"}
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
           + ", ".join(f"{counts.get(v, 0)} {PLURAL[v]}" for v in VERDICTS) + "."]
    lad = tables.get("ladder")
    if lad is not None and len(lad):
        lc = lad["verdict"].value_counts()
        out.append(f"From the weakest rung to the strongest, {len(lad)} figures: "
                   + ", ".join(f"{lc.get(v, 0)} {PLURAL[v]}" for v in VERDICTS)
                   + f"; {int(lad['flips_somewhere'].sum())} change sign somewhere on the "
                   "ladder.")
    flags = []
    for r in c[c["verdict"] == "flips"].itertuples():
        flags.append(f"{r.analysis}: {r.figure}: {r.bot_a} {r.mean_a:+.4f} "
                     f"[{r.ci_low_a:+.4f}, {r.ci_high_a:+.4f}] vs {r.bot_b} {r.mean_b:+.4f} "
                     f"[{r.ci_low_b:+.4f}, {r.ci_high_b:+.4f}]: the sign flips between bots")
    for v in ("grows with skill", "shrinks with skill"):
        for r in c[c["verdict"] == v].head(6).itertuples():
            out.append(f"{v}: {r.analysis}: {r.figure}: {r.bot_a} {r.mean_a:+.4f} "
                       f"[{r.ci_low_a:+.4f}, {r.ci_high_a:+.4f}] → {r.bot_b} {r.mean_b:+.4f} "
                       f"[{r.ci_low_b:+.4f}, {r.ci_high_b:+.4f}], change {r.change:+.4f} "
                       f"[{r.change_ci_low:+.4f}, {r.change_ci_high:+.4f}]")
    return out, flags
