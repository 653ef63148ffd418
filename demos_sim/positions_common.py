"""What the three games' positions share: one decision of one seat, set up by hand.

Each game's ``positions.py`` builds its table from notation and returns its own
``Position``, a subclass of :class:`Position` here that names the game's kit (options in
words), its policy registry and, where the game has one, its truth block (the true state
a *reference* policy sees, never a player: RULES.md M2). What this module holds is the
same for every game: the option list in the engine's order, the options in words,
asking a policy (:meth:`Position.decide`) and its answer (:class:`Choice`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from demos_sim.registry import N_PARAMS, Policy


def codes(x) -> list[str]:
    """``"7S 8S"``, ``"7S,8S"`` or ``["7S", "8S"]`` -> ``["7S", "8S"]`` (``None``: none)."""
    if x is None:
        return []
    if isinstance(x, str):
        return x.replace(",", " ").split()
    return [str(c) for c in x]


@dataclass(frozen=True)
class Choice:
    """A policy's answer: the option index, the option (the amount in an amount
    decision), and the option in words."""
    index: int
    option: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass
class Position:
    """One decision of one seat: ``obs`` (OBS_LEN int64), ``opts[:n_opts]`` (the engine's
    option buffer; not filled in an amount decision, whose index is the amount), the
    configuration vector ``cfg`` and the full state ``st`` it was observed from.

    A game's subclass sets ``kit`` (its kit module: ``KIND_NAMES``, ``KIND_RULES``,
    ``describe_option``, ``AMOUNT_KINDS`` where it has amount decisions), ``registry``
    (its policy registry module's name, imported when a policy is named: importing it
    loads the built-ins) and ``truth`` (``(observe, C_TRUTH)`` where the game gives a
    reference policy the truth block; ``None`` otherwise)."""
    config: Any
    kind: int
    seat: int
    cfg: np.ndarray
    st: np.ndarray
    obs: np.ndarray
    opts: np.ndarray
    n_opts: int

    kit: ClassVar[Any] = None
    registry: ClassVar[str] = ""
    truth: ClassVar[tuple | None] = None

    @property
    def kind_name(self) -> str:
        return self.kit.KIND_NAMES[self.kind]

    def options(self) -> list[int]:
        """The options in the engine's order (amount decisions: the amounts 0 … max)."""
        if self.kind in getattr(self.kit, "AMOUNT_KINDS", ()):
            return list(range(self.n_opts))
        return [int(o) for o in self.opts[:self.n_opts]]

    def texts(self) -> list[str]:
        """Every option in words, in the engine's order (the index a policy returns)."""
        return [self.kit.describe_option(self.kind, o, self.obs) for o in self.options()]

    def index_of(self, text: str) -> int:
        """The index of the option written ``text`` (as :meth:`texts` writes it)."""
        texts = self.texts()
        if text not in texts:
            raise ValueError(f"no option {text!r} here; the options are: {texts}")
        return texts.index(text)

    def _reference_cfg(self) -> np.ndarray:
        """The configuration a reference policy in this seat is played with."""
        cfg = self.cfg.copy()
        cfg[self.truth[1]] = 1 << self.seat
        return cfg

    def observation(self, reference: bool = False) -> np.ndarray:
        """The seat's observation; ``reference``: as a reference policy gets it, with the
        truth block filled as in a game (the game's ``C_TRUTH``; a game without a truth
        block gives the observation alone)."""
        if not reference or self.truth is None:
            return self.obs.copy()
        obs = self.obs.copy()
        self.truth[0](self.st, self._reference_cfg(), self.seat, self.kind, obs)
        return obs

    def decide(self, policy, seed: int = 0) -> Choice:
        """Ask ``policy`` — a registered name (``"greedy"``, ``"greedy:noveto"``), a
        :class:`~demos_sim.registry.Policy` or a policy function (parameters all 0) — to
        decide here with random stream ``seed``. A reference policy gets the truth block
        where the game has one, as in a game. As in the engine, a decision with one legal
        option is played without asking. Raises ValueError, in words, when the policy
        answers an index outside the options."""
        fn, params, name, reference = self._policy(policy)
        if self.n_opts == 1:
            return self._choice(0)
        cfg = self._reference_cfg() if reference else self.cfg.copy()
        rng = np.array([seed], np.uint64)
        idx = int(fn(cfg, self.observation(reference), self.opts.copy(),
                     np.int64(self.n_opts), params.copy(), rng))
        if not 0 <= idx < self.n_opts:
            raise ValueError(f"{name} answered option index {idx} to a "
                             f"{self.kit.KIND_RULES[self.kind]} decision with {self.n_opts} "
                             f"options (indices 0–{self.n_opts - 1})\n{self}")
        return self._choice(idx)

    def _choice(self, idx: int) -> Choice:
        o = self.options()[idx]
        return Choice(idx, o, self.kit.describe_option(self.kind, o, self.obs))

    def _policy(self, policy):
        """``(fn, params, name, reference)`` of a name, a Policy or a policy function."""
        if isinstance(policy, str):
            policy = importlib.import_module(self.registry).get(policy)
        if isinstance(policy, Policy):
            return (policy.fn, policy.params, policy.name,
                    bool(policy.reference) and self.truth is not None)
        if callable(policy):
            return (policy, np.zeros(N_PARAMS, np.float64),
                    getattr(policy, "__name__", "policy"), False)
        raise TypeError(f"not a policy: {policy!r}")
