"""L'Assemblée as a :class:`demos_sim.game.Game` (RULES.md Part A)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from demos_sim import ConfigError
from demos_sim.game import Game, Quantity, toml_literal
from demos_sim.assemblee.layout import CHARACTERS, EVENTS, NHARM, PERSONALITIES

HARMFUL = EVENTS[:NHARM]

_PKG = Path(__file__).resolve().parent.parent

# tune-bot (demos_sim/tuner/bot.py) tunes the persona kernel's parameters (indices:
# demos_sim/assemblee/policies/personas.py PARAMS; integer 0/1 = a switch, 0/1/2 = a named
# mode): name -> (index in params, low, high, step). never_bid and peek are not searched.
TUNE_SPACE: dict[str, tuple[int, float, float, float]] = {
    "bid_per_point": (0, 0.0, 3.0, 0.1),          # gold bid per point of a character
    "bid_noise": (1, 0.0, 6.0, 1.0),
    "reserve": (2, 0.0, 0.9, 0.05),               # share of gold kept back from bids
    "attack": (3, 0.0, 3.0, 0.25),                # Thief/Assassin/Courtesan/Brigand weight
    "pledge": (4, 0, 2, 1),                       # never | fair | conditional
    "pledge_mult": (5, 0.0, 2.0, 0.125),
    "conditional_threshold": (6, 0.0, 1.0, 0.1),
    "spend": (7, 0, 1, 1),
    "target_leader": (8, 0, 1, 1),
    "propose": (9, 0, 1, 1),
    "propose_margin": (10, 0.0, 40.0, 2.5),
    "support_margin": (11, 0.0, 40.0, 2.5),
    "ost_pledge": (12, 0.0, 2.0, 0.125),
    "assassinate": (13, 0.0, 3.0, 0.25),
    "vote": (14, 0, 2, 1),                        # weakest | generous | leader
    "buy": (15, 0, 1, 1),
}
TUNED_PERSONA = "adaptive"     # the persona tune-bot's result file defines (adaptive.toml)
# lcm(1 … 15): a win shared by any k of 15 players is exactly SCALE // k units (M1)
SCALE = 360360


class AssembleeGame(Game):
    """L'Assemblée (RULES.md Part A), 4–15 players; sides are seats.

    ``win_share`` is in units of 1/360360 (lcm 1…15) so that every M1 share is exact.
    A collapse (A5.3) has no winner. Persona files (``FILE.toml``) are accepted as
    plugins. The one setting, ``force_personality`` (``"SEAT=NAME[,…]"``, default none),
    is a simulation device outside Part V (see :class:`AssembleeConfig`): it forces a
    seat's A11 personality for paired comparisons.

    Bins quantities: ``collapse_event`` / ``collapse_tip`` (one-hot over the 11 harmful
    events: pending at the collapse / the newest pending one, whose arrival tipped the
    total; ratios per collapse), ``char_bid`` (sum of winning bids by character, ratio
    per ``char_sold`` = mean winning bid), ``char_sold`` and ``char_revealed`` (auctions
    won / characters revealed per game), ``held_by`` (seats that held the character at
    least once in the game) and ``win_if_held`` (their win share, ratio per ``held_by``),
    ``pers_seats`` and ``win_by_pers`` (win share by A11 personality, ratio).
    """

    name = "assemblee"
    title = "L'Assemblée"
    settings: dict = {"force_personality": None}
    default_policy = "civic"
    summary_metrics = ("no_winner", "collapse", "early_end", "score", "exiled", "assassinated")
    by_policy = "policy_share"
    policies_module = "demos_sim.assemblee.policies"
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
        Quantity("ost_pledged_per_proposal", "game", per="ostracism_proposals",
                 description="gold pledged (and paid) per ostracism proposal (A8)"),
        Quantity("exile_gold", "game", per="ostracism_passes",
                 description="gold of the exiled player, shared out, per exile (A8)"),
        Quantity("exile_renown", "game", per="ostracism_passes",
                 description="renown of the exiled player, shared out, per exile (A8)"),
        Quantity("collapse_event", "bins", rate=True, bins=HARMFUL, per="collapse",
                 description="share of collapses with this event pending (A5.3)"),
        Quantity("collapse_tip", "bins", rate=True, bins=HARMFUL, per="collapse",
                 description="share of collapses whose newest pending event is this one"),
        Quantity("char_sold", "bins", bins=CHARACTERS,
                 description="auctions of the character won per game (A4)"),
        Quantity("char_revealed", "bins", bins=CHARACTERS,
                 description="rounds the character was revealed per game (A4)"),
        Quantity("char_bid", "bins", bins=CHARACTERS, per="char_sold",
                 description="mean winning bid (gold paid by the winner, A4)"),
        Quantity("held_by", "bins", bins=CHARACTERS,
                 description="seats that held the character at least once in the game"),
        Quantity("win_if_held", "bins", SCALE, rate=True, bins=CHARACTERS, per="held_by",
                 description="win share of a seat that held the character (M1, ratio)"),
        Quantity("policy_share", "seat", SCALE, rate=True,
                 description="M1 win share of all the seats playing this seat's policy "
                             "(the same for every seat of a policy)"),
        Quantity("pers_seats", "bins", bins=PERSONALITIES,
                 description="seats dealt the personality (A11)"),
        Quantity("win_by_pers", "bins", SCALE, rate=True, bins=PERSONALITIES,
                 per="pers_seats", description="win share of a seat with the personality"),
    )

    def check_setting(self, key, value):
        if key != "force_personality":
            raise ConfigError(f"L'Assemblée has no setting {key!r}")
        from demos_sim.assemblee.rules import parse_force

        parse_force(value)
        return "none" if value is None else str(value).strip() or "none"

    def make_config(self, settings, players, variants):
        from demos_sim.assemblee.rules import AssembleeConfig

        from demos_sim.assemblee.rules import parse_force

        return AssembleeConfig(players=6 if players is None else players,
                               variants=dict(variants),
                               force_personality=parse_force(
                                   settings.get("force_personality")))

    def labels(self, config, level):
        return [str(i) for i in range(config.players)]

    def describe(self, config):
        d = {"players": config.players, "variants": dict(config.variants),
             "collapse_threshold_in_force": config.threshold}
        if config.force_personality:
            d["force_personality"] = {str(k): v for k, v in config.force_personality.items()}
        return d

    def load_plugin(self, plugin):
        """A policy module, or a persona file ``FILE.toml`` (personas.toml's format)."""
        from demos_sim.assemblee.policies import load_extension

        load_extension(plugin)

    def loaded_plugins(self):
        from demos_sim.assemblee.policies import loaded_extensions

        return tuple(loaded_extensions())

    def play(self, config, specs, seed, chunk, count, metrics=None, first=0):
        from demos_sim.assemblee import layout as L
        from demos_sim.assemblee.sim import play_chunk

        res = play_chunk(config.to_array(), list(specs), seed, config.players,
                         chunk, count, first)
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
        held = hold[:, :, :n] > 0                                   # (games, char, seat)
        coll = res[:, L.R_COLLAPSE_EV:L.R_COLLAPSE_EV + NHARM].copy()
        tip = res[:, L.R_COLLAPSE_NEW]
        tip_hot = (tip[:, None] == np.arange(NHARM)[None, :]).astype(np.int64)
        pers = res[:, L.R_PERS:L.R_PERS + n]
        pers_hot = (pers[:, :, None] == np.arange(6)[None, None, :])   # (games, seat, pe)
        nchar = len(CHARACTERS)
        col = lambda i: res[:, i:i + 1].copy()  # noqa: E731
        seat_specs = list(specs) * n if len(specs) == 1 else list(specs)
        same_policy = np.array([[int(a == b) for b in seat_specs] for a in seat_specs], np.int64)
        out = {
            "win_share": share,
            "policy_share": share @ same_policy,
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
            "ost_pledged_per_proposal": col(L.R_OST_PLEDGED),
            "exile_gold": col(L.R_EXILE_GOLD),
            "exile_renown": col(L.R_EXILE_REN),
            "collapse_event": coll,
            "collapse_tip": tip_hot,
            "char_sold": res[:, L.R_SOLD:L.R_SOLD + nchar].copy(),
            "char_revealed": res[:, L.R_REVEALED:L.R_REVEALED + nchar].copy(),
            "char_bid": res[:, L.R_WINBID:L.R_WINBID + nchar].copy(),
            "held_by": held.sum(axis=2).astype(np.int64),
            "win_if_held": np.einsum("gcs,gs->gc", held.astype(np.int64), share),
            "pers_seats": pers_hot.sum(axis=1).astype(np.int64),
            "win_by_pers": np.einsum("gsk,gs->gk", pers_hot.astype(np.int64), share),
        }
        return {m: out[m] for m in self.needed(metrics)}

    # ---------------------------------------------------------------- tune-bot
    # a persona is tuned as a best response: one seat at a time among the field's players
    tunes_in_place = True

    def tune_space(self, team):
        return dict(TUNE_SPACE)

    def tunable(self, policy):
        from demos_sim.assemblee.policies.basic import persona

        if self.policies.REGISTRY.get(policy).fn is persona:
            return None
        return f"tune-bot tunes L'Assemblée personas (civic, free_rider …), not {policy!r}"

    def tune_warm(self, path):
        raise ConfigError("--warm reads a tuned.toml of DĒMOS; L'Assemblée starts from "
                          "the --policy persona")

    def write_tuned(self, res, command, path):
        """A personas file (``personas.toml``'s format) with one table,
        :data:`TUNED_PERSONA` whatever the file's name (``adaptive.toml`` is read by
        :mod:`demos_sim.assemblee.policies.builtin`)."""
        return persona_toml(res, command, TUNED_PERSONA)

    def source_files(self):
        files = sorted((_PKG / "assemblee").rglob("*.py"))
        files += [_PKG / "assemblee" / "personas.toml"]
        files += [_PKG / f for f in ("rng.py", "sim_common.py", "registry.py", "eventlog.py",
                                     "kernel.py", "layout_alloc.py")]
        return files


def persona_toml(res, command: str = "", name: str = TUNED_PERSONA) -> str:
    """A personas file (``personas.toml``'s format) with one table ``name``: the persona
    tune-bot's result ``res`` found, every searched key written out, and how it was found
    (comments and a ``[NAME]`` description)."""
    from demos_sim.assemblee.policies.personas import PARAMS
    from demos_sim.provenance import CONTRACT, git_revision

    T = toml_literal
    h = res.headline()
    lo, hi = h["ci95"]
    vals = res.named(res.best)
    dflt = res.named(res.default)
    lines = [
        f"# The `{name}` L'Assemblée persona: a best response to a city of "
        f"{'+'.join(res.field)} players",
        "# (one seat at a time among them), found by self-play (demos_sim/tuner/bot.py: TPE",
        "# search on common deals, racing and confirmation on fresh deals). Written by",
        "# `demos-sim tune-bot --game assemblee`; regenerate, do not edit by hand.",
        f"# command: {command}",
        f"# config: {res.config}",
        f"# seed {res.seed}, {res.trials} trials x {res.games} deals, race to {res.race_games} "
        f"deals, {res.deals_played} deals played, {res.wall_s:.0f} s",
        f"# rules contract {CONTRACT}, git revision {git_revision() or '?'}",
        f"# confirmation against {h['against']} in its place: win share {h['win_share']:.4f} "
        f"[{lo:.4f}, {hi:.4f}] on {h['deals']} fresh deals (seed {h['seed']})",
        "# changed from the base persona: " + (", ".join(
            f"{k} {dflt[k]:g} -> {v:g}" for k, v in vals.items() if v != dflt[k]) or "nothing"),
        "",
        f"[{name}]",
        f'description = "best response to a {"+".join(res.field)} city (tune-bot seed '
        f'{res.seed}): win share {h["win_share"]:.3f} [{lo:.3f}, {hi:.3f}] against '
        f'{h["against"]} in its place"',
        f"base = {T(res.policy)}",
    ]
    for key, v in vals.items():
        kind = PARAMS[key][1]
        if kind == "bool":
            lines.append(f"{key} = {T(bool(v))}")
        elif isinstance(kind, dict):
            lines.append(f"{key} = {T(next(k for k, i in kind.items() if i == v))}")
        else:
            lines.append(f"{key} = {T(round(float(v), 6))}")
    return "\n".join(lines) + "\n"
