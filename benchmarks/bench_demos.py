"""DĒMOS speed: rounds/s and games/s on one core and on all cores, start-up, and the ratio
to a plain pure-Python reading of the same round.

    .venv/bin/python benchmarks/bench_demos.py [--games 100000] [--repeats 3] [--json]
        [--policies greedy,random,heuristic] [--pure-seconds 3] [--no-startup]

Full rules, 4 individual players, ``greedy`` on every seat (targets: >= 1.5 M
rounds/s on one core, >= 1.8x that on two, a second ``demos-sim simulate`` start-up
under 2 s). One-core and all-core runs are interleaved and repeated, since the second
vCPU of these machines comes and goes (PERFORMANCE.md #5): the spread is reported.
Every run appends its figures to ``benchmarks/history.csv`` (:mod:`history`): per policy
the one-core rate in wall time and in process CPU time (``-cpu``, less disturbed by other
processes), the all-core rate; the pure-Python rate and the start-up time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import history  # noqa: E402  (stamps the start date and load before anything runs)


def _simulate(games, workers, policy="greedy", seed=1):
    from demos_sim.demos.rules import DemosConfig
    from demos_sim.runner.simulate import simulate

    r = simulate("demos", DemosConfig("full", "individual", 4), [policy], games, seed,
                 workers=workers)
    s = r.summary()
    return s["rounds_per_s"], s["games_per_s"], s["rounds"]


def _one_core(games, policy):
    """(rounds/s wall, games/s wall, rounds/s in process CPU time) on one core."""
    (rps, gps, rounds), cpu = history.timed(_simulate, games, 1, policy)
    return rps, gps, rounds / cpu


def _startup(runs=3):
    exe = Path(sys.executable).with_name("demos-sim")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "demos_sim.cli"]
    cmd += ["simulate", "--games", "10", "--seed", "1"]
    subprocess.run(cmd, capture_output=True, check=True)  # fills the numba cache
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    return min(times)


def _policy_run(a, policy, cores):
    _simulate(2000, 1, policy)                                # compile or load the cache
    one, many = [], []
    for _ in range(a.repeats):
        one.append(_one_core(a.games, policy))
        if cores > 1:
            many.append(_simulate(a.games, cores, policy))
    r1 = statistics.median(x[0] for x in one)
    out = {"policy": policy,
           "one_core": {"rounds_per_s": r1, "games_per_s": statistics.median(x[1] for x in one),
                        "rounds_per_s_runs": [x[0] for x in one],
                        "rounds_per_cpu_s": statistics.median(x[2] for x in one)}}
    if many:
        rm = statistics.median(x[0] for x in many)
        out["all_cores"] = {"rounds_per_s": rm,
                            "games_per_s": statistics.median(x[1] for x in many),
                            "rounds_per_s_runs": [x[0] for x in many],
                            "scaling": rm / r1}
    return out, one, many


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--policies", default=None,
                    help="comma-separated policies, each on every seat (default: --policy)")
    ap.add_argument("--pure-seconds", type=float, default=3.0,
                    help="seconds of the pure-Python reference (0: skip it)")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up timing")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    cores = os.cpu_count() or 1
    policies = (a.policies or a.policy).split(",")
    runs = [_policy_run(a, p, cores) for p in policies]
    pure = None
    if a.pure_seconds > 0:
        from pure_python_round import rounds_per_second

        pure = rounds_per_second(a.pure_seconds)
    startup = None if a.no_startup else _startup()
    rows = []
    for w, _, _ in runs:
        name = f"demos/full/4p/{w['policy']}"
        rows.append((f"{name}/1core", w["one_core"]["rounds_per_s"], "rounds/s"))
        rows.append((f"{name}/1core-cpu", w["one_core"]["rounds_per_cpu_s"], "rounds/s"))
        if "all_cores" in w:
            rows.append((f"{name}/{cores}core", w["all_cores"]["rounds_per_s"], "rounds/s"))
    if pure is not None:
        rows.append(("demos/full/4p/greedy/pure-python", pure, "rounds/s"))
    if startup is not None:
        rows.append(("demos/second-start", startup, "s"))
    history.record(rows)
    out = {"games_per_run": a.games, "repeats": a.repeats, "cores": cores,
           "workloads": [w for w, _, _ in runs], "pure_python_rounds_per_s": pure,
           "second_start_s": startup}
    if pure is not None:
        out["speedup_vs_pure_python"] = runs[0][0]["one_core"]["rounds_per_s"] / pure
    if a.json:
        print(json.dumps(out, indent=1))
        return
    for w, one, many in runs:
        r1 = w["one_core"]["rounds_per_s"]
        print(f"DĒMOS full rules, 4 players, {w['policy']} on every seat, {a.games} games x "
              f"{a.repeats} (start load {history.START_LOAD:.2f})")
        print(f"1 core : {r1:>12,.0f} rounds/s  {w['one_core']['games_per_s']:>10,.0f} games/s"
              f"   runs {', '.join(f'{x[0]:,.0f}' for x in one)}   "
              f"CPU time {w['one_core']['rounds_per_cpu_s']:,.0f} rounds/s")
        if many:
            m = w["all_cores"]
            print(f"{cores} cores: {m['rounds_per_s']:>12,.0f} rounds/s  {m['games_per_s']:>10,.0f} "
                  f"games/s   runs {', '.join(f'{x[0]:,.0f}' for x in many)}   "
                  f"scaling {m['scaling']:.2f}x")
    if pure is not None:
        r1 = runs[0][0]["one_core"]["rounds_per_s"]
        print(f"pure Python reading of the same round: {pure:,.0f} rounds/s "
              f"(numba engine, {runs[0][0]['policy']}, {r1 / pure:,.0f}x faster)")
    if startup is not None:
        print(f"second `demos-sim simulate` start-up (numba cache warm): {startup:.2f} s")


if __name__ == "__main__":
    main()
