"""What an analysis writes, and how it is read back: ``<out>/<name>/``.

A section folder holds every table as ``<table>.csv``, the PNG plots, and ``section.json``
(name, title, method, findings, flags, the tables in order, the tables the report shows,
the figures, and the provenance of every run). The report, the robustness analysis and
the notebooks read sections only through :func:`read_section` and :func:`load_tables`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from demos_sim.runner.store import atomic_write_text

SECTION = "section.json"


def write_section(folder: Path, section: dict, tables: dict[str, pd.DataFrame]) -> None:
    """Write the tables (CSV) and ``section.json`` of one analysis (atomic writes)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for tname, df in tables.items():
        atomic_write_text(folder / f"{tname}.csv", df.to_csv(index=False))
    atomic_write_text(folder / SECTION, json.dumps(section, indent=1) + "\n")


def has_section(folder: Path) -> bool:
    return (Path(folder) / SECTION).exists()


def read_section(folder: Path) -> dict:
    """``section.json`` of the analysis written in ``folder``."""
    return json.loads((Path(folder) / SECTION).read_text(encoding="utf-8"))


def load_tables(folder: Path) -> dict[str, pd.DataFrame]:
    """The CSV tables an analysis wrote (what the notebooks start from)."""
    sec = read_section(folder)
    return {t: pd.read_csv(Path(folder) / f"{t}.csv") for t in sec["tables"]}
