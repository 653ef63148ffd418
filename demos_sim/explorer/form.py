"""The explorer's form: fields generated from a game's settings and variants, the form's
values read back into a validated :class:`Setup`, and a setup written as an experiment file.

Every field comes from the game's :class:`~demos_sim.game.Game`: its ``settings`` (DĒMOS
``rules``, ``mode``, ``seating``; Protocole ``mode``, ``level``; L'Assemblée
``force_personality``), its trial rules (DĒMOS ``handicap_points``, ``handicap_vetoes``:
settings outside contract 2, tried on either side like a variant), its variants of
RULES.md Part V with their defaults and help lines (rule IDs first, grouped by the part of
the rules they change), and its registered policies with their restricted forms
(``greedy:noveto``) and budgets (``ismcts@N``). Every typed value is read by the one value
parser of ``--set`` and the experiment files (:func:`typed`, which calls
:func:`demos_sim.game.parse_set`: JSON when it parses, else the text) and checked by the
game (``check_setting``, ``check_variant``) and the policy registry
(:func:`demos_sim.restricted.check_specs`), so the page refuses what ``demos-sim
compare`` would, with the same one-line message.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from demos_sim import ConfigError
from demos_sim.game import Game, get_game, parse_set

# The settings whose values a game's rules module lists (the others are typed in).
_SETTING_CHOICES = {"rules": "RULES_SETS", "mode": "MODES", "level": "LEVELS"}
RULES_DEPENDENT = "rules-dependent"     # DĒMOS secret_optional's default (D3.3)
MAX_GAMES = 1_000_000
SIDES = {"v_": "this setup", "r_": "the reference"}

# The part of the rules a variant changes: the section of its first rule ID (RULES.md).
PARTS = {"D3": "D3 A round", "D4": "D4 Showdown and scoring", "D5": "D5 End of the main phase",
         "D6": "D6 Scandal phase", "D7": "D7 Final election", "D8": "D8 Simplified rules",
         "D9": "D9 Team modes", "X": "X Designer's optional variants",
         "P3": "P3 Norm selection", "P4": "P4 Household control",
         "P5": "P5 All together (cooperative)", "A1": "A1 Setup", "A3": "A3 Event",
         "A4": "A4 Auction", "A5": "A5 Events", "A8": "A8 Ostracism", "A10": "A10 End",
         "A11": "A11 Personalities"}
TRIAL = "trial"
TRIAL_TITLE = "Trial rules (not in contract 2: settings of the simulation only)"


def typed(name: str, raw: str) -> Any:
    """A form value as ``--set NAME=RAW`` and the experiment files read it (the one parser,
    :func:`demos_sim.game.parse_set`): JSON when it parses (numbers, true/false, null,
    lists), else the text."""
    return parse_set([f"{name}={raw.strip()}"])[name]


def shown(value: Any) -> str:
    """A value as the form shows it: strings bare, everything else as JSON."""
    if value is None:
        return "null"
    return value if isinstance(value, str) else json.dumps(value)


def raw_default(g: Game, name: str) -> Any:
    spec = g.rules.VARIANTS[name]
    return spec[1] if isinstance(spec, tuple) else spec


def part_of(rule: str) -> str:
    """The part of the rules a rule ID belongs to: ``"D9.5/D9.6"`` -> ``"D9"``,
    ``"X1"`` -> ``"X"``, ``"P3.1a"`` -> ``"P3"``."""
    first = rule.split("/")[0]
    if first.startswith("X"):
        return "X"
    return first.split(".")[0]


@dataclass
class Field:
    """One form field: ``kind`` is ``select``, ``number`` (typed as text, checked on the
    server: a number field of the browser would blank "forty") or ``text``."""

    name: str
    kind: str
    default: str                     # as shown
    choices: list[str] = field(default_factory=list)
    help: str = ""
    rule: str = ""                   # the rule ID the help line starts with
    part: str = ""                   # the part of the rules (PARTS key, or TRIAL)


def _default_config(g: Game):
    return g.make_config({}, None, {})


def setting_fields(g: Game) -> list[Field]:
    """The settings both setups share (the trial rules are :func:`trial_fields`). A
    setting is a choice when the rules list its values, a number when the configuration
    holds it as an integer, else text."""
    out = []
    cfg = _default_config(g)
    trial = g.trial_rules()
    for key, default in g.settings.items():
        if key in trial:
            continue
        choices = getattr(g.rules, _SETTING_CHOICES.get(key, "-"), None)
        if choices:
            opts = [shown(c) for c in choices]
            if default is None:
                opts = [""] + opts
            out.append(Field(key, "select", "" if default is None else shown(default), opts))
        else:
            v = getattr(cfg, key, None)
            kind = "number" if isinstance(v, int) and not isinstance(v, bool) else "text"
            out.append(Field(key, kind, "" if default is None else shown(default)))
    return out


def trial_fields(g: Game) -> list[Field]:
    """The game's trial rules as fields of either side (their value in force by default)."""
    cfg = _default_config(g)
    out = []
    for key, help_line in g.trial_rules().items():
        v = getattr(cfg, key, 0)
        out.append(Field(key, "number" if isinstance(v, int) else "text", shown(v),
                         help=help_line, part=TRIAL))
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
        f = Field(name, "text", shown(default), help=rest, rule=rule,
                  part=part_of(rule) if rule else "")
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


