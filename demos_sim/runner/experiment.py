"""Experiment files: TOML in (read once, :func:`load_experiment`; or its data, built in
code: :func:`parse_experiment`), a validated :class:`Experiment` out, or a one-line error.

An experiment names a game, its settings (DĒMOS: ``rules``, ``mode``, ``seating``), one
or more player counts, policies by seat, fixed variants, a grid of values to sweep, a
number of games or a stopping rule, a seed and the metrics to report. Every problem —
an unknown key, a wrong type, a variant that does not exist, an empty grid, a value the
game refuses — raises :class:`ExperimentError` with ``FILE: KEY: problem`` before any
game is played. The format is documented in README.md, section "Experiments".

Grid points
-----------
The grid is the Cartesian product of its keys' value lists, first key slowest
(``sweep = "product"``, the default); with ``sweep = "each"`` it is the baseline point
plus every grid value changed one key at a time (a one-factor-at-a-time screen, e.g.
every variant against its default). Each
player count is a *block*; within a block every grid point plays the same deals (the
same chunk seeds), and each grid point is compared with the block's *reference* point
(``[baseline]``, by default the first value of every grid key) by paired differences.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from demos_sim import ConfigError
from demos_sim.game import Game, get_game
from demos_sim.restricted import Lineup, lineup
from demos_sim.sim_common import check_games

COMMON_KEYS = ("name", "description", "game", "players", "policies", "plugins", "seed",
               "games", "metrics", "variants", "grid", "baseline", "stop", "sweep",
               "fair_margin", "allow_reference")
FAIR_MARGIN = 0.01                  # default equivalence margin: ±1 pp of share of won games
SWEEPS = ("product", "each")
STOP_KEYS = ("half_width", "max_games", "track")
DIFF = "diff:"                      # stop.track entry for a paired difference
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class ExperimentError(ConfigError):
    """A malformed or inconsistent experiment file (message: ``FILE: KEY: problem``)."""


@dataclass(frozen=True)
class StopRule:
    """Run chunks until every tracked 95% half-width is at most ``half_width``."""

    half_width: float
    max_games: int
    track: tuple[str, ...] = ("win_share",)

    def __post_init__(self):
        hw = self.half_width
        if isinstance(hw, bool) or not isinstance(hw, (int, float)) or not (
                hw > 0 and math.isfinite(hw)):
            raise ConfigError(f"half_width must be a finite number > 0, got {hw!r}")


@dataclass(frozen=True)
class Point:
    """One grid point of one block: a configuration and its policies by seat."""

    index: int                    # position in Experiment.points
    block: int
    players: int
    values: dict                  # grid key -> value (normalised)
    label: str
    config: Any
    policies: tuple[str, ...]     # one spec per seat
    ref: int | None               # index of the block's reference point; None for itself


@dataclass(frozen=True)
class Block:
    index: int
    players: int
    points: tuple[int, ...]
    ref: int


@dataclass
class Experiment:
    path: str
    name: str
    description: str
    text: str
    data: dict
    game: str
    adapter: Game                     # the game's interface (demos_sim.game)
    seed: int
    games: int                    # games per grid point (the maximum under a stop rule)
    stop: StopRule | None
    metrics: tuple[str, ...]
    grid_keys: tuple[str, ...]
    points: list[Point]
    blocks: list[Block]
    plugins: tuple[str, ...]
    settings: dict = field(default_factory=dict)
    fair_margin: float = FAIR_MARGIN   # the designer's margin of "fair" (analyses' TOST)

    def with_games(self, games: int) -> "Experiment":
        """The same experiment with ``--games``: the game count, or the stop rule's maximum."""
        if games < 1:
            raise ConfigError(f"--games must be at least 1, got {games}")
        check_games(games)
        stop = self.stop and dataclasses.replace(self.stop, max_games=games)
        return dataclasses.replace(self, games=games, stop=stop)

    def source(self) -> dict:
        """What the chunk folder keeps of the experiment's text, which ``meta.json`` holds
        once (``experiment.file``): where it was read and the SHA-256 of its text."""
        return {"path": self.path, "sha256": hashlib.sha256(self.text.encode()).hexdigest()}

    def canonical(self) -> dict:
        """Everything that decides the games played (for the resume fingerprint)."""
        return {
            "game": self.game, "seed": self.seed, "plugins": list(self.plugins),
            "points": [{"block": p.block, "players": p.players, "values": p.values,
                        "config": self.adapter.describe(p.config),
                        "policies": list(p.policies), "ref": p.ref} for p in self.points],
        }


