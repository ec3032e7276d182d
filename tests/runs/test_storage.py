"""Run folders on a store: any fsspec URL reads and writes like a local folder.

``memory://`` is fsspec's in-process store: it shares nothing with the local file system, so a
run there proves the whole path (atomic part writes, the manifest, resume, set-aside, the
readers) goes through fsspec. Records are compared with the same run in a local folder.
The command line on a store (and its one-line errors for URLs it cannot use) is tested in
tests/cli/test_storage.py.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import fsspec
import pyarrow.parquet as pq
import pytest
from fsspec.implementations.memory import MemoryFileSystem

from pinochle_sim.runs.runner import run
from pinochle_sim.runs.store.check import check_run
from pinochle_sim.runs.store.files import DAMAGED, RunFolderError, read_manifest
from pinochle_sim.runs.store.location import UrlPath, beside, is_url, location, scheme
from pinochle_sim.runs.store.read import read_columns
from pinochle_sim.runs.store.scan import open_dataset

HANDS, PART = 3000, 1000
MEM = fsspec.filesystem("memory")


class BucketStore(MemoryFileSystem):
    """``bucket://``: an in-memory store with an object store's folders, as S3 and GCS have
    them: a folder is only a prefix of the files below it, so making one does nothing, and
    listing one that holds nothing is a FileNotFoundError."""

    protocol = ("bucket",)
    store: dict = {}  # noqa: RUF012 - fsspec's own class attribute, shared on purpose
    pseudo_dirs: list = [""]  # noqa: RUF012

    def mkdir(self, path: str, create_parents: bool = True, **kwargs: object) -> None:
        pass

    def makedirs(self, path: str, exist_ok: bool = False) -> None:
        pass

    def rmdir(self, path: str) -> None:
        pass

    @classmethod
    def _strip_protocol(cls, path: str) -> str:
        path = path.removeprefix("bucket://")
        return ("/" + path.lstrip("/")).rstrip("/") or "/"


fsspec.register_implementation("bucket", BucketStore, clobber=True)


def _url() -> str:
    return f"memory://pinochle-tests/{uuid.uuid4().hex}"


def _inner(url: str) -> str:
    return "/" + url.removeprefix("memory://")


def _same_records(local: Path, url: str) -> None:
    names = sorted(p.name for p in local.glob("part-*.parquet"))
    stored = sorted(n.rsplit("/", 1)[-1] for n in MEM.ls(_inner(url), detail=False))
    assert [n for n in stored if n.startswith("part-")] == names
    for name in names:
        a = pq.read_table(local / name)
        with MEM.open(f"{_inner(url)}/{name}", "rb") as f:
            b = pq.read_table(f)
        assert a.equals(b) and a.schema == b.schema, name
        ma = json.loads(a.schema.metadata[b"pinochle_sim"])
        mb = json.loads(b.schema.metadata[b"pinochle_sim"])
        assert ma.pop("created") and mb.pop("created")
        assert ma == mb


def test_where_a_path_points():
    assert isinstance(location("runs/p0"), Path)
    assert location("file:///tmp/x") == Path("/tmp/x")
    assert isinstance(location("memory://a/b"), UrlPath)
    assert str(location("memory://a/b") / "c") == "memory://a/b/c"
    assert (location("memory://a/b/c").parent, location("memory://a/b").name) == (
        location("memory://a/b"),
        "b",
    )
    assert location("memory://a").parent == location("memory://a")  # never above the root
    assert scheme("C:\\runs\\p0") == "" and scheme("runs/a:b") == ""  # paths, not URLs
    assert not is_url("file:///tmp/x") and is_url("s3://bucket/x")
    assert scheme("simplecache::s3://bucket/x") == "simplecache::s3"  # an fsspec chain
    assert beside("s3://bucket/runs/p0/", "-report") == "p0-report"
    assert beside("runs/p0/", "-report") == "runs/p0-report"


def test_a_run_on_a_store_has_the_local_records_and_reads_back(tmp_path):
    url = _url()
    run(HANDS, seed=4, out=str(tmp_path / "here"), part_size=PART)
    s = run(HANDS, seed=4, out=url, part_size=PART)
    assert (s.path, s.hands_computed) == (url, HANDS)
    _same_records(tmp_path / "here", url)
    assert read_manifest(url)["complete"] is True
    check = check_run(url, verify=True)
    assert check.complete and check.done == HANDS
    assert read_columns(url, ["hand"]).num_rows == HANDS
    assert open_dataset(url).count_rows() == HANDS
    assert not [n for n in MEM.ls(_inner(url), detail=False) if ".tmp-" in n]


def test_a_run_on_a_store_refuses_to_overwrite_and_resumes_what_is_missing(tmp_path):
    url = _url()
    run(HANDS, seed=2, out=url, part_size=PART)
    with pytest.raises(RunFolderError, match=r"already exists.*complete run"):
        run(HANDS, seed=2, out=url, part_size=PART)
    root = _inner(url)
    MEM.rm(f"{root}/part-00001.parquet")
    MEM.pipe(f"{root}/part-00002.parquet", b"PAR1 not a parquet file PAR1")
    MEM.pipe(f"{root}/.part-00000.parquet.tmp-99", b"half a part")  # a killed writer's
    check = check_run(url)
    assert not check.complete and check.missing and check.damaged
    s = run(HANDS, seed=2, out=url, part_size=PART, resume=True)
    assert s.hands_computed == 2 * PART
    assert any("part-00002.parquet was damaged" in r for r in s.repairs)
    assert MEM.exists(f"{root}/{DAMAGED}/part-00002.parquet")  # set aside, never deleted
    run(HANDS, seed=2, out=str(tmp_path / "here"), part_size=PART)
    _same_records(tmp_path / "here", url)
    assert read_manifest(url)["complete"] is True
    with pytest.raises(RunFolderError, match="different settings"):
        run(HANDS, seed=3, out=url, part_size=PART, resume=True)
    s = run(HANDS, seed=3, out=url, part_size=PART, overwrite=True)
    assert s.hands_computed == HANDS and not MEM.exists(f"{root}/{DAMAGED}")


def test_a_store_without_empty_folders_runs_resumes_and_overwrites(tmp_path):
    """S3-like folders (none until a file is in them): a fresh run, a resume that sets a
    damaged part aside and an overwrite all work, and the records are the local run's."""
    url = f"bucket://runs/{uuid.uuid4().hex}/p0"
    fs = fsspec.filesystem("bucket")
    root = url.removeprefix("bucket:/")
    assert run(HANDS, seed=7, out=url, part_size=PART).hands_computed == HANDS
    fs.pipe_file(f"{root}/part-00001.parquet", b"PAR1 damaged PAR1")
    s = run(HANDS, seed=7, out=url, part_size=PART, resume=True)
    assert s.hands_computed == PART and fs.exists(f"{root}/{DAMAGED}/part-00001.parquet")
    assert check_run(url, verify=True).complete
    s = run(HANDS, seed=7, out=url, part_size=PART, overwrite=True)
    assert s.hands_computed == HANDS and not fs.exists(f"{root}/{DAMAGED}/part-00001.parquet")
    run(HANDS, seed=7, out=str(tmp_path / "here"), part_size=PART)
    for k in range(3):
        with fs.open(f"{root}/part-0000{k}.parquet", "rb") as f:
            assert pq.read_table(f).equals(
                pq.read_table(tmp_path / "here" / f"part-0000{k}.parquet")
            )


def test_overwrite_on_a_store_removes_only_the_run_folder():
    base = f"bucket://runs/{uuid.uuid4().hex}"
    run(1000, out=f"{base}/p1")
    run(1000, out=f"{base}/p10")
    run(1000, seed=1, out=f"{base}/p1", overwrite=True)
    assert read_manifest(f"{base}/p10")["complete"] and read_manifest(f"{base}/p1")["complete"]
