"""Parts of slow runs cut by time: a run whose part would take more than about a minute is cut
into smaller parts (never a record changed), a resume keeps the cut it finds, and a size asked
for is kept."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from pinochle_sim.runs import runner
from pinochle_sim.runs.estimate import RunEstimate
from pinochle_sim.runs.runner import MIN_PART, PART_TARGET_S, part_size_for, run
from pinochle_sim.runs.spec import DEFAULT_PART_SIZE, RunSpec
from pinochle_sim.runs.store.files import read_manifest


def plan(units: int, seconds: float) -> RunEstimate:
    return RunEstimate(units, units, 0, seconds, None, 2)


def test_the_size_a_minute_of_work_allows():
    spec = RunSpec(100_000)
    assert part_size_for(plan(100_000, 0.1), spec) == DEFAULT_PART_SIZE  # bots: untouched
    # 0.05 s a hand: 60 s hold 1,200 hands, cut to the power of two below
    assert part_size_for(plan(100_000, 5_000.0), spec) == 1024
    assert part_size_for(plan(100_000, 10**9), spec) == MIN_PART  # never below the least
    asked = RunSpec(100_000, part_size=4096)
    assert part_size_for(plan(100_000, 5_000.0), asked) == 4096  # asked for: kept
    per_hand = 5_000.0 / 100_000
    assert 1024 * per_hand <= PART_TARGET_S < 2048 * per_hand


def test_a_slow_run_is_cut_finer_and_resumed_as_cut(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "PART_TARGET_S", 1e-9)  # every run is slow for this test
    spec = RunSpec(100, seed=3)
    told = []

    class Heard(runner.Observer):
        def plan(self, p: RunEstimate) -> None:
            told.append(p.text())

    run(spec, tmp_path / "cut", observer=Heard())
    assert f"parts of {MIN_PART}, about a minute of work each" in told[0]
    assert read_manifest(tmp_path / "cut")["settings"]["part_size"] == MIN_PART
    parts = sorted((tmp_path / "cut").glob("part-*.parquet"))
    assert len(parts) == -(-100 // MIN_PART)
    monkeypatch.setattr(runner, "PART_TARGET_S", 60.0)
    run(dataclasses.replace(spec, part_size=0), tmp_path / "whole")
    a, b = pd.read_parquet(tmp_path / "cut"), pd.read_parquet(tmp_path / "whole")
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))
    parts[2].unlink()  # an interrupted run: the same command with --resume finishes it
    summary = run(RunSpec(100, seed=3), tmp_path / "cut", resume=True)
    assert summary.hands == 100
    again = pd.read_parquet(tmp_path / "cut")
    pd.testing.assert_frame_equal(again.reset_index(drop=True), b.reset_index(drop=True))


def test_a_size_asked_for_is_never_cut(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "PART_TARGET_S", 1e-9)
    run(RunSpec(100, part_size=50), tmp_path / "r")
    assert read_manifest(tmp_path / "r")["settings"]["part_size"] == 50


@pytest.mark.parametrize("size", [0, None])
def test_the_default_is_not_asked_for(size):
    spec = RunSpec(10, part_size=size)
    assert not spec.part_size_given and spec.with_part_size(16).part_size == 16
    assert not spec.with_part_size(16).part_size_given
