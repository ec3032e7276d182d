"""Determinism: threads, chunks, single hands, traces, seeds, fixed dealers, argument checks."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from pinochle_sim import decode_hand
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.inspect.show import hand_record
from pinochle_sim.runs.simulate.hands import MAX_SEED, play_hands
from pinochle_sim.runs.store.schema import COLUMNS
from tests.engines.auction.helpers import (
    N_BATCH,
    POLICY_SETS,
    PRESET_NAMES,
    batch,
    check_record,
    cols_equal,
    face_counts,
)
from tests.oracles.reference import (
    SUITS,
)


@pytest.mark.parametrize("policy", ["default", "all-random-play-on", "random-pass"])
def test_results_do_not_depend_on_threads_or_chunks(policy: str) -> None:
    pol = POLICY_SETS[policy]
    base = play_hands(seed=7, start=123, count=3000, policies=pol, threads=1, chunk=4096)
    threads = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
    for t in threads:
        for chunk in (1, 7, 4096):
            other = play_hands(seed=7, start=123, count=3000, policies=pol, threads=t, chunk=chunk)
            assert cols_equal(base, other), (t, chunk)
    assert cols_equal(base, play_hands(seed=7, start=123, count=3000, policies=pol))


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_single_hand_equals_hand_in_batch(rules: str) -> None:
    cols = batch(rules)
    for i in (0, 1, 2, 3, 4097, 50_000, N_BATCH - 1):
        one = play_hands(seed=2024, start=i, count=1, rules=rules)
        for name in COLUMNS:
            assert one[name][0] == cols[name][i], (i, name)
    part = play_hands(seed=2024, start=4000, count=300, rules=rules, chunk=64)
    for name in COLUMNS:
        assert np.array_equal(part[name], cols[name][4000:4300]), name


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_hand_record_agrees_with_batch(rules: str) -> None:
    cols = batch(rules)
    for h in [*range(40), *np.flatnonzero(cols["conceded"])[:5].tolist()]:
        rec = hand_record(2024, h, rules=rules)
        assert rec["dealer"] == cols["dealer"][h]
        assert rec["bidder"] == cols["bidder"][h]
        assert rec["bid"] == cols["bid"][h]
        assert rec["trump"] == SUITS[cols["trump"][h]]
        assert rec["stuck"] == bool(cols["stuck"][h])
        assert rec["conceded"] == bool(cols["conceded"][h])
        assert rec["made"] == bool(cols["made"][h])
        assert len(rec["auction"]) == cols["n_calls"][h]
        assert rec["score"] == [cols["score_0"][h], cols["score_1"][h]]
        assert rec["team_meld"] == [cols["team_meld_0"][h], cols["team_meld_1"][h]]
        assert rec["team_tricks"] == [cols["team_tricks_0"][h], cols["team_tricks_1"][h]]
        for p in range(4):
            assert rec["dealt"][p] == decode_hand(int(cols[f"dealt_{p}"][h]))
            assert rec["meld"][p]["points"] == cols[f"meld_{p}"][h]
        assert rec["passed_to_bidder"] == decode_hand(int(cols["passed_to_bidder"][h]))
        assert rec["passed_to_partner"] == decode_hand(int(cols["passed_to_partner"][h]))
        won = [sum(t["winner"] % 2 == side for t in rec["tricks"]) for side in (0, 1)]
        assert won == [cols["tricks_won_0"][h], cols["tricks_won_1"][h]]
        counters = [0, 0]
        for t in rec["tricks"]:
            counters[t["winner"] % 2] += sum(c[:-1] in ("A", "10", "K") for c in t["cards"])
        assert counters == [cols["counters_0"][h], cols["counters_1"][h]]
        for side in (0, 1):
            bids = [c["bid"] or 0 for c in rec["auction"] if c["seat"] % 2 == side]
            assert max(bids, default=0) == cols[f"high_bid_{side}"][h]


DEAL_COLUMNS = tuple(f"dealt_{p}" for p in range(4))


def test_different_seeds_give_different_deals() -> None:
    a = play_hands(seed=1, start=0, count=2000)
    b = play_hands(seed=2, start=0, count=2000)
    c = play_hands(seed=0, start=0, count=2000)
    for x, y in ((a, b), (a, c), (b, c)):
        same = np.ones(2000, dtype=bool)
        for name in DEAL_COLUMNS:
            same &= x[name] == y[name]
        assert not same.any()
        assert np.mean(x["dealt_0"] == y["dealt_0"]) < 0.01
    # and different hands of one seed are different deals
    assert len(np.unique(a["dealt_0"])) == 2000


def test_seed_bounds() -> None:
    top = play_hands(seed=MAX_SEED, start=0, count=50)
    assert cols_equal(top, play_hands(seed=MAX_SEED, start=0, count=50))
    for p in range(4):
        assert np.all(face_counts(top[f"dealt_{p}"]).sum(axis=1) == 12)
    with pytest.raises(ValueError):
        play_hands(seed=MAX_SEED + 1, count=1)
    with pytest.raises(ValueError):
        play_hands(seed=-1, count=1)
    big = play_hands(seed=3, start=2**40, count=10)
    assert np.array_equal(big["hand"], 2**40 + np.arange(10))


@pytest.mark.parametrize("changed", ["random-play", "play-on"])
def test_play_and_concede_policy_do_not_change_deal_auction_or_pass(changed: str) -> None:
    a = play_hands(seed=5, start=0, count=5000)
    b = play_hands(seed=5, start=0, count=5000, policies=POLICY_SETS[changed])
    keep = [
        n
        for n in COLUMNS
        if n.startswith(("dealt_", "meld_", "len_", "aces_", "passed_", "high_bid_", "team_meld"))
        or n in ("hand", "dealer", "bidder", "bid", "trump", "stuck", "n_calls")
    ]
    for name in keep:
        assert np.array_equal(a[name], b[name]), name
    assert not np.array_equal(a["score_0"], b["score_0"])  # the change did something


def test_pass_policy_does_not_change_deal_or_auction() -> None:
    a = play_hands(seed=5, start=0, count=5000)
    b = play_hands(seed=5, start=0, count=5000, policies=POLICY_SETS["random-pass"])
    keep = [n for n in COLUMNS if n.startswith(("dealt_", "len_", "aces_", "high_bid_"))]
    keep += [f"meld_{p}_{s}" for p in range(4) for s in "shdc"]
    keep += ["hand", "dealer", "bidder", "bid", "trump", "stuck", "n_calls"]
    for name in keep:
        assert np.array_equal(a[name], b[name]), name
    assert not np.array_equal(a["passed_to_bidder"], b["passed_to_bidder"])


def test_fixed_dealer() -> None:
    free = play_hands(seed=9, start=0, count=2000)
    for d in range(4):
        fixed = play_hands(seed=9, start=0, count=2000, dealer=d)
        assert np.all(fixed["dealer"] == d)
        for name in DEAL_COLUMNS:
            assert np.array_equal(fixed[name], free[name])  # the deal depends on (seed, hand)
        same = free["dealer"] == d
        for name in COLUMNS:
            assert np.array_equal(fixed[name][same], free[name][same]), name
        rec = hand_record(9, 5, dealer=d)
        assert rec["dealer"] == d and rec["bidder"] == fixed["bidder"][5]
        assert rec["score"] == [fixed["score_0"][5], fixed["score_1"][5]]
        check_record(rec, "partnership", "default", 9, 5, dealer=d)


def test_empty_range_and_bad_arguments() -> None:
    empty = play_hands(seed=1, start=10, count=0)
    assert tuple(empty) == COLUMNS and all(len(v) == 0 for v in empty.values())
    bad = [
        {"start": -1},
        {"count": -1},
        {"chunk": 0},
        {"dealer": 4},
        {"dealer": -1},
        {"threads": 0},
        {"threads": numba.config.NUMBA_NUM_THREADS + 1},
    ]
    for kwargs in bad:
        with pytest.raises(ValueError):
            play_hands(seed=1, **{"count": 5, **kwargs})


@pytest.mark.parametrize(
    "changes",
    [
        {"hand_size": 10},
        {"stock_phase": False},
        {"save_rule": True},
        {"meld_timing": "after-pass"},
    ],
)
def test_two_hand_variants_the_engine_cannot_play_are_refused(changes: dict) -> None:
    rules = get_preset("two-hand").replace(**changes)
    with pytest.raises(ValueError, match="two-hand engine"):
        play_hands(seed=1, count=5, rules=rules)
    with pytest.raises(ValueError, match="two-hand engine"):
        hand_record(1, 0, rules=rules)


def test_melding_after_tricks_needs_a_turned_up_trump() -> None:
    rules = get_preset("partnership").replace(meld_timing="after-tricks")
    with pytest.raises(ValueError, match="turn-up"):
        play_hands(seed=1, count=5, rules=rules)


def test_unknown_rules_name_is_refused() -> None:
    with pytest.raises(ValueError):
        play_hands(seed=1, count=5, rules="no-such-rules")


def test_preset_aliases_play_the_same_hands() -> None:
    assert cols_equal(
        play_hands(seed=4, count=500, rules="classic"),
        play_hands(seed=4, count=500, rules="partnership-classic"),
    )
    assert cols_equal(
        play_hands(seed=4, count=500), play_hands(seed=4, count=500, rules="partnership")
    )
