"""One hand of an auction preset, a decision at a time: the state machine the OpenSpiel game
and the PettingZoo environment both wrap (:mod:`pinochle_sim.openspiel`,
:mod:`pinochle_sim.pettingzoo`).

The engine plays a whole hand inside one kernel; a framework needs the hand as states and
actions. :class:`Table` keeps the hand's state in Python and asks the engine's own kernels
and tables for every rule: the legal cards (:func:`pinochle_sim.core.tricks.legal_mask`), which
card wins (:func:`~pinochle_sim.core.tricks.beaters`), the meld (the preset's meld array), the
trick points, the auction's steps, the pass and the widow from the rules array, and the scores
(:mod:`pinochle_sim.engines.auction.scoring`). Replaying the engine's record of a hand through a
table gives the engine's auction, cards and scores (tests/agents).

Phases (docs/rules.md section 4): the deal (chance: one card at a time, seat 0's cards first,
then seat 1's, ..., the widow last; each face with probability copies left / cards left), the
auction, naming trump, the pass (the partner gives, then the bidder returns, one card an
action) or the widow (three-hand: added to the bidder's hand, then discards one card an
action), the meld (automatic, public), the throw-in decision (only when the bid is hopeless
and the rules allow it), the tricks, the score.

Actions (:data:`NUM_ACTIONS` in all): 0..23 a card face (play, pass, discard), 24..27 a trump
suit (S H D C), 28 pass in the auction, 29 concede, 30 play the hand out, 31 + i the bid
``min_bid + i * step`` (``step``: the smallest raise), up to :data:`MAX_BID_STEPS` steps.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field

import numpy as np

from pinochle_sim.core.cards import (
    NUM_FACES,
    SUITS,
    card_name,
    hand_faces,
)
from pinochle_sim.core.tricks import PLANE, add_card, beaters, legal_mask, rank_of, remove_card
from pinochle_sim.engines.auction.passing import _add_all
from pinochle_sim.engines.auction.scoring import _score_bidding, _score_other
from pinochle_sim.rules import Ruleset, resolve_rules
from pinochle_sim.rules.arrays import (
    RA_DISCARD,
    RA_DISCARDS_COUNT,
    RA_FOLLOW,
    RA_HAND_SIZE,
    RA_HEAD,
    RA_LAST,
    RA_MIN_BID,
    RA_NSTEPS,
    RA_PARTNERS,
    RA_PASS,
    RA_PLAYERS,
    RA_POINTS,
    RA_SAVE,
    RA_STEPS,
    RA_THROW_IN,
    RA_TOTAL,
    RA_TRUMP,
    RA_WIDOW,
)
from pinochle_sim.rules.meld import _meld, meld_shown
from pinochle_sim.runs.simulate.hands import engine_inputs

TRUMP_ACTION = 24
"""Actions 24..27: name that suit (S H D C) trump."""
PASS_ACTION = 28
CONCEDE_ACTION = 29
PLAY_ON_ACTION = 30
BID_ACTION = 31
"""Action ``BID_ACTION + i`` bids ``min_bid + i * step``."""
MAX_BID_STEPS = 150
"""The highest bid a table takes: ``min_bid + 150`` smallest steps (1,750 in partnership;
ordinary auctions end hundreds of points below)."""
NUM_ACTIONS = BID_ACTION + MAX_BID_STEPS + 1
MAX_CALLS = 160
"""Calls an auction may hold (the engine's bound)."""

CHANCE = -1
TERMINAL = -4

DEAL, AUCTION, TRUMP, GIVE, RETURN, DISCARD, CONCEDE, PLAY, DONE = range(9)
PHASES = ("deal", "auction", "trump", "pass to the bidder", "pass back", "discard",
          "throw-in", "tricks", "over")  # fmt: skip


@dataclass(frozen=True)
class TableRules:
    """What a table reads from a ruleset (an auction preset or TOML file)."""

    rules: Ruleset
    ra: np.ndarray
    ma: np.ndarray

    @property
    def players(self) -> int:
        return int(self.ra[RA_PLAYERS])

    @property
    def hand_size(self) -> int:
        return int(self.ra[RA_HAND_SIZE])

    @property
    def widow(self) -> int:
        return int(self.ra[RA_WIDOW])

    @property
    def partners(self) -> bool:
        return bool(self.ra[RA_PARTNERS])

    @property
    def sides(self) -> int:
        return 2 if self.partners else self.players

    @property
    def min_bid(self) -> int:
        return int(self.ra[RA_MIN_BID])

    @property
    def steps(self) -> tuple[int, ...]:
        return tuple(int(self.ra[RA_STEPS + i]) for i in range(int(self.ra[RA_NSTEPS])))

    @property
    def unit(self) -> int:
        """The smallest raise: bid actions count in it."""
        return min(self.steps)

    @property
    def max_bid(self) -> int:
        return self.min_bid + MAX_BID_STEPS * self.unit

    def side(self, seat: int) -> int:
        return seat % 2 if self.partners else seat

    def points(self, f: int) -> int:
        return int(self.ra[RA_POINTS + rank_of(f)])


@functools.lru_cache(maxsize=32)
def table_rules(rules: str | Ruleset) -> TableRules:
    """The rules a table plays (an auction preset's name, a TOML file or a Ruleset)."""
    r = resolve_rules(rules)
    inputs = engine_inputs(r)
    if not inputs.engine.has_auction:
        raise ValueError(
            f"rules {r.name!r} have no auction: the table plays the auction presets "
            "(partnership, partnership-classic, joedog, three-hand); two-hand's stock phase and "
            "meld-from-the-table are another game"
        )
    return TableRules(r, np.asarray(inputs.ra), np.asarray(inputs.ma))


def action_name(tr: TableRules, action: int) -> str:
    """``AS``, ``trump S``, ``pass``, ``concede``, ``play on``, ``bid 270``."""
    if 0 <= action < NUM_FACES:
        return card_name(action)
    if TRUMP_ACTION <= action < TRUMP_ACTION + 4:
        return f"trump {SUITS[action - TRUMP_ACTION]}"
    if action == PASS_ACTION:
        return "pass"
    if action == CONCEDE_ACTION:
        return "concede"
    if action == PLAY_ON_ACTION:
        return "play on"
    if BID_ACTION <= action < NUM_ACTIONS:
        return f"bid {tr.min_bid + (action - BID_ACTION) * tr.unit}"
    raise ValueError(f"no action {action}")


def bid_action(tr: TableRules, bid: int) -> int:
    """The action that bids ``bid``."""
    i, rest = divmod(bid - tr.min_bid, tr.unit)
    if rest or not 0 <= i <= MAX_BID_STEPS:
        raise ValueError(f"{bid} is not a bid a table takes ({tr.min_bid}..{tr.max_bid})")
    return BID_ACTION + i


@dataclass
class Table:
    """One hand of an auction preset (see the module docstring). ``dealer`` deals; seat
    ``dealer + 1`` bids first."""

    tr: TableRules
    dealer: int = 0
    phase: int = DEAL
    dealt: list[int] = field(default_factory=list)
    """Packed hands as dealt."""
    hands: list[int] = field(default_factory=list)
    """Packed hands now."""
    widow: int = 0
    n_dealt: int = 0
    copies_left: list[int] = field(default_factory=lambda: [2] * NUM_FACES)
    calls: list[tuple[int, int]] = field(default_factory=list)
    """(seat, bid or -1 for pass), in order."""
    active: int = 0
    high: int = -1
    bid: int = 0
    to_call: int = 0
    bidder: int = -1
    stuck: bool = False
    trump: int = -1
    given: list[int] = field(default_factory=list)
    """Faces the partner passed to the bidder, in order."""
    returned: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    melds: list[int] = field(default_factory=list)
    meld_cards: list[list[int]] = field(default_factory=list)
    conceded: bool = False
    tricks: list[tuple[int, list[int]]] = field(default_factory=list)
    """(leader, faces in the order played), the last one possibly under way."""
    trick_points: list[int] = field(default_factory=list)
    """Per side."""
    counters: list[int] = field(default_factory=list)
    tricks_won: list[int] = field(default_factory=list)
    leader: int = -1
    scores: list[int] = field(default_factory=list)
    made: bool = False
    discard_points: int = 0

    def __post_init__(self) -> None:
        p = self.tr.players
        if not 0 <= self.dealer < p:
            raise ValueError(f"dealer must be a seat 0..{p - 1}, got {self.dealer}")
        self.dealt = [0] * p
        self.hands = [0] * p
        self.trick_points = [0] * self.tr.sides
        self.counters = [0] * self.tr.sides
        self.tricks_won = [0] * self.tr.sides
        self.active = (1 << p) - 1
        self.to_call = (self.dealer + 1) % p

    def copy(self) -> Table:
        """An independent copy (the rules shared: they never change)."""
        new = copy.copy(self)
        for name in ("dealt", "hands", "copies_left", "calls", "given", "returned", "discards",
                     "melds", "trick_points", "counters", "tricks_won", "scores"):  # fmt: skip
            setattr(new, name, list(getattr(self, name)))
        new.meld_cards = [list(c) for c in self.meld_cards]
        new.tricks = [(leader, list(cards)) for leader, cards in self.tricks]
        return new

    # ------------------------------------------------------------------ who acts, and how

    @property
    def cards_to_deal(self) -> int:
        return self.tr.players * self.tr.hand_size + self.tr.widow

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` while dealing, :data:`TERMINAL` when over."""
        if self.phase == DEAL:
            return CHANCE
        if self.phase == DONE:
            return TERMINAL
        if self.phase == AUCTION:
            return self.to_call
        if self.phase == GIVE:
            return (self.bidder + 2) % 4
        if self.phase == PLAY:
            trick = self.tricks[-1][1]
            return (self.tricks[-1][0] + len(trick)) % self.tr.players
        return self.bidder  # naming trump, returning the pass, discarding, the throw-in

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(face, probability) of the next card dealt."""
        left = self.cards_to_deal - self.n_dealt
        return [(f, c / left) for f, c in enumerate(self.copies_left) if c]

    def legal_actions(self) -> list[int]:
        """The actions the player to act may take, in increasing order."""
        ph = self.phase
        if ph == DEAL:
            return [f for f, c in enumerate(self.copies_left) if c]
        if ph == AUCTION:
            if self.bid == 0:
                return [PASS_ACTION, bid_action(self.tr, self.tr.min_bid)]
            raises = {self.bid + s for s in self.tr.steps if self.bid + s <= self.tr.max_bid}
            return [PASS_ACTION, *sorted(bid_action(self.tr, b) for b in raises)]
        if ph == TRUMP:
            return list(range(TRUMP_ACTION, TRUMP_ACTION + 4))
        if ph in (GIVE, RETURN, DISCARD):
            return sorted(set(hand_faces(self.hands[self.current_player()])))
        if ph == CONCEDE:
            return [CONCEDE_ACTION, PLAY_ON_ACTION]
        if ph == PLAY:
            seat = self.current_player()
            trick = self.tricks[-1][1]
            led, winner = self._trick_state(trick)
            ra = self.tr.ra
            mask = legal_mask(self.hands[seat] & PLANE, led, winner, self.trump,
                              ra[RA_FOLLOW] != 0, ra[RA_TRUMP] != 0, int(ra[RA_HEAD]))  # fmt: skip
            return [f for f in range(NUM_FACES) if (mask >> f) & 1]
        return []

    def _trick_state(self, trick: list[int]) -> tuple[int, int]:
        """(led suit, winning face) of a trick under way ((-1, -1) before its lead)."""
        if not trick:
            return -1, -1
        winner = trick[0]
        for f in trick[1:]:
            if (beaters(winner, self.trump) >> f) & 1:
                winner = f
        return trick[0] // 6, winner

    # ------------------------------------------------------------------ doing

    def apply(self, action: int) -> None:
        """Take ``action`` (a ValueError names an illegal one)."""
        if action not in self.legal_actions():
            who = "chance" if self.phase == DEAL else f"seat {self.current_player()}"
            raise ValueError(
                f"{action_name(self.tr, action) if 0 <= action < NUM_ACTIONS else action} is "
                f"not legal for {who} in the {PHASES[self.phase]}"
            )
        ph = self.phase
        if ph == DEAL:
            self._deal(action)
        elif ph == AUCTION:
            self._call(action)
        elif ph == TRUMP:
            self.trump = action - TRUMP_ACTION
            self._after_trump()
        elif ph == GIVE:
            self._move((self.bidder + 2) % 4, self.bidder, action, self.given)
            if len(self.given) == self.tr.ra[RA_PASS]:
                self.phase = RETURN
        elif ph == RETURN:
            self._move(self.bidder, (self.bidder + 2) % 4, action, self.returned)
            if len(self.returned) == self.tr.ra[RA_PASS]:
                self._meld_and_go_on()
        elif ph == DISCARD:
            self.hands[self.bidder] = remove_card(self.hands[self.bidder], action)
            self.discards.append(action)
            if len(self.discards) == self.tr.ra[RA_DISCARD]:
                if self.tr.ra[RA_DISCARDS_COUNT]:
                    self.discard_points = sum(self.tr.points(f) for f in self.discards)
                self._meld_and_go_on()
        elif ph == CONCEDE:
            self.conceded = action == CONCEDE_ACTION
            if self.conceded:
                self._score()
            else:
                self._start_play()
        elif ph == PLAY:
            self._play(action)

    def _deal(self, f: int) -> None:
        k = self.n_dealt
        self.copies_left[f] -= 1
        self.n_dealt += 1
        seat = k // self.tr.hand_size
        if seat < self.tr.players:
            self.hands[seat] = add_card(self.hands[seat], f)
        else:
            self.widow = add_card(self.widow, f)
        if self.n_dealt == self.cards_to_deal:
            self.dealt = list(self.hands)
            self.phase = AUCTION

    def _call(self, action: int) -> None:
        """One call; the auction's end as docs/rules.md 4.2 (and the engine) has it."""
        seat = self.to_call
        p = self.tr.players
        if action == PASS_ACTION:
            self.calls.append((seat, -1))
            self.active &= ~(1 << seat)
            if self.active == 0:  # the dealer passed too: stuck at the minimum
                self.bidder, self.bid, self.stuck = self.dealer, self.tr.min_bid, True
                self.phase = TRUMP
                return
            if self.high >= 0 and self.active == (1 << self.high):
                self.bidder = self.high
                self.phase = TRUMP
                return
        else:
            self.bid = self.tr.min_bid + (action - BID_ACTION) * self.tr.unit
            self.high = seat
            self.calls.append((seat, self.bid))
            if self.active == (1 << seat):  # the last one left opened: auction over
                self.bidder = seat
                self.phase = TRUMP
                return
        nxt = (seat + 1) % p
        while not (self.active >> nxt) & 1:
            nxt = (nxt + 1) % p
        self.to_call = nxt

    def _after_trump(self) -> None:
        if self.tr.partners and self.tr.ra[RA_PASS] > 0:
            self.phase = GIVE
        elif self.tr.widow:
            self.hands[self.bidder] = _add_all(self.hands[self.bidder], self.widow)
            self.phase = DISCARD
        else:
            self._meld_and_go_on()

    def _move(self, frm: int, to: int, f: int, log: list[int]) -> None:
        self.hands[frm] = remove_card(self.hands[frm], f)
        self.hands[to] = add_card(self.hands[to], f)
        log.append(f)

    def _meld_and_go_on(self) -> None:
        """Every seat melds (public); then the throw-in decision where it is open, else play."""
        self.melds = [int(_meld(h, self.trump, self.tr.ma)) for h in self.hands]
        self.meld_cards = [self._meld_faces(h) for h in self.hands]
        side_meld = sum(m for s, m in enumerate(self.melds) if self._on_bid_side(s))
        hopeless = self.bid - side_meld > self.tr.ra[RA_TOTAL]
        if self.tr.ra[RA_THROW_IN] and hopeless:
            self.phase = CONCEDE
        else:
            self._start_play()

    def _meld_faces(self, hand: int) -> list[int]:
        """The cards a hand shows with its meld (the engine's :func:`~pinochle_sim.rules.meld.
        meld_shown`: a card serving several melds shows once)."""
        return hand_faces(int(meld_shown(hand, self.trump, self.tr.ma)))

    def _on_bid_side(self, seat: int) -> bool:
        return self.tr.side(seat) == self.tr.side(self.bidder)

    def _start_play(self) -> None:
        self.phase = PLAY
        self.tricks.append((self.bidder, []))

    def _play(self, f: int) -> None:
        leader, trick = self.tricks[-1]
        seat = (leader + len(trick)) % self.tr.players
        self.hands[seat] = remove_card(self.hands[seat], f)
        trick.append(f)
        if len(trick) < self.tr.players:
            return
        _, winner = self._trick_state(trick)
        winner_seat = (leader + trick.index(winner)) % self.tr.players
        # the first copy played of the winning face wins: a later copy never beats it
        side = self.tr.side(winner_seat)
        pts = sum(self.tr.points(x) for x in trick)
        self.counters[side] += sum(self.tr.points(x) > 0 for x in trick)
        if len(self.tricks) == self.tr.hand_size:
            pts += int(self.tr.ra[RA_LAST])
        self.trick_points[side] += pts
        self.tricks_won[side] += 1
        if len(self.tricks) == self.tr.hand_size:
            self._score()
        else:
            self.tricks.append((winner_seat, []))

    def _score(self) -> None:
        """Every side's score (docs/rules.md 6) with the engine's scoring kernels."""
        save = self.tr.ra[RA_SAVE] != 0
        bside = self.tr.side(self.bidder)
        self.scores = []
        for k in range(self.tr.sides):
            meld = sum(m for s, m in enumerate(self.melds) if self.tr.side(s) == k)
            tricks = self.trick_points[k]
            if k == bside:
                extra = 0 if self.conceded else self.discard_points
                score, made = _score_bidding(meld, tricks, self.bid, save, self.conceded, extra)
                self.made = bool(made)
            else:
                score = _score_other(meld, tricks, save, self.conceded)
            self.scores.append(int(score))
        self.phase = DONE

    def team_tricks(self) -> list[int]:
        """Trick points per side as the records count them (three-hand: the bidder's
        discarded counters included)."""
        out = list(self.trick_points)
        if self.bidder >= 0 and not self.conceded:
            out[self.tr.side(self.bidder)] += self.discard_points
        return out

    def returns(self) -> list[float]:
        """Each seat's side's score for the hand (0 until it is over)."""
        if self.phase != DONE:
            return [0.0] * self.tr.players
        return [float(self.scores[self.tr.side(s)]) for s in range(self.tr.players)]


__all__ = [
    "BID_ACTION",
    "CHANCE",
    "CONCEDE_ACTION",
    "MAX_BID_STEPS",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "PLAY_ON_ACTION",
    "TERMINAL",
    "TRUMP_ACTION",
    "Table",
    "TableRules",
    "action_name",
    "bid_action",
    "table_rules",
]
