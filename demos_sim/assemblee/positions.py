"""L'Assemblée positions from the records' names: one decision of one seat, to unit-test a bot.

:func:`position` sets a table by hand — gold and renown, the MC, who is out, the
characters revealed and their holders, the bids revealed, the event and the pending
events, an ostracism under way — and returns a :class:`Position`: the seat's
observation (the public board, RULES.md A0 and M2), built from a state set up with the
engine's ``init_state`` and rebuilt by its own ``observe_full``, and the legal options
of the decision in the engine's order. ``Position.decide(policy)`` asks a registered
policy (or any policy function) and returns its :class:`Choice`, in words::

    >>> from demos_sim.assemblee.positions import position
    >>> pos = position("target", seat=1, character="thief", gold=[30, 5, 12, 0])
    >>> pos.texts()
    ['target seat 0', 'target seat 2', 'target seat 3']
    >>> print(pos.decide("civic"))
    target seat 0

Names are those of GAME_RECORD.md (characters ``"thief"``, events ``"flood"``,
personalities ``"nimos"``). What the seat cannot see (the event deck's order, the others'
sealed bids, pledges and votes) is filled with arbitrary values: its observation does
not depend on them (M2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from demos_sim.assemblee import engine as E
from demos_sim.assemblee import kit
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.observe import event_cost, observe_full
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim.positions_common import Choice  # noqa: F401  (re-exported)
from demos_sim.positions_common import Position as PositionBase

#: ``history=`` keys -> (observation offset, by seat?): the public record of earlier
#: rounds the engine keeps on the board (pledges, votes, proposals, attacks)
HISTORY = {"pledge_calls": (L.O_PLEDGE_CALLS, False), "last_total": (L.O_LAST_TOTAL, False),
           "last_cost": (L.O_LAST_COST, False), "proposals": (L.O_OST_PROPOSALS, False),
           "last_pledges": (L.O_LAST_PLEDGE, True), "pledged": (L.O_PLEDGED, True),
           "pledge_count": (L.O_PLEDGE_POS, True), "last_votes": (L.O_LAST_VOTE, True),
           "proposed": (L.O_PROPOSED, True), "targeted": (L.O_TARGETED, True),
           "attacks": (L.O_ATTACKS, True),
           # the engine leaves these header fields as the last decision that set them
           "last_max": (L.O_MAX, False), "need_supporters": (L.O_NEED_SUP, False),
           "need_gold": (L.O_NEED_GOLD, False), "last_tie": (L.O_TIE_WHAT, False)}
AUCTION = (kit.BID, kit.NIMOS)            # decisions inside A4 (and a tie when about one)
STOPPER = {L.EV_HARVEST: L.CH_BRIGAND, L.EV_TRIUMPH: L.CH_THIEF,       # A5.1
           L.EV_WEDDING: L.CH_SPECTACLES}
TARGETED = (L.CH_THIEF, L.CH_ASSASSIN, L.CH_COURTESAN, L.CH_BRIGAND)   # A7
TIE_WHAT = {"auction": kit.TIE_AUCTION, "honours": kit.TIE_HONOURS, "final": kit.TIE_FINAL}


# ------------------------------------------------------------------ positions
class Position(PositionBase):
    """One decision of one seat: ``obs`` (OBS_LEN int64), ``opts[:n_opts]`` (the engine's
    option buffer; not filled in an amount decision, whose index is the amount), the
    configuration vector ``cfg`` (an :class:`~demos_sim.assemblee.rules.AssembleeConfig`
    in ``config``) and the full state ``st``. L'Assemblée has no truth block: a
    reference policy decides from the observation alone."""
    kit = kit
    registry = "demos_sim.assemblee.policies"

    def __str__(self) -> str:
        ob = self.obs
        n = self.config.players
        lines = [f"{kit.KIND_RULES[self.kind]} of seat {self.seat} — {n} players, round "
                 f"{int(ob[L.O_ROUND])} of {int(ob[L.O_ROUNDS])} (MC: seat {int(ob[L.O_MC])})"]
        seats = []
        for p in range(n):
            if not (int(ob[L.O_IN]) >> p) & 1:
                seats.append(f"{p}: out")
            else:
                seats.append(f"{p}: {int(ob[L.O_GOLD + p])} gold {int(ob[L.O_REN + p])} renown")
        lines.append("  seats  " + " | ".join(seats))
        nrev = int(ob[L.O_NREV])
        if nrev:
            rev = []
            for i in range(nrev):
                h = int(ob[L.O_HOLDER + i])
                rev.append(kit.CHARACTERS[int(ob[L.O_REV + i])] + (f" (seat {h})" if h >= 0
                                                                  else ""))
            lines.append("  revealed  " + ", ".join(rev))
        if ob[L.O_EVENT_NOW] >= 0:
            lines.append(f"  event  {kit.EVENTS[int(ob[L.O_EVENT_NOW])]}; pending "
                         f"{int(ob[L.O_NPEND])}, cost {int(ob[L.O_PEND_COST])} "
                         f"(collapse at {int(ob[L.O_THRESH])})")
        lines.append("  options:")
        if self.kind in kit.AMOUNT_KINDS and self.n_opts > 4:
            first, last = kit.describe_options(self.kind, self.opts, self.n_opts, ob)[::self.n_opts - 1]
            lines += ["  " + first, "    …", "  " + last]
        else:
            lines += ["  " + s for s in kit.describe_options(self.kind, self.opts,
                                                              self.n_opts, ob)]
        return "\n".join(lines)


def _by_seat(values, n: int, what: str, default: int = 0) -> list[int]:
    if values is None:
        return [default] * n
    values = [int(v) if v is not None else default for v in values]
    if len(values) != n:
        raise ValueError(f"{what}: one value per seat ({n}), got {len(values)}")
    return values


def _seat_or_none(x, n: int, what: str) -> int:
    if x is None:
        return -1
    if not isinstance(x, (int, np.integer)) or not 0 <= x < n:
        raise ValueError(f"{what}: {x!r} is not a seat at a {n}-player table")
    return int(x)


def position(kind, seat: int = 0, *, players: int | None = None, variants: dict | None = None,
             config: AssembleeConfig | None = None, gold=None, renown=None, mc: int = 0,
             round: int = 0, out=(), personalities=None, revealed=None, holders=None,
             bids=None, character=None, event=None, round_event=None, pending=(),
             cost=None, spent=(),
             previous=None, brigand=(), arthas_used=(), drawn=None, oracle=None, sees=(),
             proposer=None, target=None, tied=None, tie=None, history=None) -> Position:
    """One decision of seat ``seat``, from the records' names (GAME_RECORD.md).

    Parameters
    ----------
    kind : ``"bid"``, ``"nimos"``, ``"tie"``, ``"stop"``, ``"spend"``, ``"pledge"``,
        ``"target"``, ``"buy"``, ``"propose"``, ``"support"``, ``"ost_pledge"``,
        ``"vote"`` or ``"name_mc"`` (kit.KIND_NAMES).
    seat : the deciding seat (a tie: the MC; ``name_mc``: the exiled MC).
    players, variants : the game (an AssembleeConfig), or ``config``; ``players``
        defaults to the length of ``gold``, else 6.
    gold, renown : by seat (A0: public); out players have none.
    mc, round : the Master of Ceremonies and the round (from 0).
    out : seats out of the game (exiled, assassinated).
    personalities : names by seat (variant ``personalities``, A11).
    revealed : the characters revealed this round, in A4 order (``max(6, min(15, X))`` of
        them); default: ``character`` first, then the others in GAME_RECORD.md order.
    holders : {character: seat} of the auctions already settled this round.
    bids : {character: [bid by seat]} of the auctions already revealed (A4); for a bid of
        the Oracle-advantage seat, the current auction's row holds the bids it sees.
    character : the character the decision is about (bid, Nimos, an auction tie, stop,
        spend, target, buy).
    event : the event a stop, spend or pledge is about; also this round's event (A3)
        unless ``round_event`` names another.
    pending : the harmful events pending, oldest first: names, or (name, rounds postponed).
    cost : spend/pledge: the cost of ``event`` (default: its A5.2 cost as pending).
    spent : characters spent this round (A5.1, A5.2).
    previous : {character: seat} held last round.
    brigand : seats whose next income the Brigand cut this round (A7).
    arthas_used : seats whose Arthas cancel is used (A11).
    drawn : events drawn since the deck's last shuffle (A3; default: ``event`` alone).
    oracle, sees : the Oracle-advantage seat this round and the seats whose bids it sees
        at the current auction (A4).
    proposer, target : the ostracism under way (support, ost_pledge, name_mc: A8).
    tied, tie : a tie: the tied seats and what it is about, ``"auction"``, ``"honours"``
        or ``"final"`` (A4, A9, A10).
    history : the public record of earlier decisions (:data:`HISTORY` keys, e.g.
        ``{"last_pledges": [3, 0, 3, 3], "targeted": [2, 0, 0, 1]}``).
    """
    k = kit.kind_code(kind)
    if config is None:
        n = players if players is not None else (len(gold) if gold is not None else 6)
        config = AssembleeConfig(n, dict(variants or {}))
    elif players is not None or variants is not None:
        raise ValueError("give either config= or players/variants")
    cfg = config.to_array()
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    E.init_state(cfg, np.uint64(0), st, obs, np.zeros(L.NSTREAM, np.uint64),
                 np.zeros(L.RES_LEN, np.int64))
    t = _Table(config.players, config.variants)
    _seats(t, st, k, seat, out, mc, gold, renown, personalities, round, tie)
    _auctions(t, st, k, character, revealed, holders, bids, previous, tie)
    _oracle(t, st, k, oracle, sees)
    _events(t, st, k, event, round_event, pending, drawn, spent, brigand, arthas_used)
    if k in (kit.STOP, kit.SPEND, kit.PLEDGE):
        _event_decision(t, st, cfg, k, cost)
    _header(t, st, obs, k, history, proposer, target, tie)
    board = np.zeros(L.OBS_LEN, np.int64)
    observe_full(st, cfg, obs, board, E.EVENT_BASE_ARR)
    opts = np.zeros(L.MAXOPT, np.int64)
    m = _options(t, k, tied, tie, opts)
    return Position(config, k, t.seat, cfg, st, board, opts, int(m))


# ------------------------------------------------------------------ the steps of position
@dataclass
class _Table:
    """What :func:`position` has worked out so far: the seats, the auctions, the events."""
    n: int
    v: dict                    # the variants
    seat: int = -1
    outs: set = field(default_factory=set)        # seats out, and those in the game
    inside: list = field(default_factory=list)
    mc: int = -1
    golds: list = field(default_factory=list)     # gold, renown, personality by seat
    rens: list = field(default_factory=list)
    pers: list = field(default_factory=list)
    ch: int = -1               # the character the decision is about (-1: none)
    nrev: int = 0              # characters revealed this round (A4), in order
    rev: list = field(default_factory=list)
    after_a4: bool = False     # the decision comes after the auctions
    pos: int = -1              # ``ch``'s place among the revealed, the current auction
    cur: int = 0
    hold: dict = field(default_factory=dict)      # character -> holder this round
    bid_rows: dict = field(default_factory=dict)  # character -> bids by seat
    o_seat: int = -1           # the Oracle-advantage seat and whose bids it sees (A4)
    seen: int = 0
    ev: int = -1               # the event the decision is about (-1: none)
    pend: list = field(default_factory=list)      # (event, rounds postponed), oldest first
    cost: int = 0              # spend/pledge: the cost of ``ev``

    @property
    def x(self) -> int:
        """X: the players in the game (A5.2, A8)."""
        return len(self.inside)


def _seats(t: _Table, st, k, seat, out, mc, gold, renown, personalities, round, tie) -> None:
    """Who is in, gold and renown, the MC, personalities, the round (A0, A1, A11)."""
    n, v = t.n, t.v
    t.seat = seat = _seat_or_none(seat, n, "seat")
    t.outs = outs = {_seat_or_none(p, n, "out") for p in out}
    t.inside = [p for p in range(n) if p not in outs]
    if len(t.inside) < v["min_players"]:
        raise ValueError(f"{len(t.inside)} players in the game: the game ends when fewer "
                         f"than min_players = {v['min_players']} remain (A8, A12)")
    if (seat in outs) != (k == kit.NAME_MC):
        raise ValueError("only an exiled MC decides out of the game (A8); every other "
                         "decision is taken by a player in the game" if seat in outs else
                         "name_mc is the exiled MC's decision: put the seat in out=")
    t.mc = _seat_or_none(mc, n, "mc")
    if t.mc in outs and k != kit.NAME_MC:
        raise ValueError("the MC is in the game (an assassinated or exiled MC is replaced, "
                         "A7, A8)")
    t.golds = golds = _by_seat(gold, n, "gold")
    t.rens = rens = _by_seat(renown, n, "renown")
    if any(x < 0 for x in golds + rens):
        raise ValueError("gold and renown are never negative (A4, A7)")
    if any(golds[p] or rens[p] for p in outs):
        raise ValueError("a player out of the game leaves with his possessions (A7, A8)")
    t.pers = [-1] * n
    if personalities is not None:
        if not v["personalities"]:
            raise ValueError("personalities need the variant personalities = true (A11)")
        t.pers = [kit.personality_id(x) for x in personalities]
        if len(t.pers) != n:
            raise ValueError(f"personalities: one per seat ({n})")
    if not 0 <= round < v["rounds"] + (1 if tie == "final" else 0):
        raise ValueError(f"round {round}: the game lasts {v['rounds']} rounds (A1)")
    st[L.S_ROUND] = round
    st[L.S_MC] = t.mc
    st[L.S_IN] = sum(1 << p for p in t.inside)
    st[L.S_NIN] = len(t.inside)
    for p in range(n):
        st[L.S_GOLD + p] = golds[p]
        st[L.S_REN + p] = rens[p]
        st[L.S_PERS + p] = t.pers[p]
    st[L.S_GOLD_IN] = sum(golds)               # the ledger balances the figures
    st[L.S_REN_IN] = sum(rens)


def _about_character(k, tie) -> bool:
    """Is a ``k`` decision about a character (its auction, its power: A4, A5, A7)?"""
    return k in (kit.BID, kit.NIMOS, kit.STOP, kit.SPEND, kit.TARGET, kit.BUY) or (
        k == kit.TIE and tie == "auction")


def _revealed(t: _Table, k, character, revealed, tie) -> None:
    """A4: the characters revealed this round, and the one the decision is about."""
    t.ch = ch = kit.character_id(character) if character is not None else -1
    t.nrev = nrev = max(6, min(L.NCHAR, len(t.inside)))
    t.after_a4 = k not in AUCTION and not (k == kit.TIE and tie == "auction")
    if revealed is None:
        rev = ([ch] if ch >= 0 else []) + [c for c in range(L.NCHAR) if c != ch]
        t.rev = rev[:nrev]
    else:
        t.rev = [kit.character_id(c) for c in revealed]
        if len(t.rev) != nrev or len(set(t.rev)) != nrev:
            raise ValueError(f"revealed: {nrev} different characters are revealed with "
                             f"{len(t.inside)} players in the game (A4)")
    if ch >= 0 and ch not in t.rev:
        raise ValueError(f"the {kit.CHARACTERS[ch]} is not revealed this round (A4)")
    if _about_character(k, tie) and ch < 0:
        raise ValueError(f"a {kit.KIND_RULES[k]} decision needs character=")
    t.pos = t.rev.index(ch) if ch >= 0 else -1
    t.cur = nrev if t.after_a4 else (t.pos if k == kit.BID else t.pos + 1)


def _auctions(t: _Table, st, k, character, revealed, holders, bids, previous, tie) -> None:
    """A4: the characters revealed, their holders, the bids revealed; into ``st``."""
    n = t.n
    _revealed(t, k, character, revealed, tie)
    ch, rev, nrev, cur = t.ch, t.rev, t.nrev, t.cur
    t.hold = hold = {kit.character_id(c): _seat_or_none(s, n, "holders")
                     for c, s in dict(holders or {}).items()}
    if k in (kit.STOP, kit.SPEND, kit.TARGET, kit.BUY):
        hold.setdefault(ch, t.seat)
        if hold[ch] != t.seat:
            raise ValueError(f"the {kit.CHARACTERS[ch]}'s holder decides: seat {hold[ch]}")
    for c, s in hold.items():
        if c not in rev or rev.index(c) >= cur:
            raise ValueError(f"holders: the {kit.CHARACTERS[c]} is not an auction settled "
                             "this round (A4)")
    t.bid_rows = {kit.character_id(c): _by_seat(row, n, f"bids[{c}]")
                  for c, row in dict(bids or {}).items()}
    st[L.S_NREV] = nrev
    st[L.S_CUR] = cur
    for i in range(L.NCHAR):
        st[L.S_REV + i] = rev[i] if i < nrev else -1
        st[L.S_HOLDER + i] = hold.get(rev[i], -1) if i < nrev else -1
        st[L.S_HOLDS + i] = -1
        st[L.S_PREV_HOLDS + i] = -1
    for c, s in hold.items():
        st[L.S_HOLDS + c] = s
    for c, s in dict(previous or {}).items():
        st[L.S_PREV_HOLDS + kit.character_id(c)] = _seat_or_none(s, n, "previous")
    for c, row in t.bid_rows.items():
        if c not in rev or rev.index(c) > cur or (rev.index(c) == cur and k != kit.BID):
            raise ValueError(f"bids: the {kit.CHARACTERS[c]}'s auction is not revealed yet "
                             "(A4)")
        for p in range(n):             # (a seat out since may have bid: A4 came first)
            st[L.S_BIDS + rev.index(c) * L.MAXP + p] = row[p]


def _oracle(t: _Table, st, k, oracle, sees) -> None:
    """A4: the Oracle-advantage seat, the bids it sees; a bid's phase."""
    n = t.n
    t.o_seat = o_seat = _seat_or_none(oracle, n, "oracle")
    st[L.S_ORACLE] = o_seat
    t.seen = seen = sum(1 << _seat_or_none(p, n, "sees") for p in sees)
    if seen and o_seat < 0:
        raise ValueError("sees= needs oracle= (A4: the Oracle advantage)")
    if o_seat >= 0:
        if (o_seat in t.outs and not t.after_a4) or seen >> o_seat & 1:
            raise ValueError("the Oracle-advantage seat is in the game and sees others' bids")
        st[L.S_SEES] = seen
        if t.v["oracle_view"] == "three_bids":
            if bin(seen).count("1") > 1 or (seen and (t.after_a4 or t.pos >= 3)):
                raise ValueError("oracle_view = three_bids: one seat's bid at each of the "
                                 "first 3 auctions (A4)")
            other = next(p for p in t.inside if p != o_seat)
            for i in range(3):                       # views of auctions not opened: hidden
                st[L.S_VIEWS + i] = other
            if seen:
                st[L.S_VIEWS + t.pos] = seen.bit_length() - 1
        elif seen and bin(seen).count("1") != min(3, len(t.inside) - 1):
            raise ValueError("oracle_view = three_players: the bids of 3 other players (A4)")
    if k == kit.BID:
        st[L.S_PHASE] = L.PH_BID
        if t.seat == o_seat and seen and t.ch not in t.bid_rows:
            raise ValueError("the Oracle sees bids: give them as bids={character: row}")
        if t.seat != o_seat and seen and t.ch in t.bid_rows:
            raise ValueError("only the Oracle-advantage seat sees bids before they are "
                             "revealed (A0, A4)")


