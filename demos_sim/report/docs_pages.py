"""The documentation site's answer pages: one page per designer question, generated from
the committed analyses (``results/analyses/<analysis>/``), never typed.

Each page is Markdown for mkdocs (the site's hook, ``docs/hooks/generate.py``, adds them
when the site is built): the question, the answer as the sentences of "What we found"
(:func:`demos_sim.report.findings.build`, the one source of the README's block and the
report's summary, so the three cannot drift apart), the plots of the analyses it rests
on, each analysis's own findings and method (``section.json``) and its tables as CSV
downloads. The Carré page adds a table read from the variant screen
(``variants/effects.csv``): the Carré at every value screened against the default, at
every bot rung.

:func:`pages` returns ``{path: content}``: the Markdown pages under ``questions/`` and the
files they show or link under ``data/`` (PNG plots and CSV tables, copied as they are).
A question whose analyses are missing says so on its page instead of failing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from demos_sim.report import findings as F

DATA = "data"                   # the site folder of the copied plots and tables


@dataclass(frozen=True)
class Part:
    section: str                        # an analysis of results/analyses/
    tables: tuple[str, ...] = ()        # keep only statements from these files (stems)


@dataclass(frozen=True)
class Question:
    slug: str
    board: str                          # its row of the report's verdict board (key)
    title: str                          # the designer's question, as the page's title
    parts: tuple[Part, ...]
    plots: tuple[str, ...]              # "<analysis>/<file>.png", the key plot first
    lead: str                           # one sentence: what the page answers


QUESTIONS: tuple[Question, ...] = (
    Question("team-modes", "teams", "Are the team modes fair?", (Part("teams"),),
             ("teams/sides.png", "teams/unfairness.png", "teams/decided_2v2p1.png",
              "teams/pairs.png"),
             "Whether 2v2, 2v3 and 2v2+1 give each side and each seat its fair part of the "
             "won games, and what change comes closest to fair where they do not."),
    Question("veto", "veto", "What is the veto worth?", (Part("veto"),),
             ("veto/veto_heatmap.png", "veto/veto_value.png", "veto/veto_dilemma.png",
              "veto/team_vetoes.png", "veto/veto_round.png"),
             "What holding a veto (D3.4.1) adds to a seat's win share, to the tuned player, "
             "and whether everyone vetoing leaves a seat worse off."),
    Question("media", "media", "What does the Media change?", (Part("media"),),
             ("media/swing.png", "media/media_dilemma.png", "media/swing_seats.png",
              "media/targeted.png", "media/variants.png"),
             "What the Media (D6) does to games without a winner, what it is worth to the "
             "player who plays it, and whether it is a social dilemma."),
    Question("carre-and-points", "carre", "What do the Carré and the point values change?",
             (Part("tuning"),),
             ("tuning/tuning_tradeoff.png", "tuning/tuning_importance.png",
              "tuning/tuning_main_effects.png"),
             "What the Carré's points (D4) and the other point values move, and which point "
             "values the tuner found closest to seat parity."),
    Question("seat-advantage", "seats", "Does the seat matter?", (Part("game_shape"),),
             ("game_shape/seat_heatmap.png", "game_shape/seat_share.png",
              "game_shape/seat_vs_skill.png", "game_shape/game_shape.png"),
             "Whether the first dealer or any other seat wins more or less than its share, "
             "and what a game looks like: its length and the games without a winner."),
    Question("protocole-levels", "levels", "Is each Protocole level harder than the one below?",
             (Part("protocole_levels"),),
             ("protocole_levels/difficulty_curves.png", "protocole_levels/outcomes.png",
              "protocole_levels/seat_edge.png", "protocole_levels/variants.png"),
             "How often a table wins each level of all together (P5), how games are lost, "
             "and the first Initiative's edge each for themselves (P4)."),
    Question("assemblee-collapse", "assemblee", "When does L'Assemblée's city collapse?",
             (Part("assemblee"),),
             ("assemblee/collapse_by_players.png", "assemblee/public_goods_10p.png",
              "assemblee/collapse_events.png", "assemblee/tuning.png"),
             "How often the city collapses (A5.3), whether free riding pays, and which "
             "collapse threshold gives a chosen collapse rate."),
    Question("what-to-change", "change", "What should change?",
             (Part("teams", ("confirm",)), Part("tuning"), Part("variants"),
              Part("assemblee", ("tune_best",))),
             ("variants/variant_effects.png", "teams/pairs.png"),
             "The changes the analyses tried that move the balance most, and the best "
             "candidates they found for the team modes, the point values and the city's "
             "collapse threshold."),
)

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


# ------------------------------------------------------------------------ the Carré
def carre_table(out: Path) -> str | None:
    """The Carré's points (D4) against the default, from the variant screen: at every rung
    and value screened, the seat whose win share moved most, the no-winner share and the
    game length, each a paired difference with its 95% interval, and the screen's verdict
    (``variants/effects.csv`` and ``summary.csv``). None when the screen has no Carré."""
    p, s = out / "variants" / "effects.csv", out / "variants" / "summary.csv"
    if not p.exists():
        return None
    ef = pd.read_csv(p)
    ef = ef[ef["variant"] == "carre_points"]
    if ef.empty:
        return None
    verdicts = {}
    if s.exists():
        sm = pd.read_csv(s)
        for r in sm[sm["variant"] == "carre_points"].itertuples():
            verdicts[(r.setup, r.bot, str(r.value))] = r.verdict
    rows = ["| setup | bot | Carré points | games | seat moved most (win share) | "
            "no-winner share | rounds a game | verdict |", "|---|---|---|---|---|---|---|---|"]
    order = ef.assign(v=pd.to_numeric(ef["value"], errors="coerce")).sort_values(
        ["setup", "rung", "v"])
    for (setup, rung, bot, value), g in order.groupby(["setup", "rung", "bot", "value"],
                                                      sort=False):
        ws = g[g["metric"] == "win_share"]
        top = ws.loc[ws["diff"].abs().idxmax()] if len(ws) else None
        seat = (f"seat {top['side']} {F.pp(top['diff'], top['diff_ci_low'], top['diff_ci_high'])}"
                if top is not None else "—")
        nw = g[g["metric"] == "no_winner"]
        nws = (F.pp(nw["diff"].iloc[0], nw["diff_ci_low"].iloc[0], nw["diff_ci_high"].iloc[0])
               if len(nw) else "—")
        rd = g[g["metric"] == "rounds"]
        rds = (F.num(rd["diff"].iloc[0], rd["diff_ci_low"].iloc[0], rd["diff_ci_high"].iloc[0],
                     digits=2) if len(rd) else "—")
        rows.append(f"| {setup} | {bot} | {value} | {F.games(g['games'].iloc[0])} | {seat} | "
                    f"{nws} | {rds} | {verdicts.get((setup, bot, str(value)), '—')} |")
    default = ""
    try:
        from demos_sim.game import get_game
        default = f" (the default is {get_game('demos').variant_defaults()['carre_points']})"
    except (KeyError, ImportError):
        pass
    return ("## The Carré's points, screened\n\n"
            f"Each Carré value against the default{default}, on the same deals at every "
            "rung (paired differences, 95% intervals; pp of all games; verdict against "
            "±1 pp of win and no-winner share and ±0.25 rounds, TOST and Holm as in [the "
            "statistics](../method/statistics.md)). From [`results/analyses/variants/"
            f"effects.csv`](../{DATA}/variants/effects.csv) and [`summary.csv`](../{DATA}/"
            "variants/summary.csv).\n\n" + "\n".join(rows))


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
    if q.slug == "carre-and-points":
        t = carre_table(out)
        if t:
            lines += [t, ""]
            files |= {"variants/effects.csv", "variants/summary.csv"}
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


def index(qs: tuple[Question, ...] = QUESTIONS, rows: dict | None = None) -> str:
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
    :data:`QUESTIONS`, and under ``data/`` the plots and tables those pages show or link,
    read from ``out`` (named ``prefix`` on the pages)."""
    out = Path(out)
    found = {f.section: f for f in F.build(out, prefix)} if out.exists() else {}
    files: set[str] = set()
    rows = board(out, prefix) if out.exists() else {}
    result: dict[str, str | bytes] = {"questions/index.md": index(QUESTIONS, rows)}
    for q in QUESTIONS:
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
