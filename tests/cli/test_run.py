"""The run job at the command line: ``schema`` documents every column, ``info`` shows a run's
provenance, ``run`` prints its summary, resumes and overwrites, takes every form of ``--hands``
and has a default output folder; ``python -m pinochle_sim run`` killed with SIGKILL leaves only
complete parts and resumes; bad input, rules that could overflow the records or that the
four-hand engine does not play, and unwritable output are one-line errors.

The library side (Parquet records, determinism, atomic parts, resume, provenance) is tested in
tests/runs/test_run.py, whose ``reference_run`` fixture (module-scoped: this module makes its
own) and reader are imported here."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from click.testing import CliRunner

from pinochle_sim.cli.commands import main
from pinochle_sim.runs.simulate.hands import play_hands
from pinochle_sim.runs.store.files import MANIFEST
from pinochle_sim.runs.store.read import read_provenance
from pinochle_sim.runs.store.schema import COLUMNS, DOCS, SCHEMA
from tests.runs.test_run import _read

# Fixtures, imported by name for pytest (module-scoped: this module gets its own instance);
# `name as name` marks a re-export, so ruff keeps the import and the parameters using it.
from tests.runs.test_run import reference_run as reference_run


def test_every_column_documented_in_schema():
    assert set(DOCS) == set(COLUMNS) == set(SCHEMA.names)
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    for c in COLUMNS:
        assert c in result.output


def test_provenance_in_every_part(reference_run):
    parts = sorted(reference_run.glob("part-*.parquet"))
    assert len(parts) == 5  # 5000 hands / 1024 per part
    starts = []
    for p in parts:
        meta = json.loads(pq.read_schema(p).metadata[b"pinochle_sim"])
        for key in (
            "package_version",
            "engine_version",
            "ruleset_toml",
            "policies",
            "seed",
            "hand_start",
            "hand_count",
            "created",
        ):
            assert key in meta
        assert meta["seed"] == 11 and meta["rules"] == "partnership"
        assert meta["policies"]["bid"]["params"]["margin"] == 0
        starts.append((meta["hand_start"], meta["hand_count"]))
    assert starts == [(0, 1024), (1024, 1024), (2048, 1024), (3072, 1024), (4096, 904)]
    from pinochle_sim.rules import get_preset
    from pinochle_sim.runs.store.provenance import ruleset_of

    assert ruleset_of(read_provenance(reference_run)) == get_preset("partnership")
    result = CliRunner().invoke(main, ["info", str(reference_run)])
    assert result.exit_code == 0 and "complete" in result.output and "seed: 11" in result.output


def test_kill_9_leaves_only_complete_parts_and_resume_completes(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "k"
    hands, part = 400_000, 10_000
    cmd = [
        sys.executable,
        "-m",
        "pinochle_sim",
        "run",
        "--hands",
        str(hands),
        "--out",
        str(out),
        "--quiet",
        "--part-size",
        str(part),
        "--seed",
        "5",
        "--threads",
        "1",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and len(list(out.glob("part-*.parquet"))) < 2:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    parts = sorted(out.glob("part-*.parquet"))
    assert 2 <= len(parts) < hands // part, "kill landed outside the run"
    for p in parts:  # every file present is a complete, readable part
        assert pq.ParquetFile(p).metadata.num_rows == part
    bad = subprocess.run([*cmd[:-3], "6", "--resume"], capture_output=True, text=True)
    assert bad.returncode != 0 and "different settings" in bad.stderr
    assert "Traceback" not in bad.stderr
    ok = subprocess.run([*cmd, "--resume"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    df = _read(out)
    assert df["hand"].tolist() == list(range(hands))
    cols = play_hands(seed=5, start=0, count=hands)
    for c in ("dealt_0", "bid", "score_0", "score_1", "meld_3"):
        assert np.array_equal(df[c].to_numpy().astype(np.int64), cols[c]), c


def test_cli_run_summary_and_errors(tmp_path, runner: CliRunner):
    out = tmp_path / "c"
    r = runner.invoke(main, ["run", "--hands", "2_000", "--out", str(out), "--seed", "3"])
    assert r.exit_code == 0, r.output
    assert "2,000 hands" in r.output and "hands/s" in r.output and "made" in r.output
    again = runner.invoke(main, ["run", "--hands", "2000", "--out", str(out), "--seed", "3"])
    assert again.exit_code != 0 and "already exists" in again.output
    ok = runner.invoke(
        main, ["run", "--hands", "2e3", "--out", str(out), "--seed", "3", "--resume"]
    )
    assert ok.exit_code == 0 and "already complete" in ok.output
    ow = runner.invoke(
        main, ["run", "--hands", "1000", "--out", str(out), "--overwrite", "--quiet"]
    )
    assert ow.exit_code == 0 and pd.read_parquet(out).shape[0] == 1000
    bad_inputs = [
        ["--hands", "1.5"],
        ["--hands", "-3"],
        ["--hands", "abc"],
        ["--hands", "0"],
        ["--hands", "10", "--rules", "nope"],
        ["--hands", "10", "--param", "bid.nope=1"],
        ["--hands", "10", "--param", "margin"],
        ["--hands", "10", "--threads", "0"],
        ["--hands", "10", "--resume", "--overwrite"],
        ["--hands", "10", "--rules", str(_two_hand_variant(tmp_path, "hand_size = 10"))],
        ["--hands", "10", "--rules", str(_two_hand_variant(tmp_path, "stock_phase = false"))],
    ]
    for args in bad_inputs:
        r = runner.invoke(main, ["run", *args, "--out", str(tmp_path / "x")])
        assert r.exit_code != 0, args
        assert isinstance(r.exception, SystemExit), (args, r.exception)
        assert "Error" in r.output and "Traceback" not in r.output, args


def _two_hand_variant(tmp_path, line: str):
    """A two-hand TOML the two-hand engine cannot play."""
    path = tmp_path / f"variant-{len(list(tmp_path.glob('variant-*')))}.toml"
    path.write_text(f'preset = "two-hand"\n{line}\n')
    return path


def test_cli_hands_forms_are_equal(tmp_path, runner: CliRunner):
    frames = []
    for i, form in enumerate(["1e3", "1_000", "1000"]):
        out = tmp_path / f"f{i}"
        r = runner.invoke(main, ["run", "--hands", form, "--out", str(out), "--quiet"])
        assert r.exit_code == 0, r.output
        frames.append(_read(out))
    pd.testing.assert_frame_equal(frames[0], frames[1])
    pd.testing.assert_frame_equal(frames[0], frames[2])


def test_default_output_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["run", "--hands", "500", "--seed", "4", "--quiet"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "results/runs/partnership-seed4-500" / MANIFEST).exists()
    assert os.path.getsize(tmp_path / "results/runs/partnership-seed4-500/part-00000.parquet")


def test_rules_that_could_overflow_records_are_refused(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("min_bid = 40000\n")
    r = CliRunner().invoke(
        main, ["run", "--hands", "100", "--rules", str(big), "--out", str(tmp_path / "o")]
    )
    assert r.exit_code != 0 and "int16" in r.output and "Traceback" not in r.output
    huge = tmp_path / "huge.toml"
    huge.write_text("min_bid = 100000000000000000000\n")
    r = CliRunner().invoke(main, ["run", "--hands", "100", "--rules", str(huge)])
    assert r.exit_code != 0 and "min_bid" in r.output


def test_unwritable_output_is_a_one_line_error(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    r = CliRunner().invoke(main, ["run", "--hands", "100", "--out", str(f / "sub")])
    assert r.exit_code != 0 and isinstance(r.exception, SystemExit)
    assert "Not a directory" in r.output


def test_rules_the_four_hand_engine_does_not_play_are_refused(tmp_path):
    t = tmp_path / "r.toml"
    t.write_text('name = "p-round"\nrounding = "tens-7up"\n')
    r = CliRunner().invoke(main, ["show", "--rules", str(t)])
    assert r.exit_code != 0 and "rounding" in r.output
