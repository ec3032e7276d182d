"""Where a study's work runs and who hears of it: the one setup that duplicate matches, sweeps and
the advisor share.

A :class:`Session` pairs a backend (this process's threads unless a cluster's is given,
:mod:`pinochle_sim.runs.backends`) with an observer (:mod:`pinochle_sim.runs.observer`).
:func:`open_session` compiles or loads the study's kernel wherever its tasks will run, before
any clock starts, then tells the observer the work begins; :meth:`Session.map` runs tasks and
reports each one's units (deals times plays, or hands) as it lands.

Slow work on this process (search players: a ``pimc`` match plays a deal or two a second) is
*paced* (:class:`Pacer`): its first deals are timed, the person waiting is told the estimate,
and the rest is cut into tasks of about :data:`PACE_TASK_S` seconds, so that progress lands as
it goes instead of once at the end. The tasks never change a result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pinochle_sim.engines import EngineInputs
from pinochle_sim.runs.backends.local import LocalBackend
from pinochle_sim.runs.backends.tasks import Backend, InputsSpec
from pinochle_sim.runs.estimate import WorkEstimate, duration_text
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.hands import CLUSTER_SEARCH_UNITS, SEARCH_CHUNK, searches

PACE_SAMPLE_S = 1.0
"""Seconds of slow work, at least, that a :class:`Pacer` times before it gives its estimate."""
PACE_TASK_S = 30.0
"""About how long a task of paced work lasts: how often its progress lands."""


@dataclass(frozen=True)
class Session:
    """A backend and the observer its tasks report to."""

    backend: Backend
    observer: Observer = QUIET

    def map(
        self,
        fn: Callable[[Any], Any],
        tasks: Sequence[Any],
        each: Callable[[Any], None] | None = None,
    ) -> list[Any]:
        """``[fn(t) for t in tasks]`` on the backend, results in order; as each task finishes,
        ``each`` gets its result (here, in the order they finish) and the observer its
        ``units``."""

        def done(i: int, result: Any) -> None:
            if each is not None:
                each(result)
            self.observer.update(tasks[i].units)

        return self.backend.map(fn, tasks, done)


def open_session(
    inputs: EngineInputs,
    *,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
    already: int = 0,
) -> Session:
    """The session of a study whose hands all use the kernel bundle of ``inputs``: its
    ``play_chunk`` kernel compiled or loaded on this process (``threads`` of it, None: every
    core) or on every worker of ``backend``, then ``observer.update(already)`` (the units an
    interrupted study kept, 0 for a new one)."""
    if backend is None:
        backend = LocalBackend(threads)
    elif threads is not None:
        raise ValueError("threads are this process's: a backend's workers use their own")
    backend.warm([InputsSpec.of(inputs)], "play_chunk", observer)
    observer.update(already)
    return Session(backend, observer)


def slow(s: Session, inputs: EngineInputs) -> bool:
    """Whether work of ``inputs`` on session ``s`` is paced (:class:`Pacer`): this process
    plays it and its players search."""
    return s.backend.in_process and searches(inputs)


def task_deals(s: Session, inputs: EngineInputs, count: int) -> int:
    """Deals a task of ``count`` holds: the backend's size, at most
    :data:`~pinochle_sim.runs.simulate.hands.CLUSTER_SEARCH_UNITS` where search players play on
    a cluster's workers."""
    size = s.backend.task_size(count)
    if searches(inputs) and not s.backend.in_process:
        size = min(size, CLUSTER_SEARCH_UNITS)
    return size


class Pacer:
    """Slow work of ``deals`` deals in all, in ``sets`` sets of the same deals (a match; a
    sweep's matches; the advisor's trumps), each played by :meth:`play`: each set's first
    deals are timed (the first set's give the estimate for all ``deals``), and the rest of the
    set goes in tasks of about :data:`PACE_TASK_S` at its own pace."""

    def __init__(self, s: Session, deals: int, sets: int = 1, noun: str = "matches") -> None:
        self.s, self.deals, self.sets, self.noun = s, deals, sets, noun
        self.told = False
        """Whether the estimate was given."""
        self.started = 0
        """Sets begun."""

    def play(
        self,
        fn: Callable[[Any], Any],
        make: Callable[[int, int], Any],
        start: int,
        count: int,
        each: Callable[[Any], None] | None = None,
    ) -> list[Any]:
        """``fn`` of the tasks ``make(lo, n)`` (deals ``lo .. lo+n-1``) covering deals
        ``start .. start+count-1``, results in order; ``each`` gets every result as it lands.
        The first deals are played in growing steps (a multiple of what the threads share out)
        until :data:`PACE_SAMPLE_S` seconds or a quarter of the deals have passed, and kept;
        the first time, the observer is then told the estimate
        (:class:`~pinochle_sim.runs.estimate.WorkEstimate`); the rest goes in tasks of about
        :data:`PACE_TASK_S` seconds at the pace just timed."""
        s = self.s
        grain = SEARCH_CHUNK * max(1, s.backend.slots)
        end = start + count
        lo, n, spent = start, grain, 0.0
        out: list[Any] = []
        while lo < end:
            step = min(n, end - lo)
            t0 = time.perf_counter()
            out += s.map(fn, [make(lo, step)], each)
            spent += time.perf_counter() - t0
            lo += step
            n *= 4
            if spent >= PACE_SAMPLE_S or lo - start >= max(grain, count // 4):
                break
        per = spent / (lo - start)
        task = max(grain, int(PACE_TASK_S / per) // grain * grain) if per else count
        self.started += 1
        if self.told and lo < end:  # a later set, at its own pace
            s.observer.notice(
                f"{self.noun.removesuffix('es' if self.noun.endswith('hes') else 's')} "
                f"{self.started} of {self.sets}: about {duration_text(per * count)} for its "
                f"{count:,} deals (timed on its first {lo - start:,})"
            )
        if not self.told and (lo < end or self.deals > count):  # work is left to wait for
            self.told = True
            units = make(start, 1).units * self.deals
            s.observer.plan(
                WorkEstimate(units, per * self.deals, s.backend.slots, lo - start,
                             min(task, end - lo), self.sets, self.noun)
            )  # fmt: skip
        tasks = [make(x, min(task, end - x)) for x in range(lo, end, task)]
        return out + s.map(fn, tasks, each)
