"""The sampled worlds of ``pimc`` are uniform over the consistent deals.

On small positions every consistent deal is enumerated here, independently of the sampler:
each unseen physical copy (two copies of a face are two copies) goes to one seat (or the
three-hand discard) that may hold it, each location gets exactly its free places. The
sampler's world numbers ``0 .. total-1`` must then give every deal exactly as often as the
enumeration counts its assignments (a bijection, so a uniform number is a uniform deal), and
worlds drawn from the random stream must pass a chi-square test against those frequencies.
Positions include cards known from meld and the pass, voids, "nothing higher" caps, and the
three-hand widow and discard."""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter

import numpy as np
import pytest

from pinochle_sim.core.cards import encode_hand
from pinochle_sim.policies.dispatch import CAPS_NONE
from pinochle_sim.policies.known import (
    K_BIDDER,
    K_COUNT,
    K_DISCARD,
    K_SETUP,
    K_SHOWN,
    K_TO_BIDDER,
    K_TO_MATE,
    K_WIDOW,
    W_RA,
    new_work,
)
from pinochle_sim.policies.pimc import world_hands, world_setup
from pinochle_sim.policies.view import PlayView
from pinochle_sim.policies.worlds import uniform_below
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import rule_array
from tests.oracles.reference import RANKS, SUITS

DECK = [r + s for s in SUITS for r in RANKS] * 2
DISCARD = "discard"


def hand(cards: str) -> int:
    return encode_hand(cards) if cards else 0


def cap(caps: int, seat: int, suit: str, value: int) -> int:
    """``seat`` holds no card of ``suit`` ranked ``value`` (0 = 9, ..., 5 = A) or higher."""
    at = 16 * seat + 4 * SUITS.index(suit)
    return (caps & ~(15 << at)) | (value << at)


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1])


class Position:
    """A position as the viewer knows it, with the enumeration of its consistent deals."""

    def __init__(self, preset: str, viewer: int, bidder: int, mine: str, unseen: str,
                 counts: dict[int, int], known: dict[int, str], caps: int,
                 widow_left: str = "", discard: str = "", to_mate: str = "",
                 to_bidder: str = "") -> None:  # fmt: skip
        rules = PRESETS[preset]
        self.players = rules.players
        self.viewer, self.bidder = viewer, bidder
        self.mine = mine.split()
        self.unseen = unseen.split()  # the copies the viewer has not seen (every location)
        self.counts = counts  # cards each other seat holds
        mate = (bidder + 2) % 4
        told = (
            {mate: to_mate} if viewer == bidder else ({bidder: to_bidder} if viewer == mate else {})
        )
        self.known = {}
        for s in counts:  # what the viewer knows each seat holds: the larger count per card
            a, b = Counter(known.get(s, "").split()), Counter(told.get(s, "").split())
            self.known[s] = list((a | b).elements())
        self.caps = caps
        self.widow_left = widow_left.split()
        self.discard = discard.split()
        rest = Counter(DECK) - Counter(self.mine) - Counter(self.unseen) - Counter(self.discard)
        for cards in self.known.values():
            rest -= Counter(cards)
        self.played = list(rest.elements())
        work = new_work(True)
        work[W_RA : W_RA + len(rule_array(rules))] = rule_array(rules)
        for s, n in counts.items():
            work[K_COUNT + s] = n
        work[K_COUNT + viewer] = len(self.mine)
        for s, cards in known.items():
            work[K_SHOWN + s] = hand(cards)
        work[K_TO_MATE] = hand(to_mate)
        work[K_TO_BIDDER] = hand(to_bidder)
        work[K_WIDOW] = hand(widow_left)
        work[K_DISCARD] = hand(discard) if viewer == bidder else 0
        work[K_BIDDER] = bidder
        work[K_SETUP] = 1
        self.work = work
        self.view = PlayView(
            hand(mine), hand(mine), hand(" ".join(self.played)), 0, -1, -1, viewer, bidder,
            0, self.players, self.players == 4, 0, caps, -1, 0,  # rules: the sampler reads none
        )  # fmt: skip

    def locations(self) -> list[int | str]:
        others = [(self.viewer + 1 + i) % self.players for i in range(self.players - 1)]
        widow_game = PRESETS_WIDOW[self.players] and self.viewer != self.bidder
        return others + ([DISCARD] if widow_game else [])

    def may_hold(self, loc: int | str, card: str, restricted: bool) -> bool:
        if loc == DISCARD:
            return True
        if restricted and loc != self.bidder:
            return False
        c = (self.caps >> (16 * loc + 4 * SUITS.index(card[-1]))) & 15
        return rank_of(card) < c

    def enumerate(self) -> Counter:
        """Every labelled assignment of the unseen copies, tallied by the deal it makes."""
        locs = self.locations()
        free = {
            loc: (self.counts[loc] - len(self.known[loc]) if loc != DISCARD else 3) for loc in locs
        }
        widow = Counter(self.widow_left) if self.viewer != self.bidder else Counter()
        copies = []  # (card, restricted to bidder or discard)
        seen: Counter = Counter()
        for card in self.unseen:
            copies.append((card, seen[card] < widow[card]))
            seen[card] += 1
        tally: Counter = Counter()
        for where in itertools.product(locs, repeat=len(copies)):
            if any(Counter(where)[loc] != n for loc, n in free.items()):
                continue
            if not all(self.may_hold(w, c, r) for w, (c, r) in zip(where, copies, strict=True)):
                continue
            world = []
            for loc in locs:
                if loc == DISCARD:
                    continue
                cards = self.known[loc] + [
                    c for w, (c, _) in zip(where, copies, strict=True) if w == loc
                ]
                world.append((loc, hand(" ".join(cards))))
            tally[tuple(sorted(world))] += 1
        return tally

    def world(self, r: int) -> tuple:
        h = world_hands(self.view, self.work, r)
        return tuple(sorted((loc, h[loc]) for loc in self.locations() if loc != DISCARD))


