"""Game adapters: what the runner needs to know about one game, and nothing more.

The runner is game-neutral. A game plugs in with a :class:`GameAdapter` that

- names its experiment keys (``settings``: e.g. DĒMOS ``rules``, ``mode``, ``seating``)
  and builds a validated configuration from them, the player count and the variants;
- validates one variant value (:meth:`GameAdapter.check_variant`) and policy names;
- plays one chunk of one configuration (:meth:`GameAdapter.play`) and returns, for every
  game, integer values of its :data:`quantities <GameAdapter.quantities>` — the win share
  of every side (M1, times :data:`SHARE_SCALE` so that 1/k is an integer), the no-winner
  and truncated indicators, game length, points by seat …;
- names the source files whose code decides those values (for the resume fingerprint).

Everything else — aggregates, pairing, intervals, storage, tables, the report — is the
runner's. Protocole plugs in the same way: an adapter whose ``play`` calls its engine's
``play_batch`` and maps its result rows (``R_WINMASK``/``R_NWIN`` for the win share,
``R_POINTS`` for points, ``R_ROUNDS``) onto the same quantities, registered in
``_ADAPTERS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from demos_sim import ConfigError

SHARE_SCALE = 60          # lcm(1 … 5): a win shared by k (M1) is 60 // k units


@dataclass(frozen=True)
class Quantity:
    """A per-game integer measure.

    Parameters
    ----------
    name : metric name used in experiment files and tables.
    level : ``"side"`` (one value per side), ``"seat"`` (per seat), ``"game"`` (one) or
        ``"bins"`` (one value per label of ``bins``: a per-game vector such as vetoes
        used in each round, or one-hot indicators of a category).
    scale : stored integers are value × scale (win share: :data:`SHARE_SCALE`).
    rate : a proportion in [0, 1] (its interval is clipped to [0, 1]).
    hist : ``(bin width, number of bins)`` of a histogram kept per chunk, or None;
        values past the last bin are counted in it (overflow bin).
    bins : column labels of a ``"bins"`` quantity.
    per : name of a denominator quantity, or None. When given, the quantity is reported
        as the ratio ``Σx / Σy`` of its sum to the denominator's (column by column, or
        over the denominator's single column), with a delta-method interval: e.g. the
        win share of players who held one Media is Σ(win share · [held one]) over
        Σ[held one]. Ratios carry no paired difference.
    description : one line for the report.
    """

    name: str
    level: str
    scale: int = 1
    rate: bool = False
    hist: tuple[int, int] | None = None
    description: str = ""
    bins: tuple[str, ...] = ()
    per: str | None = None


class GameAdapter:
    """Interface of a game for the runner (see the module docstring)."""

    name: str = ""
    title: str = ""
    settings: dict[str, Any] = {}       # experiment key -> default
    quantities: tuple[Quantity, ...] = ()
    default_policy: str = ""

    def check_setting(self, key: str, value: Any) -> Any:
        raise NotImplementedError

    def variant_names(self) -> list[str]:
        raise NotImplementedError

    def check_variant(self, name: str, value: Any) -> Any:
        raise NotImplementedError

    def make_config(self, settings: dict, players: int | None, variants: dict):
        raise NotImplementedError

    def players_of(self, config) -> int:
        return config.players

    def labels(self, config, level: str) -> list[str]:
        """Labels of the sides or seats of ``config`` (level "side" or "seat")."""
        raise NotImplementedError

    def side_seats(self, config) -> list[list[int]]:
        """Seats of every side, indexed like ``labels(config, "side")``."""
        return [[i] for i in range(self.players_of(config))]

    def describe(self, config) -> dict:
        """The configuration as plain JSON (every variant with its value in force)."""
        raise NotImplementedError

    policies_module: str = ""     # the game's policy module (a ``resolve`` function)

    def check_policies(self, specs: list[str], players: int, plugins: list[str]) -> list[str]:
        """Load ``plugins``, resolve ``specs`` (one-line error on an unknown policy)."""
        import importlib

        from demos_sim.registry import load_plugin

        for plugin in plugins:
            load_plugin(plugin)
        return [p.name for p in importlib.import_module(self.policies_module).resolve(
            list(specs), players)]

    def play(self, config, specs: list[str], plugins: tuple, seed: int, chunk: int,
             count: int) -> dict[str, np.ndarray]:
        """Games ``0 … count-1`` of chunk ``chunk``: quantity -> int64 (count, m)."""
        raise NotImplementedError

    def source_files(self) -> list[Path]:
        raise NotImplementedError

    def quantity(self, name: str) -> Quantity:
        for q in self.quantities:
            if q.name == name:
                return q
        raise KeyError(name)


# name -> "module:class"; imported on first use, so each game's adapter lives beside its
# engine and a new game registers with one line here.
_ADAPTERS = {"demos": "demos_sim.demos.adapter:DemosAdapter",
             "protocole": "demos_sim.protocole.adapter:ProtocoleAdapter",
             "assemblee": "demos_sim.assemblee.adapter:AssembleeAdapter"}
_LOADED: dict[str, GameAdapter] = {}


def adapter(name: str) -> GameAdapter:
    if name not in _ADAPTERS:
        raise ConfigError(f"unknown or not yet available game {name!r} for experiments "
                          f"(available: {', '.join(_ADAPTERS)})")
    if name not in _LOADED:
        import importlib

        mod, cls = _ADAPTERS[name].split(":")
        _LOADED[name] = getattr(importlib.import_module(mod), cls)()
    return _LOADED[name]
