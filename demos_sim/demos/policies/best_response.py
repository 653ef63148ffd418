"""DĒMOS best-response *searches*: ``tuned`` with one mechanic's decisions searched for one
seat among ``tuned`` players, read from data.

Each policy here is ``heuristic``'s function with ``tuned``'s current vector and the few
parameters of one mechanic replaced by the values ``demos-sim tune-bot --policy tuned
--against tuned --params … --in-place`` kept (the command its file records;
:mod:`demos_sim.tuner.bot`: scored at one seat among three ``tuned`` players, every seat in
turn, on common deals; racing and confirmation on fresh deals). Every other decision is
exactly ``tuned``'s, so the analyses can pair the policy with its restricted form in one
seat among ``tuned`` players.

The searches are small (50 trials, one seed) and **found nothing better than ``tuned``**:
what the analyses measure with these policies is the value of the mechanic *to the tuned
player* (one seat among tuned players), not to a proven best response:

- ``veto_br`` (``veto_br.toml``): the five veto parameters of heuristic's D3.4.1 rule
  (the threshold, its late and need moves, :func:`veto_shift`'s spend and free moves).
  The race kept ``tuned``'s own values, so ``veto_br`` plays exactly as ``tuned`` (its
  confirmation, 0.5 [0.5, 0.5], is identical play, not a measurement). Compared with
  ``veto_br:noveto`` (``experiments/analyses/veto_best_response_4p_s*``).
- ``media_br`` (``media_br.toml``): the three weights of heuristic's Media aim (D6.2: the
  opponent it points at). The tuner moved them, but its gain over ``tuned`` in that seat on
  32,000 fresh deals is +0.001 pp of win share [−0.008, +0.011] (``wins_per_game_diff``):
  not shown either way. Compared with ``media_br:nomedia`` under ``media_optional``
  (``experiments/analyses/media_best_response_4p_s*``).

The names are kept (records and experiment files name them); the analyses title their
tables "value of the veto / the Media to the tuned player".
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from demos_sim.demos.policies import register
from demos_sim.demos.policies.heuristic import (
    P_AIM_HARM, P_AIM_LEAD, P_AIM_THREAT, P_LATE, P_NEED, P_VETO_AT, P_VETO_FREE,
    P_VETO_SPEND, heuristic_policy,
)
from demos_sim.demos.policies.tuned import FLAGS, TUNED_PARAMS

HERE = Path(__file__).parent
VETO_BR_FILE = HERE / "veto_br.toml"
MEDIA_BR_FILE = HERE / "media_br.toml"
# the names tune-bot's SPACE gives these indices (the tests check it)
VETO_PARAMS = {"veto_at": P_VETO_AT, "late": P_LATE, "need": P_NEED,
               "veto_spend": P_VETO_SPEND, "veto_free": P_VETO_FREE}
AIM_PARAMS = {"aim_threat": P_AIM_THREAT, "aim_harm": P_AIM_HARM, "aim_lead": P_AIM_LEAD}


def load_best_response(path: str | Path, names: dict) -> dict:
    """The file as a dict, checked: tuned against tuned, its ``[tuned]`` table only
    parameters of ``names``, each ``[default, best]`` a pair of numbers."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    if data.get("policy") != "tuned" or data.get("field") != ["tuned"]:
        raise ValueError(f"{path}: must tune 'tuned' against ['tuned'], got "
                         f"{data.get('policy')!r} against {data.get('field')!r}")
    table = data.get("tuned")
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{path}: no [tuned] table")
    for name, pair in table.items():
        if name not in names:
            raise ValueError(f"{path}: {name!r} is not one of {', '.join(names)}")
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(x, (int, float)) for x in pair)):
            raise ValueError(f"{path}: {name} must be [default, tuned]")
    return data


def best_response_params(data: dict, names: dict, base=TUNED_PARAMS) -> tuple[float, ...]:
    """``base`` (tuned's vector) with the file's best-response values in place."""
    v = list(base)
    for name, (_, best) in data["tuned"].items():
        i = names[name]
        v += [0.0] * (i + 1 - len(v))          # the registry pads with zeros alike
        v[i] = float(best)
    return tuple(v)


def _description(data: dict, what: str, file: str) -> str:
    c = data.get("confirmation", {})
    vals = ", ".join(f"{n} {d:g}→{b:g}" for n, (d, b) in data["tuned"].items() if d != b)
    if not vals:        # the search kept tuned's values: the same games, nothing measured
        found = "the search kept tuned's own values: it plays exactly as tuned"
    else:
        found = vals
        if "wins_per_game_diff" in c:
            lo, hi = c["wins_per_game_diff_ci95"]
            found += (f"; its gain over tuned in that seat: {100 * c['wins_per_game_diff']:+.3f}"
                      f" pp of win share [{100 * lo:+.3f}, {100 * hi:+.3f}], {c['deals']} "
                      "fresh deals")
    return (f"tuned, with the parameters that decide {what} searched for one seat among "
            f"three tuned players (demos-sim tune-bot --in-place, policies/{file}; not a "
            f"proven best response): {found}")


def _register(name: str, path: Path, names: dict, what: str) -> dict:
    data = load_best_response(path, names)
    register(name, params=best_response_params(data, names),
             description=_description(data, what, path.name), flags=FLAGS)(heuristic_policy)
    return data


VETO_BR = _register("veto_br", VETO_BR_FILE, VETO_PARAMS,
                    "when to veto the unanimous turn")
MEDIA_BR = _register("media_br", MEDIA_BR_FILE, AIM_PARAMS,
                     "whom its Media targets")
