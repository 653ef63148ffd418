"""The runner's adapter for Protocole (see :mod:`demos_sim.runner.games`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.runner.games import SHARE_SCALE, GameAdapter, Quantity

_PKG = Path(__file__).resolve().parent.parent


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
