"""Experiment files: TOML in, a validated :class:`Experiment` out, or a one-line error.

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
from demos_sim.registry import refuse_references
from demos_sim.restricted import check_specs
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

    ``bot`` replaces every ``{bot}`` in the file's text (e.g. ``policies = ["{bot}",
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
    return parse_experiment(text, path, bot)


def parse_experiment(text: str, path: str | Path, bot: str | None = None) -> Experiment:
    """Validate the text of an experiment file read from ``path`` (named in errors, and
    the default name); as :func:`load_experiment` otherwise. The tuner passes the text
    of a tune file without its ``[tune]`` tables."""
    path = Path(path)
    P = _Parser(path)
    if bot is not None:
        text = text.replace("{bot}", bot)
    elif "{bot}" in text:
        raise ExperimentError(f"{path}: names {{bot}}: run it through `demos-sim analyse`, or "
                              "give the bot (load_experiment(path, bot=...))")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{path}: invalid TOML: {e}") from None

    # game first: it decides which settings keys exist
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

    name = data.get("name", path.stem)
    if not isinstance(name, str) or not _NAME.match(name):
        P.fail("name", f"must be letters, digits, '_', '.', '-' (a folder name), got {name!r}")
    if bot is not None:
        name = f"{name}-{bot.replace(':', '_')}"
    description = data.get("description", "")
    if not isinstance(description, str):
        P.fail("description", f"must be a string, got {description!r}")

    settings = {}
    for key, default in ad.settings.items():
        if key in data:
            try:
                settings[key] = ad.check_setting(key, data[key])
            except ConfigError as e:
                P.fail(key, str(e))
        elif default is not None:
            settings[key] = default

    fair_margin = data.get("fair_margin", FAIR_MARGIN)
    if (not isinstance(fair_margin, (int, float)) or isinstance(fair_margin, bool)
            or not 0 < fair_margin < 0.5):
        P.fail("fair_margin", "must be a number between 0 and 0.5 (a share of won games: "
               f"0.01 = ±1 pp), got {fair_margin!r}")

    if "seed" not in data:
        P.fail("seed", "missing (every experiment names its seed)")
    seed = P.int_at_least("seed", data["seed"], 0)

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
        track = st.get("track", ["win_share"])
        track = P.str_list("stop.track", track, allow_str=False)
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

    known_metrics = [q.name for q in ad.quantities]
    metrics = data.get("metrics", known_metrics)
    metrics = P.str_list("metrics", metrics, allow_str=False)
    for m in metrics:
        if m not in known_metrics:
            P.fail("metrics", f"unknown metric {m!r} (known: {', '.join(known_metrics)})")
    if len(set(metrics)) != len(metrics):
        P.fail("metrics", "names a metric twice")
    # M1: win shares come with the no-winner and truncated shares, always
    for m in ("win_share", "no_winner", "truncated"):
        if m in known_metrics and m not in metrics:
            metrics.append(m)
    metrics = [m for m in known_metrics if m in metrics]

    players = data.get("players", None)
    if players is None:
        player_list = [None]
    elif _is_int(players):
        player_list = [players]
    elif isinstance(players, list) and players and all(_is_int(n) for n in players):
        if len(set(players)) != len(players):
            P.fail("players", "names a player count twice")
        player_list = list(players)
    else:
        P.fail("players", f"must be an integer or a non-empty list of integers, got {players!r}")

    plugins = P.str_list("plugins", data["plugins"], allow_str=False) if "plugins" in data else []
    policies = P.str_list("policies", data.get("policies", ad.default_policy))
    allow_reference = data.get("allow_reference", False)
    if not isinstance(allow_reference, bool):
        P.fail("allow_reference", f"must be true or false, got {allow_reference!r}")

    variants = {}
    for key, value in P.table("variants", data.get("variants", {})).items():
        try:
            variants[key] = ad.check_variant(key, value)
        except ConfigError as e:
            P.fail(f"variants.{key}", str(e))

    grid: dict[str, list] = {}
    if "grid" in data:
        g = P.table("grid", data["grid"])
        if not g:
            P.fail("grid", "is empty (give at least one key with a list of values, "
                           "or leave [grid] out)")
        for key, values in g.items():
            k = f"grid.{key}"
            if not isinstance(values, list):
                P.fail(k, f"must be a list of values to sweep, got {values!r}")
            if not values:
                P.fail(k, "is an empty list (give at least one value)")
            if key in variants:
                P.fail(k, "is also fixed in [variants] (sweep it or fix it, not both)")
            if key == "policies":
                vals = [P.str_list(k, v) for v in values]
            elif key in ad.settings:
                if key in data:
                    P.fail(k, f"is also given as {key} (sweep it or fix it, not both)")
                vals = []
                for v in values:
                    try:
                        vals.append(ad.check_setting(key, v))
                    except ConfigError as e:
                        P.fail(k, str(e))
            elif key in ad.variant_names():
                vals = []
                for v in values:
                    try:
                        vals.append(ad.check_variant(key, v))
                    except ConfigError as e:
                        P.fail(k, str(e))
            else:
                P.fail(k, f"unknown {ad.title} variant {key!r} (a grid sweeps variants, "
                          f"settings or policies; known: {', '.join(ad.variant_names())}, "
                          f"{', '.join(ad.settings)}, policies)")
            seen = [json.dumps(v) for v in vals]
            if len(set(seen)) != len(seen):
                P.fail(k, "repeats a value")
            grid[key] = vals
        if "policies" in grid and "policies" in data:
            P.fail("grid.policies", "is also given as policies (sweep it or fix it, not both)")

    base = {k: v[0] for k, v in grid.items()}
    if "baseline" in data:
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
                try:
                    value = ad.check_variant(key, value)
                except ConfigError as e:
                    P.fail(k, str(e))
            if json.dumps(value) not in [json.dumps(v) for v in grid[key]]:
                P.fail(k, f"{_fmt(value)} is not one of the grid's values")
            base[key] = value

    if stop is not None:
        n_points = 1
        for v in grid.values():
            n_points *= len(v)
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

    # structure first (player counts, mode, seating), then every grid point
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
    for plug in plugins:
        try:
            ad.load_plugin(plug)
        except ConfigError as e:
            P.fail("plugins", str(e))

    sweep = data.get("sweep", "product")
    if sweep not in SWEEPS:
        P.fail("sweep", f"must be one of {', '.join(SWEEPS)}, got {sweep!r}")
    keys = list(grid)
    if sweep == "each" and grid:
        combos = [tuple(base[k] for k in keys)]
        for i, k in enumerate(keys):
            for v in grid[k]:
                if json.dumps(v) != json.dumps(base[k]):
                    c = list(combos[0])
                    c[i] = v
                    combos.append(tuple(c))
    else:
        combos = list(itertools.product(*grid.values())) if grid else [()]
    points: list[Point] = []
    blocks: list[Block] = []
    for b, n in enumerate(player_list):
        first = len(points)
        ref = None
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
            specs = values.get("policies", policies)
            try:
                check_specs(ad, specs, config)      # an idle restricted form: refused
                if not allow_reference:       # omniscient & co.: a bound, not a player
                    refuse_references(ad.policies.resolve(list(specs), ad.players_of(config)),
                                      "experiments and analyses", "allow_reference = true")
            except ConfigError as e:
                P.fail("grid.policies" if "policies" in values else "policies", str(e))
            if len(specs) == 1:
                specs = specs * ad.players_of(config)
            if sweep == "each" and grid:
                changed = [k for k in keys if json.dumps(values[k]) != json.dumps(base[k])]
                label = (", ".join(f"{k}={_fmt(values[k])}" for k in changed)
                         or "baseline (" + ", ".join(f"{k}={_fmt(base[k])}" for k in keys) + ")")
            else:
                label = ", ".join(f"{k}={_fmt(v)}" for k, v in values.items()) or "all games"
            if values == base:
                ref = len(points)
            points.append(Point(len(points), b, ad.players_of(config), values, label, config,
                                tuple(specs), None))
        idx = tuple(range(first, len(points)))
        blocks.append(Block(b, points[first].players, idx, ref))
    for blk in blocks:
        for i in blk.points:
            if i != blk.ref and len(blk.points) > 1:
                points[i] = dataclasses.replace(points[i], ref=blk.ref)

    return Experiment(str(path), name, description, text, data, ad.name, ad, seed, games,
                      stop, tuple(metrics), tuple(keys), points, blocks, tuple(plugins),
                      settings, float(fair_margin))


def experiment_of(game: str, points: list[tuple[str, Any, list[str]]], games: int, seed: int,
                  plugins: tuple[str, ...] = (), name: str = "simulate",
                  values: list[dict] | None = None,
                  metrics: tuple[str, ...] | None = None, ref: int = 0) -> Experiment:
    """An experiment built in code rather than read from a file: one block of the given
    ``points`` — ``[(label, configuration, policy specs by seat), …]``, validated by the
    caller — all with the same player count; point ``ref`` (the first unless given) is the
    reference of the others (paired on the same deals). ``values`` gives each point's grid
    values (default ``{"point": label}``). ``demos-sim simulate`` is such an experiment of
    one point, ``demos-sim compare`` one of two, ``demos-sim sweep`` one of a value each.
    ``metrics``: the quantities reported (default all)."""
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
    for i, (label, config, specs) in enumerate(points):
        specs = list(specs) * n if len(specs) == 1 else list(specs)
        pts.append(Point(i, 0, n, values[i], label, config, tuple(specs),
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
