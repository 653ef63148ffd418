"""Compile every game's kernels into numba's on-disk cache, in two balanced processes.

``python -m demos_sim.warm`` compiles each game in two parts: its **kernel** (two games
played by its cheapest policy at every seat, which compiles the engine; the policies enter
it as first-class functions of one signature, so the compiled engine serves every policy)
and its **policies** (every built-in policy module, each compiled when defined). The parts
run in two processes, DĒMOS's kernel with Protocole in one and DĒMOS's policies with
L'Assemblée in the other. In a fresh clone on this 2-core machine (``CI=true .ci/run``,
2026-12-05): DĒMOS's kernel 64 s and Protocole 29 s; DĒMOS's policies 59 s and
L'Assemblée 38 s; 97 s of wall time, where DĒMOS whole in one process took 104 s while the
other process idled after 64 s (105 s). While the cache is current it takes about a second.
``make test`` runs it first: without it the two pytest workers each compiled the same
kernels when they first needed them (the suite took 708 s on a cold cache and 477 s on a
warm one, 2026-12-02).
"""

from __future__ import annotations

import sys
import time
import warnings

# (game, part) in each process; "all" is the kernel, then the policies
PLAN = ((("demos", "kernel"), ("protocole", "all")),
        (("demos", "policies"), ("assemblee", "all")))
PLAYERS = {"demos": 4, "protocole": 4, "assemblee": 6}
KERNEL_POLICY = {"demos": "greedy"}     # the cheapest to compile; else the first listed


def warm(parts: tuple[tuple[str, str], ...]) -> list[tuple[str, float]]:
    """Compile each ``(game, part)`` of ``parts`` (part: "kernel", "policies" or "all");
    the seconds each took."""
    warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
    from demos_sim.game import get_game
    from demos_sim.runner.points import play_piece

    out = []
    for name, part in parts:
        t = time.perf_counter()
        ad = get_game(name)
        if part in ("policies", "all"):
            ad.policies.REGISTRY.load_builtins()    # every policy module: compiled when defined
        if part in ("kernel", "all"):
            n = PLAYERS[name]
            cfg = ad.config_from_options({}, n, {})
            policy = KERNEL_POLICY.get(name) or ad.policies.available()[0]
            play_piece(name, cfg, (policy,) * n, (), 1, 0, 0, 2, None)   # the runner's task
        out.append((name if part == "all" else f"{name} {part}", time.perf_counter() - t))
    return out


def main() -> int:
    t = time.perf_counter()
    from demos_sim.runner.backends import map_tasks

    done = [t for part in map_tasks(warm, [(p,) for p in PLAN], len(PLAN)) for t in part]
    parts = ", ".join(f"{name} {s:.0f} s" for name, s in done)
    print(f"numba cache warm ({parts}; {time.perf_counter() - t:.0f} s wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
