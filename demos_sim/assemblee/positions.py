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

from dataclasses import dataclass

import numpy as np

from demos_sim.assemblee import engine as E
from demos_sim.assemblee import kit
from demos_sim.assemblee import layout as L
from demos_sim.assemblee.observe import event_cost, observe_full
from demos_sim.assemblee.rules import AssembleeConfig
from demos_sim.registry import N_PARAMS, Policy

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
    configuration vector ``cfg`` and the full state ``st``."""
    config: AssembleeConfig
    kind: int
    seat: int
    cfg: np.ndarray
    st: np.ndarray
    obs: np.ndarray
    opts: np.ndarray
    n_opts: int

    @property
    def kind_name(self) -> str:
        return kit.KIND_NAMES[self.kind]

    def options(self) -> list[int]:
        """The options in the engine's order (amount decisions: the amounts 0 … max)."""
        if self.kind in kit.AMOUNT_KINDS:
            return list(range(self.n_opts))
        return [int(o) for o in self.opts[:self.n_opts]]

    def texts(self) -> list[str]:
        """Every option in words, in the engine's order (the index a policy returns)."""
        return [kit.describe_option(self.kind, o, self.obs) for o in self.options()]

    def index_of(self, text: str) -> int:
        texts = self.texts()
        if text not in texts:
            raise ValueError(f"no option {text!r} here; the options are: {texts}")
        return texts.index(text)

    def decide(self, policy, seed: int = 0) -> Choice:
        """Ask ``policy`` — a registered name (``"civic"``, ``"civic:no_thief"``), a
        :class:`~demos_sim.registry.Policy` or a policy function (parameters all 0) — to
        decide here with random stream ``seed``. As in the engine, a decision with one
        legal option is played without asking. Raises ValueError, in words, when the
        policy answers an index outside the options."""
        fn, params, name = _policy(policy)
        if self.n_opts == 1:
            return self._choice(0)
        rng = np.array([seed], np.uint64)
        idx = int(fn(self.cfg, self.obs.copy(), self.opts.copy(), np.int64(self.n_opts),
                     params.copy(), rng))
        if not 0 <= idx < self.n_opts:
            raise ValueError(f"{name} answered option index {idx} to a "
                             f"{kit.KIND_RULES[self.kind]} decision with {self.n_opts} "
                             f"options (indices 0–{self.n_opts - 1})\n{self}")
        return self._choice(idx)

    def _choice(self, idx: int) -> Choice:
        o = self.options()[idx]
        return Choice(idx, o, kit.describe_option(self.kind, o, self.obs))

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


