"""The bot-writing kit for L'Assemblée: decisions and options in the words of the rules.

A policy answers each decision with the index of one of its legal options
(:data:`demos_sim.registry.POLICY_SIG`). L'Assemblée asks thirteen kinds of decision
(``decision_kind(obs)``). For the *amount* decisions the index **is** the amount (0 …
``max_amount(obs)``) and ``opts`` is not filled; the others list their options in
``opts[:n_opts]``:

==============  ========  ===========================================================
kind            rule      an option ``o`` is
==============  ========  ===========================================================
``BID``         A4        amount: the sealed bid on ``character(obs)`` (all-pay)
``NIMOS``       A11       0 keep the bid just revealed, -1 lower it by 1, +1 raise it
``TIE``         A4 A9     the tied seat the MC chooses (``tie_about(obs)``: 0 an
                A10       auction, 1 the honours, 2 the winner under ``final_tie``)
``STOP``        A5.1      1 spend ``character(obs)`` to stop the good event, 0 not
``SPEND``       A5.2      1 spend ``character(obs)`` to resolve ``event(obs)``, 0 not
``PLEDGE``      A5.2      amount: gold pledged for ``event(obs)`` (cost ``cost(obs)``)
``TARGET``      A7        the seat ``character(obs)`` acts on; -1 the Assassin declines
``BUY``         A7        gold paid (0, 3, 4 or 6) for the Builder's or Crier's renown
``PROPOSE``     A8        the seat proposed for exile; -1 no proposal
``SUPPORT``     A8        1 support the exile of ``target(obs)``, 0 not
``OST_PLEDGE``  A8        amount: gold pledged for the exile (paid whatever the outcome)
``VOTE``        A9        the seat voted for
``NAME_MC``     A8        the seat an exiled MC names as the new MC
==============  ========  ===========================================================

Characters, events and personalities are ids in the orders of GAME_RECORD.md
(``CHARACTERS``, ``EVENTS``, ``PERSONALITIES``). The helpers are ``numba.njit``
functions (call them from a policy) that also run as plain Python under
``NUMBA_DISABLE_JIT=1``; :func:`describe_option` prints an option (``"bid 5 gold on the
thief"``).
"""

from __future__ import annotations

import numpy as np

from demos_sim.assemblee import layout as L
from demos_sim.jit import kernel

BID, NIMOS, TIE, STOP, SPEND, PLEDGE = L.K_BID, L.K_NIMOS, L.K_TIE, L.K_STOP, L.K_SPEND, L.K_PLEDGE
TARGET, BUY, PROPOSE, SUPPORT = L.K_TARGET, L.K_BUY, L.K_PROPOSE, L.K_SUPPORT
OST_PLEDGE, VOTE, NAME_MC = L.K_OST_PLEDGE, L.K_VOTE, L.K_NAME_MC
AMOUNT_KINDS = L.AMOUNT_KINDS

#: decision kind -> its name (the keyword of ``position``)
KIND_NAMES = {BID: "bid", NIMOS: "nimos", TIE: "tie", STOP: "stop", SPEND: "spend",
              PLEDGE: "pledge", TARGET: "target", BUY: "buy", PROPOSE: "propose",
              SUPPORT: "support", OST_PLEDGE: "ost_pledge", VOTE: "vote", NAME_MC: "name_mc"}
#: decision kind -> what it is, with its rule ID
KIND_RULES = {BID: "sealed bid (A4)", NIMOS: "Nimos's adjustment (A11)",
              TIE: "MC's tie choice (A4, A9, A10)", STOP: "stopping a good event (A5.1)",
              SPEND: "spending a character on an event (A5.2)",
              PLEDGE: "pledge for an event (A5.2)", TARGET: "character's target (A7)",
              BUY: "renown purchase (A7)", PROPOSE: "ostracism proposal (A8)",
              SUPPORT: "ostracism support (A8)", OST_PLEDGE: "ostracism pledge (A8)",
              VOTE: "honours vote (A9)", NAME_MC: "new MC named by the exiled MC (A8)"}

