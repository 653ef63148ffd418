"""The summary of the analyses report: each designer question answered in a sentence or two.

The numbers come from what the analyses wrote, never from new computation: the key figures
every analysis names (collected by the robustness analysis in
``robustness/key_figures.csv``: figure, bot, mean, 95% interval), the robustness
analysis's verdicts (``robustness/comparison.csv``: does a figure keep its sign from one
bot to another?), and for a few sentences one row of a section's own table
(``tuning/best.csv``, ``protocole_levels/level_steps.csv``). A sentence names the figures
it quotes, so the summary can say whether *those* depend on bot skill.

When a figure a sentence needs is missing (an analysis rerun with other setups, a report
of a few analyses only), the sentence is left out and the summary shows the section's
first finding instead: the report never fails for want of a headline.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.fairness import mode_verdict
from demos_sim.analysis.core.stats import (FAIR_MARGIN, bernoulli_sd, games_needed,
                                           power_at, tost_ci)
from demos_sim.analysis.core.sections import has_section
from demos_sim.analysis.questions.robustness import PLURAL, VERDICTS
from demos_sim.report.derived import table as derived_table
from demos_sim.report.findings import Finding


@dataclass
class Headline:
    question: str
    answer: str                      # HTML
    figures: list[str] = field(default_factory=list)   # key figures quoted
    key_plot: str | None = None      # a figure file of the section


class Figures:
    """The key figures of one analysis, rendered for a sentence; remembers what it quoted."""

    def __init__(self, kf: pd.DataFrame, analysis: str):
        self.kf = kf[kf["analysis"] == analysis]
        self.used: list[str] = []

    def rows(self, name: str) -> pd.DataFrame:
        r = self.kf[self.kf["figure"] == name]
        if r.empty:
            raise KeyError(name)
        if name not in self.used:
            self.used.append(name)
        return r

    def value(self, name: str, bot: str | None = None) -> float:
        r = self.rows(name)
        if bot is not None:
            r = r[r["bot"] == bot]
        return float(r["mean"].iloc[0])

    def __call__(self, name: str, unit: str = "pp", bots: int = 3) -> str:
        """``name`` at every bot: ``−0.21 pp [−0.24, −0.19] greedy; …``."""
        parts = []
        for r in self.rows(name).drop_duplicates("bot").head(bots).itertuples(index=False):
            parts.append(f'{value(r.mean, unit, True)} '
                         f'<span class=ci>[{value(r.ci_low, unit)}, {value(r.ci_high, unit)}]'
                         f'</span> <span class=bot>{html.escape(str(r.bot))}</span>')
        return "; ".join(parts)


def value(x: float, unit: str, bold: bool = False) -> str:
    """A number of a sentence: ``pp`` (a difference of shares ×100, signed), ``pct``
    (a share ×100), ``num`` (as it is, 2 decimals)."""
    if unit == "pp":
        s = f"{100 * x:+.2f}" if abs(100 * x) < 10 else f"{100 * x:+.1f}"
        s = s.replace("-", "−") + (" pp" if bold else "")
    elif unit == "pct":
        s = (f"{100 * x:.2g}" if 0 < abs(100 * x) < 0.05 else f"{100 * x:.1f}") + (
            "%" if bold else "")       # a rare event's Wilson bound is not "0.0"
    else:
        s = f"{x:.2f}"
    return f"<span class=fig>{s}</span>" if bold else s


# --------------------------------------------------- games needed to notice an effect
GROUP_GAMES = 50        # "a group playing 50 games would / would not notice this"


def _count(n: float) -> str:
    if not n == n:
        return "?"
    if n == float("inf") or n > 1e7:
        return "more than 10 million"
    n = math.ceil(n)
    return f"{n:,}" if n < 1000 else f"{round(n, -2):,.0f}" if n < 100_000 else \
        f"{round(n, -3):,.0f}"


def notice(effects: list[tuple[str, float]], p0: float, two: bool, what: str) -> str:
    """A sentence: how many games people would need to notice an effect (two-sided test
    at α = 0.05 with power 0.8, :func:`stats.games_needed`) and whether a group playing
    :data:`GROUP_GAMES` games would. ``effects``: (bot, effect) pairs; ``p0``: the win
    probability the effect is measured from (a game's win indicator has sd
    ``sqrt(p(1 − p))``); ``two``: two settings compared (half the games each, the sd of
    the difference ``sqrt(p₀(1 − p₀) + p₁(1 − p₁))``), otherwise one setting against a
    known parity."""
    parts, powers = [], []
    for bot, d in effects:
        sd = (math.sqrt(bernoulli_sd(p0) ** 2 + bernoulli_sd(min(max(p0 + d, 0), 1)) ** 2)
              if two else bernoulli_sd(p0))
        parts.append(f"{_count(games_needed(d, sd))} <span class=bot>"
                     f"{html.escape(str(bot))}</span>")
        powers.append((bot, power_at(GROUP_GAMES / 2 if two else GROUP_GAMES, d, sd)))
    if not parts:
        return ""
    each = " games of each setting" if two else " games"
    half = f" ({GROUP_GAMES // 2} of each setting)" if two else ""
    seen = "would" if powers[0][1] >= 0.8 else "would not"
    pw = ", ".join(f"{100 * p:.0f}% {html.escape(str(b))}" for b, p in powers)
    return (f" <span class=power>Games to notice {what} at the table (power 0.8, "
            f"p ≈ {p0:.2f}; see “games to notice”): {'; '.join(parts)}{each}; a group "
            f"playing {GROUP_GAMES} games{half} {seen} notice it (power {pw}).</span>")


def _effects(f: "Figures", name: str, bots: int = 2) -> list[tuple[str, float]]:
    r = f.kf[f.kf["figure"] == name].drop_duplicates("bot").head(bots)
    return [(b, float(m)) for b, m in zip(r["bot"], r["mean"])]


def _p0(f_all: pd.DataFrame, name: str, default: float) -> float:
    r = f_all[f_all["figure"] == name]
    return float(r["mean"].iloc[0]) if len(r) else default


# ------------------------------------------------------------------ one per analysis
def _veto(f: Figures, out: Path) -> Headline:
    return Headline(
        "How much is the veto worth?",
        "At 4 players and on average over the seats, the veto is worth "
        f"{f('veto value, individual 4p, average over seats')} of win share (a seat with "
        "its veto against the same seat barred from vetoing, same deals; positive: the veto "
        "helps its holder). In 2v3 the team of two keeps its "
        "second veto and its share of won games is still "
        f"{f('2v3 team A share of won games - 1/2, team_vetoes 2')} away from parity (½)."
        # the figure is the veto's worth (with − without); notice() wants the change
        # from the reference (with the veto) to the barred seat: −worth
        + notice([(b, -m) for b, m in _effects(f, "veto value, individual 4p, "
                                                  "average over seats")],
                 0.25 * (1 - _p0(_key_figures(out), "no-winner share, full 4p", 0.17)), True,
                 "the 4-player veto value (a seat with its veto against the same seat without)"),
        f.used, "veto_heatmap.png")


def _media(f: Figures, out: Path) -> Headline:
    return Headline(
        "What does the Media change?",
        "Letting every player act with their Media, against nobody doing so on the same "
        "deals, changes the share of 4-player games without a winner by "
        f"{f('Media swing (with - without), individual 4p, no-winner share')}, and the "
        "2v2+1 Independent's win share by "
        f"{f('Media swing (with - without), 2v2+1, win share of I')}."
        + notice(_effects(f, "Media swing (with - without), individual 4p, no-winner share"),
                 _p0(_key_figures(out), "no-winner share, full 4p", 0.17), True,
                 "the Media's change of 4-player games without a winner"),
        f.used, "swing.png")


def _teams(f: Figures, out: Path) -> Headline:
    fair, _ = derived_table(out, "teams", "fairness")
    if fair is None:
        raise KeyError("teams fairness")
    return Headline(
        "Are the team modes fair, and what would fix 2v3 and 2v2+1?",
        _fair_modes(fair) + " " + _best_changes(out) + " The best single change moves "
        "2v3's worse side by "
        f"{f('2v3: best option - default, unfairness (fresh deals)')} (fresh deals)."
        + _fair_notice(fair), f.used, "sides.png")


def _fair_modes(fair: pd.DataFrame) -> str:
    """Each team mode's TOST verdict, per side and per seat, at the default seating."""
    m = f"{100 * float(fair['margin'].iloc[0]):g}"
    out = [f"Fair means within ±{m} pp of parity (TOST, 90% interval inside the margin) "
           "<b>per side</b> (each side ½ of the won games, ⅓ in 2v2+1: every player as "
           "likely to be on the winning side) or <b>per seat</b> (each seat 1/n: a side its "
           "seats' share, the 2v2+1 Independent ⅕)."]
    for mode, g in fair.groupby("mode", sort=False):
        parts = []
        for d in ("per side", "per seat"):
            h = g[g["definition"] == d]
            verdicts = {bot: mode_verdict(hb) for bot, hb in h.groupby("bot", sort=False)}
            groups: dict[str, list[str]] = {}
            for bot, v in verdicts.items():
                groups.setdefault(v, []).append(bot)
            said = []
            for v, bots in groups.items():
                if v == "fair":
                    said.append("<b>fair</b> " + ", ".join(
                        f"<span class=bot>{html.escape(str(b))}</span>" for b in bots))
                    continue
                rows = [h[h["bot"] == b] for b in bots]
                side = rows[0].loc[rows[0]["diff"].idxmin(), "side"]   # the side most behind
                figs = []
                for b, hb in zip(bots, rows):
                    r = hb[hb["side"] == side].iloc[0]
                    figs.append(f"{value(r['share_won'], 'pct', True)}, "
                                f"{value(r['diff'], 'pp', True)} <span class=ci>["
                                f"{value(r['ci_low'], 'pp')}, {value(r['ci_high'], 'pp')}]"
                                f"</span> <span class=bot>{html.escape(str(b))}</span>")
                parity = value(rows[0][rows[0]["side"] == side]["parity"].iloc[0], "pct")
                who = ("side " if d == "per side" else "a seat of side ") + str(side)
                said.append(f"<b>{v}</b> ({html.escape(who)}: share of won games against "
                            f"{parity}%: " + "; ".join(figs) + ")")
            parts.append(f"{d} " + "; ".join(said))
        out.append(f"<b>{html.escape(str(mode))}</b>: " + "; ".join(parts) + ".")
    return " ".join(out)


