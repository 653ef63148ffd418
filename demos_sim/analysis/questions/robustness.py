"""Skill robustness: do the conclusions survive a stronger bot?

Every analysis runs its experiments at two or more rungs of the bot ladder (DĒMOS
``greedy``, ``heuristic``, ``tuned`` and ``apprentice``; Protocole's policies; L'Assemblée's
populations) and names its headline figures in ``key_figures(tables)``: a figure (usually
a paired difference or a distance from parity), the bot, its mean and 95% interval, and
optionally its ``margin`` and ``unit`` (:mod:`demos_sim.analysis.core.key_figures`). This
analysis declares ``READS_KEY_FIGURES``: the suite hands it the key figures of the
sections already written in the output folder (``runs.key_figures``).

**Rung order.** The bots of a figure are ordered by the strength the committed policy
ladder measured (:mod:`demos_sim.analysis.core.rungs`), never by name or by the order an
analysis lists them. A bot the ladder never measured (L'Assemblée's reciprocal and
aggressive populations, Protocole's cautious policy in the all-together mode …) has no
place in the order: it is left out of the label and named in the ``left_out`` column.

**The label** of a figure over its ordered rungs ``i`` (strength ``s_i``, estimate
``m_i``, standard error ``se_i = half-width / 1.96``), :func:`measure` and :func:`decide`:

- the **change** from the weakest rung to the strongest, ``m_strong − m_weak`` with
  ``se = sqrt(se_w² + se_s²)`` (treated as independent: conservative, the rungs play the
  same deals and their errors are positively correlated);
- the **trend**: the weighted least-squares line of ``m_i`` on ``s_i`` (weights
  ``1/se_i²``), its slope times ``s_strong − s_weak``: the change the line implies from
  the weakest rung to the strongest, using every rung. With two rungs it is the change.
  With three or more, when the rungs scatter about the line more than their intervals
  allow (``χ²/(k − 2) > 1``), the trend's standard error is widened by ``sqrt(χ²/(k−2))``;
- the figure's **margin** ``m`` (:func:`margin_for`): its own when the analysis gives one,
  else ±1 pp (``FAIR_MARGIN``) for shares and differences of shares, else 10% of the
  figure at its most precise rung (at least that rung's 95% half-width);
- a rung **detects** the effect when its 95% interval excludes 0 (its sign ``+``/``-``).

Four kinds of claim, each a p-value per figure, adjusted by Holm (``stats.adjust``)
within its kind over every figure of the table, and judged at 5%:

- **flips** (``p_flip``): significant opposite signs at two rungs (two-sided, Bonferroni
  over the figure's rungs within each direction, the larger of the two directions);
- **grows with skill** / **shrinks with skill** (``p_beyond``): both the trend and the
  change lie beyond the margin in one direction (90% intervals wholly past ``±m``: the
  larger of the two one-sided p-values), away from 0 (grows) or towards it (shrinks). The
  effect's direction is the sign of the rungs that detect it; when none does it is the
  sign of the precision-weighted mean ``Σ m_i/se_i² / Σ 1/se_i²``. Rungs that detect
  opposite signs the flip test does not confirm leave the direction open: uncertain;
- **holds across skill** (``p_equiv``): both the trend's and the change's 90% intervals
  lie inside ``±m`` (TOST: the larger of the four one-sided p-values), and at least one
  rung detects the effect and none detects the opposite sign;
- with the change inside the margin and no rung detecting anything: **no effect at any
  rung** when every rung's own 90% interval lies inside ``±m`` too (``p_zero``), else
  **not detected**;
- otherwise **uncertain**, with the reason in plain words (``reason``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core import rungs as rungs_mod
from demos_sim.analysis.core.answers import (Finding, PLURAL, SEARCH, Statement, Tables,
                                             VERDICTS, WHY)
from demos_sim.analysis.core.key_figures import default_unit, sign
from demos_sim.analysis.core.plotting import panels, png_bytes
from demos_sim.analysis.core.protocol import Report
from demos_sim.analysis.core.stats import Z95, adjust
from demos_sim.runner.experiment import FAIR_MARGIN

ALPHA = 0.05
Z90 = 1.6448536269514722            # norm.ppf(0.95): two-sided 90% interval, TOST at 5%
REL_MARGIN = 0.10                   # margin of a figure not in shares: 10% of its size
SE_FLOOR = 1e-12                    # a zero-width interval's weight stays finite
FAMILIES = ("p_flip", "p_beyond", "p_equiv", "p_zero")

TITLE = "Skill robustness: conclusions across rungs of the bot ladder"
METHOD = (
    "Each analysis's headline figures (its key_figures) are computed with at least two "
    "bots: DĒMOS greedy, heuristic, tuned and apprentice (the stronger play a quarter of "
    "the games: they are slower), Protocole's policies and ismcts@16, L'Assemblée's populations. "
    "The bots of a figure are ordered by the strength the committed policy ladder "
    "measured (results/ladder/ladder.json, each rung against the one below: an Elo "
    "rating chained from the win shares, 400·log10(v/(1 − v)) a step, or for Protocole's "
    "all-together mode the cumulative difference of team win rates), never by name. The "
    "DĒMOS order, measured at full rules with 4 players, is used for every DĒMOS "
    "configuration. Bots the ladder never measured (L'Assemblée's reciprocal and "
    "aggressive populations, adaptive in a civic city, Protocole's cautious policy in "
    "the all-together mode and convention in the each-for-themselves mode) have no place "
    "in the order and are left out (column left_out). Each figure gets a margin: the "
    "analysis's own when it gives one, else ±1 pp for shares and differences of shares "
    "(the fairness margin), else 10% of the figure at its most precise rung (at least "
    "that rung's 95% half-width). Over the ordered rungs: the change from the weakest to "
    "the strongest (independent errors, conservative) and the trend, a weighted "
    "least-squares line of the figure on the rung strength (weights 1/se², widened when "
    "the rungs scatter about it more than their intervals allow), read from the weakest "
    "rung to the strongest. Labels: holds across skill when both 90% intervals (trend and "
    "change) lie inside ±margin (equivalence, TOST) and some rung detects the effect "
    "(95% interval excluding 0) with one sign; grows or shrinks with skill when both lie "
    "beyond the margin, away from 0 or towards it (the effect's sign is that of the rungs "
    "that detect it, else of the precision-weighted mean); flips when two rungs detect "
    "opposite signs (each sign corrected for the number of rungs); no effect at any "
    "rung when no rung detects it and each rung's and the change's 90% intervals lie "
    "inside the margin, not detected when no rung detects it and the change lies inside "
    "the margin but some rung's interval does not; otherwise uncertain, with the reason "
    "(among them rungs of opposite signs that the flip test does not confirm). Each kind "
    "of claim is corrected for multiple testing by Holm (family-wise 5%) over all the "
    "figures of the table. The comparison table labels every pair of ordered rungs the "
    "same way (two rungs: the trend is the change), with Holm over all its pairs.")
READS_KEY_FIGURES = True
SHOW = ["flips", "ladder"]        # every pair of rungs: comparison.csv


# ------------------------------------------------------------------ one figure, pure
@dataclass(frozen=True)
class Rung:
    """A figure measured at one bot of known strength: estimate and 95% interval."""

    bot: str
    strength: float
    mean: float
    lo: float
    hi: float

    @property
    def se(self) -> float:
        return max((self.hi - self.lo) / (2 * Z95), SE_FLOOR)

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2

    @property
    def sign(self) -> int:
        return sign(self.lo, self.hi)


def _sf(x: float) -> float:
    """Upper normal tail ``P(Z > x)``."""
    return 0.5 * math.erfc(x / math.sqrt(2))


def _cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def p_tost(d: float, se: float, m: float) -> float:
    """The larger one-sided p-value of ``d > −m`` and ``d < +m`` (normal, ``se``):
    below 5% exactly when the 90% interval ``d ± 1.645·se`` lies inside ``(−m, m)``."""
    return max(_sf((d + m) / se), _cdf((d - m) / se))


def p_past(d: float, se: float, m: float, direction: int) -> float:
    """One-sided p-value of ``direction·d > m`` (``H0: direction·d ≤ m``): below 5%
    exactly when the 90% interval lies wholly beyond ``direction·m``."""
    return _sf((direction * d - m) / se)


def trend(rs: list[Rung]) -> tuple[float, float, float]:
    """``(change, se, widening)``: the weighted least-squares line of the means on the
    strengths, slope × (strongest − weakest strength), its standard error (widened by
    ``sqrt(χ²/(k − 2))`` when that exceeds 1) and the widening factor."""
    s = np.array([r.strength for r in rs], dtype=float)
    y = np.array([r.mean for r in rs], dtype=float)
    w = 1 / np.array([r.se for r in rs], dtype=float) ** 2
    span = float(s.max() - s.min())
    sx = float((w * s).sum() / w.sum())
    sxx = float((w * (s - sx) ** 2).sum())
    if not sxx > 0:
        return math.nan, math.nan, math.nan
    b = float((w * (s - sx) * y).sum() / sxx)
    fit = float((w * y).sum() / w.sum()) + b * (s - sx)
    k = len(rs)
    widen = 1.0
    if k > 2:
        chi2 = float((w * (y - fit) ** 2).sum())
        widen = max(1.0, math.sqrt(chi2 / (k - 2)))
    return b * span, widen * span / math.sqrt(sxx), widen


def margin_for(rs: list[Rung], given: float | None = None,
               unit: str = "share") -> tuple[float, str]:
    """``(margin, rule)``: ``given`` when finite and positive; ±:data:`FAIR_MARGIN` for a
    ``"share"``; else :data:`REL_MARGIN` of the figure's size at its most precise rung,
    at least that rung's 95% half-width."""
    if given is not None and given == given and given > 0:
        return float(given), "the analysis's margin"
    if unit == "share":
        return FAIR_MARGIN, f"±{100 * FAIR_MARGIN:g} pp (share)"
    best = min(rs, key=lambda r: r.half)
    m = max(REL_MARGIN * abs(best.mean), best.half)
    if not m > 0:
        return math.nan, "no margin (the figure is 0 with no spread)"
    return m, f"{100 * REL_MARGIN:g}% of the figure at {best.bot} ({unit})"


