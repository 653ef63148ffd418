"""DĒMOS ``belief``: the determinisations of ``ismcts``, weighted by what the others did.

``ismcts`` deals the cards its seat has not seen uniformly: an opponent who kept a run
through two discard turns is dealt a random hand. This module reads the round's public
actions instead (policy-based inference, as in Skat's PIMC with policy inference or
SPARTA's belief from a known blueprint): a *pool* of worlds is drawn from the deal's
own distribution, each world is weighted by how likely it makes every action the other
players took this round, and the search's iterations draw their worlds from the pool in
proportion to the weights (systematic resampling), the deck order fresh each time.

**A world** (:func:`_sample_world`) is a history of the round for every other player,
drawn card by card from the cards the seat has not seen (M2: the observation only):

- the hand before the secret turn (D3.2: the 5 dealt cards less the public discard,
  plus the card drawn after it; a secret discard already turned face up, D3.4.2, is one
  of them), and which of those cards was the draw (uniform: the deal is);
- the face-down secret discard (D3.3), one of that hand's cards, and the card drawn
  after it when the player drew;
- the face-down unanimous discard (D3.4.3), one of the hand's cards then, and the draw.

Whatever the other players showed is kept exactly: the public discards, the passes,
which face-up card each took or that it drew, the secret discards once turned up.

**The opponent model** (:func:`_logp_public`, :func:`_logp_turn`): each player is taken to
choose among its legal options with probabilities ``(1 - eps) · softmax(value / temp) +
eps / options``, where ``value`` is ``greedy``'s value of the option (the exact D4 value
of a known hand after a take or a pass, the blind-draw estimate after a discard and a
deck draw; :mod:`demos_sim.demos.policies.basic`), ``temp`` is ``P_TEMP`` points and
``eps`` ``P_EPS`` keeps a player who does something ``greedy`` would not from ruling
worlds out. The options of a turn are those of its moment: the face-up cards on the
table then (rebuilt from the public order of the takes), the pass only in the secret
turn under ``secret_optional``. A world's weight is the product of its players'
probabilities of what they did (the public discard, the secret turn, the unanimous turn),
and, in individual games, of each player asked at this round's veto check keeping its veto
(D3.4.1: σ((score − the rollouts' threshold) / temperature) for vetoing).

The pool has ``P_POOL`` worlds (0: uniform deals, ``ismcts`` itself; ``belief``: 512,
temperature 4 points, floor 0.1). What it buys is measured, and generated into the
documentation's *Strong play* page from ``results/belief/``: the inference's quality by
``experiments/belief_quality.py`` (the log-likelihood of the true hidden cards under the
weighted pool against the uniform one, by turn and round), the strength by
``experiments/belief_strength.py`` (matches on common deals against ``ismcts``,
``heuristic`` and ``omniscient_hands``: the gap closure). In short: the true cards are
markedly likelier under the pool than under uniform deals, card by card only slightly,
and the search gains over ``ismcts`` head to head but not against ``heuristic``.
"""

import numpy as np

from demos_sim.bits import lowest_bit, popcount, wrap
from demos_sim.demos import layout as L
from demos_sim.demos.policies.basic import (
    GREEDY_PARAMS, P_DRAW_WEIGHT, blind_value, value5,
)
from demos_sim.demos.policies.heuristic import unseen_cards
from demos_sim.demos.scoring import best_combo, max_suit_count, scoring_rules, total_value
from demos_sim.jit import kernel
from demos_sim.rng import below

DRAW_W = GREEDY_PARAMS[P_DRAW_WEIGHT]

# one world of the pool: hands by seat, secret discards by seat (-1: none or a pass),
# the mask of every unseen card the world placed (the deck is the rest)
PH = 0
PSEC = PH + L.MAXP
PUSED = PSEC + L.MAXP
POOL_W = PUSED + 1
PUNAN = POOL_W             # the true world only: the unanimous discards by seat (-1 none)
TRUTH_W = PUNAN + L.MAXP


@kernel(inline=True)
def _lse_add(m, s, v):
    """Running log-sum-exp: ``(max, sum of exp(x - max))`` with ``v`` added."""
    if v > m:
        return v, s * np.exp(m - v) + 1.0
    return m, s + np.exp(v - m)


@kernel(inline=True)
def _mix(v_obs, m, s, k, eps):
    """log of ``(1 - eps) · softmax + eps / k`` for the option of value ``v_obs``
    (values already divided by the temperature; ``m, s`` their log-sum-exp)."""
    return np.log((1.0 - eps) * np.exp(v_obs - m) / s + eps / k)


