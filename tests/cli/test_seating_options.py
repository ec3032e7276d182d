"""``run --seat``, ``--bidding-side`` and ``--defenders``: the run, its provenance in ``info``,
and bad input as one line (the records are tested in tests/runs/test_seating.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pinochle_sim.cli.commands import main


def test_a_run_by_role_and_its_provenance(tmp_path):
    out = str(tmp_path / "roles")
    r = CliRunner().invoke(main, ["run", "--hands", "2000", "--bidding-side", "play=counting",
                                  "--out", out, "--quiet"])  # fmt: skip
    assert r.exit_code == 0, r.output
    info = CliRunner().invoke(main, ["info", out])
    assert "policies by seat or role: bidding side: play=counting" in info.output


@pytest.mark.parametrize("args,match", [
    (["--seat", "7=play=counting"], "not seat 7"),
    (["--seat", "one=play=counting"], "SEAT=ITEMS"),
    (["--bidding-side", "bid=calibrated"], "before anyone knows"),
    (["--defenders", "play=nope"], "unknown play policy"),
    (["--rules", "two-hand", "--defenders", "play=greedy"], "no auction"),
    (["--seat", "1=play=counting", "--defenders", "play=greedy"], "not both"),
])  # fmt: skip
def test_bad_seating_is_one_line(tmp_path, args, match):
    r = CliRunner().invoke(main, ["run", "--hands", "100", "--out", str(tmp_path / "x"), *args])
    assert r.exit_code != 0 and match in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1 and not (tmp_path / "x").exists()
