"""``compare`` and ``sweep`` at the command line: their summaries, tables and charts, the refusal
to overwrite, and one-line errors for bad input.

The strategy lab itself (per-seat policies, duplicate comparisons, sweeps, the counting and
calibrated policies) is tested in tests/analysis/test_strategy.py."""

from __future__ import annotations

import json

import pandas as pd
from click.testing import CliRunner

from pinochle_sim.cli.commands import main


def test_cli_compare_and_sweep(tmp_path, runner: CliRunner):
    out = tmp_path / "cmp"
    r = runner.invoke(
        main, ["compare", "play=counting", "default", "--hands", "600", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    assert "points per deal" in r.output and "made" in r.output
    pairs = pd.read_parquet(out / "pairs.parquet")
    assert len(pairs) == 600 and "diff" in pairs
    doc = json.loads((out / "summary.json").read_text())
    assert doc["a"]["policies"]["play"]["name"] == "counting" and doc["deals"] == 600
    assert (out / "compare.png").exists() and (out / "summary.csv").exists()
    again = runner.invoke(
        main, ["compare", "default", "default", "--hands", "10", "--out", str(out)]
    )
    assert again.exit_code != 0 and "--overwrite" in again.output
    r = runner.invoke(main, ["compare", "meld=random", "default", "--rules", "two-hand", "--hands",
                             "300", "--out", str(tmp_path / "two")])  # fmt: skip
    assert r.exit_code == 0 and "won" in r.output
    sw = tmp_path / "sw"
    r = runner.invoke(main, ["sweep", "--param", "bid.margin=-20:20:20", "--hands", "300",
                             "--out", str(sw)])  # fmt: skip
    assert r.exit_code == 0, r.output
    table = pd.read_csv(sw / "sweep.csv")
    assert list(table["value"]) == [-20, 0, 20]
    assert len(pd.read_parquet(sw / "diffs.parquet")) == 900 and (sw / "sweep.png").exists()
    for bad in (
        ["compare", "play=nope", "default"],
        ["compare", "default", "default", "--hands", "1.5"],
        ["sweep", "--param", "bid.margin=5:1:1"],
        ["sweep", "--param", "bid.nope=1,2"],
    ):
        r = runner.invoke(main, [*bad, "--out", str(tmp_path / "bad")])
        assert r.exit_code != 0 and "Traceback" not in r.output and "Error" in r.output, bad
