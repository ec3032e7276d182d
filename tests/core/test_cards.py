"""Card notation and the packed hand encoding (docs/rules.md section 1, pinochle_sim/core/cards.py).

Expected values are computed here from the documented layout (face = suit*6 + rank, ranks
ascending 9 J Q K 10 A, ONE plane bits 0..23, TWO plane << 24), never from the package's tables.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_sim import decode_hand, encode_hand, parse_card, parse_cards
from pinochle_sim.core.cards import FULL_DECK, check_hand, hand_size

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("9", "J", "Q", "K", "10", "A")  # ascending trick order, rank index 0..5
# 48 physical cards: face f = suit*6 + rank, two copies each.
DECK48 = [f for f in range(24) for _ in range(2)]


def name_of(face: int) -> str:
    return RANK_NAMES[face % 6] + SUIT_LETTERS[face // 6]


def pack(faces: list[int]) -> int:
    """Independent packing from the documented layout."""
    counts = Counter(faces)
    one = sum(1 << f for f, n in counts.items() if n >= 1)
    two = sum(1 << f for f, n in counts.items() if n >= 2)
    return one | (two << 24)


def display_sorted(faces: list[int]) -> list[str]:
    """docs/rules.md 1: hands print sorted by suit (S H D C), then rank high to low: A 10 K Q J 9"""
    return [name_of(f) for f in sorted(faces, key=lambda f: (f // 6, -(f % 6)))]


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("suit", range(4))
@pytest.mark.parametrize("rank", range(6))
def test_parse_card_every_face_every_spelling(suit: int, rank: int) -> None:
    expected = suit * 6 + rank
    ranks = [RANK_NAMES[rank]] + (["T", "t"] if RANK_NAMES[rank] == "10" else [])
    for r in ranks:
        for s in (SUIT_LETTERS[suit], SUIT_LETTERS[suit].lower(), SUIT_SYMBOLS[suit]):
            for token in (r + s, (r + s).lower(), (r + s).upper(), f"  {r}{s} "):
                assert parse_card(token) == expected, token


def test_parse_card_doc_examples() -> None:
    assert parse_card("AS") == 5
    assert parse_card("10h") == 10
    assert parse_card("TD") == 16
    assert parse_card("Q♣") == 20
    assert parse_card("9S") == 0
    assert parse_card("AC") == 23


def test_parse_cards_separators_and_case() -> None:
    expected = [5, 10, 15]  # AS 10H KD
    for text in (
        "AS 10H KD",
        "AS, 10h kd",
        "as,th,Kd",
        "AS,  10H ,KD",
        "A♠ 10♥ K♦",
        "\tAS\n10H KD ",
    ):
        assert parse_cards(text) == expected, text
    assert parse_cards(["AS", "th", "K♦"]) == expected
    assert parse_cards([5, 10, 15]) == expected
    assert parse_cards("") == []
    assert parse_cards([]) == []


def test_encode_documented_example() -> None:
    assert encode_hand("AS 10H 10H") == (1 << 5) | (1 << 10) | (1 << 34)
    assert encode_hand("10h as th") == (1 << 5) | (1 << 10) | (1 << 34)
    assert decode_hand((1 << 5) | (1 << 10) | (1 << 34)) == ["AS", "10H", "10H"]


def test_encode_single_cards_bit_positions() -> None:
    for f in range(24):
        assert encode_hand([name_of(f)]) == 1 << f
        assert encode_hand([name_of(f), name_of(f)]) == (1 << f) | (1 << (f + 24))


def test_decode_sort_order() -> None:
    assert decode_hand(encode_hand("9C 9h as 10h")) == ["AS", "10H", "9H", "9C"]
    assert decode_hand(encode_hand("JD 9S KS 10S QS AS")) == ["AS", "10S", "KS", "QS", "9S", "JD"]


# --------------------------------------------------------------------------- round trips


def _spell(face: int, rng: random.Random) -> str:
    """A random accepted spelling of a face: T or 10, any case, letter or symbol."""
    rank = RANK_NAMES[face % 6]
    if rank == "10" and rng.random() < 0.5:
        rank = "T"
    suit = SUIT_LETTERS[face // 6] if rng.random() < 0.7 else SUIT_SYMBOLS[face // 6]
    token = rank + suit
    return token.lower() if rng.random() < 0.5 else token


def test_round_trip_random_multisets() -> None:
    rng = random.Random(20240611)
    sizes = Counter()
    for _ in range(2500):
        k = rng.randint(0, 48)
        faces = rng.sample(DECK48, k)
        sizes[k] += 1
        expected = display_sorted(faces)
        code = encode_hand([name_of(f) for f in faces])
        assert code == pack(faces)
        assert decode_hand(code) == expected
        assert hand_size(code) == k
        # the same hand written loosely: mixed spellings, commas, shuffled
        tokens = [_spell(f, rng) for f in faces]
        rng.shuffle(tokens)
        sep = rng.choice([" ", ", ", ",", "  "])
        assert encode_hand(sep.join(tokens)) == code
        assert decode_hand(encode_hand(decode_hand(code))) == expected
    assert sizes[0] and sizes[48] and len(sizes) > 40


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.integers(0, 47), unique=True, max_size=48),
    data=st.randoms(use_true_random=False),
)
def test_round_trip_hypothesis(cards: list[int], data: random.Random) -> None:
    faces = [c % 24 for c in cards]  # physical card c is a copy of face c % 24
    tokens = [_spell(f, data) for f in faces]
    code = encode_hand(" ".join(tokens))
    assert code == pack(faces)
    check_hand(code)
    assert decode_hand(code) == display_sorted(faces)
    assert encode_hand(decode_hand(code)) == code
    assert encode_hand(faces) == code


@settings(max_examples=300, deadline=None)
@given(one=st.integers(0, (1 << 24) - 1), two_bits=st.integers(0, (1 << 24) - 1))
def test_decode_encode_every_valid_code(one: int, two_bits: int) -> None:
    code = one | ((two_bits & one) << 24)
    names = decode_hand(code)
    assert len(names) == code.bit_count()
    assert encode_hand(names) == code


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("bad", ["XX", "1H", "AZ", "10", "A", "11S", "AHH", "QX", "0S"])
def test_parse_card_rejects_bad_tokens(bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        parse_card(bad)


@pytest.mark.parametrize("bad", ["XX", "1H", "AZ"])
def test_encode_hand_names_bad_token(bad: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        encode_hand(f"AS KD {bad} QC")
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        parse_cards(["AS", bad])


@pytest.mark.parametrize("hand", ["AS AS AS", "as AS As", "AS KH AS QD AS", "AS,AS,AS"])
def test_third_copy_rejected_names_card(hand: str) -> None:
    with pytest.raises(ValueError, match=r"\bAS\b"):
        encode_hand(hand)


def test_third_copy_of_ten_rejected() -> None:
    with pytest.raises(ValueError, match="10H"):
        encode_hand("10H TH 10h")
    with pytest.raises(ValueError, match="KD"):
        encode_hand([15, 15, 15])


@pytest.mark.parametrize("bad", [24, -1, 100])
def test_face_ints_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        encode_hand([0, bad])


def test_non_card_tokens_rejected() -> None:
    with pytest.raises(ValueError):
        encode_hand([True])
    with pytest.raises(ValueError):
        encode_hand([1.5])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "code",
    [
        -1,
        1 << 24,  # TWO bit without the ONE bit
        (1 << 3) | (1 << 28),  # TWO bit of another face
        1 << 48,
        (1 << 63) | 1,
        FULL_DECK + 1,
    ],
)
def test_check_hand_rejects_invalid(code: int) -> None:
    with pytest.raises(ValueError):
        check_hand(code)
    with pytest.raises(ValueError):
        decode_hand(code)


def test_check_hand_accepts_valid() -> None:
    for code in (0, 1, (1 << 5) | (1 << 29), FULL_DECK, (1 << 24) - 1):
        check_hand(code)


# --------------------------------------------------------------------------- the deck


def test_full_deck() -> None:
    names = decode_hand(FULL_DECK)
    assert len(names) == 48
    assert hand_size(FULL_DECK) == 48
    counts = Counter(names)
    assert len(counts) == 24 and set(counts.values()) == {2}
    assert set(counts) == {r + s for s in SUIT_LETTERS for r in RANK_NAMES}
    assert FULL_DECK == (1 << 48) - 1
    assert encode_hand([name_of(f) for f in DECK48]) == FULL_DECK
    assert names == display_sorted(DECK48)
