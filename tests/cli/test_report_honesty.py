"""Reports that never mislead, at the command line: ``report`` refuses a partial run
with both remedies in one line, marks a partial report everywhere under ``--allow-partial`` and
names that flag in its help; ``compare`` prints the difference per hand.

The library side (hand counts from the rows read, formats, and the pass, partner, sweep and
compare charts) is tested in tests/analysis/test_report_honesty.py, whose ``three_parts``
fixture (module-scoped: this module makes its own) and helpers are imported here."""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from pinochle_sim.analysis.reports import write_report
from pinochle_sim.cli.commands import main
from pinochle_sim.runs.store.files import part_name
from tests.analysis.test_report_honesty import copy_run, interrupt, svg_texts

# Fixtures, imported by name for pytest (module-scoped: this module gets its own instance);
# `name as name` marks a re-export, so ruff keeps the import and the parameters using it.
from tests.analysis.test_report_honesty import three_parts as three_parts


def test_partial_run_is_refused_with_both_remedies(three_parts, tmp_path):
    stopped = interrupt(copy_run(three_parts, tmp_path / "stopped"), keep=2)
    with pytest.raises(ValueError, match="partial run") as err:
        write_report(stopped, tmp_path / "rep", ("svg",))
    msg = str(err.value)
    assert "2,000 of 3,000 hands" in msg and "--resume" in msg and "--allow-partial" in msg
    assert not (tmp_path / "rep").exists()  # nothing written
    r = CliRunner().invoke(main, ["report", str(stopped), "--out", str(tmp_path / "rep")])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert "--resume" in r.output and "--allow-partial" in r.output
    orphan = interrupt(copy_run(three_parts, tmp_path / "orphan"), keep=2, delete=False)
    with pytest.raises(ValueError, match="marks it incomplete"):
        write_report(orphan, tmp_path / "rep", ("svg",))


def test_partial_report_says_so_everywhere(three_parts, tmp_path):
    missing = copy_run(three_parts, tmp_path / "missing")
    (missing / part_name(2)).unlink()
    rep = tmp_path / "rep"
    r = CliRunner().invoke(
        main, ["report", str(missing), "--out", str(rep), "--allow-partial", "--format", "svg"]
    )
    assert r.exit_code == 0, r.output
    md = (rep / "report.md").read_text()
    assert md.startswith("# What 2,000 simulated Pinochle hands say (partial run)\n")
    assert "3,000 simulated" not in md and "2,000 read of 3,000 planned" in md
    assert "**Partial run.**" in md and "--resume" in md
    studies = sorted(p.stem for p in rep.glob("*.svg"))
    assert len(studies) == 8
    for name in studies:
        text = svg_texts(rep / f"{name}.svg")
        assert "(partial run, 2,000 hands)" in text, name  # the title
        assert "2,000 simulated hands · partial run (3,000 planned)" in text, name  # subtitle
        assert "3,000 simulated" not in text, name
    stuck = pd.read_csv(rep / "auction_summary.csv")
    assert stuck.loc[stuck["what"] == "stuck", "n"].iloc[0] == 2000  # the rows read


def test_report_help_names_the_flag():
    r = CliRunner().invoke(main, ["report", "--help"])
    assert r.exit_code == 0 and "--allow-partial" in r.output and "Example" in r.output


def test_compare_cli_prints_per_hand(tmp_path):
    out = tmp_path / "cmp"
    r = CliRunner().invoke(
        main, ["compare", "play=counting", "default", "--hands", "300", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    s = pd.read_csv(out / "summary.csv")
    assert f"{s.loc[0, 'diff_per_hand']:+.2f} per hand" in r.output
    assert f"won the auction in {int(s.loc[0, 'bids_won']):,} of 600 hands" in r.output


def test_the_regenerate_command_carries_every_option_and_makes_the_same_run(tmp_path):
    """report.md's "Regenerate with" names every option the run was made with (policies and
    parameters, dealer, part size, rules): run as it reads, it makes the same records."""
    import shlex

    import pyarrow.parquet as pq

    made = tmp_path / "made"
    args = ["run", "--hands", "1200", "--seed", "11", "--rules", "three-hand", "--dealer", "1",
            "--play-policy", "counting", "--param", "bid.margin=20", "--part-size", "500",
            "--out", str(made)]  # fmt: skip
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    rep = tmp_path / "rep"
    write_report(made, rep, ("svg",), only=["go_set"])
    md = (rep / "report.md").read_text()
    command = md.split("Regenerate with `", 1)[1].split("`", 1)[0]
    for option in ("--hands 1200", "--seed 11", "--rules three-hand", "--dealer 1",
                   "--play-policy counting", "--param bid.margin=20", "--part-size 500",
                   "--out RUN"):  # fmt: skip
        assert option in command, (option, command)
    again = tmp_path / "again"
    words = shlex.split(command.replace("RUN", str(again)))
    assert words[0] == "pinochle-sim"
    r = CliRunner().invoke(main, words[1:])
    assert r.exit_code == 0, r.output
    columns = [c for c in pq.read_table(made).column_names]
    assert pq.read_table(again, columns=columns).equals(pq.read_table(made, columns=columns))
