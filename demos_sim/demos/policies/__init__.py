"""DĒMOS policies: a registry of name -> numba function + parameter vector.

A policy is any ``@numba.njit`` function with the signature :data:`POLICY_SIG`::

    decide(cfg, obs, opts, n_opts, params, rng) -> index into opts[:n_opts]

``cfg`` is the public configuration vector, ``obs`` the deciding seat's observation
(RULES.md M2; offsets in :mod:`demos_sim.demos.layout`), ``opts[:n_opts]`` the legal
options of the decision ``obs[O_KIND]`` (encodings in :mod:`demos_sim.demos.layout`),
``params`` the policy's own float64 parameters and ``rng`` its one-word random stream
(use :func:`demos_sim.rng.below`). The engine calls it through a function pointer, so
registering a new policy never touches engine code::

    from demos_sim.demos.policies import register, POLICY_SIG
    @register("lowest", description="always the first legal option")
    @numba.njit(POLICY_SIG, cache=True)
    def lowest(cfg, obs, opts, n_opts, params, rng):
        return 0

Restricted forms (``name:flag``) are looked up by :func:`get` when the base policy
declares the flags it understands (``flags={"noveto": index_in_params}``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import types

from demos_sim import ConfigError

POLICY_SIG = types.int64(types.int64[:], types.int64[:], types.int64[:], types.int64,
                         types.float64[:], types.uint64[:])
N_PARAMS = 16


@dataclass(frozen=True)
class Policy:
    name: str
    fn: object
    params: np.ndarray
    description: str = ""
    flags: dict = field(default_factory=dict)


_REGISTRY: dict[str, Policy] = {}


def register(name: str, params=(), description: str = "", flags: dict | None = None):
    """Decorator registering a policy function under ``name`` (see module docstring)."""
    if not name or ":" in name or "," in name:
        raise ValueError(f"bad policy name {name!r}")

    def deco(fn):
        if not hasattr(fn, "address") and not hasattr(fn, "nopython_signatures"):
            raise TypeError("a policy must be a numba.njit function with POLICY_SIG")
        p = np.zeros(N_PARAMS, np.float64)
        p[: len(params)] = params
        _REGISTRY[name] = Policy(name, fn, p, description, dict(flags or {}))
        return fn

    return deco


def available() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def get(spec: str) -> Policy:
    """Look up ``"name"`` or ``"name:flag"``; unknown names raise ConfigError."""
    _load_builtins()
    base, _, flag = spec.partition(":")
    if base not in _REGISTRY:
        raise ConfigError(f"unknown policy {base!r} (available: {', '.join(sorted(_REGISTRY))})")
    pol = _REGISTRY[base]
    if not flag:
        return pol
    if flag not in pol.flags:
        known = ", ".join(pol.flags) or "none"
        raise ConfigError(f"policy {base!r} has no restricted form {flag!r} (known: {known})")
    params = pol.params.copy()
    params[pol.flags[flag]] = 1.0
    return Policy(spec, pol.fn, params, pol.description, pol.flags)


def resolve(specs: list[str], players: int) -> list[Policy]:
    """One policy per seat: a single name applies to every seat."""
    specs = [s.strip() for s in specs if s.strip()]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ConfigError(f"--policies names {len(specs)} policies for {players} players "
                          "(give one for every seat, or a single one for all)")
    return [get(s) for s in specs]


_loaded = False
_plugins: list[str] = []


def load_plugin(spec: str) -> None:
    """Import a module (dotted name, or a path to a ``.py`` file) that registers policies."""
    import importlib
    import importlib.util
    import sys
    from pathlib import Path

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


def _load_builtins():
    global _loaded
    if not _loaded:
        _loaded = True
        from demos_sim.demos.policies import basic  # noqa: F401  (registers on import)
