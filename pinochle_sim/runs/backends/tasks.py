"""Where the work runs, behind one interface (:class:`Backend`): this process's threads
(:class:`~.local.LocalBackend`, the default) or the workers of a Dask cluster
(:class:`~.cluster.DaskBackend`).

Work is cut into coarse *tasks*, each a module-level function applied to one small picklable
item, so that any worker process can run it: one part file of a run, one range of deals of a
duplicate match, one range of hands of the advisor. An item names the kernel inputs by
:class:`InputsSpec` (rules, policy set, per-seat policy array), which a worker turns back into
the same :class:`~pinochle_sim.engines.EngineInputs` the client built; every hand draws only
from its own random streams, so a task's result depends on nothing but its item, and the
records of a cluster run are those of a local run by construction.

A task function runs on whatever threads its backend gives it: all of this process's with the
local backend, one per task on a cluster worker (a worker runs as many tasks at once as it has
threads). This module imports no third-party scheduler: a backend is any object with the
methods of :class:`Backend`, and the library functions that accept ``backend=`` call nothing
else.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from pinochle_sim.engines import EngineInputs
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.observer import Observer
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array

TASK_HANDS = 1 << 15
"""The most hands per task on a cluster where the work is not cut into part files (compare,
sweep, advise): 32,768 hands are ~0.1 s of an idle core, well above the ~45 ms a task costs
beyond its work (docs/cluster.md)."""
MIN_TASK_HANDS = 1 << 13
"""The fewest hands per such task (below, the overhead would be most of a task's time)."""


def task_size(backend: Backend, count: int) -> int:
    """Hands per task for ``count`` hands spread over ``backend``'s workers: enough tasks for
    two per worker thread, each between :data:`MIN_TASK_HANDS` and :data:`TASK_HANDS` hands
    (the results never depend on it)."""
    per = -(-count // (2 * max(1, backend.slots)))
    return max(MIN_TASK_HANDS, min(TASK_HANDS, per))


@dataclass(frozen=True)
class InputsSpec:
    """What a worker needs to rebuild a client's kernel inputs (picklable: no kernels)."""

    rules: Ruleset
    policies: PolicySet
    pp: np.ndarray
    """The per-seat policy array (a duplicate match seats two policy sets)."""

    @classmethod
    def of(cls, inputs: EngineInputs) -> InputsSpec:
        return cls(inputs.rules, inputs.policies, inputs.pp)

    def build(self) -> EngineInputs:
        """The :class:`EngineInputs` (built once per process and spec)."""
        key = pickle.dumps((self.rules, self.policies, self.pp.tobytes(), self.pp.shape))
        got = _BUILT.get(key)
        if got is None:
            base = engine_inputs(self.rules, self.policies)
            got = dataclasses.replace(base, pp=np.ascontiguousarray(self.pp, dtype=np.int64))
            _BUILT[key] = got
        return got


_BUILT: dict[bytes, EngineInputs] = {}


class Backend(Protocol):
    """A pool that runs tasks: :class:`~.local.LocalBackend` or :class:`~.cluster.DaskBackend`."""

    in_process: bool
    """Whether tasks run in this process (a task may then report progress as it goes)."""

    @property
    def slots(self) -> int:
        """Tasks it runs at once now (its workers' threads: what the time estimate uses)."""

    def describe(self) -> str:
        """One line: where the work goes (this process, or scheduler, workers, dashboard)."""

    def task_size(self, count: int) -> int:
        """Hands per task for ``count`` hands of work that is not cut into part files (a
        match, the advisor): never changes a result."""

    def warm(self, specs: Sequence[InputsSpec], entry: str, observer: Observer) -> float:
        """Compile or load the kernel ``entry`` for every spec wherever tasks run; seconds."""

    def check_path(self, path: str) -> None:
        """Refuse (``ValueError``, one line) an output path some worker cannot write."""

    def map(
        self,
        fn: Callable[[Any], Any],
        items: Sequence[Any],
        done: Callable[[int, Any], None] | None = None,
        then: Callable[[Any], Any] | None = None,
    ) -> list[Any]:
        """``[then(fn(x)) for x in items]`` (``then`` None: ``fn(x)``), results in order;
        ``done(i, result)`` is called on this process as each item finishes, in the order they
        finish. ``then`` is a second step the backend may overlap with the next item's ``fn``
        (the local backend writes a part on a thread while it computes the next)."""


@dataclass(frozen=True)
class HandsTask:
    """Hands ``start .. start+count-1`` of one spec (see :func:`play_task`)."""

    spec: InputsSpec
    seed: int
    start: int
    count: int
    dealer: int | None = None
    fx: np.ndarray | None = None

    @property
    def units(self) -> int:
        return self.count


def play_task(task: HandsTask) -> np.ndarray:
    """One task's ``out[column, hand]``: the same call a local run makes."""
    return play_hands_array(
        task.spec.build(), task.seed, task.start, task.count, dealer=task.dealer, fx=task.fx
    )


def hands_array(
    backend: Backend,
    inputs: EngineInputs,
    seed: int,
    start: int,
    count: int,
    dealer: int | None = None,
    fx: np.ndarray | None = None,
    task_hands: int | None = None,
    done: Callable[[int, Any], None] | None = None,
) -> np.ndarray:
    """:func:`~pinochle_sim.runs.simulate.hands.play_hands_array` as tasks of ``backend`` of
    ``task_hands`` hands each (None: :meth:`Backend.task_size`); the same array wherever they
    run. ``done(i, out)`` hears of each task as it finishes."""
    size = task_hands or backend.task_size(count)
    spec = InputsSpec.of(inputs)
    tasks = [
        HandsTask(spec, seed, lo, min(size, start + count - lo), dealer, fx)
        for lo in range(start, start + count, size)
    ]
    return np.concatenate(backend.map(play_task, tasks, done), axis=1)
