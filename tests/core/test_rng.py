"""The per-hand random streams (pinochle_sim.core.rng): draws are a pure function of (seed,
hand, stream, draw number), and the register-held form of a draw is the same draw."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.rng import STREAM_DEAL, STREAM_PLAY, below, below_at, stream_init

MASK64 = (1 << 64) - 1


def mix64(z: int) -> int:
    """splitmix64's finaliser, written from its published constants."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def test_below_is_lemire_on_splitmix_draws() -> None:
    """Draw k of a stream is mix64(key + k * golden); ``below(n)`` keeps the top 32 bits'
    product with n, rejecting the biased low range (Lemire 2019)."""
    rs = np.zeros(2, dtype=np.uint64)
    stream_init(rs, 7, 12, STREAM_DEAL)
    key, k = int(rs[0]), 0
    for n in [48, 47, 3, 1, 2, 1000, 2**31 + 5] * 20:
        got = below(rs, n)
        while True:
            k += 1
            m = (mix64((key + k * 0x9E3779B97F4A7C15) & MASK64) >> 32) * n
            if (m & 0xFFFFFFFF) >= ((1 << 32) - n) % n:
                break
        assert got == m >> 32
        assert int(rs[1]) == k


def test_below_at_is_the_same_draw_as_below() -> None:
    for seed, hand, stream in [(0, 0, STREAM_DEAL), (20261201, 99, STREAM_PLAY)]:
        rs = np.zeros(2, dtype=np.uint64)
        stream_init(rs, seed, hand, stream)
        key, counter = rs[0], rs[1]
        for n in list(range(48, 0, -1)) + [2**31 + 5] * 30:
            r, counter = below_at(key, counter, n)
            assert r == below(rs, n)
            assert counter == rs[1]
