"""Kernels are compiled for jitted callers only (no CPython wrapper); Python still calls any of
them, through a twin compiled with the wrapper on first use. Entry points keep the wrapper."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

from pinochle_sim.core.cards import encode_hand, parse_card
from pinochle_sim.core.jit import KernelDispatcher, jit
from pinochle_sim.core.tricks import remove_card
from pinochle_sim.engines.auction import kernel as auction
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array


@jit
def _twice(x: int) -> int:
    return 2 * x


@jit
def _twice_plus_one(x: int) -> int:
    return _twice(x) + 1


def test_python_calls_a_kernel_through_its_twin() -> None:
    # one of two aces of spades leaves
    assert remove_card(encode_hand("AS AS KH"), parse_card("AS")) == encode_hand("AS KH")
    assert isinstance(remove_card, KernelDispatcher)
    twin = remove_card.python()
    assert isinstance(twin, CPUDispatcher) and not isinstance(twin, KernelDispatcher)
    assert twin.py_func.__qualname__ == "remove_card.python"  # its own cache entry
    assert remove_card.python() is twin


def test_a_kernel_compiled_for_a_jitted_caller_has_no_python_wrapper() -> None:
    _twice.compile((types.int64,))  # as a jitted caller makes it compile (or load) it
    assert _twice.overloads
    for c in _twice.overloads.values():
        assert c.library.get_pointer_to_function(c.fndesc.llvm_cpython_wrapper_name) == 0
    twin = _twice.python()
    assert twin(5) == 10
    for c in twin.overloads.values():
        assert c.library.get_pointer_to_function(c.fndesc.llvm_cpython_wrapper_name) != 0
    assert _twice_plus_one(20) == 41  # Python -> the twin of _twice_plus_one -> _twice


def test_the_first_python_calls_from_two_threads_share_one_twin() -> None:
    @jit
    def _square(x: int) -> int:
        return x * x

    with ThreadPoolExecutor(max_workers=4) as pool:
        values = list(pool.map(_square, range(16)))
    assert values == [i * i for i in range(16)]
    assert len(_square.python().overloads) == 1


def test_engine_entry_points_are_plain_dispatchers() -> None:
    inputs = engine_inputs("partnership")
    for kernel in (inputs.engine.play_chunk, inputs.engine.trace_one, inputs.engine.play_games):
        assert not isinstance(kernel, KernelDispatcher)
    out = play_hands_array(inputs, 3, 0, 4)
    assert out.shape == (inputs.layout.ncol, 4)
    assert isinstance(auction._play_hand, KernelDispatcher)
    assert np.all(out[0] == np.arange(4))  # the hand column: C_HAND comes first
