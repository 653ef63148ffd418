"""The explorer's form: fields generated from a game's settings and variants, the form's
values read back into a validated :class:`Setup`, and a setup written as an experiment file.

Every field comes from the game's :class:`~demos_sim.game.Game`: its ``settings`` (DĒMOS
``rules``, ``mode``, ``seating``; Protocole ``mode``, ``level``; L'Assemblée
``force_personality``), its variants of RULES.md Part V with their defaults and help lines
(rule IDs first), and its registered policies. A value left at its default is no change;
every other value goes through the game's own ``check_variant``, so the page refuses what
``demos-sim compare --set`` would, with the same one-line message.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from demos_sim import ConfigError
from demos_sim.game import Game, get_game

# The settings whose values a game's rules module lists (the others are typed in).
_SETTING_CHOICES = {"rules": "RULES_SETS", "mode": "MODES", "level": "LEVELS"}
RULES_DEPENDENT = "rules-dependent"     # DĒMOS secret_optional's default (D3.3)
MAX_GAMES = 1_000_000


def shown(value: Any) -> str:
    """A value as the form shows it: strings bare, everything else as JSON."""
    if value is None:
        return "null"
    return value if isinstance(value, str) else json.dumps(value)


def parse_value(raw: str) -> Any:
    """A typed value: JSON when it parses (numbers, true/false, null, lists), else a string
    (as ``--set VARIANT=VALUE``)."""
    raw = raw.strip()
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def raw_default(g: Game, name: str) -> Any:
    spec = g.rules.VARIANTS[name]
    return spec[1] if isinstance(spec, tuple) else spec


@dataclass
class Field:
    """One form field: ``kind`` is ``select``, ``number`` or ``text``."""

    name: str
    kind: str
    default: str                     # as shown
    choices: list[str] = field(default_factory=list)
    help: str = ""
    rule: str = ""                   # the rule ID the help line starts with


def setting_fields(g: Game) -> list[Field]:
    out = []
    for key, default in g.settings.items():
        choices = getattr(g.rules, _SETTING_CHOICES.get(key, "-"), None)
        if choices:
            opts = [shown(c) for c in choices]
            if default is None:
                opts = [""] + opts
            out.append(Field(key, "select", "" if default is None else shown(default), opts))
        else:
            out.append(Field(key, "text", "" if default is None else shown(default)))
    return out


def variant_fields(g: Game) -> list[Field]:
    out = []
    helps = g.variant_help()
    extra = getattr(g.rules, "CHOICES", {})
    for name, default in g.variant_defaults().items():
        spec = g.rules.VARIANTS[name]
        kind = spec[0] if isinstance(spec, tuple) else None
        raw = raw_default(g, name)
        text = helps.get(name, "")
        rule, _, rest = text.partition(" ")
        if not any(ch.isdigit() for ch in rule):
            rule, rest = "", text
        f = Field(name, "text", shown(default), help=rest, rule=rule)
        if isinstance(kind, tuple) or name in extra:
            f.kind, f.choices = "select", [shown(c) for c in (kind if isinstance(kind, tuple)
                                                               else extra[name])]
        elif kind == "bool" or isinstance(raw, bool):
            f.kind, f.choices = "select", ["true", "false"]
            if raw is None:
                f.choices = [RULES_DEPENDENT] + f.choices
        elif kind == "int" or (kind is None and isinstance(raw, int)):
            f.kind = "number"
        out.append(f)
    return out


def policy_names(g: Game) -> list[str]:
    """The policies a what-if may use: every registered one but the references
    (``omniscient``: it sees every hidden card, a bound, not a player)."""
    return [n for n in g.policies.available() if not g.policies.get(n).reference]


@dataclass
class Setup:
    """A validated what-if: this setup (``change``, ``policies``) against the reference
    (``against``, ``against_policies``) — the arguments of
    :func:`demos_sim.analysis.core.whatif.plan`."""

    game: str
    settings: dict
    players: int | None
    change: dict
    against: dict
    policies: list[str] | None
    against_policies: list[str] | None
    games: int
    seed: int
    half_width: float | None

    def plan_args(self) -> dict:
        return {"game": self.game, "settings": dict(self.settings), "players": self.players,
                "change": dict(self.change), "against": dict(self.against),
                "policies": self.policies, "against_policies": self.against_policies,
                "games": self.games, "seed": self.seed, "half_width": self.half_width}

    def config(self, which: str = "change"):
        g = get_game(self.game)
        variants = self.change_variants() if which == "change" else dict(self.against)
        return g.make_config(dict(self.settings), self.players, variants)

    def change_variants(self) -> dict:
        return {**self.against, **self.change}

    def specs(self, which: str = "change") -> list[str]:
        g = get_game(self.game)
        cfg = self.config(which)
        pols = self.policies if which == "change" else (self.against_policies or self.policies)
        pols = pols or [g.default_policies(cfg)]
        return list(pols) * g.players_of(cfg) if len(pols) == 1 else list(pols)


def _int(form, key: str, lo: int, hi: int, default: int | None, label: str) -> int | None:
    raw = str(form.get(key, "") or "").strip()
    if raw == "":
        return default
    try:
        v = int(raw)
    except ValueError:
        raise ConfigError(f"{label} must be a whole number, got {raw!r}") from None
    if not lo <= v <= hi:
        raise ConfigError(f"{label} must be between {lo} and {hi}, got {v}")
    return v


def _variants(g: Game, form, prefix: str) -> dict:
    out = {}
    for f in variant_fields(g):
        raw = str(form.get(prefix + f.name, "") or "").strip()
        if raw == "" or raw == f.default:
            continue
        value = None if raw == RULES_DEPENDENT else parse_value(raw)
        try:
            value = g.check_variant(f.name, value)
        except ConfigError as e:
            raise ConfigError(str(e) if f.name in str(e) else f"{f.name}: {e}") from None
        if json.dumps(value) != json.dumps(raw_default(g, f.name)):
            out[f.name] = value
    return out


def _bots(form, prefix: str, seats: int, default: str) -> list[str] | None:
    """Bots by seat: a seat's own choice, else the one for all seats, else the game's
    default for the setup (``None`` when nothing is chosen at all)."""
    every = str(form.get(prefix + "bot_all", "") or "").strip()
    by_seat = [str(form.get(f"{prefix}bot_{i}", "") or "").strip() for i in range(seats)]
    if not any(by_seat):
        return [every] if every else None
    return [b or every or default for b in by_seat]


def read_form(form) -> Setup:
    """The :class:`Setup` of the page's form; :class:`ConfigError` (one line) on bad input."""
    g = get_game(str(form.get("game", "demos")))
    settings = {}
    for f in setting_fields(g):
        raw = str(form.get(f.name, "") or "").strip()
        if raw == "":
            continue
        value = parse_value(raw) if f.name == "level" else raw
        try:
            settings[f.name] = g.check_setting(f.name, value)
        except ConfigError as e:
            raise ConfigError(f"{f.name}: {e}") from None
    players = _int(form, "players", 1, 64, None, "players")
    change = _variants(g, form, "v_")
    against = _variants(g, form, "r_")
    # a variant set only in the reference is at its default in this setup
    for name in against:
        change.setdefault(name, raw_default(g, name))
    cfg = g.make_config(dict(settings), players, {**against, **change})
    seats = g.players_of(cfg)
    policies = _bots(form, "", seats, g.default_policies(cfg))
    against_policies = _bots(form, "r_", seats, g.default_policies(cfg))
    games = _int(form, "games", 1, MAX_GAMES, 20000, "games (at most)")
    seed = _int(form, "seed", 0, 2**63 - 1, 0, "seed")
    hw_raw = str(form.get("half_width", "") or "").strip()
    half_width = None
    if hw_raw:
        try:
            half_width = float(hw_raw) / 100.0          # the form asks for percentage points
        except ValueError:
            raise ConfigError(f"target interval must be a number of percentage points, "
                              f"got {hw_raw!r}") from None
        if not (half_width > 0 and math.isfinite(half_width)):
            raise ConfigError(f"target interval must be a finite number > 0, got {hw_raw}")
    return Setup(g.name, settings, players, change, against, policies, against_policies,
                 games, seed, half_width)


