"""The hand engine (pinochle_sim.engine via simulate.play_hands and trace.hand_record).

* whole hands replayed move by move against the slow oracle in tests/reference.py;
* vectorised invariants on large batches of every supported preset;
* determinism (threads, chunks, single hands, traces), deal uniformity, scoring cases, and
  policy conformance.

Preset parameters are written out below from /work/shared/RULES.md section 2, independently of
the package's ``Ruleset`` objects.
"""

from __future__ import annotations

import functools
import math
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from reference import (
    RANKS,
    SUITS,
    ref_auction,
    ref_check_play,
    ref_meld,
    ref_score,
    ref_throw_in_allowed,
    ref_trick_points,
)

from pinochle_sim import decode_hand
from pinochle_sim.engines.auction.bidding import MAX_CALLS, _auction
from pinochle_sim.engines.auction.scoring import _score_sides
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.records import COLUMNS
from pinochle_sim.runs.show import hand_record
from pinochle_sim.runs.simulate import (
    MAX_SEED,
    engine_inputs,
    play_hands,
    play_hands_array,
    trace_arrays,
)

# --------------------------------------------------------------------------- RULES.md 2


@dataclass(frozen=True)
class Preset:
    table: str  # meld table letter of RULES.md 6
    min_bid: int
    steps: tuple[int, ...]
    pass_n: int  # cards passed each way
    counter: int  # points of an A, 10 or K
    last: int  # last-trick bonus
    total: int  # all trick points
    head: str  # heading rule for ref_legal
    save: bool  # save rule


PRESETS = {
    "partnership": Preset("A", 250, (10, 20), 4, 10, 10, 250, "always", True),
    "partnership-classic": Preset("B", 250, (10, 20), 4, 10, 10, 250, "always", False),
    "joedog": Preset("C", 25, (1, 2), 3, 1, 1, 25, "trump-led", True),
}
PRESET_NAMES = tuple(PRESETS)

POLICY_SETS: dict[str, PolicySet | None] = {
    "default": None,
    "random-play": PolicySet.from_options(play="random"),
    "random-pass": PolicySet.from_options(pass_="random"),
    "play-on": PolicySet.from_options(concede="play-on"),
    "bid-pass": PolicySet.from_options(bid="pass"),
    "tuned": PolicySet.from_options(
        params=[
            "bid.margin=60",
            "bid.jump=20",
            "pass.keep_trump=0",
            "play.draw_trump=0",
            "play.smear=0",
        ]
    ),
    "all-random-play-on": PolicySet.from_options(
        bid="pass", pass_="random", play="random", concede="play-on"
    ),
    "counting": PolicySet.from_options(play="counting"),
    "calibrated": PolicySet.from_options(bid="calibrated", params=["bid.risk=60"]),
}

DECK = [r + s for s in SUITS for r in RANKS] * 2
FACES = np.arange(24, dtype=np.int64)
ACE_FACES = np.array([5, 11, 17, 23])
N_BATCH = 100_000


def concede_policy(name: str) -> str:
    pol = POLICY_SETS[name]
    return "concede" if pol is None else pol.concede


# --------------------------------------------------------------------------- helpers


def expected_call_seats(bids: list[int | None], dealer: int) -> list[int]:
    """Seats that make the calls of an auction: clockwise from the dealer's left, skipping
    players who have passed (RULES.md 3, 4)."""
    active = [True] * 4
    seat = (dealer + 1) % 4
    seats = []
    for b in bids:
        while not active[seat]:
            seat = (seat + 1) % 4
        seats.append(seat)
        if b is None:
            active[seat] = False
        seat = (seat + 1) % 4
    return seats


def face_counts(codes: np.ndarray) -> np.ndarray:
    """Copies of each face (n, 24) in packed hands, by numpy bit operations."""
    c = np.asarray(codes, dtype=np.int64)[:, None]
    return ((c >> FACES) & 1) + ((c >> (FACES + 24)) & 1)


