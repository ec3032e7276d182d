"""Every report question gives the numbers the whole-column implementation gave, to the last
digit, on seeded runs of several parts (the stored tables of ``tests.reports_reference``): the
questions read runs part by part, and nothing they print may move. New columns may follow the
stored ones."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from pinochle_sim.analysis.reports.catalog import STUDIES
from pinochle_sim.analysis.reports.gather import answer
from pinochle_sim.analysis.reports.load import column_names, rules_of
from pinochle_sim.analysis.reports.report import write_report
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


@pytest.mark.parametrize("case", ["partnership", "partnership-games"])
def test_questions_shared_out_among_threads_give_the_same_tables(runs, case) -> None:
    """write_report shares the questions out among threads: each question still gathers slice
    after slice in order, so every table equals the one-thread table to the last digit."""
    path = runs[case]
    rules, present = rules_of(path), column_names(path)
    names = [n for n, st in STUDIES.items() if st.fits(rules, present)]
    one = answer(path, [STUDIES[n].ask(rules) for n in names], threads=1)
    two = answer(path, [STUDIES[n].ask(rules) for n in names], threads=2)
    for name, a, b in zip(names, one, two, strict=True):
        assert a.to_csv(index=False) == b.to_csv(index=False), name


@pytest.mark.parametrize("case", ["partnership", "partnership-games"])
def test_a_report_shared_out_among_worker_processes_writes_the_stored_tables(
    runs, case, tmp_path
) -> None:
    """write_report shares the studies out among worker processes where the system forks (each
    reads the run for its share's columns, then draws charts): every CSV it writes is the
    stored table, and so is every CSV of a report written in this process alone."""
    stored = {p.stem: p for p in sorted((REFERENCE / case).glob("*.csv"))}
    for threads in (2, 1):
        out = tmp_path / f"threads{threads}"
        write_report(runs[case], out, ("svg",), threads=threads)
        # self_check.csv holds the rows of the studies written (a small run leaves some out)
        written = {p.stem: p for p in out.glob("*.csv") if p.stem != "self_check"}
        assert len(written) >= 3 and set(written) <= set(stored), (case, threads)
        for name, path in written.items():
            want = stored[name].read_text(encoding="utf-8")
            columns = list(pd.read_csv(io.StringIO(want), nrows=0).columns)
            got = pd.read_csv(path)[columns].to_csv(index=False)
            assert got == want, f"{case}/{name}.csv differs from the stored table ({threads})"


def test_each_table_is_handed_on_once_as_soon_as_it_is_final(runs) -> None:
    """``ready`` gets every question's table once, the same table answer returns; the one-pass
    questions' tables come before any cluster-robust question's (whose second reading their
    charts are drawn during)."""
    path = runs["partnership"]
    rules, present = rules_of(path), column_names(path)
    names = [n for n, st in STUDIES.items() if st.fits(rules, present)]
    questions = [STUDIES[n].ask(rules) for n in names]
    seen: list[tuple[int, str]] = []
    got = answer(path, questions, threads=2, ready=lambda i, t: seen.append((i, t.to_csv())))
    assert sorted(i for i, _ in seen) == list(range(len(names)))
    assert all(text == got[i].to_csv() for i, text in seen)
    passes = [questions[i].passes for i, _ in seen]
    assert passes == sorted(passes) and passes[0] == 1 and passes[-1] == 2
