"""Reading a run for reports: only the columns a question needs, from a folder or a DataFrame."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeAlias

import pandas as pd

from pinochle_sim.rules import Ruleset, get_preset
from pinochle_sim.runs.dataset import open_dataset, read_columns, read_provenance, ruleset_of

Data: TypeAlias = "str | Path | pd.DataFrame"


def columns(data: Data, names: list[str]) -> pd.DataFrame:
    """The named columns of a run folder / part file, or of a DataFrame (checked present)."""
    if isinstance(data, pd.DataFrame):
        missing = [c for c in names if c not in data.columns]
        if missing:
            raise ValueError(f"the data has no column(s) {', '.join(missing)}")
        return data[names]
    path = Path(data)
    if not path.exists():
        raise ValueError(f"no such run folder or file: {str(path)!r}")
    return read_columns(path, names).to_pandas()  # a damaged part is named, with the remedy


def column_names(data: Data) -> list[str]:
    """The column names of a run folder / part file, or of a DataFrame (nothing is read)."""
    if isinstance(data, pd.DataFrame):
        return [str(c) for c in data.columns]
    path = Path(data)
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
