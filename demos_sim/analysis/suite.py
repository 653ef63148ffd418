"""The designer's analyses: run what each declares, build its tables, plots and findings.

``demos-sim analyse [NAME …]`` (``make analyses`` for all of them) does, for every
analysis module named in :data:`ANALYSES` (each follows the protocol of
:mod:`demos_sim.analysis.core.protocol`):

1. run each experiment file it declares (``EXPERIMENTS``, files
   ``experiments/analyses/<file>.toml``) at every rung of the bot ladder it uses (the file
   says ``{bot}`` where the policy goes), into ``<out>/runs/<experiment>-<bot>/`` with the
   experiment runner — resumable, every grid point on the same deals, paired differences
   against the block's reference;
2. run each tune file it declares (``TUNES``) with the tuner, into
   ``<out>/runs/<name>-<bot>/``; hand the other sections' key figures to a module that
   reads them (``READS_KEY_FIGURES``);
3. call the module's ``tables(runs)`` and write every table to ``<out>/<name>/<table>.csv``;
4. call ``plots(tables, folder)`` (PNG files; the notebooks call the same function on the
   committed CSV files) and ``findings(tables)``, and write ``<out>/<name>/section.json``
   (title, method, findings, flags, tables, figures, provenance of every run).

The report (:mod:`demos_sim.report.analyses`, written by the ``analyse`` command after
this) reads only those sections. Every table keeps the sample size and the 95% interval
of each figure; comparisons come from the runner's paired differences, and screens of many
comparisons carry adjusted p-values (:func:`demos_sim.analysis.core.stats.adjust`).
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path

import pandas as pd

from demos_sim import ConfigError
from demos_sim.analysis.core import protocol
from demos_sim.analysis.core.key_figures import COLUMNS, OPTIONAL
from demos_sim.analysis.core.protocol import Run, Runs, TuneRun, experiment_path
from demos_sim.analysis.core.sections import has_section, load_tables, write_section
from demos_sim.analysis.names import ANALYSES, DEFAULT_OUT  # noqa: F401  (re-exported)
from demos_sim.runner.experiment import load_experiment
from demos_sim.runner.results import load_results
from demos_sim.runner.run import run_experiment
from demos_sim.tuner.search import tune
from demos_sim.tuner.spec import load_tune


def module(name: str):
    """The question module of analysis ``name``, checked against the protocol."""
    if name not in ANALYSES:
        raise ConfigError(f"unknown analysis {name!r} (known: {', '.join(ANALYSES)})")
    mod = importlib.import_module(ANALYSES[name])
    protocol.check(name, mod)
    return mod


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, flush=True)


def run_experiments(mod, out: Path, workers: int, games: int | None, quiet: bool,
                    runs: Runs) -> None:
    """Run (or resume) every experiment of ``mod`` at every rung; load their tables."""
    for stem in getattr(mod, "EXPERIMENTS", []):
        quick = protocol.quick_games(mod, stem, games) if games is not None else {}
        for bot, share in protocol.rungs(mod, stem).items():
            exp = load_experiment(experiment_path(stem), bot=bot)
            n = quick[bot] if games is not None else max(1, round(exp.games * share))
            exp = exp.with_games(n)
            folder = out / "runs" / exp.name
            t0 = time.perf_counter()
            run_experiment(exp, out=folder, workers=workers, backend=runs.backend,
                           scheduler=runs.scheduler, quiet=True)
            _say(quiet, f"  ran {exp.name}: {len(exp.points)} point(s) x {n} games "
                        f"({time.perf_counter() - t0:.1f} s)")
            meta, results, hists = load_results(folder)
            runs.items[(stem, bot)] = Run(stem, bot, results, hists, meta, folder)


def run_tunes(mod, out: Path, workers: int, games: int | None, quiet: bool,
              runs: Runs) -> None:
    """Run every tune file of ``mod`` at its rung (``--games``: its quick budget)."""
    for t in protocol.tunes(mod):
        spec = load_tune(experiment_path(t.file), bot=t.bot)
        if games is not None:
            spec = spec.with_budget(
                trials=min(spec.trials, t.quick_trials) if t.quick_trials else None,
                games=games, final_games=t.quick_final * games)
        folder = out / "runs" / spec.name          # the name carries the bot
        s = tune(spec, out=folder, workers=workers, quiet=True, backend=runs.backend,
                 scheduler=runs.scheduler)
        _say(quiet, f"  tuned {spec.name}: {s['search']['description']}, "
                    f"{s['games_played']:,} games ({s['wall_s']:.1f} s)")
        runs.tunes[(t.file, t.bot)] = TuneRun(t.file, t.bot, spec, s, folder)


def key_figures(out: Path, but: str) -> pd.DataFrame:
    """Key figures of every analysis section written under ``out`` (except ``but``)."""
    parts = []
    for name in ANALYSES:
        if name == but or not has_section(out / name):
            continue
        mod = module(name)
        if not hasattr(mod, "key_figures"):
            continue
        kf = mod.key_figures(load_tables(out / name))
        if len(kf):
            parts.append(kf.assign(analysis=name))
    cols = ["analysis"] + COLUMNS
    if not parts:
        return pd.DataFrame(columns=cols)
    kf = pd.concat(parts, ignore_index=True)
    return kf[cols + [c for c in OPTIONAL if c in kf.columns]]   # margin/unit when given


def declared_runs(name: str, mod, out: Path, workers: int = 1, games: int | None = None,
                  quiet: bool = False, backend: str = "local",
                  scheduler: str | None = None) -> Runs:
    """Everything ``mod`` declares, run (or resumed) under ``out``, on ``backend``."""
    runs = Runs(workers=workers, backend=backend, scheduler=scheduler)
    run_experiments(mod, out, workers, games, quiet, runs)
    run_tunes(mod, out, workers, games, quiet, runs)
    if getattr(mod, "READS_KEY_FIGURES", False):
        runs.key_figures = key_figures(out, but=name)
    return runs


def section(name: str, mod, tables: dict, runs: Runs, folder: Path) -> dict:
    """Plots, findings and ``section.json`` of one analysis, with its CSV tables."""
    folder.mkdir(parents=True, exist_ok=True)
    figures = mod.plots(tables, folder)
    found, flags = mod.findings(tables)
    sec = {"name": name, "title": mod.TITLE, "method": mod.METHOD,
           "findings": list(found), "flags": list(flags), "tables": list(tables),
           "show": list(getattr(mod, "SHOW", tables)), "figures": list(figures),
           "runs": runs.provenance()}
    write_section(folder, sec, tables)
    return sec


def analyse(names: list[str] | None = None, out: str | Path = DEFAULT_OUT, workers: int = 1,
            games: int | None = None, quiet: bool = False, backend: str = "local",
            scheduler: str | None = None) -> list[dict]:
    """Run the named analyses (all by default) and write their sections: every run,
    tune and follow-up game on ``workers`` processes of ``backend`` (local, or Dask at
    ``scheduler``)."""
    out = Path(out)
    names = list(ANALYSES) if not names else names
    mods = {n: module(n) for n in names}          # unknown names fail before any run
    sections = []
    for name, mod in mods.items():
        _say(quiet, f"analysis {name}: {mod.TITLE}")
        runs = declared_runs(name, mod, out, workers, games, quiet, backend, scheduler)
        tables = mod.tables(runs)
        sections.append(section(name, mod, tables, runs, out / name))
    return sections
