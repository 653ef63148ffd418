"""The verdict board: one row per designer question, at the top of the analyses report.

Each row (:class:`BoardRow`) holds a traffic light per thing judged, one plain sentence of
at most :data:`MAX_WORDS` words with its key figure, a small plot (inline SVG, drawn by
:func:`svg`) and the chance that a group playing :data:`GROUP_GAMES` games would notice
the effect. Every figure is read from the tables the analyses wrote under the results
folder (``<out>/<analysis>/<table>.csv``), never typed: each analysis's module declares
its rows (``REPORT.rows``, :mod:`demos_sim.analysis.core.protocol`; the row types and
helpers are :mod:`demos_sim.analysis.core.board`), and :func:`board_rows`, the one source
of the board, collects them from the registered analyses in their declared places, for
the report (:func:`board_html`) and for whoever else shows the verdicts (the README, a
documentation site).

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
the ladder's order that is not a search bot: apprentice for DĒMOS, planner for
Protocole);
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
from pathlib import Path

from demos_sim import ConfigError
from demos_sim.analysis.core.answers import SEARCH, Tables
# the row types and words, re-exported for the report's readers
from demos_sim.analysis.core.board import (EFFECT, GROUP_GAMES, MAX_WORDS,  # noqa: F401
                                           TONES, WORDS, BoardRow, Est, Item, Light,
                                           noticed, pp_text)
from demos_sim.report.registered import rows as registered_rows


def _pct(p: float) -> str:
    """A probability in % for people: 0.4 → 40%, 0.003 → <1%, 0.999 → >99%."""
    if not p == p:
        return "?"
    return "<1%" if p < 0.005 else ">99%" if p > 0.995 else f"{100 * p:.0f}%"


def board_rows(results_dir: str | Path, prefix: str | None = None) -> list[BoardRow]:
    """The verdict board of the analyses under ``results_dir``: one :class:`BoardRow` per
    row the registered analyses declare whose tables are there (a row whose tables are
    missing or of another shape is left out), in their declared places. ``prefix``: how
    the rows name their files (default: ``results_dir`` as given)."""
    t = Tables(Path(results_dir), prefix if prefix is not None
               else Path(results_dir).as_posix())
    rows = []
    for name, declared in registered_rows():
        try:
            r = declared.build(t)
        except (KeyError, IndexError, ValueError, TypeError, StopIteration):
            continue
        if r is None:
            continue
        if r.key != declared.key:
            raise ConfigError(f"analysis {name}: board row {declared.key!r} built a row "
                              f"keyed {r.key!r}")
        rows.append(r)
    return rows


# ------------------------------------------------------------------------ the plot
COLOURS = {"good": "#1b7a3d", "bad": "#c0392b", "effect": "#1f5fa8", "none": "#6b7580",
           "unknown": "#c27c00"}


def svg(row: BoardRow, width: int = 260) -> str:
    """A small inline SVG: one line per item, the quoted rung's estimate as a dot with its
    interval (coloured by its verdict), the other rungs as grey ticks, the default (where
    a change was made) as a hollow circle, the ±margin as a band, 0 as a line."""
    items = [i for i in row.items if not i.at.bot.startswith(SEARCH)] or row.items
    left, right, top, line = 84, 10, 4, 15
    h = top + line * len(items) + 18
    xs = [0.0]
    for i in items:
        xs += [i.at.lo, i.at.hi] + [e.est for e in i.rungs if not e.bot.startswith(SEARCH)]
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
            if e.bot != i.at.bot and not e.bot.startswith(SEARCH):
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
        label = pp_text(v, True, 1 if abs(v) < 10 else 0) if v else "0"
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
                        f"<td>{pp_text(e.est, True, 2)} <span class=ci>[{pp_text(e.lo, True, 2)}, "
                        f"{pp_text(e.hi, True, 2)}]</span></td><td>"
                        f"{html.escape(WORDS[e.verdict][0])}</td>"
                        f"<td>{'' if e.games is None else f'{e.games:,}'}</td></tr>")
    return (f'<div class="tablebox"><table class="rungs"><thead>{head}</thead><tbody>'
            f'{"".join(body)}</tbody></table></div>')


GLOSS = {
    "pp": "percentage points: a difference of two shares, 20% → 22% is +2 pp",
    "rung": "a bot of a given skill (DĒMOS: greedy < heuristic < tuned < apprentice); "
            "the board quotes the strongest that played every game",
    "apprentice": "the strongest DĒMOS rung: the search bot ismcts@256's choices (256 "
                  "playouts a move), learned by a fast model",
    "ismcts@16": "Protocole's search bot (information-set Monte Carlo tree search, 16 "
                 "playouts a move): its strongest rung, with few games",
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
           f"(Protocole's search bot {_abbr('ismcts@16')} plays fewer); plots: its estimate "
           "and interval, grey ticks the other rungs, green band the margin. "
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