CHARACTERS, EVENTS, PERSONALITIES = L.CHARACTERS, L.EVENTS, L.PERSONALITIES
NO = 0          # STOP, SPEND, SUPPORT
YES = 1
DECLINE = -1    # TARGET (the Assassin only, A12), PROPOSE (no proposal)
TIE_AUCTION, TIE_HONOURS, TIE_FINAL = 0, 1, 2
#: A7: what the Builder and the Town Crier give for 3, 4 or 6 gold (renown)
PURCHASES = {L.CH_BUILDER: {3: 2, 4: 5, 6: 8}, L.CH_CRIER: {3: 1, 4: 2, 6: 3}}


def kind_code(kind) -> int:
    """A decision kind from its name (``"pledge"``) or its code; ValueError otherwise."""
    for k, name in KIND_NAMES.items():
        if kind == name or (not isinstance(kind, str) and int(kind) == k):
            return k
    raise ValueError(f"unknown L'Assemblée decision kind {kind!r} (one of "
                     f"{', '.join(KIND_NAMES.values())})")


def _named(name, names, what) -> int:
    if isinstance(name, (int, np.integer)) and 0 <= int(name) < len(names):
        return int(name)
    if name in names:
        return names.index(name)
    raise ValueError(f"not {what}: {name!r} (one of {', '.join(names)})")


def character_id(name) -> int:
    """``"thief"`` -> 2 (GAME_RECORD.md names)."""
    return _named(name, CHARACTERS, "a character")


def event_id(name) -> int:
    """``"flood"`` -> 2."""
    return _named(name, EVENTS, "an event")


def personality_id(name) -> int:
    return _named(name, PERSONALITIES, "a personality")


# ------------------------------------------------------------------ the observation
@kernel(inline=True)
def decision_kind(obs):
    return obs[L.O_KIND]


@kernel(inline=True)
def my_seat(obs):
    return obs[L.O_SEAT]


@kernel(inline=True)
def gold_of(obs, p):
    """Seat ``p``'s gold (A0: public)."""
    return obs[L.O_GOLD + p]


@kernel(inline=True)
def renown_of(obs, p):
    return obs[L.O_REN + p]


@kernel(inline=True)
def score_of(obs, p):
    """A10: renown + gold // 3."""
    return obs[L.O_REN + p] + obs[L.O_GOLD + p] // 3


@kernel(inline=True)
def in_game(obs, p):
    """Is seat ``p`` still in the game (not exiled, not assassinated)?"""
    return (obs[L.O_IN] >> p) & 1 == 1


@kernel(inline=True)
def players_in(obs):
    return obs[L.O_NIN]


@kernel(inline=True)
def max_amount(obs):
    """Amount decisions (``BID``, ``PLEDGE``, ``OST_PLEDGE``): the largest amount allowed
    (the seat's gold); the option index is the amount."""
    return obs[L.O_MAX]


@kernel(inline=True)
def character(obs):
    """The character the decision is about (bid, Nimos, tie, stop, spend, target, buy), -1."""
    return obs[L.O_CHAR]


@kernel(inline=True)
def event(obs):
    """The event the decision is about (stop, spend, pledge), -1."""
    return obs[L.O_EVENT]


@kernel(inline=True)
def cost(obs):
    """Its cost (spend, pledge: A5.2 ``base + X + 3p``)."""
    return obs[L.O_COST]


@kernel(inline=True)
def target(obs):
    """The seat proposed for exile (support, ostracism pledge, naming the MC), -1."""
    return obs[L.O_TARGET]


@kernel(inline=True)
def tie_about(obs):
    """``TIE``: 0 an auction (A4), 1 the honours (A9), 2 the final tie (A10)."""
    return obs[L.O_TIE_WHAT]


@kernel(inline=True)
def holder_of(obs, c):
    """The seat holding character ``c`` this round, -1."""
    return obs[L.O_HOLDS + c]


