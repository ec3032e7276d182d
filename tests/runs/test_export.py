"""``export --decoded``: runs readable without this package (cards as text, trump as a letter,
seats as names), checked against the deck itself and against ``show``; and the recipes of
docs/runs.md for reading a run folder, run exactly as printed there. The ``export`` command
(a decoded CSV, the refusal to overwrite) is tested in tests/cli/test_export.py."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest

from pinochle_sim.runs.inspect.show import format_hand, hand_record
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.store.export import SEAT_NAMES, export_run

RUNS_DOC = (Path(__file__).resolve().parents[2] / "docs" / "runs.md").read_text(encoding="utf-8")
FACES = [r + s for s in "SHDC" for r in ("A", "10", "K", "Q", "J", "9")]


def cards(text: str) -> list[str]:
    """A decoded card string as a list, checked token by token against the 24 faces."""
    out = text.split() if isinstance(text, str) else []
    assert all(c in FACES for c in out), text
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("export")
    made = {}
    for rules, n in (("partnership", 700), ("three-hand", 300), ("two-hand", 300)):
        made[rules] = base / rules
        run(n, seed=4, rules=rules, out=str(made[rules]), part_size=256)
    made["games"] = base / "games"
    run(20, seed=4, out=str(made["games"]), games=True)
    return made


def test_seat_names_are_the_names_show_prints(runs):
    text = format_hand(hand_record(4, 1))  # hand 1: seat 1 deals
    for p, name in enumerate(SEAT_NAMES):
        assert re.search(rf"\b{p} {name}\b", text), (p, name)


def test_three_hand_decoded_parquet_keeps_provenance(runs, tmp_path):
    out = tmp_path / "t.parquet"
    written = export_run(runs["three-hand"], out, decoded=True)
    assert written.format == "parquet" and written.rows == 300
    dec = pd.read_parquet(out)
    for _, row in dec.iterrows():
        hands = [cards(row[f"dealt_{p}"]) for p in range(3)]
        widow = cards(row["widow"])
        assert [len(h) for h in hands] == [15, 15, 15] and len(widow) == 3
        assert set(Counter(c for h in [*hands, widow] for c in h).values()) == {2}
        assert row["bidder"] in ("seat 0", "seat 1", "seat 2") and len(cards(row["discards"])) == 3
    assert duckdb.sql(f"select count(*) from '{out}'").fetchall() == [(300,)]
    assert b"pinochle_sim" in pq.read_schema(out).metadata  # the run's provenance travels


def test_two_hand_stock_in_draw_order_completes_the_deck(runs, tmp_path):
    dec = export_run(runs["two-hand"], tmp_path / "two.csv").path
    d = pd.read_csv(dec, keep_default_na=False)
    raw = pd.read_parquet(runs["two-hand"]).sort_values("hand").reset_index(drop=True)
    assert "stock_lo" not in d and "stock_hi" not in d
    for i in range(len(d)):
        stock = cards(d.loc[i, "stock"])
        assert len(stock) == 24 and stock[-1] == d.loc[i, "up_card"]  # the up-card is drawn last
        assert stock[-1][-1] == d.loc[i, "trump"]  # its suit is trump
        hands = cards(d.loc[i, "dealt_0"]) + cards(d.loc[i, "dealt_1"])
        assert set(Counter(hands + stock).values()) == {2}
        want = {-1: "tie", 0: "seat 0", 1: "seat 1"}[raw.loc[i, "winner"]]
        assert d.loc[i, "winner"] == want
        assert d.loc[i, "exchanged"] in ("", "seat 0", "seat 1")


def test_games_winner_is_a_side(runs, tmp_path):
    d = pd.read_csv(export_run(runs["games"], tmp_path / "g.csv").path, keep_default_na=False)
    assert set(d["game_winner"]) <= {"", "South-North", "West-East"}
    assert (d["game_winner"] != "").sum() == 20  # one winner per game, on its last deal


def readme_block(title: str) -> str:
    """The first python code block after the heading ``title`` of docs/runs.md."""
    start = RUNS_DOC.index(title)
    m = re.search(r"```python\n(.*?)```", RUNS_DOC[start:], re.S)
    assert m, title
    return m.group(1)


def test_readers_exactly_as_the_readme_shows(runs):
    code = readme_block("### Reading a run folder")
    assert 'DIR = "results/runs/partnership-seed0-1000000"' in code
    folder = runs["partnership"]
    env: dict = {}
    exec(code.replace("results/runs/partnership-seed0-1000000", str(folder)), env)
    want = pd.read_parquet(folder)
    assert len(env["df"]) == len(want) == 700
    assert env["table"].num_rows == 700
    assert int(env["by_bidder"]["hands"].sum()) == 700
    assert env["pl_frame"].height == 700
    assert int(env["pl_frame"]["score_0"].sum()) == int(want["score_0"].sum())
