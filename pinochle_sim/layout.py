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
    return _layout(rules.players, rules.teams, rules.partnerships, rules.widow > 0)


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
