"""The per-hand record: every Parquet column, its dtype and meaning, in one place.

``pinochle-sim schema`` prints this table. Seats are 0..N-1 clockwise; a *side* (the ``_k``
suffix of the team columns) is a partnership, team 0 being seats 0 and 2, or in games without
partners (three-hand) a single player, side k = seat k. Suits are numbered 0..3 in the order
S, H, D, C; packed hands decode with ``pinochle_sim.decode_hand`` (encoding documented in
:mod:`pinochle_sim.cards`). Which columns exist depends on the ruleset (:mod:`.layout`).
"""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa

from .layout import Layout, layout_for
from .rules import PRESETS, Ruleset

SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}

_FIXED = {
    "hand": (pa.int64(), "hand index within the seed (the record's key)"),
    "dealer": (pa.int8(), "dealer seat (hand index mod players unless fixed)"),
    "bidder": (pa.int8(), "seat that won the auction (the dealer when stuck)"),
    "bid": (pa.int16(), "winning bid"),
    "trump": (pa.int8(), "trump suit named by the bidder: 0 S, 1 H, 2 D, 3 C"),
    "stuck": (pa.bool_(), "everyone passed and the dealer is stuck at the minimum bid"),
    "conceded": (pa.bool_(), "the bidder threw in a bid out of reach (no tricks played)"),
    "made": (pa.bool_(), "the bidding side made its bid"),
    "passed_to_bidder": (pa.int64(), "cards the partner passed to the bidder, packed"),
    "passed_to_partner": (pa.int64(), "cards the bidder passed back, packed"),
    "widow": (pa.int64(), "the widow (taken by the bidder), packed"),
    "discards": (pa.int64(), "cards the bidder discarded after taking the widow, packed"),
    "discard_points": (
        pa.int16(),
        "trick points of the discarded counters; credited to the "
        "bidder (in its team_tricks) unless it conceded",
    ),
    "n_calls": (pa.int16(), "number of auction calls (bids and passes)"),
    # two-hand
    "up_card": (pa.int8(), "two-hand: face of the turned-up card (its suit is trump)"),
    "turnup_dix": (pa.int16(), "two-hand: points the dealer scored for a turned-up 9"),
    "exchanged": (
        pa.int8(),
        "two-hand: seat that exchanged the dix for the face-up card (-1 = nobody)",
    ),
    "winner": (pa.int8(), "two-hand: seat with the higher score (-1 = tie)"),
    "last_trick": (pa.int8(), "two-hand: seat that won the last trick (+10)"),
    "stock_lo": (
        pa.int64(),
        "two-hand: stock draws 1-12, face of draw k in bits 5(k-1)..5k-1 (top card first)",
    ),
    "game": (pa.int64(), "game index within the seed (games runs)"),
    "deal": (pa.int16(), "deal number within its game, from 0 (games runs)"),
    "game_winner": (
        pa.int8(),
        "side that won the game, on the game's last deal; -1 on the deals before (games runs)",
    ),
    "stock_hi": (
        pa.int64(),
        "two-hand: stock draws 13-24 the same way (draw 24 is the up-card as turned)",
    ),
}
_FAMILIES = [
    (r"dealt_(\d)", pa.int64(), "seat {0}'s dealt hand, packed"),
    (
        r"meld_(\d)_([shdc])",
        pa.int16(),
        "seat {0}'s best meld from its dealt hand if {1} were trump (before passing / widow)",
    ),
    (r"len_(\d)_([shdc])", pa.int8(), "seat {0}'s dealt number of {1}"),
    (r"aces_(\d)", pa.int8(), "seat {0}'s dealt number of aces"),
    (r"meld_(\d)", pa.int16(), "seat {0}'s meld after passing / discarding, in the named trump"),
    (r"high_bid_(\d)", pa.int16(), "side {0}'s highest bid in the auction (0 = never bid)"),
    (r"team_meld_(\d)", pa.int16(), "side {0}'s meld (before the save rule)"),
    (
        r"team_tricks_(\d)",
        pa.int16(),
        "side {0}'s trick points incl. last trick and discards (0 if conceded)",
    ),
    (
        r"counters_(\d)",
        pa.int8(),
        "counter cards (cards with trick points) won in tricks by side {0} (not discards)",
    ),
    (r"tricks_won_(\d)", pa.int8(), "tricks won by side {0}"),
    (r"score_(\d)", pa.int16(), "side {0}'s hand score (negative bid when set)"),
    (r"total_(\d)", pa.int32(), "side {0}'s running game total after this deal (games runs)"),
    (r"melds_laid_(\d)", pa.int8(), "two-hand: melds seat {0} laid down (dix not counted)"),
    (r"dix_(\d)", pa.int8(), "two-hand: 9s of trump seat {0} showed as dix"),
    (r"stock_tricks_(\d)", pa.int8(), "two-hand: stock-phase tricks won by seat {0}"),
    (
        r"tricks_raw_(\d)",
        pa.int16(),
        "two-hand: seat {0}'s trick points before rounding (card points + last trick)",
    ),
    (
        r"trick_points_(\d)",
        pa.int16(),
        "two-hand: seat {0}'s trick points as scored (rounded to tens, units 7-9 up)",
    ),
    (r"trick_winner_(\d\d)", pa.int8(), "two-hand: seat that won stock trick {0}"),
    (
        r"meld_after_(\d\d)",
        pa.int16(),
        "two-hand: meld points (incl. dix) the winner of stock trick {0} laid down",
    ),
]


