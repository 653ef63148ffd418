"""The reference Protocole policies: ``random``, ``cautious`` and ``convention``.

All three read only their observation (RULES.md M2): own hand and Foyer, the Selection,
the Norm, public counts. Each option ``card * 2 + to`` is scored and the best is played
(the first of equal scores: cards in increasing id, the Selection before the Foyer).

``cautious`` (each for themselves, P4): a card goes to the Foyer only when it is already
safe — its colour or symbol is in this round's Norm, which can only grow until the
control (P3.1, P4.1) — and scores ``params[0]`` (a point at every later control); an
unsafe one scores ``params[1]``. A card played to the Selection scores by the Foyer
cards it would make safe (``params[2]`` each) and the hand cards it would make safe to
place later (``params[3]`` each): exactly when it completes the Selection (the Norm
selection is computed), times a keep chance otherwise (``params[4]`` when the card
carries a leading colour or symbol of the Selection, ``params[5]`` when not).

``convention`` (all together, P5): the same safety rule, with a safe card worth more in
the Foyer (``params[0]`` = 4: safe cards leave the Selection, which keeps the Norm small,
and raise the record), and conventions fixed before the game (P5.1 allows them; nothing
is communicated during play):

- C1 *follow the target*: the Selection's target is its most frequent colour or symbol,
  ties to the first in the order R B G Y K P then M Q T S X O — so after a lead card the
  target is the lead's colour. While the Norm has room (C3), playing a card of the
  target scores ``params[4]`` and playing one that creates a tie for the majority (which
  the reinforced selection of P3.2 punishes by discarding everything) ``-params[4]``.
- C2 *double cover first*: at levels 2–3 (P5.3) a card whose colour and symbol are
  both in the Norm is preferred for the Foyer (``params[5]``, more while the own Foyer
  lacks the level's count of such cards).
- C3 *Norm budget*: a round that ends with 8 or more Norm cards starts another round in
  which every Foyer must be covered again by a small deck (P4.3), so the team aims at
  ``params[7]`` = 7 Norm cards: once the Norm plus the Selection's majority would pass
  it, C1 flips (ties are played, following is avoided) and a completing card whose
  kept cards take the Norm past it scores ``-params[6]``.

A completing card's Norm selection is computed exactly under the configured rule,
``majority_scope`` (P3.1a) included; the C1 target and the keep chances of a card that
does not complete the Selection are heuristics that read the pooled majority under
either ``majority_scope``.
"""

import numpy as np

from demos_sim.bits import popcount
from demos_sim.jit import kernel
from demos_sim.protocole import layout as L
from demos_sim.protocole.norm import covered, double_covered, norm_keep
from demos_sim.protocole.policies import POLICY_SIG, register
from demos_sim.rng import below

P_SAFE, P_RISK, P_FIX, P_HANDCOV, P_LEAD, P_OTHER, P_BUDGET, P_SMALL = 0, 1, 2, 3, 4, 5, 6, 7
CAUTIOUS_PARAMS = (1.0, -3.0, 2.0, 0.1, 0.5, 0.15)
CONVENTION_PARAMS = (4.0, -3.0, 2.0, 0.1, 0.4, 0.5, 4.0, 7.0)


@register("random", description="uniform among the legal moves (a hand card to the Selection or the Foyer)")
@kernel(POLICY_SIG)
def random_policy(cfg, obs, opts, n_opts, params, rng):
    return below(rng, 0, n_opts)


