"""What one DĒMOS round costs, piece by piece, against the forward model's targets.

    .venv/bin/python benchmarks/round_budget.py [--games 20000] [--calls 400000]

Full rules, 4 players, one core. First whole rounds: ``random`` (the engine alone) and
``greedy`` at every seat through ``play_batch``, with the decisions a round takes and the
options a decision is offered counted by a wrapper policy that plays as ``random``.
Then each piece the round is made of, timed alone in a jitted loop over a few thousand
varied inputs (random 5-card hands, 2–7 face-up cards): the deck's shuffle, one
observation (``observe``: the per-decision part, and with the game part rebuilt), a
policy call through the seats' function tuple, a discard-and-take option list, a D4
evaluation of a hand (``best_combo`` and its key), and ``greedy``'s own kernels (the
public turn's blind discard, a secret or unanimous turn). Each piece's calls per round
times its cost is its share of the round; the table puts them next to the time a round
may take at each target (1.5 M ``greedy`` rounds/s: 667 ns; 3 M ``random``: 333 ns).
Each timed call waits for the one before (its input depends on the last result), as a
game's decisions do; the inputs stay in cache, except in the two rows over 262,144
hands, where ``greedy``'s blind-discard table is read out of cache as in games. The sum
of the pieces is a lower bound of what the same calls cost inside a game (branches
there are harder to predict). Timed in process CPU time, best of 3. A diagnosis, like
``perf_profile.py``: it writes nothing to ``history.csv``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

from demos_sim.demos import engine as E  # noqa: E402
from demos_sim.demos import layout as L  # noqa: E402
from demos_sim.demos.observe import observe  # noqa: E402
from demos_sim.demos.policies import POLICY_SIG, resolve  # noqa: E402
from demos_sim.demos.policies.basic import (  # noqa: E402
    GREEDY_PARAMS, P_DRAW_WEIGHT, blind_discard, greedy_discard_take, scoring_rules,
)
from demos_sim.demos.positions import position  # noqa: E402
from demos_sim.demos.rules import DemosConfig  # noqa: E402
from demos_sim.demos.scoring import best_combo, round_key  # noqa: E402
from demos_sim.demos.sim import policy_tuple  # noqa: E402
from demos_sim.jit import kernel  # noqa: E402
from demos_sim.rng import below, shuffle_inplace  # noqa: E402
from demos_sim.sim_common import chunk_game_keys  # noqa: E402

TARGET_NS = {"greedy": 1e9 / 1_500_000, "random": 1e9 / 3_000_000}


@kernel(POLICY_SIG)
def _counting_random(cfg, obs, opts, n_opts, params, rng):
    """``random``, counting its decisions (params[0]) and their options (params[1])."""
    params[0] += 1.0
    params[1] += n_opts
    return below(rng, 0, n_opts)


def _timed(fn, *args):
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        fn(*args)
        best = min(best, time.process_time() - t)
    return best


def rounds(policy: str, games: int) -> tuple[float, int, float]:
    """(ns a round, rounds played, unanimous turns a round) of ``games`` games with
    ``policy`` at every seat."""
    cfg = DemosConfig("full", "individual", 4).to_array()
    fns, params = policy_tuple(resolve([policy], 4))
    keys = chunk_game_keys(1, 0, 0, games)
    res = np.zeros((games, L.RES_LEN), np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_batch(fns, cfg, params, keys[:20], res[:20], diag)           # compile / load
    dt = _timed(E.play_batch, fns, cfg, params, keys, res, diag)
    n = int(res[:, L.R_ROUNDS].sum())
    return dt / n * 1e9, n, res[:, L.R_UNAN].sum() / n


def decisions(games: int) -> tuple[float, float]:
    """(policy calls a round, options a call) under ``random`` play."""
    cfg = DemosConfig("full", "individual", 4).to_array()
    fns = (_counting_random,) * L.MAXP
    params = np.zeros((L.MAXP, 32), np.float64)
    keys = chunk_game_keys(1, 0, 0, games)
    res = np.zeros((games, L.RES_LEN), np.int64)
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_batch(fns, cfg, params, keys, res, diag)
    calls = params[:, 0].sum()
    return calls / res[:, L.R_ROUNDS].sum(), params[:, 1].sum() / calls


# ------------------------------------------------------------------ the pieces, alone
@kernel
def _loop_shuffle(calls, deck, state):
    s = 0
    for _ in range(calls):
        shuffle_inplace(deck, 40, state, 0)
        s += deck[0] & 1
    return s


@kernel
def _loop_observe(calls, st, cfg, row, game_part):
    s = 0
    for i in range(calls):
        if game_part:
            row[L.O_GVER] = -1
        st[L.S_HAND + 1] ^= (i + s) & 1   # something moves between decisions
        observe(st, cfg, 0, L.K_UNAN, row)
        s += row[L.O_HAND] & 1
    return s


@kernel
def _loop_policy_call(calls, fns, cfg, row, opts, params, prng):
    s = 0
    for i in range(calls):
        s += fns[0](cfg, row, opts, 30 + ((i + s) & 7), params[0], prng[0:1])
    return s


@kernel
def _loop_options(calls, hands, tables, opts):
    s = 0
    m = hands.shape[0]
    for i in range(calls):
        s += E._discard_take_options(opts, 0, hands[(i + s) % m], tables[(i + s) % m])
    return s


@kernel
def _loop_best_combo(calls, hands, sr):
    s = 0
    m = hands.shape[0]
    for i in range(calls):
        h = hands[(i + s) % m]
        kd, sc, cm = best_combo(h, sr, -1)
        s += round_key(h, kd, sc, cm) & 1
    return s


@kernel
def _loop_blind(calls, hands, sr, weight):
    s = 0
    m = hands.shape[0]
    for i in range(calls):
        s += blind_discard(sr, hands[(i + s) % m], -1, weight)[1]
    return s


@kernel
def _loop_discard_take(calls, hands, tables, sr, weight):
    s = 0
    m = hands.shape[0]
    for i in range(calls):
        j = (i + s) % m                  # each call waits for the one before, as in a game
        s += greedy_discard_take(sr, hands[j], tables[j], -1, weight, False, True)
    return s


def _inputs(n: int, seed: int = 5):
    """``n`` random 5-card hands and, apart from them, 2–7 face-up cards."""
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 40)), axis=1)
    bit = np.left_shift(np.int64(1), cards)
    hands = bit[:, :5].sum(axis=1)
    n_up = rng.integers(2, 8, n)
    tables = np.where(np.arange(35) < n_up[:, None], bit[:, 5:], 0).sum(axis=1)
    return hands, tables


def pieces(calls: int) -> dict[str, float]:
    """ns a call of each piece."""
    hands, tables = _inputs(4096)
    cold_hands, cold_tables = _inputs(1 << 18, seed=6)     # tables read out of cache
    cfg = DemosConfig("full", "individual", 4)
    sr = scoring_rules(cfg.to_array())
    weight = GREEDY_PARAMS[P_DRAW_WEIGHT]
    pos = position("7S 8S 9S 1H 3D", "unanimous", 0, players=4, 
                   public={1: "6H", 2: "9H", 3: "6D", 0: "2C"},
                   secret={1: ("2D", "deck"), 2: "pass", 3: ("5C", "deck"), 0: "pass"})
    st, row = pos.st.copy(), pos.obs.copy()
    fns, params = policy_tuple(resolve(["random"], 4))
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.ones(L.NSTREAM, np.uint64)
    jobs = {
        "shuffle of the 40-card deck": (_loop_shuffle, np.arange(40), prng.copy()),
        "observation, per decision": (_loop_observe, st, pos.cfg, row, False),
        "observation, game part rebuilt": (_loop_observe, st, pos.cfg, row, True),
        "policy call (random) through the tuple": (_loop_policy_call, fns, pos.cfg, row, opts,
                                                   params, prng),
        "discard-and-take option list": (_loop_options, hands, tables, opts),
        "D4 evaluation (best_combo + key)": (_loop_best_combo, hands, sr),
        "greedy: blind discard (public turn)": (_loop_blind, hands, sr, weight),
        "greedy: secret / unanimous turn": (_loop_discard_take, hands, tables, sr, weight),
        "greedy: blind discard, 262,144 hands": (_loop_blind, cold_hands, sr, weight),
        "greedy: secret / unanimous, 262,144 hands": (_loop_discard_take, cold_hands,
                                                      cold_tables, sr, weight),
    }
    out = {}
    for name, (fn, *args) in jobs.items():
        fn(10, *args)                                                    # compile
        out[name] = _timed(fn, calls, *args) / calls * 1e9
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--calls", type=int, default=400_000)
    a = ap.parse_args(argv)
    per_round = {p: rounds(p, a.games) for p in ("random", "greedy")}
    calls, n_opts = decisions(a.games)
    ns = pieces(a.calls)
    print(f"DĒMOS full rules, 4 players, one core ({a.games:,} games a policy)")
    for p, (t, n, _) in per_round.items():
        print(f"  {p:7s} {t:7.0f} ns a round ({1e9 / t:,.0f} rounds/s, {n:,} rounds); "
              f"target {TARGET_NS[p]:.0f} ns ({1e9 / TARGET_NS[p]:,.0f} rounds/s)")
    print(f"  random: {calls:.2f} policy calls a round (forced moves are not calls), "
          f"{n_opts:.1f} options a call; with greedy {per_round['greedy'][2]:.0%} of "
          "the rounds reach the unanimous turn (the others are vetoed)\n")
    disc = 4.0 + 4.0 * per_round["greedy"][2]     # secret + unanimous turns of greedy's
    per = {
        "shuffle of the 40-card deck": 1.0,
        "observation, per decision": calls,
        "observation, game part rebuilt": 4.0,
        "policy call (random) through the tuple": calls,
        "discard-and-take option list": disc,
        "D4 evaluation (best_combo + key)": 4.0,
        "greedy: blind discard (public turn)": 4.0,
        "greedy: secret / unanimous turn": disc,
        "greedy: blind discard, 262,144 hands": 4.0,
        "greedy: secret / unanimous, 262,144 hands": disc,
    }
    print(f"  {'piece':42s} {'ns a call':>9s} {'calls/round':>12s} {'ns/round':>9s}")
    total = {"engine": 0.0, "greedy": 0.0, "cold": 0.0}
    for name, t in ns.items():
        r = per[name] * t
        part = ("engine" if not name.startswith("greedy") else
                "cold" if "262,144" in name else "greedy")
        total[part] += r
        print(f"  {name:42s} {t:9.1f} {per[name]:12.2f} {r:9.0f}")
    e, g = total["engine"], total["greedy"]
    print(f"\n  the engine's pieces alone: {e:.0f} ns a round (random plays one in "
          f"{per_round['random'][0]:.0f}; the 3 M target allows {TARGET_NS['random']:.0f})")
    print(f"  greedy's own kernels alone: {g:.0f} ns a round, engine pieces + greedy "
          f"{e + g:.0f} (greedy plays one in {per_round['greedy'][0]:.0f}; the 1.5 M target "
          f"allows {TARGET_NS['greedy']:.0f})")
    print(f"  greedy's own kernels on 262,144 different hands (its blind-discard table "
          f"read out of cache, as in games): {total['cold']:.0f} ns a round")


if __name__ == "__main__":
    main()
