"""The stored answers of every report question on small seeded runs: the reference the streaming
questions are held to, to the last digit (``tests/analysis/test_report_reference.py``).

``python -m tests.reports_reference --write`` makes the runs and writes the tables, one CSV per
question and case, into ``tests/data/report_reference/<case>/``: done once, with the
implementation that read whole columns, so that any later implementation is compared with it.
The runs are cut into several parts, so a question that reads part by part meets part
boundaries; the double-dummy case is a run whose ``dd_points`` / ``dd_made`` columns are made up
from its own columns (solving a thousand deals would take many minutes; what is checked is the
arithmetic of the questions, not the solver).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from pinochle_sim import RunSpec, run
from pinochle_sim.analysis.reports import selfcheck
from pinochle_sim.analysis.reports.catalog import STUDIES
from pinochle_sim.analysis.reports.load import column_names, rules_of

REFERENCE = Path(__file__).parent / "data" / "report_reference"

CASES = {
    "partnership": RunSpec(9000, seed=31, rules="partnership", part_size=2048),
    "joedog": RunSpec(3000, seed=37, rules="joedog", part_size=1024),
    "three-hand": RunSpec(5000, seed=32, rules="three-hand", part_size=2048),
    "two-hand": RunSpec(5000, seed=33, rules="two-hand", part_size=2048),
    "partnership-games": RunSpec(150, seed=34, rules="partnership", games=True, part_size=64),
    "two-hand-games": RunSpec(300, seed=35, rules="two-hand", games=True, part_size=128),
    "partnership-dd": RunSpec(4000, seed=36, rules="partnership", part_size=1024),
}
"""The seeded runs whose report tables are stored."""


def make_run(case: str, folder: Path) -> Path:
    """Simulate case ``case`` into ``folder`` (``-dd``: with made-up double-dummy columns)."""
    out = folder / case
    run(CASES[case], str(out), overwrite=True)
    if case.endswith("-dd"):
        _add_made_up_dd(out)
    return out


def _add_made_up_dd(out: Path) -> None:
    """Give every part ``dd_points`` and ``dd_made`` columns computed from its own columns (the
    bidding side's trick points plus a pseudo-random 0..60, and whether that makes the bid)."""
    for f in sorted(out.glob("part-*.parquet")):
        t = pq.read_table(f)
        bidder = t.column("bidder").to_numpy().astype(np.int64)
        side = bidder % 2
        tricks = np.where(side == 0, t.column("team_tricks_0"), t.column("team_tricks_1"))
        meld = np.where(side == 0, t.column("team_meld_0"), t.column("team_meld_1"))
        hand = t.column("hand").to_numpy()
        dd = (tricks + (hand * 7919 % 7) * 10).astype(np.int16)
        made = (meld.astype(np.int64) + dd >= t.column("bid").to_numpy()).astype(bool)
        t = t.append_column("dd_points", pa.array(dd)).append_column("dd_made", pa.array(made))
        pq.write_table(t, f)


def tables(path: Path) -> dict[str, pd.DataFrame]:
    """Every table a report of the run in ``path`` writes: one per study that fits the run, and
    ``self_check`` (the estimates with exact values beside them)."""
    rules = rules_of(path)
    present = column_names(path)
    out = {}
    checks = []
    for name, study in STUDIES.items():
        if study.fits(rules, present):
            out[name] = study.question(path)
            if study.checks:
                checks.append(study.checks(out[name]).assign(study=name))
    if checks:
        out["self_check"] = pd.concat(checks, ignore_index=True)[selfcheck.COLUMNS]
    return out


def write(folder: Path) -> None:
    for case in CASES:
        path = make_run(case, folder)
        target = REFERENCE / case
        target.mkdir(parents=True, exist_ok=True)
        for name, table in tables(path).items():
            table.to_csv(target / f"{name}.csv", index=False)
            print(f"wrote {target / name}.csv", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.reports_reference --write")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp))
