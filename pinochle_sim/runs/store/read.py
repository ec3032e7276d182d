"""Reading a run's parts back: columns, provenance, every row group, with errors that name
the damaged file and the remedy.

Part by part with ``pq.ParquetFile``, not ``pq.read_table`` or ``pyarrow.dataset`` (they load
pandas, about half a second): ``run`` reads its summary back with this. Page checksums are
verified wherever a file has them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pinochle_sim.runs.store.files import MANIFEST, META_KEY, PART_GLOB, RunFolderError
from pinochle_sim.runs.store.location import UrlPath, arrow, first_line, location

_REMEDY = (
    "`pinochle-sim info {dir} --verify` lists every problem; rerun the run's command with "
    "--resume to simulate damaged parts again"
)


def damaged_part_error(f: Path | UrlPath, e: BaseException) -> RunFolderError:
    """The error for a file that cannot be read: its name, the reason and the remedy."""
    where = f.parent if f.suffix == ".parquet" else f
    return RunFolderError(f"cannot read {str(f)!r} ({first_line(e)}): {_REMEDY.format(dir=where)}")


def read_provenance(path: str | Path | UrlPath) -> dict[str, Any]:
    """The provenance of a part file, or of a run folder (its first part)."""
    p = location(path)
    if p.is_dir():
        parts = sorted(p.glob(PART_GLOB))
        if not parts:
            if (p / MANIFEST).exists():
                raise RunFolderError(
                    f"{str(p)!r} holds no part files yet: `pinochle-sim info {p}` says what to run"
                )
            raise RunFolderError(f"{str(p)!r} holds no part files: not a run folder")
        p = parts[0]
    if not p.exists():
        raise RunFolderError(f"no such file or folder: {str(p)!r}")
    try:
        source, fs = arrow(p)
        meta = pq.read_schema(source, filesystem=fs).metadata or {}
    except (pa.ArrowException, OSError, ValueError) as e:
        raise damaged_part_error(p, e) from None
    if META_KEY not in meta:
        raise RunFolderError(f"{str(p)!r} carries no pinochle-sim provenance")
    try:
        return json.loads(meta[META_KEY])
    except ValueError as e:
        raise damaged_part_error(p, e) from None


def read_every_row_group(path: str | Path | UrlPath) -> None:
    """Decode every row group of one part file; a :class:`RunFolderError` naming it otherwise."""
    p = location(path)
    source, fs = arrow(p)
    try:
        with pq.ParquetFile(source, filesystem=fs, page_checksum_verification=True) as pf:
            for i in range(pf.num_row_groups):
                pf.read_row_group(i)
    except (pa.ArrowException, OSError, ValueError) as e:
        raise damaged_part_error(p, e) from None


def part_files(path: str | Path | UrlPath) -> list[Path | UrlPath]:
    """The part files of a run folder (or the one file given)."""
    path = location(path)
    parts = sorted(path.glob(PART_GLOB)) if path.is_dir() else [path]
    if not parts:
        raise RunFolderError(f"{str(path)!r} holds no part files: not a run folder")
    return parts


def first_damage(parts: list[Path | UrlPath], columns: list[str] | None) -> RunFolderError:
    """The error naming the first part that cannot be read (footer, then the columns)."""
    for f in parts:
        try:
            source, fs = arrow(f)
            pq.read_table(source, filesystem=fs, columns=columns, page_checksum_verification=True)
        except (pa.ArrowException, OSError, ValueError) as e:
            return damaged_part_error(f, e)
    return RunFolderError(
        f"cannot read the run in {str(parts[0].parent)!r}: " + _REMEDY.format(dir=parts[0].parent)
    )


def iter_parts(path: str | Path | UrlPath, columns: list[str] | None = None) -> Iterator[pa.Table]:
    """The named columns (None: all) of each part of a run folder (or of the one part file
    given), one Arrow table a part, in hand order, page checksums verified: what a reader that
    aggregates as it goes holds in memory is one part. A part that cannot be read gives a
    :class:`RunFolderError` naming it and the remedy; a column the run lacks, one naming it."""
    p = location(path)
    parts = part_files(p)
    try:
        source, fs = arrow(parts[0])
        names = pq.read_schema(source, filesystem=fs).names
    except (pa.ArrowException, OSError, ValueError):
        raise first_damage(parts, None) from None
    missing = [c for c in columns or [] if c not in names]
    if missing:
        raise RunFolderError(f"{str(p)!r} has no column(s) {', '.join(missing)}")
    for f in parts:
        try:
            source, fs = arrow(f)
            with pq.ParquetFile(source, filesystem=fs, page_checksum_verification=True) as part:
                table = part.read(columns=columns)
        except (pa.ArrowException, OSError, ValueError) as e:
            raise damaged_part_error(f, e) from None
        yield table


def part_rows(path: str | Path | UrlPath) -> list[int]:
    """The rows of each part of a run folder (or of the one part file), from their footers."""
    rows = []
    for f in part_files(location(path)):
        try:
            source, fs = arrow(f)
            rows.append(pq.read_metadata(source, filesystem=fs).num_rows)
        except (pa.ArrowException, OSError, ValueError) as e:
            raise damaged_part_error(f, e) from None
    return rows


def read_columns(path: str | Path | UrlPath, columns: list[str] | None = None) -> pa.Table:
    """The named columns (None: all) of a run folder or part file as one Arrow table, parts in
    hand order, page checksums verified (:func:`iter_parts`, joined: the whole run in memory,
    for small runs and tests; a question over a run of any size reads it part by part)."""
    tables = list(iter_parts(path, columns))
    try:
        return pa.concat_tables(tables)
    except (pa.ArrowException, ValueError):
        raise RunFolderError(
            f"the parts in {str(location(path))!r} do not share one schema: not one run"
        ) from None


def column_array(table: pa.Table, name: str) -> np.ndarray:
    """Column ``name`` of a table of records as one numpy array (a copy), read from the Arrow
    buffers: ``to_numpy`` loads pandas (about half a second of a ``run``'s summary)."""
    col = table.column(name)
    typ = col.type
    pieces = []
    for ch in col.chunks:
        if ch.null_count:
            raise RunFolderError(f"column {name!r} has missing values: not a record column")
        data = ch.buffers()[1]
        if pa.types.is_boolean(typ):
            bits = np.frombuffer(data, dtype=np.uint8)
            flat = np.unpackbits(bits, count=ch.offset + len(ch), bitorder="little")
            pieces.append(flat[ch.offset :].astype(bool))
        else:
            dt = np.dtype(typ.to_pandas_dtype())
            pieces.append(
                np.frombuffer(data, dtype=dt, count=len(ch), offset=ch.offset * dt.itemsize)
            )
    if not pieces:
        return np.empty(0, dtype=bool if pa.types.is_boolean(typ) else typ.to_pandas_dtype())
    return np.concatenate(pieces)
