"""A run as one CSV or Parquet file, optionally decoded for tools outside Python.

Stored records pack hands into 48-bit integers and number suits and seats, which only this
package decodes. :func:`export_run` writes the run (part by part, so memory stays small) to a
single file; with ``decoded`` every such column becomes text a spreadsheet or SQL can read:

* packed hands (``dealt_k``, ``passed_to_bidder``, ``passed_to_partner``, ``widow``,
  ``discards``) -> card strings sorted by suit and rank, ``"AS 10S KH QH 9D ..."``;
* ``trump`` -> ``S``, ``H``, ``D`` or ``C``; ``up_card`` -> its card name;
* seat columns (``dealer``, ``bidder``, ``winner``, ``last_trick``, ``exchanged``,
  ``trick_winner_NN``) -> ``South``, ``West``, ``North``, ``East`` with four players (the names
  ``show`` prints), ``seat 0`` .. ``seat 2`` otherwise; "nobody" (-1) -> empty (``tie`` for
  ``winner``);
* ``game_winner`` -> the side: ``South-North`` / ``West-East``, or the seat without partners;
* two-hand ``stock_lo`` and ``stock_hi`` -> one ``stock`` column, the cards in draw order.

Every other column is kept as stored (:mod:`pinochle_sim.runs.records` documents them all).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv
import pyarrow.parquet as pq

from pinochle_sim.core.cards import NUM_RANKS, NUM_SUITS, PLANE_BITS, SUITS, card_name, decode_hand
from pinochle_sim.runs.store.files import META_KEY, RunFolderError
from pinochle_sim.runs.store.location import UrlPath, arrow, beside, location
from pinochle_sim.runs.store.provenance import ruleset_of
from pinochle_sim.runs.store.read import damaged_part_error, part_files, read_provenance

EXPORT_FORMATS = ("csv", "parquet")
SEAT_NAMES = ("South", "West", "North", "East")
"""Seat names with four players, as ``show`` prints them (seat 0 = South, clockwise)."""

HAND_COLUMNS = re.compile(r"dealt_\d|passed_to_bidder|passed_to_partner|widow|discards")
SEAT_COLUMNS = re.compile(r"dealer|bidder|winner|last_trick|exchanged|trick_winner_\d\d")
SIDE_COLUMNS = re.compile(r"game_winner")
KEPT = re.compile(
    r"hand|game|deal|bid|stuck|conceded|made|n_calls|discard_points|turnup_dix"
    r"|meld_\d|meld_\d_[shdc]|len_\d_[shdc]|aces_\d|high_bid_\d|team_meld_\d|team_tricks_\d"
    r"|counters_\d|tricks_won_\d|score_\d|total_\d|melds_laid_\d|dix_\d|stock_tricks_\d"
    r"|tricks_raw_\d|trick_points_\d|meld_after_\d\d"
)
"""Columns exported as stored (numbers and flags that need no decoding)."""
STOCK_DRAWS = 12
"""Draws packed in each of ``stock_lo`` and ``stock_hi`` (5 bits per face)."""


@dataclass(frozen=True)
class Exported:
    path: Path
    rows: int
    format: str


def _suit_tables() -> list[np.ndarray]:
    """For each suit, the card string of every 12-bit pattern (one-copy bits, two-copy bits)."""
    tables = []
    for s in range(NUM_SUITS):
        names = []
        for pattern in range(1 << (2 * NUM_RANKS)):
            one, two = pattern & 63, pattern >> 6
            if two & ~one:
                names.append("?")  # never stored: a second copy without the first
                continue
            code = (one << (NUM_RANKS * s)) | (two << (PLANE_BITS + NUM_RANKS * s))
            names.append(" ".join(decode_hand(code)))
        tables.append(np.array(names, dtype=object))
    return tables


_TABLES: list[np.ndarray] = []


def decode_hands(codes: np.ndarray) -> list[str]:
    """Packed hands -> card strings (as :func:`pinochle_sim.decode_hand`, joined by spaces)."""
    if not _TABLES:
        _TABLES.extend(_suit_tables())
    c = np.asarray(codes, dtype=np.int64)
    parts = []
    for s in range(NUM_SUITS):
        one = (c >> (NUM_RANKS * s)) & 63
        two = (c >> (PLANE_BITS + NUM_RANKS * s)) & 63
        parts.append(_TABLES[s][one | (two << 6)])
    return [" ".join(x for x in row if x) for row in zip(*parts, strict=True)]


def seat_names(players: int) -> tuple[str, ...]:
    return SEAT_NAMES if players == 4 else tuple(f"seat {p}" for p in range(players))


def side_names(players: int, partnerships: bool) -> tuple[str, ...]:
    if partnerships:
        names = seat_names(players)
        return tuple(f"{names[k]}-{names[k + 2]}" for k in range(2))
    return seat_names(players)


def _names(values: np.ndarray, names: tuple[str, ...], nobody: str | None) -> pa.Array:
    v = np.asarray(values, dtype=np.int64)
    table = np.array([*names, nobody], dtype=object)
    idx = np.where((v >= 0) & (v < len(names)), v, len(names))
    return pa.array(table[idx], type=pa.string())


def _stock(lo: np.ndarray, hi: np.ndarray) -> list[str]:
    faces = [(np.asarray(w, dtype=np.int64) >> (5 * k)) & 31 for w in (lo, hi) for k in range(12)]
    names = np.array([card_name(f) for f in range(24)] + [""] * 8, dtype=object)
    cards = [names[f] for f in faces]
    return [" ".join(x for x in row if x) for row in zip(*cards, strict=True)]


def decode_table(table: pa.Table, players: int, partnerships: bool) -> pa.Table:
    """One part's records with every packed, numbered column as text (module docstring)."""
    seats = seat_names(players)
    out: dict[str, pa.Array] = {}
    names = table.column_names
    for name in names:
        col = table.column(name).to_numpy()
        if HAND_COLUMNS.fullmatch(name):
            out[name] = pa.array(decode_hands(col), type=pa.string())
        elif name == "trump":
            out[name] = _names(col, tuple(SUITS), None)
        elif name == "up_card":
            out[name] = _names(col, tuple(card_name(f) for f in range(24)), None)
        elif SEAT_COLUMNS.fullmatch(name):
            out[name] = _names(col, seats, "tie" if name == "winner" else None)
        elif SIDE_COLUMNS.fullmatch(name):
            out[name] = _names(col, side_names(players, partnerships), None)
        elif name == "stock_lo":
            out["stock"] = pa.array(
                _stock(col, table.column("stock_hi").to_numpy()), type=pa.string()
            )
        elif name == "stock_hi":
            continue
        elif KEPT.fullmatch(name):
            out[name] = table.column(name).combine_chunks()
        else:
            raise ValueError(f"column {name!r} has no export rule (runs/export.py)")
    return pa.table(out)


