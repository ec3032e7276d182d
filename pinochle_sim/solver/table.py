"""A solver work array made inside a kernel: :func:`.kernel.new_table` for jitted callers.

Play policies that search (``pimc``) need a work array per thread; the engine makes one per
chunk of hands with :func:`make_table`, the same layout as :func:`.kernel.new_table` (its
header names the table size; a zeroed table holds no entries).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.solver.kernel import BUCKET, ENTRIES, H_ALIGN, H_MAGIC, H_MASK, MAGIC


@jit
def make_table(bits: int) -> np.ndarray:
    """A zeroed work array with ``2**bits`` table buckets (4 <= bits <= 28)."""
    if bits < 4 or bits > 28:
        raise ValueError("table bits must be between 4 and 28")
    tt = np.zeros(ENTRIES + BUCKET + (1 << bits) * BUCKET, dtype=np.int64)
    tt[H_MAGIC] = MAGIC
    tt[H_MASK] = (1 << bits) - 1
    tt[H_ALIGN] = (-(tt.ctypes.data + 8 * ENTRIES) // 8) % BUCKET  # cache-line buckets: speed only
    return tt


@jit
def table_words(bits: int) -> int:
    """Length of a work array with ``2**bits`` table buckets."""
    return ENTRIES + BUCKET + (1 << bits) * BUCKET


@jit
def init_table(tt: np.ndarray) -> None:
    """Make a zeroed array of :func:`table_words` ``(bits)`` words a work array (in place)."""
    tt[H_MAGIC] = MAGIC
    tt[H_MASK] = (tt.shape[0] - ENTRIES - BUCKET) // BUCKET - 1
    tt[H_ALIGN] = (-(tt.ctypes.data + 8 * ENTRIES) // 8) % BUCKET
