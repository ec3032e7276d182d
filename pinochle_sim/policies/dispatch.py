"""Which card a seat plays: the dispatch from a seat's play policy id to its kernel, and what
the table learns from each card.

Seats may play different policies (``pp[seat]``, as in a ``compare`` tournament). The trick
loop (:mod:`pinochle_sim.engines.trickplay`) reads each seat's policy id and its first
:data:`PLAY_PARAMS` integer parameters from the policy array and calls :func:`play_card`. It also
keeps what every seat has shown about its hand (``caps``: voids, and no card above a given rank)
for the policies that read it (:func:`reads_caps`).

Adding a play policy: write its kernel (taking a :class:`~.view.PlayView` and its parameters),
give it an id in :mod:`.slots` and an entry in :mod:`.registry`, and add its branch here.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import HEAD_ALWAYS, HEAD_TRUMP_LED
from pinochle_sim.policies.counting import _counting_play
from pinochle_sim.policies.play import _greedy_play, _random_play
from pinochle_sim.policies.slots import PLAY_COUNTING, PLAY_RANDOM
from pinochle_sim.policies.view import PlayView

PLAY_PARAMS = 4
"""Integer parameters a play policy may declare (read per card from the policy array)."""

CAPS_NONE = sum(6 << (4 * i) for i in range(16))
"""Nothing learnt yet: every seat may hold any rank (cap 6) of every suit."""


@jit
def reads_caps(kind: int) -> bool:
    """Whether play policy ``kind`` reads what seats have shown (so the trick loop keeps
    ``caps``)."""
    return kind == PLAY_COUNTING


@jit
def learn(caps: int, seat: int, f: int, led: int, winner: int, trump: int, head: int) -> int:
    """What ``seat`` playing face ``f`` to a trick led in ``led`` (``winner``: the card winning
    before it) shows about its hand, folded into ``caps``.

    ``caps`` holds 4 bits per (seat, suit) at ``16 * seat + 4 * suit``: the seat holds no card
    of that suit of rank >= the cap (6 = nothing known, 0 = void). Trick rules (docs/rules.md,
    "Trick play"): a seat that does not follow is void in the led suit, and if it does not trump
    either, void in trump; where it must head the trick (``head``: tricks.HEAD_*), a card that
    does not beat a winner of its own suit shows it holds nothing higher in that suit.
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
def play_card(kind: int, q: tuple[int, int, int, int], v: PlayView, rs: np.ndarray) -> int:
    """The face the seat of ``v`` plays under play policy ``kind`` with parameters ``q`` (the
    policy's first :data:`PLAY_PARAMS` parameters, in its registry order); ``rs`` is the hand's
    play stream."""
    if kind == PLAY_RANDOM:
        return _random_play(v.legal, rs)
    if kind == PLAY_COUNTING:
        return _counting_play(v, q[0] != 0, q[1] != 0)
    return _greedy_play(v, q[0] != 0, q[1] != 0)
