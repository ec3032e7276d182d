"""Run folders on a store at the command line: ``run``, ``info``, ``export`` and ``report`` on a
``bucket://`` URL (an in-memory store shaped like S3, standing for one that outlives the
command); ``memory://`` refused as an output (it is gone when the command ends); one-line
errors for URLs a run folder cannot use (an unknown protocol, no folder, a pattern, a missing
driver, a store that refuses) and for reports and exports written to a URL.

The library path (records equal to a local run's, resume, overwrite, S3-like folders) is tested
in tests/runs/test_storage.py; importing from it also registers its ``bucket://`` store, which
the cases here use."""

from __future__ import annotations

import uuid
from pathlib import Path

import fsspec
import pytest
from click.testing import CliRunner
from fsspec.implementations.memory import MemoryFileSystem

from pinochle_sim.cli.commands import main
from pinochle_sim.runs.runner import run
from tests.runs.test_storage import HANDS, _url  # registers bucket:// too


def _kept_url() -> str:
    """A run folder on ``bucket://``: the CLI's stand-in for a store that keeps what it is
    given (``memory://`` lives only as long as the command, and the CLI refuses it)."""
    return f"bucket://pinochle-tests/{uuid.uuid4().hex}"


def test_the_cli_runs_checks_reports_and_exports_a_run_on_a_store(tmp_path):
    url = _kept_url()
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
        (["run", "--hands", "10", "--out", "bucket://"], "names no folder"),
        (["run", "--hands", "10", "--out", "memory://runs/p0"], "lives only as long as"),
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


@pytest.mark.parametrize(
    ("out", "words"),
    [
        ("bucket://runs/run[1]", "reads as a pattern"),
        ("bucket://runs/p?", "reads as a pattern"),
        ("simplecache::bucket://runs/p0", "simplecache:: layer"),
        ("simplecache::memory://runs/p0", "lives only as long as"),
        ("bucket://only-a-bucket", "names no folder below the bucket"),
    ],
)
def test_store_urls_a_run_folder_cannot_use_safely_are_refused(out, words):
    res = CliRunner().invoke(main, ["run", "--hands", "10", "--out", out])
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert res.exit_code == 1 and len(errors) == 1 and words in errors[0], res.output


@pytest.mark.parametrize("command", ["report", "export"])
def test_reports_and_exports_are_not_written_to_a_url(command, tmp_path):
    url = _url()
    run(1000, out=url)
    res = CliRunner().invoke(main, [command, url, "--out", "memory://elsewhere/out"])
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert res.exit_code == 1 and len(errors) == 1, res.output
    assert "written to a local file or folder" in errors[0]
    assert not (Path("memory:") / "elsewhere").exists()


def test_a_store_that_refuses_is_a_one_line_error(monkeypatch):
    """A driver's own exception (botocore's NoCredentialsError is not an OSError) names the
    URL in one line; a store that cannot be reached at all (nothing listens at this FTP
    address) does too."""
    url = _url()
    run(1000, out=url)

    class NoCredentials(Exception):
        pass

    def refuse(*args: object, **kwargs: object) -> None:
        raise NoCredentials("Unable to locate credentials")

    monkeypatch.setattr(MemoryFileSystem, "exists", refuse)
    kept = _kept_url()
    for args in (["info", url], ["run", "--hands", "10", "--out", kept]):
        res = CliRunner().invoke(main, args)
        errors = [line for line in res.output.splitlines() if line.startswith("Error")]
        assert res.exit_code == 1 and len(errors) == 1, res.output
        assert "NoCredentials: Unable to locate credentials" in errors[0]
    monkeypatch.undo()
    res = CliRunner().invoke(main, ["info", "ftp://127.0.0.1:1/runs/p0"])
    errors = [line for line in res.output.splitlines() if line.startswith("Error")]
    assert res.exit_code == 2 and len(errors) == 1 and "cannot use" in errors[0], res.output
