"""Whole games: deals played until a side reaches the ruleset's ``game_target`` (RULES.md 8, 9).

Game ``g`` of a seed deals hands with ids ``g * MAX_DEALS + k`` (k = 0, 1, ...), so every deal
still draws from its own random streams; the first dealer is seat ``g % players`` and the deal
rotates clockwise. Each deal is one record row with the usual columns plus:

* ``game``, ``deal`` (0-based within the game);
* ``total_k``: side k's running total after this deal;
* ``game_winner``: -1 while the game goes on, the winning side on the game's last deal.

Ending (RULES.md 8): the first side whose total reaches the target at the end of a deal wins. If
several reach it in the same deal, the bidding side wins when it is one of them
(``bidder_wins_ties``); otherwise - and in two-hand, which has no bidder - the highest total
wins, and an exact tie at the top plays another deal (a choice: RULES.md is silent; Bicycle's
"declaring out" procedure is not modelled).

Games run chunk by chunk on a thread pool (the kernels release the GIL); chunk results are
joined in game order, so the records do not depend on threads or chunk size.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ._jit import jit
from .engine import SCRATCH_SIZE, _play_hand
from .layout import C_BIDDER, D_SCORE, L_SCORE, Layout, layout_for
from .rules import Ruleset
from .rules.arrays import RA_BIDDER_WINS_TIES, RA_GAME_TARGET, RA_PARTNERS, RA_PLAYERS
from .simulate import in_chunks
from .two_hand import SCRATCH2_SIZE, _play_deal

MAX_DEALS = 256
"""Deals per game at most (deal ids are ``game * MAX_DEALS + deal``)."""
GAME_COLUMNS = ("game", "deal")


@lru_cache(maxsize=16)
def games_layout(rules: Ruleset) -> Layout:
    """Columns of a games run: the deal columns, then game, deal, total_k, game_winner."""
    base = layout_for(rules)
    names = base.names + GAME_COLUMNS + tuple(f"total_{k}" for k in range(rules.teams))
    return Layout(names + ("game_winner",), base.offsets)


@jit
def _game_winner(out: np.ndarray, row: int, g0: int, sides: int, target: int, bside: int,
                 bidder_wins: bool) -> int:  # fmt: skip
    """The side that won the game after the deal in ``row`` (totals at ``out[g0 + 2 + k]``),
    or -1 if the game goes on."""
    best = -1
    best_total = 0
    tied = False
    reached_bidder = False
    for k in range(sides):
        t = out[g0 + 2 + k, row]
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
def _grow(buf: np.ndarray, rows: int) -> np.ndarray:
    """``buf`` with room for more rows (doubled), keeping the first ``rows``."""
    bigger = np.empty((buf.shape[0], 2 * buf.shape[1]), dtype=np.int64)
    bigger[:, :rows] = buf[:, :rows]
    return bigger


@jit
def _two_hand_games(ra: np.ndarray, ma: np.ndarray, ca: np.ndarray, pp: np.ndarray, seed: int,
                    start: int, n: int, ncol: int, g0: int) -> tuple[np.ndarray, int]:  # fmt: skip
    """Play two-hand games ``start .. start+n-1``; returns (rows buffer, rows used)."""
    buf = np.empty((ncol, 8 * n + 16), dtype=np.int64)
    st = np.empty(SCRATCH2_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    rm = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    target = ra[RA_GAME_TARGET]
    row = 0
    for g in range(start, start + n):
        t0 = 0
        t1 = 0
        for k in range(MAX_DEALS):
            if row == buf.shape[1]:
                buf = _grow(buf, row)
            dealer = (g + k) % 2
            h = g * MAX_DEALS + k
            _play_deal(ra, ma, ca, pp, seed, h, dealer, buf, row, st, rs, rm, trace, False)
            t0 += buf[D_SCORE, row]
            t1 += buf[D_SCORE + 1, row]
            buf[g0, row] = g
            buf[g0 + 1, row] = k
            buf[g0 + 2, row] = t0
            buf[g0 + 3, row] = t1
            w = _game_winner(buf, row, g0, 2, target, -1, False)
            buf[g0 + 4, row] = w
            row += 1
            if w >= 0:
                break
        if buf[g0 + 4, row - 1] < 0:
            raise ValueError("a game lasted more than MAX_DEALS deals")
    return buf, row


@jit
def _auction_games(ra: np.ndarray, ma: np.ndarray, pp: np.ndarray, lay: np.ndarray, seed: int,
                   start: int, n: int, ncol: int, g0: int) -> tuple[np.ndarray, int]:  # fmt: skip
    """Play auction-preset games ``start .. start+n-1``; returns (rows buffer, rows used)."""
    players = ra[RA_PLAYERS]
    partners = ra[RA_PARTNERS] != 0
    sides = 2 if partners else players
    buf = np.empty((ncol, 12 * n + 16), dtype=np.int64)
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    totals = np.zeros(4, dtype=np.int64)
    target = ra[RA_GAME_TARGET]
    bidder_wins = ra[RA_BIDDER_WINS_TIES] != 0
    row = 0
    for g in range(start, start + n):
        totals[:] = 0
        for k in range(MAX_DEALS):
            if row == buf.shape[1]:
                buf = _grow(buf, row)
            dealer = (g + k) % players
            h = g * MAX_DEALS + k
            _play_hand(ra, ma, pp, lay, seed, h, dealer, buf, row, scratch, rs, trace, False)
            buf[g0, row] = g
            buf[g0 + 1, row] = k
            for j in range(sides):
                totals[j] += buf[lay[L_SCORE] + j, row]
                buf[g0 + 2 + j, row] = totals[j]
            bidder = buf[C_BIDDER, row]
            bside = bidder % 2 if partners else bidder
            w = _game_winner(buf, row, g0, sides, target, bside, bidder_wins)
            buf[g0 + 2 + sides, row] = w
            row += 1
            if w >= 0:
                break
        if buf[g0 + 2 + sides, row - 1] < 0:
            raise ValueError("a game lasted more than MAX_DEALS deals")
    return buf, row


def play_games_array(inputs, seed: int, start: int, count: int, chunk: int = 256) -> np.ndarray:
    """Play games ``start .. start+count-1``; returns ``out[column, deal row]`` (int64) in the
    column order of :func:`games_layout`. Uses numba's current thread count."""
    if count < 0 or start < 0:
        raise ValueError(f"game range must be non-negative, got start={start} count={count}")
    if (start + count) * MAX_DEALS >= 1 << 62:
        raise ValueError("game indices are too large")
    if chunk < 1:
        raise ValueError("chunk must be positive")
    base = inputs.layout.ncol
    ncol = games_layout(inputs.rules).ncol

    def one(lo: int) -> np.ndarray:
        n = min(chunk, start + count - lo)
        kernel = _two_hand_games if inputs.two_hand else _auction_games
        buf, rows = kernel(*inputs.kernel_arrays(), seed, lo, n, ncol, base)
        return buf[:, :rows]

    if count == 0:
        return np.empty((ncol, 0), dtype=np.int64)
    return np.concatenate(in_chunks(one, range(start, start + count, chunk)), axis=1)


def game_results(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per game from a games run's deal rows (``pd.read_parquet(run_dir)``): ``game``,
    ``deals``, ``first_dealer``, ``winner`` and each side's ``final_k`` total."""
    totals = sorted(c for c in rows.columns if c.startswith("total_"))
    ordered = rows.sort_values(["game", "deal"])
    first = ordered.groupby("game", sort=True).first()
    last = ordered.groupby("game", sort=True).last()
    out = pd.DataFrame(
        {
            "game": last.index.to_numpy(),
            "deals": (last["deal"] + 1).to_numpy(),
            "first_dealer": first["dealer"].to_numpy(),
            "winner": last["game_winner"].to_numpy(),
        }
    )
    for c in totals:
        out[c.replace("total_", "final_")] = last[c].to_numpy()
    return out
