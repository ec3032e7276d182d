"""Counter-based random streams, one per (seed, hand index, stream id).

Hand ``i`` of seed ``s`` draws from streams keyed by ``(s, i, stream)``: the deal has its own
stream and every policy decision another, so changing a policy never changes the cards, and no
result depends on thread count, chunk size or resume history. There is no global RNG.

A stream is a 2-element uint64 array ``[key, counter]`` owned by the caller (allocated once per
chunk, not per hand). Draw ``k`` is ``splitmix64(key + k * GOLDEN)``.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit

STREAM_DEAL = 0
STREAM_BID = 1
STREAM_PASS = 2
STREAM_PLAY = 3
STREAM_CONCEDE = 4
STREAM_DISCARD = 5
STREAM_MELD = 6

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


@jit
def _mix64(z):
    """The splitmix64 finaliser: a bijection on uint64 with good avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def stream_init(rs: np.ndarray, seed: int, hand: int, stream: int) -> None:
    """Key ``rs`` (uint64[2]) for draws of ``stream`` of hand ``hand`` of ``seed``."""
    k = _mix64(np.uint64(seed) + _GOLDEN)
    k = _mix64(k ^ np.uint64(hand))
    k = _mix64(k + np.uint64(stream) * _GOLDEN)
    rs[0] = k
    rs[1] = np.uint64(0)


@jit
def below(rs: np.ndarray, n: int) -> int:
    """Uniform integer in ``0..n-1`` (``1 <= n < 2**32``): Lemire's method with rejection."""
    r, counter = below_at(rs[0], rs[1], n)
    rs[1] = counter
    return r


@jit
def below_at(key, counter, n: int) -> tuple:
    """:func:`below` on a stream held in two scalars (``key``, ``counter``: ``rs[0]``,
    ``rs[1]``), for a loop that keeps them in registers: (the draw, the new counter)."""
    un = np.uint64(n)
    key = np.uint64(key)
    counter = np.uint64(counter) + np.uint64(1)
    m = (_mix64(key + counter * _GOLDEN) >> np.uint64(32)) * un
    low = m & _MASK32
    if low < un:
        threshold = (np.uint64(1 << 32) - un) % un
        while low < threshold:
            counter += np.uint64(1)
            m = (_mix64(key + counter * _GOLDEN) >> np.uint64(32)) * un
            low = m & _MASK32
    return np.int64(m >> np.uint64(32)), counter


@jit
def substream_key(rs: np.ndarray, counter: int):
    """The key of sub-stream ``counter`` of the stream ``rs`` (one per policy decision of a
    hand, say): draws from it never touch ``rs``, so a policy that uses them leaves every other
    seat's draws as they were. Draw ``k`` of the sub-stream is :func:`key_draw` ``(key, k)``."""
    return _mix64(rs[0] ^ _mix64(np.uint64(counter) + _GOLDEN))


@jit
def key_draw(key, k: int):
    """Draw ``k`` (1, 2, ...) of the sub-stream ``key``: 64 random bits."""
    return _mix64(key + np.uint64(k) * _GOLDEN)
