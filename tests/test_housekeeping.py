"""Housekeeping: user outputs stay out of git, the package metadata builds without warnings."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

from pinochle_sim import RunSpec, default_study_out
from pinochle_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[1]


def ignored(path: str) -> bool:
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", path], cwd=ROOT, capture_output=True
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode == 0


@pytest.mark.parametrize(
    "path",
    [
        RunSpec(1000).default_out() + "/part-00000.parquet",
        default_study_out("compare", "a-vs-b", get_preset("partnership"), 0, 1000)
        + "/pairs.parquet",
        default_study_out("sweep", "bid.margin", get_preset("joedog"), 3, 10) + "/sweep.csv",
        "runs/j7/part-00000.parquet",  # the README's examples
        "runs/bold/_manifest.json",
    ],
)
def test_user_outputs_are_ignored(path):
    assert ignored(path), path


@pytest.mark.parametrize("path", ["results/strategy/margin_sweep/sweep.csv", "results/README.md"])
def test_committed_results_are_not_ignored(path):
    assert not ignored(path), path


def test_license_is_an_spdx_expression():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["license"] == "MIT"  # PEP 639: a string, not a table
    # setuptools reads a license expression from version 77 on
    assert "setuptools>=77" in meta["build-system"]["requires"]
