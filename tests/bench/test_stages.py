"""The benchmark's stage section: batch sizing, the bounded buffer, the order of the
lines, the compile-time report. Speeds themselves are never asserted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from pinochle_sim.bench import stages
from pinochle_sim.core import jit
from pinochle_sim.runs.compile import warmup


def test_batches_are_sized_from_a_probe_and_bounded_by_the_buffer():
    sizes = []

    def fn(m: int) -> None:  # 1 microsecond a hand
        sizes.append(m)
        t = time.perf_counter()
        while time.perf_counter() - t < m * 1e-6:
            pass

    rate = stages._rate(fn, stages.Effort(max_hands=40_000, batch_s=0.02, repeat=2))
    # A 4096-hand probe (about 4 ms), then batches of about 20 ms: 20,000 hands, rounded down
    # to whole chunks of 4096 (16,384 or 20,480, depending on the probe's timing noise).
    assert sizes[0] == 4096
    assert len(sizes) == 3 and sizes[1] == sizes[2]
    assert sizes[1] % 4096 == 0 and 4096 <= sizes[1] <= 40_000
    assert 5e4 < rate <= 1.05e6  # never faster than the busy-wait allows
    sizes.clear()
    stages._rate(fn, stages.Effort(max_hands=5000, batch_s=1.0, repeat=1))
    assert max(sizes) <= 5000


def test_stage_lines_come_in_order_for_each_thread_count():
    stages.compile_times()
    effort = stages.Effort(max_hands=4096, batch_s=0.001, repeat=1)
    rows = list(stages.iter_stage_rates(effort, thread_counts=(1,)))
    assert [stage for stage, _, _ in rows] == list(stages.STAGES)
    assert all(k == 1 and rate > 0 for _, k, rate in rows)


def test_compile_report_says_what_the_first_call_did():
    stages.compile_times()  # compiles or loads every engine's kernel in this process
    times = {c.rules: c for c in stages.compile_times()}
    assert set(times) == {"partnership", "three-hand", "two-hand"}
    assert times["three-hand"].engine == times["partnership"].engine == "auction"
    # Called a second time in this process, every kernel is already compiled.
    assert all(c.state == "compiled" and c.seconds == 0.0 for c in times.values())
    line = stages.CompileTime("auction", "partnership", "cold", 12.34, None).line()
    assert "compiled (cold cache) in 12.34 s" in line
    line = stages.CompileTime("two-hand", "two-hand", "cached", 0.2, 25.0).line()
    assert "loaded from the compile cache in 0.20 s" in line and "25.0 s" in line


def test_a_buffer_too_big_for_memory_is_refused_before_any_work():
    with pytest.raises(ValueError, match="GB of memory"):
        stages.check_stage_memory(stages.Effort(max_hands=10**11))


def test_a_fresh_process_run_reports_what_it_compiled(monkeypatch):
    """The cold runs' compile seconds come from each run's own compile record (the file the
    bench names in ``PINOCHLE_SIM_COMPILE_RECORD``), not from this machine's record."""
    calls = []

    def fake_run(cmd, env, check, capture_output):
        calls.append(env)
        if "--out" in cmd and cmd[cmd.index("--out") + 1].endswith("run"):
            record = env["PINOCHLE_SIM_COMPILE_RECORD"]
            with open(record, "w", encoding="utf-8") as f:
                json.dump({"two-hand.play_chunk": 7.5}, f)

    monkeypatch.setattr(stages.subprocess, "run", fake_run)
    run = stages.end_to_end(5000, cold=True, rules="two-hand")
    assert run.compile_s == 7.5
    assert run.what == "run --hands 5e3 --rules two-hand, empty compile cache"
    assert run.line().endswith(" 7.5 s of it") and "NUMBA_CACHE_DIR" in calls[0]
    # A run whose record names another engine's kernel compiled nothing of its own.
    assert stages.end_to_end(5000, cold=True, rules="partnership").compile_s is None
    assert stages.EndToEnd("x", 1.0, None).line().endswith("1.00 s, nothing compiled")


