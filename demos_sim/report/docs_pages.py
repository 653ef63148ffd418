"""The documentation site's answer pages: one page per designer question, generated from
the committed analyses (``results/analyses/<analysis>/``), never typed.

Each page is Markdown for mkdocs (the site's hook, ``docs/hooks/generate.py``, adds them
when the site is built): the question, the answer as the sentences of "What we found"
(:func:`demos_sim.report.findings.build`, the one source of the README's block and the
report's summary, so the three cannot drift apart), the plots of the analyses it rests
on, each analysis's own findings and method (``section.json``) and its tables as CSV
downloads. Each page is declared once, with its row of the verdict board, by the analysis
that owns the row (``REPORT.rows``, :class:`demos_sim.analysis.core.protocol.Page`),
and a page may add more (the Carré page: a table read from the variant screen,
``variants/effects.csv``, the Carré at every value screened against the default, at every
bot rung).

:func:`pages` returns ``{path: content}``: the Markdown pages under ``questions/`` and the
files they show or link under ``data/`` (PNG plots and CSV tables, copied as they are).
A question whose analyses are missing says so on its page instead of failing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from demos_sim.analysis.core.protocol import SITE_DATA as DATA
from demos_sim.analysis.core.protocol import Part
from demos_sim.analysis.questions.variants import carre_table  # noqa: F401  (re-exported)
from demos_sim.report import findings as F
from demos_sim.report.registered import rows as registered_rows


@dataclass(frozen=True)
class Question:
    slug: str
    board: str                          # its row of the report's verdict board (key)
    title: str                          # the designer's question, as the page's title
    parts: tuple[Part, ...]
    plots: tuple[str, ...]              # "<analysis>/<file>.png", the key plot first
    lead: str                           # one sentence: what the page answers
    extra: Callable | None = None       # more Markdown and the files it links, or None


def questions() -> tuple[Question, ...]:
    """One answer page per board row the registered analyses declare, in board order
    (a page without parts quotes every statement of the analysis declaring it)."""
    return tuple(Question(r.page.slug, r.key, r.page.title, r.page.parts or (Part(name),),
                          r.page.plots, r.page.lead, r.page.extra)
                 for name, r in registered_rows())


QUESTIONS: tuple[Question, ...] = questions()

METHOD_LINKS = ("How the figures are made and read: [the statistics](../method/statistics.md) "
                "(intervals, pairing on the same deals, fair within a margin by TOST, Holm) "
                "and [the skill axis](../method/skill.md) (whether an answer holds for "
                "stronger bots).")


# ------------------------------------------------------------------------ reading
def board(out: Path, prefix: str) -> dict:
    """The verdict board's rows by key (:mod:`demos_sim.report.board`, the report's first
    screen), or nothing where this version has no board or it cannot read the tables: the
    pages then open with the findings alone."""
    try:
        from demos_sim.report import board as B

        return {r.key: (r, B) for r in B.board_rows(out, prefix)}
    except (ImportError, AttributeError, KeyError, ValueError, TypeError):
        return {}


def _glance(row, B) -> list[str]:
    """A board row as the page's first lines: its lights, its sentence, the chance a group
    would notice it, and its plot (inline SVG)."""
    try:
        lights = ", ".join((f"{li.label}: " if li.label else "") + f"**{li.word}**"
                           for li in row.lights)
        noticed = (f" A group playing {B.GROUP_GAMES} games would notice it with probability "
                   f"{100 * row.noticed:.0f}% ({row.noticed_what}).")
        plot = B.svg(row)
    except (AttributeError, KeyError, ValueError, TypeError):
        return []
    return ['!!! success "At a glance"' if not any(li.tone == "bad" for li in row.lights)
            else '!!! failure "At a glance"', "", _indent(f"{lights}. {row.sentence}{noticed}"),
            "", _indent(f'<div class="board-plot">{plot}</div>'), ""]


def _section(out: Path, name: str) -> dict | None:
    p = out / name / "section.json"
    if not p.exists():
        return None
    return json.loads(p.read_text())


def _statements(found: dict[str, F.Finding], part: Part) -> list[F.Statement]:
    f = found.get(part.section)
    if f is None:
        return []
    if not part.tables:
        return list(f.statements)
    return [s for s in f.statements if Path(s.source).stem in part.tables]


def _link(source: str, prefix: str) -> str:
    """The statement's file as a link to its copy in the site (a page of ``questions/``)."""
    rel = source[len(prefix) + 1:] if source.startswith(prefix + "/") else None
    if rel is None:
        return f"`{source}`"
    return f"[`{source}`](../{DATA}/{rel})"


def _indent(text: str, n: int = 4) -> str:
    return "\n".join((" " * n + s) if s.strip() else "" for s in text.splitlines())


