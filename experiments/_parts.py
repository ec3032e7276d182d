"""What the training-data scripts share: a folder of Parquet parts with its provenance.

A data folder holds ``part-FIRST.parquet`` files, each written whole (to a temporary name, then
renamed), and ``_provenance.json``: what the data is, the settings, the engine version, the
commit and the command. A second run into the folder must say ``--resume`` and use the same
settings; it then makes only the parts that are missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pinochle_sim import ENGINE_VERSION

PROVENANCE = "_provenance.json"


def part_path(out: Path, first: int) -> Path:
    return out / f"part-{first:07d}.parquet"


def write_part(out: Path, first: int, columns: dict[str, Any]) -> int:
    """Write one part atomically; returns its rows."""
    table = pa.table(columns)
    tmp = out / f".part-{first:07d}.parquet.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, part_path(out, first))
    return table.num_rows


def git_commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def open_folder(
    out: Path, settings: dict[str, Any], resume: bool, what: str, columns: list[str]
) -> None:
    """Check ``out`` against ``settings`` (exits with one line when it holds another run, or
    holds a run and ``resume`` is not set, or holds none and it is) and write its provenance."""
    prov_path = out / PROVENANCE
    if prov_path.exists():
        old = json.loads(prov_path.read_text())
        if not resume:
            sys.exit(f"error: {out} holds a data run already: add --resume to finish it")
        if old["settings"] != settings:
            sys.exit(f"error: {out} was made with {old['settings']}, not {settings}")
        return
    if resume:
        sys.exit(f"error: nothing to resume in {out}")
    out.mkdir(parents=True, exist_ok=True)
    prov = {
        "what": what,
        "settings": settings,
        "engine_version": ENGINE_VERSION,
        "commit": git_commit(),
        "columns": columns,
        "command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
    }
    prov_path.write_text(json.dumps(prov, indent=2) + "\n")


def rows_in(out: Path) -> tuple[int, int]:
    """(rows, parts) of a data folder."""
    parts = sorted(out.glob("part-*.parquet"))
    return sum(pq.ParquetFile(p).metadata.num_rows for p in parts), len(parts)