def rule_groups(g: Game) -> list[tuple[str, list[Field]]]:
    """Every variant and trial rule, grouped by the part of the rules it changes
    (in the order of RULES.md), each group with its title."""
    groups: dict[str, list[Field]] = {}
    for f in variant_fields(g):
        groups.setdefault(f.part, []).append(f)

    def order(part: str):
        letter = part[:1]
        num = part[1:]
        return ("DPAX".find(letter) if letter in "DPAX" else 9,
                int(num) if num.isdigit() else 0)

    out = [(PARTS.get(p, p or "Other"), groups[p]) for p in sorted(groups, key=order)]
    trial = trial_fields(g)
    if trial:
        out.append((TRIAL_TITLE, trial))
    return out


@dataclass
class Bot:
    """A registered policy as the pickers offer it: its restricted forms (``flags``) and
    the default of its ``@N`` budget (None: it takes none)."""

    name: str
    flags: list[str]
    budget: int | None
    description: str = ""


def policy_names(g: Game) -> list[str]:
    """The policies a what-if may use: every registered one but the references
    (``omniscient``: it sees every hidden card, a bound, not a player)."""
    return [n for n in g.policies.available() if not g.policies.get(n).reference]


def bots(g: Game) -> list[Bot]:
    out = []
    for n in policy_names(g):
        p = g.policies.get(n)
        out.append(Bot(n, list(p.flags), p.default_budget, p.description))
    return out


@dataclass
class Setup:
    """A validated what-if: this setup (``change``, ``trial``, ``policies``) against the
    reference (``against``, ``against_trial``, ``against_policies``) — the arguments of
    :func:`demos_sim.analysis.core.whatif.plan`. ``settings`` are shared; ``trial`` and
    ``against_trial`` are each side's trial rules that differ from the rules as written."""

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
    trial: dict = field(default_factory=dict)
    against_trial: dict = field(default_factory=dict)

    def plan_args(self) -> dict:
        args = {"game": self.game, "settings": {**self.settings, **self.trial},
                "players": self.players, "change": dict(self.change),
                "against": dict(self.against), "policies": self.policies,
                "against_policies": self.against_policies, "games": self.games,
                "seed": self.seed, "half_width": self.half_width}
        if self.trial or self.against_trial:
            args["against_settings"] = {**self.settings, **self.against_trial}
        return args

    def settings_of(self, which: str = "change") -> dict:
        return {**self.settings, **(self.trial if which == "change" else self.against_trial)}

    def config(self, which: str = "change"):
        g = get_game(self.game)
        variants = self.change_variants() if which == "change" else dict(self.against)
        return g.make_config(self.settings_of(which), self.players, variants)

    def change_variants(self) -> dict:
        return {**self.against, **self.change}

    def specs(self, which: str = "change") -> list[str]:
        g = get_game(self.game)
        cfg = self.config(which)
        pols = self.policies if which == "change" else (self.against_policies or self.policies)
        pols = pols or [g.default_policies(cfg)]
        return list(pols) * g.players_of(cfg) if len(pols) == 1 else list(pols)

    def describe(self) -> dict:
        """The setup as plain JSON: what a download carries beside its figures."""
        return {"game": self.game, "settings": dict(self.settings), "players": self.players,
                "this_setup": {"variants": self.change_variants(), "trial_rules": self.trial,
                               "policies": self.specs("change")},
                "reference": {"variants": dict(self.against),
                              "trial_rules": self.against_trial,
                              "policies": self.specs("against")},
                "games": self.games, "seed": self.seed,
                "target_half_width_pp": (None if self.half_width is None
                                         else self.half_width * 100)}