@kernel
def _logp_public(sr, d5, fav, card, temp, eps):
    """log P(discarding ``card`` face up from the dealt hand ``d5``) (D3.2)."""
    kd, sc, cm = best_combo(d5, sr, fav)
    m = -1e300
    s = 0.0
    v_obs = 0.0
    x = d5
    while x:
        d = lowest_bit(x)
        x &= x - 1
        v = blind_value(sr, d5, fav, DRAW_W, kd, sc, cm, d) / temp
        m, s = _lse_add(m, s, v)
        if d == card:
            v_obs = v
    return _mix(v_obs, m, s, 5, eps)


@kernel
def _take_value(sr, h6, fav, d, kd6, sc6, cm6):
    """``value5`` of ``h6`` less ``d`` (a discard then a take), from ``best_combo(h6)``."""
    if kd6 == 0:
        return 0.0
    if (cm6 >> d) & 1:
        return value5(sr, h6 & ~(np.int64(1) << d), fav)
    h5 = h6 & ~(np.int64(1) << d)
    return sc6 + 0.01 * max_suit_count(h5) + 0.0005 * (total_value(h5) - total_value(cm6))


@kernel
def _logp_turn(sr, h, table, fav, can_pass, disc, take, temp, eps):
    """log P(the secret or unanimous turn ``disc``/``take``) for hand ``h`` (D3.3,
    D3.4.3): ``disc`` -1 a pass, else the card put face down, then ``take`` = DECK_TOP
    (a draw) or the face-up card taken from ``table``."""
    kd, sc, cm = best_combo(h, sr, fav)
    m = -1e300
    s = 0.0
    k = 0
    v_obs = 0.0
    if can_pass:
        v = 0.0
        if kd != 0:
            v = sc + 0.01 * max_suit_count(h) + 0.0005 * (total_value(h) - total_value(cm))
        v /= temp
        m, s = _lse_add(m, s, v)
        k += 1
        if disc < 0:
            v_obs = v
    x = h
    while x:                                        # a discard, then the deck
        d = lowest_bit(x)
        x &= x - 1
        v = blind_value(sr, h, fav, DRAW_W, kd, sc, cm, d) / temp
        m, s = _lse_add(m, s, v)
        k += 1
        if d == disc and take == L.DECK_TOP:
            v_obs = v
    t_all = table
    while t_all:                                    # a discard, then a face-up card
        t = lowest_bit(t_all)
        t_all &= t_all - 1
        h6 = h | (np.int64(1) << t)
        kd6, sc6, cm6 = best_combo(h6, sr, fav)
        x = h
        while x:
            d = lowest_bit(x)
            x &= x - 1
            v = _take_value(sr, h6, fav, d, kd6, sc6, cm6) / temp
            m, s = _lse_add(m, s, v)
            k += 1
            if d == disc and t == take:
                v_obs = v
    return _mix(v_obs, m, s, k, eps)


@kernel(inline=True)
def _draw(u, nu, k, rng):
    """One card of the unseen list ``u[k:nu]`` (partial Fisher–Yates: it ends at ``u[k]``)."""
    j = k + below(rng, 0, nu - k)
    c = u[j]
    u[j] = u[k]
    u[k] = c
    return c


@kernel(inline=True)
def _pick(h, rng):
    """A uniform card of the mask ``h``."""
    i = below(rng, 0, popcount(h))
    for _ in range(i):
        h &= h - 1
    return lowest_bit(h)


@kernel
def declined_vetoes(cfg, obs):
    """The seats that were asked at this round's veto check and kept their veto (D3.4.1),
    as a mask: at the unanimous turn every other seat holding a veto, at the seat's own
    veto decision those asked before it. Individual games only (a team decides with
    its members' hands, D9.3: not modelled)."""
    if cfg[L.C_MODE] != 0:
        return 0
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    kind = obs[L.O_KIND]
    if kind != L.K_UNAN and kind != L.K_VETO:
        return 0
    out = 0
    for j in range(n):
        p = wrap(obs[L.O_DEALER] + 1 + j, n)
        if p == seat:
            if kind == L.K_VETO:
                break
            continue
        if obs[L.O_VETOES + p] > 0:
            out |= 1 << p
    return out


@kernel(inline=True)
def _logp_decline(sr, h, fav, thr, temp, eps):
    """log P(keeping the veto with hand ``h``): a player is taken to veto with
    probability σ((score − ``thr``) / ``temp``) (D3.4.1; ``thr`` the rollouts' threshold)."""
    kd, sc, cm = best_combo(h, sr, fav)
    pv = 1.0 / (1.0 + np.exp(-(sc - thr) / temp))
    return np.log((1.0 - eps) * (1.0 - pv) + eps * 0.5)


