"""The ``Ruleset``: every rule of a Pinochle variant as data (docs/rules.md section 2).

The engine never asks which preset it plays; it reads these fields (flattened by
:mod:`pinochle_sim.rules.arrays`). A user changes a rule by changing a key, in Python with
``dataclasses.replace`` or in a TOML file (:mod:`pinochle_sim.rules.toml_io`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from pinochle_sim.core.cards import DECK_SIZE, RANKS

HEAD_RULES = ("always", "trump-led", "never")
TRUMP_BY = ("auction", "turn-up")
MELD_TIMING = ("after-pass", "after-tricks")
ROUNDING = ("none", "tens-7up")
ALL_PASS = ("dealer-stuck",)
AROUND_RANKS = ("A", "K", "Q", "J")


class RulesError(ValueError):
    """A ruleset key is unknown or has a bad value; the message names the key."""


@dataclass(frozen=True)
class MeldTable:
    """Point values of every meld (docs/rules.md section 3). A value of 0 means "not a meld".

    Class 1 (runs, marriages, dix), class 2 (pinochles) and class 3 (arounds): a card may serve
    melds of different classes but at most one meld of each class. The scorer takes the best
    legal combination, so a bonus row (``run_extra_king`` ...) only counts where it beats the sum
    of its parts, and ``double_run = 0`` means two runs count as two separate runs.
    """

    name: str = "A"
    run: int = 150
    """A, 10, K, Q, J of trump."""
    run_extra_king: int = 190
    """Run and a second trump king, as one meld (table A only; 0 = no such meld)."""
    run_extra_queen: int = 190
    """Run and a second trump queen, as one meld (table A only; 0 = no such meld)."""
    run_trump_marriage: int = 230
    """Run and a second trump king and queen, as one meld (table A only; 0 = no such meld)."""
    double_run: int = 1500
    """Both runs (10 cards); 0 = not a meld (two runs then count 2 x ``run``)."""
    dix: int = 10
    """Each 9 of trump."""
    trump_marriage: int = 40
    """K + Q of trump (each pair)."""
    marriage: int = 20
    """K + Q of a non-trump suit (each pair)."""
    pinochle: int = 40
    """QS + JD."""
    double_pinochle: int = 300
    """QS QS JD JD as one meld; 0 = not a meld (two pinochles then count 2 x ``pinochle``)."""
    around: tuple[int, int, int, int] = (100, 80, 60, 40)
    """One of each suit of A, K, Q, J (in that order)."""
    eight: tuple[int, int, int, int] = (1000, 800, 600, 400)
    """All eight A, K, Q, J (in that order); 0 = not a meld (two arounds then count twice)."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name == "name":
                if not isinstance(v, str) or not v:
                    raise RulesError("meld.name must be a non-empty string")
            elif f.name in ("around", "eight"):
                if (
                    not isinstance(v, tuple)
                    or len(v) != 4
                    or not all(_is_int(x) and x >= 0 for x in v)
                ):
                    raise RulesError(
                        f"meld.{f.name} must be 4 integers 0..{VALUE_LIMIT:,} (A, K, Q, J)"
                    )
            elif not _is_int(v) or v < 0:
                raise RulesError(f"meld.{f.name} must be an integer 0..{VALUE_LIMIT:,}, got {v!r}")
        if self.run <= 0:
            raise RulesError("meld.run must be positive")


