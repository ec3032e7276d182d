"""Play policies: choose one face from the legal set (``legal`` is never empty).

``greedy`` (default) plays like a sensible club player who remembers which cards are gone:

* leading: the bidding side draws trump when it holds at least as many trumps as are still out
  (boss trump first, else the lowest); otherwise cash a boss counter in a side suit; otherwise
  lead the lowest card of the longest side suit (the lowest trump when only trump is left);
* partner winning: if the partner's card cannot be beaten (it is the last card of the trick, or no
  unseen card beats it) give the partner the most points ("smear"), else play the cheapest card;
* opponent winning: the last player wins with the most valuable side-suit card it can (else the
  cheapest trump); earlier players win with a boss card if they hold one, else cheaply;
* cannot win: throw the cheapest card (fewest points, side suit before trump, lowest rank).

Parameters: ``draw_trump`` (1) turns trump drawing on/off; ``smear`` (1) gives counters to a
partner who is sure to win.

``random`` plays uniformly among the legal faces (two copies of a face are the same card).

These functions take only scalars (the :class:`~pinochle_sim.policies.view.PlayView` tuple is
scalars too): passing numpy arrays into a jitted call bumps their reference counts atomically,
which cost about 10 ns per call, more than the decision itself. Card points travel packed, 10
bits per rank (:func:`pack_points`).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import below
from pinochle_sim.core.tricks import (
    RANK_ROW,
    beaters,
    higher_in_suit,
    rank_of,
    suit_len,
    suit_mask,
    suit_of,
)
from pinochle_sim.policies.slots import GREEDY_DRAW_TRUMP, GREEDY_SMEAR
from pinochle_sim.policies.view import PlayView

BIG = 1 << 40
EMPTY = 1 << 41
RISING = 60
"""Bit of :func:`pack_points`' word set when no rank scores fewer points than a lower one (every
preset): then the cheapest card of a suit is its lowest (:func:`_cheapest`)."""


@jit
def pack_points(points: np.ndarray) -> int:
    """Trick points by rank (9..A, each at most 1023) packed 10 bits per rank, and bit
    :data:`RISING` when the points never fall as the rank rises."""
    packed = 0
    rising = 1
    for r in range(6):
        packed |= points[r] << (10 * r)
        if r > 0 and points[r] < points[r - 1]:
            rising = 0
    return packed | (rising << RISING)


@jit
def face_points(packed: int, f: int) -> int:
    """Trick points of face ``f`` from :func:`pack_points`' word."""
    return (packed >> (10 * rank_of(f))) & 1023


@jit
def tie_key(f: int, points: int) -> int:
    """Order among cards a policy values equally: fewer points, then the lower rank, then the
    first suit (S, H, D, C); the smaller key plays."""
    return face_points(points, f) * 64 + rank_of(f) * 4 + suit_of(f)


@jit
def _unseen_faces(hand: int, played: int) -> int:
    """Faces with a copy neither played nor in ``hand`` (so possibly held by another seat)."""
    p1, p2 = played & 0xFFFFFF, played >> 24
    h1, h2 = hand & 0xFFFFFF, hand >> 24
    seen_twice = p2 | h2 | (p1 & h1)
    return 0xFFFFFF & ~seen_twice


@jit
def _unseen_count(hand: int, played: int, suit: int) -> int:
    """Copies of ``suit`` neither played nor in ``hand``."""
    return 12 - suit_len(hand, suit) - suit_len(played, suit)


@jit
def _cheapest(mask: int, trump: int, points: int) -> int:
    """Face of least value to lose: fewest points, side suit before trump, lowest rank (then
    the lowest suit); -1 for an empty ``mask``.

    When points rise with rank (:data:`RISING`), the cheapest side-suit card is the lowest rank
    held in any side suit (of the lowest such suit) and the cheapest trump the lowest trump;
    the trump is cheaper only with fewer points. Otherwise every card is scanned
    (:func:`_cheapest_scan`, the definition)."""
    if not (points >> RISING) & 1:
        return _cheapest_scan(mask, trump, points)
    tmask = suit_mask(trump)
    side = mask & ~tmask
    trumps = mask & tmask
    r = lowest_bit_index(ranks_held(side) | 32)  # (the ace when no side card: any valid rank)
    f_side = lowest_bit_index((side >> r) & RANK_ROW) + r  # the lowest suit with that rank
    r_trump = lowest_bit_index((trumps >> (6 * trump)) | 32)
    cheaper = ((points >> (10 * r_trump)) & 1023) < ((points >> (10 * r)) & 1023)
    use_trump = side == 0 or (trumps != 0 and cheaper)
    best = 6 * trump + r_trump if use_trump else f_side
    return best if mask else -1


