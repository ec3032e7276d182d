"""The ``standard`` return pass and discard against their definition, written from the policy text.

The bidder gives back, one card at a time, the card whose loss costs its meld least; among equals
a non-trump card, from the shortest suit, highest first, then the lowest suit
(:mod:`pinochle_sim.policies.pass_`). The kernel finds the cards that cost no meld with masks and
weighs each card only when every one costs meld; these tests hold both paths to the definition,
with the loss of a card computed as the whole meld before minus the whole meld after (the meld
scorer is held to an exhaustive oracle in ``tests/rules/test_meld.py``), on random and
meld-heavy hands, for every preset's meld table and tables with unusual zeros.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from pinochle_sim.core import cards, tricks
from pinochle_sim.policies.pass_ import _least_loss, _least_loss_scan, _shed_cards
from pinochle_sim.rules import MeldTable, get_preset
from pinochle_sim.rules.meld import (
    MA_AROUND,
    MA_PIN,
    MA_PLAIN,
    MA_TRUMP,
    SUIT_INDEXES,
    _meld,
    losing_ranks,
    meld_table_array,
)

PLANE = (1 << 24) - 1
PRESETS = ["partnership", "partnership-classic", "joedog", "two-hand"]
ODD_TABLES = {
    # Eight of a kind not a meld, single pinochle only, some arounds worth nothing.
    "sparse": dict(eight=(0, 0, 0, 0), double_pinochle=0, around=(100, 0, 60, 0), dix=0),
    # Arounds worth nothing once, something twice; no marriages.
    "doubles only": dict(around=(0, 0, 0, 0), eight=(500, 400, 0, 300), marriage=0, pinochle=0),
}


def _table(name: str) -> np.ndarray:
    if name in ODD_TABLES:
        rules = dataclasses.replace(
            get_preset("partnership"), meld=MeldTable(name="odd", **ODD_TABLES[name])
        )
        return meld_table_array(rules)
    return meld_table_array(get_preset(name))


TABLES = PRESETS + list(ODD_TABLES)


def least_loss_by_definition(hand: int, pool: int, trump: int, ma: np.ndarray) -> int:
    whole = _meld(hand, trump, ma)

    def key(f: int) -> tuple[int, ...]:
        loss = whole - _meld(tricks.remove_card(hand, f), trump, ma)
        s, r = f // 6, f % 6
        return (loss, s == trump, tricks.suit_len(hand, s), -r, s)

    return min((f for f in range(24) if pool >> f & 1), key=key)


def _hands(seed: int) -> list[int]:
    """Random hands of 12 to 20 cards, hands drawn from the meld cards (A, K, Q, J, the 9 and 10
    of one suit) so that arounds, pinochles and runs are common, and hands holding all eight or
    seven cards of one rank, or both pinochles."""
    rng = random.Random(seed)
    deck = [f for f in range(24) for _ in range(2)]
    meldy = [f for f in deck if f % 6 in (1, 2, 3, 5) or f < 6]
    hands = []
    for n in (12, 15, 16, 20):
        for source in (deck, meldy):
            for _ in range(60):
                hands.append(cards.encode_faces(rng.sample(source, n)))
    for r in range(6):
        eight = [6 * s + r for s in range(4) for _ in range(2)]
        for drop in (0, 1):
            rest = [f for f in deck if f % 6 != r]
            for _ in range(10):
                hands.append(cards.encode_faces(eight[drop:] + rng.sample(rest, 8)))
    pinochles = [0 * 6 + 2, 0 * 6 + 2, 2 * 6 + 1, 2 * 6 + 1]  # QS QS JD JD
    rest = deck[:]
    for f in pinochles:
        rest.remove(f)
    for _ in range(20):
        hands.append(cards.encode_faces(pinochles + rng.sample(rest, 12)))
    return hands


@pytest.mark.parametrize("table", TABLES)
def test_least_loss_matches_its_definition(table: str) -> None:
    ma = _table(table)
    rng = random.Random(table)
    costly_only = 0
    for hand in _hands(len(table)):
        held = hand & PLANE
        for trump in range(4):
            pools = [held, held & ~(0x3F << (6 * trump)), held & rng.getrandbits(24)]
            # The cards that cost meld, alone: the path that weighs every card.
            whole = _meld(hand, trump, ma)
            costly = sum(
                1 << f
                for f in range(24)
                if held >> f & 1 and _meld(tricks.remove_card(hand, f), trump, ma) < whole
            )
            pools.append(costly)
            for pool in pools:
                if pool == 0:
                    continue
                want = least_loss_by_definition(hand, pool, trump, ma)
                assert _least_loss(hand, pool, trump, ma) == want, (hex(hand), hex(pool), trump)
                assert _least_loss_scan(hand, pool, trump, ma) == want, (hex(hand), trump)
            costly_only += costly != 0
    assert costly_only > 100  # the weighing path ran on many hands


@pytest.mark.parametrize("table", TABLES)
def test_shed_cards_gives_the_least_costly_card_each_time(table: str) -> None:
    ma = _table(table)
    rs = np.zeros(2, dtype=np.uint64)
    for hand in _hands(99)[::3]:
        for trump in range(4):
            for keep_trump in (False, True):
                k = 4
                given, h = 0, hand
                for _ in range(k):
                    non_trump = h & PLANE & ~(0x3F << (6 * trump))
                    pool = non_trump if keep_trump and non_trump else h & PLANE
                    f = least_loss_by_definition(h, pool, trump, ma)
                    h = tricks.remove_card(h, f)
                    given = tricks.add_card(given, f)
                assert _shed_cards(hand, k, trump, ma, True, keep_trump, rs) == given


@pytest.mark.parametrize("table", TABLES)
def test_class_one_meld_never_grows_when_a_card_goes(table: str) -> None:
    """What the mask path rests on: one copy fewer of any card never raises the meld: a suit's
    class-1 value, the pinochles' and each around's value by count."""
    ma = _table(table)
    for row in [MA_PIN] + [MA_AROUND + 3 * i for i in range(4)]:
        assert ma[row] <= ma[row + 1] <= ma[row + 2], row
    for base in (MA_TRUMP, MA_PLAIN):
        values = ma[base : base + SUIT_INDEXES]
        for index in range(SUIT_INDEXES):
            for r in range(6):
                two, one = index >> (r + 6) & 1, index >> r & 1
                if one:
                    after = index - (1 << (r + 6) if two else 1 << r)
                    assert values[after] <= values[index], (base, index, r)


@pytest.mark.parametrize("table", TABLES)
def test_losing_ranks_marks_the_ranks_whose_loss_lowers_class_one(table: str) -> None:
    ma = _table(table)
    for index in range(SUIT_INDEXES):
        one, two = index & 63, index >> 6
        if two & ~one:
            continue  # not a holding: TWO is a subset of ONE
        for s in range(4):
            hand = (one << (6 * s)) | (two << (24 + 6 * s))
            for trump in (s, (s + 1) % 4):
                base = MA_TRUMP if s == trump else MA_PLAIN
                want = 0
                for r in range(6):
                    if one >> r & 1:
                        after = index - (1 << (r + 6) if two >> r & 1 else 1 << r)
                        want |= (ma[base + after] < ma[base + index]) << r
                assert losing_ranks(hand, s, trump, ma) == want, (index, s, trump)
