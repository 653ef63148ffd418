"""Variant impact: every RULES.md Part V variant against its default.

Each experiment file ``experiments/analyses/variants_*.toml`` takes one setup (DĒMOS full
and simplified 4-player games, 2v2, 2v3, 2v2+1; Protocole all-together level 2 and each
for themselves) and changes one variant at a time from its default (``sweep = "each"``),
every point on the baseline's deals. The effect of a variant value is the paired
difference of each main metric — win share of every seat or side, no-winner share, game
length — from the baseline, with its 95% interval. The screen tests many differences at
once, so every p-value is Holm-adjusted within a bot (family-wise error 5%) and the
summary table sorts the variants by their largest win-share effect.

**Does a variant matter?** A non-significant difference is not "no effect": each metric
has a stated margin (:data:`MARGINS`: ±1 pp for a share — each seat's or side's win share
in pp of all games, the no-winner share — and ±0.25 rounds for the game length, a quarter
of a round in games of about 9–14 rounds, a change no table would notice). The summary's
``verdict`` (:func:`variant_verdict`):

- **does not matter**: every metric of the variant value (every seat or side, no winner,
  rounds) has its 90% interval inside its margin (TOST, each at 5%; all at once is an
  intersection–union test, whose level needs no correction over the metrics). Its
  p-value (the largest TOST p) is Holm-adjusted over the bot's screen, like the others.
- **matters**: some metric's 90% interval lies wholly beyond its margin (one-sided test of
  ``|d| > m``, Holm over every metric of the bot's screen).
- **detected, not shown beyond the margin**: some difference is Holm-significant, but no
  metric is shown beyond its margin (after Holm) and not every one is shown inside it.
- **not shown either way**: nothing of the above (too few games to tell).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.analysis.core.answers import (CAPS, Finding, Statement, Tables, by_rung, ci,
                                             games, num, pp)
from demos_sim.analysis.core.board import (BoardRow, Est, Item, Light, fit, noticed, pp_text,
                                           quoted, worst_verdict)
from demos_sim.analysis.core.formatting import interval
from demos_sim.analysis.core.key_figures import COLUMNS
from demos_sim.analysis.core.plotting import panels, png_bytes
from demos_sim.analysis.core.protocol import SITE_DATA as DATA
from demos_sim.analysis.core.protocol import DEMOS_RUNGS, Page, Part, Report, Row
from demos_sim.analysis.core.stats import FAIR_MARGIN, Z95, adjust, p_value, tost

TITLE = "Variant impact: which readings of the ambiguous rules matter"
METHOD = (
    "Each Part V variant of RULES.md is changed alone from its default in the setup where "
    "it applies (DĒMOS full 4 players, simplified 4 players, 2v2, 2v3, 2v2+1; Protocole "
    "coop level 2 and each-for-themselves, 4 players), on the same deals as the default "
    "(common random numbers). Effects are paired differences of the per-game win share of "
    "every seat or side (M1), the no-winner share and the game length, with 95% normal "
    "intervals of the mean paired difference. p-values are two-sided normal tests of "
    "each difference, Holm-adjusted over every test of a bot's screen (family-wise 5%). "
    "The summary shows, per variant value, the seat or side it moves most, and a verdict "
    "against stated margins (±1 pp for win and no-winner shares, ±0.25 rounds for the game "
    "length): does not matter (every metric's 90% interval inside its margin, TOST; "
    "Holm over the bot's screen), matters (some metric's 90% interval wholly beyond its "
    "margin; Holm), detected, not shown beyond the margin (Holm-significant, neither), not "
    "shown either way "
    "(otherwise). A non-significant difference is never read as no effect.")
EXPERIMENTS = ["variants_demos_individual", "variants_demos_simplified", "variants_demos_2v2",
               "variants_demos_2v3", "variants_demos_2v2p1", "variants_protocole",
               "variants_protocole_each"]
RUNGS = DEMOS_RUNGS
EXPERIMENT_RUNGS = {"variants_protocole": {"convention": 1.0, "planner": 0.25},
                    "variants_protocole_each": {"cautious": 1.0, "planner": 0.25}}
METRICS = ("win_share", "no_winner", "rounds")
SHOW = ["summary"]
ALPHA = 0.05
# the margin under which a variant's effect on a metric does not matter (metric units:
# shares as fractions, game length in rounds)
MARGINS = {"win_share": FAIR_MARGIN, "no_winner": FAIR_MARGIN, "rounds": 0.25}
VERDICTS = ("does not matter", "matters", "detected, not shown beyond the margin",
            "not shown either way")


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
    effects = equivalence(effects)

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
        rec["p_equivalent"] = float(g["p_tost"].fillna(1.0).max())
        rec["any_beyond"] = bool(g["beyond"].any())
        rec["worst_metric_verdict"] = _worst_text(g)
        summary.append(rec)
    summary = pd.DataFrame(summary)
    summary["p_equivalent_holm"] = np.nan
    for bot, idx in summary.groupby("bot").groups.items():
        summary.loc[idx, "p_equivalent_holm"] = adjust(
            summary.loc[idx, "p_equivalent"].to_numpy(), "holm")
    summary["verdict"] = [variant_verdict(a, b, c) for a, b, c in zip(
        summary["p_equivalent_holm"], summary["any_beyond"], summary["any_significant"])]
    summary["abs_effect"] = summary["win_share_diff"].abs()
    summary = summary.sort_values(["rung", "abs_effect"], ascending=[True, False])
    summary = summary.drop(columns="abs_effect").reset_index(drop=True)
    return {"summary": summary, "effects": effects}


def equivalence(effects: pd.DataFrame) -> pd.DataFrame:
    """``effects`` (one row per variant value, metric and side, with ``diff`` and its 95%
    interval) with each difference judged against its metric's margin (:data:`MARGINS`):
    ``margin``, ``ci90_low``/``ci90_high``, ``p_tost`` (TOST p of ``|d| < m``),
    ``equivalent`` (90% interval inside ±m), ``p_beyond`` (one-sided p of ``|d| > m``),
    ``p_beyond_holm`` (Holm within the bot, over every metric of its screen) and
    ``beyond`` (``p_beyond_holm`` < 5%)."""
    from scipy.stats import norm

    e = effects.copy()
    m = e["metric"].map(MARGINS).to_numpy(float)
    se = ((e["diff_ci_high"] - e["diff_ci_low"]) / (2 * Z95)).to_numpy(float)
    d = e["diff"].to_numpy(float)
    ts = [tost(di, si, mi) for di, si, mi in zip(d, se, m)]
    e["margin"] = m
    e["ci90_low"] = [t.lo90 for t in ts]
    e["ci90_high"] = [t.hi90 for t in ts]
    e["p_tost"] = [t.p_tost for t in ts]
    e["equivalent"] = [t.verdict == "fair" for t in ts]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (np.abs(d) - m) / se
    pb = np.where(se > 0, norm.sf(z), np.where(np.abs(d) > m, 0.0, 1.0))
    e["p_beyond"] = pb
    e["p_beyond_holm"] = np.nan
    for _, idx in e.groupby("bot").groups.items():
        e.loc[idx, "p_beyond_holm"] = adjust(e.loc[idx, "p_beyond"].to_numpy(), "holm")
    e["beyond"] = e["p_beyond_holm"] < ALPHA
    return e


def variant_verdict(p_equivalent_holm: float, any_beyond: bool, any_significant: bool) -> str:
    """A variant value's verdict (:data:`VERDICTS`, see the module): "does not matter"
    only when every metric is shown inside its margin (the largest TOST p, Holm-adjusted
    over the bot's screen, < 5%); "matters" when some metric is shown beyond its margin;
    "detected, not shown beyond the margin" when a difference is Holm-significant but
    neither holds; "not shown either way" otherwise."""
    if any_beyond:
        return VERDICTS[1]
    if p_equivalent_holm < ALPHA:
        return VERDICTS[0]
    if any_significant:
        return VERDICTS[2]
    return VERDICTS[3]


def _worst_text(g: pd.DataFrame) -> str:
    """The metric (and side) that decides the verdict, with its TOST text (90% interval):
    the one most clearly beyond its margin when one is (the smallest ``p_beyond``), else
    the one furthest from being shown inside it (the largest TOST p)."""
    if g["beyond"].any():
        r = g.loc[g["p_beyond"].idxmin()]
    else:
        r = g.loc[g["p_tost"].fillna(1.0).idxmax()]
    unit, scale, digits = ((" rounds", 1.0, 2) if r["metric"] == "rounds" else
                           (" pp", 100.0, 1))
    t = tost(r["diff"], (r["diff_ci_high"] - r["diff_ci_low"]) / (2 * Z95), r["margin"])
    side = "" if r["metric"] != "win_share" else f" {r['side']}"
    return f"{r['metric']}{side}: " + t.text(scale, unit, ("equivalent", "not shown either way",
                                                         "beyond the margin"), digits)


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
                   "main metric after Holm adjustment; "
                   + ", ".join(f"{(g['verdict'] == v).sum()} {v}" for v in VERDICTS)
                   + " (margins ±1 pp of share, ±0.25 rounds).")
        for r in g.head(5).itertuples():
            out.append(
                f"{r.bot}: {r.setup}, {r.variant}={r.value} moves the win share of "
                f"{r.side} by {r.win_share_diff:+.4f} "
                f"{interval(r.win_share_ci_low, r.win_share_ci_high, '{:+.4f}')}"
                f" (no-winner {r.no_winner_diff:+.4f}, rounds {r.rounds_diff:+.2f}; "
                f"{r.games} paired games): {r.verdict}")
        for verdict, what in ((VERDICTS[0], "do not matter: every main metric within its "
                                            "margin (±1 pp of share, ±0.25 rounds; TOST, "
                                            "Holm)"),
                              (VERDICTS[3], "not shown either way (no difference detected, "
                                            "none shown within the margins)"),
                              (VERDICTS[2], "change something, not shown beyond the "
                                            "margins nor within them")):
            v = g[g["verdict"] == verdict] if "verdict" in g else g.iloc[:0]
            if len(v):
                out.append(f"{name}: {len(v)} variant value(s) {what}: " + ", ".join(
                    f"{r.variant}={r.value} ({r.setup})" for r in v.itertuples()) + ".")
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


# ------------------------------------------------------ what the report shows of it
# REPORT (demos_sim.analysis.core.protocol): the question of its section, its
# paragraph of "What we found", its rows of the verdict board with their answer
# pages; every builder reads the tables the suite wrote, by column name.
def _answer(t: Tables) -> Finding:
    f = Finding("variants", "Rule variants")
    name = "variants/summary.csv"
    vs = t.get(name, "setup", "bot", "variant", "value", "side", "win_share_diff",
               "win_share_ci_low", "win_share_ci_high")
    if vs is not None:
        rules = vs[~vs["variant"].isin(CAPS)]
        v = rules[rules["win_share_p_holm"] < 0.05] if "win_share_p_holm" in rules else rules
        key = ["setup", "variant", "value", "side"]
        top = (v.assign(size=v["win_share_diff"].abs()).sort_values("size", ascending=False)
               .drop_duplicates(["setup", "variant", "value"]).head(3))
        bits = []
        for _, r in top.iterrows():
            rows = vs[(vs[key] == r[key]).all(axis=1)]
            bits.append(f"`{r['variant']} = {r['value']}` (side {r['side']}, {r['setup']}): "
                        + by_rung(t, rows, lambda x: ci(x["win_share_diff"],
                                                        x["win_share_ci_low"],
                                                        x["win_share_ci_high"])))
        if bits:
            f.statements.append(Statement(
                "The largest moves of a win share among the variants (paired, Holm 5%, pp of "
                "all games; safety caps left out): " + "; ".join(bits), t.source(name)))
        if "verdict" in rules and len(rules):
            counts = []
            for b in t.order(rules["bot"]):
                n = rules[rules["bot"] == b]["verdict"].value_counts()
                counts.append(f"{b}: " + ", ".join(f"{k} “{w}”" for w, k in n.items()))
            f.statements.append(Statement(
                f"Verdicts of the {len(rules)} variant values screened (one a setup and "
                "rung, safety caps left out) against stated margins (±1 pp of win and "
                "no-winner share, ±0.25 rounds; TOST on the 90% interval, Holm over the "
                "rung's screen): “does not matter” only when every metric is shown inside "
                "its margin, “not shown either way” when no metric is shown inside or beyond "
                "it: " + "; ".join(counts), t.source(name)))
    return f


def _short(variant: str, value) -> str:
    return f"{variant.split('_')[0]} {value}"


def _carre_row(t: Tables) -> BoardRow | None:
    """The point values' effect on the balance, from the variant screen
    (``variants/effects.csv``): each point value screened (the tuner's parameters,
    ``tuning/params.csv``, and ``carre_points``), its largest move of a seat's win share
    at the quoted rung with the TOST verdict the screen wrote (Holm)."""
    name = "variants/effects.csv"
    ef = t.get(name, "setup", "bot", "variant", "value", "metric", "side", "diff",
               "diff_ci_low", "diff_ci_high", "ci90_low", "ci90_high", "equivalent", "beyond")
    if ef is None or not (ef["variant"] == "carre_points").any():
        return None
    params = t.get("tuning/params.csv", "parameter", "default")
    points = {"carre_points"}
    default = None
    if params is not None:
        points |= {str(p).split(".")[0] for p in params["parameter"]}
        d = params[params["parameter"] == "carre_points"]
        default = d["default"].iloc[0] if len(d) else None
    setup = ef[ef["variant"] == "carre_points"]["setup"].iloc[0]
    e = ef[(ef["setup"] == setup) & ef["variant"].isin(points)]
    q = quoted(t, e["bot"])

    def judge(g: pd.DataFrame) -> tuple[pd.Series, str]:
        w = g.loc[g["diff"].abs().idxmax()]
        v = ("matters" if g["beyond"].astype(bool).any() else "does not matter"
             if g["equivalent"].astype(bool).all() else "not shown either way")
        return w, v

    items, verdicts = [], {}
    for (var, val), g in e[e["metric"] == "win_share"].groupby(["variant", "value"],
                                                                sort=False):
        rungs = []
        for b in t.order(g["bot"]):
            w, v = judge(g[g["bot"] == b])
            rungs.append(Est(b, 100 * w["diff"], 100 * w["ci90_low"], 100 * w["ci90_high"], v,
                             int(w["games"]) if "games" in w else None))
        at = next((x for x in rungs if x.bot == q), None)
        if at is None:
            continue
        items.append(Item(_short(var, val), at, rungs))
        verdicts.setdefault(var == "carre_points", []).append(at.verdict)
    if not items:
        return None
    worst = ("matters", "not shown either way", "does not matter")
    cv = worst_verdict(verdicts.get(True, []), worst)
    lights = [Light("Carré", cv)]
    if verdicts.get(False):
        lights.append(Light("other values", worst_verdict(verdicts[False], worst)))
    car = [i for i in items if i.label.startswith("carre")]
    big = max(car, key=lambda i: abs(i.at.est))
    vals = " or ".join(i.label.split(" ", 1)[1] for i in car)
    was = f" (default {default})" if default is not None else ""
    m = 100 * float(e["margin"].iloc[0]) if "margin" in e else 100 * FAIR_MARGIN
    if cv == "does not matter":
        head = (f"A Carré of {vals} points{was} keeps every seat's win share within ±{m:g} pp "
                f"(largest move {pp_text(big.at.est, False, 2)} pp, {q} bots)")
    elif cv == "matters":
        head = (f"A Carré of {big.label.split(' ', 1)[1]} points{was} moves a seat's win "
                f"share by {pp_text(big.at.est, True, 2)} pp ({q} bots)")
    else:
        head = (f"Carré at {vals} points{was}: a seat's win share moves up to "
                f"{pp_text(abs(big.at.est), False, 2)} pp, not shown within ±{m:g} pp ({q} bots)")
    # game length: the Carré value that lengthens or shortens games beyond its margin
    rd = e[(e["metric"] == "rounds") & (e["bot"] == q) & (e["variant"] == "carre_points")
           & e["beyond"].astype(bool)]
    longer = ""
    if len(rd):
        x = rd.loc[rd["diff"].abs().idxmax()]
        longer = f"; at {x['value']}, games run {pp_text(x['diff'], True, 2)} rounds"
    # p0: the seat's win share without the change (the variant's mean minus its change)
    row = e[(e["metric"] == "win_share") & (e["bot"] == q) & (e["variant"] == "carre_points")
            & (e["value"].astype(str) == big.label.split(" ", 1)[1])]
    p0 = 0.25
    if len(row) and "mean" in row:
        rr = row.loc[row["diff"].abs().idxmax()]
        p0 = float(rr["mean"] - rr["diff"])
    return BoardRow(
        "carre", "Do the Carré and the point values move the balance?", lights,
        fit(head, longer, "."), noticed(big.at.est / 100, p0, True),
        f"the Carré at {big.label.split(' ', 1)[1]} moving a seat", items,
        "pp of a seat's win share, largest move", "90%", m, "variants",
        [t.source(name), t.source("tuning/params.csv")], q)


def carre_table(out: Path) -> str | None:
    """The Carré's points (D4) against the default, from the variant screen: at every rung
    and value screened, the seat whose win share moved most, the no-winner share and the
    game length, each a paired difference with its 95% interval, and the screen's verdict
    (``variants/effects.csv`` and ``summary.csv``). None when the screen has no Carré."""
    p, s = out / "variants" / "effects.csv", out / "variants" / "summary.csv"
    if not p.exists():
        return None
    ef = pd.read_csv(p)
    ef = ef[ef["variant"] == "carre_points"]
    if ef.empty:
        return None
    verdicts = {}
    if s.exists():
        sm = pd.read_csv(s)
        for r in sm[sm["variant"] == "carre_points"].itertuples():
            verdicts[(r.setup, r.bot, str(r.value))] = r.verdict
    rows = ["| setup | bot | Carré points | games | seat moved most (win share) | "
            "no-winner share | rounds a game | verdict |", "|---|---|---|---|---|---|---|---|"]
    order = ef.assign(v=pd.to_numeric(ef["value"], errors="coerce")).sort_values(
        ["setup", "rung", "v"])
    for (setup, rung, bot, value), g in order.groupby(["setup", "rung", "bot", "value"],
                                                      sort=False):
        ws = g[g["metric"] == "win_share"]
        top = ws.loc[ws["diff"].abs().idxmax()] if len(ws) else None
        seat = (f"seat {top['side']} {pp(top['diff'], top['diff_ci_low'], top['diff_ci_high'])}"
                if top is not None else "—")
        nw = g[g["metric"] == "no_winner"]
        nws = (pp(nw["diff"].iloc[0], nw["diff_ci_low"].iloc[0], nw["diff_ci_high"].iloc[0])
               if len(nw) else "—")
        rd = g[g["metric"] == "rounds"]
        rds = (num(rd["diff"].iloc[0], rd["diff_ci_low"].iloc[0], rd["diff_ci_high"].iloc[0],
                   digits=2) if len(rd) else "—")
        rows.append(f"| {setup} | {bot} | {value} | {games(g['games'].iloc[0])} | {seat} | "
                    f"{nws} | {rds} | {verdicts.get((setup, bot, str(value)), '—')} |")
    default = ""
    try:
        from demos_sim.game import get_game
        default = f" (the default is {get_game('demos').variant_defaults()['carre_points']})"
    except (KeyError, ImportError):
        pass
    return ("## The Carré's points, screened\n\n"
            f"Each Carré value against the default{default}, on the same deals at every "
            "rung (paired differences, 95% intervals; pp of all games; verdict against "
            "±1 pp of win and no-winner share and ±0.25 rounds, TOST and Holm as in [the "
            "statistics](../method/statistics.md)). From [`results/analyses/variants/"
            f"effects.csv`](../{DATA}/variants/effects.csv) and [`summary.csv`](../{DATA}/"
            "variants/summary.csv).\n\n" + "\n".join(rows))


def _carre_page(out: Path) -> tuple[str, tuple[str, ...]] | None:
    """The Carré page's table and the files it links."""
    t = carre_table(out)
    return (t, ("variants/effects.csv", "variants/summary.csv")) if t else None


REPORT = Report(
    question="Which rule readings and variants move the balance?",
    key_plot="variant_effects.png", answer=_answer,
    rows=(Row("carre", 40, _carre_row, Page(
        "carre-and-points", "What do the Carré and the point values change?",
        "What the Carré's points (D4) and the other point values move, and which point values "
        "the tuner found closest to seat parity.",
        ("tuning/tuning_tradeoff.png", "tuning/tuning_importance.png",
         "tuning/tuning_main_effects.png"), (Part("tuning"),), _carre_page), readme=True),))
