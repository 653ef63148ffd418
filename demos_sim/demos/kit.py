"""The bot-writing kit: DĒMOS decisions and options in the words of the rules.

A policy answers one *decision* at a time with the index of one of its legal options
(:data:`demos_sim.registry.POLICY_SIG`). The options are small integers whose encoding
depends on the decision kind; the functions here decode them so a bot reads like the
rules instead of like the encoding. All of them are ``numba.njit`` functions (call them
from a policy) that also run as plain Python under ``NUMBA_DISABLE_JIT=1``.

Decision kinds (``decision_kind(obs)``), the rule that asks, and their options:

=============  ==========  =====================================================
kind           rule        an option ``o`` is
=============  ==========  =====================================================
``PUBLIC``     D3.2        the card discarded (then the top of the deck is drawn)
``SECRET``     D3.3        discard + take (``discard_of``, ``take_of``), or a pass
``VETO``       D3.4.1      ``VETO_NO`` (0) or ``VETO_YES`` (1)
``UNANIMOUS``  D3.4.3      discard (face down, out) + take; never a pass
``ALLOCATE``   D9.4        the seat that receives the team's figure
``MEDIA``      D6.2        a target (``media_target``, ``target_slot``), or a pass
                           (decline) when ``media_optional``
``COLOUR``     D6.2        the suit the Media gives the targeted figure (0–3)
``FAVOURITE``  X1          the favourite suit (0–3)
``ANNOUNCE``   X2          a colouring: suits for E, L and J (``announced_suits``)
=============  ==========  =====================================================

Cards are ids ``suit * 10 + value - 1`` (suits S H D C = 0–3), a set of cards is a
40-bit mask; figures are ids ``type * 4 + colour`` (E L J = 0–2), the Media 12 and 13.
:func:`describe_option` prints any option (``"discard 7S, take 9C"``).

:func:`compose` builds one policy from a function per decision kind (the rest at
random); :func:`demos_sim.demos.policies.register` calls it when given decision keywords.
"""

from __future__ import annotations

import numpy as np
from numba import config as numba_config
from numba.core.dispatcher import Dispatcher

from demos_sim.bits import popcount
from demos_sim.cards import FIG_TYPES, card_code, figure_code
from demos_sim.demos import layout as L
from demos_sim.demos.scoring import best_combo, scoring_rules
from demos_sim.jit import kernel
from demos_sim.registry import POLICY_SIG
from demos_sim.rng import below

# ------------------------------------------------------------------ names
FAVOURITE = L.K_FAV
PUBLIC = L.K_PUBLIC
SECRET = L.K_SECRET
VETO = L.K_VETO
UNANIMOUS = L.K_UNAN
ALLOCATE = L.K_ALLOC
MEDIA = L.K_MEDIA
COLOUR = L.K_COLOUR
ANNOUNCE = L.K_ANNOUNCE

#: decision kind -> its name (the keyword of ``register`` and ``position``)
KIND_NAMES = {FAVOURITE: "favourite", PUBLIC: "public", SECRET: "secret", VETO: "veto",
              UNANIMOUS: "unanimous", ALLOCATE: "allocate", MEDIA: "media",
              COLOUR: "colour", ANNOUNCE: "announce"}
#: decision kind -> what it is, with its rule ID
KIND_RULES = {FAVOURITE: "favourite suit (X1)", PUBLIC: "public discard (D3.2)",
              SECRET: "secret discard (D3.3)", VETO: "veto (D3.4.1)",
              UNANIMOUS: "unanimous discard (D3.4.3)",
              ALLOCATE: "team figure allocation (D9.4)", MEDIA: "Media target (D6.2)",
              COLOUR: "Media colour (D6.2)", ANNOUNCE: "announced colouring (X2)"}

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUIT_SYMBOLS = "♠♥♦♣"
FIG_E, FIG_L, FIG_J = 0, 1, 2      # figure types; a figure id is type * 4 + colour

PASS = -1                # a secret-turn pass (D3.3) or a declined Media (D6.2)
DECK = L.DECK_TOP        # the "take" part of an option that draws the deck's top card
VETO_NO, VETO_YES = 0, 1


def kind_code(kind) -> int:
    """A decision kind from its name (``"secret"``) or its code; ValueError otherwise."""
    if isinstance(kind, str):
        for k, name in KIND_NAMES.items():
            if name == kind:
                return k
        raise ValueError(f"unknown decision kind {kind!r} "
                         f"(one of {', '.join(KIND_NAMES.values())})")
    if int(kind) not in KIND_NAMES:
        raise ValueError(f"unknown decision kind code {kind!r}")
    return int(kind)


# ------------------------------------------------------------------ the observation
@kernel(inline=True)
def decision_kind(obs):
    """The kind of decision asked (``PUBLIC``, ``SECRET`` …)."""
    return obs[L.O_KIND]


