"""The transposition table: proven bounds on a trick-boundary position's value and its deciding
move, keyed on the canonical hands (ranks already played ignored, :data:`.workspace.CANON`), two
32-byte entries to a cache line, replaced by the work their search took."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, nonneg
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import rank_of, suit_of
from pinochle_sim.solver.workspace import (
    BOUND_MASK,
    BUCKET,
    CANON,
    E_DATA,
    E_WORDS,
    ENTRIES,
    H_ALIGN,
    H_GEN,
    H_HANDS,
    H_USE,
    NO_BOUND,
    SEATS,
    TAG_SHIFT,
    UNCANON,
)

TABLE_MIN_LEFT = 2
"""Positions with fewer tricks left are searched, not looked up (measured: cheaper)."""


@jit(inline="always")
def _make_key(tt: np.ndarray, ko: int, leader: int) -> None:
    """Write the table key of the trick-boundary position in the header (hands) to ``ko``:
    the canonical hands (:data:`CANON`) packed in 3 words (see :data:`E_KEY`), the tag
    (leader and generation) and the bucket's offset."""
    every = 0
    for s in range(SEATS):
        every |= tt[nonneg(H_HANDS + s)]
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for suit in range(4):
        sh = 6 * suit
        base = CANON + 64 * ((every >> sh) & 63)
        for s in range(SEATS):
            h = tt[nonneg(H_HANDS + s)]
            one = tt[nonneg(base + ((h >> sh) & 63))]
            two = tt[nonneg(base + ((h >> (24 + sh)) & 63))]
            c = (one << sh) | (two << (24 + sh))
            if s == 0:
                c0 |= c
            elif s == 1:
                c1 |= c
            elif s == 2:
                c2 |= c
            else:
                c3 |= c
    w0 = c0 | (c1 << 48)
    w1 = (c1 >> 16) | (c2 << 32)
    w2 = (c2 >> 32) | (c3 << 16)
    tag = leader | (tt[H_GEN] << 2)
    tt[nonneg(ko)] = w0
    tt[nonneg(ko + 1)] = w1
    tt[nonneg(ko + 2)] = w2
    tt[nonneg(ko + 3)] = tag
    h = w0 * 0x9E3779B97F4A7C15
    h ^= w1 * 0xC2B2AE3D27D4EB4F
    h ^= (w2 + tag) * 0x165667B19E3779F9
    h ^= h >> 31
    tt[nonneg(ko + 4)] = ENTRIES + tt[H_ALIGN] + ((h >> 17) & tt[H_USE]) * BUCKET


@jit
def _canon_face(tt: np.ndarray, f: int) -> int:
    """The face ``f`` in the canonical ranks of the current position (hands in the header)."""
    every = 0
    for s in range(SEATS):
        every |= tt[nonneg(H_HANDS + s)]
    suit = suit_of(f)
    y = tt[nonneg(CANON + 64 * ((every >> (6 * suit)) & 63) + (1 << rank_of(f)))]
    return 6 * suit + lowest_bit_index(y)


@jit
def _real_face(tt: np.ndarray, c: int) -> int:
    """The face of the current position that the canonical face ``c`` stands for (-1: none)."""
    every = 0
    for s in range(SEATS):
        every |= tt[nonneg(H_HANDS + s)]
    suit = suit_of(c)
    r = tt[nonneg(UNCANON + 6 * ((every >> (6 * suit)) & 63) + rank_of(c))]
    return 6 * suit + r if r >= 0 else -1


@jit(inline="always")
def _matches(tt: np.ndarray, e: int, ko: int) -> bool:
    return (
        tt[nonneg(e)] == tt[nonneg(ko)]
        and tt[nonneg(e + 1)] == tt[nonneg(ko + 1)]
        and tt[nonneg(e + 2)] == tt[nonneg(ko + 2)]
        and tt[nonneg(e + E_DATA)] >> TAG_SHIFT == tt[nonneg(ko + 3)]
    )


@jit(inline="always")
def _tt_find(tt: np.ndarray, ko: int) -> int:
    """Offset of the entry with the key at ``ko``, or -1."""
    b = tt[nonneg(ko + 4)]
    if _matches(tt, b, ko):
        return b
    if _matches(tt, b + E_WORDS, ko):
        return b + E_WORDS
    return -1


@jit
def _tt_store(tt: np.ndarray, ko: int, spent: int, need: int, v: int, best: int) -> None:
    """Record what a fail-soft test for ``need`` returned for the key at ``ko``: ``value >= v``
    when ``v >= need``, else ``value <= v``; ``best`` (a canonical face, or -1) is the move that
    decided it; ``spent`` the nodes the search took (entries that took more are kept longer)."""
    work = min(highest_bit_index(max(spent, 0)) + 1, 31)
    b = tt[nonneg(ko + 4)]
    e = _tt_find(tt, ko)
    if e >= 0:
        data = tt[nonneg(e + E_DATA)]
        lo = data & BOUND_MASK
        hi = (data >> 16) & BOUND_MASK
        old_best = (data >> 32) & 0xFF
        work = max(work, (data >> 40) & 0x1F)
    else:
        # first slot: the entry that took the most work stays; second slot: always replaced
        d0 = tt[nonneg(b + E_DATA)]
        stale = (d0 >> (TAG_SHIFT + 2)) != tt[H_GEN]
        if stale or ((d0 >> 40) & 0x1F) <= work:
            for j in range(E_WORDS):
                tt[nonneg(b + E_WORDS + j)] = tt[nonneg(b + j)]
            e = b
        else:
            e = b + E_WORDS
        for j in range(3):
            tt[nonneg(e + j)] = tt[nonneg(ko + j)]
        lo = 0
        hi = NO_BOUND
        old_best = 0
    if v >= need:
        lo = max(lo, v)
    else:
        hi = min(hi, v)
    nb = best + 1 if best >= 0 else old_best
    tt[nonneg(e + E_DATA)] = (
        lo | (hi << 16) | (nb << 32) | (work << 40) | (tt[nonneg(ko + 3)] << TAG_SHIFT)
    )
