"""Protocole positions from card notation: one turn of one seat, to unit-test a bot's choice.

:func:`position` sets a Protocole table by hand — the deciding seat's hand and Foyer, the
Selection, this round's Norm, the cards seen leaving the game, who played what face up
this round, points, who is out — and returns a :class:`Position`: the seat's
observation, written by the engine's own :func:`demos_sim.protocole.observe.observe` from
a state set up with the engine's ``init_state`` (RULES.md M2), and the legal options of
the turn listed by the engine's ``turn_options``. ``Position.decide(policy)`` asks a
registered policy (or any policy function) and returns its :class:`Choice`, which prints
in words::

    >>> from demos_sim.protocole.positions import position
    >>> pos = position(hand="KT RS", foyer="KM BQ YX", selection="PM", norm="KO GO BO",
    ...                gone="RQ YT")
    >>> pos.texts()
    ['RS to the Selection', 'RS to the Foyer', 'KT to the Selection', 'KT to the Foyer']
    >>> print(pos.decide("cautious"))
    KT to the Foyer

Everything the seat cannot see (the other hands and Foyers, eliminated players' Foyers)
is filled with the cards nobody is shown; the seat's observation does not depend on
which (M2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from demos_sim.positions_common import Choice, codes  # noqa: F401  (Choice re-exported)
from demos_sim.positions_common import Position as PositionBase
from demos_sim.protocole import engine as E
from demos_sim.protocole import kit
from demos_sim.protocole import layout as L
from demos_sim.protocole.cards import COLOURS, SYMBOLS, card_id, codes_of
from demos_sim.protocole.observe import observe
from demos_sim.protocole.rules import ProtocoleConfig

ALL = L.FULL


def _mask(cards, what: str) -> int:
    m = 0
    for code in codes(cards):
        c = card_id(code)
        if (m >> c) & 1:
            raise ValueError(f"{what}: card {code} is given twice")
        m |= 1 << c
    return m


def _words(mask: int) -> str:
    return " ".join(codes_of(int(mask))) or "(none)"


def _removed(removed, players: int) -> int:
    """P1.2: the attributes removed at setup (``"P"``, ``"P O"``) as a card mask."""
    letters = codes(removed)
    if removed is None:
        letters = {4: [], 3: ["P"], 2: ["P", "O"]}[players]
    colours = [a for a in letters if a in COLOURS]
    symbols = [a for a in letters if a in SYMBOLS]
    bad = [a for a in letters if a not in COLOURS and a not in SYMBOLS]
    if bad:
        raise ValueError(f"removed={removed!r}: {bad[0]!r} is neither a colour (R B G Y K P) "
                         "nor a symbol (M Q T S X O)")
    want = {4: "nothing", 3: "one colour or one symbol", 2: "one colour and one symbol"}
    ok = {4: not letters, 3: len(letters) == 1,
          2: len(colours) == 1 and len(symbols) == 1}[players]
    if not ok:
        raise ValueError(f"removed={removed!r}: with {players} players the setup removes "
                         f"{want[players]} (P1.2)")
    m = 0
    for a in colours:
        m |= L.COLOUR0 << (6 * COLOURS.index(a))
    for a in symbols:
        m |= L.SYMBOL0 << SYMBOLS.index(a)
    return m


# ------------------------------------------------------------------ positions
class Position(PositionBase):
    """One turn of one seat: ``obs`` (OBS_LEN int64), ``opts[:n_opts]`` (the engine's
    option buffer), the configuration vector ``cfg`` (a
    :class:`~demos_sim.protocole.rules.ProtocoleConfig` in ``config``) and the full state
    ``st``. A reference policy (``omniscient``) decides with the truth block (every hand
    and Foyer) filled, as in a game (``C_TRUTH``)."""
    kit = kit
    registry = "demos_sim.protocole.policies"
    truth = (observe, L.C_TRUTH)

    def __str__(self) -> str:
        c = self.config
        ob = self.obs
        mode = ("each for themselves" if c.mode == "each"
                else f"all together, level {c.level}")
        lines = [f"{kit.KIND_RULES[self.kind]} of seat {self.seat} — {mode}, {c.players} "
                 f"players, round {int(ob[L.O_ROUND])} (Initiative: seat {int(ob[L.O_INIT])}, "
                 f"{int(ob[L.O_TURN])} turns played)"]
        for label, off in (("hand", L.O_HAND), ("Foyer", L.O_FOYER), ("Selection", L.O_SEL),
                           ("Norm", L.O_NORM)):
            lines.append(f"  {label:<10} {_words(int(ob[off]))}")
        counts = []
        for p in range(c.players):
            if not (int(ob[L.O_ALIVE]) >> p) & 1:
                counts.append(f"seat {p}: out")
            else:
                counts.append(f"seat {p}: {int(ob[L.O_HANDN + p])} in hand, "
                              f"{int(ob[L.O_FOYERN + p])} in Foyer")
        lines.append("  " + " | ".join(counts))
        if c.mode == "each":
            lines.append("  points " + " ".join(str(int(ob[L.O_POINTS + p]))
                                                for p in range(c.players)))
        lines.append("  options:")
        lines += ["  " + s for s in kit.describe_options(self.kind, self.opts, self.n_opts)]
        return "\n".join(lines)


def _seat_cards(d, what: str) -> dict[int, object]:
    out = {}
    for p, v in (d or {}).items():
        if not isinstance(p, (int, np.integer)):
            raise ValueError(f"{what}: seats are numbers, got {p!r}")
        out[int(p)] = v
    return out


def position(hand, seat: int = 0, *, players: int | None = None, mode: str = "each",
             level: int | None = None, variants: dict | None = None,
             config: ProtocoleConfig | None = None, kind="play", foyer=None, selection=None,
             norm=None, gone=None, removed=None, played=None, round: int = 0,
             initiative: int = 0, dealt=None, out=None, points=None, hands=None,
             foyers=None) -> Position:
    """One turn (P2.1) of seat ``seat``, from card notation (GAME_RECORD.md: ``"KT"`` =
    black triangle).

    Parameters
    ----------
    hand : the deciding seat's cards, ``"KT RS"`` (at least one: an empty hand is skipped,
        P2.1).
    seat : the deciding seat.
    players, mode, level, variants : the game (a ProtocoleConfig), or ``config``.
    foyer : the seat's own Foyer (P2.1: it may always look at it).
    selection : the Selection, face up (1–4 cards: at 5 it is resolved at once, P2.2).
    norm : this round's Norm (P3.1).
    gone : cards seen leaving the game: Selection cards not kept (P3.1), any round.
    removed : P1.2, the attributes removed at setup: ``"P"`` (3 players: a colour or a
        symbol), ``"P O"`` (2 players: a colour and a symbol); default ``"P"`` at 3 and
        ``"P O"`` at 2 players, nothing at 4.
    played : {seat: cards} played face up this round (in the Selection, the Norm or gone).
    round, initiative : the round (from 0) and the Initiative holder (P1.4, P4.3), whose
        turn opens the round.
    dealt : round 1 on: the cards dealt this round, i.e. the previous round's Norm (P4.3,
        public). Round 0: every card not removed (P1.3).
    out : seats eliminated (P4.2: out of the game, Foyer gone face down).
    points : cumulative points by seat (each for themselves, P4.2).
    hands : {seat: cards} other seats' hands (hidden; by default the cards nobody is
        shown). Their sizes follow from the deal (P1.3): every hand starts the round with
        the same number of cards and turns go round from the Initiative holder.
    foyers : {seat: cards or a number of cards} other seats' Foyers (hidden, their sizes
        public, P2.1); by default the cards nobody is shown, shared out in turn order.
    """
    k = kit.kind_code(kind)
    if config is None:
        config = ProtocoleConfig(mode, level, 4 if players is None else players,
                                 dict(variants or {}))
    elif players is not None or variants is not None or level is not None:
        raise ValueError("give either config= or players/mode/level/variants")
    n = config.players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not at a {n}-player table")
    cfg = config.to_array()
    st = np.zeros(L.ST_LEN, np.int64)
    E.init_state(cfg, np.uint64(0), st, np.zeros(L.NSTREAM, np.uint64),
                 np.zeros(1, np.uint64), np.zeros(L.RES_LEN, np.int64))
    t = _public_cards(n, hand, foyer, selection, norm, gone, removed)
    _deal(t, config, seat, round, initiative, dealt, out)
    _played(t, played)
    _given_hidden(t, seat, hands, foyers)
    _hidden_hands(t)
    _foyers(t, seat, round)
    _write_state(st, t, config, points, round, initiative)
    opts = np.zeros(L.MAXOPT, np.int64)
    m = E.turn_options(st, seat, opts)
    obs = np.zeros(L.OBS_LEN, np.int64)
    observe(st, cfg, seat, k, obs)
    return Position(config, k, seat, cfg, st, obs, opts, int(m))


# ------------------------------------------------------------------ the steps of position
@dataclass
class _Table:
    """What :func:`position` has worked out so far: card masks, the deal, the seats."""
    rem: int                   # removed at setup (P1.2)
    own_h: int                 # the deciding seat's hand and Foyer
    own_f: int
    sel: int                   # the Selection, the Norm, the cards gone
    nrm: int
    gon: int
    seen: int                  # every card the seat is shown
    outs: set = field(default_factory=set)      # seats out (P4.2), and those in
    alive: list = field(default_factory=list)
    deck: int = 0              # the cards dealt this round (P1.3, P4.3)
    fs: int = 0                # dealt into each Foyer (round 0)
    each: int = 0              # dealt to each hand
    start: int = 0             # dealt into the Selection
    h: int = 0                 # the deciding seat's hand size
    order: list = field(default_factory=list)   # turn order from the Initiative
    before: list = field(default_factory=list)  # seats that played before this lap
    sizes: dict = field(default_factory=dict)   # hand size by seat in the game
    turns: int = 0             # turns played this round
    laps: int = 0              # turns the deciding seat played this round
    plays: dict = field(default_factory=dict)   # played face up this round, by seat
    hidden: int = 0            # cards not placed yet (the seat does not see them)
    hands: dict = field(default_factory=dict)   # hand and Foyer masks by seat
    foyers: dict = field(default_factory=dict)
    sizes_f: dict = field(default_factory=dict)  # Foyer sizes given or implied
    dead: int = 0              # eliminated players' Foyers (P4.2)


def _public_cards(n, hand, foyer, selection, norm, gone, removed) -> _Table:
    """The cards the seat is shown (P1.2, P2.1), each in one place."""
    rem = _removed(removed, n)
    own_h, own_f = _mask(hand, "hand"), _mask(foyer, "foyer")
    sel, nrm, gon = _mask(selection, "selection"), _mask(norm, "norm"), _mask(gone, "gone")
    seen = 0
    for what, m in (("removed at setup (P1.2)", rem), ("the hand", own_h),
                    ("the Foyer", own_f), ("the Selection", sel), ("the Norm", nrm),
                    ("gone", gon)):
        if seen & m:
            raise ValueError(f"{_words(seen & m)}: in {what} and elsewhere too")
        seen |= m
    if not own_h:
        raise ValueError("the hand is empty: a player with no card is skipped (P2.1)")
    if bin(sel).count("1") >= L.SEL_MAX:
        raise ValueError(f"a Selection of {L.SEL_MAX} cards is resolved at once (P2.2)")
    return _Table(rem, own_h, own_f, sel, nrm, gon, seen)


def _deal(t: _Table, config, seat, round, initiative, dealt, out) -> None:
    """Who is in, this round's deal (P1.3, P4.3) and how far the round is (P2.1)."""
    n = config.players
    t.outs = {int(p) for p in (out or ())}
    t.alive = [p for p in range(n) if p not in t.outs]
    if seat in t.outs or initiative in t.outs:
        raise ValueError("the deciding seat and the Initiative holder are in the game (P4.2, "
                         "P4.3)")
    if not 0 <= initiative < n:
        raise ValueError(f"initiative {initiative} is not a seat at a {n}-player table")
    if round == 0:
        if t.outs:
            raise ValueError("nobody is out in round 0: eliminations happen at controls (P4.2)")
        if dealt is not None and _mask(dealt, "dealt") != ALL & ~t.rem:
            raise ValueError("round 0 deals every card not removed (P1.3)")
        t.deck = ALL & ~t.rem
        t.fs = config.foyer_start
    else:
        if dealt is None:
            raise ValueError("from round 1 on, give dealt= : the previous round's Norm, dealt "
                             "again (P4.3)")
        t.deck = _mask(dealt, "dealt")
        if t.deck & t.rem:
            raise ValueError(f"{_words(t.deck & t.rem)}: removed at setup, never dealt (P1.2)")
        if bin(t.deck).count("1") < 8:
            raise ValueError("a Norm of 7 cards or fewer ends the game: no new round (P4.3)")
        t.fs = 0
    na = len(t.alive)
    t.each, t.start = divmod(bin(t.deck).count("1") - t.fs * na, na)
    for what, m in (("the hand", t.own_h), ("the Selection", t.sel), ("the Norm", t.nrm)):
        if m & ~t.deck:
            raise ValueError(f"{_words(m & ~t.deck)}: in {what} but not dealt this round "
                             "(P1.3, P4.3)")
    t.h = h = bin(t.own_h).count("1")
    if h > t.each:
        raise ValueError(f"the hand holds {h} cards, more than the {t.each} dealt to each "
                         f"player this round (P1.3)")
    t.order = [p for j in range(n) for p in [(initiative + j) % n] if p not in t.outs]
    t.before = t.order[:t.order.index(seat)]
    t.sizes = {p: (h - 1 if p in t.before else h) for p in t.alive}
    if any(s < 0 for s in t.sizes.values()):
        raise ValueError(f"seats {t.before} played before seat {seat} this lap and would hold "
                         "fewer than 0 cards: give seat a hand of at least 1")
    t.turns = sum(t.each - s for s in t.sizes.values())
    t.laps = t.each - h
    if round == 0 and not t.fs <= bin(t.own_f).count("1") <= t.fs + t.laps:
        raise ValueError(f"in round 0 the Foyer holds the {t.fs} cards dealt into it (P1.3) "
                         f"and at most one more per turn played ({t.laps})")


