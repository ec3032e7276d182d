"""User-facing text states targets as targets: no help text, bench line or message in the
package's source names an issue number or a date (dated figures live in docs/speed.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pinochle_sim.cli.commands import main

DATED = re.compile(
    r"[Ii]ssue\s*#?\d+|(?:^|[\s(])#\d{1,4}\b|\b20\d\d-\d\d(-\d\d)?\b|\b(19|20)\d\d\s+session"
)
PACKAGE = Path(__file__).resolve().parents[2] / "pinochle_sim"


@pytest.mark.parametrize("name", sorted(main.commands))
def test_no_help_text_names_an_issue_or_a_date(name):
    text = CliRunner().invoke(main, [name, "--help"]).output
    assert not DATED.search(text), DATED.search(text)


def test_no_source_text_names_an_issue_or_a_date():
    """Every string and comment of the package (help texts, bench lines, messages, docstrings)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if DATED.search(line):
                found.append(f"{path.relative_to(PACKAGE)}:{i}: {line.strip()}")
    assert not found, found


def test_the_pattern_finds_what_it_should():
    for bad in ("see issue 35", "issue #12", "measured 2026-12-05", "(#123)"):
        assert DATED.search(bad), bad
    for good in ("P(meld >= 1500)", "1e6 hands", "part-00012.parquet", "bid 250"):
        assert not DATED.search(good), good
