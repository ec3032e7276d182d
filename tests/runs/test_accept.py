"""The accept filter: kept deals pass it, its acceptance rate is the probability worked out by
hand, and a filter that keeps (almost) nothing is refused with one line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pinochle_sim import per_deal, play_accepted

SPADES = (1 << 6) - 1  # face bits of spades in one plane


def _spades(code: np.ndarray) -> np.ndarray:
    one = code & SPADES
    two = (code >> 24) & SPADES
    return np.array(
        [bin(int(a)).count("1") + bin(int(b)).count("1") for a, b in zip(one, two, strict=True)]
    )


def _p_at_least(k: int, hand: int = 12, suit: int = 12, deck: int = 48) -> float:
    """P(a 12-card hand from 48 holds at least ``k`` of a 12-card suit): hypergeometric."""
    return sum(
        math.comb(suit, j) * math.comb(deck - suit, hand - j) for j in range(k, min(hand, suit) + 1)
    ) / math.comb(deck, hand)


def test_kept_deals_pass_and_the_rate_is_hypergeometric() -> None:
    acc = play_accepted(2000, lambda c: _spades(c["dealt_2"]) >= 5, seed=1)
    assert acc.kept == 2000
    assert (_spades(acc.columns["dealt_2"]) >= 5).all()
    p = _p_at_least(5)
    se = math.sqrt(p * (1 - p) / acc.dealt)
    assert abs(acc.rate - p) < 4 * se, (acc.rate, p)
    assert (np.diff(acc.columns["hand"]) > 0).all()


def test_per_deal_filter_matches_the_batch_filter() -> None:
    batch = play_accepted(100, lambda c: _spades(c["dealt_0"]) >= 4, seed=2, batch=512)
    slow = play_accepted(
        100, per_deal(lambda seats: sum(c.endswith("S") for c in seats[0]) >= 4), seed=2,
        batch=512,
    )  # fmt: skip
    assert (batch.columns["hand"] == slow.columns["hand"]).all()


def test_a_filter_that_accepts_almost_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match=r"accepted 0 of 4,096 deals \(0.00%\)") as err:
        play_accepted(10, lambda c: _spades(c["dealt_1"]) >= 11)
    assert "\n" not in str(err.value)
