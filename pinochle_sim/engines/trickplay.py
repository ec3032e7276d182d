"""The trick-play kernel every engine shares: obligations, the policy's choice, the winner,
points and what the table learns, trick after trick.

Trick rules (docs/rules.md, "Trick play"): follow suit, trump when void, head the trick where
the ruleset says so; the highest trump wins, else the highest card of the led suit, the first
of two identical cards ahead of the second; the last trick scores the ruleset's bonus.

:func:`play_tricks` plays from the current hands to the end and writes one row of the *trick
log* per trick (layout below); each engine then credits the tricks to its sides or seats and
writes its own trace from the log. The loop itself knows nothing of bids, sides or records.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    PLANE,
    add_card,
    beaters,
    legal_mask,
    remove_card,
    suit_of,
)
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.dispatch import (
    CAPS_NONE,
    learn_if,
    play_card,
    play_params,
    reads_table,
    table_notes,
)
from pinochle_sim.policies.known import K_LEADER, K_TRICK
from pinochle_sim.policies.play import face_points, pack_points
from pinochle_sim.policies.slots import PP_PLAY
from pinochle_sim.policies.view import PlayView, pack_trick_rules
from pinochle_sim.rules.arrays import (
    RA_FOLLOW,
    RA_HAND_SIZE,
    RA_HEAD,
    RA_LAST,
    RA_PARTNERS,
    RA_PLAYERS,
    RA_POINTS,
    RA_TRUMP,
)

# Trick log (int64, TK_WIDTH values per trick; a LogArray).
TK_LEADER = 0  # seat that led
TK_FACES = 1  # 4 slots: faces in play order (unused slots -1)
TK_WINNER = 5  # seat that won the trick
TK_POINTS = 6  # card points taken, plus the last-trick bonus on the last trick
TK_COUNTERS = 7  # cards with points among them
TK_WIDTH = 8
MAX_TRICKS = 16
LOG_SIZE = MAX_TRICKS * TK_WIDTH

EACH_SEAT_BIDS = -1
"""``bidder`` value for games without a bidder (two-hand play-out): every seat plays as if it
were the bidder (it draws trump when it holds as many as are out)."""


@jit
def play_tricks(
    bundle: PolicyBundle,
    hands: np.ndarray,
    leader: int,
    bidder: int,
    trump: int,
    played: int,
    ra: np.ndarray,
    pp: np.ndarray,
    rs: np.ndarray,
    log: np.ndarray,
    work: np.ndarray,
) -> int:
    """Play ``ra[RA_HAND_SIZE]`` tricks from ``leader``'s lead, each seat under its own play
    policy (``pp[seat]``, one of the ``bundle``'s), removing cards from ``hands`` (packed, one
    per seat) and logging every trick into ``log``; returns every card played, packed
    (``played`` on entry: the cards already gone, as after a two-hand stock phase).

    ``work`` is the thread's work array (:mod:`pinochle_sim.policies.known`): where a play policy
    of the bundle reads what the table knows, the engine has set it up for this hand and the loop
    keeps it current (the trick on the table, the cards each seat is known to hold)."""
    players = ra[RA_PLAYERS]
    n_tricks = ra[RA_HAND_SIZE]
    follow = ra[RA_FOLLOW] != 0
    must_trump = ra[RA_TRUMP] != 0
    head = ra[RA_HEAD]
    partners = ra[RA_PARTNERS] != 0
    last_bonus = ra[RA_LAST]
    points = pack_points(ra[RA_POINTS : RA_POINTS + 6])
    rules = pack_trick_rules(ra[RA_FOLLOW], ra[RA_TRUMP], head, last_bonus)
    caps = CAPS_NONE
    table = reads_table(bundle)
    for t in range(n_tricks):
        row = t * TK_WIDTH
        led = -1
        winner = -1
        winner_seat = -1
        pts = 0
        counters = 0
        seat = leader
        on_table = 0
        # Slots past the last player stay -1 (players >= 2; a loop here was vectorised, and the
        # vector registers it kept were saved and restored around every card's policy call).
        log[nonneg(row + TK_FACES + 2)] = -1
        log[nonneg(row + TK_FACES + 3)] = -1
        for k in range(players):
            hand = hands[nonneg(seat)]
            legal = legal_mask(hand & PLANE, led, winner, trump, follow, must_trump, head)
            view = PlayView(
                hand, legal, played, k, winner, winner_seat, seat,
                seat if bidder == EACH_SEAT_BIDS else bidder, trump, players, partners, points,
                caps, led, rules,
            )  # fmt: skip
            if table:
                work[K_LEADER] = leader
                work[K_TRICK] = on_table
            policy = pp[nonneg(seat), PP_PLAY]
            f = play_card(bundle, policy, view, play_params(pp, seat), rs, work)
            if table:
                table_notes(bundle, work, seat, f, players)
                if k < 3:
                    on_table |= (f + 1) << (8 * k)
            hands[nonneg(seat)] = remove_card(hand, f)
            played = add_card(played, f)
            value = face_points(points, f)
            pts += value
            counters += value > 0
            log[nonneg(row + TK_FACES + k)] = f
            if k == 0:
                led = suit_of(f)
                winner = f
                winner_seat = seat
            else:
                caps = learn_if(bundle, caps, seat, f, led, winner, trump, head)
                if (beaters(winner, trump) >> f) & 1:
                    winner = f
                    winner_seat = seat
            seat = seat + 1 if seat + 1 < players else 0
        if t == n_tricks - 1:
            pts += last_bonus
        log[nonneg(row + TK_LEADER)] = leader
        log[nonneg(row + TK_WINNER)] = winner_seat
        log[nonneg(row + TK_POINTS)] = pts
        log[nonneg(row + TK_COUNTERS)] = counters
        leader = winner_seat
    return played