@kernel
def tables_at_turns(obs, tabs):
    """The face-up cards on the table when each seat took its secret turn (``tabs[p]``,
    D3.3) and its unanimous turn (``tabs[MAXP + p]``, D3.4.3), rebuilt from the public
    discards, the order of the takes and the secret discards turned up (D3.4.2)."""
    n = obs[L.O_N]
    dealer = obs[L.O_DEALER]
    table = 0
    for p in range(n):
        if obs[L.O_PUB + p] >= 0:
            table |= np.int64(1) << obs[L.O_PUB + p]
    for j in range(n):                              # D3.3 in action order
        p = wrap(dealer + 1 + j, n)
        tabs[p] = table
        t = obs[L.O_SEC_TAKE + p]
        if 0 <= t < 40:
            table &= ~(np.int64(1) << t)
    for p in range(n):                              # D3.4.2 turned up
        c = obs[L.O_SEC + p]
        if obs[L.O_SEC_TAKE + p] >= 0 and 0 <= c < 40:
            table |= np.int64(1) << c
    for j in range(n):                              # D3.4.3 in action order
        p = wrap(dealer + 1 + j, n)
        tabs[L.MAXP + p] = table
        t = obs[L.O_UNAN_TAKE + p]
        if 0 <= t < 40:
            table &= ~(np.int64(1) << t)


@kernel
def unseen_list(cfg, obs, u):
    """The cards ``obs``'s seat has not seen into ``u`` (heuristic's unseen cards less a
    teammate's hand shown under ``team_talk = hands``, D9.2); returns how many."""
    unseen = unseen_cards(cfg, obs)
    for p in range(obs[L.O_N]):
        unseen &= ~obs[L.O_MATE_HAND + p]
    nu = 0
    while unseen:
        u[nu] = lowest_bit(unseen)
        unseen &= unseen - 1
        nu += 1
    return nu


@kernel
def sample_world(cfg, sr, obs, u, nu, tabs, temp, eps, vthr, declined, rng, row, truth):
    """One world into ``row`` (``POOL_W``: hands, secret discards, placed cards); returns
    its log-weight (the log-probability of every other player's actions this round).

    ``truth`` >= 0: the world is not drawn but read from ``row`` (``TRUTH_W``: the true
    hands, secret discards and unanimous discards), and only the latent
    draws are drawn — the true world's weight (``experiments/belief_quality.py``)."""
    n = obs[L.O_N]
    seat = obs[L.O_SEAT]
    can_pass = cfg[L.C_SECRET_OPT] != 0
    k = 0
    used = 0
    logw = 0.0
    for p in range(n):
        if p == seat:
            if truth < 0:
                row[PH + p] = obs[L.O_HAND]
                row[PSEC + p] = obs[L.O_SEC + p] if obs[L.O_SEC_TAKE + p] >= 0 else -1
            continue
        pub = obs[L.O_PUB + p]
        st = obs[L.O_SEC_TAKE + p]
        so = obs[L.O_SEC + p]
        ut = obs[L.O_UNAN_TAKE + p]
        fav = obs[L.O_FAV + p]
        shown = obs[L.O_MATE_HAND + p]
        if truth >= 0:
            if shown == 0:
                logw += _truth_history(sr, row, p, pub, st, so, ut, fav, can_pass, tabs,
                                       temp, eps, rng, (declined >> p) & 1, vthr)
            continue
        if shown != 0:                               # D9.2 team_talk = hands: known
            sec = -1
            if st >= 0:
                sec = so
                if so >= 40:
                    sec = _draw(u, nu, k, rng)
                    k += 1
                    used |= np.int64(1) << sec
            if ut >= 0:                              # its face-down card, out (D3.4.3)
                used |= np.int64(1) << _draw(u, nu, k, rng)
                k += 1
            row[PH + p] = shown
            row[PSEC + p] = sec
            continue
        revealed = st >= 0 and 0 <= so < 40
        h = np.int64(0)
        for _ in range(4 if revealed else 5):
            h |= np.int64(1) << _draw(u, nu, k, rng)
            k += 1
        used |= h
        if revealed:
            h |= np.int64(1) << so
        if pub >= 0:                                 # D3.2: which card was the draw
            d1 = _pick(h, rng)
            d5 = (h & ~(np.int64(1) << d1)) | (np.int64(1) << pub)
            logw += _logp_public(sr, d5, fav, pub, temp, eps)
        sec = -1
        if st == -1:                                 # D3.3 a pass
            logw += _logp_turn(sr, h, tabs[p], fav, can_pass, -1, 0, temp, eps)
        elif st >= 0:
            s = so if revealed else _pick(h, rng)
            logw += _logp_turn(sr, h, tabs[p], fav, can_pass, s, st, temp, eps)
            h &= ~(np.int64(1) << s)
            if st == L.DECK_TOP:
                c = _draw(u, nu, k, rng)
                k += 1
                used |= np.int64(1) << c
                h |= np.int64(1) << c
            else:
                h |= np.int64(1) << st
            sec = s
        if (declined >> p) & 1:                      # D3.4.1 it kept its veto
            logw += _logp_decline(sr, h, fav, vthr, temp, eps)
        if ut >= 0:                                  # D3.4.3
            x = _pick(h, rng)
            logw += _logp_turn(sr, h, tabs[L.MAXP + p], fav, False, x, ut, temp, eps)
            h &= ~(np.int64(1) << x)
            if ut == L.DECK_TOP:
                c = _draw(u, nu, k, rng)
                k += 1
                used |= np.int64(1) << c
                h |= np.int64(1) << c
            else:
                h |= np.int64(1) << ut
        row[PH + p] = h
        row[PSEC + p] = sec
    if truth < 0:
        row[PUSED] = used
    return logw