# ---------------------------------------------------------------- the experiment file
def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)      # a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise ConfigError(f"{value!r} has no value in an experiment file")


def _toml_variant(g: Game, name: str, value: Any) -> str:
    if value is None:
        try:
            g.check_variant(name, "null")        # DĒMOS reads the string "null" as null
        except ConfigError:
            raise ConfigError(f"cannot export {name} at its default (null has no TOML "
                              f"value): set it explicitly on both sides") from None
        return '"null"'
    return _toml(value)


def to_toml(s: Setup, name: str = "whatif") -> str:
    """This what-if as an experiment file for ``demos-sim run``: the reference is the
    grid's baseline (the first value of every key), this setup the point where every key
    takes its second value; each differing variant (and the policies, when they differ)
    is a grid key, so with several the grid also holds their mixtures."""
    g = get_game(s.game)
    ref = {**{k: raw_default(g, k) for k in s.change}, **s.against}
    new = s.change_variants()
    # a null default that the rules resolve (DĒMOS secret_optional, D3.3): its value in force
    for values, which in ((ref, "against"), (new, "change")):
        in_force = g.describe(s.config(which)).get("variants", {})
        for k, v in values.items():
            if v is None and in_force.get(k) is not None:
                values[k] = in_force[k]
    ref_specs, new_specs = s.specs("against"), s.specs("change")
    fixed = {k: v for k, v in new.items() if json.dumps(ref.get(k)) == json.dumps(v)
             and json.dumps(v) != json.dumps(raw_default(g, k))}
    grid = {k: (ref.get(k, raw_default(g, k)), v) for k, v in new.items()
            if json.dumps(ref.get(k, raw_default(g, k))) != json.dumps(v)}
    if not grid and ref_specs == new_specs:
        raise ConfigError("nothing to export: change a variant or a bot first")
    lines = [f"# What-if explorer export ({g.title}): this setup against the reference,",
             "# paired on the same deals. The reference is the grid's baseline (first values);",
             "# this setup is the point where every grid key takes its second value.",
             f"name = {_toml(name)}",
             f"description = {_toml('What-if explorer: ' + (_describe(grid, ref_specs, new_specs) or 'no change'))}",
             f"game = {_toml(g.name)}"]
    for key, value in s.settings.items():
        if value is not None:
            lines.append(f"{key} = {_toml(value)}")
    if s.players is not None:
        lines.append(f"players = {s.players}")
    if ref_specs == new_specs:
        same = len(set(new_specs)) == 1
        lines.append(f"policies = {_toml([new_specs[0]] if same else new_specs)}")
    lines.append(f"seed = {s.seed}")
    if s.half_width is None:
        lines.append(f"games = {s.games}")
    if fixed:
        lines += ["", "[variants]"] + [f"{k} = {_toml_variant(g, k, v)}" for k, v in fixed.items()]
    lines += ["", "[grid]"]
    for k, (a, b) in grid.items():
        lines.append(f"{k} = [{_toml_variant(g, k, a)}, {_toml_variant(g, k, b)}]")
    if ref_specs != new_specs:
        lines.append(f"policies = [{_toml(ref_specs)}, {_toml(new_specs)}]")
    if s.half_width is not None:
        lines += ["", "[stop]", f"half_width = {s.half_width!r}", f"max_games = {s.games}",
                  'track = ["diff:win_share"]']
    return "\n".join(lines) + "\n"


def _describe(grid: dict, ref_specs, new_specs) -> str:
    parts = [f"{k} {shown(a)} -> {shown(b)}" for k, (a, b) in grid.items()]
    if ref_specs != new_specs:
        parts.append(f"policies {','.join(ref_specs)} -> {','.join(new_specs)}")
    return "; ".join(parts)