def _events(t: _Table, st, k, event, round_event, pending, drawn, spent, brigand,
            arthas_used) -> None:
    """A3, A5: this round's event, the pending events, the event deck; characters spent,
    incomes cut, Arthas cancels used."""
    t.ev = kit.event_id(event) if event is not None else -1
    ev_now = kit.event_id(round_event) if round_event is not None else t.ev
    if k == kit.STOP and ev_now != t.ev:
        raise ValueError("a good event is stopped in the round it is drawn (A5.1)")
    st[L.S_EVENT_NOW] = ev_now
    for x in pending:
        name, p = (x, 0) if isinstance(x, str) else x
        e = kit.event_id(name)
        if e >= L.NHARM:
            raise ValueError(f"{name} is a good event or the blank: never pending (A5.1, A6)")
        t.pend.append((e, int(p)))
    st[L.S_NPEND] = len(t.pend)
    for i, (e, p) in enumerate(t.pend):
        st[L.S_PEND_EV + i] = e
        st[L.S_PEND_P + i] = p
    if t.v["event_draw"] == "deck":
        seq = ([ev_now] if drawn is None and ev_now >= 0
               else [kit.event_id(x) for x in drawn or ()])
        if ev_now >= 0 and ev_now not in seq:
            raise ValueError("drawn: this round's event was drawn from the deck (A3)")
        order = seq + [e for e in range(L.NEVENT) if e not in seq]
        st[L.S_DECK:L.S_DECK + L.NEVENT] = order
        st[L.S_DECK_POS] = len(seq)
    elif drawn:
        raise ValueError("event_draw = independent has no event deck (A3)")
    for c in spent:
        st[L.S_SPENT] |= 1 << kit.character_id(c)
    for p in brigand:
        st[L.S_BRIG_NEXT] |= 1 << _seat_or_none(p, t.n, "brigand")
    for p in arthas_used:
        st[L.S_ARTHAS_USED] |= 1 << _seat_or_none(p, t.n, "arthas_used")


