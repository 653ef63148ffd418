"""Protocole ``planner``: ``cautious`` / ``convention`` scoring plus a look at how the
current Selection can still resolve.

The reference policies score a card played to the Selection exactly only when it
completes the Selection; one card earlier they use a keep-chance guess. ``planner``
looks one card further: when its card leaves the Selection one short of the Norm
selection (P2.2, P3), it enumerates every card the next play could be — the cards of
this round's deal it has not seen (``O_DECKSET`` minus its hand, the Selection, the Norm,
the cards seen leaving and every card played face up; its own Foyer is known) — computes
the Norm selection for each (P3.1/P3.2 with the configuration's variants, P3.1a's
``majority_scope`` included) and scores the average coverage of its unsafe Foyer and
hand cards, times ``params[P_LOOK]`` (the next player may add to their Foyer
instead). In *all together* (P5) the Norm budget of ``convention`` (C3) applies to that
average too. Everything is read from the observation (RULES.md M2). The mode is read
from the configuration: *each for themselves* uses ``cautious``'s weights except that a
safe card to the Foyer scores ``params[P_SAFE]`` = 3, above any play, so a safe card is
banked at once (it scores at every later control; measured: win share 0.50 -> 0.54
against ``cautious``); *all together* uses ``convention``'s weights (params 9–15).
"""

import numpy as np

from demos_sim.bits import lowest_bit, popcount
from demos_sim.jit import kernel
from demos_sim.protocole import layout as L
from demos_sim.protocole.norm import covered, double_covered, norm_keep
from demos_sim.protocole.policies import POLICY_SIG, register
from demos_sim.protocole.policies.basic import carries, count_of, attributes_of, selection_target

(P_SAFE, P_RISK, P_FIX, P_HANDCOV, P_LEAD, P_OTHER, P_BUDGET, P_SMALL, P_LOOK,
 C_SAFE, C_RISK, C_FIX, C_HANDCOV, C_LEAD, C_OTHER, C_LOOK) = range(16)
# each for themselves (cautious's weights + look), then all together (convention's + look)
PLANNER_PARAMS = (3.0, -3.0, 2.0, 0.1, 0.5, 0.15, 4.0, 7.0, 0.3,
                  4.0, -3.0, 2.0, 0.1, 0.4, 0.5, 0.3)


@kernel
def unseen_cards(obs):
    """This round's cards the seat has not seen (others' hands and face-down Foyer cards)."""
    seen = obs[L.O_HAND] | obs[L.O_SEL] | obs[L.O_NORM] | obs[L.O_GONE] | obs[L.O_FOYER]
    for p in range(obs[L.O_N]):
        seen |= obs[L.O_PLAYED + p]
    return obs[L.O_DECKSET] & ~seen


@kernel
def _look(sel2, norm, unsafe, hand_rest, cov, dbl, foyer, short, unseen, reinf, tie, per_dim, coop,
          fix, handcov, budget, small):
    """Mean value of the Norm selection over every unseen card completing ``sel2``."""
    n = popcount(unseen)
    if n == 0:
        return 0.0
    total = 0.0
    have = popcount(foyer & dbl)
    x = unseen
    while x:
        c = lowest_bit(x)
        x &= x - 1
        n2 = norm | norm_keep(sel2 | (np.int64(1) << c), reinf, tie, per_dim)
        newcov = covered(n2)
        v = fix * popcount(unsafe & newcov) + handcov * popcount(hand_rest & newcov & ~cov)
        if coop:
            d2 = double_covered(n2)
            v += handcov * popcount(hand_rest & d2 & ~dbl)
            if short > 0 and popcount(foyer & d2) > have:
                v += fix
            if popcount(n2) > small:
                v -= budget
        total += v
    return total / n


@register("planner", params=PLANNER_PARAMS,
          description="cautious (each) / convention (coop) plus a look at every way the "
                      "Selection can still resolve")
@kernel(POLICY_SIG)
def planner(cfg, obs, opts, n_opts, params, rng):
    coop = cfg[L.C_MODE] != 0
    o0 = 0 if not coop else 9                 # weight block of the mode
    safe_w = params[o0 + 0]
    risk_w = params[o0 + 1]
    fix = params[o0 + 2]
    handcov = params[o0 + 3]
    lead = params[o0 + 4]
    other = params[o0 + 5]
    look = params[P_LOOK] if not coop else params[C_LOOK]
    budget = params[P_BUDGET]
    small = params[P_SMALL]
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
    per_dim = cfg[L.C_PER_DIM] != 0             # P3.1a
    ns = popcount(sel) + 1                    # Selection size after a play
    last = ns == L.SEL_MAX
    target, m, _ = selection_target(sel)
    unseen = unseen_cards(obs) if ns == L.SEL_MAX - 1 else 0
    best = -1e18
    bi = 0
    for i in range(n_opts):
        o = opts[i]
        c = o >> 1
        b = np.int64(1) << c
        if o & 1:                                           # to the own Foyer
            if coop and b & dbl:
                v = safe_w + other * (2.0 if short > 0 else 1.0)
            elif b & cov:
                v = safe_w if (not coop or short <= 0) else safe_w * 0.5
            else:
                v = risk_w
        elif last:                                          # completes: exact
            n2 = norm | norm_keep(sel | b, reinf, tie, per_dim)
            newcov = covered(n2)
            v = fix * popcount(unsafe & newcov) + handcov * popcount(hand & ~b & newcov & ~cov)
            if coop:
                d2 = double_covered(n2)
                v += handcov * popcount(hand & ~b & d2 & ~dbl)
                if short > 0 and popcount(foyer & d2) > have:
                    v += fix
                if popcount(n2) > small:
                    v -= budget
        elif ns == L.SEL_MAX - 1 and look > 0:                # one short: every completion
            v = look * _look(sel | b, norm, unsafe, hand & ~b, cov, dbl, foyer, short,
                             unseen & ~b, reinf, tie, per_dim, coop, fix, handcov, budget, small)
        else:
            att = attributes_of(c) & ~cov
            if coop:
                v = 0.6 * (fix * popcount(unsafe & att) + handcov * popcount(hand & ~b & att))
                if target >= 0:
                    room = popcount(norm) + m + 1 <= small
                    if carries(c, target):
                        v += lead if room else -lead
                    elif max(count_of(sel, c, True), count_of(sel, c, False)) + 1 >= m:
                        v += -lead if room else lead
            else:
                mc = max(count_of(sel, c, True), count_of(sel, c, False)) + 1
                p = lead if mc >= m else other
                v = p * (fix * popcount(unsafe & att) + handcov * popcount(hand & ~b & att))
        if v > best:
            best = v
            bi = i
    return bi
