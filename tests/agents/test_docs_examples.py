"""docs/agents.md's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the [agents] extra is not installed")
pytest.importorskip("pettingzoo", reason="the [agents] extra is not installed")

DOC = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("i", range(3))
def test_each_python_example_runs(i, capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 3
    exec(compile(blocks[i], "docs/agents.md", "exec"), {})