def _played(t: _Table, played) -> None:
    """The cards played face up this round, by seat (P2.1)."""
    t.plays = {p: _mask(c, f"played[{p}]") for p, c in _seat_cards(played, "played").items()}
    up = t.sel | t.nrm | t.gon
    total_played = 0
    for p, m in t.plays.items():
        if p not in t.sizes:
            raise ValueError(f"played: seat {p} is not in the game")
        if m & ~up or m & ~t.deck:
            raise ValueError(f"played[{p}]: {_words(m & ~(up & t.deck))} was not "
                             "played this round (a played card is in the Selection, the Norm "
                             "or gone, P2.1, P3.1)")
        if bin(m).count("1") > t.each - t.sizes[p]:
            raise ValueError(f"played[{p}]: {bin(m).count('1')} cards, but seat {p} has "
                             f"played {t.each - t.sizes[p]} turns this round")
        total_played += bin(m).count("1")
    if played is not None and bin(t.sel).count("1") != (t.start + total_played) % L.SEL_MAX:
        raise ValueError(f"a Selection of {bin(t.sel).count('1')} cards after {t.start} dealt "
                         f"into it and {total_played} played face up: a Norm selection takes "
                         f"every {L.SEL_MAX} (P2.2)")


def _given_hidden(t: _Table, seat, hands, foyers) -> None:
    """The other hands and Foyers given (hidden from the seat; M2): checked and placed."""
    t.hidden = ALL & ~t.seen
    t.hands = {seat: t.own_h}
    t.foyers = {seat: t.own_f}
    for p, cards in _seat_cards(hands, "hands").items():
        if p == seat or p not in t.sizes:
            raise ValueError(f"hands: give the deciding seat's hand as hand=, and only seats "
                             f"in the game (seat {p})")
        m = _mask(cards, f"hands[{p}]")
        if bin(m).count("1") != t.sizes[p]:
            raise ValueError(f"hands[{p}] holds {bin(m).count('1')} cards; seat {p} holds "
                             f"{t.sizes[p]} at this point of the round (P1.3, P2.1)")
        if m & ~(t.hidden & t.deck):
            raise ValueError(f"hands[{p}]: {_words(m & ~(t.hidden & t.deck))} cannot be in a "
                             "hand (shown elsewhere, or not dealt this round)")
        t.hands[p] = m
        t.hidden &= ~m
    for p, cards in _seat_cards(foyers, "foyers").items():
        if p == seat or p not in t.sizes:
            raise ValueError(f"foyers: give the deciding seat's Foyer as foyer=, and only "
                             f"seats in the game (seat {p})")
        if isinstance(cards, (int, np.integer)):
            t.sizes_f[p] = int(cards)
            continue
        m = _mask(cards, f"foyers[{p}]")
        if m & ~t.hidden:
            raise ValueError(f"foyers[{p}]: {_words(m & ~t.hidden)} is shown elsewhere")
        t.foyers[p] = m
        t.hidden &= ~m