def _format_of(out: str | Path | None, fmt: str | None) -> str:
    if fmt is not None:
        if fmt not in EXPORT_FORMATS:
            raise ValueError(f"format must be one of {', '.join(EXPORT_FORMATS)}, got {fmt!r}")
        return fmt
    if out is not None and str(out).lower().endswith(".parquet"):
        return "parquet"
    return "csv"


def export_run(
    run_dir: str | Path | UrlPath,
    out: str | Path | None = None,
    fmt: str | None = None,
    decoded: bool = True,
    overwrite: bool = False,
) -> Exported:
    """Write the run in ``run_dir`` to one file (``out``; default ``RUN_DIR-decoded.csv`` beside
    the run) as CSV or Parquet (``fmt``, default from the suffix, else CSV), decoded or as
    stored. Parts are read and written one at a time; the file appears only when complete."""
    src = location(run_dir)
    parts = part_files(src)
    meta = read_provenance(src)
    rules = ruleset_of(meta)
    kind = _format_of(out, fmt)
    suffix = "-decoded" if decoded else "-export"
    target = Path(out if out else beside(run_dir, f"{suffix}.{kind}"))
    if target.exists() and not overwrite:
        raise RunFolderError(f"{str(target)!r} already exists: pass --overwrite to replace it")
    if isinstance(src, Path) and target.resolve().parent == src.resolve() and kind == "parquet":
        raise RunFolderError("write the export beside the run, not inside it: readers scan it")
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    rows = 0
    writer: pq.ParquetWriter | pyarrow.csv.CSVWriter | None = None
    try:
        for f in parts:
            try:
                source, fs = arrow(f)
                t = pq.read_table(source, filesystem=fs, page_checksum_verification=True)
            except (pa.ArrowException, OSError, ValueError) as e:
                raise damaged_part_error(f, e) from None
            if decoded:
                t = decode_table(t, rules.players, rules.partnerships)
            t = t.replace_schema_metadata(None)
            if writer is None:
                writer = _open(tmp, kind, t.schema, meta)
            writer.write_table(t)
            rows += t.num_rows
        if writer is not None:
            writer.close()
            writer = None
        os.replace(tmp, target)
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
    return Exported(target, rows, kind)


def _open(
    path: Path, kind: str, schema: pa.Schema, meta: dict[str, Any]
) -> pq.ParquetWriter | pyarrow.csv.CSVWriter:
    if kind == "parquet":  # the run's provenance travels with the file
        return pq.ParquetWriter(
            path, schema.with_metadata({META_KEY: json.dumps(meta).encode()}), compression="zstd"
        )
    return pyarrow.csv.CSVWriter(path, schema)
