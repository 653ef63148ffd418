"""Sequential halving for the flat Monte Carlo searches (DĒMOS and Protocole ``ismcts``).

The budget of a decision is spent in equal stages; after each stage but the last the
better half of the candidates goes on, until two are left (Karnin, Koren & Somekh 2013).
Both searches evaluate every live candidate on the same determinisation in an iteration
(common random numbers), so ``tot[c]`` are comparable sums.
"""

from demos_sim.jit import kernel


@kernel
def stage_length(k, budget):
    """Iterations per stage for ``k`` candidates: the budget over ⌈log2 k⌉ stages (at
    least one stage, at least one iteration)."""
    stages = 1
    x = 2
    while x < k:
        x *= 2
        stages += 1
    return max(1, budget // stages)


@kernel
def keep_better_half(tot, cand, active):
    """Move the better half of the ``active`` candidates (``tot`` sums, ``cand`` their
    option indices) to the front, in place and stable (ties keep their order); returns
    how many go on."""
    keep = (active + 1) // 2
    for a in range(keep):
        b = a
        for c in range(a + 1, active):
            if tot[c] > tot[b]:
                b = c
        if b != a:
            for c in range(b, a, -1):           # move b to a, keep the order
                t = tot[c]
                tot[c] = tot[c - 1]
                tot[c - 1] = t
                y = cand[c]
                cand[c] = cand[c - 1]
                cand[c - 1] = y
    return keep