def _fmt(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_fmt(x) for x in v) + "]"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Parser:
    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, problem: str):
        raise ExperimentError(f"{self.path}: {key}: {problem}")

    def int_at_least(self, key, value, lo):
        if not _is_int(value) or value < lo:
            self.fail(key, f"must be an integer >= {lo}, got {value!r}")
        return value

    def str_list(self, key, value, allow_str=True):
        if allow_str and isinstance(value, str):
            value = [s.strip() for s in value.split(",")]
        if (not isinstance(value, list) or not value
                or not all(isinstance(s, str) and s.strip() for s in value)):
            self.fail(key, f"must be a non-empty list of strings, got {value!r}")
        return [s.strip() for s in value]

    def table(self, key, value):
        if not isinstance(value, dict):
            self.fail(key, f"must be a table, got {value!r}")
        return value


def load_experiment(path: str | Path, bot: str | None = None) -> Experiment:
    """Read and validate an experiment file; :class:`ExperimentError` on any problem.

    ``bot`` replaces every ``{bot}`` in the file's values (e.g. ``policies = ["{bot}",
    "{bot}:noveto"]``) and suffixes the experiment's name with ``-<bot>``: the analyses
    run one file at several rungs of the bot ladder.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ExperimentError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ExperimentError(f"{path}: cannot read: {e}") from None
    return loads_experiment(text, path, bot)


def loads_experiment(text: str, path: str | Path, bot: str | None = None) -> Experiment:
    """The text of an experiment file read from ``path`` (named in errors, and the default
    name): its TOML read once, then :func:`parse_experiment`."""
    path = Path(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{path}: invalid TOML: {e}") from None
    return parse_experiment(data, path, bot, text=text)


def toml_value(value: Any) -> Any:
    """A variant's value as written in TOML, which has no null: the string ``"null"``
    stands for it (``null`` on the command line, read as JSON by
    :func:`demos_sim.game.parse_set`). Everything else is the game configuration's to
    check (:func:`_check_structure`)."""
    return None if value == "null" else value


def _with_bot(value: Any, bot: str) -> Any:
    """``value`` (TOML data) with every ``{bot}`` in its strings replaced by ``bot``."""
    if isinstance(value, str):
        return value.replace("{bot}", bot)
    if isinstance(value, list):
        return [_with_bot(v, bot) for v in value]
    if isinstance(value, dict):
        return {_with_bot(k, bot): _with_bot(v, bot) for k, v in value.items()}
    return value


def _names_bot(value: Any) -> bool:
    if isinstance(value, str):
        return "{bot}" in value
    if isinstance(value, list):
        return any(_names_bot(v) for v in value)
    if isinstance(value, dict):
        return any(_names_bot(k) or _names_bot(v) for k, v in value.items())
    return False


def parse_experiment(data: dict, path: str | Path, bot: str | None = None,
                     text: str | None = None) -> Experiment:
    """Validate an experiment's data — the TOML of a file, read once by
    :func:`load_experiment` or :func:`loads_experiment`, or a table built in code (the
    tuner's, without its ``[tune]`` tables) — section by section; ``path`` is named in
    errors and gives the default name; ``bot`` as in :func:`load_experiment`. ``text``
    is the file's text, kept for the record (``meta.json``; default: the data as JSON).

    Every value is checked by the validator of its section (below) or by the game: a
    setting by :meth:`Game.check_setting`, variants and the structure by the game's
    configuration (:meth:`Game.make_config`), policy specs by :func:`demos_sim.restricted.
    lineup`."""
    if not isinstance(data, dict):
        raise TypeError("parse_experiment takes the experiment's data (a dict); "
                        "loads_experiment reads a text")
    path = Path(path)
    P = _Parser(path)
    if bot is not None:
        data = _with_bot(data, bot)
        text = text.replace("{bot}", bot) if text is not None else None
    elif _names_bot(data):
        raise ExperimentError(f"{path}: names {{bot}}: run it through `demos-sim analyse`, or "
                              "give the bot (load_experiment(path, bot=...))")
    if text is None:
        text = json.dumps(data, indent=1, default=str)
    ad = _game(P, data)
    name, description = _identity(P, data, bot)
    settings = _settings(P, data, ad)
    fair_margin = _fair_margin(P, data)
    if "seed" not in data:
        P.fail("seed", "missing (every experiment names its seed)")
    seed = P.int_at_least("seed", data["seed"], 0)
    games, stop = _games_and_stop(P, data)
    metrics = _metrics(P, data, ad)
    player_list = _players(P, data)
    plugins = P.str_list("plugins", data["plugins"], allow_str=False) if "plugins" in data else []
    policies = P.str_list("policies", data.get("policies", ad.default_policy))
    allow_reference = data.get("allow_reference", False)
    if not isinstance(allow_reference, bool):
        P.fail("allow_reference", f"must be true or false, got {allow_reference!r}")
    variants = {key: toml_value(value)
                for key, value in P.table("variants", data.get("variants", {})).items()}
    grid = _grid(P, data, ad, variants)
    base = _baseline(P, data, ad, grid)
    if stop is not None:
        _check_track(P, stop, grid, metrics, ad)
    _check_structure(P, ad, settings, grid, player_list, variants)
    try:
        ad.load_plugins(plugins)
    except ConfigError as e:
        P.fail("plugins", str(e))
    sweep = data.get("sweep", "product")
    if sweep not in SWEEPS:
        P.fail("sweep", f"must be one of {', '.join(SWEEPS)}, got {sweep!r}")
    points, blocks = _points(P, ad, _combos(grid, base, sweep), grid, base, sweep,
                             player_list, settings, variants, policies, allow_reference)
    return Experiment(str(path), name, description, text, data, ad.name, ad, seed, games,
                      stop, tuple(metrics), tuple(grid), points, blocks, tuple(plugins),
                      settings, float(fair_margin))


def _game(P: _Parser, data: dict) -> Game:
    """``game`` first: it decides which settings keys exist; then every key is known."""
    if "game" not in data:
        P.fail("game", "missing (e.g. game = \"demos\")")
    if not isinstance(data["game"], str):
        P.fail("game", f"must be a string, got {data['game']!r}")
    try:
        ad = get_game(data["game"])
    except ConfigError as e:
        P.fail("game", str(e))
    allowed = COMMON_KEYS + tuple(ad.settings)
    for key in data:
        if key not in allowed:
            P.fail(key, f"unknown key (known: {', '.join(allowed)})")
    return ad


def _identity(P: _Parser, data: dict, bot: str | None) -> tuple[str, str]:
    """``name`` (default: the file's stem; ``-<bot>`` added) and ``description``."""
    name = data.get("name", P.path.stem)
    if not isinstance(name, str) or not _NAME.match(name):
        P.fail("name", f"must be letters, digits, '_', '.', '-' (a folder name), got {name!r}")
    if bot is not None:
        name = f"{name}-{bot.replace(':', '_')}"
    description = data.get("description", "")
    if not isinstance(description, str):
        P.fail("description", f"must be a string, got {description!r}")
    return name, description


def _settings(P: _Parser, data: dict, ad: Game) -> dict:
    """The game's settings given (checked by the game), else their defaults."""
    settings = {}
    for key, default in ad.settings.items():
        if key in data:
            try:
                settings[key] = ad.check_setting(key, data[key])
            except ConfigError as e:
                P.fail(key, str(e))
        elif default is not None:
            settings[key] = default
    return settings


def _fair_margin(P: _Parser, data: dict) -> float:
    fair_margin = data.get("fair_margin", FAIR_MARGIN)
    if (not isinstance(fair_margin, (int, float)) or isinstance(fair_margin, bool)
            or not 0 < fair_margin < 0.5):
        P.fail("fair_margin", "must be a number between 0 and 0.5 (a share of won games: "
               f"0.01 = ±1 pp), got {fair_margin!r}")
    return fair_margin


def _games_and_stop(P: _Parser, data: dict) -> tuple[int, StopRule | None]:
    """``games``, or a ``[stop]`` rule (whose maximum is then the games per point)."""
    stop = None
    if "stop" in data:
        st = P.table("stop", data["stop"])
        for key in st:
            if key not in STOP_KEYS:
                P.fail(f"stop.{key}", f"unknown key (known: {', '.join(STOP_KEYS)})")
        if "games" in data:
            P.fail("games", "give either games or a [stop] rule (its maximum is stop.max_games)")
        for key in ("half_width", "max_games"):
            if key not in st:
                P.fail(f"stop.{key}", "missing")
        hw = st["half_width"]
        if (not isinstance(hw, (int, float)) or isinstance(hw, bool) or not hw > 0
                or not math.isfinite(hw)):       # inf: met by any interval, nothing learnt
            P.fail("stop.half_width", f"must be a finite number > 0, got {hw!r}")
        max_games = P.int_at_least("stop.max_games", st["max_games"], 1)
        track = P.str_list("stop.track", st.get("track", ["win_share"]), allow_str=False)
        stop = StopRule(float(hw), max_games, tuple(track))
        games = max_games
    else:
        if "games" not in data:
            P.fail("games", "missing (a number of games per grid point, or a [stop] rule)")
        games = P.int_at_least("games", data["games"], 1)
    try:
        check_games(games, "the count")
    except ConfigError as e:
        P.fail("stop.max_games" if stop is not None else "games", str(e))
    return games, stop


def _metrics(P: _Parser, data: dict, ad: Game) -> list[str]:
    """The metrics reported, in the game's order; M1: win shares always come with the
    no-winner and truncated shares."""
    known = [q.name for q in ad.quantities]
    metrics = P.str_list("metrics", data.get("metrics", known), allow_str=False)
    for m in metrics:
        if m not in known:
            P.fail("metrics", f"unknown metric {m!r} (known: {', '.join(known)})")
    if len(set(metrics)) != len(metrics):
        P.fail("metrics", "names a metric twice")
    for m in ("win_share", "no_winner", "truncated"):
        if m in known and m not in metrics:
            metrics.append(m)
    return [m for m in known if m in metrics]


def _players(P: _Parser, data: dict) -> list[int | None]:
    """The player counts, one block each (None: the game's default)."""
    players = data.get("players", None)
    if players is None:
        return [None]
    if _is_int(players):
        return [players]
    if isinstance(players, list) and players and all(_is_int(n) for n in players):
        if len(set(players)) != len(players):
            P.fail("players", "names a player count twice")
        return list(players)
    P.fail("players", f"must be an integer or a non-empty list of integers, got {players!r}")


def _grid_values(P: _Parser, data: dict, ad: Game, key: str, values: Any) -> list:
    """One ``[grid]`` key's values: policy lists, or a setting's values (checked by the
    game); a variant's values are checked by the configuration (:func:`_check_structure`)."""
    k = f"grid.{key}"
    if not isinstance(values, list):
        P.fail(k, f"must be a list of values to sweep, got {values!r}")
    if not values:
        P.fail(k, "is an empty list (give at least one value)")
    if key == "policies":
        return [P.str_list(k, v) for v in values]
    if key in ad.settings:
        if key in data:
            P.fail(k, f"is also given as {key} (sweep it or fix it, not both)")
        vals = []
        for v in values:
            try:
                vals.append(ad.check_setting(key, v))
            except ConfigError as e:
                P.fail(k, str(e))
        return vals
    if key not in ad.variant_names():
        P.fail(k, f"unknown {ad.title} variant {key!r} (a grid sweeps variants, "
                  f"settings or policies; known: {', '.join(ad.variant_names())}, "
                  f"{', '.join(ad.settings)}, policies)")
    return [toml_value(v) for v in values]


def _grid(P: _Parser, data: dict, ad: Game, variants: dict) -> dict[str, list]:
    """``[grid]``: key -> its values to sweep (none: one point)."""
    grid: dict[str, list] = {}
    if "grid" not in data:
        return grid
    g = P.table("grid", data["grid"])
    if not g:
        P.fail("grid", "is empty (give at least one key with a list of values, "
                       "or leave [grid] out)")
    for key, values in g.items():
        if key in variants:
            P.fail(f"grid.{key}", "is also fixed in [variants] (sweep it or fix it, not both)")
        vals = _grid_values(P, data, ad, key, values)
        seen = [json.dumps(v) for v in vals]
        if len(set(seen)) != len(seen):
            P.fail(f"grid.{key}", "repeats a value")
        grid[key] = vals
    if "policies" in grid and "policies" in data:
        P.fail("grid.policies", "is also given as policies (sweep it or fix it, not both)")
    return grid


def _baseline(P: _Parser, data: dict, ad: Game, grid: dict) -> dict:
    """The reference point's grid values: ``[baseline]``, else each key's first value."""
    base = {k: v[0] for k, v in grid.items()}
    if "baseline" not in data:
        return base
    b = P.table("baseline", data["baseline"])
    if not grid:
        P.fail("baseline", "needs a [grid] to choose from")
    for key, value in b.items():
        k = f"baseline.{key}"
        if key not in grid:
            P.fail(k, f"is not a grid key (grid keys: {', '.join(grid)})")
        if key == "policies":
            value = P.str_list(k, value)
        elif key in ad.settings:
            try:
                value = ad.check_setting(key, value)
            except ConfigError as e:
                P.fail(k, str(e))
        else:
            value = toml_value(value)
        if json.dumps(value) not in [json.dumps(v) for v in grid[key]]:
            P.fail(k, f"{_fmt(value)} is not one of the grid's values")
        base[key] = value
    return base


def _check_track(P: _Parser, stop: StopRule, grid: dict, metrics: list[str], ad: Game):
    """Every tracked metric is reported, not a ratio, and a paired one has a partner."""
    n_points = math.prod(len(v) for v in grid.values())
    for t in stop.track:
        m = t[len(DIFF):] if t.startswith(DIFF) else t
        if m not in metrics:
            P.fail("stop.track", f"unknown or unreported metric {m!r} "
                                 f"(reported: {', '.join(metrics)}; prefix {DIFF} for a "
                                 "paired difference)")
        if ad.quantity(m).per is not None:
            P.fail("stop.track", f"{m!r} is a ratio metric; track the metric it is over")
        if t.startswith(DIFF) and n_points < 2:
            P.fail("stop.track", f"{t!r} needs a grid of at least two points")


def _check_structure(P: _Parser, ad: Game, settings: dict, grid: dict,
                     player_list: list, variants: dict) -> None:
    """The game's configuration checks the structure (player counts, mode, seating) at
    the first swept settings, then every fixed variant and every swept variant value, one
    at a time, so that its one-line refusal names the key."""
    first = dict(settings)      # a swept setting (e.g. Protocole's level) takes its first value
    first.update({k: v[0] for k, v in grid.items() if k in ad.settings})
    for n in player_list:
        try:
            ad.make_config(first, n, {})
        except ConfigError as e:
            msg = str(e)
            key = ("seating" if "seating" in msg else
                   "rules" if "rules" in msg and "players" not in msg else "players")
            P.fail(key, msg)
    n = player_list[0]
    for key, value in variants.items():
        try:
            ad.make_config(first, n, {key: value})
        except ConfigError as e:
            P.fail(f"variants.{key}", str(e))
    for key, values in grid.items():
        if key == "policies" or key in ad.settings:
            continue
        for v in values:
            try:
                ad.make_config(first, n, {**variants, key: v})
            except ConfigError as e:
                P.fail(f"grid.{key}", str(e))


def _combos(grid: dict, base: dict, sweep: str) -> list[tuple]:
    """The grid points' values, in order: the product (first key slowest), or the
    baseline then each value changed one key at a time (``sweep = "each"``)."""
    keys = list(grid)
    if sweep == "each" and grid:
        combos = [tuple(base[k] for k in keys)]
        for i, k in enumerate(keys):
            for v in grid[k]:
                if json.dumps(v) != json.dumps(base[k]):
                    c = list(combos[0])
                    c[i] = v
                    combos.append(tuple(c))
        return combos
    return list(itertools.product(*grid.values())) if grid else [()]


def _label(values: dict, base: dict, sweep: str) -> str:
    keys = list(values)
    if sweep == "each" and values:
        changed = [k for k in keys if json.dumps(values[k]) != json.dumps(base[k])]
        return (", ".join(f"{k}={_fmt(values[k])}" for k in changed)
                or "baseline (" + ", ".join(f"{k}={_fmt(base[k])}" for k in keys) + ")")
    return ", ".join(f"{k}={_fmt(v)}" for k, v in values.items()) or "all games"


def _points(P: _Parser, ad: Game, combos: list[tuple], grid: dict, base: dict, sweep: str,
            player_list: list, settings: dict, variants: dict, policies: list[str],
            allow_reference: bool) -> tuple[list[Point], list[Block]]:
    """Every grid point of every block (player count), with its configuration and its
    policies by seat; each block's reference point is the one at the baseline."""
    keys = list(grid)
    points: list[Point] = []
    blocks: list[Block] = []
    for b, n in enumerate(player_list):
        first, ref = len(points), None
        for combo in combos:
            values = dict(zip(keys, combo))
            var = dict(variants)
            var.update({k: v for k, v in values.items()
                        if k != "policies" and k not in ad.settings})
            sett = dict(settings)
            sett.update({k: v for k, v in values.items() if k in ad.settings})
            try:
                config = ad.make_config(sett, n, var)
            except ConfigError as e:
                P.fail("grid" if grid else "variants", str(e))
            try:
                seats = lineup(ad, values.get("policies", policies), config)
                if not allow_reference:       # omniscient & co.: a bound, not a player
                    seats.refuse_references("experiments and analyses", "allow_reference = true")
            except ConfigError as e:
                P.fail("grid.policies" if "policies" in values else "policies", str(e))
            if values == base:
                ref = len(points)
            points.append(Point(len(points), b, ad.players_of(config), values,
                                _label(values, base, sweep), config, seats.specs, None))
        blocks.append(Block(b, points[first].players, tuple(range(first, len(points))), ref))
    for blk in blocks:
        for i in blk.points:
            if i != blk.ref and len(blk.points) > 1:
                points[i] = dataclasses.replace(points[i], ref=blk.ref)
    return points, blocks


def experiment_of(game: str, points: list[tuple[str, Any, Lineup]], games: int, seed: int,
                  plugins: tuple[str, ...] = (), name: str = "simulate",
                  values: list[dict] | None = None,
                  metrics: tuple[str, ...] | None = None, ref: int = 0) -> Experiment:
    """An experiment built in code rather than read from a file: one block of the given
    ``points`` — ``[(label, configuration, its Lineup), …]``, the policies by seat read by
    :func:`demos_sim.restricted.lineup` — all with the same player count; point ``ref``
    (the first unless given) is the reference of the others (paired on the same deals).
    ``values`` gives each point's grid values (default ``{"point": label}``). ``demos-sim
    simulate`` is such an experiment of one point, ``demos-sim compare`` one of two,
    ``demos-sim sweep`` one of a value each. ``metrics``: the quantities reported
    (default all)."""
    ad = get_game(game)
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    check_games(games)
    players = {ad.players_of(c) for _, c, _ in points}
    if len(players) != 1:
        raise ConfigError("the points of one comparison must have the same player count")
    n = players.pop()
    if not 0 <= ref < len(points):
        raise ConfigError(f"the reference point {ref} is not one of the {len(points)} points")
    values = values or [{"point": label} for label, _, _ in points]
    pts = []
    for i, (label, config, seats) in enumerate(points):
        if not isinstance(seats, Lineup) or len(seats.specs) != n:
            raise TypeError(f"point {label!r}: the policies must be a Lineup of {n} seats "
                            "(demos_sim.restricted.lineup)")
        pts.append(Point(i, 0, n, values[i], label, config, seats.specs,
                         None if i == ref else ref))
    doc = {"game": game, "seed": seed, "games": games, "plugins": list(plugins),
           "points": [{"label": p.label, "config": ad.describe(p.config),
                       "policies": list(p.policies)} for p in pts]}
    text = json.dumps(doc, indent=1, default=str)
    metrics = tuple(q.name for q in ad.quantities if metrics is None or q.name in metrics)
    keys = tuple(values[0]) if len(pts) > 1 else ()
    return Experiment(f"<{name}>", name, "", text, doc, ad.name, ad, seed, games, None,
                      metrics, keys, pts, [Block(0, n, tuple(range(len(pts))), ref)],
                      tuple(plugins), {})
