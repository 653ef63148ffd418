"""Speed of a policy composed per decision kind (``register(name, discard=…, veto=…)``)
against the same policy written as one function.

Pairs that play identical games (tests/kit/test_kit.py checks it bit for bit):

- ``highcards`` (examples/highcards.py, one hand-written function) and
  ``highcards_kit`` (its discard turns written with the kit, ``discard=``, ``veto=``);
- ``greedy`` and ``greedy_kit`` (``discard=greedy, others="greedy"``: the same function
  behind the composed dispatch).

Every seat plays the policy (full rules, 4 players), on one core, timed in process CPU
time (less disturbed than wall time on a shared machine). The two policies of a pair
run back to back, in alternating order, ``--repeats`` times: the ratio of each such
pair of runs is one measurement; the median ratio and its range are printed, and the
best rate of each policy. Also the time to compose (a fresh compilation in every
process: compositions are not cached on disk). Every run appends the best rates, the
median ratios and the composing time to ``benchmarks/history.csv`` (:mod:`history`).

    .venv/bin/python benchmarks/bench_composed.py --games 20000 --repeats 5
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import history  # noqa: E402  (stamps the start date and load before anything runs)

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

from demos_sim.demos import engine as E  # noqa: E402
from demos_sim.demos import kit  # noqa: E402
from demos_sim.demos import layout as L  # noqa: E402
from demos_sim.demos.policies import POLICY_SIG, get, register, resolve  # noqa: E402
from demos_sim.demos.rules import DemosConfig  # noqa: E402
from demos_sim.demos.sim import policy_tuple  # noqa: E402
from demos_sim.registry import load_plugin  # noqa: E402
from demos_sim.sim_common import chunk_game_keys  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@njit(POLICY_SIG, cache=True)
def lowest_blind(cfg, obs, opts, n_opts, params, rng):
    kind = kit.decision_kind(obs)
    best, best_i = 99, 0
    for i in range(n_opts):
        o = opts[i]
        if kit.is_pass(o) or not kit.takes_deck(kind, o):
            continue
        v = kit.card_value(kit.discard_of(kind, o))
        if v < best:
            best, best_i = v, i
    return best_i


@njit(POLICY_SIG, cache=True)
def never(cfg, obs, opts, n_opts, params, rng):
    return kit.VETO_NO


def rate(name: str, games: int, seed: int = 1) -> float:
    """Rounds per second of ``games`` games with ``name`` in every seat."""
    config = DemosConfig("full", "individual", 4)
    fns, params = policy_tuple(resolve([name], 4))
    res = np.zeros((games, L.RES_LEN), np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    keys = chunk_game_keys(seed, 0, 0, games)
    t0 = time.process_time()
    E.play_batch(fns, config.to_array(), params, keys, res, diag)
    cpu = time.process_time() - t0
    return res[:, L.R_ROUNDS].sum() / cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    load_plugin(str(ROOT / "examples" / "highcards.py"))
    t0 = time.perf_counter()
    register("highcards_kit", discard=lowest_blind, veto=never)
    register("greedy_kit", discard=get("greedy").fn, others="greedy")
    compose_s = (time.perf_counter() - t0) / 2
    pairs = [("highcards", "highcards_kit"), ("greedy", "greedy_kit")]
    for a, b in pairs:                                   # compile / load, same games
        rate(a, 200)
        rate(b, 200)
    best = {n: 0.0 for pair in pairs for n in pair}
    ratios = {b: [] for _, b in pairs}
    for r in range(args.repeats):
        for a, b in pairs:
            order = (a, b) if r % 2 == 0 else (b, a)
            got = {n: rate(n, args.games) for n in order}
            ratios[b].append(got[b] / got[a])
            for n in order:
                best[n] = max(best[n], got[n])
    print(f"full rules, 4 players, every seat the policy, {args.games} games, {args.repeats} "
          "paired runs (1 core, CPU time)")
    for a, b in pairs:
        q = np.quantile(ratios[b], [0.0, 0.5, 1.0])
        print(f"  {a:<10} best {best[a]:>9,.0f} rounds/s   {b:<13} best {best[b]:>9,.0f} "
              f"rounds/s   composed / hand-written: median {q[1]:.3f} [{q[0]:.3f}, {q[2]:.3f}]")
    print(f"composing a policy (compilation, every process): {compose_s:.2f} s")
    rows = [(f"demos/full/4p/{n}/1core-cpu-best", best[n], "rounds/s") for n in best]
    rows += [(f"demos/composed/{b}-over-{a}", float(np.median(ratios[b])), "x")
             for a, b in pairs]
    rows.append(("demos/composed/compose", compose_s, "s"))
    history.record(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
