"""Positions from card notation: one decision of one seat, to unit-test a bot's choice.

:func:`position` sets a DĒMOS table by hand — the deciding seat's hand, the face-up
cards, what the others discarded and took this round, figures, points, vetoes — and
returns a :class:`Position`: the seat's observation, exactly as the engine's
:func:`demos_sim.demos.observe.observe` writes it (RULES.md M2), and the legal options of
the decision in the engine's order. ``Position.decide(policy)`` asks a registered
policy (or any policy function) and returns its :class:`Choice`, which prints in words::

    >>> from demos_sim.demos import position
    >>> pos = position(hand="7S 8S 9S 1H 3D", table="9C", kind="secret")
    >>> print(pos.decide("greedy"))
    discard 1H, take 9C

:func:`setup_state` (figures, points, vetoes … in record notation) is shared with the
tests' hand-built tables (tests/harness.py).
"""

from __future__ import annotations

import numpy as np

from demos_sim.cards import SUITS, card_code, card_id, codes_of, figure_code, figure_id
from demos_sim.demos import engine as E
from demos_sim.demos import kit
from demos_sim.demos import layout as L
from demos_sim.demos.observe import observe
from demos_sim.demos.rules import MODE_PLAYERS, DemosConfig
from demos_sim.positions_common import Choice, codes  # noqa: F401  (Choice re-exported)
from demos_sim.positions_common import Position as PositionBase

MEDIA_IDS = (L.MEDIA0, L.MEDIA0 + 1)


# ------------------------------------------------------------------ notation
def _mask(cards, rules: str = "full") -> int:
    m = 0
    for code in codes(cards):
        c = card_id(code)
        if rules == "simplified" and c % 10 == 0:
            raise ValueError(f"{code}: the simplified rules have no aces (D1)")
        if (m >> c) & 1:
            raise ValueError(f"card {code} is given twice")
        m |= 1 << c
    return m


def _suit(s) -> int:
    if isinstance(s, str) and s in SUITS:
        return SUITS.index(s)
    if isinstance(s, str) and s in kit.SUIT_SYMBOLS:
        return kit.SUIT_SYMBOLS.index(s)
    raise ValueError(f"not a suit: {s!r} (S, H, D or C)")


def setup_state(st: np.ndarray, config: DemosConfig, hands=None, figures=None, faceup=None,
                covers=None, cum=None, pile=None, vetoes=None, fav=None,
                announced=None) -> None:
    """Write a hand-made table into the state vector ``st`` (after ``init_state``).

    ``hands`` {seat: cards}; ``figures`` {seat: figure codes in acquisition order; the
    two Media are both "M", ids 12 then 13 in the order written}; ``faceup`` {seat:
    codes of face-up figures}; ``covers`` {figure code: suit} (a Media on it, D6.2: face
    up); ``cum`` cumulative points by seat; ``pile`` the Power pile still to draw, top
    first; ``vetoes`` {side id: vetoes left}; ``fav`` {seat: suit} (X1); ``announced``
    {side label: "SHD", the suits of E, L and J} (X2).
    """
    n = config.players
    for p, cards in (hands or {}).items():
        st[L.S_HAND + p] = _mask(cards)
    media = iter(MEDIA_IDS)
    for p, written in (figures or {}).items():
        written = codes(written)
        for i, code in enumerate(written):
            st[L.S_FIG + p * L.NFIG + i] = next(media) if code == "M" else figure_id(code)
        st[L.S_NFIG + p] = len(written)
    for p, written in (faceup or {}).items():
        for code in codes(written):
            st[L.S_FIGUP + p] |= 1 << figure_id(code)
    for code, colour in (covers or {}).items():
        f = figure_id(code)
        st[L.S_COVER + f] = _suit(colour)
        for p in range(n):
            for i in range(st[L.S_NFIG + p]):
                if st[L.S_FIG + p * L.NFIG + i] == f:
                    st[L.S_FIGUP + p] |= 1 << f
    for p, v in enumerate(cum or []):
        st[L.S_CUM + p] = v
    if pile is not None:
        pile = codes(pile)
        for i, code in enumerate(pile):
            st[L.S_PILE + i] = figure_id(code) if code != "M" else next(media)
        st[L.S_PILE_LEN] = len(pile)
        st[L.S_PILE_POS] = 0
    for side, v in (vetoes or {}).items():
        st[L.S_VETO + side] = v
    for p, s in (fav or {}).items():
        st[L.S_FAV + p] = _suit(s)
    labels = config.side_labels()
    for label, suits in (announced or {}).items():    # X2: {"A": "SHD", "0": "CCC"}
        e, l, j = (_suit(c) for c in suits)
        st[L.S_ANN + labels.index(str(label))] = (e * 4 + l) * 4 + j


