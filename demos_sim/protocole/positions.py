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

from dataclasses import dataclass

import numpy as np

from demos_sim.protocole import engine as E
from demos_sim.protocole import kit
from demos_sim.protocole import layout as L
from demos_sim.protocole.cards import COLOURS, SYMBOLS, card_id, codes_of
from demos_sim.protocole.observe import observe
from demos_sim.protocole.rules import ProtocoleConfig
from demos_sim.registry import N_PARAMS, Policy

ALL = L.FULL


def _codes(x) -> list[str]:
    """``"KT RS"``, ``"KT,RS"`` or ``["KT", "RS"]`` -> ``["KT", "RS"]``."""
    if x is None:
        return []
    if isinstance(x, str):
        return x.replace(",", " ").split()
    return [str(c) for c in x]


def _mask(cards, what: str) -> int:
    m = 0
    for code in _codes(cards):
        c = card_id(code)
        if (m >> c) & 1:
            raise ValueError(f"{what}: card {code} is given twice")
        m |= 1 << c
    return m


def _words(mask: int) -> str:
    return " ".join(codes_of(int(mask))) or "(none)"


def _removed(removed, players: int) -> int:
    """P1.2: the attributes removed at setup (``"P"``, ``"P O"``) as a card mask."""
    letters = _codes(removed)
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
@dataclass(frozen=True)
class Choice:
    """A policy's answer: the option index, the option, and the option in words."""
    index: int
    option: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass
class Position:
    """One turn of one seat: ``obs`` (OBS_LEN int64), ``opts[:n_opts]`` (the engine's
    option buffer), the configuration vector ``cfg`` and the full state ``st``."""
    config: ProtocoleConfig
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
        return [int(o) for o in self.opts[:self.n_opts]]

    def texts(self) -> list[str]:
        """Every option in words, in the engine's order (the index a policy returns)."""
        return [kit.describe_option(self.kind, o) for o in self.options()]

    def index_of(self, text: str) -> int:
        """The index of the option written ``text`` (as :meth:`texts` writes it)."""
        texts = self.texts()
        if text not in texts:
            raise ValueError(f"no option {text!r} here; the options are: {texts}")
        return texts.index(text)

    def observation(self, reference: bool = False) -> np.ndarray:
        """The seat's observation; ``reference``: as a reference policy gets it, with the
        truth block (every hand and Foyer) filled, as in a game (``C_TRUTH``)."""
        if not reference:
            return self.obs.copy()
        cfg = self.cfg.copy()
        cfg[L.C_TRUTH] = 1 << self.seat
        obs = self.obs.copy()
        observe(self.st, cfg, self.seat, self.kind, obs)
        return obs

    def decide(self, policy, seed: int = 0) -> Choice:
        """Ask ``policy`` — a registered name (``"cautious"``, ``"ismcts@64"``), a
        :class:`~demos_sim.registry.Policy` or a policy function (parameters all 0) — to
        decide here with random stream ``seed``. A reference policy (``omniscient``) gets
        the truth block, as in a game. As in the engine, a turn with one legal option is
        played without asking. Raises ValueError, in words, when the policy answers an
        index outside the options."""
        fn, params, name, reference = _policy(policy)
        if self.n_opts == 1:
            return self._choice(0)
        cfg = self.cfg.copy()
        if reference:
            cfg[L.C_TRUTH] = 1 << self.seat
        rng = np.array([seed], np.uint64)
        idx = int(fn(cfg, self.observation(reference), self.opts.copy(),
                     np.int64(self.n_opts), params.copy(), rng))
        if not 0 <= idx < self.n_opts:
            raise ValueError(f"{name} answered option index {idx} to a "
                             f"{kit.KIND_RULES[self.kind]} decision with {self.n_opts} "
                             f"options (indices 0–{self.n_opts - 1})\n{self}")
        return self._choice(idx)

    def _choice(self, idx: int) -> Choice:
        o = int(self.opts[idx])
        return Choice(idx, o, kit.describe_option(self.kind, o))

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


