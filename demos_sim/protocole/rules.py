"""Protocole configuration: mode, level, players and every variant of RULES.md Part V.

A :class:`ProtocoleConfig` is frozen and validated on construction (P1.2, P1.3, P5.3,
Part V): an invalid configuration raises :class:`demos_sim.ConfigError` with a one-line
message before anything runs. ``to_array()`` packs it into the int64 vector the kernels
read (offsets in :mod:`demos_sim.protocole.layout`).

Readings (stated here once, cited where used):

- P3.2 / ``standard_tie``: at every cooperative level the selection is reinforced, so
  ``standard_tie`` has no effect in ``coop`` (it is still recorded, Part V). Reinforced
  selection is the same rule as standard ``discard_all``: a tie at ``m`` removes the
  whole Selection, a single card goes to the Norm.
- P3.1a / ``majority_scope``: ``per_dimension`` applies to standard and reinforced
  selection alike, in both modes; its tie (several colours or several symbols at the
  top) is the one ``standard_tie`` and P3.2 act on (reading in
  :func:`demos_sim.protocole.norm.norm_keep_per_dimension`).
- P5.3 / ``reinforced_scope``: only cooperative levels 2–3 have a reinforced control;
  the variant is recorded but has no effect elsewhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from demos_sim import MAX_ROUND_CAP, ConfigError
from demos_sim.protocole import layout as L
from demos_sim.restricted import Form, Needs

MODES = ("each", "coop")
LEVELS = (1, 2, 3)
FOYER_START = {None: 2, 1: 1, 2: 2, 3: 3}      # P1.3
REINFORCED_NEED = {None: 0, 1: 0, 2: 1, 3: 2}  # P5.3: cards with both attributes in the Norm

# Variants that can change a game only in part of the game: name -> (does it apply to
# this configuration?, where it applies) (Game.variant_scope; compare refuses the rest).
SCOPE = {
    "standard_tie": (lambda c: c.mode == "each",
                     "to mode each (P3.2: coop selection is reinforced)"),
    "reinforced_scope": (lambda c: c.mode == "coop" and c.level in (2, 3),
                         "to coop levels 2 and 3 (P5.3)"),
}

# Restricted policy forms (``name:flag``, demos_sim.restricted): flag (an fnmatch pattern)
# -> what it bars and the settings under which that decision arises, with the rule when it
# does not. Every flag of every built-in policy is declared (tests/runner/test_restricted.py
# checks it), so a new flag must say here when it can change a decision.
RESTRICTED = {
    # ismcts:basic: the rollout policy of the search, under every level and variant
    "basic": Form("change its rollout policy"),
    # sparta:uniform: its worlds drawn uniformly (no belief), under every level and variant
    "uniform": Form("draw its worlds without the belief"),
}

# Part V, Protocole: name -> (allowed values or "int", default).
VARIANTS: dict[str, tuple[Any, Any]] = {
    "standard_tie": (("keep_tied", "discard_all"), "keep_tied"),
    "reinforced_scope": (("each_player", "team"), "each_player"),
    "round_cap": ("int", 100),
    "majority_scope": (("pooled", "per_dimension"), "pooled"),   # P3.1a
}

# What each variant changes, with its rule ID (``demos-sim variants``; RULES.md Part V).
VARIANT_HELP = {
    "standard_tie": "P3.1 a tie at the top in standard selection: keep_tied | discard_all "
                    "(no effect in coop, whose selection is reinforced)",
    "reinforced_scope": "P5.3 the reinforced control: each_player (every Foyer) | team (all "
                        "Foyers together); coop levels 2-3 only",
    "round_cap": "P4.5 safety cap: a game reaching it is reported as truncated",
    "majority_scope": "P3.1a the majority: pooled (one count over colours and symbols) | "
                      "per_dimension (colours and symbols counted apart)",
}


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_variant(name: str, value: Any) -> Any:
    """Validate one variant value (Part V) and return it normalised."""
    if name not in VARIANTS:
        raise ConfigError(
            f"unknown Protocole variant {name!r} (known: {', '.join(VARIANTS)})")
    kind, _ = VARIANTS[name]
    if kind == "int":
        if not _is_int(value) or value < 1:          # Part V: round_cap >= 1
            raise ConfigError(f"variant {name} must be an integer >= 1, got {value!r}")
        if value > MAX_ROUND_CAP:
            raise ConfigError(f"variant {name} is at most {MAX_ROUND_CAP}, got {value}")
        return int(value)
    if value not in kind:
        raise ConfigError(f"variant {name} must be one of {', '.join(kind)}, got {value!r}")
    return value


@dataclass(frozen=True)
class ProtocoleConfig:
    """A validated Protocole game configuration.

    Parameters
    ----------
    mode : "each" (each for themselves, P4) or "coop" (all together, P5).
    level : 1, 2 or 3 in "coop" (P5.3); None in "each".
    players : 2–4 (P1.2).
    variants : any subset of the Protocole variants of Part V; the rest take defaults.
    """

    mode: str = "each"
    level: int | None = None
    players: int = 4
    variants: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.mode not in MODES:
            raise ConfigError(f"unknown Protocole mode {self.mode!r} (expected each or coop)")
        if not _is_int(self.players):
            raise ConfigError(f"players must be an integer, got {self.players!r}")
        if not 2 <= self.players <= 4:
            raise ConfigError(f"Protocole takes 2–4 players (P1.2), got {self.players}")
        if self.mode == "each":
            if self.level is not None:
                raise ConfigError(
                    f"a level ({self.level!r}) applies to the coop mode only (P5.3), not to each")
        else:
            if self.level is None:
                raise ConfigError("the coop mode needs a level: 1, 2 or 3 (P5.3)")
            if not _is_int(self.level) or self.level not in LEVELS:
                raise ConfigError(f"coop level must be 1, 2 or 3 (P5.3), got {self.level!r}")
        v = {}
        for name, val in dict(self.variants or {}).items():
            v[name] = check_variant(name, val)
        for name, (_, default) in VARIANTS.items():
            v.setdefault(name, default)
        object.__setattr__(self, "variants", {k: v[k] for k in VARIANTS})
        object.__setattr__(self, "players", int(self.players))
        if self.level is not None:
            object.__setattr__(self, "level", int(self.level))

    @property
    def foyer_start(self) -> int:
        """P1.3: cards dealt into each Foyer at setup."""
        return FOYER_START[self.level]

    def replace(self, **changes) -> "ProtocoleConfig":
        return dataclasses.replace(self, **changes)

    def to_array(self, check_obs: bool = False, log: bool = False) -> np.ndarray:
        v = self.variants
        coop = self.mode == "coop"
        a = np.zeros(L.CFG_LEN, np.int64)
        a[L.C_MODE] = MODES.index(self.mode)
        a[L.C_LEVEL] = self.level or 0
        a[L.C_N] = self.players
        a[L.C_FOYER_START] = self.foyer_start
        a[L.C_REINF_SEL] = coop                         # P3.2 at every level (P5.3)
        a[L.C_TIE_DISCARD] = v["standard_tie"] == "discard_all"
        a[L.C_SCOPE_TEAM] = v["reinforced_scope"] == "team"
        a[L.C_NEED] = REINFORCED_NEED[self.level] if coop else 0
        a[L.C_ROUND_CAP] = v["round_cap"]
        a[L.C_PER_DIM] = v["majority_scope"] == "per_dimension"   # P3.1a
        a[L.C_CHECK_OBS] = check_obs
        a[L.C_LOG] = log
        return a
