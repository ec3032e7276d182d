"""A run's closing figures come from the sums each part's manifest entry keeps, never from the
whole run read back: they equal the figures computed here from every record with pandas (the
definitions, written out), for a partnership run, a two-hand run and a games run; a run whose
manifest lists no sums (written before they were kept) is read part by part, alone, and gives
the same figures; resuming keeps the sums of the parts already written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pinochle_sim.runs.runner import run
from pinochle_sim.runs.store.files import MANIFEST


def _records(path: Path) -> pd.DataFrame:
    return pd.read_parquet(path)


def _expected_auction(df: pd.DataFrame, players: int, partners: bool) -> dict[str, float]:
    side = df["bidder"] % 2 if partners else df["bidder"]
    teams = 2 if partners else players
    team_meld = np.stack([df[f"team_meld_{k}"].to_numpy() for k in range(teams)])
    bidding = team_meld[side.to_numpy(), np.arange(len(df))]
    return {
        "hands": len(df),
        "mean_bid": df["bid"].mean(),
        "stuck_rate": df["stuck"].mean(),
        "make_rate": df["made"].mean(),
        "concede_rate": df["conceded"].mean(),
        "mean_bidding_meld": bidding.mean(),
        "mean_seat_meld": np.mean([df[f"meld_{p}"].mean() for p in range(players)]),
    }


def _figures(s, names) -> dict[str, float]:
    return {k: getattr(s, k) for k in names}


def test_partnership_figures_equal_the_records(tmp_path):
    out = tmp_path / "p"
    s = run(6000, seed=3, out=str(out), part_size=1024)
    want = _expected_auction(_records(out), 4, True)
    got = _figures(s, want)
    assert got == pytest.approx(want, rel=1e-12)
    entries = json.loads((out / MANIFEST).read_text())["parts"]
    assert all("sums" in e for e in entries.values())
    assert sum(e["sums"]["rows"] for e in entries.values()) == 6000


def test_three_hand_figures_equal_the_records(tmp_path):
    out = tmp_path / "t"
    s = run(3000, seed=4, out=str(out), rules="three-hand", part_size=1024)
    want = _expected_auction(_records(out), 3, False)
    assert _figures(s, want) == pytest.approx(want, rel=1e-12)


def test_two_hand_figures_equal_the_records(tmp_path):
    out = tmp_path / "two"
    s = run(3000, seed=5, out=str(out), rules="two-hand", part_size=1024)
    df = _records(out)
    assert s.hands == 3000
    assert s.mean_seat_meld == pytest.approx((df["meld_0"].mean() + df["meld_1"].mean()) / 2)
    assert s.mean_score == pytest.approx((df["score_0"].mean() + df["score_1"].mean()) / 2)
    w = df["winner"]
    assert s.win_rates == pytest.approx(((w == 0).mean(), (w == 1).mean(), (w < 0).mean()))


def test_games_figures_equal_the_records(tmp_path):
    out = tmp_path / "g"
    s = run(40, seed=6, out=str(out), games=True, part_size=16)
    df = _records(out)
    ends = df[df["game_winner"] >= 0]
    assert s.games == len(ends) == 40
    assert s.game_wins == pytest.approx(tuple((ends["game_winner"] == k).mean() for k in (0, 1)))


def test_a_manifest_without_sums_is_read_part_by_part(tmp_path):
    out = tmp_path / "old"
    first = run(4000, seed=7, out=str(out), part_size=1024)
    manifest = json.loads((out / MANIFEST).read_text())
    for entry in manifest["parts"].values():
        del entry["sums"]  # as a run written before the sums were kept
    (out / MANIFEST).write_text(json.dumps(manifest))
    again = run(4000, seed=7, out=str(out), part_size=1024, resume=True)
    names = ["hands", "mean_bid", "stuck_rate", "make_rate", "mean_bidding_meld"]
    assert _figures(again, names) == _figures(first, names)
    assert again.hands_computed == 0


def test_resume_keeps_the_sums_of_the_parts_it_finds(tmp_path):
    out = tmp_path / "half"
    whole = run(4096, seed=8, out=str(tmp_path / "whole"), part_size=1024)
    run(4096, seed=8, out=str(out), part_size=1024)
    manifest = json.loads((out / MANIFEST).read_text())
    (out / "part-00003.parquet").unlink()  # one part lost: resume simulates it again
    resumed = run(4096, seed=8, out=str(out), part_size=1024, resume=True)
    assert resumed.hands_computed == 1024
    after = json.loads((out / MANIFEST).read_text())["parts"]
    for k in ("0", "1", "2"):
        assert after[k]["sums"] == manifest["parts"][k]["sums"]
    names = ["hands", "mean_bid", "stuck_rate", "make_rate", "mean_bidding_meld"]
    assert _figures(resumed, names) == _figures(whole, names)