def _policy(policy):
    if isinstance(policy, str):
        from demos_sim.assemblee.policies import get   # the registry loads the built-ins
        policy = get(policy)
    if isinstance(policy, Policy):
        return policy.fn, policy.params, policy.name
    if callable(policy):
        return policy, np.zeros(N_PARAMS, np.float64), getattr(policy, "__name__", "policy")
    raise TypeError(f"not a policy: {policy!r}")


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
    n = config.players
    v = config.variants
    cfg = config.to_array()
    st = np.zeros(L.ST_LEN, np.int64)
    obs = np.zeros(L.OBS_LEN, np.int64)
    E.init_state(cfg, np.uint64(0), st, obs, np.zeros(L.NSTREAM, np.uint64),
                 np.zeros(L.RES_LEN, np.int64))

    # ---- who is in, figures, personalities (A0, A1, A11)
    seat = _seat_or_none(seat, n, "seat")
    outs = {_seat_or_none(p, n, "out") for p in out}
    inside = [p for p in range(n) if p not in outs]
    if len(inside) < v["min_players"]:
        raise ValueError(f"{len(inside)} players in the game: the game ends when fewer than "
                         f"min_players = {v['min_players']} remain (A8, A12)")
    if (seat in outs) != (k == kit.NAME_MC):
        raise ValueError("only an exiled MC decides out of the game (A8); every other "
                         "decision is taken by a player in the game" if seat in outs else
                         "name_mc is the exiled MC's decision: put the seat in out=")
    mc = _seat_or_none(mc, n, "mc")
    if mc in outs and k != kit.NAME_MC:
        raise ValueError("the MC is in the game (an assassinated or exiled MC is replaced, "
                         "A7, A8)")
    golds = _by_seat(gold, n, "gold")
    rens = _by_seat(renown, n, "renown")
    if any(x < 0 for x in golds + rens):
        raise ValueError("gold and renown are never negative (A4, A7)")
    if any(golds[p] or rens[p] for p in outs):
        raise ValueError("a player out of the game leaves with his possessions (A7, A8)")
    pers = [-1] * n
    if personalities is not None:
        if not v["personalities"]:
            raise ValueError("personalities need the variant personalities = true (A11)")
        pers = [kit.personality_id(x) for x in personalities]
        if len(pers) != n:
            raise ValueError(f"personalities: one per seat ({n})")
    if not 0 <= round < v["rounds"] + (1 if tie == "final" else 0):
        raise ValueError(f"round {round}: the game lasts {v['rounds']} rounds (A1)")
    st[L.S_ROUND] = round
    st[L.S_MC] = mc
    st[L.S_IN] = sum(1 << p for p in inside)
    st[L.S_NIN] = len(inside)
    for p in range(n):
        st[L.S_GOLD + p] = golds[p]
        st[L.S_REN + p] = rens[p]
        st[L.S_PERS + p] = pers[p]
    st[L.S_GOLD_IN] = sum(golds)               # the ledger balances the figures
    st[L.S_REN_IN] = sum(rens)

    # ---- A4: the characters revealed, holders, bids
    ch = kit.character_id(character) if character is not None else -1
    nrev = max(6, min(L.NCHAR, len(inside)))
    after_a4 = k not in AUCTION and not (k == kit.TIE and tie == "auction")
    if revealed is None:
        rev = ([ch] if ch >= 0 else []) + [c for c in range(L.NCHAR) if c != ch]
        rev = rev[:nrev]
    else:
        rev = [kit.character_id(c) for c in revealed]
        if len(rev) != nrev or len(set(rev)) != nrev:
            raise ValueError(f"revealed: {nrev} different characters are revealed with "
                             f"{len(inside)} players in the game (A4)")
    if ch >= 0 and ch not in rev:
        raise ValueError(f"the {kit.CHARACTERS[ch]} is not revealed this round (A4)")
    if k in (kit.BID, kit.NIMOS, kit.STOP, kit.SPEND, kit.TARGET, kit.BUY) or (
            k == kit.TIE and tie == "auction"):
        if ch < 0:
            raise ValueError(f"a {kit.KIND_RULES[k]} decision needs character=")
    pos = rev.index(ch) if ch >= 0 else -1
    cur = nrev if after_a4 else (pos if k == kit.BID else pos + 1)
    hold = {kit.character_id(c): _seat_or_none(s, n, "holders")
            for c, s in dict(holders or {}).items()}
    if k in (kit.STOP, kit.SPEND, kit.TARGET, kit.BUY):
        hold.setdefault(ch, seat)
        if hold[ch] != seat:
            raise ValueError(f"the {kit.CHARACTERS[ch]}'s holder decides: seat {hold[ch]}")
    for c, s in hold.items():
        if c not in rev or rev.index(c) >= cur:
            raise ValueError(f"holders: the {kit.CHARACTERS[c]} is not an auction settled "
                             "this round (A4)")
    bid_rows = {kit.character_id(c): _by_seat(row, n, f"bids[{c}]")
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
    for c, row in bid_rows.items():
        if c not in rev or rev.index(c) > cur or (rev.index(c) == cur and k != kit.BID):
            raise ValueError(f"bids: the {kit.CHARACTERS[c]}'s auction is not revealed yet "
                             "(A4)")
        for p in range(n):             # (a seat out since may have bid: A4 came first)
            st[L.S_BIDS + rev.index(c) * L.MAXP + p] = row[p]
    o_seat = _seat_or_none(oracle, n, "oracle")
    st[L.S_ORACLE] = o_seat
    seen = sum(1 << _seat_or_none(p, n, "sees") for p in sees)
    if seen and o_seat < 0:
        raise ValueError("sees= needs oracle= (A4: the Oracle advantage)")
    if o_seat >= 0:
        if (o_seat in outs and not after_a4) or seen >> o_seat & 1:
            raise ValueError("the Oracle-advantage seat is in the game and sees others' bids")
        st[L.S_SEES] = seen
        if v["oracle_view"] == "three_bids":
            if bin(seen).count("1") > 1 or (seen and (after_a4 or pos >= 3)):
                raise ValueError("oracle_view = three_bids: one seat's bid at each of the "
                                 "first 3 auctions (A4)")
            other = next(p for p in inside if p != o_seat)
            for i in range(3):                       # views of auctions not opened: hidden
                st[L.S_VIEWS + i] = other
            if seen:
                st[L.S_VIEWS + pos] = seen.bit_length() - 1
        elif seen and bin(seen).count("1") != min(3, len(inside) - 1):
            raise ValueError("oracle_view = three_players: the bids of 3 other players (A4)")
    if k == kit.BID:
        st[L.S_PHASE] = L.PH_BID
        if seat == o_seat and seen and ch not in bid_rows:
            raise ValueError("the Oracle sees bids: give them as bids={character: row}")
        if seat != o_seat and seen and ch in bid_rows:
            raise ValueError("only the Oracle-advantage seat sees bids before they are "
                             "revealed (A0, A4)")

    # ---- A3, A5: events
    ev = kit.event_id(event) if event is not None else -1
    ev_now = kit.event_id(round_event) if round_event is not None else ev
    if k == kit.STOP and ev_now != ev:
        raise ValueError("a good event is stopped in the round it is drawn (A5.1)")
    st[L.S_EVENT_NOW] = ev_now
    pend = []
    for x in pending:
        name, p = (x, 0) if isinstance(x, str) else x
        e = kit.event_id(name)
        if e >= L.NHARM:
            raise ValueError(f"{name} is a good event or the blank: never pending (A5.1, A6)")
        pend.append((e, int(p)))
    st[L.S_NPEND] = len(pend)
    for i, (e, p) in enumerate(pend):
        st[L.S_PEND_EV + i] = e
        st[L.S_PEND_P + i] = p
    if v["event_draw"] == "deck":
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
        st[L.S_BRIG_NEXT] |= 1 << _seat_or_none(p, n, "brigand")
    for p in arthas_used:
        st[L.S_ARTHAS_USED] |= 1 << _seat_or_none(p, n, "arthas_used")
    x = len(inside)
    if k in (kit.STOP, kit.SPEND, kit.PLEDGE):
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
            want = int(event_cost(cfg, L.EVENT_BASE[ev], x, p))
            cost = want if cost is None else int(cost)
            if cost not in {int(event_cost(cfg, L.EVENT_BASE[ev], x, q)) for e, q in pend
                            if e == ev}:
                raise ValueError(f"cost {cost}: the {kit.EVENTS[ev]} pending costs "
                                 f"{want} (A5.2: base + X + 3p)")
        if ch >= 0 and (st[L.S_SPENT] >> ch) & 1:
            raise ValueError(f"the {kit.CHARACTERS[ch]} is already spent this round")

    # ---- the public history, the decision header, then the engine's board
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
    top = 0
    o_target = _seat_or_none(target, n, "target")
    o_prop = _seat_or_none(proposer, n, "proposer")
    if ostracism:
        if o_target < 0 or o_prop < 0 or o_target == o_prop:
            raise ValueError("an ostracism names its proposer= and target= (A8)")
        if k != kit.NAME_MC and seat in (o_target, ) + ((o_prop,) if k == kit.SUPPORT else ()):
            raise ValueError("the target does not take part; the proposer supports it (A8)")
        if k == kit.NAME_MC and (seat != o_target or mc != seat):
            raise ValueError("name_mc: the exiled target was the MC (mc=seat, target=seat, "
                             "A8)")
        st[L.S_PHASE] = {kit.SUPPORT: L.PH_SUPPORT, kit.OST_PLEDGE: L.PH_OSTP}.get(k, L.PH_NONE)
        obs[L.O_TARGET] = o_target
        obs[L.O_PROPOSER] = o_prop
        if k != kit.NAME_MC:
            obs[L.O_NEED_SUP] = (2 * x + 2) // 3                 # ceil(2/3 X), A8
            obs[L.O_NEED_GOLD] = (sum(golds) + 3) // 4           # ceil(G / 4), A8
    elif target is not None or proposer is not None:
        raise ValueError("proposer= and target= belong to an ostracism (A8)")
    if k == kit.PLEDGE:
        st[L.S_PHASE] = L.PH_PLEDGE
    if k == kit.VOTE:
        st[L.S_PHASE] = L.PH_VOTE
    obs[L.O_KIND] = k
    obs[L.O_SEAT] = seat
    if k in kit.AMOUNT_KINDS:
        top = golds[seat]
        obs[L.O_MAX] = top
    obs[L.O_CHAR] = ch if k in (kit.BID, kit.NIMOS, kit.STOP, kit.SPEND, kit.TARGET,
                                kit.BUY) or (k == kit.TIE and tie == "auction") else -1
    obs[L.O_POS] = pos if k in (kit.BID, kit.NIMOS, kit.TARGET, kit.BUY) or (
        k == kit.TIE and tie == "auction") else -1
    obs[L.O_EVENT] = ev if k in (kit.STOP, kit.SPEND, kit.PLEDGE) else -1
    obs[L.O_COST] = cost if k in (kit.SPEND, kit.PLEDGE) else 0
    if k == kit.TIE:
        if tie not in TIE_WHAT:
            raise ValueError("a tie says what it is about: tie='auction', 'honours' or "
                             "'final' (A4, A9, A10)")
        obs[L.O_TIE_WHAT] = TIE_WHAT[tie]
    board = np.zeros(L.OBS_LEN, np.int64)
    observe_full(st, cfg, obs, board, E.EVENT_BASE_ARR)

    # ---- the legal options, in the engine's order
    opts = np.zeros(L.MAXOPT, np.int64)
    others = [q for q in inside if q != seat]
    if k in kit.AMOUNT_KINDS:
        m = top + 1
    elif k == kit.NIMOS:
        if pers[seat] != L.PE_NIMOS:
            raise ValueError("only Nimos adjusts a bid (A11): personalities=[…'nimos'…]")
        b = bid_rows.get(ch, [0] * n)[seat]
        lst = [0] + ([-1] if b >= 1 else []) + ([1] if b + 1 <= golds[seat] else [])
        m = len(lst)
        opts[:m] = lst
    elif k == kit.TIE:
        if seat != mc:
            raise ValueError("the MC breaks a tie (A4, A9, A10): seat=mc")
        ts = sorted(_seat_or_none(p, n, "tied") for p in (tied or ()))
        if len(ts) < 2 or any(p in outs for p in ts):
            raise ValueError("tied= names two or more seats in the game")
        best = max(rens[p] for p in ts)
        if tie != "final":
            ts = [p for p in ts if rens[p] == best]    # A4, A9: most renown first
        m = len(ts)
        opts[:m] = ts
    elif k in (kit.STOP, kit.SPEND, kit.SUPPORT):
        opts[:2] = (kit.NO, kit.YES)
        m = 2
    elif k == kit.TARGET:
        if ch not in TARGETED:
            raise ValueError(f"the {kit.CHARACTERS[ch]} names no target (A7)")
        lst = others
        if ch == L.CH_ASSASSIN:
            lst = [kit.DECLINE] + others if golds[seat] >= 25 else []
        if not lst:
            raise ValueError("no target to choose: the Assassin needs 25 gold (A7)")
        m = len(lst)
        opts[:m] = lst
    elif k == kit.BUY:
        if ch not in kit.PURCHASES:
            raise ValueError("only the Builder and the Town Crier buy renown (A7)")
        lst = [0] + [p for p in (3, 4, 6) if golds[seat] >= p]
        m = len(lst)
        opts[:m] = lst
    elif k == kit.PROPOSE:
        m = 1 + len(others)
        opts[:m] = [kit.DECLINE] + others
    elif k in (kit.VOTE, kit.NAME_MC):
        m = len(others)
        opts[:m] = others
    return Position(config, k, seat, cfg, st, board, opts, int(m))
