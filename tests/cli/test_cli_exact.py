"""The `exact` command and the report's self-check on the command line (`report --strict`)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from pinochle_sim.analysis import exact
from pinochle_sim.cli.commands import main
from pinochle_sim.runs.runner import run
from tests.cli.test_cli_meld import assert_user_error

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> str:
    r = invoke(*args)
    assert r.exit_code == 0 and r.exception is None, (r.output, r.exception)
    return r.output


# --------------------------------------------------------------------------- exact


def test_exact_json_fields_match_the_library() -> None:
    doc = json.loads(ok("exact", "--rules", "partnership", "--trump", "H", "--json"))
    e = exact.exact_meld_distribution("partnership", "H")
    assert (doc["rules"], doc["hand_size"], doc["trump"]) == ("partnership", 12, "H")
    assert doc["total"] == math.comb(48, 12) == e.total
    assert doc["mean"] == pytest.approx(e.mean, rel=1e-15)
    assert doc["sd"] == pytest.approx(e.sd, rel=1e-15)
    assert {int(v): p for v, p in doc["pmf"].items()} == pytest.approx(e.pmf)
    assert set(doc["by_trump_length"]) == {str(L) for L in range(13)}
    six = doc["by_trump_length"]["6"]
    expect = math.comb(12, 6) * math.comb(36, 6) / math.comb(48, 12)  # hypergeometric
    assert six["p"] == pytest.approx(expect, rel=1e-12)
    assert sum(six["pmf"].values()) == pytest.approx(1.0)
    assert doc["melds"]["double run"] == pytest.approx(math.comb(38, 2) / math.comb(48, 12))


def test_exact_json_in_each_presets_points() -> None:
    joedog = json.loads(ok("exact", "--rules", "joedog", "--json"))
    classic = json.loads(ok("exact", "--rules", "partnership-classic", "--json"))
    assert {int(v) * 10: p for v, p in joedog["pmf"].items()} == pytest.approx(
        {int(v): p for v, p in classic["pmf"].items()}
    )
    assert joedog["mean"] * 10 == pytest.approx(classic["mean"], rel=1e-12)
    three = json.loads(ok("exact", "--rules", "three-hand", "--trump", "c", "--json"))
    assert three["hand_size"] == 15 and three["total"] == math.comb(48, 15)
    assert three["trump"] == "C"


def test_exact_toml_rules_and_hand_size(tmp_path: Path) -> None:
    toml = tmp_path / "r.toml"
    toml.write_text('preset = "partnership"\nname = "mine"\n[meld]\nbase = "B"\ndix = 20\n')
    doc = json.loads(ok("exact", "--rules", str(toml), "--json", "--hand-size", "2"))
    assert doc["rules"] == "mine" and doc["total"] == math.comb(48, 2)
    # Two cards (trump S) meld 40 as 9S 9S (dix 20 each), QS JD or KS QS (2 x 2 ways each);
    # 20 as one 9S with any other card, or a marriage in H, D or C.
    assert doc["counts"]["40"] == 1 + 4 + 4
    assert doc["counts"]["20"] == 2 * 46 + 3 * 4


def test_exact_text_table() -> None:
    out = ok("exact")
    e = exact.exact_meld_distribution("partnership", "S")
    assert "rules partnership (meld table A), 12-card hands, trump S" in out
    assert f"C(48, 12) = {math.comb(48, 12):,}" in out
    assert f"mean {e.mean:.4f}, SD {e.sd:.4f}" in out
    assert "by trump length" in out and "meld kinds held" in out
    rows = [line.split() for line in out.splitlines()]
    twelve = next(r for r in rows if r[:2] == ["12", "1"])  # one hand holds all 12 spades
    assert twelve[3] == "1520.00"  # double run and both dix
    zero = next(r for r in rows if r and r[0] == "0" and len(r) == 4)
    assert zero[1] == f"{e.counts[0]:,}"
    assert len([r for r in rows if len(r) == 4 and r[0].isdigit()]) == len(e.counts)


def test_exact_text_given_a_length() -> None:
    out = ok("exact", "--trump", "H", "--length", "11")
    assert "distribution of the best meld given 11 trumps" in out
    e = exact.exact_meld_distribution("partnership", "H")
    lines = out[out.index("given 11 trumps") :].splitlines()[2:]
    assert len(lines) == len(e.by_length[11])
    assert sum(int(line.split()[1].replace(",", "")) for line in lines) == 12 * 36


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--trump", "X"], ["unknown suit"]),
        (["--rules", "nope"], ["unknown rules"]),
        (["--hand-size", "49"], ["--hand-size"]),
        (["--length", "13"], ["--length"]),
        (["--json", "--length", "3"], ["--length"]),
        (["--hand-size", "3", "--length", "5"], ["impossible"]),
    ],
)
def test_exact_user_errors(args: list[str], needles: list[str]) -> None:
    assert_user_error(invoke("exact", *args), *needles)


def test_exact_cli_runs_in_a_fresh_process() -> None:
    """The command as a user runs it (its time is in the README and `bench`, not asserted)."""
    done = subprocess.run(
        [sys.executable, "-m", "pinochle_sim", "exact", "--rules", "three-hand", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["hand_size"] == 15


# --------------------------------------------------------------------------- report --strict


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "r"
    run(4000, seed=21, out=str(out))
    return out


def _tampered(run_dir: Path, to: Path) -> Path:
    """A copy of a run whose dealt-hand meld in spades is 30 points too high."""
    to.mkdir()
    for part in run_dir.iterdir():
        if part.suffix != ".parquet":
            (to / part.name).write_bytes(part.read_bytes())
            continue
        table = pq.read_table(part)
        for seat in range(4):
            name = f"meld_{seat}_s"
            i = table.schema.get_field_index(name)
            col = table.column(name).to_numpy() + np.int16(30)
            table = table.set_column(i, table.schema.field(i), [col.astype(np.int16)])
        pq.write_table(table, to / part.name)
    return to


def test_report_self_check_passes_on_a_real_run(small_run: Path, tmp_path: Path) -> None:
    out = ok("report", str(small_run), "--out", str(tmp_path / "rep"), "--strict",
             "--format", "png", "--only", "meld_by_trump_length")  # fmt: skip
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Self-check passed" in md and "report written" in out
    assert "## Self-check: simulation against exact values" in md
    check = (tmp_path / "rep" / "self_check.csv").read_text().splitlines()
    assert check[0] == "study,quantity,n,estimate,exact,z" and len(check) > 10


def test_report_self_check_fails_on_wrong_meld(small_run: Path, tmp_path: Path) -> None:
    bad = _tampered(small_run, tmp_path / "bad")
    args = ["report", str(bad), "--format", "png", "--only", "meld_by_trump_length"]
    loose = invoke(*args, "--out", str(tmp_path / "a"))
    assert loose.exit_code == 0, loose.output
    assert "warning: self-check failed" in loose.output
    md = (tmp_path / "a" / "report.md").read_text()
    assert "Warning: the self-check failed." in md and "**FAIL**" in md
    strict = invoke(*args, "--out", str(tmp_path / "b"), "--strict")
    assert strict.exit_code == 1 and isinstance(strict.exception, SystemExit)
    last = strict.output.strip().splitlines()[-1]
    assert last.startswith("Error: self-check failed") and "spades/diamonds" in last
    assert "Traceback" not in strict.output
    assert (tmp_path / "b" / "report.md").exists()  # written before failing
