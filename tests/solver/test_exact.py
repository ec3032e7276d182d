"""Exactness: the solver's value and every move value equal a plain, unpruned minimax
(tests/oracles/minimax.py, written from RULES.md 7 and 9) on random endgames of every preset,
2-4 tricks left, many of them inside a trick and with both copies of a card in one hand."""

from __future__ import annotations

import random

import pytest

from pinochle_sim.rules import PRESETS
from pinochle_sim.solver import solve
from tests.catalog import ALL_PRESETS
from tests.oracles.minimax import minimax, move_values
from tests.solver.endgames import random_endgame, trick_rules


def check_endgames(preset: str, count: int, seed: int) -> None:
    r = PRESETS[preset]
    tr = trick_rules(r)
    rng = random.Random(seed)
    mid_trick = both = 0
    for i in range(count):
        eg = random_endgame(rng, r, tricks=2 + i % 3)
        side = eg.side(r)
        res = solve(eg.position(r), side=eg.side_seat)
        want_moves = move_values(eg.hands, eg.leader, eg.trick, eg.trump, tr, side)
        # The root's value is the best of its moves' values for the seat to move (minimax's
        # own definition); walking the tree a second time for it is checked on every tenth.
        to_move = (eg.leader + len(eg.trick)) % r.players
        want = (max if to_move in side else min)(want_moves.values())
        if i % 10 == 0:
            assert minimax(eg.hands, eg.leader, eg.trick, eg.trump, tr, side) == want
        got_moves = {(m.card // 6, m.card % 6): m.value for m in res.moves}
        assert res.exact and res.value == want, (i, eg, res.value, want)
        assert got_moves == want_moves, (i, eg, got_moves, want_moves)
        mid_trick += bool(eg.trick)
        both += eg.has_both_copies()
    # the sample really covers the cases the rules make tricky
    assert mid_trick >= count // 3 and both >= count // 4, (mid_trick, both)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_endgames_match_minimax(preset: str) -> None:
    check_endgames(preset, 90, seed=11)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_2000_endgames_match_minimax(preset: str) -> None:
    check_endgames(preset, 2000, seed=2024)
