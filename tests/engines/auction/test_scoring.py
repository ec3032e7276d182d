"""The scoring rule (docs/rules.md 6): hand-worked cases, the oracle on random inputs, real hands"""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_sim.engines.auction.scoring import _score_sides
from tests.engines.auction.helpers import (
    PRESET_NAMES,
    PRESETS,
    batch,
    by_bidder,
    vector_scores,
)
from tests.oracles.reference import (
    ref_score,
)


def score(meld_bid, meld_other, tricks_bid, tricks_other, bid, save, conceded):
    s_b, s_o, made = _score_sides(
        meld_bid, meld_other, tricks_bid, tricks_other, bid, save, conceded
    )
    return int(s_b), int(s_o), bool(made)


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # made: meld + tricks >= bid scores meld + tricks (docs/rules.md 6)
        ((200, 100, 100, 150, 250, True, False), (300, 250, True)),
        ((150, 60, 100, 150, 250, True, False), (250, 210, True)),  # exactly the bid
        # set: short of the bid -> -bid; the other side still scores meld + tricks
        ((100, 100, 140, 110, 250, True, False), (-250, 210, False)),
        ((149, 0, 100, 150, 250, False, False), (-250, 150, False)),
        # save rule: the other side took no trick points -> it scores nothing, meld lost
        ((100, 200, 250, 0, 250, True, False), (350, 0, True)),
        # save rule: the bidding side took no trick points -> set even with meld >= bid
        ((300, 40, 0, 250, 250, True, False), (-250, 290, False)),
        # no save rule (partnership-classic): meld counts without trick points
        ((100, 200, 250, 0, 250, False, False), (350, 200, True)),
        ((300, 40, 0, 250, 250, False, False), (300, 290, True)),
        ((200, 40, 0, 250, 250, False, False), (-250, 290, False)),
        # concede (throw-in): bidding side -bid, other side its meld only, no tricks
        ((0, 120, 0, 0, 300, True, True), (-300, 120, False)),
        ((0, 120, 0, 0, 300, False, True), (-300, 120, False)),
        ((30, 0, 0, 0, 60, True, True), (-60, 0, False)),
        # joedog scale
        ((20, 10, 10, 15, 30, True, False), (30, 25, True)),
        ((20, 10, 0, 25, 26, True, False), (-26, 35, False)),
    ],
)
def test_score_sides_cases(args: tuple, want: tuple) -> None:
    assert score(*args) == want


def test_score_sides_matches_oracle_on_random_inputs() -> None:
    rng = np.random.default_rng(3)
    for _ in range(5000):
        total = int(rng.choice([250, 25]))
        unit = total // 25
        meld = [int(rng.integers(0, 60)) * unit, int(rng.integers(0, 60)) * unit]
        t = int(rng.choice([0, total, int(rng.integers(0, total + 1))]))
        tricks = [t, total - t]
        bt = int(rng.integers(0, 2))
        bid = int(rng.integers(25, 60)) * unit
        save = bool(rng.integers(0, 2))
        conceded = bool(rng.integers(0, 2))
        if conceded:
            tricks = [0, 0]
        s_b, s_o, made = score(
            meld[bt], meld[1 - bt], tricks[bt], tricks[1 - bt], bid, save, conceded
        )
        want = ref_score(tuple(meld), tuple(tricks), bt, bid, save, conceded)
        got = [0, 0]
        got[bt], got[1 - bt] = s_b, s_o
        assert tuple(got) == want
        assert made == (got[bt] > 0)


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_real_hands_where_a_side_took_no_trick_points(rules: str) -> None:
    """Hands from the engine in which one side took no trick points, under each preset."""
    P = PRESETS[rules]
    cols = batch(rules, "all-random-play-on")
    bid = cols["bid"]
    meld_b, meld_o = by_bidder(cols, "team_meld")
    tr_b, tr_o = by_bidder(cols, "team_tricks")
    s_b, s_o = by_bidder(cols, "score")
    made = cols["made"].astype(bool)
    assert not cols["conceded"].any()

    bid_zero = tr_b == 0
    assert bid_zero.sum() >= 3
    assert np.all(tr_o[bid_zero] == P.total)
    other_zero = tr_o == 0
    assert other_zero.sum() >= 100
    assert np.any(meld_o[other_zero] > 0)
    if P.save:
        assert np.all(s_b[bid_zero] == -bid[bid_zero]) and not made[bid_zero].any()
        assert np.all(s_o[other_zero] == 0)
    else:
        ok = meld_b[bid_zero] >= bid[bid_zero]
        assert np.array_equal(made[bid_zero], ok)
        assert np.all(s_b[bid_zero] == np.where(ok, meld_b[bid_zero], -bid[bid_zero]))
        assert np.all(s_o[other_zero] == meld_o[other_zero])
    assert np.all(s_o[bid_zero] == meld_o[bid_zero] + P.total)


def test_save_rule_is_the_only_scoring_difference_of_classic() -> None:
    """Re-score the partnership-classic batch with the save rule on: the scores differ only on
    hands where a side took no trick points."""
    cols = batch("partnership-classic", "all-random-play-on")
    s0, s1, _ = vector_scores(cols, PRESETS["partnership"])
    differ = (s0 != cols["score_0"]) | (s1 != cols["score_1"])
    zero = (cols["team_tricks_0"] == 0) | (cols["team_tricks_1"] == 0)
    assert differ.any()
    assert not np.any(differ & ~zero)
