"""The auction (docs/rules.md section 4.2) as a small state machine over per-seat bid limits.

The first bidder (left of the dealer) must open at the minimum or pass; later calls raise the
current bid by one of the ruleset's steps or pass; a pass is final. The auction ends when all
but one have passed and that one has bid. If nobody bids, the dealer may open at the minimum or
pass and is then "stuck" at the minimum.

Calls are recorded as ``(seat, bid)`` pairs in ``calls`` (bid ``-1`` = pass).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.jit import jit
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.dispatch import bid_jump
from pinochle_sim.policies.slots import PP_BID
from pinochle_sim.rules.arrays import RA_MIN_BID, RA_NSTEPS, RA_STEPS

MAX_CALLS = 160
"""Calls recorded per hand. After ``MAX_CALLS - players`` calls every seat passes (and its pass is
recorded), so the record is always a complete, legal auction. Ordinary play never gets near it
(raising by the smallest step from 250 to 1,800 takes 156 calls)."""
PASS = -1
JUMP_CAP = (1 << 15) - 1


@jit
def next_call(bid: int, limit: int, jump: int, min_bid: int, small: int, large: int) -> int:
    """A seat's call (:data:`PASS` or the bid) under its bid ``limit`` and ``jump`` when the
    bid stands at ``bid`` (0: nobody has bid): the opening at the minimum, then a raise by the
    largest step when the limit allows it plus the jump, else by the smallest."""
    if bid == 0:
        return min_bid if limit >= min_bid else PASS
    if limit >= bid + large + jump:
        return bid + large
    if limit >= bid + small:
        return bid + small
    return PASS


@jit
def _auction(
    bundle: PolicyBundle, dealer: int, players: int, limits: np.ndarray, ra: np.ndarray,
    pp: np.ndarray, calls: np.ndarray,
) -> tuple[int, int, bool, int]:  # fmt: skip
    """Run the auction; returns ``(bidder, bid, stuck, number of calls)``.

    Seat ``p`` raises while the next bid is within ``limits[p]``: by the largest step when its
    limit exceeds the current bid by at least the largest step plus its bidding policy's
    ``jump`` parameter (``pp[p]``; a negative jump counts as 0), otherwise by the smallest step.
    """
    jumps = 0  # each seat's jump, 15 bits apiece (larger jumps never happen anyway)
    for p in range(players):
        jumps |= min(bid_jump(bundle, pp[p, PP_BID], pp[p]), JUMP_CAP) << (15 * p)
    min_bid = ra[RA_MIN_BID]
    small = ra[RA_STEPS]
    large = ra[RA_STEPS + ra[RA_NSTEPS] - 1]
    active = (1 << players) - 1  # bit p: seat p has not passed
    bid = 0
    high = -1
    n = 0
    seat = dealer + 1 if dealer + 1 < players else 0
    while True:
        if active & (1 << seat):
            if high == seat:  # everyone else has passed since this seat's bid
                break
            jump = (jumps >> (15 * seat)) & JUMP_CAP
            call = next_call(bid, limits[nonneg(seat)], jump, min_bid, small, large)
            if n >= MAX_CALLS - players:  # keep room to record everyone's final pass
                call = PASS
            calls[nonneg(2 * n)] = seat
            calls[nonneg(2 * n + 1)] = call
            n += 1
            if call == PASS:
                active &= ~(1 << seat)
                if active == 0:  # the dealer passed too: stuck at the minimum
                    return dealer, min_bid, True, n
                if high >= 0 and active == (1 << high):
                    break
            else:
                bid = call
                high = seat
                if active == (1 << seat):  # the last one left opened: auction over
                    break
        seat = seat + 1 if seat + 1 < players else 0  # no division: one per call otherwise
    return high, bid, False, n
