"""Whole games (``run --games``): deals to the target, running totals, the end-of-game rule
(docs/rules.md 8: first to the target at the end of a hand wins; both in the same hand: the bidding
side), dealer rotation, determinism. ``run --games`` at the command line is tested in
tests/cli/test_games.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pinochle_sim.analysis.game_results import game_results
from pinochle_sim.engines.game_end import game_winner as _game_winner
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.simulate.games import MAX_DEALS, games_layout, play_games_array
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array
from pinochle_sim.runs.simulate.pool import threads
from tests.catalog import ALL_PRESETS


def _games(rules: str, seed: int, start: int, count: int, chunk: int = 256) -> pd.DataFrame:
    inputs = engine_inputs(rules)
    out = play_games_array(inputs, seed, start, count, chunk)
    return pd.DataFrame({n: out[i] for i, n in enumerate(games_layout(inputs.rules).names)})


def ref_winner(totals: list[int], target: int, bidding_side: int | None) -> int:
    """docs/rules.md 8 end of game, written independently: who has won after this deal (-1 nobody).
    Several sides at the target: the bidding side if it is one of them, else the highest total;
    an exact tie at the top is played on (two-hand, which has no bidder)."""
    reached = [k for k, t in enumerate(totals) if t >= target]
    if not reached:
        return -1
    if bidding_side is not None and bidding_side in reached:
        return bidding_side
    top = max(totals[k] for k in reached)
    leaders = [k for k in reached if totals[k] == top]
    return leaders[0] if len(leaders) == 1 else -1


@pytest.mark.parametrize(
    ("totals", "bside", "expected"),
    [
        ([1510, 1600], 0, 0),  # both reach 1500 in the same hand: the bidding side wins
        ([1510, 1600], 1, 1),
        ([1490, 1600], 0, 1),  # the bidder short of the target: the other side has won
        ([1500, 1400], 1, 0),  # reaching exactly the target is enough
        ([1499, 1499], 0, -1),
        ([1600, 1600, 900], 2, -1),  # bidder not among them; tie at the top plays on
        ([1700, 1600, 900], 2, 0),
    ],
)
def test_end_of_game_rule(totals, bside, expected):
    g0 = 0
    out = np.zeros((2 + len(totals) + 1, 1), dtype=np.int64)
    out[2 : 2 + len(totals), 0] = totals
    assert _game_winner(out, 0, g0, len(totals), 1500, bside, True) == expected
    assert ref_winner(totals, 1500, bside) == expected


@pytest.mark.parametrize("rules", ALL_PRESETS)
def test_game_invariants(rules):
    r = get_preset(rules)
    d = _games(rules, 3, 0, 400)
    sides = r.teams
    assert d["game"].nunique() == 400
    for _, g in d.groupby("game"):
        n = len(g)
        assert list(g["deal"]) == list(range(n))
        game = int(g["game"].iloc[0])
        assert list(g["dealer"]) == [(game + k) % r.players for k in range(n)]
        assert list(g["hand"]) == [game * MAX_DEALS + k for k in range(n)]
        for k in range(sides):
            assert np.array_equal(g[f"total_{k}"].to_numpy(), g[f"score_{k}"].cumsum().to_numpy())
        winners = g["game_winner"].to_numpy()
        assert (winners[:-1] == -1).all() and winners[-1] >= 0
        for _, row in g.iterrows():
            totals = [int(row[f"total_{k}"]) for k in range(sides)]
            if rules == "two-hand":
                bside = None
            else:
                bside = int(row["bidder"]) % 2 if r.partnerships else int(row["bidder"])
            assert ref_winner(totals, r.game_target, bside) == row["game_winner"]
        last = g.iloc[-1]
        assert max(int(last[f"total_{k}"]) for k in range(sides)) >= r.game_target


def test_deals_of_a_game_are_the_single_hands_with_that_id_and_dealer():
    inputs = engine_inputs("partnership")
    d = _games("partnership", 9, 5, 3)
    base = inputs.layout.names
    for _, row in d.iterrows():
        one = play_hands_array(inputs, 9, int(row["hand"]), 1, dealer=int(row["dealer"]))
        assert [int(row[n]) for n in base] == [int(x) for x in one[:, 0]]


@pytest.mark.parametrize("rules", ["two-hand", "partnership"])
def test_games_do_not_depend_on_threads_or_chunks(rules):
    inputs = engine_inputs(rules)
    with threads(1):
        a = play_games_array(inputs, 4, 10, 300, chunk=300)
    with threads(2):
        b = play_games_array(inputs, 4, 10, 300, chunk=7)
        c = play_games_array(inputs, 4, 0, 310, chunk=64)
    assert np.array_equal(a, b)
    games = games_layout(inputs.rules).index["game"]
    assert np.array_equal(a, c[:, c[games] >= 10])


def test_two_hand_games_end_at_1000():
    d = _games("two-hand", 2, 0, 500)
    last = d[d["game_winner"] >= 0]
    assert len(last) == 500
    top = last[["total_0", "total_1"]].max(axis=1)
    assert (top >= 1000).all()
    before = d[d["game_winner"] < 0]
    both = (before["total_0"] >= 1000) & (before["total_1"] >= 1000)
    assert (before.loc[both, "total_0"] == before.loc[both, "total_1"]).all()
    assert (before[["total_0", "total_1"]].max(axis=1) < 1000).sum() == (~both).sum()


def test_game_results_one_row_per_game():

    d = _games("partnership", 6, 0, 120)
    g = game_results(d.sample(frac=1, random_state=1))  # row order must not matter
    assert list(g["game"]) == list(range(120))
    sizes = d.groupby("game").size().to_numpy()
    assert np.array_equal(g["deals"].to_numpy(), sizes)
    final = d[d["game_winner"] >= 0].sort_values("game")
    assert np.array_equal(g["winner"].to_numpy(), final["game_winner"].to_numpy())
    assert np.array_equal(g["final_0"].to_numpy(), final["total_0"].to_numpy())
    assert np.array_equal(g["first_dealer"].to_numpy(), np.arange(120) % 4)
