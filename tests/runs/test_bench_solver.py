"""The solver bench shows its progress: a callback after every deal, and the CLI's stderr
lines (so a long preset run does not look hung)."""

from __future__ import annotations

import pytest

from pinochle_sim.cli import _progress
from pinochle_sim.runs.bench import solver_times


def test_progress_is_called_after_every_deal() -> None:
    calls: list[tuple[int, int, float]] = []
    b = solver_times("two-hand", deals=3, progress=lambda *a: calls.append(a))
    assert [(done, total) for done, total, _ in calls] == [(1, 3), (2, 3), (3, 3)]
    seconds = [s for _, _, s in calls]
    assert seconds == sorted(seconds) and seconds[-1] == pytest.approx(sum(b.seconds))


def test_cli_progress_goes_to_stderr_and_is_throttled(capsys: pytest.CaptureFixture[str]) -> None:
    every_time = _progress("two-hand", every=0.0)
    every_time(1, 2, 0.5)
    every_time(2, 2, 1.3)
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.splitlines() == [
        "  solver, two-hand: 1/2 deals, 0.5 s",
        "  solver, two-hand: 2/2 deals, 1.3 s",
    ]
    rarely = _progress("three-hand", every=3600.0)
    rarely(1, 3, 0.1)  # too soon after the start: nothing
    rarely(3, 3, 0.3)  # the last deal is always shown
    assert capsys.readouterr().err.splitlines() == ["  solver, three-hand: 3/3 deals, 0.3 s"]
