"""Deals of a slow duplicate match kept as they land, so that an interrupted match resumes.

A match whose players search (``pimc``: a deal or two a second) can take an hour. Given a keep
folder, each finished task's per-deal columns are written there at once
(``deals-<first deal>.parquet``, written whole under a temporary name and renamed), beside
``match.json``, which names the match: rules, seed, deals, both policy sets in full (and the
swept value). The same match started again with ``resume`` reads them back and plays only the
deals still missing; the rows are the same as in one go, since every deal is a pure function
of the seed and its number. A folder that holds another match's deals is a one-line error, and
a part file that cannot be read is played again.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

MATCH_FILE = "match.json"
PART_GLOB = "deals-*.parquet"


OPTIONS = {
    "kind": "the kind of study",
    "rules": "--rules",
    "seed": "--seed",
    "deals": "--hands",
    "a": "policies A",
    "b": "policies B",
    "param": "--param",
    "values": "--param's values",
    "base": "--base",
    "against": "--against",
    "value": "the swept value",
}
"""How a refusal names each field of a study's identity: the option that sets it."""


class Kept:
    """The deals of one study kept in ``folder`` (``what``: a match, or a sweep whose matches
    keep theirs in subfolders with it as their ``parent``): ``parts`` maps each kept part's
    first deal to its columns. Nothing is written until the first part is kept, so a study
    stopped before any finished leaves nothing behind."""

    def __init__(
        self,
        folder: str | Path,
        identity: dict[str, Any],
        resume: bool,
        what: str = "match",
        parent: Kept | None = None,
    ) -> None:
        self.folder, self.what, self.parent = Path(folder), what, parent
        self.identity = json.loads(json.dumps(identity))  # as it reads back
        self.parts: dict[int, dict[str, np.ndarray]] = {}
        if not in_use(self.folder, resume, what):
            return
        where = repr(str(self.folder))
        try:
            stored = json.loads((self.folder / MATCH_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise ValueError(
                f"{where} holds no readable {MATCH_FILE}: remove it, or pass --overwrite"
            ) from None
        if stored.get("kind") != self.identity.get("kind"):
            raise ValueError(
                f"{where} holds the deals of a {stored.get('kind', 'study')}, not of this "
                f"{what}: choose another --out, or pass --overwrite to start again"
            )
        if stored != self.identity:
            differ = [OPTIONS.get(k, k) for k in self.identity if stored.get(k) != self.identity[k]]
            raise ValueError(
                f"{where} holds the deals of another {what} (it differs in "
                f"{', '.join(differ) or 'its settings'}): give the options it was started "
                "with, or pass --overwrite to start again"
            )
        for path in sorted(self.folder.glob(PART_GLOB)):
            try:
                table = pq.read_table(path)
                part = {name: table.column(name).to_numpy() for name in table.column_names}
                first = int(part["deal"][0])
            except (OSError, ValueError, KeyError, IndexError, pa.ArrowException):
                path.unlink(missing_ok=True)  # damaged: its deals are played again
                continue
            self.parts[first] = part

    @property
    def deals(self) -> int:
        """Deals kept."""
        return sum(len(p["deal"]) for p in self.parts.values())

    def gaps(self, start: int, count: int) -> list[tuple[int, int]]:
        """``(first deal, deals)`` of each run of deals in ``start .. start+count-1`` not kept."""
        out = []
        lo = start
        for first in sorted(self.parts):
            if first > lo:
                out.append((lo, first - lo))
            lo = max(lo, first + len(self.parts[first]["deal"]))
        if lo < start + count:
            out.append((lo, start + count - lo))
        return out

    def save(self, part: dict[str, np.ndarray]) -> None:
        """Keep one finished task's columns (its first deal names the file)."""
        self._open()
        first = int(part["deal"][0])
        sink = pa.BufferOutputStream()
        pq.write_table(pa.table({k: np.asarray(v) for k, v in part.items()}), sink)
        _write_atomically(self.folder / f"deals-{first:010d}.parquet", sink.getvalue().to_pybytes())
        self.parts[first] = part

    def ordered(self) -> list[dict[str, np.ndarray]]:
        """Every kept part, by first deal."""
        return [self.parts[k] for k in sorted(self.parts)]

    def _open(self) -> None:
        """The folder and its identity, written before its first part (a parent's first)."""
        if (self.folder / MATCH_FILE).exists():
            return
        if self.parent is not None:
            self.parent._open()
        self.folder.mkdir(parents=True, exist_ok=True)
        _write_atomically(
            self.folder / MATCH_FILE, json.dumps(self.identity, indent=1).encode("utf-8")
        )


def in_use(folder: str | Path, resume: bool, what: str = "match") -> bool:
    """Whether ``folder`` holds kept deals; without ``resume`` that is a one-line error, as
    is a file in its place."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ValueError(
            f"{str(path)!r} is a file, where a slow {what} keeps its finished deals: move it "
            "away, or choose another --out"
        )
    if not (path.exists() and any(path.iterdir())):
        return False
    if not resume:
        raise ValueError(
            f"{str(path)!r} holds the deals of an interrupted {what}: pass --resume to finish "
            "it, or --overwrite to start it again"
        )
    return True


def kept_deals(folder: str | Path) -> int:
    """Deals kept in ``folder`` and its subfolders (a sweep keeps one a value); 0 if none."""
    total = 0
    for path in Path(folder).rglob(PART_GLOB):
        try:
            total += pq.read_metadata(path).num_rows
        except (OSError, ValueError, pa.ArrowException):
            continue
    return total


def discard_kept(folder: str | Path) -> None:
    """Remove the kept deals in ``folder`` (a match started again from scratch); a folder that
    holds anything else is a one-line error."""
    path = Path(folder)
    if not path.exists():
        return
    ours = (path / MATCH_FILE).exists() or any(path.glob(f"value=*/{MATCH_FILE}"))
    if not ours and any(path.iterdir()):
        raise ValueError(f"refusing to remove {str(path)!r}: it holds no kept deals")
    shutil.rmtree(path)


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
