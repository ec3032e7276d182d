"""Consistency of what the solver reports: the two sides' values add up to the points left;
the best move's value is the position's value; playing ``line`` out gives ``value``; a reused
work array gives the same answers as a fresh one; a time limit gives proven bounds only."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pinochle_sim.core.cards import hand_faces
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver import Position, solve
from pinochle_sim.solver.context import new_generation
from pinochle_sim.solver.driver import (
    dd_best,
    dd_bounds,
    dd_card_test,
    dd_card_value,
    dd_move_values,
    dd_solve,
)
from pinochle_sim.solver.workspace import H_USE, new_table, pack_trick
from tests.catalog import ALL_PRESETS
from tests.solver.endgames import random_endgame


def positions(preset: str, count: int, seed: int) -> list[Position]:
    r = PRESETS[preset]
    rng = random.Random(seed)
    out = [random_endgame(rng, r, tricks=2 + i % 4).position(r) for i in range(count)]
    for hand in range(3):  # and real ones, from simulated deals
        play = trick_play(5, hand, r)
        if play.tricks:
            out.append(position_after(play, len(play.tricks) - 6))
    return out


def other_side(p: Position, side: int) -> int:
    """A seat of the other side (the next seat is always an opponent)."""
    return (side + 1) % p.players


def line_value(p: Position, line: tuple[int, ...], seats: tuple[int, ...]) -> int:
    total = 0
    cur: Position | None = p
    for f in line:
        assert cur is not None
        cur, won_by, pts = cur.play(f)
        if won_by in seats:
            total += pts
    assert cur is None, "the line must play every card"
    return total


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_values_are_consistent(preset: str) -> None:
    for p in positions(preset, 40, seed=3):
        side = p.to_move
        a = solve(p, side=side)
        b = solve(p, side=other_side(p, side))
        assert a.exact and b.exact
        if p.players == 3:  # one seat against two: the two opponents are one side
            assert b.value is not None
        else:
            assert a.value + b.value == p.points_left()
        best = max if side in a.side_seats else min
        assert best(m.value for m in a.moves) == a.value
        assert line_value(p, a.line, a.side_seats) == a.value
        assert a.line[0] in [m.card for m in a.moves if m.value == a.value]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_side_and_its_complement_share_the_points(preset: str) -> None:
    """Any set of seats against the rest (the kernel takes any side mask): the two values add
    up to the points left. In three-hand this is the bidder against the pair acting
    together, solved from either end."""
    everyone = (1 << PRESETS[preset].players) - 1
    for p in positions(preset, 20, seed=4):
        for mask in range(1, everyone):
            a = dd_solve(*kernel_args(p), mask, new_table(10))
            b = dd_solve(*kernel_args(p), everyone ^ mask, new_table(10))
            assert a + b == p.points_left(), (p, mask)


def test_three_hand_seats_alone_take_at_most_the_points_left() -> None:
    """Each seat alone can guarantee its value whatever the others do, so if all three play
    their guaranteeing strategies at once each gets at least its value: the values sum to at
    most the points left."""
    for p in positions("three-hand", 20, seed=6):
        assert sum(solve(p, side=s).value for s in range(3)) <= p.points_left()


def kernel_args(p: Position) -> tuple:
    h = [*p.hands, 0, 0, 0][:4]
    return (*h, p.leader, pack_trick(p.trick), p.trump, rule_array(p.rules))


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_kernel_api_agrees_and_reused_tables_change_nothing(preset: str) -> None:
    shared = new_table(12)  # small, so entries are replaced often
    for p in positions(preset, 25, seed=5):
        mask = sum(1 << s for s in p.side_seats(0))
        fresh = new_table(12)
        v = dd_solve(*kernel_args(p), mask, fresh)
        assert dd_solve(*kernel_args(p), mask, shared) == v
        f, bv = dd_best(*kernel_args(p), mask, shared)
        assert bv == v and f in p.legal()
        out = np.empty(24, dtype=np.int64)
        dd_move_values(*kernel_args(p), mask, shared, out)
        res = solve(p, side=0)
        assert res.value == v
        assert {m.card: m.value for m in res.moves} == {
            g: int(out[g]) for g in range(24) if out[g] >= 0
        }
        assert res.line[0] == f


def test_one_table_across_rule_sets_trumps_and_sides_gives_fresh_tables_values() -> None:
    """A work array keeps what depends on the points alone (the canonical ranks, the rank
    orders) from one call to the next while the points stay the same: positions of every preset
    taken in turn, each for both sides (the trump and side change between calls, the rule set
    every call), solved on one shared array, agree with a fresh array each."""
    shared = new_table(12)
    by_preset = [positions(preset, 6, seed=17) for preset in ALL_PRESETS]
    for i in range(max(len(ps) for ps in by_preset)):
        for ps in by_preset:
            if i >= len(ps):
                continue
            p = ps[i]
            for side in (0, 1):
                mask = sum(1 << s for s in p.side_seats(side))
                v = dd_solve(*kernel_args(p), mask, new_table(12))
                assert dd_solve(*kernel_args(p), mask, shared) == v


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_one_card_tested_or_solved_alone_agrees_with_every_cards_values(preset: str) -> None:
    """``dd_card_value`` is the card's value whatever true bounds and guess it starts from
    (bounds off the unit of points included, as for ``dd_bounds``); ``dd_card_test`` is a
    fail-soft test: at or below the value it passes with a bound no higher than the value,
    above it fails with a bound no lower (what ``pimc`` relies on)."""
    rng = random.Random(11)
    tt = new_table(12)
    checked = 0
    for p in positions(preset, 25, seed=7):
        mask = sum(1 << s for s in p.side_seats(p.to_move))
        out = np.empty(24, dtype=np.int64)
        dd_move_values(*kernel_args(p), mask, new_table(12), out)
        value = dd_solve(*kernel_args(p), mask, tt)
        lo, hi = max(0, value - rng.randrange(30)), value + rng.randrange(30)
        assert dd_bounds(*kernel_args(p), mask, tt, lo, hi, 1 << 62) == (value, value)
        for g in p.legal():
            v = int(out[g])
            lo = max(0, v - rng.randrange(30))
            hi = v + rng.randrange(30)
            guess = rng.choice([-1, lo, v, hi])
            assert dd_card_value(*kernel_args(p), mask, tt, g, lo, hi, guess) == v
            assert dd_card_value(*kernel_args(p), mask, tt, g, 0, 1 << 30, -1) == v
            for need in (v - 7, v - 1, v, v + 1, v + 5, v + 13):
                t = dd_card_test(*kernel_args(p), mask, tt, g, need)
                if need <= v:
                    assert need <= t <= v, (need, t, v)
                else:
                    assert v <= t < need, (need, t, v)
            checked += 1
    assert checked >= 50


def test_time_limit_gives_proven_bounds() -> None:
    play = trick_play(0, 3, PRESETS["partnership"])
    p = position_after(play, 3)
    exact = solve(p, side=play.bidder)
    rushed = solve(p, side=play.bidder, time_limit=1e-4, table=new_table(12))
    assert rushed.lower <= exact.value <= rushed.upper
    if not rushed.exact:
        assert rushed.line == ()
        for m, e in zip(rushed.moves, exact.moves, strict=True):
            assert m.lower <= e.value <= m.upper


def test_a_new_generation_forgets_entries_made_under_another_context() -> None:
    """Entries are tagged with their generation: after new_generation, or under another trump
    or side, none of them may answer for a position (stale bounds would be wrong values)."""
    r = PRESETS["partnership"]
    p = Position.parse(r, "S", 0, "AS KS QS; 10S JS 9S; AH KH QH; 10H JH 9H")
    shared = new_table(8)
    for trump in (0, 1, 0, 1):
        for mask in (5, 10):
            q = Position(r, trump, p.leader, p.hands)
            fresh = dd_solve(*kernel_args(q), mask, new_table(8))
            assert dd_solve(*kernel_args(q), mask, shared) == fresh
            new_generation(shared)
            assert dd_solve(*kernel_args(q), mask, shared) == fresh


def test_a_call_uses_a_part_of_the_table_that_fits_its_position() -> None:
    """Positions of fewer than 12 cards in the fullest hand search in the first 2**(cards + 6)
    buckets (a part that stays in the cache); bigger ones in the whole table; a table smaller
    than the part is used whole. The values do not change."""
    play = trick_play(0, 3, PRESETS["partnership"])
    big = new_table(21)
    small = new_table(10)
    for tricks, part in ((0, None), (1, 17), (4, 14), (7, 11), (11, 7)):
        p = position_after(play, tricks)
        mask = sum(1 << s for s in p.side_seats(play.bidder))
        cards = max(len(hand_faces(h)) for h in p.hands)
        assert cards == 12 - tricks
        v = dd_solve(*kernel_args(p), mask, big)
        want = (1 << 21) - 1 if part is None else (1 << part) - 1
        assert big[H_USE] == want
        assert dd_solve(*kernel_args(p), mask, small) == v
        assert small[H_USE] == min(want, (1 << 10) - 1)