def _event_decision(t: _Table, st, cfg, k, cost) -> None:
    """A stop (A5.1), a spend (A5.2, A6) or a pledge (A5.2): its event and its cost."""
    ev, ch, pend = t.ev, t.ch, t.pend
    if ev < 0:
        raise ValueError(f"a {kit.KIND_RULES[k]} decision needs event=")
    if k == kit.STOP and (ev not in STOPPER or STOPPER[ev] != ch):
        raise ValueError("a good event is stopped by its character: harvest the brigand, "
                         "triumph the thief, wedding spectacles (A5.1)")
    if k in (kit.SPEND, kit.PLEDGE):
        if ev not in [e for e, _ in pend]:
            raise ValueError(f"the {kit.EVENTS[ev]} is not pending (A5.2)")
        if k == kit.SPEND and L.EVENT_RESOLVER[ev] != ch:
            raise ValueError(f"the {kit.EVENTS[ev]} is resolved by the "
                             f"{kit.CHARACTERS[L.EVENT_RESOLVER[ev]]} (A6)")
        p = next(p for e, p in pend if e == ev)
        want = int(event_cost(cfg, L.EVENT_BASE[ev], t.x, p))
        cost = want if cost is None else int(cost)
        if cost not in {int(event_cost(cfg, L.EVENT_BASE[ev], t.x, q)) for e, q in pend
                        if e == ev}:
            raise ValueError(f"cost {cost}: the {kit.EVENTS[ev]} pending costs "
                             f"{want} (A5.2: base + X + 3p)")
        t.cost = cost
    if ch >= 0 and (st[L.S_SPENT] >> ch) & 1:
        raise ValueError(f"the {kit.CHARACTERS[ch]} is already spent this round")


