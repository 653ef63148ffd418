"""What one seat may know (RULES.md M2): the only door policies get through.

``observe`` writes seat ``seat``'s observation into ``obs`` from the full state. It is
the single place that decides what is visible:

- own hand, own face-down discards; every face-up card and every public action of the
  round (public discards, passes, which face-up card or the deck each player took);
- secret discards only once turned face up (D3.4.2), or one's own;
- cumulative points, last round's scores, the vetoes left to every side, favourite
  suits (X1), figure counts, figures face up (Carré reveals, Media covers, revealed
  Media) and the Media covers' colours;
- one's own figures; in team modes the teammates' figures too, but only for the team's
  decisions (veto, allocation, Media, the X2 announcement), which D9.2 gives the team's
  knowledge of figures; under ``team_talk = hands`` (D9.2) those team decisions also see
  the teammates' numeric hands at that moment (``O_MATE_HAND``), never otherwise;
- the colourings announced so far (X2), by seat (the seat's side's announcement).

The one exemption: a seat whose policy is a *reference* (``cfg[C_TRUTH]`` bit set by the
runner from ``register(..., reference=...)``, e.g. ``omniscient``) also gets the *truth
block* ``O_T_*`` (:func:`observe_truth`: every hand, face-down discard, the deck and the
Power pile in order, every figure). It is written for that seat only; every other seat's
block stays zero, so ordinary games are unchanged, and the engine's M2 check leaves such
seats out unless ``C_CHECK_OBS`` is 2.

``scramble_hidden`` permutes everything a seat cannot see (undealt deck, other players'
never-seen cards, face-down figures, the Power pile); the observation test asserts that
``observe`` and every policy's decision are unchanged by it.
"""


from demos_sim.demos import layout as L
from demos_sim.jit import kernel
from demos_sim.rng import shuffle_inplace


@kernel(inline=True)
def is_team_decision(kind):
    return (kind == L.K_VETO or kind == L.K_ALLOC or kind == L.K_MEDIA or kind == L.K_COLOUR
            or kind == L.K_ANNOUNCE)


@kernel(inline=True)
def sees_mate_hands(st, cfg):
    """D9.2 ``team_talk = hands``: is a team decision being taken with the hands shown?"""
    return st[L.S_TEAMVIEW] == 1 and cfg[L.C_TALK_HANDS] != 0


@kernel
def knows_figures_of(st, cfg, seat, p):
    """Does ``seat`` know ``p``'s face-down figures now? (own; teammates in team decisions)"""
    if p == seat:
        return True
    return (cfg[L.C_MODE] != 0 and st[L.S_TEAMVIEW] == 1
            and cfg[L.C_SIDE + p] == cfg[L.C_SIDE + seat])


@kernel
def observe_game(st, cfg, seat, obs):
    """The game-level part: points, vetoes, figures (rebuilt when the state version moves)."""
    n = cfg[L.C_N]
    for p in range(L.MAXP):
        live = p < n
        obs[L.O_SCORE + p] = st[L.S_SCORE + p] if live else 0
        obs[L.O_CUM + p] = st[L.S_CUM + p] if live else 0
        obs[L.O_VETOES + p] = st[L.S_VETO + cfg[L.C_SIDE + p]] if live else 0
        obs[L.O_SIDE + p] = cfg[L.C_SIDE + p] if live else -1
        obs[L.O_FAV + p] = st[L.S_FAV + p] if live else -1
        nf = st[L.S_NFIG + p] if live else 0
        obs[L.O_NFIG + p] = nf
        up = st[L.S_FIGUP + p] if live else 0
        obs[L.O_FIGUP + p] = up
        obs[L.O_MEDIA_OWNED + p] = st[L.S_MEDIA_OWNED + p] if live else 0
        obs[L.O_ANN + p] = st[L.S_ANN + cfg[L.C_SIDE + p]] if live else -1
        known = live and knows_figures_of(st, cfg, seat, p)
        ver = (st[L.S_FVER + p] * 2 + known) if live else -2
        if obs[L.O_FVER + p] == ver:
            continue                      # this player's figures are unchanged
        obs[L.O_FVER + p] = ver
        for i in range(L.NFIG):
            if i >= nf:
                obs[L.O_FIGS + p * L.NFIG + i] = -2
            else:
                f = st[L.S_FIG + p * L.NFIG + i]
                obs[L.O_FIGS + p * L.NFIG + i] = f if (known or (up >> f) & 1) else -1
    for f in range(L.NFIG):
        obs[L.O_COVER + f] = st[L.S_COVER + f]
    obs[L.O_GVER] = st[L.S_GVER] * 2 + st[L.S_TEAMVIEW]


