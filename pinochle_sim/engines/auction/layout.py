"""Where each record column of the auction engine sits in ``out[column, hand]``, per ruleset,
and what each column means.

The set of columns depends on the table: per-seat families have one column per seat, per-side
families one per scoring side (the two partnerships, or each player when there are no partners),
and some exist only where the rule does (passing, widow). Kernels receive the offsets as an int64
array (``LayoutArray``, the engine's ``xa``) and write ``out[lay[L_FAMILY] + index, row]``; an
offset of -1 means the family is absent.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pinochle_sim.engines.base import SUIT_LETTERS, ColumnDoc, Layout
from pinochle_sim.rules import Ruleset

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


def auction_layout(rules: Ruleset) -> Layout:
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


COLUMNS: tuple[ColumnDoc, ...] = (
    ("dealer", "int8", "dealer seat (hand index mod players unless fixed)"),
    ("bidder", "int8", "seat that won the auction (the dealer when stuck)"),
    ("bid", "int16", "winning bid"),
    ("trump", "int8", "trump suit named by the bidder: 0 S, 1 H, 2 D, 3 C"),
    ("stuck", "bool", "everyone passed and the dealer is stuck at the minimum bid"),
    ("conceded", "bool", "the bidder threw in a bid out of reach (no tricks played)"),
    ("made", "bool", "the bidding side made its bid"),
    ("passed_to_bidder", "int64", "cards the partner passed to the bidder, packed"),
    ("passed_to_partner", "int64", "cards the bidder passed back, packed"),
    ("widow", "int64", "the widow (taken by the bidder), packed"),
    ("discards", "int64", "cards the bidder discarded after taking the widow, packed"),
    (
        "discard_points",
        "int16",
        "trick points of the discarded counters; credited to the "
        "bidder (in its team_tricks) unless it conceded",
    ),
    ("n_calls", "int16", "number of auction calls (bids and passes)"),
    (
        r"meld_(\d)_([shdc])",
        "int16",
        "seat {0}'s best meld from its dealt hand if {1} were trump (before passing / widow)",
    ),
    (r"meld_(\d)", "int16", "seat {0}'s meld after passing / discarding, in the named trump"),
    (r"high_bid_(\d)", "int16", "side {0}'s highest bid in the auction (0 = never bid)"),
    (r"team_meld_(\d)", "int16", "side {0}'s meld (before the save rule)"),
    (
        r"team_tricks_(\d)",
        "int16",
        "side {0}'s trick points incl. last trick and discards (0 if conceded)",
    ),
    (
        r"counters_(\d)",
        "int8",
        "counter cards (cards with trick points) won in tricks by side {0} (not discards)",
    ),
    (r"tricks_won_(\d)", "int8", "tricks won by side {0}"),
    (r"score_(\d)", "int16", "side {0}'s hand score (negative bid when set)"),
)
"""The auction engine's own columns (the shared ones are in :mod:`pinochle_sim.runs.records`)."""
