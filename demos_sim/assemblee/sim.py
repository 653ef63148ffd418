"""Python layer over the L'Assemblée kernel: policies -> function tuple, one chunk of games.

Chunking and keys are shared with the other games (:mod:`demos_sim.sim_common`): game
``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``, so numbers do not depend on the number
of workers, and game ``g`` of a record file is game ``g`` here. Whole runs are the
runner's (:mod:`demos_sim.runner`), through :meth:`demos_sim.assemblee.game.AssembleeGame.play`.
"""

from __future__ import annotations

import numpy as np

from demos_sim.assemblee import layout as L
from demos_sim.assemblee.policies import Policy, resolve
from demos_sim.registry import policy_tuple as _policy_tuple
from demos_sim.sim_common import play_rows


def policy_tuple(policies: list[Policy]):
    """Pad to MAXP seats: the kernel is compiled once, for 15-tuples of policies."""
    return _policy_tuple(policies, L.MAXP)


def play_games(cfg_arr, specs, seed, players, chunk, count, check_obs=False, first=0):
    """Per-game result rows and diagnostics of games ``first … first+count-1`` of chunk
    ``chunk`` (:func:`demos_sim.sim_common.play_rows`: the chunk's keys, and one line
    when the kernel flagged an error); ``check_obs``: the M2 check on."""
    from demos_sim.assemblee.engine import DIAG_LEN, play_batch

    cfg = cfg_arr.copy()
    cfg[L.C_CHECK_OBS] = 1 if check_obs else cfg[L.C_CHECK_OBS]
    return play_rows(play_batch, cfg, lambda: resolve(list(specs), players), L.MAXP,
                     L.RES_LEN, DIAG_LEN, seed, chunk, count, first=first)


def play_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
               chunk: int, count: int, first: int = 0) -> np.ndarray:
    """Games ``first … first+count-1`` of chunk ``chunk``: per-game result rows (``R_*``
    of :mod:`demos_sim.assemblee.layout`), for the experiment runner."""
    return play_games(cfg_arr, specs, seed, players, chunk, count, first=first)[0]
