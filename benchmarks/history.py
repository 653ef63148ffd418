"""Benchmarks as history: every benchmark run appends one line per workload to the
committed ``benchmarks/history.csv``, and :func:`main` (``make bench``) sets the figures
of the runs not yet committed next to the last committed ones.

Columns of ``history.csv``:

- ``date_utc``: when the benchmark process started (ISO 8601, UTC);
- ``revision``: ``git rev-parse --short HEAD``, ``+dirty`` when tracked files other than
  ``history.csv`` itself differ from HEAD (the figures then belong to uncommitted code);
- ``machine``: ``hostname/cpu model/ncpu``;
- ``load1``: the 1-minute load average when the process started (other processes on a
  shared machine slow a benchmark down: a figure taken at load 3 on 2 cores is not
  comparable with one taken at load 0);
- ``workload``: a stable name, e.g. ``demos/full/4p/greedy/1core``;
- ``rate``, ``unit``: the figure; ``s`` is a duration (lower is better), every other
  unit (``rounds/s``, ``games/s``, ``x`` for a ratio) is higher-is-better.

Workloads whose name ends in ``-cpu`` are timed in process CPU time instead of wall time
(one core only): they are less disturbed by other processes than the wall-time figures.

    .venv/bin/python benchmarks/history.py            # compare uncommitted runs with HEAD
"""

from __future__ import annotations

import csv
import io
import os
import platform
import socket
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Measure this tree's code, whatever checkout the environment has installed (an editable
# install of another one would otherwise be imported), in worker processes too.
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
PATH = HERE / "history.csv"
REL = "benchmarks/history.csv"
COLUMNS = ["date_utc", "revision", "machine", "load1", "workload", "rate", "unit"]
SLOW = 0.9                     # a ratio below this is flagged as a slowdown

# taken when a benchmark script imports this module, i.e. before it starts measuring
START_DATE = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
START_LOAD = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""


def revision() -> str:
    """Short HEAD revision, ``+dirty`` when tracked files (history.csv aside) differ."""
    rev = _git("rev-parse", "--short", "HEAD").strip() or "unknown"
    dirty = _git("status", "--porcelain", "--untracked-files=no", "--", ".",
                 f":(exclude){REL}").strip()
    return rev + ("+dirty" if dirty else "")


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{socket.gethostname()}/{model}/{os.cpu_count()}"


def record(rows: list[tuple[str, float, str]], path: Path = PATH) -> None:
    """Append ``(workload, rate, unit)`` rows, stamped with this run's date, revision,
    machine and start load, to ``path`` (created with a header when missing)."""
    new = not path.exists() or path.stat().st_size == 0
    rev, mach = revision(), machine()
    with open(path, "a", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS)
        for workload, rate, unit in rows:
            w.writerow([START_DATE, rev, mach, f"{START_LOAD:.2f}", workload,
                        f"{rate:.6g}", unit])


def read(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text))) if text.strip() else []


def last_by_workload(rows: list[dict]) -> dict[str, dict]:
    out = {}
    for r in rows:
        out[r["workload"]] = r          # later lines win
    return out


def speed_ratio(new: dict, old: dict) -> float:
    """new / old for rates, old / new for durations (unit ``s``): > 1 means faster."""
    a, b = float(new["rate"]), float(old["rate"])
    if new["unit"] == "s":
        return b / a if a > 0 else float("nan")
    return a / b if b > 0 else float("nan")


def compare(current: list[dict], committed: list[dict]) -> tuple[list[str], int]:
    """Lines of the comparison table and the number of flagged slowdowns. The runs not
    yet committed are the lines of ``current`` after the ``len(committed)`` first ones."""
    fresh = last_by_workload(current[len(committed):])
    base = last_by_workload(committed)
    lines = [f"{'workload':<44} {'today':>12} {'load':>5}  {'committed':>12} {'load':>5} "
             f"{'rev':>9}  {'speed':>6}"]
    flagged = 0
    for name, r in fresh.items():
        o = base.get(name)
        unit = r["unit"]
        if o is None:
            lines.append(f"{name:<44} {float(r['rate']):>12,.1f} {r['load1']:>5}  "
                         f"{'(none)':>12} {'':>5} {'':>9}  {'':>6}  {unit}")
            continue
        q = speed_ratio(r, o)
        flag = "  SLOWER" if q < SLOW else ""
        flagged += q < SLOW
        lines.append(f"{name:<44} {float(r['rate']):>12,.1f} {r['load1']:>5}  "
                     f"{float(o['rate']):>12,.1f} {o['load1']:>5} {o['revision'][:9]:>9}  "
                     f"{q:>6.2f}  {unit}{flag}")
    return lines, flagged


def main(argv=None) -> int:
    committed = read(_git("show", f"HEAD:{REL}"))
    current = read(PATH.read_text(encoding="utf-8")) if PATH.exists() else []
    if len(current) <= len(committed):
        print("no benchmark run since the last commit of benchmarks/history.csv")
        return 0
    lines, flagged = compare(current, committed)
    print(f"benchmarks of this run against the last committed ones (speed > 1: faster; "
          f"flagged below {SLOW}); load now {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores")
    print("\n".join(lines))
    if flagged:
        print(f"{flagged} workload(s) slower than {SLOW} x the committed figure: check the "
              "load columns before believing it (the -cpu lines are the least disturbed)")
    return 0


def timed(fn, *args):
    """(result of fn(*args), process CPU seconds it took)."""
    t = time.process_time()
    out = fn(*args)
    return out, time.process_time() - t


if __name__ == "__main__":
    sys.exit(main())
