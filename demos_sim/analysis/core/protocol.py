"""The analysis module protocol: what a question module declares, and what it is handed.

A question module (``demos_sim/analysis/questions/<name>.py``, listed in
:data:`demos_sim.analysis.suite.ANALYSES`) declares its runs and defines four functions;
the suite (:mod:`demos_sim.analysis.suite`) does every run, and the module only computes::

    TITLE = "Veto value"
    METHOD = "one paragraph: what is compared, on which deals, which interval"
    SHOW = ["veto_value", …]              # optional: tables shown in the report (default all)

    # declared runs (all optional)
    EXPERIMENTS = ["veto_individual_3p", …]        # experiment files in experiments/analyses/
    RUNGS = {"greedy": 1.0, "heuristic": 0.25}     # bot -> share of the file's games
    EXPERIMENT_RUNGS = {"x": {"convention": 1.0}}  # per file, instead of RUNGS
    TUNES = [Tune("tuning_example", quick_final=8)]  # tune files (demos-sim tune)
    READS_KEY_FIGURES = True               # the other sections' key figures (robustness)

    def tables(runs: Runs) -> dict[str, pandas.DataFrame]: ...
    def plots(tables: dict, folder: Path) -> list[str]: ...      # PNG files written
    def findings(tables: dict) -> tuple[list[str], list[str]]: ... # (findings, flags)
    def key_figures(tables: dict) -> pandas.DataFrame: ...        # optional: COLUMNS of
                                                                  # core.key_figures

An experiment file says ``{bot}`` where the policy goes; the suite runs it at every rung
(:func:`demos_sim.runner.experiment.load_experiment` substitutes the bot), every grid point
on the same deals, and hands the runner's tables to ``tables`` as a :class:`Run` per
(file, bot). A :class:`Tune` is run by the tuner at one rung (:class:`TuneRun`: its
summary and its CSV tables). ``tables`` may play follow-up games that depend on what the
declared runs found (a fresh-deal check of the options it picked, the best setting
replayed by another bot), with ``runs.workers`` processes on ``runs.backend`` (local or
Dask, at ``runs.scheduler``); it never starts a declared run
itself. ``plots``, ``findings`` and ``key_figures`` read only the tables, so the notebooks
redraw a section from its committed CSV files.

What the report shows of it, the module declares once, as ``REPORT`` (:class:`Report`;
optional: without it the report asks the section's title and answers with its first
finding)::

    REPORT = Report(
        question="How much is the veto worth, and to whom?",   # its section's question
        key_plot="veto_heatmap.png",                           # shown first
        answer=answer,       # (Tables) -> Finding: its paragraph of "What we found"
        notice=notice,       # (results folder) -> HTML: games people need to notice it
        rows=(Row("veto", 20, veto_row, Page("veto", "What is the veto worth?", …),
                  readme=True),),   # its rows of the verdict board (place 20), each with
                                    # its answer page; readme: one of the README's verdicts
        derived=(Derived("fairness", fairness, NOTE, source="sides"),),
    )

The report, the README's verdicts and the documentation site discover these from the
modules of :data:`demos_sim.analysis.names.ANALYSES` (:func:`check_rows` keeps their
board keys, places and page slugs distinct); the builders read the tables the suite
wrote, through :mod:`demos_sim.analysis.core.answers` and
:mod:`demos_sim.analysis.core.board`. The game whose bot ladder orders an analysis's
figures is on its line of ``names.REGISTERED`` (the core's rung order reads it). A new
analysis is one module and one line there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from demos_sim import ConfigError

EXPERIMENTS_DIR = Path(__file__).resolve().parents[3] / "experiments" / "analyses"
DEFAULT_RUNGS = {"greedy": 1.0}
# The DĒMOS bot ladder of the analyses (bot -> share of a file's games), weaker first in
# the order results/ladder measured: greedy; heuristic; tuned (heuristic's parameters tuned
# by self-play); apprentice (ismcts@256's choices learned by a linear model: it beats
# ismcts@64 0.525 [0.509, 0.541] on the ladder at about a quarter of heuristic's speed).
# The strong rungs play a quarter of greedy's games, so their intervals are about twice
# as wide. The search itself (ismcts@64, 25 games/s a core) played a 256th of the games
# here until the apprentice carried its strength at 90 times its speed.
DEMOS_RUNGS = {"greedy": 1.0, "heuristic": 0.25, "tuned": 0.25, "apprentice": 0.25}
# the sentence the DĒMOS sections' methods give their bots
DEMOS_BOTS = ("greedy; heuristic, tuned and apprentice — ismcts@256's choices learned — "
              "at a quarter of the games: the ladder's rungs, weaker first")
QUICK_MIN_GAMES = 4      # a quick run's (--games N) smallest rung, games per point
REQUIRED = ("TITLE", "METHOD", "tables", "plots", "findings")
DECLARED = ("EXPERIMENTS", "RUNGS", "EXPERIMENT_RUNGS", "TUNES", "READS_KEY_FIGURES")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")       # an answer page's file name


def experiment_path(stem: str) -> Path:
    """``experiments/analyses/<stem>.toml``: an analysis's experiment or tune file."""
    return EXPERIMENTS_DIR / f"{stem}.toml"


