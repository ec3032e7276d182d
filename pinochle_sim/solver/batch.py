"""Many positions at once: each solved exactly on a thread of its own, one work array a thread.

Positions come as arrays, one entry a position: the seats' packed hands ``hands[seat, i]`` (4
rows, 0 for seats the rules lack), the seat that led the current trick ``leader[i]``, the cards
already played to it ``trick[i]`` (:func:`.workspace.pack_trick`), the trump ``trump[i]`` and
the maximising side's seat mask ``side[i]``; every position shares one rule array. Chunks of a
few positions go to a thread pool (the kernel releases the GIL); each thread keeps its own work
array for the life of the thread, so its table carries over from one chunk to the next. The
values are exact whatever the threads, the chunks or the tables' contents: only the time
changes.

An interrupted batch (Ctrl-C on the calling thread, an error in a thread) stops at once: the
positions not yet started are dropped and the searches under way are told to stop through
their work arrays (:data:`.workspace.H_STOP`, looked at every 65,536 nodes, about 10 ms);
nothing is returned.

>>> import numpy as np
>>> from pinochle_sim.core.cards import encode_hand
>>> from pinochle_sim.rules import PRESETS
>>> from pinochle_sim.rules.arrays import rule_array
>>> hands = np.array([[encode_hand("AS")], [encode_hand("9S")], [0], [0]])
>>> solve_positions(rule_array(PRESETS["two-hand"]), hands, leader=[0], trump=[0], side=[1])
array([21])
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numba
import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.solver.driver import dd_solve
from pinochle_sim.solver.workspace import BUCKET, H_STOP, new_table

DEFAULT_BITS = 21
"""Table buckets (log2) per thread: 2**21 buckets are 128 MB, the most a thread's table may
take. Full partnership deals (hands 0..199 of seed 0, one thread, a fresh table a deal): 2**19
buckets (32 MB) 533 s in all, max 102 s; 2**21 383 s, max 49.5 s (the same values; the median
deal, 0.7 s, does not fill either table, the slow deals gain). :func:`fitting_bits` lowers it
where the machine's memory is short."""
MIN_BITS = 16
MEMORY_SHARE = 4
"""The tables of one batch, one a thread, take at most a quarter of the machine's memory."""


def fitting_bits(bits: int, threads: int) -> int:
    """``bits``, or fewer where ``threads`` tables of ``2**bits`` buckets (64 bytes each) would
    take more than a quarter of the machine's memory (never under 2**16 buckets, 4 MB; as asked
    where the memory cannot be read). A smaller table only costs time: every value is exact."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not offered by this system
        return bits
    while bits > MIN_BITS and threads * 8 * BUCKET * (1 << bits) * MEMORY_SHARE > memory:
        bits -= 1
    return bits


@jit(entry=True)
def solve_block(
    hands: np.ndarray, leader: np.ndarray, trick: np.ndarray, trump: np.ndarray,
    side: np.ndarray, ra: np.ndarray, lo: int, hi: int, tt: np.ndarray, out: np.ndarray,
) -> bool:  # fmt: skip
    """``out[i]`` = the value of position ``i`` for ``lo <= i < hi``; False (and the rest left
    as it was) when ``tt[H_STOP]`` was set while it worked."""
    for i in range(lo, hi):
        v = dd_solve(
            hands[0, i], hands[1, i], hands[2, i], hands[3, i], leader[i], trick[i], trump[i],
            ra, side[i], tt,
        )  # fmt: skip
        if tt[H_STOP] != 0:  # the search was cut short: v is no value
            return False
        out[i] = v
    return True


class Stopped(Exception):
    """A batch's threads were told to stop (the batch was interrupted)."""


_stops = [0]
"""How many times :func:`stop_batches` was called: a batch started before the last call stops."""


def stop_batches() -> None:
    """Stop every batch being solved in this process, whatever thread waits on it (what an
    interrupted run calls when its work runs off the main thread): each raises
    :class:`Stopped` within about 0.2 s; batches started later are not affected."""
    _stops[0] += 1


_local = threading.local()


def thread_table(bits: int = DEFAULT_BITS) -> np.ndarray:
    """This thread's work array of ``2**bits`` buckets (made on the thread's first call)."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = {}
    if bits not in tables:
        tables[bits] = new_table(bits)
    return tables[bits]


def _column(values: Sequence[int] | np.ndarray | int, n: int, what: str) -> np.ndarray:
    a = np.ascontiguousarray(np.broadcast_to(np.asarray(values, dtype=np.int64), (n,)))
    if a.shape != (n,):  # pragma: no cover - broadcast_to raises first
        raise ValueError(f"{what}: one value a position")
    return a


def solve_positions(
    ra: np.ndarray,
    hands: np.ndarray,
    leader: Sequence[int] | np.ndarray,
    trump: Sequence[int] | np.ndarray | int,
    side: Sequence[int] | np.ndarray | int,
    trick: Sequence[int] | np.ndarray | int = 0,
    *,
    chunk: int = 2,
    bits: int = DEFAULT_BITS,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """The side's points from the current trick on, under perfect play, of every position
    (see the module docstring for the arguments; a single trump, side or trick serves every
    position). Runs on numba's current thread count, ``chunk`` positions at a time;
    ``progress(k)`` is told, on the calling thread, of every ``k`` positions solved; each thread
    solves with a table of ``2**bits`` buckets (:func:`fitting_bits`: fewer where memory is
    short). Interrupted
    (Ctrl-C on the calling thread, or :func:`stop_batches` from another), it stops every thread
    within about 10 ms of search and re-raises."""
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if hands.ndim != 2 or hands.shape[0] != 4:
        raise ValueError("hands must be an array of 4 rows (one per seat), one column a position")
    n = hands.shape[1]
    cols = [
        _column(v, n, w)
        for v, w in ((leader, "leader"), (trick, "trick"), (trump, "trump"), (side, "side"))
    ]
    out = np.zeros(n, dtype=np.int64)
    if n == 0:
        return out
    if chunk < 1:
        raise ValueError("chunk must be positive")

    stop = threading.Event()
    working: dict[int, np.ndarray] = {}  # the work arrays of the threads solving, by thread

    def work(lo: int) -> int:
        hi = min(n, lo + chunk)
        tt = thread_table(bits)
        tt[H_STOP] = 0
        me = threading.get_ident()
        working[me] = tt  # before looking at stop: a stop set later finds it here
        try:
            if stop.is_set() or not solve_block(hands, *cols, ra, lo, hi, tt, out):
                raise Stopped
        finally:
            del working[me]
        return hi - lo

    starts = range(0, n, chunk)
    workers = max(1, min(numba.get_num_threads(), len(starts)))
    bits = fitting_bits(bits, workers)
    pool = ThreadPoolExecutor(max_workers=workers)
    stops = _stops[0]
    try:
        pending = {pool.submit(work, lo) for lo in starts}
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in finished:
                k = fut.result()
                if progress:
                    progress(k)
            if _stops[0] != stops:
                raise Stopped
    except BaseException:  # Ctrl-C, or a failure: no thread goes on solving for nobody
        stop.set()
        for tt in list(working.values()):
            tt[H_STOP] = 1
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return out
