"""Compiling before the clock starts: :func:`warm`, the one entry point of the compile machinery.

A cold numba compile of an engine's kernel takes tens of seconds, once per source version (then
the cache loads it in well under a second). Before a run starts its clock, :func:`warm` plays
one hand (one game, one trace) through the very code path the run uses, so that the compile
never counts in a rate or an ETA. It first works out, from the numba dispatcher behind the
engine descriptor's entry point, whether that call is already compiled in this process, cached
on disk, or cold; for a cold one it tells the caller's :class:`Notify` first, with an estimate
from :data:`COMPILE_RECORD` (the last cold compile of that kernel on this machine) or a
default.

Nothing here knows kernel names: the entry points are the descriptor's fields (``play_chunk``,
``trace_one``, ``play_games``) and their arguments are captured from the library's own call;
``dd`` warms the double-dummy columns' solver (:mod:`pinochle_sim.runs.simulate.dd`). A cold
compile runs beside the compile helper of :mod:`.helper` where a plan was recorded for it.
The decorators, the cache key and the cache-save lock are :mod:`pinochle_sim.core.jit`'s.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pinochle_sim.core import jit
from pinochle_sim.core.jit import KernelDispatcher
from pinochle_sim.engines import EngineInputs
from pinochle_sim.policies import PolicySet
from pinochle_sim.runs.compile import helper
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate import dd
from pinochle_sim.runs.simulate.games import play_games_array
from pinochle_sim.runs.simulate.hands import play_hands_array, trace_arrays

ENTRIES = ("play_chunk", "trace_one", "play_games")
"""The descriptor's kernel entry points (:class:`pinochle_sim.engines.Engine`)."""

WHAT = {"play_chunk": "hands", "trace_one": "hand traces", "play_games": "whole games"}

DD = "dd"
"""The entry of :func:`warm` for the double-dummy columns (the solver and its batch kernel)."""

DD_COMPILE_SECONDS = 90.0
"""About how long a cold compile of the solver and the dd kernels takes (2-core machine)."""

COMPILE_RECORD = Path(os.environ.get("PINOCHLE_SIM_COMPILE_RECORD") or jit.COMPILE_RECORD)
"""The compile record this process reads and writes: ``core.jit.COMPILE_RECORD`` unless
``PINOCHLE_SIM_COMPILE_RECORD`` names another file. The test suite keeps its own (its compiles
of single kernels into a cache that holds the rest would otherwise stand as this machine's cold
compile), and ``bench`` gives each of its fresh-process runs one, to read what that run
compiled."""

DEFAULT_COMPILE_SECONDS = {"play_chunk": 10.0, "trace_one": 10.0, "play_games": 10.0}
"""The estimate of a cold compile until this machine has compiled a kernel once (the 2-core
development machine's figure, rounded up; docs/speed.md has the measurements)."""


class _Captured(Exception):
    """Stops the library call once the kernel's arguments are known."""


def _one_call(inputs: EngineInputs, entry: str) -> Callable[[EngineInputs], Any]:
    """The library's own call of ``entry`` on one hand (one game), as the runs make it."""
    if entry == "play_chunk":
        ncol = inputs.layout.ncol
        return lambda i: play_hands_array(i, 0, 0, 1, out=np.empty((ncol, 1), dtype=np.int64))
    if entry == "trace_one":
        return lambda i: trace_arrays(i, 0, 0)
    if entry == "play_games":
        return lambda i: play_games_array(i, 0, 0, 1)
    raise ValueError(f"unknown kernel entry point {entry!r}; one of {', '.join(ENTRIES)}")


def kernel_args(inputs: EngineInputs, entry: str) -> tuple[Any, ...]:
    """The arguments the library passes to the engine's ``entry`` kernel for one hand."""
    seen: list[tuple[Any, ...]] = []

    def record(*args: Any) -> None:
        seen.append(args)
        raise _Captured

    engine = dataclasses.replace(inputs.engine, **{entry: record})
    with contextlib.suppress(_Captured):
        _one_call(inputs, entry)(dataclasses.replace(inputs, engine=engine))
    if not seen:  # pragma: no cover - every entry point calls its kernel
        raise RuntimeError(f"the {entry} call never reached its kernel")
    return seen[0]


