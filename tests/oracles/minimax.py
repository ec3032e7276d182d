"""Slow, independent double-dummy references: a plain minimax and an alpha-beta.

Written from RULES.md sections 7 (trick play) and 9 (the two-hand play-out) alone, sharing no
code with ``pinochle_sim``: a card is a ``(suit, rank)`` pair (suits 0..3 = S H D C, ranks
0..5 = 9 J Q K 10 A in trick order), a hand is a sorted tuple of cards with repeats for the
two identical copies. The rules come in as a :class:`TrickRules` (a few plain fields).

:func:`minimax` walks the whole game tree: every distinct legal card of every seat (two
identical copies are one choice, RULES.md 1), no pruning, no memory. For whole deals, too big
for it, ``tests/oracles/alphabeta.py`` is a compiled alpha-beta checked against this one.
"""

from __future__ import annotations

from dataclasses import dataclass

Card = tuple[int, int]
Hand = tuple[Card, ...]


@dataclass(frozen=True)
class TrickRules:
    """What trick play needs to know of a ruleset."""

    players: int
    points: tuple[int, int, int, int, int, int]  # by rank 9, J, Q, K, 10, A
    last_bonus: int
    head: str  # "always", "trump-led" or "never"
    follow: bool = True
    must_trump: bool = True


def _strength(c: Card, led: int, trump: int) -> int:
    """Any trump over any card of the led suit, higher rank over lower; -1 never wins."""
    if c[0] == trump:
        return 20 + c[1]
    if c[0] == led:
        return 10 + c[1]
    return -1


def beats(card: Card, best: Card, led: int, trump: int) -> bool:
    """Does ``card``, played later, take the trick from ``best`` (RULES.md 7: the highest trump,
    else the highest card of the led suit; of two identical cards the first played wins)?"""
    return _strength(card, led, trump) > _strength(best, led, trump)


def winner_index(trick: list[Card], trump: int) -> int:
    """Position in play order of the card that wins ``trick``."""
    led = trick[0][0]
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], led, trump):
            best = i
    return best


def legal_cards(hand: Hand, trick: list[Card], trump: int, rules: TrickRules) -> list[Card]:
    """Distinct cards of ``hand`` that may be played to ``trick`` (RULES.md 7 steps 1-4; the
    two-hand play-out of section 9 is the same with heading only on a trump lead)."""
    distinct = sorted(set(hand))
    if not trick:
        return distinct
    led = trick[0][0]
    allowed = distinct
    if rules.follow and any(c[0] == led for c in distinct):
        allowed = [c for c in distinct if c[0] == led]
    elif rules.must_trump and any(c[0] == trump for c in distinct):
        allowed = [c for c in distinct if c[0] == trump]
    heading = rules.head == "always" or (rules.head == "trump-led" and led == trump)
    if heading:
        top = trick[winner_index(trick, trump)]
        over = [c for c in allowed if beats(c, top, led, trump)]
        if over:
            allowed = over
    return allowed


def _without(hand: Hand, card: Card) -> Hand:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


@dataclass
class Counter:
    nodes: int = 0


def _play(
    hands: list[Hand], leader: int, trick: list[Card], card: Card, rules: TrickRules, trump: int
) -> tuple[list[Hand], int, list[Card], int | None, int]:
    """Play ``card`` for the seat to move: (hands, leader, trick, trick winner or None, points
    of the completed trick)."""
    seat = (leader + len(trick)) % rules.players
    hands = list(hands)
    hands[seat] = _without(hands[seat], card)
    trick = [*trick, card]
    if len(trick) < rules.players:
        return hands, leader, trick, None, 0
    won_by = (leader + winner_index(trick, trump)) % rules.players
    pts = sum(rules.points[c[1]] for c in trick)
    if not any(hands):
        pts += rules.last_bonus
    return hands, won_by, [], won_by, pts


def minimax(
    hands: list[Hand],
    leader: int,
    trick: list[Card],
    trump: int,
    rules: TrickRules,
    side: frozenset[int],
    count: Counter | None = None,
) -> int:
    """Points the seats in ``side`` take from the current trick on (its table cards included)
    when every seat plays perfectly with all cards seen: ``side`` maximises, the others
    minimise together."""
    if count is not None:
        count.nodes += 1
    seat = (leader + len(trick)) % rules.players
    if not hands[seat]:
        return 0
    values = []
    for card in legal_cards(hands[seat], trick, trump, rules):
        nh, nl, nt, won_by, pts = _play(hands, leader, trick, card, rules, trump)
        gained = pts if won_by is not None and won_by in side else 0
        values.append(gained + minimax(nh, nl, nt, trump, rules, side, count))
    return max(values) if seat in side else min(values)


def move_values(
    hands: list[Hand], leader: int, trick: list[Card], trump: int, rules: TrickRules,
    side: frozenset[int],
) -> dict[Card, int]:  # fmt: skip
    """The value after each distinct legal card of the seat to move (by :func:`minimax`)."""
    seat = (leader + len(trick)) % rules.players
    out = {}
    for card in legal_cards(hands[seat], trick, trump, rules):
        nh, nl, nt, won_by, pts = _play(hands, leader, trick, card, rules, trump)
        gained = pts if won_by is not None and won_by in side else 0
        out[card] = gained + minimax(nh, nl, nt, trump, rules, side)
    return out
