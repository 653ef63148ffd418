"""Policy registries: name -> numba function + parameter vector, one registry per game.

A policy is any ``@numba.njit`` function with the signature :data:`POLICY_SIG`::

    decide(cfg, obs, opts, n_opts, params, rng) -> index into opts[:n_opts]

``cfg`` is the game's public configuration vector, ``obs`` the deciding seat's
observation (RULES.md M2), ``opts[:n_opts]`` the legal options of the decision, ``params``
the policy's own float64 parameters (:data:`N_PARAMS` of them) and ``rng`` its one-word
random stream (use :func:`demos_sim.rng.below`). Engines call it through a function
pointer, so registering a policy never touches engine code. Restricted forms
``name:flag`` set one parameter to 1 (``flags={"noveto": index_in_params}``).

Under ``NUMBA_DISABLE_JIT=1`` ``njit`` hands back the plain Python function; the
registry then takes it as it is, so a plugin can be stepped through in a debugger.
"""

from __future__ import annotations

import importlib
import importlib.util
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

_plugins: list[str] = []


@dataclass(frozen=True)
class Policy:
    name: str
    fn: object
    params: np.ndarray
    description: str = ""
    flags: dict = field(default_factory=dict)


class PolicyRegistry:
    """The policies of one game; ``builtins`` is the module that registers the built-in ones."""

    def __init__(self, game: str, builtins: str):
        self.game = game
        self._builtins = builtins
        self._policies: dict[str, Policy] = {}
        self._loaded = False

    def register(self, name: str, params=(), description: str = "", flags: dict | None = None):
        """Decorator registering a policy function under ``name``."""
        if not name or ":" in name or "," in name:
            raise ValueError(f"bad policy name {name!r}")

        def deco(fn):
            if not hasattr(fn, "nopython_signatures") and not (numba_config.DISABLE_JIT
                                                               and callable(fn)):
                raise TypeError("a policy must be a numba.njit function with POLICY_SIG")
            p = np.zeros(N_PARAMS, np.float64)
            p[: len(params)] = params
            self._policies[name] = Policy(name, fn, p, description, dict(flags or {}))
            return fn

        return deco

    def _load_builtins(self):
        if not self._loaded:
            self._loaded = True
            importlib.import_module(self._builtins)

    def available(self) -> list[str]:
        self._load_builtins()
        return sorted(self._policies)

    def get(self, spec: str) -> Policy:
        """Look up ``"name"`` or ``"name:flag"``; unknown names raise ConfigError."""
        self._load_builtins()
        base, _, flag = spec.partition(":")
        if base not in self._policies:
            raise ConfigError(f"unknown {self.game} policy {base!r} "
                              f"(available: {', '.join(sorted(self._policies))})")
        pol = self._policies[base]
        if not flag:
            return pol
        if flag not in pol.flags:
            known = ", ".join(pol.flags) or "none"
            raise ConfigError(f"policy {base!r} has no restricted form {flag!r} (known: {known})")
        params = pol.params.copy()
        params[pol.flags[flag]] = 1.0
        return Policy(spec, pol.fn, params, pol.description, pol.flags)

    def resolve(self, specs: list[str], players: int) -> list[Policy]:
        """One policy per seat: a single name applies to every seat."""
        specs = [s.strip() for s in specs if s.strip()]
        if len(specs) == 1:
            specs = specs * players
        if len(specs) != players:
            raise ConfigError(f"--policies names {len(specs)} policies for {players} players "
                              "(give one for every seat, or a single one for all)")
        return [self.get(s) for s in specs]


def policy_tuple(policies: list[Policy], maxp: int):
    """Pad to ``maxp`` seats (kernels compile once, for maxp-tuples) and stack parameters."""
    fns = [p.fn for p in policies]
    fns += [fns[0]] * (maxp - len(fns))
    params = np.zeros((maxp, N_PARAMS), np.float64)
    for i, p in enumerate(policies):
        params[i] = p.params
    return tuple(fns), params


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