def _python_kernel(kernel: Any) -> Any:
    return kernel.python() if isinstance(kernel, KernelDispatcher) else kernel


def plan_key(inputs: EngineInputs, entry: str, args: tuple[Any, ...] | None = None) -> str | None:
    """The compile helper's plan key for this call (:mod:`.helper`) with
    its kernel arguments ``args`` (:func:`kernel_args` when not given), None when the kernel is
    not a numba dispatcher."""
    kernel = _python_kernel(getattr(inputs.engine, entry))
    try:
        argtypes = helper.argtypes_of(kernel, kernel_args(inputs, entry) if args is None else args)
    except Exception:
        return None
    return helper.plan_key(inputs.engine.name, entry, argtypes)


def kernel_state(kernel: Any, args: tuple[Any, ...]) -> str:
    """``compiled`` (in this process), ``cached`` (on disk), ``cold`` or ``unknown`` for a call
    of ``kernel`` with ``args`` (``unknown``: not a numba dispatcher, or numba changed); for a
    kernel compiled for jitted callers only, of the twin that Python calls."""
    kernel = _python_kernel(kernel)
    try:
        argtypes = helper.argtypes_of(kernel, args)
        if argtypes in kernel.overloads:
            return "compiled"
        cache = kernel._cache
        key = cache._index_key(argtypes, kernel.targetctx.codegen())
        return "cached" if key in cache._cache_file._load_index() else "cold"
    except Exception:
        return "unknown"


