"""Three-hand cut-throat at the command line: ``show`` refuses a dealer that is not a seat (as
the library does) and a ruleset the engine cannot play.

The engine (widow, discards, scoring, checked against the oracle) is tested in
tests/engines/auction/test_three_hand.py."""

from __future__ import annotations

import pytest

from pinochle_sim.runs.inspect.show import hand_record


def test_bad_dealer_and_unplayable_shapes_are_refused(tmp_path):
    from click.testing import CliRunner

    from pinochle_sim.cli.commands import main

    with pytest.raises(ValueError, match="dealer"):
        hand_record(1, 1, rules="three-hand", dealer=3)
    r = CliRunner().invoke(main, ["show", "--rules", "three-hand", "--dealer", "3"])
    assert r.exit_code != 0 and "dealer" in r.output
    two = tmp_path / "two.toml"
    two.write_text('preset = "three-hand"\nname = "x"\nplayers = 2\nhand_size = 24\n'
                   "widow = 0\ndiscard = 0\ndiscards_count = false\n")  # fmt: skip
    r = CliRunner().invoke(main, ["show", "--rules", str(two)])
    assert r.exit_code != 0 and "players" in r.output
