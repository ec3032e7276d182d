"""The Dask backend (runs/cluster.py) on a LocalCluster of two worker processes: the records,
matches and advice of a cluster equal those of this process, also after a worker is killed
mid-task and after a resume. The command line on a cluster (its one-line errors for unreachable
schedulers and output paths, the dashboard, ``compare``, ``sweep`` and ``advise``) is tested in
tests/cli/test_cluster.py.

What "equal" means: every record column of every part, and each part's provenance but its
creation time (a run records when it was started), are those of the same run made here, so
the cluster path is checked against the local path, which the rest of the suite checks
against the rules."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from pinochle_sim.analysis.advise import advise
from pinochle_sim.analysis.compare import sweep
from pinochle_sim.analysis.matches import duplicate
from pinochle_sim.policies import DEFAULT_POLICIES, PolicySet
from pinochle_sim.runs.backends import cluster
from pinochle_sim.runs.observer import Observer
from pinochle_sim.runs.runner import PartTask, run
from pinochle_sim.runs.store.files import MANIFEST, part_name
from tests.catalog import ALL_PRESETS

PART = 700
PARTS = 3  # the last part short: 2 x 700 + 300
HANDS = PART * (PARTS - 1) + 300


@pytest.fixture(scope="module")
def backend() -> Any:
    with cluster.connect_cluster("local:2", dashboard=":0") as b:
        b.wait_for_workers(2)
        yield b


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def assert_same_run(local: Path, other: Path) -> None:
    """Same part files, same record columns, same provenance but the creation time."""
    a, b = _parts(local), _parts(other)
    assert [p.name for p in a] == [p.name for p in b]
    for pa_, pb_ in zip(a, b, strict=True):
        ta, tb = pq.read_table(pa_), pq.read_table(pb_)
        assert ta.schema == tb.schema
        assert ta.equals(tb), pa_.name
        ma = json.loads(ta.schema.metadata[b"pinochle_sim"])
        mb = json.loads(tb.schema.metadata[b"pinochle_sim"])
        assert ma.pop("created") and mb.pop("created")
        assert ma == mb
    manifest = json.loads((other / MANIFEST).read_text())
    assert manifest["complete"] is True
    assert sorted(manifest["parts"]) == [str(k) for k in range(len(a))]
    assert not list(other.glob(".*tmp*")), "a temporary file was left behind"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_cluster_run_records_equal_the_local_run(preset, backend, tmp_path):
    run(HANDS, seed=5, rules=preset, out=str(tmp_path / "here"), part_size=PART)
    s = run(HANDS, seed=5, rules=preset, out=str(tmp_path / "there"), part_size=PART,
            backend=backend)  # fmt: skip
    assert (s.hands, s.hands_computed) == (HANDS, HANDS)
    assert_same_run(tmp_path / "here", tmp_path / "there")


def test_cluster_run_with_policies_and_fixed_cards_and_a_file_url(backend, tmp_path):
    pol = PolicySet(play="counting", params=(("bid.margin", 20),))
    fixed = {1: "AS AS 10S KS QS JS"}
    kw: dict[str, Any] = {"seed": 9, "policies": pol, "part_size": PART, "fixed": fixed}
    run(HANDS, out=str(tmp_path / "here"), dealer=2, **kw)
    run(HANDS, out=f"file://{tmp_path / 'there'}", dealer=2, backend=backend, **kw)
    assert_same_run(tmp_path / "here", tmp_path / "there")


def test_cluster_dd_run_equals_the_local_run(backend, tmp_path):
    """``run --dd`` on the cluster: the workers solve their parts (``runner.make_part``, the
    step the local loop shares) and the double-dummy columns equal the local run's. Two-hand
    play-outs solve in milliseconds (a partnership deal takes seconds: the local dd tests
    cover those presets' columns)."""
    kw: dict[str, Any] = {"seed": 3, "rules": "two-hand", "part_size": 25, "dd": True}
    run(60, out=str(tmp_path / "here"), **kw)
    run(60, out=str(tmp_path / "there"), backend=backend, **kw)
    assert_same_run(tmp_path / "here", tmp_path / "there")
    assert "dd_points_0" in pq.read_table(tmp_path / "there").schema.names


def test_cluster_games_run_equals_the_local_run(backend, tmp_path):
    kw: dict[str, Any] = {"seed": 2, "games": True, "part_size": 40}
    run(100, out=str(tmp_path / "here"), **kw)
    run(100, out=str(tmp_path / "there"), backend=backend, **kw)
    assert_same_run(tmp_path / "here", tmp_path / "there")


class KillOnce:
    """A task wrapper that kills its worker's process in the middle of part ``victim`` (after
    a temporary file is half written) the first time that part runs; picklable by
    reference, so the workers run it."""

    def __init__(self, fn: Any, marker: str, victim: int) -> None:
        self.fn, self.marker, self.victim = fn, marker, victim

    def __call__(self, task: PartTask) -> Any:
        if task.k == self.victim and not os.path.exists(self.marker):
            Path(self.marker).write_text(str(os.getpid()))
            half = Path(task.path) / f".{part_name(task.k)}.tmp-{os.getpid()}"
            half.write_bytes(b"PAR1 half a part")
            os.kill(os.getpid(), signal.SIGKILL)
        return self.fn(task)


class Killing:
    """The cluster backend, with the victim's worker killed mid-task."""

    in_process = False

    def __init__(self, inner: Any, marker: str, victim: int) -> None:
        self.inner, self.marker, self.victim = inner, marker, victim
        self.slots = inner.slots

    def task_size(self, count: int) -> int:
        return self.inner.task_size(count)

    def describe(self) -> str:
        return self.inner.describe()

    def warm(self, *args: Any) -> float:
        return self.inner.warm(*args)

    def check_path(self, path: str) -> None:
        self.inner.check_path(path)

    def map(self, fn: Any, items: Any, done: Any = None, then: Any = None) -> list[Any]:
        return self.inner.map(KillOnce(fn, self.marker, self.victim), items, done, then)


def test_a_worker_killed_mid_run_costs_one_retried_task(backend, tmp_path):
    run(HANDS, seed=3, out=str(tmp_path / "here"), part_size=PART)
    marker = tmp_path / "killed"
    before = set(backend.client.run(os.getpid).values())
    s = run(HANDS, seed=3, out=str(tmp_path / "there"), part_size=PART,
            backend=Killing(backend, str(marker), victim=1))  # fmt: skip
    killed = int(marker.read_text())
    assert killed in before  # one of the two workers died ...
    assert s.hands_computed == HANDS  # ... and its part was simply done again
    assert_same_run(tmp_path / "here", tmp_path / "there")
    assert _replaced(backend, killed)  # the nanny restarted the dead worker


def test_a_worker_killed_from_outside_after_the_first_part_lands(backend, tmp_path):
    """SIGKILL to a worker's process once a part is in (whatever it was doing then): the run
    completes with the local run's records."""
    kw: dict[str, Any] = {"seed": 12, "part_size": 1500}
    hands = 6 * 1500
    run(hands, out=str(tmp_path / "here"), **kw)
    pids = sorted(backend.client.run(os.getpid).values())
    landed: list[int] = []

    class KillAfterFirstPart(Observer):
        def update(self, n: int) -> None:
            landed.append(n)
            if sum(landed) > 0 and len(landed) == 2:  # the first call: parts done before
                os.kill(pids[0], signal.SIGKILL)

    s = run(hands, out=str(tmp_path / "there"), backend=backend, observer=KillAfterFirstPart(),
            **kw)  # fmt: skip
    assert len(landed) == 7 and s.hands_computed == hands
    assert_same_run(tmp_path / "here", tmp_path / "there")
    assert _replaced(backend, pids[0])


def _replaced(backend: Any, pid: int, timeout: float = 60.0) -> bool:
    """Whether two workers run again, none of them in process ``pid``, within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            backend.wait_for_workers(2)
            pids = set(backend.client.run(os.getpid).values())
        except Exception:  # the dead worker was still listed: ask again
            pids = set()
        if len(pids) == 2 and pid not in pids:
            return True
        time.sleep(0.2)
    return False


def test_resume_on_the_cluster_redoes_only_what_is_missing(backend, tmp_path):
    run(HANDS, seed=4, out=str(tmp_path / "here"), part_size=PART)
    there = tmp_path / "there"
    run(HANDS, seed=4, out=str(there), part_size=PART, backend=backend)
    (there / part_name(1)).unlink()
    s = run(HANDS, seed=4, out=str(there), part_size=PART, resume=True, backend=backend)
    assert s.hands_computed == PART
    assert_same_run(tmp_path / "here", there)


def test_workers_write_through_fsspec_to_a_store_url_and_resume_there(backend, tmp_path):
    """``local://`` is fsspec's own local file system: a URL, so the workers (other processes)
    and the client read and write it through fsspec, as they would an object store's."""
    run(HANDS, seed=8, out=str(tmp_path / "here"), part_size=PART)
    url = f"local://{tmp_path / 'there'}"
    s = run(HANDS, seed=8, out=url, part_size=PART, backend=backend)
    assert (s.path, s.hands_computed) == (url, HANDS)
    assert_same_run(tmp_path / "here", tmp_path / "there")
    (tmp_path / "there" / part_name(0)).unlink()
    s = run(HANDS, seed=8, out=url, part_size=PART, resume=True, backend=backend)
    assert s.hands_computed == PART
    assert_same_run(tmp_path / "here", tmp_path / "there")


def test_thread_workers_share_an_in_memory_store(tmp_path):
    """Workers that are threads of this process see its ``memory://`` store: the probe lets
    it through, and the parts the workers write there are the local run's."""
    import fsspec
    from distributed import Client, LocalCluster

    run(HANDS, seed=1, out=str(tmp_path / "here"), part_size=PART)
    url = f"memory://cluster-tests/{os.getpid()}-{time.monotonic_ns()}"
    lc = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
    with cluster.DaskBackend(Client(lc), lc) as threaded:
        s = run(HANDS, seed=1, out=url, part_size=PART, backend=threaded)
    assert s.hands_computed == HANDS
    mem = fsspec.filesystem("memory")
    for k in range(PARTS):
        with mem.open(f"/{url.removeprefix('memory://')}/{part_name(k)}", "rb") as f:
            assert pq.read_table(f).equals(pq.read_table(tmp_path / "here" / part_name(k)))
    assert json.loads(mem.cat(f"/{url.removeprefix('memory://')}/{MANIFEST}"))["complete"]


def test_compare_sweep_and_advise_equal_the_local_results(backend, monkeypatch):
    a, b = PolicySet(play="counting"), DEFAULT_POLICIES
    n = 1200
    here = duplicate("partnership", a, b, n, seed=2)
    monkeypatch.setattr(backend, "task_size", lambda n: 512)  # the last one short
    there = duplicate("partnership", a, b, n, seed=2, backend=backend)
    assert there.equals(here)
    assert len(here) == n and not (here["diff"] == 0).all()
    t_here, d_here = sweep("three-hand", b, "bid.margin", [-20, 20], b, 600, seed=1)
    t_there, d_there = sweep("three-hand", b, "bid.margin", [-20, 20], b, 600, seed=1,
                             backend=backend)  # fmt: skip
    assert t_there.equals(t_here) and d_there.equals(d_here)
    cards = "AS AS 10S KS QS JS 9S KH QH AD AC 9C"
    assert (
        advise(cards, hands=400, seed=8, backend=backend).to_json()
        == advise(cards, hands=400, seed=8).to_json()
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_real_scheduler_passes_the_protocol_screen(backend):
    """The screen that turns away HTTP servers and noise lets a Dask scheduler through (its
    first eight bytes are its handshake's length), and gives way when unsure."""
    assert backend.address.startswith("tcp://")
    assert cluster._screen(backend.address, 2.0) is None
    closed = cluster._screen(f"tcp://127.0.0.1:{_free_port()}", 1.0)
    assert closed == "nothing listens there: the connection was refused"
    assert cluster._screen("tls://127.0.0.1:1", 1.0) is None  # not plain TCP: not screened


def test_the_probe_reports_a_worker_that_cannot_write(tmp_path):
    """What a worker answers when it sees the client's probe file but cannot write its own
    beside it (here a folder stands where its file would go; permissions are no obstacle to
    root, so this is the way to make the write fail)."""
    (tmp_path / ".probe-t0").write_bytes(b"ok")
    (tmp_path / f".probe-t0-{os.getpid()}").mkdir()
    problem = cluster._probe(str(tmp_path), "t0")
    assert problem is not None and problem.startswith("cannot write there (")
    assert cluster._probe(str(tmp_path), "t1") == (
        "does not see the files this process writes there"
    )
    (tmp_path / f".probe-t0-{os.getpid()}").rmdir()
    assert cluster._probe(str(tmp_path), "t0") is None
    assert (tmp_path / f".probe-t0-{os.getpid()}").read_bytes() == b"ok"


def test_a_scheduler_address_connects_and_workers_of_another_version_are_refused(
    backend, monkeypatch
):
    with cluster.connect_cluster(backend.address) as other:  # the module's cluster, by its address
        assert other.workers == 2 and other.slots == 2
        assert other.describe().startswith(f"the Dask scheduler at {backend.address}: 2 workers")
    # This process now computes another kernel-source hash than the workers do.
    monkeypatch.setattr(cluster, "source_hash", lambda: "0123456789ab")
    with pytest.raises(cluster.ClusterError, match="the same version must run everywhere"):
        cluster.connect_cluster(backend.address)
    assert backend.workers == 2  # refusing closed only that client
