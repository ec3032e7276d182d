"""Which card a seat plays: each seat's play policy packed once per hand, and the dispatch.

Seats may play different policies (``pp[seat]``, as in a ``compare`` tournament). The engine
also keeps the void information every seat has shown (``voids``) for the policies that count.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .counting import _counting_play
from .play import _choose_play, _random_play
from .slots import (
    GREEDY_DRAW_TRUMP,
    GREEDY_SMEAR,
    PLAY_COUNTING,
    PLAY_GREEDY,
    PLAY_RANDOM,
    PP_PLAY,
    PP_PLAY_PARAMS,
)

PLAY_BITS = 8
"""Bits of one seat's packed play settings (:func:`play_settings`)."""
PLAY_MASK = (1 << PLAY_BITS) - 1
_KIND_MASK = 3
_DRAW_TRUMP = 4
_SMEAR = 8


@jit
def play_settings(pp: np.ndarray) -> int:
    """One seat's play policy packed into a small int, read once per hand: the policy id in
    bits 0-1, then its flags (draw trump, smear)."""
    kind = pp[PP_PLAY]
    settings = kind
    if kind in (PLAY_GREEDY, PLAY_COUNTING):
        if pp[PP_PLAY_PARAMS + GREEDY_DRAW_TRUMP] != 0:
            settings |= _DRAW_TRUMP
        if pp[PP_PLAY_PARAMS + GREEDY_SMEAR] != 0:
            settings |= _SMEAR
    return settings


@jit
def counts_voids(settings: int) -> bool:
    """Whether a seat's play policy reads the void bits (so the engine must keep them)."""
    return (settings & _KIND_MASK) == PLAY_COUNTING


@jit
def _shown_out(seat: int, f: int, led: int, trump: int) -> int:
    """Void bits (4 * seat + suit) learnt from ``seat`` playing face ``f`` to a trick led in
    ``led``: not following shows it out of the led suit, and not trumping then shows it out of
    trump (RULES.md 7: follow, else trump)."""
    if f // 6 == led:
        return 0
    bits = 1 << (4 * seat + led)
    if f // 6 != trump:
        bits |= 1 << (4 * seat + trump)
    return bits


@jit(inline="always")
def _play_card(
    settings: int,
    hand: int,
    legal: int,
    played: int,
    n_played: int,
    winner: int,
    winner_seat: int,
    seat: int,
    bidder: int,
    trump: int,
    players: int,
    partners: bool,
    points: int,
    voids: int,
    led: int,
    rs: np.ndarray,
) -> int:
    """The face a seat plays under its policy (``settings`` from :func:`play_settings`);
    ``led`` is the led suit (-1 when leading), ``voids`` the suits seats have shown out of."""
    kind = settings & _KIND_MASK
    draw_trump = (settings & _DRAW_TRUMP) != 0
    smear = (settings & _SMEAR) != 0
    if kind == PLAY_RANDOM:
        return _random_play(legal, rs)
    if kind == PLAY_COUNTING:
        return _counting_play(
            hand, legal, played, n_played, winner, winner_seat, seat, bidder, trump, players,
            partners, points, voids, led, draw_trump, smear,
        )  # fmt: skip
    return _choose_play(
        hand, legal, played, n_played, winner, winner_seat, seat, bidder, trump, players,
        partners, points, draw_trump, smear,
    )  # fmt: skip
