"""The runner's adapter for L'Assemblée (see :mod:`demos_sim.runner.games`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.runner.games import GameAdapter, Quantity

_PKG = Path(__file__).resolve().parent.parent
# lcm(1 … 15): a win shared by any k of 15 players is exactly SCALE // k units (M1)
SCALE = 360360


class AssembleeAdapter(GameAdapter):
    """L'Assemblée (RULES.md Part A), 4–15 players; sides are seats.

    ``win_share`` is in units of 1/360360 (lcm 1…15) so that every M1 share is exact.
    A collapse (A5.3) has no winner. Persona files (``FILE.toml``) are accepted as
    plugins.
    """

    name = "assemblee"
    title = "L'Assemblée"
    settings: dict = {}
    default_policy = "civic"
    quantities = (
        Quantity("win_share", "side", SCALE, rate=True, description="M1 win share"),
        Quantity("no_winner", "game", rate=True,
                 description="share of games without a winner (a collapse, A5.3)"),
        Quantity("truncated", "game", rate=True, description="never (no round cap)"),
        Quantity("collapse", "game", rate=True, description="the city collapsed (A5.3)"),
        Quantity("early_end", "game", rate=True,
                 description="ended by fewer than min_players (A8, A12)"),
        Quantity("rounds", "game", hist=(1, 64), description="rounds played"),
        Quantity("score", "seat", hist=(2, 64),
                 description="renown + gold // 3 at the end (0 for players out)"),
        Quantity("gold", "seat", hist=(5, 64), description="gold at the end"),
        Quantity("renown", "seat", hist=(2, 64), description="renown at the end"),
        Quantity("exiled", "seat", rate=True, description="exiled by ostracism (A8)"),
        Quantity("assassinated", "seat", rate=True, description="removed by the Assassin"),
        Quantity("ostracism_proposals", "game", hist=(1, 32),
                 description="ostracism proposals in the game"),
        Quantity("ostracism_passes", "game", hist=(1, 16),
                 description="ostracisms passed in the game"),
        Quantity("ostracism_pledged", "game", description="gold pledged in ostracisms"),
        Quantity("holdings", "seat", description="rounds the seat held a character "
                 "(any of the 15)"),
    )

    def check_setting(self, key, value):
        raise ConfigError(f"L'Assemblée has no setting {key!r}")

    def variant_names(self):
        from demos_sim.assemblee.rules import VARIANTS

        return list(VARIANTS)

    def check_variant(self, name, value):
        from demos_sim.assemblee.rules import check_variant

        return check_variant(name, value)

    def make_config(self, settings, players, variants):
        from demos_sim.assemblee.rules import AssembleeConfig

        return AssembleeConfig(players=6 if players is None else players,
                               variants=dict(variants))

    def labels(self, config, level):
        return [str(i) for i in range(config.players)]

    def describe(self, config):
        return {"players": config.players, "variants": dict(config.variants),
                "collapse_threshold_in_force": config.threshold}

    def check_policies(self, specs, players, plugins):
        from demos_sim.assemblee.policies import load_extension, resolve

        for plugin in plugins:
            load_extension(plugin)
        return [p.name for p in resolve(list(specs), players)]

    def play(self, config, specs, plugins, seed, chunk, count):
        from demos_sim.assemblee import layout as L
        from demos_sim.assemblee.sim import play_chunk

        res = play_chunk(config.to_array(), list(specs), seed, config.players,
                         tuple(plugins), chunk, count)
        n = config.players
        nwin = res[:, L.R_NWIN]
        units = np.where(nwin > 0, SCALE // np.maximum(nwin, 1), 0)
        share = np.empty((count, n), np.int64)
        exiled = np.empty((count, n), np.int64)
        killed = np.empty((count, n), np.int64)
        for p in range(n):
            share[:, p] = ((res[:, L.R_WINMASK] >> p) & 1) * units
            exiled[:, p] = (res[:, L.R_EXILED] >> p) & 1
            killed[:, p] = (res[:, L.R_ASSASSINATED] >> p) & 1
        hold = res[:, L.R_HOLD:L.R_HOLD + L.NCHAR * L.MAXP].reshape(count, L.NCHAR, L.MAXP)
        col = lambda i: res[:, i:i + 1].copy()  # noqa: E731
        return {
            "win_share": share,
            "no_winner": (nwin == 0).astype(np.int64)[:, None],
            "truncated": np.zeros((count, 1), np.int64),
            "collapse": col(L.R_COLLAPSE),
            "early_end": col(L.R_EARLY),
            "rounds": col(L.R_ROUNDS),
            "score": np.maximum(res[:, L.R_SCORE:L.R_SCORE + n], 0),
            "gold": res[:, L.R_GOLD:L.R_GOLD + n].copy(),
            "renown": res[:, L.R_REN:L.R_REN + n].copy(),
            "exiled": exiled,
            "assassinated": killed,
            "ostracism_proposals": col(L.R_OST_PROPOSALS),
            "ostracism_passes": col(L.R_OST_PASSES),
            "ostracism_pledged": col(L.R_OST_PLEDGED),
            "holdings": hold.sum(axis=1)[:, :n].copy(),
        }

    def source_files(self):
        files = sorted((_PKG / "assemblee").rglob("*.py"))
        files += [_PKG / "assemblee" / "personas.toml"]
        files += [_PKG / f for f in ("rng.py", "sim_common.py", "registry.py", "eventlog.py")]
        return files
