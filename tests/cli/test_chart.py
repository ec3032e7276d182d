"""The ``chart`` command: files written, bad input as one line (the numbers are tested in
tests/analysis/test_overlay.py)."""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from pinochle_sim.cli.commands import main


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    base = tmp_path_factory.mktemp("chart")
    out = []
    for play in ("greedy", "counting"):
        path = str(base / play)
        r = CliRunner().invoke(main, ["run", "--hands", "3000", "--play-policy", play,
                                      "--out", path])  # fmt: skip
        assert r.exit_code == 0, r.output
        out.append(path)
    return out


def test_chart_go_set_over_two_runs(two_runs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["chart", "go-set", *two_runs, "--label", "greedy",
                                  "--label", "counting"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "go-set-by-bid.png" in r.output and (tmp_path / "go-set-by-bid.png").exists()
    table = pd.read_csv(tmp_path / "go-set-by-bid.csv")
    assert list(table["label"].unique()) == ["greedy", "counting"]
    assert (table["n"] >= 200).all() or table.groupby("run").size().eq(1).any()
    again = CliRunner().invoke(main, ["chart", "go-set", *two_runs, "--label", "a",
                                      "--label", "b"])  # fmt: skip
    assert again.exit_code == 1 and "exists" in again.output
    r = CliRunner().invoke(main, ["chart", "made-rate", *two_runs, "--by", "needed", "--out",
                                  "blog/m.svg", "--format", "svg,pdf"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert {p.name for p in (tmp_path / "blog").iterdir()} == {"m.svg", "m.pdf", "m.csv"}


@pytest.mark.parametrize("args,match", [
    (["go-set", "RUN", "--label", "one", "--label", "two"], "one label per run"),
    (["go-set", "RUN", "--by", "trump-length"], "broken down by"),
    (["go-set", "RUN", "--out", "x.gif"], "cannot tell a chart format"),
    (["go-set", "RUN", "--format", "jpg"], "unknown chart format"),
    (["go-set", "RUN", "--min-n", "0"], "0 is not in the range"),
    (["go-set", "RUN", "--min-n", "100000"], "fewer than one point"),
    (["go-set", "no/such/run"], "does not exist"),
    (["who-wins", "RUN"], "unknown question 'who-wins'"),
    (["go-set", "RUN", "--out", "memory://x/y.png"], "local file or folder"),
])  # fmt: skip
def test_bad_input_is_one_line(two_runs, tmp_path, monkeypatch, args, match):
    monkeypatch.chdir(tmp_path)
    args = [two_runs[0] if a == "RUN" else a for a in args]
    r = CliRunner().invoke(main, ["chart", *args])
    assert r.exit_code != 0
    assert match in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1, r.output