def _hidden_hands(t: _Table) -> None:
    """The hands not given: unseen cards dealt this round, in turn order."""
    for p in t.order:
        if p in t.hands:
            continue
        pool = [c for c in range(L.NCARD) if (t.hidden & t.deck) >> c & 1]
        if len(pool) < t.sizes[p]:
            raise ValueError(f"not enough unseen cards dealt this round for seat {p}'s hand "
                             f"of {t.sizes[p]}")
        t.hands[p] = sum(1 << c for c in pool[:t.sizes[p]])
        t.hidden &= ~t.hands[p]


def _round0_foyer_sizes(t: _Table, seat, todo) -> None:
    """P1.3, P2.1: in round 0 a Foyer holds its dealt cards plus one card per turn its
    player did not play face up; every card face up this round (the Selection, the Norm,
    gone) was played by someone, after the deal's remainder."""
    up_left = (bin(t.sel | t.nrm | t.gon).count("1") - t.start
               - (t.fs + t.laps - bin(t.own_f).count("1")))
    for p in t.alive:
        if p != seat and p not in todo:
            f = t.sizes_f.get(p, bin(t.foyers.get(p, 0)).count("1"))
            up_left -= t.fs + t.each - t.sizes[p] - f
    for p in todo:
        turns_p = t.each - t.sizes[p]
        if p in t.plays:
            up = bin(t.plays[p]).count("1")
        else:
            up = max(0, min(turns_p, up_left))
        up_left -= up
        t.sizes_f[p] = t.fs + turns_p - up
    if up_left != 0:
        raise ValueError("the cards face up this round (the Selection, the Norm, gone) do "
                         "not match the turns played: every turn puts one card face up or "
                         "into a Foyer (P2.1)")


