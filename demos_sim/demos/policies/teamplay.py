"""Team play shared by ``greedy`` and ``heuristic``: figures, Media and vetoes of a side.

Everything is read from the deciding seat's observation (RULES.md M2). In a team
decision (veto, allocation, Media, colour) the observation shows the teammates' figures
(D9.2), so a side's trio and a Media's effect on a teammate are computed exactly here.

- :func:`harmony_of`, :func:`colour_sets`: D7.1–D7.2 harmony of a seat's known figures,
  a Media-covered figure fixing its type's colour (two covered of one type: no trio).
- :func:`side_harmony`: a side's harmony as D9.5 ``best_member`` counts it (the best
  member's own trio; ``team_trio = pooled`` is not modelled).
- :func:`covered_harmony`, :func:`mate_media_gain`: what a Media on a teammate's figure
  does (D6.2: the team names the figure, which must then be part of its owner's trio).
- **Allocation of a Media** (:func:`alloc_media`, D9.4 with D6.1 and D6.2): each member
  is scored by the value to the team of holding it — −100 when the member already holds
  a Media (D6.1: the two cancel out, and the team loses both actions; a Media action
  can be aimed at an opponent or, on a teammate, coloured to keep its trio, so one Media
  held is practically never worth less than none), plus 10 × the best gain of the side's harmony a Media
  from that member could bring to *another* member now (D6.2: a holder names another
  player, never itself), minus the member's own harmony (the member whose trio the team
  relies on is the one a teammate's Media can still complete). Ties: the first member
  in seat order.
- **Veto threshold shift** (:func:`veto_shift`, D3.4.1, D9.3, M2: every side's vetoes
  left are public, ``O_VETOES``): the threshold falls by ``spend`` × min(1, vetoes left /
  rounds left) — rounds left ≤ figures left in the Power pile (D4.5, D5.1) and
  ``max_rounds`` — so a side with vetoes left uses them as the game runs out (the 2v3
  team of two's second veto, D9.3); and it rises by ``free`` for every opponent side
  still to be asked this round (after this seat's side in action order) that holds a
  veto and has a member who passed the secret turn or took a face-up card in it (public
  actions, D3.3; the bots do either only with a combination in hand): that side is
  likely to cancel the turn itself, and this side keeps its veto.
"""


from demos_sim.bits import wrap
from demos_sim.demos import layout as L
from demos_sim.jit import kernel


@kernel
def harmony_of(cols_e, cols_l, cols_j):
    """D7.2 best harmony given the colour sets (4-bit masks) available for E, L and J."""
    if cols_e == 0 or cols_l == 0 or cols_j == 0:
        return 0
    best = 1
    for a in range(4):
        if not (cols_e >> a) & 1:
            continue
        for b in range(4):
            if not (cols_l >> b) & 1:
                continue
            for c in range(4):
                if not (cols_j >> c) & 1:
                    continue
                hh = 1 + (b != a) + (c != a and c != b)
                if hh > best:
                    best = hh
                    if best == 3:
                        return 3
    return best


@kernel
def colour_sets(obs, p, extra, skip_slot, forced_f, forced_c):
    """(E, L, J colour masks) of ``p``'s *known* figures plus figure ``extra`` (-1 none);
    slot ``skip_slot`` is left out; figure ``forced_f`` (-1 none) is Media-covered with
    colour ``forced_c``. A Media-covered figure fixes its type's colour (D7.1); two
    covered figures of one type leave no trio (an empty set)."""
    free0 = 0
    free1 = 0
    free2 = 0
    forc0 = -1
    forc1 = -1
    forc2 = -1
    nf = obs[L.O_NFIG + p]
    for i in range(nf + 1):
        if i == skip_slot:
            continue
        f = extra if i == nf else obs[L.O_FIGS + p * L.NFIG + i]
        if f < 0 or f >= L.MEDIA0:
            continue
        t = f // 4
        cov = forced_c if f == forced_f else obs[L.O_COVER + f]
        if cov >= 0:
            if t == 0:
                forc0 = 99 if forc0 >= 0 else cov
            elif t == 1:
                forc1 = 99 if forc1 >= 0 else cov
            else:
                forc2 = 99 if forc2 >= 0 else cov
        else:
            if t == 0:
                free0 |= 1 << (f % 4)
            elif t == 1:
                free1 |= 1 << (f % 4)
            else:
                free2 |= 1 << (f % 4)
    e = free0 if forc0 < 0 else (0 if forc0 == 99 else 1 << forc0)
    l = free1 if forc1 < 0 else (0 if forc1 == 99 else 1 << forc1)
    j = free2 if forc2 < 0 else (0 if forc2 == 99 else 1 << forc2)
    return e, l, j


@kernel
def member_harmony(obs, p):
    """D7.2 harmony of ``p``'s best trio among the figures this seat knows."""
    e, l, j = colour_sets(obs, p, -1, -1, -1, -1)
    return harmony_of(e, l, j)