def valid_codes(codes: np.ndarray) -> bool:
    one = codes & 0xFFFFFF
    two = (codes >> 24) & 0xFFFFFF
    return bool(np.all(codes >= 0) and np.all(codes >> 48 == 0) and np.all(two & ~one == 0))


def by_bidder(cols: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    """(bidding side's, other side's) value of a per-team column ``name_0`` / ``name_1``."""
    bt = cols["bidder"] % 2
    a, b = cols[f"{name}_0"], cols[f"{name}_1"]
    return np.where(bt == 0, a, b), np.where(bt == 0, b, a)


@functools.cache
def batch(rules: str, policy: str = "default", seed: int = 2024) -> dict[str, np.ndarray]:
    cols = play_hands(seed=seed, start=0, count=N_BATCH, rules=rules, policies=POLICY_SETS[policy])
    for v in cols.values():
        v.flags.writeable = False
    return cols


def cols_equal(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


# --------------------------------------------------------------------------- oracle replay


def check_record(
    rec: dict, rules: str, policy: str, seed: int, hand: int, dealer: int | None = None
) -> None:
    """Check one traced hand against the oracle, step by step."""
    P = PRESETS[rules]
    assert (rec["rules"], rec["seed"], rec["hand"]) == (rules, seed, hand)
    assert rec["dealer"] == (hand % 4 if dealer is None else dealer)
    dealer = rec["dealer"]

    # Deal (RULES.md 1, 3): four hands of 12 that together are the 48-card deck.
    dealt = rec["dealt"]
    assert len(dealt) == 4 and all(len(h) == 12 for h in dealt)
    assert Counter(c for h in dealt for c in h) == Counter(DECK)

    # Auction (RULES.md 4).
    bids = [c["bid"] for c in rec["auction"]]
    assert [c["seat"] for c in rec["auction"]] == expected_call_seats(bids, dealer)
    winner, bid, stuck = ref_auction(bids, dealer, P.min_bid, P.steps)
    assert (rec["bidder"], rec["bid"], rec["stuck"]) == (winner, bid, stuck)
    bidder = rec["bidder"]
    bt = bidder % 2
    trump = rec["trump"]
    assert trump in SUITS
    if policy in ("bid-pass", "all-random-play-on"):
        assert stuck and bids == [None] * 4

    # Passing (RULES.md 5): partner -> bidder, then bidder -> partner; nobody else moves.
    partner = (bidder + 2) % 4
    to_b, to_p = Counter(rec["passed_to_bidder"]), Counter(rec["passed_to_partner"])
    assert sum(to_b.values()) == P.pass_n and sum(to_p.values()) == P.pass_n
    assert to_b <= Counter(dealt[partner])
    assert to_p <= Counter(dealt[bidder]) + to_b
    hands = rec["hands"]
    assert all(len(h) == 12 for h in hands)
    assert Counter(hands[bidder]) == Counter(dealt[bidder]) + to_b - to_p
    assert Counter(hands[partner]) == Counter(dealt[partner]) - to_b + to_p
    for p in (bidder + 1) % 4, (bidder + 3) % 4:
        assert Counter(hands[p]) == Counter(dealt[p])

    # Meld (RULES.md 6) of every post-pass hand in the named trump.
    points = []
    for p in range(4):
        m = rec["meld"][p]
        assert m["seat"] == p
        assert m["points"] == ref_meld(hands[p], trump, P.table), (p, hands[p], trump)
        assert sum(x["points"] for x in m["melds"]) == m["points"]
        for x in m["melds"]:
            assert Counter(x["cards"]) <= Counter(hands[p]), x
        points.append(m["points"])
    team_meld = [points[0] + points[2], points[1] + points[3]]
    assert rec["team_meld"] == team_meld

    # Throw-in (RULES.md 8): only when the bid is out of reach; then no tricks.
    hopeless = ref_throw_in_allowed(bid, team_meld[bt], P.total)
    conceded = rec["conceded"]
    if conceded:
        assert hopeless
        assert rec["tricks"] == [] and rec["team_tricks"] == [0, 0]
    if concede_policy(policy) == "concede":
        assert conceded == hopeless
    else:
        assert not conceded

    # Trick play (RULES.md 7): the bidder leads; every card legal; winners lead.
    if not conceded:
        tricks = rec["tricks"]
        assert len(tricks) == 12
        winners = ref_check_play(hands, bidder, [t["cards"] for t in tricks], trump, P.head)
        leader = bidder
        team_points = [0, 0]
        values = {"A": P.counter, "10": P.counter, "K": P.counter}
        for i, t in enumerate(tricks):
            assert t["leader"] == leader
            assert t["winner"] == winners[i]
            want = ref_trick_points(t["cards"], values, i == 11, P.last)
            assert t["points"] == want
            team_points[t["winner"] % 2] += t["points"]
            leader = t["winner"]
        assert rec["team_tricks"] == team_points
        assert sum(team_points) == P.total

    # Score (RULES.md 8).
    team_tricks = rec["team_tricks"]
    want_score = ref_score(tuple(team_meld), tuple(team_tricks), bt, bid, P.save, conceded)
    assert tuple(rec["score"]) == want_score
    saved = not (P.save and team_tricks[bt] == 0)
    assert rec["made"] == (not conceded and saved and team_meld[bt] + team_tricks[bt] >= bid)


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


# --------------------------------------------------------------------------- batch invariants


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


def vector_scores(cols: dict[str, np.ndarray], P: Preset) -> tuple[np.ndarray, ...]:
    """RULES.md 8 re-implemented with numpy: (score_0, score_1, made)."""
    bt = cols["bidder"] % 2
    bid = cols["bid"]
    conceded = cols["conceded"].astype(bool)
    meld_b, meld_o = by_bidder(cols, "team_meld")
    tr_b, tr_o = by_bidder(cols, "team_tricks")
    saved_b = ~(P.save & (tr_b == 0))
    saved_o = ~(P.save & (tr_o == 0))
    counted_b = np.where(saved_b, meld_b + tr_b, 0)
    made = ~conceded & saved_b & (counted_b >= bid)
    s_b = np.where(made, counted_b, -bid)
    s_o = np.where(conceded, meld_o, np.where(saved_o, meld_o + tr_o, 0))
    return np.where(bt == 0, s_b, s_o), np.where(bt == 0, s_o, s_b), made


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


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("policy", ["default", "all-random-play-on", "random-pass"])
def test_results_do_not_depend_on_threads_or_chunks(policy: str) -> None:
    pol = POLICY_SETS[policy]
    base = play_hands(seed=7, start=123, count=3000, policies=pol, threads_=1, chunk=4096)
    threads = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
    for t in threads:
        for chunk in (1, 7, 4096):
            other = play_hands(seed=7, start=123, count=3000, policies=pol, threads_=t, chunk=chunk)
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
        {"threads_": 0},
        {"threads_": numba.config.NUMBA_NUM_THREADS + 1},
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


# --------------------------------------------------------------------------- deal uniformity


def hypergeom(k: int, good: int, draws: int = 12, total: int = 48) -> float:
    return math.comb(good, k) * math.comb(total - good, draws - k) / math.comb(total, draws)


def chi_square(observed: np.ndarray, probs: np.ndarray, n: int) -> tuple[float, int]:
    """Chi-square statistic with tail bins pooled until every expected count is >= 20."""
    expected = probs * n
    obs, exp = list(observed.astype(float)), list(expected)
    for _ in range(2):  # pool the low tail, then (reversed) the high tail
        while len(exp) > 2 and exp[0] < 20:
            e, o = exp.pop(0), obs.pop(0)
            exp[0] += e
            obs[0] += o
        obs.reverse()
        exp.reverse()
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp, strict=True))
    return stat, len(exp) - 1