def _foyers(t: _Table, seat, round) -> None:
    """The Foyers not given, and eliminated players' Foyers: the cards nobody is shown."""
    rest = [c for c in range(L.NCARD) if t.hidden >> c & 1]
    i = t.order.index(seat)
    todo = [p for p in t.order[i + 1:] + t.order[:i]
            if p not in t.foyers and p not in t.sizes_f]
    if round == 0 and todo:
        _round0_foyer_sizes(t, seat, todo)
        todo = []
    for p in t.order:
        if p in t.sizes_f:
            if t.sizes_f[p] > len(rest):
                raise ValueError(f"foyers[{p}] = {t.sizes_f[p]}: only {len(rest)} unseen cards "
                                 "are left")
            t.foyers[p] = sum(1 << c for c in rest[:t.sizes_f[p]])
            rest = rest[t.sizes_f[p]:]
    if t.outs:
        if todo:
            raise ValueError("with players out, the other Foyers' sizes are not implied: give "
                             f"foyers={{seat: number}} for seats {todo}")
        t.dead = sum(1 << c for c in rest)
    elif todo:
        share = {p: 0 for p in todo}
        for j in range(len(rest)):
            share[todo[j % len(todo)]] += 1
        for p in todo:
            t.foyers[p] = sum(1 << c for c in rest[:share[p]])
            rest = rest[share[p]:]
    elif rest:
        raise ValueError(f"{_words(sum(1 << c for c in rest))}: in no hand, Foyer, Selection or "
                         "Norm, and not gone (all 36 cards are somewhere, P1.1)")
    if round == 0:
        for p in t.alive:
            if bin(t.foyers.get(p, 0)).count("1") < t.fs:
                raise ValueError(f"seat {p}'s Foyer holds fewer than the {t.fs} cards dealt into "
                                 "it in round 0 (P1.3)")