@kernel
def observe_truth(st, cfg, obs):
    """The truth block of a reference seat (not M2: module docstring)."""
    n = cfg[L.C_N]
    obs[L.O_T_ON] = 1
    for p in range(L.MAXP):
        live = p < n
        obs[L.O_T_HAND + p] = st[L.S_HAND + p] if live else 0
        obs[L.O_T_SEC + p] = st[L.S_SEC + p] if live and st[L.S_SEC_TAKE + p] >= 0 else -1
        obs[L.O_T_UNAN + p] = st[L.S_UNAN + p] if live and st[L.S_UNAN_TAKE + p] >= 0 else -1
        nf = st[L.S_NFIG + p] if live else 0
        for i in range(L.NFIG):
            obs[L.O_T_FIGS + p * L.NFIG + i] = st[L.S_FIG + p * L.NFIG + i] if i < nf else -2
    pos = st[L.S_DECK_POS]
    nd = st[L.S_DECK_LEN] - pos
    obs[L.O_T_DECK_N] = nd
    for i in range(L.NCARD):
        obs[L.O_T_DECK + i] = st[L.S_DECK + pos + i] if i < nd else -1
    pp = st[L.S_PILE_POS]
    npl = st[L.S_PILE_LEN] - pp
    obs[L.O_T_PILE_N] = npl
    for i in range(L.NFIG):
        obs[L.O_T_PILE + i] = st[L.S_PILE + pp + i] if i < npl else -1


@kernel(inline=True)
def observe(st, cfg, seat, kind, obs):
    """Write ``seat``'s observation for a decision of ``kind`` into ``obs`` (OBS_LEN int64)."""
    st[L.S_TEAMVIEW] = 1 if (cfg[L.C_MODE] != 0 and is_team_decision(kind)) else 0
    if obs[L.O_GVER] != st[L.S_GVER] * 2 + st[L.S_TEAMVIEW] or obs[L.O_SEAT] != seat:
        observe_game(st, cfg, seat, obs)
    n = cfg[L.C_N]
    obs[L.O_KIND] = kind
    obs[L.O_SEAT] = seat
    obs[L.O_N] = n
    obs[L.O_ROUND] = st[L.S_ROUND]
    obs[L.O_DEALER] = st[L.S_DEALER]
    obs[L.O_HAND] = st[L.S_HAND + seat]
    obs[L.O_TABLE] = st[L.S_TABLE]
    obs[L.O_FACEUP] = st[L.S_FACEUP]
    out = 0
    if st[L.S_SEC_TAKE + seat] >= 0:
        out |= 1 << st[L.S_SEC + seat]
    if st[L.S_UNAN_TAKE + seat] >= 0:
        out |= 1 << st[L.S_UNAN + seat]
    obs[L.O_OWN_OUT] = out
    obs[L.O_DECK_LEFT] = st[L.S_DECK_LEN] - st[L.S_DECK_POS]
    obs[L.O_PILE_LEFT] = st[L.S_PILE_LEN] - st[L.S_PILE_POS]
    obs[L.O_VETOED] = st[L.S_VETOED]
    # seats p >= n never act: their state entries keep the round's start values (-1, -2)
    up = st[L.S_SEC_UP] == 1
    for p in range(L.MAXP):
        obs[L.O_PUB + p] = st[L.S_PUB + p]
        t = st[L.S_SEC_TAKE + p]
        sec = st[L.S_SEC + p] if (p == seat or up) else 40
        obs[L.O_SEC + p] = t if t < 0 else sec
        obs[L.O_SEC_TAKE + p] = t
        obs[L.O_UNAN_TAKE + p] = st[L.S_UNAN_TAKE + p]
        obs[L.O_MATE_HAND + p] = 0
    if sees_mate_hands(st, cfg):                # D9.2 team_talk = hands
        for p in range(n):
            if p != seat and cfg[L.C_SIDE + p] == cfg[L.C_SIDE + seat]:
                obs[L.O_MATE_HAND + p] = st[L.S_HAND + p]
    obs[L.O_ARG0] = -1
    obs[L.O_ARG1] = -1
    if kind == L.K_ALLOC:
        obs[L.O_ARG0] = st[L.S_ARG0]          # the team sees the figure it allocates (D9.4)
    elif kind == L.K_COLOUR:
        q = st[L.S_ARG0]
        obs[L.O_ARG0] = q
        f = st[L.S_FIG + q * L.NFIG + st[L.S_ARG1]]
        if knows_figures_of(st, cfg, seat, q) or (st[L.S_FIGUP + q] >> f) & 1:
            obs[L.O_ARG1] = f                # else pointed at blind (D6.2)
    if (cfg[L.C_TRUTH] >> seat) & 1:         # a reference seat only (not M2)
        observe_truth(st, cfg, obs)