@kernel(inline=True)
def attributes_of(c):
    """Every card sharing card ``c``'s colour or symbol (``c`` included)."""
    return (np.int64(L.COLOUR0) << (6 * (c // 6))) | (np.int64(L.SYMBOL0) << (c % 6))


@kernel
def selection_target(sel):
    """C1: (attribute index 0–11 of the Selection's majority, ties to the lowest; its count;
    number of attributes at that count). Colours are 0–5, symbols 6–11; (-1, 0, 0) if empty."""
    best = -1
    m = 0
    n_at = 0
    for a in range(12):
        mask = (np.int64(L.COLOUR0) << (6 * a)) if a < 6 else (np.int64(L.SYMBOL0) << (a - 6))
        k = popcount(sel & mask)
        if k > m:
            m = k
            best = a
            n_at = 1
        elif k == m and k > 0:
            n_at += 1
    return best, m, n_at


@kernel(inline=True)
def carries(c, a):
    return (c // 6) == a if a < 6 else (c % 6) == a - 6


@kernel(inline=True)
def count_of(sel, c, colour):
    if colour:
        return popcount(sel & (np.int64(L.COLOUR0) << (6 * (c // 6))))
    return popcount(sel & (np.int64(L.SYMBOL0) << (c % 6)))


@register("cautious", params=CAUTIOUS_PARAMS,
          description="each for themselves: Foyer only cards the Norm already covers; "
                      "play to make the own Foyer safe")
@kernel(POLICY_SIG)
def cautious(cfg, obs, opts, n_opts, params, rng):
    hand = obs[L.O_HAND]
    foyer = obs[L.O_FOYER]
    sel = obs[L.O_SEL]
    norm = obs[L.O_NORM]
    cov = covered(norm)
    unsafe = foyer & ~cov
    reinf = cfg[L.C_REINF_SEL] != 0
    tie = cfg[L.C_TIE_DISCARD] != 0
    per_dim = cfg[L.C_PER_DIM] != 0               # P3.1a
    last = popcount(sel) + 1 == L.SEL_MAX
    _, m, _ = selection_target(sel)
    best = -1e18
    bi = 0
    for i in range(n_opts):
        o = opts[i]
        c = o >> 1
        b = np.int64(1) << c
        if o & 1:
            v = params[P_SAFE] if b & cov else params[P_RISK]
        elif last:
            newcov = covered(norm | norm_keep(sel | b, reinf, tie, per_dim))
            v = (params[P_FIX] * popcount(unsafe & newcov)
                 + params[P_HANDCOV] * popcount(hand & ~b & newcov & ~cov))
        else:
            att = attributes_of(c) & ~cov
            mc = max(count_of(sel, c, True), count_of(sel, c, False)) + 1
            p = params[P_LEAD] if mc >= m else params[P_OTHER]
            v = p * (params[P_FIX] * popcount(unsafe & att)
                     + params[P_HANDCOV] * popcount(hand & ~b & att))
        if v > best:
            best = v
            bi = i
    return bi


@register("convention", params=CONVENTION_PARAMS,
          description="all together: follow the Selection's target (C1), "
                      "double-covered cards to the Foyer first (C2)")
@kernel(POLICY_SIG)
def convention(cfg, obs, opts, n_opts, params, rng):
    hand = obs[L.O_HAND]
    foyer = obs[L.O_FOYER]
    sel = obs[L.O_SEL]
    norm = obs[L.O_NORM]
    cov = covered(norm)
    dbl = double_covered(norm)
    unsafe = foyer & ~cov
    have = popcount(foyer & dbl)
    short = cfg[L.C_NEED] - have
    reinf = cfg[L.C_REINF_SEL] != 0
    tie = cfg[L.C_TIE_DISCARD] != 0
    per_dim = cfg[L.C_PER_DIM] != 0               # P3.1a
    last = popcount(sel) + 1 == L.SEL_MAX
    target, m, _ = selection_target(sel)
    best = -1e18
    bi = 0
    for i in range(n_opts):
        o = opts[i]
        c = o >> 1
        b = np.int64(1) << c
        if o & 1:
            if b & dbl:
                v = params[P_SAFE] + params[P_OTHER] * (2.0 if short > 0 else 1.0)
            elif b & cov:
                v = params[P_SAFE] if short <= 0 else params[P_SAFE] * 0.5
            else:
                v = params[P_RISK]
        elif last:
            kept = norm_keep(sel | b, reinf, tie, per_dim)
            n2 = norm | kept
            newcov = covered(n2)
            d2 = double_covered(n2)
            v = (params[P_FIX] * popcount(unsafe & newcov)
                 + params[P_HANDCOV] * popcount(hand & ~b & newcov & ~cov)
                 + params[P_HANDCOV] * popcount(hand & ~b & d2 & ~dbl))
            if short > 0 and popcount(foyer & d2) > have:
                v += params[P_FIX]
            if popcount(n2) > params[P_SMALL]:
                v -= params[P_BUDGET]
        else:
            att = attributes_of(c) & ~cov
            v = 0.6 * (params[P_FIX] * popcount(unsafe & att)
                       + params[P_HANDCOV] * popcount(hand & ~b & att))
            if target >= 0:
                room = popcount(norm) + m + 1 <= params[P_SMALL]   # C3: keep or tie
                if carries(c, target):
                    v += params[P_LEAD] if room else -params[P_LEAD]
                elif max(count_of(sel, c, True), count_of(sel, c, False)) + 1 >= m:
                    v += -params[P_LEAD] if room else params[P_LEAD]   # a tie at the majority
        if v > best:
            best = v
            bi = i
    return bi

