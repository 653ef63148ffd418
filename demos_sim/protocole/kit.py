"""The bot-writing kit for Protocole: its one decision and its options in the words of the rules.

A policy answers each decision with the index of one of its legal options
(:data:`demos_sim.registry.POLICY_SIG`). Protocole asks one kind of decision (P2.1):

==========  ======  =================================================================
kind        rule    an option ``o`` is
==========  ======  =================================================================
``PLAY``    P2.1    a hand card (``card_of(o)``) played face up into the Selection
                    (``to_selection(o)``) or added face down to the own Foyer
                    (``to_foyer(o)``)
==========  ======  =================================================================

The options come in increasing card id, each card first to the Selection and then to
the Foyer (``opts[2i]`` and ``opts[2i + 1]`` are the same card). Cards are ids ``colour
* 6 + symbol`` (colours R B G Y K P = 0–5, symbols M Q T S X O = 0–5, GAME_RECORD.md);
a set of cards is a 36-bit mask. The helpers here are ``numba.njit`` functions (call
them from a policy) that also run as plain Python under ``NUMBA_DISABLE_JIT=1``;
:func:`describe_option` prints an option (``"KT to the Selection"``).
"""

from __future__ import annotations

import numpy as np

from demos_sim.jit import kernel
from demos_sim.protocole import layout as L
from demos_sim.protocole.cards import card_code

PLAY = L.K_PLAY
#: decision kind -> its name (the keyword of ``position``)
KIND_NAMES = {PLAY: "play"}
#: decision kind -> what it is, with its rule ID
KIND_RULES = {PLAY: "turn (P2.1)"}

TO_SELECTION = L.TO_SELECTION     # face up into the Selection (P2.1); a Norm selection at 5
TO_FOYER = L.TO_FOYER             # face down into the own Foyer (P2.1)
COLOUR_NAMES = ("red", "blue", "green", "yellow", "black", "purple")
SYMBOL_NAMES = ("moon", "square", "triangle", "star", "cross", "circle")


def kind_code(kind) -> int:
    """A decision kind from its name (``"play"``) or its code; ValueError otherwise."""
    for k, name in KIND_NAMES.items():
        if kind == name or (not isinstance(kind, str) and int(kind) == k):
            return k
    raise ValueError(f"unknown Protocole decision kind {kind!r} (one of "
                     f"{', '.join(KIND_NAMES.values())})")


# ------------------------------------------------------------------ the observation
@kernel(inline=True)
def decision_kind(obs):
    return obs[L.O_KIND]


@kernel(inline=True)
def my_seat(obs):
    return obs[L.O_SEAT]


@kernel(inline=True)
def my_hand(obs):
    """The deciding seat's hand (a card mask)."""
    return obs[L.O_HAND]


@kernel(inline=True)
def my_foyer(obs):
    """The deciding seat's Foyer (a card mask: P2.1, a player may always look at it)."""
    return obs[L.O_FOYER]


@kernel(inline=True)
def selection(obs):
    """The Selection (face up, P2.1); a Norm selection happens when it reaches 5 (P2.2)."""
    return obs[L.O_SEL]


@kernel(inline=True)
def norm(obs):
    """This round's Norm (P3.1)."""
    return obs[L.O_NORM]


# ------------------------------------------------------------------ options
@kernel(inline=True)
def card_of(o):
    """The hand card an option plays."""
    return o >> 1


@kernel(inline=True)
def to_foyer(o):
    """Does the option put its card face down into the own Foyer (P2.1)?"""
    return o & 1 == TO_FOYER


@kernel(inline=True)
def to_selection(o):
    """Does the option play its card face up into the Selection (P2.1)?"""
    return o & 1 == TO_SELECTION


@kernel(inline=True)
def option_of(card, to):
    """The option playing ``card`` to ``to`` (``TO_SELECTION`` or ``TO_FOYER``)."""
    return card * 2 + to


@kernel
def find_option(opts, n_opts, o):
    """The index of option ``o`` among ``opts[:n_opts]``, -1 when it is not legal."""
    for i in range(n_opts):
        if opts[i] == o:
            return i
    return -1


# ------------------------------------------------------------------ cards
@kernel(inline=True)
def card_colour(c):
    """0–5 = R B G Y K P."""
    return c // 6


@kernel(inline=True)
def card_symbol(c):
    """0–5 = M Q T S X O."""
    return c % 6


@kernel(inline=True)
def colour_cards(colour):
    """The mask of the 6 cards of ``colour``."""
    return np.int64(L.COLOUR0) << (6 * colour)


@kernel(inline=True)
def symbol_cards(symbol):
    """The mask of the 6 cards of ``symbol``."""
    return np.int64(L.SYMBOL0) << symbol


@kernel(inline=True)
def has_card(mask, c):
    return (mask >> c) & 1 == 1


@kernel(inline=True)
def safe_in_norm(c, norm_mask):
    """P4.1: does card ``c`` share its colour or its symbol with a card of ``norm_mask``?"""
    return (norm_mask & (colour_cards(c // 6) | symbol_cards(c % 6))) != 0


# ------------------------------------------------------------------ printing
def card_name(c: int) -> str:
    """``26`` -> ``"KT"``."""
    return card_code(int(c))


def card_words(c: int) -> str:
    """``26`` -> ``"black triangle"``."""
    c = int(c)
    return f"{COLOUR_NAMES[c // 6]} {SYMBOL_NAMES[c % 6]}"


def describe_option(kind, o, obs=None) -> str:
    """A readable form of option ``o`` of a ``kind`` decision (``"play"`` or its code):
    ``"KT to the Selection"`` (face up) or ``"KT to the Foyer"`` (face down). ``obs`` is
    accepted for symmetry with the other games and not needed."""
    kind_code(kind)
    o = int(o)
    if not 0 <= o < 2 * L.NCARD:
        raise ValueError(f"not a Protocole option: {o}")
    where = "the Foyer" if o & 1 == TO_FOYER else "the Selection"
    return f"{card_code(o >> 1)} to {where}"


def describe_options(kind, opts, n_opts=None, obs=None) -> list[str]:
    """``describe_option`` of every option, as lines ``"  3  KT to the Foyer"``."""
    n = len(opts) if n_opts is None else int(n_opts)
    return [f"{i:>3}  {describe_option(kind, opts[i], obs)}" for i in range(n)]

