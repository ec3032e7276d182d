"""The greedy play policy's card-choice kernels against plain-Python definitions.

``_cheapest`` picks the face a player loses most cheaply (fewest trick points, a side suit
before trump, the lowest rank, then the lowest suit). When the points never fall as the rank
rises (every preset), it looks at one card per suit; these tests hold it to the definition,
written here from the policy's text, on random masks and point tables of both kinds.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pinochle_sim.policies.play import RISING, _cheapest, _cheapest_scan, pack_points
from pinochle_sim.rules import presets

POINT_TABLES = {
    "counters (A, 10, K = 1)": [0, 0, 0, 1, 1, 1],
    "classic (11, 10, 4, 3, 2, 0)": [0, 2, 3, 4, 10, 11],
    "all equal": [5, 5, 5, 5, 5, 5],
    "falling (not rising)": [11, 10, 4, 3, 2, 0],
    "mixed (not rising)": [0, 10, 0, 4, 1, 11],
}


def cheapest_by_definition(mask: int, trump: int, points: list[int]) -> int:
    faces = [f for f in range(24) if mask >> f & 1]
    if not faces:
        return -1
    return min(faces, key=lambda f: (points[f % 6], f // 6 == trump, f % 6, f // 6))


@pytest.mark.parametrize("name", list(POINT_TABLES))
def test_cheapest_matches_its_definition(name: str) -> None:
    points = POINT_TABLES[name]
    packed = pack_points(np.array(points, dtype=np.int64))
    rising = all(a <= b for a, b in zip(points, points[1:]))
    assert bool(packed >> RISING & 1) == rising
    rng = random.Random(name)
    masks = [0, (1 << 24) - 1] + [rng.getrandbits(24) & rng.getrandbits(24) for _ in range(400)]
    for mask in masks:
        for trump in range(4):
            want = cheapest_by_definition(mask, trump, points)
            assert _cheapest(mask, trump, packed) == want, (hex(mask), trump)
            assert _cheapest_scan(mask, trump, packed) == want, (hex(mask), trump)


@pytest.mark.parametrize("preset", presets.PRESETS)
def test_every_preset_scores_rising_points(preset: str) -> None:
    """The one-card-per-suit path is the one the presets take."""
    points = presets.get_preset(preset).trick_points
    assert all(a <= b for a, b in zip(points, points[1:]))