def _fair_notice(fair: pd.DataFrame) -> str:
    out = []
    for mode, side, d, p0, what in (("2v3", "A", "per side", 0.5,
                                     "the 2v3 team of two's deficit"),
                                    ("2v2+1", "I", "per seat", 0.2,
                                     "the 2v2+1 Independent's per-seat deficit")):
        r = fair[(fair["mode"] == mode) & (fair["side"] == side) & (fair["definition"] == d)]
        out.append(notice([(b, float(x)) for b, x in zip(r["bot"], r["diff"])][:2], p0,
                          False, what))
    return "".join(out)


def _fresh(r) -> str:
    """A screen's best option re-measured on fresh deals: its worse side's distance from
    parity with the interval, and the TOST verdict per side when the section has it."""
    lo, hi = r.fresh_best_ci_low, r.fresh_best_ci_high
    verdict = getattr(r, "fresh_best_fair", None)
    verdict = (f", per side <b>{html.escape(str(verdict))}</b>"
               if isinstance(verdict, str) and verdict else "")
    return (f"<b>{html.escape(str(r.best))}</b> leaves the worse side "
            f"{value(r.fresh_best_unfairness, 'pp', True)} <span class=ci>["
            f"{value(lo, 'pp')}, {value(hi, 'pp')}]</span> from parity{verdict} "
            f"<span class=bot>{html.escape(str(r.bot))}</span>")