@kernel(inline=True)
def my_seat(obs):
    return obs[L.O_SEAT]


@kernel(inline=True)
def my_hand(obs):
    """The deciding seat's hand (a card mask; 5 cards in every discard turn, D3.5)."""
    return obs[L.O_HAND]


@kernel(inline=True)
def table_cards(obs):
    """The face-up cards that can still be taken (a card mask, D3.3 and D3.4.2)."""
    return obs[L.O_TABLE]


# ------------------------------------------------------------------ discard turns
@kernel(inline=True)
def is_pass(o):
    """A pass: no secret discard (D3.3, full rules), or a declined Media (D6.2)."""
    return o < 0


@kernel(inline=True)
def discard_of(kind, o):
    """The card a discard-turn option discards (-1 for a pass or another kind)."""
    if kind == PUBLIC:
        return o
    if (kind == SECRET or kind == UNANIMOUS) and o >= 0:
        return o // 64
    return -1


@kernel(inline=True)
def takes_deck(kind, o):
    """Does the option draw the top card of the deck (blind)? Always in the public turn."""
    if kind == PUBLIC:
        return True
    return (kind == SECRET or kind == UNANIMOUS) and o >= 0 and o % 64 == DECK


draws_blind = takes_deck


@kernel(inline=True)
def take_of(kind, o):
    """The face-up card the option takes (D3.3, D3.4.3), -1 when it draws or passes."""
    if (kind == SECRET or kind == UNANIMOUS) and o >= 0 and o % 64 != DECK:
        return o % 64
    return -1


@kernel(inline=True)
def hand_after(kind, o, hand):
    """The cards known to be in ``hand`` after the option: without the discard, with the
    taken card (a blind draw adds a card the seat does not know yet: 4 cards)."""
    d = discard_of(kind, o)
    if d < 0:
        return hand
    h = hand & ~(np.int64(1) << d)
    t = take_of(kind, o)
    if t >= 0:
        h |= np.int64(1) << t
    return h


# ------------------------------------------------------------------ other decisions
@kernel(inline=True)
def is_veto(o):
    """The veto option: cancel the unanimous turn (D3.4.1)."""
    return o == VETO_YES


@kernel(inline=True)
def receiver_of(o):
    """The seat that receives the team's figure (D9.4)."""
    return o


@kernel(inline=True)
def allocated_figure(obs):
    """The figure the team is allocating (D9.4; ``ALLOCATE`` decisions only)."""
    return obs[L.O_ARG0]


@kernel(inline=True)
def media_target(o):
    """The seat whose figure the Media targets (D6.2), -1 for a declined Media."""
    return o // 16 if o >= 0 else -1


target_seat = media_target


@kernel(inline=True)
def target_slot(o):
    """Which of the target's figures, counted from 0 in the order they were acquired."""
    return o % 16 if o >= 0 else -1


