"""Trick play mechanics (docs/rules.md section 5): card points, what beats what, legal plays.

Masks here are single 24-bit planes of faces (``face = suit*6 + rank``, ranks ascending 9..A).
Two copies of a face are interchangeable, so one bit per face is enough for legal moves.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import popcount
from pinochle_sim.core.jit import jit

PLANE = 0xFFFFFF
SUIT_MASK = np.array([0x3F << (6 * s) for s in range(4)], dtype=np.int64)
"""Face mask of each suit (for Python callers; kernels use :func:`suit_mask`)."""

RANK_ROW = 0x041041
"""The 9 of each suit: ``RANK_ROW << r`` is rank ``r`` in every suit (face ``6 * s + r``)."""

HEAD_ALWAYS = 0
HEAD_TRUMP_LED = 1
HEAD_NEVER = 2


# Suit, rank and suit mask by arithmetic: ``f // 6`` and ``f % 6`` on a signed int64 compile to a
# multiply and a sign correction, and an indexed global array to a load; these are a multiply
# and a shift, or one shift, and sit on the critical path of every card played.


@jit
def suit_of(f: int) -> int:
    """``f // 6`` for a face ``0 <= f < 131`` (43/256 is close enough to 1/6 below 131)."""
    return (f * 43) >> 8


@jit
def rank_of(f: int) -> int:
    """``f % 6`` for a face ``0 <= f < 131``."""
    return f - 6 * suit_of(f)


@jit
def suit_mask(suit: int) -> int:
    """Face mask of ``suit`` (0..3)."""
    return 0x3F << (6 * suit)


@jit
def seat_after(seat: int, i: int, players: int) -> int:
    """The seat ``i`` places after ``seat`` (``0 <= i < players``): ``(seat + i) % players``
    without the division, which costs tens of cycles where the policies loop over seats."""
    s = seat + i
    return s - players if s >= players else s


@jit
def add_card(hand: int, f: int) -> int:
    """Add one copy of face ``f`` to a packed hand (assumes fewer than two are held)."""
    b = 1 << f
    return hand | b | ((hand & b) << 24)


@jit
def remove_card(hand: int, f: int) -> int:
    """Remove one copy of face ``f`` from a packed hand (assumes it is held); branch-free."""
    b = 1 << f
    m = (hand >> 24) & b
    return hand ^ ((m << 24) | (b ^ m))


@jit
def suit_len(hand: int, suit: int) -> int:
    """Cards of ``suit`` in a packed hand."""
    m = suit_mask(suit)
    return popcount(hand & m) + popcount((hand >> 24) & m)


@jit
def higher_in_suit(f: int) -> int:
    """Faces of f's suit that rank strictly above ``f``."""
    return (1 << (6 * suit_of(f) + 6)) - (2 << f)


@jit
def beaters(winner: int, trump: int) -> int:
    """Faces that beat the currently winning face ``winner`` (which is of the led suit or trump).

    A higher card of the winner's suit beats it; if the winner is not a trump any trump does.
    An identical face does not (docs/rules.md 1: of two identical cards the first played wins).
    """
    higher = higher_in_suit(winner)
    return higher if suit_of(winner) == trump else higher | suit_mask(trump)


@jit
def legal_mask(
    held: int,
    led: int,
    winner: int,
    trump: int,
    must_follow: bool,
    must_trump: bool,
    head: int,
) -> int:
    """Legal faces to play from ``held`` (a face mask) with ``led`` the led suit (-1 = leading).

    docs/rules.md 5: follow the led suit if able; else trump if able; else any card; then, where the
    heading rule applies (``HEAD_ALWAYS``, or ``HEAD_TRUMP_LED`` when trump was led), among those
    play a card that beats ``winner`` whenever one exists - also over a partner.
    """
    if led < 0:
        return held
    follow = held & suit_mask(led) if must_follow else 0
    trumps = held & suit_mask(trump) if must_trump else 0
    cand = follow if follow else (trumps if trumps else held)
    heads = head == HEAD_ALWAYS or (head == HEAD_TRUMP_LED and led == trump)
    win = cand & beaters(winner, trump) if heads else 0
    return win if win else cand