# ------------------------------------------------------------------ positions
class Position(PositionBase):
    """One decision of one seat: ``obs`` (OBS_LEN int64), ``opts[:n_opts]`` (the engine's
    option buffer, MAXOPT long), the configuration vector ``cfg`` (a
    :class:`~demos_sim.demos.rules.DemosConfig` in ``config``) and the full state ``st``
    it was observed from. A reference policy (``omniscient``) decides with the truth
    block filled, as in a game (``C_TRUTH``)."""
    kit = kit
    registry = "demos_sim.demos.policies"
    truth = (observe, L.C_TRUTH)

    def __str__(self) -> str:
        c = self.config
        ob = self.obs
        lines = [f"{kit.KIND_RULES[self.kind]} of seat {self.seat} — {c.rules} rules, "
                 f"{c.mode}, {c.players} players, round {int(ob[L.O_ROUND])} "
                 f"(dealer {int(ob[L.O_DEALER])})"]
        if ob[L.O_HAND]:
            lines.append(f"  hand   {' '.join(codes_of(int(ob[L.O_HAND])))}")
        if self.kind in (kit.PUBLIC, kit.SECRET, kit.UNANIMOUS, kit.VETO):
            lines.append(f"  table  {' '.join(codes_of(int(ob[L.O_TABLE]))) or '(empty)'}")
        figs = []
        for p in range(c.players):
            nf = int(ob[L.O_NFIG + p])
            if nf:
                row = ob[L.O_FIGS + p * L.NFIG:L.O_FIGS + p * L.NFIG + nf]
                figs.append(f"seat {p}: " + " ".join(figure_code(int(f)) if f >= 0 else "?"
                                                      for f in row))
        if figs:
            lines.append("  figures  " + " | ".join(figs) + "   (? = face down)")
        if self.kind == kit.ALLOCATE:
            lines.append(f"  figure to allocate  {figure_code(int(ob[L.O_ARG0]))}")
        if self.kind == kit.COLOUR:
            f = int(ob[L.O_ARG1])
            lines.append(f"  Media on seat {int(ob[L.O_ARG0])}'s "
                         f"{figure_code(f) if f >= 0 else 'face-down figure'}")
        lines.append("  options:")
        lines += ["  " + s for s in kit.describe_options(self.kind, self.opts, self.n_opts,
                                                          self.obs)]
        return "\n".join(lines)


def _action(x):
    """A secret/unanimous action: "pass", "5D" (drew blind) or ("5D", "4H"|"deck")."""
    if isinstance(x, str):
        if x == "pass":
            return None, None
        return card_id(x), kit.DECK
    d, t = x
    return card_id(d), (kit.DECK if t in ("deck", "blind") else card_id(t))


