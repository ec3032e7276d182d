"""``compare --by``: the breakdown's files and lines, and where it does not apply (the numbers
are tested in tests/analysis/test_breakdown.py)."""

from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from pinochle_sim.cli.commands import main


def test_compare_by_bid_and_trump_length(tmp_path):
    out = tmp_path / "m"
    r = CliRunner().invoke(main, ["compare", "play=counting", "default", "--hands", "1500",
                                  "--by", "bid", "--by", "trump-length", "--min-n", "100",
                                  "--out", str(out)])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "per deal, by winning bid" in r.output and "all deals" in r.output
    for name in ("by_bid", "by_trump_length"):
        t = pd.read_csv(out / f"{name}.csv")
        assert t["deals"].iloc[-1] == 1500 and t["deals"].iloc[:-1].sum() == 1500
        assert (t["deals"].iloc[:-1] >= 100).all()
        assert (out / f"{name}.png").exists()


def test_compare_by_needs_an_auction(tmp_path):
    args = ["compare", "meld=random", "default", "--rules", "two-hand", "--hands", "100"]
    r = CliRunner().invoke(main, [*args, "--by", "bid", "--out", str(tmp_path / "x")])
    assert r.exit_code == 1 and "have none" in r.output and not (tmp_path / "x").exists()
    bad = CliRunner().invoke(main, ["compare", "default", "default", "--by", "suit"])
    assert bad.exit_code == 2 and "Invalid value for '--by'" in bad.output