def _raw(form, key: str) -> str:
    return str(form.get(key, "") or "").strip()


def _int(form, key: str, lo: int, hi: int, default: int | None, label: str) -> int | None:
    raw = _raw(form, key)
    if raw == "":
        return default
    try:
        v = int(raw)
    except ValueError:
        raise ConfigError(f"{label} must be a whole number, got {raw!r}") from None
    if not lo <= v <= hi:
        raise ConfigError(f"{label} must be between {lo} and {hi}, got {v}")
    return v


def read_settings(g: Game, form) -> dict:
    """The shared settings of the form, typed and checked (one-line ConfigError)."""
    settings = {}
    for f in setting_fields(g):
        raw = _raw(form, f.name)
        if raw == "":
            continue
        try:
            settings[f.name] = g.check_setting(f.name, typed(f.name, raw))
        except ConfigError as e:
            raise ConfigError(f"{f.name}: {e}") from None
    return settings


def _trial(g: Game, form, prefix: str) -> dict:
    out = {}
    for f in trial_fields(g):
        raw = _raw(form, prefix + f.name)
        if raw == "" or raw == f.default:
            continue
        try:
            value = g.check_setting(f.name, typed(f.name, raw))
        except ConfigError as e:
            raise ConfigError(f"{f.name} ({SIDES[prefix]}): {e}") from None
        if shown(value) != f.default:
            out[f.name] = value
    return out


def _variants(g: Game, form, prefix: str) -> dict:
    out = {}
    for f in variant_fields(g):
        raw = _raw(form, prefix + f.name)
        if raw == "" or raw == f.default:
            continue
        value = None if raw == RULES_DEPENDENT else typed(f.name, raw)
        try:
            value = g.check_variant(f.name, value)
        except ConfigError as e:
            msg = str(e) if f.name in str(e) else f"{f.name}: {e}"
            raise ConfigError(f"{msg} ({SIDES[prefix]})") from None
        if json.dumps(value) != json.dumps(raw_default(g, f.name)):
            out[f.name] = value
    return out


def spec_of(form, key: str, label: str) -> str:
    """The policy spec a picker writes: the bot ``key``, its restricted form ``key_flag``
    and its budget ``key_budget`` -> ``name[:flag][@N]`` ("" when no bot is chosen)."""
    base, flag, budget = _raw(form, key), _raw(form, key + "_flag"), _raw(form, key + "_budget")
    if not base:
        if flag or budget:
            raise ConfigError(f"{label}: choose a bot for the "
                              + (f"restricted form {flag!r}" if flag else f"budget {budget!r}"))
        return ""
    return base + (f":{flag}" if flag else "") + (f"@{budget}" if budget else "")


def _bots(form, prefix: str, seats: int, fallback: list[str]) -> list[str] | None:
    """Bots by seat: a seat's own choice, else the one for all seats, else ``fallback``'s
    (this setup: the game's default; the reference: this setup's bot of that seat).
    ``None`` when nothing is chosen at all."""
    side = "the reference" if prefix else "this setup"
    every = spec_of(form, prefix + "bot_all", f"all seats of {side}")
    by_seat = [spec_of(form, f"{prefix}bot_{i}", f"seat {i} of {side}") for i in range(seats)]
    if not any(by_seat):
        return [every] if every else None
    return [b or every or fallback[i] for i, b in enumerate(by_seat)]


