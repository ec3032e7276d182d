"""Kernels that borrow their arrays (``jit(borrows=True)``): compiled without numba's reference
counting, loud when something under them allocates unannounced (compiled fresh), and leak-free
when something announced (``allocates=True``) does and keeps its arrays to itself.

numba's allocation counters are switched on for this module (``memsys_enable_stats``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core.runtime import _nrt_python, rtsys

from pinochle_sim.core.jit import jit
from pinochle_sim.policies.registry import parse_policy_spec
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array


@jit
def _total(a: np.ndarray, lo: int, hi: int) -> int:
    s = 0
    for i in range(lo, hi):
        s += a[i]
    return s


@jit(borrows=True)
def _borrowing_sum(a: np.ndarray) -> int:
    # slices and calls with arrays, as the hand kernels make them
    half = a.shape[0] // 2
    return _total(a[:half], 0, half) + _total(a, half, a.shape[0])


# Two functions, not one wrapped twice: numba's cache keys a function by its name and
# signature, not by whether it counts references.
@jit
def _unannounced(n: int) -> int:
    b = np.empty(n, dtype=np.int64)
    for i in range(n):
        b[i] = i * i
    return b.sum()


@jit(allocates=True)
def _announced(n: int) -> int:
    b = np.empty(n, dtype=np.int64)
    for i in range(n):
        b[i] = i * i
    return b.sum()


@jit(borrows=True)
def _calls_unannounced(n: int) -> int:
    return _unannounced(n)


@jit(borrows=True)
def _calls_announced(n: int) -> int:
    return _announced(n)


def _allocations() -> tuple[int, int]:
    _nrt_python.memsys_enable_stats()
    stats = rtsys.get_allocation_stats()
    return stats.alloc, stats.free


def test_a_borrowing_kernel_reads_its_arrays() -> None:
    a = np.arange(10, dtype=np.int64)
    assert _borrowing_sum(a) == 45


def test_an_allocation_under_a_borrowing_kernel_must_be_announced() -> None:
    # (_unannounced is never called on its own here, so no cached copy compiled with counting
    # can stand in for it)
    with pytest.raises(numba.core.errors.TypingError, match="empty"):
        _calls_unannounced(5)


def test_an_announced_allocation_is_freed() -> None:
    assert _calls_announced(5) == 0 + 1 + 4 + 9 + 16
    before = _allocations()
    for n in range(1, 50):
        assert _calls_announced(n) == sum(i * i for i in range(n))
    alloc, free = _allocations()
    assert alloc - before[0] == 49  # one array a call...
    assert free - before[1] == 49  # ...and every one of them freed


def test_borrows_and_allocates_exclude_each_other() -> None:
    with pytest.raises(ValueError, match="either borrows or allocates"):
        jit(borrows=True, allocates=True)


@pytest.mark.parametrize(
    "rules, spec",
    [
        ("partnership", "default"),
        ("partnership", "play=pimc,play.worlds=2"),
        ("three-hand", "play=counting"),
        ("two-hand", "default"),
        ("two-hand", "play=solver"),
    ],
)
def test_a_run_frees_every_array_it_allocates(rules: str, spec: str) -> None:
    """The hand kernels borrow; whatever allocates below them (pimc's world lists, the solver
    policy's table) frees what it allocates, and none returns an array to a borrowing caller
    (which would never free it), so a run leaves numba's allocation count balanced."""
    inputs = engine_inputs(rules, parse_policy_spec(spec)[1])
    play_hands_array(inputs, 7, 0, 8)  # compile (or load) first
    out = np.empty((inputs.layout.ncol, 40), dtype=np.int64)
    before = _allocations()
    play_hands_array(inputs, 7, 100, 40, out=out, chunk=8)
    alloc, free = _allocations()
    assert alloc - before[0] == free - before[1]
    assert alloc > before[0]  # the chunk kernels' own scratch arrays were counted
