"""Protocole speed: games/s on one core and on all cores.

    .venv/bin/python benchmarks/bench_protocole.py [--games 200000] [--repeats 3] [--json]

Two workloads: 4-player each-for-themselves with ``cautious`` on every seat
(target >= 100,000 games/s on one core) and 4-player all-together level 2 with
``convention``. One-core and all-core runs are interleaved and repeated, since the
second vCPU of these machines comes and goes (PERFORMANCE.md #5): the median and every
run are reported. Rates are measured by ``simulate`` after the kernels are warm.
Every run appends its figures to ``benchmarks/history.csv`` (:mod:`history`): one core
in wall time and in process CPU time (``-cpu``), all cores.
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

WORKLOADS = [("each", None, "cautious"), ("coop", 2, "convention")]


def _simulate(mode, level, policy, games, workers, seed=1):
    from demos_sim.protocole.rules import ProtocoleConfig
    from demos_sim.runner.simulate import simulate

    s = simulate("protocole", ProtocoleConfig(mode, level, 4), [policy], games, seed,
                 workers=workers).summary()
    return s["games_per_s"], s["rounds_per_s"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    cores = os.cpu_count() or 1
    out = {"games_per_run": a.games, "repeats": a.repeats, "cores": cores, "workloads": []}
    for mode, level, policy in WORKLOADS:
        _simulate(mode, level, policy, 2000, 1)          # compile or load the cache
        one, many = [], []
        for _ in range(a.repeats):
            (g, r), cpu = history.timed(_simulate, mode, level, policy, a.games, 1)
            one.append((g, r, a.games / cpu))
            if cores > 1:
                many.append(_simulate(mode, level, policy, a.games, cores))
        w = {"mode": mode, "level": level, "players": 4, "policy": policy,
             "one_core": {"games_per_s": statistics.median(x[0] for x in one),
                          "rounds_per_s": statistics.median(x[1] for x in one),
                          "games_per_s_runs": [x[0] for x in one],
                          "games_per_cpu_s": statistics.median(x[2] for x in one)}}
        if many:
            g = statistics.median(x[0] for x in many)
            w["all_cores"] = {"games_per_s": g,
                              "rounds_per_s": statistics.median(x[1] for x in many),
                              "games_per_s_runs": [x[0] for x in many],
                              "scaling": g / w["one_core"]["games_per_s"]}
        out["workloads"].append(w)
    rows = []
    for w in out["workloads"]:
        name = (f"protocole/{w['mode']}" + (f"-l{w['level']}" if w["level"] else "")
                + f"/4p/{w['policy']}")
        rows.append((f"{name}/1core", w["one_core"]["games_per_s"], "games/s"))
        rows.append((f"{name}/1core-cpu", w["one_core"]["games_per_cpu_s"], "games/s"))
        if "all_cores" in w:
            rows.append((f"{name}/{cores}core", w["all_cores"]["games_per_s"], "games/s"))
    history.record(rows)
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"Protocole, 4 players, {a.games} games x {a.repeats} (median; every run listed; "
          f"start load {history.START_LOAD:.2f})")
    for w in out["workloads"]:
        name = ("each for themselves" if w["mode"] == "each"
                else f"all together level {w['level']}") + f", {w['policy']}"
        o = w["one_core"]
        print(f"{name}")
        print(f"  1 core : {o['games_per_s']:>10,.0f} games/s  {o['rounds_per_s']:>10,.0f} rounds/s"
              f"   runs {', '.join(f'{x:,.0f}' for x in o['games_per_s_runs'])}"
              f"   CPU time {o['games_per_cpu_s']:,.0f} games/s")
        if "all_cores" in w:
            m = w["all_cores"]
            print(f"  {cores} cores: {m['games_per_s']:>10,.0f} games/s  {m['rounds_per_s']:>10,.0f} "
                  f"rounds/s   runs {', '.join(f'{x:,.0f}' for x in m['games_per_s_runs'])}"
                  f"   scaling {m['scaling']:.2f}x")


if __name__ == "__main__":
    main()
