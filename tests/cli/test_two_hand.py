"""Two-hand at the command line: ``run`` (and its resume and refusal), ``show``, ``schema`` and
``info`` on the two-hand preset.

The engine itself (stock phase, melding from the table, dix, play-out, rounding) is tested in
tests/engines/two_hand/test_two_hand.py."""

from __future__ import annotations

import json

from click.testing import CliRunner

from pinochle_sim.cli.commands import main
from tests.oracles.reference_two_hand import validate_two_hand


def test_cli_run_show_schema_on_two_hand(tmp_path, runner: CliRunner):
    out = tmp_path / "th"
    r = runner.invoke(main, ["run", "--hands", "3000", "--rules", "two-hand", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "seat 0 wins" in r.output
    import pandas as pd

    df = pd.read_parquet(out)
    assert len(df) == 3000 and (df.tricks_raw_0 + df.tricks_raw_1 == 250).all()
    again = runner.invoke(
        main, ["run", "--hands", "3000", "--rules", "two-hand", "--out", str(out), "--resume"]
    )
    assert again.exit_code == 0 and "already complete" in again.output
    refuse = runner.invoke(
        main, ["run", "--hands", "3000", "--rules", "two-hand", "--out", str(out)]
    )
    assert refuse.exit_code != 0 and "Traceback" not in refuse.output
    r = runner.invoke(main, ["show", "--rules", "two-hand", "--seed", "4", "--hand", "2", "--json"])
    assert r.exit_code == 0
    validate_two_hand(json.loads(r.output))
    r = runner.invoke(
        main,
        ["show", "--rules", "two-hand", "--hand", "1", "--stock-policy", "random", "--meld-policy",
         "random"],
    )  # fmt: skip
    assert r.exit_code == 0 and "Play-out" in r.output
    r = runner.invoke(main, ["schema", "--rules", "two-hand"])
    assert r.exit_code == 0 and "meld_after_12" in r.output and "tricks_raw_0" in r.output
    r = runner.invoke(main, ["info", str(out)])
    assert r.exit_code == 0 and "policy stock: standard" in r.output
    assert "policy bid" not in r.output and "hand index mod 2" in r.output