def measure(rs: list[Rung], margin: float) -> dict:
    """Every statistic of a figure's label over its rungs (ordered weakest first), with
    the raw p-values of the four claims (module docstring)."""
    rs = sorted(rs, key=lambda r: r.strength)
    k = len(rs)
    weak, strong = rs[0], rs[-1]
    d = strong.mean - weak.mean
    se_d = math.hypot(weak.se, strong.se)
    t, se_t, widen = trend(rs)
    signs = [r.sign for r in rs]
    detected = {x for x in signs if x}
    w = np.array([1 / r.se ** 2 for r in rs])
    wmean = float((w * np.array([r.mean for r in rs])).sum() / w.sum())
    if len(detected) == 1:
        ref = detected.pop()
    else:                                  # none detects it, or they disagree
        ref = 1 if wmean >= 0 else -1
    direction = 1 if (t if t == t and t != 0 else d) >= 0 else -1
    out = {"rungs": k, "bots": " < ".join(r.bot for r in rs),
           "strengths": " < ".join(f"{r.strength:.4g}" for r in rs),
           "signs": " ".join("+" if x > 0 else "-" if x < 0 else "0" for x in signs),
           "weakest": weak.bot, "mean_weakest": weak.mean, "ci_low_weakest": weak.lo,
           "ci_high_weakest": weak.hi, "strongest": strong.bot,
           "mean_strongest": strong.mean, "ci_low_strongest": strong.lo,
           "ci_high_strongest": strong.hi, "margin": margin,
           "change": d, "change_ci_low": d - Z95 * se_d, "change_ci_high": d + Z95 * se_d,
           "change_ci90_low": d - Z90 * se_d, "change_ci90_high": d + Z90 * se_d,
           "trend_change": t, "trend_ci_low": t - Z95 * se_t, "trend_ci_high": t + Z95 * se_t,
           "trend_ci90_low": t - Z90 * se_t, "trend_ci90_high": t + Z90 * se_t,
           "trend_widening": widen, "weighted_mean": wmean, "effect_sign": ref,
           "strongest_widest": strong.half >= max(r.half for r in rs),
           "flips_somewhere": 1 in signs and -1 in signs}
    if not margin > 0:
        nan = math.nan
        out.update(p_flip=nan, p_beyond=nan, p_equiv=nan, p_zero=nan)
        return out
    has_trend = t == t
    ests = [(d, se_d)] + ([(t, se_t)] if has_trend else [])
    # flips: each direction's smallest two-sided p over the rungs, Bonferroni over k
    p_up = min(1.0, k * min(2 * _sf(r.mean / r.se) for r in rs))
    p_down = min(1.0, k * min(2 * _cdf(r.mean / r.se) for r in rs))
    out["p_flip"] = max(p_up, p_down)
    out["p_beyond"] = max(p_past(e, s, margin, direction) for e, s in ests)
    out["p_equiv"] = max(p_tost(e, s, margin) for e, s in ests)
    out["p_zero"] = max(p_tost(r.mean, r.se, margin) for r in rs)
    out["change_direction"] = direction
    return out


