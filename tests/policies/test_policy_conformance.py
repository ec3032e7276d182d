"""Policy conformance on the auction engine: determinism, inputs unchanged, the pass and
random policies, bid parameters, PolicySet validation."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_sim.policies import PolicySet
from pinochle_sim.runs.simulate.hands import (
    engine_inputs,
    play_hands,
    play_hands_array,
    trace_arrays,
)
from tests.engines.auction.helpers import (
    N_BATCH,
    POLICY_SETS,
    PRESET_NAMES,
    PRESETS,
    batch,
)


@pytest.mark.parametrize("policy", list(POLICY_SETS))
def test_policies_are_deterministic_and_inputs_unchanged(policy: str) -> None:
    for rules in PRESET_NAMES:
        inputs = engine_inputs(rules, POLICY_SETS[policy])
        for arr in (inputs.ra, inputs.ma, inputs.pp):
            assert not arr.flags.writeable
        before = [inputs.ra.copy(), inputs.ma.copy(), inputs.pp.copy()]
        a = play_hands_array(inputs, 11, 0, 2000)
        b = play_hands_array(inputs, 11, 0, 2000)
        assert np.array_equal(a, b)
        trace_arrays(inputs, 11, 17)
        for old, new in zip(before, (inputs.ra, inputs.ma, inputs.pp), strict=True):
            assert np.array_equal(old, new)
        assert np.array_equal(
            a, play_hands_array(engine_inputs(rules, POLICY_SETS[policy]), 11, 0, 2000)
        )


def test_bid_pass_policy_always_sticks_the_dealer() -> None:
    for rules in PRESET_NAMES:
        cols = batch(rules, "all-random-play-on")
        assert np.all(cols["stuck"] == 1)
        assert np.all(cols["bidder"] == cols["dealer"])
        assert np.all(cols["bid"] == PRESETS[rules].min_bid)
        assert np.all(cols["n_calls"] == 4)


def test_default_bidding_opens_and_raises() -> None:
    cols = batch("partnership")
    assert cols["stuck"].sum() < N_BATCH  # the estimate policy does bid
    assert (cols["bid"] > 250).mean() > 0.1


def test_bid_margin_raises_bids() -> None:
    low = play_hands(seed=8, count=5000, policies=PolicySet.from_options(params=["bid.margin=-40"]))
    high = play_hands(seed=8, count=5000, policies=PolicySet.from_options(params=["bid.margin=60"]))
    assert high["bid"].mean() > low["bid"].mean()
    assert np.array_equal(low["dealt_0"], high["dealt_0"])


def test_random_policies_differ_from_standard_ones() -> None:
    greedy = play_hands(seed=12, count=3000)
    rand = play_hands(seed=12, count=3000, policies=POLICY_SETS["random-play"])
    # greedy play is better for the bidding side than random play on the same deals
    assert greedy["made"].mean() > rand["made"].mean()
    std = play_hands(seed=12, count=3000)
    rpass = play_hands(seed=12, count=3000, policies=POLICY_SETS["random-pass"])
    assert np.mean(std["passed_to_bidder"] != rpass["passed_to_bidder"]) > 0.5


def test_policy_set_validation() -> None:
    with pytest.raises(ValueError):
        PolicySet.from_options(play="clever")
    with pytest.raises(ValueError):
        PolicySet.from_options(params=["bid.nonsense=1"])
    with pytest.raises(ValueError):
        PolicySet.from_options(params=["bid.margin"])
    with pytest.raises(ValueError):
        PolicySet.from_options(params=["bid.margin=lots"])
    with pytest.raises(ValueError):
        PolicySet.from_options(play="random", params=["play.smear=1"])  # random has none
