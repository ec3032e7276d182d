"""The `solve` command: a position, a simulated hand, a file of positions; text and JSON; and
one-line errors for bad positions and bad option combinations."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from pinochle_sim.cli.commands import main
from tests.cli.test_cli_meld import assert_user_error

POSITION = ["--trump", "S", "--leader", "0", "--hands", "AS KS; 10S QS; JS 9S; AH 9H"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_position_json() -> None:
    """The worked position of the solver's docstring: leading KS fetches the ten (20 for
    seats 0+2), leading AS lets the ten live (10)."""
    out = json.loads(ok("solve", *POSITION, "--json"))
    assert out["value"] == 20 and out["exact"] and out["to_move"] == 0
    assert out["moves"] == [{"card": "KS", "value": 20}, {"card": "AS", "value": 10}]
    assert out["line"][0] == "KS" and len(out["line"]) == 8
    assert out["side_seats"] == [0, 2] and out["points_left"] == 50
    assert {"nodes", "seconds"} <= set(out)


def test_position_text_and_side() -> None:
    text = ok("solve", *POSITION)
    assert "value: 20 for seats 0+2" in text and "optimal line:" in text
    assert "KS    20  best" in text and "trick  2" in text
    other = json.loads(ok("solve", *POSITION, "--side", "1", "--json"))
    assert other["value"] == 50 - 20 and other["side_seats"] == [1, 3]


def test_mid_trick_three_hand() -> None:
    out = json.loads(
        ok("solve", "--rules", "three-hand", "--trump", "H", "--leader", "1",
           "--hands", "AS KS; KH; 9H QS", "--trick", "9S", "--json")
    )  # fmt: skip
    # seat 2 must follow with QS; seat 0 then wins the spade trick (KS or AS: 10 points)
    # and loses the last to seat 1's KH trump (AS KH 9H and the bonus go to seat 1)
    assert out["to_move"] == 2 and out["value"] == 10
    assert out["moves"] == [{"card": "QS", "value": 10}]


def test_seeded_hand_json_and_text() -> None:
    out = json.loads(ok("solve", "--seed", "0", "--hand", "5", "--json"))
    for key in ("value", "moves", "line", "bid", "meld", "dd_made", "actual_points"):
        assert key in out
    assert out["side_seats"] == sorted({out["bidder"], (out["bidder"] + 2) % 4})
    made = out["meld"] + out["value"] >= out["bid"] and out["value"] > 0
    assert out["dd_made"] == made
    assert 0 <= out["actual_points"] <= out["points_left"] == 250
    text = ok("solve", "--seed", "0", "--hand", "5")
    assert "double dummy:" in text and "the bots took" in text


def test_positions_file(tmp_path: Path) -> None:
    f = tmp_path / "positions.jsonl"
    lines = [
        {"trump": "S", "leader": 0, "hands": "AS KS; 10S QS; JS 9S; AH 9H"},
        {"trump": "S", "leader": 0, "hands": ["AS KS", "10S QS", "JS 9S", "AH 9H"], "side": 1},
        {"rules": "two-hand", "trump": "H", "leader": 0, "hands": "AS 9S; 10S KH"},
    ]
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    out = [json.loads(x) for x in ok("solve", "--positions", str(f)).splitlines()]
    assert [o["value"] for o in out] == [20, 30, 21]
    assert [o["line"] for o in out][2][:2] == ["AS", "10S"]
    f.write_text(json.dumps(lines[0]) + "\n" + '{"trump": "S"}\n', encoding="utf-8")
    assert_user_error(run("solve", "--positions", str(f)), "line 2", "missing leader, hands")


def test_time_limit_reports_bounds_or_the_value() -> None:
    out = json.loads(ok("solve", "--seed", "0", "--hand", "1", "--time-limit", "0.001", "--json"))
    assert out["lower"] <= out["upper"]
    if not out["exact"]:
        assert out["line"] == []


def test_bad_positions_are_one_line_errors() -> None:
    cases = [
        (["--hands", "AS KS; 10S QS; JS 9S"], "4 seats"),
        (["--hands", "AS KS; 10S QS; JS 9S; AH"], "equal sizes"),
        (["--hands", "AS AS; AS QS; JS 9S; AH 9H"], "AS appears 3 times"),
        (["--hands", "KS; KS QS; JS 9S; AH 9H", "--trick", "KS"], "KS appears 3 times"),
        (["--hands", "KS; 10S; JS 9S; AH 9H", "--trick", "AS QH"], "seat 1 may not play QH"),
        (["--hands", "AS KS; 10S QS; JS 9S; AH 9H", "--side", "5"], "side must be a seat"),
    ]
    for extra, needle in cases:
        assert_user_error(run("solve", "--trump", "S", "--leader", "0", *extra), needle)
    assert_user_error(run("solve", "--trump", "X", "--leader", "0", "--hands", "AS;KS;QS;JS"))
    assert_user_error(run("solve", "--leader", "0", "--hands", "AS; KS; QS; JS"), "--trump")
    assert_user_error(run("solve"), "give a position")
    assert_user_error(run("solve", *POSITION, "--seed", "1", "--hand", "2"), "give a position")
    assert_user_error(run("solve", "--seed", "1"), "--seed and --hand go together")
    assert_user_error(run("solve", *POSITION, "--time-limit", "0"))


def test_help_has_an_example() -> None:
    out = ok("solve", "--help")
    assert "Example" in out and "--positions" in out