def _best_changes(out: Path) -> str:
    """The best single change and the best combination for the unfair modes
    (teams/summary.csv), each re-measured on fresh deals."""
    t = pd.read_csv(out / "teams" / "summary.csv")
    if "screen" not in t:                               # a section from before the pairs
        t = t.assign(screen="single")
    said = []
    for mode in ("2v3", "2v2+1"):
        one = t[(t["mode"] == mode) & (t["screen"] == "single")]
        two = t[(t["mode"] == mode) & (t["screen"] == "pairs")]
        if not len(one):
            continue
        fixed = [r for r in one.itertuples() if getattr(r, "fresh_best_fair", "") == "fair"]
        n = int(one["options"].max())
        what = ("seatings, team vetoes, the team-mode variants, the trial handicap of "
                "starting points" if mode == "2v3" else
                "seatings, the Independent's and the other 2v2+1 variants, the trial "
                "handicaps of starting points and of extra vetoes")
        head = (f"In {mode}, {'a single change' if fixed else 'no single change'} of the {n} "
                f"tried ({what}) "
                f"{'reaches' if fixed else 'makes it fair within'} the margin")
        said.append(head + "; the best, re-measured on fresh deals: "
                    + "; ".join(_fresh(r) for r in one.itertuples()) + ".")
        if len(two):
            said.append(f"Combining changes ({int(two['options'].max())} combinations): "
                        + "; ".join(_fresh(r) for r in two.itertuples()) + ".")
    return " ".join(said)


