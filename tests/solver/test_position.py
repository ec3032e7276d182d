"""Positions: parsing the notation ``meld`` reads, the queries the solver relies on, and the
one-line errors for every bad position."""

from __future__ import annotations

import pytest

from pinochle_sim.core.cards import card_name, parse_card
from pinochle_sim.solver import Position


def p(hands: str, trick: str = "", rules: str = "partnership", trump: str = "S", leader: int = 0):
    return Position.parse(rules, trump, leader, hands, trick)


def test_parse_and_query() -> None:
    pos = p("10S; KS QS; JS 9S; AH 10H", trick="AS")
    assert pos.to_move == 1 and pos.tricks_left == 2
    # must follow and head the ace: impossible, so either spade
    assert [card_name(f) for f in pos.legal()] == ["QS", "KS"]
    assert pos.points_left() == 10 * 5 + 10  # AS (on the table) 10S KS AH 10H, and the last
    assert pos.hands_text() == "10S; KS QS; JS 9S; AH 10H"
    nxt, won_by, pts = pos.play(parse_card("KS"))
    assert won_by is None and pts == 0 and nxt is not None and nxt.to_move == 2


def test_a_completed_trick_goes_to_its_winner() -> None:
    pos = p("; ; 9H; QS", trick="AS KS", trump="H")
    nxt, won_by, pts = pos.play(parse_card("9H"))
    assert won_by is None and nxt is not None
    end, won_by, pts = nxt.play(parse_card("QS"))
    assert end is None and won_by == 2 and pts == 20 + 10  # AS KS and the last trick


def test_sides() -> None:
    assert p("AS; KS; QS; JS").side_seats(1) == (1, 3)
    three = Position.parse("three-hand", "H", 0, "AS; KS; QS")
    assert three.side_seats(2) == (2,)


@pytest.mark.parametrize(
    ("hands", "trick", "rules", "message"),
    [
        ("AS 10S; KS QS; JS 9S", "", "partnership", "partnership has 4 seats"),
        ("AS 10S KS QS", "", "partnership", "separate the hands with ';'"),
        ("AS 10S; KS QS; JS 9S; AH", "", "partnership", "hands must have equal sizes"),
        ("AS AS; AS QS; JS 9S; AH 10H", "", "partnership", "AS appears 3 times"),
        ("AS; KS; JS; AH", "AS AS", "partnership", "AS appears 3 times"),
        ("10S; KS QS; JS 9S; AH 10H", "AS", "partnership", ""),  # fine: the reference
        ("10S; KS; JS 9S; AH 10H", "AS AH", "partnership", "seat 1 may not play AH"),
        ("9S; KS; QS; JS 9H", "AS 9H 10H", "partnership", "illegal trick"),
        ("9S; 9H; QS; JS 9H", "AS 10S 10H", "partnership", "seat 2 may not play 10H"),
        ("9S; KS; QS; JS", "AS KH QH JH", "partnership", "at most 3 are played"),
        ("AS XS; KS QS; JS 9S; AH 10H", "", "partnership", "hand of seat 0: unknown card 'XS'"),
        ("; ; ; ", "", "partnership", "nothing to solve"),
        ("AS; KS", "", "two-hand", ""),
        ("AS; KS; QS", "", "two-hand", "two-hand has 2 seats"),
    ],
)
def test_bad_positions_are_one_line_errors(hands: str, trick: str, rules: str, message: str):
    if not message:
        Position.parse(rules, "S", 0, hands, trick)
        return
    with pytest.raises(ValueError) as e:
        Position.parse(rules, "S", 0, hands, trick)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_seat_and_suit_errors() -> None:
    with pytest.raises(ValueError, match=r"leader must be a seat 0\.\.3"):
        p("AS; KS; QS; JS", leader=4)
    with pytest.raises(ValueError, match="unknown suit"):
        p("AS; KS; QS; JS", trump="X")
    with pytest.raises(ValueError, match="side must be a seat"):
        p("AS; KS; QS; JS").side_seats(7)
