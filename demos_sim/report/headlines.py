"""The summary cards of the analyses report: the question, the answer, the skill label.

The answer of a card is the section's paragraph of "What we found"
(:mod:`demos_sim.report.findings`, the same sentences as the README's), so the summary
and the README cannot drift apart. This module adds only what those paragraphs do not
say:

- the question each card asks and its key plot (:data:`QUESTIONS`);
- how many games people would need to notice an effect at the table, and whether a
  group playing :data:`GROUP_GAMES` games would (:func:`notice`, from the key figures in
  ``robustness/key_figures.csv`` and the teams' ``fairness.csv``);
- whether the figures a card quotes depend on bot skill (:func:`skill`, from the
  robustness analysis's labels in ``robustness/ladder.csv``: every rung, in the ladder's
  measured order, against each figure's margin).

A section without a paragraph (an analysis whose tables the findings do not read, or a
report of a few analyses) is answered by its first finding: the report never fails for
want of a headline.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.stats import bernoulli_sd, games_needed, power_at
from demos_sim.analysis.questions.robustness import PLURAL, VERDICTS, WHY
from demos_sim.report.derived import table as derived_table
from demos_sim.report.findings import Finding


@dataclass
class Headline:
    question: str
    answer: str                      # HTML
    figures: list[str] = field(default_factory=list)   # key figures quoted
    key_plot: str | None = None      # a figure file of the section


# section -> (the designer's question, its key plot)
QUESTIONS: dict[str, tuple[str, str]] = {
    "veto": ("How much is the veto worth, and to whom?", "veto_heatmap.png"),
    "media": ("What does the Media change, and is it a social dilemma?", "swing.png"),
    "teams": ("Are the team modes fair, and what would fix 2v3 and 2v2+1?", "sides.png"),
    "protocole_levels": ("Is each Protocole level harder than the one below?",
                         "difficulty_curves.png"),
    "game_shape": ("Does the seat matter, and what does a game look like?",
                   "seat_heatmap.png"),
    "tuning": ("Which point values bring the seats closer to parity?",
               "tuning_tradeoff.png"),
    "variants": ("Which rule readings and variants move the balance?",
                 "variant_effects.png"),
    "assemblee": ("Does L'Assemblée punish free riders?", "public_goods_10p.png"),
    "robustness": ("Do the conclusions hold with a stronger bot?", "robustness.png"),
}


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


def _key_figures(out: Path) -> pd.DataFrame:
    path = out / "robustness" / "key_figures.csv"
    if not path.exists():
        return pd.DataFrame(columns=["analysis", "figure", "bot", "mean", "ci_low",
                                     "ci_high"])
    return pd.read_csv(path)


def _effects(kf: pd.DataFrame, analysis: str, name: str, sign: float = 1.0,
             bots: int = 2) -> list[tuple[str, float]]:
    """The first ``bots`` rungs' estimates of a key figure (times ``sign``)."""
    r = kf[(kf["analysis"] == analysis) & (kf["figure"] == name)].drop_duplicates("bot")
    return [(b, sign * float(m)) for b, m in zip(r["bot"].head(bots), r["mean"].head(bots))]


def _p0(kf: pd.DataFrame, name: str, default: float) -> float:
    r = kf[kf["figure"] == name]
    return float(r["mean"].iloc[0]) if len(r) else default


def _notice(out: Path, name: str) -> str:
    """The games-to-notice sentence of a section ('' when its figures are missing)."""
    kf = _key_figures(out)
    nowin = _p0(kf, "no-winner share, full 4p", 0.17)
    if name == "veto":
        # the key figure is the veto's worth (with − without); the change measured from
        # the reference (with the veto) to the barred seat is −worth
        return notice(_effects(kf, "veto", "veto value, individual 4p, average over seats",
                               -1.0), 0.25 * (1 - nowin), True,
                      "the 4-player veto's worth (a seat with its veto against the same "
                      "seat without)")
    if name == "media":
        return notice(_effects(kf, "media", "Media swing (with - without), individual 4p, "
                                            "no-winner share"), nowin, True,
                      "the Media's change of 4-player games without a winner")
    if name == "teams":
        fair, _ = derived_table(out, "teams", "fairness")
        if fair is None:
            return ""
        if "option" in fair:
            fair = fair[fair["option"] == "default"]
        said = []
        for mode, side, d, p0, what in (("2v3", "A", "per side", 0.5,
                                         "the 2v3 team of two's deficit"),
                                        ("2v2+1", "I", "per seat", 0.2,
                                         "the 2v2+1 Independent's per-seat deficit")):
            r = fair[(fair["mode"] == mode) & (fair["side"] == side)
                     & (fair["definition"] == d)]
            said.append(notice([(b, float(x)) for b, x in zip(r["bot"], r["diff"])][:2],
                               p0, False, what))
        return "".join(said)
    if name == "protocole_levels":
        return notice(_effects(kf, name, "each: seat 0 win-share edge, 4p"), 0.25, False,
                      "the first Initiative's deficit (each for themselves, 4 players)")
    if name == "game_shape":
        return notice(_effects(kf, name, "share of won games - parity, full 4p, seat/side 0"),
                      0.25, False, "the first dealer's deficit")
    if name == "assemblee":
        return notice(_effects(kf, name, "free rider gain, 10p"), 0.1, True,
                      "the free rider's gain among 10 players (a free rider against a "
                      "cooperator)")
    return ""