@kernel
def scramble_hidden(st, cfg, seat, kind, rng, tmp):
    """Permute, in place, every card and figure that ``seat`` cannot see.

    People cards: the undealt deck and other players' cards that were never face up
    (in hand, secret discards still face down, unanimous discards). Figures: the Power
    pile and other players' face-down figures (teammates' too, unless ``kind`` is a team
    decision). Locations keep their sizes, so public counts are unchanged. ``rng`` is the
    game's stream vector (slot RNG_SCRAMBLE is used); ``tmp`` 54+ words of scratch.
    """
    n = cfg[L.C_N]
    st[L.S_TEAMVIEW] = 1 if (cfg[L.C_MODE] != 0 and is_team_decision(kind)) else 0
    fixed = st[L.S_HAND + seat] | st[L.S_FACEUP]
    if st[L.S_SEC_TAKE + seat] >= 0:
        fixed |= 1 << st[L.S_SEC + seat]
    if st[L.S_UNAN_TAKE + seat] >= 0:
        fixed |= 1 << st[L.S_UNAN + seat]
    if sees_mate_hands(st, cfg):                # D9.2 team_talk = hands: shown, so kept
        for p in range(n):
            if cfg[L.C_SIDE + p] == cfg[L.C_SIDE + seat]:
                fixed |= st[L.S_HAND + p]
    cards = tmp[0:40]
    nc = 0
    for i in range(st[L.S_DECK_POS], st[L.S_DECK_LEN]):
        cards[nc] = st[L.S_DECK + i]
        nc += 1
    for p in range(n):
        if p == seat:
            continue
        h = st[L.S_HAND + p] & ~fixed
        for c in range(40):
            if (h >> c) & 1:
                cards[nc] = c
                nc += 1
        if st[L.S_SEC_TAKE + p] >= 0 and not (fixed >> st[L.S_SEC + p]) & 1:
            cards[nc] = st[L.S_SEC + p]
            nc += 1
        if st[L.S_UNAN_TAKE + p] >= 0 and not (fixed >> st[L.S_UNAN + p]) & 1:
            cards[nc] = st[L.S_UNAN + p]
            nc += 1
    shuffle_inplace(cards, nc, rng, L.RNG_SCRAMBLE)
    # write back in the same location order
    k = 0
    for i in range(st[L.S_DECK_POS], st[L.S_DECK_LEN]):
        st[L.S_DECK + i] = cards[k]
        k += 1
    for p in range(n):
        if p == seat:
            continue
        h = st[L.S_HAND + p]
        cnt = 0
        for c in range(40):
            if (h >> c) & 1 and not (fixed >> c) & 1:
                cnt += 1
        h &= fixed
        for _ in range(cnt):
            h |= 1 << cards[k]
            k += 1
        st[L.S_HAND + p] = h
        if st[L.S_SEC_TAKE + p] >= 0 and not (fixed >> st[L.S_SEC + p]) & 1:
            st[L.S_SEC + p] = cards[k]
            k += 1
        if st[L.S_UNAN_TAKE + p] >= 0 and not (fixed >> st[L.S_UNAN + p]) & 1:
            st[L.S_UNAN + p] = cards[k]
            k += 1
    # figures
    figs = tmp[40:40 + L.NFIG]
    nf = 0
    for i in range(st[L.S_PILE_POS], st[L.S_PILE_LEN]):
        figs[nf] = st[L.S_PILE + i]
        nf += 1
    for p in range(n):
        if knows_figures_of(st, cfg, seat, p):
            continue
        for i in range(st[L.S_NFIG + p]):
            f = st[L.S_FIG + p * L.NFIG + i]
            if not (st[L.S_FIGUP + p] >> f) & 1:
                figs[nf] = f
                nf += 1
    shuffle_inplace(figs, nf, rng, L.RNG_SCRAMBLE)
    k = 0
    for i in range(st[L.S_PILE_POS], st[L.S_PILE_LEN]):
        st[L.S_PILE + i] = figs[k]
        k += 1
    for p in range(n):
        if knows_figures_of(st, cfg, seat, p):
            continue
        for i in range(st[L.S_NFIG + p]):
            f = st[L.S_FIG + p * L.NFIG + i]
            if not (st[L.S_FIGUP + p] >> f) & 1:
                st[L.S_FIG + p * L.NFIG + i] = figs[k]
                k += 1
    st[L.S_GVER] += 1  # the caller rebuilds the observation from scratch
    for p in range(L.MAXP):
        st[L.S_FVER + p] += 1
