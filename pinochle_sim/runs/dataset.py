"""Run folders: atomic Parquet part files, a manifest, provenance metadata, resume.

A run folder holds ``part-NNNNN.parquet`` files (part ``k`` covers hands
``[k*part_size, min((k+1)*part_size, hands))``) and ``_manifest.json`` (the run's settings and the
parts completed). Every part and the manifest are written to a temporary name and renamed, so an
interrupted run (Ctrl-C, ``kill -9``) leaves only complete files; ``resume`` finishes it with no
gap and no duplicate. Every part carries the run's provenance in its Parquet schema metadata
under the key ``pinochle_sim``.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.dataset as ds
import pyarrow.parquet as pq

from pinochle_sim.core.version import __version__
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset, loads_ruleset
from pinochle_sim.rules.toml_io import dumps_ruleset

MANIFEST = "_manifest.json"  # leading "_": Parquet readers skip it
META_KEY = b"pinochle_sim"
FORMAT = 1


class RunFolderError(ValueError):
    """The output folder cannot be used as asked (exists, settings differ, corrupt)."""


@dataclass(frozen=True)
class RunSettings:
    """What determines a run's records (resume must match all of it)."""

    rules: Ruleset
    policies: PolicySet
    seed: int
    hands: int
    part_size: int
    dealer: int | None = None
    games: bool = False
    """``hands`` counts whole games (:mod:`pinochle_sim.runs.games`); parts hold whole games."""
    kinds: tuple[str, ...] = ()
    """The policy kinds the rules' engine asks for (what provenance lists)."""
    engine_version: int = 0
    """The engine's behaviour version (from its descriptor)."""

    @property
    def unit(self) -> str:
        return "games" if self.games else "hands"

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "rules_name": self.rules.name,
            "rules_toml": dumps_ruleset(self.rules),
            "policies": self.policies.resolved(self.kinds),
            "seed": self.seed,
            "hands": self.hands,
            "part_size": self.part_size,
            "dealer": self.dealer,
            "engine_version": self.engine_version,
        }

    @property
    def n_parts(self) -> int:
        return (self.hands + self.part_size - 1) // self.part_size

    def part_range(self, k: int) -> tuple[int, int]:
        start = k * self.part_size
        return start, min(self.part_size, self.hands - start)


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


def parquet_options(names: list[str]) -> dict[str, Any]:
    """How part files with these columns are written (measured: ~53 bytes per hand, ~1 s per
    million rows)."""
    return {
        "compression": "zstd",
        "compression_level": 1,  # level 3 is no smaller here and 13% slower to write
        # Packed hands are nearly all distinct: a dictionary only costs space and time there.
        "use_dictionary": [n for n in names if n not in _NO_DICTIONARY and "dealt" not in n],
        "column_encoding": {"hand": "DELTA_BINARY_PACKED"},
    }