_TWO_HAND_OVERRIDES = [
    ("trump", pa.int8(), "trump suit, the suit of the turned-up card: 0 S, 1 H, 2 D, 3 C"),
    ("dealer", pa.int8(), "dealer seat (deal index mod 2 unless fixed); the other seat leads"),
    (
        r"meld_(\d)_([shdc])",
        pa.int16(),
        "seat {0}'s best meld of its 12 dealt cards if {1} were trump (all melds at once)",
    ),
    (
        r"meld_(\d)",
        pa.int16(),
        "seat {0}'s meld laid down during the deal, dix and turned-up 9 included",
    ),
    (r"counters_(\d)", pa.int8(), "cards with trick points won by seat {0}"),
    (r"tricks_won_(\d)", pa.int8(), "tricks won by seat {0} (stock phase and play-out)"),
    (r"score_(\d)", pa.int16(), "seat {0}'s deal score: rounded trick points + meld"),
]


def _describe(name: str, two_hand: bool = False) -> tuple[pa.DataType, str]:
    if two_hand:
        for pattern, typ, doc in _TWO_HAND_OVERRIDES:
            m = re.fullmatch(pattern, name)
            if m:
                return typ, doc.format(*[SUIT_WORDS.get(g, g) for g in m.groups()])
    if name in _FIXED:
        return _FIXED[name]
    for pattern, typ, doc in _FAMILIES:
        m = re.fullmatch(pattern, name)
        if m:
            words = [str(int(g)) if g.isdigit() else SUIT_WORDS.get(g, g) for g in m.groups()]
            return typ, doc.format(*words)
    raise KeyError(f"undocumented column {name!r}")


def _layout(rules: Ruleset, games: bool) -> Layout:
    if games:
        from .games import games_layout

        return games_layout(rules)
    return layout_for(rules)


def fields_for(rules: Ruleset, games: bool = False) -> list[tuple[str, pa.DataType, str]]:
    """(name, Arrow type, meaning) of every column a ruleset's records have, in order
    (``games``: the records of a games run, with the game columns)."""
    two_hand = rules.trump_by == "turn-up"
    return [(name, *_describe(name, two_hand)) for name in _layout(rules, games).names]


def schema_for(rules: Ruleset, games: bool = False) -> pa.Schema:
    return pa.schema([pa.field(name, typ) for name, typ, _ in fields_for(rules, games)])


FIELDS = fields_for(PRESETS["partnership"])
"""The columns of the four-hand partnership presets."""
SCHEMA = schema_for(PRESETS["partnership"])
DOCS = {name: doc for name, _, doc in FIELDS}

_NO_DICTIONARY = {
    "hand",
    "game",
    "passed_to_bidder",
    "passed_to_partner",
    "widow",
    "discards",
    "stock_lo",
    "stock_hi",
}


def parquet_options(rules: Ruleset, games: bool = False) -> dict:
    """How part files are written (measured: ~53 bytes per hand, ~1 s per million rows)."""
    names = _layout(rules, games).names
    return {
        "compression": "zstd",
        "compression_level": 1,  # level 3 is no smaller here and 13% slower to write
        # Packed hands are nearly all distinct: a dictionary only costs space and time there.
        "use_dictionary": [n for n in names if n not in _NO_DICTIONARY and "dealt" not in n],
        "column_encoding": {"hand": "DELTA_BINARY_PACKED"},
    }


def to_table(
    out: np.ndarray,
    rules: Ruleset,
    metadata: dict[bytes, bytes] | None = None,
    games: bool = False,
) -> pa.Table:
    """Engine output ``out[column, hand]`` (int64) to an Arrow table with compact dtypes."""
    fields = fields_for(rules, games)
    arrays = []
    for i, (name, typ, _) in enumerate(fields):
        col = out[i]
        if pa.types.is_boolean(typ):
            arrays.append(pa.array(col != 0))
        else:
            dtype = np.dtype(typ.to_pandas_dtype())
            info = np.iinfo(dtype)
            if col.size and (col.min() < info.min or col.max() > info.max):
                raise ValueError(
                    f"column {name!r} holds {int(col.min())}..{int(col.max())}, "
                    f"which does not fit its {dtype} record type: use smaller point values"
                )
            arrays.append(pa.array(col.astype(dtype, copy=False)))
    schema = schema_for(rules, games)
    return pa.Table.from_arrays(
        arrays, schema=schema.with_metadata(metadata) if metadata else schema
    )


def schema_text(rules: Ruleset | None = None, games: bool = False) -> str:
    """The column table shown by ``pinochle-sim schema``."""
    fields = fields_for(rules or PRESETS["partnership"], games)
    width = max(len(n) for n, _, _ in fields)
    lines = [f"{'column':<{width}}  {'dtype':<6}  meaning"]
    for name, typ, doc in fields:
        lines.append(f"{name:<{width}}  {typ!s:<6}  {doc}")
    return "\n".join(lines)
