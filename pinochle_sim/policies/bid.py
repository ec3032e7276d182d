"""Bidding policies: each turns a dealt hand into a bid limit and a preferred trump.

A policy values the hand once; the auction (:mod:`pinochle_sim.engines.auction.bidding`) then
raises while the next bid is within that limit. Values are computed in ``partnership`` points
(game points times the ruleset's ``scale``) so the same constants serve ``joedog``'s small scoring.

``estimate`` (default) values each trump suit ``s`` as::

    own meld(s) + trick_base (solo_trick_base without a partner)
                + per_trump * (len(s) - 4) + per_ace * aces
                + partner (partnerships only) + pass_gain (when cards are passed)
                + widow_gain (when the bidder takes a widow) + margin

and bids up to the best suit's value; it names that suit trump. Where the constants come from:
``trick_base``, ``per_trump`` and ``per_ace`` are a least-squares fit of the bidding side's trick
points on the bidder's trump length and ace count, measured with this engine's default ``greedy``
play (docs/matches.md, "Where the bidding constants come from"); ``partner`` and ``pass_gain``
are the measured mean meld a partner adds and the mean meld gained by the bidder from the pass,
rounded down to be cautious.
For three-hand (no partner) the same fit gives about 57 trick points at four trumps and no aces,
+20 per trump, +11 per ace, plus 19 from discarded counters and 42 meld from the widow:
``solo_trick_base`` 70 and ``widow_gain`` 40.

``pass`` never bids (the dealer is then always stuck): for meld-only studies.

``calibrated`` bids to a chosen make probability from a model fitted on simulated hands
(:mod:`pinochle_sim.policies.calibrated`).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import suit_len
from pinochle_sim.policies.slots import (
    EST_JUMP,
    EST_MARGIN,
    EST_PARTNER,
    EST_PASS_GAIN,
    EST_PER_ACE,
    EST_PER_TRUMP,
    EST_SOLO_TRICK_BASE,
    EST_TRICK_BASE,
    EST_WIDOW_GAIN,
    PP_BID_PARAMS,
)
from pinochle_sim.rules.arrays import RA_MIN_BID, RA_PARTNERS, RA_PASS, RA_SCALE, RA_WIDOW

ACES = (1 << 5) | (1 << 11) | (1 << 17) | (1 << 23)
"""Face mask of the four aces."""


@jit
def count_aces(hand: int) -> int:
    """Number of aces in a packed hand."""
    return popcount(hand & ACES) + popcount((hand >> 24) & ACES)


@jit
def _estimate(
    hand: int, melds: np.ndarray, position: int, ra: np.ndarray, pp: np.ndarray
) -> tuple[int, int]:
    """(the ``estimate`` value of the hand's best trump in game points, that trump).

    ``melds[s]`` is the hand's meld with trump ``s``; ``position`` the seat's place after the
    dealer (0 = the dealer).
    """
    p = PP_BID_PARAMS
    scale = ra[RA_SCALE]
    aces = count_aces(hand)
    extra = pp[p + EST_PER_ACE] * aces + pp[p + EST_MARGIN]
    if ra[RA_PARTNERS]:
        extra += pp[p + EST_TRICK_BASE] + pp[p + EST_PARTNER]
    else:
        extra += pp[p + EST_SOLO_TRICK_BASE]
    if ra[RA_PASS] > 0:
        extra += pp[p + EST_PASS_GAIN]
    if ra[RA_WIDOW] > 0:
        extra += pp[p + EST_WIDOW_GAIN]
    best_value = -(1 << 40)
    best_suit = 0
    for s in range(4):
        v = melds[s] * scale + pp[p + EST_PER_TRUMP] * (suit_len(hand, s) - 4)
        if v > best_value:
            best_value = v
            best_suit = s
    total = best_value + extra
    # Most presets score at scale 1: skip the division there (a signed one costs ~30 cycles).
    return (total if scale == 1 else total // scale), best_suit


@jit
def estimate_limit(
    hand: int, melds: np.ndarray, position: int, ra: np.ndarray, pp: np.ndarray
) -> tuple[int, int]:
    """``estimate``: (highest bid this seat will make, trump it would name); a limit of 0
    means pass (the trump is still named: a stuck dealer needs one)."""
    limit, suit = _estimate(hand, melds, position, ra, pp)
    return (0 if limit < ra[RA_MIN_BID] else limit), suit


@jit
def pass_limit(
    hand: int, melds: np.ndarray, position: int, ra: np.ndarray, pp: np.ndarray
) -> tuple[int, int]:
    """``pass``: never bids; names the suit ``estimate`` would value most with no parameters
    (its own meld), should it be stuck."""
    return 0, _estimate(hand, melds, position, ra, pp)[1]


@jit
def estimate_jump(pp: np.ndarray) -> int:
    """``jump`` of an ``estimate`` seat: raise by the largest step when its limit exceeds the
    next bid by this much (a negative jump counts as 0)."""
    return max(pp[PP_BID_PARAMS + EST_JUMP], 0)


@jit
def no_jump(pp: np.ndarray) -> int:
    """Policies that never jump."""
    return 0
