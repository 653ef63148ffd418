"""Policy registries: name -> numba function + parameter vector, one registry per game.

A policy is any ``@numba.njit`` function with the signature :data:`POLICY_SIG`::

    decide(cfg, obs, opts, n_opts, params, rng) -> index into opts[:n_opts]

``cfg`` is the game's public configuration vector, ``obs`` the deciding seat's
observation (RULES.md M2), ``opts[:n_opts]`` the legal options of the decision, ``params``
the policy's own float64 parameters (:data:`N_PARAMS` of them) and ``rng`` its one-word
random stream (use :func:`demos_sim.rng.below`). Engines call it through a function
pointer, so registering a policy never touches engine code.

A *policy spec* names a policy wherever one is asked for (``--policies``, an experiment's
``policies``, the tournament, the tuner, the analyses; all go through
:meth:`PolicyRegistry.get`)::

    name[:flag][@N]          greedy   heuristic:noveto   ismcts@256   ismcts:noveto@64

- ``name:flag`` is a restricted form: it sets one parameter to 1
  (``register(..., flags={"noveto": index_in_params})``).
- ``name@N`` sets the policy's *budget* (search effort: iterations, samples …) to the
  whole number ``N``, 1 to :data:`MAX_BUDGET` (one million), for the policies that
  declare one (``register(..., budget=index_in_params)``; the registered parameters hold
  its default). ``name@N:flag`` is read as ``name:flag@N``. A bad spec (``ismcts@abc``,
  ``ismcts@0``, ``ismcts@99999999999999999999``, ``greedy@8`` for a policy without a
  budget) is a one-line :class:`~demos_sim.ConfigError`.

A *reference* policy (``register(..., reference="omniscient")``) is exempt from M2 by
design: it sees the true state (the game's kernel writes a *truth block* into its seat's
observation, and only its seat's; the M2 check leaves it out). It measures a bound
(the ceiling of skill), it is not a player: :func:`reference_mask` gives the kernel its
seats, and the analyses refuse it unless asked (:func:`refuse_references`).

Under ``NUMBA_DISABLE_JIT=1`` ``njit`` hands back the plain Python function; the
registry then takes it as it is, so a plugin can be stepped through in a debugger.

*Declared* policies: the built-in ones are listed as data (:class:`Declared`: name,
description, restricted forms, budget, reference, and the module whose import registers
the function) in a table beside the game's policies, ``declared.py``, which
``python -m demos_sim.declare`` writes from the registered policies. Listing them
(``demos-sim policies``, :meth:`PolicyRegistry.available`, :meth:`PolicyRegistry.describe`)
reads the table and imports no policy module: their functions are compiled for
:data:`POLICY_SIG` when defined, which on a cold numba cache takes minutes. A policy's
module is imported when its function or parameters are first asked for
(:meth:`PolicyRegistry.get`), the functions compiled exactly as before; a name the table
does not hold (a plugin's, a test's, a built-in policy not yet in the table) loads every
built-in module as before.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import config as numba_config
from numba import types

from demos_sim import ConfigError

POLICY_SIG = types.int64(types.int64[:], types.int64[:], types.int64[:], types.int64,
                         types.float64[:], types.uint64[:])
N_PARAMS = 32
MAX_BUDGET = 1_000_000      # the largest ``@N`` (ismcts@20000 already takes seconds a move)

_plugins: list[str] = []


@dataclass(frozen=True)
class Declared:
    """What listing a policy shows, without its function: a row of a game's ``declared.py``
    (written by ``python -m demos_sim.declare``)."""
    name: str
    module: str                    # importing it registers the policy
    description: str = ""
    flags: dict = field(default_factory=dict)
    budget: int | None = None
    default_budget: int | None = None
    reference: str | None = None


@dataclass(frozen=True)
class Policy:
    name: str
    fn: object
    params: np.ndarray
    description: str = ""
    flags: dict = field(default_factory=dict)
    budget: int | None = None      # index in params of the ``@N`` budget, None: no budget
    reference: str | None = None   # e.g. "omniscient": sees the true state, exempt from M2

    @property
    def default_budget(self) -> int | None:
        """The budget the registered parameters give (``name`` without ``@N``)."""
        return None if self.budget is None else int(self.params[self.budget])


class PolicyRegistry:
    """The policies of one game; ``builtins`` is the module that registers the built-in ones."""

    def __init__(self, game: str, builtins: str, declared: str | None = None):
        self.game = game
        self._builtins = builtins
        self._declared_module = declared      # the module holding DECLARED (a tuple)
        self._declared: dict[str, Declared] | None = None
        self._policies: dict[str, Policy] = {}
        self._origin: dict[str, str] = {}     # name -> the module whose import registered it
        self._loaded = False

    def register(self, name: str, params=(), description: str = "", flags: dict | None = None,
                 budget: int | None = None, reference: str | None = None):
        """Decorator registering a policy function under ``name``; ``budget`` is the index
        in ``params`` that ``name@N`` sets (None: the policy takes no ``@N``);
        ``reference`` (e.g. ``"omniscient"``) declares a reference policy that sees the
        true state (module docstring)."""
        if not name or any(ch in name for ch in ":,@"):
            raise ValueError(f"bad policy name {name!r}")
        if budget is not None and not 0 <= budget < N_PARAMS:
            raise ValueError(f"budget index {budget} outside params[0:{N_PARAMS}]")

        def deco(fn):
            if not hasattr(fn, "nopython_signatures") and not (numba_config.DISABLE_JIT
                                                               and callable(fn)):
                raise TypeError("a policy must be a numba.njit function with POLICY_SIG")
            p = np.zeros(N_PARAMS, np.float64)
            p[: len(params)] = params
            self._policies[name] = Policy(name, fn, p, description, dict(flags or {}), budget,
                                          reference)
            self._origin[name] = _importing_module()
            return fn

        return deco

    def unregister(self, name: str) -> None:
        """Remove ``name`` (a policy registered for a while, e.g. ``demos-sim tune-bot``'s
        candidate); unknown names are ignored."""
        self._policies.pop(name, None)

    def _load_builtins(self):
        if not self._loaded:
            self._loaded = True
            importlib.import_module(self._builtins)

    def load_builtins(self) -> None:
        """Import every built-in policy module now (each compiles its functions when
        defined): ``python -m demos_sim.warm`` fills numba's cache with them."""
        self._load_builtins()

    def declared(self) -> dict[str, Declared]:
        """The built-in policies as the game's table declares them (empty without one);
        reading it imports no policy module."""
        if self._declared is None:
            rows = ()
            if self._declared_module:
                rows = importlib.import_module(self._declared_module).DECLARED
            self._declared = {d.name: d for d in rows}
        return self._declared

    def _load(self, name: str) -> None:
        """Register ``name``: import its declared module, else every built-in module."""
        if name in self._policies:
            return
        d = self.declared().get(name)
        if d is not None and not self._loaded:
            importlib.import_module(d.module)
        if name not in self._policies:
            self._load_builtins()

    def available(self) -> list[str]:
        """Every policy name: the declared built-in ones and those registered (plugins,
        modules already imported); without a table, every built-in module is imported."""
        if not self.declared():
            self._load_builtins()
        return sorted(set(self.declared()) | set(self._policies))

    def describe(self, name: str) -> Declared:
        """What ``demos-sim policies`` shows of ``name``: its registered policy's, or its
        declaration's when its module is not imported yet (nothing compiled)."""
        if name not in self._policies and name not in self.declared():
            self._load_builtins()
        pol = self._policies.get(name)
        if pol is None:
            if name in self.declared():
                return self.declared()[name]
            raise ConfigError(f"unknown {self.game} policy {name!r} "
                              f"(available: {', '.join(self.available())})")
        return Declared(name, self._origin.get(name, ""), pol.description, dict(pol.flags),
                        pol.budget, pol.default_budget, pol.reference)

    def get(self, spec: str) -> Policy:
        """Look up a policy spec ``name[:flag][@N]`` (module docstring); unknown names, flags
        and bad budgets raise ConfigError."""
        base, flags, budgets = spec_parts(spec)
        self._load(base)
        if len(flags) > 1 or len(budgets) > 1:
            raise ConfigError(f"policy spec {spec!r}: at most one ':flag' and one '@N' "
                              "(name[:flag][@N])")
        flag = flags[0] if flags else ""
        at = bool(budgets)
        budget = budgets[0] if budgets else ""
        if base not in self._policies:
            raise ConfigError(f"unknown {self.game} policy {base!r} "
                              f"(available: {', '.join(self.available())})")
        pol = self._policies[base]
        if not flag and not at:
            return pol
        params = pol.params.copy()
        if flag:
            if flag not in pol.flags:
                known = ", ".join(pol.flags) or "none"
                raise ConfigError(f"policy {base!r} has no restricted form {flag!r} "
                                  f"(known: {known})")
            params[pol.flags[flag]] = 1.0
        if at:
            if pol.budget is None:
                takes = [n for n in self.available() if self.describe(n).budget is not None]
                raise ConfigError(f"policy spec {spec!r}: {base!r} takes no @N budget "
                                  f"(policies that do: {', '.join(takes) or 'none'})")
            if not (budget.isascii() and budget.isdigit()):
                raise ConfigError(f"policy spec {spec!r}: the budget {budget!r} is not a "
                                  "whole number")
            if int(budget) < 1:
                raise ConfigError(f"policy spec {spec!r}: the budget must be at least 1")
            if int(budget) > MAX_BUDGET:    # kernels read it as int64; far past any use
                raise ConfigError(f"policy spec {spec!r}: the budget is at most "
                                  f"{MAX_BUDGET}")
            params[pol.budget] = float(int(budget))
        return Policy(spec, pol.fn, params, pol.description, pol.flags, pol.budget,
                      pol.reference)

    def resolve(self, specs: list[str], players: int) -> list[Policy]:
        """One policy per seat: a single name applies to every seat."""
        specs = [s.strip() for s in specs if s.strip()]
        if len(specs) == 1:
            specs = specs * players
        if len(specs) != players:
            raise ConfigError(f"--policies names {len(specs)} policies for {players} players "
                              "(give one for every seat, or a single one for all)")
        return [self.get(s) for s in specs]


