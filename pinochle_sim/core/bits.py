"""Bit helpers on hand bitboards, compiled to single machine instructions.

numba's nopython mode has no ``np.bitwise_count``; these tiny intrinsics emit LLVM's
``ctpop`` / ``cttz`` directly. All take and return int64 (the one integer dtype of the kernels),
except :func:`nonneg`, the one uint64 of the kernels outside the RNG, for array indices.
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        return builder.ctpop(value)

    return types.int64(x), codegen


@intrinsic
def lowest_bit_index(typingctx, x):
    """Index of the lowest set bit of an int64 (64 when ``x == 0``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        return builder.cttz(value, context.get_constant(types.boolean, False))

    return types.int64(x), codegen


@intrinsic
def highest_bit_index(typingctx, x):
    """Index of the highest set bit of an int64 (-1 when ``x == 0``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        lz = builder.ctlz(value, context.get_constant(types.boolean, False))
        return builder.sub(context.get_constant(types.int64, 63), lz)

    return types.int64(x), codegen


@intrinsic
def nonneg(typingctx, i):
    """An array index known to be ``>= 0``, as a uint64 with the same bits, so that numba
    indexes with it directly: a signed index is first tested for a negative value to wrap
    around (a compare, a conditional move and a register per access; a third of the
    instructions of the two-hand meld scan). Only for indices that cannot be negative: a
    negative one would read far outside the array. Use it at the index only
    (``a[nonneg(i)]``); arithmetic on the uint64 would mix signedness."""
    if not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], i, types.int64)

    return types.uint64(i), codegen
