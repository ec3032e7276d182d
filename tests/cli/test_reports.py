"""``report`` at the command line: a small partnership run, a two-hand run, a games run's win
probability, and a study that does not apply.

The questions against hand-computed answers, the intervals and the charts are tested in
tests/analysis/test_reports.py, whose runs (module-scoped fixtures: this module makes its own)
are imported here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from pinochle_sim.analysis.reports import STUDIES, write_report
from pinochle_sim.cli.commands import main
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.runner import run
from tests.analysis.test_reports import TWO_HAND_STUDIES

# Fixtures, imported by name for pytest (module-scoped: this module gets its own instance);
# `name as name` marks a re-export, so ruff keeps the import and the parameters using it.
from tests.analysis.test_reports import games_run as games_run
from tests.analysis.test_reports import two_hand_run as two_hand_run


def test_report_cli_on_small_run(tmp_path):
    out = tmp_path / "run"
    run(3000, seed=5, out=str(out))
    r = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    rep = tmp_path / "rep"
    md = (rep / "report.md").read_text()
    assert "3,000" in md and "seed* 5" in md and "Final score margin" not in md
    assert "Who wins from here" not in md  # not a games run
    names = pd.read_parquet(out).columns.tolist()
    for name in (n for n, st in STUDIES.items() if st.fits(get_preset("partnership"), names)):
        assert (rep / f"{name}.png").exists() and (rep / f"{name}.svg").exists()
        assert (rep / f"{name}.csv").exists()
        assert "![" in md and f"({name}.png)" in md
    only = CliRunner().invoke(
        main,
        ["report", str(out), "--out", str(tmp_path / "o"), "--only", "go_set", "--format", "png"],
    )
    assert only.exit_code == 0 and sorted(p.name for p in (tmp_path / "o").iterdir()) == [
        "go_set.csv",
        "go_set.png",
        "report.md",
    ]
    bad = CliRunner().invoke(main, ["report", str(out), "--only", "nope"])
    assert bad.exit_code != 0 and "unknown study" in bad.output
    missing = CliRunner().invoke(main, ["report", str(tmp_path / "none")])
    assert missing.exit_code != 0 and "Traceback" not in missing.output


def test_two_hand_report_end_to_end(two_hand_run, tmp_path):
    out, _ = two_hand_run
    r = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    rep = tmp_path / "rep"
    md = (rep / "report.md").read_text()
    rules = get_preset("two-hand")
    names = pd.read_parquet(out).columns.tolist()
    for name, study in STUDIES.items():
        present = (rep / f"{name}.png").exists()
        assert present == study.fits(rules, names), name
        assert (f"## {study.title}" in md) == present
    for name in TWO_HAND_STUDIES:
        assert (rep / f"{name}.svg").exists() and (rep / f"{name}.csv").exists()
    assert "go set" not in md.lower() and "The auction" not in md
    with pytest.raises(ValueError, match="does not apply"):
        write_report(out, tmp_path / "rep2", ("png",), ["go_set"])


def test_win_probability_report(games_run, tmp_path):
    out, _ = games_run
    r = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    rep = tmp_path / "rep"
    md = (rep / "report.md").read_text()
    assert "## Who wins from here" in md and "(win_probability.png)" in md
    assert "simulated Pinochle games say" in md and "run --games 300" in md
    assert "first dealer's side wins" in md
    for ext in ("png", "svg", "csv"):
        assert (rep / f"win_probability.{ext}").exists()
    table = pd.read_csv(rep / "win_probability.csv")
    assert np.isneginf(table["own_lo"]).any()  # the bin below 0 survives the CSV
    assert "## Go-set probability" in md  # the per-deal studies apply to a games run too


def test_win_probability_does_not_apply_elsewhere(tmp_path):
    out = tmp_path / "hands"
    run(1500, seed=8, out=str(out))
    r = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0 and "Who wins" not in (tmp_path / "rep" / "report.md").read_text()
    only = CliRunner().invoke(
        main, ["report", str(out), "--out", str(tmp_path / "o"), "--only", "win_probability"]
    )
    assert only.exit_code != 0 and "Traceback" not in only.output
    assert "does not apply" in only.output and "--games" in only.output
    study = STUDIES["win_probability"]
    assert not study.applies(get_preset("three-hand"))
    assert study.applies(get_preset("two-hand")) and study.applies(get_preset("joedog"))


def test_ctrl_c_during_a_report_leaves_no_report_md_and_says_so(tmp_path, monkeypatch):
    """A report interrupted halfway is one line naming its folder, and the folder holds no
    report.md: neither this report's nor an earlier one's, which would pass for a whole report
    beside this one's half-written tables."""
    import pinochle_sim.analysis.reports.report as report_module

    run = tmp_path / "r"
    assert CliRunner().invoke(main, ["run", "--hands", "1000", "--out", str(run)]).exit_code == 0
    out = tmp_path / "rep"
    first = CliRunner().invoke(main, ["report", str(run), "--out", str(out), "--format", "png"])
    assert first.exit_code == 0 and (out / "report.md").exists(), first.output

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report_module._Workers, "answer", interrupted)
    r = CliRunner().invoke(main, ["report", str(run), "--out", str(out), "--format", "png"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1] == (
        f"Error: interrupted: the report in {str(out)!r} is incomplete (it has no report.md); "
        "the same command writes it whole"
    )
    assert not (out / "report.md").exists()


def test_chart_workers_leave_ctrl_c_to_the_report() -> None:
    """The processes that draw a report's charts ignore Ctrl-C: the report's own process takes
    it, stops them and says one line (a worker that took it printed its traceback)."""
    import signal
    from pathlib import Path

    import pinochle_sim.analysis.reports.report as report_module

    charts = report_module._Workers({}, Path("."), ("png",), 2, None)
    try:
        if charts.pool is None:
            pytest.skip("no fork on this system: the charts are drawn in this process")
        got = charts.pool.apply(signal.getsignal, (signal.SIGINT,))
        assert got == signal.SIG_IGN
    finally:
        charts.close()


def test_a_pool_that_will_not_shut_down_is_killed_after_the_wait(monkeypatch) -> None:
    """A pool's own shutdown can hang after a worker died (its task thread blocked on a queue
    lock): closing gives it CLOSE_WAIT seconds, then kills the worker processes itself and
    returns, where waiting on the pool would hang the report's exit."""
    import multiprocessing.pool
    import threading
    import time
    from pathlib import Path

    import pinochle_sim.analysis.reports.report as report_module

    monkeypatch.setattr(report_module, "CLOSE_WAIT", 0.3)
    charts = report_module._Workers({}, Path("."), ("png",), 2, None)
    if charts.pool is None:
        pytest.skip("no fork on this system: the charts are drawn in this process")
    workers = list(charts.pool._pool)
    assert len(workers) == 2 and all(w.exitcode is None for w in workers)
    stuck = threading.Event()
    monkeypatch.setattr(charts.pool, "terminate", lambda: stuck.wait(30))
    began = time.perf_counter()
    try:
        charts.close()
        took = time.perf_counter() - began
        # killed: they end at once. The pool's own thread may reap a worker first, and then
        # sets its exit code a moment after (a join here can return before that), so wait for it
        deadline = time.perf_counter() + 5
        while any(w.exitcode is None for w in workers) and time.perf_counter() < deadline:
            time.sleep(0.01)
        codes = [w.exitcode for w in workers]
        assert 0.3 <= took < 3 and codes == [-9, -9], (took, codes)
    finally:  # the pool's own shutdown would now wait on the lock a killed worker held
        stuck.set()
        pool = charts.pool
        pool._terminate.cancel()
        pool._state = pool._worker_handler._state = multiprocessing.pool.TERMINATE  # no new ones
        time.sleep(0.3)
        for w in list(pool._pool):
            w.kill()
            w.join(5)


@pytest.mark.parametrize("threads", ["2", "1"])
def test_a_damaged_part_met_by_a_report_worker_is_one_line(tmp_path, threads):
    """A part file that cannot be read stops the report with one line naming it and the
    remedy, whether a worker process met it (two workers) or this process (one): no traceback,
    no report.md."""
    out = tmp_path / "run"
    run(3000, seed=6, out=str(out), part_size=1024)
    part = sorted(out.glob("part-*.parquet"))[1]
    part.write_bytes(part.read_bytes()[:2000])  # truncated: no Parquet footer
    rep = tmp_path / "rep"
    r = CliRunner().invoke(
        main, ["report", str(out), "--out", str(rep), "--format", "svg", "--threads", threads]
    )
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    last = r.output.strip().splitlines()[-1]
    assert last.startswith(f"Error: cannot read {str(part)!r}") and "--resume" in last, last
    assert not (rep / "report.md").exists()


def _killed(*args, **kwargs):
    import os

    os._exit(3)  # a worker killed outright (out of memory, say)


def _unreceivable(*args, **kwargs):
    from pinochle_sim.analysis.reports.selfcheck import SelfCheckError

    raise SelfCheckError("boom", "p")  # pickles, but its class takes two arguments


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (_killed, "a report worker process ended before its work was done"),
        # its text, as ours or as itself where pickling is extended (tblib, which Dask installs)
        (_unreceivable, "boom"),
    ],
)
def test_a_report_worker_that_dies_or_fails_oddly_is_an_error_not_a_wait(
    tmp_path, monkeypatch, fault, message
):
    """A multiprocessing pool says nothing of a worker that is gone, and an exception that does
    not unpickle kills its result thread: either would leave the report waiting forever. Both
    are a one-line error (where the report shares its work out among processes)."""
    import pinochle_sim.analysis.reports.report as report_module

    out = tmp_path / "run"
    run(1000, seed=7, out=str(out))
    monkeypatch.setattr(report_module, "answer", fault)
    workers = report_module._Workers({}, tmp_path, ("svg",), 2, None)
    forks = workers.pool is not None
    workers.close()
    if not forks:
        pytest.skip("no worker processes on this system: the report runs in one process")
    with pytest.raises(ValueError, match=message):
        write_report(out, tmp_path / "rep", ("svg",), threads=2)
    assert not (tmp_path / "rep" / "report.md").exists()


def test_ctrl_c_while_this_process_draws_a_chart_is_the_interrupt(tmp_path, monkeypatch):
    """With --threads 1 the charts are drawn in the report's own process: Ctrl-C there is the
    interrupt's one line (only a worker process turns what stops it into an error)."""
    import pinochle_sim.analysis.reports.report as report_module

    out = tmp_path / "run"
    run(1000, seed=8, out=str(out))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report_module, "save", interrupted)
    rep = tmp_path / "rep"
    r = CliRunner().invoke(main, ["report", str(out), "--out", str(rep), "--threads", "1"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1].startswith("Error: interrupted: the report in")
