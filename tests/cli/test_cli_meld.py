"""The `meld` and `rules` commands (click CliRunner), and help text of every command."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from pinochle_sim import get_preset
from pinochle_sim.cli.commands import main
from pinochle_sim.rules import PRESETS, loads_ruleset

ISSUE_HAND = "AH 10H KH QH JH KH QH 9H 9H"
OVERRIDE = """
preset = "partnership"
name = "my-rules"
pass_cards = 3
save_rule = false

[meld]
base = "B"
dix = 20
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.exception is None
    return result.output


def assert_user_error(result: Result, *needles: str) -> str:
    """Non-zero exit, one "Error:" line naming the problem, no traceback."""
    out = result.output
    assert result.exit_code != 0, out
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out
    lines = out.strip().splitlines()
    errors = [line for line in lines if "Error" in line]
    assert len(errors) == 1, out
    assert lines[-1] == errors[0] and errors[0].startswith("Error:"), out
    for needle in needles:
        assert needle in errors[0], (needle, out)
    if result.exit_code == 1:  # a ClickException: the message is the whole output
        assert len(lines) == 1, out
    return errors[0]


# --------------------------------------------------------------------------- meld, text


def test_meld_text() -> None:
    out = ok("meld", ISSUE_HAND, "--trump", "H")
    assert "trump H: 250" in out
    assert "250" in out
    assert "dix" in out
    assert "AH 10H KH KH QH QH JH 9H 9H" in out  # the hand, sorted
    assert "<- best" not in out


def test_meld_cards_as_separate_arguments_and_loose_notation() -> None:
    out = ok("meld", *["ah", "th", "kh", "qh", "jh", "kh", "qh", "9♥", "9h"], "-t", "h")
    assert "trump H: 250" in out
    out = ok("meld", "AH,10H,KH,QH,JH,KH,QH,9H,9H", "--trump", "hearts")
    assert "trump H: 250" in out


def test_meld_rules_preset() -> None:
    assert "trump H: 210" in ok(
        "meld", ISSUE_HAND, "--trump", "H", "--rules", "partnership-classic"
    )
    assert "trump H: 21" in ok("meld", ISSUE_HAND, "--trump", "H", "--rules", "joedog")


def test_meld_trump_all_marks_best() -> None:
    out = ok("meld", ISSUE_HAND, "QS", "JD", "--trump", "all")
    for suit in "SHDC":
        assert f"trump {suit}:" in out
    best = [line for line in out.splitlines() if "<- best" in line]
    assert best == ["trump H: 290  <- best"]


def test_meld_trump_all_ties_all_marked() -> None:
    out = ok("meld", "QS JD", "--trump", "ALL")
    best = [line for line in out.splitlines() if "<- best" in line]
    assert len(best) == 4 and all(": 40" in line for line in best)


def test_meld_no_meld() -> None:
    out = ok("meld", "9S JH", "--trump", "D")
    assert "trump D: 0" in out


# --------------------------------------------------------------------------- meld, JSON


def _check_result_schema(r: dict) -> None:
    assert set(r) == {"trump", "total", "melds"}
    assert r["trump"] in "SHDC" and len(r["trump"]) == 1
    assert isinstance(r["total"], int)
    for m in r["melds"]:
        assert set(m) == {"name", "points", "cards"}
        assert isinstance(m["name"], str) and isinstance(m["points"], int)
        assert isinstance(m["cards"], list) and all(isinstance(c, str) for c in m["cards"])
    assert sum(m["points"] for m in r["melds"]) == r["total"]


def test_meld_json_schema() -> None:
    doc = json.loads(ok("meld", ISSUE_HAND, "--trump", "H", "--json"))
    assert set(doc) == {"rules", "hand", "results"}
    assert doc["rules"] == "partnership"
    assert doc["hand"] == ["AH", "10H", "KH", "KH", "QH", "QH", "JH", "9H", "9H"]
    assert len(doc["results"]) == 1
    (r,) = doc["results"]
    _check_result_schema(r)
    assert r["trump"] == "H" and r["total"] == 250
    assert sorted(m["name"] for m in r["melds"]) == ["dix", "dix", "run with trump marriage"]
    run = next(m for m in r["melds"] if m["name"].startswith("run"))
    assert run["points"] == 230
    assert sorted(run["cards"]) == sorted(["AH", "10H", "KH", "KH", "QH", "QH", "JH"])


def test_meld_json_trump_all() -> None:
    doc = json.loads(
        ok("meld", ISSUE_HAND, "QS", "JD", "-t", "all", "--json", "--rules", "partnership-classic")
    )
    assert {"rules", "hand", "results"} <= set(doc) <= {"rules", "hand", "results", "best"}
    assert doc["rules"] == "partnership-classic"
    assert [r["trump"] for r in doc["results"]] == list("SHDC")
    for r in doc["results"]:
        _check_result_schema(r)
    assert [r["total"] for r in doc["results"]] == [80, 250, 80, 80]
    if "best" in doc:
        assert doc["best"] == ["H"]


