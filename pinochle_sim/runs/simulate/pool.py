"""Running kernels on every core: numba's thread count for a block of work, and a thread pool
over chunks of hands (the kernels release the GIL, so chunks run in parallel)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba

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