def _num(x: float, unit: str) -> str:
    return (f"{100 * x:+.2f} pp" if unit == "share" else f"{x:+.3f}").replace("-", "−")


def _iv(lo: float, hi: float, unit: str) -> str:
    f = (lambda v: f"{100 * v:+.2f}") if unit == "share" else (lambda v: f"{v:+.3f}")
    return f"[{f(lo)}, {f(hi)}]".replace("-", "−")


def decide(m: dict, adjusted: dict | None = None, n: int = 1, alpha: float = ALPHA,
           unit: str = "share") -> tuple[str, str]:
    """``(verdict, reason)`` of a figure's statistics ``m`` (:func:`measure`), judged on
    the ``adjusted`` p-values (Holm over ``n`` figures; the raw ones when None)."""
    if "p_equiv" not in m:
        return "no skill order", m.get("reason", "")
    adj = adjusted or {f: m[f] for f in FAMILIES}
    mg = m["margin"]
    if not mg > 0:
        return "uncertain", "no margin to judge the change by"
    signs = m["signs"].split()
    holm = f" after the Holm correction over {n} figures" if n > 1 else ""
    if adj["p_flip"] < alpha:
        return "flips", ""
    ch_in = (-mg < m["change_ci90_low"] and m["change_ci90_high"] < mg)
    tr_in = (m["trend_change"] != m["trend_change"]
             or (-mg < m["trend_ci90_low"] and m["trend_ci90_high"] < mg))
    conflict = "+" in signs and "-" in signs          # opposite signs, flip not confirmed
    if adj["p_beyond"] < alpha and not conflict:
        grows = m["change_direction"] == m["effect_sign"]
        return ("grows with skill" if grows else "shrinks with skill"), ""
    if adj["p_equiv"] < alpha and ch_in and tr_in and not conflict:
        if "+" in signs or "-" in signs:
            return "holds across skill", ""
        elif adj["p_zero"] < alpha:
            return "no effect at any rung", ""
        else:
            return "not detected", (f"no rung detects an effect and the change lies within "
                                    f"±{_num(mg, unit).lstrip('+')}, but not every rung's "
                                    "own interval does")
    # uncertain: the plainest reason that applies
    M = _num(mg, unit).lstrip("+")
    if conflict:
        past = (f"; the change {_num(m['change'], unit)} lies beyond ±{M}"
                if adj["p_beyond"] < alpha else "")
        return "uncertain", ("opposite signs at two rungs, not confirmed once corrected for "
                             "the number of rungs"
                             + (f" and (Holm) for the {n} figures" if n > 1 else "") + past)
    none_detects = not ("+" in signs or "-" in signs)
    lead = "no rung detects an effect; " if none_detects else ""
    if m["p_equiv"] < alpha and ch_in and tr_in:
        return "uncertain", (f"{lead}the change lies within ±{M} at the 90% level, but "
                             f"not{holm}")
    if m["p_beyond"] < alpha:
        return "uncertain", (f"the change lies beyond ±{M} at the 90% level, but not{holm}")
    has_trend = m["trend_change"] == m["trend_change"]
    ch_out = m["change_ci90_low"] > mg or m["change_ci90_high"] < -mg
    tr_out = has_trend and (m["trend_ci90_low"] > mg or m["trend_ci90_high"] < -mg)
    ch_precise = (m["change_ci90_high"] - m["change_ci90_low"]) / 2 < mg
    if has_trend and ch_precise and (ch_out or tr_out) and not (
            ch_out and tr_out and m["change"] * m["trend_change"] > 0):
        ch_iv = _iv(m["change_ci90_low"], m["change_ci90_high"], unit)
        tr_iv = _iv(m["trend_ci90_low"], m["trend_ci90_high"], unit)
        return "uncertain", (f"{lead}the weakest-to-strongest change {ch_iv} and the trend "
                             f"over every rung {tr_iv} (90%) do not agree on a move beyond "
                             f"±{M}: the figure does not move steadily with skill")
    lo, hi, what = m["change_ci90_low"], m["change_ci90_high"], "change"
    if ch_in and not tr_in:
        lo, hi, what = m["trend_ci90_low"], m["trend_ci90_high"], "trend"
    iv = f"the {what}'s 90% interval {_iv(lo, hi, unit)}"
    if (hi - lo) / 2 >= mg:                  # too wide to fit inside ±margin: precision
        if what == "change" and m["strongest_widest"]:
            half = (m["ci_high_strongest"] - m["ci_low_strongest"]) / 2
            return "uncertain", (f"{lead}not enough games at the strongest rung "
                                 f"({m['strongest']}, ±{_num(half, unit).lstrip('+')}) to "
                                 f"tell: {iv} is wider than the ±{M} margin")
        return "uncertain", f"{lead}not enough games to tell: {iv} is wider than ±{M}"
    return "uncertain", (f"{lead}{iv} reaches across the ±{M} margin: the change is about "
                         "the margin's size")


