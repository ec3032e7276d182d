"""Running kernels on every core: numba's thread count for a block of work, a thread pool over
chunks of hands (the kernels release the GIL, so chunks run in parallel), and long work run off
the main thread so that Ctrl-C stops it at once (:func:`interruptible`)."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba

from pinochle_sim.solver.batch import stop_batches

MAX_THREADS: int = numba.config.NUMBA_NUM_THREADS
"""The most threads a run may use: numba's pool size (the number of cores, unless the
``NUMBA_NUM_THREADS`` environment variable says otherwise)."""


@contextlib.contextmanager
def threads(n: int | None) -> Iterator[None]:
    """Run the kernels with ``n`` threads (None: numba's default) inside the block."""
    if n is None:
        yield
        return
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"threads must be between 1 and {MAX_THREADS} (numba's thread pool)")
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def in_chunks(work: Callable[[int], Any], starts: range) -> list[Any]:
    """``[work(lo) for lo in starts]``, on a thread pool of numba's current thread count (the
    kernels release the GIL, so chunks run in parallel); results in the order of ``starts``."""
    workers = min(numba.get_num_threads(), len(starts))
    if workers <= 1:
        return [work(lo) for lo in starts]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(work, starts))


class _Worker:
    """A daemon thread that runs the jobs handed to it, one at a time, until told to retire."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, daemon=True, name="pinochle-sim work")
        self.thread.start()

    def _loop(self) -> None:
        while (job := self.jobs.get()) is not None:
            job()


_worker: list[_Worker] = []
_worker_lock = threading.Lock()


def interruptible(fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
    """``fn(*args)``, run on a work thread of its own (with the caller's numba thread count)
    while the calling thread waits: a kernel in the main thread would hold Ctrl-C back until
    it returns (minutes, for a search player's batch of hands), a thread waiting on an event
    takes it within a quarter of a second. Interrupted, the work is abandoned: the solver's
    batches stop at once (:func:`~pinochle_sim.solver.batch.stop_batches`), a kernel runs on
    to the end of its chunk on the retired thread, nothing of it is used, and the exception is
    raised here. Off the main thread (which alone hears Ctrl-C) ``fn`` simply runs in place.
    The work thread is kept from one call to the next, with its thread-local buffers.
    ``timeout`` (seconds): past it the work is abandoned the same way and :class:`TimeoutError`
    raised (it runs on, unseen, to its end)."""
    n = numba.get_num_threads()
    if threading.current_thread() is not threading.main_thread() and timeout is None:
        return fn(*args)
    with _worker_lock:
        if not _worker:
            _worker.append(_Worker())
        worker = _worker[0]
    box: dict[str, Any] = {}
    finished = threading.Event()

    def job() -> None:
        try:
            with threads(n):
                box["value"] = fn(*args)
        except BaseException as e:  # handed to the waiting thread as it is
            box["error"] = e
        finally:
            finished.set()

    worker.jobs.put(job)
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        while not finished.wait(0.25):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"still working after {timeout:g} s")
    except BaseException:
        stop_batches()
        with _worker_lock:  # still busy: the next call gets a fresh thread
            if _worker and _worker[0] is worker:
                _worker.clear()
        worker.jobs.put(None)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]
