"""The solver bench shows its progress: a callback after every deal, and the CLI's stderr
lines (so a long preset run does not look hung). ``bench --solver-only`` itself is tested in
tests/cli/test_solver_times.py."""

from __future__ import annotations

import pytest

from pinochle_sim.bench.solver_times import SolverBench, solver_times
from pinochle_sim.bench.suite import every_seconds


def test_progress_is_called_after_every_deal() -> None:
    calls: list[tuple[int, int, float]] = []
    b = solver_times("two-hand", deals=3, progress=lambda *a: calls.append(a))
    assert [(done, total) for done, total, _ in calls] == [(1, 3), (2, 3), (3, 3)]
    seconds = [s for _, _, s in calls]
    assert seconds == sorted(seconds) and seconds[-1] == pytest.approx(sum(b.seconds))


def test_progress_lines_are_throttled() -> None:
    seen: list[str] = []
    every_time = every_seconds("two-hand", 0.0, seen.append)
    every_time(1, 2, 0.5)
    every_time(2, 2, 1.3)
    assert seen == [
        "  solver, two-hand: 1/2 deals, 0.5 s",
        "  solver, two-hand: 2/2 deals, 1.3 s",
    ]
    seen.clear()
    rarely = every_seconds("three-hand", 3600.0, seen.append)
    rarely(1, 3, 0.1)  # too soon after the start: nothing
    rarely(3, 3, 0.3)  # the last deal is always shown
    assert seen == ["  solver, three-hand: 3/3 deals, 0.3 s"]


def test_median_confidence_interval_by_order_statistics() -> None:
    # n = 20: P(X <= 5) = 0.0207 <= 0.025 < P(X <= 6) = 0.0577 for X ~ binomial(20, 1/2), so
    # the 95% interval runs from the 6th to the 15th smallest value (coverage 95.9%)
    b = SolverBench("x", 20, 1, tuple(float(i) for i in range(20)), tuple(range(100, 120)))
    assert b.median_ci() == (5.0, 14.0)
    assert b.median_ci("nodes") == (105, 114)
    # n = 5: even the extremes cover only 1 - 2/32 = 93.75% < 95%: the whole range
    five = SolverBench("x", 5, 1, (3.0, 1.0, 2.0, 5.0, 4.0), (1, 2, 3, 4, 5))
    assert five.median_ci() == (1.0, 5.0)
    assert "(95% CI 5.000-14.000)" in b.line()


def test_positions_with_some_cards_a_seat_leave_out_hands_that_end_sooner() -> None:
    """``cards=3``: each position is the bots' play with 3 cards left a seat; a hand whose
    trick play ends sooner (a conceded one has none) is left out of the count."""
    from pinochle_sim.runs.inspect.solve import trick_play

    kept = [h for h in range(12) if len(trick_play(0, h, "partnership").tricks) > 12 - 3]
    b = solver_times("partnership", deals=12, cards=3)
    assert (b.deals, b.cards) == (len(kept), 3) and len(b.seconds) == len(kept)
    assert "of 3 cards a seat" in b.line()


def test_positions_solved_in_milliseconds_are_shown_in_ms() -> None:
    fast = SolverBench("x", 3, 8, (0.0012, 0.0034, 0.0101), (10, 20, 30))
    assert "median 3.40 ms" in fast.line() and "max 10.10 ms" in fast.line()