def _protocole(f: Figures, out: Path) -> Headline:
    steps = pd.read_csv(out / "protocole_levels" / "level_steps.csv")
    tested = steps[steps["in_family"].astype(bool)]
    harder = int(tested["harder"].astype(bool).sum())
    return Headline(
        "Is each Protocole level harder than the one below?",
        f"Level by level, {harder} of {len(tested)} paired tests (Holm) find the upper "
        "level harder. At 4 players the cooperative win rate changes by "
        f"{f('coop win rate, level 2 vs 1, 4p')} from level 1 to 2 and by "
        f"{f('coop win rate, level 3 vs 2, 4p')} from 2 to 3. Each for themselves, the "
        "first player (seat 0) is "
        f"{f('each: seat 0 win-share edge, 4p')} from an equal share at 4 players."
        + notice(_effects(f, "each: seat 0 win-share edge, 4p"), 0.25, False,
                 "the first Initiative's deficit (each for themselves, 4 players)"),
        f.used, "difficulty_curves.png")


def _game_shape(f: Figures, out: Path) -> Headline:
    return Headline(
        "Does the seat matter, and what does a game look like?",
        "At 4 players (full rules) the first dealer's (seat 0) share of won games is "
        f"{f('share of won games - parity, full 4p, seat/side 0')} from parity; "
        f"{f('no-winner share, full 4p', 'pct')} of games end without a winner, and a "
        f"game lasts {f('rounds per game, full 4p', 'num')} rounds. Against the margin of "
        f"fair (±{100 * _margin(out):g} pp, TOST) seat 0 is "
        + _seat0_verdicts(f, _margin(out))
        + notice(_effects(f, "share of won games - parity, full 4p, seat/side 0"), 0.25,
                 False, "the first dealer's deficit"),
        f.used, "seat_heatmap.png")


def _margin(out: Path) -> float:
    t, _ = derived_table(out, "game_shape", "seat_share")
    if t is not None and "fair_margin" in t:
        return float(t["fair_margin"].iloc[0])
    return FAIR_MARGIN


def _seat0_verdicts(f: Figures, margin: float) -> str:
    r = f.rows("share of won games - parity, full 4p, seat/side 0").drop_duplicates("bot")
    return "; ".join(f"{html.escape(tost_ci(x.mean, x.ci_low, x.ci_high, margin).text())}"
                     f" <span class=bot>{html.escape(str(x.bot))}</span>"
                     for x in r.head(3).itertuples()) + "."


