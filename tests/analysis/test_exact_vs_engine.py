"""The engine's simulated dealt-hand meld against the exact distribution, for every preset.

The records' ``meld_{seat}_{suit}`` columns hold the best meld of a seat's dealt hand if that
suit were trump (12 cards; three-hand 15 before the widow; two-hand its 12 dealt cards under
table D) and ``len_{seat}_{suit}`` the seat's length in that suit. Every seat's hand is a
uniformly dealt hand, so for each trump suit and trump length the simulated mean must match
the exact one within 4.5 standard errors (the seats of one deal are dependent: the standard
error is clustered by deal); each seat's trump lengths must be hypergeometric and each seat's
P(meld >= x) must match the exact tail (one seat per test: independent deals, binomial
standard errors from the exact probability). Always run on 20,000 deals per preset; the
``slow`` test repeats it on 1,000,000.
"""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_sim.analysis import exact
from pinochle_sim.core.cards import SUITS
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array
from tests.catalog import ALL_PRESETS

Z_MAX = 4.5
MIN_GROUP = 200
"""Trump lengths seen fewer times are not tested (their means are too skewed to be normal)."""
MIN_EXPECTED = 100
"""Tail probabilities and length frequencies are tested where n p and n (1 - p) reach this."""
CHUNK = 100_000


class Tally:
    """Sufficient statistics, accumulated over chunks of deals, of each (suit, trump length)
    group of seat observations: n, sums of meld and of its square, and the per-deal sums the
    cluster-robust standard error needs; per seat, histograms of trump length and meld."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.g = np.zeros((4, 5, 13))  # suit, (n, s1, sum a^2, sum a c, sum c^2), length
        self.clusters = np.zeros((4, 13))
        self.lengths = np.zeros((seats, 4, 13), dtype=np.int64)
        self.melds: dict[tuple[int, int], np.ndarray] = {}

    def add(self, col: dict[str, np.ndarray]) -> None:
        deals = len(col["meld_0_s"])
        for s, suit in enumerate(SUITS.lower()):
            v = np.stack([col[f"meld_{p}_{suit}"] for p in range(self.seats)]).astype(float)
            L = np.stack([col[f"len_{p}_{suit}"] for p in range(self.seats)]).astype(np.int64)
            key = np.arange(deals)[None, :] * 13 + L  # (deal, length) cells
            a = np.bincount(key.ravel(), weights=v.ravel(), minlength=13 * deals).reshape(-1, 13)
            c = np.bincount(key.ravel(), minlength=13 * deals).reshape(-1, 13)
            self.g[s, 0] += np.bincount(L.ravel(), minlength=13)
            self.g[s, 1] += np.bincount(L.ravel(), weights=v.ravel(), minlength=13)
            self.g[s, 2] += (a * a).sum(axis=0)
            self.g[s, 3] += (a * c).sum(axis=0)
            self.g[s, 4] += (c * c).sum(axis=0).astype(float)
            self.clusters[s] += (c > 0).sum(axis=0)
            for p in range(self.seats):
                self.lengths[p, s] += np.bincount(L[p], minlength=13)
                h = np.bincount(v[p].astype(np.int64))
                old = self.melds.get((p, s), np.zeros(0, dtype=np.int64))
                size = max(len(old), len(h))
                self.melds[(p, s)] = np.pad(old, (0, size - len(old))) + np.pad(
                    h, (0, size - len(h))
                )

    def mean_z(self, s: int, e: exact.ExactMeld) -> dict[int, float]:
        """z of the mean meld per trump length (groups with at least MIN_GROUP observations)."""
        n, s1, a2, ac, c2 = self.g[s]
        out = {}
        for L in range(13):
            if n[L] < MIN_GROUP:
                continue
            m = s1[L] / n[L]
            k = self.clusters[s, L]
            var = (a2[L] - 2 * m * ac[L] + m * m * c2[L]) / n[L] ** 2 * k / (k - 1)
            out[L] = (m - e.given_length(L)["mean"]) / np.sqrt(var)
        return out


def simulate(preset: str, deals: int, seed: int) -> Tally:
    inputs = engine_inputs(preset)
    names = inputs.layout.names
    tally = Tally(inputs.rules.players)
    for start in range(0, deals, CHUNK):
        out = play_hands_array(inputs, seed, start, min(CHUNK, deals - start))
        tally.add({n: out[i] for i, n in enumerate(names) if n.startswith(("meld_", "len_"))})
    return tally


def binomial_z(k: float, n: float, p: float) -> float | None:
    """z of k successes in n trials of probability p, where the normal law fits."""
    if n * p < MIN_EXPECTED or n * (1 - p) < MIN_EXPECTED:
        return None
    return (k - n * p) / np.sqrt(n * p * (1 - p))


def check(preset: str, deals: int, seed: int) -> int:
    """Every comparison for one preset; returns how many were made."""
    tally = simulate(preset, deals, seed)
    made = 0
    for s, suit in enumerate(SUITS):
        e = exact.exact_meld_distribution(preset, suit)
        for L, z in tally.mean_z(s, e).items():
            assert abs(z) <= Z_MAX, (preset, suit, "mean given length", L, z)
            made += 1
        for p in range(tally.seats):
            for L in range(13):
                z = binomial_z(tally.lengths[p, s, L], deals, e.given_length(L)["p"])
                if z is not None:
                    assert abs(z) <= Z_MAX, (preset, suit, "P(length)", p, L, z)
                    made += 1
            hist = tally.melds[(p, s)]
            at_least = hist[::-1].cumsum()[::-1]
            for x in e.counts:
                if x > 0:
                    z = binomial_z(at_least[x] if x < len(hist) else 0, deals, e.tail(x))
                    if z is not None:
                        assert abs(z) <= Z_MAX, (preset, suit, "P(meld >= x)", p, x, z)
                        made += 1
    return made


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_engine_meld_matches_exact(preset: str) -> None:
    assert check(preset, 20_000, seed=11) > 100


@pytest.mark.slow
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_engine_meld_matches_exact_on_a_million_deals(preset: str) -> None:
    assert check(preset, 1_000_000, seed=2024) > 300
