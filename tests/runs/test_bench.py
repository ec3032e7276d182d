"""The benchmark's stage section (issue 13): batch sizing, the bounded buffer, the order of the
lines, the compile-time report. Speeds themselves are never asserted here."""

from __future__ import annotations

import time

import pytest

from pinochle_sim.runs import bench


def test_batches_are_sized_from_a_probe_and_bounded_by_the_buffer():
    sizes = []

    def fn(m: int) -> None:  # 1 microsecond a hand
        sizes.append(m)
        t = time.perf_counter()
        while time.perf_counter() - t < m * 1e-6:
            pass

    rate = bench._rate(fn, bench.Effort(max_hands=40_000, batch_s=0.02, repeat=2))
    # A 4096-hand probe (about 4 ms), then batches of about 20 ms: 20,000 hands, rounded down
    # to whole chunks of 4096 (16,384 or 20,480, depending on the probe's timing noise).
    assert sizes[0] == 4096
    assert len(sizes) == 3 and sizes[1] == sizes[2]
    assert sizes[1] % 4096 == 0 and 4096 <= sizes[1] <= 40_000
    assert 5e4 < rate <= 1.05e6  # never faster than the busy-wait allows
    sizes.clear()
    bench._rate(fn, bench.Effort(max_hands=5000, batch_s=1.0, repeat=1))
    assert max(sizes) <= 5000


def test_stage_lines_come_in_order_for_each_thread_count():
    bench.compile_times()
    effort = bench.Effort(max_hands=4096, batch_s=0.001, repeat=1)
    rows = list(bench.iter_stage_rates(effort, thread_counts=(1,)))
    assert [stage for stage, _, _ in rows] == list(bench.STAGES)
    assert all(k == 1 and rate > 0 for _, k, rate in rows)


def test_compile_report_says_what_the_first_call_did():
    bench.compile_times()  # compiles or loads every engine's kernel in this process
    times = {c.rules: c for c in bench.compile_times()}
    assert set(times) == {"partnership", "three-hand", "two-hand"}
    assert times["three-hand"].engine == times["partnership"].engine == "auction"
    # Called a second time in this process, every kernel is already compiled.
    assert all(c.state == "compiled" and c.seconds == 0.0 for c in times.values())
    line = bench.CompileTime("auction", "partnership", "cold", 12.34, None).line()
    assert "compiled (cold cache) in 12.34 s" in line
    line = bench.CompileTime("two-hand", "two-hand", "cached", 0.2, 25.0).line()
    assert "loaded from the compile cache in 0.20 s" in line and "25.0 s" in line


def test_a_buffer_too_big_for_memory_is_refused_before_any_work():
    with pytest.raises(ValueError, match="GB of memory"):
        bench.check_stage_memory(bench.Effort(max_hands=10**11))
