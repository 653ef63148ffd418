"""Python layer over the DĒMOS kernel: policies -> function tuple, one chunk of games.

Games are numbered ``0 … G-1`` and cut into chunks of :data:`CHUNK` games; game ``g`` is
game ``g % CHUNK`` of chunk ``g // CHUNK``, whose key comes from
``SeedSequence(seed, spawn_key=(chunk,))`` (:mod:`demos_sim.sim_common`). Any worker can
play any chunk alone, so results do not depend on the number of workers; records use the
same numbering, so game ``g`` of a record file is game ``g`` of a run with the same seed.
Whole runs — ``demos-sim simulate`` and experiments alike — are the runner's
(:mod:`demos_sim.runner`), through :meth:`demos_sim.demos.game.DemosGame.play`.
"""

from __future__ import annotations

import numpy as np

from demos_sim.demos import layout as L
from demos_sim.demos.policies import Policy, resolve
from demos_sim.registry import policy_tuple as _policy_tuple
from demos_sim.sim_common import (  # noqa: F401  (CHUNK, chunk_game_keys re-exported)
    CHUNK, chunk_game_keys, play_rows,
)


def policy_tuple(policies: list[Policy]):
    """Pad to MAXP seats: the kernel is compiled once, for 5-tuples of policies."""
    return _policy_tuple(policies, L.MAXP)


def play_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
               chunk: int, count: int, first: int = 0) -> np.ndarray:
    """Play games ``first … first+count-1`` of chunk ``chunk``; per-game result rows.

    Returns
    -------
    ndarray(int64, ndim=2), shape (count, RES_LEN): row ``g`` is game ``g`` of the chunk
    (columns ``R_*`` of :mod:`demos_sim.demos.layout`), which
    :meth:`~demos_sim.demos.game.DemosGame.play` turns into the game's quantities.
    """
    from demos_sim.demos.engine import DIAG_LEN, play_batch

    res, _ = play_rows(play_batch, cfg_arr, lambda: resolve(specs, players), L.MAXP,
                       L.RES_LEN, DIAG_LEN, seed, chunk, count,
                       truth_slot=L.C_TRUTH, first=first)
    return res
