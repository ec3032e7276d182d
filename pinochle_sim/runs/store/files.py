"""The files of a run folder: their names, formats and the manifest.

A run folder holds ``part-NNNNN.parquet`` files (part ``k`` covers hands
``[k*part_size, min((k+1)*part_size, hands))``) and ``_manifest.json`` (the run's settings and the
parts completed). Every part and the manifest are written to a temporary name and renamed
(:func:`write_part_file`, :func:`write_json_atomic`), so an interrupted run (Ctrl-C, ``kill -9``)
leaves only complete files. Every part carries the run's provenance in its Parquet schema
metadata under the key :data:`META_KEY` (:mod:`.provenance`).
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any, Protocol

import pyarrow.parquet as pq

from pinochle_sim.runs.store.location import (
    StorageError,
    UrlPath,
    arrow,
    first_line,
    location,
    replace,
)

MANIFEST = "_manifest.json"  # leading "_": Parquet readers skip it
DAMAGED = "_damaged"  # where resume sets aside what it cannot use (readers skip "_" folders)
META_KEY = b"pinochle_sim"
FORMAT = 1
PART_GLOB = "part-*.parquet"


class RunFolderError(ValueError):
    """The output folder cannot be used as asked (exists, settings differ, corrupt)."""


class RunSettings(Protocol):
    """What the store needs to know of a run (:class:`pinochle_sim.runs.spec.RunSpec` is one):
    its settings for the manifest, its parts, and what each part's provenance records."""

    rules: Any
    policies: Any
    seed: int
    hands: int
    part_size: int
    dealer: int | None
    dd: bool
    games: bool

    @property
    def unit(self) -> str: ...

    @property
    def kinds(self) -> tuple[str, ...]: ...

    @property
    def engine_version(self) -> int: ...

    @property
    def fixed_text(self) -> dict[str, str] | None: ...

    @property
    def n_parts(self) -> int: ...

    def part_range(self, k: int) -> tuple[int, int]: ...

    def settings(self) -> dict[str, Any]: ...


def n_parts(hands: int, part_size: int) -> int:
    """Parts of a run of ``hands`` hands (games) cut into parts of ``part_size``."""
    return (hands + part_size - 1) // part_size


def part_range(hands: int, part_size: int, k: int) -> tuple[int, int]:
    """(first hand, hands) of part ``k``."""
    start = k * part_size
    return start, min(part_size, hands - start)


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


_KEYS = ("hand", "game")
"""The columns whose statistics a part file keeps (:func:`parquet_options`)."""


def parquet_options(names: list[str]) -> dict[str, Any]:
    """How part files with these columns are written (measured: ~53 bytes per hand, ~1 s per
    million rows)."""
    return {
        "compression": "zstd",
        "compression_level": 1,  # level 3 is no smaller here and 13% slower to write
        # A CRC per page (+1% size): without it a quarter of the places where garbage can land
        # in a part decode silently to wrong values (measured); with it every read that checks
        # (info --verify, resume, this package's readers) finds the damage.
        "write_page_checksum": True,
        # Packed hands are nearly all distinct: a dictionary only costs space and time there.
        "use_dictionary": [n for n in names if n not in _NO_DICTIONARY and "dealt" not in n],
        "column_encoding": {"hand": "DELTA_BINARY_PACKED"},
        # Min/max statistics only where a reader's filter can skip a part by them (a hand or
        # game range; every other column spans its whole range in every part): 8% of the write.
        "write_statistics": [n for n in _KEYS if n in names],
    }


def part_name(k: int) -> str:
    return f"part-{k:05d}.parquet"


def part_index(name: str) -> int | None:
    stem = name.removeprefix("part-").removesuffix(".parquet")
    return int(stem) if stem.isdigit() else None


def now() -> str:
    """The time a run folder records (UTC, to the second)."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def write_json_atomic(path: Path | UrlPath, doc: dict[str, Any]) -> None:
    """Write ``doc`` as JSON to ``path`` through a temporary name and a rename."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    replace(tmp, path)


def write_part_file(folder: str | Path | UrlPath, k: int, table: Any) -> dict[str, Any]:
    """Write part ``k`` of a run into ``folder`` atomically (a temporary name, then a rename:
    a reader, a resume or a second writer of the same part never sees half a file); returns
    its manifest entry fields (``file``, ``bytes``). The run's own process and cluster workers
    alike write parts with this."""
    final = location(folder) / part_name(k)
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
    source, fs = arrow(tmp)
    pq.write_table(table, source, filesystem=fs, **parquet_options(table.column_names))
    replace(tmp, final)
    return {"file": final.name, "bytes": final.stat().st_size}


def manifest_or_problem(folder: Path | UrlPath) -> tuple[dict[str, Any] | None, str | None]:
    """(the manifest, None), or (None, what is wrong with it: ``missing``, ``not valid JSON
    (...)``, ...)."""
    p = folder / MANIFEST
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "missing"
    except (OSError, StorageError) as e:  # a store's refusal is not the file's damage
        return None, f"unreadable ({first_line(e)})"
    except ValueError as e:
        return None, f"not valid JSON ({first_line(e)})"
    settings = doc.get("settings") if isinstance(doc, dict) else None
    needed = ("hands", "part_size")
    if (
        not isinstance(settings, dict)
        or not all(is_count(settings.get(k)) for k in needed)
        or not is_count(settings.get("seed"), 0)
    ):
        return None, "holds no run settings"
    if not isinstance(doc.get("parts", {}), dict):
        return None, "its list of parts is unreadable"
    return doc, None


def is_count(v: Any, least: int = 1) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= least


def listed_parts(doc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The manifest's parts by index (malformed entries are left out: resume checks the files)."""
    out = {}
    for k, v in doc.get("parts", {}).items():
        if str(k).isdigit() and isinstance(v, dict):
            out[int(k)] = v
    return out


def read_manifest(path: str | Path | UrlPath) -> dict[str, Any]:
    """The manifest of a run folder; a missing or unreadable one is a :class:`RunFolderError`
    naming the file and the remedy."""
    p = location(path)
    doc, problem = manifest_or_problem(p)
    if doc is not None:
        return doc
    if problem == "missing":
        raise RunFolderError(f"{str(p)!r} has no {MANIFEST}: not a run folder")
    raise RunFolderError(
        f"cannot read {str(p / MANIFEST)!r}: {problem}: rerun the run's command with "
        "--resume to rebuild it from the parts' provenance"
    )
