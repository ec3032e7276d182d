"""Where the two-hand play-out starts, deal by deal: what the double-dummy columns solve.

The records do not hold the stock phase card by card, so each deal is played again by the
engine with its trace on (a few microseconds, against milliseconds for a solve) and the twelve
play-out tricks are read back from the trace: the hands they were played from, the seat that led
the first of them, the trump, and the raw trick points each seat took in the stock phase.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import add_card
from pinochle_sim.engines.two_hand.kernel import (
    SCRATCH2_SIZE,
    TRACE2_SIZE,
    TT_TRICKS,
    TW,
    TW_CARD1,
    TW_CARD2,
    TW_LEADER,
    TW_POINTS,
    TW_WINNER,
    _play_deal,
)
from pinochle_sim.engines.two_hand.layout import D_RAW, D_TRUMP
from pinochle_sim.rules.arrays import RA_HAND_SIZE, RA_LAST, RA_POINTS

# Rows of the play-out array (:func:`playout_starts`), one column a deal.
P_HAND_0 = 0  # seat 0's packed hand when the play-out starts
P_HAND_1 = 1  # seat 1's
P_LEADER = 2  # the seat that leads the first play-out trick
P_TRUMP = 3
P_STOCK_0 = 4  # seat 0's raw trick points of the stock phase
P_STOCK_1 = 5
P_LEFT = 6  # points still to be played for: the play-out cards and the last-trick bonus
P_RAW_0 = 7  # the replay's tricks_raw_0 (to check the replay against the records)
P_RAW_1 = 8
P_ROWS = 9


@jit(entry=True)
def playout_starts(
    ra: np.ndarray, ma: np.ndarray, ca: np.ndarray, pp: np.ndarray, bundle: object, seed: int,
    fx: np.ndarray, start: int, lo: int, hi: int, fixed_dealer: int, ncol: int, res: np.ndarray,
) -> None:  # fmt: skip
    """``res[:, i]`` (:data:`P_ROWS` rows) for deal ``start + i``, ``lo <= i < hi``."""
    out = np.zeros((ncol, 1), dtype=np.int64)
    st = np.zeros(SCRATCH2_SIZE, dtype=np.int64)
    rs = np.zeros(2, dtype=np.uint64)
    rm = np.zeros(2, dtype=np.uint64)
    trace = np.zeros(TRACE2_SIZE, dtype=np.int64)
    n_play = ra[RA_HAND_SIZE]
    n_stock = 24 - n_play
    for i in range(lo, hi):
        _play_deal(
            bundle, ra, ma, ca, pp, seed, fx, start + i, fixed_dealer, out, 0, st, rs, rm, trace,
            True,
        )  # fmt: skip
        raw0 = 0
        raw1 = 0
        for t in range(n_stock):
            b = TT_TRICKS + t * TW
            if trace[b + TW_WINNER] == 0:
                raw0 += trace[b + TW_POINTS]
            else:
                raw1 += trace[b + TW_POINTS]
        h0 = 0
        h1 = 0
        left = ra[RA_LAST]
        for t in range(n_stock, n_stock + n_play):
            b = TT_TRICKS + t * TW
            first = trace[b + TW_CARD1] >> 1
            second = trace[b + TW_CARD2] >> 1
            left += ra[RA_POINTS + first % 6] + ra[RA_POINTS + second % 6]
            if trace[b + TW_LEADER] == 0:
                h0 = add_card(h0, first)
                h1 = add_card(h1, second)
            else:
                h1 = add_card(h1, first)
                h0 = add_card(h0, second)
        res[P_HAND_0, i] = h0
        res[P_HAND_1, i] = h1
        res[P_LEADER, i] = trace[TT_TRICKS + n_stock * TW + TW_LEADER]
        res[P_TRUMP, i] = out[D_TRUMP, 0]
        res[P_STOCK_0, i] = raw0
        res[P_STOCK_1, i] = raw1
        res[P_LEFT, i] = left
        res[P_RAW_0, i] = out[D_RAW, 0]
        res[P_RAW_1, i] = out[D_RAW + 1, 0]
