"""The Dask backend: runs, matches, sweeps and advice on a ``dask.distributed`` cluster.

``connect_cluster("tcp://host:8786")`` joins a running scheduler; ``connect_cluster("local:4")``
starts a ``LocalCluster`` of four single-threaded worker processes on this machine. The result is
a :class:`DaskBackend` (a :class:`~.tasks.Backend`) that the library entry
points take as ``backend=``:

>>> with connect_cluster("local:2") as backend:                         # doctest: +SKIP
...     run(RunSpec(10**7, seed=0), "/shared/runs/p0", backend=backend)

Each task is one coarse unit (a run's part file, a range of deals) described by a small
picklable item, so a task lost with its worker is simply run again elsewhere: its result
depends on nothing but the item. Parts are written by the workers into the run folder, which
every worker must reach at the same path (:meth:`DaskBackend.check_path` proves it before any
work); the client alone writes the manifest, as each part lands.

This module imports Dask at its top and is loaded only when a cluster is asked for (the CLI's
``--cluster``); nothing else in the package imports it. Dask is the optional extra
``pip install "pinochle-sim[cluster]"``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import struct
import time
import uuid
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import fsspec
from distributed import Client, LocalCluster, as_completed, get_worker
from distributed.client import FutureCancelledError

from pinochle_sim.core.jit import source_hash
from pinochle_sim.core.version import __version__
from pinochle_sim.runs.backends.tasks import InputsSpec, task_size
from pinochle_sim.runs.compile.warmup import WHAT, compile_estimate, state_of, warm
from pinochle_sim.runs.observer import QUIET, Observer
from pinochle_sim.runs.simulate.pool import threads
from pinochle_sim.runs.store.location import first_line

INSTALL = 'pip install "pinochle-sim[cluster]"'
"""What to install for ``--cluster`` (named in the CLI's error when Dask is missing)."""
CONNECT_TIMEOUT_S = 10.0
LOCAL_PREFIX = "local:"
MAX_LOCAL_WORKERS = 256


class ClusterError(ValueError):
    """The cluster cannot be used as asked (unreachable scheduler, unreachable output path,
    a task that failed on every worker it was given to)."""


def parse_local(address: str) -> int | None:
    """``local:N`` -> N (None for a scheduler address); a bad N is a :class:`ClusterError`."""
    if not address.startswith(LOCAL_PREFIX):
        return None
    n = address.removeprefix(LOCAL_PREFIX)
    if not n.isdigit() or not 1 <= int(n) <= MAX_LOCAL_WORKERS:
        raise ClusterError(
            f"bad --cluster {address!r}: write local:N with N from 1 to {MAX_LOCAL_WORKERS} "
            "worker processes, or a scheduler address such as tcp://host:8786"
        )
    return int(n)


class _NotDask(Exception):
    """The address answered with bytes that cannot open a Dask message."""


MAX_FIRST_MESSAGE = 1 << 32
"""A Dask scheduler's first eight bytes give the length of its handshake (tens of bytes);
more than this is not a Dask scheduler."""


def _screen(address: str, timeout: float) -> str | None:
    """Why the plain-TCP ``address`` is surely no Dask scheduler, or None when it may be one.

    A refused connection means nothing listens there (said at once, without waiting for Dask's
    own timeout). Bytes no Dask scheduler sends (an HTTP reply, a TLS alert, noise) are screened
    out here, before Dask sees them: it misreads them in ways that vary with the bytes and the
    version (a frame length of exabytes, an assertion in its event loop, a client left
    half-started that complains at exit). None whenever in doubt: no answer, another protocol
    scheme, an address that is not host:port."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return None
    host, _, port = rest.rpartition(":")
    if not port.isdigit():
        return None
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout) as s:
            s.settimeout(min(timeout, 2.0))
            first = b""
            while len(first) < 8:
                chunk = s.recv(8 - len(first))
                if not chunk:
                    break
                first += chunk
    except ConnectionRefusedError:
        return "nothing listens there: the connection was refused"
    except OSError:
        return None
    if len(first) < 8 or struct.unpack("<Q", first)[0] < MAX_FIRST_MESSAGE:
        return None
    return "it does not speak Dask's protocol"


def connect_cluster(
    address: str, timeout: float | None = None, dashboard: str = ":8787"
) -> DaskBackend:
    """A backend on the scheduler at ``address`` (``tcp://host:8786``), or on a new
    LocalCluster of N single-threaded worker processes (``local:N``); ``dashboard`` is where a
    LocalCluster serves its dashboard (``:0``: any free port). An unreachable scheduler is a
    one-line :class:`ClusterError` after ``timeout`` seconds (:data:`CONNECT_TIMEOUT_S`)."""
    n = parse_local(address)
    if n is not None:
        with warnings.catch_warnings():
            # A busy dashboard port moves to a free one; describe() prints the one in use.
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=dashboard,
                silence_logs=logging.ERROR,
            )
        return DaskBackend(Client(cluster), cluster)
    wait = CONNECT_TIMEOUT_S if timeout is None else timeout
    reason = _screen(address, wait)
    try:
        if reason is not None:
            raise _NotDask
        client = Client(address, timeout=wait)
    except Exception as e:
        # Something that is not a Dask scheduler answered (a proxy, an HTTP server): its bytes
        # read as a frame length ask for exabytes (MemoryError), or trip an assertion or a
        # decoding error deeper in Dask's framing, depending on the bytes and the version.
        # Whatever the failure, connecting failed, and the user gets one line.
        if reason is None:
            speaks = isinstance(e, (OSError, ValueError, TypeError))
            reason = first_line(e) if speaks else "it does not speak Dask's protocol"
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r} ({reason}): start one with "
            "`dask scheduler` (and workers with `dask worker ADDRESS`), or use --cluster "
            "local:N for worker processes on this machine"
        ) from None
    backend = DaskBackend(client, None)
    try:
        backend.check_workers()
    except BaseException:
        backend.close()
        raise
    return backend


def _identity() -> tuple[str, str]:
    """The package version and kernel-source hash of this process."""
    return __version__, source_hash()


# ------------------------------------------------------------------------ on the workers


def _timed(
    fn: Callable[[Any], Any], then: Callable[[Any], Any] | None, item: Any
) -> tuple[Any, str, float]:
    """``then(fn(item))`` on one thread of this worker (it runs a task per thread), with the
    worker that ran it and the seconds it took."""
    t0 = time.perf_counter()
    with threads(1):
        value = fn(item)
        if then is not None:
            value = then(value)
    return value, get_worker().name, time.perf_counter() - t0


def _states(specs: Sequence[InputsSpec], entry: str) -> list[str]:
    """Whether each spec's kernel is compiled, cached on disk or cold on this worker."""
    return [state_of(spec.build(), entry) for spec in specs]


def _warm(specs: Sequence[InputsSpec], entry: str) -> float:
    return sum(warm(spec.build(), entry) for spec in specs)


def _probe(root: str, token: str) -> str | None:
    """On a worker: None when it sees the client's probe file under ``root`` and can write its
    own beside it; otherwise what went wrong."""
    try:
        fs, base = fsspec.core.url_to_fs(root)
        if not fs.exists(f"{base}/.probe-{token}"):
            return "does not see the files this process writes there"
        with fs.open(f"{base}/.probe-{token}-{os.getpid()}", "wb") as f:
            f.write(b"ok")
    except Exception as e:  # any filesystem's error, reported as one line
        return f"cannot write there ({first_line(e)})"
    return None


# ------------------------------------------------------------------------------ the client


class DaskBackend:
    """Tasks on a Dask cluster (see the module docstring). Use it as a context manager, or
    call :meth:`close`: a LocalCluster it started stops with it."""

    in_process = False

    def __init__(self, client: Client, cluster: LocalCluster | None) -> None:
        self.client = client
        self.cluster = cluster
        self.stats: dict[str, list[float]] = {}
        """Worker name -> [tasks, hands, busy seconds] of the current :meth:`map`."""
        self.t0 = time.perf_counter()

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()

    @property
    def address(self) -> str:
        return str(self.client.scheduler.address)

    @property
    def workers(self) -> int:
        return len(self.client.scheduler_info()["workers"])

    @property
    def slots(self) -> int:
        """The workers' threads: tasks that run at once."""
        return sum(int(w["nthreads"]) for w in self.client.scheduler_info()["workers"].values())

    def task_size(self, count: int) -> int:
        """Two tasks per worker thread, within bounds (:func:`~.tasks.task_size`)."""
        return task_size(self, count)

    def describe(self) -> str:
        where = "a LocalCluster at" if self.cluster is not None else "the Dask scheduler at"
        link = self.client.dashboard_link if self._has_dashboard() else None
        dash = f"; dashboard {link}" if link else "; no dashboard (install bokeh for one)"
        n, t = self.workers, self.slots
        return (
            f"{where} {self.address}: {n} worker{'s' * (n != 1)}, {t} thread{'s' * (t != 1)}{dash}"
        )

    def _has_dashboard(self) -> bool:
        try:
            return "dashboard" in self.client.scheduler_info().get("services", {})
        except Exception:
            return False

    def check_workers(self) -> None:
        """Refuse workers that cannot import this package, or run another version of it (the
        records would differ): a :class:`ClusterError` naming the first such worker. (A
        worker that joins later is not checked.)"""
        mine = _identity()
        try:
            theirs = self.client.run(_identity)
        except Exception as e:
            raise ClusterError(
                f"a worker cannot run pinochle-sim ({first_line(e)}): install pinochle-sim "
                f"{mine[0]} with its [cluster] extra on every worker"
            ) from None
        for worker, got in sorted(theirs.items()):
            if tuple(got) != mine:
                raise ClusterError(
                    f"worker {worker} runs pinochle-sim {got[0]} (kernel sources {got[1]}), this "
                    f"process {mine[0]} ({mine[1]}): the same version must run everywhere"
                )

    def wait_for_workers(self, n: int = 1, timeout: float = 60.0) -> None:
        try:
            self.client.wait_for_workers(n, timeout=timeout)
        except (TimeoutError, OSError) as e:
            raise ClusterError(
                f"no worker joined the scheduler at {self.address} within {timeout:.0f} s "
                f"({first_line(e)}): start workers with `dask worker {self.address}`"
            ) from None

    def warm(self, specs: Sequence[InputsSpec], entry: str, observer: Observer = QUIET) -> float:
        """Compile or load ``entry`` for every spec on every worker at once, outside the
        clock; a cold compile is announced to ``observer`` first. Returns the slowest worker's
        seconds. (A worker that joins later loads the kernels in its first task.)"""
        self.wait_for_workers()
        specs = list(specs)
        states = self.client.run(_states, specs, entry)
        cold = sorted(w for w, s in states.items() if "cold" in s)
        words = WHAT.get(entry, "double-dummy solver")
        what = f"{specs[0].rules.name} {words}" if specs else words
        if cold:
            inputs = specs[0].build()
            observer.compiling(
                f"{what} on {len(cold)} of {len(states)} workers",
                compile_estimate(inputs, entry),
            )
        t0 = time.perf_counter()
        self.client.run(_warm, specs, entry)
        seconds = time.perf_counter() - t0
        if cold:
            observer.compiled(what, seconds)
        return seconds

    def check_path(self, path: str) -> None:
        """Prove that every worker reaches ``path`` (a folder or fsspec URL) as this process
        does: this process writes a probe file there, each worker must see it and write its
        own, and this process must see theirs. A :class:`ClusterError` names the first worker
        that cannot; nothing is left behind either way."""
        self.wait_for_workers()
        try:
            fs, base = fsspec.core.url_to_fs(path)
            fs.makedirs(base, exist_ok=True)
            token = uuid.uuid4().hex
            mine = f"{base}/.probe-{token}"
            with fs.open(mine, "wb") as f:
                f.write(b"ok")
        except Exception as e:
            raise ClusterError(f"cannot write the output path {path!r}: {first_line(e)}") from None
        try:
            answers = self.client.run(_probe, path, token)
            for worker, problem in sorted(answers.items()):
                if problem is not None:
                    raise ClusterError(
                        f"worker {worker} cannot use the output path {path!r}: it {problem}; "
                        "give a path every worker reaches as this process does (a shared file "
                        "system mounted at the same place on every machine, or a store's URL "
                        "such as s3://bucket/runs/name)"
                    )
        finally:
            for p in fs.glob(f"{base}/.probe-{token}*"):
                with contextlib.suppress(Exception):
                    fs.rm(p)

    def map(
        self,
        fn: Callable[[Any], Any],
        items: Sequence[Any],
        done: Callable[[int, Any], None] | None = None,
        then: Callable[[Any], Any] | None = None,
    ) -> list[Any]:
        """``[then(fn(x)) for x in items]`` as one task per item, both steps on the worker;
        ``done(i, result)`` on this process as each lands. A worker lost mid-task costs only
        that task, which the scheduler gives to another worker; a task that raises stops the
        map with its error."""
        self.wait_for_workers()
        self.stats = {}
        self.t0 = time.perf_counter()
        if not items:
            return []
        n = len(items)
        futures = self.client.map(_timed, [fn] * n, [then] * n, list(items), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(items)
        try:
            for fut in as_completed(futures):
                try:
                    value, worker, seconds = fut.result()
                except FutureCancelledError:
                    raise ClusterError(
                        "the cluster cancelled the tasks (was it shut down?)"
                    ) from None
                except Exception as e:
                    if type(e).__name__ == "KilledWorker":
                        raise ClusterError(
                            f"a task was lost with every worker that ran it ({first_line(e)}): "
                            "the workers may be running out of memory"
                        ) from None
                    raise
                i = index[fut.key]
                results[i] = value
                s = self.stats.setdefault(str(worker), [0, 0, 0.0])
                s[0] += 1
                s[1] += int(getattr(items[i], "units", 0))
                s[2] += seconds
                if done is not None:
                    done(i, value)
        except BaseException:
            self.client.cancel(futures)
            raise
        return results

    def throughput(self) -> str:
        """Hands per second of each worker in the current :meth:`map` (since it started)."""
        elapsed = time.perf_counter() - self.t0
        if elapsed <= 0 or not self.stats:
            return ""
        words = [f"{_short(w)} {s[1] / elapsed:,.0f}/s" for w, s in sorted(self.stats.items())]
        return "per worker: " + ", ".join(words)


def _short(worker: str) -> str:
    """``w0`` for a LocalCluster's worker 0; a named worker by its name (or address)."""
    return f"w{worker}" if worker.isdigit() else worker.removeprefix("tcp://")
