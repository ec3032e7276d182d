"""The Dask backend's costs on this machine: overhead per task, and 1 against 2 local workers.

    python experiments/cluster_scaling.py --hands 1048576

Needs the ``[cluster]`` extra. Everything is measured back to back in one go (the machine may
be shared: compare only figures of one invocation). Prints one line per measurement:

* ``empty task``: tasks that do nothing, on a ``local:2`` cluster: the wall time per task
  when many are queued (throughput) and when one is sent at a time (round trip).
* ``part overhead``: the same run (``--small-parts`` parts of 1,024 hands) on one local
  thread and on a ``local:1`` cluster: the difference per part is what a part task costs
  beyond its work (pickling the task, the worker's Parquet write, the client's manifest).
* ``scaling``: ``--hands`` hands in 131,072-hand parts on ``local:1`` and ``local:2`` (and on
  this process with 1 and 2 threads, for reference), kernels warmed before every clock; with
  the CPU time the workers used, so that a busy machine (no second core to be had) is told
  apart from a backend that does not scale.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import psutil

from pinochle_sim.runs.backends import cluster
from pinochle_sim.runs.runner import run


def _nothing(x: int) -> int:
    return x


def _timed_run(hands: int, out: Path, part_size: int, **kw: object) -> float:
    shutil.rmtree(out, ignore_errors=True)
    s = run(hands, seed=0, out=str(out), part_size=part_size, **kw)  # type: ignore[arg-type]
    return s.seconds


def _cpu_seconds() -> float:
    """CPU seconds this process has used (run on each worker)."""
    t = psutil.Process().cpu_times()
    return t.user + t.system


def _workers_cpu(b: cluster.DaskBackend) -> float:
    return sum(b.client.run(_cpu_seconds).values())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1 << 20)
    ap.add_argument("--small-parts", type=int, default=64)
    ap.add_argument("--tasks", type=int, default=400)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pinochle-cluster-"))
    try:
        run(1024, out=str(tmp / "warm"), threads=1)  # compile or load here first
        small = a.small_parts * 1024
        with cluster.connect_cluster("local:2", dashboard=":0") as b:
            b.wait_for_workers(2)
            b.map(_nothing, list(range(20)))
            t0 = time.perf_counter()
            b.map(_nothing, list(range(a.tasks)))
            queued = (time.perf_counter() - t0) / a.tasks
            trips = []
            for i in range(20):
                t0 = time.perf_counter()
                b.map(_nothing, [i])
                trips.append(time.perf_counter() - t0)
            print(
                f"empty task on local:2: {queued * 1e3:.1f} ms per task queued "
                f"({a.tasks} tasks), {statistics.median(trips) * 1e3:.1f} ms round trip "
                "(median of 20)"
            )
        here = _timed_run(small, tmp / "p", 1024, threads=1)
        with cluster.connect_cluster("local:1", dashboard=":0") as b:
            b.wait_for_workers(1)
            _timed_run(small, tmp / "p", 1024, backend=b)  # warms the worker
            there = _timed_run(small, tmp / "p", 1024, backend=b)
        print(
            f"part overhead: {a.small_parts} parts of 1,024 hands: {here:.2f} s on 1 thread "
            f"here, {there:.2f} s on local:1: {(there - here) / a.small_parts * 1e3:.1f} ms "
            "per part task"
        )
        part = 1 << 17
        rows = {}
        cpu: dict[int, float] = {}
        for threads in (1, 2):
            rows[f"this process, {threads} thread(s)"] = _timed_run(
                a.hands, tmp / "s", part, threads=threads
            )
        for n in (1, 2):
            with cluster.connect_cluster(f"local:{n}", dashboard=":0") as b:
                b.wait_for_workers(n)
                _timed_run(n * part, tmp / "s", part, backend=b)  # warm every worker
                cpu0 = _workers_cpu(b)
                rows[f"local:{n}"] = _timed_run(a.hands, tmp / "s", part, backend=b)
                cpu[n] = _workers_cpu(b) - cpu0
        for name, s in rows.items():
            print(f"scaling: {a.hands:,} hands on {name}: {s:.2f} s, {a.hands / s:,.0f} hands/s")
        print(f"scaling: local:2 / local:1 speed-up {rows['local:1'] / rows['local:2']:.2f}x")
        for n, c in cpu.items():
            print(
                f"scaling: local:{n}: workers used {c:.2f} CPU s ({c / rows[f'local:{n}']:.2f} "
                f"cores on average), {a.hands / c:,.0f} hands per worker CPU second"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
