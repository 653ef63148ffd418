"""The analyses report: ``<out>/report.html`` and ``report.md``, answers first.

Built only from what :func:`demos_sim.analysis.suite.analyse` left in ``<out>/<name>/``
(``section.json``, the CSV tables, the PNG plots, read with
:mod:`demos_sim.analysis.core.sections`), so it can be rebuilt without playing a game
(``demos-sim analyse --report-only``). The page reads top-down as a designer asks:

1. a stamp (rules contract, package version, git revision, seeds, games) at the top and
   the foot;
2. the verdict board (:mod:`demos_sim.report.board`): one row per designer question with
   its traffic lights, one sentence, a small plot and the chance that 50 games would show
   the effect; every rung's estimate one click away;
3. a glossary (win share, share of won games, parity, percentage points, intervals),
   collapsed;
4. one section per analysis: the answer in full (the sentences of the README's "What we
   found", :mod:`demos_sim.report.findings`, with the games people would need to notice
   the effect and whether the figures depend on bot skill, :mod:`demos_sim.report.headlines`),
   its plots (the key plot first), then collapsed blocks: the findings and flags as the
   analysis wrote them, each table with human labels and units
   (:mod:`demos_sim.report.tables`) and a link to its CSV file, the method, the runs.

The plots are linked, not embedded: they are the PNG files beside the report in the
results folder (``<analysis>/<plot>.png``), so the page stays small (the 45 plots
embedded made it 2 MB) and works offline as long as it stays in its folder.
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.sections import has_section, read_section
from demos_sim.report.derived import extra_tables
from demos_sim.report.derived import table as derived_table
from demos_sim.report.board import CSS as BOARD_CSS
from demos_sim.report.board import board_html, board_markdown, board_rows
from demos_sim.report.findings import by_section, prefix, repo_root
from demos_sim.report.headlines import headline, skill
from demos_sim.report.markup import html_details, html_page, html_table, md_table, text
from demos_sim.report.registered import report
from demos_sim.report.tables import present, shown, title
from demos_sim.runner.store import atomic_write_text

MAX_ROWS = 50
TITLE = "demos-sim — the designer's analyses"

GLOSSARY = [
    ("win share (share of games)",
     "the fraction of all games a seat or side wins (RULES.md M1: a victory shared by k "
     "counts 1/k). Games without a winner count for nobody, so the win shares and the "
     "no-winner share add up to 100%."),
    ("share of won games",
     "a seat's or side's wins divided by the games that had a winner: it leaves out games "
     "without a winner, so it compares sides fairly when that share differs."),
    ("parity", "the share each seat or side would have if the game were fair: ½ for two "
               "teams, ¼ for four players, and so on."),
    ("pp (percentage points)",
     "a difference of two shares: 20% → 22% is +2 pp. Tables show shares in % and "
     "differences in pp; the CSV files keep fractions (0.01 = 1 pp)."),
    ("[a, b]", "the 95% confidence interval. Comparisons are paired (both settings play "
               "the same deals), so small differences are still measured precisely; an "
               "interval that excludes 0 is a detected effect. Screens of many "
               "comparisons give Holm-adjusted p-values. A verdict against a margin "
               "(fair, does not matter, holds across skill) rests on the 90% interval, "
               "printed with it as “90% [a, b]”."),
    ("fair, not shown fair, unfair",
     "judged against the designer's margin (fair_margin in the experiment file, default "
     "±1 pp of share of won games) by an equivalence test (TOST): fair when the 90% "
     "interval of the distance from parity lies inside ±margin, unfair when it lies "
     "wholly beyond it, not shown fair otherwise (a difference not shown is never “no "
     "effect”). Parity per side: every side ½ (⅓ in 2v2+1) of the won games; per seat: a "
     "side's share of won games against its seats' share of the table, size/n (2v3: ⅖ "
     "and ⅗; 2v2+1: ⅖, ⅖, ⅕), since each of its seats wins when it wins; the margin is the "
     "same."),
    ("does not matter, matters, not shown either way",
     "a rule variant against the default, each metric against a stated margin (±1 pp of "
     "win or no-winner share, ±0.25 rounds): does not matter when every metric's 90% "
     "interval lies inside its margin (TOST), matters when one lies beyond it, not shown "
     "either way when neither is shown."),
    ("games to notice",
     "how many games people would need to detect an effect (two-sided test at 5%, power "
     "0.8, unpaired games, a win's sd √(p(1−p))), and whether 50 games would."),
    ("bots", "the players are programs of increasing skill (DĒMOS: greedy, heuristic, "
             "tuned — heuristic with parameters tuned by self-play — and apprentice, the "
             "search ismcts@256's choices learned by a fast model; the last three play a "
             "quarter of greedy's games; "
             "Protocole: random, cautious, convention, planner, ismcts@16; L'Assemblée: "
             "populations of civic, reciprocal, aggressive, free-riding or adaptive "
             "players). A finding measured at several rungs is more likely to hold for "
             "people, but a label holds for these bots only."),
    ("holds across skill, grows, shrinks, flips, uncertain",
     "the robustness analysis's skill labels of a figure over every rung it was measured "
     "at, weakest first in the order the committed bot ladder measured: holds across "
     "skill when the change from the weakest rung to the strongest and the trend over "
     "the rungs both lie inside the figure's margin (90% interval, TOST; ±1 pp for "
     "shares) and some rung detects the effect; grows or shrinks with skill when both lie "
     "beyond the margin, away from 0 or towards it; flips when two rungs detect opposite "
     "signs; no effect at any rung or not detected when no rung detects it; uncertain "
     "otherwise, with the reason (most often too few games at the strongest rung). Holm "
     "over all the figures for each kind of claim."),
]


def sections(out: Path, names: list[str]) -> list[dict]:
    """The sections written under ``out``, in the order of ``names``."""
    return [read_section(out / n) for n in names if has_section(out / n)]


def _span(values) -> str:
    vals = sorted({int(v) for v in values if v is not None})
    if not vals:
        return "no seed"
    if len(vals) <= 4:
        return ("seed " if len(vals) == 1 else "seeds ") + ", ".join(map(str, vals))
    return f"{len(vals)} seeds from {vals[0]} to {vals[-1]}"


def _games(runs: list[dict]) -> int:
    return sum(int(r["games_per_point"]) * int(r["points"]) for r in runs)


def _stamp(secs: list[dict]) -> str:
    """Contract, package version, git revision(s), seeds and games of every run."""
    runs = [r for s in secs for r in s["runs"]]
    contracts = sorted({str(r.get("contract")) for r in runs}) or ["not recorded"]
    versions = sorted({str(r.get("version")) for r in runs})
    revs = sorted({str(r.get("git_revision"))[:10] for r in runs})
    return (f"<b>Rules contract {html.escape(', '.join(contracts))}</b> · demos-sim "
            f"{html.escape(', '.join(versions))} · git {html.escape(', '.join(revs))} · "
            f"{len(runs)} runs, {_span(r['seed'] for r in runs)} · "
            f"<b>{_games(runs):,} games</b> · rebuild: <code>demos-sim analyse "
            "--report-only</code>")


def _contract_line(secs: list[dict]) -> str:
    """Which rules contract (RULES.md version) the runs of the report were played under."""
    found = sorted({str(r.get("contract")) for s in secs for r in s["runs"]})
    if found == ["None"]:
        return "Rules contract: not recorded (runs made before contracts were stamped)."
    if len(found) == 1:
        return (f"Computed under rules contract {found[0]} (RULES.md and GAME_RECORD.md "
                f"version {found[0]}).")
    return ("Runs of different rules contracts are mixed here: " + ", ".join(found)
            + " (see each section's runs).")


def _how_sure(s: dict) -> str:
    runs = s["runs"]
    if not runs:
        return "Reads the other sections' key figures (no games of its own)."
    bots = ", ".join(dict.fromkeys(r["bot"] for r in runs))
    return (f"{_games(runs):,} games in {len(runs)} runs (bots: {html.escape(bots)}; "
            f"{_span(r['seed'] for r in runs)}); every figure with its 95% interval.")


def _provenance(runs: list[dict]) -> list[list[str]]:
    rows = [["experiment", "bot", "points", "games per point", "seed", "contract", "version",
             "git revision"]]
    for r in runs:
        rows.append([r["name"], r["bot"], str(r["points"]), str(r["games_per_point"]),
                     str(r["seed"]), str(r.get("contract")), str(r["version"]),
                     str(r["git_revision"])[:10]])
    return rows


def _img(out: Path, rel: str) -> str:
    """A plot of the results folder, linked (not embedded: the page stays small and loads
    its plots from beside it), with its size so the page does not jump as it loads."""
    from PIL import Image

    with Image.open(out / rel) as im:
        w, h = im.size
    return (f'<img alt="{html.escape(Path(rel).name)}" src="{html.escape(rel)}" '
            f'width="{w}" height="{h}">')


def _says_skill(name: str) -> bool:
    """Whether the card of analysis ``name`` says if its figures depend on bot skill (not
    the robustness analysis's, whose answer is about skill: ``REPORT.skill``)."""
    rep = report(name)
    return rep is None or rep.skill


def build_analyses_report(out: str | Path, names: list[str]) -> tuple[Path, Path]:
    """``<out>/report.html`` and ``report.md``: the verdict board
    (:mod:`demos_sim.report.board`), then a section per name of ``names`` (the report
    order) that has one under ``out``."""
    out = Path(out)
    secs = sections(out, names)
    found = by_section(out)          # the README's "What we found", sentence for sentence
    heads = {s["name"]: headline(out, s, found) for s in secs}
    skills = {s["name"]: skill(out, s["name"], heads[s["name"]].figures)
              if _says_skill(s["name"]) else ("meta", "") for s in secs}
    plots = {(s["name"], f) for s in secs for f in s["figures"]
             if (out / s["name"] / f).exists()}
    stamp = _stamp(secs)
    rows = board_rows(out, prefix(out, repo_root(out)))

    one = _contract_line(secs)
    lead = ("Simulated games with bots; every figure is read from the analyses' tables"
            + ("." if one.startswith("Computed under") else ". " + one))   # stamp: contract
    body = [f'<p class="lead">{html.escape(lead)}</p>', board_html(rows)]
    md = [f"# {TITLE}", "", text(stamp), "", lead, "", "## The answers at a glance", ""]
    md += board_markdown(rows) + [""]

    gloss = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in GLOSSARY)
    body.append(f'<details class="gloss" id="glossary"><summary>How to read the numbers '
                f'</summary><dl>{gloss}</dl></details>')
    md += ["## How to read the numbers", ""] + [f"- **{k}**: {v}" for k, v in GLOSSARY] + [""]
    body.append('<p class="toc">Sections: ' + " · ".join(
        f'<a href="#{s["name"]}">{html.escape(s["title"])}</a>' for s in secs) + "</p>")

    for s in secs:
        name, folder, h = s["name"], out / s["name"], heads[s["name"]]
        cls, sk = skills[name]
        body += [f'<section id="{name}"><h2>{html.escape(s["title"])}</h2>',
                 f'<p class="question">{html.escape(h.question)}</p>',
                 f'<p class="answer">{h.answer}</p>', f'<p class="meta {cls}">{sk}</p>',
                 f'<p class="meta">{_how_sure(s)}</p>']
        md += [f'<a id="{name}"></a>', f"## {s['title']}", "", f"**{text(h.question)}** "
               f"{text(h.answer)}", ""] + ([f"*{text(sk)}*", ""] if sk else [])
        figs = [f for f in s["figures"] if (name, f) in plots]
        if h.key_plot in figs:                  # the key plot first
            figs.remove(h.key_plot)
            figs.insert(0, h.key_plot)
        for fig in figs:
            body.append(f"<figure>{_img(out, f'{name}/{fig}')}"
                        f"<figcaption>{html.escape(fig)}</figcaption></figure>")
            md += [f"![{fig}]({name}/{fig})", ""]
        if s["findings"]:
            body.append(html_details(
                f'All findings <span class="n">({len(s["findings"])}, as the analysis '
                "wrote them)</span>",
                "<ul>" + "".join(f"<li>{html.escape(f)}</li>" for f in s["findings"])
                + "</ul>"))
            md += ["**Findings**", ""] + [f"- {f}" for f in s["findings"]] + [""]
        if s["flags"]:
            body.append(html_details(
                f'<span class="warn">⚠ Flags</span> <span class="n">({len(s["flags"])}: '
                "conclusions to distrust)</span>",
                '<ul class="flags">' + "".join(f"<li>{html.escape(f)}</li>"
                                               for f in s["flags"]) + "</ul>"))
            md += ["**Flags**", ""] + [f"- ⚠ {f}" for f in s["flags"]] + [""]
        for t in extra_tables(s) + list(s.get("show", s["tables"])):
            df, derived_note = derived_table(out, name, t)
            if df is None:
                continue
            df, subset = shown(df, name, t)
            rows, notes = present(df, name, t, MAX_ROWS)
            more = f", first {MAX_ROWS} shown" if len(df) > MAX_ROWS else ""
            label = title(name, t)
            has_csv = (folder / f"{t}.csv").exists()
            inner = ((f'<p class="meta">The {html.escape(derived_note)}.</p>'
                      if derived_note else "")
                     + (f'<p class="meta">{html.escape(subset[0].upper() + subset[1:])}.</p>'
                        if subset else "")
                     + (f'<p class="meta">In every row: {"; ".join(notes)}.</p>' if notes
                        else "") + html_table(rows, raw=True))
            link = (f' · <a href="{name}/{t}.csv" download>CSV</a>' if has_csv
                    else " · no CSV (derived)")
            body.append(html_details(
                f'Table: {html.escape(label)} <span class="n">({len(df)} rows{more})'
                f'{link}</span>', inner))
            md += [f"### Table: {label} ({len(df)} rows{more})", "",
                   f"[{t}.csv]({name}/{t}.csv)" if has_csv else "No CSV (derived).", ""]
            if derived_note:
                md += [f"The {derived_note}.", ""]
            if subset:
                md += [subset[0].upper() + subset[1:] + ".", ""]
            if notes:
                md += ["In every row: " + text("; ".join(notes)) + ".", ""]
            md += [md_table([[text(c) for c in r] for r in rows]), ""]
        body.append(html_details("Method", f"<p>{html.escape(s['method'])}</p>"))
        md += ["**Method.** " + s["method"], ""]
        if s["runs"]:
            body.append(html_details(
                f'Runs <span class="n">({len(s["runs"])}: seeds, games, contract, '
                "version, git revision)</span>", html_table(_provenance(s["runs"]))))
            md += ["*Runs*", "", md_table(_provenance(s["runs"])), ""]
        body.append("</section>")

    page = html_page(TITLE, body, stamp, BOARD_CSS)
    html_path, md_path = out / "report.html", out / "report.md"
    atomic_write_text(md_path, "\n".join(md + ["---", "", text(stamp), ""]))
    atomic_write_text(html_path, page)
    return html_path, md_path