@kernel(inline=True)
def target_figure(obs, o):
    """The targeted figure as the deciding seat knows it: its id when face up (or a
    teammate's in a team decision), -1 when it is face down and unknown (D6.2)."""
    if o < 0:
        return -1
    return obs[L.O_FIGS + (o // 16) * L.NFIG + o % 16]


@kernel(inline=True)
def option_suit(o):
    """The suit a ``COLOUR`` or ``FAVOURITE`` option names (0–3 = S H D C)."""
    return o


@kernel(inline=True)
def colour_target(obs):
    """``COLOUR`` decisions: the seat whose figure gets the Media's colour (D6.2)."""
    return obs[L.O_ARG0]


@kernel(inline=True)
def colour_figure(obs):
    """``COLOUR`` decisions: the targeted figure if the seat knows it, else -1 (D6.2:
    the holder points without seeing what it is)."""
    return obs[L.O_ARG1]


@kernel(inline=True)
def announced_suits(o):
    """An ``ANNOUNCE`` option (X2) as the suits announced for E, L and J."""
    return (o >> 4) & 3, (o >> 2) & 3, o & 3


@kernel(inline=True)
def announcement(e, l, j):
    """The ``ANNOUNCE`` option announcing suit ``e`` for E, ``l`` for L, ``j`` for J."""
    return e * 16 + l * 4 + j


@kernel(inline=True)
def find_option(opts, n_opts, o):
    """The index of option ``o`` among ``opts[:n_opts]``, -1 when it is not legal."""
    for i in range(n_opts):
        if opts[i] == o:
            return i
    return -1


@kernel(inline=True)
def find_turn_option(obs, opts, n_opts, o):
    """:func:`find_option` for a discard turn's option ``o`` (D3.2–D3.4), without the
    search: its index is first computed where the engine lists it — a pass first (D3.3),
    then the hand's cards in order, each with the deck and then the face-up cards in
    order — and checked; looked for only when it is not there. -1 when it is not legal."""
    kind = obs[L.O_KIND]
    hand = obs[L.O_HAND]
    if kind == PUBLIC:
        i = popcount(hand & ((np.int64(1) << o) - 1)) if o >= 0 else 0
    elif o < 0:
        i = 0
    else:
        table = obs[L.O_TABLE]
        t = o % 64
        i = (popcount(hand & ((np.int64(1) << (o // 64)) - 1)) * (1 + popcount(table))
             + (0 if t == DECK else 1 + popcount(table & ((np.int64(1) << t) - 1))))
        if n_opts > 0 and opts[0] < 0:
            i += 1
    if i < n_opts and opts[i] == o:
        return i
    return find_option(opts, n_opts, o)


@kernel(inline=True)
def random_index(rng, n_opts):
    """A uniform index in ``[0, n_opts)`` from the policy's own stream (M2: a policy's
    chance must come from ``rng``, never from ``np.random``)."""
    return below(rng, 0, n_opts)


# ------------------------------------------------------------------ cards and figures
@kernel(inline=True)
def card_value(c):
    """Face value 1–10 of card id ``c`` (D3.0: aces are 1)."""
    return c % 10 + 1


@kernel(inline=True)
def card_suit(c):
    return c // 10


@kernel(inline=True)
def card_of(value, suit):
    """The card id of ``value`` (1–10) in ``suit`` (0–3)."""
    return suit * 10 + value - 1


@kernel(inline=True)
def has_card(mask, c):
    return (mask >> c) & 1 == 1


@kernel(inline=True)
def figure_type(f):
    """``FIG_E``, ``FIG_L`` or ``FIG_J`` (3 for a Media)."""
    return f // 4


@kernel(inline=True)
def figure_colour(f):
    """The printed colour (suit) of an E/L/J figure; -1 for a Media."""
    return f % 4 if f < L.MEDIA0 else -1


@kernel(inline=True)
def is_media(f):
    return f >= L.MEDIA0


@kernel
def hand_score(cfg, obs, hand):
    """Round score (D4.1–D4.2, X1 with the deciding seat's favourite suit) of the best
    combination in the card mask ``hand``; 0 when it holds none (the player abandons)."""
    kd, sc, cm = best_combo(hand, scoring_rules(cfg), obs[L.O_FAV + obs[L.O_SEAT]])
    return sc


# ------------------------------------------------------------------ printing
def card_name(c: int) -> str:
    return card_code(int(c))


def describe_option(kind, o, obs=None) -> str:
    """A readable form of option ``o`` of a ``kind`` decision (name or code).

    With the deciding seat's observation ``obs``, a Media target that seat can see is
    named too. Examples: ``"discard 7S, take 9C"``, ``"discard 3D, draw blind"``,
    ``"pass"``, ``"veto"``, ``"Media on seat 2's figure #1"``, ``"colour ♥"``.
    """
    k = kind_code(kind)
    o = int(o)
    if k == PUBLIC:
        return f"discard {card_name(o)}, draw blind"
    if k in (SECRET, UNANIMOUS):
        if o < 0:
            return "pass"
        d, t = divmod(o, 64)
        take = "draw blind" if t == DECK else f"take {card_name(t)}"
        return f"discard {card_name(d)}, {take}"
    if k == VETO:
        return "veto" if o == VETO_YES else "no veto"
    if k == ALLOCATE:
        return f"figure to seat {o}"
    if k == MEDIA:
        if o < 0:
            return "decline the Media"
        text = f"Media on seat {o // 16}'s figure #{o % 16}"
        if obs is not None:
            f = int(target_figure(np.asarray(obs), o))
            text += f" ({figure_code(f)})" if f >= 0 else " (face down)"
        return text
    if k == COLOUR:
        return f"colour {SUIT_SYMBOLS[o]}"
    if k == FAVOURITE:
        return f"favourite suit {SUIT_SYMBOLS[o]}"
    e, l, j = (o >> 4) & 3, (o >> 2) & 3, o & 3
    return "announce " + " ".join(f"{FIG_TYPES[t]}{SUIT_SYMBOLS[s]}"
                                  for t, s in enumerate((e, l, j)))


def describe_options(kind, opts, n_opts=None, obs=None) -> list[str]:
    """``describe_option`` of every option, as lines ``"  3  discard 7S, take 9C"``."""
    n = len(opts) if n_opts is None else int(n_opts)
    return [f"{i:>3}  {describe_option(kind, opts[i], obs)}" for i in range(n)]


# ------------------------------------------------------------------ composing a policy
@kernel(POLICY_SIG)
def uniform(cfg, obs, opts, n_opts, params, rng):
    """Uniform among the legal options: the same draw as the built-in ``random``."""
    return below(rng, 0, n_opts)


#: keyword of :func:`compose` / ``register`` -> the decision kinds it answers
KIND_KEYWORDS = {"favourite": (FAVOURITE,), "public": (PUBLIC,), "secret": (SECRET,),
                 "unanimous": (UNANIMOUS,), "discard": (PUBLIC, SECRET, UNANIMOUS),
                 "veto": (VETO,), "allocate": (ALLOCATE,), "media": (MEDIA,),
                 "colour": (COLOUR,), "announce": (ANNOUNCE,)}


def _is_numba_function(fn) -> bool:
    return isinstance(fn, Dispatcher) or (numba_config.DISABLE_JIT and callable(fn))


def decision_functions(others=None, **decisions) -> dict[int, object]:
    """Decision kind -> function: the keywords of :data:`KIND_KEYWORDS` (``discard``
    answers the three discard turns unless ``public``, ``secret`` or ``unanimous`` is
    given too), every other kind ``others`` (default :func:`uniform`)."""
    for kw, fn in decisions.items():
        if kw not in KIND_KEYWORDS:
            raise TypeError(f"unknown decision keyword {kw!r} (known: "
                            f"{', '.join(KIND_KEYWORDS)}, others)")
        if not _is_numba_function(fn):
            raise TypeError(f"{kw}={fn!r} is not a numba function: decorate it with "
                            "@numba.njit (with or without POLICY_SIG)")
    if others is not None and not _is_numba_function(others):
        raise TypeError(f"others={others!r} is not a numba function")
    for kw, fn in [*decisions.items(), ("others", others)]:
        if isinstance(fn, Dispatcher) and not any(
                sig.args == POLICY_SIG.args for sig in fn.nopython_signatures):
            # compiled here, on its own: called first from inside the composition it
            # would inherit its flags (``kernel``: no allocation) and could not allocate arrays
            try:
                fn.compile(POLICY_SIG.args)
            except Exception as e:  # noqa: BLE001  (a typing error of user code)
                raise TypeError(f"{kw}={fn.__name__} does not compile with the policy "
                                f"signature (cfg, obs, opts, n_opts, params, rng): "
                                f"{type(e).__name__}: {e}") from e
    out = {k: (others if others is not None else uniform) for k in KIND_NAMES}
    if "discard" in decisions:
        for k in KIND_KEYWORDS["discard"]:
            out[k] = decisions["discard"]
    for kw, fn in decisions.items():
        if kw != "discard":
            out[KIND_KEYWORDS[kw][0]] = fn
    return out


def compose(others=None, **decisions):
    """One POLICY_SIG policy from one numba function per decision kind.

    Each keyword of :data:`KIND_KEYWORDS` takes a function with the policy signature
    ``f(cfg, obs, opts, n_opts, params, rng) -> index``, called for the decisions of its
    kind; the other kinds go to ``others`` (default: uniform at random, the built-in
    ``random``). The result dispatches on ``obs[O_KIND]`` with direct calls and, like the
    engine's hot kernels, without numba's reference counting (it only forwards its
    arrays): a composed policy plays at about 0.95× the speed of the same policy written
    as one function (benchmarks/bench_composed.py, median of 15 paired runs in CPU time,
    for ``highcards`` and ``greedy``; 0.87–0.92× with reference counting on). It is
    compiled when composed (about a second) and not cached on disk: numba's cache cannot
    tell two compositions apart, so a cached one could run stale code.
    """
    f = decision_functions(others, **decisions)
    fav, pub, sec, veto, unan = f[FAVOURITE], f[PUBLIC], f[SECRET], f[VETO], f[UNANIMOUS]
    alloc, media, colour, ann = f[ALLOCATE], f[MEDIA], f[COLOUR], f[ANNOUNCE]

    def composed(cfg, obs, opts, n_opts, params, rng):
        k = obs[L.O_KIND]
        if k == PUBLIC:
            return pub(cfg, obs, opts, n_opts, params, rng)
        if k == SECRET:
            return sec(cfg, obs, opts, n_opts, params, rng)
        if k == UNANIMOUS:
            return unan(cfg, obs, opts, n_opts, params, rng)
        if k == VETO:
            return veto(cfg, obs, opts, n_opts, params, rng)
        if k == MEDIA:
            return media(cfg, obs, opts, n_opts, params, rng)
        if k == COLOUR:
            return colour(cfg, obs, opts, n_opts, params, rng)
        if k == ALLOCATE:
            return alloc(cfg, obs, opts, n_opts, params, rng)
        if k == FAVOURITE:
            return fav(cfg, obs, opts, n_opts, params, rng)
        return ann(cfg, obs, opts, n_opts, params, rng)

    return kernel(POLICY_SIG, cache=False)(composed)
