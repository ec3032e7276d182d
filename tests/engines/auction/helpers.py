"""Shared expectations and helpers for the auction-engine tests.

Preset parameters are written out below from the rules text (docs/rules.md section 2),
independently of the package's ``Ruleset`` objects.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

import numpy as np

from pinochle_sim.policies import PolicySet
from pinochle_sim.runs.simulate.hands import play_hands
from tests.catalog import FOUR_SEAT_PRESETS
from tests.oracles.reference import (
    RANKS,
    SUITS,
    ref_auction,
    ref_check_play,
    ref_meld,
    ref_score,
    ref_throw_in_allowed,
    ref_trick_points,
)

# --------------------------------------------------------------------------- docs/rules.md 2


@dataclass(frozen=True)
class Preset:
    table: str  # meld table letter of docs/rules.md 3
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
PRESET_NAMES = FOUR_SEAT_PRESETS
"""The four-seat auction presets, from the registry; ``PRESETS`` above must cover each."""

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
    players who have passed (docs/rules.md 4.1, 4.2)."""
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


def check_record(
    rec: dict, rules: str, policy: str, seed: int, hand: int, dealer: int | None = None
) -> None:
    """Check one traced hand against the oracle, step by step."""
    P = PRESETS[rules]
    assert (rec["rules"], rec["seed"], rec["hand"]) == (rules, seed, hand)
    assert rec["dealer"] == (hand % 4 if dealer is None else dealer)
    dealer = rec["dealer"]

    # Deal (docs/rules.md 1, 4.1): four hands of 12 that together are the 48-card deck.
    dealt = rec["dealt"]
    assert len(dealt) == 4 and all(len(h) == 12 for h in dealt)
    assert Counter(c for h in dealt for c in h) == Counter(DECK)

    # Auction (docs/rules.md 4.2).
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

    # Passing (docs/rules.md 4.4): partner -> bidder, then bidder -> partner; nobody else moves.
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

    # Meld (docs/rules.md 3) of every post-pass hand in the named trump.
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

    # Throw-in (docs/rules.md 4.7, 6.5): only when the bid is out of reach; then no tricks.
    hopeless = ref_throw_in_allowed(bid, team_meld[bt], P.total)
    conceded = rec["conceded"]
    if conceded:
        assert hopeless
        assert rec["tricks"] == [] and rec["team_tricks"] == [0, 0]
    if concede_policy(policy) == "concede":
        assert conceded == hopeless
    else:
        assert not conceded

    # Trick play (docs/rules.md 5): the bidder leads; every card legal; winners lead.
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

    # Score (docs/rules.md 6).
    team_tricks = rec["team_tricks"]
    want_score = ref_score(tuple(team_meld), tuple(team_tricks), bt, bid, P.save, conceded)
    assert tuple(rec["score"]) == want_score
    saved = not (P.save and team_tricks[bt] == 0)
    assert rec["made"] == (not conceded and saved and team_meld[bt] + team_tricks[bt] >= bid)


def vector_scores(cols: dict[str, np.ndarray], P: Preset) -> tuple[np.ndarray, ...]:
    """docs/rules.md 6 re-implemented with numpy: (score_0, score_1, made)."""
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
