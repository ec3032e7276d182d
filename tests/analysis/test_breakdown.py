"""``compare --by``: A's gain per deal in bins, against sums by hand on made-up deals, and on
real deals against the records of the same plays (the key columns) and the overall figure."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from pinochle_sim.analysis.breakdown import bin_label, gain_by, gain_lines
from pinochle_sim.analysis.matches import duplicate
from pinochle_sim.analysis.stats import Z95
from pinochle_sim.policies import PolicySet, seat_policy_array
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array

A = PolicySet(play="counting")
B = PolicySet()


def test_bins_and_intervals_by_hand():
    pairs = pd.DataFrame({
        "bid_side_1": [1, 1, 1, 1, 1, 1],  # not a play's bid
        "bid_1": [250, 250, 260, 300, 300, 350],
        "bid_2": [250, 260, 250, 300, 310, 340],
        "diff": [10.0, -4.0, 6.0, 0.0, 8.0, 20.0],
    })  # fmt: skip
    t = gain_by(pairs, "bid", min_n=2)
    # keys (the higher bid): 250, 260, 260, 300, 310, 350 -> bins 250-260 (3), 300-310 (2)
    # and 350 (1 deal, joins the last bin): 300-350
    assert [bin_label(r) for _, r in t.iterrows()] == ["250-260", "300-350", "all deals"]
    assert list(t["deals"]) == [3, 3, 6]
    first = np.array([10.0, -4.0, 6.0])
    m, se = first.mean(), first.std(ddof=1) / math.sqrt(3)
    assert math.isclose(t["gain_per_deal"][0], m)
    assert math.isclose(t["gain_hi"][0], m + Z95 * se)
    assert math.isclose(t["gain_per_hand"][2], pairs["diff"].mean() / 2)
    assert math.isclose(t["share"][1], 0.5)
    assert t.attrs["plays"] == 2
    lines = gain_lines(t, "A", "B")
    assert lines[0].startswith("A minus B per deal, by winning bid") and "all deals" in lines[-1]


def test_a_real_match_by_trumps_matches_the_records_of_its_plays():
    n, seed = 3000, 9
    pairs = duplicate("partnership", A, B, n, seed)
    base = engine_inputs("partnership", A)
    idx = base.layout.index
    for k, seats in ((1, [A, B, A, B]), (2, [B, A, B, A])):
        out = play_hands_array(dataclasses.replace(base, pp=seat_policy_array(seats)), seed, 0, n)
        bidder, trump = out[idx["bidder"]], out[idx["trump"]]
        held = [
            out[idx[f"len_{b}_{'shdc'[t]}"], h] + out[idx[f"len_{(b + 2) % 4}_{'shdc'[t]}"], h]
            for h, (b, t) in enumerate(zip(bidder.tolist(), trump.tolist(), strict=True))
        ]  # bidder's and partner's cards of the trump, one hand at a time
        np.testing.assert_array_equal(pairs[f"trumps_{k}"], held)
        np.testing.assert_array_equal(pairs[f"bid_{k}"], out[idx["bid"]])
    t = gain_by(pairs, "trump-length", min_n=150)
    bins = t[t["x_lo"].notna()]
    assert bins["deals"].sum() == n and (bins["deals"] >= 150).all()
    whole = t.iloc[-1]
    assert math.isclose((bins["gain_per_deal"] * bins["deals"]).sum() / n, whole["gain_per_deal"])
    assert math.isclose(whole["gain_per_deal"], pairs["diff"].mean())


@pytest.mark.parametrize("kwargs,match", [
    ({"by": "suit"}, "unknown breakdown"),
    ({"by": "bid", "min_n": 0}, "positive whole number"),
])  # fmt: skip
def test_bad_breakdowns(kwargs, match):
    with pytest.raises(ValueError, match=match):
        gain_by(pd.DataFrame({"bid_1": [250], "diff": [1.0]}), **kwargs)


def test_two_hand_has_nothing_to_break_down():
    with pytest.raises(ValueError, match="needs an auction"):
        gain_by(pd.DataFrame({"win_1": [0], "diff": [1.0]}), "bid")
