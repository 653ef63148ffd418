"""Every rung of the skill ladder: games/s and decisions/s on one core.

    .venv/bin/python benchmarks/bench_rungs.py [--game demos|protocole] [--rungs A,B,…]
        [--seconds 10] [--json] [--no-history]

Each rung plays 4-player games (DĒMOS full rules, individual; Protocole each for
themselves) with the same policy at every seat, in one process, until ``--seconds`` of
process CPU time have passed (whole batches, doubling from 8 games), after one small
batch to compile or load the numba cache. Decisions per game are counted on 16 further
games by the engine's M2 check (``diag[D_CHECKED]``: one count per decision with two or
more legal options; forced moves are no decision); decisions/s = games/s × decisions per
game. Every run appends ``<game>/rung/<spec>/1core-cpu`` (games/s) and
``…/decisions-cpu`` (decisions/s) to ``benchmarks/history.csv``.

The last line prints how long 10,000 games of the slowest rung take on both cores of this
machine (2 × the one-core rate, an upper bound of what two processes give): what an
analysis at that rung costs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import history  # noqa: E402  (stamps the start date and load before anything runs)

RUNGS = {
    "demos": ["random", "greedy", "heuristic", "tuned", "apprentice", "search", "ismcts@16",
              "ismcts@64", "belief@64", "ismcts@256", "omniscient"],
    "protocole": ["random", "cautious", "planner", "ismcts@16", "ismcts@64", "omniscient"],
}


def _kit(game: str):
    """(config, play_batch, resolve, available, MAXP, RES_LEN, DIAG_LEN, D_CHECKED,
    C_TRUTH) of a game."""
    from demos_sim.kernel import D_CHECKED
    from demos_sim.tournament import make_config

    if game == "demos":
        from demos_sim.demos import layout as L
        from demos_sim.demos.engine import DIAG_LEN, play_batch
        from demos_sim.demos.policies import available, resolve
        config = make_config("demos", 4, rules="full")
    else:
        from demos_sim.protocole import layout as L
        from demos_sim.protocole.engine import DIAG_LEN, play_batch
        from demos_sim.protocole.policies import available, resolve
        config = make_config("protocole", 4, mode="each")
    return (config, play_batch, resolve, available, L.MAXP, L.RES_LEN, DIAG_LEN, D_CHECKED,
            L.C_TRUTH)


def measure(game: str, spec: str, seconds: float) -> dict:
    from demos_sim.sim_common import play_rows

    config, play_batch, resolve, _, maxp, res_len, diag_len, d_checked, truth = _kit(game)
    pols = lambda: resolve([spec], 4)      # noqa: E731
    cfg = config.to_array()

    def play(chunk, count, arr=cfg):
        return play_rows(play_batch, arr, pols, maxp, res_len, diag_len, 7, chunk, count,
                         truth_slot=truth)

    play(0, 2)                                           # compile / load the cache
    games, cpu, n, chunk = 0, 0.0, 8, 1
    while cpu < seconds:
        t = time.process_time()
        play(chunk, n)
        cpu += time.process_time() - t
        games += n
        chunk += 1
        n = min(2 * n, 4096)
    _, diag = play(999, 16, config.to_array(check_obs=True))
    # a reference policy is left out of the M2 check, so its decisions are not counted
    per_game = diag[d_checked] / 16 if diag[d_checked] else float("nan")
    gps = games / cpu
    return {"game": game, "rung": spec, "games": games, "cpu_s": cpu, "games_per_s": gps,
            "decisions_per_game": per_game, "decisions_per_s": gps * per_game}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(RUNGS), default="demos")
    ap.add_argument("--rungs", help="comma-separated policy specs (default: the ladder's, "
                                    "those registered)")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-history", action="store_true")
    a = ap.parse_args(argv)
    avail = _kit(a.game)[3]()
    rungs = a.rungs.split(",") if a.rungs else [r for r in RUNGS[a.game]
                                                if r.split("@")[0].split(":")[0] in avail]
    rows = [measure(a.game, r, a.seconds) for r in rungs]
    if not a.no_history:
        history.record([(f"{a.game}/rung/{r['rung']}/1core-cpu", r["games_per_s"], "games/s")
                        for r in rows]
                       + [(f"{a.game}/rung/{r['rung']}/decisions-cpu", r["decisions_per_s"],
                           "decisions/s") for r in rows
                          if not math.isnan(r["decisions_per_s"])])
    if a.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{a.game}, 4 players, one core (process CPU time), ~{a.seconds:g} s per rung")
    print(f"{'rung':<16}{'games/s':>12}{'decisions/game':>16}{'decisions/s':>14}")
    for r in rows:
        print(f"{r['rung']:<16}{r['games_per_s']:>12,.1f}{r['decisions_per_game']:>16.1f}"
              f"{r['decisions_per_s']:>14,.0f}")
    slow = min(rows, key=lambda r: r["games_per_s"])
    print(f"10,000 games of {slow['rung']} on 2 cores: about "
          f"{10000 / (2 * slow['games_per_s']) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