def position(hand=None, kind="public", seat: int = 0, *, players: int | None = None,
             rules: str = "full", mode: str = "individual", seating: str | None = None,
             variants: dict | None = None, config: DemosConfig | None = None,
             round: int = 0, dealer: int | None = None, table=None, public=None,
             secret=None, unanimous=None, hands=None, figures=None, faceup=None,
             covers=None, points=None, vetoes=None, favourite=None, announced=None,
             pile_left: int | None = None, figure: str | None = None,
             target=None) -> Position:
    """One decision of seat ``seat``, from card notation.

    Parameters
    ----------
    hand : the deciding seat's cards, ``"7S 8S 9S 1H 3D"`` (5 in every discard turn;
        may be left out for the decisions before the game).
    kind : ``"public"``, ``"secret"``, ``"veto"``, ``"unanimous"``, ``"allocate"``,
        ``"media"``, ``"colour"``, ``"favourite"`` or ``"announce"`` (kit.KIND_NAMES).
    seat : the deciding seat.
    players, rules, mode, seating, variants : the game (a DemosConfig), or ``config``.
    round, dealer : the round (from 0) and its dealer (default ``round % players``, D2.1).
    table : the face-up cards that can be taken. Without ``public`` they are taken to be
        the public discards of the seats in action order (D3.2).
    public : {seat: card} public discards this round (D3.2).
    secret : {seat: "pass" | "5D" (then drew blind) | ("5D", "4H") (then took 4H)}
        secret discards this round (D3.3); face down until the unanimous turn (D3.4.2).
    unanimous : {seat: ("2S", "deck" | card)} unanimous discards made (D3.4.3).
    hands : {seat: cards} other seats' hands (teammates under ``team_talk = hands``).
    figures : {seat: "EH LS M"} figures in acquisition order; faceup {seat: codes};
        covers {figure: suit} Media already played (D6.2).
    points : cumulative points by seat; vetoes {side id: left} (default: the setup's);
        favourite {seat: suit} (X1); announced {side label: "SHD"} (X2).
    pile_left : figures left in the Power pile (default: those nobody holds).
    figure : ``"allocate"``: the figure the team gives to one of its members (D9.4).
    target : ``"colour"``: (seat, slot) of the figure the Media covers (D6.2).
    """
    k = kit.kind_code(kind)
    config = _config(config, players, rules, mode, seating, variants)
    n = config.players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not at a {n}-player table")
    _check_kind(k, config)
    cfg = config.to_array()
    st = np.zeros(L.ST_LEN, np.int64)
    obs2 = np.zeros((L.MAXP, L.OBS_LEN), np.int64)
    E.init_state(cfg, np.uint64(0), st, obs2, np.zeros(L.NSTREAM, np.uint64),
                 np.zeros(L.RES_LEN, np.int64))
    st[L.S_ROUND] = round
    st[L.S_DEALER] = round % n if dealer is None else dealer
    order = [(st[L.S_DEALER] + 1 + j) % n for j in range(n)]           # action order
    own = _table_setup(st, config, k, seat, hand, hands, table, public, figures, faceup,
                       covers, points, vetoes, favourite, announced)
    tab, seen, draws, up = _discards(st, k, seat, order, table, public, secret, unanimous)
    _people_deck(st, config, tab, seen, draws, up)
    _power_pile(st, config, k, figure, pile_left)
    if k in (kit.MEDIA, kit.COLOUR):
        _scandal(st, cfg, n, seat)
    opts = np.zeros(L.MAXOPT, np.int64)
    m = _options(st, cfg, k, seat, n, own, tab, target, opts)
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_GVER] = -1
    obs[L.O_FVER:L.O_FVER + L.MAXP] = -1
    observe(st, cfg, seat, k, obs)
    return Position(config, k, seat, cfg, st, obs, opts, m)


# ------------------------------------------------------------------ the steps of position
def _config(config, players, rules, mode, seating, variants) -> DemosConfig:
    """The game: ``config``, or one built from its parts."""
    if config is None:
        n = players if players is not None else MODE_PLAYERS.get(mode, 4)
        return DemosConfig(rules, mode, n, seating=seating, variants=variants or {})
    if players is not None or variants is not None or seating is not None:
        raise ValueError("give either config= or players/rules/mode/seating/variants")
    return config


