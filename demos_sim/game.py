"""One interface for every game: :class:`Game`, registered by name in :data:`GAMES`.

Every command and layer — ``simulate``, ``record``, ``policies``, ``variants``, ``run``,
``tournament``, ``tune``, ``analyse`` — reaches a game only through its :class:`Game`
(:func:`get_game`), so nothing outside a game's own folder branches on the game. A game's
folder ``demos_sim/<name>/`` holds

- ``rules.py``: its validated configuration and ``VARIANTS`` / ``VARIANT_HELP`` (Part V);
- ``policies/``: its policy registry (``resolve``, ``available``, ``get``, ``register``);
- ``sim.py``: ``play_chunk``, one chunk of games through the game's kernel (per-game
  result rows, which :meth:`Game.play` turns into quantities);
- ``record.py``: ``iter_records`` / ``write_records`` (GAME_RECORD.md);
- ``game.py``: the :class:`Game` subclass tying these together.

Adding a fourth game is one new folder and one line in :data:`GAMES`.

What the runner needs from a game: its experiment keys (``settings``: e.g. DĒMOS
``rules``, ``mode``, ``seating``) and a validated configuration built from them, the
player count and the variants; validation of one variant value and of policy names; and
:meth:`Game.play`, which plays one chunk of one configuration and returns, for every
game, integer values of its :data:`quantities <Game.quantities>` — the win share of
every side (M1, times a scale such as :data:`SHARE_SCALE` so that 1/k is an integer),
the no-winner and truncated indicators, game length, points by seat …; and the source
files whose code decides those values (for the resume fingerprint). Everything else —
aggregates, pairing, intervals, storage, tables, the report, and ``demos-sim simulate``
(the runner's one-point run, :mod:`demos_sim.runner.simulate`, which prints the win shares,
:attr:`Game.length` and :attr:`Game.summary_metrics`) — is the runner's.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from demos_sim import ConfigError

SHARE_SCALE = 60          # lcm(1 … 5): a win shared by k (M1) is 60 // k units

# the command-line options that name a game setting (``demos-sim simulate --mode …``)
CLI_SETTINGS = ("rules", "mode", "level", "seating", "handicap_points", "handicap_vetoes")


@dataclass(frozen=True)
class Quantity:
    """A per-game integer measure.

    Parameters
    ----------
    name : metric name used in experiment files and tables.
    level : ``"side"`` (one value per side), ``"seat"`` (per seat), ``"game"`` (one) or
        ``"bins"`` (one value per label of ``bins``: a per-game vector such as vetoes
        used in each round, or one-hot indicators of a category).
    scale : stored integers are value × scale (win share: :data:`SHARE_SCALE`).
    rate : a proportion in [0, 1] (its interval stays in [0, 1] and is never zero-wide at
        0 or 1: :mod:`demos_sim.runner.intervals`).
    hist : ``(bin width, number of bins)`` of a histogram kept per chunk, or None;
        values past the last bin are counted in it (overflow bin).
    bins : column labels of a ``"bins"`` quantity.
    per : name of a denominator quantity, or None. When given, the quantity is reported
        as the ratio ``Σx / Σy`` of its sum to the denominator's (column by column, or
        over the denominator's single column), with a delta-method interval: e.g. the
        win share of players who held one Media is Σ(win share · [held one]) over
        Σ[held one]. Ratios carry no paired difference.
    description : one line for the report.
    """

    name: str
    level: str
    scale: int = 1
    rate: bool = False
    hist: tuple[int, int] | None = None
    description: str = ""
    bins: tuple[str, ...] = ()
    per: str | None = None


class Game:
    """Interface of a game (see the module docstring); one subclass per game folder."""

    name: str = ""
    title: str = ""
    settings: dict[str, Any] = {}       # experiment key -> default
    quantities: tuple[Quantity, ...] = ()
    default_policy: str = ""
    policies_module: str = ""           # the game's policy registry module
    length: str = "rounds"              # the quantity that is a game's length
    summary_metrics: tuple[str, ...] = ("no_winner", "truncated")   # shown by simulate
    by_policy: str | None = None        # a seat quantity: the share of the seat's policy

    # ---------------------------------------------------------------- configuration
    def check_setting(self, key: str, value: Any) -> Any:
        raise NotImplementedError

    def variant_names(self) -> list[str]:
        return list(self.rules.VARIANTS)

    def check_variant(self, name: str, value: Any) -> Any:
        return self.rules.check_variant(name, value)

    def variant_defaults(self) -> dict[str, Any]:
        """Variant -> its default (Part V), as ``demos-sim variants`` shows it."""
        return {name: (spec[1] if isinstance(spec, tuple) else spec)
                for name, spec in self.rules.VARIANTS.items()}

    def variant_help(self) -> dict[str, str]:
        """Variant -> one line: what it changes, with its rule ID (``demos-sim variants``)."""
        return self.rules.VARIANT_HELP

    def variant_scope(self, config, name: str) -> str | None:
        """None when variant ``name`` can change a game of ``config``; else where the rules
        let it act (``"to mode 2v3 (D9.3)"``): outside that, every game is the same whatever
        its value (the rules module's ``SCOPE``)."""
        scope = getattr(self.rules, "SCOPE", {}).get(name)
        if scope is None or scope[0](config):
            return None
        return scope[1]

    def trial_rules(self) -> dict[str, str]:
        """Settings that change the rules but are not in the contract (no variant of Part V;
        game records refuse them): name -> one line (``demos-sim variants``)."""
        return {}

    def make_config(self, settings: dict, players: int | None, variants: dict):
        raise NotImplementedError

    def config_from_options(self, options: dict, players: int | None, variants: dict):
        """The configuration of the command-line options ``options`` (``CLI_SETTINGS``
        given on the command line, None when absent): an option that names no setting of
        this game is refused with a one-line error."""
        settings = {}
        for key, value in options.items():
            if value is None:
                continue
            if key not in self.settings:
                raise ConfigError(f"--{key} does not apply to {self.title}")
            settings[key] = value              # the configuration validates it
        return self.make_config(settings, players, variants)

    def players_of(self, config) -> int:
        return config.players

    def labels(self, config, level: str) -> list[str]:
        """Labels of the sides or seats of ``config`` (level "side" or "seat")."""
        raise NotImplementedError

    def side_seats(self, config) -> list[list[int]]:
        """Seats of every side, indexed like ``labels(config, "side")``."""
        return [[i] for i in range(self.players_of(config))]

    def cooperative(self, config) -> bool:
        """True when all seats win or lose together (Protocole all together, P5)."""
        return False

    def describe(self, config) -> dict:
        """The configuration as plain JSON (every variant with its value in force)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- policies
    @property
    def rules(self):
        return importlib.import_module(f"demos_sim.{self.name}.rules")

    @property
    def policies(self):
        """The game's policy registry module (``resolve``, ``available``, ``get`` …)."""
        return importlib.import_module(self.policies_module)

    def load_plugin(self, plugin: str) -> None:
        """Import a module or ``.py`` file that registers extra policies (a game may read
        other plugins: L'Assemblée's persona files)."""
        from demos_sim.registry import load_plugin

        load_plugin(plugin)

    def load_plugins(self, plugins) -> None:
        """Load ``plugins`` into this process, each once: the one place a process loads
        them — the main process when it reads the policies
        (:func:`demos_sim.restricted.lineup`), a worker when it starts a task
        (:mod:`demos_sim.runner.tasks`, :mod:`demos_sim.runner.points`). One-line
        errors."""
        for plugin in plugins:
            self.load_plugin(plugin)

    def loaded_plugins(self) -> tuple[str, ...]:
        """Plugins loaded so far in this process (worker processes load them again)."""
        from demos_sim.registry import loaded_plugins

        return tuple(loaded_plugins())

    def default_policies(self, config) -> str:
        """The policy every seat plays when ``--policies`` is not given."""
        return self.default_policy

    # ---------------------------------------------------------------- playing
    def play(self, config, specs: list[str], seed: int, chunk: int, count: int,
             metrics=None, first: int = 0) -> dict[str, np.ndarray]:
        """Games ``first … first+count-1`` of chunk ``chunk``: quantity -> int64 (count, m)
        (a chunk played in parts gives the same games: :func:`demos_sim.sim_common.play_rows`).

        ``metrics`` (names, or None for all) are the quantities wanted, with their ratio
        denominators (:meth:`needed`); a game may skip the work of the others (DĒMOS turns
        its kernel statistics off when no wanted quantity needs them). The games played are
        the same whatever is asked. The policies' plugins are already loaded in this
        process (:meth:`load_plugins`).
        """
        raise NotImplementedError

    def needed(self, metrics) -> tuple[str, ...]:
        """``metrics`` (None: all) with the denominators of ratio quantities, in the
        order of :attr:`quantities`."""
        if metrics is None:
            return tuple(q.name for q in self.quantities)
        want = set(metrics)
        want |= {self.quantity(m).per for m in metrics if self.quantity(m).per}
        return tuple(q.name for q in self.quantities if q.name in want)

    # ---------------------------------------------------------------- tune-bot
    # What ``demos-sim tune-bot`` (:mod:`demos_sim.tuner.bot`) may tune in this game; a
    # game without a tunable bot keeps these defaults.
    tune_named_only: tuple[str, ...] = ()   # searched only when named (``--params``)
    tunes_in_place: bool = False            # always scored at one seat among the field

    def tune_space(self, team: bool) -> dict[str, tuple[int, float, float, float]]:
        """The parameters tune-bot may search: name -> ``(index in the policy's params,
        low, high, step)`` (integer bounds with step 1: an integer parameter); ``team``:
        a team mode (parameters that act only there are left out otherwise). Empty: the
        game has no tunable bot."""
        return {}

    def tunable(self, policy: str) -> str | None:
        """None when tune-bot can tune policy spec ``policy``, else why not (one line)."""
        return f"{self.title} has no bot tune-bot can tune, not {policy!r}"

    def tune_warm(self, path: str) -> np.ndarray:
        """The parameter vector of an earlier tune-bot result file (``--warm``)."""
        raise ConfigError(f"--warm: {self.title} has no tune-bot result file to start from")

    def write_tuned(self, res, command: str, path: Path) -> str:
        """The text of the data file tune-bot writes at ``path`` for its result ``res``
        (:class:`demos_sim.tuner.bot.BotTune`), made by ``command``."""
        raise ConfigError(f"{self.title} has no tune-bot result file")

    def write_records(self, path, config, specs: list[str], games: int, seed: int) -> int:
        """Write ``games`` GAME_RECORD.md records as JSON Lines, atomically."""
        return importlib.import_module(f"demos_sim.{self.name}.record").write_records(
            path, config, specs, games, seed)

    def iter_records(self, config, specs: list[str], games: int, seed: int):
        return importlib.import_module(f"demos_sim.{self.name}.record").iter_records(
            config, specs, games, seed)

    def named_in(self, text: str) -> bool:
        """Whether ``text`` (a figure's name, lower case) names this game."""
        return self.name in text or self.title.lower() in text

    def ladder_chain(self, figure: str) -> str | None:
        """The chain of the committed ladder (``results/ladder``) whose order of bots holds
        for ``figure`` (its name, lower case) of this game; None when it names none."""
        return self.name

    def decisions(self, config, specs: list[str], index: int, seed: int):
        """Every decision of game ``index`` of ``seed`` (the game ``iter_records`` gives
        at that index) as the deciding seat saw it, with the bot's values where it shows
        them (the explorer's replay); None for a game that does not list them."""
        return None

    def source_files(self) -> list[Path]:
        raise NotImplementedError

    def quantity(self, name: str) -> Quantity:
        for q in self.quantities:
            if q.name == name:
                return q
        raise KeyError(name)


def parse_set(items: list[str] | None) -> dict:
    """``--set`` items, ``["max_rounds=5", "no_trio_winner=points"]`` -> dict of variants;
    VALUE is JSON when it parses (numbers, true/false, null, lists), a string otherwise."""
    out: dict = {}
    for item in items or []:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--set expects VARIANT=VALUE, got {item!r}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[name.strip()] = value
    return out


def toml_literal(v) -> str:
    """``v`` (a number, bool, string, list or table) as a TOML literal: what the data files
    written by a command (tune-bot's results) hold. A non-finite float is written as the
    string "nan"; a table's None entries are left out (TOML has no null)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        x = float(v)
        return repr(x) if np.isfinite(x) else '"nan"'
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{toml_literal(str(k))} = {toml_literal(x)}"
                               for k, x in v.items() if x is not None) + "}"
    raise TypeError(type(v))


# name -> "module:class"; imported on first use, so each game lives in its own folder and a
# new game registers with one line here.
GAMES = {"demos": "demos_sim.demos.game:DemosGame",
         "protocole": "demos_sim.protocole.game:ProtocoleGame",
         "assemblee": "demos_sim.assemblee.game:AssembleeGame"}
_LOADED: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The registered game ``name`` (a one-line error naming the available ones)."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r} (available: {', '.join(GAMES)})")
    if name not in _LOADED:
        mod, cls = GAMES[name].split(":")
        _LOADED[name] = getattr(importlib.import_module(mod), cls)()
    return _LOADED[name]
