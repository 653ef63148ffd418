"""The verdict board: one row per designer question, at the top of the analyses report.

Each row (:class:`BoardRow`) holds a traffic light per thing judged, one plain sentence of
at most :data:`MAX_WORDS` words with its key figure, a small plot (inline SVG, drawn by
:func:`svg`) and the chance that a group playing :data:`GROUP_GAMES` games would notice
the effect. Every figure is read from the tables the analyses wrote under the results
folder (``<out>/<analysis>/<table>.csv``), never typed: :func:`board_rows` is the one
source of the board, for the report (:func:`board_html`) and for whoever else shows the
verdicts (the README, a documentation site).

Lights (:data:`WORDS`), from the analyses' own tests, never from a difference that is
merely not significant:

- fairness (a share of won games against its parity): **fair** when the 90% interval of
  the distance lies inside ±margin (TOST), **unfair** when it lies wholly beyond,
  **not shown** otherwise;
- effects (a change against no change): **does not matter** / **matters** /
  **not shown either way**, the same test against the margin;
- Protocole levels: **harder** when the upper level's win rate is shown lower (one-sided,
  Holm), **not shown harder** otherwise.

The quoted rung is the strongest bot that played the full number of games (the last of
the ladder's order that is not a search bot: tuned for DĒMOS, planner for Protocole);
the plot shows it as a dot with its interval and the other rungs as grey ticks, and each
row's ``<details>`` lists every rung.

"Noticed in 50 games" (:func:`noticed`) is the power of a two-sided test at 5% over
:data:`GROUP_GAMES` games played as people play them (unpaired, a game's win indicator
with sd √(p(1−p))) if the true effect is the one measured at the quoted rung: one
setting against its known parity over 50 games, or two settings compared over 25 games
each.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.stats import FAIR_MARGIN, bernoulli_sd, power_at, tost_ci
from demos_sim.report import findings as F

GROUP_GAMES = 50
MAX_WORDS = 25                   # a row's sentence

# verdict -> (word shown, tone: the light's colour class)
WORDS = {
    "fair": ("fair", "good"), "not shown fair": ("not shown", "unknown"),
    "unfair": ("unfair", "bad"),
    "does not matter": ("does not matter", "none"),
    "not shown either way": ("not shown either way", "unknown"),
    "matters": ("matters", "effect"),
    "harder": ("harder", "good"), "not shown harder": ("not shown harder", "unknown"),
}
EFFECT = {"fair": "does not matter", "not shown fair": "not shown either way",
          "unfair": "matters"}
# what each light's colour means, for the board's key
TONES = {"good": "fair / harder", "bad": "unfair", "effect": "matters",
         "none": "does not matter", "unknown": "not shown either way"}


@dataclass
class Est:
    """One rung's estimate of an item, in pp, with the interval its verdict rests on."""
    bot: str
    est: float
    lo: float
    hi: float
    verdict: str
    games: int | None = None


@dataclass
class Item:
    """One line of a row's plot: the quoted rung's estimate (``at``) and every rung's."""
    label: str
    at: Est
    rungs: list[Est] = field(default_factory=list)
    ghost: float | None = None          # where it started (the default, before a change)


@dataclass
class Light:
    label: str                          # what is judged ("2v3"); "" for the whole row
    verdict: str                        # a key of WORDS

    @property
    def word(self) -> str:
        return WORDS[self.verdict][0]

    @property
    def tone(self) -> str:
        return WORDS[self.verdict][1]


@dataclass
class BoardRow:
    key: str                            # the row's id; ``section`` its analysis
    question: str
    lights: list[Light]
    sentence: str                       # plain text, at most MAX_WORDS words
    noticed: float                      # probability, GROUP_GAMES games
    noticed_what: str                   # what would be noticed
    items: list[Item]
    axis: str                           # the plot's unit, e.g. "pp of won games from parity"
    interval: str                       # "90%" (TOST) or "95%"
    margin: float | None                # ±pp band of the plot; None: no margin test
    section: str
    sources: list[str]
    rung: str                           # the quoted rung

    def words(self) -> int:
        return len(self.sentence.split())


# ------------------------------------------------------------------ small helpers
def _pp(x: float, signed: bool = True, d: int = 1) -> str:
    s = f"{x:+.{d}f}" if signed else f"{x:.{d}f}"
    if float(s) == 0:
        s = f"{0.0:+.{d}f}" if signed else f"{0.0:.{d}f}"
    return s.replace("-", "−")


