"""Whole deals: on positions of simulated deals from trick 6 on (7 tricks left; three-hand: 7
of its 15), the solver's value equals an alpha-beta without a transposition table and without
equivalent cards (tests/oracles/alphabeta.py). The alpha-beta runs with the window
``(v - 1, v + 1)`` around the solver's value ``v``: a fail-hard alpha-beta returns a value
strictly inside its window only when that is the exact value, so ``v`` coming back proves it."""

from __future__ import annotations

import pytest

from pinochle_sim.core.cards import hand_faces
from pinochle_sim.rules import PRESETS
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver import Position, solve
from tests.catalog import ALL_PRESETS
from tests.oracles.alphabeta import ab_value


def proven(p: Position, seats: tuple[int, ...], v: int) -> int:
    r = p.rules
    return ab_value(
        [hand_faces(h) for h in p.hands], p.leader, list(p.trick), p.trump, r.trick_points,
        r.last_trick, r.head_trick, seats, r.must_follow, r.must_trump, window=(v - 1, v + 1),
    )  # fmt: skip


def check_deals(preset: str, hands: range, left: int) -> None:
    r = PRESETS[preset]
    for hand in hands:
        play = trick_play(0, hand, r)
        if not play.tricks:  # conceded: the bots played no tricks
            continue
        for t in range(play.start.tricks_left - left, len(play.tricks)):
            p = position_after(play, t)
            side = play.bidder if play.bidder is not None else play.start.leader
            res = solve(p, side=side)
            assert res.exact
            v = res.value
            assert proven(p, res.side_seats, v) == v, (preset, hand, t, v)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_deals_match_alphabeta(preset: str) -> None:
    check_deals(preset, range(2), left=5)


DEALS = {"partnership": 40, "partnership-classic": 30, "joedog": 30, "three-hand": 30,
         "two-hand": 30}  # fmt: skip
"""100 four-hand deals, and three-hand and two-hand play-outs besides."""


@pytest.mark.slow
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_100_deals_from_trick_6_match_alphabeta(preset: str) -> None:
    check_deals(preset, range(100, 100 + DEALS[preset]), left=7)
