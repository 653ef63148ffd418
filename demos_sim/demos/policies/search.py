"""DĒMOS ``search``: determinised Monte Carlo over the seat's own next two turns.

In the secret turn of the full rules the unanimous turn is still to come (unless a veto
cancels it). ``search`` scores each option of the secret turn — pass, discard and take a
face-up card, discard and draw blind — by its two-turn value:

    value = (1 - q) · util(hand after this turn) + q · V1(hand after this turn)

where ``q`` = ``params[P_Q]`` is the chance that the unanimous turn is played, and
``V1`` is the best expected utility of one more turn (``heuristic``'s exact one-draw
expectation over unseen cards, or an exact take from the table). A blind draw is
determinised: ``params[P_BUDGET]`` cards are sampled without replacement from the
cards this seat has **not** seen (:func:`sample_unseen`; every unseen card when the
budget covers them all, which makes it exact; ``search@N`` sets it), each sample is removed from the unseen
set for the next turn. Every other decision is ``heuristic``'s (same parameters at the
same indices), so the restricted forms ``noveto``, ``notake``, ``nomedia`` and ``legacy``
work alike.
"""


from demos_sim.bits import lowest_bit, popcount
from demos_sim.demos import layout as L
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.demos.policies.basic import value5
from demos_sim.demos.policies.heuristic import (
    HEURISTIC_PARAMS, P_FLOOR, P_LEGACY, P_NOMEDIA, P_NOTAKE, P_NOVETO, best_blind,
    completing_cards,
    heuristic_policy, unseen_cards, util,
)
from demos_sim.demos.scoring import best_combo, scoring_rules
from demos_sim.jit import kernel
from demos_sim.rng import below

P_BUDGET, P_Q = 12, 13
SEARCH_PARAMS = tuple(HEURISTIC_PARAMS[:P_BUDGET]) + (12.0, 0.8) + tuple(HEURISTIC_PARAMS[P_Q + 1:])


@kernel
def sample_unseen(unseen, k, rng):
    """Mask of ``min(k, |unseen|)`` distinct cards drawn uniformly from ``unseen``."""
    n = popcount(unseen)
    if k >= n:
        return unseen
    out = 0
    left = unseen
    for _ in range(k):
        j = below(rng, 0, n)
        y = left
        for _ in range(j):
            y &= y - 1
        c = lowest_bit(y)
        out |= 1 << c
        left &= ~(1 << c)
        n -= 1
    return out


@kernel
def turn_value(sr, h, table, fav, unseen, fl, notake):
    """Best expected utility of one compulsory turn (discard, then draw or take)."""
    nu = popcount(unseen)
    kd, sc, cm = best_combo(h, sr, fav)
    best = best_blind(sr, h, fav, unseen, nu, 1.0, fl, 0.0, kd, sc, cm)[0]
    if notake:
        return best
    cand = completing_cards(h, sr[0] == 1) & table
    while cand:
        t = lowest_bit(cand)
        cand &= cand - 1
        h6 = h | (1 << t)
        k6, s6, c6 = best_combo(h6, sr, fav)
        if k6 == 0:
            continue
        rest = h & ~c6
        while rest:
            d = lowest_bit(rest)
            rest &= rest - 1
            v = util(value5(sr, h6 & ~(1 << d), fav), fl)
            if v > best:
                best = v
    return best


@kernel
def _two_turn(sr, h, table, fav, unseen, fl, notake, q):
    return (1.0 - q) * util(value5(sr, h, fav), fl) + q * turn_value(sr, h, table, fav, unseen,
                                                                       fl, notake)


@kernel
def search_secret(sr, h, table, fav, unseen, opts, n_opts, params, rng):
    fl = params[P_FLOOR]
    notake = params[P_NOTAKE] > 0
    q = params[P_Q]
    budget = max(1, int(params[P_BUDGET]))
    best = -1e18
    bi = 0
    # discards and takes worth a look: heuristic's candidates (outside a held combination)
    kd, sc, cm = best_combo(h, sr, fav)
    useful = 0 if notake else completing_cards(h, sr[0] == 1) & table
    saved = rng[0]
    for i in range(n_opts):
        o = opts[i]
        if o < 0:                                         # pass
            v = _two_turn(sr, h, table, fav, unseen, fl, notake, q)
        else:
            d = o // 64
            t = o % 64
            if t == L.DECK_TOP:
                if kd != 0 and (cm >> d) & 1:
                    continue
                h4 = h & ~(1 << d)
                rng[0] = saved                            # common random numbers
                smp = sample_unseen(unseen, budget, rng)
                ns = popcount(smp)
                tot = 0.0
                x = smp
                while x:
                    c = lowest_bit(x)
                    x &= x - 1
                    tot += _two_turn(sr, h4 | (1 << c), table, fav, unseen & ~(1 << c), fl,
                                     notake, q)
                v = tot / ns if ns > 0 else 0.0
            else:
                if not (useful >> t) & 1:
                    continue
                v = _two_turn(sr, (h & ~(1 << d)) | (1 << t), table & ~(1 << t), fav, unseen,
                              fl, notake, q)
            v += 0.0001 * (10 - d % 10)
        if v > best:
            best = v
            bi = i
    rng[0] = saved
    sample_unseen(unseen, budget, rng)                    # the stream moves on once
    return bi


@register("search", params=SEARCH_PARAMS,
          description="heuristic + determinised Monte Carlo of its next two turns "
                      "(secret turn; budget params[12])",
          flags={"noveto": P_NOVETO, "notake": P_NOTAKE, "nomedia": P_NOMEDIA,
                 "legacy": P_LEGACY},
          budget=P_BUDGET)
@kernel(POLICY_SIG, allocates=True)
def search_policy(cfg, obs, opts, n_opts, params, rng):
    if obs[L.O_KIND] == L.K_SECRET and cfg[L.C_RULES] == 0:     # full rules: a turn still to come
        sr = scoring_rules(cfg)
        seat = obs[L.O_SEAT]
        return search_secret(sr, obs[L.O_HAND], obs[L.O_TABLE], obs[L.O_FAV + seat],
                             unseen_cards(cfg, obs), opts, n_opts, params, rng)
    return heuristic_policy(cfg, obs, opts, n_opts, params, rng)