def _pct(p: float) -> str:
    """A probability in % for people: 0.4 → 40%, 0.003 → <1%, 0.999 → >99%."""
    if not p == p:
        return "?"
    return "<1%" if p < 0.005 else ">99%" if p > 0.995 else f"{100 * p:.0f}%"


def noticed(d: float, p0: float, two: bool, games: int = GROUP_GAMES) -> float:
    """The power of a two-sided test at 5% over ``games`` unpaired games to detect an
    effect ``d`` (a share's change) from win probability ``p0``: one setting against a
    known value (``two`` False), or two settings, ``games / 2`` each (sd of the
    difference √(p₀(1−p₀) + p₁(1−p₁)))."""
    if two:
        p1 = min(max(p0 + d, 0.0), 1.0)
        return power_at(games / 2, d, math.hypot(bernoulli_sd(p0), bernoulli_sd(p1)))
    return power_at(games, d, bernoulli_sd(p0))


def _tost(d: float, lo: float, hi: float, margin: float) -> Est:
    """A difference (fractions, 95% interval) as an :class:`Est` in pp with its 90%
    interval and TOST verdict (fair / not shown fair / unfair)."""
    e = tost_ci(float(d), float(lo), float(hi), margin)
    return Est("", 100 * e.diff, 100 * e.lo90, 100 * e.hi90, e.verdict)


def _main(t: F.Tables, bots) -> list[str]:
    return [b for b in t.order(bots) if not b.startswith(F.SEARCH)]


def _quoted(t: F.Tables, bots) -> str:
    main = _main(t, bots)
    return main[-1] if main else t.order(bots)[-1]


def _fit(*parts: str) -> str:
    """The first part, then each further part while the sentence stays within
    :data:`MAX_WORDS` words (optional clauses)."""
    s = parts[0]
    for p in parts[1:]:
        if p and len((s + p).split()) <= MAX_WORDS:
            s += p
    return s


def _worst_verdict(vs, order=("unfair", "not shown fair", "fair")) -> str:
    return next(v for v in order if v in set(vs))


# ------------------------------------------------------------------------ the rows
def _teams(t: F.Tables) -> BoardRow | None:
    name = "teams/fairness.csv"
    fa = t.get(name, "bot", "mode", "side", "definition", "diff", "ci_low", "ci_high",
               "ci90_low", "ci90_high", "verdict", "parity")
    if fa is None:
        return None
    if "option" in fa:
        fa = fa[fa["option"] == "default"]
    fa = fa[fa["definition"] == "per side"]
    q = _quoted(t, fa["bot"])
    items, lights, said = [], [], []
    for mode, g in fa.groupby("mode", sort=False):
        h = g[g["bot"] == q]
        if h.empty:
            continue
        w = F._worst(h)
        v = F._mode_verdict(h)
        rungs = []
        for b in t.order(g["bot"]):
            r = g[(g["bot"] == b) & (g["side"] == w["side"])]
            if len(r):
                r = r.iloc[0]
                rungs.append(Est(b, 100 * r["diff"], 100 * r["ci90_low"], 100 * r["ci90_high"],
                                 F._mode_verdict(g[g["bot"] == b]),
                                 int(r["games"]) if "games" in r else None))
        at = Est(q, 100 * w["diff"], 100 * w["ci90_low"], 100 * w["ci90_high"], v)
        items.append(Item(f"{mode} side {w['side']}", at, rungs))
        lights.append(Light(mode, v))
        said.append((mode, w, v))
    if not items:
        return None
    order = {"unfair": 0, "not shown fair": 1, "fair": 2}
    said.sort(key=lambda x: (order[x[2]], -abs(x[1]["diff"])))
    bits = [f"{m} {v} ({w['side']} {_pp(100 * w['diff'])} pp)" for m, w, v in said]
    sentence = _fit(f"Share of won games against parity ({q} bots): " + ", ".join(bits), ".")
    m, w, v = said[0]
    return BoardRow(
        "teams", "Are the team modes fair?", lights, sentence,
        noticed(abs(w["diff"]), float(w["parity"]), False),
        f"{m}'s side {w['side']} off parity", items, "pp of won games from parity", "90%",
        100 * float(fa["margin"].iloc[0]) if "margin" in fa else 100 * FAIR_MARGIN,
        "teams", [t.source(name)], q)


