"""A ruleset flattened to the int64 array the kernels read (``RuleArray``).

numba freezes module globals at compile time and its cache does not notice changes in other
modules, so rules travel into kernels as this array, never as globals. Each slot is named below.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

from pinochle_sim.rules.ruleset import HEAD_RULES, ROUNDING, Ruleset

RuleArray: TypeAlias = np.ndarray

RA_PLAYERS = 0  # seats, 2..4
RA_HAND_SIZE = 1  # cards dealt to each seat
RA_WIDOW = 2  # cards dealt to the widow
RA_MIN_BID = 3  # opening bid; stuck dealer's bid
RA_NSTEPS = 4  # number of allowed raise steps (<= 4)
RA_STEPS = 5  # 4 slots: raise steps, ascending
RA_PASS = 9  # cards passed partner -> bidder and back
RA_POINTS = 10  # 6 slots: trick points by rank 9, J, Q, K, 10, A
RA_LAST = 16  # last-trick bonus
RA_FOLLOW = 17  # 1 = must follow suit
RA_TRUMP = 18  # 1 = must trump when void
RA_HEAD = 19  # heading rule: 0 always, 1 trump-led, 2 never (tricks.HEAD_*)
RA_SAVE = 20  # 1 = a side with no trick points scores nothing
RA_THROW_IN = 21  # 1 = the bidder may concede a hopeless bid
RA_TOTAL = 22  # total trick points (cards + last trick)
RA_SCALE = 23  # point unit relative to partnership (10 for joedog)
RA_PARTNERS = 24  # 1 = seats i and i+2 are partners
RA_DISCARD = 25  # cards the bidder discards after taking the widow
RA_DISCARDS_COUNT = 26  # 1 = counters among the discards score for the bidder
RA_ROUNDING = 27  # trick-point rounding: 0 none, 1 tens with units 7-9 up (two-hand)
RA_TURNUP_DIX = 28  # points the dealer scores when the turned-up trump card is a 9
RA_GAME_TARGET = 29  # points that win a game
RA_BIDDER_WINS_TIES = 30  # 1 = if several sides reach the target in one hand, the bidder's wins
RA_SIZE = 31


def rule_array(r: Ruleset) -> RuleArray:
    """Flatten ``r`` for the kernels."""
    a = np.zeros(RA_SIZE, dtype=np.int64)
    a[RA_PLAYERS] = r.players
    a[RA_HAND_SIZE] = r.hand_size
    a[RA_WIDOW] = r.widow
    a[RA_MIN_BID] = r.min_bid
    steps = sorted(r.bid_steps)
    if len(steps) > 4:
        raise ValueError("bid_steps: at most 4 raise steps are supported")
    a[RA_NSTEPS] = len(steps)
    a[RA_STEPS : RA_STEPS + len(steps)] = steps
    a[RA_PASS] = r.pass_cards
    a[RA_POINTS : RA_POINTS + 6] = r.trick_points
    a[RA_LAST] = r.last_trick
    a[RA_FOLLOW] = r.must_follow
    a[RA_TRUMP] = r.must_trump
    a[RA_HEAD] = HEAD_RULES.index(r.head_trick)
    a[RA_SAVE] = r.save_rule
    a[RA_THROW_IN] = r.throw_in
    a[RA_TOTAL] = r.total_trick_points
    a[RA_SCALE] = r.scale
    a[RA_PARTNERS] = r.partnerships
    a[RA_DISCARD] = r.discard
    a[RA_DISCARDS_COUNT] = r.discards_count
    a[RA_ROUNDING] = ROUNDING.index(r.rounding)
    a[RA_TURNUP_DIX] = r.turnup_dix
    a[RA_GAME_TARGET] = r.game_target
    a[RA_BIDDER_WINS_TIES] = r.bidder_wins_ties
    a.flags.writeable = False
    return a
