"""L'Assemblée speed: games/s of 10-player games of ``civic`` bots, 1 core and all cores.

    .venv/bin/python benchmarks/bench_assemblee.py [--games 100000] [--repeats 3] [--json]

One-core and all-core runs are interleaved and repeated, since the second vCPU of these
machines comes and goes (PERFORMANCE.md #5): the median and every run are reported.
Every run appends its figures to ``benchmarks/history.csv`` (:mod:`history`): one core
in wall time and in process CPU time (``-cpu``), all cores.
Rates are measured by ``simulate`` after the kernels are warm (joblib workers).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import history  # noqa: E402  (stamps the start date and load before anything runs)

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


def _simulate(players, policy, games, workers, seed=1):
    from demos_sim.assemblee.rules import AssembleeConfig
    from demos_sim.runner.simulate import simulate

    s = simulate("assemblee", AssembleeConfig(players), [policy], games, seed,
                 workers=workers).summary()
    return s["games_per_s"], s["rounds_per_s"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--players", type=int, default=10)
    ap.add_argument("--policy", default="civic")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    cores = os.cpu_count() or 1
    _simulate(a.players, a.policy, 2000, 1)                   # compile or load the cache
    one, many = [], []
    for _ in range(a.repeats):
        (g, r), cpu = history.timed(_simulate, a.players, a.policy, a.games, 1)
        one.append((g, r, a.games / cpu))
        if cores > 1:
            many.append(_simulate(a.players, a.policy, a.games, cores))
    out = {"players": a.players, "policy": a.policy, "games_per_run": a.games, "cores": cores,
           "one_core": {"games_per_s": statistics.median(x[0] for x in one),
                        "games_per_s_runs": [x[0] for x in one],
                        "games_per_cpu_s": statistics.median(x[2] for x in one)}}
    if many:
        g = statistics.median(x[0] for x in many)
        out["all_cores"] = {"games_per_s": g, "games_per_s_runs": [x[0] for x in many],
                            "scaling": g / out["one_core"]["games_per_s"]}
    name = f"assemblee/{a.players}p/{a.policy}"
    rows = [(f"{name}/1core", out["one_core"]["games_per_s"], "games/s"),
            (f"{name}/1core-cpu", out["one_core"]["games_per_cpu_s"], "games/s")]
    if many:
        rows.append((f"{name}/{cores}core", out["all_cores"]["games_per_s"], "games/s"))
    history.record(rows)
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"L'Assemblée, {a.players} players, {a.policy}, {a.games} games x {a.repeats} "
          f"(median; every run listed; start load {history.START_LOAD:.2f})")
    o = out["one_core"]
    print(f"  1 core : {o['games_per_s']:>10,.0f} games/s   runs "
          f"{', '.join(f'{x:,.0f}' for x in o['games_per_s_runs'])}")
    if many:
        m = out["all_cores"]
        print(f"  {cores} cores: {m['games_per_s']:>10,.0f} games/s   runs "
              f"{', '.join(f'{x:,.0f}' for x in m['games_per_s_runs'])}   scaling "
              f"{m['scaling']:.2f}x")


if __name__ == "__main__":
    main()
