"""Passing policies (RULES.md section 5): which cards the bidder's partner gives, and which the
bidder gives back.

``standard`` (default)
    The partner gives trumps first (highest first), then aces, then tens, then kings, then the
    rest from high to low. The bidder gives back, one card at a time, the card whose loss costs
    its meld least; among equals a non-trump card (trump is kept), from the shortest suit (to
    void it), highest first (the partner can cash a counter). Parameter ``keep_trump`` (1): never
    give back trump while another card is available; 0 lets the meld rule alone decide.
``random``
    Uniform among the cards held, for each card in turn.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import below
from pinochle_sim.core.tricks import (
    RANK_ROW,
    add_card,
    rank_of,
    remove_card,
    suit_len,
    suit_mask,
    suit_of,
)
from pinochle_sim.policies.slots import (
    DISCARD_KEEP_TRUMP,
    PP_DISCARD_PARAMS,
    PP_PASS_PARAMS,
    STD_KEEP_TRUMP,
)
from pinochle_sim.rules.meld import (
    AROUND_RANKS,
    FACE_JD,
    FACE_QS,
    MA_AROUND,
    MA_PIN,
    _arounds,
    _pinochles,
    losing_ranks,
    meld_loss,
)


@jit
def _nth_card(hand: int, n: int) -> int:
    """Face of the ``n``-th card (0-based, copies counted) of a packed hand in face order."""
    for f in range(24):
        c = ((hand >> f) & 1) + ((hand >> (24 + f)) & 1)
        if n < c:
            return f
        n -= c
    return -1


EMPTY = 1 << 40


@jit
def _give_next(hand: int, trump: int) -> int:
    """The card ``standard`` passes next: the highest trump, else an ace, ten, king, queen,
    jack, 9 in that order, the lowest suit first among equal ranks."""
    held = hand & 0xFFFFFF
    trumps = held & suit_mask(trump)
    if trumps:
        return highest_bit_index(trumps)
    for r in range(5, -1, -1):
        row = held & (RANK_ROW << r)
        if row:
            return lowest_bit_index(row)
    return -1


@jit
def _partner_gives(hand: int, k: int, trump: int, standard: bool, rs: np.ndarray) -> int:
    """Packed set of ``k`` cards the partner passes to the bidder (``standard`` or random)."""
    given = 0
    for _ in range(k):
        f = _give_next(hand, trump) if standard else _nth_card(hand, below(rs, popcount(hand)))
        hand = remove_card(hand, f)
        given = add_card(given, f)
    return given


@jit
def _shed_cards(
    hand: int,
    k: int,
    trump: int,
    ma: np.ndarray,
    standard: bool,
    keep_trump: bool,
    rs: np.ndarray,
) -> int:
    """Packed set of ``k`` cards to give away from ``hand``: the bidder's return pass, and the
    discard after taking a widow. ``standard`` picks, one at a time, the card costing least
    meld (then non-trump, shortest suit, highest first); otherwise uniform random cards."""
    given = 0
    for _ in range(k):
        if standard:
            non_trump = hand & 0xFFFFFF & ~suit_mask(trump)
            pool = non_trump if (keep_trump and non_trump) else hand & 0xFFFFFF
            f = _least_loss(hand, pool, trump, ma)
        else:
            f = _nth_card(hand, below(rs, popcount(hand)))
        hand = remove_card(hand, f)
        given = add_card(given, f)
    return given


@jit
def _least_loss(hand: int, pool: int, trump: int, ma: np.ndarray) -> int:
    """The face of ``pool`` (faces of the packed ``hand``) that ``standard`` gives up next
    (:func:`_least_loss_scan`, the definition).

    Meld never grows when a card goes, so a face whose loss costs no meld comes first. Those
    are found with masks: the faces that would cost meld are the ranks the class-1 tables mark
    for each suit's holding (``MA_LOSS_*``), a pinochle card whose copies limit the pinochles,
    and a rank's cards whose copies limit its arounds. Among the free faces the key's other
    terms pick, per suit, its highest card; only when every face costs meld is each weighed."""
    one = hand & 0xFFFFFF
    two = hand >> 24
    costly = 0
    for s in range(4):
        costly |= losing_ranks(hand, s, trump, ma) << (6 * s)
    pins = _pinochles(hand)
    if pins > 0 and ma[MA_PIN + pins] > ma[MA_PIN + pins - 1]:
        for f in (FACE_QS, FACE_JD):
            costly |= (1 << f) if 1 + ((two >> f) & 1) == pins else 0
    for i in range(4):
        r = AROUND_RANKS[i]
        n = _arounds(hand, r)
        at = MA_AROUND + 3 * i
        if n > 0 and ma[at + n] > ma[at + n - 1]:
            row = RANK_ROW << r
            costly |= row if n == 2 else row & one & ~two
    free = pool & ~costly
    if free == 0:
        return _least_loss_scan(hand, pool, trump, ma)
    best, best_key = -1, EMPTY
    for s in range(4):
        cards = free & suit_mask(s)
        top = highest_bit_index(cards | (1 << (6 * s)))  # the suit's 9 when it has none
        key = (s == trump) * 2048 + suit_len(hand, s) * 64 + (5 - (top - 6 * s))
        key += (cards == 0) * EMPTY
        better = key < best_key
        best = top if better else best
        best_key = key if better else best_key
    return best


@jit
def _least_loss_scan(hand: int, pool: int, trump: int, ma: np.ndarray) -> int:
    """The face of ``pool`` whose loss costs ``hand`` least meld (:func:`meld_loss`), then a
    non-trump card, the shortest suit, the highest rank, the lowest suit."""
    best, best_key = -1, 1 << 60
    m = pool
    while m:  # faces in ascending order, as the tie-break expects
        f = lowest_bit_index(m)
        m &= m - 1
        s = suit_of(f)
        r = rank_of(f)
        key = meld_loss(hand, f, trump, ma) * 4096 + (s == trump) * 2048
        key += suit_len(hand, s) * 64 + (5 - r)
        if key < best_key:
            best, best_key = f, key
    return best


@jit
def standard_gives(hand: int, k: int, trump: int, pp: np.ndarray, rs: np.ndarray) -> int:
    """``standard``: the ``k`` cards the partner passes to the bidder."""
    return _partner_gives(hand, k, trump, True, rs)


@jit
def random_gives(hand: int, k: int, trump: int, pp: np.ndarray, rs: np.ndarray) -> int:
    """``random``: ``k`` uniformly random cards from the partner to the bidder."""
    return _partner_gives(hand, k, trump, False, rs)


@jit
def standard_returns(
    hand: int, k: int, trump: int, ma: np.ndarray, pp: np.ndarray, rs: np.ndarray
) -> int:
    """``standard``: the ``k`` cards the bidder passes back (from the hand after receiving)."""
    keep_trump = pp[PP_PASS_PARAMS + STD_KEEP_TRUMP] != 0
    return _shed_cards(hand, k, trump, ma, True, keep_trump, rs)


@jit
def random_returns(
    hand: int, k: int, trump: int, ma: np.ndarray, pp: np.ndarray, rs: np.ndarray
) -> int:
    """``random``: ``k`` uniformly random cards passed back by the bidder."""
    return _shed_cards(hand, k, trump, ma, False, False, rs)


@jit
def standard_discards(
    hand: int, k: int, trump: int, ma: np.ndarray, pp: np.ndarray, rs: np.ndarray
) -> int:
    """``standard`` discard: the ``k`` cards the bidder lays away after taking the widow."""
    keep_trump = pp[PP_DISCARD_PARAMS + DISCARD_KEEP_TRUMP] != 0
    return _shed_cards(hand, k, trump, ma, True, keep_trump, rs)


@jit
def random_discards(
    hand: int, k: int, trump: int, ma: np.ndarray, pp: np.ndarray, rs: np.ndarray
) -> int:
    """``random`` discard: ``k`` uniformly random cards."""
    return _shed_cards(hand, k, trump, ma, False, False, rs)