def _write_state(st, t: _Table, config, points, round, initiative) -> None:
    """The table into the engine's state; every card in exactly one place (P1.1)."""
    n = config.players
    pts = list(points or [0] * n)
    if len(pts) != n:
        raise ValueError(f"points: one number per seat ({n})")
    if config.mode == "coop" and any(pts):
        raise ValueError("all together keeps no points (P5.1)")
    if any(pts[p] for p in t.outs):
        raise ValueError("an eliminated player scores 0 (P4.2)")
    st[L.S_ROUND] = round
    st[L.S_INIT] = initiative
    st[L.S_ALIVE] = sum(1 << p for p in t.alive)
    st[L.S_SEL] = t.sel
    st[L.S_NORM] = t.nrm
    st[L.S_GONE] = t.gon
    st[L.S_DEAD] = t.dead
    st[L.S_REMOVED] = t.rem
    st[L.S_DECKSET] = t.deck
    st[L.S_TURN] = t.turns
    cards = [c for c in range(L.NCARD) if t.deck >> c & 1]
    st[L.S_DECK:L.S_DECK + len(cards)] = cards
    st[L.S_DECK_LEN] = len(cards)
    for p in range(n):
        st[L.S_HAND + p] = t.hands.get(p, 0)
        st[L.S_FOYER + p] = t.foyers.get(p, 0)
        st[L.S_POINTS + p] = pts[p]
        st[L.S_PLAYED + p] = t.plays.get(p, 0)
    total = 0
    union = 0
    for off in (L.S_SEL, L.S_NORM, L.S_GONE, L.S_DEAD, L.S_REMOVED):
        total += bin(int(st[off])).count("1")
        union |= int(st[off])
    for p in range(n):
        for off in (L.S_HAND, L.S_FOYER):
            total += bin(int(st[off + p])).count("1")
            union |= int(st[off + p])
    assert union == ALL and total == L.NCARD, "card conservation (P1.1)"