PRESETS_WIDOW = {4: False, 3: True}

CAPS_4 = cap(cap(CAPS_NONE, 1, "H", 0), 3, "S", 2)  # seat 1 void in hearts; seat 3 no K-A of spades
POSITIONS = {
    "four-hand: known meld, void, cap, a doubled card": Position(
        "partnership", 0, 2, "9H JH QD", "AH 10H KS KS 9S JD QC",
        {1: 3, 2: 3, 3: 2}, {2: "AD"}, CAPS_4,
    ),
    "four-hand: the pass as the bidder saw it": Position(
        "partnership", 0, 0, "9H JH QD 9C", "AH 10H KS KS 9S JD QC 10C",
        {1: 4, 2: 4, 3: 2}, {2: "AD"}, cap(CAPS_NONE, 1, "S", 0), to_mate="AD QS",
    ),
    "three-hand defender: widow and discard": Position(
        "three-hand", 1, 0, "9H JH", "AS KH 10S JC QH 9D",
        {0: 2, 2: 2}, {0: "QD"}, cap(CAPS_NONE, 2, "C", 0), widow_left="AS KH",
    ),
    "four-hand: the pass as the partner saw it": Position(
        "partnership", 2, 0, "9H JH QD 9C", "AH 10H KS KS 9S JD QC 10C",
        {0: 3, 1: 4, 3: 4}, {0: "AD", 1: "KD"}, cap(CAPS_NONE, 3, "H", 4), to_bidder="AD AC",
    ),
    "three-hand bidder: discard known": Position(
        "three-hand", 0, 0, "9H JH AC", "AS KH 10S JC QH 9D",
        {1: 3, 2: 3}, {}, cap(CAPS_NONE, 2, "H", 0), discard="KC KC 9S",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(POSITIONS))
def test_every_world_number_is_one_consistent_deal(name: str) -> None:
    pos = POSITIONS[name]
    want = pos.enumerate()
    total = world_setup(pos.view, pos.work)
    assert total == sum(want.values()) > 0
    got = Counter(pos.world(r) for r in range(total))
    assert got == want


def chi_square(observed: Counter, probs: dict, n: int) -> tuple[float, int]:
    stat = sum((observed[k] - p * n) ** 2 / (p * n) for k, p in probs.items())
    assert set(observed) <= set(probs)
    return stat, len(probs) - 1


@pytest.mark.parametrize("name", list(POSITIONS))
def test_sampled_worlds_are_uniform(name: str) -> None:
    pos = POSITIONS[name]
    want = pos.enumerate()
    total = world_setup(pos.view, pos.work)
    probs = {k: v / total for k, v in want.items()}
    n = max(4000, 40 * len(probs))
    key = np.uint64(0x5EED0000 + len(name))
    k = 0
    got: Counter = Counter()
    for _ in range(n):
        r, k = uniform_below(key, k, total)
        got[pos.world(r)] += 1
    stat, df = chi_square(got, probs, n)
    assert stat < df + 5 * math.sqrt(2 * df), (stat, df)  # far beyond the 99.9% point


def test_first_trick_counts_every_deal_and_does_not_stall() -> None:
    """Nothing known but the own hand: the count is the multinomial 36! / (12!)^3, and a
    thousand worlds take well under a second (no retries, whatever the constraints)."""
    mine = " ".join(DECK[i] for i in range(0, 24, 2))
    unseen = " ".join(sorted((Counter(DECK) - Counter(mine.split())).elements()))
    pos = Position("partnership", 0, 0, mine, unseen, {1: 12, 2: 12, 3: 12}, {}, CAPS_NONE)
    total = world_setup(pos.view, pos.work)
    assert total == math.factorial(36) // math.factorial(12) ** 3
    t = time.perf_counter()
    key, k = np.uint64(7), 0
    for _ in range(1000):
        r, k = uniform_below(key, k, total)
        hands = pos.world(r)
        assert sorted(int(h).bit_count() for _, h in hands) == [12, 12, 12]
    assert time.perf_counter() - t < 5
