"""This process's threads as a :class:`~.tasks.Backend`: the default wherever ``backend=`` is
taken.

Tasks run one after the other, each on every thread the backend was given (the kernels release
the GIL, so each task's chunks of hands run in parallel), off the main thread so that Ctrl-C
stops them at once (:func:`~pinochle_sim.runs.simulate.pool.interruptible`); a task's second
step (``then``: writing a part) runs on a thread of its own while the next task computes, so a
run's memory holds two parts at most whatever its size. Interrupted, the part being written is
finished and recorded; the one being computed is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numba

from pinochle_sim.runs.backends.tasks import InputsSpec
from pinochle_sim.runs.compile.warmup import warm
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.pool import interruptible, threads

LOCAL_TASK_HANDS = 1 << 17
"""Hands per task of work not cut into part files (a match, the advisor): large, since a local
task costs nothing beyond its work and a task's memory is freed as the next starts."""


class LocalBackend:
    """Tasks on this process, ``n_threads`` threads each (None: numba's default, every core)."""

    in_process = True

    def __init__(self, n_threads: int | None = None) -> None:
        with threads(n_threads):  # checks the count
            pass
        self.n_threads = n_threads

    @property
    def slots(self) -> int:
        return self.n_threads or numba.get_num_threads()

    def describe(self) -> str:
        n = self.slots
        return f"this process, {n} thread{'s' * (n != 1)}"

    def task_size(self, count: int) -> int:
        return LOCAL_TASK_HANDS

    def warm(self, specs: Sequence[InputsSpec], entry: str, observer: Observer = QUIET) -> float:
        """Compile (or load) the kernels, off the main thread like the tasks: a Ctrl-C in a
        compile would otherwise wait for it, or be swallowed by the compiler's callbacks."""
        return interruptible(lambda: sum(warm(spec.build(), entry, observer) for spec in specs))

    def check_path(self, path: str) -> None:
        """Nothing to prove: this process writes where it runs (the run folder checks the
        path itself)."""

    def map(
        self,
        fn: Callable[[Any], Any],
        items: Sequence[Any],
        done: Callable[[int, Any], None] | None = None,
        then: Callable[[Any], Any] | None = None,
    ) -> list[Any]:
        results: list[Any] = [None] * len(items)

        def finish(i: int, value: Any) -> None:
            results[i] = value
            if done is not None:
                done(i, value)

        with threads(self.n_threads), ThreadPoolExecutor(max_workers=1) as writer:
            pending: tuple[int, Future[Any]] | None = None
            try:
                for i, item in enumerate(items):
                    value = interruptible(fn, item)
                    if pending is not None:
                        finish(pending[0], pending[1].result())
                        pending = None
                    if then is None:
                        finish(i, value)
                    else:
                        pending = (i, writer.submit(then, value))
            except BaseException:  # Ctrl-C: the task written meanwhile is kept, and said so
                if pending is not None:
                    finish(pending[0], pending[1].result())
                raise
            if pending is not None:
                finish(pending[0], pending[1].result())
        return results
