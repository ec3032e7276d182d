"""The jit-callable solver API and the driver over the search: a first guess at the value
(:func:`_guess`), then null-window tests that narrow the interval (:func:`_narrow`) until the
value is proven; the best card, every card's value, bounds within a node budget.

See :mod:`pinochle_sim.solver` for the arguments every function here takes."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    SUIT_MASK,
    beaters,
    remove_card,
)
from pinochle_sim.solver.context import (
    _fit_table,
    _next_seat,
    _points_of,
    _pts,
    _set_context,
    _side,
)
from pinochle_sim.solver.moves import (
    _classes,
    _gen,
    _legal_for,
)
from pinochle_sim.solver.search import (
    ABORTED,
    _search,
)
from pinochle_sim.solver.workspace import (
    CX_LAST,
    CX_PLAYERS,
    CX_TRUMP,
    H_CTX,
    H_HANDS,
    H_NODES,
    H_UNIT,
    STACK,
)


@jit
def _begin(
    tt: np.ndarray, trump: int, ra: np.ndarray, side_mask: int, h0: int, h1: int, h2: int,
    h3: int,
) -> None:  # fmt: skip
    """What every call of the API does first: the context (:func:`.context._set_context`) and
    the part of the table that fits the position's size (:func:`.context._fit_table`)."""
    _set_context(tt, trump, ra, side_mask)
    _fit_table(tt, h0, h1, h2, h3)


@jit
def _state(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int
) -> tuple[int, int, int, int, int, int, int, int, int]:
    """Load a position into the header (context already set); returns its state
    ``(seat, k, led, wf, ws, tp, tbl, left, rem)`` as :func:`_search` takes it."""
    trump = tt[H_CTX + CX_TRUMP]
    tt[H_HANDS] = h0
    tt[H_HANDS + 1] = h1
    tt[H_HANDS + 2] = h2
    tt[H_HANDS + 3] = h3
    seat = leader
    k = 0
    led = -1
    wf = -1
    ws = leader
    tp = 0
    tbl = 0
    for i in range(3):
        f = ((trick >> (8 * i)) & 0xFF) - 1
        if f < 0:
            break
        tp += _pts(tt, f)
        tbl |= 1 << f
        if k == 0:
            led = f // 6
            wf = f
            ws = seat
        elif (beaters(wf, trump) >> f) & 1:
            wf = f
            ws = seat
        k += 1
        seat = _next_seat(tt, seat)
    rem = tt[H_CTX + CX_LAST]
    for s in range(4):
        rem += _points_of(tt, tt[H_HANDS + s])
    left = popcount(tt[H_HANDS + seat])
    return seat, k, led, wf, ws, tp, tbl, left, rem


@jit
def _test(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, need: int,
    limit: int,
) -> int:  # fmt: skip
    """Fail-soft null-window test of a position (see :func:`_search`)."""
    seat, k, led, wf, ws, tp, tbl, left, rem = _state(tt, h0, h1, h2, h3, leader, trick)
    if left == 0:
        return tp
    return _search(tt, seat, k, led, wf, ws, tp, tbl, left, rem, need, limit)


@jit
def _guess(
    tt: np.ndarray, seat: int, k: int, led: int, wf: int, ws: int, tp: int, tbl: int, left: int
) -> int:  # fmt: skip
    """A cheap estimate of the value of the state given (hands in the header): the points the
    side takes when every seat plays the first card of the search's own ordering (no table
    hint), to the end. Uses frame 0 as scratch and leaves the hands as they were."""
    trump = tt[H_CTX + CX_TRUMP]
    players = tt[H_CTX + CX_PLAYERS]
    saved = (tt[H_HANDS], tt[H_HANDS + 1], tt[H_HANDS + 2], tt[H_HANDS + 3])
    got = 0
    while left > 0:
        _gen(tt, STACK, seat, k, led, wf, ws, tbl, -1, left)
        f = tt[STACK]
        tt[H_HANDS + seat] = remove_card(tt[H_HANDS + seat], f)
        tp += _pts(tt, f)
        tbl |= 1 << f
        if k == 0:
            led = f // 6
            wf = f
            ws = seat
        elif (beaters(wf, trump) >> f) & 1:
            wf = f
            ws = seat
        k += 1
        if k == players:
            left -= 1
            if left == 0:
                tp += tt[H_CTX + CX_LAST]
            if _side(tt, ws):
                got += tp
            seat = ws
            k = 0
            led = -1
            wf = -1
            tp = 0
            tbl = 0
        else:
            seat = seat + 1 if seat + 1 < players else 0
    for s in range(4):
        tt[H_HANDS + s] = saved[s]
    return got


