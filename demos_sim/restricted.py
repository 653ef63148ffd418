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

Each game's rules module declares, in ``RESTRICTED`` (beside ``SCOPE``), per flag, what
the flag bars and the settings or variants (name and value) under which that decision
exists, each with the rule and the
reason when it does not. A flag with no requirement is meaningful under every
configuration; a flag a game does not declare (a plugin's own) is not checked. Plugin
policies that reuse a built-in flag name (``mybot:noveto``) are held to the same rule: the
flag names are the game's vocabulary (docs/writing-a-bot.md).

:func:`lineup` is the one place where the policy specs and the configuration meet: it
loads the plugins (:meth:`demos_sim.game.Game.load_plugins`, the one place a process loads them; the runner's
workers load a run's plugins when they start), reads the specs once through the game's
registry — which alone expands "one spec for every seat" and checks names, flags,
budgets and the count (:meth:`demos_sim.registry.PolicyRegistry.resolve`) — and refuses
an idle restricted form. What it returns, a :class:`Lineup` (a spec and a policy by
seat), is what is passed down: an experiment's points hold it
(:func:`demos_sim.runner.experiment.experiment_of`), ``simulate`` takes it. Every command
goes through it: ``simulate``, ``compare`` (both sides), ``sweep``, ``solve``,
``record``, ``run`` and ``analyse`` (each grid point, at load, before any folder is
made), ``tournament``, ``skill`` and the explorer (its what-ifs and sample games;
:func:`check_specs` is :func:`lineup`'s specs).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fnmatch import fnmatchcase

from demos_sim import ConfigError
from demos_sim.registry import reference_note, references, refuse_references, spec_parts


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


@dataclass(frozen=True)
class Lineup:
    """The policies of a game's seats, read once by :func:`lineup`: ``specs[i]`` is seat
    ``i``'s spec as written (``name[:flag][@N]``), ``policies[i]`` its resolved
    :class:`~demos_sim.registry.Policy`."""

    specs: tuple[str, ...]
    policies: tuple

    def references(self) -> list[str]:
        """The reference policies among the seats' (each once): they see every hidden card."""
        return references(list(self.policies))

    def refuse_references(self, where: str, opt_in: str) -> None:
        """One-line refusal of a reference policy (:func:`demos_sim.registry.refuse_references`)."""
        refuse_references(list(self.policies), where, opt_in)

    def note(self) -> str:
        """A line naming the reference policies ('' when none)."""
        return reference_note(list(self.policies))


def lineup(game, specs, config, plugins=()) -> Lineup:
    """The :class:`Lineup` of ``specs`` — a list, or one comma-separated string; one spec
    by seat, or one for every seat — for ``config``'s seats, ``plugins`` loaded first.
    One-line :class:`~demos_sim.ConfigError` on an unknown policy, a bad flag or budget, a
    wrong count, an idle restricted form (module docstring)."""
    game.load_plugins(plugins)
    if isinstance(specs, str):
        specs = specs.split(",")
    policies = game.policies.resolve(list(specs), game.players_of(config))
    check_restricted(game, config, specs)
    return Lineup(tuple(p.name for p in policies), tuple(policies))


def check_specs(game, specs, config, plugins=()) -> list[str]:
    """The specs by seat of :func:`lineup` (the same checks), as a list."""
    return list(lineup(game, specs, config, plugins).specs)