def _veto(t: F.Tables) -> BoardRow | None:
    name = "veto/veto_average.csv"
    v = t.get(name, "bot", "setup", "mean_diff", "ci_low", "ci_high")
    if v is None:
        return None
    r = F.worth(v[v["setup"] == "individual 4p"], "mean_diff", "ci_low", "ci_high")
    if r.empty:
        return None
    m = FAIR_MARGIN
    rungs = []
    for b in t.order(r["bot"]):
        x = r[r["bot"] == b].iloc[0]
        e = _tost(x["w"], x["w_lo"], x["w_hi"], m)
        rungs.append(Est(b, e.est, e.lo, e.hi, EFFECT[e.verdict],
                         int(x["games"]) if "games" in x else None))
    q = _quoted(t, r["bot"])
    at = next(e for e in rungs if e.bot == q)
    main = [e for e in rungs if not e.bot.startswith(F.SEARCH)]
    weak = main[0] if main and main[0].bot != q else None
    sentence = _fit(f"Holding the veto adds {_pp(at.est, False)} pp to a 4-player seat's win "
                    f"share with {q} bots",
                    f", {_pp(weak.est, False)} pp with {weak.bot}" if weak else "", ".")
    kf = _key(t)
    nowin = _kf(kf, "no-winner share, full 4p", q, 0.17)
    p0 = 0.25 * (1 - nowin)
    return BoardRow(
        "veto", "What is the veto worth?", [Light("", at.verdict)], sentence,
        noticed(at.est / 100, p0, True), "a seat with its veto against one without",
        [Item(e.bot, e, [e]) for e in rungs if not e.bot.startswith(F.SEARCH)]
        + [Item(e.bot, e, [e]) for e in rungs if e.bot.startswith(F.SEARCH)],
        "pp of win share (worth)", "90%",
        100 * m, "veto", [t.source(name)], q)


def _key(t: F.Tables) -> pd.DataFrame | None:
    return t.get("robustness/key_figures.csv", "analysis", "figure", "bot", "mean")


def _kf(kf, figure: str, bot: str, default: float) -> float:
    if kf is None:
        return default
    r = kf[(kf["figure"] == figure) & (kf["bot"] == bot)]
    if r.empty:
        r = kf[kf["figure"] == figure]
    return float(r["mean"].iloc[0]) if len(r) else default


DILEMMA = {"a social dilemma": "a social dilemma: each gains, all lose",
           "not shown to pay whatever the others do": "not shown to pay whatever others do"}


def _media(t: F.Tables) -> BoardRow | None:
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
        e = _tost(x["effect"], x["effect_ci_low"], x["effect_ci_high"], FAIR_MARGIN)
        rungs.append(Est(b, e.est, e.lo, e.hi, EFFECT[e.verdict],
                         int(x["games"]) if "games" in x else None))
    q = _quoted(t, r["bot"])
    at = next(e for e in rungs if e.bot == q)
    x = r[r["bot"] == q].iloc[0]
    reading = ""
    dl = t.get("media/media_dilemma.csv", "bot", "seat", "lone_worth", "lone_worth_ci_low",
               "everyone_change_ci_low", "everyone_change_ci_high")
    if dl is not None:
        a = dl[(dl["seat"].astype(str) == "average") & (dl["bot"] == q)]
        if len(a):
            rd = F.dilemma_reading(a.iloc[0])
            reading = f"; it is {DILEMMA.get(rd, rd)}"
    sentence = _fit(f"Playing the Media adds {_pp(at.est)} pp of 4-player games without a "
                    f"winner ({q} bots)", reading, ".")
    p0 = float(x["no_media"]) if "no_media" in x else 0.15
    return BoardRow(
        "media", "What does the Media change?", [Light("", at.verdict)], sentence,
        noticed(at.est / 100, p0, True), "more games without a winner with the Media",
        [Item(e.bot, e, [e]) for e in rungs], "pp of games without a winner", "90%",
        100 * FAIR_MARGIN, "media", [t.source(name), t.source("media/media_dilemma.csv")], q)


def _short(variant: str, value) -> str:
    return f"{variant.split('_')[0]} {value}"