@kernel(inline=True)
def obs_taken(st):
    """The secret turn's face-up take as a mask (none when it drew or passed)."""
    return (np.int64(1) << st) if 0 <= st < 40 else np.int64(0)


@kernel
def _truth_history(sr, row, p, pub, st, so, ut, fav, can_pass, tabs, temp, eps, rng,
                   declined, vthr):
    """The log-weight of the true world for player ``p``: its true hand and discards are
    in ``row``; the draws' order (which card came when) is the only thing drawn: the
    hand is walked back from the showdown side, the latent cards uniform as in
    :func:`sample_world`."""
    h = row[PH + p]
    logw = 0.0
    # walk back: before the unanimous turn, before the secret turn
    h2 = h
    if ut >= 0:
        x = row[PUNAN + p]                           # the true unanimous discard
        if ut == L.DECK_TOP:
            # the drawn card: any card of the hand not taken face up earlier
            cand = h & ~obs_taken(st)
            h2 = (h & ~(np.int64(1) << _pick(cand, rng))) | (np.int64(1) << x)
        else:
            h2 = (h & ~(np.int64(1) << ut)) | (np.int64(1) << x)
        logw += _logp_turn(sr, h2, tabs[L.MAXP + p], fav, False, x, ut, temp, eps)
    if declined:
        logw += _logp_decline(sr, h2, fav, vthr, temp, eps)
    h1 = h2
    if st == -1:
        logw += _logp_turn(sr, h1, tabs[p], fav, can_pass, -1, 0, temp, eps)
    elif st >= 0:
        s = row[PSEC + p]
        if st == L.DECK_TOP:
            h1 = (h2 & ~(np.int64(1) << _pick(h2, rng))) | (np.int64(1) << s)
        else:
            h1 = (h2 & ~(np.int64(1) << st)) | (np.int64(1) << s)
        logw += _logp_turn(sr, h1, tabs[p], fav, can_pass, s, st, temp, eps)
    if pub >= 0:
        d1 = _pick(h1, rng)
        d5 = (h1 & ~(np.int64(1) << d1)) | (np.int64(1) << pub)
        logw += _logp_public(sr, d5, fav, pub, temp, eps)
    return logw


@kernel(allocates=True)
def pool_logweights(cfg, obs, size, temp, eps, vthr, rng):
    """``size`` worlds drawn from the deal (rows of ``POOL_W``) and their log-weights."""
    sr = scoring_rules(cfg)
    u = np.empty(40, np.int64)
    tabs = np.zeros(2 * L.MAXP, np.int64)
    tables_at_turns(obs, tabs)
    pool = np.empty((size, POOL_W), np.int64)
    lw = np.empty(size, np.float64)
    nu = unseen_list(cfg, obs, u)
    declined = declined_vetoes(cfg, obs)
    for j in range(size):
        lw[j] = sample_world(cfg, sr, obs, u, nu, tabs, temp, eps, vthr, declined, rng,
                             pool[j], -1)
    return pool, lw


@kernel(allocates=True)
def truth_logweight(cfg, obs, row, temp, eps, vthr, rng):
    """The log-weight of the true world in ``row`` (``TRUTH_W``), the draws' order drawn."""
    sr = scoring_rules(cfg)
    u = np.empty(40, np.int64)
    tabs = np.zeros(2 * L.MAXP, np.int64)
    tables_at_turns(obs, tabs)
    return sample_world(cfg, sr, obs, u, 0, tabs, temp, eps, vthr, declined_vetoes(cfg, obs),
                        rng, row, 0)


@kernel(allocates=True)
def build_pool(cfg, obs, size, temp, eps, vthr, rng):
    """``size`` worlds and their cumulative normalised weights (for :func:`resample_index`)."""
    pool, lw = pool_logweights(cfg, obs, size, temp, eps, vthr, rng)
    top = lw.max()
    cum = np.empty(size, np.float64)
    tot = 0.0
    for j in range(size):
        tot += np.exp(lw[j] - top)
        cum[j] = tot
    for j in range(size):
        cum[j] /= tot
    return pool, cum


@kernel
def resample_index(cum, x):
    """The world whose cumulative weight first reaches ``x`` in [0, 1) (binary search)."""
    lo = 0
    hi = cum.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cum[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo
