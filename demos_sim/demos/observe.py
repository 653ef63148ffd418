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

``scramble_hidden`` permutes everything a seat cannot see (undealt deck, other players'
never-seen cards, face-down figures, the Power pile); the observation test asserts that
``observe`` and every policy's decision are unchanged by it.
"""

from numba import njit

from demos_sim.demos.layout import (
    C_MODE, C_N, C_SIDE, C_TALK_HANDS, RNG_SCRAMBLE, K_ALLOC, K_ANNOUNCE, K_COLOUR,
    K_MEDIA, K_VETO, MAXP, NFIG, O_ANN, O_MATE_HAND, S_ANN, O_ARG0, O_ARG1, O_COVER, O_CUM, O_DEALER, O_DECK_LEFT, O_FACEUP, O_FAV, O_FIGS,
    O_FIGUP, O_FVER, O_GVER, O_HAND, O_KIND, O_MEDIA_OWNED, O_N, O_NFIG, O_OWN_OUT,
    O_PILE_LEFT, O_PUB, O_ROUND, O_SCORE, O_SEAT, O_SEC, O_SEC_TAKE, O_SIDE, O_TABLE,
    O_UNAN_TAKE, O_VETOED, O_VETOES, S_ARG0, S_ARG1, S_COVER, S_CUM, S_DEALER,
    S_DECK, S_DECK_LEN, S_DECK_POS, S_FACEUP, S_FAV, S_FIG, S_FIGUP, S_FVER, S_GVER, S_HAND,
    S_MEDIA_OWNED, S_NFIG, S_PILE, S_PILE_LEN, S_PILE_POS, S_PUB, S_ROUND, S_SCORE, S_SEC,
    S_SEC_TAKE, S_SEC_UP, S_TABLE, S_UNAN, S_UNAN_TAKE, S_VETO, S_VETOED, S_TEAMVIEW,
)
from demos_sim.rng import shuffle_inplace


@njit(cache=True, inline="always")
def is_team_decision(kind):
    return (kind == K_VETO or kind == K_ALLOC or kind == K_MEDIA or kind == K_COLOUR
            or kind == K_ANNOUNCE)


@njit(cache=True, _nrt=False, inline="always")
def sees_mate_hands(st, cfg):
    """D9.2 ``team_talk = hands``: is a team decision being taken with the hands shown?"""
    return st[S_TEAMVIEW] == 1 and cfg[C_TALK_HANDS] != 0


@njit(cache=True, _nrt=False)
def knows_figures_of(st, cfg, seat, p):
    """Does ``seat`` know ``p``'s face-down figures now? (own; teammates in team decisions)"""
    if p == seat:
        return True
    return (cfg[C_MODE] != 0 and st[S_TEAMVIEW] == 1
            and cfg[C_SIDE + p] == cfg[C_SIDE + seat])


@njit(cache=True, _nrt=False)
def observe_game(st, cfg, seat, obs):
    """The game-level part: points, vetoes, figures (rebuilt when the state version moves)."""
    n = cfg[C_N]
    for p in range(MAXP):
        live = p < n
        obs[O_SCORE + p] = st[S_SCORE + p] if live else 0
        obs[O_CUM + p] = st[S_CUM + p] if live else 0
        obs[O_VETOES + p] = st[S_VETO + cfg[C_SIDE + p]] if live else 0
        obs[O_SIDE + p] = cfg[C_SIDE + p] if live else -1
        obs[O_FAV + p] = st[S_FAV + p] if live else -1
        nf = st[S_NFIG + p] if live else 0
        obs[O_NFIG + p] = nf
        up = st[S_FIGUP + p] if live else 0
        obs[O_FIGUP + p] = up
        obs[O_MEDIA_OWNED + p] = st[S_MEDIA_OWNED + p] if live else 0
        obs[O_ANN + p] = st[S_ANN + cfg[C_SIDE + p]] if live else -1
        known = live and knows_figures_of(st, cfg, seat, p)
        ver = (st[S_FVER + p] * 2 + known) if live else -2
        if obs[O_FVER + p] == ver:
            continue                      # this player's figures are unchanged
        obs[O_FVER + p] = ver
        for i in range(NFIG):
            if i >= nf:
                obs[O_FIGS + p * NFIG + i] = -2
            else:
                f = st[S_FIG + p * NFIG + i]
                obs[O_FIGS + p * NFIG + i] = f if (known or (up >> f) & 1) else -1
    for f in range(NFIG):
        obs[O_COVER + f] = st[S_COVER + f]
    obs[O_GVER] = st[S_GVER] * 2 + st[S_TEAMVIEW]


@njit(cache=True, _nrt=False, inline="always")
def observe(st, cfg, seat, kind, obs):
    """Write ``seat``'s observation for a decision of ``kind`` into ``obs`` (OBS_LEN int64)."""
    st[S_TEAMVIEW] = 1 if (cfg[C_MODE] != 0 and is_team_decision(kind)) else 0
    if obs[O_GVER] != st[S_GVER] * 2 + st[S_TEAMVIEW] or obs[O_SEAT] != seat:
        observe_game(st, cfg, seat, obs)
    n = cfg[C_N]
    obs[O_KIND] = kind
    obs[O_SEAT] = seat
    obs[O_N] = n
    obs[O_ROUND] = st[S_ROUND]
    obs[O_DEALER] = st[S_DEALER]
    obs[O_HAND] = st[S_HAND + seat]
    obs[O_TABLE] = st[S_TABLE]
    obs[O_FACEUP] = st[S_FACEUP]
    out = 0
    if st[S_SEC_TAKE + seat] >= 0:
        out |= 1 << st[S_SEC + seat]
    if st[S_UNAN_TAKE + seat] >= 0:
        out |= 1 << st[S_UNAN + seat]
    obs[O_OWN_OUT] = out
    obs[O_DECK_LEFT] = st[S_DECK_LEN] - st[S_DECK_POS]
    obs[O_PILE_LEFT] = st[S_PILE_LEN] - st[S_PILE_POS]
    obs[O_VETOED] = st[S_VETOED]
    for p in range(MAXP):
        obs[O_PUB + p] = st[S_PUB + p] if p < n else -1
        t = st[S_SEC_TAKE + p] if p < n else -2
        if t < 0:
            obs[O_SEC + p] = t
        elif p == seat or st[S_SEC_UP] == 1:
            obs[O_SEC + p] = st[S_SEC + p]
        else:
            obs[O_SEC + p] = 40
        obs[O_SEC_TAKE + p] = t
        obs[O_UNAN_TAKE + p] = st[S_UNAN_TAKE + p] if p < n else -2
        obs[O_MATE_HAND + p] = 0
    if sees_mate_hands(st, cfg):                # D9.2 team_talk = hands
        for p in range(n):
            if p != seat and cfg[C_SIDE + p] == cfg[C_SIDE + seat]:
                obs[O_MATE_HAND + p] = st[S_HAND + p]
    obs[O_ARG0] = -1
    obs[O_ARG1] = -1
    if kind == K_ALLOC:
        obs[O_ARG0] = st[S_ARG0]          # the team sees the figure it allocates (D9.4)
    elif kind == K_COLOUR:
        q = st[S_ARG0]
        obs[O_ARG0] = q
        f = st[S_FIG + q * NFIG + st[S_ARG1]]
        if knows_figures_of(st, cfg, seat, q) or (st[S_FIGUP + q] >> f) & 1:
            obs[O_ARG1] = f                # else pointed at blind (D6.2)