@dataclass(frozen=True)
class Tune:
    """A tune file (``demos-sim tune``, ``experiments/analyses/<file>.toml``) that the suite
    runs for an analysis, at one rung.

    With ``--games G`` (a quick look) the search plays ``G`` games per trial and the race
    ends at ``quick_final × G`` games, with at most ``quick_trials`` trials when given.
    """

    file: str
    bot: str | None = None            # default: the module's first rung
    quick_final: int = 4
    quick_trials: int | None = None


@dataclass
class Run:
    """One experiment file at one rung: the runner's tables and meta."""

    experiment: str          # file stem
    bot: str
    results: pd.DataFrame
    hists: pd.DataFrame
    meta: dict
    folder: Path

    def metric(self, name: str) -> pd.DataFrame:
        return self.results[self.results["metric"] == name]


@dataclass
class TuneRun:
    """One tune file at one rung: the tuner's summary and output folder."""

    file: str                # file stem
    bot: str
    spec: Any                # the tuner's TuneSpec, with the budget played
    summary: dict            # summary.json
    folder: Path

    def table(self, name: str) -> pd.DataFrame:
        """One of the tuner's CSV tables: trials, racing, best, importance."""
        return pd.read_csv(self.folder / f"{name}.csv")


@dataclass
class Runs:
    """What the suite hands an analysis's ``tables``: its runs, by (file, bot)."""

    items: dict[tuple[str, str], Run] = field(default_factory=dict)
    tunes: dict[tuple[str, str], TuneRun] = field(default_factory=dict)
    key_figures: pd.DataFrame | None = None   # READS_KEY_FIGURES: the other sections'
    workers: int = 1                          # processes for follow-up games
    backend: str = "local"                    # where they play: local or dask
    scheduler: str | None = None              # a Dask scheduler's address (dask)

    def get(self, experiment: str, bot: str) -> Run:
        return self.items[(experiment, bot)]

    def bots(self, experiment: str) -> list[str]:
        return [b for (e, b) in self.items if e == experiment]

    def results(self, experiment: str, metric: str | None = None) -> pd.DataFrame:
        """Results of every rung of ``experiment`` with a ``bot`` column."""
        parts = []
        for (e, b), run in self.items.items():
            if e == experiment:
                df = run.results if metric is None else run.metric(metric)
                parts.append(df.assign(bot=b))
        if not parts:
            raise KeyError(experiment)
        return pd.concat(parts, ignore_index=True)

    def hists(self, experiment: str, metric: str | None = None) -> pd.DataFrame:
        parts = []
        for (e, b), run in self.items.items():
            if e == experiment:
                h = run.hists
                parts.append((h if metric is None else h[h["metric"] == metric]).assign(bot=b))
        return pd.concat(parts, ignore_index=True)

    def tune(self, file: str, bot: str | None = None) -> TuneRun:
        """The run of tune file ``file`` (at ``bot``; by default its only rung)."""
        if bot is not None:
            return self.tunes[(file, bot)]
        found = [t for (f, _), t in self.tunes.items() if f == file]
        if len(found) != 1:
            raise KeyError(file)
        return found[0]

    def provenance(self) -> list[dict]:
        """Seed, size, contract, version and git revision of every run (``section.json``)."""
        out = []
        for (e, b), run in self.items.items():
            m = run.meta
            out.append({"experiment": e, "bot": b, "name": m["experiment"]["name"],
                        "seed": m["seed"], "games_per_point": m["games_per_point"],
                        "points": len(m["points"]), "contract": m.get("contract"),
                        "version": m.get("version"),
                        "git_revision": m.get("git_revision"),
                        "wall_s": m.get("wall_s")})
        for (f, b), t in self.tunes.items():
            s = t.summary
            out.append({"experiment": f, "bot": b, "name": s["name"], "seed": s["seed"],
                        "games_per_point": t.spec.games,
                        "points": s["search"]["distinct_points"],
                        "contract": s.get("contract"), "version": s["version"],
                        "git_revision": s["git_revision"], "wall_s": s["wall_s"]})
        return out


