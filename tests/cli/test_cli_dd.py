"""``run --dd`` and ``schema --dd`` at the command line: the estimate before the run, the
columns after it, one clear line for input it cannot take, and the solver policy's refusal
where the other hands are hidden."""

from __future__ import annotations

import pyarrow.parquet as pq
from click.testing import CliRunner

from pinochle_sim.cli.commands import main
from tests.cli.test_inputs import invoke, user_error


def test_run_dd_prints_the_estimate_and_writes_the_columns(tmp_path) -> None:
    out = tmp_path / "r"
    res = CliRunner().invoke(
        main, ["run", "--hands", "30", "--rules", "two-hand", "--dd", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert "solving 30 deals double dummy: about" in res.output
    assert "on 1 thread" in res.output or "threads" in res.output
    names = pq.read_table(out).column_names
    assert names[-2:] == ["dd_points_0", "dd_points_1"]


def test_bad_dd_input_gives_one_line() -> None:
    user_error(invoke("run", "--games", "5", "--dd", "--rules", "two-hand"), "games run")
    user_error(invoke("schema", "--dd", "--games"), "--dd", "--games")
    user_error(invoke("run", "--hands", "5", "--play-policy", "solver"), "needs every card seen")


def test_schema_dd_lists_the_columns() -> None:
    res = invoke("schema", "--dd")
    assert res.exit_code == 0
    assert "dd_points" in res.output and "dd_made" in res.output
    two = invoke("schema", "--dd", "--rules", "two-hand")
    assert "dd_points_0" in two.output and "dd_made" not in two.output
    assert "--dd" in invoke("run", "--help").output