def _ostracism(t: _Table, st, obs, k, proposer, target) -> None:
    """A8: the ostracism under way (support, ost_pledge, name_mc), or none."""
    o_target = _seat_or_none(target, t.n, "target")
    o_prop = _seat_or_none(proposer, t.n, "proposer")
    if k not in (kit.SUPPORT, kit.OST_PLEDGE, kit.NAME_MC):
        if target is not None or proposer is not None:
            raise ValueError("proposer= and target= belong to an ostracism (A8)")
        return
    if o_target < 0 or o_prop < 0 or o_target == o_prop:
        raise ValueError("an ostracism names its proposer= and target= (A8)")
    if k != kit.NAME_MC and t.seat in (o_target, ) + ((o_prop,) if k == kit.SUPPORT else ()):
        raise ValueError("the target does not take part; the proposer supports it (A8)")
    if k == kit.NAME_MC and (t.seat != o_target or t.mc != t.seat):
        raise ValueError("name_mc: the exiled target was the MC (mc=seat, target=seat, "
                         "A8)")
    st[L.S_PHASE] = {kit.SUPPORT: L.PH_SUPPORT, kit.OST_PLEDGE: L.PH_OSTP}.get(k, L.PH_NONE)
    obs[L.O_TARGET] = o_target
    obs[L.O_PROPOSER] = o_prop
    if k != kit.NAME_MC:
        obs[L.O_NEED_SUP] = (2 * t.x + 2) // 3                 # ceil(2/3 X), A8
        obs[L.O_NEED_GOLD] = (sum(t.golds) + 3) // 4           # ceil(G / 4), A8