@kernel(inline=True)
def revealed_bid(obs, pos, p):
    """Seat ``p``'s bid at the auction in revealed position ``pos``, -1 while sealed."""
    return obs[L.O_BIDS + pos * L.MAXP + p]


@kernel(inline=True)
def pending_cost(obs):
    """A5.3: the total cost of the pending events now."""
    return obs[L.O_PEND_COST]


@kernel(inline=True)
def collapse_threshold(obs):
    return obs[L.O_THRESH]


@kernel
def find_option(opts, n_opts, o):
    """List decisions: the index of option ``o`` in ``opts[:n_opts]``, -1 when not legal."""
    for i in range(n_opts):
        if opts[i] == o:
            return i
    return -1


# ------------------------------------------------------------------ printing
def _seat(o: int) -> str:
    return f"seat {o}"


def describe_option(kind, o, obs=None) -> str:
    """A readable form of option ``o`` of a ``kind`` decision (name or code); for the
    amount decisions ``o`` is the amount (= the index). With the seat's observation
    ``obs`` the character or event concerned is named too: ``"bid 5 gold on the thief"``,
    ``"pledge 3 gold for the flood"``, ``"target seat 2"``, ``"pay 4 gold for 5 renown"``.
    """
    k = kind_code(kind)
    o = int(o)
    ob = None if obs is None else np.asarray(obs)
    ch = int(ob[L.O_CHAR]) if ob is not None else -1
    ev = int(ob[L.O_EVENT]) if ob is not None else -1
    on_ch = f" on the {CHARACTERS[ch]}" if ch >= 0 else ""
    for_ev = f" for the {EVENTS[ev]}" if ev >= 0 else ""
    if k == BID:
        return f"bid {o} gold{on_ch}"
    if k == PLEDGE:
        return f"pledge {o} gold{for_ev}"
    if k == OST_PLEDGE:
        t = int(ob[L.O_TARGET]) if ob is not None else -1
        return f"pledge {o} gold to exile " + (_seat(t) if t >= 0 else "the target")
    if k == NIMOS:
        return {0: "keep the bid", -1: "lower the bid by 1", 1: "raise the bid by 1"}[o]
    if k == TIE:
        what = int(ob[L.O_TIE_WHAT]) if ob is not None else -1
        return {TIE_AUCTION: f"{_seat(o)} wins the auction{on_ch}",
                TIE_HONOURS: f"{_seat(o)} is honoured",
                TIE_FINAL: f"{_seat(o)} wins the game"}.get(what, f"{_seat(o)} wins the tie")
    if k == STOP:
        return (f"spend the {CHARACTERS[ch]} to stop the {EVENTS[ev]}" if o == YES and ch >= 0
                else "stop the good event" if o == YES else "let it happen")
    if k == SPEND:
        return (f"spend the {CHARACTERS[ch]}{for_ev}" if o == YES and ch >= 0
                else "spend the character" if o == YES else "keep the character")
    if k == TARGET:
        return "decline (no target)" if o == DECLINE else f"target {_seat(o)}"
    if k == BUY:
        if o == 0:
            return "buy nothing"
        if ch in PURCHASES:
            return f"pay {o} gold for {PURCHASES[ch][o]} renown"
        return f"pay {o} gold"
    if k == PROPOSE:
        return "no proposal" if o == DECLINE else f"propose to exile {_seat(o)}"
    if k == SUPPORT:
        return "support the exile" if o == YES else "do not support"
    if k == VOTE:
        return f"vote for {_seat(o)}"
    return f"name {_seat(o)} MC"


def describe_options(kind, opts, n_opts=None, obs=None) -> list[str]:
    """``describe_option`` of every option, as lines ``"  3  target seat 2"``; for the
    amount decisions ``opts`` is not read (the index is the amount)."""
    k = kind_code(kind)
    n = len(opts) if n_opts is None else int(n_opts)
    values = range(n) if k in AMOUNT_KINDS else [int(opts[i]) for i in range(n)]
    return [f"{i:>3}  {describe_option(k, o, obs)}" for i, o in enumerate(values)]
