"""The measured rung order: a numeric strength per bot, read from the committed ladder.

The robustness analysis orders the bots a figure was measured with by how strong the
policy ladder (``results/ladder/ladder.json``, written by ``demos_sim.tournament
ladder``) *measured* them, never by their names or by the order an analysis lists them.
The ladder holds one row per rung against the rung below it, per game::

    {"game": "demos full 4p individual", "policy": "tuned", "against": "heuristic",
     "measure": "win share", "value": 0.518, "ci_lo": ..., "ci_hi": ..., ...}

Each game's rows form a chain from a root that is never a ``policy`` (``random``), whose
strength is 0. A rung's strength is the one below it plus the step the ladder measured:

- ``win share`` / ``win share in the same seat`` (DĒMOS, Protocole "each",
  L'Assemblée): an Elo-scale rating, ``rating(policy) = rating(against) +
  400·log10(v / (1 − v))``;
- ``win rate difference`` (Protocole "coop": the all-together team of the policy minus
  the other's on the same deals): the cumulative difference of win rates.

Strengths are comparable only within one chain (one game). A figure is placed on a chain
by :func:`family` (the game its analysis is about, on the analysis's line of
:data:`demos_sim.analysis.names.REGISTERED`, or the game its name names); a bot that the
chain never measured (L'Assemblée's ``reciprocal`` and ``aggressive`` populations,
``adaptive in a civic city``, Protocole's ``cautious`` in the all-together mode or
``convention`` in the each-for-themselves mode) has no strength and gets no place in a
skill order.

The DĒMOS chain was measured at full rules, 4 players, individual mode; it orders the
DĒMOS bots of every configuration (an assumption the robustness section states).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from demos_sim.analysis import names

#: the chain each family of figures is ordered by: a prefix of the ladder's ``game``
GAMES = {"demos": "demos full", "protocole each": "protocole each",
         "protocole coop": "protocole coop", "assemblee": "assemblee"}
#: measures whose steps add as Elo ratings (the others add as differences of win rates)
ELO_MEASURES = ("win share", "win share in the same seat")


def default_path() -> Path | None:
    """``results/ladder/ladder.json`` of the checkout this package runs from (or of the
    working directory); None when neither has one."""
    here = Path(__file__).resolve().parents[3] / "results" / "ladder" / "ladder.json"
    for p in (here, Path.cwd() / "results" / "ladder" / "ladder.json"):
        if p.exists():
            return p
    return None


@dataclass(frozen=True)
class Chain:
    """One game's measured rungs: ``strengths`` (bot → strength, the root 0) in ``unit``
    (``"Elo"`` or ``"win-rate difference"``)."""

    game: str
    unit: str
    strengths: dict = field(default_factory=dict)

    def strength(self, bot: str) -> float | None:
        return self.strengths.get(bot)


def chain(rows: list[dict]) -> Chain:
    """The strengths of one game's ladder rows (each ``policy`` against the rung below)."""
    if not rows:
        raise ValueError("a chain needs at least one ladder row")
    measures = {r["measure"] for r in rows}
    elo = all(m in ELO_MEASURES for m in measures)
    if not elo and measures != {"win rate difference"}:
        raise ValueError(f"{rows[0]['game']}: cannot chain the measures {sorted(measures)}")
    policies = {r["policy"] for r in rows}
    roots = {r["against"] for r in rows} - policies
    if len(roots) != 1:
        raise ValueError(f"{rows[0]['game']}: the rungs do not form one chain "
                         f"(roots {sorted(roots)})")
    s = {roots.pop(): 0.0}
    todo = list(rows)
    while todo:
        ready = [r for r in todo if r["against"] in s]
        if not ready:
            raise ValueError(f"{rows[0]['game']}: rungs not connected to the root: "
                             f"{sorted(r['policy'] for r in todo)}")
        for r in ready:
            v = float(r["value"])
            if elo:
                if not 0 < v < 1:
                    raise ValueError(f"{r['policy']}: win share {v} has no Elo rating")
                step = 400 * math.log10(v / (1 - v))
            else:
                step = v
            if r["policy"] in s:
                raise ValueError(f"{r['policy']} is measured twice in {r['game']}")
            s[r["policy"]] = s[r["against"]] + step
            todo.remove(r)
    return Chain(rows[0]["game"], "Elo" if elo else "win-rate difference", s)


def load(path: Path | str | None = None) -> dict[str, Chain]:
    """The chains of the ladder at ``path`` (default :func:`default_path`), keyed by the
    families of :data:`GAMES`. Empty when there is no ladder file."""
    path = default_path() if path is None else Path(path)
    if path is None or not path.exists():
        return {}
    rows = json.loads(Path(path).read_text())
    out = {}
    for key, prefix in GAMES.items():
        mine = [r for r in rows if str(r["game"]).startswith(prefix)]
        games = {r["game"] for r in mine}
        if len(games) > 1:
            raise ValueError(f"{key}: several ladder games {sorted(games)}")
        if mine:
            out[key] = chain(mine)
    return out


def family(analysis: str, figure: str) -> str | None:
    """The chain (a key of :data:`GAMES`) that orders the bots of ``figure`` of
    ``analysis``; None when the figure names no game the ladder measured.

    Protocole figures name their mode: ``coop``/all-together figures (level steps, a
    variant's effect on the team win rate, ``Protocole coop …``) are on the coop chain,
    ``each`` figures (seat edges, ``each`` variants) on the each chain. The variants
    analysis names the game in the figure (``variants: DĒMOS …``/``Protocole …``)."""
    from demos_sim.game import GAMES, get_game

    f = figure.lower()
    name = names.GAMES.get(analysis)
    if name is None:          # an analysis of several games: the figure names its game
        name = next((n for n in GAMES if get_game(n).named_in(f)), None)
    return get_game(name).ladder_chain(f) if name in GAMES else None


def order(chains: dict[str, Chain], analysis: str, figure: str,
          bots) -> tuple[list[tuple[str, float]], list[str], str | None]:
    """``(ordered, left_out, family)``: the ``bots`` of a figure that its chain measured,
    as ``(bot, strength)`` weakest first, and the others with why (plain words)."""
    fam = family(analysis, figure)
    ch = chains.get(fam) if fam else None
    if ch is None:
        why = ("no ladder game for this figure" if fam is None
               else f"the ladder has no {fam} chain")
        return [], [f"{b} ({why})" for b in bots], fam
    placed, left = [], []
    for b in bots:
        s = ch.strength(b)
        if s is None:
            left.append(f"{b} (not on the {fam} ladder)")
        else:
            placed.append((b, s))
    placed.sort(key=lambda x: x[1])
    return placed, left, fam
