"""Deals of a slow duplicate match (or advice) kept as they land, so that an interrupted one
resumes.

A match whose players search (``pimc``: a deal or two a second) can take an hour. Given a keep
folder, each finished task's per-deal columns are written there at once
(``deals-<first deal>.parquet``, written whole under a temporary name and renamed), beside
``match.json``, which names the match: rules, seed, deals, both policy sets in full, the engine
version (and for a sweep's match the swept value; a sweep's own folder names the sweep and
holds one subfolder a value). The folder appears whole, ``match.json`` in it, with the first
part, so a match stopped before leaves nothing. The same match started again with ``resume``
reads the parts back and plays only the deals still missing; the rows are the same as in one
go, since every deal is a pure function of the seed and its number. A folder that holds another
match's deals is a one-line error; a part file that cannot be read, or whose deals another part
already holds, is played again.
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
    "engine": "the engine version",
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
    "cards": "the hand",
    "seat": "--seat",
    "dealer": "--dealer",
    "upcard": "--upcard",
    "policies": "the policies",
}
"""How a refusal names each field of a study's identity: the option that sets it."""


class Kept:
    """The deals of one study kept in ``folder`` (``what``: a match, or a sweep whose matches
    keep theirs in subfolders, with it as their ``parent``). The folder is checked at once and
    its parts read when first asked for (:meth:`gaps`, :meth:`ordered`), so that a sweep holds
    one value's rows at a time (:meth:`release`). With ``restart``, kept deals of the same
    folder are dropped when the first new part is kept, not before: a refusal that comes
    between loses nothing."""

    def __init__(
        self,
        folder: str | Path,
        identity: dict[str, Any],
        resume: bool,
        what: str = "match",
        parent: Kept | None = None,
        restart: bool = False,
    ) -> None:
        self.folder, self.what, self.parent = Path(folder), what, parent
        self.identity = json.loads(json.dumps(identity))  # as it reads back
        self.restart = restart and not resume
        self._parts: dict[int, dict[str, np.ndarray]] | None = None
        self.resumed = not self.restart and in_use(self.folder, resume, what)
        if not self.resumed:
            self._parts = {}
            return
        where = repr(str(self.folder))
        try:  # its kind is checked by in_use
            stored = json.loads((self.folder / MATCH_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = None
        if not isinstance(stored, dict):
            raise ValueError(
                f"{where} holds no readable {MATCH_FILE}: pass --overwrite to start again"
            )
        if stored != self.identity:
            keys = [k for k in self.identity if stored.get(k) != self.identity[k]]
            differ = ", ".join(OPTIONS.get(k, k) for k in keys) or "its settings"
            raise ValueError(
                f"{where} holds the deals of another {what} (it differs in {differ}): give the "
                "options it was started with, or pass --overwrite to start again"
            )

    @property
    def parts(self) -> dict[int, dict[str, np.ndarray]]:
        """Each kept part's columns by its first deal (read on first use)."""
        if self._parts is None:
            self._parts = self._read()
        return self._parts

    @property
    def deals(self) -> int:
        """Deals kept (from the parts' metadata where they are not read yet)."""
        if self._parts is None:
            return kept_deals(self.folder)
        return sum(len(p["deal"]) for p in self._parts.values())

    def gaps(self, start: int, count: int) -> list[tuple[int, int]]:
        """``(first deal, deals)`` of each run of deals in ``start .. start+count-1`` not kept."""
        out = []
        lo = start
        for first in sorted(self.parts):
            if first > lo:
                out.append((lo, first - lo))
            lo = first + len(self.parts[first]["deal"])
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

    def release(self) -> None:
        """Forget the parts read (a sweep's value, once summarised); the files stay."""
        self._parts = None

    def _read(self) -> dict[int, dict[str, np.ndarray]]:
        """The parts on disk, each of consecutive deals and none overlapping another (a part
        that fails either, or cannot be parsed, is removed: its deals are played again)."""
        parts: dict[int, dict[str, np.ndarray]] = {}
        end = -1
        for path in sorted(self.folder.glob(PART_GLOB)):
            try:
                table = pq.read_table(path)
            except (pa.ArrowInvalid, ValueError):
                path.unlink()  # damaged
                continue
            part = {name: table.column(name).to_numpy() for name in table.column_names}
            deals = part.get("deal")
            if deals is None or not len(deals) or int(deals[0]) < end:
                path.unlink()  # nothing usable, or deals another part holds
                continue
            first = int(deals[0])
            if not np.array_equal(deals, np.arange(first, first + len(deals))):
                path.unlink()
                continue
            parts[first] = part
            end = first + len(deals)
        return parts

    def _open(self) -> None:
        """The folder with its identity, before its first part (a parent's first); with
        ``restart``, what was kept there before is dropped now."""
        if self.restart:
            discard_kept(self.folder)
            self.restart = False
        if (self.folder / MATCH_FILE).exists():
            return
        if self.parent is not None:
            self.parent._open()
        if self.folder.exists():  # a sweep's value folder inside its new parent
            _write_atomically(self.folder / MATCH_FILE, self._identity_bytes())
            return
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.folder.with_name(f".{self.folder.name}.tmp-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        (tmp / MATCH_FILE).write_bytes(self._identity_bytes())
        os.replace(tmp, self.folder)  # the folder appears whole

    def _identity_bytes(self) -> bytes:
        return json.dumps(self.identity, indent=1).encode("utf-8")


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
    try:
        kind = json.loads((path / MATCH_FILE).read_text(encoding="utf-8")).get("kind", what)
    except (OSError, ValueError, AttributeError):
        kind = what
    if kind != what:
        raise ValueError(
            f"{str(path)!r} holds the deals of a {kind}, not of this {what}: choose another "
            "--out, or pass --overwrite to start again"
        )
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
    """Remove the kept deals in ``folder`` (a study started again from scratch): moved aside
    in one step, then deleted. A file, or a folder holding anything but kept deals, is a
    one-line error."""
    path = Path(folder)
    if not path.exists():
        return
    if not path.is_dir():
        raise ValueError(f"refusing to remove {str(path)!r}: it is a file, not kept deals")
    if not _ours(path):
        raise ValueError(f"refusing to remove {str(path)!r}: it holds more than kept deals")
    aside = path.with_name(f".{path.name}.discard-{os.getpid()}")
    shutil.rmtree(aside, ignore_errors=True)
    os.replace(path, aside)
    shutil.rmtree(aside)


def _ours(path: Path) -> bool:
    """Whether every entry of ``path`` is one a keep folder holds: ``match.json``, part files,
    temporary files of an interrupted write, a sweep's ``value=`` folders of the same."""
    for entry in path.iterdir():
        name = entry.name
        if entry.is_dir():
            if not (name.startswith("value=") and _ours(entry)):
                return False
        elif not (
            name == MATCH_FILE
            or (name.startswith("deals-") and name.endswith(".parquet"))
            or (name.startswith(".") and ".tmp-" in name)
        ):
            return False
    return True


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
