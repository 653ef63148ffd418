"""Restricted forms that the rules make idle are refused, with the rule that would enable them.

A restricted form ``name:flag`` (:mod:`demos_sim.registry`) bars one kind of decision —
``greedy:nomedia`` declines every *optional* Media, ``greedy:noveto`` never vetoes. Under
rules where that decision never arises (the Media is compulsory, D6.2; there is no veto,
D8) the record, the tables and the labels say ``name:flag`` for a restriction that never
applies (under the default rules ``greedy:nomedia`` played 300 of 300 four-player games
exactly as ``greedy``). So it is refused, with one line naming the rule and the setting or
variant that enables it::

    greedy:nomedia cannot decline the Media: it is compulsory under D6.2 unless
    media_optional = true

Each game's rules module declares, in ``RESTRICTED`` (beside ``SCOPE``), per flag, what the flag bars and the settings or
variants (name and value) under which that decision exists, each with the rule and the
reason when it does not. A flag with no requirement is meaningful under every
configuration; a flag a game does not declare (a plugin's own) is not checked. Plugin
policies that reuse a built-in flag name (``mybot:noveto``) are held to the same rule: the
flag names are the game's vocabulary (docs/writing-a-bot.md).

:func:`check_specs` is the one check where the policy specs and the configuration meet:
it validates the specs through the game (:meth:`demos_sim.game.Game.check_policies`,
plugins loaded) and then refuses an idle restricted form. Every command goes through it:
``simulate``, ``compare`` (both sides), ``record``, ``run`` and ``analyse`` (each grid
point, at load, before any folder is made), ``tournament``, ``skill`` and the explorer
(its what-ifs and sample games).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fnmatch import fnmatchcase

from demos_sim import ConfigError
from demos_sim.registry import spec_parts


@dataclass(frozen=True)
class Needs:
    """A setting or variant ``name`` that must equal ``value`` for the flag's decision to
    arise; ``otherwise`` says why it does not (with the rule ID) when it differs."""

    name: str
    value: object
    otherwise: str


@dataclass(frozen=True)
class Form:
    """What a flag bars (``what``: "cannot <what>") and what the rules need for it."""

    what: str
    needs: tuple[Needs, ...] = ()


def _fmt(value) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _value(game, config, name: str):
    """The value of setting or variant ``name`` in ``config`` (as the game describes it)."""
    described = game.describe(config)
    if name in described:
        return described[name]
    return described.get("variants", {}).get(name)


def form_of(game, flag: str) -> Form | None:
    """The declaration of ``flag`` in ``game`` (None: not declared, not checked)."""
    for pattern, form in getattr(game.rules, "RESTRICTED", {}).items():
        if fnmatchcase(flag, pattern):
            return form
    return None


def flag_of(spec: str) -> str:
    """The ``:flag`` of a policy spec ``name[:flag][@N]`` ('' when none)."""
    flags = spec_parts(spec)[1]
    return flags[0] if flags else ""


def idle_reason(game, config, spec: str) -> str | None:
    """None when ``spec``'s restricted form can change a decision of a game of
    ``config``; else the one-line refusal (module docstring)."""
    spec = spec.strip()
    flag = flag_of(spec)
    form = form_of(game, flag) if flag else None
    if form is None:
        return None
    unmet = [n for n in form.needs if _value(game, config, n.name) != n.value]
    if not unmet:
        return None
    enable = " and ".join(f"{n.name} = {_fmt(n.value)}" for n in unmet)
    return f"{spec} cannot {form.what}: {unmet[0].otherwise} unless {enable}"


def check_restricted(game, config, specs) -> None:
    """Refuse (one-line :class:`~demos_sim.ConfigError`) the first idle restricted form
    among ``specs`` under ``config``."""
    for spec in specs:
        why = idle_reason(game, config, spec)
        if why:
            raise ConfigError(why)


def check_specs(game, specs, config, plugins=()) -> list[str]:
    """Load ``plugins``, resolve ``specs`` for ``config``'s players (one-line errors on an
    unknown policy, a bad budget, a wrong count) and refuse an idle restricted form;
    returns the resolved names by seat (:meth:`demos_sim.game.Game.check_policies`)."""
    names = game.check_policies(list(specs), game.players_of(config), list(plugins))
    check_restricted(game, config, specs)
    return names
