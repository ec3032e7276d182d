"""Checking a run folder against its manifest: what is missing, damaged or foreign, and the
command that mends it.

Nothing here trusts the manifest alone. :func:`check_run` compares the parts on disk with it
(part count, hand ranges, row counts, readable footers, provenance; with ``verify`` every row
group is decoded) and says what is wrong and how to mend it; :func:`check_part` is the check of
one part, which a resumed run applies to every part it keeps (:mod:`.folder`). It never writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pinochle_sim.runs.store.files import (
    DAMAGED,
    MANIFEST,
    META_KEY,
    PART_GLOB,
    RunFolderError,
    listed_parts,
    manifest_or_problem,
    n_parts,
    part_index,
    part_name,
    part_range,
)
from pinochle_sim.runs.store.location import UrlPath, arrow, first_line, location
from pinochle_sim.runs.store.provenance import expected_meta, manifest_provenance, resume_command
from pinochle_sim.runs.store.read import read_provenance


def check_part(
    path: Path | UrlPath,
    settings: dict[str, Any],
    start: int,
    count: int,
    size: int | None = None,
    verify: bool = False,
) -> str | None:
    """What is wrong with one part file of a run (None: nothing).

    Always read: the footer (row count, schema metadata), checked against the run's settings and
    the part's hand range, and the file size recorded when the part was written (``size``).
    With ``verify``, every row group is decoded too (what damage inside the data needs)."""
    if not path.exists():
        return "missing"
    try:
        source, fs = arrow(path)
        pf = pq.ParquetFile(source, filesystem=fs, page_checksum_verification=True)
    except (pa.ArrowException, OSError, ValueError) as e:
        return f"unreadable footer: {first_line(e)}"
    with pf:
        meta = pf.schema_arrow.metadata or {}
        if META_KEY not in meta:
            return "carries no pinochle-sim provenance"
        try:
            got = json.loads(meta[META_KEY])
        except ValueError as e:
            return f"unreadable provenance: {first_line(e)}"
        want = expected_meta(settings, start, count)
        wrong = [k for k, v in want.items() if got.get(k) != v]
        if wrong:
            return f"belongs to another run or range (differs in: {', '.join(wrong)})"
        games = settings.get("unit") == "games"
        rows = pf.metadata.num_rows
        if not games and rows != count:
            return f"{rows:,} rows where {count:,} hands belong"
        if isinstance(size, int) and path.stat().st_size != size:
            return f"{path.stat().st_size:,} bytes where {size:,} were written"
        if verify:
            for i in range(pf.num_row_groups):
                try:
                    pf.read_row_group(i)
                except (pa.ArrowException, OSError, ValueError) as e:
                    return f"row group {i} unreadable: {first_line(e)}"
    return None


def _ranges(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merge (start, count) spans into inclusive (first, last) ranges."""
    out: list[tuple[int, int]] = []
    for start, count in sorted(spans):
        if out and out[-1][1] + 1 == start:
            out[-1] = (out[-1][0], start + count - 1)
        else:
            out.append((start, start + count - 1))
    return out


def _range_text(ranges: list[tuple[int, int]], limit: int = 4) -> str:
    words = [f"{a}..{b}" if a != b else str(a) for a, b in ranges[:limit]]
    more = len(ranges) - limit
    return ", ".join(words) + (f" and {more} more range{'s' * (more > 1)}" if more > 0 else "")


