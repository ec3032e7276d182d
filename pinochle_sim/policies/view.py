"""What a play policy sees when it chooses a card: one immutable tuple of scalars.

Every play policy takes a :class:`PlayView` plus its own integer parameters, so the signature is
written once. It is a plain named tuple of integers: numba passes it by value, with none of the
reference counting an array argument costs.
"""

from __future__ import annotations

from typing import NamedTuple

from pinochle_sim.core.jit import jit


class PlayView(NamedTuple):
    """The moment of one card play, for the seat ``seat`` about to play."""

    hand: int
    """The seat's packed hand (:mod:`pinochle_sim.core.cards`: one plane, two planes)."""
    legal: int
    """Face mask of the legal plays (never empty)."""
    played: int
    """Every card played so far this hand, packed like a hand."""
    n_played: int
    """Cards already in this trick (0: the seat leads)."""
    winner: int
    """Face winning the trick so far (-1 when leading)."""
    winner_seat: int
    """Seat that played it (-1 when leading)."""
    seat: int
    bidder: int
    """The bidder (two-hand: the seat itself, so each plays as if it had bid)."""
    trump: int
    """Trump suit 0..3 (S H D C)."""
    players: int
    partners: bool
    """Seats i and i+2 are partners."""
    points: int
    """Card points by rank, packed 10 bits per rank (:func:`.play.pack_points`)."""
    caps: int
    """What each seat has shown about its hand (:func:`.dispatch.learn`)."""
    led: int
    """Led suit (-1 when leading)."""
    rules: int
    """The trick rules, packed (:func:`pack_trick_rules`): bit 0 must follow, bit 1 must trump
    when void, bits 2-3 the heading rule (``core.tricks.HEAD_*``), bits 8+ the last-trick
    bonus. What a policy that searches ahead (``solver``) needs to play the tricks out."""


@jit
def pack_trick_rules(follow: int, must_trump: int, head: int, last: int) -> int:
    """:attr:`PlayView.rules` from the rule array's slots."""
    f = 1 if follow != 0 else 0
    t = 2 if must_trump != 0 else 0
    return f | t | (head << 2) | (last << 8)
