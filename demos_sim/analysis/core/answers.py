"""What the report says of an analysis, as plain sentences: the kit of its paragraph of
"What we found".

A question module's answer builder (``REPORT.answer``, :mod:`.protocol`) reads the tables
the analyses wrote under the results folder through :class:`Tables`
(``<analysis>/<table>.csv``, read once, by column name; a missing table or column is
``None``, and the statement is left out) and returns a :class:`Finding`: its statements,
each with the file it comes from, every number read from a table, never typed. The
analyses report's sections, the README's verdicts and the site's answer pages are all
rendered from these (:mod:`demos_sim.report.findings`).

Numbers for people: shares in %, differences of shares in pp, each with its 95% interval
(:func:`pp`, :func:`pct`, :func:`num`, :func:`ci`); a figure at every bot rung, weaker
first in the order the robustness analysis's ladder measured (:func:`by_rung`); worths as
positive numbers (:func:`worth`). The skill labels' words (:data:`VERDICTS`,
:data:`PLURAL`, :data:`WHY`) are the robustness analysis's.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

CAPS = frozenset({"round_cap"})      # D5.1's safety cap: not a rule variant
SEARCH = "ismcts"                    # search rungs: few games, said apart

# the robustness analysis's skill labels, in the order its findings list them
VERDICTS = ("holds across skill", "grows with skill", "shrinks with skill", "flips",
            "uncertain", "no effect at any rung", "not detected", "no skill order")
PLURAL = {"holds across skill": "hold across skill", "grows with skill": "grow with skill",
          "shrinks with skill": "shrink with skill", "flips": "flip",
          "uncertain": "uncertain", "no effect at any rung": "show no effect at any rung",
          "not detected": "not detected at any rung",
          "no skill order": "have no measured skill order",
          "none": "show no effect at either bot"}     # "none": the old label's name
# an uncertain label's reason (a phrase of ``reason``) -> the words that say it
WHY = (("not enough games at the strongest rung", "for want of games at the strongest rung"),
       ("not enough games to tell", "for want of games at several rungs"),
       ("but not after", "within or beyond the margin before the Holm correction, not after"),
       ("reaches across", "with a change about the size of the margin"),
       ("do not agree", "whose weakest-to-strongest change and trend over every rung do not "
                        "agree (the figure does not move steadily with skill)"),
       ("opposite signs", "with opposite signs at two rungs that the correction does not "
                          "confirm"))


@dataclass
class Statement:
    text: str                        # mini-Markdown (**bold**, `code`), without the source
    source: str                      # the file, as the README names it

    def markdown(self) -> str:
        return f"{self.text} (`{self.source}`)."


@dataclass
class Finding:
    section: str                     # the analysis whose card it answers
    title: str
    statements: list[Statement] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)   # robustness key figures quoted

    def markdown(self) -> str:
        return f"**{self.title}.** " + " ".join(s.markdown() for s in self.statements)

    def html(self) -> str:
        return " ".join(to_html(s.markdown()) for s in self.statements)


def to_html(md: str) -> str:
    """The mini-Markdown of a statement as HTML."""
    s = html.escape(md, quote=False)
    s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", s)


# ------------------------------------------------------------------------ numbers
def _minus(s: str) -> str:
    return s.replace("-", "−")


def _f(fmt: str, x: float) -> str:
    """``fmt.format(x)`` without a negative zero: −0.001 at two decimals is ``0.00``
    (``+0.00`` signed), never ``−0.00``."""
    s = fmt.format(x)
    if x == x and abs(x) != math.inf and float(s.replace("%", "")) == 0:
        s = fmt.format(0.0)
    return s


def _dec(*xs: float) -> int:
    return 2 if max(abs(x) for x in xs) < 10 else 1


def pp(mean: float, lo: float, hi: float, signed: bool = True) -> str:
    """A difference of shares in percentage points: ``+1.17 [+1.07, +1.27] pp``."""
    m, a, b = 100 * mean, 100 * lo, 100 * hi
    d = _dec(m)
    f = f"{{:{'+' if signed else ''}.{d}f}}"
    return _minus(f"{_f(f, m)} [{_f(f, a)}, {_f(f, b)}] pp")


def pct(mean: float, lo: float, hi: float) -> str:
    """A share in %: ``10.84% [10.39, 11.29]``; rare events keep two significant digits."""
    m = abs(100 * mean)
    top = abs(100 * (mean or hi))
    if top > 0 and (0 < m < 0.1 or (m == 0 and top < 0.1)):     # a rare event: two digits
        d = max(0, 1 - math.floor(math.log10(top)))
    else:
        d = 2 if m < 20 else 1
    return _minus(f"{100 * mean:.{d}f}% [{100 * lo:.{d}f}, {100 * hi:.{d}f}]")


def num(x: float, lo: float, hi: float, digits: int = 4) -> str:
    f = f"{{:+.{digits}f}}"
    return _minus(f"{_f(f, x)} [{_f(f, lo)}, {_f(f, hi)}]")


def games(n: float) -> str:
    return f"{int(n):,}"


def games_phrase(ns: list[int]) -> str:
    ns = sorted(set(int(n) for n in ns))
    if not ns:
        return ""
    return (f"{games(ns[0])} games a rung" if len(ns) == 1
            else f"{games(ns[0])}–{games(ns[-1])} games a rung")


# --------------------------------------------------------------------- the tables
class Tables:
    """The results folder's CSV tables, read once; ``prefix`` is how the README names
    the folder (``results/analyses``)."""

    def __init__(self, out: Path, prefix: str):
        self.out, self.prefix = Path(out), prefix.rstrip("/")
        self._cache: dict[str, pd.DataFrame | None] = {}

    def get(self, name: str, *cols: str) -> pd.DataFrame | None:
        """``<analysis>/<table>.csv``, or None when it or one of ``cols`` is missing."""
        if name not in self._cache:
            path = self.out / name
            self._cache[name] = pd.read_csv(path) if path.exists() else None
        df = self._cache[name]
        if df is None or any(c not in df.columns for c in cols):
            return None
        return df

    def source(self, name: str) -> str:
        return f"{self.prefix}/{name}"

    # the rung order: the ladder's measured order when robustness wrote one
    def rung_rank(self) -> dict[str, float]:
        """Each bot's place on the ladder: bots sorted by how many of the others the
        ladder table's rows put below them, pair by pair (a majority of rows decides a
        pair; a table written from names alone is outvoted where the rows disagree)."""
        if hasattr(self, "_rank"):
            return self._rank
        lad = self.get("robustness/ladder.csv")
        col = next((c for c in ("rung_order", "rung order", "bots")
                    if lad is not None and c in lad.columns), None)
        below: dict[tuple[str, str], int] = {}
        names: list[str] = []
        if col is not None:
            for chain in lad[col].dropna().astype(str):
                bots = [b.strip() for b in re.split(r"\s*<\s*", chain) if b.strip()]
                names += bots
                for i, x in enumerate(bots):
                    for y in bots[i + 1:]:
                        below[(x, y)] = below.get((x, y), 0) + 1
        names = list(dict.fromkeys(names))
        self._rank = {x: sum(1 for y in names if below.get((y, x), 0) > below.get((x, y), 0))
                      for x in names}
        return self._rank

    def order(self, bots) -> list[str]:
        """``bots`` weaker first (the ladder's order; bots it does not know keep their
        order, the search rungs last)."""
        rank = self.rung_rank()
        seen = list(dict.fromkeys(str(b) for b in bots))
        return sorted(seen, key=lambda b: (b.startswith(SEARCH), rank.get(b, 0),
                                           seen.index(b)))

    def label(self, analysis: str, figure: str, f: Finding) -> str:
        """The robustness label of a key figure over the rungs it was measured at:
        ``skill: grows with skill, greedy to tuned``; '' when not labelled."""
        lad = self.get("robustness/ladder.csv", "analysis", "figure", "verdict")
        if lad is None:
            return ""
        r = lad[(lad["analysis"] == analysis) & (lad["figure"] == figure)]
        if r.empty:
            return ""
        r = r.iloc[0]
        if figure not in f.figures:
            f.figures.append(figure)
        span = (f", {r['weakest']} to {r['strongest']}" if "weakest" in r and "strongest"
                in r else "")
        margin = ""
        if "margin" in r and pd.notna(r["margin"]):
            unit = str(r["unit"]) if "unit" in r and pd.notna(r["unit"]) else "share"
            margin = (f", margin ±{100 * float(r['margin']):.2g} pp"
                      if unit in ("share", "pp", "shares", "fraction")
                      else f", margin ±{float(r['margin']):.3g} {unit}")
        why = ""
        if r["verdict"] == "uncertain" and "reason" in r and pd.notna(r["reason"]):
            why = next((f" ({w})" for key, w in WHY if key in str(r["reason"])), "")
        return f"skill: {r['verdict']}{why}{span}{margin}"


def by_rung(t: Tables, rows: pd.DataFrame, fmt, unit: str = " pp", bot: str = "bot",
            n: str = "games", sep: str = ", ") -> str:
    """``fmt(row)`` at each rung, weaker first, the unit once; the search rungs after a
    semicolon with their own games: ``greedy 0.80 […], tuned 1.66 […] pp (32,768–131,072
    games a rung); ismcts@16 2.44 […] pp (512 games)``."""
    rows = rows.drop_duplicates(bot)
    order = t.order(rows[bot])
    get = {str(r[bot]): r for _, r in rows.iterrows()}
    main = [b for b in order if not b.startswith(SEARCH)]
    out = []
    if main:
        ns = [get[b][n] for b in main] if n in rows else []
        out.append(sep.join(f"{b} {fmt(get[b])}" for b in main) + unit
                   + (f" ({games_phrase(ns)})" if ns else ""))
    for b in (b for b in order if b.startswith(SEARCH)):
        out.append(f"{b} {fmt(get[b])}{unit}"
                   + (f" ({games(get[b][n])} games)" if n in rows else ""))
    return "; ".join(out)


def span(rows: pd.DataFrame, col: str, scale: float = 100.0, signed: bool = False) -> str:
    """The smallest and largest ``col`` over the main rungs: ``0.8–1.7``."""
    v = rows[~rows["bot"].astype(str).str.startswith(SEARCH)][col] * scale
    if v.empty:
        return ""
    a, b = float(v.min()), float(v.max())
    f = "{:+.1f}" if signed else "{:.1f}"
    x, y = _f(f, a), _f(f, b)
    return _minus(x if x == y else f"{x} to {y}")


def worth(df: pd.DataFrame, mean: str, lo: str, hi: str) -> pd.DataFrame:
    """A worth as a positive number: the ``worth`` columns when the table has them, else
    the value lost without the mechanic (``mean`` with its interval) negated."""
    if {"worth", "worth_ci_low", "worth_ci_high"} <= set(df.columns):
        return df.assign(w=df["worth"], w_lo=df["worth_ci_low"], w_hi=df["worth_ci_high"])
    return df.assign(w=-df[mean], w_lo=-df[hi], w_hi=-df[lo])


def ci(mean: float, lo: float, hi: float, signed: bool = True) -> str:
    """A difference of shares in pp without its unit: ``+1.17 [+1.07, +1.27]``."""
    return pp(mean, lo, hi, signed)[:-3]


# ----------------------------------------------- the mechanics as a social dilemma
def dilemma_reading(r) -> str:
    """How a rung's average seat reads as a social dilemma (the rule of the analyses'
    own sentences, :func:`demos_sim.analysis.core.best_response.dilemma_findings`): using
    the mechanic pays *whatever the others do* when its worth to a lone user among
    abstainers and (where measured) to one user among users both have their 95% interval
    above 0; it is a social dilemma when, besides, everyone using it leaves a seat worse
    off than nobody (interval below 0)."""
    users = r.get("users_worth", math.nan)
    users_ok = pd.isna(users) or r.get("users_worth_ci_low", math.nan) > 0
    dominant = r["lone_worth_ci_low"] > 0 and users_ok
    if dominant and r["everyone_change_ci_high"] < 0:
        return "a social dilemma"
    if dominant and r["everyone_change_ci_low"] > 0:
        return "worth using, and everyone using it leaves a seat better off: no dilemma"
    if dominant:
        return ("worth using whatever the others do, but whether everyone using it leaves a "
                "seat worse off is not shown either way")
    return "not shown to pay whatever the others do"


def dilemma_statement(t: Tables, f: Finding, name: str, what: str, key: str) -> None:
    """The social dilemma table (``veto/veto_dilemma.csv``, ``media/media_dilemma.csv``):
    per rung, the average seat's worth to a lone user among abstainers, to one user among
    users, and everyone using it against nobody; points where the table has them."""
    dl = t.get(name, "bot", "seat", "lone_worth", "lone_worth_ci_low", "lone_worth_ci_high",
               "everyone_change", "everyone_change_ci_low", "everyone_change_ci_high")
    if dl is None:
        return
    a = dl[dl["seat"].astype(str) == "average"].dropna(subset=["lone_worth"])
    if a.empty:
        return
    groups: dict[str, list[str]] = {}
    for b in t.order(a["bot"]):
        groups.setdefault(dilemma_reading(a[a["bot"] == b].iloc[0]), []).append(b)
    head = "; ".join(f"{v} at {', '.join(bs)}" for v, bs in groups.items())
    lab = t.label(f.section, f"{key} worth to a lone user among abstainers, 4 players, "
                             "average over seats", f)

    def col(c: str, signed: bool = True):
        return lambda x: ci(x[c], x[f"{c}_ci_low"], x[f"{c}_ci_high"], signed)

    def points(c: str):
        return lambda x: num(x[c], x[f"{c}_ci_low"], x[f"{c}_ci_high"], 2)

    s = (f"**{what[0].upper() + what[1:]} is {head}** (4 players, average seat, paired "
         f"against nobody using it, same deals; pp of all games): worth to a lone user "
         f"among abstainers " + by_rung(t, a, col("lone_worth")))
    if {"lone_points", "lone_points_ci_low", "lone_points_ci_high"} <= set(a.columns) \
            and a["lone_points"].notna().any():
        s += " (points a game: " + by_rung(t, a, points("lone_points"), "", n="_") + ")"
    if {"users_worth", "users_worth_ci_low", "users_worth_ci_high"} <= set(a.columns):
        u = a.dropna(subset=["users_worth"])
        if len(u):
            s += "; to one user among users " + by_rung(
                t, u, col("users_worth"), n="users_games" if "users_games" in u else "_")
    s += ("; everyone using it rather than nobody changes a seat's win share by "
          + by_rung(t, a, col("everyone_change"), n="_"))
    if {"everyone_points", "everyone_points_ci_low", "everyone_points_ci_high"} <= \
            set(a.columns) and a["everyone_points"].notna().any():
        s += " (points a game: " + by_rung(t, a, points("everyone_points"), "", n="_") + ")"
    f.statements.append(Statement(s + (f"; {lab}" if lab else ""), t.source(name)))


def tuned_value_statement(t: Tables, f: Finding, name: str, what: str, uses: str,
                          per: str, one: str) -> None:
    """The mechanic's value to the tuned player (``*_best_response.csv``: one seat of the
    tuned field restricted from it, same deals; the policy searched for that seat plays as
    tuned): the average over the seats, the seats' range, the worth per use."""
    br = t.get(name, "field", "seat")
    if br is None:
        return
    if "worth" not in br:                   # a table from before the worth columns
        if not {"diff", "diff_ci_low", "diff_ci_high"} <= set(br.columns):
            return
        w = worth(br, "diff", "diff_ci_low", "diff_ci_high")
        br = br.assign(worth=w["w"], worth_ci_low=w["w_lo"], worth_ci_high=w["w_hi"])
    avg = br[br["seat"].astype(str) == "average"]
    if avg.empty:
        return
    a = avg.iloc[0]
    who = str(a["field"])
    seats = br[br["seat"].astype(str) != "average"]
    s = (f"Value to the {who} player: among {who} players, {what} are worth "
         f"{ci(a['worth'], a['worth_ci_low'], a['worth_ci_high'])} pp of win share to one "
         "seat (average over the seats, against the same seat restricted from them, same "
         "deals")
    if len(seats):
        lo, hi = seats.loc[seats["worth"].idxmin()], seats.loc[seats["worth"].idxmax()]
        s += (f"; seat {lo['seat']} {ci(lo['worth'], lo['worth_ci_low'], lo['worth_ci_high'])}"
              f" to seat {hi['seat']} {ci(hi['worth'], hi['worth_ci_low'], hi['worth_ci_high'])}")
    if "games" in br:
        s += f"; {games(a['games'])} games a seat"
    s += ")"
    if {uses, per, f"{per}_ci_low", f"{per}_ci_high"} <= set(br.columns) \
            and pd.notna(a[per]):
        s += (f"; at {a[uses]:.2f} a game, one {one} is worth "
              f"{pp(a[per], a[f'{per}_ci_low'], a[f'{per}_ci_high'])}")
    f.statements.append(Statement(s, t.source(name)))