def _header(t: _Table, st, obs, k, history, proposer, target, tie) -> None:
    """The public history, then the decision header the engine writes (A8 included)."""
    n = t.n
    for name, val in dict(history or {}).items():
        if name not in HISTORY:
            raise ValueError(f"unknown history {name!r} (known: {', '.join(HISTORY)})")
        off, per_seat = HISTORY[name]
        if per_seat:
            obs[off:off + n] = _by_seat(val, n, name, -1)
        else:
            obs[off] = int(val)
    ostracism = k in (kit.SUPPORT, kit.OST_PLEDGE, kit.NAME_MC)
    if ostracism and "proposals" not in dict(history or {}):
        obs[L.O_OST_PROPOSALS] = 1                     # this one (A8)
    if not ostracism:      # -1 once a proposal was made (A8), 0 before any in the game
        obs[L.O_TARGET] = obs[L.O_PROPOSER] = -1 if obs[L.O_OST_PROPOSALS] > 0 else 0
    _ostracism(t, st, obs, k, proposer, target)
    if k == kit.PLEDGE:
        st[L.S_PHASE] = L.PH_PLEDGE
    if k == kit.VOTE:
        st[L.S_PHASE] = L.PH_VOTE
    obs[L.O_KIND] = k
    obs[L.O_SEAT] = t.seat
    if k in kit.AMOUNT_KINDS:
        obs[L.O_MAX] = t.golds[t.seat]
    obs[L.O_CHAR] = t.ch if _about_character(k, tie) else -1
    obs[L.O_POS] = t.pos if k in (kit.BID, kit.NIMOS, kit.TARGET, kit.BUY) or (
        k == kit.TIE and tie == "auction") else -1
    obs[L.O_EVENT] = t.ev if k in (kit.STOP, kit.SPEND, kit.PLEDGE) else -1
    obs[L.O_COST] = t.cost if k in (kit.SPEND, kit.PLEDGE) else 0
    if k == kit.TIE:
        if tie not in TIE_WHAT:
            raise ValueError("a tie says what it is about: tie='auction', 'honours' or "
                             "'final' (A4, A9, A10)")
        obs[L.O_TIE_WHAT] = TIE_WHAT[tie]


