"""A trick-play position as a friendly, validated object (the solver's input).

``Position`` holds what a double-dummy solve needs: the rule set, trump, the seat that led the
current trick, the cards every seat still holds (packed hands, ``core.cards``) and the cards
already played to the current trick. It checks itself on construction and every mistake is a
one-line ``ValueError``: the wrong number of seats, more than two copies of a card, hands of
unequal sizes once the trick's cards are given back, a trick card its seat could not legally
play.

>>> p = Position.parse("partnership", "S", 0, "10S; KS QS; JS 9S; AH 10H", trick="AS")
>>> p.to_move, [card_name(f) for f in p.legal()]
(1, ['QS', 'KS'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pinochle_sim.core.cards import (
    NUM_FACES,
    PLANE_BITS,
    Face,
    Hand,
    card_name,
    encode_faces,
    format_cards,
    hand_faces,
    parse_cards,
    parse_suit,
)
from pinochle_sim.core.tricks import beaters, legal_mask
from pinochle_sim.rules import Ruleset, resolve_rules
from pinochle_sim.rules.ruleset import HEAD_RULES

Seat = int
"""A seat, 0..players-1."""


def _count(hand: Hand, f: Face) -> int:
    return ((hand >> f) & 1) + ((hand >> (f + PLANE_BITS)) & 1)


@dataclass(frozen=True)
class Position:
    """A position of trick play; see the module docstring. Build it with :meth:`parse` from card
    notation or directly from packed hands and faces."""

    rules: Ruleset
    trump: int
    leader: Seat
    hands: tuple[Hand, ...]
    trick: tuple[Face, ...] = ()

    def __post_init__(self) -> None:
        r = self.rules
        if not isinstance(r, Ruleset):
            raise ValueError("rules must be a Ruleset")
        if not 0 <= self.trump < 4:
            raise ValueError(f"trump must be a suit 0..3 (S, H, D, C), got {self.trump!r}")
        n = r.players
        if len(self.hands) != n:
            raise ValueError(
                f"{r.name} has {n} seats: give {n} hands separated by ';', got {len(self.hands)}"
            )
        if not 0 <= self.leader < n:
            raise ValueError(f"leader must be a seat 0..{n - 1}, got {self.leader!r}")
        if len(self.trick) >= n:
            raise ValueError(
                f"the current trick holds {len(self.trick)} cards: at most {n - 1} are played "
                "before its last card (a complete trick is over)"
            )
        for f in self.trick:
            if not 0 <= f < NUM_FACES:
                raise ValueError(f"not a card face: {f!r}")
        self._check_copies()
        self._check_sizes()
        self._check_trick()

    # ------------------------------------------------------------------ construction

    @classmethod
    def parse(
        cls,
        rules: str | Ruleset,
        trump: str | int,
        leader: int,
        hands: str | list[str] | tuple[str, ...],
        trick: str | list[str] | tuple[str, ...] = "",
    ) -> Position:
        """From notation: ``hands`` is one string with the seats' cards separated by ``;`` (or
        a list of strings, one per seat); ``trick`` the cards already played to the current
        trick, in order, the first by ``leader``."""
        r = rules if isinstance(rules, Ruleset) else resolve_rules(rules)
        t = trump if isinstance(trump, int) and not isinstance(trump, bool) else parse_suit(trump)
        if isinstance(hands, str):
            parts = hands.split(";")
            if len(parts) == 1 and r.players > 1 and hands.strip():
                raise ValueError(
                    f"{r.name} has {r.players} seats: separate the hands with ';' "
                    '(e.g. "AS 10S; KS QS; ...")'
                )
        else:
            parts = list(hands)
        packed = []
        for seat, text in enumerate(parts):
            try:
                packed.append(encode_faces(parse_cards(text)))
            except ValueError as e:
                raise ValueError(f"hand of seat {seat}: {e}") from None
        faces = parse_cards(trick if isinstance(trick, str) else list(trick))
        try:
            lead = int(leader)
        except (TypeError, ValueError):
            raise ValueError(f"leader must be a seat number, got {leader!r}") from None
        return cls(r, t, lead, tuple(packed), tuple(faces))

    # ------------------------------------------------------------------ checks

    def _check_copies(self) -> None:
        for f in range(NUM_FACES):
            in_hands = sum(_count(h, f) for h in self.hands)
            on_table = self.trick.count(f)
            if in_hands + on_table > 2:
                where = f"{in_hands} in hands" + (f", {on_table} in the trick" if on_table else "")
                raise ValueError(
                    f"{card_name(f)} appears {in_hands + on_table} times ({where}): "
                    "the deck has only two"
                )

    def _check_sizes(self) -> None:
        n = self.rules.players
        sizes = [int(h).bit_count() for h in self.hands]
        for i in range(len(self.trick)):
            sizes[(self.leader + i) % n] += 1
        if len(set(sizes)) != 1:
            shown = ", ".join(f"seat {s}: {c}" for s, c in enumerate(sizes))
            note = " (counting the cards each seat played to the trick)" if self.trick else ""
            raise ValueError(f"hands must have equal sizes{note}; got {shown}")
        if sizes[0] == 0:
            raise ValueError("nothing to solve: every hand is empty")

    def _check_trick(self) -> None:
        """Each trick card must have been a legal play from its seat's hand at the time."""
        n = self.rules.players
        r = self.rules
        head = HEAD_RULES.index(r.head_trick)
        led = -1
        winner = -1
        for i, f in enumerate(self.trick):
            seat = (self.leader + i) % n
            held = self.hands[seat] & ((1 << PLANE_BITS) - 1) | (1 << f)
            legal = legal_mask(held, led, winner, self.trump, r.must_follow, r.must_trump, head)
            if not (legal >> f) & 1:
                allowed = format_cards(f2 for f2 in range(NUM_FACES) if (legal >> f2) & 1)
                raise ValueError(
                    f"illegal trick: seat {seat} may not play {card_name(f)} there "
                    f"(its legal cards were {allowed})"
                )
            if i == 0:
                led, winner = f // 6, f
            elif (beaters(winner, self.trump) >> f) & 1:
                winner = f

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def to_move(self) -> Seat:
        """The seat whose turn it is."""
        return (self.leader + len(self.trick)) % self.players

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return int(self.hands[self.to_move]).bit_count()

    def _table(self) -> tuple[int, int]:
        """(led suit or -1, winning face or -1) of the current trick."""
        if not self.trick:
            return -1, -1
        winner = self.trick[0]
        for f in self.trick[1:]:
            if (beaters(winner, self.trump) >> f) & 1:
                winner = f
        return self.trick[0] // 6, winner

    def trick_winner(self) -> Seat:
        """The seat currently winning the trick (the leader when it is empty)."""
        if not self.trick:
            return self.leader
        winner, at = self.trick[0], 0
        for i, f in enumerate(self.trick[1:], 1):
            if (beaters(winner, self.trump) >> f) & 1:
                winner, at = f, i
        return (self.leader + at) % self.players

    def legal(self) -> list[Face]:
        """Distinct faces the seat to move may play, in face order."""
        r = self.rules
        led, winner = self._table()
        held = self.hands[self.to_move] & ((1 << PLANE_BITS) - 1)
        mask = legal_mask(
            held, led, winner, self.trump, r.must_follow, r.must_trump,
            HEAD_RULES.index(r.head_trick),
        )  # fmt: skip
        return [f for f in range(NUM_FACES) if (mask >> f) & 1]

    def points_left(self) -> int:
        """Trick points still to be taken: the cards in the hands and on the table, plus the
        last-trick bonus."""
        pts = self.rules.trick_points
        total = sum(pts[f % 6] for h in self.hands for f in hand_faces(h))
        return total + sum(pts[f % 6] for f in self.trick) + self.rules.last_trick

    def play(self, f: Face) -> tuple[Position | None, Seat | None, int]:
        """The position after the seat to move plays ``f``: ``(position, trick winner, trick
        points)``; the winner and points only when ``f`` completes the trick (points with the
        last-trick bonus on the last), the position ``None`` when that was the last card."""
        if f not in self.legal():
            raise ValueError(f"seat {self.to_move} may not play {card_name(f)} here")
        seat = self.to_move
        hands = list(self.hands)
        b = 1 << f
        h = hands[seat]
        hands[seat] = h ^ (b << PLANE_BITS) if (h >> PLANE_BITS) & b else h ^ b
        trick = (*self.trick, f)
        if len(trick) < self.players:
            return Position(self.rules, self.trump, self.leader, tuple(hands), trick), None, 0
        winner, at = trick[0], 0
        for i, g in enumerate(trick[1:], 1):
            if (beaters(winner, self.trump) >> g) & 1:
                winner, at = g, i
        won_by = (self.leader + at) % self.players
        pts = sum(self.rules.trick_points[g % 6] for g in trick)
        if not any(hands):
            return None, won_by, pts + self.rules.last_trick
        return Position(self.rules, self.trump, won_by, tuple(hands), ()), won_by, pts

    def side_seats(self, side: Seat) -> tuple[Seat, ...]:
        """The seats of ``side``: seat ``side`` and its partner where the rules have partners,
        else ``side`` alone (its opponents act together)."""
        n = self.players
        if not 0 <= side < n:
            raise ValueError(f"side must be a seat 0..{n - 1}, got {side!r}")
        if self.rules.partnerships:
            return tuple(sorted({side, (side + 2) % n}))
        return (side,)

    def hands_text(self) -> str:
        """The hands in the notation :meth:`parse` reads (seats separated by ``;``)."""
        return "; ".join(format_cards(hand_faces(h)) for h in self.hands)


