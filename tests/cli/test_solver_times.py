"""``bench --solver-only`` at the command line: a line per preset, and a bad ``--solver-cards``
as a one-line error.

The solver bench itself (a progress callback after every deal, throttled progress lines, the
median's interval) is tested in tests/bench/test_solver_times.py."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("bad", ["0", "16", "seven", "-2"])
def test_bad_solver_cards_is_a_one_line_error(bad: str) -> None:
    from click.testing import CliRunner

    from pinochle_sim.cli.commands import main

    res = CliRunner().invoke(main, ["bench", "--solver-only", "--solver-cards", bad])
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert res.exit_code == 2 and len(errors) == 1, res.output
    assert "1-15 or 'full'" in errors[0]


def test_cli_solver_only_prints_a_line_per_preset() -> None:
    from click.testing import CliRunner

    from pinochle_sim.cli.commands import main
    from pinochle_sim.rules import PRESETS

    res = CliRunner().invoke(
        main, ["bench", "--solver-only", "--solver-deals", "3", "--solver-cards", "2"]
    )
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith("solver, ")]
    assert [line.split()[1] for line in lines] == list(PRESETS)
    assert all("of 2 cards a seat" in line for line in lines)


def test_quick_solver_only_times_a_few_deals_of_each_preset() -> None:
    """``--quick`` leaves the solver out of a full bench, but with ``--solver-only`` the
    solver is all that is asked for: it times 20 deals a preset instead of nothing."""
    from click.testing import CliRunner

    from pinochle_sim.cli.commands import main
    from pinochle_sim.rules import PRESETS

    res = CliRunner().invoke(main, ["bench", "--solver-only", "--quick", "--solver-cards", "3"])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith("solver, ")]
    assert [line.split()[1] for line in lines] == list(PRESETS)
    assert all(" 20 deals of 3 cards a seat" in line for line in lines), lines
