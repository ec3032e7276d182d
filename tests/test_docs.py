"""The generated documents (docs/policies.md, docs/records.md) match the registries they are
generated from, and every document the index lists exists. Rewrite the generated ones with
``python -m tests.test_docs --write``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pinochle_sim.policies.registry import REGISTRY, policies_markdown
from pinochle_sim.rules import PRESETS
from pinochle_sim.runs.records import fields_for, records_markdown
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


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_docs --write")
    for name, make in GENERATED.items():
        (DOCS / name).write_text(make(), encoding="utf-8")
        print(f"wrote docs/{name}", file=sys.stderr)
