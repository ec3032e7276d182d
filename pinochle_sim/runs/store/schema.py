"""The per-hand record: every Parquet column, its dtype and meaning.

``pinochle-sim schema`` prints this table. Seats are 0..N-1 clockwise; a *side* (the ``_k``
suffix of the team columns) is a partnership, team 0 being seats 0 and 2, or in games without
partners a single player, side k = seat k. Suits are numbered 0..3 in the order S, H, D, C;
packed hands decode with ``pinochle_sim.decode_hand`` (encoding documented in
:mod:`pinochle_sim.core.cards`). Which columns exist, and what the engine-specific ones mean,
comes from the rules' engine (its descriptor's ``layout`` and ``columns``); the columns every
engine shares, and those of games runs, are documented here.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pyarrow as pa

from pinochle_sim.engines import Engine, Layout, engine_for
from pinochle_sim.engines.base import ColumnDoc
from pinochle_sim.rules import PRESETS, Ruleset

SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}

SHARED_COLUMNS: tuple[ColumnDoc, ...] = (
    ("hand", "int64", "hand index within the seed (the record's key)"),
    (r"dealt_(\d)", "int64", "seat {0}'s dealt hand, packed"),
    (r"len_(\d)_([shdc])", "int8", "seat {0}'s dealt number of {1}"),
    (r"aces_(\d)", "int8", "seat {0}'s dealt number of aces"),
    ("game", "int64", "game index within the seed (games runs)"),
    ("deal", "int16", "deal number within its game, from 0 (games runs)"),
    (
        "game_winner",
        "int8",
        "side that won the game, on the game's last deal; -1 on the deals before (games runs)",
    ),
    (r"total_(\d)", "int32", "side {0}'s running game total after this deal (games runs)"),
)
"""Columns every engine's records share (engines document their own)."""

DD_COLUMNS: tuple[ColumnDoc, ...] = (
    (
        "dd_points",
        "int16",
        "runs with --dd: the bidding side's trick points when every seat plays double dummy "
        "from the start of trick play (last trick and three-hand discards included, as in "
        "team_tricks); solved for conceded hands too",
    ),
    (
        "dd_made",
        "bool",
        "runs with --dd: the bid is makeable double dummy (meld + dd_points >= bid; under the "
        "save rule the side must take a trick point in play); for conceded hands too",
    ),
    (
        r"dd_points_(\d)",
        "int16",
        "runs with --dd: seat {0}'s trick points (raw, last trick included) when the stock "
        "phase is played as recorded and the play-out double dummy",
    ),
)
"""The double-dummy columns of ``run --dd`` (:mod:`pinochle_sim.runs.dd`), after the others."""

GAME_COLUMNS = ("game", "deal")


def _arrow(dtype: str) -> pa.DataType:
    return pa.bool_() if dtype == "bool" else pa.from_numpy_dtype(np.dtype(dtype))


def _describe(name: str, engine: Engine) -> tuple[pa.DataType, str]:
    for pattern, dtype, doc in engine.columns + SHARED_COLUMNS + DD_COLUMNS:
        m = re.fullmatch(pattern, name)
        if m:
            words = [str(int(g)) if g.isdigit() else SUIT_WORDS.get(g, g) for g in m.groups()]
            return _arrow(dtype), doc.format(*words)
    raise KeyError(f"undocumented column {name!r}")


@lru_cache(maxsize=16)
def games_layout(rules: Ruleset) -> Layout:
    """Columns of a games run: the deal columns, then game, deal, total_k, game_winner."""
    base = engine_for(rules).layout(rules)
    names = base.names + GAME_COLUMNS + tuple(f"total_{k}" for k in range(rules.teams))
    return Layout(names + ("game_winner",), base.offsets)


def dd_columns(rules: Ruleset) -> tuple[str, ...]:
    """The columns ``run --dd`` adds to a ruleset's records (two-hand has no bid: one column of
    trick points per seat)."""
    return (
        ("dd_points", "dd_made")
        if engine_for(rules).has_auction
        else ("dd_points_0", "dd_points_1")
    )


def layout_of(rules: Ruleset, games: bool = False) -> Layout:
    """The record layout of a ruleset's runs (``games``: of a games run)."""
    return games_layout(rules) if games else engine_for(rules).layout(rules)


def fields_for(
    rules: Ruleset, games: bool = False, dd: bool = False
) -> list[tuple[str, pa.DataType, str]]:
    """(name, Arrow type, meaning) of every column a ruleset's records have, in order
    (``games``: the records of a games run, with the game columns; ``dd``: of a ``run --dd``,
    with the double-dummy columns last)."""
    engine = engine_for(rules)
    names = layout_of(rules, games).names + (dd_columns(rules) if dd else ())
    return [(name, *_describe(name, engine)) for name in names]


def schema_for(rules: Ruleset, games: bool = False, dd: bool = False) -> pa.Schema:
    return pa.schema([pa.field(name, typ) for name, typ, _ in fields_for(rules, games, dd)])


FIELDS = fields_for(PRESETS["partnership"])
"""The columns of the four-hand partnership presets."""
COLUMNS: tuple[str, ...] = tuple(name for name, _, _ in FIELDS)
SCHEMA = schema_for(PRESETS["partnership"])
DOCS = {name: doc for name, _, doc in FIELDS}


def to_table(
    out: np.ndarray,
    rules: Ruleset,
    metadata: dict[bytes, bytes] | None = None,
    games: bool = False,
    dd: bool = False,
) -> pa.Table:
    """Engine output ``out[column, hand]`` (int64) to an Arrow table with compact dtypes
    (``dd``: the double-dummy rows follow the engine's)."""
    builder = TableBuilder(rules, out.shape[1], games, dd)
    builder.add(out, 0)
    return builder.table(metadata)


