"""The same seeds give the same games: digests of stored results and records.

For a few thousand games of every game and mode (with a mix of policies and the rarer
decisions switched on) the per-game results the runner aggregates and a few complete
game records are hashed and compared with ``tests/runner/digests.json``. A refactoring or an
optimisation that changes no decision must leave every digest as it is; a change that is
*meant* to change games (a rule fix, a new policy version) regenerates the file with

    DEMOS_SIM_UPDATE_DIGESTS=1 .venv/bin/python -m pytest tests/runner/test_digests.py

and says so in its commit message. Under CI (``CI=true``) that variable fails the test
instead: a CI run must check the digests, never rewrite them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest
from browserkit import under_ci   # CI=true, read the same way as for the browser tests

from demos_sim.game import get_game

PATH = Path(__file__).with_name("digests.json")
GAMES, RECORDS, SEED = 2048, 12, 20261201

# name -> (game, settings, players, variants, policies by seat)
SETUPS = {
    "demos-full-4p": ("demos", {}, 4, {}, ["greedy", "heuristic", "random", "search"]),
    "demos-simplified-3p": ("demos", {"rules": "simplified"}, 3,
                            {"favourite_suit_bonus": 10}, ["greedy", "random", "heuristic"]),
    "demos-2v2-x2": ("demos", {"mode": "2v2"}, 4,
                     {"announced_trio": True, "team_talk": "hands", "media_optional": True},
                     ["heuristic", "greedy", "random", "greedy"]),
    "demos-2v3": ("demos", {"mode": "2v3"}, 5, {"team_trio": "pooled"},
                  ["greedy", "heuristic", "greedy", "random", "greedy"]),
    "demos-2v2p1": ("demos", {"mode": "2v2+1"}, 5, {"independent_double_media": "act"},
                    ["greedy", "greedy", "heuristic", "greedy", "random"]),
    # the bots before team play (``:legacy``): its results digest is the one "demos-2v3"
    # had before team play was added, so the old games stay reachable
    "demos-2v3-legacy": ("demos", {"mode": "2v3"}, 5, {"team_trio": "pooled"},
                         ["greedy:legacy", "heuristic:legacy", "greedy:legacy", "random",
                          "greedy:legacy"]),
    "protocole-each-4p": ("protocole", {"mode": "each"}, 4, {},
                          ["cautious", "planner", "random", "cautious"]),
    "protocole-coop-l2-3p": ("protocole", {"mode": "coop", "level": 2}, 3,
                             {"majority_scope": "per_dimension"},
                             ["convention", "planner", "convention"]),
    "assemblee-10p": ("assemblee", {}, 10, {"personalities": True, "final_tie": "mc_choice"},
                      ["civic", "free_rider", "aggressive", "conditional", "random",
                       "civic", "reciprocal", "civic", "free_rider", "civic"]),
}


def _digest(parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
    return h.hexdigest()[:24]


def digests(name: str) -> dict[str, str]:
    game, settings, players, variants, specs = SETUPS[name]
    a = get_game(game)
    config = a.make_config(settings, players, variants)
    out = a.play(config, specs, SEED, 0, GAMES)
    results = _digest(f"{k}:{v.shape}:".encode() + np.ascontiguousarray(v, np.int64).tobytes()
                      for k, v in sorted(out.items()))
    recs = a.iter_records(config, specs, RECORDS, SEED)
    records = _digest(json.dumps(r, sort_keys=True) for r in recs)
    return {"results": results, "records": records}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_same_seed_same_games(name):
    got = digests(name)
    if os.environ.get("DEMOS_SIM_UPDATE_DIGESTS"):
        if under_ci():
            pytest.fail("DEMOS_SIM_UPDATE_DIGESTS is set under CI: the digests would be "
                        "rewritten instead of checked")
        stored = json.loads(PATH.read_text()) if PATH.exists() else {}
        stored[name] = got
        PATH.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        return
    stored = json.loads(PATH.read_text())
    assert got == stored[name], (
        f"{name}: the games changed for the same seed (results or records); if that is "
        "intended, regenerate tests/runner/digests.json (see this file's docstring)")
