"""The analyses report: ``<out>/report.html`` and ``report.md``, one section per analysis.

Built only from what :func:`demos_sim.analysis.suite.analyse` left in ``<out>/<name>/``
(``section.json``, the CSV tables, the PNG plots, read with
:mod:`demos_sim.analysis.core.sections`), so it can be rebuilt without playing a game
(``demos-sim analyse --report-only``). Every section shows its method, its findings,
its flags (conclusions to distrust: a sign that flips between bot rungs, a level that is
not harder than the one below …), its tables with sample sizes and 95% intervals, its
plots, and the provenance of every run (experiment, bot, seed, games, rules contract,
version, git revision).
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from demos_sim.analysis.core.formatting import cell
from demos_sim.analysis.core.sections import has_section, read_section
from demos_sim.report.markup import html_figure, html_page, html_table, md_table
from demos_sim.runner.store import atomic_write_text

MAX_ROWS = 80


def _rows(df: pd.DataFrame) -> list[list[str]]:
    rows = [[str(c) for c in df.columns]]
    for rec in df.head(MAX_ROWS).itertuples(index=False):
        rows.append([cell(v) for v in rec])
    return rows


def _provenance(runs: list[dict]) -> list[list[str]]:
    rows = [["experiment", "bot", "points", "games per point", "seed", "contract", "version",
             "git revision"]]
    for r in runs:
        rows.append([r["name"], r["bot"], str(r["points"]), str(r["games_per_point"]),
                     str(r["seed"]), str(r.get("contract")), str(r["version"]),
                     str(r["git_revision"])])
    return rows


def sections(out: Path, names: list[str]) -> list[dict]:
    """The sections written under ``out``, in the order of ``names``."""
    return [read_section(out / n) for n in names if has_section(out / n)]


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


def build_analyses_report(out: str | Path, names: list[str]) -> tuple[Path, Path]:
    """``<out>/report.html`` and ``report.md``: a section per name of ``names`` (the report
    order) that has one under ``out``."""
    out = Path(out)
    secs = sections(out, names)
    title = "demos-sim — the designer's analyses"
    intro = ("Each section answers one of the designer's questions. Every figure carries "
             "its sample size and a 95% confidence interval; comparisons between settings "
             "are paired (the same deals, common random numbers) and report the paired "
             "difference with its interval; where many comparisons are screened at once, "
             "the section says which multiple-testing correction it applies. Regenerate "
             "with `make analyses` (or `demos-sim analyse`). " + _contract_line(secs))
    md = [f"# {title}", "", intro, "", "Sections: " + ", ".join(
        f"[{s['title']}](#{s['name']})" for s in secs), ""]
    body = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(intro)}</p>", "<ul>"]
    body += [f'<li><a href="#{s["name"]}">{html.escape(s["title"])}</a></li>' for s in secs]
    body.append("</ul>")
    for s in secs:
        folder = out / s["name"]
        md += [f'<a id="{s["name"]}"></a>', f"## {s['title']}", "", s["method"], ""]
        body += [f'<h2 id="{s["name"]}">{html.escape(s["title"])}</h2>',
                 f"<p>{html.escape(s['method'])}</p>"]
        if s["findings"]:
            md += ["**Findings**", ""] + [f"- {f}" for f in s["findings"]] + [""]
            body += ["<h3>Findings</h3><ul>"] + [f"<li>{html.escape(f)}</li>"
                                                 for f in s["findings"]] + ["</ul>"]
        if s["flags"]:
            md += ["**Flags**", ""] + [f"- ⚠ {f}" for f in s["flags"]] + [""]
            body += ['<h3>Flags</h3><ul style="color:#a40">'] + [
                f"<li>{html.escape(f)}</li>" for f in s["flags"]] + ["</ul>"]
        for t in s.get("show", s["tables"]):
            path = folder / f"{t}.csv"
            if not path.exists():
                continue
            df = pd.read_csv(path)
            more = f" (first {MAX_ROWS} of {len(df)} rows)" if len(df) > MAX_ROWS else ""
            md += [f"### {t}{more}", "", f"[{t}.csv]({s['name']}/{t}.csv)", "",
                   md_table(_rows(df)), ""]
            body += [f"<h3>{html.escape(t)}{html.escape(more)}</h3>", html_table(_rows(df))]
        for fig in s["figures"]:
            md += [f"![{fig}]({s['name']}/{fig})", ""]
            body.append(html_figure((folder / fig).read_bytes(), fig, fig))
        if s["runs"]:
            md += ["*Runs*", "", md_table(_provenance(s["runs"])), ""]
            body += ["<h3>Runs</h3>", html_table(_provenance(s["runs"]))]
    page = html_page(title, body)
    html_path, md_path = out / "report.html", out / "report.md"
    atomic_write_text(md_path, "\n".join(md))
    atomic_write_text(html_path, page)
    return html_path, md_path