@functools.cache
def uniformity_batch() -> dict[str, np.ndarray]:
    return play_hands(seed=31337, start=0, count=200_000, policies=POLICY_SETS["bid-pass"])


@pytest.mark.parametrize("seat", [0, 3])
def test_deal_face_counts_are_hypergeometric(seat: int) -> None:
    cols = uniformity_batch()
    n = len(cols["hand"])
    counts = face_counts(cols[f"dealt_{seat}"])
    means = counts.mean(axis=0)
    # 2 copies of each face among 48 cards, 12 drawn: mean 0.5, sd of the mean ~0.0014
    assert np.all(np.abs(means - 0.5) < 0.01), means
    probs = np.array([hypergeom(k, 2) for k in range(3)])
    for f in range(24):
        observed = np.bincount(counts[:, f], minlength=3)
        stat, df = chi_square(observed, probs, n)
        assert df == 2
        assert stat < 30, (f, observed, stat)


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_deal_suit_lengths_are_hypergeometric(seat: int) -> None:
    cols = uniformity_batch()
    n = len(cols["hand"])
    probs = np.array([hypergeom(k, 12) for k in range(13)])
    assert abs(probs.sum() - 1) < 1e-12
    for s in "shdc":
        observed = np.bincount(cols[f"len_{seat}_{s}"], minlength=13)[:13]
        assert observed.sum() == n
        stat, df = chi_square(observed, probs, n)
        assert 6 <= df <= 10
        assert stat < 40, (s, observed, stat)


