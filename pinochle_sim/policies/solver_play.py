"""``solver``: perfect play of the two-hand play-out, from the double-dummy solver.

Once the stock is gone every card is known to both players (RULES.md section 9: the last
stock card is shown, the loser takes the up-card), so the play-out of the last 12 tricks is a
game of perfect information: the opponent holds exactly the copies neither played nor in the
seat's hand. The policy solves that position (:func:`pinochle_sim.solver.kernel.dd_best`) for
the seat to move and plays a card of the best value for it: of several, the one with the
fewest points, then the lowest rank, then the first suit (S, H, D, C), so the choice never
depends on the solver's table. During the stock phase a two-hand seat plays by its ``stock``
policy, so ``solver`` is the play-out only. Four-hand and three-hand play hide the other hands,
so the engines refuse it there (:attr:`pinochle_sim.engines.base.Engine.open_play`).

The policy hook gives a play kernel no state between calls, so each decision makes its own
solver table (2**16 buckets, 4 MB, zeroed in about a millisecond); the table only changes the
speed, never the card. Measured on the first play-out move of 20 deals (mean seconds, 2-core
machine under load): 2**12 buckets 0.55, 2**14 0.13, 2**16 0.099, 2**18 0.099.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import add_card
from pinochle_sim.policies.play import face_points
from pinochle_sim.policies.view import PlayView
from pinochle_sim.rules.arrays import (
    RA_FOLLOW,
    RA_HEAD,
    RA_LAST,
    RA_PLAYERS,
    RA_POINTS,
    RA_SIZE,
    RA_TRUMP,
)
from pinochle_sim.solver.driver import dd_best
from pinochle_sim.solver.workspace import make_table

TABLE_BITS = 16
"""Solver table buckets (log2) of one decision (module docstring: smaller tables cost nodes)."""


@jit
def unseen_copies(hand: int, played: int) -> int:
    """The packed set of copies neither in ``hand`` nor ``played`` (two of each face in all)."""
    rest = 0
    for f in range(24):
        held = ((hand >> f) & 1) + ((hand >> (24 + f)) & 1)
        gone = ((played >> f) & 1) + ((played >> (24 + f)) & 1)
        for _ in range(2 - held - gone):
            rest = add_card(rest, f)
    return rest


@jit(allocates=True)
def solver_play(v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray) -> int:
    """A best card of the two-hand play-out for ``v.seat`` (module docstring)."""
    ra = np.zeros(RA_SIZE, dtype=np.int64)
    ra[RA_PLAYERS] = 2
    for r in range(6):
        ra[RA_POINTS + r] = face_points(v.points, r)
    ra[RA_FOLLOW] = v.rules & 1
    ra[RA_TRUMP] = (v.rules >> 1) & 1
    ra[RA_HEAD] = (v.rules >> 2) & 3
    ra[RA_LAST] = v.rules >> 8
    other = unseen_copies(v.hand, v.played)
    h0 = v.hand if v.seat == 0 else other
    h1 = other if v.seat == 0 else v.hand
    if v.n_played == 0:
        leader, trick = v.seat, 0
    else:  # the opponent led v.winner (the only card on the table)
        leader, trick = 1 - v.seat, v.winner + 1
    f, _ = dd_best(h0, h1, 0, 0, leader, trick, v.trump, ra, 1 << v.seat, make_table(TABLE_BITS))
    if f < 0 or not (v.legal >> f) & 1:  # cannot happen: the solver plays by the same rules
        raise ValueError("solver policy: the solver's card is not legal here")
    return f