# ------------------------------------------------------------------------ the pages
def _page(q: Question, out: Path, found: dict[str, F.Finding], prefix: str,
          files: set[str], rows: dict) -> str:
    lines = [f"# {q.title}", "", q.lead, ""]
    if q.board in rows:
        lines += _glance(*rows[q.board])
    said = [s for part in q.parts for s in _statements(found, part)]
    if said:
        lines += ['!!! abstract "The answer"', ""]
        lines += [_indent(f"{s.text} ({_link(s.source, prefix)}).") + "\n" for s in said]
    else:
        lines += ['!!! warning "Not measured here"', "",
                  _indent("The analyses behind this question are not in "
                          f"`{prefix}` (run `make analyses`)."), ""]
    lines += [METHOD_LINKS, ""]
    more = q.extra(out) if q.extra is not None else None
    if more:
        lines += [more[0], ""]
        files |= set(more[1])
    plots = [p for p in q.plots if (out / p).exists()]
    if plots:
        lines += ["## Plots", ""]
        for p in plots:
            lines += [f"![{p}](../{DATA}/{p})", "", f"*`{prefix}/{p}`*", ""]
            files.add(p)
    for part in dict.fromkeys(p.section for p in q.parts):
        sec = _section(out, part)
        if sec is None:
            continue
        title = sec.get("title", part)
        if sec.get("findings"):
            lines += [f'??? note "Every finding of the {title} analysis"', ""]
            lines += [_indent(f"- {x}") for x in sec["findings"]] + [""]
        if sec.get("flags"):
            lines += [f'??? warning "Flags of the {title} analysis"', ""]
            lines += [_indent(f"- {x}") for x in sec["flags"]] + [""]
        if sec.get("method"):
            lines += [f'??? info "How the {title} analysis measured it"', "",
                      _indent(sec["method"]), ""]
        csvs = sorted(f.name for f in (out / part).glob("*.csv"))
        if csvs:
            lines += [f"Tables of the {title} analysis (CSV; shares as fractions from 0 to "
                      "1, differences in the same unit): "
                      + ", ".join(f"[`{c}`](../{DATA}/{part}/{c})" for c in csvs) + ".", ""]
            files |= {f"{part}/{c}" for c in csvs}
    return "\n".join(lines).rstrip() + "\n"


def index(qs: tuple[Question, ...] | None = None, rows: dict | None = None) -> str:
    qs = questions() if qs is None else qs
    lines = ["# The designer's questions", "",
             "One page per question, each written by the site's build from the committed "
             "analyses in `results/analyses/` (`make analyses` remeasures them; no figure "
             "on these pages is typed). Each page opens with its row of the analyses "
             "report's verdict board; the README's headline verdicts are five of them.",
             ""]
    for q in qs:
        row = (rows or {}).get(q.board)
        verdict = ""
        if row is not None:
            try:
                verdict = (" " + ", ".join((f"{li.label}: " if li.label else "") + f"**{li.word}**"
                                           for li in row[0].lights) + ". " + row[0].sentence)
            except (AttributeError, KeyError, TypeError):
                verdict = ""
        lines.append(f"- [{q.title}]({q.slug}.md){verdict or ': ' + q.lead}")
    return "\n".join(lines) + "\n"


def pages(out: str | Path, prefix: str = "results/analyses") -> dict[str, str | bytes]:
    """``{site path: content}``: ``questions/index.md``, one ``questions/<slug>.md`` per
    declared page (:func:`questions`), and under ``data/`` the plots and tables those
    pages show or link, read from ``out`` (named ``prefix`` on the pages)."""
    out = Path(out)
    found = {f.section: f for f in F.build(out, prefix)} if out.exists() else {}
    files: set[str] = set()
    rows = board(out, prefix) if out.exists() else {}
    qs = questions()
    result: dict[str, str | bytes] = {"questions/index.md": index(qs, rows)}
    for q in qs:
        result[f"questions/{q.slug}.md"] = _page(q, out, found, prefix, files, rows)
    for s in found.values():
        for st in s.statements:
            if st.source.startswith(prefix + "/"):
                files.add(st.source[len(prefix) + 1:])
    for f in sorted(files):
        if (out / f).is_file():
            result[f"{DATA}/{f}"] = (out / f).read_bytes()
    return result


def findings_markdown(out: str | Path, sections: tuple[str, ...],
                      prefix: str = "results/analyses") -> str:
    """The "What we found" sentences of ``sections`` for a page one folder down (the method
    pages quote the skill labels), each file linked to its copy in the site."""
    found = {f.section: f for f in F.build(Path(out), prefix)} if Path(out).exists() else {}
    return "\n\n".join(f"{s.text} ({_link(s.source, prefix)})."
                       for name in sections if name in found
                       for s in found[name].statements)