@jit
def ranks_held(faces: int) -> int:
    """The ranks (bit r) present in any suit of a face mask."""
    return (faces | (faces >> 6) | (faces >> 12) | (faces >> 18)) & 63


@jit
def _cheapest_scan(mask: int, trump: int, points: int) -> int:
    """:func:`_cheapest` by scanning every face of ``mask``."""
    best, best_key = -1, BIG
    m = mask
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        key = face_points(points, f) * 256 + (suit_of(f) == trump) * 64 + rank_of(f)
        if key < best_key:
            best, best_key = f, key
    return best


@jit
def _richest(mask: int, trump: int, points: int) -> int:
    """Face that gives the most points: most points, side suit before trump, lowest rank (then
    the lowest suit); -1 for an empty ``mask``.

    When points rise with rank (:data:`RISING`), the richest side-suit card is the lowest held
    rank scoring as much as the highest held side rank (of the lowest such suit), and the
    richest trump likewise; the trump is richer only with more points. Otherwise every card is
    scanned (:func:`_richest_scan`, the definition)."""
    if not (points >> RISING) & 1:
        return _richest_scan(mask, trump, points)
    tmask = suit_mask(trump)
    side = mask & ~tmask
    trumps = mask & tmask
    r = _lowest_as_rich(ranks_held(side), points)
    f_side = lowest_bit_index((side >> r) & RANK_ROW) + r  # the lowest suit with that rank
    r_trump = _lowest_as_rich(trumps >> (6 * trump), points)
    richer = ((points >> (10 * r_trump)) & 1023) > ((points >> (10 * r)) & 1023)
    use_trump = side == 0 or (trumps != 0 and richer)
    best = 6 * trump + r_trump if use_trump else f_side
    return best if mask else -1


@jit
def _lowest_as_rich(ranks: int, points: int) -> int:
    """The lowest of ``ranks`` (bits 0..5, not empty) that scores as many points as the highest
    (points rising with rank); 0 for no ranks."""
    top = highest_bit_index(ranks | 1)
    most = (points >> (10 * top)) & 1023
    equal = 0
    for k in range(6):  # a fixed loop, unrolled: no branch to mispredict
        equal |= (((points >> (10 * k)) & 1023) == most) << k
    return lowest_bit_index((ranks & equal) | (1 << top))


@jit
def _richest_scan(mask: int, trump: int, points: int) -> int:
    """:func:`_richest` by scanning every face of ``mask``."""
    best, best_key = -1, -BIG
    m = mask
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        key = face_points(points, f) * 256 - (suit_of(f) == trump) * 64 - rank_of(f)
        if key > best_key:
            best, best_key = f, key
    return best


@jit
def _lead(
    hand: int,
    played: int,
    seat: int,
    bidder: int,
    trump: int,
    partners: bool,
    points: int,
    draw_trump: bool,
) -> int:
    held = hand & 0xFFFFFF
    unseen = _unseen_faces(hand, played)
    trumps = held & suit_mask(trump)
    bidding_side = seat == bidder or (partners and (seat - bidder) % 2 == 0)
    top_trump = highest_bit_index(trumps) if trumps else -1
    boss_trump = top_trump >= 0 and (higher_in_suit(top_trump) & unseen) == 0
    out = _unseen_count(hand, played, trump)
    if draw_trump and bidding_side and trumps and out > 0 and suit_len(hand, trump) >= out:
        return top_trump if boss_trump else lowest_bit_index(trumps)
    # Cash a boss counter in a side suit, preferring the suit with most cards still out; else
    # lead low from the longest side suit. One pass over the suits, choosing by selects (each
    # suit's test is a coin flip to the branch predictor).
    best, best_out = -1, -1
    best_suit, best_len = -1, 0
    for s in range(4):
        side = s != trump
        cards = held & suit_mask(s)
        top = highest_bit_index(cards | (1 << (6 * s)))  # the suit's 9 when it is empty
        n = suit_len(hand, s)
        n_out = _unseen_count(hand, played, s)
        boss = (higher_in_suit(top) & unseen) == 0
        cash = side & (cards != 0) & (face_points(points, top) > 0) & boss & (n_out > best_out)
        best = top if cash else best
        best_out = n_out if cash else best_out
        longer = side & (n > best_len)
        best_suit = s if longer else best_suit
        best_len = n if longer else best_len
    if best >= 0:
        return best
    if best_suit >= 0:
        return lowest_bit_index(held & suit_mask(best_suit))
    return top_trump if boss_trump else lowest_bit_index(trumps)


