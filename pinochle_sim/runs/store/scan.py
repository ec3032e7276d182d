"""A run's part files as one Arrow dataset, for readers that scan it (reports).

Apart from :mod:`.dataset` because ``pyarrow.dataset`` loads pandas (about half a second):
writing a run, ``show`` and ``advise`` never need it.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds

from pinochle_sim.runs.store.location import UrlPath, arrow
from pinochle_sim.runs.store.read import first_damage, part_files

_CHECKED = ds.ParquetFileFormat(
    default_fragment_scan_options=ds.ParquetFragmentScanOptions(page_checksum_verification=True)
)
"""Parquet as this package reads it: page checksums verified where the file has them."""


def open_dataset(path: str | Path | UrlPath) -> ds.Dataset:
    """A run's part files (a folder or a store's URL) as one Arrow dataset (other files in the
    folder are ignored); a part whose footer cannot be read gives a
    :class:`~.dataset.RunFolderError` naming it."""
    parts = part_files(path)
    fs = arrow(parts[0])[1]
    try:
        return ds.dataset([arrow(p)[0] for p in parts], format=_CHECKED, filesystem=fs)
    except (pa.ArrowException, OSError, ValueError):
        raise first_damage(parts, None) from None
