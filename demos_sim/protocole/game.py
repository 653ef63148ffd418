"""Protocole as a :class:`demos_sim.game.Game` (RULES.md Part P)."""

from __future__ import annotations

import re

from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.game import SHARE_SCALE, Game, Quantity

_PKG = Path(__file__).resolve().parent.parent

# how a game ended (one-hot): coop outcomes of P5.2; in each mode a game with a winner
# counts as "win" and one where everyone was eliminated (P4.4) as "loss_elimination"
OUTCOME_BINS = ("win", "loss_elimination", "loss_reinforced", "truncated")
# the losing control of a game without a winner, by the Norm it was made against:
# eliminated against an empty Norm, against a final Norm (1-7 cards: that control would
# have ended the game, P4.3) or a mid-game one (8+ cards); reinforced control (P5.3)
# failed at a final or a mid-game control
LOSS_BINS = ("elim_empty_norm", "elim_final", "elim_midgame", "reinf_final", "reinf_midgame")
FAILED_BINS = ("1", "2", "3", "4")     # Foyers failing together at the losing control
EDGE_LCM = 12                          # lcm of the player counts 2, 3, 4


class ProtocoleGame(Game):
    """Protocole (RULES.md Part P): ``mode`` each|coop and ``level`` 1–3 for coop.

    Sides are seats. In coop mode every seat shares the outcome: ``win_share`` of each
    seat is the team's win indicator (P5.2), and ``foyer_cards`` is the record of a won
    game (0 for a loss). ``outcome`` says how a game ended, ``loss_cause`` and
    ``failed_foyers`` how a game without a winner was lost (from the result columns
    ``R_OUTCOME``, ``R_NORM_CARDS`` and ``R_ELIM``), and ``seat_edge`` is a seat's win
    share minus the mean share of all seats in the same game (exact parity intervals).
    """

    name = "protocole"
    title = "Protocole"
    settings = {"mode": "each", "level": None}
    policies_module = "demos_sim.protocole.policies"
    default_policy = "cautious"
    summary_metrics = ("no_winner", "truncated", "outcome", "eliminated", "points")
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
        Quantity("outcome", "bins", rate=True, bins=OUTCOME_BINS,
                 description="how the game ended: win, loss by elimination, loss by the "
                             "reinforced control (coop), truncated"),
        Quantity("loss_cause", "bins", rate=True, per="no_winner", bins=LOSS_BINS,
                 description="share of games without a winner lost at each kind of control "
                             "(elimination against an empty / final / mid-game Norm, "
                             "reinforced control at a final / mid-game Norm)"),
        Quantity("failed_foyers", "bins", rate=True, per="no_winner", bins=FAILED_BINS,
                 description="coop: share of losses whose losing control failed exactly "
                             "k Foyers (reinforced-control losses count in none; 0 in each)"),
        Quantity("seat_edge", "seat", SHARE_SCALE * EDGE_LCM,
                 description="the seat's win share minus the mean win share of all seats "
                             "(0 at parity; always 0 in coop)"),
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

    def make_config(self, settings, players, variants):
        from demos_sim.protocole.rules import ProtocoleConfig

        return ProtocoleConfig(mode=settings.get("mode", "each"), level=settings.get("level"),
                               players=4 if players is None else players,
                               variants=dict(variants))

    def labels(self, config, level):
        return [str(i) for i in range(config.players)]

    def cooperative(self, config):
        return config.mode == "coop"          # P5.2: the team wins or loses together

    def default_policies(self, config):
        return "convention" if config.mode == "coop" else self.default_policy

    def describe(self, config):
        return {"mode": config.mode, "level": config.level, "players": config.players,
                "variants": dict(config.variants)}

    def play(self, config, specs, seed, chunk, count, metrics=None, first=0):
        from demos_sim.protocole import layout as L
        from demos_sim.protocole.sim import play_chunk

        res = play_chunk(config.to_array(), list(specs), seed, config.players,
                         chunk, count, first)
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
        nowin = (nwin == 0) & ~trunc
        if config.mode == "coop":
            out = res[:, L.R_OUTCOME]
            win, by_elim = out == L.OUT_WIN, out == L.OUT_LOSS_ELIM
            by_reinf = out == L.OUT_LOSS_REINF
        else:
            win, by_elim, by_reinf = (nwin > 0) & ~trunc, nowin, np.zeros(count, bool)
        outcome = np.stack([win, by_elim, by_reinf, trunc], axis=1).astype(np.int64)
        k = res[:, L.R_NORM_CARDS]
        final = (k >= 1) & (k <= 7)
        loss = np.stack([by_elim & (k == 0), by_elim & final, by_elim & (k >= 8),
                         by_reinf & (k <= 7), by_reinf & (k >= 8)], axis=1).astype(np.int64)
        nfail = np.zeros(count, np.int64)   # coop: the game ends at its first elimination,
        if config.mode == "coop":           # so R_ELIM is the losing control's failures
            for p in range(n):
                nfail += (res[:, L.R_ELIM] >> p) & 1
        failed = np.stack([by_elim & (nfail == j) for j in range(1, len(FAILED_BINS) + 1)],
                          axis=1).astype(np.int64)
        tot = share.sum(axis=1, keepdims=True)
        edge = EDGE_LCM * share - (EDGE_LCM // n) * tot
        out = {
            "win_share": share,
            "no_winner": nowin.astype(np.int64)[:, None],
            "truncated": trunc.astype(np.int64)[:, None],
            "rounds": res[:, L.R_ROUNDS:L.R_ROUNDS + 1].copy(),
            "points": res[:, L.R_POINTS:L.R_POINTS + n].copy(),
            "eliminated": elim,
            "foyer_cards": foyer.astype(np.int64)[:, None],
            "outcome": outcome,
            "loss_cause": loss,
            "failed_foyers": failed,
            "seat_edge": edge.astype(np.int64),
        }
        return {m: out[m] for m in self.needed(metrics)}

    def ladder_chain(self, figure):
        """Protocole figures name their mode: all together (``coop``: level steps, a
        variant's effect on the team win rate) on the coop chain, ``each`` on the each
        chain; a figure naming both or neither has none."""
        coop = re.search(r"\bcoop\b", figure) is not None
        each = re.search(r"\beach\b", figure) is not None
        if coop == each:
            return None
        return "protocole coop" if coop else "protocole each"

    def source_files(self):
        files = sorted((_PKG / "protocole").rglob("*.py"))
        files += [_PKG / f for f in ("rng.py", "bits.py", "sim_common.py", "registry.py",
                                     "kernel.py", "layout_alloc.py")]
        return files