def test_a_warm_fresh_process_run_compiles_nothing():
    run = stages.end_to_end(2000)
    assert run.compile_s is None and run.seconds > 0
    assert run.what == "run --hands 2e3 --rules partnership, warm compile cache"


def test_the_suite_keeps_its_own_compile_record():
    assert warmup.COMPILE_RECORD != jit.COMPILE_RECORD
    assert os.environ["PINOCHLE_SIM_COMPILE_RECORD"] == str(warmup.COMPILE_RECORD)


def test_stage_lines_carry_the_targets_of_issue_13():
    line = stages.stage_line("full hands, default policies", 2, 1_600_000)
    assert line.endswith("1,600,000 hands/s  (target >= 1,500,000: met)")
    line = stages.stage_line("full deals, two-hand", 2, 399_999)
    assert line.endswith("399,999 deals/s  (target >= 400,000: missed)")
    assert stages.stage_line("deal", 1, 9e6).endswith("9,000,000 hands/s")  # no target there


def test_end_to_end_lines_and_the_minimal_engine_ratio():
    run = stages.EndToEnd("run", 2.0, None, target_s=2.3)
    assert run.line().endswith("2.00 s, nothing compiled (target <= 2.3 s: met)")
    base = stages.EndToEnd("minimal", 1.6, None, reports_compile=False)
    assert base.line().endswith("1.60 s")
    assert (
        stages.versus(run, base, 1.6) == "  1.25x the minimal engine's time (target <= 1.6x: met)"
    )
    slow = stages.EndToEnd("run", 13.0, 9.0, target_s=12.0)
    assert slow.line().endswith("compiling 9.0 s of it (target <= 12 s: missed)")
    assert stages.versus(slow, base, 2.0).endswith(
        "8.12x the minimal engine's time (target <= 2x: missed)"
    )


def test_the_minimal_engine_runs_in_a_fresh_process(monkeypatch):
    run = stages.minimal_engine_run(3000)
    assert run.what == "minimal engine, run --hands 3e3, warm compile cache" and run.seconds > 0
    calls = []
    monkeypatch.setattr(stages.subprocess, "run", lambda cmd, **kw: calls.append((cmd, kw["env"])))
    cold = stages.minimal_engine_run(5000, cold=True)
    assert cold.what.endswith("empty compile cache") and not cold.reports_compile
    ((cmd, env),) = calls  # no warm-up run before a cold one
    assert (
        cmd[1:4] == ["-m", "pinochle_sim.bench.yardstick", "--hands"] and "NUMBA_CACHE_DIR" in env
    )


def test_the_report_line_names_the_target_of_its_size():
    """A sized target where the report targets name the size, the large runs' rate (hands a
    second) between them, and the memory target from 1e7 hands up."""
    line = stages.ReportTiming(1_000_000, 8.0, 380.0).line()
    assert "1e6-hand run: 8.0 s" in line and "(target <= 4 s: missed)" in line
    assert "memory" not in line
    line = stages.ReportTiming(10_000_000, 25.0, 370.0).line()
    rate = 100_000_000 / 360  # the strictest of the 3e7 and 1e8 targets
    assert f"(target >= {rate:,.0f} hands/s: met)" in line
    assert "(memory target <= 2,000 MB: met)" in line
    line = stages.ReportTiming(30_000_000, 130.0, 2100.0).line()
    assert "(target <= 120 s: missed)" in line and "2,000 MB: missed" in line


def test_the_measuring_snippet_prints_seconds_and_peak_memory():
    """The snippet bench times a command with (``report``'s line) runs it in a fresh
    interpreter and prints its seconds and its peak memory in KB (the largest of its process
    and the processes it started, as /usr/bin/time counts)."""
    done = subprocess.run(
        [sys.executable, "-c", stages._MEASURE, "rules"], capture_output=True, text=True, check=True
    )
    seconds, kb = done.stdout.split()[-2:]
    assert float(seconds) > 0 and int(kb) > 10_000
