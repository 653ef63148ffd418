"""DĒMOS ``veto_br``: ``tuned`` with its veto decisions tuned as a best response to a table
of ``tuned`` players, read from data.

``veto_br.toml`` beside this module is written by ``demos-sim tune-bot --policy tuned
--against tuned --params veto_at,late,need,veto_spend,veto_free --in-place`` (the command
it records): only the five veto parameters of heuristic's rule (D3.4.1 veto of the
unanimous turn; the threshold, its late and need moves, :func:`veto_shift`'s spend and
free moves) are searched, scored at one seat among three ``tuned`` players, every seat in
turn, on common deals (:mod:`demos_sim.tuner.bot`). This module registers ``heuristic``'s
function under the name ``veto_br`` with ``tuned``'s current vector and the file's five
veto values (its ``[tuned]`` table) in their places, with the restricted forms
(``veto_br:noveto`` …), so it plays every other decision exactly as ``tuned`` does: the
veto analysis's best-response table compares it with ``veto_br:noveto`` in one seat among
``tuned`` players (``experiments/analyses/veto_best_response_4p_s*.toml``, one per seat).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from demos_sim.demos.policies import register
from demos_sim.demos.policies.heuristic import (
    P_LATE, P_NEED, P_VETO_AT, P_VETO_FREE, P_VETO_SPEND, heuristic_policy,
)
from demos_sim.demos.policies.tuned import FLAGS, TUNED_PARAMS

VETO_BR_FILE = Path(__file__).with_name("veto_br.toml")
# the names tune-bot's SPACE gives these indices (tests/demos/test_veto_br.py checks it)
VETO_PARAMS = {"veto_at": P_VETO_AT, "late": P_LATE, "need": P_NEED,
               "veto_spend": P_VETO_SPEND, "veto_free": P_VETO_FREE}


def load_veto_br(path: str | Path = VETO_BR_FILE) -> dict:
    """The file as a dict, checked: tuned against tuned, its ``[tuned]`` table only veto
    parameters, each ``[default, best]`` a pair of numbers."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    if data.get("policy") != "tuned" or data.get("field") != ["tuned"]:
        raise ValueError(f"{path}: must tune 'tuned' against ['tuned'], got "
                         f"{data.get('policy')!r} against {data.get('field')!r}")
    table = data.get("tuned")
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{path}: no [tuned] table")
    for name, pair in table.items():
        if name not in VETO_PARAMS:
            raise ValueError(f"{path}: {name!r} is not a veto parameter "
                             f"({', '.join(VETO_PARAMS)})")
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(x, (int, float)) for x in pair)):
            raise ValueError(f"{path}: {name} must be [default, tuned]")
    return data


def veto_br_params(data: dict, base=TUNED_PARAMS) -> tuple[float, ...]:
    """``base`` (tuned's vector) with the file's best-response veto values in place."""
    v = list(base)
    for name, (_, best) in data["tuned"].items():
        v[VETO_PARAMS[name]] = float(best)
    return tuple(v)


def _description(data: dict) -> str:
    c = data.get("confirmation", {})
    vals = ", ".join(f"{n} {d:g}→{b:g}" for n, (d, b) in data["tuned"].items() if d != b)
    conf = ""
    if "win_share" in c:
        lo, hi = c["ci95"]
        conf = (f"; in one seat among tuned players it wins {c['win_share']:.3f} "
                f"[{lo:.3f}, {hi:.3f}] of what tuned wins there and it together, "
                f"{c['deals']} fresh deals")
    return ("tuned, but it decides when to veto the unanimous turn as well as it can "
            "against three tuned players (its veto thresholds tuned for that seat by "
            "demos-sim tune-bot, policies/veto_br.toml: "
            + (vals or "tuned's own values won") + conf + ")")


VETO_BR = load_veto_br()
VETO_BR_PARAMS = veto_br_params(VETO_BR)

register("veto_br", params=VETO_BR_PARAMS, description=_description(VETO_BR),
         flags=FLAGS)(heuristic_policy)
