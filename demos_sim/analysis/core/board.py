"""The verdict board's rows, as data: what a question module's board builder returns.

A row (:class:`BoardRow`) holds a traffic light per thing judged (:class:`Light`, a key
of :data:`WORDS`), one plain sentence of at most :data:`MAX_WORDS` words, the items of its
small plot (:class:`Item`: the quoted rung's estimate and every rung's, :class:`Est`) and
the chance that a group playing :data:`GROUP_GAMES` games would notice the effect
(:func:`noticed`). A question module declares its rows (``REPORT.rows``,
:mod:`.protocol`); each row's builder reads the analyses' tables through
:class:`demos_sim.analysis.core.answers.Tables` and returns a row, or None when its tables
are missing. The report draws them (:mod:`demos_sim.report.board`).

Also here: the "games to notice" sentence of a report's section (:func:`notice`, from
the key figures of ``robustness/key_figures.csv``), which a module's ``REPORT.notice``
builds.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.answers import SEARCH, Tables
from demos_sim.analysis.core.stats import bernoulli_sd, games_needed, power_at, tost_ci

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
def pp_text(x: float, signed: bool = True, d: int = 1) -> str:
    s = f"{x:+.{d}f}" if signed else f"{x:.{d}f}"
    if float(s) == 0:
        s = f"{0.0:+.{d}f}" if signed else f"{0.0:.{d}f}"
    return s.replace("-", "−")


def noticed(d: float, p0: float, two: bool, games: int = GROUP_GAMES) -> float:
    """The power of a two-sided test at 5% over ``games`` unpaired games to detect an
    effect ``d`` (a share's change) from win probability ``p0``: one setting against a
    known value (``two`` False), or two settings, ``games / 2`` each (sd of the
    difference √(p₀(1−p₀) + p₁(1−p₁)))."""
    if two:
        p1 = min(max(p0 + d, 0.0), 1.0)
        return power_at(games / 2, d, math.hypot(bernoulli_sd(p0), bernoulli_sd(p1)))
    return power_at(games, d, bernoulli_sd(p0))


def tost_est(d: float, lo: float, hi: float, margin: float) -> Est:
    """A difference (fractions, 95% interval) as an :class:`Est` in pp with its 90%
    interval and TOST verdict (fair / not shown fair / unfair)."""
    e = tost_ci(float(d), float(lo), float(hi), margin)
    return Est("", 100 * e.diff, 100 * e.lo90, 100 * e.hi90, e.verdict)


def main_rungs(t: Tables, bots) -> list[str]:
    return [b for b in t.order(bots) if not b.startswith(SEARCH)]


def quoted(t: Tables, bots) -> str:
    main = main_rungs(t, bots)
    return main[-1] if main else t.order(bots)[-1]


def fit(*parts: str) -> str:
    """The first part, then each further part while the sentence stays within
    :data:`MAX_WORDS` words (optional clauses); punctuation alone (the closing ".") is
    always added."""
    s = parts[0]
    for p in parts[1:]:
        if p and (not p.strip(".;:") or len((s + p).split()) <= MAX_WORDS):
            s += p
    return s


def worst_verdict(vs, order=("unfair", "not shown fair", "fair")) -> str:
    return next(v for v in order if v in set(vs))


# ------------------------------------------------------------------ key figures
def key_table(t: Tables) -> pd.DataFrame | None:
    """``robustness/key_figures.csv`` through ``t`` (None when missing)."""
    return t.get("robustness/key_figures.csv", "analysis", "figure", "bot", "mean")


def key_value(kf, figure: str, bot: str, default: float) -> float:
    """Key figure ``figure`` at ``bot`` (else its first rung; ``default`` when missing)."""
    if kf is None:
        return default
    r = kf[(kf["figure"] == figure) & (kf["bot"] == bot)]
    if r.empty:
        r = kf[kf["figure"] == figure]
    return float(r["mean"].iloc[0]) if len(r) else default


# --------------------------------------------------- games needed to notice an effect
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


def read_key_figures(out: Path) -> pd.DataFrame:
    """Every analysis's key figures (``robustness/key_figures.csv``; empty when missing)."""
    path = out / "robustness" / "key_figures.csv"
    if not path.exists():
        return pd.DataFrame(columns=["analysis", "figure", "bot", "mean", "ci_low",
                                     "ci_high"])
    return pd.read_csv(path)


def key_effects(kf: pd.DataFrame, analysis: str, name: str, sign: float = 1.0,
                bots: int = 2) -> list[tuple[str, float]]:
    """The first ``bots`` rungs' estimates of a key figure (times ``sign``)."""
    r = kf[(kf["analysis"] == analysis) & (kf["figure"] == name)].drop_duplicates("bot")
    return [(b, sign * float(m)) for b, m in zip(r["bot"].head(bots), r["mean"].head(bots))]


def base_rate(kf: pd.DataFrame, name: str, default: float) -> float:
    """The first estimate of key figure ``name`` (``default`` when it is missing)."""
    r = kf[kf["figure"] == name]
    return float(r["mean"].iloc[0]) if len(r) else default
