"""Shared by the study scripts: the runs the studies read, and writing a study.

The partnership studies read one 1,000,000-hand run of the default preset and policies (seed 0);
the three-hand and two-hand studies one 1,000,000-hand run of their preset (seed 0) each and
write under ``results/three-hand/`` and ``results/two-hand/``; the whole-game studies read games
runs (``games=True``: ``hands`` then counts games). Each run is made (or finished, if
interrupted) on first use in ``results/runs/``; that folder is not committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
HANDS = 1_000_000
SEED = 0


def run_folder(rules: str = "partnership", hands: int = HANDS, games: bool = False) -> Path:
    return RESULTS / "runs" / (f"{rules}-seed{SEED}-{hands}" + ("games" if games else ""))


RUN = run_folder()


def ensure_run(rules: str = "partnership", hands: int = HANDS, games: bool = False) -> Path:
    """The run folder of ``rules``, simulated or resumed if it is missing or incomplete, and
    simulated again if it was made with other settings (engine version, rules, policies); with
    ``games``, ``hands`` whole games played to the rules' target (one row per deal)."""
    from pinochle_sim.runs.runner import run
    from pinochle_sim.runs.store.files import MANIFEST, read_manifest

    folder = run_folder(rules, hands, games)
    exists = (folder / MANIFEST).exists()
    current = exists and read_manifest(folder).get("settings") == _settings(rules, hands, games)
    if current and read_manifest(folder).get("complete"):
        return folder
    unit = "games" if games else "hands"
    print(f"simulating {hands:,} {rules} {unit} into {folder} ...", file=sys.stderr)
    stale = exists and not current
    run(
        hands, seed=SEED, rules=rules, out=str(folder), resume=current, overwrite=stale, games=games
    )
    return folder


def _settings(rules: str, hands: int, games: bool) -> dict:
    """What a run made now with these arguments would record as its settings (as JSON)."""
    import json

    from pinochle_sim import RunSpec

    return json.loads(json.dumps(RunSpec(hands, SEED, rules, games=games).settings()))


def write_study(name: str, run_dir: Path | None = None, under: str = "") -> Path:
    """Write one study's chart (PNG + SVG), table (CSV) and a short README into
    results/UNDER/NAME, from ``run_dir`` (default: the default run)."""
    from pinochle_sim.analysis.reports import write_report

    run_dir = run_dir or ensure_run()
    out = RESULTS / under / name
    md = write_report(run_dir, out, ("png", "svg"), [name])
    md.rename(out / "README.md")
    print(f"{name}: {out}", file=sys.stderr)
    return out
