"""The two-hand ``standard`` stock policy's cheapest card against a plain-Python definition.

The policy's text (``engines/two_hand/policies.py``): every held card has a *keep value*, its
trick points, plus ``trump_cost`` for a trump, plus ``meld_cost`` when losing it breaks a meld
it could lay now, or else ``near_cost`` when it breaks a meld one card short; the cheapest card
has the least keep value, then the lowest rank, then the lowest suit. With points rising by
rank (every preset) the kernel looks at one card per class of cards; these tests hold it to
the definition, written here, on random hands, meld masks, costs (negative ones too) and point
tables of both kinds.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pinochle_sim.engines.two_hand.decisions import _cheapest, _cheapest_scan
from pinochle_sim.policies.play import pack_points
from tests.policies.test_play_kernels import POINT_TABLES


def keep_by_definition(f: int, trump: int, points: list[int], now: int, near: int, costs):
    trump_cost, meld_cost, near_cost = costs
    v = points[f % 6] + (trump_cost if f // 6 == trump else 0)
    if now >> f & 1:
        v += meld_cost
    elif near >> f & 1:
        v += near_cost
    return v


def cheapest_by_definition(mask, trump, points, now, near, costs) -> int:
    faces = [f for f in range(24) if mask >> f & 1]
    if not faces:
        return -1
    return min(
        faces, key=lambda f: (keep_by_definition(f, trump, points, now, near, costs), f % 6, f // 6)
    )


COSTS = [(0, 0, 0), (6, 20, 8), (3, 3, 3), (-4, 10, -2), (0, -7, 5), (25, 1, 40), (2, 5, 1)]


@pytest.mark.parametrize("name", list(POINT_TABLES))
def test_cheapest_keep_matches_its_definition(name: str) -> None:
    points = POINT_TABLES[name]
    packed = pack_points(np.array(points, dtype=np.int64))
    rng = random.Random(name + "stock")
    for _ in range(1500):
        mask = rng.getrandbits(24) & rng.getrandbits(24)
        if rng.random() < 0.1:
            mask = 0x3F << (6 * rng.randrange(4))
        now = rng.getrandbits(24) & rng.getrandbits(24) & rng.getrandbits(24)
        near = rng.getrandbits(24) & rng.getrandbits(24)
        trump = rng.randrange(4)
        costs = rng.choice(COSTS)
        want = cheapest_by_definition(mask, trump, points, now, near, costs)
        args = (mask, trump, packed, now, near, costs)
        assert _cheapest(*args) == want, (hex(mask), trump, hex(now), hex(near), costs)
        assert _cheapest_scan(*args) == want, (hex(mask), trump, hex(now), hex(near), costs)
    assert _cheapest(0, 0, packed, 0, 0, (1, 2, 3)) == -1
