"""The auction kernel against the oracle, and complete records with extreme bid parameters."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pinochle_sim.engines.auction.bidding import MAX_CALLS, _auction
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.inspect.show import hand_record
from pinochle_sim.runs.simulate.hands import engine_inputs
from tests.engines.auction.helpers import (
    PRESET_NAMES,
    PRESETS,
    Preset,
    expected_call_seats,
)
from tests.oracles.reference import (
    ref_auction,
)


def expected_call(limit: int, bid: int, P: Preset, jump: int) -> int | None:
    """The call the bid policy documents (pinochle_sim.engines.auction.bidding): open at the
    minimum if the limit allows; later raise by the largest step when the limit exceeds the bid
    by at least that step plus ``jump``, else by the smallest step while within the limit; else
    pass."""
    small, large = min(P.steps), max(P.steps)
    if bid == 0:
        return P.min_bid if limit >= P.min_bid else None
    if limit >= bid + large + jump and limit >= bid + large:
        return bid + large
    if limit >= bid + small:
        return bid + small
    return None


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_auction_kernel_against_oracle(rules: str) -> None:
    P = PRESETS[rules]
    unit = P.total // 25
    rng = np.random.default_rng(PRESET_NAMES.index(rules))
    calls = np.zeros(2 * MAX_CALLS, dtype=np.int64)
    n_stuck = n_dealer_opens = 0
    for jump in (0, 6 * unit, 1000 * unit):
        inputs = engine_inputs(rules, PolicySet.from_options(params=[f"bid.jump={jump}"]))
        for _ in range(3000):
            dealer = int(rng.integers(0, 4))
            limits = rng.integers(P.min_bid - 5 * unit, P.min_bid + 60 * unit, 4)
            limits[rng.random(4) < 0.3] = 0  # some seats never bid
            limits = limits.astype(np.int64)
            bidder, bid, stuck, n = _auction(
                inputs.bundle, dealer, 4, limits, inputs.ra, inputs.pp, calls
            )
            pairs = calls[: 2 * n].reshape(-1, 2)
            bids = [None if b < 0 else int(b) for b in pairs[:, 1]]
            assert (bidder, bid, stuck) == ref_auction(bids, dealer, P.min_bid, P.steps)
            assert pairs[:, 0].tolist() == expected_call_seats(bids, dealer)
            current = 0
            for seat, b in zip(pairs[:, 0], bids, strict=True):
                assert b == expected_call(int(limits[seat]), current, P, jump)
                current = b if b is not None else current
            if stuck:
                n_stuck += 1
                assert bidder == dealer and bid == P.min_bid
            else:
                assert bid <= limits[bidder]
            if bids[:3] == [None] * 3 and bids[3:] == [P.min_bid]:
                n_dealer_opens += 1
    assert n_stuck > 50 and n_dealer_opens > 20


def test_auction_record_is_complete_with_extreme_bid_parameters() -> None:
    """docs/rules.md 4.2: the record keeps every auction call. A large but valid ``bid.margin``
    makes all four seats raise past ``MAX_CALLS`` calls; the record must still be a complete,
    legal auction (ref_auction raises on an incomplete one). Raises of one point (a TOML
    ruleset may choose them) and the largest margin the policy accepts get there."""
    rules = dataclasses.replace(
        get_preset("partnership"), name="one-point-raises", bid_steps=(1, 2)
    )
    pol = PolicySet.from_options(params=["bid.margin=500", "bid.jump=10000"])
    rec = hand_record(1, 0, rules, policies=pol)
    bids = [c["bid"] for c in rec["auction"]]
    assert len(bids) > MAX_CALLS - 4  # the cap was reached: every seat was made to pass
    try:
        winner, bid, stuck = ref_auction(bids, rec["dealer"], 250, (1, 2))
    except ValueError as e:
        pytest.fail(
            f"recorded auction is not a complete legal auction ({e}); "
            f"{len(bids)} calls recorded, the last {bids[-4:]}, "
            f"bidder {rec['bidder']} at {rec['bid']}"
        )
    assert (rec["bidder"], rec["bid"], rec["stuck"]) == (winner, bid, stuck)
