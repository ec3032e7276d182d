"""Whole hands of the four-seat presets replayed move by move against the slow oracle
(tests/oracles/reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_sim.runs.inspect.show import hand_record
from tests.engines.auction.helpers import (
    POLICY_SETS,
    PRESET_NAMES,
    PRESETS,
    batch,
    check_record,
)


@pytest.mark.parametrize("policy", list(POLICY_SETS))
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_hands_replayed_by_oracle(rules: str, policy: str) -> None:
    seed = 1000 + 10 * PRESET_NAMES.index(rules) + list(POLICY_SETS).index(policy)
    n_played = 0
    for hand in range(300):
        rec = hand_record(seed, hand, rules=rules, policies=POLICY_SETS[policy])
        check_record(rec, rules, policy, seed, hand)
        n_played += not rec["conceded"]
    assert n_played >= 150


def test_oracle_replay_sees_concessions() -> None:
    """Concessions are rare; look for them in a batch and replay those hands."""
    for rules in PRESET_NAMES:
        cols = batch(rules)
        idx = np.flatnonzero(cols["conceded"])[:25]
        assert len(idx) >= 10
        for h in idx:
            rec = hand_record(2024, int(h), rules=rules)
            assert rec["conceded"]
            check_record(rec, rules, "default", 2024, int(h))


def test_expectations_cover_every_four_seat_preset() -> None:
    """The hand-written preset parameters above cover every four-seat preset registered."""
    assert set(PRESETS) == set(PRESET_NAMES)
