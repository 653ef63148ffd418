"""Per-hand tables: one entry for every 5-card hand, indexed by its rank in the
combinatorial number system (colex order).

A hand is a 40-bit card mask (card id = suit*10 + value-1). The full rules' People deck
has 40 cards, so C(40, 5) = 658,008 hands; the simplified rules' has no aces (D1), 36
cards, C(36, 5) = 376,992 hands, ranked after squeezing the four ace bits out of the
mask. The rank of a hand with cards ``c1 < c2 < … < c5`` (positions in its deck) is
``C(c1,1) + C(c2,2) + … + C(c5,5)``: five bit scans and four small-table reads.

A table holds one byte a hand (several tables when more is needed), so that numba
freezes it into the compiled code like any small global array (arrays over 1 MB become
run-time addresses that cannot be cached on disk). The policy modules build their own tables from their own kernels at import
(:func:`hands5` lists the hands in rank order) and read them through :func:`rank5`.
"""

from __future__ import annotations

import numpy as np

from demos_sim.bits import lowest_bit, popcount
from demos_sim.demos.rules import VARIANTS
from demos_sim.jit import kernel

N_FULL = 658_008      # C(40, 5)
N_SIMPLE = 376_992    # C(36, 5)

# The scoring a table is computed for (Part V defaults): another carre_points or
# run_base, or a favourite suit (X1), is computed directly by the callers.
STD_CARRE = VARIANTS["carre_points"][1]
STD_RB0, STD_RB1, STD_RB2 = VARIANTS["run_base"][1]


def _binom_row(k: int) -> np.ndarray:
    from math import comb

    return np.array([comb(n, k) for n in range(41)], np.int64)


_C2 = _binom_row(2)
_C3 = _binom_row(3)
_C4 = _binom_row(4)
_C5 = _binom_row(5)
_ACES = np.int64(1 | (1 << 10) | (1 << 20) | (1 << 30))


@kernel(inline=True)
def squeeze(h):
    """A hand without aces -> its 36-bit mask over the simplified deck (aces removed)."""
    return (((h >> 1) & 0x1FF) | (((h >> 11) & 0x1FF) << 9) | (((h >> 21) & 0x1FF) << 18)
            | (((h >> 31) & 0x1FF) << 27))


@kernel(inline=True)
def unsqueeze(m):
    """Inverse of :func:`squeeze`: a 36-bit simplified-deck mask -> the card mask."""
    return (((m & 0x1FF) << 1) | (((m >> 9) & 0x1FF) << 11) | (((m >> 18) & 0x1FF) << 21)
            | (((m >> 27) & 0x1FF) << 31))


@kernel(inline=True)
def colex5(m):
    """Colex rank of a mask with exactly 5 bits set (0 … C(n,5)-1 over n bits)."""
    x = m
    r = lowest_bit(x)
    x &= x - 1
    r += _C2[lowest_bit(x)]
    x &= x - 1
    r += _C3[lowest_bit(x)]
    x &= x - 1
    r += _C4[lowest_bit(x)]
    x &= x - 1
    r += _C5[lowest_bit(x)]
    return r


@kernel(inline=True)
def rank5(h, full):
    """Index of the 5-card hand ``h`` in its rules' table (``full`` 1: 40 cards; 0: 36)."""
    return colex5(h) if full else colex5(squeeze(h))


@kernel(allocates=True)
def hands5(full):
    """Every 5-card hand of the rules' deck, in rank order (``hands5(f)[rank5(h, f)] == h``).

    Gosper's hack visits the 5-subsets of n bits in increasing numeric order, which is
    colex order."""
    n = 40 if full else 36
    total = N_FULL if full else N_SIMPLE
    out = np.empty(total, np.int64)
    m = np.int64(31)
    for i in range(total):
        out[i] = m if full else unsqueeze(m)
        c = m & -m
        r = m + c
        m = (((r ^ m) >> 2) // c) | r
    assert m >> n == 1 or total == 0
    return out


@kernel
def is_hand5(h, full):
    """A mask a table covers: 5 cards of the rules' deck."""
    return popcount(h) == 5 and (full or (h & _ACES) == 0)


@kernel(inline=True)
def std_scoring(sr, fav):
    """Is the scoring ``sr`` (scoring.scoring_rules) the one the tables are computed for,
    with no favourite suit? (The Carré's points do not matter without the Carré.)"""
    return (fav < 0 and sr[2] == STD_RB0 and sr[3] == STD_RB1 and sr[4] == STD_RB2
            and (sr[0] == 0 or sr[1] == STD_CARRE))


def build_tables(kernel, rows):
    """``(kernel(1), kernel(0))``: the tables for the full and for the simplified rules,
    each ``kernel(full)`` a uint8 array of shape (rows, hands): one byte a row for every
    hand of :func:`hands5` (the caller keeps each row as its own array, under 1 MB).

    Building takes a few tenths of a second, so the tables are kept on disk beside
    numba's cache (``__pycache__``), under a name holding a hash of every source file
    they are computed from (the kernel's module, this one, scoring, bits) and of the
    numba and numpy versions: an edit of any of them builds them again. (Variants need no
    key: a table is read only for the scoring it was computed for, :func:`std_scoring`.)
    Under ``NUMBA_DISABLE_JIT`` (plain Python, far too slow for a million hands) two
    empty tables: the callers then compute every case directly."""
    import hashlib
    import os
    import sys
    import tempfile
    from pathlib import Path

    import numba
    from numba import config

    if config.DISABLE_JIT:
        return np.zeros((rows, 0), np.uint8), np.zeros((rows, 0), np.uint8)
    from demos_sim import bits
    from demos_sim.demos import scoring

    h = hashlib.sha256(f"{numba.__version__} {np.__version__}".encode())
    for mod in (sys.modules[kernel.__module__], sys.modules[__name__], scoring, bits):
        h.update(Path(mod.__file__).read_bytes())
    name = f"{kernel.__module__}.{kernel.__name__}"
    cache = Path(__file__).resolve().parent / "__pycache__"
    path = cache / f"{name}-{h.hexdigest()[:20]}.npz"
    try:
        with np.load(path) as z:
            full, simple = z["full"], z["simple"]
        if full.shape == (rows, N_FULL) and simple.shape == (rows, N_SIMPLE):
            return full, simple
    except (OSError, KeyError, ValueError):
        pass
    full, simple = kernel(1), kernel(0)
    try:                                  # atomic: parallel workers may race here
        cache.mkdir(exist_ok=True)
        for old in cache.glob(f"{name}-*.npz"):
            old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".npz", dir=cache)
        with os.fdopen(fd, "wb") as f:
            np.savez(f, full=full, simple=simple)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError:
        pass                              # a read-only checkout: build in every process
    return full, simple
