"""DĒMOS speed: rounds/s and games/s on one core and on all cores, start-up, and the ratio
to a plain pure-Python reading of the same round.

    .venv/bin/python benchmarks/bench_demos.py [--games 100000] [--repeats 3] [--json]

Full rules, 4 individual players, ``greedy`` on every seat (issue #2 targets: >= 1.5 M
rounds/s on one core, >= 1.8x that on two, a second ``demos-sim simulate`` start-up
under 2 s). One-core and all-core runs are interleaved and repeated, since the second
vCPU of these machines comes and goes (PERFORMANCE.md #5): the spread is reported.
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


def _simulate(games, workers, policy="greedy", seed=1):
    from demos_sim.demos.rules import DemosConfig
    from demos_sim.runner.simulate import simulate

    r = simulate("demos", DemosConfig("full", "individual", 4), [policy], games, seed,
                 workers=workers)
    s = r.summary()
    return s["rounds_per_s"], s["games_per_s"]


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--pure-seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    cores = os.cpu_count() or 1
    one, many = [], []
    _simulate(2000, 1, a.policy)
    for _ in range(a.repeats):
        one.append(_simulate(a.games, 1, a.policy))
        if cores > 1:
            many.append(_simulate(a.games, cores, a.policy))
    from pure_python_round import rounds_per_second

    pure = rounds_per_second(a.pure_seconds)
    startup = _startup()
    r1 = statistics.median(x[0] for x in one)
    out = {
        "policy": a.policy, "games_per_run": a.games, "repeats": a.repeats, "cores": cores,
        "one_core": {"rounds_per_s": r1, "games_per_s": statistics.median(x[1] for x in one),
                     "rounds_per_s_runs": [x[0] for x in one]},
        "pure_python_rounds_per_s": pure, "speedup_vs_pure_python": r1 / pure,
        "second_start_s": startup,
    }
    if many:
        rm = statistics.median(x[0] for x in many)
        out["all_cores"] = {"rounds_per_s": rm,
                            "games_per_s": statistics.median(x[1] for x in many),
                            "rounds_per_s_runs": [x[0] for x in many],
                            "scaling": rm / r1}
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"DĒMOS full rules, 4 players, {a.policy} on every seat, {a.games} games x {a.repeats}")
    print(f"1 core : {r1:>12,.0f} rounds/s  {out['one_core']['games_per_s']:>10,.0f} games/s"
          f"   runs {', '.join(f'{x[0]:,.0f}' for x in one)}")
    if many:
        m = out["all_cores"]
        print(f"{cores} cores: {m['rounds_per_s']:>12,.0f} rounds/s  {m['games_per_s']:>10,.0f} "
              f"games/s   runs {', '.join(f'{x[0]:,.0f}' for x in many)}   "
              f"scaling {m['scaling']:.2f}x")
    print(f"pure Python reading of the same round: {pure:,.0f} rounds/s "
          f"(numba engine {r1 / pure:,.0f}x faster)")
    print(f"second `demos-sim simulate` start-up (numba cache warm): {startup:.2f} s")


if __name__ == "__main__":
    main()
