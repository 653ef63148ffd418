"""My first DĒMOS bot (docs/writing-a-bot.md): build the best hand, veto with a strong one.

Discard turns: every option is valued by the hand it leaves — a face-up card taken is
known, so the new hand is scored exactly; a blind draw keeps 4 known cards. The highest
score wins, and on a tie the discard of the lowest card. Veto: when the hand already
scores ``params[0]`` points. Every other decision: at random.
"""

import numba

from demos_sim.demos.kit import (
    VETO_NO, VETO_YES, card_value, decision_kind, discard_of, hand_after, hand_score,
    is_pass, my_hand,
)
from demos_sim.demos.policies import POLICY_SIG, register

VETO_AT = 0                       # params[0]: veto from this many points on


@numba.njit(POLICY_SIG, cache=True)
def best_hand(cfg, obs, opts, n_opts, params, rng):
    """Public, secret and unanimous discards (D3.2, D3.3, D3.4.3)."""
    kind = decision_kind(obs)
    hand = my_hand(obs)
    best, best_i = -1, 0
    for i in range(n_opts):
        o = opts[i]
        if is_pass(o):
            value = hand_score(cfg, obs, hand) * 100          # keep the hand as it is
        else:
            after = hand_after(kind, o, hand)                 # 5 cards, or 4 + a blind draw
            value = hand_score(cfg, obs, after) * 100 + 10 - card_value(discard_of(kind, o))
        if value > best:
            best, best_i = value, i
    return best_i


@numba.njit(POLICY_SIG, cache=True)
def veto_strong_hand(cfg, obs, opts, n_opts, params, rng):
    """The veto check (D3.4.1): cancel the unanimous turn to keep a strong hand."""
    if hand_score(cfg, obs, my_hand(obs)) >= params[VETO_AT]:
        return VETO_YES
    return VETO_NO


register("first_bot", discard=best_hand, veto=veto_strong_hand, params=(18.0,),
         description="example: the best hand it can see, veto from 18 points")