def _check_kind(k: int, config: DemosConfig) -> None:
    """A decision the game asks under its rules and variants."""
    v = config.variants
    if k in (kit.VETO, kit.UNANIMOUS, kit.MEDIA, kit.COLOUR) and config.rules != "full":
        raise ValueError(f"the simplified rules have no {kit.KIND_RULES[k]} (D8)")
    if k == kit.FAVOURITE and v["favourite_suit_bonus"] <= 0:
        raise ValueError("favourite suits are announced only when favourite_suit_bonus > 0 "
                         "(X1): pass variants={'favourite_suit_bonus': 10}")
    if k == kit.ANNOUNCE and not v["announced_trio"]:
        raise ValueError("colourings are announced only under announced_trio (X2): pass "
                         "variants={'announced_trio': True}")
    if k == kit.ALLOCATE and config.mode == "individual":
        raise ValueError("figures are allocated by teams only (D9.4): give a team mode")


def _table_setup(st, config, k, seat, hand, hands, table, public, figures, faceup, covers,
                 points, vetoes, favourite, announced) -> int:
    """Hands, figures, points, vetoes … into ``st`` (:func:`setup_state`); the deciding
    seat's hand."""
    all_hands = dict(hands or {})
    if hand is not None:
        all_hands[seat] = hand
    for cards in [*all_hands.values(), table, *(public or {}).values()]:
        _mask(cards, config.rules)                    # D1: no aces in the simplified rules
    labels = config.side_labels()
    veto_by_side = None
    if vetoes is not None:
        veto_by_side = {(labels.index(str(s)) if isinstance(s, str) else s): x
                        for s, x in vetoes.items()}
    setup_state(st, config, hands=all_hands, figures=figures, faceup=faceup, covers=covers,
                cum=points, vetoes=veto_by_side, fav=favourite, announced=announced)
    own = int(st[L.S_HAND + seat])
    if k in (kit.PUBLIC, kit.SECRET, kit.UNANIMOUS) and bin(own).count("1") != 5:
        raise ValueError(f"the hand holds {bin(own).count('1')} cards; a discard turn "
                         "starts with 5 (D3.5)")
    return own


def _take(p: int, t: int, tab: int) -> tuple[int, int]:
    """Seat ``p`` takes ``t`` (a table card, or ``kit.DECK``): the table left and the
    cards drawn from the People deck (D3.3, D3.4.3)."""
    if t == kit.DECK:
        return tab, 1
    if not (tab >> t) & 1:
        raise ValueError(f"seat {p} takes {card_code(t)}, which is not on the table")
    return tab & ~(1 << t), 0


def _public_discards(k, seat, order, table, public, secret, up) -> dict:
    """This round's public discards (D3.2): ``public``, or ``table`` read as the public
    discards of the seats in action order."""
    public = dict(public or {})
    if table is not None and not public:
        turned = {d for d, _ in secret.values() if d is not None} if up else set()
        cards = [c for c in codes(table) if card_id(c) not in turned]
        seats = order[:order.index(seat)] if k == kit.PUBLIC else order
        if len(cards) > len(seats):
            raise ValueError(f"{len(cards)} face-up cards but only {len(seats)} public "
                             "discards so far; say who discarded what with public= and "
                             "secret=")
        public = dict(zip(seats, cards))
    return public


