"""Vectorised invariants on large batches of every four-seat auction preset: the deal
partitions the deck, auction, passing, meld, trick conservation, scores and concessions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pinochle_sim import decode_hand
from pinochle_sim.runs.store.schema import COLUMNS
from tests.engines.auction.helpers import (
    ACE_FACES,
    N_BATCH,
    PRESET_NAMES,
    PRESETS,
    batch,
    by_bidder,
    face_counts,
    valid_codes,
    vector_scores,
)
from tests.oracles.reference import (
    SUITS,
    ref_meld,
)


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_columns(rules: str) -> None:
    cols = batch(rules)
    assert tuple(cols) == COLUMNS
    for name, v in cols.items():
        assert v.dtype == np.int64 and v.shape == (N_BATCH,), name
    assert np.array_equal(cols["hand"], np.arange(N_BATCH))
    assert np.array_equal(cols["dealer"], np.arange(N_BATCH) % 4)
    for name in ("bidder", "trump"):
        assert cols[name].min() >= 0 and cols[name].max() <= 3
    for name in ("stuck", "conceded", "made"):
        assert set(np.unique(cols[name])) <= {0, 1}


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_deal_partitions_the_deck(rules: str) -> None:
    cols = batch(rules)
    counts = []
    for p in range(4):
        codes = cols[f"dealt_{p}"]
        assert valid_codes(codes)
        c = face_counts(codes)
        assert np.all(c.sum(axis=1) == 12)
        counts.append(c)
        # suit lengths and aces recorded per seat match the dealt hand
        lens = np.stack([cols[f"len_{p}_{s}"] for s in "shdc"], axis=1)
        assert np.array_equal(lens, c.reshape(-1, 4, 6).sum(axis=2))
        assert np.all(lens.sum(axis=1) == 12)
        assert np.array_equal(cols[f"aces_{p}"], c[:, ACE_FACES].sum(axis=1))
    total = sum(counts)
    assert np.all(total == 2)
    union = cols["dealt_0"] | cols["dealt_1"] | cols["dealt_2"] | cols["dealt_3"]
    assert np.all(union & 0xFFFFFF == 0xFFFFFF)


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_auction_invariants(rules: str) -> None:
    P = PRESETS[rules]
    cols = batch(rules)
    bid, stuck = cols["bid"], cols["stuck"].astype(bool)
    assert np.all(bid >= P.min_bid)
    assert np.all((bid - P.min_bid) % math.gcd(*P.steps) == 0)
    assert np.all(cols["bidder"][stuck] == cols["dealer"][stuck])
    assert np.all(bid[stuck] == P.min_bid)
    assert np.all(cols["n_calls"] >= 4)
    assert np.all(cols["n_calls"][stuck] == 4)
    high_bid, high_other = by_bidder(cols, "high_bid")
    assert np.all(high_bid[~stuck] == bid[~stuck])
    assert np.all(high_other < bid)
    assert np.all(high_bid[stuck] == 0) and np.all(high_other[stuck] == 0)
    # A bid over the minimum needed at least one call per raise plus three passes.
    assert np.all(cols["n_calls"] >= 4 + (bid - P.min_bid) // max(P.steps))


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_passing_and_meld(rules: str) -> None:
    P = PRESETS[rules]
    cols = batch(rules)
    n = N_BATCH
    for name in ("passed_to_bidder", "passed_to_partner"):
        assert valid_codes(cols[name])
        assert np.all(face_counts(cols[name]).sum(axis=1) == P.pass_n)
    # The partner gives only cards it was dealt.
    bidder = cols["bidder"]
    dealt = np.stack([cols[f"dealt_{p}"] for p in range(4)], axis=1)
    partner_dealt = dealt[np.arange(n), (bidder + 2) % 4]
    assert np.all(face_counts(cols["passed_to_bidder"]) <= face_counts(partner_dealt))
    # Meld after the pass: the other side's hands did not change, so their meld is the
    # pre-pass meld in the named trump; team meld is the sum of the partners' meld.
    pre = np.stack([cols[f"meld_{p}_{s}"] for p in range(4) for s in "shdc"], axis=1)
    pre = pre.reshape(n, 4, 4)
    trump = cols["trump"]
    for p in range(4):
        other = bidder % 2 != p % 2
        assert np.array_equal(cols[f"meld_{p}"][other], pre[np.arange(n), p, trump][other])
    assert np.array_equal(cols["team_meld_0"], cols["meld_0"] + cols["meld_2"])
    assert np.array_equal(cols["team_meld_1"], cols["meld_1"] + cols["meld_3"])
    assert np.all(pre >= 0)


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_trick_conservation(rules: str) -> None:
    P = PRESETS[rules]
    cols = batch(rules)
    conceded = cols["conceded"].astype(bool)
    played = ~conceded
    t0, t1 = cols["team_tricks_0"], cols["team_tricks_1"]
    w0, w1 = cols["tricks_won_0"], cols["tricks_won_1"]
    c0, c1 = cols["counters_0"], cols["counters_1"]
    assert np.all(t0 + t1 == np.where(played, P.total, 0))
    assert np.all(w0 + w1 == np.where(played, 12, 0))
    assert np.all(c0 + c1 == np.where(played, 24, 0))  # A, 10, K x 4 suits x 2
    assert np.all((t0 >= 0) & (t1 >= 0) & (w0 >= 0) & (w1 >= 0))
    # Each side's trick points are its counters plus the last-trick bonus, which one side got.
    b0, b1 = t0 - P.counter * c0, t1 - P.counter * c1
    assert np.all(np.isin(b0, (0, P.last)) & np.isin(b1, (0, P.last)))
    assert np.all(b0 + b1 == np.where(played, P.last, 0))
    assert np.all(t0[w0 == 0] == 0) and np.all(t1[w1 == 0] == 0)


@pytest.mark.parametrize("policy", ["default", "all-random-play-on"])
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_scores_follow_the_rule(rules: str, policy: str) -> None:
    P = PRESETS[rules]
    cols = batch(rules, policy)
    s0, s1, made = vector_scores(cols, P)
    assert np.array_equal(cols["score_0"], s0)
    assert np.array_equal(cols["score_1"], s1)
    assert np.array_equal(cols["made"].astype(bool), made)
    assert not np.any(cols["made"] & cols["conceded"])


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_concessions(rules: str) -> None:
    P = PRESETS[rules]
    cols = batch(rules)
    meld_b, _ = by_bidder(cols, "team_meld")
    hopeless = cols["bid"] - meld_b > P.total
    # The default concede policy throws in exactly when the bid is out of reach.
    assert np.array_equal(cols["conceded"].astype(bool), hopeless)
    assert hopeless.sum() > 0
    on = batch(rules, "play-on")  # same deals and auctions, never thrown in
    assert not on["conceded"].any()
    assert np.array_equal(on["bid"], cols["bid"]) and np.array_equal(on["bidder"], cols["bidder"])
    meld_b, _ = by_bidder(on, "team_meld")
    hopeless = on["bid"] - meld_b > P.total
    assert hopeless.sum() > 0
    assert not on["made"][hopeless].any()  # playing on cannot make a hopeless bid


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_batch_pre_pass_meld_spot_check(rules: str) -> None:
    P = PRESETS[rules]
    cols = batch(rules)
    rng = np.random.default_rng(7)
    picks = {
        (int(h), int(p), int(s))
        for h, p, s in zip(
            rng.integers(0, N_BATCH, 2000),
            rng.integers(0, 4, 2000),
            rng.integers(0, 4, 2000),
            strict=True,
        )
    }
    # plus the largest values (double runs, eight of a kind, ...)
    for p in range(4):
        for si, s in enumerate("shdc"):
            for h in np.argsort(cols[f"meld_{p}_{s}"])[-8:]:
                picks.add((int(h), p, si))
    assert len(picks) >= 2000
    for h, p, s in sorted(picks):
        cards = decode_hand(int(cols[f"dealt_{p}"][h]))
        want = ref_meld(cards, SUITS[s], P.table)
        assert cols[f"meld_{p}_{'shdc'[s]}"][h] == want, (h, p, SUITS[s], cards)
