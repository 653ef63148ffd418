"""L'Assemblée configuration: players and every variant of RULES.md Part V.

An :class:`AssembleeConfig` is frozen and validated on construction: an invalid
configuration raises :class:`demos_sim.ConfigError` with a one-line message before
anything runs. ``to_array()`` packs it into the int64 vector the kernels read (offsets
in :mod:`demos_sim.assemblee.layout`). ``--set`` values are parsed by
:func:`demos_sim.game.parse_set` (JSON when it parses, a string otherwise).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from demos_sim import MAX_SETTING, ConfigError
from demos_sim.assemblee import layout as L
from demos_sim.restricted import Form, Needs

MIN_PLAYERS, MAX_PLAYERS = 4, 15
MAX_ROUNDS = L.MAXPEND      # simulator limit: one pending event a round at most

# Part V, L'Assemblée: name -> default.
VARIANTS: dict[str, Any] = {
    "rounds": 10,
    "collapse_threshold": None,
    "min_players": 3,
    "personalities": False,
    "akikos_income": "bonus",
    "oracle_view": "three_bids",
    "postpone_surcharge": "per_round",
    "event_draw": "deck",
    "final_tie": "shared",
}

# What each variant changes, with its rule ID (``demos-sim variants``; RULES.md Part V).
VARIANT_HELP = {
    "rounds": "A1 rounds in a game (the booklet suggests 7 or 15 as alternatives)",
    "collapse_threshold": "A5.3 total cost of pending events that collapses the city; null: "
                          "by players at the start (4-7: 20, 8-11: 35, 12-15: 40)",
    "min_players": "A8/A12 the game ends at once when fewer remain (exile, assassination)",
    "personalities": "A11 deal one of the 6 personalities to each player",
    "akikos_income": "A11 Akikos's income: bonus (7 + 6) | total (6)",
    "oracle_view": "A4 the Oracle's advantage: three_bids (one other player's bid at each of "
                   "the first 3 auctions, drawn each time) | three_players (the same 3 "
                   "players' bids at every auction: contract 1)",
    "postpone_surcharge": "A5.2/A5.3 a postponed event's cost: per_round (base + X + 3p) | "
                          "once (base + X + 3·min(p, 1))",
    "event_draw": "A3 the event: deck (15 cards, reshuffled when empty) | independent (one "
                  "of the 15 at random each round, repeats allowed)",
    "final_tie": "A10 a tie after gold: shared | mc_choice (the MC at the end names the "
                 "winner among the tied)",
}

# the variants whose value is one of a few names (Part V); the first is the default
# Variants that can change a game only in part of the game: name -> (does it apply to
# this configuration?, where it applies) (Game.variant_scope; compare refuses the rest).
SCOPE = {
    "akikos_income": (lambda c: bool(c.variants["personalities"]),
                      "with personalities = true (A11)"),
}

# Restricted policy forms (``name:flag``, demos_sim.restricted): flag (an fnmatch pattern)
# -> what it bars and the settings under which that decision arises, with the rule when it
# does not. Every flag of every built-in policy is declared (tests/runner/test_restricted.py
# checks it), so a new flag must say here when it can change a decision.
RESTRICTED = {
    # never bid on one character (A4): every character can be revealed in any game
    "no_*": Form("stop bidding on that character"),
}

CHOICES: dict[str, tuple[str, ...]] = {
    "akikos_income": ("bonus", "total"),
    "oracle_view": ("three_bids", "three_players"),
    "postpone_surcharge": ("per_round", "once"),
    "event_draw": ("deck", "independent"),
    "final_tie": ("shared", "mc_choice"),
}


def default_threshold(players: int) -> int:
    """A5.3: 4–7 players -> 20, 8–11 -> 35, 12–15 -> 40 (players at the start)."""
    return 20 if players <= 7 else 35 if players <= 11 else 40


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_variant(name: str, value: Any) -> Any:
    """Validate one variant value (Part V) and return it normalised."""
    if name not in VARIANTS:
        raise ConfigError(f"unknown L'Assemblée variant {name!r} (known: {', '.join(VARIANTS)})")
    if name == "rounds":
        if not _is_int(value) or not 1 <= value <= MAX_ROUNDS:
            raise ConfigError(f"variant rounds must be an integer from 1 to {MAX_ROUNDS}, "
                              f"got {value!r}")
        return int(value)
    if name == "collapse_threshold":
        if value is None or value == "null":     # TOML has no null: "null" in files
            return None
        if not _is_int(value) or not 1 <= value <= MAX_SETTING:
            raise ConfigError(f"variant collapse_threshold must be null or an integer from 1 "
                              f"to {MAX_SETTING}, got {value!r}")
        return int(value)
    if name == "min_players":
        if not _is_int(value) or not 2 <= value <= MAX_SETTING:
            raise ConfigError(f"variant min_players must be an integer from 2 to "
                              f"{MAX_SETTING}, got {value!r}")
        return int(value)
    if name == "personalities":
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"variant personalities must be true or false, got {value!r}")
        return bool(value)
    choices = CHOICES[name]
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"variant {name} must be one of {', '.join(choices)}, got {value!r}")
    return value


@dataclass(frozen=True)
class AssembleeConfig:
    """A validated L'Assemblée configuration.

    Parameters
    ----------
    players : 4–15 (Part A).
    variants : any subset of the L'Assemblée variants of Part V; the rest take defaults.
    force_personality : ``{seat: personality name}`` — a simulation setting outside Part V
        (records never carry it), for paired personality comparisons: with
        ``personalities = true`` the personalities are dealt as A11 says, then each named
        seat takes the one given, swapping with the first other seat dealt it (so the
        others' deal changes by one swap at most). Without ``personalities = true`` no
        personality is dealt and it has no effect.
    """

    players: int = 6
    variants: dict = field(default_factory=dict)
    force_personality: dict = field(default_factory=dict)

    def __post_init__(self):
        if not _is_int(self.players):
            raise ConfigError(f"players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"L'Assemblée takes 4–15 players (Part A), got {self.players}")
        v = {name: check_variant(name, val) for name, val in dict(self.variants or {}).items()}
        for name, default in VARIANTS.items():
            v.setdefault(name, default)
        object.__setattr__(self, "variants", {k: v[k] for k in VARIANTS})
        object.__setattr__(self, "players", int(self.players))
        force = {}
        for seat, name in dict(self.force_personality or {}).items():
            if not _is_int(seat) or not 0 <= seat < self.players:
                raise ConfigError(f"force_personality: seat must be 0–{self.players - 1}, "
                                  f"got {seat!r}")
            if name not in L.PERSONALITIES:
                raise ConfigError(f"force_personality: unknown personality {name!r} "
                                  f"(known: {', '.join(L.PERSONALITIES)})")
            force[int(seat)] = name
        object.__setattr__(self, "force_personality", dict(sorted(force.items())))

    @property
    def threshold(self) -> int:
        """The A5.3 collapse threshold in force."""
        t = self.variants["collapse_threshold"]
        return default_threshold(self.players) if t is None else t

    def replace(self, **changes) -> "AssembleeConfig":
        return dataclasses.replace(self, **changes)

    def to_array(self, check_obs: bool = False, log: bool = False) -> np.ndarray:
        v = self.variants
        a = np.zeros(L.CFG_LEN, np.int64)
        a[L.C_N] = self.players
        a[L.C_ROUNDS] = v["rounds"]
        a[L.C_THRESH] = self.threshold
        a[L.C_MINP] = v["min_players"]
        a[L.C_PERS] = v["personalities"]
        a[L.C_AKIKOS_TOTAL] = v["akikos_income"] == "total"
        a[L.C_ORACLE_PLAYERS] = v["oracle_view"] == "three_players"
        a[L.C_SURCHARGE_ONCE] = v["postpone_surcharge"] == "once"
        a[L.C_EVENT_INDEP] = v["event_draw"] == "independent"
        a[L.C_FINAL_MC] = v["final_tie"] == "mc_choice"
        a[L.C_CHECK_OBS] = check_obs
        a[L.C_LOG] = log
        a[L.C_FORCE:L.C_FORCE + L.MAXP] = -1
        for seat, name in self.force_personality.items():
            a[L.C_FORCE + seat] = L.PERSONALITIES.index(name)
        return a


def parse_force(value: Any) -> dict:
    """``"0=nimos,3=ulios"`` (or ``"none"``/``""``) -> ``{0: "nimos", 3: "ulios"}``."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "none")):
        return {}
    if not isinstance(value, str):
        raise ConfigError(f"force_personality must be a string like \"0=nimos\", got {value!r}")
    out = {}
    for item in value.split(","):
        seat, sep, name = item.strip().partition("=")
        if not sep or not seat.strip().isdigit():
            raise ConfigError(f"force_personality expects SEAT=NAME[,SEAT=NAME], got {value!r}")
        if name.strip() not in L.PERSONALITIES:
            raise ConfigError(f"force_personality: unknown personality {name.strip()!r} "
                              f"(known: {', '.join(L.PERSONALITIES)})")
        out[int(seat)] = name.strip()
    return out
