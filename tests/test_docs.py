"""The generated documents (docs/policies.md, docs/records.md) match the registries they are
generated from, and every document the index lists exists. Rewrite the generated ones with
``python -m tests.test_docs --write``. That the ``rules`` command prints the meld tables of
docs/rules.md is tested in tests/cli/test_docs.py."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

from pinochle_sim.policies.registry import REGISTRY, policies_markdown
from pinochle_sim.rules import PRESETS, MeldTable, Ruleset
from pinochle_sim.rules.ruleset import MELD_TABLES
from pinochle_sim.runs.store.schema import fields_for, records_markdown
from tests.catalog import ALL_PRESETS

DOCS = Path(__file__).resolve().parents[1] / "docs"
GENERATED = {"policies.md": policies_markdown, "records.md": records_markdown}


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_docs_are_current(name: str) -> None:
    text = (DOCS / name).read_text(encoding="utf-8")
    assert text == GENERATED[name](), f"docs/{name} is stale: python -m tests.test_docs --write"


def test_policies_doc_lists_every_policy_and_parameter() -> None:
    text = policies_markdown()
    for kind, policies in REGISTRY.items():
        for name, info in policies.items():
            assert f"### {kind}={name}" in text
            for p in info.params:
                assert f"`{kind}.{p}`" in text


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_records_doc_lists_every_column(preset: str) -> None:
    text = records_markdown()
    for name, _, _ in fields_for_all(preset):
        assert f"| `{name}` |" in text, (preset, name)


def fields_for_all(preset: str) -> list:
    return fields_for(PRESETS[preset]) + fields_for(PRESETS[preset], games=True)


def test_index_links_resolve() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)\)", index)
    assert {"rules.md", "architecture.md", "policies.md", "records.md"} <= set(links)
    for link in links:
        if not link.startswith("http"):
            assert (DOCS / link).exists(), link


RULES_DOC = (DOCS / "rules.md").read_text(encoding="utf-8")


def doc_section(title: str) -> str:
    """The text of docs/rules.md from heading ``title`` to the next heading of its level."""
    start = RULES_DOC.index(title)
    level = title.split(" ", 1)[0]
    end = RULES_DOC.find(f"\n{level} ", start + len(title))
    return RULES_DOC[start : end if end > 0 else None]


def tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table in ``text``: its body rows as lists of stripped cells."""
    found: list[list[str]] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            found.append(block)
            block = []
    return [[[c.strip() for c in r.strip("|").split("|")] for r in t[2:]] for t in found]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in ``text``."""
    return tables(text)[0]


def test_rules_doc_lists_every_toml_key_with_meaning_and_range() -> None:
    section = doc_section("## 9. Custom rulesets in TOML")
    top = table_rows(doc_section("### Top-level keys"))
    meld = table_rows(doc_section("### The `[meld]` table"))
    assert {r[0].strip("`") for r in top} == {"preset"} | {
        f.name for f in dataclasses.fields(Ruleset)
    }
    assert {r[0].strip("`") for r in meld} == {"base"} | {
        f.name for f in dataclasses.fields(MeldTable)
    }
    for row in top + meld:
        assert len(row) == 4 and all(row), row  # key, meaning, type, allowed values
    assert "sets no key" in section  # the empty-file rule


def doc_meld_tables() -> dict[str, dict[str, int]]:
    """docs/rules.md section 3 "All four tables": table letter -> meld name -> points."""
    rows = table_rows(doc_section("### All four tables"))
    out: dict[str, dict[str, int]] = {t: {} for t in "ABCD"}
    for name, _cards, _cls, *values in rows:
        for letter, v in zip("ABCD", values, strict=True):
            out[letter][name] = 0 if v.startswith("-") else int(v)
    return out


MELD_FIELDS = {
    "run": ("run", None),
    "run with extra king": ("run_extra_king", None),
    "run with extra queen": ("run_extra_queen", None),
    "run with trump marriage": ("run_trump_marriage", None),
    "double run": ("double_run", None),
    "trump marriage": ("trump_marriage", None),
    "marriage": ("marriage", None),
    "dix": ("dix", None),
    "pinochle": ("pinochle", None),
    "double pinochle": ("double_pinochle", None),
    **{f"{r} around": ("around", i) for i, r in enumerate(("aces", "kings", "queens", "jacks"))},
    **{f"eight {r}": ("eight", i) for i, r in enumerate(("aces", "kings", "queens", "jacks"))},
}


def test_rules_doc_meld_tables_are_the_code_tables() -> None:
    doc = doc_meld_tables()
    for letter, table in MELD_TABLES.items():
        assert set(doc[letter]) == set(MELD_FIELDS)
        for name, (key, i) in MELD_FIELDS.items():
            value = getattr(table, key) if i is None else getattr(table, key)[i]
            assert doc[letter][name] == value, (letter, name)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_docs --write")
    for name, make in GENERATED.items():
        (DOCS / name).write_text(make(), encoding="utf-8")
        print(f"wrote docs/{name}", file=sys.stderr)