def headline(out: Path, sec: dict, found: dict[str, Finding] | None = None) -> Headline:
    """The question and answer of a section: its paragraph of "What we found" (``found``,
    :func:`findings.by_section`) and the games people would need to notice the effect;
    the section's first finding when it has no paragraph."""
    name = sec["name"]
    question, plot = QUESTIONS.get(name, (sec["title"], None))
    f = (found or {}).get(name)
    if f is not None and f.statements:
        try:
            more = _notice(out, name)
        except (KeyError, IndexError, ValueError, FileNotFoundError):
            more = ""
        h = Headline(question, f.html() + more, list(f.figures), plot)
    else:
        first = sec["findings"][0] if sec["findings"] else "No findings recorded."
        h = Headline(question if f is not None or name in QUESTIONS else sec["title"],
                     html.escape(first), [], plot)
    if h.key_plot not in sec["figures"]:
        h.key_plot = sec["figures"][0] if sec["figures"] else None
    return h


# ---------------------------------------------------------------- the skill labels
def labels(out: Path) -> pd.DataFrame:
    """The robustness analysis's labels over every rung (``robustness/ladder.csv``)."""
    path = out / "robustness" / "ladder.csv"
    return pd.read_csv(path) if path.exists() else pd.DataFrame(
        columns=["analysis", "figure", "bots", "verdict"])


def _why(reasons: pd.Series) -> str:
    """The uncertain labels' reasons in a few words (the robustness findings' phrases)."""
    rs = reasons.fillna("").astype(str)
    parts = [f"{int(rs.str.contains(k, regex=False).sum())} {w}" for k, w in WHY
             if rs.str.contains(k, regex=False).any()]
    return f" ({'; '.join(parts)})" if parts else ""


def skill(out: Path, name: str, used: list[str]) -> tuple[str, str]:
    """``(css class, HTML)``: whether the section's figures depend on bot skill, from the
    robustness analysis's labels (every rung the figure was measured at, in the ladder's
    order, against the figure's margin): the figures the card quotes first, then the whole
    section."""
    lad = labels(out)
    c = lad[(lad["analysis"] == name) & (lad["verdict"] != "no skill order")]
    if c.empty:
        return "meta", "Bot skill: not compared (one bot, or no key figures)."
    bots = " < ".join(max((str(b).split(" < ") for b in c["bots"].dropna()), key=len,
                          default=[]))
    n = c["verdict"].value_counts()
    known = [v for v in VERDICTS if n.get(v, 0)] + [v for v in n.index if v not in VERDICTS]
    whole = (f"all {len(c)} labelled figures of this analysis: "
             + ", ".join(f"{n[v]} {PLURAL.get(v, v)}" for v in known))
    margin = "margin" in c.columns
    rungs = f"rungs {html.escape(bots)}" if bots else "its rungs"
    q = c[c["figure"].isin(used)]
    if q.empty:
        cls = "warn" if n.get("flips", 0) else "meta"
        return cls, f"Bot skill ({rungs}): {html.escape(whole)}."
    qn = q["verdict"].value_counts()
    k = len(q)
    if qn.get("flips", 0):
        return "warn", (f"⚠ Depends on bot skill: of the {k} figure{'s' * (k > 1)} quoted "
                        f"above, {qn['flips']} change{'s' if qn['flips'] == 1 else ''} sign "
                        f"between rungs ({rungs}); {html.escape(whole)}.")
    moved = qn.get("grows with skill", 0) + qn.get("shrinks with skill", 0)
    if moved:
        beyond = " beyond its margin" if margin else ""
        return "warn", (f"~ Its size depends on bot skill: of the {k} figure{'s' * (k > 1)} "
                        f"quoted above, {moved} grow{'s' if moved == 1 else ''} or "
                        f"shrink{'s' if moved == 1 else ''}{beyond} from the weakest rung to the "
                        f"strongest ({rungs}); {html.escape(whole)}.")
    unsettled = q[~q["verdict"].isin(["holds across skill", "no effect at any rung"])]
    if len(unsettled):
        why = _why(unsettled["reason"]) if "reason" in unsettled else ""
        un = unsettled["verdict"].value_counts()
        return "warn", (f"~ Not settled across skill: of the {k} figure{'s' * (k > 1)} "
                        "quoted above, " + ", ".join(f"{m} {v}" for v, m in un.items())
                        + f"{html.escape(why)} ({rungs}); {html.escape(whole)}.")
    inside = (" their change from the weakest rung to the strongest lies within each "
              "figure's margin (90% interval, TOST, Holm)" if margin else
              " they keep their sign and size")
    return "ok", (f"✓ Holds across skill: for the figures quoted above{inside} "
                  f"({rungs}); {html.escape(whole)}.")

