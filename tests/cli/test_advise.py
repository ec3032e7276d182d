"""The hand advisor and fixed cards at the command line: ``advise --json`` fields, one-line
errors for bad input, ``--out`` and ``--chart``; ``run --fix`` and ``--dealer`` recorded in the
run, and ``info`` naming the fixed cards and a resume that keeps them.

The advisor's numbers against the definitions in docs/advise.md are tested in
tests/analysis/test_advise.py."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from pinochle_sim.cli.commands import main
from pinochle_sim.core.cards import format_cards, parse_cards
from tests.analysis.test_advise import HAND


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_json_fields() -> None:
    r = invoke("advise", HAND, "--hands", "500", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    for key in ("by_trump", "recommendation", "hands", "seat", "dealer", "rules"):
        assert key in doc
    t = doc["by_trump"][0]
    for key in ("trump", "meld_now", "meld_after_pass", "bids", "best_bid", "max_bid_at_risk"):
        assert key in t
    assert set(t["meld_after_pass"]) == {"mean", "p10", "p50", "p90"}
    assert set(t["bids"][0]) >= {"bid", "p_make", "ci_low", "ci_high", "expected_score"}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["advise", "AS AS 10S KS QS JS 9S KH QH AD AC"], "has 12 cards, got 11"),
        (["advise", HAND + " 9D"], "has 12 cards, got 13"),
        (["advise", "AS AS AS KS QS JS 9S KH QH AD AC 9C"], "too many copies of AS"),
        (["advise", HAND, "--risk", "0"], "between 1 and 99"),
        (["advise", HAND, "--risk", "100"], "between 1 and 99"),
        (["advise", HAND, "--rules", "three-hand"], "has 15 cards"),
        (["advise", HAND, "--seat", "4"], "seat must be 0..3"),
        (["run", "--hands", "10", "--fix", "0=AS AS", "--fix", "1=AS"], "fixed for seats 0 and 1"),
        (["run", "--hands", "10", "--rules", "three-hand", "--fix", "3=AS"], "seats 0..2"),
        (["run", "--hands", "10", "--fix", "AS"], "SEAT=CARDS"),
        (["run", "--hands", "10", "--fix", "0="], "SEAT=CARDS"),
    ],
)
def test_bad_input_gets_one_line(args, needle, tmp_path) -> None:
    r = invoke(*args, *(["--out", str(tmp_path / "r")] if args[0] == "run" else []))
    assert r.exit_code != 0
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert any(needle in x for x in lines), r.output
    assert "Traceback" not in r.output
    assert sum(x.startswith("Error") for x in lines) == 1


def test_run_records_the_fixed_cards(tmp_path) -> None:
    out = tmp_path / "run"
    r = invoke("run", "--hands", "300", "--fix", f"2={HAND}", "--dealer", "1", "--out", str(out),
               "--quiet")  # fmt: skip
    assert r.exit_code == 0, r.output
    table = pq.read_table(out)
    meta = json.loads(table.schema.metadata[b"pinochle_sim"])
    assert meta["fixed"] == {"2": format_cards(parse_cards(HAND))}
    assert meta["dealer"] == 1
    assert len(set(table.column("dealt_2").to_pylist())) == 1


def test_out_writes_a_normal_run_folder_and_chart(tmp_path) -> None:
    out = tmp_path / "adv"
    chart = tmp_path / "chart"
    r = invoke("advise", HAND, "--hands", "400", "--seat", "3", "--out", str(out), "--chart",
               str(chart))  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "Bid up to" in r.output or "Pass:" in r.output
    assert (tmp_path / "chart.png").stat().st_size > 10_000
    table = pq.read_table(out)
    meta = json.loads(table.schema.metadata[b"pinochle_sim"])
    assert meta["fixed"] == {"3": format_cards(parse_cards(HAND))}
    assert table.num_rows == 400
    assert len(set(table.column("dealt_3").to_pylist())) == 1


def test_chart_path_with_a_suffix_is_not_doubled(tmp_path) -> None:
    r = invoke("advise", HAND, "--hands", "300", "--chart", str(tmp_path / "c.png"))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.png", "c.svg"]


def test_two_hand_chart_is_refused_before_the_deals(tmp_path) -> None:
    r = invoke("advise", "AS AS AH AH 10H KH QH JH 9D KC QC JC", "--rules", "two-hand",
               "--chart", str(tmp_path / "c"))  # fmt: skip
    assert r.exit_code != 0
    assert "no auction" in r.output and "Traceback" not in r.output
    assert not list(tmp_path.iterdir())


def test_advise_out_is_checked_before_the_deals_and_can_be_replaced(tmp_path) -> None:
    out = tmp_path / "adv"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    r = invoke("advise", HAND, "--hands", "300", "--out", str(out))
    assert r.exit_code != 0
    assert "already exists: pass --overwrite" in r.output
    assert "Bid up to" not in r.output and "Pass:" not in r.output  # nothing simulated
    assert (out / "keep.txt").read_text() == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()  # an empty folder is written, as run writes it
    assert invoke("advise", HAND, "--hands", "300", "--out", str(empty)).exit_code == 0
    first = invoke("run", "--hands", "300", "--out", str(tmp_path / "r"), "--quiet")
    assert first.exit_code == 0, first.output
    r = invoke("advise", HAND, "--hands", "300", "--out", str(tmp_path / "r"), "--overwrite")
    assert r.exit_code == 0, r.output
    meta = json.loads(pq.read_table(tmp_path / "r").schema.metadata[b"pinochle_sim"])
    assert meta["fixed"] == {"0": format_cards(parse_cards(HAND))}


def test_bad_dealer_leaves_no_folder_behind(tmp_path) -> None:
    out = tmp_path / "r"
    r = invoke("run", "--hands", "100", "--quiet", "--dealer", "4", "--out", str(out))
    assert r.exit_code != 0 and "dealer must be a seat 0..3" in r.output
    assert not out.exists()
    r = invoke("run", "--hands", "100", "--quiet", "--dealer", "3", "--out", str(out))
    assert r.exit_code == 0, r.output


def test_info_shows_the_fixed_cards_and_resumes_with_them(tmp_path) -> None:
    out = tmp_path / "r"
    r = invoke("run", "--hands", "300", "--part-size", "100", "--fix", f"2={HAND}", "--dealer",
               "1", "--out", str(out), "--quiet")  # fmt: skip
    assert r.exit_code == 0, r.output
    whole = pq.read_table(out).to_pandas()
    info = invoke("info", str(out))
    assert f"fixed, seat 2: {format_cards(parse_cards(HAND))}" in info.output, info.output
    (out / "part-00001.parquet").unlink()
    info = invoke("info", str(out))
    line = next(x for x in info.output.splitlines() if "finish it with:" in x)
    command = line.split("finish it with: pinochle-sim ", 1)[1]
    import shlex

    r = invoke(*shlex.split(command))
    assert r.exit_code == 0, r.output
    again = pq.read_table(out).to_pandas()
    assert again.equals(whole)


def test_an_interrupted_slow_advice_says_what_it_kept_and_resume_finishes_it(
    tmp_path, monkeypatch
) -> None:
    """Ctrl-C after two saved steps of a pimc advice: one line with the deals kept and the
    folder, --resume prints the advice of one go, and the folder goes once it is done."""
    import pinochle_sim.analysis.kept as kept_module
    from pinochle_sim.analysis import session

    monkeypatch.chdir(tmp_path)  # the keep folder goes under results/advise/ here
    monkeypatch.setattr(session, "PACE_SAMPLE_S", 0.0)
    monkeypatch.setattr(session, "PACE_TASK_S", 1e-9)
    pimc = ["--play-policy", "pimc", "--param", "play.from_trick=11", "--param", "play.worlds=4"]
    args = ["advise", *HAND.split(), "--hands", "112", "--threads", "2", "--json", *pimc]
    save, saved = kept_module.Kept.save, []

    def ctrl_c_after_two(self, part):
        save(self, part)
        saved.append(len(part["deal"]))
        if len(saved) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(kept_module.Kept, "save", ctrl_c_after_two)
    r = CliRunner().invoke(main, args)
    (folder,) = (tmp_path / "results" / "advise").iterdir()
    assert r.exit_code == 1 and r.output.strip().splitlines()[-1] == (
        f"Error: interrupted: 32 of 448 deals are kept in 'results/advise/{folder.name}'; the "
        "same command with --resume finishes the advice"
    ), r.output
    monkeypatch.setattr(kept_module.Kept, "save", save)
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 1 and "pass --resume" in again.output
    resumed = CliRunner().invoke(main, [*args, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert not folder.exists()
    whole = CliRunner().invoke(main, args)
    assert json.loads(resumed.output) == json.loads(whole.output)
    saved.clear()
    monkeypatch.setattr(kept_module.Kept, "save", ctrl_c_after_two)
    assert CliRunner().invoke(main, args).exit_code == 1  # kept again
    monkeypatch.setattr(kept_module.Kept, "save", save)
    restarted = CliRunner().invoke(main, [*args, "--overwrite"])  # drops them, plays all
    assert restarted.exit_code == 0, restarted.output
    assert json.loads(restarted.output) == json.loads(whole.output) and not folder.exists()