def label(rs: list[Rung], margin: float, unit: str = "share") -> dict:
    """The label of one figure alone (no multiple-testing correction): :func:`measure`
    plus ``verdict`` and ``reason``."""
    m = measure(rs, margin)
    m["verdict"], m["reason"] = decide(m, unit=unit)
    return m


def label_all(figures: list[tuple[list[Rung], float, str]], method: str = "holm",
              alpha: float = ALPHA) -> list[dict]:
    """Labels of many figures (each ``(rungs, margin, unit)``; ``rungs`` empty or of one
    bot: "no skill order"), each kind of claim adjusted over all of them (``method``:
    Holm by default, :func:`stats.adjust`)."""
    ms = []
    for rs, mg, _ in figures:
        if len(rs) < 2:
            ms.append({})
            continue
        ms.append(measure(rs, mg))
    adj = {f: adjust([m.get(f, math.nan) for m in ms], method) for f in FAMILIES}
    n = int(np.sum(~np.isnan([m.get("p_equiv", math.nan) for m in ms])))
    for i, ((rs, mg, unit), m) in enumerate(zip(figures, ms)):
        if not m:
            continue
        a = {f: float(adj[f][i]) for f in FAMILIES}
        for f in FAMILIES:
            m[f + "_holm"] = a[f]
        m["verdict"], m["reason"] = decide(m, a, n=n, alpha=alpha, unit=unit)
    return ms


