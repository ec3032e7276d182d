"""The deal is uniform: face counts, suit lengths and seat correlations match sampling
without replacement (chi-square against the hypergeometric law)."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from pinochle_sim.runs.simulate.hands import play_hands
from tests.engines.auction.helpers import (
    POLICY_SETS,
    face_counts,
)


def hypergeom(k: int, good: int, draws: int = 12, total: int = 48) -> float:
    return math.comb(good, k) * math.comb(total - good, draws - k) / math.comb(total, draws)


def chi_square(observed: np.ndarray, probs: np.ndarray, n: int) -> tuple[float, int]:
    """Chi-square statistic with tail bins pooled until every expected count is >= 20."""
    expected = probs * n
    obs, exp = list(observed.astype(float)), list(expected)
    for _ in range(2):  # pool the low tail, then (reversed) the high tail
        while len(exp) > 2 and exp[0] < 20:
            e, o = exp.pop(0), obs.pop(0)
            exp[0] += e
            obs[0] += o
        obs.reverse()
        exp.reverse()
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp, strict=True))
    return stat, len(exp) - 1


@functools.cache
def uniformity_batch() -> dict[str, np.ndarray]:
    return play_hands(seed=31337, start=0, count=200_000, policies=POLICY_SETS["bid-pass"])


@pytest.mark.parametrize("seat", [0, 3])
def test_deal_face_counts_are_hypergeometric(seat: int) -> None:
    cols = uniformity_batch()
    n = len(cols["hand"])
    counts = face_counts(cols[f"dealt_{seat}"])
    means = counts.mean(axis=0)
    # 2 copies of each face among 48 cards, 12 drawn: mean 0.5, sd of the mean ~0.0014
    assert np.all(np.abs(means - 0.5) < 0.01), means
    probs = np.array([hypergeom(k, 2) for k in range(3)])
    for f in range(24):
        observed = np.bincount(counts[:, f], minlength=3)
        stat, df = chi_square(observed, probs, n)
        assert df == 2
        assert stat < 30, (f, observed, stat)


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_deal_suit_lengths_are_hypergeometric(seat: int) -> None:
    cols = uniformity_batch()
    n = len(cols["hand"])
    probs = np.array([hypergeom(k, 12) for k in range(13)])
    assert abs(probs.sum() - 1) < 1e-12
    for s in "shdc":
        observed = np.bincount(cols[f"len_{seat}_{s}"], minlength=13)[:13]
        assert observed.sum() == n
        stat, df = chi_square(observed, probs, n)
        assert 6 <= df <= 10
        assert stat < 40, (s, observed, stat)


def test_deal_seats_are_negatively_correlated_as_without_replacement() -> None:
    cols = uniformity_batch()
    # Multivariate hypergeometric: cov(len_0_s, len_1_s) = -12*12*12*36 / (48^2 * 47)
    want = -(12 * 12 * 12 * 36) / (48**2 * 47)
    var = 12 * (12 / 48) * (36 / 48) * (36 / 47)
    for s in "shdc":
        for a, b in ((0, 1), (0, 2), (1, 3), (2, 3)):
            cov = np.cov(cols[f"len_{a}_{s}"], cols[f"len_{b}_{s}"])
            assert abs(cov[0, 1] - want) < 0.03, (s, a, b, cov)
            assert abs(cov[0, 0] - var) < 0.05