def _importing_module() -> str:
    """The module whose body is running the registration (the innermost frame that runs a
    module's top level): importing it registers the policy again."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name == "<module>":
            return f.f_globals.get("__name__", "")
        f = f.f_back
    return ""


def declarations(registry: PolicyRegistry) -> list[Declared]:
    """Every built-in policy of ``registry`` as a :class:`Declared` row, in name order,
    read from the registered policies (imports every built-in module: compiles on a cold
    cache). What ``python -m demos_sim.declare`` writes into ``declared.py``. Policies
    registered from outside the package (plugins, tests, the bot guide's examples) are
    not built-in and are left out, whatever else the process registered before."""
    registry._load_builtins()
    rows = [registry.describe(n) for n in sorted(registry._policies)]
    return [d for d in rows if d.module.startswith("demos_sim.")]


def declaration_source(registry: PolicyRegistry, command: str) -> str:
    """``declared.py``'s text: a tuple ``DECLARED`` of :class:`Declared` rows."""
    rows = []
    for d in declarations(registry):
        rows.append(f"    Declared({d.name!r}, {d.module!r},\n"
                    f"             {d.description!r},\n"
                    f"             flags={d.flags!r}, budget={d.budget!r}, "
                    f"default_budget={d.default_budget!r}, reference={d.reference!r}),")
    return (f'"""The built-in {registry.game} policies as data, for listing them without '
            "importing (and\ncompiling) their modules: written by ``" + command + "`` from "
            "the registered\npolicies; do not edit (a test checks it against them)."
            '"""\n\nfrom demos_sim.registry import Declared\n\nDECLARED = (\n'
            + "\n".join(rows) + "\n)\n")


def spec_parts(spec: str) -> tuple[str, list[str], list[str]]:
    """``(name, flags, budgets)`` of a policy spec ``name[:flag][@N]``, as written (the one
    reading of a spec's text; :meth:`PolicyRegistry.get` checks what it means)."""
    base = re.split(r"[:@]", spec, maxsplit=1)[0]
    parts = re.findall(r"([:@])([^:@]*)", spec[len(base):])
    return base, [v for d, v in parts if d == ":"], [v for d, v in parts if d == "@"]


def policy_tuple(policies: list[Policy], maxp: int):
    """Pad to ``maxp`` seats (kernels compile once, for maxp-tuples) and stack parameters."""
    fns = [p.fn for p in policies]
    fns += [fns[0]] * (maxp - len(fns))
    params = np.zeros((maxp, N_PARAMS), np.float64)
    for i, p in enumerate(policies):
        params[i] = p.params
    return tuple(fns), params


def reference_mask(policies: list[Policy]) -> int:
    """Bit ``p`` set when seat ``p``'s policy is a reference (the kernel's truth seats)."""
    mask = 0
    for i, p in enumerate(policies):
        if p.reference:
            mask |= 1 << i
    return mask


def references(policies: list[Policy]) -> list[str]:
    """The specs of the reference policies among ``policies`` (each once, in order)."""
    out: list[str] = []
    for p in policies:
        if p.reference and p.name not in out:
            out.append(p.name)
    return out


def refuse_references(policies: list[Policy], where: str, opt_in: str) -> None:
    """One-line ConfigError when a reference policy is among ``policies``: ``where``
    (an analysis, an experiment) takes players, not bounds, unless ``opt_in`` is given."""
    refs = references(policies)
    if refs:
        raise ConfigError(f"{', '.join(refs)} is a reference policy (it sees every hidden "
                          f"card, exempt from M2), refused by {where} unless asked for "
                          f"({opt_in})")


def reference_note(policies: list[Policy]) -> str:
    """A line saying which policies are references ('' when none)."""
    refs = references(policies)
    if not refs:
        return ""
    return (f"note: {', '.join(refs)} is a reference policy: it sees every hidden card "
            "(exempt from M2), a bound on skill, not a player")


def load_plugin(spec: str) -> None:
    """Import a module (dotted name, or a path to a ``.py`` file) that registers policies."""
    if spec in _plugins:
        return
    try:
        if spec.endswith(".py"):
            path = Path(spec).resolve()
            if not path.exists():
                raise ConfigError(f"policy plugin file {spec!r} does not exist")
            mod_spec = importlib.util.spec_from_file_location(f"demos_sim_plugin_{path.stem}", path)
            module = importlib.util.module_from_spec(mod_spec)
            sys.modules[mod_spec.name] = module   # numba's cache finds functions by module
            mod_spec.loader.exec_module(module)
        else:
            importlib.import_module(spec)
    except ConfigError:
        raise
    except Exception as e:  # noqa: BLE001  (any failure of user code is one line)
        raise ConfigError(f"policy plugin {spec!r} failed to load: {type(e).__name__}: {e}") from e
    _plugins.append(spec)


def loaded_plugins() -> list[str]:
    return list(_plugins)
