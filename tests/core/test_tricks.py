"""Trick-play kernels (pinochle_sim.core.tricks) against the oracle (docs/rules.md 1 and 5).

``legal_mask`` and ``beaters`` work on 24-bit face masks (``face = suit * 6 + rank``, ranks
ascending 9, J, Q, K, 10, A). The helpers below convert card strings to faces independently of
``pinochle_sim.core.cards`` so that these tests rely on nothing but docs/rules.md and the oracle.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from pinochle_sim.core.tricks import (
    HEAD_ALWAYS,
    HEAD_NEVER,
    HEAD_TRUMP_LED,
    RANK_ROW,
    add_card,
    beaters,
    higher_in_suit,
    legal_mask,
    rank_of,
    remove_card,
    suit_len,
    suit_mask,
    suit_of,
)
from tests.oracles.reference import canon, ref_beats, ref_legal, ref_trick_winner

DATA = Path(__file__).resolve().parents[1] / "data"
TRICK_EXAMPLES = json.loads((DATA / "trick_examples.json").read_text())

SUIT_CHARS = "SHDC"
RANK_NAMES = ("9", "J", "Q", "K", "10", "A")  # ascending trick order, as the engine numbers them
DECK = [r + s for s in SUIT_CHARS for r in RANK_NAMES] * 2
HEAD_CODES = {"always": HEAD_ALWAYS, "trump-led": HEAD_TRUMP_LED, "never": HEAD_NEVER}


def face(card: str) -> int:
    c = canon(card)
    return SUIT_CHARS.index(c[-1]) * 6 + RANK_NAMES.index(c[:-1])


def name(f: int) -> str:
    return RANK_NAMES[f % 6] + SUIT_CHARS[f // 6]


def mask_of(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << face(c)
    return m


def names_of(mask: int) -> set[str]:
    return {name(f) for f in range(24) if (mask >> f) & 1}


def engine_winner_index(trick: list[str], trump: int) -> int:
    """Trick winner the way the engine finds it: apply ``beaters`` card by card."""
    win_i, win_f = 0, face(trick[0])
    for i, c in enumerate(trick[1:], start=1):
        f = face(c)
        if (beaters(win_f, trump) >> f) & 1:
            win_i, win_f = i, f
    return win_i


def engine_legal(hand: list[str], trick: list[str], trump: str, head: str) -> set[str]:
    """``legal_mask`` for a position given as card strings (the presets' follow/trump flags)."""
    t = SUIT_CHARS.index(trump)
    if trick:
        led = face(trick[0]) // 6
        winner = face(trick[ref_trick_winner(trick, trump)])
    else:
        led, winner = -1, -1
    mask = legal_mask(mask_of(hand), led, winner, t, True, True, HEAD_CODES[head])
    return names_of(mask)


# --------------------------------------------------------------------------- golden examples


@pytest.mark.parametrize(
    "example",
    TRICK_EXAMPLES["legal"],
    ids=lambda e: f"{e['head']}:{e['trump']}:[{e['trick']}]:{e['hand']}",
)
def test_legal_mask_golden(example: dict) -> None:
    hand, trick = example["hand"].split(), example["trick"].split()
    want = {canon(c) for c in example["legal"]}
    assert ref_legal(hand, trick, example["trump"], example["head"]) == want
    assert engine_legal(hand, trick, example["trump"], example["head"]) == want, example["why"]


@pytest.mark.parametrize("example", TRICK_EXAMPLES["winner"], ids=lambda e: e["trick"])
def test_winner_golden(example: dict) -> None:
    trick = example["trick"].split()
    t = SUIT_CHARS.index(example["trump"])
    assert engine_winner_index(trick, t) == example["winner"], example["why"]
    assert ref_trick_winner(trick, example["trump"]) == example["winner"]


def test_rules_section_7_worked_example() -> None:
    """Trump spades: West leads QH; North (9H 10H AH) must play 10H or AH; East (no hearts,
    holds QS) must trump; the trick goes to East (seat 3), whatever South plays."""
    trump = "S"
    west = ["QH", "KC", "9D"]
    north = ["9H", "10H", "AH", "JC"]
    east = ["QS", "AC", "10D"]
    south = ["JH", "KD", "AD"]
    assert engine_legal(west, [], trump, "always") == set(west)
    assert engine_legal(north, ["QH"], trump, "always") == {"10H", "AH"}
    for north_card in ("10H", "AH"):
        trick = ["QH", north_card]
        assert engine_legal(east, trick, trump, "always") == {"QS"}
        trick.append("QS")
        # South holds a heart and must follow; no heart beats a trump, so any heart.
        assert engine_legal(south, trick, trump, "always") == {"JH"}
        trick.append("JH")
        seats = [1, 2, 3, 0]  # West leads, then clockwise
        assert seats[engine_winner_index(trick, SUIT_CHARS.index(trump))] == 3  # East
        assert seats[ref_trick_winner(trick, trump)] == 3


# --------------------------------------------------------------------------- random positions


def _random_position(rng: random.Random) -> tuple[list[str], list[str], str]:
    """A hand, a partial trick and trump, cards drawn without replacement from one deck.

    The hand is sometimes made void in the led suit and/or in trump so that the trump and
    "any card" branches of docs/rules.md 5 are exercised as often as following.
    """
    deck = DECK[:]
    rng.shuffle(deck)
    k = rng.randrange(4)
    trick, rest = deck[:k], deck[k:]
    trump = rng.choice(SUIT_CHARS)
    if k and rng.random() < 0.25:
        trump = trick[0][-1]  # trump led: the joedog heading rule applies
    pool = rest
    if k and rng.random() < 0.4:
        led = trick[0][-1]
        pool = [c for c in pool if c[-1] != led]
        if rng.random() < 0.4:
            pool = [c for c in pool if c[-1] != trump]
    size = rng.randrange(1, 13)
    return pool[:size], trick, trump


def test_legal_mask_matches_oracle_on_random_positions() -> None:
    rng = random.Random(20240607)
    n_positions = 24_000
    branches: Counter[str] = Counter()
    for _ in range(n_positions):
        hand, trick, trump = _random_position(rng)
        by_head = {}
        for head in HEAD_CODES:
            want = ref_legal(hand, trick, trump, head)
            got = engine_legal(hand, trick, trump, head)
            assert got == want, (hand, trick, trump, head, sorted(got), sorted(want))
            by_head[head] = want
        if not trick:
            branches["lead"] += 1
            continue
        led = trick[0][-1]
        suits = {c[-1] for c in hand}
        branch = "follow" if led in suits else ("trump" if trump in suits else "any")
        branches[branch] += 1
        if by_head["always"] != by_head["never"]:
            branches["heading narrows"] += 1
        if by_head["trump-led"] != by_head["never"]:
            branches["heading on trump lead"] += 1
        if led != trump and by_head["always"] != by_head["trump-led"]:
            branches["joedog differs"] += 1
    # The generator reaches every rule of docs/rules.md 5 many times.
    for key in ("lead", "follow", "trump", "any"):
        assert branches[key] > 2000, branches
    for key in ("heading narrows", "heading on trump lead", "joedog differs"):
        assert branches[key] > 500, branches


def test_legal_mask_without_obligations_allows_every_held_card() -> None:
    rng = random.Random(5)
    for _ in range(500):
        hand, trick, trump = _random_position(rng)
        if not trick:
            continue
        t = SUIT_CHARS.index(trump)
        winner = face(trick[ref_trick_winner(trick, trump)])
        held = mask_of(hand)
        got = legal_mask(held, face(trick[0]) // 6, winner, t, False, False, HEAD_NEVER)
        assert got == held


def test_legal_mask_is_a_nonempty_subset_of_the_hand() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        hand, trick, trump = _random_position(rng)
        held = mask_of(hand)
        t = SUIT_CHARS.index(trump)
        led = face(trick[0]) // 6 if trick else -1
        winner = face(trick[ref_trick_winner(trick, trump)]) if trick else -1
        for head in HEAD_CODES.values():
            m = legal_mask(held, led, winner, t, True, True, head)
            assert m and m & ~held == 0


# --------------------------------------------------------------------------- trick winner


def test_beaters_exhaustive_against_oracle() -> None:
    """For every winning card (of the led suit or a trump) and every trump, ``beaters`` is
    exactly the set of faces that the oracle says beat it."""
    for t in range(4):
        trump = SUIT_CHARS[t]
        for w in range(24):
            leds = [SUIT_CHARS[w // 6]] if w // 6 != t else list(SUIT_CHARS)
            for led in leds:
                want = {name(f) for f in range(24) if ref_beats(name(f), name(w), trump, led)}
                assert names_of(beaters(w, t)) == want, (name(w), trump, led)
            # an identical card never beats: the first played wins (docs/rules.md 1)
            assert not (beaters(w, t) >> w) & 1


def test_trick_order_ten_beats_king() -> None:
    for s in range(4):
        trump = (s + 1) % 4
        k, ten, a = s * 6 + 3, s * 6 + 4, s * 6 + 5
        assert (beaters(k, trump) >> ten) & 1
        assert not (beaters(ten, trump) >> k) & 1
        assert (beaters(ten, trump) >> a) & 1
        assert not (beaters(a, trump) >> ten) & 1


def test_sequential_beaters_match_oracle_winner_on_random_tricks() -> None:
    rng = random.Random(77)
    for i in range(20_000):
        trump = rng.choice(SUIT_CHARS)
        if i % 2:
            # Few suits and ranks: many trumps, identical cards and ties.
            suits = rng.sample(SUIT_CHARS, 2)
            pool = [r + s for s in suits for r in RANK_NAMES[2:]] * 2
        else:
            pool = DECK[:]
        rng.shuffle(pool)
        trick = pool[:4]
        assert engine_winner_index(trick, SUIT_CHARS.index(trump)) == ref_trick_winner(
            trick, trump
        ), (trick, trump)


def test_identical_cards_first_played_wins() -> None:
    for t in range(4):
        trump = SUIT_CHARS[t]
        for f in range(24):
            c = name(f)
            assert engine_winner_index([c, c], t) == 0
            assert engine_winner_index([c, name((f // 6) * 6), c], t) == 0  # 9 never beats
            assert ref_trick_winner([c, c], trump) == 0


# --------------------------------------------------------------------------- packed hands


def test_add_remove_card_and_suit_len_track_a_multiset() -> None:
    rng = random.Random(3)
    for _ in range(300):
        deck = DECK[:]
        rng.shuffle(deck)
        hand = 0
        held: Counter[int] = Counter()
        for c in deck[:12]:
            f = face(c)
            hand = add_card(hand, f)
            held[f] += 1
        for _ in range(6):
            f = rng.choice(sorted(held.elements()))
            hand = remove_card(hand, f)
            held[f] -= 1
        one = sum(1 << f for f, n in held.items() if n >= 1)
        two = sum(1 << f for f, n in held.items() if n == 2)
        assert hand == one | (two << 24)
        for s in range(4):
            assert suit_len(hand, s) == sum(n for f, n in held.items() if f // 6 == s)


def test_suit_rank_and_mask_arithmetic_match_their_definitions() -> None:
    """``suit_of``/``rank_of``/``suit_mask``/``higher_in_suit`` are arithmetic stand-ins for
    ``f // 6``, ``f % 6``, a suit's six bits and the bits above ``f`` in its suit."""
    for f in range(24):
        assert suit_of(f) == f // 6 and rank_of(f) == f % 6
        suit_bits = sum(1 << (6 * (f // 6) + r) for r in range(6))
        assert higher_in_suit(f) == suit_bits & ~((1 << (f + 1)) - 1)
    for s in range(4):
        assert suit_mask(s) == sum(1 << (6 * s + r) for r in range(6))
    for r in range(6):  # RANK_ROW << r: rank r in every suit
        assert RANK_ROW << r == sum(1 << (6 * s + r) for s in range(4))
    # The multiply-shift is exact well past the 24 faces (documented bound: below 131).
    assert all(suit_of(f) == f // 6 and rank_of(f) == f % 6 for f in range(131))