def part_name(k: int) -> str:
    return f"part-{k:05d}.parquet"


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _write_json_atomic(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def provenance(settings: RunSettings, start: int, count: int, created: str) -> dict[str, Any]:
    """The metadata stored in each part file."""
    return {
        "package": "pinochle-sim",
        "package_version": __version__,
        "engine_version": settings.engine_version,
        "rules": settings.rules.name,
        "ruleset_toml": dumps_ruleset(settings.rules),
        "policies": settings.policies.resolved(settings.kinds),
        "seed": settings.seed,
        "unit": settings.unit,
        "run_hands": settings.hands,
        "hand_start": start,
        "hand_count": count,
        "dealer": (
            f"hand index mod {settings.rules.players}"
            if settings.dealer is None
            else settings.dealer
        ),
        "created": created,
    }


def _dealer_text(settings: RunSettings) -> str | int:
    if settings.dealer is None:
        return f"hand index mod {settings.rules.players}"
    return settings.dealer


class RunFolder:
    """A run's output folder: which parts are done, atomic part writes, the manifest."""

    def __init__(
        self, path: str | Path, settings: RunSettings, resume: bool = False, overwrite: bool = False
    ) -> None:
        if resume and overwrite:
            raise RunFolderError("use either --resume or --overwrite, not both")
        self.path = Path(path)
        self.settings = settings
        self.manifest_path = self.path / MANIFEST
        exists = self.path.exists() and any(self.path.iterdir())
        if exists and not (resume or overwrite):
            raise RunFolderError(
                f"output folder {str(self.path)!r} already exists: pass --resume to finish it "
                "or --overwrite to replace it"
            )
        if exists and overwrite:
            self._clear()
        self.path.mkdir(parents=True, exist_ok=True)
        self.done: dict[int, dict[str, Any]] = {}
        self.created = _now()
        if resume and self.manifest_path.exists():
            self._load_manifest()
        elif resume and exists:
            raise RunFolderError(f"{str(self.path)!r} has no {MANIFEST}: not a run folder")
        self._clean_temporaries()
        self._adopt_orphans()
        self._save_manifest()

    def _clear(self) -> None:
        if self.path.is_dir() and not (self.path / MANIFEST).exists():
            strangers = [p.name for p in self.path.iterdir() if not p.name.startswith(".")]
            if strangers:
                raise RunFolderError(
                    f"refusing to overwrite {str(self.path)!r}: it is not a run folder "
                    f"(contains {strangers[0]!r})"
                )
        shutil.rmtree(self.path)

    def _load_manifest(self) -> None:
        try:
            doc = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise RunFolderError(f"cannot read {self.manifest_path}: {e}") from None
        old = doc.get("settings", {})
        new = self.settings.to_dict()
        diffs = [k for k in new if old.get(k) != new[k]]
        if diffs:
            raise RunFolderError(
                f"--resume with different settings than the run in {str(self.path)!r} "
                f"(differs in: {', '.join(diffs)})"
            )
        self.created = doc.get("created", self.created)
        self.done = {int(k): v for k, v in doc.get("parts", {}).items()}
        for k in list(self.done):
            if not (self.path / part_name(k)).exists():
                del self.done[k]

    def _clean_temporaries(self) -> None:
        for p in self.path.glob(".*.tmp-*"):
            p.unlink(missing_ok=True)

    def _adopt_orphans(self) -> None:
        """A part renamed into place just before a crash, but not yet in the manifest."""
        for k in range(self.settings.n_parts):
            f = self.path / part_name(k)
            if k in self.done or not f.exists():
                continue
            start, count = self.settings.part_range(k)
            try:
                meta = read_provenance(f)
                ok = (
                    meta.get("hand_start") == start
                    and meta.get("hand_count") == count
                    and meta.get("unit", "hands") == self.settings.unit
                    and (self.settings.games or pq.ParquetFile(f).metadata.num_rows == count)
                )
            except Exception:
                ok = False
            if ok:
                self.done[k] = {"file": f.name, "start": start, "count": count}
            else:
                f.unlink()

    def _save_manifest(self) -> None:
        doc = {
            "format": FORMAT,
            "package_version": __version__,
            "created": self.created,
            "updated": _now(),
            "settings": self.settings.to_dict(),
            "parts": {str(k): v for k, v in sorted(self.done.items())},
            "complete": len(self.done) == self.settings.n_parts,
        }
        _write_json_atomic(self.manifest_path, doc)

    def todo(self) -> list[int]:
        return [k for k in range(self.settings.n_parts) if k not in self.done]

    def hands_done(self) -> int:
        return sum(v["count"] for v in self.done.values())

    def write_part(self, k: int, table: Any) -> None:
        """Write part ``k`` atomically and record it in the manifest."""
        final = self.path / part_name(k)
        tmp = self.path / f".{final.name}.tmp-{os.getpid()}"
        pq.write_table(table, tmp, **parquet_options(table.column_names))
        os.replace(tmp, final)
        start, count = self.settings.part_range(k)
        self.done[k] = {"file": final.name, "start": start, "count": count}
        self._save_manifest()

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.glob("part-*.parquet"))


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance of a part file, or of a run folder (its first part)."""
    p = Path(path)
    if p.is_dir():
        parts = sorted(p.glob("part-*.parquet"))
        if not parts:
            raise RunFolderError(f"{str(p)!r} holds no part files: not a run folder")
        p = parts[0]
    if not p.exists():
        raise RunFolderError(f"no such file or folder: {str(p)!r}")
    meta = pq.read_schema(p).metadata or {}
    if META_KEY not in meta:
        raise RunFolderError(f"{str(p)!r} carries no pinochle-sim provenance")
    return json.loads(meta[META_KEY])


def open_dataset(path: Path) -> ds.Dataset:
    """A run's part files as one Arrow dataset (other files in the folder are ignored)."""
    parts = sorted(path.glob("part-*.parquet")) if path.is_dir() else [path]
    if not parts:
        raise ValueError(f"{str(path)!r} holds no part files: not a run folder")
    return ds.dataset([str(p) for p in parts], format="parquet")


def read_manifest(path: str | Path) -> dict[str, Any]:
    p = Path(path) / MANIFEST
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunFolderError(f"{str(Path(path))!r} has no {MANIFEST}: not a run folder") from None


def ruleset_of(meta: dict[str, Any]) -> Ruleset:
    """The exact ruleset a run used, from its provenance."""
    return loads_ruleset(meta["ruleset_toml"])