def test_meld_json_empty_meld() -> None:
    doc = json.loads(ok("meld", "9S", "-t", "H", "--json"))
    assert doc == {
        "rules": "partnership",
        "hand": ["9S"],
        "results": [{"trump": "H", "total": 0, "melds": []}],
    }


# --------------------------------------------------------------------------- meld, --rules FILE


def test_meld_rules_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "my.toml"
    path.write_text(OVERRIDE, encoding="utf-8")
    out = ok("meld", "9H 9H KS QS", "--trump", "H", "--rules", str(path))
    assert "trump H: 60" in out  # dix 20 each + marriage 20
    assert "my-rules" in out
    doc = json.loads(ok("meld", ISSUE_HAND, "-t", "H", "--rules", str(path), "--json"))
    assert doc["rules"] == "my-rules"
    assert doc["results"][0]["total"] == 150 + 40 + 2 * 20  # table B with dix 20


def test_meld_rules_toml_file_bad_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[meld]\nsparkle = 1\n", encoding="utf-8")
    assert_user_error(run("meld", "AS", "-t", "H", "--rules", str(path)), "meld.sparkle")


# --------------------------------------------------------------------------- meld, user errors


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["meld", "AH XX", "--trump", "H"], ["XX"]),
        (["meld", "AH", "1H", "--trump", "H"], ["1H"]),
        (["meld", "AZ", "--trump", "H"], ["AZ"]),
        (["meld", "AS AS AS", "--trump", "H"], ["AS"]),
        (["meld", "AS", "AS", "as", "--trump", "H"], ["AS"]),
        (["meld", "AS", "--trump", "X"], ["'X'"]),
        (["meld", "AS", "--trump", "spadez"], ["spadez"]),
        (["meld", "AS", "--trump", "H", "--rules", "no-such-rules"], ["no-such-rules"]),
        (["meld", "AS", "--trump", "H", "--rules", "missing-file.toml"], ["missing-file.toml"]),
    ],
)
def test_meld_user_errors(args: list[str], needles: list[str]) -> None:
    assert_user_error(run(*args), *needles)


def test_meld_missing_arguments() -> None:
    result = run("meld", "AS")  # no --trump
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "--trump" in result.output
    result = run("meld", "--trump", "H")  # no hand
    assert result.exit_code != 0 and "Traceback" not in result.output


# --------------------------------------------------------------------------- rules


def test_rules_lists_presets() -> None:
    out = ok("rules")
    lines = out.strip().splitlines()
    assert len(lines) == 6
    assert [line.split()[0] for line in lines[:5]] == list(PRESETS)
    # the last line names the short names the CLI accepts
    assert "classic = partnership-classic" in lines[5] and "2 = two-hand" in lines[5]
    assert set(PRESETS) == {
        "partnership",
        "partnership-classic",
        "joedog",
        "two-hand",
        "three-hand",
    }


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_show_one(name: str) -> None:
    out = ok("rules", name)
    assert out.startswith(f"{name}:")
    r = get_preset(name)
    assert f"table {r.meld.name}" in out
    assert str(r.total_trick_points) in out


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_toml_loads_back(name: str) -> None:
    text = ok("rules", name, "--toml")
    assert loads_ruleset(text) == get_preset(name)


def test_rules_joedog_toml_to_file_and_back(tmp_path: Path) -> None:
    path = tmp_path / "joedog.toml"
    path.write_text(ok("rules", "joedog", "--toml"), encoding="utf-8")
    assert ok("rules", str(path), "--toml") == path.read_text(encoding="utf-8")
    assert "trump H: 21" in ok("meld", ISSUE_HAND, "-t", "H", "--rules", str(path))


def test_rules_unknown_name() -> None:
    assert_user_error(run("rules", "bridge"), "bridge")
    assert_user_error(run("rules", "bridge", "--toml"), "bridge")


def test_rules_toml_needs_name() -> None:
    assert_user_error(run("rules", "--toml"), "--toml")


# --------------------------------------------------------------------------- help


def test_every_command_has_help_with_example() -> None:
    assert {"meld", "rules"} <= set(main.commands)
    for name in main.commands:
        for flag in ("--help", "-h"):
            result = run(name, flag)
            assert result.exit_code == 0, (name, result.output)
            assert "Example" in result.output, name


def test_group_help_and_version() -> None:
    out = ok("--help")
    assert "Example" in out
    for name in main.commands:
        assert name in out
    assert isinstance(main, click.Group)
    assert "0.1.0" in ok("--version")