def _discards(st, k, seat, order, table, public, secret, unanimous):
    """This round's discards and takes into ``st`` (D3.2–D3.4): the table, the cards
    seen face up, the cards drawn, and whether the secret discards are turned up."""
    secret = {p: _action(x) for p, x in (secret or {}).items()}
    unanimous = {p: _action(x) for p, x in (unanimous or {}).items()}
    up = k == kit.UNANIMOUS or bool(unanimous)            # D3.4.2 secret discards turned up
    public = _public_discards(k, seat, order, table, public, secret, up)
    if k == kit.PUBLIC and (public.get(seat) is not None or secret or unanimous):
        raise ValueError("in the public turn (D3.2) the seat has not discarded yet and "
                         "nobody has made a secret or unanimous discard")
    if k == kit.SECRET and seat in secret:
        raise ValueError(f"seat {seat} has already made its secret discard")
    if k == kit.UNANIMOUS and seat in unanimous:
        raise ValueError(f"seat {seat} has already made its unanimous discard")
    draws = 0
    tab = 0
    seen = 0
    for p in order:
        c = public.get(p)
        if c is not None:
            d = card_id(c)
            st[L.S_PUB + p] = d
            tab |= 1 << d
            seen |= 1 << d
            draws += 1
    for p in order:
        if p not in secret:
            continue
        d, t = secret[p]
        if d is None:
            st[L.S_SEC_TAKE + p] = -1                      # a pass (D3.3)
            continue
        st[L.S_SEC + p] = d
        st[L.S_SEC_TAKE + p] = t
        tab, drew = _take(p, t, tab)
        draws += drew
    if up:
        for p in order:
            if st[L.S_SEC_TAKE + p] >= 0:
                tab |= 1 << int(st[L.S_SEC + p])
                seen |= 1 << int(st[L.S_SEC + p])
        st[L.S_SEC_UP] = 1
    for p in order:
        if p not in unanimous:
            continue
        d, t = unanimous[p]
        st[L.S_UNAN + p] = d
        st[L.S_UNAN_TAKE + p] = t
        tab, drew = _take(p, t, tab)
        draws += drew
    if table is not None and public and _mask(table) != tab:
        raise ValueError(f"table={' '.join(codes(table))} but the discards given leave "
                         f"{' '.join(codes_of(tab)) or 'nothing'} face up")
    st[L.S_TABLE] = tab
    st[L.S_FACEUP] = seen
    return tab, seen, draws, up


def _people_deck(st, config, tab, seen, draws, up) -> None:
    """Every card in one place, then the People deck (D2.3): every card nowhere else,
    its size saying how far the round is."""
    n = config.players
    full = config.rules == "full"
    in_hands = 0
    for p in range(n):
        h = int(st[L.S_HAND + p])
        if in_hands & h:
            raise ValueError(f"{' '.join(codes_of(in_hands & h))} in two hands")
        in_hands |= h
    down = 0                       # face down and out of reach: secret (before D3.4.2)
    for p in range(n):             # and unanimous discards
        for slot, hidden in ((L.S_SEC, not up), (L.S_UNAN, True)):
            if st[slot + p] >= 0 and hidden:
                down |= 1 << int(st[slot + p])
    for a, b, what in ((in_hands, tab, "in a hand and on the table"),
                       (in_hands | tab, down, "face down and elsewhere too")):
        if a & b:
            raise ValueError(f"{' '.join(codes_of(a & b))}: {what}")
    used = in_hands | seen | down
    if any(bin(int(st[L.S_HAND + p])).count("1") for p in range(n)):
        deck = [c for c in range(40) if not (used >> c) & 1 and (full or c % 10 != 0)]
        size = 40 if full else 36
        left = size - 5 * n - draws
        if left < 0:
            raise ValueError("more cards drawn than the People deck holds (D2.3)")
        for i, c in enumerate(deck):
            st[L.S_DECK + i] = c
        st[L.S_DECK_LEN] = len(deck)
        st[L.S_DECK_POS] = max(0, len(deck) - left)


def _power_pile(st, config, k, figure, pile_left) -> None:
    """The Power pile (D2.1): what nobody holds, ``pile_left`` of it still to draw; an
    allocation's figure (D9.4) in ``S_ARG0``."""
    n = config.players
    npile = L.NFIG if config.rules == "full" else L.MEDIA0
    held = [int(st[L.S_FIG + p * L.NFIG + i]) for p in range(n)
            for i in range(int(st[L.S_NFIG + p]))]
    out = set(held)
    if k == kit.ALLOCATE:
        if figure is None:
            raise ValueError("an allocation needs figure= (the figure being given, D9.4)")
        f = figure_id(figure) if figure != "M" else next(x for x in MEDIA_IDS if x not in out)
        if f in out:
            raise ValueError(f"figure {figure} is already held")
        out.add(f)
        st[L.S_ARG0] = f
    rest = [f for f in range(npile) if f not in out]
    left = len(rest) if pile_left is None else pile_left
    if not 0 <= left <= len(rest):
        raise ValueError(f"pile_left={pile_left}: the Power pile can hold 0–{len(rest)} "
                         "figures here")
    pile = sorted(out) + rest
    for i, f in enumerate(pile[:npile]):
        st[L.S_PILE + i] = f
    st[L.S_PILE_LEN] = npile
    st[L.S_PILE_POS] = npile - left


