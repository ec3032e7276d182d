"""Where a study's work runs and who hears of it: the one setup that duplicate matches, sweeps and
the advisor share.

A :class:`Session` pairs a backend (this process's threads unless a cluster's is given,
:mod:`pinochle_sim.runs.backends`) with an observer (:mod:`pinochle_sim.runs.observer`).
:func:`open_session` compiles or loads the study's kernel wherever its tasks will run, before
any clock starts, then tells the observer the work begins; :meth:`Session.map` runs tasks and
reports each one's units (deals times plays, or hands) as it lands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pinochle_sim.engines import EngineInputs
from pinochle_sim.runs.backends.local import LocalBackend
from pinochle_sim.runs.backends.tasks import Backend, InputsSpec
from pinochle_sim.runs.observer import QUIET, Observer


@dataclass(frozen=True)
class Session:
    """A backend and the observer its tasks report to."""

    backend: Backend
    observer: Observer = QUIET

    def map(self, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> list[Any]:
        """``[fn(t) for t in tasks]`` on the backend, results in order; the observer is told
        of each task's ``units`` as it finishes."""
        return self.backend.map(fn, tasks, lambda i, _: self.observer.update(tasks[i].units))


def open_session(
    inputs: EngineInputs,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
) -> Session:
    """The session of a study whose hands all use the kernel bundle of ``inputs``: its
    ``play_chunk`` kernel compiled or loaded on this process (``threads`` of it, None: every
    core) or on every worker of ``backend``, then ``observer.update(0)``."""
    if backend is None:
        backend = LocalBackend(threads)
    elif threads is not None:
        raise ValueError("threads are this process's: a backend's workers use their own")
    backend.warm([InputsSpec.of(inputs)], "play_chunk", observer)
    observer.update(0)
    return Session(backend, observer)
