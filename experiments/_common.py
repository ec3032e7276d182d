"""Shared by the study scripts: the one default run every study reads, and writing a study.

All studies read the same 1,000,000-hand run of the default preset and policies (seed 0), made
(or finished, if interrupted) on first use in ``results/runs/``; that folder is not committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
HANDS = 1_000_000
SEED = 0
RUN = RESULTS / "runs" / f"partnership-seed{SEED}-{HANDS}"


def ensure_run() -> Path:
    """The default run folder, simulated or resumed if it is missing or incomplete."""
    from pinochle_sim.dataset import MANIFEST, read_manifest
    from pinochle_sim.simulate import run

    if (RUN / MANIFEST).exists() and read_manifest(RUN).get("complete"):
        return RUN
    print(f"simulating {HANDS:,} hands into {RUN} ...", file=sys.stderr)
    run(HANDS, seed=SEED, out=str(RUN), resume=(RUN / MANIFEST).exists())
    return RUN


def write_study(name: str) -> Path:
    """Write one study's chart (PNG + SVG), table (CSV) and a short README into results/NAME."""
    from pinochle_sim.reports import write_report

    run_dir = ensure_run()
    out = RESULTS / name
    md = write_report(run_dir, out, ("png", "svg"), [name])
    md.rename(out / "README.md")
    print(f"{name}: {out}", file=sys.stderr)
    return out
