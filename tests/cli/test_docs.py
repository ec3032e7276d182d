"""``rules`` at the command line prints each preset's meld table as docs/rules.md gives it.

The documents themselves (generated documents current, index links, the TOML keys and meld
tables of docs/rules.md against the code) are tested in tests/test_docs.py, whose readers of
docs/rules.md are imported here."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pinochle_sim.cli.commands import main
from tests.catalog import ALL_PRESETS
from tests.test_docs import doc_meld_tables, doc_section, tables


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_rules_command_prints_the_preset_meld_table_of_the_doc(preset: str) -> None:
    out = CliRunner().invoke(main, ["rules", preset]).output
    assert ".txt" not in out  # no seed file names a user cannot open
    letter = dict(tables(doc_section("### All four tables"))[1])  # the preset -> table list
    assert f"meld table {letter[f'`{preset}`']} (points" in out
    body = out.split("\nmeld table ", 1)[1].splitlines()[1:]
    printed = {line[2:26].strip(): int(line.split()[-1]) for line in body if line[:2] == "  "}
    assert printed == doc_meld_tables()[letter[f"`{preset}`"]]
