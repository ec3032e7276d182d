"""The run driver: a :class:`~pinochle_sim.runs.spec.RunSpec` in, a complete run folder out.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     summary = run(RunSpec(hands=2000, seed=0), d + "/run")
>>> summary.hands
2000

Before anything is written the folder is checked (resume or overwrite), the run's size and
time are estimated (:mod:`.estimate`, refused when the free disk space cannot hold it) and the
kernels are compiled or loaded (:mod:`.compile`), outside the clock. Then each part still to do
is one task of the backend (:mod:`.backends`: this process's threads, or a Dask cluster's
workers): its hands are played (and, for ``dd``, solved) into an Arrow table (:func:`make_part`)
and written atomically into the folder; the manifest is updated as each part lands. Memory holds
two parts at most, whatever the number of hands.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from pinochle_sim.engines import EngineInputs
from pinochle_sim.runs.backends.local import LocalBackend
from pinochle_sim.runs.backends.tasks import Backend, InputsSpec
from pinochle_sim.runs.compile.warmup import DD
from pinochle_sim.runs.estimate import LONG_RUN_S, RunEstimate, duration_text, estimate, size_text
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.dd import dd_block
from pinochle_sim.runs.simulate.games import play_games_array
from pinochle_sim.runs.simulate.hands import CLUSTER_SEARCH_UNITS, play_hands_array, searches
from pinochle_sim.runs.simulate.pool import interruptible, threads
from pinochle_sim.runs.spec import RunSpec, spec_of
from pinochle_sim.runs.store.files import (
    META_KEY,
    RunFolderError,
    read_manifest,
    write_part_file,
)
from pinochle_sim.runs.store.folder import RunFolder
from pinochle_sim.runs.store.location import StorageError, UrlPath, location
from pinochle_sim.runs.store.provenance import provenance
from pinochle_sim.runs.store.schema import TableBuilder, to_table
from pinochle_sim.runs.summary import RunSummary, part_sums, summarise

PART_BATCH = 16_384
"""Hands played into a part's buffer at a time (:func:`make_part`): four 4,096-hand chunks,
9 MB."""


def run(
    spec: RunSpec | int,
    out: str | None = None,
    *,
    resume: bool = False,
    overwrite: bool = False,
    force: bool = False,
    threads: int | None = None,
    backend: Backend | None = None,
    observer: Observer = QUIET,
    **fields: Any,
) -> RunSummary:
    """Simulate the run ``spec`` into the Parquet run folder ``out`` (None:
    :meth:`RunSpec.default_out`; a path, a ``file://`` URL or another fsspec URL such as
    ``s3://bucket/runs/p0``) and return its summary. ``spec`` may also be a number of hands,
    with the other :class:`RunSpec` fields as keywords (``run(2000, seed=7, rules="joedog")``).

    ``resume`` finishes an interrupted run (every part kept is checked first; damaged ones are
    set aside and simulated again); ``overwrite`` replaces a run folder; ``force`` starts a
    run the free disk space cannot hold. ``threads`` (None: every core) are this process's,
    unless ``backend`` (:mod:`pinochle_sim.runs.backends`) runs the parts elsewhere: on a
    Dask cluster each part is one task on a worker, which writes it into ``out``, a folder
    every worker must reach (proved before any work). ``observer`` is told of the plan, the
    compile and the hands as they finish (:class:`~pinochle_sim.runs.observer.Observer`).
    """
    spec = spec_of(spec, **fields)
    if backend is None:
        backend = LocalBackend(threads)
    elif threads is not None:
        raise ValueError("threads are this process's: a backend's workers use their own")
    path = local_path(out or spec.default_out())
    if resume and not spec.part_size_given:  # a run cut by time keeps its parts
        spec = _listed_size(spec, path)
    folder = RunFolder(path, spec, resume=resume, overwrite=overwrite)  # reads only
    inputs = spec.inputs
    plan = estimate(inputs, spec.hands - folder.listed_done(), spec.games, path,
                    backend.slots, spec.dd)  # fmt: skip
    if overwrite and folder.exists and plan.free_bytes is not None:  # freed on open
        plan = dataclasses.replace(plan, free_bytes=plan.free_bytes + folder.size_bytes())
    if not (plan.fits or force):
        observer.plan(plan)
        raise RunFolderError(
            f"not enough disk space: the run needs about {size_text(plan.bytes)} and "
            f"{duration_text(plan.seconds)}, but {size_text(plan.free_bytes or 0)} are free "
            f"where {str(path)!r} goes (pass --force to start it anyway)"
        )
    entry = "play_games" if spec.games else "play_chunk"
    specs = [InputsSpec.of(inputs)]
    backend.check_path(str(folder.path.absolute()))
    # Compile before the folder is touched (Ctrl-C here leaves nothing behind), unless the
    # manifest says nothing is left to do: then only if the checks on open find damage.
    compile_s = backend.warm(specs, entry, observer) if plan.units else 0.0
    if spec.dd and plan.units:
        compile_s += backend.warm(specs, DD, observer)
    if plan.units and backend.in_process:
        plan = timed(plan, spec, folder.todo()[0])
        size = part_size_for(plan, spec)
        if size != spec.part_size and not (resume and folder.exists):
            spec = spec.with_part_size(size)
            folder = RunFolder(path, spec, resume=resume, overwrite=overwrite)
            plan = dataclasses.replace(plan, cut=size)
    elif plan.units and searches(inputs):  # a cluster's search players, not timed from here
        plan = dataclasses.replace(plan, timed_on=UNTIMED)
        small = not spec.part_size_given and spec.part_size > CLUSTER_SEARCH_UNITS
        if small and not (resume and folder.exists):
            spec = spec.with_part_size(CLUSTER_SEARCH_UNITS)
            folder = RunFolder(path, spec, resume=resume, overwrite=overwrite)
            plan = dataclasses.replace(plan, cut=CLUSTER_SEARCH_UNITS)
    observer.plan(plan)
    if plan.seconds > LONG_RUN_S and not force:
        question = (
            f"This run would take {plan.about()} {duration_text(plan.seconds)} on "
            f"{plan.threads} thread{'s' * (plan.threads > 1)}{plan.basis()}."
        )
        if not observer.confirm(f"{question} Start it?"):
            raise RunFolderError(f"{question} Pass --force to start it anyway.")
    folder.open()
    if folder.todo() and not plan.units:
        compile_s = backend.warm(specs, entry, observer)
    observer.update(folder.hands_done())
    t0 = time.perf_counter()
    computed = _write_parts(backend, folder, observer)
    return summarise(path, folder, computed, time.perf_counter() - t0, compile_s)


PART_TARGET_S = 60.0
"""About how long one part of a run of slow players takes (its parts are cut to it, so that an
interruption loses about a minute and progress moves at least that often)."""
MIN_PART = 16
"""The fewest hands (games) a part cut by time holds."""
UNTIMED = "not timed: search players on a cluster; the ETA follows the first parts"
"""How a cluster run of search players says that its time is the bots' (a lower bound)."""


def part_size_for(plan: RunEstimate, spec: RunSpec) -> int:
    """The part size of ``spec``, or, where it was not asked for and a part would take longer
    than :data:`PART_TARGET_S` at the timed pace, the largest power of two at or above
    :data:`MIN_PART` that does not (records do not depend on the part size)."""
    if spec.part_size_given or plan.units <= 0 or plan.seconds <= 0:
        return spec.part_size
    per_unit = plan.seconds / plan.units
    if per_unit * spec.part_size <= PART_TARGET_S:
        return spec.part_size
    fits = max(1, int(PART_TARGET_S / per_unit))
    return max(MIN_PART, 1 << (fits.bit_length() - 1))


def _listed_size(spec: RunSpec, path: str) -> RunSpec:
    """``spec`` with the part size of the run folder it resumes (one cut by time)."""
    try:
        size = read_manifest(location(path))["settings"]["part_size"]
    except (RunFolderError, StorageError, OSError, KeyError, TypeError, ValueError):
        return spec  # no manifest to follow: the checks on open say what is wrong
    return spec.with_part_size(int(size)) if isinstance(size, int) and size > 0 else spec


SAMPLE_S = 1.0
"""Seconds of the run's own hands :func:`timed` plays, at least, to time its policies."""
SAMPLE_LIMIT_S = 10.0
"""The longest :func:`timed` waits for its sample: a policy slower than that (thousands of
solves a card) is estimated from the time spent, a lower bound."""


def timed(plan: RunEstimate, spec: RunSpec, k: int) -> RunEstimate:
    """``plan`` with its time from the run's own policies: the first hands of part ``k`` played
    on the plan's threads (1, 4, 16, ... a thread, until :data:`SAMPLE_S` seconds or 4,096 a
    thread; a search player's threads share memory bandwidth, so one thread's pace would
    not do), thrown away, scaled to the units left; where one alone takes over
    :data:`SAMPLE_LIMIT_S`, that is the bound the estimate says it is. A search
    player (``pimc``) is thousands of times slower than the bots the rate table knows; the
    table's figure (which counts writing the Parquet too) stays where it is the larger. The
    double-dummy solving of a ``--dd`` run keeps its measured time per deal."""
    start = spec.part_range(k)[0]
    k_threads = plan.threads
    n = k_threads
    unit = "games" if spec.games else "hands"

    def sample(n: int) -> float:
        each = -(-n // k_threads)  # a chunk a thread
        with threads(k_threads):
            t0 = time.perf_counter()
            if spec.games:
                play_games_array(spec.inputs, spec.seed, start, n, chunk=each)
            else:
                play_hands_array(spec.inputs, spec.seed, start, n, chunk=each, dealer=spec.dealer,
                                 fx=spec.fx)  # fmt: skip
            return time.perf_counter() - t0

    while True:
        try:
            spent = interruptible(sample, n, timeout=SAMPLE_LIMIT_S)
        except TimeoutError:  # even a few hands take longer: the run takes at least this
            spent = SAMPLE_LIMIT_S
            break
        if spent >= SAMPLE_S or n >= 4096 * k_threads:
            break
        n *= 4
    play_s = plan.units * spent / n
    if play_s <= plan.seconds - (plan.dd_seconds or 0.0):
        return plan
    timed_on = (
        f"timed on {n:,} of its {unit}"
        if spent < SAMPLE_LIMIT_S
        else f"at least: one of its {unit} took over {SAMPLE_LIMIT_S:g} s"
    )
    return dataclasses.replace(plan, seconds=play_s + (plan.dd_seconds or 0.0), timed_on=timed_on)


@dataclass(frozen=True)
class PartTask:
    """One part of a run, as a task (picklable: a worker rebuilds the kernel inputs)."""

    spec: RunSpec
    created: str
    """The run's creation time (the provenance every part of the run carries)."""
    path: str
    """The run folder, as the workers see it."""
    k: int

    @property
    def units(self) -> int:
        """Hands (games) the task computes (for per-worker throughput)."""
        return self.spec.part_range(self.k)[1]


def compute_part(task: PartTask, progress: Any = None) -> tuple[PartTask, Any]:
    """(the task, the part's Arrow table): the first step of a part."""
    return task, make_part(task.spec, task.k, task.created, progress)


def write_part(computed: tuple[PartTask, Any]) -> dict[str, Any]:
    """Write a part computed by :func:`compute_part` atomically into its run folder; returns
    its manifest entry fields with the part's sums for the run's closing figures (the client
    records them; locally this step overlaps the next part's computing)."""
    task, table = computed
    sums = part_sums(table, task.spec.rules, task.spec.games)
    return write_part_file(task.path, task.k, table) | {"rows": table.num_rows, "sums": sums}


def _write_parts(backend: Backend, folder: RunFolder, observer: Observer) -> int:
    """The parts still to do, as tasks of ``backend``; the manifest is updated here as each
    part lands. Returns the rows computed."""
    spec = folder.spec
    todo = folder.todo()
    where = str(folder.path.absolute())  # the workers' working folders may differ from ours
    tasks = [PartTask(spec, folder.created, where, k) for k in todo]
    # A dd part reports its hands as they are solved, where the part runs in this process.
    inside = spec.dd and backend.in_process
    rows = 0

    def done(i: int, entry: dict[str, Any]) -> None:
        nonlocal rows
        folder.add_part(todo[i], entry)
        rows += int(entry["rows"])
        if not inside:
            observer.update(spec.part_range(todo[i])[1])

    def compute(task: PartTask) -> tuple[PartTask, Any]:
        return compute_part(task, observer.update)

    try:
        backend.map(compute if inside else compute_part, tasks, done, then=write_part)
    finally:
        folder.clean_temporaries()  # what a worker killed mid-write left
    return rows


def make_part(spec: RunSpec, k: int, created: str, progress: Any = None) -> Any:
    """Part ``k`` of the run ``spec`` as the Arrow table its file holds (records and
    provenance): what a local run and a cluster worker both compute, so their records are the
    same by construction.

    A per-part step that adds columns computed from the records belongs here, so that both
    paths get it: with ``spec.dd`` the double-dummy columns (:mod:`.simulate.dd`), solved on
    every thread, ``progress`` told as chunks of hands are solved."""
    inputs = spec.inputs
    start, count = spec.part_range(k)
    meta = {META_KEY: json.dumps(provenance(spec, start, count, created)).encode()}
    if spec.games:
        out = play_games_array(inputs, spec.seed, start, count)
        return to_table(out, inputs.rules, meta, games=True)
    if spec.dd:  # the solver reads the whole part's output
        out = play_hands_array(inputs, spec.seed, start, count, dealer=spec.dealer, fx=spec.fx)
        solved = dd_block(inputs, spec.seed, start, out, spec.dealer, spec.fx, progress)
        return to_table(np.concatenate([out, solved]), inputs.rules, meta, dd=True)
    # Hands are played a batch at a time into one buffer, narrowed into the table's columns
    # while the batch is in cache: the part's int64 output (67 MB at the default part size)
    # would be fresh memory for the kernel to touch, at about 3 ms a MB on a new VM.
    buf = _buffer(inputs, count)
    builder = TableBuilder(inputs.rules, count)
    for lo in range(0, count, buf.shape[1]):
        n = min(buf.shape[1], count - lo)  # the whole buffer goes in: a view is another type
        play_hands_array(inputs, spec.seed, start + lo, n, dealer=spec.dealer, out=buf,
                         fx=spec.fx)  # fmt: skip
        builder.add(buf[:, :n], lo)
    return builder.table(meta)


_buffers = threading.local()


def _buffer(inputs: EngineInputs, count: int) -> np.ndarray:
    """This thread's int64 buffer for :func:`make_part` (reused from part to part: fresh memory
    costs more to touch than to reuse)."""
    shape = (inputs.layout.ncol, min(count, PART_BATCH))
    buf = getattr(_buffers, "buf", None)
    if buf is None or buf.shape[0] != shape[0] or buf.shape[1] < shape[1]:
        buf = _buffers.buf = np.empty((shape[0], max(shape[1], PART_BATCH)), dtype=np.int64)
    return buf


def local_path(out: str) -> str:
    """The run folder ``out`` names: a path, a ``file://`` URL (its path), or another fsspec
    URL (``s3://bucket/runs/p0``: kept as it is, read and written through fsspec). A URL fsspec
    cannot open (an unknown scheme, its driver not installed) is a :class:`RunFolderError`."""
    try:
        where = location(out)
    except StorageError as e:
        raise RunFolderError(str(e)) from None
    if isinstance(where, UrlPath) and where.parent == where:
        raise RunFolderError(
            f"{out!r} names no folder below the bucket or root: give one, e.g. "
            f"{out.rstrip('/')}/runs/p0"
        )
    return out if isinstance(where, UrlPath) else str(where)