# ------------------------------------------------------------------ the tables
def _figures(kf: pd.DataFrame, chains: dict):
    """Per figure of ``kf``: ``(analysis, figure, ordered rungs, left out, family, margin,
    rule, unit)``."""
    for (analysis, figure), g in kf.groupby(["analysis", "figure"], sort=False):
        g = g.drop_duplicates("bot")
        g = g[g[["mean", "ci_low", "ci_high"]].notna().all(axis=1)]
        if len(g) < 2:
            continue
        placed, left, fam = rungs_mod.order(chains, analysis, figure, list(g["bot"]))
        by = g.set_index("bot")
        rs = [Rung(b, s, float(by.at[b, "mean"]), float(by.at[b, "ci_low"]),
                   float(by.at[b, "ci_high"])) for b, s in placed]
        given = None
        if "margin" in g.columns and g["margin"].notna().any():
            given = float(g["margin"].dropna().iloc[0])
        unit = default_unit(figure)
        if "unit" in g.columns and g["unit"].notna().any():
            unit = str(g["unit"].dropna().iloc[0])
        mg, rule = margin_for(rs, given, unit) if len(rs) >= 2 else (math.nan, "")
        yield analysis, figure, rs, left, fam, mg, rule, unit


LADDER_COLS = ["analysis", "figure", "ladder", "rungs", "bots", "strengths", "left_out",
               "signs", "weakest", "mean_weakest", "ci_low_weakest", "ci_high_weakest",
               "strongest", "mean_strongest", "ci_low_strongest", "ci_high_strongest",
               "unit", "margin", "margin_rule", "change", "change_ci_low", "change_ci_high",
               "change_ci90_low", "change_ci90_high", "trend_change", "trend_ci_low",
               "trend_ci_high", "trend_ci90_low", "trend_ci90_high", "trend_widening",
               "p_equiv", "p_equiv_holm", "p_beyond", "p_beyond_holm", "p_flip",
               "p_flip_holm", "p_zero", "p_zero_holm", "verdict", "reason",
               "flips_somewhere"]


