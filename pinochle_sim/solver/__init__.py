"""The double-dummy solver: exact trick points when every seat plays perfectly, all cards seen.

:func:`solve` is the documented, validating wrapper over the jitted search of
:mod:`pinochle_sim.solver.driver` (the allocation-free API that kernels call), built from the
work array's layout (:mod:`.workspace`), the search context and bounds (:mod:`.context`), the
transposition table (:mod:`.transposition`), move generation and ordering (:mod:`.moves`) and the
search (:mod:`.search`); :mod:`.batch` solves many positions at once on every thread. A
:class:`Position` is any moment of trick play of any preset: four-hand partnerships, three-hand
(one seat against the other two acting together), the two-hand play-out, at a trick boundary or
inside a trick.

>>> p = Position.parse("partnership", "S", 0, "AS KS; 10S QS; JS 9S; AH 9H")
>>> r = solve(p, side=0)
>>> r.value, r.exact, [(card_name(m.card), m.value) for m in r.moves]
(20, True, [('KS', 20), ('AS', 10)])
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.core.cards import Face, card_name
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.solver.batch import DEFAULT_BITS, thread_table
from pinochle_sim.solver.driver import UNLIMITED, dd_best, dd_bounds, dd_card_value
from pinochle_sim.solver.position import Position, Seat, position_request
from pinochle_sim.solver.workspace import H_NODES, pack_trick

__all__ = ["MoveValue", "Position", "SolveResult", "position_request", "solve", "solver_table"]


def solver_table(bits: int = DEFAULT_BITS) -> np.ndarray:
    """This thread's reusable work array for :func:`solve` (created on first use; the one a
    batch on this thread solves with, :func:`.batch.thread_table`)."""
    return thread_table(bits)


@dataclass(frozen=True)
class MoveValue:
    """The side's points from the current trick on after the seat to move plays ``card`` and
    everyone plays perfectly after; ``value`` is None when a time limit left only the proven
    bounds ``lower <= value <= upper``."""

    card: Face
    value: int | None
    lower: int
    upper: int


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` proves about a position.

    ``value``: the points the side takes from the current trick on (its cards on the table
    included, the last-trick bonus included, no rounding), None unless ``exact``; ``lower`` and
    ``upper`` the proven bounds (equal to ``value`` when exact). ``moves``: one entry per
    distinct legal card of the seat to move. ``line``: one optimal sequence of cards to the end
    (empty unless exact). ``nodes`` and ``seconds``: the search's work.
    """

    position: Position
    side: Seat
    side_seats: tuple[Seat, ...]
    value: int | None
    lower: int
    upper: int
    exact: bool
    to_move: Seat
    moves: tuple[MoveValue, ...]
    line: tuple[Face, ...]
    nodes: int
    seconds: float
    points_left: int

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``pinochle-sim solve --json``."""
        return {
            "value": self.value,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "side": self.side,
            "side_seats": list(self.side_seats),
            "points_left": self.points_left,
            "to_move": self.to_move,
            "moves": [
                {"card": card_name(m.card), "value": m.value}
                | ({} if m.value is not None else {"lower": m.lower, "upper": m.upper})
                for m in self.moves
            ],
            "line": [card_name(f) for f in self.line],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def _args(p: Position) -> tuple[int, int, int, int, int, int, int]:
    h = [*p.hands, 0, 0, 0][:4]
    return h[0], h[1], h[2], h[3], p.leader, pack_trick(p.trick), p.trump


class _Clock:
    """Node budgets for the kernel so that a time limit is kept to within one slice."""

    def __init__(self, limit: float | None) -> None:
        self.t0 = time.perf_counter()
        self.limit = limit
        self.rate = 2e6  # nodes per second, re-estimated as slices finish

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def left(self) -> float:
        return float("inf") if self.limit is None else self.limit - self.elapsed()

    def bounds(
        self, p: Position, mask: int, tt: np.ndarray, lo: int = 0, hi: int = UNLIMITED
    ) -> tuple[int, int]:
        ra = rule_array(p.rules)
        a = _args(p)
        if self.limit is None:
            return dd_bounds(*a, ra, mask, tt, lo, hi, UNLIMITED)
        while lo < hi and self.left() > 0:
            budget = max(10_000, int(min(self.left(), 0.25) * self.rate))
            n0, t = int(tt[H_NODES]), time.perf_counter()
            lo, hi = dd_bounds(*a, ra, mask, tt, lo, hi, budget)
            dt = time.perf_counter() - t
            if dt > 0.01:
                self.rate = (int(tt[H_NODES]) - n0) / dt
        return lo, min(hi, p.points_left())


def solve(
    position: Position,
    side: Seat = 0,
    time_limit: float | None = None,
    table: np.ndarray | None = None,
) -> SolveResult:
    """Solve ``position`` for ``side``: seat ``side`` and its partner (four-hand), or seat
    ``side`` alone against the others acting together (three-hand, two-hand).

    Computes the value, the value of every distinct legal card of the seat to move, and one
    optimal line of play to the end. With ``time_limit`` (seconds) the search may stop early;
    the result then says ``exact=False`` and gives the proven bounds, never a guess.
    ``table`` is a work array from :func:`pinochle_sim.solver.kernel.new_table` (default: this
    thread's own, reused between calls).
    """
    if not isinstance(position, Position):
        raise ValueError("solve() needs a Position (see Position.parse)")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time limit must be positive seconds, got {time_limit!r}")
    seats = position.side_seats(side)
    mask = sum(1 << s for s in seats)
    tt = solver_table() if table is None else table
    clock = _Clock(time_limit)
    nodes0 = int(tt[H_NODES])
    maxing = position.to_move in seats
    if time_limit is None and position.legal():
        moves = _exact_moves(position, seats, mask, tt)
        values = [m.lower for m in moves]
        lo = hi = max(values) if maxing else min(values)
    else:
        lo, hi = clock.bounds(position, mask, tt)
        moves = _bounded_moves(position, seats, mask, tt, clock, lo, hi)
    exact = lo == hi and all(m.value is not None for m in moves)
    line: list[Face] = []
    if exact:
        line = _line(position, mask, tt)
    return SolveResult(
        position=position,
        side=side,
        side_seats=seats,
        value=lo if lo == hi else None,
        lower=lo,
        upper=hi,
        exact=exact,
        to_move=position.to_move,
        moves=tuple(moves),
        line=tuple(line),
        nodes=int(tt[H_NODES]) - nodes0,
        seconds=clock.elapsed(),
        points_left=position.points_left(),
    )


def _exact_moves(
    position: Position, seats: tuple[Seat, ...], mask: int, tt: np.ndarray
) -> list[MoveValue]:
    """Every distinct legal card's exact value, each card's tests starting at the value of the
    card before it (siblings often tie); the position's value is the best of them, so it needs
    no search of its own (docs/solver.md has the figures)."""
    ra = rule_array(position.rules)
    a = _args(position)
    moves = []
    last = -1
    for f in position.legal():
        child, won_by, pts = position.play(f)
        got = pts if won_by in seats else 0
        v = got if child is None else dd_card_value(*a, ra, mask, tt, f, got, UNLIMITED, last)
        moves.append(MoveValue(f, v, v, v))
        last = v
    return moves


def _bounded_moves(
    position: Position,
    seats: tuple[Seat, ...],
    mask: int,
    tt: np.ndarray,
    clock: _Clock,
    lo: int,
    hi: int,
) -> list[MoveValue]:
    """Every distinct legal card's value, or its proven bounds where the clock ran out."""
    maxing = position.to_move in seats
    moves = []
    for f in position.legal():
        child, won_by, pts = position.play(f)
        got = pts if won_by in seats else 0
        # no card beats the best one: that bounds the others' values from one side
        start_lo, start_hi = (0, hi - got) if maxing else (max(0, lo - got), UNLIMITED)
        if child is None:
            clo = chi = 0
        elif clock.left() > 0:
            clo, chi = clock.bounds(child, mask, tt, start_lo, start_hi)
        else:
            clo, chi = start_lo, min(start_hi, child.points_left())
        moves.append(MoveValue(f, got + clo if clo == chi else None, got + clo, got + chi))
    return moves


def _line(position: Position, mask: int, tt: np.ndarray) -> list[Face]:
    """One optimal sequence of cards to the end (each the kernel's preferred best card)."""
    ra = rule_array(position.rules)
    line = []
    p: Position | None = position
    while p is not None:
        f, _ = dd_best(*_args(p), ra, mask, tt)
        line.append(int(f))
        p, _, _ = p.play(int(f))
    return line
