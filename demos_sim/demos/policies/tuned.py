"""DĒMOS ``tuned``: ``heuristic`` with a parameter vector found by self-play, read from data.

The vector and how it was found live in ``tuned.toml`` beside this module, written by
``demos-sim tune-bot`` (:mod:`demos_sim.tuner.bot`: a TPE search on common deals against a
field of policies, racing and confirmation on fresh deals). This module only reads the
file and registers ``heuristic``'s function under the name ``tuned`` with those
parameters and ``heuristic``'s restricted forms (``tuned:noveto``, ``:notake``,
``:nomedia``, ``:legacy``), so every decision is ``heuristic``'s (RULES.md M2 alike) and
the two policies differ only in their parameters. Regenerate the file with the command
it records (``command``) and the README's "The tuned rung".
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from demos_sim.demos.policies import N_PARAMS, register
from demos_sim.demos.policies.heuristic import (
    P_LEGACY, P_NOMEDIA, P_NOTAKE, P_NOVETO, heuristic_policy,
)

TUNED_FILE = Path(__file__).with_name("tuned.toml")
FLAGS = {"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA, "legacy": P_LEGACY}


def load_tuned(path: str | Path = TUNED_FILE) -> dict:
    """The tuned file as a dict, checked: ``policy = "heuristic"``, ``params`` a list of at
    most ``N_PARAMS`` numbers with every flag index at 0 (the flags are not tuned)."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    if data.get("policy") != "heuristic":
        raise ValueError(f"{path}: policy must be 'heuristic', got {data.get('policy')!r}")
    params = data.get("params")
    if (not isinstance(params, list) or not 0 < len(params) <= N_PARAMS
            or not all(isinstance(x, (int, float)) for x in params)):
        raise ValueError(f"{path}: params must be a list of 1–{N_PARAMS} numbers")
    for flag, i in FLAGS.items():
        if i < len(params) and params[i] != 0:
            raise ValueError(f"{path}: params[{i}] is the {flag!r} flag; it must be 0")
    return data


def _description(data: dict) -> str:
    c = data.get("confirmation", {})
    conf = ""
    if "win_share" in c:
        lo, hi = c["ci95"]
        conf = (f"; win share {c['win_share']:.3f} [{lo:.3f}, {hi:.3f}] against "
                f"{c['against']} on {c['deals']} fresh deals")
    return (f"heuristic with self-play-tuned parameters from policies/tuned.toml "
            f"(demos-sim tune-bot, seed {data.get('seed')}, {data.get('trials')} trials × "
            f"{data.get('games')} deals against {'+'.join(data.get('field', []))}{conf})")


TUNED = load_tuned()
TUNED_PARAMS = tuple(float(x) for x in TUNED["params"])

register("tuned", params=TUNED_PARAMS, description=_description(TUNED),
         flags=FLAGS)(heuristic_policy)
