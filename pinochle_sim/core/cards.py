"""Cards, card notation and the packed hand encoding.

The boundary between friendly card strings (``"AS 10H KD"``) and the machine words the engine
uses. docs/rules.md section 1: 48 cards, four suits x six ranks x two identical copies; trick order
A > 10 > K > Q > J > 9.

Names for integers used throughout the package:

* **Suit** (0..3): ``S, H, D, C`` in that order (spades, hearts, diamonds, clubs).
* **Rank** (0..5): ascending in trick order ``9, J, Q, K, 10, A``, so a higher rank number is a
  higher card of the suit.
* **Face** (0..23): ``suit * 6 + rank``; one of the 24 distinct cards. Each face has two copies.
* **Hand** (:data:`Hand`, an int): the packed bitboard below.

Packed hand encoding (``Hand``), one non-negative int64::

    bits  0..23  ONE plane: bit f set  <=> the hand holds at least one copy of face f
    bits 24..47  TWO plane: bit f+24 set <=> the hand holds both copies of face f
    bits 48..63  always zero

Within each plane, face ``f = suit*6 + rank`` sits at bit ``f``: suit S is bits 0-5, H 6-11,
D 12-17, C 18-23, and inside a suit's 6-bit field the bits run 9, J, Q, K, 10, A from low to high.
A valid hand has ``TWO`` a subset of ``ONE``. The number of cards is
``popcount(ONE) + popcount(TWO)``. Example: ``AS 10H 10H`` is ``ONE = bit 5 | bit 10`` and
``TWO = bit 10``, i.e. ``(1 << 5) | (1 << 10) | (1 << 34)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

Face: TypeAlias = int
"""A card face, 0..23 (``suit * 6 + rank``)."""
Suit: TypeAlias = int
"""A suit, 0..3 in the order S, H, D, C."""
Rank: TypeAlias = int
"""A rank, 0..5 in ascending trick order 9, J, Q, K, 10, A."""
Hand: TypeAlias = int
"""A packed hand: ``ONE | TWO << 24`` (see the module docstring)."""

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = ("9", "J", "Q", "K", "10", "A")
RANK_NAMES = ("nine", "jack", "queen", "king", "ten", "ace")

NUM_SUITS = 4
NUM_RANKS = 6
NUM_FACES = 24
COPIES = 2
DECK_SIZE = NUM_FACES * COPIES

R9, RJ, RQ, RK, R10, RA = range(6)
S, H, D, C = range(4)

PLANE_BITS = 24
BB_PLANE = (1 << PLANE_BITS) - 1
"""All 24 face bits of one plane."""
BB_SUITS = tuple(((1 << NUM_RANKS) - 1) << (NUM_RANKS * s) for s in range(NUM_SUITS))
"""Face mask of each suit (bits of one plane)."""
BB_RANKS = tuple(sum(1 << (s * NUM_RANKS + r) for s in range(NUM_SUITS)) for r in range(NUM_RANKS))
"""Face mask of each rank across the four suits (bits of one plane)."""

FULL_DECK: Hand = BB_PLANE | (BB_PLANE << PLANE_BITS)
"""The whole 48-card deck as a packed hand."""


def face(suit: Suit, rank: Rank) -> Face:
    """The face of ``rank`` in ``suit``."""
    return suit * NUM_RANKS + rank


def face_suit(f: Face) -> Suit:
    return f // NUM_RANKS


def face_rank(f: Face) -> Rank:
    return f % NUM_RANKS


def card_name(f: Face, symbols: bool = False) -> str:
    """Notation of a face: ``card_name(5) == "AS"``; with ``symbols`` ``"A♠"``."""
    if not 0 <= f < NUM_FACES:
        raise ValueError(f"not a card face: {f!r} (faces are 0..23)")
    suit_chars = SUIT_SYMBOLS if symbols else SUITS
    return RANKS[face_rank(f)] + suit_chars[face_suit(f)]


_RANK_ALIASES = {"9": R9, "J": RJ, "Q": RQ, "K": RK, "10": R10, "T": R10, "A": RA}
_SUIT_ALIASES = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_SUIT_ALIASES |= {"♤": S, "♡": H, "♢": D, "♧": C}
_TOKEN = re.compile(r"^(10|[9JQKTA])(.)$|^(.)(10|[9JQKTA])$")
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_suit(token: str) -> Suit:
    """Parse a suit letter, name or symbol (``"H"``, ``"hearts"``, ``"♥"``), any case."""
    t = token.strip()
    if t.upper() in _SUIT_ALIASES:
        return _SUIT_ALIASES[t.upper()]
    if t in _SUIT_ALIASES:
        return _SUIT_ALIASES[t]
    names = {n: i for i, n in enumerate(SUIT_NAMES)} | {n[:-1]: i for i, n in enumerate(SUIT_NAMES)}
    if t.lower() in names:
        return names[t.lower()]
    raise ValueError(f"unknown suit {token!r}: use S, H, D or C (or a suit name or symbol)")


def parse_card(token: str) -> Face:
    """Parse one card: rank then suit, any case; ``T`` for 10; suit symbols accepted.

    >>> parse_card("AS"), parse_card("10h"), parse_card("TD"), parse_card("Q♣")
    (5, 10, 16, 20)
    """
    t = token.strip().upper()
    m = _TOKEN.match(t)
    if m:
        rank_s, suit_s = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if suit_s in _SUIT_ALIASES and rank_s in _RANK_ALIASES:
            return face(_SUIT_ALIASES[suit_s], _RANK_ALIASES[rank_s])
    raise ValueError(
        f"unknown card {token!r}: write rank then suit, e.g. AS 10H KD QC JS 9H "
        "(ranks A 10/T K Q J 9, suits S H D C)"
    )


def parse_cards(cards: str | Iterable[str | int]) -> list[Face]:
    """Parse a card list: a notation string (spaces or commas) or an iterable of tokens/faces.

    Checks that no face appears more than twice (the deck has two copies of each).

    >>> [card_name(f) for f in parse_cards("AS, 10h kd")]
    ['AS', '10H', 'KD']
    """
    if isinstance(cards, str):
        tokens: list[str | int] = [t for t in _SEPARATORS.split(cards) if t]
    else:
        tokens = list(cards)
    faces: list[Face] = []
    counts = [0] * NUM_FACES
    for tok in tokens:
        if isinstance(tok, int) and not isinstance(tok, bool):
            if not 0 <= tok < NUM_FACES:
                raise ValueError(f"not a card face: {tok!r} (faces are 0..23)")
            f = tok
        elif isinstance(tok, str):
            f = parse_card(tok)
        else:
            raise ValueError(f"not a card: {tok!r}")
        counts[f] += 1
        if counts[f] > COPIES:
            raise ValueError(
                f"too many copies of {card_name(f)} (token {tok!r}): the deck has only two"
            )
        faces.append(f)
    return faces


def encode_faces(faces: Iterable[Face]) -> Hand:
    """Pack faces (each at most twice) into a :data:`Hand`."""
    one = two = 0
    for f in faces:
        b = 1 << f
        if two & b:
            raise ValueError(f"too many copies of {card_name(f)}: the deck has only two")
        if one & b:
            two |= b
        else:
            one |= b
    return one | (two << PLANE_BITS)


def encode_hand(cards: str | Iterable[str | int]) -> Hand:
    """Pack a card list (notation string or tokens) into the engine's hand code.

    >>> encode_hand("AS 10H 10H") == (1 << 5) | (1 << 10) | (1 << 34)
    True
    """
    return encode_faces(parse_cards(cards))


def check_hand(code: Hand) -> None:
    """Raise ``ValueError`` unless ``code`` is a valid packed hand."""
    code = int(code)
    if code < 0 or code >> (2 * PLANE_BITS):
        raise ValueError(f"not a packed hand: {code!r} (bits above 47 set or negative)")
    one, two = code & BB_PLANE, code >> PLANE_BITS
    if two & ~one:
        raise ValueError(f"not a packed hand: {code!r} (TWO plane not a subset of ONE plane)")


def hand_faces(code: Hand) -> list[Face]:
    """Faces of a packed hand, each copy listed, in face order (suit S..C, rank 9..A)."""
    check_hand(code)
    one, two = code & BB_PLANE, code >> PLANE_BITS
    out: list[Face] = []
    for f in range(NUM_FACES):
        out.extend([f] * (((one >> f) & 1) + ((two >> f) & 1)))
    return out


def sort_faces(faces: Iterable[Face]) -> list[Face]:
    """Display order: by suit S, H, D, C, then rank high to low (A 10 K Q J 9)."""
    return sorted(faces, key=lambda f: (face_suit(f), -face_rank(f)))


def format_cards(faces: Iterable[Face], symbols: bool = False, sort: bool = True) -> str:
    """Space-separated notation of faces (sorted for display unless ``sort=False``)."""
    seq = sort_faces(faces) if sort else list(faces)
    return " ".join(card_name(f, symbols) for f in seq)


def decode_hand(code: Hand) -> list[str]:
    """Card names of a packed hand, sorted by suit then rank (high first).

    >>> decode_hand(encode_hand("9h as 10h"))
    ['AS', '10H', '9H']
    """
    return [card_name(f) for f in sort_faces(hand_faces(code))]


def hand_size(code: Hand) -> int:
    """Number of cards in a packed hand."""
    check_hand(code)
    return int(code).bit_count()


def suit_length(code: Hand, suit: Suit) -> int:
    """Number of cards of ``suit`` in a packed hand."""
    mask = BB_SUITS[suit]
    return (code & mask).bit_count() + ((code >> PLANE_BITS) & mask).bit_count()


def by_suit(cards: list[str]) -> str:
    """``S: A 10 K | H: ...`` for a decoded (sorted) card list."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in cards:
        groups[c[-1]].append(c[:-1])
    return "  ".join(f"{s}: {' '.join(groups[s]) or '-':<17}" for s in SUITS).rstrip()
