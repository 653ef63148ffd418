"""Compile every game's kernels into numba's on-disk cache, one process per group of games.

``python -m demos_sim.warm`` plays two games of each game (every registered policy is
compiled with the game's kernel) in parallel processes, DĒMOS in one and Protocole with
L'Assemblée in the other: about 2 minutes on a fresh checkout of this 2-core machine
(DĒMOS ≈ 128 s, L'Assemblée ≈ 50 s, Protocole ≈ 32 s on one core), then nothing
(≈ 1 s) while the cache is current. ``make test`` runs it first: without it the two
pytest workers each compiled the same kernels when they first needed them (the suite took
708 s on a cold cache and 477 s on a warm one, 2026-12-02).
"""

from __future__ import annotations

import sys
import time
import warnings

GROUPS = (("demos",), ("protocole", "assemblee"))
PLAYERS = {"demos": 4, "protocole": 4, "assemblee": 6}


def warm(games: tuple[str, ...]) -> list[tuple[str, float]]:
    """Play two games of each of ``games`` with its first registered policy at every seat
    (which compiles the game's kernel with every registered policy); seconds taken."""
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    from demos_sim.game import get_game
    from demos_sim.runner.points import play_piece

    out = []
    for name in games:
        t = time.perf_counter()
        ad = get_game(name)
        n = PLAYERS[name]
        cfg = ad.config_from_options({}, n, {})
        ad.policies.REGISTRY.load_builtins()    # every policy module: compiled when defined
        policy = ad.policies.available()[0]
        play_piece(name, cfg, (policy,) * n, (), 1, 0, 0, 2, None)   # the runner's task
        out.append((name, time.perf_counter() - t))
    return out


def main() -> int:
    t = time.perf_counter()
    from demos_sim.runner.backends import map_tasks

    done = [t for part in map_tasks(warm, [(g,) for g in GROUPS], len(GROUPS)) for t in part]
    parts = ", ".join(f"{name} {s:.0f} s" for name, s in done)
    print(f"numba cache warm ({parts}; {time.perf_counter() - t:.0f} s wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
