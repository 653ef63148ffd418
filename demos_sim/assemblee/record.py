"""Engine event logs -> L'Assemblée game records exactly as in ../shared/GAME_RECORD.md.

The kernel that simulations run writes the log (``cfg[C_LOG] = 1``); this module only
translates integers to record notation. Game ``g`` of ``iter_records(..., seed=S)`` is
game ``g`` of a simulation with seed ``S``; its record seed is ``[S, chunk, index]``.
Sets (``in_game``, ``supporters``, ``winners``, ``final.tie_choice.tied``) are in seat
order; ``oracle.views`` is in auction order (then seat order under ``three_players``).
"""

from __future__ import annotations

import os
from typing import Iterator

import numpy as np

from demos_sim import ConfigError
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.policies import resolve
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim.assemblee.sim import policy_tuple
from demos_sim.kernel import check_errors, new_diag
from demos_sim.provenance import CONTRACT
from demos_sim.sim_common import game_key, write_jsonl_atomic


def _seats(mask: int, n: int) -> list[int]:
    return [p for p in range(n) if (mask >> p) & 1]


def play_logged(config: AssembleeConfig, specs: list[str], key, check_obs: bool = False):
    """Play one game with the event log on; returns (events (k, EV_W), res, diag).

    The log starts small and the (deterministic) game is replayed with a buffer twice as
    large whenever it overflows."""
    from demos_sim.assemblee.engine import play_game

    cfg = config.to_array(check_obs=check_obs, log=True)
    fns, params = policy_tuple(resolve(list(specs), config.players))
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    wk = np.zeros(L.WK_LEN, np.int64)
    size = L.EV_W * 500 * min(config.variants["rounds"], 12)
    while True:
        log = np.zeros(size, np.int64)
        log[0] = L.EV_W  # first slot holds the write position and the overflow flag
        diag = new_diag()
        res = np.zeros(L.RES_LEN, np.int64)
        play_game(fns, cfg, params, np.uint64(key), st, obs, opts, prng, wk, log, diag, res)
        if not log[1]:
            break
        size *= 2
    check_errors(diag)
    return log[L.EV_W:log[0]].reshape(-1, L.EV_W), res, diag


