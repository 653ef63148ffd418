"""Engine event logs -> Protocole game records exactly as in ../shared/GAME_RECORD.md.

The kernel that simulations run writes the log (``cfg[C_LOG] = 1``); this module only
translates integers to record notation. Game ``g`` of ``iter_records(..., seed=S)`` is
game ``g`` of a simulation with seed ``S``; its record seed is ``[S, chunk, index]``.
Sets (hands, Foyers dealt, ``selection_start``, a selection's ``cards`` and ``kept``,
``norm``, ``removed``, ``winners``) are listed in card-id order (colour R B G Y K P, then
symbol M Q T S X O); ordered lists (``deck``, ``turns``, ``selections``) in the order
things lay or happened.
"""

from __future__ import annotations

import os
from typing import Iterator

import numpy as np

from demos_sim import ConfigError
from demos_sim.kernel import check_errors, new_diag
from demos_sim.protocole import layout as L
from demos_sim.protocole.cards import card_code, codes_of
from demos_sim.protocole.policies import resolve
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.protocole.sim import policy_tuple
from demos_sim.provenance import CONTRACT
from demos_sim.registry import reference_mask
from demos_sim.sim_common import game_key, write_jsonl_atomic

_OUTCOME = {L.OUT_WIN: "win", L.OUT_LOSS_ELIM: "loss", L.OUT_LOSS_REINF: "loss"}


def play_logged(config: ProtocoleConfig, specs: list[str], key, check_obs: int = 0):
    """Play one game with the event log on; returns (events (k, EV_W), res, diag).

    The log starts small and the (deterministic) game is replayed with a buffer twice as
    large whenever it overflows, so a large ``round_cap`` costs nothing up front.
    """
    from demos_sim.protocole.engine import play_game

    cfg = config.to_array(check_obs=check_obs, log=True)
    pols = resolve(specs, config.players)
    cfg[L.C_TRUTH] = reference_mask(pols)      # reference seats see the truth block
    fns, params = policy_tuple(pols)
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    size = L.EV_W * 160 * min(config.variants["round_cap"], 4)
    while True:
        log = np.zeros(size, np.int64)
        log[0] = L.EV_W  # first slot holds the write position and the overflow flag
        diag = new_diag()
        res = np.zeros(L.RES_LEN, np.int64)
        play_game(fns, cfg, params, np.uint64(key), st, obs, opts, prng, log, diag, res)
        if not log[1]:
            break
        size *= 2
    check_errors(diag)
    events = log[L.EV_W:log[0]].reshape(-1, L.EV_W)
    return events, res, diag


def to_record(config: ProtocoleConfig, specs: list[str], seed, events: np.ndarray) -> dict:
    """Build the GAME_RECORD.md Protocole record of one game from its event log."""
    n = config.players
    each = config.mode == "each"
    rec = {
        "game": "protocole", "contract": CONTRACT, "mode": config.mode, "level": config.level,
        "players": n, "variants": dict(config.variants), "seed": seed,
        "policies": [p.name for p in resolve(specs, n)], "removed": [], "rounds": [],
        "truncated": False, "result": None,
    }
    rnd = None
    norm = 0
    for ev in events:
        t, a, b, c, *_ = (int(x) for x in ev)
        if t == L.EV_SETUP:
            rec["removed"] = codes_of(a)
        elif t == L.EV_ROUND:
            rnd = {"initiative": b, "deck": [], "foyers_dealt": {} if a == 0 else None,
                   "hands": {}, "selection_start": [], "turns": [], "selections": [],
                   "norm": [], "control": {}, "reinforced": None,
                   "points": [0] * n if each else None}
            rec["rounds"].append(rnd)
            norm = 0
        elif t == L.EV_DECK:
            rnd["deck"].append(card_code(a))
        elif t == L.EV_FOYER_DEAL:
            rnd["foyers_dealt"].setdefault(str(a), []).append(card_code(b))
        elif t == L.EV_HAND:
            rnd["hands"][str(a)] = codes_of(b)
        elif t == L.EV_SEL_START:
            rnd["selection_start"] = codes_of(a)
        elif t == L.EV_TURN:
            rnd["turns"].append({"seat": a, "card": card_code(b),
                                 "to": "foyer" if c == L.TO_FOYER else "selection"})
        elif t == L.EV_SELECTION:
            rnd["selections"].append({"cards": codes_of(a), "kept": codes_of(b)})
            norm |= b
            rnd["norm"] = codes_of(norm)
        elif t == L.EV_CONTROL:
            rnd["control"][str(a)] = "pass" if b else "fail"
        elif t == L.EV_REINF:
            rnd["reinforced"] = "pass" if a else "fail"
        elif t == L.EV_POINTS:
            rnd["points"][a] = b
        elif t == L.EV_RESULT:
            winners = [p for p in range(n) if (a >> p) & 1]
            if each:
                rec["result"] = {"winners": winners, "outcome": None, "foyer_cards": None}
            else:
                rec["result"] = {"winners": winners, "outcome": _OUTCOME[b],
                                 "foyer_cards": c if b == L.OUT_WIN else None}
        elif t == L.EV_END:
            rec["truncated"] = bool(a)
        else:
            raise RuntimeError(f"unknown event type {t}")
    return rec


def iter_records(config: ProtocoleConfig, specs: list[str], games: int, seed: int,
                 first: int = 0) -> Iterator[dict]:
    """Records of games ``first … first+games-1`` of the run seeded ``seed``."""
    resolve(specs, config.players)
    for g in range(first, first + games):
        key, rec_seed = game_key(seed, g)
        events, _, _ = play_logged(config, specs, key)
        yield to_record(config, specs, rec_seed, events)


def write_records(path: str | os.PathLike, config: ProtocoleConfig, specs: list[str],
                  games: int, seed: int) -> int:
    """Write ``games`` records as JSON Lines, atomically (a temp file renamed at the end)."""
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    resolve(specs, config.players)
    return write_jsonl_atomic(path, iter_records(config, specs, games, seed))
