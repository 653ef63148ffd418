"""Is a user's Protocole policy fit to play? (``demos-sim check-policy --game protocole``)

The checks of :mod:`demos_sim.policy_check` — every decision in every setup below with
the engine's M2 check on (RULES.md M2, P5.1: other hands and Foyers and eliminated
players' Foyers redrawn), legal indices, ``obs`` and ``opts`` untouched, the same answer
when asked twice — then a seat-rotated match against ``cautious`` (each for
themselves, 4 players). A reference policy (``omniscient``) is checked with its truth
block filled, as a match plays it, and reported as exempt from M2.
"""

from __future__ import annotations

import sys

import numpy as np

from demos_sim import policy_check as PC
from demos_sim.protocole import engine as E
from demos_sim.protocole import kit
from demos_sim.protocole import layout as L
from demos_sim.protocole.rules import ProtocoleConfig

#: (mode, level, players, variants): both modes, every level, 2–4 players, the variants
#: that change a Norm selection or a control (P3.1, P3.1a, P5.3)
SETUPS = [("each", None, 4, {}), ("each", None, 3, {"standard_tie": "discard_all"}),
          ("each", None, 2, {"majority_scope": "per_dimension"}), ("coop", 1, 4, {}),
          ("coop", 2, 3, {"reinforced_scope": "team"}),
          ("coop", 3, 2, {"majority_scope": "per_dimension"})]


def _words(mode, level, n, variants) -> str:
    m = "each for themselves" if mode == "each" else f"all together level {level}"
    v = ", ".join(f"{k}={x}" for k, x in variants.items()) or "default variants"
    return f"{m}, {n} players, {v}"


def play(fns, params, config, key, reference, obs) -> np.ndarray:
    """One game with the M2 check on; ``reference``: every seat gets the truth block and
    is checked too (``C_CHECK_OBS`` = 2), as a match plays a reference policy."""
    cfg = config.to_array(check_obs=True)
    if reference:
        cfg[L.C_TRUTH] = (1 << L.MAXP) - 1
        cfg[L.C_CHECK_OBS] = 2
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_game(fns, cfg, params, np.uint64(key), np.zeros(L.ST_LEN, np.int64), obs,
                np.zeros(L.MAXOPT, np.int64), np.zeros(L.NSTREAM, np.uint64),
                np.zeros(2, np.int64), diag, np.zeros(L.RES_LEN, np.int64))
    return diag


def game_check() -> PC.GameCheck:
    from demos_sim.protocole import policies

    return PC.GameCheck(
        title="Protocole", game="protocole", policies=policies, layout=L,
        kinds=kit.KIND_RULES, describe=kit.describe_option,
        setups=[(_words(*s), ProtocoleConfig(*s)) for s in SETUPS], play=play,
        match_config=ProtocoleConfig("each", None, 4), baseline="cautious", truth=True)


def check_policies(plugin: str, policies: list[str] | None = None, games: int = 12,
                   deals: int = 500, seed: int = 0, out=sys.stdout, match=None,
                   format_match=None) -> int:
    """Load ``plugin`` and check its Protocole policies; the number that fail."""
    return PC.check_policies(game_check(), plugin, policies, games, deals, seed, out, match,
                             format_match)
