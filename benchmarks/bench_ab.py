"""A/B speed of the working tree against a git revision, in alternating runs.

    .venv/bin/python benchmarks/bench_ab.py --base REV [--policies greedy,random,heuristic]
        [--games 10000] [--pairs 5] [--rules full] [--startup]

The revision is exported (``git archive``, nothing in the repository changes) to
``/tmp/demos-sim-ab-REV`` (kept, so its numba cache is warm the next time). Each pair
of runs plays the same games (DĒMOS, 4 players, the policy on every seat, ``play_batch``
directly) once in a fresh process of each tree, in alternating order, timed in process
CPU time; the ratio of each pair is one measurement. On a shared machine the absolute
rates move with the load, but both trees see nearly the same load within a pair, so the
median ratio is the figure to trust (its range is printed too). Every run appends the
median ratios (unit ``x``, workload ``ab/…/over-REV``) and the working tree's best rates
to ``benchmarks/history.csv``. With ``--startup`` also the wall time of a second
``demos-sim simulate --games 10`` (numba cache warm) in alternating pairs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import history  # noqa: E402  (stamps the start date and load before anything runs)

WORKER = r"""
import json, sys, time, warnings
warnings.filterwarnings("ignore")
import numpy as np
from demos_sim.demos import engine as E
from demos_sim.demos import layout as L
from demos_sim.demos.policies import resolve
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import policy_tuple
from demos_sim.sim_common import chunk_game_keys

pols, games, rules, reps = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
config = DemosConfig(rules, "individual", 4)
out = {}
for name in pols:
    fns, params = policy_tuple(resolve([name], 4))
    keys = chunk_game_keys(1, 0, 0, games)
    res = np.zeros((games, L.RES_LEN), np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_batch(fns, config.to_array(), params, keys[:50], res[:50], diag)   # warm
    best = 0.0
    for _ in range(reps):
        res[:] = 0
        t0 = time.process_time()
        E.play_batch(fns, config.to_array(), params, keys, res, diag)
        best = max(best, res[:, L.R_ROUNDS].sum() / (time.process_time() - t0))
    out[name] = best
print(json.dumps(out))
"""


def export(rev: str) -> Path:
    full = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    dest = Path(f"/tmp/demos-sim-ab-{full}")
    if not (dest / "demos_sim").exists():
        dest.mkdir(parents=True, exist_ok=True)
        arch = subprocess.run(["git", "archive", full], cwd=ROOT, check=True,
                              capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=arch, check=True)
    return dest


def run(tree: Path, policies: list[str], games: int, rules: str, reps: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    p = subprocess.run([sys.executable, "-c", WORKER, ",".join(policies), str(games), rules,
                        str(reps)], cwd=tree, env=env, check=True, capture_output=True,
                       text=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def startup(tree: Path) -> float:
    import time

    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-m", "demos_sim.cli", "simulate", "--games", "10", "--seed", "1"]
    t = time.perf_counter()
    subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="git revision to compare with")
    ap.add_argument("--policies", default="greedy,random,heuristic")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--reps", type=int, default=2, help="timed repeats in a run (best)")
    ap.add_argument("--rules", default="full", choices=("full", "simplified"))
    ap.add_argument("--startup", action="store_true", help="also the start-up time")
    a = ap.parse_args(argv)
    pols = a.policies.split(",")
    base = export(a.base)
    trees = {"base": base, "work": ROOT}
    for t in trees.values():                      # compile or load both caches
        run(t, pols, 50, a.rules, 1)
    ratios = {p: [] for p in pols}
    best = {k: {p: 0.0 for p in pols} for k in trees}
    for i in range(a.pairs):
        order = ("base", "work") if i % 2 == 0 else ("work", "base")
        got = {k: run(trees[k], pols, a.games, a.rules, a.reps) for k in order}
        for p in pols:
            ratios[p].append(got["work"][p] / got["base"][p])
            for k in trees:
                best[k][p] = max(best[k][p], got[k][p])
    rev = base.name.rsplit("-", 1)[1]
    print(f"DĒMOS {a.rules} rules, 4 players, {a.games} games, {a.pairs} alternating pairs "
          f"(CPU time; start load {history.START_LOAD:.2f}): working tree / {rev}")
    rows = []
    for p in pols:
        r = sorted(ratios[p])
        med = statistics.median(r)
        print(f"  {p:<10} base best {best['base'][p]:>11,.0f}  work best {best['work'][p]:>11,.0f}"
              f" rounds/s   ratio median {med:.3f} [{r[0]:.3f}, {r[-1]:.3f}]")
        rows.append((f"ab/demos/{a.rules}/4p/{p}/over-{rev}", med, "x"))
        rows.append((f"ab/demos/{a.rules}/4p/{p}/1core-cpu-best", best["work"][p], "rounds/s"))
    if a.startup:
        for t in trees.values():
            startup(t)                            # fills the caches
        st = {k: [] for k in trees}
        for i in range(a.pairs):
            for k in (("base", "work") if i % 2 == 0 else ("work", "base")):
                st[k].append(startup(trees[k]))
        q = statistics.median(w / b for w, b in zip(st["work"], st["base"]))
        print(f"  second start-up  base best {min(st['base']):.2f} s  work best "
              f"{min(st['work']):.2f} s   time ratio median {q:.3f}")
        rows.append((f"ab/demos/second-start/over-{rev}", 1 / q, "x"))
    history.record(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
