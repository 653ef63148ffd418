"""Is a user's DĒMOS policy fit to play, and how good? (``demos-sim check-policy``)

The checks of :mod:`demos_sim.policy_check`, for every policy a plugin registers and its
restricted forms (``name:flag``):

1. **Decisions** — games of every setup (rules × mode × players) under three variant
   sets (the defaults; the rarer decisions: favourite suits, optional Media, the
   Independent acting; X2 announcements with ``team_talk = hands`` and pooled trios),
   with the policy in every seat and the engine's M2 check on (``C_CHECK_OBS``: every
   decision is asked again on a state whose hidden cards were reshuffled, RULES.md M2),
   inside the guard that also asks each decision twice with the same random stream and
   checks that it returns an index into its options and leaves ``obs`` and ``opts`` as
   they were. The first failure is explained in words: which decision kind, which setup,
   what was answered and what the options were. A reference policy (``omniscient``) is
   checked with its truth block filled, as a match plays it, and reported as exempt from
   M2, never as passing it.
2. **Tournament** — a short seat-rotated match against ``greedy`` on common deals (full
   rules, 4 players), with the ``match`` function the caller passes (the command passes
   :func:`demos_sim.tournament.match`, which sits above the games): its win share with
   a 95% interval.

:func:`check_policies` returns the number of failing policies; the command itself is
:mod:`demos_sim.check_policy`.
"""

from __future__ import annotations

import sys

import numpy as np

from demos_sim import policy_check as PC
from demos_sim.demos import engine as E
from demos_sim.demos import kit
from demos_sim.demos import layout as L
from demos_sim.demos.rules import DemosConfig

#: every (rules, mode, players) the engine plays (D2.2, D9.1)
SETUPS = [("full", "individual", 3), ("full", "individual", 4), ("full", "individual", 5),
          ("simplified", "individual", 3), ("simplified", "individual", 4),
          ("simplified", "individual", 5), ("full", "2v2", 4), ("full", "2v3", 5),
          ("full", "2v2+1", 5)]
#: the variant sets of the observation test: defaults, the rarer decisions, X2 + D9.2
VARIANT_SETS = [{}, {"favourite_suit_bonus": 10, "media_optional": True,
                     "media_targets_revealed": True, "independent_double_media": "act"},
                {"announced_trio": True, "team_talk": "hands", "team_trio": "pooled"}]


def _words(setup, variants) -> str:
    rules, mode, n = setup
    v = ", ".join(f"{k}={x}" for k, x in variants.items()) or "default variants"
    return f"{rules} rules, {mode}, {n} players, {v}"


def play(fns, params, config, key, reference, obs) -> np.ndarray:
    """One game with the M2 check on (``obs``: a row per seat); ``reference``: every seat
    gets the truth block and is checked too (``C_CHECK_OBS`` = 2), as a match plays a
    reference policy."""
    cfg = config.to_array(check_obs=True)
    if reference:
        cfg[L.C_TRUTH] = (1 << L.MAXP) - 1
        cfg[L.C_CHECK_OBS] = 2
    diag = np.zeros(E.DIAG_LEN, np.int64)
    E.play_game(fns, cfg, params, np.uint64(key), np.zeros(L.ST_LEN, np.int64), obs,
                np.zeros(L.MAXOPT, np.int64), np.zeros(L.NSTREAM, np.uint64),
                np.zeros(L.WK_LEN, np.int64), np.zeros(2, np.int64), diag,
                np.zeros(L.RES_LEN, np.int64))
    return diag


def game_check() -> PC.GameCheck:
    from demos_sim.demos import policies

    return PC.GameCheck(
        title="DĒMOS", game="demos", policies=policies, layout=L,
        kinds=kit.KIND_RULES, describe=kit.describe_option,
        setups=[(_words(s, v), DemosConfig(*s, variants=v))
                for v in VARIANT_SETS for s in SETUPS], play=play,
        match_config=DemosConfig("full", "individual", 4), baseline="greedy", truth=True,
        seat_rows=True, extent=f"{len(SETUPS)} setups × {len(VARIANT_SETS)} variant sets",
        hidden=("the hidden cards", "reshuffled"))


def check_policies(plugin: str, policies: list[str] | None = None, games: int = 12,
                   deals: int = 500, seed: int = 0, out=sys.stdout, match=None,
                   format_match=None) -> int:
    """Load ``plugin`` and check ``policies`` (default: every DĒMOS policy it registers);
    the match against greedy is played with ``match`` (``match(game, config, a, b, games,
    seed)`` with ``summary()``, and ``format_match(summary)`` its table, both from
    :mod:`demos_sim.tournament`), and left out without one. The number that fail."""
    return PC.check_policies(game_check(), plugin, policies, games, deals, seed, out, match,
                             format_match)
