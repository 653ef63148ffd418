"""Personas as data: TOML tables -> parameter vectors of the generic ``persona`` kernel.

Each table of a personas file is one policy::

    [cautious_civic]
    description = "civic, bids less"
    base = "civic"            # optional: start from another persona's values
    bid_per_point = 0.6

Keys (all optional; defaults are ``civic``'s unless ``base`` says otherwise) — see
``personas.toml`` for their meaning. Unknown keys or bad values are a one-line error.
Every persona also has the restricted forms ``NAME:no_<character>`` (e.g.
``civic:no_thief``): the persona with ``never_bid = ["thief"]``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from demos_sim import ConfigError

PLEDGE_MODES = {"never": 0, "fair": 1, "conditional": 2}
VOTE_MODES = {"weakest": 0, "generous": 1, "leader": 2}

# key -> (index in params, kind); kinds: float, bool, or a dict of named values
PARAMS = {
    "bid_per_point": (0, "float"),
    "bid_noise": (1, "float"),
    "reserve": (2, "float"),
    "attack": (3, "float"),
    "pledge": (4, PLEDGE_MODES),
    "pledge_mult": (5, "float"),
    "conditional_threshold": (6, "float"),
    "spend": (7, "bool"),
    "target_leader": (8, "bool"),
    "propose": (9, "bool"),
    "propose_margin": (10, "float"),
    "support_margin": (11, "float"),
    "ost_pledge": (12, "float"),
    "assassinate": (13, "float"),
    "vote": (14, VOTE_MODES),
    "buy": (15, "bool"),
    "never_bid": (16, "characters"),   # list of character names: 1.0 at 16 + id
    "peek": (31, "bool"),
}

def _never_bid_flags() -> dict[str, int]:
    from demos_sim.assemblee.layout import CHARACTERS

    return {f"no_{c}": 16 + i for i, c in enumerate(CHARACTERS)}


# restricted forms NAME:no_<character> of every persona (never_bid of that one character)
NEVER_BID_FLAGS = _never_bid_flags()
BUILTIN_FILE = Path(__file__).resolve().parent.parent / "personas.toml"
ADAPTIVE_FILE = BUILTIN_FILE.with_name("adaptive.toml")   # demos-sim tune-bot --game assemblee


def _value(name: str, key: str, raw):
    idx, kind = PARAMS[key]
    if kind == "characters":
        from demos_sim.assemblee.layout import CHARACTERS

        if not isinstance(raw, list) or not all(c in CHARACTERS for c in raw):
            raise ConfigError(f"persona {name!r}: never_bid must be a list of character names "
                              f"({', '.join(CHARACTERS)}), got {raw!r}")
        return raw
    if kind == "bool":
        if not isinstance(raw, bool):
            raise ConfigError(f"persona {name!r}: {key} must be true or false, got {raw!r}")
        return float(raw)
    if kind == "float":
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw < 0:
            raise ConfigError(f"persona {name!r}: {key} must be a number >= 0, got {raw!r}")
        return float(raw)
    if raw not in kind:
        raise ConfigError(f"persona {name!r}: {key} must be one of {', '.join(kind)}, "
                          f"got {raw!r}")
    return float(kind[raw])


def parse_personas(text: str, source: str, known: dict[str, np.ndarray]) -> dict:
    """``{name: (params, description)}`` from a TOML text; ``known`` supplies ``base``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"personas file {source!r} is not valid TOML: {e}") from e
    out: dict[str, tuple[np.ndarray, str]] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"personas file {source!r}: {name!r} must be a table")
        if not name or ":" in name or "," in name:
            raise ConfigError(f"personas file {source!r}: bad persona name {name!r}")
        base = table.get("base", "civic" if name != "civic" else None)
        if base is None:
            from demos_sim.registry import N_PARAMS

            params = np.zeros(N_PARAMS, np.float64)
        else:
            pool = {**known, **{k: v[0] for k, v in out.items()}}
            if base not in pool:
                raise ConfigError(f"persona {name!r}: unknown base persona {base!r}")
            params = pool[base].copy()
        for key, raw in table.items():
            if key in ("base", "description"):
                continue
            if key not in PARAMS:
                raise ConfigError(f"persona {name!r}: unknown key {key!r} "
                                  f"(known: {', '.join(PARAMS)})")
            val = _value(name, key, raw)
            if key == "never_bid":
                from demos_sim.assemblee.layout import CHARACTERS

                params[16:16 + len(CHARACTERS)] = 0.0
                for c in val:
                    params[16 + CHARACTERS.index(c)] = 1.0
            else:
                params[PARAMS[key][0]] = val
        out[name] = (params, str(table.get("description", f"persona from {source}")))
    return out


def register_personas(personas: dict, allow_replace: bool) -> None:
    from demos_sim.assemblee.policies import REGISTRY
    from demos_sim.assemblee.policies.basic import persona

    for name, (params, desc) in personas.items():
        if not allow_replace and name in REGISTRY._policies:
            raise ConfigError(f"persona {name!r} is already registered (built-in policies "
                              "cannot be redefined; choose another name)")
        REGISTRY.register(name, params=params, description=desc, flags=NEVER_BID_FLAGS)(persona)


def builtin_params() -> dict[str, np.ndarray]:
    from demos_sim.assemblee.policies import REGISTRY

    return {k: p.params for k, p in REGISTRY._policies.items()}


def load_personas(path: str) -> list[str]:
    """Register the personas of a designer's TOML file; returns their names."""
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"personas file {path!r} does not exist")
    personas = parse_personas(p.read_text(encoding="utf-8"), path, builtin_params())
    register_personas(personas, allow_replace=False)
    return list(personas)