def ladder(kf: pd.DataFrame, chains: dict | None = None) -> pd.DataFrame:
    """One row per figure measured with two bots or more: its rungs in measured order
    (``chains``: :func:`rungs.load`, the committed ladder by default), the change and the
    trend from the weakest to the strongest with their intervals, the margin, the Holm
    p-values and the label (module docstring). Figures with fewer than two bots on the
    ladder are kept as "no skill order"."""
    chains = rungs_mod.load() if chains is None else chains
    figs = list(_figures(kf, chains))
    ms = label_all([(rs, mg, unit) for _, _, rs, _, _, mg, _, unit in figs])
    rows = []
    for (analysis, figure, rs, left, fam, mg, rule, unit), m in zip(figs, ms):
        r = {"analysis": analysis, "figure": figure, "ladder": fam or "",
             "left_out": "; ".join(left), "unit": unit, "margin_rule": rule}
        if not m:
            r.update(rungs=len(rs), bots=" < ".join(x.bot for x in rs),
                     verdict="no skill order",
                     reason=("fewer than two of its bots were measured on the ladder: "
                             + ("; ".join(left) or "—")))
        else:
            r.update({k: v for k, v in m.items() if k in LADDER_COLS})
        rows.append(r)
    return pd.DataFrame(rows, columns=LADDER_COLS)


COMPARE_COLS = ["analysis", "figure", "bot_a", "mean_a", "ci_low_a", "ci_high_a", "sign_a",
                "bot_b", "mean_b", "ci_low_b", "ci_high_b", "sign_b", "unit", "margin",
                "change", "change_ci_low", "change_ci_high", "change_ci90_low",
                "change_ci90_high", "p_equiv_holm", "p_beyond_holm", "p_flip_holm",
                "p_zero_holm", "verdict", "reason"]


def compare(kf: pd.DataFrame, chains: dict | None = None) -> pd.DataFrame:
    """One row per figure and pair of its ordered rungs (``a`` the weaker by the
    ladder): both estimates and signs, the change with its 95% and 90% intervals and the
    label of the two rungs alone, Holm over every pair of the table."""
    chains = rungs_mod.load() if chains is None else chains
    pairs, meta = [], []
    for analysis, figure, rs, _, _, mg, _, unit in _figures(kf, chains):
        for i in range(len(rs)):
            for j in range(i + 1, len(rs)):
                pairs.append(([rs[i], rs[j]], mg, unit))
                meta.append((analysis, figure, rs[i], rs[j], unit))
    ms = label_all(pairs)
    rows = []
    for (analysis, figure, a, b, unit), m in zip(meta, ms):
        rows.append({"analysis": analysis, "figure": figure,
                     "bot_a": a.bot, "mean_a": a.mean, "ci_low_a": a.lo,
                     "ci_high_a": a.hi, "sign_a": a.sign,
                     "bot_b": b.bot, "mean_b": b.mean, "ci_low_b": b.lo,
                     "ci_high_b": b.hi, "sign_b": b.sign, "unit": unit,
                     **{k: m[k] for k in COMPARE_COLS[13:] if k in m}})
    return pd.DataFrame(rows, columns=COMPARE_COLS)


def tables(runs) -> dict[str, pd.DataFrame]:
    """Every key figure compared across bots (``runs.key_figures``: the other sections'):
    the weakest rung against the strongest over every rung (``ladder``) and every pair of
    rungs (``comparison``), in the committed ladder's order."""
    kf = runs.key_figures
    chains = rungs_mod.load()
    lad = ladder(kf, chains)
    comp = compare(kf, chains)
    return {"ladder": lad, "comparison": comp,
            "flips": lad[lad["verdict"] == "flips"], "key_figures": kf}


COLOURS = {"holds across skill": "#7f8c8d", "grows with skill": "#2e86c1",
           "shrinks with skill": "#8e44ad", "flips": "#c0392b", "uncertain": "#e67e22",
           "no effect at any rung": "#bdc3c7", "not detected": "#d5d8dc"}