def read_form(form) -> Setup:
    """The :class:`Setup` of the page's form; :class:`ConfigError` (one line) on bad input."""
    from demos_sim.restricted import check_specs

    g = get_game(str(form.get("game", "demos")))
    settings = read_settings(g, form)
    players = _int(form, "players", 1, 64, None, "players")
    change = _variants(g, form, "v_")
    against = _variants(g, form, "r_")
    trial = _trial(g, form, "v_")
    against_trial = _trial(g, form, "r_")
    # a variant set only in the reference is at its default in this setup
    for name in against:
        change.setdefault(name, raw_default(g, name))
    for f in trial_fields(g):
        if f.name in against_trial:
            trial.setdefault(f.name, typed(f.name, f.default))
    cfg = g.make_config({**settings, **trial}, players, {**against, **change})
    ref_cfg = g.make_config({**settings, **against_trial}, players, against)
    seats = g.players_of(cfg)
    policies = _bots(form, "", seats, [g.default_policies(cfg)] * seats)
    mine = policies or [g.default_policies(cfg)]
    against_policies = _bots(form, "r_", seats, mine * seats if len(mine) == 1 else mine)
    games = _int(form, "games", 1, MAX_GAMES, 20000, "games (at most)")
    seed = _int(form, "seed", 0, 2**63 - 1, 0, "seed")
    hw_raw = _raw(form, "half_width")
    half_width = None
    if hw_raw:
        try:
            half_width = float(hw_raw) / 100.0          # the form asks for percentage points
        except ValueError:
            raise ConfigError(f"target interval must be a number of percentage points, "
                              f"got {hw_raw!r}") from None
        if not (half_width > 0 and math.isfinite(half_width)):
            raise ConfigError(f"target interval must be a finite number > 0, got {hw_raw}")
    s = Setup(g.name, settings, players, change, against, policies, against_policies,
              games, seed, half_width, trial, against_trial)
    for which, side in (("change", "this setup"), ("against", "the reference")):
        try:
            check_specs(g, s.specs(which), s.config(which))
        except ConfigError as e:
            raise ConfigError(f"bots of {side}: {e}") from None
    return s


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
    # trial rules are settings: the same on both sides a top-level key, else a grid key
    as_written = {f.name: typed(f.name, f.default) for f in trial_fields(g)}
    trial_fixed, trial_grid = {}, {}
    for k in dict.fromkeys([*s.against_trial, *s.trial]):
        a, b = s.against_trial.get(k, as_written[k]), s.trial.get(k, as_written[k])
        if a == b:
            trial_fixed[k] = a
        else:
            trial_grid[k] = (a, b)
    grid.update(trial_grid)
    if not grid and ref_specs == new_specs:
        raise ConfigError("nothing to export: change a variant or a bot first")
    lines = [f"# What-if explorer export ({g.title}): this setup against the reference,",
             "# paired on the same deals. The reference is the grid's baseline (first values);",
             "# this setup is the point where every grid key takes its second value.",
             f"name = {_toml(name)}",
             f"description = {_toml('What-if explorer: ' + (_describe(grid, ref_specs, new_specs) or 'no change'))}",
             f"game = {_toml(g.name)}"]
    for key, value in {**s.settings, **trial_fixed}.items():
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


# ---------------------------------------------------------------- sweeps and searches
SWEEP_GAMES = 2000       # games a value, when the form leaves it empty


def sweep_knobs(g: Game) -> list[str]:
    """The settings a sweep or a search can take (those of ``demos-sim sweep``: the
    numeric variants, settings and trial rules of the game)."""
    from demos_sim.analysis.core.sweep import numeric_names

    return numeric_names(g)


def _base(form, name: str) -> tuple[Setup, dict, dict]:
    """The form's setup (this setup's side: its settings, trial rules, variants and bots)
    with the setting ``name`` left out (it is the one swept or searched)."""
    s = read_form(form)
    g = get_game(s.game)
    if name not in sweep_knobs(g):
        raise ConfigError(f"choose a numeric setting to sweep or search (those of "
                          f"{g.title}: {', '.join(sweep_knobs(g))}), got {name!r}")
    settings = {k: v for k, v in s.settings_of("change").items() if k != name}
    variants = {k: v for k, v in s.change_variants().items() if k != name}
    return s, settings, variants


