"""Reading a finished run: ``meta.json`` and the two tables it vouches for.

:func:`load_results` is the one way to read what :func:`demos_sim.runner.run.run_experiment`
wrote into a results folder; it checks that ``results.parquet`` and ``histograms.parquet``
are the files ``meta.json`` describes (SHA-256), so a run stopped while writing is refused
with a one-line error instead of being reported.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from demos_sim import ConfigError
from demos_sim.runner.run import HISTOGRAMS, META, RESULTS
from demos_sim.runner.store import sha256_file


def load_results(results_dir: str | Path) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """``(meta, results, histograms)`` of a finished run; :class:`ConfigError` otherwise."""
    results_dir = Path(results_dir)
    meta_path = results_dir / META
    if not meta_path.exists():
        raise ConfigError(f"{results_dir}: no {META} (not a folder written by `demos-sim run`)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        files = meta["files"]
    except (ValueError, KeyError, TypeError) as e:
        raise ConfigError(f"{results_dir}: {META} is damaged ({type(e).__name__}: {e}); "
                          "run the experiment again") from None
    for name in (RESULTS, HISTOGRAMS):
        path = results_dir / name
        if not path.exists() or sha256_file(path) != files.get(name):
            raise ConfigError(f"{results_dir}: {name} does not match {META} "
                              "(a run stopped while writing? run it again)")
    return meta, pd.read_parquet(results_dir / RESULTS), pd.read_parquet(results_dir / HISTOGRAMS)