def to_record(config: AssembleeConfig, specs: list[str], seed, events: np.ndarray) -> dict:
    """Build the GAME_RECORD.md L'Assemblée record of one game from its event log."""
    n = config.players
    C, E = L.CHARACTERS, L.EVENTS
    rec = {
        "game": "assemblee", "contract": CONTRACT, "players": n,
        "variants": dict(config.variants), "seed": seed,
        "policies": [p.name for p in resolve(list(specs), n)],
        "personalities": [None] * n if config.variants["personalities"] else None,
        "mc": None,
        "event_deck": (None if config.variants["event_draw"] == "independent"
                       else [None] * L.NEVENT),
        "rounds": [], "final": None,
    }
    rnd = None
    pend = None
    new_deck = None
    for ev in events:
        t, a, b, c, d, e = (int(x) for x in ev)
        if t == L.L_SETUP:
            rec["mc"] = a
        elif t == L.L_DECK:
            rec["event_deck"][a] = E[b]
        elif t == L.L_PERS:
            rec["personalities"][a] = L.PERSONALITIES[b]
        elif t == L.L_ROUND:
            rnd = {"in_game": _seats(c, n), "mc": b, "income": [0] * n, "event_deck": None,
                   "event": None, "revealed": [], "oracle": None, "bids": [], "nimos": None,
                   "holders": [], "good_event": None, "pending": [], "collapse": False,
                   "benefits": None, "ostracism": None, "honours": None, "honoured": None,
                   "gold": [None] * n, "renown": [None] * n}
            rec["rounds"].append(rnd)
            new_deck = None
        elif t == L.L_INCOME:
            rnd["income"][a] = b
        elif t == L.L_RESHUFFLE:
            if new_deck is None:
                new_deck = [None] * L.NEVENT
                rnd["event_deck"] = new_deck
            new_deck[a] = E[b]
        elif t == L.L_EVENT:
            rnd["event"] = E[a]
        elif t == L.L_REVEAL:
            rnd["revealed"].append(C[b])
            rnd["bids"].append([0] * n)
            rnd["holders"].append(None)
        elif t == L.L_ORACLE:       # three_players: every auction x the same seats
            rnd["oracle"] = {"seat": a, "views": [[i, q] for i in range(len(rnd["revealed"]))
                                                  for q in _seats(b, n)]}
        elif t == L.L_VIEW:         # three_bids: the seat seen at auction a
            rnd["oracle"]["views"].append([a, b])
        elif t == L.L_BID:
            rnd["bids"][a][b] = c
        elif t == L.L_NIMOS:
            rnd["bids"][b][a] = d
            use = {"seat": a, "character": rnd["revealed"][b], "from": c, "to": d}
            if rnd["nimos"] is None:
                rnd["nimos"] = use
            elif isinstance(rnd["nimos"], dict):
                rnd["nimos"] = [rnd["nimos"], use]
            else:
                rnd["nimos"].append(use)
        elif t == L.L_HOLDER:
            rnd["holders"][a] = b if b >= 0 else None
        elif t == L.L_GOOD:
            rnd["good_event"] = {"event": E[a], "stopped_by": b if b >= 0 else None,
                                 "players": [c, d] if a == L.EV_WEDDING and b < 0 else None}
        elif t == L.L_PEND:
            pend = {"event": E[a], "postponed": b, "cost": c, "spent_by": None,
                    "pledges": None, "resolved": False}
            rnd["pending"].append(pend)
        elif t == L.L_PLEDGE:
            if pend["pledges"] is None:
                pend["pledges"] = [0] * n
            pend["pledges"][a] = b
        elif t == L.L_PEND_END:
            pend["spent_by"] = a if a >= 0 else None
            pend["resolved"] = bool(b)
            if a < 0 and pend["pledges"] is None:
                pend["pledges"] = [0] * n
        elif t == L.L_COLLAPSE:
            rnd["collapse"] = bool(a)
        elif t == L.L_A7:
            rnd["benefits"] = []
        elif t == L.L_BENEFIT:
            rnd["benefits"].append({"character": C[a], "seat": b,
                                    "target": c if c >= 0 else None,
                                    "choice": d if d > 0 else None, "blocked": bool(e)})
        elif t == L.L_OST:
            rnd["ostracism"] = {"proposer": a, "target": b, "supporters": [],
                                "pledges": [0] * n, "passed": False, "new_mc": None}
        elif t == L.L_OST_PLEDGE:
            rnd["ostracism"]["supporters"].append(a)
            rnd["ostracism"]["pledges"][a] = b
        elif t == L.L_OST_END:
            o = rnd["ostracism"]
            o["supporters"].sort()
            o["passed"] = bool(a)
            o["new_mc"] = b if b >= 0 else None
        elif t == L.L_A9:
            rnd["honours"] = [None] * n
        elif t == L.L_VOTE:
            rnd["honours"][a] = b
        elif t == L.L_HONOURED:
            rnd["honoured"] = a
        elif t == L.L_FIG:
            if d:
                rnd["gold"][a] = b
                rnd["renown"][a] = c
        elif t == L.L_ROUND_END:
            pass
        elif t == L.L_FINAL:
            rec["final"] = {"collapse": bool(a), "scores": [None] * n,
                            "winners": _seats(b, n), "tie_choice": None}
        elif t == L.L_SCORE:
            rec["final"]["scores"][a] = b if b >= 0 else None
        elif t == L.L_FINAL_TIE:
            rec["final"]["tie_choice"] = {"mc": a, "tied": _seats(c, n), "chosen": b}
        else:
            raise RuntimeError(f"unknown event type {t}")
    return rec


def iter_records(config: AssembleeConfig, specs: list[str], games: int, seed: int,
                 first: int = 0) -> Iterator[dict]:
    """Records of games ``first … first+games-1`` of the run seeded ``seed``."""
    resolve(list(specs), config.players)
    for g in range(first, first + games):
        key, rec_seed = game_key(seed, g)
        events, _, _ = play_logged(config, specs, key)
        yield to_record(config, specs, rec_seed, events)


def write_records(path: str | os.PathLike, config: AssembleeConfig, specs: list[str],
                  games: int, seed: int) -> int:
    """Write ``games`` records as JSON Lines, atomically (a temp file renamed at the end)."""
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    resolve(list(specs), config.players)
    return write_jsonl_atomic(path, iter_records(config, specs, games, seed))