def _scandal(st, cfg, n, seat) -> None:
    """The Scandal phase (D6.1, D6.2): every Media face up, pairs cancelled."""
    for p in range(n):
        m = 0
        for i in range(int(st[L.S_NFIG + p])):
            f = int(st[L.S_FIG + p * L.NFIG + i])
            if f >= L.MEDIA0:
                m += 1
                st[L.S_FIGUP + p] |= 1 << f
        st[L.S_MEDIA_OWNED + p] = 0 if (m == 2 and p != cfg[L.C_INDEP]) else m
    if st[L.S_MEDIA_OWNED + seat] == 0:
        raise ValueError(f"seat {seat} holds no Media to play (D6.1, D6.2)")


def _discard_options(cfg, k, own, tab, opts) -> int:
    """A discard turn's options (D3.2–D3.4): a hand card, and in the secret and unanimous
    turns what it takes (the deck, or a table card), after a pass where it is allowed."""
    m = 0
    if k == kit.PUBLIC:
        for c in range(40):
            if (own >> c) & 1:
                opts[m] = c
                m += 1
        return m
    if k == kit.SECRET and cfg[L.C_SECRET_OPT]:
        opts[m] = kit.PASS
        m += 1
    for d in range(40):
        if (own >> d) & 1:
            opts[m] = d * 64 + kit.DECK
            m += 1
            for t in range(40):
                if (tab >> t) & 1:
                    opts[m] = d * 64 + t
                    m += 1
    return m


def _media_options(st, cfg, seat, n, opts) -> int:
    """The Media's targets (D6.2): a figure of another seat not covered yet (face down
    only, unless media_targets_revealed), after a pass where the Media is optional."""
    m = 0
    if cfg[L.C_MEDIA_OPT]:
        opts[m] = kit.PASS
        m += 1
    m0 = m
    for q in range(n):
        if q == seat:
            continue
        for i in range(int(st[L.S_NFIG + q])):
            f = int(st[L.S_FIG + q * L.NFIG + i])
            if f >= L.MEDIA0 or st[L.S_COVER + f] >= 0:
                continue
            if (st[L.S_FIGUP + q] >> f) & 1 and cfg[L.C_MEDIA_REVEALED] == 0:
                continue
            opts[m] = q * 16 + i
            m += 1
    if m == m0:
        raise ValueError("no legal Media target: the Media has no effect and nobody "
                         "is asked (D6.2)")
    return m


def _options(st, cfg, k, seat, n, own, tab, target, opts) -> int:
    """The legal options into ``opts``, in the engine's order; their number."""
    if k in (kit.PUBLIC, kit.SECRET, kit.UNANIMOUS):
        return _discard_options(cfg, k, own, tab, opts)
    if k == kit.VETO:
        side = cfg[L.C_SIDE + seat]
        if st[L.S_VETO + side] <= 0:
            raise ValueError(f"seat {seat}'s side has no veto left: it is not asked "
                             "(D3.4.1)")
        opts[0], opts[1] = kit.VETO_NO, kit.VETO_YES
        return 2
    if k == kit.ALLOCATE:
        m = 0
        for q in range(n):
            if cfg[L.C_SIDE + q] == cfg[L.C_SIDE + seat]:
                opts[m] = q
                m += 1
        return m
    if k == kit.MEDIA:
        return _media_options(st, cfg, seat, n, opts)
    if k == kit.COLOUR:
        if target is None:
            raise ValueError("a Media colour needs target=(seat, slot) (D6.2)")
        q, i = target
        if not 0 <= i < st[L.S_NFIG + q]:
            raise ValueError(f"seat {q} has no figure #{i}")
        st[L.S_ARG0] = q
        st[L.S_ARG1] = i
        opts[:4] = range(4)
        return 4
    if k == kit.FAVOURITE:
        opts[:4] = range(4)
        return 4
    opts[:64] = range(64)
    return 64