LIFT = 1
"""Units added to the playout's estimate for the first test: it runs low (full partnership
deals, hands 0..99 of seed 7: by 2 units on average), and a first test above the value whose
fail-soft bound comes back at the value is the cheapest start (:mod:`.search` has the
figures)."""
LIFT_THREE = 3
"""The same for three seats (three-hand, the bidder alone against two), where a first test
further above pays most: 60 full deals of seed 7, 412M nodes with 2 units, 392M with 3; the
bench's 200 of seed 0, median 5.52M -> 4.87M."""
MTD_TESTS = 8
"""Tests by MTD(f) before the targets bisect the interval left."""


@jit
def _narrow(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, lo: int,
    hi: int, limit: int, guess: int,
) -> tuple[int, int]:  # fmt: skip
    """Search the value inside ``[lo, hi]`` by null-window tests until solved or ``limit``
    nodes; each test's fail-soft bound narrows the interval beyond its target.

    The tests follow MTD(f): the first at ``guess``, or where it is negative at the playout's
    estimate (:func:`_guess`) raised by :data:`LIFT` units (more in three-hand,
    :data:`LIFT_THREE`); then each test is at the bound the last one returned (one unit above
    it when the test succeeded). After :data:`MTD_TESTS` tests the targets bisect what is
    left, so that a guess far off costs a few tests more, not a test a unit."""
    st = _state(tt, h0, h1, h2, h3, leader, trick)
    unit = tt[H_UNIT]
    hi = min(hi, st[5] + st[8])  # the points on the table and still in the hands
    lo = max(lo, 0)
    # every value is a multiple of the unit: so are the bounds (the targets bisect in units)
    lo = (lo + unit - 1) // unit * unit
    hi = hi // unit * unit
    if lo >= hi:
        return lo, hi
    mid = guess
    if mid < 0:
        lift = LIFT_THREE if tt[H_CTX + CX_PLAYERS] == 3 else LIFT
        mid = _guess(tt, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7]) + lift * unit
    tests = 0
    while lo < hi:
        if tests >= MTD_TESTS:
            mid = lo + ((hi - lo) // unit + 1) // 2 * unit
        mid = min(max(mid, lo + unit), hi)
        v = _test(tt, h0, h1, h2, h3, leader, trick, mid, limit)
        if v == ABORTED:
            break
        tests += 1
        if v >= mid:
            lo = max(lo, v)
            mid = lo + unit
        else:
            hi = min(hi, v)
            mid = hi
    return lo, hi


@jit(entry=True)
def dd_bounds(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray, lo: int, hi: int, max_nodes: int,
) -> tuple[int, int]:  # fmt: skip
    """Narrow ``lo <= value <= hi`` until equal or ``max_nodes`` search nodes are spent; returns
    the proven bounds (``hi`` clipped to the points in play, ``lo`` to 0)."""
    _begin(tt, trump, ra, side_mask, h0, h1, h2, h3)
    return _narrow(tt, h0, h1, h2, h3, leader, trick, lo, hi, tt[H_NODES] + max_nodes, -1)


UNLIMITED = 1 << 62


@jit
def _value(tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int) -> int:
    lo, _ = _narrow(tt, h0, h1, h2, h3, leader, trick, 0, UNLIMITED, UNLIMITED, -1)
    return lo


@jit(entry=True)
def dd_solve(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray,
) -> int:  # fmt: skip
    """The points the side takes from the current trick on under perfect play."""
    _begin(tt, trump, ra, side_mask, h0, h1, h2, h3)
    return _value(tt, h0, h1, h2, h3, leader, trick)


@jit
def _after(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, f: int
) -> tuple[int, int, int, int, int, int, int]:
    """The position after the seat to move plays ``f``: ``(h0, h1, h2, h3, leader, trick,
    points the side took)``, the points non-zero only when ``f`` completes a trick it wins."""
    players = tt[H_CTX + CX_PLAYERS]
    trump = tt[H_CTX + CX_TRUMP]
    k = _trick_len(trick)
    seat = (leader + k) % players
    n0 = remove_card(h0, f) if seat == 0 else h0
    n1 = remove_card(h1, f) if seat == 1 else h1
    n2 = remove_card(h2, f) if seat == 2 else h2
    n3 = remove_card(h3, f) if seat == 3 else h3
    if k + 1 < players:
        return n0, n1, n2, n3, leader, trick | ((f + 1) << (8 * k)), 0
    wf = -1
    ws = leader
    pts = 0
    s = leader
    for i in range(players):
        g = ((trick >> (8 * i)) & 0xFF) - 1 if i < k else f
        pts += _pts(tt, g)
        if wf < 0 or (beaters(wf, trump) >> g) & 1:
            wf = g
            ws = s
        s = _next_seat(tt, s)
    if n0 | n1 | n2 | n3 == 0:
        pts += tt[H_CTX + CX_LAST]
    return n0, n1, n2, n3, ws, 0, pts if _side(tt, ws) else 0


@jit
def _trick_len(trick: int) -> int:
    k = 0
    while k < 3 and (trick >> (8 * k)) & 0xFF:
        k += 1
    return k


@jit
def _legal_now(tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int) -> int:
    """Face mask of the legal plays of the seat to move (context already set)."""
    st = _state(tt, h0, h1, h2, h3, leader, trick)
    return _legal_for(tt, st[0], st[2], st[3])


@jit(entry=True)
def dd_move_values(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """``out[face]`` (24 slots) = the side's points from the current trick on after the seat
    to move plays ``face`` and all play perfectly after; -1 where ``face`` is not legal."""
    _begin(tt, trump, ra, side_mask, h0, h1, h2, h3)
    st = _state(tt, h0, h1, h2, h3, leader, trick)
    legal, every, reps = _classes(tt, st[0], st[2], st[3], st[6])
    last = -1  # sibling cards often have equal values: the last one is the first guess
    for f in range(24):
        out[f] = -1
        if (legal >> f) & 1:
            if not (reps >> f) & 1:  # equivalent to the next card below it: the same value
                out[f] = out[highest_bit_index(every & SUIT_MASK[f // 6] & ((1 << f) - 1))]
                continue
            n0, n1, n2, n3, ldr, trk, got = _after(tt, h0, h1, h2, h3, leader, trick, f)
            g = last - got if last >= got else -1
            lo, _ = _narrow(tt, n0, n1, n2, n3, ldr, trk, 0, UNLIMITED, UNLIMITED, g)
            out[f] = got + lo
            last = out[f]


@jit(entry=True)
def dd_card_test(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray, f: int, need: int,
) -> int:  # fmt: skip
    """A fail-soft test of legal card ``f`` of the seat to move: ``v``, where ``v >= need``
    says the side takes at least ``v`` points from the current trick on after ``f`` (all
    playing perfectly after), and ``v < need`` says at most ``v``."""
    _begin(tt, trump, ra, side_mask, h0, h1, h2, h3)
    n0, n1, n2, n3, ldr, trk, got = _after(tt, h0, h1, h2, h3, leader, trick, f)
    if need <= got:
        return got
    return got + _test(tt, n0, n1, n2, n3, ldr, trk, need - got, UNLIMITED)


@jit(entry=True)
def dd_card_value(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray, f: int, lo: int, hi: int, guess: int,
) -> int:  # fmt: skip
    """The side's points from the current trick on after the seat to move plays legal card
    ``f``, known to lie in ``[lo, hi]``; the tests start at ``guess`` (-1: a playout's)."""
    _begin(tt, trump, ra, side_mask, h0, h1, h2, h3)
    n0, n1, n2, n3, ldr, trk, got = _after(tt, h0, h1, h2, h3, leader, trick, f)
    g = guess - got if guess >= got else -1
    a, _ = _narrow(tt, n0, n1, n2, n3, ldr, trk, max(lo - got, 0), hi - got, UNLIMITED, g)
    return got + a


@jit
def _tie_order(tt: np.ndarray, f: int) -> int:
    """Preference among equally good cards: fewer points, then lower rank, then suit order."""
    return _pts(tt, f) * 64 + (f % 6) * 4 + f // 6


@jit(entry=True)
def dd_best(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """``(face, value)``: a best card for the seat to move (of several, the one with the fewest
    points, then the lowest rank, then the first suit) and the position's value."""
    _begin(tt, trump, ra, side_mask, h0, h1, h2, h3)
    v = _value(tt, h0, h1, h2, h3, leader, trick)
    seat = _to_move(tt, leader, trick)
    maxing = _side(tt, seat)
    unit = tt[H_UNIT]
    remaining = _legal_now(tt, h0, h1, h2, h3, leader, trick)
    while remaining:
        best = -1
        m = remaining
        while m:
            f = lowest_bit_index(m)
            m ^= 1 << f
            if best < 0 or _tie_order(tt, f) < _tie_order(tt, best):
                best = f
        remaining ^= 1 << best
        n0, n1, n2, n3, ldr, trk, got = _after(tt, h0, h1, h2, h3, leader, trick, best)
        if maxing:
            if _test(tt, n0, n1, n2, n3, ldr, trk, v - got, UNLIMITED) >= v - got:
                return best, v
        elif _test(tt, n0, n1, n2, n3, ldr, trk, v - got + unit, UNLIMITED) < v - got + unit:
            return best, v
    return -1, v


@jit
def _to_move(tt: np.ndarray, leader: int, trick: int) -> int:
    return (leader + _trick_len(trick)) % tt[H_CTX + CX_PLAYERS]