@kernel
def side_harmony(obs, side):
    """D9.5 ``best_member``: the best known trio among the members of ``side``."""
    best = 0
    for p in range(obs[L.O_N]):
        if obs[L.O_SIDE + p] == side:
            h = member_harmony(obs, p)
            if h > best:
                best = h
    return best


@kernel
def holds_media(obs, p):
    """Does ``p`` hold a Media among the figures this seat knows?"""
    for i in range(obs[L.O_NFIG + p]):
        if obs[L.O_FIGS + p * L.NFIG + i] >= L.MEDIA0:
            return True
    return False


@kernel
def covered_harmony(obs, q, f):
    """(harmony, colour): ``q``'s best harmony when a Media covers its figure ``f`` with
    the best colour (D6.2: the covered figure must be part of the trio, D7.1). On a tie
    the side's announced colour for that type (X2) wins, else the lowest suit."""
    ann = obs[L.O_ANN + q]
    want = (ann >> (2 * (2 - f // 4))) & 3 if ann >= 0 else -1
    bh = -1
    bc = 0
    for c in range(4):
        e, l, j = colour_sets(obs, q, -1, -1, f, c)
        h = harmony_of(e, l, j)
        if h > bh or (h == bh and c == want):
            bh = h
            bc = c
    return bh, bc


@kernel
def mate_media_gain(obs, q):
    """Best gain of ``q``'s side's harmony (D9.5 best member) from one Media on one of
    ``q``'s known figures that a Media may cover (E/L/J, face down, not covered: D6.2);
    -9 when there is none."""
    base = side_harmony(obs, obs[L.O_SIDE + q])
    best = -9
    for i in range(obs[L.O_NFIG + q]):
        f = obs[L.O_FIGS + q * L.NFIG + i]
        if f < 0 or f >= L.MEDIA0 or obs[L.O_COVER + f] >= 0 or (obs[L.O_FIGUP + q] >> f) & 1:
            continue
        h = covered_harmony(obs, q, f)[0]
        if h - base > best:
            best = h - base
    return best


@kernel
def alloc_media(obs, opts, n_opts):
    """D9.4 allocation of a Media figure (the rule in the module docstring)."""
    bi = 0
    bv = -1e9
    for i in range(n_opts):
        q = opts[i]
        v = -100.0 if holds_media(obs, q) else 0.0
        gain = 0
        for k in range(n_opts):
            r = opts[k]
            if r != q:
                g = mate_media_gain(obs, r)
                if g > gain:
                    gain = g
        v += 10.0 * gain - member_harmony(obs, q)
        if v > bv:
            bv = v
            bi = i
    return bi


@kernel
def best_mate_target(obs, opts, n_opts, seat):
    """(index, gain): the Media option on a teammate that raises the side's harmony most
    (D6.2, D9.5 best member), the gain in harmony steps; (-1, -9) without one."""
    myside = obs[L.O_SIDE + seat]
    base = side_harmony(obs, myside)
    bi = -1
    bg = -9
    for i in range(n_opts):
        o = opts[i]
        if o < 0:
            continue
        q = o // 16
        if obs[L.O_SIDE + q] != myside:
            continue
        f = obs[L.O_FIGS + q * L.NFIG + o % 16]
        if f < 0:
            continue
        g = covered_harmony(obs, q, f)[0] - base
        if g > bg:
            bg = g
            bi = i
    return bi, bg


@kernel
def veto_shift(cfg, obs, seat, spend, free):
    """Points added to a bot's veto threshold (the rule in the module docstring)."""
    n = obs[L.O_N]
    rounds = obs[L.O_PILE_LEFT]
    if cfg[L.C_MAX_ROUNDS] > 0 and cfg[L.C_MAX_ROUNDS] - obs[L.O_ROUND] < rounds:
        rounds = cfg[L.C_MAX_ROUNDS] - obs[L.O_ROUND]
    if rounds < 1:
        rounds = 1
    shift = -spend * min(1.0, obs[L.O_VETOES + seat] / rounds)
    if free == 0:
        return shift
    dealer = obs[L.O_DEALER]
    me = wrap(seat - dealer - 1 + n, n)                 # this seat's place in action order
    asked = 1 << obs[L.O_SIDE + seat]
    for j in range(me):                               # sides asked before this one
        asked |= 1 << obs[L.O_SIDE + wrap(dealer + 1 + j, n)]
    for j in range(me + 1, n):
        s = obs[L.O_SIDE + wrap(dealer + 1 + j, n)]
        if (asked >> s) & 1:
            continue
        asked |= 1 << s
        if obs[L.O_VETOES + wrap(dealer + 1 + j, n)] <= 0:
            continue
        for p in range(n):
            t = obs[L.O_SEC_TAKE + p]
            if obs[L.O_SIDE + p] == s and (t == -1 or 0 <= t < 40):
                shift += free
                break
    return shift