@njit(cache=True, _nrt=False)
def scramble_hidden(st, cfg, seat, kind, rng, tmp):
    """Permute, in place, every card and figure that ``seat`` cannot see.

    People cards: the undealt deck and other players' cards that were never face up
    (in hand, secret discards still face down, unanimous discards). Figures: the Power
    pile and other players' face-down figures (teammates' too, unless ``kind`` is a team
    decision). Locations keep their sizes, so public counts are unchanged. ``rng`` is the
    game's stream vector (slot RNG_SCRAMBLE is used); ``tmp`` 54+ words of scratch.
    """
    n = cfg[C_N]
    st[S_TEAMVIEW] = 1 if (cfg[C_MODE] != 0 and is_team_decision(kind)) else 0
    fixed = st[S_HAND + seat] | st[S_FACEUP]
    if st[S_SEC_TAKE + seat] >= 0:
        fixed |= 1 << st[S_SEC + seat]
    if st[S_UNAN_TAKE + seat] >= 0:
        fixed |= 1 << st[S_UNAN + seat]
    if sees_mate_hands(st, cfg):                # D9.2 team_talk = hands: shown, so kept
        for p in range(n):
            if cfg[C_SIDE + p] == cfg[C_SIDE + seat]:
                fixed |= st[S_HAND + p]
    cards = tmp[0:40]
    nc = 0
    for i in range(st[S_DECK_POS], st[S_DECK_LEN]):
        cards[nc] = st[S_DECK + i]
        nc += 1
    for p in range(n):
        if p == seat:
            continue
        h = st[S_HAND + p] & ~fixed
        for c in range(40):
            if (h >> c) & 1:
                cards[nc] = c
                nc += 1
        if st[S_SEC_TAKE + p] >= 0 and not (fixed >> st[S_SEC + p]) & 1:
            cards[nc] = st[S_SEC + p]
            nc += 1
        if st[S_UNAN_TAKE + p] >= 0 and not (fixed >> st[S_UNAN + p]) & 1:
            cards[nc] = st[S_UNAN + p]
            nc += 1
    shuffle_inplace(cards, nc, rng, RNG_SCRAMBLE)
    # write back in the same location order
    k = 0
    for i in range(st[S_DECK_POS], st[S_DECK_LEN]):
        st[S_DECK + i] = cards[k]
        k += 1
    for p in range(n):
        if p == seat:
            continue
        h = st[S_HAND + p]
        cnt = 0
        for c in range(40):
            if (h >> c) & 1 and not (fixed >> c) & 1:
                cnt += 1
        h &= fixed
        for _ in range(cnt):
            h |= 1 << cards[k]
            k += 1
        st[S_HAND + p] = h
        if st[S_SEC_TAKE + p] >= 0 and not (fixed >> st[S_SEC + p]) & 1:
            st[S_SEC + p] = cards[k]
            k += 1
        if st[S_UNAN_TAKE + p] >= 0 and not (fixed >> st[S_UNAN + p]) & 1:
            st[S_UNAN + p] = cards[k]
            k += 1
    # figures
    figs = tmp[40:40 + NFIG]
    nf = 0
    for i in range(st[S_PILE_POS], st[S_PILE_LEN]):
        figs[nf] = st[S_PILE + i]
        nf += 1
    for p in range(n):
        if knows_figures_of(st, cfg, seat, p):
            continue
        for i in range(st[S_NFIG + p]):
            f = st[S_FIG + p * NFIG + i]
            if not (st[S_FIGUP + p] >> f) & 1:
                figs[nf] = f
                nf += 1
    shuffle_inplace(figs, nf, rng, RNG_SCRAMBLE)
    k = 0
    for i in range(st[S_PILE_POS], st[S_PILE_LEN]):
        st[S_PILE + i] = figs[k]
        k += 1
    for p in range(n):
        if knows_figures_of(st, cfg, seat, p):
            continue
        for i in range(st[S_NFIG + p]):
            f = st[S_FIG + p * NFIG + i]
            if not (st[S_FIGUP + p] >> f) & 1:
                st[S_FIG + p * NFIG + i] = figs[k]
                k += 1
    st[S_GVER] += 1  # the caller rebuilds the observation from scratch
    for p in range(MAXP):
        st[S_FVER + p] += 1
