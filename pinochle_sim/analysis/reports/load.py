"""What a report knows of a run before it reads the records: its columns, provenance, rules and
extent (from the parts' footers and the manifest), for a folder, a store's URL or a DataFrame."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import pandas as pd

from pinochle_sim.rules import Ruleset, get_preset
from pinochle_sim.runs.store.files import MANIFEST, read_manifest
from pinochle_sim.runs.store.location import UrlPath, location
from pinochle_sim.runs.store.provenance import ruleset_of
from pinochle_sim.runs.store.read import iter_parts, part_rows, read_provenance
from pinochle_sim.runs.store.scan import open_dataset

Data: TypeAlias = "str | Path | UrlPath | pd.DataFrame"


def column_names(data: Data) -> list[str]:
    """The column names of a run folder / part file, or of a DataFrame (nothing is read)."""
    if isinstance(data, pd.DataFrame):
        return [str(c) for c in data.columns]
    path = location(data)
    if not path.exists():
        raise ValueError(f"no such run folder or file: {str(path)!r}")
    return list(open_dataset(path).schema.names)


def provenance_of(data: Data) -> dict[str, Any]:
    """Provenance of a run (empty for a DataFrame without it)."""
    if isinstance(data, pd.DataFrame):
        return dict(data.attrs.get("pinochle_sim", {}))
    return read_provenance(data)


def rules_of(data: Data) -> Ruleset:
    """The ruleset a run used (from its provenance); a DataFrame may carry one in
    ``df.attrs["rules"]``, else ``partnership`` is assumed."""
    if isinstance(data, pd.DataFrame):
        r = data.attrs.get("rules")
        return r if isinstance(r, Ruleset) else get_preset("partnership")
    return ruleset_of(read_provenance(data))


@dataclass(frozen=True)
class Extent:
    """How much of a run a report reads, against what the run was asked to hold."""

    unit: str
    """``hands``, or ``games`` for a games run (whose rows are deals)."""
    read: int
    """Hands (games) in the rows actually read."""
    rows: int
    """Rows actually read (deals of a games run)."""
    planned: int | None
    """Hands (games) the run's settings ask for; None when nothing says."""
    marked_complete: bool | None
    """The manifest's ``complete`` mark; None without a manifest."""
    settings: dict[str, Any] | None = None
    """The manifest's settings (every option the run was made with); None without one."""

    @property
    def partial(self) -> bool:
        """Marked incomplete, or fewer hands (games) read than the settings ask for."""
        short = self.planned is not None and self.read < self.planned
        return self.marked_complete is False or short

    def describe(self) -> str:
        """``262,144 of 1,000,000 hands`` (``1,000,000 hands`` when nothing was planned)."""
        if self.planned is None:
            return f"{self.read:,} {self.unit}"
        return f"{self.read:,} of {self.planned:,} {self.unit}"

    def chart_meta(self, meta: dict[str, Any]) -> dict[str, Any]:
        """The provenance a chart gets: the counts read, and whether the run is partial."""
        return meta | {
            "hands_read": self.read,
            "rows_read": self.rows,
            "planned": self.planned,
            "partial": self.partial,
        }


def extent(data: Data) -> Extent:
    """What a report on ``data`` reads: the hands (games) in the rows read and, from the run's
    manifest (a run folder) or its provenance (a part file, a DataFrame with
    ``attrs["pinochle_sim"]``), what the run was asked to hold. A run folder holding more than
    its manifest plans is an error: it is not one run."""
    meta = provenance_of(data)
    unit = "games" if meta.get("unit") == "games" else "hands"
    planned = meta.get("run_hands")
    marked: bool | None = None
    settings: dict[str, Any] | None = None
    if isinstance(data, pd.DataFrame):
        rows = len(data)
        games = data["game"].nunique() if unit == "games" and "game" in data else rows
    else:
        path = location(data)
        if path.is_dir() and (path / MANIFEST).exists():
            manifest = read_manifest(path)
            settings = manifest.get("settings") or None
            planned = (settings or {}).get("hands", planned)
            marked = bool(manifest.get("complete", False))
        rows = sum(part_rows(path))
        if unit == "games":  # a part holds whole games
            games = sum(len(np.unique(t.column(0).to_numpy())) for t in iter_parts(path, ["game"]))
        else:
            games = rows
    read = int(games)
    if planned is not None and read > planned:
        name = "the data" if isinstance(data, pd.DataFrame) else repr(str(data))
        raise ValueError(
            f"{name} holds {read:,} {unit} but its run planned {planned:,}: part files "
            "of another run are mixed in"
        )
    return Extent(unit, read, int(rows), planned, marked, settings)
