"""The runner's adapter for DĒMOS (see :mod:`demos_sim.runner.games`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.runner.games import SHARE_SCALE, GameAdapter, Quantity

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