def _carre(t: F.Tables) -> BoardRow | None:
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
    q = _quoted(t, e["bot"])

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
    cv = _worst_verdict(verdicts.get(True, []), worst)
    lights = [Light("Carré", cv)]
    if verdicts.get(False):
        lights.append(Light("other values", _worst_verdict(verdicts[False], worst)))
    car = [i for i in items if i.label.startswith("carre")]
    big = max(car, key=lambda i: abs(i.at.est))
    vals = " or ".join(i.label.split(" ", 1)[1] for i in car)
    was = f" (default {default})" if default is not None else ""
    m = 100 * float(e["margin"].iloc[0]) if "margin" in e else 100 * FAIR_MARGIN
    if cv == "does not matter":
        head = (f"A Carré of {vals} points{was} keeps every seat's win share within ±{m:g} pp "
                f"(largest move {_pp(big.at.est, False, 2)} pp, {q} bots)")
    elif cv == "matters":
        head = (f"A Carré of {big.label.split(' ', 1)[1]} points{was} moves a seat's win "
                f"share by {_pp(big.at.est, True, 2)} pp ({q} bots)")
    else:
        head = (f"A Carré of {vals} points{was} moves a seat's win share by up to "
                f"{_pp(abs(big.at.est), False, 2)} pp, not shown within ±{m:g} pp ({q} bots)")
    # game length: the Carré value that lengthens or shortens games beyond its margin
    rd = e[(e["metric"] == "rounds") & (e["bot"] == q) & (e["variant"] == "carre_points")
           & e["beyond"].astype(bool)]
    longer = ""
    if len(rd):
        x = rd.loc[rd["diff"].abs().idxmax()]
        longer = f"; at {x['value']}, games run {_pp(x['diff'], True, 2)} rounds"
    # p0: the seat's win share without the change (the variant's mean minus its change)
    row = e[(e["metric"] == "win_share") & (e["bot"] == q) & (e["variant"] == "carre_points")
            & (e["value"].astype(str) == big.label.split(" ", 1)[1])]
    p0 = 0.25
    if len(row) and "mean" in row:
        rr = row.loc[row["diff"].abs().idxmax()]
        p0 = float(rr["mean"] - rr["diff"])
    return BoardRow(
        "carre", "Do the Carré and the point values move the balance?", lights,
        _fit(head, longer, "."), noticed(big.at.est / 100, p0, True),
        f"the Carré at {big.label.split(' ', 1)[1]} moving a seat", items,
        "pp of a seat's win share, largest move", "90%", m, "variants",
        [t.source(name), t.source("tuning/params.csv")], q)


def _seats(t: F.Tables) -> BoardRow | None:
    name = "game_shape/seat_share.csv"
    ss = t.get(name, "bot", "rules", "mode", "players", "side", "share_of_won", "sow_ci_low",
               "sow_ci_high", "parity")
    if ss is None:
        return None
    r = ss[(ss["rules"] == "full") & (ss["mode"] == "individual") & (ss["players"] == 4)]
    if r.empty:
        return None
    m = float(r["fair_margin"].iloc[0]) if "fair_margin" in r else FAIR_MARGIN
    q = _quoted(t, r["bot"])

    def est(x, b) -> Est:
        e = _tost(x["share_of_won"] - x["parity"], x["sow_ci_low"] - x["parity"],
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
    v = _worst_verdict([i.at.verdict for i in items])
    far = max(items, key=lambda i: abs(i.at.est))
    parity = 100 * float(r["parity"].iloc[0])
    if v == "fair":
        head = (f"Every seat is within ±{100 * m:g} pp of a fair {parity:g}% of won games "
                f"at 4 players ({q} bots)")
    else:
        head = (f"At 4 players {far.label} is {WORDS[far.at.verdict][0]}: "
                f"{_pp(far.at.est)} pp from its fair {parity:g}% of won games ({q} bots)")
    other = ""
    for b in _main(t, r["bot"]):
        if b == q:
            continue
        worst = max((e for i in items for e in i.rungs if e.bot == b),
                    key=lambda e: abs(e.est), default=None)
        lab = next((i.label for i in items for e in i.rungs if e is worst), "")
        if worst is not None and worst.verdict != v:
            other = f"; {b}: {lab} {worst.verdict} ({_pp(worst.est)} pp)"
            break
    return BoardRow(
        "seats", "Does the seat matter?", [Light("", v)], _fit(head, other, "."),
        noticed(abs(far.at.est) / 100, parity / 100, False),
        f"{far.label}'s distance from parity", items, "pp of won games from parity", "90%",
        100 * m, "game_shape", [t.source(name)], q)


def _levels(t: F.Tables) -> BoardRow | None:
    name = "protocole_levels/level_steps.csv"
    st = t.get(name, "bot", "players", "step", "diff", "diff_ci_low", "diff_ci_high", "harder")
    if st is None:
        return None
    tested = st[st["in_family"].astype(bool)] if "in_family" in st else st
    if tested.empty:
        return None
    q = _quoted(t, tested["bot"])

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
        _fit(head, rates, "."), p, what, items, "pp of games won, upper − lower level",
        "95%", None, "protocole_levels",
        [t.source(name), t.source("protocole_levels/coop_win.csv")], q)