POSITION_FIELDS = ("rules", "trump", "leader", "hands", "trick", "side", "time_limit")
"""The fields of one position as JSON (``solve --positions``)."""


def position_request(
    item: Any, default_rules: Ruleset, time_limit: float | None = None
) -> tuple[Position, Seat, float | None]:
    """(position, maximising seat, time limit) of one position given as a JSON object
    (:data:`POSITION_FIELDS`; ``rules`` defaults to ``default_rules``, ``side`` to seat 0,
    ``time_limit`` to ``time_limit``); a ValueError names what is wrong."""
    if not isinstance(item, dict):
        raise ValueError("each line must be a JSON object")
    unknown = set(item) - set(POSITION_FIELDS)
    if unknown:
        raise ValueError(f"unknown fields {', '.join(sorted(unknown))}")
    missing = [k for k in ("trump", "leader", "hands") if k not in item]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    rules = resolve_rules(item["rules"]) if "rules" in item else default_rules
    pos = Position.parse(rules, item["trump"], item["leader"], item["hands"], item.get("trick", ""))
    side = item.get("side", 0)
    if not isinstance(side, int) or isinstance(side, bool):
        raise ValueError(f"side must be a seat number, got {side!r}")
    pos.side_seats(side)  # checks the seat
    limit = item.get("time_limit", time_limit)
    if limit is not None and not (isinstance(limit, (int, float)) and limit > 0):
        raise ValueError(f"time_limit must be positive seconds, got {limit!r}")
    return pos, side, limit
