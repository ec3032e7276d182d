"""Which card a seat plays: each seat's play policy packed once per hand, and the dispatch.

Seats may play different policies (``pp[seat]``, as in a ``compare`` tournament). The engine
also keeps what every seat has shown about its hand (``caps``: voids, and no card above a
given rank) for the policies that count.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from ..tricks import HEAD_ALWAYS, HEAD_TRUMP_LED
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


CAPS_NONE = sum(6 << (4 * i) for i in range(16))
"""Nothing learnt yet: every seat may hold any rank (cap 6) of every suit."""


@jit
def counts_cards(settings: int) -> bool:
    """Whether a seat's play policy reads what seats have shown (so the engine keeps ``caps``)."""
    return (settings & _KIND_MASK) == PLAY_COUNTING


@jit
def _learn(caps: int, seat: int, f: int, led: int, winner: int, trump: int, head: int) -> int:
    """What ``seat`` playing face ``f`` to a trick led in ``led`` (``winner``: the card winning
    before it) shows about its hand, folded into ``caps``.

    ``caps`` holds 4 bits per (seat, suit) at ``16 * seat + 4 * suit``: the seat holds no card
    of that suit of rank >= the cap (6 = nothing known, 0 = void). RULES.md 7: a seat that does
    not follow is void in the led suit, and if it does not trump either, void in trump; where it
    must head the trick (``head``: tricks.HEAD_*), a card that does not beat a winner of its own
    suit shows it holds nothing higher in that suit.
    """
    shift = 16 * seat
    suit = f // 6
    heads = head == HEAD_ALWAYS or (head == HEAD_TRUMP_LED and led == trump)
    if suit != led:
        caps &= ~(15 << (shift + 4 * led))
        if suit != trump:
            return caps & ~(15 << (shift + 4 * trump))
        heads = head == HEAD_ALWAYS  # trumping a plain lead: must overtrump when it can
    if heads and winner // 6 == suit and f % 6 <= winner % 6:
        at = shift + 4 * suit
        cap = min((caps >> at) & 15, winner % 6 + 1)
        caps = (caps & ~(15 << at)) | (cap << at)
    return caps


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
    caps: int,
    led: int,
    rs: np.ndarray,
) -> int:
    """The face a seat plays under its policy (``settings`` from :func:`play_settings`);
    ``led`` is the led suit (-1 when leading), ``caps`` what seats have shown (:func:`_learn`)."""
    kind = settings & _KIND_MASK
    draw_trump = (settings & _DRAW_TRUMP) != 0
    smear = (settings & _SMEAR) != 0
    if kind == PLAY_RANDOM:
        return _random_play(legal, rs)
    if kind == PLAY_COUNTING:
        return _counting_play(
            hand, legal, played, n_played, winner, winner_seat, seat, bidder, trump, players,
            partners, points, caps, led, draw_trump, smear,
        )  # fmt: skip
    return _choose_play(
        hand, legal, played, n_played, winner, winner_seat, seat, bidder, trump, players,
        partners, points, draw_trump, smear,
    )  # fmt: skip