# ----------------------------------------------------------- what the report shows
@dataclass(frozen=True)
class Part:
    """The statements of an analysis's "What we found" paragraph an answer page shows:
    all of them, or those read from ``tables`` (file stems)."""

    section: str                        # an analysis (its folder under results/analyses)
    tables: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """An answer page of the documentation site (``questions/<slug>.md``): the question,
    one sentence of what it answers, its plots (``"<analysis>/<file>.png"``, the key plot
    first), the analyses' statements it quotes (``parts``; default: every statement of the
    declaring analysis) and, where a page shows more, ``extra(results folder)``: Markdown
    and the files of the folder it links, or None."""

    slug: str
    title: str
    lead: str
    plots: tuple[str, ...] = ()
    parts: tuple[Part, ...] = ()
    extra: Callable[[Path], tuple[str, tuple[str, ...]] | None] | None = None


@dataclass(frozen=True)
class Row:
    """A row of the verdict board: ``build(tables)`` returns a
    :class:`demos_sim.analysis.core.board.BoardRow` (or None when its tables are
    missing); ``place`` orders the board (smaller first); ``readme``: one of the README's
    headline verdicts (in board order); ``page``: its answer page on the site."""

    key: str
    place: int
    build: Callable
    page: Page
    readme: bool = False


SITE_DATA = "data"       # the site folder where answer pages find the plots and tables
DERIVED_NOTE = ("is derived by the report from the committed {src} (the section predates "
                "it), with the default margin of fair, ±1 pp")


@dataclass(frozen=True)
class Derived:
    """A table the report derives for sections written before the analysis computed it
    (:mod:`demos_sim.report.derived`): ``compute`` of the ``source`` table when the table
    is missing, or of the table itself when it lacks column ``lacks``; ``note`` says so
    above it."""

    table: str
    compute: Callable[[pd.DataFrame], pd.DataFrame]
    note: str
    source: str | None = None
    lacks: str | None = None


@dataclass(frozen=True)
class Report:
    """What the report, the README and the site show of an analysis (``REPORT``): the
    question its section asks and its key plot; ``answer(tables)``, its paragraph of "What
    we found" (a :class:`demos_sim.analysis.core.answers.Finding`, None: none);
    ``notice(results folder)``, the games people would need to notice its effect (HTML,
    '' when its figures are missing); its board rows; the tables the report derives;
    ``skill``: whether its card says if its figures depend on bot skill (the robustness
    analysis's answer is about skill)."""

    question: str
    key_plot: str | None = None
    answer: Callable | None = None
    notice: Callable[[Path], str] | None = None
    rows: tuple[Row, ...] = ()
    derived: tuple[Derived, ...] = ()
    skill: bool = True


