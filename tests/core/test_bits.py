"""The bit helpers (``core/bits.py``) against Python's own integer operations, and the unsigned
index helper against plain indexing."""

from __future__ import annotations

import random

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, nonneg, popcount
from pinochle_sim.core.jit import jit

VALUES = [0, 1, 2, 3, 1 << 23, (1 << 48) - 1, 0x0F0F0F0F0F0F, (1 << 62) + 5] + [
    random.Random(k).getrandbits(63) for k in range(50)
]


@jit
def _bits(x: int) -> tuple[int, int, int]:
    return popcount(x), lowest_bit_index(x), highest_bit_index(x)


@jit
def _read(a: np.ndarray, i: int, j: int) -> int:
    """a[i] by an unsigned index plus a[j] by a signed one."""
    return a[nonneg(i)] + 1000 * a[j]


def test_bit_helpers_match_python_integers() -> None:
    for x in VALUES:
        want_low = (x & -x).bit_length() - 1 if x else 64
        assert _bits(x) == (bin(x).count("1"), want_low, x.bit_length() - 1), hex(x)


def test_nonneg_indexes_the_same_element_as_a_signed_index() -> None:
    a = np.arange(100, 140, dtype=np.int64)
    for i in range(len(a)):
        assert _read(a, i, i) == a[i] + 1000 * a[i]
    assert _read(a, 3, -1) == a[3] + 1000 * a[-1]  # plain indices still wrap around
