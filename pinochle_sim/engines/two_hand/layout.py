"""Where each record column of the two-hand engine sits in ``out[column, deal]``, and what each
column means. Two-hand columns sit at fixed places (two seats; one family per stock trick), so
the kernel writes ``out[D_FAMILY + seat, row]`` directly.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pinochle_sim.engines.base import SUIT_LETTERS, ColumnDoc, Layout
from pinochle_sim.rules import Ruleset

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
    off = np.empty(0, dtype=np.int64)  # kernels write the fixed D_* places
    off.flags.writeable = False
    return Layout(tuple(names), off)


def two_hand_layout(rules: Ruleset) -> Layout:
    """The record layout of a two-hand ruleset."""
    return _two_hand_layout(rules.stock_size // 2)


COLUMNS: tuple[ColumnDoc, ...] = (
    ("trump", "int8", "trump suit, the suit of the turned-up card: 0 S, 1 H, 2 D, 3 C"),
    ("dealer", "int8", "dealer seat (deal index mod 2 unless fixed); the other seat leads"),
    ("up_card", "int8", "face of the turned-up card (its suit is trump)"),
    ("turnup_dix", "int16", "points the dealer scored for a turned-up 9"),
    ("exchanged", "int8", "seat that exchanged the dix for the face-up card (-1 = nobody)"),
    ("winner", "int8", "seat with the higher score (-1 = tie)"),
    ("last_trick", "int8", "seat that won the last trick (+10)"),
    (
        "stock_lo",
        "int64",
        "stock draws 1-12, face of draw k in bits 5(k-1)..5k-1 (top card first)",
    ),
    ("stock_hi", "int64", "stock draws 13-24 the same way (draw 24 is the up-card as turned)"),
    (
        r"meld_(\d)_([shdc])",
        "int16",
        "seat {0}'s best meld of its 12 dealt cards if {1} were trump (all melds at once)",
    ),
    (
        r"meld_(\d)",
        "int16",
        "seat {0}'s meld laid down during the deal, dix and turned-up 9 included",
    ),
    (r"counters_(\d)", "int8", "cards with trick points won by seat {0}"),
    (r"tricks_won_(\d)", "int8", "tricks won by seat {0} (stock phase and play-out)"),
    (r"score_(\d)", "int16", "seat {0}'s deal score: rounded trick points + meld"),
    (r"melds_laid_(\d)", "int8", "melds seat {0} laid down (dix not counted)"),
    (r"dix_(\d)", "int8", "9s of trump seat {0} showed as dix"),
    (r"stock_tricks_(\d)", "int8", "stock-phase tricks won by seat {0}"),
    (
        r"tricks_raw_(\d)",
        "int16",
        "seat {0}'s trick points before rounding (card points + last trick)",
    ),
    (
        r"trick_points_(\d)",
        "int16",
        "seat {0}'s trick points as scored (rounded to tens, units 7-9 up)",
    ),
    (r"trick_winner_(\d\d)", "int8", "seat that won stock trick {0}"),
    (
        r"meld_after_(\d\d)",
        "int16",
        "meld points (incl. dix) the winner of stock trick {0} laid down",
    ),
)
"""The two-hand engine's own columns (the shared ones are in :mod:`pinochle_sim.runs.records`)."""