def _policy(policy):
    if isinstance(policy, str):
        from demos_sim.protocole.policies import get   # the registry loads the built-ins
        policy = get(policy)
    if isinstance(policy, Policy):
        return policy.fn, policy.params, policy.name, bool(policy.reference)
    if callable(policy):
        return (policy, np.zeros(N_PARAMS, np.float64), getattr(policy, "__name__", "policy"),
                False)
    raise TypeError(f"not a policy: {policy!r}")


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

    # ---- public cards and the deal (P1.2, P1.3, P4.3)
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
    outs = {int(p) for p in (out or ())}
    alive = [p for p in range(n) if p not in outs]
    if seat in outs or initiative in outs:
        raise ValueError("the deciding seat and the Initiative holder are in the game (P4.2, "
                         "P4.3)")
    if not 0 <= initiative < n:
        raise ValueError(f"initiative {initiative} is not a seat at a {n}-player table")
    if round == 0:
        if outs:
            raise ValueError("nobody is out in round 0: eliminations happen at controls (P4.2)")
        if dealt is not None and _mask(dealt, "dealt") != ALL & ~rem:
            raise ValueError("round 0 deals every card not removed (P1.3)")
        deck = ALL & ~rem
        fs = config.foyer_start
    else:
        if dealt is None:
            raise ValueError("from round 1 on, give dealt= : the previous round's Norm, dealt "
                             "again (P4.3)")
        deck = _mask(dealt, "dealt")
        if deck & rem:
            raise ValueError(f"{_words(deck & rem)}: removed at setup, never dealt (P1.2)")
        if bin(deck).count("1") < 8:
            raise ValueError("a Norm of 7 cards or fewer ends the game: no new round (P4.3)")
        fs = 0
    na = len(alive)
    each, start = divmod(bin(deck).count("1") - fs * na, na)
    for what, m in (("the hand", own_h), ("the Selection", sel), ("the Norm", nrm)):
        if m & ~deck:
            raise ValueError(f"{_words(m & ~deck)}: in {what} but not dealt this round "
                             "(P1.3, P4.3)")
    h = bin(own_h).count("1")
    if h > each:
        raise ValueError(f"the hand holds {h} cards, more than the {each} dealt to each "
                         f"player this round (P1.3)")
    order = [p for j in range(n) for p in [(initiative + j) % n] if p not in outs]
    before = order[:order.index(seat)]
    sizes = {p: (h - 1 if p in before else h) for p in alive}
    if any(s < 0 for s in sizes.values()):
        raise ValueError(f"seats {before} played before seat {seat} this lap and would hold "
                         "fewer than 0 cards: give seat a hand of at least 1")
    turns = sum(each - s for s in sizes.values())
    laps = each - h
    if round == 0 and not fs <= bin(own_f).count("1") <= fs + laps:
        raise ValueError(f"in round 0 the Foyer holds the {fs} cards dealt into it (P1.3) "
                         f"and at most one more per turn played ({laps})")

    # ---- cards played face up this round (P2.1)
    plays = {p: _mask(c, f"played[{p}]") for p, c in _seat_cards(played, "played").items()}
    total_played = 0
    for p, m in plays.items():
        if p not in sizes:
            raise ValueError(f"played: seat {p} is not in the game")
        if m & ~(sel | nrm | gon) or m & ~deck:
            raise ValueError(f"played[{p}]: {_words(m & ~((sel | nrm | gon) & deck))} was not "
                             "played this round (a played card is in the Selection, the Norm "
                             "or gone, P2.1, P3.1)")
        if bin(m).count("1") > each - sizes[p]:
            raise ValueError(f"played[{p}]: {bin(m).count('1')} cards, but seat {p} has "
                             f"played {each - sizes[p]} turns this round")
        total_played += bin(m).count("1")
    if played is not None and bin(sel).count("1") != (start + total_played) % L.SEL_MAX:
        raise ValueError(f"a Selection of {bin(sel).count('1')} cards after {start} dealt into "
                         f"it and {total_played} played face up: a Norm selection takes every "
                         f"{L.SEL_MAX} (P2.2)")

    # ---- the hidden cards: other hands, other Foyers, eliminated Foyers (M2: not seen)
    hidden = ALL & ~seen
    st_hands = {seat: own_h}
    st_foyers = {seat: own_f}
    for p, cards in _seat_cards(hands, "hands").items():
        if p == seat or p not in sizes:
            raise ValueError(f"hands: give the deciding seat's hand as hand=, and only seats "
                             f"in the game (seat {p})")
        m = _mask(cards, f"hands[{p}]")
        if bin(m).count("1") != sizes[p]:
            raise ValueError(f"hands[{p}] holds {bin(m).count('1')} cards; seat {p} holds "
                             f"{sizes[p]} at this point of the round (P1.3, P2.1)")
        if m & ~(hidden & deck):
            raise ValueError(f"hands[{p}]: {_words(m & ~(hidden & deck))} cannot be in a "
                             "hand (shown elsewhere, or not dealt this round)")
        st_hands[p] = m
        hidden &= ~m
    sizes_f = {}
    for p, cards in _seat_cards(foyers, "foyers").items():
        if p == seat or p not in sizes:
            raise ValueError(f"foyers: give the deciding seat's Foyer as foyer=, and only "
                             f"seats in the game (seat {p})")
        if isinstance(cards, (int, np.integer)):
            sizes_f[p] = int(cards)
            continue
        m = _mask(cards, f"foyers[{p}]")
        if m & ~hidden:
            raise ValueError(f"foyers[{p}]: {_words(m & ~hidden)} is shown elsewhere")
        st_foyers[p] = m
        hidden &= ~m
    for p in order:                                 # the hands: cards dealt this round
        if p in st_hands:
            continue
        pool = [c for c in range(L.NCARD) if (hidden & deck) >> c & 1]
        if len(pool) < sizes[p]:
            raise ValueError(f"not enough unseen cards dealt this round for seat {p}'s hand "
                             f"of {sizes[p]}")
        st_hands[p] = sum(1 << c for c in pool[:sizes[p]])
        hidden &= ~st_hands[p]
    rest = [c for c in range(L.NCARD) if hidden >> c & 1]
    todo = [p for p in order[order.index(seat) + 1:] + order[:order.index(seat)]
            if p not in st_foyers and p not in sizes_f]
    if round == 0 and todo:
        # P1.3, P2.1: a Foyer holds its dealt cards plus one card per turn its player did
        # not play face up; every card face up this round (the Selection, the Norm, gone)
        # was played by someone, after the deal's remainder
        up_left = (bin(sel | nrm | gon).count("1") - start
                   - (fs + laps - bin(own_f).count("1")))
        for p in alive:
            if p != seat and p not in todo:
                f = sizes_f.get(p, bin(st_foyers.get(p, 0)).count("1"))
                up_left -= fs + each - sizes[p] - f
        for p in todo:
            turns_p = each - sizes[p]
            if p in plays:
                up = bin(plays[p]).count("1")
            else:
                up = max(0, min(turns_p, up_left))
            up_left -= up
            sizes_f[p] = fs + turns_p - up
        if up_left != 0:
            raise ValueError("the cards face up this round (the Selection, the Norm, gone) do "
                             "not match the turns played: every turn puts one card face up or "
                             "into a Foyer (P2.1)")
        todo = []
    for p in order:
        if p in sizes_f:
            if sizes_f[p] > len(rest):
                raise ValueError(f"foyers[{p}] = {sizes_f[p]}: only {len(rest)} unseen cards "
                                 "are left")
            st_foyers[p] = sum(1 << c for c in rest[:sizes_f[p]])
            rest = rest[sizes_f[p]:]
    dead = 0
    if outs:
        if todo:
            raise ValueError("with players out, the other Foyers' sizes are not implied: give "
                             f"foyers={{seat: number}} for seats {todo}")
        dead = sum(1 << c for c in rest)
    elif todo:
        share = {p: 0 for p in todo}
        for i in range(len(rest)):
            share[todo[i % len(todo)]] += 1
        for p in todo:
            st_foyers[p] = sum(1 << c for c in rest[:share[p]])
            rest = rest[share[p]:]
    elif rest:
        raise ValueError(f"{_words(sum(1 << c for c in rest))}: in no hand, Foyer, Selection or "
                         "Norm, and not gone (all 36 cards are somewhere, P1.1)")
    if round == 0:
        for p in alive:
            if bin(st_foyers.get(p, 0)).count("1") < fs:
                raise ValueError(f"seat {p}'s Foyer holds fewer than the {fs} cards dealt into "
                                 "it in round 0 (P1.3)")

    # ---- the state, then the engine's own observation and options
    pts = list(points or [0] * n)
    if len(pts) != n:
        raise ValueError(f"points: one number per seat ({n})")
    if config.mode == "coop" and any(pts):
        raise ValueError("all together keeps no points (P5.1)")
    if any(pts[p] for p in outs):
        raise ValueError("an eliminated player scores 0 (P4.2)")
    st[L.S_ROUND] = round
    st[L.S_INIT] = initiative
    st[L.S_ALIVE] = sum(1 << p for p in alive)
    st[L.S_SEL] = sel
    st[L.S_NORM] = nrm
    st[L.S_GONE] = gon
    st[L.S_DEAD] = dead
    st[L.S_REMOVED] = rem
    st[L.S_DECKSET] = deck
    st[L.S_TURN] = turns
    cards = [c for c in range(L.NCARD) if deck >> c & 1]
    st[L.S_DECK:L.S_DECK + len(cards)] = cards
    st[L.S_DECK_LEN] = len(cards)
    for p in range(n):
        st[L.S_HAND + p] = st_hands.get(p, 0)
        st[L.S_FOYER + p] = st_foyers.get(p, 0)
        st[L.S_POINTS + p] = pts[p]
        st[L.S_PLAYED + p] = plays.get(p, 0)
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
    opts = np.zeros(L.MAXOPT, np.int64)
    m = E.turn_options(st, seat, opts)
    obs = np.zeros(L.OBS_LEN, np.int64)
    observe(st, cfg, seat, k, obs)
    return Position(config, k, seat, cfg, st, obs, opts, int(m))
