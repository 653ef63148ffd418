"""The designer's analyses: run their experiments, build their tables, plots and findings.

``demos-sim analyse [NAME …]`` (``make analyses`` for all of them) does, for every
analysis module named in :data:`ANALYSES`:

1. run each experiment file it names (``experiments/analyses/<file>.toml``) at every rung
   of the bot ladder the analysis uses (the file says ``{bot}`` where the policy goes;
   :func:`demos_sim.runner.experiment.load_experiment` substitutes it), into
   ``<out>/runs/<experiment>-<bot>/`` with the experiment runner — resumable, every
   grid point on the same deals, paired differences against the block's reference;
2. call the module's ``tables(runs)`` and write every table to ``<out>/<name>/<table>.csv``;
3. call ``plots(tables, folder)`` (PNG files; the notebooks call the same function on the
   committed CSV files) and ``findings(tables)``, and write ``<out>/<name>/section.json``
   (title, method, findings, flags, tables, figures, provenance of every run);
4. write ``<out>/report.html`` and ``<out>/report.md`` with one section per analysis
   (:mod:`demos_sim.report.analyses`).

An analysis module defines::

    TITLE = "Veto value"
    METHOD = "one paragraph: what is compared, on which deals, which interval"
    EXPERIMENTS = ["veto_individual", "veto_teams"]     # files in experiments/analyses/
    RUNGS = {"greedy": 1.0, "heuristic": 0.25}         # bot -> share of the file's games
    EXPERIMENT_RUNGS = {"x_protocole": {"convention": 1.0}}   # optional, per file
    def tables(runs: Runs) -> dict[str, pandas.DataFrame]: ...
    def plots(tables: dict, folder: Path) -> list[str]: ...   # PNG file names written
    def findings(tables: dict) -> tuple[list[str], list[str]]:  # (findings, flags)
    def key_figures(tables: dict) -> pandas.DataFrame   # optional: figure, rung, mean,
                                                         # ci_low, ci_high (item 8)

Every table keeps the sample size and the 95% interval of each figure; comparisons come
from the runner's paired differences, and screens of many comparisons carry adjusted
p-values (:func:`demos_sim.analysis.stats.adjust`).
"""

from __future__ import annotations

import importlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from demos_sim import ConfigError

# name -> module, in report order
ANALYSES = {
    "veto": "demos_sim.analysis.veto",
    "media": "demos_sim.analysis.media",
    "teams": "demos_sim.analysis.teams",
    "protocole_levels": "demos_sim.analysis.protocole_levels",
    "game_shape": "demos_sim.analysis.game_shape",
    "tuning": "demos_sim.analysis.tuning",
    "variants": "demos_sim.analysis.variants",
    "assemblee": "demos_sim.analysis.assemblee",
    "robustness": "demos_sim.analysis.robustness",   # last: it reads the other sections
}
EXPERIMENTS_DIR = Path(__file__).resolve().parent.parent.parent / "experiments" / "analyses"
DEFAULT_OUT = Path("results") / "analyses"
SECTION = "section.json"


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
class Runs:
    """The runs of one analysis, by (experiment, bot)."""

    items: dict[tuple[str, str], Run] = field(default_factory=dict)

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

    def provenance(self) -> list[dict]:
        out = []
        for (e, b), run in self.items.items():
            m = run.meta
            out.append({"experiment": e, "bot": b, "name": m["experiment"]["name"],
                        "seed": m["seed"], "games_per_point": m["games_per_point"],
                        "points": len(m["points"]), "contract": m.get("contract"),
                        "version": m.get("version"),
                        "git_revision": m.get("git_revision"),
                        "wall_s": m.get("wall_s")})
        return out


def module(name: str):
    if name not in ANALYSES:
        raise ConfigError(f"unknown analysis {name!r} (known: {', '.join(ANALYSES)})")
    return importlib.import_module(ANALYSES[name])


def experiment_path(stem: str) -> Path:
    return EXPERIMENTS_DIR / f"{stem}.toml"


def run_experiments(mod, out: Path, workers: int, games: int | None, quiet: bool) -> Runs:
    """Run (or resume) every experiment of ``mod`` at every rung; load their tables."""
    from demos_sim.report.build import _load
    from demos_sim.runner.experiment import load_experiment
    from demos_sim.runner.run import run_experiment

    runs = Runs()
    for stem in getattr(mod, "EXPERIMENTS", []):
        rungs = getattr(mod, "EXPERIMENT_RUNGS", {}).get(stem) or getattr(
            mod, "RUNGS", {"greedy": 1.0})
        for bot, share in rungs.items():
            exp = load_experiment(experiment_path(stem), bot=bot)
            n = games if games is not None else max(1, round(exp.games * share))
            exp = exp.with_games(n)
            folder = out / "runs" / exp.name
            t0 = time.perf_counter()
            run_experiment(exp, out=folder, workers=workers, quiet=True)
            if not quiet:
                print(f"  ran {exp.name}: {len(exp.points)} point(s) x {n} games "
                      f"({time.perf_counter() - t0:.1f} s)", flush=True)
            meta, results, hists = _load(folder)
            runs.items[(stem, bot)] = Run(stem, bot, results, hists, meta, folder)
    return runs


def write_section(name: str, mod, tables: dict, runs: Runs | None, folder: Path) -> dict:
    """CSV tables, plots and ``section.json`` of one analysis (atomic writes)."""
    from demos_sim.runner.store import atomic_write_text

    folder.mkdir(parents=True, exist_ok=True)
    for tname, df in tables.items():
        atomic_write_text(folder / f"{tname}.csv", df.to_csv(index=False))
    figures = mod.plots(tables, folder)
    found, flags = mod.findings(tables)
    section = {"name": name, "title": mod.TITLE, "method": mod.METHOD,
               "findings": list(found), "flags": list(flags), "tables": list(tables),
               "show": list(getattr(mod, "SHOW", tables)), "figures": list(figures),
               "runs": runs.provenance() if runs is not None else []}
    atomic_write_text(folder / SECTION, json.dumps(section, indent=1) + "\n")
    return section


def load_tables(folder: Path) -> dict[str, pd.DataFrame]:
    """The CSV tables an analysis wrote (what the notebooks start from)."""
    sec = json.loads((Path(folder) / SECTION).read_text(encoding="utf-8"))
    return {t: pd.read_csv(Path(folder) / f"{t}.csv") for t in sec["tables"]}


def analyse(names: list[str] | None = None, out: str | Path = DEFAULT_OUT, workers: int = 1,
            games: int | None = None, quiet: bool = False, report: bool = True) -> list[dict]:
    """Run the named analyses (all by default) and write their sections and the report."""
    out = Path(out)
    names = list(ANALYSES) if not names else names
    mods = {n: module(n) for n in names}          # unknown names fail before any run
    sections = []
    for name, mod in mods.items():
        if not quiet:
            print(f"analysis {name}: {mod.TITLE}", flush=True)
        if hasattr(mod, "build"):                 # analyses that drive their own runs
            tables, runs = mod.build(out, workers=workers, games=games, quiet=quiet)
        else:
            runs = run_experiments(mod, out, workers, games, quiet)
            tables = mod.tables(runs)
        sections.append(write_section(name, mod, tables, runs, out / name))
    if report:
        from demos_sim.report.analyses import build_analyses_report

        build_analyses_report(out)
    return sections