def _assemblee(t: F.Tables) -> BoardRow | None:
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
        e = _tost(x["free_rider_share"] - x["fair_share"], x["free_rider_ci_low"]
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
    sentence = _fit(coll + head, ".") if coll else head[0].upper() + head[1:] + "."
    if len(sentence.split()) > MAX_WORDS:
        sentence = head[0].upper() + head[1:] + "."
    return BoardRow(
        "assemblee", "Does L'Assemblée's collapse stop free riders?",
        [Light("free rider", at.verdict)], sentence,
        noticed(at.est / 100, float(x["fair_share"]), False),
        "the free rider's edge", items, "pp of games won by the free rider, from fair",
        "90%", 100 * FAIR_MARGIN, "assemblee",
        [t.source(name), t.source("assemblee/collapse_summary.csv")], q)


_VERDICT = re.compile(r"^(?P<side>[^:]+): (?P<v>[^:]+): (?P<d>[+−-][\d.]+) pp, 90% "
                      r"\[(?P<lo>[+−-][\d.]+), (?P<hi>[+−-][\d.]+)\]")


def _num(s: str) -> float:
    return float(s.replace("−", "-"))


def _change(t: F.Tables) -> BoardRow | None:
    """The best change of each unfair team mode replayed on fresh deals
    (``teams/confirm.csv``: the side worst on those deals, its TOST verdict and 90%
    interval in pp of won games)."""
    name = "teams/confirm.csv"
    co = t.get(name, "bot", "mode", "role", "option", "worst_side_verdict")
    if co is None:
        return None
    items, lights, said = [], [], []
    q = _quoted(t, co["bot"])
    for mode in ("2v3", "2v2+1"):
        m = co[co["mode"] == mode]
        if "screen" in m and (m["screen"] == "pairs").any():
            m = m[m["screen"] == "pairs"]

        def parse(role: str, b: str):
            r = m[(m["role"] == role) & (m["bot"] == b)]
            g = r.iloc[0] if len(r) else None
            hit = _VERDICT.match(str(g["worst_side_verdict"])) if g is not None else None
            return g, hit

        rungs = []
        for b in t.order(m["bot"]):
            g, hit = parse("best", b)
            if hit:
                rungs.append(Est(b, _num(hit["d"]), _num(hit["lo"]), _num(hit["hi"]),
                                 hit["v"], int(g["games"]) if "games" in g else None))
        g, hit = parse("best", q)
        if not hit:
            continue
        _, dhit = parse("default", q)
        at = next(x for x in rungs if x.bot == q)
        items.append(Item(f"{mode} side {hit['side']}", at, rungs,
                          _num(dhit["d"]) if dhit else None))
        lights.append(Light(mode, at.verdict))
        said.append((mode, g["option"], at))
    if not items:
        return None
    bits = []
    for mode, opt, at in said:
        if at.verdict == "fair":
            bits.append(f"{mode}: {opt} makes it fair ({_pp(at.est)} pp)")
        else:
            bits.append(f"{mode}: the best tried, {opt}, leaves {_pp(at.est)} pp, "
                        f"{at.verdict}")
    sentence = _fit("; ".join(bits), f" ({q} bots).")
    if not sentence.endswith("."):
        sentence += "."
    head = max(said, key=lambda s: abs(s[2].est))
    # the side's parity per side (fairness.csv), ½ of the won games for two sides
    parity = 0.5
    fa = t.get("teams/fairness.csv", "mode", "definition", "parity")
    if fa is not None:
        p = fa[(fa["mode"] == head[0]) & (fa["definition"] == "per side")]["parity"]
        parity = float(p.iloc[0]) if len(p) else parity
    return BoardRow(
        "change", "What would make 2v3 and 2v2+1 fair?", lights, sentence,
        noticed(abs(head[2].est) / 100, parity, False),
        f"{head[0]}'s unfairness left by its best change", items,
        "pp of won games from parity (○ default)", "90%", 100 * FAIR_MARGIN, "teams",
        [t.source(name)], q)


ROWS = (_teams, _veto, _media, _carre, _seats, _levels, _assemblee, _change)


def board_rows(results_dir: str | Path, prefix: str | None = None) -> list[BoardRow]:
    """The verdict board of the analyses under ``results_dir``: one :class:`BoardRow` per
    designer question whose tables are there (a question whose tables are missing or of
    another shape is left out). ``prefix``: how the rows name their files (default:
    ``results_dir`` as given)."""
    t = F.Tables(Path(results_dir), prefix if prefix is not None
                 else Path(results_dir).as_posix())
    rows = []
    for f in ROWS:
        try:
            r = f(t)
        except (KeyError, IndexError, ValueError, TypeError, StopIteration):
            continue
        if r is not None:
            rows.append(r)
    return rows


# ------------------------------------------------------------------------ the plot
COLOURS = {"good": "#1b7a3d", "bad": "#c0392b", "effect": "#1f5fa8", "none": "#6b7580",
           "unknown": "#c27c00"}


def svg(row: BoardRow, width: int = 260) -> str:
    """A small inline SVG: one line per item, the quoted rung's estimate as a dot with its
    interval (coloured by its verdict), the other rungs as grey ticks, the default (where
    a change was made) as a hollow circle, the ±margin as a band, 0 as a line."""
    items = [i for i in row.items if not i.at.bot.startswith(F.SEARCH)] or row.items
    left, right, top, line = 84, 10, 4, 15
    h = top + line * len(items) + 18
    xs = [0.0]
    for i in items:
        xs += [i.at.lo, i.at.hi] + [e.est for e in i.rungs if not e.bot.startswith(F.SEARCH)]
        if i.ghost is not None:
            xs.append(i.ghost)
    if row.margin:
        xs += [-row.margin, row.margin]
    lo, hi = min(xs), max(xs)
    pad = 0.06 * (hi - lo or 1.0)
    lo, hi = lo - pad, hi + pad
    span_ = width - left - right

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * span_

    out = [f'<svg class="spark" viewBox="0 0 {width} {h}" width="{width}" height="{h}" '
           f'role="img" aria-label="{html.escape(row.axis)}"><title>{html.escape(row.axis)}: '
           f'the dot is {html.escape(row.rung)}, bars its {row.interval} interval, grey ticks '
           "the other rungs</title>"]
    base = top + line * len(items)
    if row.margin:
        out.append(f'<rect x="{x(-row.margin):.1f}" y="{top}" width="'
                   f'{x(row.margin) - x(-row.margin):.1f}" height="{base - top}" '
                   'fill="#e3efe6"/>')
    out.append(f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="{top}" y2="{base}" '
               'stroke="#8a949e" stroke-width="1"/>')
    for k, i in enumerate(items):
        y = top + line * k + line / 2
        c = COLOURS[WORDS[i.at.verdict][1]]
        out.append(f'<text x="{left - 4}" y="{y + 3.5:.1f}" text-anchor="end" font-size="10" '
                   f'fill="#1d232a">{html.escape(i.label[:16])}</text>')
        for e in i.rungs:
            if e.bot != i.at.bot and not e.bot.startswith(F.SEARCH):
                out.append(f'<line x1="{x(e.est):.1f}" x2="{x(e.est):.1f}" y1="{y - 4:.1f}" '
                           f'y2="{y + 4:.1f}" stroke="#9aa3ab" stroke-width="1.5"/>')
        if i.ghost is not None:
            out.append(f'<line x1="{x(i.ghost):.1f}" x2="{x(i.at.est):.1f}" y1="{y:.1f}" '
                       f'y2="{y:.1f}" stroke="#9aa3ab" stroke-dasharray="2 2"/>'
                       f'<circle cx="{x(i.ghost):.1f}" cy="{y:.1f}" r="3.2" fill="white" '
                       'stroke="#6b7580"/>')
        out.append(f'<line x1="{x(i.at.lo):.1f}" x2="{x(i.at.hi):.1f}" y1="{y:.1f}" '
                   f'y2="{y:.1f}" stroke="{c}" stroke-width="2.2"/>'
                   f'<circle cx="{x(i.at.est):.1f}" cy="{y:.1f}" r="3.4" fill="{c}"/>')
    # ticks: both ends and 0, in pp, dropped where they would overlap
    ticks, placed = [], []
    for v in (lo + pad, 0.0, hi - pad):
        px = x(v)
        if all(abs(px - p) > 30 for p in placed):
            placed.append(px)
            ticks.append((px, v))
    for px, v in ticks:
        label = _pp(v, True, 1 if abs(v) < 10 else 0) if v else "0"
        anchor = "start" if px < left + 12 else "end" if px > width - right - 12 else "middle"
        out.append(f'<text x="{px:.1f}" y="{base + 12}" font-size="9.5" fill="#46525e" '
                   f'text-anchor="{anchor}">{label}</text>')
    out.append(f'<text x="{width - right}" y="{base + 12}" font-size="9.5" fill="#46525e" '
               'text-anchor="end" dy="0">pp</text>' if not any(
                   px > width - right - 40 for px, _ in ticks) else "")
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------------ the HTML
def _rung_table(row: BoardRow) -> str:
    head = (f"<tr><th>item</th><th>rung</th><th>pp [{row.interval}]</th><th>verdict</th>"
            "<th>games</th></tr>")
    body = []
    for i in row.items:
        for e in i.rungs:
            body.append(f"<tr><td>{html.escape(i.label)}</td><td>{html.escape(e.bot)}</td>"
                        f"<td>{_pp(e.est, True, 2)} <span class=ci>[{_pp(e.lo, True, 2)}, "
                        f"{_pp(e.hi, True, 2)}]</span></td><td>"
                        f"{html.escape(WORDS[e.verdict][0])}</td>"
                        f"<td>{'' if e.games is None else f'{e.games:,}'}</td></tr>")
    return (f'<div class="tablebox"><table class="rungs"><thead>{head}</thead><tbody>'
            f'{"".join(body)}</tbody></table></div>')


GLOSS = {
    "pp": "percentage points: a difference of two shares, 20% → 22% is +2 pp",
    "rung": "a bot of a given skill (DĒMOS: greedy < heuristic < tuned < ismcts@64); "
            "the board quotes the strongest that played every game",
    "ismcts@64": "the search bot (information-set Monte Carlo tree search, 64 playouts a "
                 "move): the strongest rung, with few games",
    "TOST": "two one-sided tests: fair (does not matter) when the 90% interval lies "
            "inside ±margin, unfair (matters) when it lies wholly beyond, else not shown",
    "Holm": "Holm's correction for testing many things at once (5% in all)",
}


def _abbr(word: str, shown: str | None = None) -> str:
    return (f'<abbr title="{html.escape(GLOSS[word])}">{html.escape(shown or word)}</abbr>')


def _light(li: Light) -> str:
    lab = f'<span class="ll">{html.escape(li.label)}</span> ' if li.label else ""
    return (f'<span class="light {li.tone}" title="{html.escape(TONES[li.tone])}">{lab}'
            f'<b>{html.escape(li.word)}</b></span>')


def _sentence(row: BoardRow) -> str:
    s = html.escape(row.sentence)
    for w in ("Holm", row.rung):
        if w in GLOSS or w == row.rung:
            tip = GLOSS.get(w, GLOSS["rung"])
            s = s.replace(f"{w} bots" if w == row.rung else w,
                          f'<abbr title="{html.escape(tip)}">'
                          f'{html.escape(f"{w} bots" if w == row.rung else w)}</abbr>', 1)
    return s.replace(" pp", " " + _abbr("pp"), 1)


def board_html(rows: list[BoardRow]) -> str:
    """The board as HTML: a ``<section id="board">`` of rows (lights, question and
    sentence, plot), each with a ``<details>`` of every rung's estimate, and the key."""
    out = ['<section id="board" class="board" aria-labelledby="summary">',
           '<h2 id="summary">The answers at a glance</h2>',
           '<p class="key">Lights: <span class="light good"><b>fair</b></span> '
           '<span class="light unknown"><b>not shown</b></span> '
           '<span class="light bad"><b>unfair</b></span> · '
           '<span class="light effect"><b>matters</b></span> '
           '<span class="light none"><b>does not matter</b></span>, tested against '
           f"±1 {_abbr('pp')} ({_abbr('TOST')}), never read from a non-significant "
           f"difference. Figures: the strongest {_abbr('rung')} playing every game "
           f"({_abbr('ismcts@64')} plays fewer); plots: its estimate and interval, grey "
           "ticks the other rungs, green band the margin. "
           f'<a href="#noticed">Noticed in {GROUP_GAMES} games</a>: how likely a group '
           "playing that many would see it.</p>"]
    for r in rows:
        lights = "".join(_light(li) for li in r.lights)
        out.append(
            f'<div class="brow" id="board-{r.key}"><div class="lights">{lights}</div>'
            f'<div class="say"><h3><a href="#{r.section}">{html.escape(r.question)}</a></h3>'
            f"<p>{_sentence(r)}</p></div>"
            f'<div class="plot">{svg(r)}</div>'
            f'<details class="more"><summary><span class="noticed">Noticed in '
            f"{GROUP_GAMES} games: <b>{_pct(r.noticed)}</b></span> "
            f'<span class="n">({html.escape(r.noticed_what)}) · rungs</span></summary>'
            f'<p class="meta">{html.escape(r.axis)}; {r.interval} intervals; files: '
            + ", ".join(f"<code>{html.escape(s)}</code>" for s in r.sources)
            + f'; details: <a href="#{r.section}">the section</a>.</p>'
            f"{_rung_table(r)}</details></div>")
    out.append(
        f'<p class="meta" id="noticed"><b>Noticed in {GROUP_GAMES} games</b>: the power '
        f"of a two-sided 5% test over {GROUP_GAMES} unpaired games ({GROUP_GAMES // 2} a "
        "setting when two are compared; a win's sd √(p(1−p))) if the effect is the one "
        "measured.</p>")
    out.append("</section>")
    return "\n".join(out)


def board_markdown(rows: list[BoardRow]) -> list[str]:
    """The board as Markdown lines (report.md, the README)."""
    out = []
    for r in rows:
        lights = ", ".join((f"{li.label}: " if li.label else "") + f"**{li.word}**"
                           for li in r.lights)
        out.append(f"- **{r.question}** {lights}. {r.sentence} Noticed in {GROUP_GAMES} "
                   f"games: {_pct(r.noticed)} ({r.noticed_what}).")
    return out


CSS = """
.board{margin:.4rem 0 1rem}.board h2{margin-top:.6rem}
.board .key{font-size:.84rem;color:#46525e;margin:.2rem 0 .5rem}
.brow{display:grid;grid-template-columns:10.5rem minmax(0,1fr) 16.25rem;gap:0 .8rem;
 border-top:1px solid #e1e6ea;padding:.3rem 0;align-items:start}
.brow h3{font-size:.95rem;margin:0}.brow h3 a{color:#1d232a;text-decoration:none}
.brow .say p{margin:.05rem 0;font-size:.93rem;line-height:1.35}
.brow details.more{grid-column:1/-1;border:0;padding:0;margin:0}
.brow details.more>summary{font-weight:400;font-size:.82rem;color:#46525e}
.brow .plot svg{width:100%;height:auto;display:block}
.lights{display:flex;flex-wrap:wrap;gap:.2rem}
.light{display:inline-block;font-size:.78rem;border-radius:1rem;padding:0 .45rem 0 .3rem;
 background:#f1f3f5}
.light::before{content:"";display:inline-block;width:.7rem;height:.7rem;border-radius:50%;
 margin-right:.25rem;vertical-align:-.08rem;background:currentColor}
.light .ll{color:#46525e}
.light.good{color:#1b7a3d}.light.bad{color:#c0392b}.light.effect{color:#1f5fa8}
.light.none{color:#6b7580}.light.unknown{color:#a86a00}
abbr[title]{text-decoration:underline dotted;cursor:help}
table.rungs{font-size:.78rem}
@media (max-width:50rem){.brow{grid-template-columns:minmax(0,1fr)}
 .brow .plot svg{max-width:20rem}}
"""
