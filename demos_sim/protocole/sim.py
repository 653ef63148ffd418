"""Python layer over the Protocole kernel: policies -> function tuple, one chunk of games.

Chunking and keys are shared with the other games (:mod:`demos_sim.sim_common`): game
``g`` is game ``g % CHUNK`` of chunk ``g // CHUNK``, so numbers do not depend on the number
of workers, and game ``g`` of a record file is game ``g`` here. Whole runs are the
runner's (:mod:`demos_sim.runner`), through :meth:`demos_sim.protocole.game.ProtocoleGame.play`.
"""

from __future__ import annotations

import numpy as np

from demos_sim.protocole import layout as L
from demos_sim.protocole.policies import Policy, resolve
from demos_sim.registry import policy_tuple as _policy_tuple
from demos_sim.sim_common import play_rows


def policy_tuple(policies: list[Policy]):
    """Pad to MAXP seats: the kernel is compiled once, for 4-tuples of policies."""
    return _policy_tuple(policies, L.MAXP)


def play_chunk(cfg_arr: np.ndarray, specs: list[str], seed: int, players: int,
               chunk: int, count: int, first: int = 0) -> np.ndarray:
    """Games ``first … first+count-1`` of chunk ``chunk``: per-game result rows (``R_*``
    of :mod:`demos_sim.protocole.layout`)."""
    from demos_sim.protocole.engine import DIAG_LEN, play_batch

    res, _ = play_rows(play_batch, cfg_arr, lambda: resolve(specs, players), L.MAXP,
                       L.RES_LEN, DIAG_LEN, seed, chunk, count,
                       truth_slot=L.C_TRUTH, first=first)
    return res
