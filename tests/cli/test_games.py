"""Whole games at the command line: ``run --games``, ``info``, resume, ``schema --games``, and
one-line errors for bad input.

The games themselves (the end-of-game rule, invariants, determinism, game results) are tested in
tests/runs/test_games.py."""

from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from pinochle_sim.cli.commands import main


def test_cli_run_games(tmp_path, runner: CliRunner):
    out = tmp_path / "g"
    r = runner.invoke(
        main, ["run", "--games", "300", "--rules", "two-hand", "--out", str(out), "--quiet"]
    )
    assert r.exit_code == 0, r.output
    d = pd.read_parquet(out)
    assert d["game"].nunique() == 300 and (d["game_winner"] >= 0).sum() == 300
    info = runner.invoke(main, ["info", str(out)])
    assert "300 of 300 games" in info.output
    again = runner.invoke(
        main, ["run", "--games", "300", "--rules", "two-hand", "--out", str(out), "--resume"]
    )
    assert again.exit_code == 0 and "already complete" in again.output
    for bad in (
        ["run", "--games", "10", "--hands", "10"],
        ["run"],
        ["run", "--games", "1.5"],
        ["run", "--games", "0"],
    ):
        r = runner.invoke(main, [*bad, "--out", str(tmp_path / "x")])
        assert r.exit_code != 0 and "Traceback" not in r.output and "Error" in r.output, bad
    schema = runner.invoke(main, ["schema", "--rules", "two-hand", "--games"])
    assert schema.exit_code == 0 and "game_winner" in schema.output
