"""Run folders on a store: any fsspec URL reads and writes like a local folder.

``memory://`` is fsspec's in-process store: it shares nothing with the local file system, so a
run there proves the whole path (atomic part writes, the manifest, resume, set-aside, the
readers) goes through fsspec. Records are compared with the same run in a local folder.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import fsspec
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from pinochle_sim.cli import main
from pinochle_sim.runs.dataset import (
    DAMAGED,
    RunFolderError,
    check_run,
    read_columns,
    read_manifest,
)
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.scan import open_dataset
from pinochle_sim.runs.storage import UrlPath, beside, is_url, location, scheme

HANDS, PART = 3000, 1000
MEM = fsspec.filesystem("memory")


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


def test_the_cli_runs_checks_reports_and_exports_a_run_on_a_store(tmp_path):
    url = _url()
    r = CliRunner()
    res = r.invoke(main, ["run", "--hands", str(HANDS), "--seed", "6", "--out", url])
    assert res.exit_code == 0, res.output
    assert f"{HANDS:,} hands in {url}" in res.output
    res = r.invoke(main, ["info", url])
    assert res.exit_code == 0 and "complete" in res.output, res.output
    out = tmp_path / "export.csv"
    res = r.invoke(main, ["export", url, "--out", str(out)])
    assert res.exit_code == 0 and out.read_text().count("\n") == HANDS + 1, res.output
    res = r.invoke(main, ["report", url, "--out", str(tmp_path / "rep"), "--only", "go_set"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "go_set.csv").exists()
    assert (tmp_path / "rep" / "report.md").read_text().count(f"{HANDS:,}") >= 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["run", "--hands", "10", "--out", "gopher://host/runs"], "Protocol not known"),
        (["run", "--hands", "10", "--out", "memory://"], "names no folder"),
        (["info", "memory://pinochle-tests/none-here"], "no such file or folder"),
        (["info", "gopher://host/runs"], "Protocol not known"),
    ],
)
def test_a_url_that_cannot_be_used_is_a_one_line_error(args, words):
    res = CliRunner().invoke(main, args)
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert res.exit_code in (1, 2) and len(errors) == 1, res.output
    assert "Traceback" not in res.output
    assert words in errors[0]


def test_a_store_whose_driver_is_missing_names_it(monkeypatch):
    """fsspec knows s3:// but needs s3fs for it: the error says so (in one line)."""

    def missing(url: str, **kw: object) -> None:
        raise ImportError("Install s3fs to access S3")

    monkeypatch.setattr(fsspec.core, "url_to_fs", missing)
    res = CliRunner().invoke(main, ["run", "--hands", "10", "--out", "s3://bucket/runs/p0"])
    assert res.exit_code == 1 and "Install s3fs to access S3" in res.output, res.output
    assert len([ln for ln in res.output.splitlines() if ln.startswith("Error")]) == 1
