"""The double-dummy oracles are checked before they check the solver: their legality against
the other oracle (tests/oracles/reference.py) and RULES.md's worked example, their values
against positions worked by hand, and the compiled alpha-beta against the plain minimax."""

from __future__ import annotations

import random

import pytest

from pinochle_sim.rules import PRESETS
from tests.catalog import ALL_PRESETS
from tests.oracles.alphabeta import ab_value
from tests.oracles.minimax import TrickRules, legal_cards, minimax, move_values, winner_index
from tests.oracles.reference import ref_legal, ref_trick_winner
from tests.solver.endgames import random_endgame, trick_rules

SUITS = "SHDC"
RANKS = ("9", "J", "Q", "K", "10", "A")
S, H, D, C = range(4)


def card(text: str) -> tuple[int, int]:
    return SUITS.index(text[-1]), RANKS.index(text[:-1])


def name(c: tuple[int, int]) -> str:
    return RANKS[c[1]] + SUITS[c[0]]


def hand(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(card(t) for t in text.split()))


PARTNERSHIP = TrickRules(4, (0, 0, 0, 10, 10, 10), 10, "always")
TWO_HAND = TrickRules(2, (0, 2, 3, 4, 10, 11), 10, "trump-led")


def test_rules_worked_example() -> None:
    """RULES.md 7: trump spades, West leads QH; North with 9H 10H AH must play 10H or AH;
    East, with no hearts but QS, must trump, and takes the trick."""
    north = legal_cards(hand("9H 10H AH KC"), [card("QH")], S, PARTNERSHIP)
    assert {name(c) for c in north} == {"10H", "AH"}
    east = legal_cards(hand("QS 9C JD"), [card("QH"), card("AH")], S, PARTNERSHIP)
    assert [name(c) for c in east] == ["QS"]
    assert winner_index([card("QH"), card("AH"), card("QS")], S) == 2


def test_identical_cards_first_played_wins() -> None:
    assert winner_index([card("KD"), card("KD")], H) == 0
    assert winner_index([card("9C"), card("AH"), card("AH")], H) == 1


@pytest.mark.parametrize("head", ["always", "trump-led", "never"])
def test_legality_agrees_with_the_reference_oracle(head: str) -> None:
    rng = random.Random(head)
    rules = TrickRules(4, (0, 0, 0, 10, 10, 10), 10, head)
    deck = [(s, r) for s in range(4) for r in range(6)] * 2
    for _ in range(3000):
        rng.shuffle(deck)
        trick = deck[: rng.randrange(1, 4)]
        held = hand(" ".join(name(c) for c in deck[4 : 4 + rng.randrange(1, 9)]))
        trump = rng.randrange(4)
        mine = {name(c) for c in legal_cards(held, trick, trump, rules)}
        theirs = ref_legal([name(c) for c in held], [name(c) for c in trick], SUITS[trump], head)
        assert mine == theirs
        want = ref_trick_winner([name(c) for c in trick], SUITS[trump])
        assert winner_index(trick, trump) == want


def test_last_trick_by_hand() -> None:
    """Trump hearts, seat 0 leads AS: seat 1 follows KS, seat 2 (no spades) must trump with
    9H and wins, seat 3 plays QS: side 0+2 takes AS KS (20) and the last trick (10)."""
    hands = [hand("AS"), hand("KS"), hand("9H"), hand("QS")]
    assert minimax(hands, 0, [], H, PARTNERSHIP, frozenset({0, 2})) == 30
    assert minimax(hands, 0, [], H, PARTNERSHIP, frozenset({1, 3})) == 0


def test_two_hand_playout_by_hand() -> None:
    """Two-hand play-out, trump hearts, seat 0 (AS 9S) leads against seat 1 (10S KH).
    AS first: 10S must follow (21 for seat 0), then 9S is ruffed by KH (4 + 10 last to seat 1).
    9S first: 10S wins it (10), then KH is led and AS falls under it (4 + 11 + 10). So seat 0
    takes 21 leading the ace and 0 leading the nine; seat 1, for its part, can only count on
    the 14 it gets when seat 0 leads the ace."""
    hands = [hand("AS 9S"), hand("10S KH")]
    vals = move_values(hands, 0, [], H, TWO_HAND, frozenset({0}))
    assert vals == {card("9S"): 0, card("AS"): 21}
    assert minimax(hands, 0, [], H, TWO_HAND, frozenset({1})) == 14


def test_heading_over_partner_by_hand() -> None:
    """Partnership, trump clubs. Seat 0 leads KD; seat 1 plays 9D; seat 2 holds AD and JD and
    must head the trick although its partner wins it: AD (the only card that beats KD).
    Seat 3 then trumps with 9C: nothing else is allowed (no diamonds) and it wins 20."""
    hands = [hand("KD"), hand("9D"), hand("AD JD"), hand("9C")]
    trick = [card("KD"), card("9D")]
    third = legal_cards(hands[2], trick, C, PARTNERSHIP)
    assert [name(c) for c in third] == ["AD"]
    hands = [(), (), hand("AD"), hand("9C")]
    assert minimax(hands, 0, trick, C, PARTNERSHIP, frozenset({1, 3})) == 20 + 10


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_compiled_alphabeta_matches_minimax(preset: str) -> None:
    r = PRESETS[preset]
    tr = trick_rules(r)
    rng = random.Random(preset)
    for i in range(40):
        eg = random_endgame(rng, r, tricks=2 + i % 3)
        side = eg.side(r)
        want = minimax(eg.hands, eg.leader, eg.trick, eg.trump, tr, side)
        got = ab_value(
            [[c[0] * 6 + c[1] for c in h] for h in eg.hands], eg.leader,
            [c[0] * 6 + c[1] for c in eg.trick], eg.trump, r.trick_points, r.last_trick,
            r.head_trick, tuple(sorted(side)), r.must_follow, r.must_trump,
        )  # fmt: skip
        assert got == want, (i, eg)
        # a window around the true value gives it back; a window missing it gives an edge
        assert ab_value(
            [[c[0] * 6 + c[1] for c in h] for h in eg.hands], eg.leader,
            [c[0] * 6 + c[1] for c in eg.trick], eg.trump, r.trick_points, r.last_trick,
            r.head_trick, tuple(sorted(side)), window=(want + 1, want + 50),
        ) == want + 1  # fmt: skip
