"""Would a L'Assemblée search gain anything from inference? (RULES.md A0, M2)

    .venv/bin/python experiments/assemblee_inference.py [--games 100] [--seed 2026]
        [--out results/belief]

``belief`` (DĒMOS) weights the worlds a seat cannot tell apart by how likely they make
the others' actions: that pays when the others hold something the seat does not see (a
hand) and their actions depend on it. In L'Assemblée gold, renown, bids, pledges,
supports and votes are public once revealed (A0); the hidden things are the event deck's
order and the chance draws to come, hidden from every seat alike, and the sealed
decisions still being made. An action that does not depend on the deck order has the
same probability in every world, so weighting by it changes nothing.

What inference could use is what one seat sees and another does not. Here that is only
a seat's own sealed decision while its step is open and, for the Oracle's holder, the
one bid he peeked at (A4); both are revealed to every seat when the step closes, before
any later decision, so they say nothing about the hidden state: guessing them is the
opponent model's job within one auction, not a belief over hidden cards. Everything else
a seat observes is one public board shared by all (``demos_sim/assemblee/observe.py``).

This script measures the rest. It plays ``--games`` games of each setup below with the
engine's M2 check on: at every decision the engine rebuilds the public board from the
state (a difference would be information the board does not share), redraws everything
the deciding seat cannot see (the deck order, the Oracle's views to come, the others'
open sealed decisions) and asks the policy again. A decision that changed would be an
action that carries information about the deck — one whose likelihood differs between
the worlds another seat cannot tell apart. None did: every such world keeps weight 1,
uniform determinisation is already the exact belief, and inference adds nothing. (In
DĒMOS the same check passes too, but there each seat's hand is hidden from the others
and visible to it, and the actions it drives are what ``belief`` reads.) A search rung
for L'Assemblée would need no inference; the game has none today (its strongest rung is
``adaptive``, a tuned best response).

Writes ``assemblee_inference.csv`` (setup, players, policies, games, decisions checked,
public boards differing from the state's, observations and decisions changed by the
redraw; with the seed, variants, rules contract, version and git revision) and prints it. About a minute on this machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from demos_sim.assemblee.record import play_logged
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim import __version__
from demos_sim.kernel import D_CHECKED, D_DECISION_DIFF, D_OBS_DIFF, D_PUB_DIFF, DIAG_LEN
from demos_sim.provenance import CONTRACT, git_revision
from demos_sim.sim_common import game_key

MIXED = ["adaptive", "civic", "aggressive", "free_rider", "reciprocal", "conditional"]
# (label, players, variants, policies by seat: a list repeated over the seats)
SETUPS = [
    ("10 players, default rules, adaptive everywhere", 10, {}, ["adaptive"]),
    ("10 players, personalities, Oracle sees three players, mixed city", 10,
     {"personalities": True, "oracle_view": "three_players"}, MIXED),
    ("6 players, personalities, MC names the tie winner, mixed city", 6,
     {"personalities": True, "final_tie": "mc_choice"}, MIXED),
    ("15 players, events drawn independently, mixed city", 15,
     {"event_draw": "independent"}, MIXED),
]


def measure(games: int, seed: int) -> pd.DataFrame:
    rows = []
    for label, n, variants, pop in SETUPS:
        config = AssembleeConfig(n, variants)
        specs = [pop[i % len(pop)] for i in range(n)]
        diag = np.zeros(DIAG_LEN, np.int64)
        for g in range(games):
            key, _ = game_key(seed, g)
            diag += play_logged(config, specs, key, check_obs=True)[2]
        rows.append({"setup": label, "players": n, "policies": ",".join(sorted(set(specs))),
                     "games": games, "decisions_checked": int(diag[D_CHECKED]),
                     "boards_differing": int(diag[D_PUB_DIFF]),
                     "observations_changed": int(diag[D_OBS_DIFF]),
                     "decisions_changed": int(diag[D_DECISION_DIFF]), "seed": seed,
                     "variants": json.dumps(variants, sort_keys=True), "contract": CONTRACT,
                     "version": __version__, "git_revision": git_revision()})
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="results/belief")
    a = ap.parse_args(argv)
    t = measure(a.games, a.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t.to_csv(out / "assemblee_inference.csv", index=False)
    print(t.to_string(index=False))
    return 0 if (t["decisions_changed"] == 0).all() else 1


if __name__ == "__main__":
    sys.exit(main())