class TableBuilder:
    """An Arrow table of ``count`` records with compact dtypes, filled a batch of engine output
    at a time, so that a part's int64 output never has to exist whole (a run plays each part in
    batches into one small buffer: less memory to touch, and the batch is still in cache when
    it is narrowed).

    Arrays are built from their buffers (``pa.Array.from_buffers``): ``pa.array`` on a numpy
    array loads pandas (about half a second of every run's start) to check for pandas types."""

    def __init__(self, rules: Ruleset, count: int, games: bool = False, dd: bool = False) -> None:
        self.fields = fields_for(rules, games, dd)
        self.schema = schema_for(rules, games, dd)
        self.count = count
        self.columns = [
            np.empty(count, dtype=np.bool_ if pa.types.is_boolean(typ) else typ.to_pandas_dtype())
            for _, typ, _ in self.fields
        ]
        self.filled = 0

    def add(self, out: np.ndarray, lo: int) -> None:
        """Records ``lo .. lo + n - 1`` from engine output ``out[column, :n]`` (int64)."""
        n = out.shape[1]
        for i, (name, _, _) in enumerate(self.fields):
            col, dest = out[i], self.columns[i]
            if dest.dtype != np.bool_ and n:
                info = np.iinfo(dest.dtype)
                low, high = col.min(), col.max()
                if low < info.min or high > info.max:
                    raise ValueError(
                        f"column {name!r} holds {int(low)}..{int(high)}, "
                        f"which does not fit its {dest.dtype} record type: use smaller point values"
                    )
            dest[lo : lo + n] = col  # in range (checked), or a 0/1 flag: exact
        self.filled += n

    def table(self, metadata: dict[bytes, bytes] | None = None) -> pa.Table:
        """The table (every record added)."""
        if self.filled != self.count:
            raise ValueError(f"{self.filled:,} of {self.count:,} records were added")
        arrays = []
        for (_, typ, _), data in zip(self.fields, self.columns, strict=True):
            if data.dtype == np.bool_:
                data = np.packbits(data, bitorder="little")
            arrays.append(pa.Array.from_buffers(typ, self.count, [None, pa.py_buffer(data)]))
        schema = self.schema.with_metadata(metadata) if metadata else self.schema
        return pa.Table.from_arrays(arrays, schema=schema)


def schema_text(rules: Ruleset | None = None, games: bool = False, dd: bool = False) -> str:
    """The column table shown by ``pinochle-sim schema`` (``dd``: with the ``run --dd``
    columns)."""
    fields = fields_for(rules or PRESETS["partnership"], games, dd)
    width = max(len(n) for n, _, _ in fields)
    lines = [f"{'column':<{width}}  {'dtype':<6}  meaning"]
    for name, typ, doc in fields:
        lines.append(f"{name:<{width}}  {typ!s:<6}  {doc}")
    return "\n".join(lines)


def records_markdown() -> str:
    """Every column of every engine's records, as Markdown (``docs/records.md``)."""
    lines = [
        "# Records",
        "",
        "Generated from the record layouts (`pinochle_sim/runs/records.py` and each engine's "
        "`layout.py`); `tests/test_docs.py` keeps this file in step with them. A run folder holds "
        "Parquet part files, one row per hand (per deal in a games run), with these columns; "
        "`pinochle-sim schema --rules NAME` prints the same table for any ruleset. Packed "
        "hands are 48-bit integers (`pinochle_sim/core/cards.py`): bit `face` is a first copy, "
        "bit `24 + face` a second, with `face = suit * 6 + rank`, suits S H D C and ranks "
        "9 J Q K 10 A.",
    ]
    shown = (
        ("partnership", False, "Four seats in partnerships (partnership, partnership-classic, "
         "joedog)"),
        ("three-hand", False, "Three seats, each for itself, with a widow (three-hand)"),
        ("two-hand", False, "Two seats with a stock (two-hand)"),
        ("three-hand", True, "Games runs (`run --games`): the columns above plus (one "
         "`total_k` per side)"),
    )  # fmt: skip
    for preset, games, title in shown:
        fields = fields_for(PRESETS[preset], games)
        if games:
            base = {n for n, _, _ in fields_for(PRESETS[preset])}
            fields = [f for f in fields if f[0] not in base]
        lines += ["", f"## {title}", "", "| column | dtype | meaning |", "|---|---|---|"]
        lines += [f"| `{n}` | {t} | {d} |" for n, t, d in fields]
    lines += [
        "",
        "## Double-dummy columns (`run --dd`)",
        "",
        "A run made with `--dd` has these columns after all the others (auction presets: "
        "`dd_points` and `dd_made`; two-hand: `dd_points_0` and `dd_points_1`), and its "
        'provenance says `"dd": true`; `--resume` refuses to mix runs with and without them. '
        "Every seat plays perfectly with every card seen from the position where trick play "
        "starts (after the pass or the discard; two-hand: the play-out of the last 12 tricks). "
        "Conceded hands are solved as well: their `dd_made` says whether the bid thrown in was "
        "makeable (the bots' `made` is False there). See `pinochle_sim/runs/dd.py`.",
        "",
        "| column | dtype | meaning |",
        "|---|---|---|",
    ]
    for rules in (PRESETS["partnership"], PRESETS["two-hand"]):
        engine = engine_for(rules)
        for name in dd_columns(rules):
            typ, doc = _describe(name, engine)
            lines.append(f"| `{name}` | {typ} | {doc} |")
    return "\n".join(lines) + "\n"