@dataclass
class RunCheck:
    """What :func:`check_run` found in a run folder."""

    path: Path
    settings: dict[str, Any] | None
    """The manifest's settings (None when the manifest is missing or unreadable)."""
    manifest_problem: str | None = None
    n_parts: int = 0
    good: list[int] = field(default_factory=list)
    """Parts that check out (listed in the manifest or not)."""
    missing: list[tuple[int, int]] = field(default_factory=list)
    """(start, count) of the parts not on disk."""
    damaged: dict[str, str] = field(default_factory=dict)
    """Part file name -> what is wrong with it."""
    strays: list[str] = field(default_factory=list)
    """Part files beyond the run's last part."""
    unlisted: list[int] = field(default_factory=list)
    """Good parts the manifest does not list yet (a crash between rename and manifest update)."""
    temporaries: int = 0
    set_aside: list[str] = field(default_factory=list)
    """Files in ``_damaged/`` (set aside by an earlier resume)."""
    verified: bool = False

    @property
    def unit(self) -> str:
        return (self.settings or {}).get("unit", "hands")

    @property
    def total(self) -> int:
        return int((self.settings or {}).get("hands", 0))

    @property
    def done(self) -> int:
        if self.settings is None:
            return 0
        hands, size = self.total, int(self.settings["part_size"])
        return sum(part_range(hands, size, k)[1] for k in self.good)

    @property
    def complete(self) -> bool:
        return (
            self.settings is not None
            and self.manifest_problem is None
            and len(self.good) == self.n_parts
            and not self.damaged
            and not self.strays
        )

    @property
    def state(self) -> str:
        """``complete``, ``incomplete`` or ``damaged`` (the word ``info`` prints first)."""
        if self.complete:
            return "complete"
        return "damaged" if self.damaged or self.manifest_problem else "incomplete"

    def problems(self) -> list[str]:
        """One line per thing that is wrong, each naming the files or hands (empty: none)."""
        lines: list[str] = []
        if self.manifest_problem:
            lines.append(f"damaged: {MANIFEST} ({self.manifest_problem})")
        if self.settings is None:
            return lines
        unit = self.unit
        if self.missing:
            n = len(self.missing)
            lines.append(
                f"incomplete: {unit} {_range_text(_ranges(self.missing))} missing "
                f"({n} of {self.n_parts} part{'s' * (self.n_parts > 1)})"
            )
        for name, why in sorted(self.damaged.items()):
            lines.append(f"damaged: {name} ({why})")
        if self.strays:
            lines.append(f"not part of this run: {', '.join(self.strays)}")
        return lines

    def remedy(self) -> str | None:
        """What to run to mend the folder (None when nothing needs mending)."""
        if self.settings is None:
            if self.manifest_problem and self.good:
                return (
                    "rerun the run's own command with --resume: it rebuilds the manifest from "
                    "the parts' provenance"
                )
            return None
        if self.complete and not self.unlisted:
            return None
        if self.strays and not (self.missing or self.damaged):
            return f"move {', '.join(self.strays)} out of the folder"
        return f"finish it with: {resume_command(self.settings, self.path)}"

    def lines(self) -> list[str]:
        """The check as ``info`` prints it: the summary, each problem, what was set aside,
        and the remedy."""
        lines = [self.summary()] + [f"  {line}" for line in self.problems()]
        if self.unlisted:
            n = len(self.unlisted)
            lines.append(f"  {n} part{'s' * (n > 1)} written but not yet in the manifest")
        if self.temporaries:
            lines.append(f"  {self.temporaries} temporary file(s) of an interrupted write")
        if self.set_aside:
            lines.append(
                f"  set aside by an earlier resume: {DAMAGED}/ ({', '.join(self.set_aside)})"
            )
        remedy = self.remedy()
        if remedy:
            lines.append(f"  {remedy}")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """The check as ``info --json`` prints it."""
        return {
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "unit": self.unit,
            "problems": self.problems(),
            "remedy": self.remedy(),
            "verified": self.verified,
        }

    def provenance(self) -> dict[str, Any]:
        """The run's provenance: of its first sound part, else what the manifest knows."""
        if self.good:
            return read_provenance(self.path / part_name(self.good[0]))
        return manifest_provenance(self.settings) if self.settings else {}

    def summary(self) -> str:
        """The first line of ``info``: state, hands done, parts."""
        if self.settings is None:
            n = len(self.good)
            files = f"{n} part file{'s' * (n != 1)}"
            return f"run: damaged: {MANIFEST} {self.manifest_problem}; {files} on disk"
        unit = self.unit
        good = len(self.good)
        word = f"{good} of {self.n_parts} part{'s' * (self.n_parts > 1)}"
        how = (
            " (every row group read)"
            if self.verified
            else " (footers checked; --verify reads every row group)"
        )
        return f"run: {self.done:,} of {self.total:,} {unit} in {word}, {self.state}{how}"


AUTO_VERIFY = 256 * 10**6
"""Runs up to this many bytes of parts are read in full when ``check_run`` is left to decide
(about 0.3 s per million hands on the development machine)."""


def check_run(path: str | Path | UrlPath, verify: bool | None = False) -> RunCheck:
    """Compare a run folder's parts with its manifest (see :class:`RunCheck`). Reads only
    footers unless ``verify`` (then every row group; None: when the parts take at most
    :data:`AUTO_VERIFY` bytes); never writes."""
    p = location(path)
    if not p.is_dir():
        raise RunFolderError(f"{str(p)!r} is not a folder")
    if verify is None:
        verify = sum(f.stat().st_size for f in p.glob(PART_GLOB)) <= AUTO_VERIFY
    doc, problem = manifest_or_problem(p)
    if doc is None and problem == "missing" and not any(p.glob(PART_GLOB)):
        raise RunFolderError(f"{str(p)!r} has no {MANIFEST} and no part files: not a run folder")
    aside = p / DAMAGED
    check = RunCheck(
        p,
        doc["settings"] if doc else None,
        problem,
        temporaries=len(list(p.glob(".*.tmp-*"))),
        set_aside=sorted(f.name for f in aside.iterdir()) if aside.is_dir() else [],
        verified=verify,
    )
    if doc is None:
        # No manifest to check against: the parts that carry consistent provenance count.
        check.good = _consistent_parts(p)
        return check
    s = check.settings
    hands, size = int(s["hands"]), int(s["part_size"])
    check.n_parts = n_parts(hands, size)
    listed = listed_parts(doc)
    for k in range(check.n_parts):
        start, count = part_range(hands, size, k)
        name = part_name(k)
        why = check_part(p / name, s, start, count, listed.get(k, {}).get("bytes"), verify)
        if why is None:
            check.good.append(k)
            if k not in listed:
                check.unlisted.append(k)
        elif why == "missing":
            check.missing.append((start, count))
        else:
            check.damaged[name] = why
            check.missing.append((start, count))
    for f in sorted(p.glob(PART_GLOB)):
        k = part_index(f.name)
        if k is None or k >= check.n_parts:
            check.strays.append(f.name)
    return check


def _consistent_parts(p: Path | UrlPath) -> list[int]:
    """Part indices whose footers are readable and carry provenance (no manifest to hold them
    against; ``resume`` checks them against its own settings)."""
    good = []
    for f in sorted(p.glob(PART_GLOB)):
        k = part_index(f.name)
        try:
            meta = read_provenance(f)
        except RunFolderError:
            continue
        if k is not None and meta.get("hand_start") is not None:
            good.append(k)
    return good
