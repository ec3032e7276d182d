"""The run job: Parquet records, determinism, atomic parts, resume, provenance. The ``run``,
``schema`` and ``info`` commands (their summaries, errors and a ``kill -9``) are tested in
tests/cli/test_run.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from pinochle_sim import decode_hand
from pinochle_sim.policies import PolicySet
from pinochle_sim.runs import runner as runner_module
from pinochle_sim.runs.inspect.show import hand_record
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import play_hands
from pinochle_sim.runs.store.files import MANIFEST
from pinochle_sim.runs.store.schema import COLUMNS

N = 5000


def _read(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path).sort_values("hand").reset_index(drop=True)


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "ref"
    run(N, seed=11, out=str(out), part_size=1024)
    return out


def test_records_have_required_columns_and_compact_dtypes(reference_run):
    df = _read(reference_run)
    required = ["hand", "dealer", "bidder", "bid", "trump", "stuck", "conceded", "made"]
    required += [f"dealt_{p}" for p in range(4)] + [f"meld_{p}" for p in range(4)]
    required += [f"meld_{p}_{s}" for p in range(4) for s in "shdc"]
    required += [f"len_{p}_{s}" for p in range(4) for s in "shdc"]
    required += ["team_meld_0", "team_meld_1", "team_tricks_0", "team_tricks_1"]
    required += ["score_0", "score_1"]
    for c in required:
        assert c in df.columns, c
    assert list(df.columns) == list(COLUMNS)
    assert df["hand"].tolist() == list(range(N))
    assert df["hand"].dtype == np.int64
    assert df["bid"].dtype == np.int16 and df["trump"].dtype == np.int8
    assert df["stuck"].dtype == bool and df["made"].dtype == bool
    assert set(df["trump"].unique()) <= {0, 1, 2, 3}
    # dealt hands decode to 12 cards each and the four make the deck
    for i in range(0, N, 997):
        cards = [c for p in range(4) for c in decode_hand(int(df.loc[i, f"dealt_{p}"]))]
        assert len(cards) == 48 and all(cards.count(c) == 2 for c in set(cards))
    # lengths agree with the dealt hands
    row = df.loc[3]
    for p in range(4):
        hand = decode_hand(int(row[f"dealt_{p}"]))
        for s in "shdc":
            assert row[f"len_{p}_{s}"] == sum(c.endswith(s.upper()) for c in hand)


def test_readers_pyarrow_duckdb_polars(reference_run):
    import duckdb
    import polars as pl

    t = ds.dataset(reference_run, format="parquet").to_table()
    assert t.num_rows == N
    con = duckdb.connect()
    n = con.execute(f"select count(*), sum(bid) from '{reference_run}/*.parquet'").fetchall()[0]
    df = _read(reference_run)
    assert n == (N, int(df["bid"].sum()))
    lf = pl.read_parquet(f"{reference_run}/*.parquet")
    assert lf.height == N and int(lf["score_0"].sum()) == int(df["score_0"].sum())


def test_parts_keep_statistics_only_for_the_hand_index(reference_run):
    """A part's min/max statistics are kept for ``hand`` alone, so a filter on a hand range
    skips whole parts; every other column spans its range in every part."""
    import duckdb

    parts = sorted(reference_run.glob("part-*.parquet"))
    meta = pq.ParquetFile(parts[1]).metadata.row_group(0)
    kept = {meta.column(i).path_in_schema for i in range(meta.num_columns)
            if meta.column(i).is_stats_set}  # fmt: skip
    assert kept == {"hand"}
    i = [meta.column(k).path_in_schema for k in range(meta.num_columns)].index("hand")
    assert (meta.column(i).statistics.min, meta.column(i).statistics.max) == (1024, 2047)
    con = duckdb.connect()
    q = f"select count(*), min(hand) from '{reference_run}/*.parquet' where hand >= 4000"
    assert con.execute(q).fetchall()[0] == (1000, 4000)


def test_same_records_for_any_threads_and_part_size(reference_run, tmp_path):
    ref = _read(reference_run)
    a = tmp_path / "a"
    run(N, seed=11, out=str(a), part_size=N, threads=1)
    pd.testing.assert_frame_equal(_read(a), ref)
    b = tmp_path / "b"
    run(N, seed=11, out=str(b), part_size=777, threads=2)
    pd.testing.assert_frame_equal(_read(b), ref)


def test_run_matches_engine_and_show(reference_run):
    df = _read(reference_run)
    cols = play_hands(seed=11, start=0, count=N)
    for c in COLUMNS:
        assert np.array_equal(df[c].to_numpy().astype(np.int64), cols[c]), c
    for h in (0, 1, 17, 1023, 1024, 4999):
        rec = hand_record(11, h)
        row = df.loc[h]
        assert rec["bidder"] == row["bidder"] and rec["bid"] == row["bid"]
        assert "SHDC"[row["trump"]] == rec["trump"]
        assert rec["score"] == [row["score_0"], row["score_1"]]
        assert rec["team_meld"] == [row["team_meld_0"], row["team_meld_1"]]
        assert rec["dealt"] == [decode_hand(int(row[f"dealt_{p}"])) for p in range(4)]


class Boom(Exception):
    pass


def test_interrupted_run_resumes_without_gap_or_duplicate(reference_run, tmp_path, monkeypatch):
    out = tmp_path / "r"
    real = runner_module.write_part
    calls = {"n": 0}

    def failing(computed):
        path, k = computed[0].path, computed[0].k
        calls["n"] += 1
        if calls["n"] == 3:
            # a half-written temporary file, as a kill -9 during the write would leave
            (Path(path) / f".part-{k:05d}.parquet.tmp-99999").write_bytes(b"PAR1 garbage")
            raise Boom
        return real(computed)

    monkeypatch.setattr(runner_module, "write_part", failing)
    with pytest.raises(Boom):
        run(N, seed=11, out=str(out), part_size=1024)
    monkeypatch.setattr(runner_module, "write_part", real)
    done = sorted(p.name for p in out.glob("part-*.parquet"))
    assert done == ["part-00000.parquet", "part-00001.parquet"]
    assert pd.read_parquet(out).shape[0] == 2048  # readable, only complete parts
    with pytest.raises(ValueError, match="already exists"):
        run(N, seed=11, out=str(out), part_size=1024)
    with pytest.raises(ValueError, match="different settings"):
        run(N, seed=12, out=str(out), part_size=1024, resume=True)
    summary = run(N, seed=11, out=str(out), part_size=1024, resume=True)
    assert summary.hands_computed == N - 2048
    assert not list(out.glob(".*tmp*"))
    pd.testing.assert_frame_equal(_read(out), _read(reference_run))
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["complete"] and len(manifest["parts"]) == 5


def test_orphan_part_after_crash_is_adopted(reference_run, tmp_path):
    out = tmp_path / "o"
    run(N, seed=11, out=str(out), part_size=1024)
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest["parts"]["4"]  # renamed into place, then killed before the manifest update
    (out / MANIFEST).write_text(json.dumps(manifest))
    summary = run(N, seed=11, out=str(out), part_size=1024, resume=True)
    assert summary.hands_computed == 0
    pd.testing.assert_frame_equal(_read(out), _read(reference_run))


def test_policy_parameters_reach_records(tmp_path):
    a = run(
        3000, out=str(tmp_path / "a"), policies=PolicySet.from_options(params=["bid.margin=60"])
    )
    b = run(3000, out=str(tmp_path / "b"))
    assert a.mean_bid > b.mean_bid
    da, db = _read(tmp_path / "a"), _read(tmp_path / "b")
    assert (da["dealt_0"] == db["dealt_0"]).all()  # policies never change the cards
