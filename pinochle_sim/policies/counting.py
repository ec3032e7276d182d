"""The ``counting`` play policy: ``greedy`` plus what a careful player reads from the table.

It remembers every card played (so it knows which cards are boss) and what each seat has shown
about its hand (``caps``: a seat that did not follow is void in the led suit, and if it did not
trump either, void in trump too; where the rules make a player head the trick, a card that did
not beat the winner of its suit shows it holds nothing higher there). With that it:

* **judges safety per seat**: a card still to be played can only beat the winning card if that
  seat may hold a higher card of the led suit, or can hold none of it (shown, or none unseen
  below its cap) and may still hold a trump that beats it;
* **leads**: the bidding side draws trump only while an opponent may still hold one (it stops
  once both have shown out: "save trump"); it cashes boss counters only in suits no opponent
  can ruff; it leads into a suit its partner has shown out of (and can ruff) but the next
  opponent has not; otherwise it leads low from the longest suit no opponent is void in;
* **follows**: it smears its richest card on a partner whose card no later opponent can beat;
  it wins with the cheapest card no later opponent can beat, leaves the trick to a partner still
  to play rather than spend a high card that may be overtaken, and otherwise throws cheaply.

Parameters are ``greedy``'s: ``draw_trump`` and ``smear``.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    beaters,
    higher_in_suit,
    seat_after,
    suit_len,
    suit_mask,
    suit_of,
)
from pinochle_sim.policies.play import _cheapest, _richest, _unseen_faces, face_points
from pinochle_sim.policies.slots import GREEDY_DRAW_TRUMP, GREEDY_SMEAR
from pinochle_sim.policies.view import PlayView


@jit
def _may_hold(caps: int, seat: int, suit: int, unseen: int) -> int:
    """Faces of ``suit`` that ``seat`` may still hold: unseen, and below the rank it has shown
    it cannot reach (``caps``, see :func:`pinochle_sim.policies.dispatch.learn`)."""
    cap = (caps >> (16 * seat + 4 * suit)) & 15
    return unseen & (((1 << cap) - 1) << (6 * suit))


@jit
def _void(caps: int, seat: int, suit: int) -> bool:
    return ((caps >> (16 * seat + 4 * suit)) & 15) == 0


@jit
def _threat(seat: int, led: int, winner: int, trump: int, unseen: int, caps: int) -> bool:
    """Whether ``seat``, still to play to a trick led in ``led``, may beat ``winner``."""
    led_out = _may_hold(caps, seat, led, unseen)
    if led_out:
        # It probably follows suit: only a higher card of the led suit beats a led-suit winner.
        return suit_of(winner) == led and (higher_in_suit(winner) & led_out) != 0
    if led == trump:
        return False
    trumps_out = _may_hold(caps, seat, trump, unseen)
    if suit_of(winner) != trump:
        return trumps_out != 0
    return (higher_in_suit(winner) & trumps_out) != 0


@jit(inline="always")
def _safe(
    card: int, seat: int, led: int, trump: int, players: int, n_after: int, partners: bool,
    unseen: int, caps: int,
) -> bool:  # fmt: skip
    """Whether no opponent among the ``n_after`` seats after ``seat`` may beat ``card``."""
    for i in range(1, n_after + 1):
        if partners and i == 2:
            continue
        other = seat_after(seat, i, players)
        if _threat(other, led, card, trump, unseen, caps):
            return False
    return True


@jit
def _can_ruff(seat: int, suit: int, trump: int, unseen: int, caps: int) -> bool:
    """Whether ``seat`` may trump a lead of ``suit`` (it can hold no card of it, but a trump)."""
    if suit == trump or _may_hold(caps, seat, trump, unseen) == 0:
        return False
    return _may_hold(caps, seat, suit, unseen) == 0


@jit
def _counting_lead(
    hand: int, played: int, seat: int, bidder: int, trump: int, players: int, partners: bool,
    points: int, caps: int, draw_trump: bool,
) -> int:  # fmt: skip
    held = hand & 0xFFFFFF
    unseen = _unseen_faces(hand, played)
    trumps = held & suit_mask(trump)
    bidding_side = seat == bidder or (partners and (seat - bidder) % 2 == 0)
    opp_trumps = False
    for i in range(1, players):
        other = seat_after(seat, i, players)
        if partners and i == 2:
            continue
        if not _void(caps, other, trump):
            opp_trumps = True
    trumps_out = popcount(unseen & suit_mask(trump))
    top = highest_bit_index(trumps) if trumps else -1
    boss_trump = top >= 0 and (higher_in_suit(top) & unseen) == 0
    drawing = draw_trump and bidding_side and trumps and opp_trumps and trumps_out > 0
    if drawing and suit_len(hand, trump) >= trumps_out:
        return top if boss_trump else lowest_bit_index(trumps)
    # Cash a boss counter where no opponent can ruff, most cards still out first.
    best, best_out = -1, -1
    for s in range(4):
        cards = held & suit_mask(s)
        if s == trump or cards == 0:
            continue
        hi = highest_bit_index(cards)
        if face_points(points, hi) == 0 or (higher_in_suit(hi) & unseen) != 0:
            continue
        ruffed = False
        for i in range(1, players):
            other = seat_after(seat, i, players)
            if not (partners and i == 2) and _can_ruff(other, s, trump, unseen, caps):
                ruffed = True
        n_out = popcount(unseen & suit_mask(s))
        if not ruffed and n_out > best_out:
            best, best_out = hi, n_out
    if best >= 0:
        return best
    if partners:
        mate = seat_after(seat, 2, players)
        nxt = seat_after(seat, 1, players)
        last = seat_after(seat, 3, players)
        for s in range(4):
            cards = held & suit_mask(s)
            if s == trump or cards == 0:
                continue
            mate_ruffs = _can_ruff(mate, s, trump, unseen, caps)
            if mate_ruffs and not _void(caps, last, s) and not _void(caps, nxt, s):
                return lowest_bit_index(cards)
    # Lead low from the longest side suit no opponent has shown out of.
    best_suit, best_len = -1, 0
    fallback, fallback_len = -1, 0
    for s in range(4):
        if s == trump:
            continue
        n = suit_len(hand, s)
        if n == 0:
            continue
        exposed = False
        for i in range(1, players):
            other = seat_after(seat, i, players)
            if not (partners and i == 2) and _can_ruff(other, s, trump, unseen, caps):
                exposed = True
        if not exposed and n > best_len:
            best_suit, best_len = s, n
        if n > fallback_len:
            fallback, fallback_len = s, n
    if best_suit < 0:
        best_suit = fallback
    if best_suit >= 0:
        return lowest_bit_index(held & suit_mask(best_suit))
    return top if boss_trump else lowest_bit_index(trumps)


@jit
def _counting_play(v: PlayView, draw_trump: bool, smear: bool) -> int:
    """The face ``v.seat`` plays under ``counting``: as ``greedy``, plus what seats have shown
    (``v.caps``) and the led suit (``v.led``)."""
    hand, legal, played, n_played = v.hand, v.legal, v.played, v.n_played
    winner, winner_seat, seat, bidder = v.winner, v.winner_seat, v.seat, v.bidder
    trump, players, partners, points, caps, led = (
        v.trump,
        v.players,
        v.partners,
        v.points,
        v.caps,
        v.led,
    )
    if n_played == 0:
        return _counting_lead(
            hand, played, seat, bidder, trump, players, partners, points, caps, draw_trump
        )
    unseen = _unseen_faces(hand, played)
    n_after = players - 1 - n_played
    if partners and (winner_seat - seat) % 2 == 0:
        safe = _safe(winner, seat, led, trump, players, n_after, partners, unseen, caps)
        if safe and smear:
            side = legal & ~suit_mask(trump)
            return _richest(side if side else legal, trump, points)
        return _cheapest(legal, trump, points)
    winners = legal & beaters(winner, trump)
    if winners == 0:
        return _cheapest(legal, trump, points)
    if n_after == 0:
        side = winners & ~suit_mask(trump)
        return _richest(side, trump, points) if side else _cheapest(winners, trump, points)
    sure = 0
    m = winners
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        if _safe(f, seat, led, trump, players, n_after, partners, unseen, caps):
            sure |= 1 << f
    if sure:
        return _cheapest(sure, trump, points)
    mate_after = partners and n_after >= 2  # the partner plays after the next opponent
    if mate_after:
        return _cheapest(legal, trump, points)
    return _cheapest(winners, trump, points)


@jit
def counting(v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray) -> int:
    """Kernel of the ``play`` hook for ``counting``: ``q`` = (draw_trump, smear, ...), the
    slots ``greedy`` uses."""
    return _counting_play(v, q[GREEDY_DRAW_TRUMP] != 0, q[GREEDY_SMEAR] != 0)
