"""The per-hand record: every Parquet column, its dtype and meaning, in one place.

``pinochle-sim schema`` prints this table. Seats are 0..3 clockwise, team 0 is seats 0 and 2;
suits are numbered 0..3 in the order S, H, D, C; packed hands decode with
``pinochle_sim.decode_hand`` (encoding documented in :mod:`pinochle_sim.cards`).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .engine import COL

SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


def _fields() -> list[tuple[str, pa.DataType, str]]:
    f: list[tuple[str, pa.DataType, str]] = [
        ("hand", pa.int64(), "hand index within the seed (the record's key)"),
        ("dealer", pa.int8(), "dealer seat (hand index mod 4 unless fixed)"),
        ("bidder", pa.int8(), "seat that won the auction (the dealer when stuck)"),
        ("bid", pa.int16(), "winning bid"),
        ("trump", pa.int8(), "trump suit named by the bidder: 0 S, 1 H, 2 D, 3 C"),
        ("stuck", pa.bool_(), "everyone passed and the dealer is stuck at the minimum bid"),
        ("conceded", pa.bool_(), "the bidder threw in a bid out of reach (no tricks played)"),
        ("made", pa.bool_(), "the bidding side made its bid"),
    ]
    f += [(f"dealt_{p}", pa.int64(), f"seat {p}'s dealt hand, packed") for p in range(4)]
    f += [
        (
            f"meld_{p}_{s}",
            pa.int16(),
            f"seat {p}'s best meld from its dealt hand if {SUIT_WORDS[s]} were trump (pre-pass)",
        )
        for p in range(4)
        for s in SUIT_WORDS
    ]
    f += [
        (f"len_{p}_{s}", pa.int8(), f"seat {p}'s dealt number of {SUIT_WORDS[s]}")
        for p in range(4)
        for s in SUIT_WORDS
    ]
    f += [(f"aces_{p}", pa.int8(), f"seat {p}'s dealt number of aces") for p in range(4)]
    f += [
        (f"meld_{p}", pa.int16(), f"seat {p}'s meld after passing, in the named trump")
        for p in range(4)
    ]
    f += [
        ("passed_to_bidder", pa.int64(), "cards the partner passed to the bidder, packed"),
        ("passed_to_partner", pa.int64(), "cards the bidder passed back, packed"),
        ("n_calls", pa.int16(), "number of auction calls (bids and passes)"),
        ("high_bid_0", pa.int16(), "team 0's highest bid in the auction (0 = never bid)"),
        ("high_bid_1", pa.int16(), "team 1's highest bid in the auction (0 = never bid)"),
        ("team_meld_0", pa.int16(), "team 0's meld after passing (before the save rule)"),
        ("team_meld_1", pa.int16(), "team 1's meld after passing (before the save rule)"),
        ("team_tricks_0", pa.int16(), "team 0's trick points incl. last trick (0 if conceded)"),
        ("team_tricks_1", pa.int16(), "team 1's trick points incl. last trick (0 if conceded)"),
        ("counters_0", pa.int8(), "counter cards (cards with trick points) won by team 0"),
        ("counters_1", pa.int8(), "counter cards won by team 1"),
        ("tricks_won_0", pa.int8(), "tricks won by team 0"),
        ("tricks_won_1", pa.int8(), "tricks won by team 1"),
        ("score_0", pa.int16(), "team 0's hand score (negative bid when set)"),
        ("score_1", pa.int16(), "team 1's hand score (negative bid when set)"),
    ]
    return f


FIELDS = _fields()
SCHEMA = pa.schema([pa.field(name, typ) for name, typ, _ in FIELDS])
DOCS = {name: doc for name, _, doc in FIELDS}
assert [name for name, _, _ in FIELDS] == list(COL), "records and engine columns disagree"


_NO_DICTIONARY = {"hand", "passed_to_bidder", "passed_to_partner"} | {
    f"dealt_{p}" for p in range(4)
}
PARQUET_OPTIONS = {
    "compression": "zstd",
    "compression_level": 3,
    # Packed hands are nearly all distinct: a dictionary only costs space and time there.
    "use_dictionary": [name for name, _, _ in FIELDS if name not in _NO_DICTIONARY],
    "column_encoding": {"hand": "DELTA_BINARY_PACKED"},
}
"""How part files are written (measured: ~53 bytes per hand, ~1 s per million rows)."""


def to_table(out: np.ndarray, metadata: dict[bytes, bytes] | None = None) -> pa.Table:
    """Engine output ``out[column, hand]`` (int64) to an Arrow table with compact dtypes."""
    arrays = []
    for i, (_, typ, _) in enumerate(FIELDS):
        col = out[i]
        if pa.types.is_boolean(typ):
            arrays.append(pa.array(col != 0))
        else:
            dtype = np.dtype(typ.to_pandas_dtype())
            info = np.iinfo(dtype)
            if col.size and (col.min() < info.min or col.max() > info.max):
                raise ValueError(
                    f"column {FIELDS[i][0]!r} holds {int(col.min())}..{int(col.max())}, "
                    f"which does not fit its {dtype} record type: use smaller point values"
                )
            arrays.append(pa.array(col.astype(dtype, copy=False)))
    schema = SCHEMA.with_metadata(metadata) if metadata else SCHEMA
    return pa.Table.from_arrays(arrays, schema=schema)


def schema_text() -> str:
    """The column table shown by ``pinochle-sim schema``."""
    width = max(len(n) for n, _, _ in FIELDS)
    lines = [f"{'column':<{width}}  {'dtype':<6}  meaning"]
    for name, typ, doc in FIELDS:
        lines.append(f"{name:<{width}}  {typ!s:<6}  {doc}")
    return "\n".join(lines)
