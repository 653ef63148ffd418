"""Random numbers: seeds -> per-chunk streams (Python side) and the in-kernel generator.

Chance is an input (STYLE.md habit 3): every stream derives from one user seed through
``numpy.random.SeedSequence``; kernels never touch global random state.

In kernels a stream is one ``uint64`` state word advanced by splitmix64; bounded draws
use Lemire's multiply-shift (bias below 2**-32 for the small ranges used here).
"""

from __future__ import annotations

import warnings

import numpy as np
from numba import config

from demos_sim.jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)


@kernel(inline=True)
def mix64(z):
    """splitmix64 finaliser: a bijective hash of one uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel(inline=True)
def next_u64(state, i):
    """Advance stream ``state[i]`` and return 64 random bits."""
    s = state[i] + _GOLDEN
    state[i] = s
    return mix64(s)


@kernel(inline=True)
def below(state, i, n):
    """Uniform integer in ``[0, n)`` from stream ``state[i]`` (n < 2**32)."""
    r = next_u64(state, i) & _MASK32
    return np.int64((r * np.uint64(n)) >> _S32)


@kernel
def shuffle_inplace(arr, n, state, i):
    """Fisher–Yates shuffle of ``arr[:n]`` with stream ``state[i]`` (the draws of
    :func:`below`, with the stream's word kept in a register: ``arr`` may alias
    ``state`` for all the compiler knows, so ``below`` would store and reload it at
    every swap)."""
    s = state[i]
    for k in range(n - 1, 0, -1):
        s += _GOLDEN
        j = np.int64(((mix64(s) & _MASK32) * np.uint64(k + 1)) >> _S32)
        t = arr[k]
        arr[k] = arr[j]
        arr[j] = t
    state[i] = s


@kernel
def derive(key, a, b):
    """Stream seed for item ``(a, b)`` under a 64-bit key (games in a chunk, seats …)."""
    return mix64(mix64(key ^ mix64(np.uint64(a) + _GOLDEN)) + np.uint64(b) * _GOLDEN)


def chunk_key(seed: int, chunk: int) -> np.uint64:
    """64-bit key of chunk ``chunk`` of a run seeded with ``seed``.

    ``SeedSequence(seed, spawn_key=(chunk,))`` is exactly what
    ``SeedSequence(seed).spawn(...)[chunk]`` would give, so any worker can build any
    chunk's stream without the others: results do not depend on the number of workers.
    """
    ss = np.random.SeedSequence(seed, spawn_key=(chunk,))
    return ss.generate_state(1, dtype=np.uint64)[0]


@kernel(allocates=True)
def game_keys(key, first, count):
    """Keys of games ``first … first+count-1`` under a chunk's 64-bit key."""
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = derive(key, 3, first + i)
    return out


# As plain Python (NUMBA_DISABLE_JIT=1, a policy in a debugger) the uint64 arithmetic
# above wraps exactly as in the kernels, but numpy warns at every wrap: the wraps are
# the algorithm.
if config.DISABLE_JIT:
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning,
                            module=__name__)
