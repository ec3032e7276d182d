"""A run's output folder as a run writes it: refusal to overwrite, resume, atomic parts, the
manifest.

:class:`RunFolder` is built before any work and only reads (it refuses a folder that cannot be
used as asked); :meth:`RunFolder.open` then clears it (``overwrite``) or checks every part
already there (``resume``: footer, provenance and every row group, :mod:`.check`), sets aside
what is damaged or foreign in ``_damaged/`` (never deleted) and writes the manifest. Parts are
written by :func:`~.files.write_part_file` (by this process or a cluster's worker) and recorded
with :meth:`RunFolder.add_part`.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from pinochle_sim.core.version import __version__
from pinochle_sim.runs.store.check import check_part, check_run
from pinochle_sim.runs.store.files import (
    DAMAGED,
    FORMAT,
    MANIFEST,
    PART_GLOB,
    RunFolderError,
    RunSettings,
    listed_parts,
    manifest_or_problem,
    now,
    part_index,
    part_name,
    write_json_atomic,
)
from pinochle_sim.runs.store.location import UrlPath, location, replace, rmtree


def holds_files(path: Path | UrlPath) -> bool:
    """Whether ``path`` is a folder with something in it: a run there needs ``resume`` or
    ``overwrite`` (an empty or missing folder is simply written)."""
    return path.exists() and any(path.iterdir())


def _check_creatable(path: Path | UrlPath) -> None:
    """Fail now, before any work, if ``path`` cannot become a folder (a store's URL: its
    first write says)."""
    if isinstance(path, UrlPath):
        return
    for parent in (path, *path.parents):
        if parent.exists():
            if not parent.is_dir():
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent))
            if not os.access(parent, os.W_OK | os.X_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(parent))
            return


class RunFolder:
    """A run's output folder: which parts are done, atomic part writes, the manifest.

    Construction only reads (it refuses a folder that cannot be used as asked, before any
    work); :meth:`open` then clears, repairs and writes the manifest."""

    def __init__(
        self,
        path: str | Path | UrlPath,
        spec: RunSettings,
        resume: bool = False,
        overwrite: bool = False,
    ) -> None:
        if resume and overwrite:
            raise RunFolderError("use either --resume or --overwrite, not both")
        self.path = location(path)
        self.spec = spec
        self.resume = resume
        self.overwrite = overwrite
        self.manifest_path = self.path / MANIFEST
        self.done: dict[int, dict[str, Any]] = {}
        self.created = now()
        self.repairs: list[str] = []
        """What resume mended (parts set aside and simulated again, a rebuilt manifest)."""
        self._listed: dict[int, dict[str, Any]] = {}
        self._manifest_bad: str | None = None
        _check_creatable(self.path)
        self.exists = holds_files(self.path)
        if self.exists and not (resume or overwrite):
            raise RunFolderError(
                f"output folder {str(self.path)!r} already exists{self._state_words()}: pass "
                "--resume to finish it or --overwrite to replace it"
            )
        if self.exists and overwrite:
            self._check_clearable()
        if resume and self.exists:
            self._read_manifest_for_resume()

    def _state_words(self) -> str:
        """`` (it holds an incomplete run: ...)`` for the refusal message, as ``info`` says."""
        try:
            check = check_run(self.path)
        except RunFolderError:
            return ""
        if check.settings is None:
            return f" (its {MANIFEST} is {check.manifest_problem})"
        unit = check.unit
        return (
            f" (it holds {'a complete' if check.complete else 'an ' + check.state} run, "
            f"{check.done:,} of {check.total:,} {unit})"
        )

    def _check_clearable(self) -> None:
        if not self.manifest_path.exists():
            strangers = [q.name for q in self.path.iterdir() if not q.name.startswith(".")]
            if strangers:
                raise RunFolderError(
                    f"refusing to overwrite {str(self.path)!r}: it is not a run folder "
                    f"(contains {strangers[0]!r})"
                )

    def _read_manifest_for_resume(self) -> None:
        doc, problem = manifest_or_problem(self.path)
        if doc is None:
            if problem == "missing" and not any(self.path.glob(PART_GLOB)):
                raise RunFolderError(f"{str(self.path)!r} has no {MANIFEST}: not a run folder")
            if problem is not None and problem.startswith("unreadable"):
                # the file could not be read at all (permissions, a store's refusal): its
                # contents may be fine, so nothing is set aside on the strength of that
                raise RunFolderError(
                    f"cannot read {str(self.manifest_path)!r}: {problem}: fix the access and "
                    "resume again"
                )
            # Missing or not a manifest: the parts' own provenance rebuilds it (each part is
            # checked against this run's settings on open).
            self._manifest_bad = problem
            return
        old = doc["settings"]
        new = self.spec.settings()
        # both ways: a key only one side has (``dd``, ``fixed``) is a difference too
        diffs = [k for k in {**old, **new} if k != "created" and old.get(k) != new.get(k)]
        if diffs:
            raise RunFolderError(
                f"--resume with different settings than the run in {str(self.path)!r} "
                f"(differs in: {', '.join(diffs)})"
            )
        self.created = doc.get("created", self.created)
        self._listed = listed_parts(doc)

    def open(self) -> RunFolder:
        """Make the folder ready to take parts: clear it (``overwrite``), or check every part
        already there (``resume``: footer, provenance and every row group), set aside what is
        damaged or foreign and rebuild the list of parts done; then write the manifest."""
        if self.exists and self.overwrite:
            rmtree(self.path)
        self.path.mkdir(parents=True, exist_ok=True)
        self._clean_temporaries()
        if self._manifest_bad is not None and self.manifest_path.exists():
            self._set_aside(
                self.manifest_path,
                f"was unreadable ({self._manifest_bad})",
                "rebuilt from the parts' provenance",
            )
        elif self._manifest_bad == "missing":
            self.repairs.append(f"{MANIFEST} was missing: rebuilt from the parts' provenance")
        self._check_parts()
        self._save_manifest()
        return self

    def _set_aside(self, f: Path | UrlPath, why: str, then: str) -> None:
        """Move ``f`` into ``_damaged/`` (never delete what a user may want to look at)."""
        aside = self.path / DAMAGED
        aside.mkdir(exist_ok=True)
        target = aside / f.name
        n = 1
        while target.exists():
            target = aside / f"{f.name}.{n}"
            n += 1
        replace(f, target)
        self.repairs.append(f"{f.name} {why}: moved to {DAMAGED}/{target.name}, {then}")

    def _check_parts(self) -> None:
        """Every part on disk that belongs to this run is kept; any other is set aside."""
        s = self.spec.settings()
        for k in range(self.spec.n_parts):
            f = self.path / part_name(k)
            if not f.exists():
                continue
            start, count = self.spec.part_range(k)
            size = self._listed.get(k, {}).get("bytes")
            why = check_part(f, s, start, count, size, verify=True)
            if why is None:
                self.done[k] = self._entry(k, f)
                sums = self._listed.get(k, {}).get("sums")
                if isinstance(sums, dict) and size is not None:  # the same file as listed
                    self.done[k]["sums"] = sums
            else:
                self._set_aside(f, f"was damaged ({why})", "simulated again")
        for f in sorted(self.path.glob(PART_GLOB)):
            k = part_index(f.name)
            if k is None or k >= self.spec.n_parts:
                self._set_aside(f, "is not a part of this run", "left out")

    def _entry(self, k: int, f: Path | UrlPath) -> dict[str, Any]:
        start, count = self.spec.part_range(k)
        return {"file": f.name, "start": start, "count": count, "bytes": f.stat().st_size}

    def _clean_temporaries(self) -> None:
        for q in self.path.glob(".*.tmp-*"):
            q.unlink(missing_ok=True)

    def _save_manifest(self) -> None:
        doc = {
            "format": FORMAT,
            "package_version": __version__,
            "created": self.created,
            "updated": now(),
            "settings": self.spec.settings(),
            "parts": {str(k): v for k, v in sorted(self.done.items())},
            "complete": len(self.done) == self.spec.n_parts,
        }
        write_json_atomic(self.manifest_path, doc)

    def listed_done(self) -> int:
        """Hands the manifest lists as done (before :meth:`open` checks them)."""
        n = self.spec.n_parts
        return sum(self.spec.part_range(k)[1] for k in self._listed if 0 <= k < n)

    def todo(self) -> list[int]:
        return [k for k in range(self.spec.n_parts) if k not in self.done]

    def hands_done(self) -> int:
        return sum(v["count"] for v in self.done.values())

    def add_part(self, k: int, entry: dict[str, Any]) -> None:
        """Record part ``k``, written by :func:`write_part_file` (here or on a worker), in the
        manifest."""
        start, count = self.spec.part_range(k)
        self.done[k] = {"file": part_name(k), "start": start, "count": count} | {
            "bytes": int(entry["bytes"])
        }
        if "sums" in entry:  # the part's share of the run's closing figures
            self.done[k]["sums"] = {str(key): int(v) for key, v in entry["sums"].items()}
        self._save_manifest()

    def clean_temporaries(self) -> None:
        """Remove temporary part files (a worker killed mid-write leaves one behind)."""
        self._clean_temporaries()

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.glob(PART_GLOB))
