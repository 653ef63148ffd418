"""Is a user's L'Assemblée policy fit to play? (``demos-sim check-policy --game assemblee``)

The checks of :mod:`demos_sim.policy_check` — every decision in every setup below with
the engine's M2 check on (RULES.md A0, M2: the event deck's order, the Oracle's views to
come and the others' sealed bids, pledges, supports and votes redrawn), legal indices
(amount decisions: the index is the amount), ``obs`` and ``opts`` untouched, the same
answer when asked twice — then a seat-rotated match against ``civic`` (4 players).
"""

from __future__ import annotations

import sys

import numpy as np

from demos_sim import policy_check as PC
from demos_sim.assemblee import engine as E
from demos_sim.assemblee import kit
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.rules import AssembleeConfig

#: (players, variants): 4–15 players; personalities (A11, Nimos's decision), the MC's
#: final tie (A10), the Oracle's views (A4) and the other event and cost variants
SETUPS = [(4, {}), (6, {"personalities": True, "final_tie": "mc_choice"}),
          (9, {"oracle_view": "three_players", "event_draw": "independent",
               "postpone_surcharge": "once", "personalities": True}),
          (15, {"personalities": True, "akikos_income": "total"})]


def _words(n, variants) -> str:
    v = ", ".join(f"{k}={x}" for k, x in variants.items()) or "default variants"
    return f"{n} players, {v}"


def play(fns, params, config, key, reference, obs) -> np.ndarray:
    """One game with the M2 check on (L'Assemblée has no truth block: ``reference`` is
    not used)."""
    cfg = config.to_array()
    cfg[L.C_CHECK_OBS] = 1
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_game(fns, cfg, params, np.uint64(key), np.zeros(L.ST_LEN, np.int64), obs,
                np.zeros(L.MAXOPT, np.int64), np.zeros(L.NSTREAM, np.uint64),
                np.zeros(L.WK_LEN, np.int64), np.zeros(2, np.int64), diag,
                np.zeros(L.RES_LEN, np.int64))
    return diag


def game_check() -> PC.GameCheck:
    from demos_sim.assemblee import policies

    return PC.GameCheck(
        title="L'Assemblée", game="assemblee", policies=policies, layout=L,
        kinds=kit.KIND_RULES, describe=kit.describe_option,
        setups=[(_words(*s), AssembleeConfig(*s)) for s in SETUPS], play=play,
        match_config=AssembleeConfig(4), baseline="civic", amount_kinds=kit.AMOUNT_KINDS)


def check_policies(plugin: str, policies: list[str] | None = None, games: int = 12,
                   deals: int = 500, seed: int = 0, out=sys.stdout, match=None,
                   format_match=None) -> int:
    """Load ``plugin`` and check its L'Assemblée policies; the number that fail."""
    return PC.check_policies(game_check(), plugin, policies, games, deals, seed, out, match,
                             format_match)
