"""Bit tricks for 64-bit masks inside kernels (LLVM intrinsics: one instruction each).

Under ``NUMBA_DISABLE_JIT=1`` (stepping through a policy in a debugger) numba's
intrinsics cannot run as Python, so the same three functions are defined in plain Python
instead; they give the same answers on every int64 (tests/kit/test_nojit.py).
"""

from numba import config
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from demos_sim.jit import kernel

_U64 = (1 << 64) - 1


@intrinsic
def _ctpop(typingctx, src):
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(fn, [args[0]])

    return src(src), codegen


if config.DISABLE_JIT:
    def popcount(x):
        """Number of set bits of an int64 (two's complement, as the kernels count)."""
        return bin(int(x) & _U64).count("1")

    def lowest_bit(x):
        """Index of the lowest set bit of a non-zero int64."""
        x = int(x) & _U64
        return (x & -x).bit_length() - 1

    def highest_bit(x):
        """Index of the highest set bit of a non-zero int64."""
        return (int(x) & _U64).bit_length() - 1
else:
    @kernel(inline=True)
    def popcount(x):
        """Number of set bits of a non-negative int64."""
        return _ctpop(x)

    @kernel(inline=True)
    def lowest_bit(x):
        """Index of the lowest set bit of a non-zero int64."""
        return trailing_zeros(x)

    @kernel(inline=True)
    def highest_bit(x):
        """Index of the highest set bit of a non-zero int64."""
        return 63 - leading_zeros(x)


@kernel(inline=True)
def wrap(q, n):
    """``q % n`` for ``0 <= q < 2 * n`` (a seat counted round the table) without the
    division: a 64-bit integer division by a variable takes tens of cycles, and action
    orders ask for one at every seat."""
    return q - n if q >= n else q