@jit
def _unbeaten(cards: int, unseen: int, winner: int, trump: int) -> int:
    """The faces of ``cards`` that no ``unseen`` face beats, for ``cards`` among those that beat
    ``winner`` (so of winner's suit or trump): a card is unbeaten from the highest unseen face of
    its suit up (an identical card does not beat it), and a side-suit card only while no trump
    is unseen."""
    tmask = suit_mask(trump)
    ws = suit_of(winner)
    side_ok = ws == trump or (unseen & tmask) == 0
    in_suit = cards & suit_mask(ws) & _from_top(unseen & suit_mask(ws)) if side_ok else 0
    return in_suit | (cards & tmask & _from_top(unseen & tmask))


@jit
def _from_top(faces: int) -> int:
    """Every face from the highest of ``faces`` up (every face when ``faces`` is empty)."""
    return ~((1 << highest_bit_index(faces | 1)) - 1) if faces else -1


@jit
def _follow(
    hand: int,
    legal: int,
    played: int,
    n_played: int,
    winner: int,
    winner_seat: int,
    seat: int,
    trump: int,
    players: int,
    partners: bool,
    points: int,
    smear: bool,
) -> int:
    unseen = _unseen_faces(hand, played)
    last = n_played == players - 1
    beat = beaters(winner, trump)
    winners = legal & beat
    if partners and (winner_seat - seat) % 2 == 0:
        safe = last or (beat & unseen) == 0
        if safe and smear:
            return _richest(legal, trump, points)
        return _cheapest(legal, trump, points)
    if winners:
        if last:
            side = winners & ~suit_mask(trump)
            return _richest(side, trump, points) if side else _cheapest(winners, trump, points)
        boss = _unbeaten(winners, unseen, winner, trump)
        return _cheapest(boss if boss else winners, trump, points)
    return _cheapest(legal, trump, points)


@jit
def _greedy_play(v: PlayView, draw_trump: bool, smear: bool) -> int:
    """The face ``v.seat`` plays under ``greedy`` (:class:`PlayView` describes the moment)."""
    if v.n_played == 0:
        return _lead(v.hand, v.played, v.seat, v.bidder, v.trump, v.partners, v.points, draw_trump)
    return _follow(
        v.hand, v.legal, v.played, v.n_played, v.winner, v.winner_seat, v.seat, v.trump,
        v.players, v.partners, v.points, smear,
    )  # fmt: skip


@jit
def _random_play(legal: int, rs: np.ndarray) -> int:
    """``random``: a uniform choice among the legal faces."""
    m = legal
    for _ in range(below(rs, popcount(legal))):
        m &= m - 1
    return lowest_bit_index(m)


# Kernels of the ``play`` hook (:func:`pinochle_sim.policies.dispatch.play_card`): the moment,
# the policy's integer parameters in registry order (``q``), the hand's play stream.


@jit
def greedy(v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray) -> int:
    """``greedy``: ``q`` = (draw_trump, smear, ...)."""
    return _greedy_play(v, q[GREEDY_DRAW_TRUMP] != 0, q[GREEDY_SMEAR] != 0)


@jit
def random_play(v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray) -> int:
    """``random``: a uniform choice among the legal faces (no parameters)."""
    return _random_play(v.legal, rs)