def plots(tables: dict, folder: Path) -> list[str]:
    """The weakest rung's figure against the strongest's (95% intervals), one colour per
    label of the ladder table (figures in shares: one scale)."""
    c = tables.get("ladder")
    if c is None or not len(c):
        return []
    c = c[c["verdict"] != "no skill order"]
    if "unit" in c.columns:
        c = c[c["unit"].fillna("share") == "share"]       # one axis: shares only
    if not len(c):
        return []
    fig, (ax,) = panels(1, height=4.6)
    for verdict, g in c.groupby("verdict"):
        ax.errorbar(g["mean_weakest"], g["mean_strongest"],
                    xerr=np.vstack([g["mean_weakest"] - g["ci_low_weakest"],
                                    g["ci_high_weakest"] - g["mean_weakest"]]),
                    yerr=np.vstack([g["mean_strongest"] - g["ci_low_strongest"],
                                    g["ci_high_strongest"] - g["mean_strongest"]]),
                    fmt="o", ms=3, lw=0.7, color=COLOURS.get(verdict, "k"),
                    label=f"{verdict} ({len(g)})")
    lim = np.nanmax(np.abs(c[["ci_low_weakest", "ci_high_weakest", "ci_low_strongest",
                              "ci_high_strongest"]].to_numpy(dtype=float)))
    lim = float(lim) * 1.05 if np.isfinite(lim) and lim > 0 else 1.0
    ax.plot([-lim, lim], [-lim, lim], color="k", lw=0.6, ls=":")
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.axhline(0, color="k", lw=0.5)
    ax.axvline(0, color="k", lw=0.5)
    ax.set_xlabel("key figure (shares), weakest rung by the ladder (95% CI)")
    ax.set_ylabel("key figure (shares), strongest rung (95% CI)")
    ax.legend(fontsize=8)
    name = "robustness.png"
    (Path(folder) / name).write_bytes(png_bytes(fig))
    return [name]


def _fig(r, unit: str) -> str:
    return (f"{r.weakest} {_num(r.mean_weakest, unit)} "
            f"{_iv(r.ci_low_weakest, r.ci_high_weakest, unit)} → {r.strongest} "
            f"{_num(r.mean_strongest, unit)} "
            f"{_iv(r.ci_low_strongest, r.ci_high_strongest, unit)}")




def findings(tables: dict) -> tuple[list[str], list[str]]:
    lad = tables.get("ladder")
    if lad is None or not len(lad):
        return ["No key figures found: run the other analyses first."], []
    ordered = lad[lad["verdict"] != "no skill order"]
    n = len(ordered)
    counts = ordered["verdict"].value_counts()
    out = [f"{n} key figures were measured at two or more rungs of the bot ladder. Each is "
           "labelled from its weakest rung to its strongest in the order the committed "
           "ladder measured (results/ladder/ladder.json), against its margin (±1 pp for "
           "shares), with Holm's correction over all "
           f"{n} figures for each kind of claim: "
           + ", ".join(f"{counts.get(v, 0)} {PLURAL[v]}" for v in VERDICTS[:-1]
                       if counts.get(v, 0)) + "."]
    unc = ordered[ordered["verdict"] == "uncertain"]
    if len(unc):
        reasons = unc["reason"].fillna("").astype(str)
        parts = []
        for key, words in WHY:
            k = int(reasons.str.contains(key, regex=False).sum())
            if k:
                parts.append(f"{k} {words}")
        out.append(f"{len(unc)} figures are uncertain: " + "; ".join(parts) + ". More games "
                   "at the strongest rungs would settle most of them.")
    none_order = lad[lad["verdict"] == "no skill order"]
    left = lad[lad["left_out"].fillna("").astype(str) != ""]
    if len(left):
        bots = sorted({x.split(" (")[0] for s in left["left_out"].astype(str)
                       for x in s.split("; ") if x})
        out.append(f"{len(left)} figures include bots the ladder never measured ("
                   + ", ".join(bots) + "): those bots have no place in the skill order and "
                   "are left out of the label"
                   + (f"; {len(none_order)} figures keep fewer than two rungs and get no "
                      "skill label" if len(none_order) else "") + ".")
    for v in ("grows with skill", "shrinks with skill", "holds across skill"):
        for r in ordered[ordered["verdict"] == v].head(4).itertuples():
            unit = getattr(r, "unit", "share")
            out.append(f"{r.figure} ({r.analysis}) {v}: {_fig(r, unit)}; change "
                       f"{_num(r.change, unit)}, 90% interval "
                       f"{_iv(r.change_ci90_low, r.change_ci90_high, unit)}, margin "
                       f"±{_num(r.margin, unit).lstrip('+')}.")
    comp = tables.get("comparison")
    if comp is not None and len(comp):
        cc = comp["verdict"].value_counts()
        out.append(f"Every pair of ordered rungs ({len(comp)} pairs, Holm over all of them): "
                   + ", ".join(f"{cc.get(v, 0)} {PLURAL[v]}" for v in VERDICTS[:-1]
                               if cc.get(v, 0)) + ".")
    flags = []
    for r in ordered[ordered["verdict"] == "flips"].itertuples():
        unit = getattr(r, "unit", "share")
        flags.append(f"{r.analysis}: {r.figure}: the sign flips between rungs ({r.bots}: "
                     f"{r.signs}); {_fig(r, unit)}")
    return out, flags


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
LABEL_MEANS = (
    ("holds across skill", "the change from the weakest rung to the strongest and the trend "
     "over every rung both have their 90% interval inside the figure's margin (TOST) and "
     "some rung detects the effect (95% interval excluding 0)"),
    ("grows with skill", "both lie beyond the margin, away from 0"),
    ("shrinks with skill", "both lie beyond the margin, towards 0"),
    ("flips", "two rungs detect opposite signs"),
    ("no effect at any rung", "no rung detects it and every rung's interval and the "
     "change's lie inside the margin"),
    ("not detected", "no rung detects it and the change lies inside the margin, but not "
     "every rung's interval"),
)


