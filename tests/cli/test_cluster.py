"""The Dask backend at the command line: ``run``, ``compare``, ``sweep`` and ``advise`` with
``--cluster`` write the local results, and ``run`` prints the dashboard and per-worker throughput;
an unreachable scheduler, something else listening there, an output path the workers cannot
reach, a missing Dask and a bad ``local:N`` are one-line errors.

The backend itself (records, matches and advice equal to this process's, killed workers,
resume, stores) is tested in tests/runs/test_cluster.py, whose LocalCluster fixture ``backend``
(module-scoped: this module starts its own) and helpers are imported here."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import pinochle_sim
import pinochle_sim.runs.backends
from pinochle_sim.cli.commands import main
from pinochle_sim.runs.backends import cluster
from pinochle_sim.runs.runner import run
from tests.runs.test_cluster import HANDS, PART, _free_port, assert_same_run

# Fixtures, imported by name for pytest (module-scoped: this module gets its own instance);
# `name as name` marks a re-export, so ruff keeps the import and the parameters using it.
from tests.runs.test_cluster import backend as backend
from tests.runs.test_storage import BucketStore  # registers bucket:// in this process only


def _one_line_error(result: Any) -> str:
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def test_unreachable_scheduler_is_a_one_line_error(tmp_path):
    """A closed port is said to be one at once (not after Dask's connect timeout), never as a
    scheduler that does not speak Dask's protocol."""
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    t0 = time.monotonic()
    result = CliRunner().invoke(
        main, ["run", "--hands", "100", "--cluster", address, "--out", str(tmp_path / "r")]
    )
    line = _one_line_error(result)
    assert f"cannot reach the Dask scheduler at '{address}'" in line
    assert "nothing listens there: the connection was refused" in line
    assert "protocol" not in line and "dask scheduler" in line
    assert time.monotonic() - t0 < cluster.CONNECT_TIMEOUT_S
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("answer", [b"HTTP/1.1 400 Bad Request\r\n\r\n" * 8, b"\xff" * 64])
def test_something_else_listening_there_is_a_one_line_error(answer, monkeypatch, tmp_path):
    """A port where a web server or proxy answers, not a Dask scheduler: its first bytes read as
    a frame length asked Dask for exabytes (seen on a sandboxed network)."""
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 2.0)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.sendall(answer)
                    conn.recv(4096)
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        result = CliRunner().invoke(
            main, ["run", "--hands", "100", "--cluster", address, "--out", str(tmp_path / "r")]
        )
    finally:
        server.close()
    line = _one_line_error(result)
    assert f"cannot reach the Dask scheduler at '{address}'" in line
    assert "it does not speak Dask's protocol" in line
    assert "Exception ignored" not in result.output
    assert not (tmp_path / "r").exists()


def test_an_output_path_the_workers_cannot_reach_is_a_one_line_error(backend, monkeypatch):
    # bucket:// lives inside this process: the workers cannot use it (tests/runs/test_cluster.py
    # covers the worker that reaches the store but not the files).
    assert BucketStore.protocol == ("bucket",)
    monkeypatch.setattr(pinochle_sim, "connect_cluster", lambda address: _Borrowed(backend))
    result = CliRunner().invoke(
        main, ["run", "--hands", "100", "--cluster", "local:2", "--out", "bucket://runs/r"]
    )
    line = _one_line_error(result)
    assert "cannot use the output path 'bucket://runs/r'" in line
    assert "cannot write there" in line and "s3://" in line


class _Borrowed:
    """The module's backend lent to a CLI call (which closes what it connects to)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __enter__(self) -> Any:
        return self.inner

    def __exit__(self, *exc: object) -> None:
        pass


def test_cli_run_prints_the_dashboard_and_per_worker_throughput(backend, monkeypatch, tmp_path):
    monkeypatch.setattr(pinochle_sim, "connect_cluster", lambda address: _Borrowed(backend))
    out = tmp_path / "r"
    args = ["run", "--hands", str(HANDS), "--part-size", str(PART), "--seed", "6"]
    result = CliRunner().invoke(main, [*args, "--cluster", "local:2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "cluster: a LocalCluster at tcp://" in result.output
    assert "dashboard http://" in result.output
    assert "per worker: w" in result.output
    run(HANDS, seed=6, out=str(tmp_path / "here"), part_size=PART)
    assert_same_run(tmp_path / "here", out)
    both = CliRunner().invoke(main, [*args, "--cluster", "local:2", "--threads", "1"])
    assert both.exit_code == 2 and "Error: --threads is for work on this process" in both.output


def test_without_dask_cluster_names_the_extra_to_install(monkeypatch, tmp_path):
    # As if Dask were not installed: importing distributed fails, and the cluster module is
    # imported afresh (and fails there).
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.delitem(sys.modules, "pinochle_sim.runs.backends.cluster")
    monkeypatch.delattr(pinochle_sim.runs.backends, "cluster")
    monkeypatch.delattr(pinochle_sim, "connect_cluster", raising=False)  # the top's cached name
    result = CliRunner().invoke(
        main, ["run", "--hands", "100", "--cluster", "local:2", "--out", str(tmp_path / "r")]
    )
    line = _one_line_error(result)
    assert line.startswith("Error: --cluster needs Dask, which is not installed (distributed)")
    assert line.endswith('pip install "pinochle-sim[cluster]"')


def test_bad_local_cluster_size_is_a_one_line_error():
    result = CliRunner().invoke(main, ["compare", "default", "default", "--cluster", "local:0"])
    assert "write local:N with N from 1 to 256" in _one_line_error(result)


def test_cli_compare_sweep_and_advise_on_the_cluster_write_the_local_results(
    backend, monkeypatch, tmp_path
):
    monkeypatch.setattr(pinochle_sim, "connect_cluster", lambda address: _Borrowed(backend))
    on = ["--cluster", "local:2"]

    def both(args: list[str], out: str | None = None) -> tuple[Any, Any]:
        here = [*args, "--out", str(tmp_path / f"{out}-here")] if out else args
        there = [*args, "--out", str(tmp_path / f"{out}-there")] if out else args
        r1, r2 = CliRunner().invoke(main, here), CliRunner().invoke(main, [*there, *on])
        assert r1.exit_code == 0 and r2.exit_code == 0, (r1.output, r2.output)
        return r1, r2

    both(["compare", "play=counting", "default", "--hands", "800", "--seed", "4"], "cmp")
    for name in ("summary.csv", "summary.json"):
        assert (tmp_path / "cmp-here" / name).read_bytes() == (
            tmp_path / "cmp-there" / name
        ).read_bytes()
    pairs = [pq.read_table(tmp_path / f"cmp-{w}" / "pairs.parquet") for w in ("here", "there")]
    assert pairs[0].equals(pairs[1])
    both(["sweep", "--param", "bid.margin=-20,20", "--hands", "300", "--rules", "joedog"], "sw")
    assert (tmp_path / "sw-here" / "sweep.csv").read_bytes() == (
        tmp_path / "sw-there" / "sweep.csv"
    ).read_bytes()
    cards = ["AH", "AH", "10H", "KH", "QH", "JH", "9D", "KC", "QC", "JC", "9C", "KS"]
    r1, r2 = both(["advise", *cards, "--hands", "300", "--json"])
    assert json.loads(r1.stdout) == json.loads(r2.stdout)
