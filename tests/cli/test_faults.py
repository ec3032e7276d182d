"""Fault injection on run folders, through the command line: a deleted, damaged, truncated or
foreign part, a corrupt or missing manifest, a folder left by an interrupted start, a disk too
small, a complete run resumed. Each case checks the message (what is wrong, which file, the
remedy) and that nothing on disk was lost: a command that only reads changes no byte, and
``--resume`` keeps every sound part as it was and moves what it cannot use into ``_damaged/``
instead of deleting it.

The disk estimate per engine and a read-only compile cache are tested in
tests/runs/test_faults.py."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import pinochle_sim.runs.store.check as check_module
from pinochle_sim.cli.commands import main
from pinochle_sim.runs import estimate as estimate_module
from pinochle_sim.runs.backends import local as local_backend
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.store.check import check_run
from pinochle_sim.runs.store.files import MANIFEST
from pinochle_sim.runs.store.read import read_columns

N = 5000
PART = 1024  # five parts: 0..1023, ..., 4096..4999
SEED = 11
RUN_ARGS = ["run", "--hands", str(N), "--seed", str(SEED), "--part-size", str(PART)]


def _read(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path).sort_values("hand").reset_index(drop=True)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative name -> sha256 of its bytes)."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("faults") / "ref"
    run(N, seed=SEED, out=str(out), part_size=PART)
    return out


@pytest.fixture
def copy(reference, tmp_path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(reference, target)
    return target


def cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output


def resume(folder: Path) -> str:
    code, out = cli(*RUN_ARGS, "--out", str(folder), "--resume")
    assert code == 0, out
    return out


def damage_middle(path: Path) -> None:
    """Overwrite 16 bytes every 1,000 across the column data, as a failing disk might; the
    footer (its length is the int32 before the closing ``PAR1``) stays readable."""
    data = bytearray(path.read_bytes())
    footer = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    for at in range(1000, footer - 16, 1000):
        data[at : at + 16] = b"\xff" * 16
    path.write_bytes(bytes(data))


# ----------------------------------------------------------------------------- a deleted part


def test_deleted_part_is_named_by_info_and_resume_simulates_it_again(copy, reference):
    (copy / "part-00002.parquet").unlink()
    before = snapshot(copy)
    code, out = cli("info", str(copy))
    assert code == 0
    # 5000 hands in parts of 1024: part 2 holds hands 2048..3071
    assert "run: 3,976 of 5,000 hands in 4 of 5 parts, incomplete" in out
    assert "incomplete: hands 2048..3071 missing (1 of 5 parts)" in out
    assert "--resume" in out and f"--seed {SEED}" in out and f"--out {copy}" in out
    assert snapshot(copy) == before  # info only reads
    # the remedy it names works and recomputes exactly the missing part
    out = resume(copy)
    assert "computed 1,024 hands" in out
    pd.testing.assert_frame_equal(_read(copy), _read(reference))
    assert check_run(copy, verify=True).complete


def test_the_remedy_info_prints_is_a_command_that_works(copy, reference):
    (copy / "part-00004.parquet").unlink()
    remedy = check_run(copy).remedy()
    assert remedy.startswith("finish it with: pinochle-sim run ")
    words = remedy.removeprefix("finish it with: pinochle-sim ").split()
    code, out = cli(*words)
    assert code == 0, out
    pd.testing.assert_frame_equal(_read(copy), _read(reference))


# ----------------------------------------------------------------------------- a damaged part


def test_garbage_inside_a_part_is_found_by_verify_and_named_by_every_reader(
    copy, reference, monkeypatch
):
    bad = copy / "part-00003.parquet"
    damage_middle(bad)
    before = snapshot(copy)
    code, out = cli("info", str(copy))  # a small run is read in full anyway
    assert code == 0 and "damaged: part-00003.parquet (row group 0 unreadable" in out
    monkeypatch.setattr(check_module, "AUTO_VERIFY", 0)  # as for a big run: footers only
    code, out = cli("info", str(copy))
    assert code == 0 and "5,000 of 5,000 hands in 5 of 5 parts, complete" in out
    assert "--verify reads every row group" in out
    code, out = cli("info", str(copy), "--verify")
    assert code == 1
    assert "damaged: part-00003.parquet (row group 0 unreadable" in out
    assert "incomplete: hands 3072..4095 missing" in out and "--resume" in out
    # every read names the file and the remedy instead of a bare decompression error
    with pytest.raises(ValueError, match=r"part-00003\.parquet.*--resume"):
        read_columns(copy)
    code, out = cli("report", str(copy), "--only", "go_set", "--out", str(copy.parent / "rep"))
    assert code != 0 and "part-00003.parquet" in out and "--resume" in out
    code, out = cli("export", str(copy), "--decoded", "--out", str(copy.parent / "x.csv"))
    assert code != 0 and "part-00003.parquet" in out
    assert not (copy.parent / "x.csv").exists()
    assert snapshot(copy) == before
    # resume simulates it again and keeps the damaged file, set aside
    out = resume(copy)
    assert "repaired: part-00003.parquet was damaged" in out and "_damaged/" in out
    assert "computed 1,024 hands" in out
    assert snapshot(copy)["_damaged/part-00003.parquet"] == before["part-00003.parquet"]
    for k in (0, 1, 2, 4):  # sound parts are untouched
        name = f"part-{k:05d}.parquet"
        assert snapshot(copy)[name] == before[name]
    pd.testing.assert_frame_equal(_read(copy), _read(reference))  # _damaged/ is not read
    code, out = cli("info", str(copy), "--verify")
    assert code == 0 and "complete (every row group read)" in out


def test_truncated_part_is_damaged_for_info_without_verify(copy, reference):
    bad = copy / "part-00001.parquet"
    bad.write_bytes(bad.read_bytes()[:-100])
    code, out = cli("info", str(copy))
    assert code == 0 and "run: 3,976 of 5,000 hands in 4 of 5 parts, damaged" in out
    assert "damaged: part-00001.parquet (" in out and "--resume" in out
    resume(copy)
    pd.testing.assert_frame_equal(_read(copy), _read(reference))


def test_part_of_another_run_is_refused(copy, tmp_path, reference):
    other = tmp_path / "other"
    run(N, seed=SEED + 1, out=str(other), part_size=PART)
    shutil.copy(other / "part-00000.parquet", copy / "part-00000.parquet")
    check = check_run(copy)
    assert "belongs to another run" in check.damaged["part-00000.parquet"]
    assert "seed" in check.damaged["part-00000.parquet"]
    out = resume(copy)
    assert "part-00000.parquet was damaged" in out
    pd.testing.assert_frame_equal(_read(copy), _read(reference))


# ------------------------------------------------------------------------------- the manifest


def test_corrupt_manifest_is_named_and_resume_rebuilds_it(copy, reference):
    (copy / MANIFEST).write_text('{"format": 1, "settings": {', encoding="utf-8")
    before = snapshot(copy)
    code, out = cli("info", str(copy))
    assert code == 0 and f"damaged: {MANIFEST} (not valid JSON" in out
    assert "--resume" in out
    code, out = cli("info", str(copy), "--json")
    assert code == 0 and json.loads(out)["check"]["state"] == "damaged"
    code, out = cli(*RUN_ARGS, "--out", str(copy))
    assert code != 0 and "already exists" in out and "--resume" in out
    assert snapshot(copy) == before
    out = resume(copy)
    assert f"{MANIFEST} was unreadable" in out and "rebuilt" in out
    assert "nothing to compute" in out  # every part was sound: none simulated again
    assert snapshot(copy)[f"_damaged/{MANIFEST}"] == before[MANIFEST]
    assert json.loads((copy / MANIFEST).read_text())["complete"]
    pd.testing.assert_frame_equal(_read(copy), _read(reference))


def test_missing_manifest_is_rebuilt_from_the_parts(copy, reference):
    (copy / MANIFEST).unlink()
    code, out = cli("info", str(copy))
    assert code == 0 and f"{MANIFEST} missing" in out and "--resume" in out
    out = resume(copy)
    assert "rebuilt from the parts' provenance" in out and "nothing to compute" in out
    pd.testing.assert_frame_equal(_read(copy), _read(reference))


def test_a_folder_with_only_a_manifest_is_an_incomplete_run_for_info_and_run(copy, reference):
    """What Ctrl-C during the compile left behind before the compile moved ahead of the
    folder: ``info`` and ``run`` now agree that it is an unfinished run, and resume finishes
    it."""
    for p in copy.glob("part-*.parquet"):
        p.unlink()
    manifest = json.loads((copy / MANIFEST).read_text())
    manifest["parts"], manifest["complete"] = {}, False
    (copy / MANIFEST).write_text(json.dumps(manifest))
    code, out = cli("info", str(copy))
    assert code == 0 and "run: 0 of 5,000 hands in 0 of 5 parts, incomplete" in out
    assert "incomplete: hands 0..4999 missing (5 of 5 parts)" in out and "--resume" in out
    assert "not a run folder" not in out
    code, out = cli(*RUN_ARGS, "--out", str(copy))
    assert code != 0
    assert "it holds an incomplete run, 0 of 5,000 hands" in out and "--resume" in out
    out = resume(copy)
    assert "computed 5,000 hands" in out
    pd.testing.assert_frame_equal(_read(copy), _read(reference))


def test_interrupt_during_the_compile_leaves_nothing_behind(tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(local_backend, "warm", interrupted)
    out = tmp_path / "never"
    code, text = cli(*RUN_ARGS, "--out", str(out))
    assert code != 0 and "interrupted" in text and "--resume" in text
    assert not out.exists()  # nothing was written before the compile


# ------------------------------------------------------------------------------ the disk size


def test_a_run_too_big_for_the_disk_is_refused_at_once(tmp_path):
    out = tmp_path / "huge"
    code, text = cli("run", "--hands", "1e11", "--out", str(out))
    assert code != 0
    # 1e11 hands at 56 bytes each is 5.6 TB
    assert "not enough disk space" in text and "5.6 TB" in text and "--force" in text
    assert "free" in text and not out.exists()


def test_the_estimate_is_printed_and_force_overrides_the_refusal(tmp_path, monkeypatch):
    monkeypatch.setattr(estimate_module, "_free_bytes", lambda out: 999)
    code, text = cli(*RUN_ARGS, "--out", str(tmp_path / "a"))
    assert code != 0 and "not enough disk space" in text and "999 bytes are free" in text
    assert not (tmp_path / "a").exists()
    code, text = cli(*RUN_ARGS, "--out", str(tmp_path / "b"), "--force")
    assert code == 0, text
    # 5,000 hands x 56 bytes = 280 kB
    assert "estimated 280.0 kB on disk" in text and "999 bytes free there" in text


# ---------------------------------------------------------- a complete run resumed or overwritten


def test_resuming_a_complete_run_compiles_nothing(copy, monkeypatch):
    def must_not_compile(*args, **kwargs):
        raise AssertionError("a complete run needs no kernel")

    monkeypatch.setattr(local_backend, "warm", must_not_compile)
    before = snapshot(copy)
    code, out = cli(*RUN_ARGS, "--out", str(copy), "--resume")
    assert code == 0 and "nothing to compute" in out and "estimated" not in out
    assert {k: v for k, v in snapshot(copy).items() if k != MANIFEST} == {
        k: v for k, v in before.items() if k != MANIFEST
    }


def test_overwrite_counts_the_space_it_frees(copy, monkeypatch):
    # 999 bytes free, plus the ~420 kB the old run frees, hold the 280 kB the new one needs
    monkeypatch.setattr(estimate_module, "_free_bytes", lambda out: 999)
    code, out = cli(*RUN_ARGS, "--out", str(copy), "--overwrite")
    assert code == 0, out


def test_ctrl_c_in_the_middle_of_double_dummy_solving_ends_the_command_within_two_seconds(
    tmp_path,
):
    """A real ``pinochle-sim run --dd``, sent SIGINT once its first progress line shows it is
    solving full deals: it says so in one line and is gone within 2 s (the solver's threads
    are stopped, nothing waits for them), and the folder is an incomplete run that --resume
    finishes."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "dd"
    cmd = [sys.executable, "-m", "pinochle_sim", "run", "--dd", "--hands", "40", "--out", str(out)]

    def at_a_terminal() -> None:  # Ctrl-C taken, as at a terminal (a test worker ignores it)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            preexec_fn=at_a_terminal)  # fmt: skip
    seen = []
    assert proc.stderr is not None
    for line in proc.stderr:
        seen.append(line)
        if "deals/s" in line:
            break
    assert any("deals/s" in line for line in seen), seen
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=30)
    waited = time.monotonic() - t0
    assert proc.returncode == 130 and waited < 2.0, (waited, seen, rest)  # as shells report it
    assert "interrupted" in rest and "--resume" in rest and "Traceback" not in rest
    _, text = cli("info", str(out))
    assert "incomplete" in text and "--resume" in text