def _answer(t: Tables) -> Finding:
    f = Finding("robustness", "What skill changes")
    name = "robustness/ladder.csv"
    lad = t.get(name, "verdict")
    if lad is None or not len(lad):
        return f
    new = {"margin", "change_ci90_low", "change_ci90_high"} <= set(lad.columns)
    ordered = lad[lad["verdict"] != "no skill order"]
    n = ordered["verdict"].value_counts()
    known = [v for v in VERDICTS if n.get(v, 0)] + [v for v in n.index if v not in VERDICTS]
    counts = ", ".join(f"{n[v]} {PLURAL.get(v, v)}" for v in known)
    flips = (f"; {int(ordered['flips_somewhere'].astype(bool).sum())} change sign between "
             "two rungs somewhere" if "flips_somewhere" in ordered else "")
    demos = [b for b in t.order(t.rung_rank())
             if b in {"greedy", "heuristic", "tuned"} or b.startswith(SEARCH + "@6")]
    rule = (f" (rungs in the order the committed ladder measured; Holm over the "
            f"{len(ordered)} figures for each kind of claim)" if new else
            " (labels of an older rule, without margins: see the section's method)")
    f.statements.append(Statement(
        f"**Labels of {len(ordered)} figures measured at two rungs or more**, from the "
        f"weakest rung to the strongest{rule}: {counts}{flips} (DĒMOS rungs weaker first: "
        f"{' < '.join(demos)}; a label holds for these bots, not necessarily for people)",
        t.source(name)))
    if new:
        means = "; ".join(f"**{v}**: {m}" for v, m in LABEL_MEANS)
        s = (f"What the labels mean, against each figure's margin (column margin: ±1 pp for "
             f"shares, else the analysis's own or 10% of the figure): {means}; "
             "**uncertain** otherwise")
        unc = ordered[ordered["verdict"] == "uncertain"]
        if len(unc) and "reason" in unc:
            reasons = unc["reason"].fillna("").astype(str)
            why = [f"{int(reasons.str.contains(k, regex=False).sum())} {w}" for k, w in WHY
                   if reasons.str.contains(k, regex=False).any()]
            if why:
                s += f" ({'; '.join(why)})"
        left = len(lad) - len(ordered)
        if left:
            s += (f"; without a label (fewer than two rungs the ladder measured): {left} "
                  "figure" + ("s" if left > 1 else ""))
        f.statements.append(Statement(s, t.source(name)))
    return f


REPORT = Report(question="Do the conclusions hold with a stronger bot?",
                key_plot="robustness.png", answer=_answer, skill=False)
