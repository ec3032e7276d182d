"""Double-dummy columns for a block of simulated hands (``run --dd``).

For every hand the position where trick play starts is rebuilt and solved exactly
by the solver's batch API (:mod:`pinochle_sim.solver.batch`), as ``solve --seed S --hand N``
does for one hand (:mod:`pinochle_sim.runs.inspect.solve`):

* auction presets: the hands after the pass (partnerships: ``dealt`` plus ``passed_to_bidder``
  minus ``passed_to_partner`` for the bidder; ``dealt`` minus the first plus the second, in that
  order, for its partner) or after the discard
  (three-hand: ``dealt`` plus ``widow`` minus ``discards``), the bidder to lead. All of it comes
  from the record columns, so the engine is not run again. ``dd_points`` is the bidding side's
  trick points under perfect play by every seat (last trick included, three-hand discards
  included, as in ``team_tricks``); ``dd_made`` is the rules' verdict on them (RULES.md section
  8): meld + ``dd_points`` >= bid, and under the save rule the side must take a trick point in
  play. **Conceded hands are solved too**: their ``dd_made`` says whether the bid the bots threw
  in was makeable after all (the bots' own ``made`` is False and ``team_tricks`` 0 there).
* two-hand: the play-out hands depend on the whole stock phase, which the records do not hold
  card by card, so each deal is played again by the engine with its trace on
  (:mod:`pinochle_sim.engines.two_hand.playout`) and the play-out of the last 12 tricks is
  read from the trace. There is no bid: ``dd_points_0`` and ``dd_points_1`` are each seat's trick
  points when the stock phase is played as the bots played it and the play-out perfectly (raw,
  last trick included, before the rounding to tens; compare ``tricks_raw_0/1``).

The columns are a pure function of (seed, hand range, rules, policies, dealer, fixed cards):
:func:`dd_part` computes them for any range without a run folder, so a worker can compute one
part. :func:`dd_block` rebuilds the start of play of a block of records and solves the positions
on every thread, one solver table per thread (the table only changes the speed: values are exact
whatever its size or contents).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pinochle_sim.core.cards import encode_hand, parse_cards
from pinochle_sim.core.deal import no_constraints
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import add_card, remove_card
from pinochle_sim.engines import EngineInputs
from pinochle_sim.engines.two_hand.playout import (
    P_HAND_0,
    P_HAND_1,
    P_LEADER,
    P_LEFT,
    P_RAW_0,
    P_ROWS,
    P_STOCK_0,
    P_TRUMP,
    playout_starts,
)
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.rules.arrays import RA_SAVE
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array
from pinochle_sim.solver.batch import DEFAULT_BITS, solve_block, solve_positions
from pinochle_sim.solver.workspace import new_table

AUCTION_DD = ("dd_points", "dd_made")
TWO_HAND_DD = ("dd_points_0", "dd_points_1")

TABLE_BITS = {2: 16, 3: DEFAULT_BITS, 4: DEFAULT_BITS}
"""Solver table buckets (log2) per thread, by seats. Full deals search large trees whose slowest
deals fill a table: :data:`.batch.DEFAULT_BITS` (2**21, 128 MB; 28% less time than 2**19 over
200 partnership deals), fewer where the machine's memory is short. Two-hand play-outs are small
searches (2**16, 4 MB)."""

SECONDS_PER_DEAL = {2: 0.01, 3: 0.47, 4: 0.17}
"""Mean solve time of one deal of 12 cards a seat on one thread (scaled by the square of the
hand size: three-hand's 15 cards take about 0.74 s), with :data:`TABLE_BITS`: a ``--dd`` run of
10,000 partnership hands took 1,727 CPU seconds on two threads; 200 deals on one thread took
joedog 63.6 s, three-hand 147 s, two-hand 1.3 s (docs/solver.md). The estimate before a
``--dd`` run uses these; on a machine shared with other work it is a lower bound."""

CHUNK = {2: 64, 3: 1, 4: 2}
"""Hands per chunk handed to a thread (progress is reported per chunk)."""

# Slots of the column-index array of :func:`_start_hands` (-1: the ruleset has no such column).
X_BIDDER = 0
X_DEALT = 1  # 4 slots, one per seat
X_TO_BIDDER = 5  # passed_to_bidder
X_TO_PARTNER = 6  # passed_to_partner
X_WIDOW = 7
X_DISCARDS = 8
X_SIZE = 9


@jit
def _add_set(hand: int, cards: int) -> int:
    """``hand`` plus every copy in the packed set ``cards``."""
    m = cards & 0xFFFFFF
    for f in range(24):
        if (m >> f) & 1:
            hand = add_card(hand, f)
            if (cards >> (24 + f)) & 1:
                hand = add_card(hand, f)
    return hand


@jit
def _remove_set(hand: int, cards: int) -> int:
    """``hand`` less every copy in the packed set ``cards`` (all held)."""
    m = cards & 0xFFFFFF
    for f in range(24):
        if (m >> f) & 1:
            hand = remove_card(hand, f)
            if (cards >> (24 + f)) & 1:
                hand = remove_card(hand, f)
    return hand


@jit
def _col(rec: np.ndarray, xi: np.ndarray, slot: int, i: int) -> int:
    return rec[xi[slot], i] if xi[slot] >= 0 else 0


@jit
def _start_hands(
    rec: np.ndarray, xi: np.ndarray, players: int, partners: bool, i: int, hands: np.ndarray
) -> int:
    """The hands of record ``i`` where trick play starts, into ``hands`` (4 slots); returns
    the bidding side's seat mask."""
    bidder = rec[xi[X_BIDDER], i]
    for p in range(4):
        hands[p] = rec[xi[X_DEALT + p], i] if p < players else 0
    if partners:
        mate = (bidder + 2) % 4
        give = _col(rec, xi, X_TO_BIDDER, i)
        back = _col(rec, xi, X_TO_PARTNER, i)
        hands[bidder] = _remove_set(_add_set(hands[bidder], give), back)
        hands[mate] = _add_set(_remove_set(hands[mate], give), back)  # gives, then receives
        return (1 << bidder) | (1 << mate)
    widow = _col(rec, xi, X_WIDOW, i)
    gone = _col(rec, xi, X_DISCARDS, i)
    hands[bidder] = _remove_set(_add_set(hands[bidder], widow), gone)
    return 1 << bidder


@jit(entry=True)
def _start_block(
    rec: np.ndarray, xi: np.ndarray, players: int, partners: bool, out: np.ndarray,
    side: np.ndarray,
) -> None:  # fmt: skip
    """``out[:, i]``: the start-of-play hands of record ``i``; ``side[i]``: the bidding side's
    seat mask."""
    hands = np.zeros(4, dtype=np.int64)
    for i in range(rec.shape[1]):
        side[i] = _start_hands(rec, xi, players, partners, i, hands)
        out[:, i] = hands


def dd_names(inputs: EngineInputs) -> tuple[str, ...]:
    """The double-dummy columns a ruleset's ``--dd`` records add."""
    return AUCTION_DD if inputs.engine.has_auction else TWO_HAND_DD


def estimate_seconds(inputs: EngineInputs, deals: int, n_threads: int) -> float:
    """About how long solving ``deals`` deals takes on ``n_threads`` threads."""
    per = SECONDS_PER_DEAL.get(inputs.rules.players, 3.0) * (inputs.rules.hand_size / 12) ** 2
    return deals * per / max(1, n_threads)


def _index(inputs: EngineInputs) -> np.ndarray:
    ix = inputs.layout.index
    xi = np.full(X_SIZE, -1, dtype=np.int64)
    xi[X_BIDDER] = ix["bidder"]
    for p in range(inputs.rules.players):
        xi[X_DEALT + p] = ix[f"dealt_{p}"]
    for slot, name in (
        (X_TO_BIDDER, "passed_to_bidder"),
        (X_TO_PARTNER, "passed_to_partner"),
        (X_WIDOW, "widow"),
        (X_DISCARDS, "discards"),
    ):
        xi[slot] = ix.get(name, -1)
    return xi


def start_hands(inputs: EngineInputs, rec: np.ndarray) -> np.ndarray:
    """``[seat, hand]``: each seat's packed hand where trick play starts, rebuilt from the
    records of an auction preset (what :func:`dd_block` solves)."""
    if not inputs.engine.has_auction:
        raise ValueError("two-hand play-out hands are not in the records (see the docstring)")
    out = np.zeros((4, rec.shape[1]), dtype=np.int64)
    r = inputs.rules
    side = np.zeros(rec.shape[1], dtype=np.int64)
    _start_block(np.ascontiguousarray(rec), _index(inputs), r.players, r.partnerships, out, side)
    return out[: r.players]


def dd_block(
    inputs: EngineInputs,
    seed: int,
    start: int,
    rec: np.ndarray,
    dealer: int | None = None,
    fx: np.ndarray | None = None,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """The double-dummy columns (:func:`dd_names`, one row each) of the hands ``start ..
    start + n - 1`` whose records are ``rec[column, hand]`` (as the engine wrote them for the
    same ``seed``, ``dealer`` and deal constraints ``fx``). Runs on numba's current thread
    count; ``progress(k)`` is told of every ``k`` hands solved, from the calling thread."""
    r = inputs.rules
    bits = TABLE_BITS.get(r.players, DEFAULT_BITS)
    chunk = CHUNK.get(r.players, 2)
    if not inputs.engine.has_auction:
        return _two_hand(inputs, seed, start, rec, dealer, fx, bits, chunk, progress)
    ix = inputs.layout.index
    hands = np.zeros((4, rec.shape[1]), dtype=np.int64)
    side = np.zeros(rec.shape[1], dtype=np.int64)
    _start_block(np.ascontiguousarray(rec), _index(inputs), r.players, r.partnerships, hands, side)
    bidder = rec[ix["bidder"]]
    v = solve_positions(
        inputs.ra, hands, bidder, rec[ix["trump"]], side, chunk=chunk, bits=bits,
        progress=progress,
    )  # fmt: skip
    extra = rec[ix["discard_points"]] if "discard_points" in ix else 0
    team = bidder % 2 if r.partnerships else bidder
    melds = np.stack([rec[ix[f"team_meld_{k}"]] for k in range(r.teams)])
    meld = melds[team, np.arange(rec.shape[1])]
    saved = ~((inputs.ra[RA_SAVE] != 0) & (v == 0))  # only points won in play save the hand
    points = v + extra
    return np.stack([points, (saved & (meld + points >= rec[ix["bid"]])).astype(np.int64)])


def _two_hand(
    inputs: EngineInputs,
    seed: int,
    start: int,
    rec: np.ndarray,
    dealer: int | None,
    fx: np.ndarray | None,
    bits: int,
    chunk: int,
    progress: Callable[[int], None] | None,
) -> np.ndarray:
    """``dd_points_0/1`` of two-hand deals: the play-outs replayed by the engine, then solved."""
    n = rec.shape[1]
    p = np.zeros((P_ROWS, n), dtype=np.int64)
    fx_ = no_constraints() if fx is None else fx
    d = -1 if dealer is None else dealer
    playout_starts(*inputs.kernel_args(), seed, fx_, start, 0, n, d, inputs.layout.ncol, p)
    ix = inputs.layout.index
    for s in range(2):
        if not np.array_equal(p[P_RAW_0 + s], rec[ix[f"tricks_raw_{s}"]]):
            raise RuntimeError(
                "the two-hand replay for the double-dummy columns differs from the records "
                "(were they made with other policies, dealer or fixed cards?)"
            )
    hands = np.zeros((4, n), dtype=np.int64)
    hands[0] = p[P_HAND_0]
    hands[1] = p[P_HAND_1]
    v0 = solve_positions(
        inputs.ra, hands, p[P_LEADER], p[P_TRUMP], 1, chunk=chunk, bits=bits,
        progress=progress,
    )  # fmt: skip
    return np.stack([p[P_STOCK_0] + v0, p[P_STOCK_0 + 1] + p[P_LEFT] - v0])


def _both(cards: str) -> str:
    return " ".join(f"{c} {c}" for c in cards.split())


_SUIT = {x: " ".join(f"{r}{x}" for r in ("A", "10", "K", "Q", "J", "9")) for x in "SHDC"}
_WARM_HANDS = {
    4: tuple(_both(_SUIT[x]) for x in "SHDC"),
    3: (
        _both(_SUIT["S"] + " AH") + " 10H",
        _both("KH QH JH 9H AD 10D KD") + " 10H",
        _both("QD JD 9D KC QC JC 9C") + " 10C",
    ),
}
"""The warm-up deal: seat 0 holds every trump (spades) and leads, so it takes every trick and
the search proves it at once (three-hand: 15 cards a seat, AC AC 10C left out as the widow)."""


def warm_record(inputs: EngineInputs) -> np.ndarray:
    """One record whose solve is immediate (:data:`_WARM_HANDS`; two-hand: the first deal of
    seed 0, whose play-out is a small search)."""
    if not inputs.engine.has_auction:
        return play_hands_array(inputs, 0, 0, 1)
    ix = inputs.layout.index
    rec = np.zeros((inputs.layout.ncol, 1), dtype=np.int64)
    for p, text in enumerate(_WARM_HANDS[inputs.rules.players]):
        rec[ix[f"dealt_{p}"], 0] = encode_hand(parse_cards(text))
    rec[ix["bid"], 0] = inputs.rules.min_bid
    return rec


def kernel_call(inputs: EngineInputs) -> tuple[Any, tuple[Any, ...]]:
    """(the solver's batch kernel, its arguments for one position): what tells
    whether solving these inputs' hands will compile (the solver is most of that compile)."""
    one = np.zeros(1, dtype=np.int64)
    hands = np.zeros((4, 1), dtype=np.int64)
    return solve_block, (hands, one, one, one, one, inputs.ra, 0, 1, new_table(4), one)


def dd_part(
    seed: int,
    start: int,
    count: int,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    dealer: int | None = None,
) -> dict[str, np.ndarray]:
    """The double-dummy columns of hands ``start .. start + count - 1`` (``{name: array}``):
    the hands are simulated, then solved. A pure function of its arguments (whatever the
    threads), for a worker that computes one part of a run."""
    inputs = engine_inputs(rules, policies)
    rec = play_hands_array(inputs, seed, start, count, dealer=dealer)
    cols = dd_block(inputs, seed, start, rec, dealer)
    return dict(zip(dd_names(inputs), cols, strict=True))
