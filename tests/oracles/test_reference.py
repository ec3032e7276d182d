"""Tests of the pure-Python reference oracle (tests/reference.py) against hand-derived data.

The golden files in tests/data were derived by hand from docs/rules.md; these tests
check that the oracle agrees with them, so that the oracle can then be trusted to check the
fast engine.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.oracles.reference import (
    MELD_TABLES,
    RANKS,
    SUITS,
    _candidates,
    canon,
    ref_auction,
    ref_beats,
    ref_card_points,
    ref_check_play,
    ref_legal,
    ref_meld,
    ref_meld_list,
    ref_score,
    ref_throw_in_allowed,
    ref_trick_points,
    ref_trick_winner,
)

DATA = Path(__file__).resolve().parents[1] / "data"
MELD_EXAMPLES = json.loads((DATA / "meld_examples.json").read_text())
TRICK_EXAMPLES = json.loads((DATA / "trick_examples.json").read_text())
DECK = [r + s for s in SUITS for r in RANKS] * 2


def _id(e: dict) -> str:
    return f"{e['table']}:{e['trump']}:{e['hand']}"


# --------------------------------------------------------------------------- meld


@pytest.mark.parametrize("example", MELD_EXAMPLES, ids=_id)
def test_meld_golden(example: dict) -> None:
    hand = example["hand"].split()
    got = ref_meld(hand, example["trump"], example["table"])
    assert got == example["total"], (
        f"{example['why']} -> expected {example['total']}, oracle says {got}: "
        f"{ref_meld_list(hand, example['trump'], example['table'])}"
    )


def test_meld_golden_covers_every_table_row() -> None:
    names = set()
    for e in MELD_EXAMPLES:
        for name, _ in ref_meld_list(e["hand"].split(), e["trump"], e["table"]):
            names.add(name.split(" (")[0])
    every_row = set().union(*(set(t) for t in MELD_TABLES.values()))
    assert every_row <= names, every_row - names


def test_meld_golden_covers_all_tables() -> None:
    assert {e["table"] for e in MELD_EXAMPLES} == {"A", "B", "C", "D"}


def _feasible(melds: list[tuple[str, int]], hand: list[str], trump: str, table: str) -> bool:
    """The chosen melds use, within each class, no card copy twice."""
    by_name = {name: (cls, pts, need) for cls, name, pts, need in _candidates(trump, table)}
    have = Counter(hand)
    used: dict[int, Counter] = {1: Counter(), 2: Counter(), 3: Counter()}
    for name, pts in melds:
        cls, table_pts, need = by_name[name]
        assert pts == table_pts
        used[cls] += need
    return all(have[c] >= n for u in used.values() for c, n in u.items())


def test_meld_list_is_consistent_and_monotone() -> None:
    rng = random.Random(1234)
    for _ in range(300):
        deck = DECK[:]
        rng.shuffle(deck)
        hand = deck[:12]
        trump = rng.choice(SUITS)
        table = rng.choice("ABCD")
        melds = ref_meld_list(hand, trump, table)
        total = ref_meld(hand, trump, table)
        assert sum(p for _, p in melds) == total
        assert _feasible(melds, hand, trump, table)
        # Adding cards can never lower the best meld; removing one can never raise it.
        assert ref_meld(hand + deck[12:15], trump, table) >= total
        assert ref_meld(hand[1:], trump, table) <= total


def test_meld_is_fast_enough() -> None:
    rng = random.Random(7)
    hands = []
    for _ in range(500):
        deck = DECK[:]
        rng.shuffle(deck)
        hands.append(deck[:12])
    start = time.perf_counter()
    for hand in hands:
        ref_meld(hand, "H", "A")
    per_hand = (time.perf_counter() - start) / len(hands)
    assert per_hand < 0.01, f"{per_hand * 1e3:.2f} ms per hand"


def test_meld_accepts_t_and_rejects_bad_input() -> None:
    assert ref_meld(["AH", "TH", "KH", "QH", "JH"], "H", "A") == 150
    with pytest.raises(ValueError):
        ref_meld(["AH", "AH", "AH"], "H", "A")
    with pytest.raises(ValueError):
        ref_meld(["XH"], "H", "A")
    with pytest.raises(ValueError):
        ref_meld(["AH"], "X", "A")
    with pytest.raises(ValueError):
        ref_meld(["AH"], "H", "E")


def test_double_melds_replace_single_versions() -> None:
    assert ref_meld_list(["QS", "QS", "JD", "JD"], "H", "A") == [("double pinochle", 300)]
    eight = ["A" + s for s in SUITS] * 2
    assert ref_meld_list(eight, "H", "A") == [("eight aces", 1000)]
    assert ref_meld_list(eight, "H", "D") == [("aces around", 100), ("aces around", 100)]


# --------------------------------------------------------------------------- tricks


def _legal_id(e: dict) -> str:
    return f"{e['head']}:{e['trump']}:[{e['trick']}]:{e['hand']}"


@pytest.mark.parametrize("example", TRICK_EXAMPLES["legal"], ids=_legal_id)
def test_legal_golden(example: dict) -> None:
    got = ref_legal(
        example["hand"].split(), example["trick"].split(), example["trump"], example["head"]
    )
    assert got == set(example["legal"]), example["why"]


@pytest.mark.parametrize("example", TRICK_EXAMPLES["winner"], ids=lambda e: e["trick"])
def test_winner_golden(example: dict) -> None:
    got = ref_trick_winner(example["trick"].split(), example["trump"])
    assert got == example["winner"], example["why"]


def test_beats_direct() -> None:
    assert ref_beats("10H", "KH", "S", "H")  # 10 beats K
    assert not ref_beats("KH", "10H", "S", "H")
    assert not ref_beats("AH", "AH", "S", "H")  # identical: first played wins
    assert ref_beats("9S", "AH", "S", "H")  # any trump beats the led suit
    assert not ref_beats("AD", "9H", "S", "H")  # off-suit never wins
    assert not ref_beats("AH", "9S", "S", "H")  # led suit never beats a trump
    assert ref_beats("JS", "9S", "S", "H")


def test_legal_always_subset_of_hand() -> None:
    rng = random.Random(99)
    for _ in range(300):
        deck = DECK[:]
        rng.shuffle(deck)
        hand, trick = deck[:8], deck[8 : 8 + rng.randrange(4)]
        for head in ("always", "trump-led", "never"):
            legal = ref_legal(hand, trick, "D", head)
            assert legal and legal <= set(hand)
            # Heading only ever narrows the follow/trump/any set.
            assert legal <= ref_legal(hand, trick, "D", "never")


def test_card_and_trick_points() -> None:
    partnership = {"A": 10, "10": 10, "K": 10}
    two_hand = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    assert ref_card_points("KD", partnership) == 10
    assert ref_card_points("QD", partnership) == 0
    assert ref_card_points("TD", two_hand) == 10
    assert ref_card_points("AS", {"A": 11, "T": 10}) == 11
    assert ref_trick_points(["AS", "10H", "KD", "QC", "JS", "9H"], two_hand, True, 10) == 40
    assert ref_trick_points(["AS", "10H", "KD", "QC"], partnership, False, 10) == 30
    # The whole deck plus the last trick is 250 under both point tables (docs/rules.md 2).
    assert ref_trick_points(DECK, partnership, True, 10) == 250
    assert ref_trick_points(DECK, two_hand, True, 10) == 250
    assert ref_trick_points(DECK, {"A": 1, "10": 1, "K": 1}, True, 1) == 25


# --------------------------------------------------------------------------- replay

# Trump spades, heading always, seat 0 leads.
# Trick 1: QH; seat 1 must follow with 9H (cannot head); seat 2 void -> KS; seat 3 must follow
# hearts with AH (cannot beat a trump). Seat 2 wins and leads 9D; 10D; AD heads; KD. Seat 0.
PLAY_HANDS = [["QH", "AD"], ["9H", "KD"], ["KS", "9D"], ["AH", "10D"]]
PLAY_TRICKS = [["QH", "9H", "KS", "AH"], ["9D", "10D", "AD", "KD"]]


def test_check_play_accepts_legal_play() -> None:
    assert ref_check_play(PLAY_HANDS, 0, PLAY_TRICKS, "S", "always") == [2, 0]


def test_check_play_rejects_illegal_and_unheld_cards() -> None:
    # Seat 1 holds KH, which beats QH, so 9H breaks the heading rule under "always" ...
    hands = [["QH", "AD"], ["9H", "KH"], ["KS", "9D"], ["AH", "10D"]]
    tricks = [["QH", "9H", "KS", "AH"]]
    with pytest.raises(AssertionError, match="legal"):
        ref_check_play(hands, 0, tricks, "S", "always")
    # ... but is fine when heading applies only to trump leads.
    assert ref_check_play(hands, 0, tricks, "S", "trump-led") == [2]
    with pytest.raises(AssertionError, match="not held"):
        ref_check_play(PLAY_HANDS, 0, [["QH", "9H", "AS", "AH"]], "S", "always")
    # Wrong leader for trick 2: seat 2 won trick 1, so its card must come first.
    with pytest.raises(AssertionError):
        ref_check_play(PLAY_HANDS, 0, [PLAY_TRICKS[0], ["AD", "KD", "9D", "10D"]], "S", "always")


def test_check_play_full_random_deals() -> None:
    """Play 12 tricks by picking random legal cards; the replay must accept it."""
    rng = random.Random(5)
    for _ in range(20):
        deck = DECK[:]
        rng.shuffle(deck)
        hands = [sorted(deck[12 * i : 12 * i + 12]) for i in range(4)]
        left = [h[:] for h in hands]
        leader, tricks, trump = rng.randrange(4), [], rng.choice(SUITS)
        head = rng.choice(["always", "trump-led", "never"])
        seat = leader
        for _ in range(12):
            trick: list[str] = []
            for k in range(4):
                card = rng.choice(sorted(ref_legal(left[(seat + k) % 4], trick, trump, head)))
                left[(seat + k) % 4].remove(card)
                trick.append(card)
            tricks.append(trick)
            seat = (seat + ref_trick_winner(trick, trump)) % 4
        winners = ref_check_play(hands, leader, tricks, trump, head)
        assert len(winners) == 12 and winners[-1] == seat
        assert sorted(canon(c) for t in tricks for c in t) == sorted(deck)


# --------------------------------------------------------------------------- auction

STEPS = (10, 20)


def test_auction_simple() -> None:
    # Dealer 3: seat 0 opens 250, 1 passes, 2 raises to 260, 3 passes, 0 passes -> seat 2.
    assert ref_auction([250, None, 260, None, None], 3, 250, STEPS) == (2, 260, False)


def test_auction_skips_passed_players() -> None:
    # Dealer 0: 1:250, 2:260, 3:pass, 0:270, 1:pass, 2:290 (seat 3 skipped), 0:pass.
    calls = [250, 260, None, 270, None, 290, None]
    assert ref_auction(calls, 0, 250, STEPS) == (2, 290, False)


def test_auction_dealer_stuck_and_dealer_opens() -> None:
    assert ref_auction([None, None, None, None], 3, 250, STEPS) == (3, 250, True)
    assert ref_auction([None, None, None, 250], 3, 250, STEPS) == (3, 250, False)
    assert ref_auction([None, None, None, None], 1, 250, STEPS) == (1, 250, True)
    with pytest.raises(ValueError, match="already over"):
        ref_auction([None, None, None, 250, 260], 3, 250, STEPS)


def test_auction_joedog_scale_and_three_players() -> None:
    # Dealer 2: 3:25, 0:27, 1:pass, 2:28, 3:pass, 0:pass -> seat 2 at 28.
    assert ref_auction([25, 27, None, 28, None, None], 2, 25, (1, 2)) == (2, 28, False)
    # Three players, dealer 2: 0:250, 1:pass, 2:270, 0:pass -> seat 2.
    assert ref_auction([250, None, 270, None], 2, 250, STEPS, players=3) == (2, 270, False)
    assert ref_auction([None, None, None], 2, 250, STEPS, players=3) == (2, 250, True)


@pytest.mark.parametrize(
    ("calls", "match"),
    [
        ([260, None, None, None], "exactly"),  # opening above the minimum
        ([240, None, None, None], "exactly"),  # opening below the minimum
        ([250, 280, None, None, None], "raise"),  # +30 is not a step
        ([250, 255, None, None, None], "raise"),  # +5 is not a step
        ([250, 250, None, None, None], "raise"),  # no raise at all
        ([250, 240, None, None, None], "raise"),  # lower bid
        ([250], "incomplete"),
        ([250, None, None], "incomplete"),
        ([], "incomplete"),
        ([None, None, None], "incomplete"),  # dealer has not called yet
        ([250, None, None, None, 260], "already over"),  # winner calls again
        ([250, None, None, None, None], "already over"),
        ([250, "pass", None, None], "not a bid"),
        ([True, None, None, None], "not a bid"),
    ],
)
def test_auction_illegal(calls: list, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ref_auction(calls, 3, 250, STEPS)


# --------------------------------------------------------------------------- scoring


def test_score_made_and_set() -> None:
    # Made: 200 + 100 >= 250; other side 50 + 150.
    assert ref_score((200, 50), (100, 150), 0, 250, True, False) == (300, 200)
    # Exactly made.
    assert ref_score((150, 50), (100, 150), 0, 250, True, False) == (250, 200)
    # Set: 100 + 100 < 250.
    assert ref_score((100, 50), (100, 150), 0, 250, True, False) == (-250, 200)
    # Bidder is team 1.
    assert ref_score((60, 240), (40, 210), 1, 400, False, False) == (100, 450)
    assert ref_score((60, 100), (40, 210), 1, 400, False, False) == (100, -400)


def test_score_save_rule_other_side() -> None:
    # Other side took no trick points: its 100 meld is lost under the save rule.
    assert ref_score((200, 100), (250, 0), 0, 250, True, False) == (450, 0)
    assert ref_score((200, 100), (250, 0), 0, 250, False, False) == (450, 100)


def test_score_save_rule_bidding_side() -> None:
    # Bidder's 300 meld alone would make 250, but with no trick points it is set.
    assert ref_score((300, 50), (0, 250), 0, 250, True, False) == (-250, 300)
    assert ref_score((300, 50), (0, 250), 0, 250, False, False) == (300, 300)
    assert ref_score((50, 300), (250, 0), 1, 250, True, False) == (300, -250)


def test_score_concede() -> None:
    # Conceded: bidding side -bid, other side its meld, no save rule (no tricks played).
    assert ref_score((50, 120), (0, 0), 0, 330, True, True) == (-330, 120)
    assert ref_score((120, 60), (0, 0), 1, 330, True, True) == (120, -330)
    assert ref_score((50, 120), (0, 0), 0, 330, False, True) == (-330, 120)


def test_throw_in() -> None:
    # Seed 000 example: bid 330, meld 60 -> 270 > 250, may concede.
    assert ref_throw_in_allowed(330, 60, 250)
    assert not ref_throw_in_allowed(310, 60, 250)  # 250 is not more than 250
    assert ref_throw_in_allowed(33, 6, 25)
    assert not ref_throw_in_allowed(250, 0, 250)
