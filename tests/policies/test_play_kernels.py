"""The greedy play policy's card-choice kernels against plain-Python definitions.

``_cheapest`` picks the face a player loses most cheaply (fewest trick points, a side suit
before trump, the lowest rank, then the lowest suit). When the points never fall as the rank
rises (every preset), it looks at one card per suit; these tests hold it to the definition,
written here from the policy's text, on random masks and point tables of both kinds.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from pinochle_sim.core.tricks import beaters
from pinochle_sim.policies.play import (
    RISING,
    _cheapest,
    _cheapest_scan,
    _richest,
    _richest_scan,
    _unbeaten,
    pack_points,
)
from pinochle_sim.rules import presets

POINT_TABLES = {
    "counters (A, 10, K = 1)": [0, 0, 0, 1, 1, 1],
    "classic (11, 10, 4, 3, 2, 0)": [0, 2, 3, 4, 10, 11],
    "all equal": [5, 5, 5, 5, 5, 5],
    "plateaus": [1, 1, 4, 4, 10, 10],
    "zero then one": [0, 0, 0, 0, 0, 7],
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
    rising = all(a <= b for a, b in itertools.pairwise(points))
    assert bool(packed >> RISING & 1) == rising
    rng = random.Random(name)
    masks = [0, (1 << 24) - 1] + [rng.getrandbits(24) & rng.getrandbits(24) for _ in range(400)]
    masks += [1 << f for f in range(24)] + [0x3F << (6 * s) for s in range(4)]
    for mask in masks:
        for trump in range(4):
            want = cheapest_by_definition(mask, trump, points)
            assert _cheapest(mask, trump, packed) == want, (hex(mask), trump)
            assert _cheapest_scan(mask, trump, packed) == want, (hex(mask), trump)


def richest_by_definition(mask: int, trump: int, points: list[int]) -> int:
    faces = [f for f in range(24) if mask >> f & 1]
    if not faces:
        return -1
    return min(faces, key=lambda f: (-points[f % 6], f // 6 == trump, f % 6, f // 6))


@pytest.mark.parametrize("name", list(POINT_TABLES))
def test_richest_matches_its_definition(name: str) -> None:
    """The card a player gives a partner sure to win: most points, a side suit before trump,
    the lowest rank, then the lowest suit."""
    points = POINT_TABLES[name]
    packed = pack_points(np.array(points, dtype=np.int64))
    rng = random.Random(name + "rich")
    masks = [0, (1 << 24) - 1] + [rng.getrandbits(24) & rng.getrandbits(24) for _ in range(400)]
    masks += [1 << f for f in range(24)] + [0x3F << (6 * s) for s in range(4)]
    for mask in masks:
        for trump in range(4):
            want = richest_by_definition(mask, trump, points)
            assert _richest(mask, trump, packed) == want, (hex(mask), trump)
            assert _richest_scan(mask, trump, packed) == want, (hex(mask), trump)


@pytest.mark.parametrize("preset", presets.PRESETS)
def test_every_preset_scores_rising_points(preset: str) -> None:
    """The one-card-per-suit path is the one the presets take."""
    points = presets.get_preset(preset).trick_points
    assert all(a <= b for a, b in itertools.pairwise(points))


def beats(f: int, g: int, trump: int) -> bool:
    """Whether face ``f`` played later beats the winning face ``g`` (docs/rules.md, trick play:
    a higher card of g's suit, or any trump over a side-suit card)."""
    if f // 6 == g // 6:
        return f % 6 > g % 6
    return f // 6 == trump


def test_unbeaten_keeps_the_cards_no_unseen_card_beats() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        trump, winner = rng.randrange(4), rng.randrange(24)
        unseen = rng.getrandbits(24) & rng.getrandbits(24)
        cards = rng.getrandbits(24) & beaters(winner, trump)
        want = sum(
            1 << f
            for f in range(24)
            if cards >> f & 1 and not any(unseen >> u & 1 and beats(u, f, trump) for u in range(24))
        )
        assert _unbeaten(cards, unseen, winner, trump) == want, (winner, trump, hex(unseen))