VALUE_LIMIT = 100_000
"""Every point value, bid and count in a ruleset is at most this: the records store bids, meld
and scores as int16 and refuse values that do not fit, and kernels stay far from overflow."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -VALUE_LIMIT <= v <= VALUE_LIMIT


TABLE_A = MeldTable()
TABLE_B = dataclasses.replace(
    TABLE_A, name="B", run_extra_king=0, run_extra_queen=0, run_trump_marriage=0
)
TABLE_C = MeldTable(
    name="C",
    run=15,
    run_extra_king=0,
    run_extra_queen=0,
    run_trump_marriage=0,
    double_run=150,
    dix=1,
    trump_marriage=4,
    marriage=2,
    pinochle=4,
    double_pinochle=30,
    around=(10, 8, 6, 4),
    eight=(100, 80, 60, 40),
)
TABLE_D = MeldTable(
    name="D",
    run_extra_king=0,
    run_extra_queen=0,
    run_trump_marriage=0,
    double_run=0,
    eight=(0, 0, 0, 0),
)
MELD_TABLES = {t.name: t for t in (TABLE_A, TABLE_B, TABLE_C, TABLE_D)}


@dataclass(frozen=True)
class Ruleset:
    """One Pinochle variant; every parameter of docs/rules.md section 2.

    Point values are stored as played: the ``joedog`` preset stores 25, 1, 15 ... and says
    ``scale = 10`` ("every value of ``partnership`` divided by ten") for reports that compare it.
    """

    name: str = "partnership"
    description: str = "Four-hand partnership auction pinochle (cardgames.io rules)"
    source: str = "000_1528aec826b5ed0a.txt"
    players: int = 4
    """2, 3 or 4 seats."""
    partnerships: bool = True
    """Seats i and i+2 are partners (4 players); otherwise each plays for self."""
    hand_size: int = 12
    """Cards dealt to each seat."""
    widow: int = 0
    """Cards dealt to the widow (three-hand: 3, taken by the bidder)."""
    trump_by: str = "auction"
    """``auction``: the auction winner names trump; ``turn-up``: the card after the deal."""
    min_bid: int = 250
    """Opening bid; the dealer is stuck here when all pass."""
    bid_steps: tuple[int, ...] = (10, 20)
    """Allowed raises over the current bid."""
    all_pass: str = "dealer-stuck"
    """What happens when nobody bids: the dealer is stuck at the minimum."""
    pass_cards: int = 4
    """Cards the bidder's partner gives the bidder, then the bidder gives back (0 = no pass)."""
    discard: int = 0
    """Three-hand: cards the bidder discards after taking the widow."""
    discards_count: bool = False
    """Discarded counters score for the bidder at the end of the hand."""
    meld: MeldTable = field(default_factory=lambda: TABLE_A)
    """The meld table (A, B, C, D of docs/rules.md section 3, or custom values)."""
    meld_timing: str = "after-pass"
    """``after-pass``: everyone melds once after passing; ``after-tricks``: two-hand melding."""
    trick_points: tuple[int, int, int, int, int, int] = (0, 0, 0, 10, 10, 10)
    """Card points by rank in the order 9, J, Q, K, 10, A."""
    last_trick: int = 10
    """Bonus for winning the last trick."""
    must_follow: bool = True
    """Must follow the led suit if able."""
    must_trump: bool = True
    """Void in the led suit: must play a trump if able."""
    head_trick: str = "always"
    """Must play a card that beats the winning card: ``always``, ``trump-led`` only, ``never``."""
    stock_phase: bool = False
    """Two-hand: while the stock lasts any card may be played (no follow, trump or head rule)."""
    save_rule: bool = True
    """A side that took no trick points scores nothing for the hand, its meld included."""
    throw_in: bool = True
    """The bidder may concede when bid - bidding side's meld > total trick points."""
    game_target: int = 1500
    """Points that win a game; the bidding side wins ties in the same hand."""
    bidder_wins_ties: bool = True
    """If both sides reach the target in the same hand, the bidding side wins."""
    scale: int = 1
    """Point unit relative to ``partnership`` (10 = every value divided by ten)."""
    rounding: str = "none"
    """Trick-point rounding: ``none`` or ``tens-7up`` (two-hand: units 7-9 up, 0-6 down)."""
    turnup_dix: int = 0
    """Two-hand: points the dealer scores at once when the turned-up trump card is a 9."""

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def total_trick_points(self) -> int:
        """All card points in the deck plus the last-trick bonus (250 in every preset)."""
        return 2 * 4 * sum(self.trick_points) + self.last_trick

    @property
    def teams(self) -> int:
        """Number of scoring sides: 2 with partnerships, else one per player."""
        return 2 if self.partnerships else self.players

    @property
    def stock_size(self) -> int:
        """Cards left after dealing hands and widow (two-hand: 24 = 23 stock + the up-card)."""
        return DECK_SIZE - self.players * self.hand_size - self.widow

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some keys changed (validated)."""
        return dataclasses.replace(self, **changes)


def _check(cond: bool, key: str, msg: str) -> None:
    if not cond:
        raise RulesError(f"{key}: {msg}")


def _validate(r: Ruleset) -> None:
    for f in dataclasses.fields(r):
        v = getattr(r, f.name)
        if f.name in ("name", "description", "source"):
            _check(isinstance(v, str), f.name, f"must be a string, got {v!r}")
        elif f.type in ("bool",):
            _check(isinstance(v, bool), f.name, f"must be true or false, got {v!r}")
        elif f.type == "int":
            _check(_is_int(v), f.name, f"must be an integer within ±{VALUE_LIMIT:,}, got {v!r}")
    _check(bool(r.name), "name", "must not be empty")
    _check(r.players in (2, 3, 4), "players", f"must be 2, 3 or 4, got {r.players}")
    _check(not r.partnerships or r.players == 4, "partnerships", "need exactly 4 players")
    _check(r.hand_size > 0, "hand_size", "must be positive")
    _check(r.widow >= 0, "widow", "must be >= 0")
    _check(
        r.players * r.hand_size + r.widow <= DECK_SIZE,
        "hand_size",
        f"{r.players} x {r.hand_size} cards + widow {r.widow} exceed the 48-card deck",
    )
    _check(r.trump_by in TRUMP_BY, "trump_by", f"must be one of {', '.join(TRUMP_BY)}")
    if r.trump_by == "auction":
        _check(
            r.players * r.hand_size + r.widow == DECK_SIZE,
            "hand_size",
            "an auction game deals the whole deck (players x hand_size + widow = 48)",
        )
        _check(r.min_bid > 0, "min_bid", "must be positive in an auction game")
        _check(
            isinstance(r.bid_steps, tuple)
            and len(r.bid_steps) > 0
            and all(_is_int(s) and s > 0 for s in r.bid_steps),
            "bid_steps",
            "must be a non-empty list of positive integers",
        )
    else:
        _check(r.players == 2, "trump_by", "turn-up trump is only supported with 2 players")
        _check(isinstance(r.bid_steps, tuple), "bid_steps", "must be a list of integers")
    _check(r.all_pass in ALL_PASS, "all_pass", f"must be one of {', '.join(ALL_PASS)}")
    _check(r.pass_cards >= 0, "pass_cards", "must be >= 0")
    _check(r.pass_cards == 0 or r.partnerships, "pass_cards", "passing needs partnerships")
    _check(r.pass_cards <= r.hand_size, "pass_cards", "cannot exceed hand_size")
    _check(r.discard >= 0, "discard", "must be >= 0")
    _check(r.discard == r.widow, "discard", "the bidder discards as many cards as the widow has")
    _check(isinstance(r.meld, MeldTable), "meld", "must be a meld table")
    _check(r.meld_timing in MELD_TIMING, "meld_timing", f"must be one of {', '.join(MELD_TIMING)}")
    _check(
        isinstance(r.trick_points, tuple)
        and len(r.trick_points) == len(RANKS)
        and all(_is_int(p) and 0 <= p <= 1000 for p in r.trick_points),
        "trick_points",
        "must be 6 integers 0..1000 for the ranks 9, J, Q, K, 10, A",
    )
    _check(r.last_trick >= 0, "last_trick", "must be >= 0")
    _check(r.head_trick in HEAD_RULES, "head_trick", f"must be one of {', '.join(HEAD_RULES)}")
    _check(r.game_target > 0, "game_target", "must be positive")
    _check(r.scale > 0, "scale", "must be positive")
    _check(r.rounding in ROUNDING, "rounding", f"must be one of {', '.join(ROUNDING)}")
    _check(r.turnup_dix >= 0, "turnup_dix", "must be >= 0")
