"""Fit the game-level value that ``belief_game`` searches with (DĒMOS, individual games).

    .venv/bin/python experiments/fit_horizon.py [--games 3000] [--seed 2026]
        [--policy tuned] [--out demos_sim/demos/policies/horizon_weights.py]

The search rungs value a round by its result (a round win, D4.5's figures, the round's
points). What decides a game is the final election (D7: the best trio, points breaking
ties, D7.3). This fits, from recorded self-play of ``--policy`` at every seat (4 players,
full rules), the chance that a seat wins the game given what every seat can see at the
end of a round: its figures, the most figures any other seat holds, the figures left in
the Power pile and its cumulative points against the best other seat's (D4.7)::

    P(win) = σ(w · [1, mine, others, pile, Δpoints / 10, mine × pile / 14, others × pile / 14])

(logistic regression, statsmodels). ``DV``, the mean gain in P(win) of one more figure
over the fitted rows, turns the value into round wins' units, so the search's other
costs (the veto's, in round wins) keep their meaning. Writes the weights module (a
Python tuple: the numba cache follows its source) with the command, seed and games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import statsmodels.api as sm

from demos_sim.demos.record import iter_records
from demos_sim.demos.rules import DemosConfig

NAMES = ("const", "mine", "others", "pile", "dpoints10", "mine_pile", "others_pile")


def features(mine, others, pile, dpoints):
    return np.array([1.0, mine, others, pile, dpoints / 10.0, mine * pile / 14.0,
                     others * pile / 14.0])


def rows(records, n):
    X, y = [], []
    for rec in records:
        if rec.get("truncated") or not rec.get("final"):
            continue
        winners = set(rec["final"]["winners"])
        figs = [0] * n
        cum = [0] * n
        pile = len(rec["power_pile"])
        for rd in rec["rounds"]:
            for f in rd["figures"]:
                figs[f["seat"]] += 1
                pile -= 1
            for p in range(n):
                cum[p] += rd["points"][p]
            if pile <= 0:
                break                                   # D5.1: the main phase ends
            for s in range(n):
                others = max(figs[p] for p in range(n) if p != s)
                best = max(cum[p] for p in range(n) if p != s)
                X.append(features(figs[s], others, pile, cum[s] - best))
                y.append(1.0 if s in winners else 0.0)
    return np.array(X), np.array(y)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policy", default="tuned")
    ap.add_argument("--out", default="demos_sim/demos/policies/horizon_weights.py")
    a = ap.parse_args(argv)
    config = DemosConfig("full", "individual", 4)
    X, y = rows(iter_records(config, [a.policy], a.games, a.seed), 4)
    fit = sm.Logit(y, X).fit(disp=0)
    w = fit.params
    p0 = 1 / (1 + np.exp(-X @ w))
    X1 = X.copy()
    X1[:, 1] += 1
    X1[:, 5] = X1[:, 1] * X1[:, 3] / 14.0
    dv = float(np.mean(1 / (1 + np.exp(-X1 @ w)) - p0))
    for name, v, se in zip(NAMES, w, fit.bse):
        print(f"  {name:12s} {v:+.4f} (se {se:.4f})")
    print(f"rows {len(y)}, win rate {y.mean():.3f}, DV (one more figure) {dv:.4f}")
    text = (f'"""The game-level value of ``belief_game`` (written by experiments/fit_horizon.py '
            f'--games {a.games} --seed {a.seed} --policy {a.policy}: {len(y)} round ends of '
            f'4-player full-rules games; do not edit by hand)."""\n\n'
            f"# weights of {', '.join(NAMES)}\n"
            f"W = ({', '.join(f'{v:.6f}' for v in w)})\n"
            f"DV = {dv:.6f}\n")
    Path(a.out).write_text(text)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