def _title(s: Setup, settings: dict) -> str:
    g = get_game(s.game)
    where = [str(v) for k, v in settings.items() if k in ("rules", "mode", "level")
             and v is not None]
    return " ".join([g.title, *where])


def read_sweep(form) -> dict:
    """The arguments of a sweep (:func:`demos_sim.analysis.core.sweep.plan_sweep`, plus
    its figure's ``title``) from the form: the setting ``sweep_over``, its values
    ``sweep_range`` (``START:STOP:STEP`` or ``A,B,C``, as ``demos-sim sweep --set``),
    ``sweep_games`` a value, the what-if's ``seed``, and this setup's settings, variants
    and bots (the setting swept left out). One-line ConfigError on bad input."""
    from demos_sim.analysis.core.sweep import parse_values

    name = _raw(form, "sweep_over")
    s, settings, variants = _base(form, name)
    raw = _raw(form, "sweep_range")
    if not raw:
        raise ConfigError(f"give the values of {name} to sweep as START:STOP:STEP "
                          "(e.g. 20:60:10) or A,B,C")
    try:
        values = parse_values(raw)
    except ConfigError as e:
        raise ConfigError(f"values of {name}: {e}") from None
    if len(values) < 2:
        raise ConfigError(f"values of {name}: a sweep needs at least two values, got {raw!r}")
    games = _int(form, "sweep_games", 1, MAX_GAMES, SWEEP_GAMES, "games a value")
    return {"game": s.game, "name": name, "values": values, "settings": settings,
            "players": s.players, "variants": variants, "policies": s.policies,
            "games": games, "seed": s.seed, "title": _title(s, settings)}


def read_solve(form) -> dict:
    """The arguments of a search (:func:`demos_sim.analysis.core.solve.solve`, with the
    target as text and a ``title``) from the form: the target ``solve_target`` (``2v2+1
    fair`` …), the setting ``sweep_over``, an optional range ``solve_range`` (``LO:HI``),
    ``sweep_games`` a value, the what-if's seed and this setup. A target that names a
    mode plays that mode (the form's mode is left out). One-line ConfigError on bad
    input; the game's own checks (the setting in this configuration, the bots) are made
    here too, before any game is played."""
    from demos_sim.analysis.core.solve import TARGET_HELP, parse_bounds, parse_target
    from demos_sim.analysis.core.sweep import knob

    text = _raw(form, "solve_target")
    if not text:
        raise ConfigError(f"give the target to meet: {TARGET_HELP}")
    try:
        target = parse_target(text)
    except ConfigError as e:
        raise ConfigError(str(e).replace("--target", "target")) from None
    name = _raw(form, "sweep_over")
    s, settings, variants = _base(form, name)
    g = get_game(s.game)
    if target.mode is not None:
        if "mode" not in g.settings:
            raise ConfigError(f"target names a mode ({target.mode}) but {g.title} has none: "
                              "write the target as 'fair'")
        try:
            settings["mode"] = g.check_setting("mode", target.mode)
        except ConfigError as e:
            raise ConfigError(f"target: mode {e}") from None
    bounds = None
    raw = _raw(form, "solve_range")
    if raw:
        try:
            bounds = parse_bounds(raw)
        except ConfigError as e:
            raise ConfigError(str(e).replace("--range", "range to search")) from None
    k = knob(g, name, settings, s.players, variants)
    if bounds is not None and (bounds[0] < k.lo or bounds[1] > k.hi):
        raise ConfigError(f"range to search {raw}: {name} takes {k.lo} to {k.hi:,} here")
    games = _int(form, "sweep_games", 1, MAX_GAMES, SWEEP_GAMES, "games a value")
    return {"game": s.game, "name": name, "target": text, "settings": settings,
            "players": s.players, "variants": variants, "policies": s.policies,
            "games": games, "seed": s.seed, "bounds": bounds, "title": g.title}
