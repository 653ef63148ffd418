"""DĒMOS configuration: rules set, mode, seating and every variant of RULES.md Part V.

A :class:`DemosConfig` is frozen and validated on construction (D2.2, D2.3, D9.1, D9.2,
Part V): an invalid configuration raises :class:`demos_sim.ConfigError` with a one-line
message before anything runs. ``to_array()`` packs it into the int64 vector the kernels
read (offsets in :mod:`demos_sim.demos.layout`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from demos_sim import MAX_ROUND_CAP, MAX_SETTING, ConfigError
from demos_sim.demos import layout as L
from demos_sim.restricted import Form, Needs

RULES_SETS = ("full", "simplified")
MODES = ("individual", "2v2", "2v3", "2v2+1")
DEFAULT_SEATING = {"2v2": "ABAB", "2v3": "ABABB", "2v2+1": "ABABI"}
MODE_PLAYERS = {"2v2": 4, "2v3": 5, "2v2+1": 5}

# Part V, DĒMOS: name -> (kind, default). kind: "int", "int_or_null", "bool",
# "run_base", or a tuple of allowed strings. secret_optional's default depends on rules.
VARIANTS: dict[str, tuple[Any, Any]] = {
    "carre_points": ("int", 30),
    "run_base": ("run_base", [12, 8, 4]),
    "secret_optional": ("bool", None),
    "max_rounds": ("int_or_null", None),
    "round_cap": ("int", 200),
    "media_targets_revealed": ("bool", False),
    "media_optional": ("bool", False),
    "no_trio_winner": (("none", "points"), "none"),
    "team_vetoes": ("int", 2),
    "team_points_tiebreak": (("max", "sum"), "max"),
    "independent_double_media": (("keep", "act"), "keep"),
    "independent_points_strict": ("bool", True),
    "p3_harmonies": (("bicolour_then_mono", "mono_only"), "bicolour_then_mono"),
    "favourite_suit_bonus": ("int", 0),
    "announced_trio": ("bool", False),
    "team_trio": (("best_member", "pooled"), "best_member"),
    "team_talk": (("figures", "hands"), "figures"),
    "p3_points_tiebreak": (("sum", "max"), "sum"),
}
_MIN = {"round_cap": 1, "max_rounds": 1}

# Variants that can change a game only in part of the game (RULES.md): name -> (does it
# apply to this configuration?, where it applies). ``demos-sim compare`` refuses one
# outside its scope, whose games would be identical (Game.variant_scope).
_TEAM = ("2v2", "2v3", "2v2+1")
SCOPE = {
    "team_vetoes": (lambda c: c.mode == "2v3", "to mode 2v3 (D9.3)"),
    "team_points_tiebreak": (lambda c: c.mode in _TEAM, "to the team modes (D9.5)"),
    "team_trio": (lambda c: c.mode in _TEAM, "to the team modes (D9.5)"),
    "team_talk": (lambda c: c.mode in _TEAM, "to the team modes (D9.2)"),
    "independent_double_media": (lambda c: c.mode == "2v2+1", "to mode 2v2+1 (D9.6)"),
    "independent_points_strict": (lambda c: c.mode == "2v2+1", "to mode 2v2+1 (D9.6)"),
    "p3_harmonies": (lambda c: c.mode == "2v2+1", "to mode 2v2+1 (D9.6)"),
    "p3_points_tiebreak": (lambda c: c.mode == "2v2+1", "to mode 2v2+1 (D9.6)"),
    "carre_points": (lambda c: c.rules == "full", "to the full rules (D8: no Carré)"),
    "media_targets_revealed": (lambda c: c.rules == "full",
                               "to the full rules (D8: no Scandal, no Media)"),
    "media_optional": (lambda c: c.rules == "full",
                       "to the full rules (D8: no Scandal, no Media)"),
}

# Restricted policy forms (``name:flag``, demos_sim.restricted): flag (an fnmatch pattern)
# -> what it bars and the settings under which that decision arises, with the rule when it
# does not. Every flag of every built-in policy is declared (tests/runner/test_restricted.py
# checks it), so a new flag must say here when it can change a decision.
_FULL = "there is no {} under the simplified rules (D8: no unanimous turn, no Scandal phase)"
RESTRICTED = {
    # D3.4.1: only a side holding a veto is asked; D8: no unanimous turn at all
    "noveto": Form("give up the veto", (Needs("rules", "full", _FULL.format("veto")),)),
    # D6.2: the Media is played while a legal target exists unless media_optional;
    # D8: no Media (and no Scandal phase) in the simplified rules
    "nomedia": Form("decline the Media",
                    (Needs("rules", "full", _FULL.format("Media")),
                     Needs("media_optional", True, "it is compulsory under D6.2"))),
    # D3.3: the secret turn's take exists under both rule sets
    "notake": Form("refuse a face-up discard"),
    # the pre-team-play veto threshold, Media aim and allocation: vetoes and the Media
    # exist only in the full rules
    "legacy": Form("play differently from its base policy",
                   (Needs("rules", "full",
                          _FULL.format("veto or Media decision for it to change")),)),
}
_MAX = {"round_cap": MAX_ROUND_CAP, "max_rounds": MAX_ROUND_CAP}   # else MAX_SETTING

# Trial rules: handicaps the designer could print on a card, not variants of contract 2
# (RULES.md has no such rules, and a game record's ``variants`` hold exactly Part V), so
# they are settings of the simulation only and game records refuse them. The size of the
# smaller side they help, by mode.
SMALLER_SIDE = {"2v3": 2, "2v2+1": 1}
TRIAL_RULES = {
    "handicap_points": (
        "trial rule, not in contract 2: every member of the smaller side (the 2v3 team of "
        "two, the 2v2+1 Independent) starts with this many cumulative points, which count "
        "wherever points do (D7.3, D9.5, D9.6 step 2a); 0 = the rules as written"),
    "handicap_vetoes": (
        "trial rule, not in contract 2: the smaller side (the 2v3 team of two, the 2v2+1 "
        "Independent) holds this many vetoes more than D9.3 gives it; 0 = the rules as "
        "written"),
}

# What each variant changes, with its rule ID (``demos-sim variants``; RULES.md Part V).
VARIANT_HELP = {
    "carre_points": "D4.1 points of a Carré Harmonieux (integer >= 0)",
    "run_base": "D4.1 run points before the lowest value, by suits [one, two, three]",
    "secret_optional": "D3.3 a player may pass the secret discard (default: full rules only)",
    "max_rounds": "D5.1 cap on the rounds of the main phase (null: until the Power pile is empty)",
    "round_cap": "D5.1 safety cap: a game reaching it is reported as truncated",
    "media_targets_revealed": "D6.3 a Media may target a figure revealed by a Carré",
    "media_optional": "D6.2 a Media holder may decline to act",
    "no_trio_winner": "D7.4 when nobody has a trio: none (no winner) | points",
    "team_vetoes": "D9.3 vetoes of the 2v3 team of two",
    "team_points_tiebreak": "D9.5 a harmony tie between teams: top member (max) | total (sum)",
    "independent_double_media": "D9.6 the 2v2+1 Independent holding both Media: keep | act",
    "independent_points_strict": "D9.6 step 2a: the Independent needs strictly the most points",
    "p3_harmonies": "D9.6 step 3: bicolour_then_mono | mono_only (only 1-colour trios)",
    "favourite_suit_bonus": "X1 points for a run in the player's announced favourite suit",
    "announced_trio": "X2 each side announces its trio's colours; a match breaks harmony ties "
                      "(also in the simplified rules)",
    "team_trio": "D9.5/D9.6 a team's trio: best_member (one member's own) | pooled (E, L, J "
                 "from any members); no effect in individual games",
    "team_talk": "D9.2 what a team decision sees: figures (the team's) | hands (also the "
                 "teammates' hands); no effect in individual games",
    "p3_points_tiebreak": "D9.6 step 3 ties: sum (members' total) | max (top member); "
                          "2v2+1 only",
}


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_variant(name: str, value: Any) -> Any:
    """Validate one variant value (Part V) and return it normalised."""
    if name not in VARIANTS:
        raise ConfigError(
            f"unknown DĒMOS variant {name!r} (known: {', '.join(VARIANTS)})")
    kind, _ = VARIANTS[name]
    lo = _MIN.get(name, 0)
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"variant {name} must be true or false, got {value!r}")
        return bool(value)
    if kind in ("int", "int_or_null"):
        if value is None and kind == "int_or_null":
            return None
        if not _is_int(value) or value < lo:
            what = "null or an integer" if kind == "int_or_null" else "an integer"
            raise ConfigError(f"variant {name} must be {what} >= {lo}, got {value!r}")
        hi = _MAX.get(name, MAX_SETTING)
        if value > hi:
            raise ConfigError(f"variant {name} is at most {hi}, got {value}")
        return int(value)
    if kind == "run_base":
        if (not isinstance(value, (list, tuple)) or len(value) != 3
                or not all(_is_int(v) and 0 <= v <= MAX_SETTING for v in value)):
            raise ConfigError(
                f"variant run_base must be 3 integers from 0 to {MAX_SETTING} [one suit, two "
                f"suits, three suits], got {value!r}")
        return [int(v) for v in value]
    if value not in kind:
        raise ConfigError(f"variant {name} must be one of {', '.join(kind)}, got {value!r}")
    return value


@dataclass(frozen=True)
class DemosConfig:
    """A validated DĒMOS game configuration.

    Parameters
    ----------
    rules : "full" or "simplified" (D1, D8).
    mode : "individual", "2v2", "2v3" or "2v2+1" (D9.1).
    players : 3–5 (D2.2); fixed by the mode in team modes.
    seating : team label by seat (D9.2); None for the mode's default.
    variants : any subset of Part V; the rest take their defaults.
    handicap_points : a *trial rule*, not part of contract 2 (:data:`TRIAL_RULES`):
        every member of the smaller side starts with this many cumulative points.
    handicap_vetoes : a trial rule too: the smaller side holds this many vetoes more.
    """

    rules: str = "full"
    mode: str = "individual"
    players: int = 4
    seating: str | None = None
    variants: dict = field(default_factory=dict)
    handicap_points: int = 0
    handicap_vetoes: int = 0

    def __post_init__(self):
        if self.rules not in RULES_SETS:
            raise ConfigError(f"unknown rules {self.rules!r} (expected full or simplified)")
        if self.mode not in MODES:
            raise ConfigError(f"unknown mode {self.mode!r} (expected {', '.join(MODES)})")
        if not _is_int(self.players):
            raise ConfigError(f"players must be an integer, got {self.players!r}")
        v = {}
        given = dict(self.variants or {})
        for name, val in given.items():
            v[name] = check_variant(name, val)
        for name, (_, default) in VARIANTS.items():
            v.setdefault(name, default)
        if v["secret_optional"] is None:  # D3.3: true in full rules, false in simplified
            v["secret_optional"] = self.rules == "full"
        object.__setattr__(self, "variants", v)
        object.__setattr__(self, "players", int(self.players))
        self._check_players()
        self._check_seating()
        self._check_trial_rules()

    # D2.3 deck check, then D2.2 / D9.1 player counts.
    def _check_players(self):
        n = self.players
        deck = 40 if self.rules == "full" else 36
        turns = 3 if self.rules == "full" else 2
        if n < 1 or deck < 5 * n + turns * n:
            raise ConfigError(
                f"D2.3: {self.rules} rules with {n} players need a People deck of at least "
                f"{5 * n + turns * n} cards (5·N + {turns}·N) but it has {deck}")
        if self.mode == "individual":
            if not 3 <= n <= 5:
                raise ConfigError(f"individual games take 3–5 players (D2.2), got {n}")
        else:
            if self.rules != "full":
                raise ConfigError(f"team mode {self.mode} uses the full rules (D9.2), not {self.rules}")
            if n != MODE_PLAYERS[self.mode]:
                raise ConfigError(
                    f"mode {self.mode} takes {MODE_PLAYERS[self.mode]} players (D9.1), got {n}")

    def _check_seating(self):
        if self.mode == "individual":
            if self.seating is not None:
                raise ConfigError("seating applies to team modes only (D9.2)")
            return
        s = DEFAULT_SEATING[self.mode] if self.seating is None else self.seating
        bad = f"seating {s!r} does not fit mode {self.mode} (D9.2)"
        if not isinstance(s, str) or len(s) != self.players or not s.isalpha() or not s.isupper():
            raise ConfigError(f"{bad}: expected {self.players} capital letters, one team label by seat")
        counts = sorted(s.count(c) for c in set(s) if c != "I")
        n_indep = s.count("I")
        want = {"2v2": ([2, 2], 0), "2v3": ([2, 3], 0), "2v2+1": ([2, 2], 1)}[self.mode]
        if (counts, n_indep) != want:
            detail = {"2v2": "two teams of two", "2v3": "a team of two and a team of three",
                      "2v2+1": "two teams of two and one Independent labelled I"}[self.mode]
            raise ConfigError(f"{bad}: expected {detail}")
        object.__setattr__(self, "seating", s)

    def _check_trial_rules(self):
        for name in TRIAL_RULES:
            h = getattr(self, name)
            if not _is_int(h) or not 0 <= h <= MAX_SETTING:
                raise ConfigError(f"{name} must be an integer from 0 to {MAX_SETTING}, "
                                  f"got {h!r}")
            object.__setattr__(self, name, int(h))
            if h and self.mode not in SMALLER_SIDE:
                raise ConfigError(f"{name} applies to 2v3 and 2v2+1 (the modes with a "
                                  f"smaller side), not {self.mode}")

    def trial_rules(self) -> dict:
        """The trial rules in force (not 0): name -> value."""
        return {k: getattr(self, k) for k in TRIAL_RULES if getattr(self, k)}

    def start_points(self) -> list[int]:
        """Cumulative points by seat when the game starts: 0, except the members of the
        smaller side under the trial handicap (:data:`TRIAL_RULES`)."""
        if not self.handicap_points:
            return [0] * self.players
        sides = self.side_of_seat()
        small = SMALLER_SIDE[self.mode]
        return [self.handicap_points if sides.count(s) == small else 0 for s in sides]

    # ----------------------------------------------------------------- sides
    def side_labels(self) -> list[str]:
        """Side label of every side, indexed by side id (individual: seats as strings).

        Team labels are in alphabetical order (A, B, I) whatever the seating, so that side
        id ``j`` is the same team at every grid point of a seating sweep and the runner's
        paired differences compare a team with itself.
        """
        if self.mode == "individual":
            return [str(i) for i in range(self.players)]
        return sorted(set(self.seating))

    def side_of_seat(self) -> list[int]:
        if self.mode == "individual":
            return list(range(self.players))
        labels = self.side_labels()
        return [labels.index(c) for c in self.seating]

    def side_vetoes(self) -> list[int]:
        """Vetoes per side at the start of the game (D3.4.1, D9.3)."""
        if self.rules != "full":
            return [0] * len(self.side_labels())
        sides = self.side_of_seat()
        out = []
        small = SMALLER_SIDE.get(self.mode)
        for sid in range(len(self.side_labels())):
            size = sides.count(sid)
            if self.mode == "2v3" and size == 2:
                out.append(self.variants["team_vetoes"])
            else:
                out.append(1)
            if size == small:                       # the trial handicap_vetoes
                out[-1] += self.handicap_vetoes
        return out

    def replace(self, **changes) -> "DemosConfig":
        return dataclasses.replace(self, **changes)

    def to_array(self, check_obs: bool = False, log: bool = False,
                 stats: bool = False) -> np.ndarray:
        v = self.variants
        a = np.zeros(L.CFG_LEN, np.int64)
        a[L.C_RULES] = RULES_SETS.index(self.rules)
        a[L.C_MODE] = MODES.index(self.mode)
        a[L.C_N] = self.players
        a[L.C_CARRE] = v["carre_points"]
        a[L.C_RB:L.C_RB + 3] = v["run_base"]
        a[L.C_SECRET_OPT] = v["secret_optional"]
        a[L.C_MAX_ROUNDS] = 0 if v["max_rounds"] is None else v["max_rounds"]
        a[L.C_ROUND_CAP] = v["round_cap"]
        a[L.C_MEDIA_REVEALED] = v["media_targets_revealed"]
        a[L.C_MEDIA_OPT] = v["media_optional"]
        a[L.C_NO_TRIO_POINTS] = v["no_trio_winner"] == "points"
        a[L.C_TP_SUM] = v["team_points_tiebreak"] == "sum"
        a[L.C_IND_ACT] = v["independent_double_media"] == "act"
        a[L.C_IND_STRICT] = v["independent_points_strict"]
        a[L.C_P3_MONO] = v["p3_harmonies"] == "mono_only"
        a[L.C_FAV_BONUS] = v["favourite_suit_bonus"]
        a[L.C_ANNOUNCE] = v["announced_trio"]
        a[L.C_POOLED] = v["team_trio"] == "pooled"
        a[L.C_TALK_HANDS] = v["team_talk"] == "hands"
        a[L.C_P3_SUM] = v["p3_points_tiebreak"] == "sum"
        sides = self.side_of_seat()
        a[L.C_SIDE:L.C_SIDE + L.MAXP] = -1
        a[L.C_SIDE:L.C_SIDE + self.players] = sides
        a[L.C_NSIDES] = len(self.side_labels())
        a[L.C_INDEP] = self.seating.index("I") if self.mode == "2v2+1" else -1
        a[L.C_SIDE_VETOES:L.C_SIDE_VETOES + a[L.C_NSIDES]] = self.side_vetoes()
        a[L.C_CHECK_OBS] = check_obs
        a[L.C_LOG] = log
        a[L.C_STATS] = stats
        a[L.C_START_CUM:L.C_START_CUM + self.players] = self.start_points()
        return a