def _records(path: Path | None = None) -> dict[str, float]:
    try:
        doc = json.loads((path or COMPILE_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: float(v) for k, v in doc.items() if isinstance(v, int | float)}


def last_compile(inputs: EngineInputs, entry: str, record: Path | None = None) -> float | None:
    """Seconds the last cold compile of ``entry`` of this engine took on this machine (None
    when none is on record), from :data:`COMPILE_RECORD` or the given ``record`` file."""
    return _records(record).get(f"{inputs.engine.name}.{entry}")


def _players_key(inputs: EngineInputs, entry: str) -> str:
    """``auction.play_chunk.greedy+pimc``: the kernel and the play policies it compiles (a
    search player's kernel takes several times a bot's to compile)."""
    plays = "+".join(sorted(inputs.bundle.names().get("play", [])))
    return f"{inputs.engine.name}.{entry}.{plays}"


def compile_estimate(inputs: EngineInputs, entry: str) -> float:
    """Seconds a cold compile of ``entry`` of this engine with these play policies should take
    on this machine: the last such compile, else the last of the entry, else a default."""
    records = _records()
    key = f"{inputs.engine.name}.{entry}"
    default = DEFAULT_COMPILE_SECONDS.get(entry, 30.0)
    return records.get(_players_key(inputs, entry), records.get(key, default))


def _remember(inputs: EngineInputs, entry: str, seconds: float) -> None:
    doc = _records() | {
        f"{inputs.engine.name}.{entry}": round(seconds, 1),
        _players_key(inputs, entry): round(seconds, 1),
    }
    tmp = COMPILE_RECORD.with_name(f".{COMPILE_RECORD.name}.tmp")
    try:
        tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(COMPILE_RECORD)
    except OSError:  # a read-only cache: the default estimate serves next time
        pass


def record_plan(inputs: EngineInputs, entry: str) -> tuple[str, dict[str, Any]]:
    """Compile ``entry`` for these inputs from a cold cache, recording its compile tree, and
    return the compile helper's plan for it with its key (:mod:`.helper`;
    ``make compile-plans`` calls this once per preset and entry point, each in a fresh process
    with an empty cache)."""
    args = kernel_args(inputs, entry)
    key = plan_key(inputs, entry, args)
    if key is None or kernel_state(getattr(inputs.engine, entry), args) != "cold":
        raise RuntimeError(f"{inputs.engine.name} {entry}: not a cold numba kernel here")
    nodes = helper.record_tree(lambda: _one_call(inputs, entry)(inputs))
    return key, helper.make_plan(nodes)


def _light(inputs: EngineInputs) -> EngineInputs:
    """The same policies at their default parameters: the same kernel (parameters are values
    in the policy array, not part of its type), so the hand that compiles or loads it is a
    quick one even where the run asks a search player for a thousand worlds a card."""
    if not inputs.policies.params:
        return inputs
    light = inputs.engine.inputs(inputs.rules, PolicySet(choices=inputs.policies.choices))
    return light if light.bundle == inputs.bundle else inputs


def state_of(inputs: EngineInputs, entry: str) -> str:
    """:func:`kernel_state` of the kernel behind ``entry`` (:data:`ENTRIES` or :data:`DD`)
    for these inputs."""
    if entry == DD:
        return kernel_state(*dd.kernel_call(inputs))
    return kernel_state(getattr(inputs.engine, entry), kernel_args(inputs, entry))


def warm(inputs: EngineInputs, entry: str, observer: Observer = QUIET) -> float:
    """Compile (or load from the cache) the kernel of ``entry`` (one of :data:`ENTRIES`, or
    :data:`DD`) for these inputs by running one hand through the library's own call; returns
    the seconds it took (0 when the kernel was already compiled in this process). A cold
    compile is announced to ``observer`` first, runs beside a compile helper where a plan was
    recorded for these arguments (:mod:`.helper`), and its duration is remembered for the next
    estimate."""
    _warn_once(observer)
    if entry == DD:
        return _warm_dd(inputs, observer)
    args = kernel_args(inputs, entry)
    state = kernel_state(getattr(inputs.engine, entry), args)
    if state == "compiled":
        return 0.0
    what = f"{inputs.engine.name} {WHAT[entry]}"
    if state == "cold":
        observer.compiling(what, compile_estimate(inputs, entry))
    key = plan_key(inputs, entry, args) if state == "cold" else None
    t0 = time.perf_counter()
    light = _light(inputs)
    with helper.helping(key) if key else contextlib.nullcontext():
        _one_call(light, entry)(light)
    seconds = time.perf_counter() - t0
    if state == "cold":
        _remember(inputs, entry, seconds)
    if state in ("cold", "unknown"):
        observer.compiled(what, seconds)
    return seconds


_WARNED: list[bool] = []


def _warn_once(observer: Observer) -> None:
    """The compile cache's warning (:data:`pinochle_sim.core.jit.CACHE_WARNING`), once per
    process: to ``observer``, or on stderr when nobody observes."""
    if jit.CACHE_WARNING and not _WARNED:
        _WARNED.append(True)
        text = f"pinochle-sim: warning: {jit.CACHE_WARNING}"
        if observer is QUIET:
            print(text, file=sys.stderr)
        else:
            observer.notice(text)


def _warm_dd(inputs: EngineInputs, observer: Observer) -> float:
    """Compile (or load) the solver and the dd kernels for these inputs on a deal whose solve
    is immediate (:func:`pinochle_sim.runs.simulate.dd.warm_record`)."""
    rec = dd.warm_record(inputs)
    state = state_of(inputs, DD)
    if state == "compiled":
        return 0.0
    what = f"the double-dummy solver for {inputs.engine.name} hands"
    if state == "cold":
        observer.compiling(what, DD_COMPILE_SECONDS)
    t0 = time.perf_counter()
    dd.dd_block(inputs, 0, 0, rec)
    seconds = time.perf_counter() - t0
    if state in ("cold", "unknown"):
        observer.compiled(what, seconds)
    return seconds
