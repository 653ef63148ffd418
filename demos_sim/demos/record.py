"""Engine event logs -> DĒMOS game records exactly as in ../shared/GAME_RECORD.md.

The kernel that simulations run writes the log (``cfg[C_LOG] = 1``); this module only
translates integers to record notation. Game ``g`` of ``record_games(..., seed=S)`` is
game ``g`` of a simulation with seed ``S``; its record seed is ``[S, chunk, index]``.
"""

from __future__ import annotations

import os
from typing import Iterator

import numpy as np

from demos_sim import ConfigError
from demos_sim.cards import SUITS, card_code, codes_of, figure_code
from demos_sim.demos import layout as L
from demos_sim.demos.policies import resolve
from demos_sim.demos.rules import DemosConfig
from demos_sim.demos.sim import CHUNK, chunk_game_keys, policy_tuple
from demos_sim.kernel import check_errors, new_diag
from demos_sim.provenance import CONTRACT
from demos_sim.registry import reference_mask
from demos_sim.sim_common import write_jsonl_atomic


def _colouring(code: int) -> list[str]:
    """E*16 + L*4 + J (X2 announcements, trio colours) -> suit letters in order E, L, J."""
    return [SUITS[code // 16], SUITS[(code // 4) % 4], SUITS[code % 4]]


def _take(t: int):
    return "deck" if t == L.DECK_TOP else card_code(t)


def play_logged(config: DemosConfig, specs: list[str], key, check_obs: int = 0):
    """Play one game with the event log on; returns (log events (k, EV_W), res, diag).
    ``check_obs``: the M2 check (1; 2 checks reference seats too, ``C_CHECK_OBS``)."""
    from demos_sim.demos.engine import play_game

    cfg = config.to_array(check_obs=check_obs, log=True)
    pols = resolve(specs, config.players)
    cfg[L.C_TRUTH] = reference_mask(pols)      # reference seats see the truth block
    fns, params = policy_tuple(pols)
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
    opts = np.zeros(L.MAXOPT, np.int64)
    prng = np.zeros(L.NSTREAM, np.uint64)
    wk = np.zeros(L.WK_LEN, np.int64)
    size = L.EV_W * (200 + 120 * config.variants["round_cap"])
    log = np.zeros(size, np.int64)
    log[0] = L.EV_W  # first slot holds the write position and the overflow flag
    diag = new_diag()
    res = np.zeros(L.RES_LEN, np.int64)
    play_game(fns, cfg, params, np.uint64(key), st, obs, opts, prng, wk, log, diag, res)
    check_errors(diag)
    if log[1]:
        raise RuntimeError("event log overflow")
    events = log[L.EV_W:log[0]].reshape(-1, L.EV_W)
    return events, res, diag


def check_recordable(config: DemosConfig) -> None:
    """Refuse a game that contract 2 cannot describe: a record's ``variants`` hold exactly
    Part V, so a trial rule (``handicap_points``, ``handicap_vetoes``) would be audited as a
    rule breach."""
    for name, value in config.trial_rules().items():
        raise ConfigError(
            f"{name}={value} is a trial rule outside contract 2: a game record cannot carry "
            f"it (GAME_RECORD.md); record with {name}=0")


def to_record(config: DemosConfig, specs: list[str], seed, events: np.ndarray) -> dict:
    """Build the GAME_RECORD.md DĒMOS record of one game from its event log."""
    check_recordable(config)
    n = config.players
    labels = config.side_labels()
    pols = [p.name for p in resolve(specs, n)]
    rec = {
        "game": "demos", "contract": CONTRACT, "rules": config.rules, "mode": config.mode,
        "players": n, "seating": config.seating, "variants": dict(config.variants),
        "seed": seed, "policies": pols, "favourite_suits": None, "announced_trios": None,
        "power_pile": [],
        "rounds": [], "truncated": False, "scandal": None, "final": None,
    }
    fav = [None] * n
    rnd = None
    scandal = {"cancelled": [], "kept": [], "actions": []}
    final = {"cumulative_points": [0] * n, "trios": {}, "trio_colours": {},
             "harmony": [0] * n, "winners": [], "winning_sides": [], "side_trios": None}
    cum = [0] * n
    owner = {}                       # figure id -> seat holding it (D9.5 pooled trios)
    announced = {}
    for ev in events:
        t, a, b, c, d, e = (int(x) for x in ev)
        if t == L.EV_PILE:
            rec["power_pile"].append(figure_code(a))
        elif t == L.EV_FAV:
            fav[a] = SUITS[b]
        elif t == L.EV_ANNOUNCE:
            announced[labels[a]] = _colouring(b)
        elif t == L.EV_ROUND:
            rnd = {"dealer": b, "deck": [], "public": [], "secret": [], "veto": None,
                   "unanimous": None if config.rules == "simplified" else [],
                   "hands": {}, "combos": {}, "winners": [], "figures": [], "reveals": [],
                   "points": [0] * n}
            rec["rounds"].append(rnd)
        elif t == L.EV_DECK:
            rnd["deck"].append(card_code(a))
        elif t == L.EV_PUBLIC:
            rnd["public"].append({"seat": a, "discard": card_code(b)})
        elif t == L.EV_SECRET:
            if b < 0:
                rnd["secret"].append({"seat": a, "discard": None, "take": None})
            else:
                rnd["secret"].append({"seat": a, "discard": card_code(b), "take": _take(c)})
        elif t == L.EV_VETO:
            rnd["veto"] = {"seat": a}
            rnd["unanimous"] = None
        elif t == L.EV_UNAN:
            rnd["unanimous"].append({"seat": a, "discard": card_code(b), "take": _take(c)})
        elif t == L.EV_SHOW:
            rnd["hands"][str(a)] = codes_of(b)
            rnd["combos"][str(a)] = (None if c == 0 else
                                     {"kind": "run" if c == 1 else "carre",
                                      "cards": codes_of(d), "score": e})
        elif t == L.EV_WIN:
            rnd["winners"].append(a)
        elif t == L.EV_FIG:
            rnd["figures"].append({"seat": a, "figure": figure_code(b)})
            owner[b] = a
        elif t == L.EV_REVEAL:
            rnd["reveals"].append({"seat": a, "figure": figure_code(b)})
        elif t == L.EV_POINTS:
            rnd["points"][a] = b
            cum[a] += b
        elif t == L.EV_END:
            rec["truncated"] = bool(a)
        elif t == L.EV_CANCEL:
            scandal["cancelled"].append(a)
        elif t == L.EV_KEPT:
            scandal["kept"].append(a)
        elif t == L.EV_MEDIA:
            scandal["actions"].append({"seat": a, "target": b, "figure": figure_code(c),
                                       "colour": SUITS[d]})
        elif t == L.EV_TRIO:
            h = e % 4
            if h == 0:
                final["trios"][str(a)] = None
                final["trio_colours"][str(a)] = None
            else:
                final["trios"][str(a)] = [figure_code(b), figure_code(c), figure_code(d)]
                final["trio_colours"][str(a)] = _colouring(e // 4)
            final["harmony"][a] = h
        elif t == L.EV_SIDE_TRIO:
            side_trios = final["side_trios"] = final["side_trios"] or {}
            side_trios[labels[a]] = None if e % 4 == 0 else {
                "figures": [figure_code(b), figure_code(c), figure_code(d)],
                "seats": [owner[b], owner[c], owner[d]],
                "colours": _colouring(e // 4), "harmony": e % 4}
        elif t == L.EV_RESULT:
            final["winning_sides"] = [labels[s] for s in range(len(labels)) if (a >> s) & 1]
            final["winners"] = [p for p in range(n) if (b >> p) & 1]
            final["cumulative_points"] = cum
            rec["final"] = final
        else:
            raise RuntimeError(f"unknown event type {t}")
    if config.variants["favourite_suit_bonus"] > 0:
        rec["favourite_suits"] = fav
    if config.variants["announced_trio"]:
        rec["announced_trios"] = announced
    if config.rules == "full" and not rec["truncated"]:
        rec["scandal"] = scandal
    return rec


def iter_records(config: DemosConfig, specs: list[str], games: int, seed: int,
                 first: int = 0) -> Iterator[dict]:
    """Records of games ``first … first+games-1`` of the run seeded ``seed``."""
    check_recordable(config)
    resolve(specs, config.players)
    for g in range(first, first + games):
        chunk, idx = divmod(g, CHUNK)
        key = chunk_game_keys(seed, chunk, idx, 1)[0]
        events, _, _ = play_logged(config, specs, key)
        yield to_record(config, specs, [seed, chunk, idx], events)


def write_records(path: str | os.PathLike, config: DemosConfig, specs: list[str],
                  games: int, seed: int) -> int:
    """Write ``games`` records as JSON Lines, atomically (a temp file renamed at the end)."""
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    check_recordable(config)
    resolve(specs, config.players)
    return write_jsonl_atomic(path, iter_records(config, specs, games, seed))
