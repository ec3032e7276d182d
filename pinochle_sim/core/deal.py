"""Seeded dealing (docs/rules.md 4.1): hand ``i`` of seed ``s`` is a pure function of ``(s, i)``.

A Fisher-Yates shuffle of the 48 cards draws from the hand's own deal stream; it stops once all
but the last block are placed (the remainder, the last seat's hand or the widow, is already a
uniformly random set), building the packed hands while it swaps. With a stock (two-hand) the
whole deck is shuffled, since the stock's order matters.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import STREAM_DEAL, below, stream_init
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
    for i in range(48):
        if i < n_random:
            j = i + below(rs, 48 - i)
            f = deck[j]
            deck[j] = deck[i]
            deck[i] = f
        else:
            f = deck[i]
        seat = i // hand_size
        if seat < players:
            hands[seat] = add_card(hands[seat], f)
    w = 0
    for i in range(players * hand_size, players * hand_size + widow):
        w = add_card(w, deck[i])
    return w
