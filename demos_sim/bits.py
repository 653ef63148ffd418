"""Bit tricks for 64-bit masks inside kernels (LLVM intrinsics: one instruction each)."""

from numba import njit
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, src):
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(fn, [args[0]])

    return src(src), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a non-negative int64."""
    return _ctpop(x)


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero int64."""
    return trailing_zeros(x)
