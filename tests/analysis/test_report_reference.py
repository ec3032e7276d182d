"""Every report question gives the numbers the whole-column implementation gave, to the last
digit, on seeded runs of several parts (the stored tables of ``tests.reports_reference``): the
questions read runs part by part, and nothing they print may move. New columns may follow the
stored ones."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from tests.reports_reference import CASES, REFERENCE, make_run, tables


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("reference-runs")
    return {case: make_run(case, folder) for case in CASES}


@pytest.mark.parametrize("case", list(CASES))
def test_every_table_equals_the_stored_one(runs: dict[str, Path], case: str) -> None:
    stored = {p.stem: p for p in sorted((REFERENCE / case).glob("*.csv"))}
    got = tables(runs[case])
    assert set(got) == set(stored), case
    for name, path in stored.items():
        want = path.read_text(encoding="utf-8")
        columns = list(pd.read_csv(io.StringIO(want), nrows=0).columns)
        table = got[name]
        assert list(table.columns[: len(columns)]) == columns, (case, name)
        text = table[columns].to_csv(index=False)
        assert text == want, f"{case}/{name}.csv differs from the stored table"