def rungs(module, experiment: str) -> dict[str, float]:
    """The rungs (bot -> share of the file's games) at which ``module`` runs a file."""
    return (getattr(module, "EXPERIMENT_RUNGS", {}).get(experiment)
            or getattr(module, "RUNGS", DEFAULT_RUNGS))


def quick_games(module, experiment: str, games: int) -> dict[str, int]:
    """Games per point of each rung in a quick run (``--games N``): N at the rung of the
    largest share, the others in proportion to their shares (at least
    :data:`QUICK_MIN_GAMES`), so a quick run keeps the full run's proportions."""
    rs = rungs(module, experiment)
    top = max(rs.values())
    return {b: max(QUICK_MIN_GAMES, round(games * s / top)) for b, s in rs.items()}


def tunes(module) -> list[Tune]:
    """The module's tune files, each with its rung (default: the first of RUNGS)."""
    first = next(iter(getattr(module, "RUNGS", DEFAULT_RUNGS)))
    return [t if t.bot is not None else Tune(t.file, first, t.quick_final, t.quick_trials)
            for t in getattr(module, "TUNES", [])]


def check(name: str, module) -> None:
    """:class:`ConfigError` when ``module`` does not follow the protocol."""
    missing = [a for a in REQUIRED if not hasattr(module, a)]
    if missing:
        raise ConfigError(f"analysis {name}: {module.__name__} lacks {', '.join(missing)}")
    for t in getattr(module, "TUNES", []):
        if not isinstance(t, Tune):
            raise ConfigError(f"analysis {name}: TUNES holds {t!r}, not a Tune")
    if hasattr(module, "REPORT"):
        check_report(name, module.REPORT)


def check_report(name: str, rep) -> None:
    """:class:`ConfigError` when ``REPORT`` of analysis ``name`` is not a :class:`Report`
    of rows, pages and derived tables as :class:`Report` says."""
    def bad(what: str) -> ConfigError:
        return ConfigError(f"analysis {name}: REPORT {what}")

    if not isinstance(rep, Report):
        raise bad(f"is {type(rep).__name__}, not a Report")
    if not isinstance(rep.question, str) or not rep.question.strip():
        raise bad("has no question")
    if rep.key_plot is not None and not str(rep.key_plot).endswith(".png"):
        raise bad(f"key_plot {rep.key_plot!r} is not a .png file")
    for what in ("answer", "notice"):
        if getattr(rep, what) is not None and not callable(getattr(rep, what)):
            raise bad(f"{what} is not a function")
    for r in rep.rows:
        if not isinstance(r, Row):
            raise bad(f"rows holds {r!r}, not a Row")
        if not r.key or not callable(r.build) or not isinstance(r.place, int):
            raise bad(f"row {r.key!r} needs a key, an integer place and a build function")
        if not isinstance(r.page, Page) or not SLUG.match(r.page.slug):
            raise bad(f"row {r.key!r}: its page needs a slug of lower-case words and dashes")
        if r.page.extra is not None and not callable(r.page.extra):
            raise bad(f"row {r.key!r}: its page's extra is not a function")
        for part in r.page.parts:
            if not isinstance(part, Part):
                raise bad(f"row {r.key!r}: its page's parts hold {part!r}, not a Part")
    for d in rep.derived:
        if not isinstance(d, Derived) or not callable(d.compute):
            raise bad(f"derived holds {d!r}, not a Derived with a compute function")
        if (d.source is None) == (d.lacks is None):
            raise bad(f"derived table {d.table!r}: give either source or lacks")


def check_rows(reports: dict) -> None:
    """:class:`ConfigError` when two board rows of the analyses (``{name: Report}``) share
    a key, a place or a page slug."""
    seen: dict[tuple[str, object], str] = {}
    for name, rep in reports.items():
        for r in rep.rows:
            for what, value in (("key", r.key), ("place", r.place), ("page", r.page.slug)):
                if (what, value) in seen:
                    who = (f"analysis {name}" if seen[(what, value)] == name
                           else f"analyses {seen[(what, value)]} and {name}")
                    raise ConfigError(f"{who}: two board rows with {what} {value!r}")
                seen[(what, value)] = name
