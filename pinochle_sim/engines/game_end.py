"""What every engine's games kernel shares: deal ids, the end-of-game test, a growing buffer.

Game ``g`` of a seed deals hands with ids ``g * MAX_DEALS + k`` (k = 0, 1, ...), so every deal
still draws from its own random streams; the first dealer is seat ``g % players`` and the deal
rotates clockwise. Ending (docs/rules.md, "Whole games"): the first side whose total reaches the
target at the end of a deal wins. If several reach it in the same deal, the bidding side wins
when it is one of them (``bidder_wins_ties``); otherwise - and in games without a bidder - the
highest total wins, and an exact tie at the top plays another deal (a choice: the source rules
are silent; Bicycle's "declaring out" procedure is not modelled).

Each engine's ``play_games`` kernel writes, after the engine's own columns from row ``g0`` on:
``game``, ``deal``, then ``total_k`` per side, then ``game_winner``.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit

MAX_DEALS = 256
"""Deals per game at most (deal ids are ``game * MAX_DEALS + deal``)."""
G_GAME = 0  # game index (offset from g0)
G_DEAL = 1  # deal number within the game
G_TOTALS = 2  # one running total per side, then the game winner


@jit
def game_winner(out: np.ndarray, row: int, g0: int, sides: int, target: int, bside: int,
                 bidder_wins: bool) -> int:  # fmt: skip
    """The side that won the game after the deal in ``row`` (totals at ``out[g0 + G_TOTALS +
    k]``), or -1 if the game goes on."""
    best = -1
    best_total = 0
    tied = False
    reached_bidder = False
    for k in range(sides):
        t = out[g0 + G_TOTALS + k, row]
        if t < target:
            continue
        if k == bside:
            reached_bidder = True
        if best < 0 or t > best_total:
            best, best_total, tied = k, t, False
        elif t == best_total:
            tied = True
    if reached_bidder and bidder_wins:
        return bside
    return -1 if tied else best


@jit
def grow(buf: np.ndarray, rows: int) -> np.ndarray:
    """``buf`` with room for more rows (doubled), keeping the first ``rows``."""
    bigger = np.empty((buf.shape[0], 2 * buf.shape[1]), dtype=np.int64)
    for c in range(buf.shape[0]):  # not a slice assignment (auction _play_chunk: compile time)
        for r in range(rows):
            bigger[c, r] = buf[c, r]
    return bigger


@jit
def close_deal(
    buf: np.ndarray, row: int, g: int, k: int, g0: int, score0: int, sides: int, target: int,
    bside: int, bidder_wins: bool, totals: np.ndarray,
) -> int:  # fmt: skip
    """After deal ``k`` of game ``g`` was played into ``buf[:, row]`` (its side scores at rows
    ``score0 + side``): write the game columns from ``g0`` on and return the game's winner, or
    -1 while the game goes on. ``totals`` holds the running totals per side; ``bside`` is the
    bidding side (-1 without a bidder)."""
    buf[g0 + G_GAME, row] = g
    buf[g0 + G_DEAL, row] = k
    for j in range(sides):
        totals[j] += buf[score0 + j, row]
        buf[g0 + G_TOTALS + j, row] = totals[j]
    w = game_winner(buf, row, g0, sides, target, bside, bidder_wins)
    buf[g0 + G_TOTALS + sides, row] = w
    return w
