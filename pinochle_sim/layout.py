"""Where each record column sits in the engine's output ``out[column, hand]``, per ruleset.

The set of columns depends on the table: per-seat families have one column per seat, per-side
families one per scoring side (the two partnerships, or each player when there are no partners),
and some exist only where the rule does (passing, widow). Kernels receive the offsets as an int64
array (``LayoutArray``) and write ``out[lay[L_FAMILY] + index, row]``; an offset of -1 means the
family is absent. Column meanings and dtypes are documented in :mod:`pinochle_sim.records`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .rules import Ruleset

SUIT_LETTERS = "shdc"
FIXED = ("hand", "dealer", "bidder", "bid", "trump", "stuck", "conceded", "made")
C_HAND, C_DEALER, C_BIDDER, C_BID, C_TRUMP, C_STUCK, C_CONCEDED, C_MADE = range(8)

(
    L_DEALT,
    L_MELD_PRE,
    L_LEN,
    L_ACES,
    L_MELD,
    L_PASSED,
    L_WIDOW,
    L_DISCARD_POINTS,
    L_N_CALLS,
    L_HIGH_BID,
    L_TEAM_MELD,
    L_TEAM_TRICKS,
    L_COUNTERS,
    L_TRICKS_WON,
    L_SCORE,
    L_SIZE,
) = range(16)


@dataclass(frozen=True)
class Layout:
    """Column names in order, and the offsets kernels use."""

    names: tuple[str, ...]
    offsets: np.ndarray

    @property
    def ncol(self) -> int:
        return len(self.names)

    @property
    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}


def layout_for(rules: Ruleset) -> Layout:
    """The record layout of a ruleset (same rules, same layout)."""
    if rules.trump_by == "turn-up":
        return _two_hand_layout(rules.stock_size // 2)
    return _layout(rules.players, rules.teams, rules.partnerships, rules.widow > 0)


# Two-hand columns sit at fixed places (two seats; one stock-trick family per stock trick).
TWO_HAND_FIXED = (
    "hand",
    "dealer",
    "trump",
    "up_card",
    "turnup_dix",
    "exchanged",
    "winner",
    "last_trick",
)
(
    D_HAND,
    D_DEALER,
    D_TRUMP,
    D_UP,
    D_TURNUP,
    D_EXCHANGED,
    D_WINNER,
    D_LAST,
) = range(8)
D_DEALT = 8  # 2 seats
D_STOCK = 10  # 2 words: the stock's faces in draw order, 5 bits each, 12 per word
D_MELD_PRE = 12  # 2 seats x 4 trumps
D_LEN = 20  # 2 seats x 4 suits
D_ACES = 28
D_MELD = 30
D_MELDS_LAID = 32
D_DIX = 34
D_STOCK_TRICKS = 36
D_TRICKS_WON = 38
D_COUNTERS = 40
D_RAW = 42
D_TRICK_POINTS = 44
D_SCORE = 46
D_TRICK_WINNER = 48  # one per stock trick, then the meld laid after each stock trick
_TWO_HAND_PAIRS = (
    "dealt",
    "stock",
    "meld_{p}_{s}",
    "len_{p}_{s}",
    "aces",
    "meld",
    "melds_laid",
    "dix",
    "stock_tricks",
    "tricks_won",
    "counters",
    "tricks_raw",
    "trick_points",
    "score",
)


@lru_cache(maxsize=4)
def _two_hand_layout(stock_tricks: int) -> Layout:
    names = list(TWO_HAND_FIXED)
    for family in _TWO_HAND_PAIRS:
        if family == "stock":
            names += ["stock_lo", "stock_hi"]
        elif "{s}" in family:
            names += [family.format(p=p, s=s) for p in range(2) for s in SUIT_LETTERS]
        else:
            names += [f"{family}_{p}" for p in range(2)]
    assert len(names) == D_TRICK_WINNER
    names += [f"trick_winner_{t + 1:02d}" for t in range(stock_tricks)]
    names += [f"meld_after_{t + 1:02d}" for t in range(stock_tricks)]
    off = np.full(L_SIZE, -1, dtype=np.int64)
    off.flags.writeable = False
    return Layout(tuple(names), off)


@lru_cache(maxsize=16)
def _layout(players: int, sides: int, partners: bool, widow: bool) -> Layout:
    names = list(FIXED)
    off = np.full(L_SIZE, -1, dtype=np.int64)

    def family(slot: int, cols: list[str]) -> None:
        off[slot] = len(names)
        names.extend(cols)

    seats = range(players)
    family(L_DEALT, [f"dealt_{p}" for p in seats])
    family(L_MELD_PRE, [f"meld_{p}_{s}" for p in seats for s in SUIT_LETTERS])
    family(L_LEN, [f"len_{p}_{s}" for p in seats for s in SUIT_LETTERS])
    family(L_ACES, [f"aces_{p}" for p in seats])
    family(L_MELD, [f"meld_{p}" for p in seats])
    if partners:
        family(L_PASSED, ["passed_to_bidder", "passed_to_partner"])
    if widow:
        family(L_WIDOW, ["widow", "discards"])
        family(L_DISCARD_POINTS, ["discard_points"])
    family(L_N_CALLS, ["n_calls"])
    for slot, prefix in (
        (L_HIGH_BID, "high_bid"),
        (L_TEAM_MELD, "team_meld"),
        (L_TEAM_TRICKS, "team_tricks"),
        (L_COUNTERS, "counters"),
        (L_TRICKS_WON, "tricks_won"),
        (L_SCORE, "score"),
    ):
        family(slot, [f"{prefix}_{k}" for k in range(sides)])
    off.flags.writeable = False
    return Layout(tuple(names), off)