def test_deal_seats_are_negatively_correlated_as_without_replacement() -> None:
    cols = uniformity_batch()
    # Multivariate hypergeometric: cov(len_0_s, len_1_s) = -12*12*12*36 / (48^2 * 47)
    want = -(12 * 12 * 12 * 36) / (48**2 * 47)
    var = 12 * (12 / 48) * (36 / 48) * (36 / 47)
    for s in "shdc":
        for a, b in ((0, 1), (0, 2), (1, 3), (2, 3)):
            cov = np.cov(cols[f"len_{a}_{s}"], cols[f"len_{b}_{s}"])
            assert abs(cov[0, 1] - want) < 0.03, (s, a, b, cov)
            assert abs(cov[0, 0] - var) < 0.05


# --------------------------------------------------------------------------- scoring rule


def score(meld_bid, meld_other, tricks_bid, tricks_other, bid, save, conceded):
    s_b, s_o, made = _score_sides(
        meld_bid, meld_other, tricks_bid, tricks_other, bid, save, conceded
    )
    return int(s_b), int(s_o), bool(made)


@pytest.mark.parametrize(
    ("args", "want"),
    [
        # made: meld + tricks >= bid scores meld + tricks (RULES.md 8)
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


# --------------------------------------------------------------------------- policies


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


# --------------------------------------------------------------------------- auction kernel


def expected_call(limit: int, bid: int, P: Preset, jump: int) -> int | None:
    """The call the bid policy documents (pinochle_sim.auction): open at the minimum if the
    limit allows; later raise by the largest step when the limit exceeds the bid by at least
    that step plus ``jump``, else by the smallest step while within the limit; else pass."""
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
            bidder, bid, stuck, n = _auction(dealer, 4, limits, inputs.ra, inputs.pp, calls)
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
    """RULES.md 4 and 10: every call of the auction is recorded. A large but valid ``bid.margin``
    makes all four seats raise past ``MAX_CALLS`` calls; the record must still be a complete,
    legal auction (ref_auction raises on an incomplete one)."""
    pol = PolicySet.from_options(params=["bid.margin=5000"])
    rec = hand_record(1, 0, policies=pol)
    bids = [c["bid"] for c in rec["auction"]]
    try:
        winner, bid, stuck = ref_auction(bids, rec["dealer"], 250, (10, 20))
    except ValueError as e:
        pytest.fail(
            f"recorded auction is not a complete legal auction ({e}); "
            f"{len(bids)} calls recorded, the last {bids[-4:]}, "
            f"bidder {rec['bidder']} at {rec['bid']}"
        )
    assert (rec["bidder"], rec["bid"], rec["stuck"]) == (winner, bid, stuck)