def _tie_options(t: _Table, tied, tie) -> list[int]:
    """A tie the MC breaks (A4, A9, A10): the tied seats (most renown first but in the
    final tie)."""
    if t.seat != t.mc:
        raise ValueError("the MC breaks a tie (A4, A9, A10): seat=mc")
    ts = sorted(_seat_or_none(p, t.n, "tied") for p in (tied or ()))
    if len(ts) < 2 or any(p in t.outs for p in ts):
        raise ValueError("tied= names two or more seats in the game")
    best = max(t.rens[p] for p in ts)
    if tie != "final":
        ts = [p for p in ts if t.rens[p] == best]    # A4, A9: most renown first
    return ts


def _options(t: _Table, k, tied, tie, opts) -> int:
    """The legal options into ``opts``, in the engine's order (an amount decision: the
    amounts 0 … its gold, ``opts`` not filled); their number."""
    seat, golds, ch = t.seat, t.golds, t.ch
    others = [q for q in t.inside if q != seat]
    if k in kit.AMOUNT_KINDS:
        return golds[seat] + 1
    if k == kit.NIMOS:
        if t.pers[seat] != L.PE_NIMOS:
            raise ValueError("only Nimos adjusts a bid (A11): personalities=[…'nimos'…]")
        b = t.bid_rows.get(ch, [0] * t.n)[seat]
        lst = [0] + ([-1] if b >= 1 else []) + ([1] if b + 1 <= golds[seat] else [])
    elif k == kit.TIE:
        lst = _tie_options(t, tied, tie)
    elif k in (kit.STOP, kit.SPEND, kit.SUPPORT):
        lst = [kit.NO, kit.YES]
    elif k == kit.TARGET:
        if ch not in TARGETED:
            raise ValueError(f"the {kit.CHARACTERS[ch]} names no target (A7)")
        lst = others
        if ch == L.CH_ASSASSIN:
            lst = [kit.DECLINE] + others if golds[seat] >= 25 else []
        if not lst:
            raise ValueError("no target to choose: the Assassin needs 25 gold (A7)")
    elif k == kit.BUY:
        if ch not in kit.PURCHASES:
            raise ValueError("only the Builder and the Town Crier buy renown (A7)")
        lst = [0] + [p for p in (3, 4, 6) if golds[seat] >= p]
    elif k == kit.PROPOSE:
        lst = [kit.DECLINE] + others
    else:                                            # a vote, naming the MC (A8, A9)
        lst = others
    opts[:len(lst)] = lst
    return len(lst)
