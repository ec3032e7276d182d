"""Seeded dealing (docs/rules.md 4.1): hand ``i`` of seed ``s`` is a pure function of ``(s, i)``.

A Fisher-Yates shuffle of the 48 cards draws from the hand's own deal stream; it stops once all
but the last block are placed (the remainder, the last seat's hand or the widow, is already a
uniformly random set), building the packed hands while it swaps. With a stock (two-hand) the
whole deck is shuffled, since the stock's order matters.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import STREAM_DEAL, below, below_at, stream_init
from pinochle_sim.core.tricks import add_card


@jit
def _deal(
    seed: int,
    hand: int,
    players: int,
    hand_size: int,
    widow: int,
    deck: np.ndarray,
    rs: np.ndarray,
    hands: np.ndarray,
) -> int:
    """Deal hand ``hand`` of ``seed`` into ``hands[0:players]``; returns the widow (packed).

    Seat ``p`` gets shuffled positions ``[p*hand_size, (p+1)*hand_size)``; the widow the next
    ``widow`` positions. ``deck`` (int64[48]) and ``rs`` (uint64[2]) are caller-owned scratch.
    Positions past the widow (a two-hand stock) stay in ``deck`` in shuffled order.
    """
    stream_init(rs, seed, hand, STREAM_DEAL)
    for k in range(48):
        deck[k] = k >> 1  # face of copy k
    for p in range(players):
        hands[p] = 0
    dealt = players * hand_size + widow
    # The last block (widow, else the last seat) needs no draws when the whole deck is dealt;
    # with a stock (two-hand) its order matters, so shuffle everything.
    n_random = 47 if dealt < 48 else 48 - (widow if widow > 0 else hand_size)
    # The stream, the hand being built and the seat's place in it stay in registers (no
    # division by hand_size, no store per card).
    seat, held, place = 0, 0, 0
    key, counter = rs[0], rs[1]
    for i in range(48):
        if i < n_random:
            r, counter = below_at(key, counter, 48 - i)
            j = nonneg(i + r)
            f = deck[j]
            deck[j] = deck[i]
            deck[i] = f
        else:
            f = deck[i]
        if seat < players:
            held = add_card(held, f)
            place += 1
            if place == hand_size:
                hands[nonneg(seat)] = held
                seat, held, place = seat + 1, 0, 0
    rs[1] = counter
    w = 0
    for i in range(players * hand_size, players * hand_size + widow):
        w = add_card(w, deck[i])
    return w


# The deal-constraints array ``fx`` (int64[FX_SIZE]) every kernel entry point takes after the
# seed: the cards fixed in each seat's hand (packed, 0 = none), and an optional forced bidder
# and trump for the auction engine (-1 = the auction decides).
FX_HANDS = 0  # 4 packed hands: cards seat p must hold
FX_BIDDER = 4  # seat made bidder at the minimum bid after the auction, or -1
FX_TRUMP = 5  # trump that forced bidder names, or -1
FX_ANY = 6  # 1 if any card is fixed (else the unconstrained deal runs, draw for draw)
FX_UP = 7  # face placed first after the hands (two-hand: the turned-up trump card), or -1
FX_STOP = 8  # 1: the auction engine stops after the auction (columns after it are left unset)
FX_SIZE = 9


def no_constraints() -> np.ndarray:
    """The constraints array of a free deal: nothing fixed, nothing forced."""
    fx = np.zeros(FX_SIZE, dtype=np.int64)
    fx[FX_BIDDER] = -1
    fx[FX_TRUMP] = -1
    fx[FX_UP] = -1
    return fx


@jit
def _copies(h: int, f: int) -> int:
    """Copies of face ``f`` in the packed hand ``h``."""
    return ((h >> f) & 1) + ((h >> (24 + f)) & 1)


@jit
def _free_place(j: int, fx: np.ndarray, players: int, hand_size: int) -> int:
    """Deck position of free place ``j``: each seat's places after its fixed cards in seat
    order, then every position after the hands (less the up-card's, if fixed)."""
    for p in range(players):
        fixed = popcount(fx[FX_HANDS + p])
        room = hand_size - fixed
        if j < room:
            return p * hand_size + fixed + j
        j -= room
    return players * hand_size + (1 if fx[FX_UP] >= 0 else 0) + j


@jit
def _deal_fixed(
    seed: int,
    hand: int,
    players: int,
    hand_size: int,
    widow: int,
    fx: np.ndarray,
    deck: np.ndarray,
    rs: np.ndarray,
    hands: np.ndarray,
) -> int:
    """:func:`_deal` with the cards of ``fx`` fixed: each seat holds its fixed cards, and the
    other copies are shuffled (Fisher-Yates from the same deal stream) into the free places.

    ``deck`` ends in the same shape as :func:`_deal` leaves it: seat ``p``'s cards at positions
    ``[p*hand_size, (p+1)*hand_size)`` (its fixed cards first), then the widow, then the stock
    (``FX_UP``, if set, first after the hands: the two-hand turned-up card). Nothing is
    allocated: the free copies are laid into the free places in face order, then shuffled in
    place. The caller has checked that the constraints fit
    (:func:`pinochle_sim.runs.simulate.deal_constraints`).
    """
    if fx[FX_ANY] == 0:
        return _deal(seed, hand, players, hand_size, widow, deck, rs, hands)
    stream_init(rs, seed, hand, STREAM_DEAL)
    up = fx[FX_UP]
    if up >= 0:
        deck[players * hand_size] = up
    n_free = 0
    for p in range(players):
        h = fx[FX_HANDS + p]
        pos = p * hand_size
        for f in range(24):
            for _ in range(_copies(h, f)):
                deck[pos] = f
                pos += 1
        n_free += hand_size - (pos - p * hand_size)
    n_free += 48 - players * hand_size - (1 if up >= 0 else 0)
    k = 0
    for f in range(24):
        free = 2 - (1 if f == up else 0)
        for p in range(players):
            free -= _copies(fx[FX_HANDS + p], f)
        for _ in range(free):
            deck[_free_place(k, fx, players, hand_size)] = f
            k += 1
    for i in range(n_free - 1):
        j = i + below(rs, n_free - i)
        a = _free_place(i, fx, players, hand_size)
        b = _free_place(j, fx, players, hand_size)
        f = deck[a]
        deck[a] = deck[b]
        deck[b] = f
    for p in range(4):
        hands[p] = 0
    for i in range(players * hand_size):
        seat = i // hand_size
        hands[seat] = add_card(hands[seat], deck[i])
    w = 0
    for i in range(players * hand_size, players * hand_size + widow):
        w = add_card(w, deck[i])
    return w