def _tuning(f: Figures, out: Path) -> Headline:
    best = pd.read_csv(out / "tuning" / "best.csv")
    cols = list(best.columns)
    params = cols[cols.index("role") + 1:cols.index("measure")]
    b = best[best["role"] == "best"].iloc[0]
    d = best[best["role"] == "default"].iloc[0]
    setting = ", ".join(f"{html.escape(p)} = {b[p]}" for p in params)
    default = ", ".join(f"{b2}" for b2 in (d[p] for p in params))
    return Headline(
        "Which point values bring the seats closer to parity?",
        f"The tuner's best setting ({setting}; default {html.escape(default)}) changes "
        "the seat spread (distance of the seats from parity) by "
        f"{f('tuning: best − default seat_parity')} and the Carré's share of rounds by "
        f"{f('tuning: best − default carre_share')}, compared with the default.",
        f.used, "tuning_tradeoff.png")


def _variants(f: Figures, out: Path) -> Headline:
    rows = f.kf[f.kf["figure"].str.startswith("variants: ")]
    if rows.empty:
        raise KeyError("variants")
    first = rows["bot"].iloc[0]
    top = (rows[rows["bot"] == first].assign(size=lambda d: d["mean"].abs())
           .sort_values("size", ascending=False).head(3))
    parts = []
    for r in top.itertuples(index=False):
        name = r.figure.removeprefix("variants: ").replace("Δ win share", "win share of")
        parts.append(f"{html.escape(name)}: {f(r.figure, bots=2)}")
    return Headline(
        "Which rule readings and variants move the balance most?",
        "The three largest changes of a side's win share in the variant screen (paired "
        "against the default on the same deals): " + "; ".join(parts) + ".",
        f.used, "variant_effects.png")


def _assemblee(f: Figures, out: Path) -> Headline:
    gain = f.rows("free rider gain, 10p")
    pays = [str(b) for b, lo in zip(gain["bot"], gain["ci_low"]) if lo > 0]
    not_ = [str(b) for b, hi in zip(gain["bot"], gain["ci_high"]) if hi < 0]
    verdict = (f"free riding pays among {html.escape(', '.join(pays) or 'no population')} "
               f"players and costs among {html.escape(', '.join(not_) or 'none')}")
    return Headline(
        "Does L'Assemblée punish free riders?",
        "A free rider's win share minus a cooperator's, among 10 players: "
        f"{f('free rider gain, 10p')} (6 players: {f('free rider gain, 6p')}): "
        f"{verdict}. Cities of cooperators "
        f"collapse in {f('collapse rate, cooperators 10p', 'pct')} of 10-player games."
        + notice(_effects(f, "free rider gain, 10p"), 0.1, True,
                 "the free rider's gain among 10 players (a free rider against a "
                 "cooperator)"),
        f.used, "public_goods_10p.png")


def _robustness(out: Path) -> Headline:
    c = pd.read_csv(out / "robustness" / "comparison.csv")
    if c.empty:
        raise KeyError("robustness")
    n = c["verdict"].value_counts()
    flips = c[c["verdict"] == "flips"]["analysis"].value_counts()
    where = ", ".join(f"{k} {v}" for k, v in flips.items()) or "none"

    def k(v):
        return f"<span class=fig>{n.get(v, 0)}</span>"
    return Headline(
        "Do the conclusions hold with a stronger bot?",
        f"Of {len(c)} comparisons of {c['figure'].nunique()} key figures between two "
        f"bots, {k('holds across skill')} hold across skill (same sign, no significant "
        f"change in size), {k('grows with skill')} grow and {k('shrinks with skill')} "
        f"shrink with skill, {k('flips')} flip (by analysis: {html.escape(where)}), "
        f"{k('uncertain')} are uncertain (one bot detects the effect, the change is not "
        f"significant) and {k('none')} show no effect with either bot. L'Assemblée's "
        "“bots” are different populations (civic, reciprocal), so its flips are findings, "
        "not doubts.",
        [], "robustness.png")


BUILDERS = {"veto": _veto, "media": _media, "teams": _teams,
            "protocole_levels": _protocole, "game_shape": _game_shape, "tuning": _tuning,
            "variants": _variants, "assemblee": _assemblee}


