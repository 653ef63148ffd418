"""An example DĒMOS policy: keep high cards, draw blind, never veto, the rest at random."""

import numba

from demos_sim.demos import layout as L
from demos_sim.demos.policies import POLICY_SIG, register
from demos_sim.rng import below


@register("highcards", description="example: discard the lowest card, draw blind, never veto")
@numba.njit(POLICY_SIG, cache=True)
def highcards(cfg, obs, opts, n_opts, params, rng):
    kind = obs[L.O_KIND]
    if kind == L.K_PUBLIC or kind == L.K_SECRET or kind == L.K_UNAN:
        best, best_i = 99, 0
        for i in range(n_opts):
            o = opts[i]
            if kind == L.K_PUBLIC:
                card = o                      # public turn: the option is the card
            elif o < 0 or o % 64 != L.DECK_TOP:
                continue                      # skip the pass and every take of a face-up card
            else:
                card = o // 64                # discard o // 64, then draw the deck's top
            value = card % 10 + 1
            if value < best:
                best, best_i = value, i
        return best_i
    if kind == L.K_VETO:
        return 0                              # option 0 = no veto
    return below(rng, 0, n_opts)              # allocation, Media, colour, favourite suit
