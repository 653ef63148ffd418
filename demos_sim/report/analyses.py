"""The analyses report: ``<out>/report.html`` and ``report.md``, one section per analysis.

Built from what :func:`demos_sim.analysis.suite.analyse` left in ``<out>/<name>/``
(``section.json``, the CSV tables, the PNG plots), so it can be rebuilt without playing a
game (``demos-sim analyse --report-only``). Every section shows its method, its findings,
its flags (conclusions to distrust: a sign that flips between bot rungs, a level that is
not harder than the one below …), its tables with sample sizes and 95% intervals, its
plots, and the provenance of every run (experiment, bot, seed, games, rules contract,
version, git revision).
"""

from __future__ import annotations

import base64
import html
import json
import math
from pathlib import Path

import pandas as pd

from demos_sim.report.build import _CSS, _html_table, _md_table

MAX_ROWS = 80


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        if math.isnan(v):
            return ""
        if v != 0 and (abs(v) >= 1e5 or abs(v) < 1e-3):
            return f"{v:.3g}"
        return f"{v:.4f}".rstrip("0").rstrip(".") if abs(v) < 1000 else f"{v:.1f}"
    return str(v)


def _rows(df: pd.DataFrame) -> list[list[str]]:
    rows = [[str(c) for c in df.columns]]
    for rec in df.head(MAX_ROWS).itertuples(index=False):
        rows.append([_cell(v) for v in rec])
    return rows


def _provenance(runs: list[dict]) -> list[list[str]]:
    rows = [["experiment", "bot", "points", "games per point", "seed", "contract", "version",
             "git revision"]]
    for r in runs:
        rows.append([r["name"], r["bot"], str(r["points"]), str(r["games_per_point"]),
                     str(r["seed"]), str(r.get("contract")), str(r["version"]),
                     str(r["git_revision"])])
    return rows


def sections(out: Path) -> list[dict]:
    from demos_sim.analysis.suite import ANALYSES, SECTION

    found = []
    for name in ANALYSES:
        path = out / name / SECTION
        if path.exists():
            found.append(json.loads(path.read_text(encoding="utf-8")))
    return found


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


def build_analyses_report(out: str | Path) -> tuple[Path, Path]:
    from demos_sim.runner.store import atomic_write_text

    out = Path(out)
    secs = sections(out)
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
                   _md_table(_rows(df)), ""]
            body += [f"<h3>{html.escape(t)}{html.escape(more)}</h3>", _html_table(_rows(df))]
        for fig in s["figures"]:
            md += [f"![{fig}]({s['name']}/{fig})", ""]
            data = base64.b64encode((folder / fig).read_bytes()).decode("ascii")
            body.append(f'<figure><img alt="{html.escape(fig)}" '
                        f'src="data:image/png;base64,{data}"><figcaption>'
                        f"{html.escape(fig)}</figcaption></figure>")
        if s["runs"]:
            md += ["*Runs*", "", _md_table(_provenance(s["runs"])), ""]
            body += ["<h3>Runs</h3>", _html_table(_provenance(s["runs"]))]
    page = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
    html_path, md_path = out / "report.html", out / "report.md"
    atomic_write_text(md_path, "\n".join(md))
    atomic_write_text(html_path, page)
    return html_path, md_path