def _key_figures(out: Path) -> pd.DataFrame:
    path = out / "robustness" / "key_figures.csv"
    if not path.exists():
        return pd.DataFrame(columns=["analysis", "figure", "bot", "mean", "ci_low",
                                     "ci_high"])
    return pd.read_csv(path)


def comparisons(out: Path) -> pd.DataFrame:
    path = out / "robustness" / "comparison.csv"
    return pd.read_csv(path) if path.exists() else pd.DataFrame(
        columns=["analysis", "figure", "bot_a", "bot_b", "verdict"])


POWER = re.compile(r" <span class=power>.*?</span>$", re.S)


def headline(out: Path, sec: dict, found: dict[str, Finding] | None = None) -> Headline:
    """The question and answer of a section (its first finding when no sentence fits).

    When ``found`` (:func:`findings.by_section`) has the section's finding, the answer is
    its generated sentences, the same as the README's "What we found", followed by the
    games people would need to notice the effect."""
    name = sec["name"]
    built = True
    try:
        if name == "robustness":
            h = _robustness(out)
        elif name in BUILDERS:
            h = BUILDERS[name](Figures(_key_figures(out), name), out)
        else:
            raise KeyError(name)
    except (KeyError, IndexError, ValueError, FileNotFoundError):
        first = sec["findings"][0] if sec["findings"] else "No findings recorded."
        h = Headline(sec["title"], html.escape(first))
        built = False
    f = (found or {}).get(name)
    if f is not None and f.statements:
        power = POWER.search(h.answer) if built else None
        h.answer = f.html() + (power.group(0) if power else "")
        h.figures = f.figures or h.figures
    if h.key_plot not in sec["figures"]:
        h.key_plot = sec["figures"][0] if sec["figures"] else None
    return h


def skill(out: Path, name: str, used: list[str]) -> tuple[str, str]:
    """``(css class, HTML)``: whether the section's figures depend on bot skill, from the
    robustness analysis's verdicts (the quoted figures first, then the whole section)."""
    c = comparisons(out)
    c = c[c["analysis"] == name]
    if c.empty:
        return "meta", "Bot skill: not compared (one bot, or no key figures)."
    bots = ", ".join(dict.fromkeys(list(c["bot_a"]) + list(c["bot_b"])))
    n = c["verdict"].value_counts()
    whole = (f"all {len(c)} comparisons of this analysis: "
             + ", ".join(f"{n.get(v, 0)} {PLURAL[v]}" for v in VERDICTS if n.get(v, 0)))
    q = c[c["figure"].isin(used)]
    if q.empty:
        cls = "warn" if n.get("flips", 0) else "meta"
        return cls, f"Bot skill ({html.escape(bots)}): {whole}."
    qn = q["verdict"].value_counts()
    if qn.get("flips", 0):
        return "warn", (f"⚠ Depends on bot skill: a figure quoted above changes sign "
                        f"between bots ({html.escape(bots)}); {whole}.")
    moved = qn.get("grows with skill", 0) + qn.get("shrinks with skill", 0)
    if moved:
        return "warn", (f"~ Its size depends on bot skill: {moved} of the {len(q)} "
                        f"comparisons quoted above grow or shrink with skill "
                        f"({html.escape(bots)}); {whole}.")
    if qn.get("uncertain", 0):
        return "warn", (f"~ Not settled across skill: {qn.get('uncertain', 0)} of the "
                        f"{len(q)} comparisons quoted above are detected by one bot only, "
                        f"without a significant change ({html.escape(bots)}); {whole}.")
    return "ok", (f"✓ Holds across skill: the figures quoted above keep their sign and "
                  f"size with every bot compared ({html.escape(bots)}); {whole}.")


def sections_with_headlines(out: Path, secs: list[dict],
                            found: dict[str, Finding] | None = None) -> dict[str, Headline]:
    return {s["name"]: headline(out, s, found) for s in secs if has_section(out / s["name"])}

