"""The summary cards of the analyses report: the question, the answer, the skill label.

The answer of a card is the section's paragraph of "What we found"
(:mod:`demos_sim.report.findings`, the same sentences as the README's), so the summary
and the README cannot drift apart. This module adds only what those paragraphs do not
say:

- the question each card asks and its key plot (``REPORT.question`` and ``key_plot`` of
  the analysis's module, :mod:`demos_sim.report.registered`);
- how many games people would need to notice an effect at the table, and whether a
  group playing :data:`GROUP_GAMES` games would (the module's ``REPORT.notice``, built
  with :func:`demos_sim.analysis.core.board.notice` from the key figures in
  ``robustness/key_figures.csv`` or its own tables);
- whether the figures a card quotes depend on bot skill (:func:`skill`, from the
  robustness analysis's labels in ``robustness/ladder.csv``: every rung, in the ladder's
  measured order, against each figure's margin).

A section without a paragraph (an analysis whose tables the findings do not read, or a
report of a few analyses) is answered by its first finding: the report never fails for
want of a headline.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.answers import PLURAL, VERDICTS, WHY, Finding
from demos_sim.analysis.core.board import GROUP_GAMES, notice  # noqa: F401  (re-exported)
from demos_sim.report.registered import report


@dataclass
class Headline:
    question: str
    answer: str                      # HTML
    figures: list[str] = field(default_factory=list)   # key figures quoted
    key_plot: str | None = None      # a figure file of the section


def headline(out: Path, sec: dict, found: dict[str, Finding] | None = None) -> Headline:
    """The question and answer of a section: its paragraph of "What we found" (``found``,
    :func:`findings.by_section`) and the games people would need to notice the effect;
    the section's first finding when it has no paragraph. The question and key plot are
    the analysis's ``REPORT``'s (the section's title when it declares none)."""
    name = sec["name"]
    rep = report(name)
    question, plot = (rep.question, rep.key_plot) if rep is not None else (sec["title"], None)
    f = (found or {}).get(name)
    if f is not None and f.statements:
        try:
            more = rep.notice(Path(out)) if rep is not None and rep.notice else ""
        except (KeyError, IndexError, ValueError, FileNotFoundError):
            more = ""
        h = Headline(question, f.html() + more, list(f.figures), plot)
    else:
        first = sec["findings"][0] if sec["findings"] else "No findings recorded."
        h = Headline(question, html.escape(first), [], plot)
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

