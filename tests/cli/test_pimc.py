"""The ``pimc`` play policy at the command line: parameters out of range, and rules without an
auction, are one-line errors for ``run`` and ``compare``.

The policy itself (legal play, records independent of threads and chunks, its range checks) is
tested in tests/policies/test_pimc.py."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pinochle_sim.cli.commands import main


def _one_line_error(args: list[str], *messages: str) -> None:
    res = CliRunner().invoke(main, args)
    assert res.exit_code != 0
    assert "Traceback" not in res.output
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, res.output
    for m in messages:
        assert m in errors[0], errors[0]


@pytest.mark.parametrize(
    ("param", "rules", "messages"),
    [
        ("play.worlds=0", "partnership", ["out of range", "1..1,000", "deals"]),
        ("play.worlds=5000", "partnership", ["out of range"]),
        ("play.from_trick=17", "partnership", ["out of range", "0..16"]),
        (None, "two-hand", ["only games with an auction"]),
    ],
)
def test_cli_errors_are_one_line(param, rules, messages, tmp_path) -> None:
    params = ["--param", param] if param else []
    run = ["run", "--hands", "10", "--out", str(tmp_path / "r"), "--play-policy", "pimc"]
    _one_line_error([*run, "--rules", rules, *params], *messages)
    spec = "play=pimc" + (f",{param}" if param else "")
    compare = ["compare", spec, "play=counting", "--hands", "10", "--out", str(tmp_path / "c")]
    _one_line_error([*compare, "--rules", rules], *messages)
