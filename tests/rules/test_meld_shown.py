"""The cards a hand's best meld shows the table (``meld_shown``), against the brute-force meld
search of the reference oracle: every card of every counted meld, a card that serves melds of
several classes shown once, copies added up within a class (docs/rules.md section 6)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from pinochle_sim.core.cards import card_name, encode_hand, hand_faces
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.meld import meld_shown, meld_table_array
from tests.oracles.reference import RANKS, SUITS, _candidates, ref_meld_list

TABLES = {"partnership": "A", "partnership-classic": "B", "joedog": "C", "two-hand": "D"}
DECK = [r + s for s in SUITS for r in RANKS] * 2


def ref_shown(cards: list[str], trump: str, table: str) -> Counter:
    """Shown copies per card: within a class the chosen melds' cards add up; across classes a
    card is one card, so it shows as often as the class using most copies of it."""
    need = {name: (cls, cards_) for cls, name, _, cards_ in _candidates(trump, table)}
    per_class: dict[int, Counter] = {1: Counter(), 2: Counter(), 3: Counter()}
    for name, points in ref_meld_list(cards, trump, table):
        if points:
            cls, c = need[name]
            per_class[cls] += c
    shown: Counter = Counter()
    for c in per_class.values():
        for card, n in c.items():
            shown[card] = max(shown[card], n)
    return shown


def got_shown(cards: list[str], trump: str, preset: str) -> Counter:
    code = int(meld_shown(encode_hand(" ".join(cards)), SUITS.index(trump),
                          meld_table_array(PRESETS[preset])))  # fmt: skip
    return Counter(card_name(f) for f in hand_faces(code))


WORKED = [
    ("AH 10H KH QH JH", "H", "AH 10H KH QH JH"),
    ("AH 10H KH QH JH KH 9H 9H", "H", "AH 10H KH KH QH JH 9H 9H"),
    ("QS JD KS", "H", "QS JD KS"),  # pinochle and the spade marriage share the QS
    ("QS JD KD", "H", "QS JD"),  # a king without its queen shows nothing
    ("QS QS JD JD", "H", "QS QS JD JD"),
    ("KH QH KS QS KD QD KC QC JD", "H", "KH QH KS QS KD QD KC QC JD"),
    ("AS AH AD AC AS", "H", "AS AH AD AC"),  # the second AS shows nothing
    ("9S 10H JD", "C", ""),
]


@pytest.mark.parametrize(("hand", "trump", "shown"), WORKED)
def test_worked_examples(hand: str, trump: str, shown: str) -> None:
    cards = hand.split()
    want = Counter(shown.split())
    assert ref_shown(cards, trump, "A") == want  # the oracle reads the rules the same way
    assert got_shown(cards, trump, "partnership") == want


def _meldy_hand(rng: random.Random, size: int) -> list[str]:
    """A hand drawn mostly from meld cards (runs, marriages, pinochles, arounds), so that
    the interesting cases (doubles, shared cards, bonus rows) come up often."""
    rich = [r + s for s in SUITS for r in ("A", "10", "K", "Q", "J")] * 2 + ["QS", "JD"] * 2
    pool = Counter(rich if rng.random() < 0.7 else DECK)
    hand: list[str] = []
    while len(hand) < size:
        card = rng.choice(sorted(pool.elements()))
        if Counter(hand)[card] < 2:
            hand.append(card)
    return hand


@pytest.mark.parametrize("preset", list(TABLES))
def test_random_hands_match_the_brute_force_search(preset: str) -> None:
    rng = random.Random(17 + len(preset))
    table = TABLES[preset]
    for _ in range(250):
        size = rng.choice([12, 15])
        cards = _meldy_hand(rng, size)
        trump = rng.choice(SUITS)
        want = ref_shown(cards, trump, table)
        assert got_shown(cards, trump, preset) == want, (cards, trump)
        assert want <= Counter(cards)


def test_shown_cards_are_a_sub_hand() -> None:
    ma = meld_table_array(PRESETS["partnership"])
    rng = np.random.default_rng(3)
    for _ in range(200):
        cards = list(rng.permutation(DECK)[:12])
        code = encode_hand(" ".join(cards))
        shown = int(meld_shown(code, 1, ma))
        assert Counter(card_name(f) for f in hand_faces(shown)) <= Counter(cards)
