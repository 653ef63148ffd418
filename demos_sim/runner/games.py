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
:data:`ADAPTERS`.
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
    level : ``"side"`` (one value per side), ``"seat"`` (per seat) or ``"game"`` (one).
    scale : stored integers are value × scale (win share: :data:`SHARE_SCALE`).
    rate : a proportion in [0, 1] (its interval is clipped to [0, 1]).
    hist : ``(bin width, number of bins)`` of a histogram kept per chunk, or None;
        values past the last bin are counted in it (overflow bin).
    description : one line for the report.
    """

    name: str
    level: str
    scale: int = 1
    rate: bool = False
    hist: tuple[int, int] | None = None
    description: str = ""


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

    def check_policies(self, specs: list[str], players: int, plugins: list[str]) -> list[str]:
        raise NotImplementedError

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


_PKG = Path(__file__).resolve().parent.parent


class DemosAdapter(GameAdapter):
    name = "demos"
    title = "DĒMOS"
    settings = {"rules": "full", "mode": "individual", "seating": None}
    default_policy = "greedy"
    quantities = (
        Quantity("win_share", "side", SHARE_SCALE, rate=True,
                 description="M1 win share (a win shared by k counts 1/k)"),
        Quantity("no_winner", "game", rate=True, description="share of games without a winner"),
        Quantity("truncated", "game", rate=True,
                 description="share of games stopped by round_cap"),
        Quantity("rounds", "game", hist=(1, 256), description="game length in rounds"),
        Quantity("points", "seat", hist=(5, 256),
                 description="cumulative points at the end of the game"),
        Quantity("vetoes", "game", description="vetoes used per game"),
    )

    def check_setting(self, key, value):
        from demos_sim.demos.rules import MODES, RULES_SETS

        if key == "rules":
            if value not in RULES_SETS:
                raise ConfigError(f"must be one of {', '.join(RULES_SETS)}, got {value!r}")
        elif key == "mode":
            if value not in MODES:
                raise ConfigError(f"must be one of {', '.join(MODES)}, got {value!r}")
        elif key == "seating":
            if not isinstance(value, str):
                raise ConfigError(f"must be a string of team labels by seat, got {value!r}")
        return value

    def variant_names(self):
        from demos_sim.demos.rules import VARIANTS

        return list(VARIANTS)

    def check_variant(self, name, value):
        from demos_sim.demos.rules import VARIANTS, check_variant

        # TOML has no null: the string "null" stands for it where a variant allows null.
        if value == "null" and name in VARIANTS and VARIANTS[name][0] == "int_or_null":
            value = None
        return check_variant(name, value)

    def make_config(self, settings, players, variants):
        from demos_sim.demos.rules import MODE_PLAYERS, DemosConfig

        mode = settings.get("mode", "individual")
        if players is None:
            players = MODE_PLAYERS.get(mode, 4)
        return DemosConfig(rules=settings.get("rules", "full"), mode=mode, players=players,
                           seating=settings.get("seating"), variants=dict(variants))

    def labels(self, config, level):
        if level == "side":
            return config.side_labels()
        return [str(i) for i in range(config.players)]

    def side_seats(self, config):
        sides = config.side_of_seat()
        return [[i for i, s in enumerate(sides) if s == j]
                for j in range(len(config.side_labels()))]

    def describe(self, config):
        return {"rules": config.rules, "mode": config.mode, "players": config.players,
                "seating": config.seating, "variants": dict(config.variants)}

    def check_policies(self, specs, players, plugins):
        from demos_sim.demos.policies import resolve
        from demos_sim.registry import load_plugin

        for plugin in plugins:
            load_plugin(plugin)
        return [p.name for p in resolve(list(specs), players)]

    def play(self, config, specs, plugins, seed, chunk, count):
        from demos_sim.demos import layout as L
        from demos_sim.demos.sim import play_chunk

        res = play_chunk(config.to_array(), list(specs), seed, config.players, tuple(plugins),
                         chunk, count)
        nsides = len(config.side_labels())
        nwin = res[:, L.R_NWIN]
        units = np.where(nwin > 0, SHARE_SCALE // np.maximum(nwin, 1), 0)
        share = np.empty((count, nsides), np.int64)
        for s in range(nsides):
            share[:, s] = ((res[:, L.R_WINSIDES] >> s) & 1) * units
        trunc = res[:, L.R_TRUNC] == 1
        return {
            "win_share": share,
            "no_winner": ((nwin == 0) & ~trunc).astype(np.int64)[:, None],
            "truncated": trunc.astype(np.int64)[:, None],
            "rounds": res[:, L.R_ROUNDS:L.R_ROUNDS + 1].copy(),
            "points": res[:, L.R_CUM:L.R_CUM + config.players].copy(),
            "vetoes": res[:, L.R_VETOES_USED:L.R_VETOES_USED + 1].copy(),
        }

    def source_files(self):
        files = sorted((_PKG / "demos").rglob("*.py"))
        files += [_PKG / f for f in ("rng.py", "bits.py", "cards.py", "sim_common.py",
                                     "registry.py")]
        return files


class ProtocoleAdapter(GameAdapter):
    """Protocole (RULES.md Part P): ``mode`` each|coop and ``level`` 1–3 for coop.

    Sides are seats. In coop mode every seat shares the outcome: ``win_share`` of each
    seat is the team's win indicator (P5.2), and ``foyer_cards`` is the record of a won
    game (0 for a loss).
    """

    name = "protocole"
    title = "Protocole"
    settings = {"mode": "each", "level": None}
    default_policy = "cautious"
    quantities = (
        Quantity("win_share", "side", SHARE_SCALE, rate=True,
                 description="M1 win share (each for themselves); the team's win (coop)"),
        Quantity("no_winner", "game", rate=True,
                 description="share of games without a winner (coop: losses)"),
        Quantity("truncated", "game", rate=True,
                 description="share of games stopped by round_cap"),
        Quantity("rounds", "game", hist=(1, 128), description="game length in rounds"),
        Quantity("points", "seat", hist=(1, 64),
                 description="cumulative points at the end (each for themselves)"),
        Quantity("eliminated", "seat", rate=True, description="share of games eliminated in"),
        Quantity("foyer_cards", "game", hist=(1, 37),
                 description="cards in all Foyers at the end of a won coop game (else 0)"),
    )

    def check_setting(self, key, value):
        from demos_sim.protocole.rules import LEVELS, MODES

        if key == "mode":
            if value not in MODES:
                raise ConfigError(f"must be one of {', '.join(MODES)}, got {value!r}")
        elif key == "level":
            if value is not None and (isinstance(value, bool) or value not in LEVELS):
                raise ConfigError(f"must be 1, 2 or 3 (P5.3), got {value!r}")
        return value

    def variant_names(self):
        from demos_sim.protocole.rules import VARIANTS

        return list(VARIANTS)

    def check_variant(self, name, value):
        from demos_sim.protocole.rules import check_variant

        return check_variant(name, value)

    def make_config(self, settings, players, variants):
        from demos_sim.protocole.rules import ProtocoleConfig

        return ProtocoleConfig(mode=settings.get("mode", "each"), level=settings.get("level"),
                               players=4 if players is None else players,
                               variants=dict(variants))

    def labels(self, config, level):
        return [str(i) for i in range(config.players)]

    def describe(self, config):
        return {"mode": config.mode, "level": config.level, "players": config.players,
                "variants": dict(config.variants)}

    def check_policies(self, specs, players, plugins):
        from demos_sim.protocole.policies import resolve
        from demos_sim.registry import load_plugin

        for plugin in plugins:
            load_plugin(plugin)
        return [p.name for p in resolve(list(specs), players)]

    def play(self, config, specs, plugins, seed, chunk, count):
        from demos_sim.protocole import layout as L
        from demos_sim.protocole.sim import play_chunk

        res = play_chunk(config.to_array(), list(specs), seed, config.players, tuple(plugins),
                         chunk, count)
        n = config.players
        nwin = res[:, L.R_NWIN]
        units = np.where(nwin > 0, SHARE_SCALE // np.maximum(nwin, 1), 0)
        share = np.empty((count, n), np.int64)
        elim = np.empty((count, n), np.int64)
        for p in range(n):
            share[:, p] = ((res[:, L.R_WINMASK] >> p) & 1) * units
            elim[:, p] = (res[:, L.R_ELIM] >> p) & 1
        trunc = res[:, L.R_TRUNC] == 1
        if config.mode == "coop":   # the team wins or loses together (P5.2)
            won = (res[:, L.R_OUTCOME] == L.OUT_WIN).astype(np.int64)
            share = np.repeat(won[:, None] * SHARE_SCALE, n, axis=1)
        foyer = np.where(res[:, L.R_OUTCOME] == L.OUT_WIN, res[:, L.R_FOYER_CARDS], 0)
        return {
            "win_share": share,
            "no_winner": ((nwin == 0) & ~trunc).astype(np.int64)[:, None],
            "truncated": trunc.astype(np.int64)[:, None],
            "rounds": res[:, L.R_ROUNDS:L.R_ROUNDS + 1].copy(),
            "points": res[:, L.R_POINTS:L.R_POINTS + n].copy(),
            "eliminated": elim,
            "foyer_cards": foyer.astype(np.int64)[:, None],
        }

    def source_files(self):
        files = sorted((_PKG / "protocole").rglob("*.py"))
        files += [_PKG / f for f in ("rng.py", "bits.py", "sim_common.py", "registry.py")]
        return files


ADAPTERS: dict[str, GameAdapter] = {"demos": DemosAdapter(), "protocole": ProtocoleAdapter()}


def adapter(name: str) -> GameAdapter:
    if name not in ADAPTERS:
        raise ConfigError(f"unknown or not yet available game {name!r} for experiments "
                          f"(available: {', '.join(ADAPTERS)})")
    return ADAPTERS[name]
