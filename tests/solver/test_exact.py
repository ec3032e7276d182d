"""Exactness: the solver's value and every move value equal a plain, unpruned minimax
(tests/oracles/minimax.py, written from RULES.md 7 and 9) on random endgames of every preset,
2-4 tricks left, many of them inside a trick and with both copies of a card in one hand. Every
move value is checked twice: as ``solve`` answers it (each card searched alone) and as the
kernel's ``dd_move_values`` does (equivalent cards given the value of their class)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.solver import solve
from pinochle_sim.solver.driver import dd_move_values
from pinochle_sim.solver.workspace import new_table, pack_trick
from tests.catalog import ALL_PRESETS
from tests.oracles.minimax import minimax, move_values
from tests.solver.endgames import random_endgame, trick_rules


def check_endgames(preset: str, count: int, seed: int) -> None:
    r = PRESETS[preset]
    tr = trick_rules(r)
    rng = random.Random(seed)
    tt = new_table(12)
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
        p = eg.position(r)
        out = np.empty(24, dtype=np.int64)
        h = [*p.hands, 0, 0, 0][:4]
        mask = sum(1 << s for s in side)
        dd_move_values(*h, p.leader, pack_trick(p.trick), p.trump, rule_array(r), mask, tt, out)
        kernel = {(f // 6, f % 6): int(out[f]) for f in range(24) if out[f] >= 0}
        assert kernel == want_moves, (i, eg, kernel, want_moves)
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
