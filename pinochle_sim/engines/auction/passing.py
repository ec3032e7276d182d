"""Pass mechanics (docs/rules.md 4.4): the bidder's partner gives N cards, then the bidder gives
N back (possibly cards just received). The other side exchanges nothing."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.dispatch import bidder_returns, partner_gives
from pinochle_sim.policies.slots import PP_PASS


@jit
def _remove_all(hand: int, cards: int) -> int:
    """Remove a packed multiset ``cards`` from ``hand`` (assumes it is contained)."""
    one = cards & 0xFFFFFF
    two = cards >> 24
    # Faces with both copies leave both; faces with one copy leave one (from TWO if held twice).
    h1 = hand & 0xFFFFFF
    h2 = hand >> 24
    single = one & ~two
    new_two = h2 & ~one  # any face passed loses its TWO bit...
    new_one = (h1 & ~two) & ~(single & ~h2)  # ...and its ONE bit unless one of two copies stays
    return new_one | (new_two << 24)


@jit
def _add_all(hand: int, cards: int) -> int:
    """Add a packed multiset ``cards`` to ``hand`` (assumes no face exceeds two copies)."""
    h1 = hand & 0xFFFFFF
    c1 = cards & 0xFFFFFF
    two = (hand >> 24) | (cards >> 24) | (h1 & c1)
    return (h1 | c1) | (two << 24)


@jit
def _exchange(
    bundle: PolicyBundle,
    hands: np.ndarray,
    bidder: int,
    trump: int,
    k: int,
    ma: np.ndarray,
    pp: np.ndarray,
    rs: np.ndarray,
) -> tuple[int, int]:
    """Do the pass in place; returns (cards to bidder, cards to partner), both packed. Each
    seat follows its own passing policy (``pp[seat]``)."""
    partner = (bidder + 2) % 4
    to_bidder = partner_gives(
        bundle, pp[partner, PP_PASS], hands[partner], k, trump, pp[partner], rs
    )
    hands[partner] = _remove_all(hands[partner], to_bidder)
    hands[bidder] = _add_all(hands[bidder], to_bidder)
    to_partner = bidder_returns(
        bundle, pp[bidder, PP_PASS], hands[bidder], k, trump, ma, pp[bidder], rs
    )
    hands[bidder] = _remove_all(hands[bidder], to_partner)
    hands[partner] = _add_all(hands[partner], to_partner)
    return to_bidder, to_partner
