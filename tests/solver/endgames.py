"""Random positions for the solver tests, built with the oracle's own rules (never the
package's): ``n`` cards in every hand, then ``k`` cards of the current trick played legally.

Half the positions are dealt from a short deck holding both copies of few faces, so hands with
both copies of a card, and copies split between seats, are common.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pinochle_sim.core.cards import encode_faces
from pinochle_sim.rules import Ruleset
from pinochle_sim.solver import Position
from tests.oracles.minimax import Card, Hand, TrickRules, _play, legal_cards


def trick_rules(r: Ruleset) -> TrickRules:
    """The oracle's view of a ruleset's trick play (fields read one by one)."""
    return TrickRules(
        players=r.players,
        points=tuple(r.trick_points),
        last_bonus=r.last_trick,
        head=r.head_trick,
        follow=r.must_follow,
        must_trump=r.must_trump,
    )


@dataclass(frozen=True)
class Endgame:
    hands: list[Hand]
    leader: int
    trick: list[Card]
    trump: int
    side_seat: int

    def side(self, r: Ruleset) -> frozenset[int]:
        s = self.side_seat
        return frozenset({s, (s + 2) % 4}) if r.partnerships else frozenset({s})

    def position(self, r: Ruleset) -> Position:
        def face(c: Card) -> int:
            return c[0] * 6 + c[1]

        hands = tuple(encode_faces(face(c) for c in h) for h in self.hands)
        return Position(r, self.trump, self.leader, hands, tuple(face(c) for c in self.trick))

    def has_both_copies(self) -> bool:
        return any(len(set(h)) < len(h) for h in self.hands)


def random_endgame(rng: random.Random, r: Ruleset, tricks: int) -> Endgame:
    """A position with ``tricks`` tricks left (the current one included)."""
    n = r.players
    faces = [(s, k) for s in range(4) for k in range(6)]
    if rng.random() < 0.5:  # a short deck: both copies of just enough faces
        rng.shuffle(faces)
        faces = faces[: (n * tricks + 1) // 2 + rng.randrange(3)]
    deck = faces * 2
    rng.shuffle(deck)
    hands = [tuple(sorted(deck[i * tricks : (i + 1) * tricks])) for i in range(n)]
    trump = rng.randrange(4)
    leader = rng.randrange(n)
    tr = trick_rules(r)
    trick: list[Card] = []
    for _ in range(rng.randrange(n)):
        seat = (leader + len(trick)) % n
        card = rng.choice(legal_cards(hands[seat], trick, trump, tr))
        hands, _, trick, _, _ = _play(hands, leader, trick, card, tr, trump)
    return Endgame(hands, leader, trick, trump, rng.randrange(n))
