"""The task layer under every backend (runs/backend.py), without Dask: a task's result depends
only on its picklable item, whichever process runs it, and cutting work into tasks never
changes it."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

from pinochle_sim.policies import PolicySet
from pinochle_sim.runs.backends.tasks import (
    MIN_TASK_HANDS,
    TASK_HANDS,
    HandsTask,
    InputsSpec,
    hands_array,
    play_task,
    task_size,
)
from pinochle_sim.runs.simulate.hands import deal_constraints, engine_inputs, play_hands_array


class InProcess:
    """A backend that runs every task here, after a pickle round trip of the task (as a
    worker receives it)."""

    def __init__(self, slots: int = 2) -> None:
        self.slots = slots
        self.items: list[Any] = []

    def task_size(self, count: int) -> int:
        return task_size(self, count)

    def map(self, fn: Any, items: Any, done: Any = None, then: Any = None) -> list[Any]:
        out = []
        for i, item in enumerate(items):
            self.items.append(item)
            out.append(fn(pickle.loads(pickle.dumps(item))))
            if done:
                done(i, out[-1])
        return out


def test_task_sizes_give_two_tasks_per_thread_within_bounds():
    two = InProcess(slots=2)
    assert (MIN_TASK_HANDS, TASK_HANDS) == (8192, 32768)
    assert task_size(two, 1000) == 8192  # 250 per task would be mostly overhead
    assert task_size(two, 100_000) == 25_000  # 100,000 / (2 x 2)
    assert task_size(two, 10**6) == 32768
    assert task_size(InProcess(slots=16), 10**6) == 31_250


def test_hands_in_tasks_equal_one_call_here():
    inputs = engine_inputs("three-hand", PolicySet(play="counting"))
    fx = deal_constraints(inputs, {1: "AS AS 10S"})
    here = play_hands_array(inputs, 7, 100, 2500, dealer=2, fx=fx)
    pool = InProcess()
    there = hands_array(pool, inputs, 7, 100, 2500, dealer=2, fx=fx, task_hands=1000)
    assert [(t.start, t.count) for t in pool.items] == [(100, 1000), (1100, 1000), (2100, 500)]
    assert np.array_equal(here, there)


def test_a_spec_rebuilds_the_inputs_with_their_seat_policies():
    inputs = engine_inputs("partnership")
    pp = inputs.pp.copy()
    pp[1] = engine_inputs("partnership", PolicySet(play="counting")).pp[1]  # seat 1 differs
    spec = pickle.loads(pickle.dumps(InputsSpec(inputs.rules, inputs.policies, pp)))
    built = spec.build()
    assert np.array_equal(built.pp, pp) and built.bundle != inputs.bundle
    assert spec.build() is built  # once per process
    task = HandsTask(spec, 3, 0, 300)
    assert np.array_equal(play_task(task), play_hands_array(built, 3, 0, 300))


def test_ctrl_c_stops_waiting_for_work_at_once_and_stops_the_solver():
    """Work handed to :func:`interruptible` runs off the main thread, so Ctrl-C (here
    ``interrupt_main`` from a timer) reaches the waiting main thread within a quarter of a
    second even while the work itself cannot stop (a kernel in the middle of its chunk); the
    solver's batches are told to stop, and the next call runs on a fresh work thread."""
    import _thread
    import signal
    import threading
    import time

    import pytest

    from pinochle_sim.runs.simulate import pool
    from pinochle_sim.solver import batch

    release = threading.Event()
    stops = batch._stops[0]
    # interrupt_main does nothing where SIGINT is ignored (as a test process may have left it)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            pool.interruptible(release.wait, 30.0)  # a "kernel" that would run for 30 s
    finally:
        signal.signal(signal.SIGINT, before)
    assert time.monotonic() - t0 < 1.0
    assert batch._stops[0] == stops + 1
    release.set()
    assert pool.interruptible(lambda x: x + 1, 41) == 42  # on a fresh thread
    with pytest.raises(ValueError, match="bad"):
        pool.interruptible(_fails)


def _fails() -> None:
    raise ValueError("bad input")
