"""Double-dummy columns for a block of simulated hands (``run --dd``).

For every hand the position where trick play starts is rebuilt and solved exactly
(:mod:`pinochle_sim.solver.kernel`), as ``solve --seed S --hand N`` does for one hand
(:mod:`pinochle_sim.runs.solve`):

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
  card by card, so each deal is played again by the engine with its trace on (a few
  microseconds, against milliseconds for the solve) and the play-out of the last 12 tricks is
  read from the trace. There is no bid: ``dd_points_0`` and ``dd_points_1`` are each seat's trick
  points when the stock phase is played as the bots played it and the play-out perfectly (raw,
  last trick included, before the rounding to tens; compare ``tricks_raw_0/1``).

The columns are a pure function of (seed, hand range, rules, policies, dealer, fixed cards):
:func:`dd_part` computes them for any range without a run folder, so a worker can compute one
part. Inside :func:`dd_block` chunks of a few hands go to a thread pool, one solver table per
thread (the table only changes the speed: values are exact whatever its size or contents).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import numba
import numpy as np

from pinochle_sim.core.cards import encode_hand, parse_cards
from pinochle_sim.core.deal import no_constraints
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import add_card, remove_card
from pinochle_sim.engines import EngineInputs
from pinochle_sim.engines.two_hand.kernel import (
    SCRATCH2_SIZE,
    TRACE2_SIZE,
    TT_TRICKS,
    TW,
    TW_CARD1,
    TW_CARD2,
    TW_LEADER,
    TW_POINTS,
    TW_WINNER,
    _play_deal,
)
from pinochle_sim.engines.two_hand.layout import D_RAW, D_TRUMP
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.rules.arrays import RA_HAND_SIZE, RA_LAST, RA_POINTS, RA_SAVE
from pinochle_sim.runs.simulate import engine_inputs, play_hands_array
from pinochle_sim.runs.warmup import Notify, kernel_state
from pinochle_sim.solver.kernel import dd_solve, new_table

AUCTION_DD = ("dd_points", "dd_made")
TWO_HAND_DD = ("dd_points_0", "dd_points_1")

TABLE_BITS = {2: 16, 3: 19, 4: 19}
"""Solver table buckets (log2) per thread, by seats: 2**19 buckets are 32 MB. Two-hand
play-outs are small searches; 2**21 (the ``solve`` default, 128 MB) per thread would crowd the
memory of a many-core machine for a few percent fewer nodes."""

SECONDS_PER_DEAL = {2: 0.03, 3: 120.0, 4: 3.0}
"""Measured mean solve time of one deal on one thread (2-core machine shared with other jobs,
Dec 2026; solver of commit eb123c6): two-hand play-outs 0.003-0.07 s; partnership 0.9-7.7 s
over 4 deals (the solver notes a median of 0.5 s on an idle machine); three-hand (16 tricks,
one seat against two) 1.5-460 s over 4 deals. The estimate before a ``--dd`` run uses these.
In the study runs (``experiments/solver_studies.py``) 100 partnership deals took 40 minutes on
one thread that got about a sixth of a core: some 3.7 s of CPU a deal. The estimate assumes the
thread gets a whole core; on a machine shared with other work it is a lower bound."""

CHUNK = {2: 64, 3: 1, 4: 2}
"""Hands per chunk handed to a thread (progress is reported per chunk)."""

# Slots of the auction kernel's column-index array (-1: the ruleset has no such column).
X_BIDDER = 0
X_TRUMP = 1
X_BID = 2
X_DEALT = 3  # 4 slots, one per seat
X_TO_BIDDER = 7  # passed_to_bidder
X_TO_PARTNER = 8  # passed_to_partner
X_WIDOW = 9
X_DISCARDS = 10
X_DISCARD_POINTS = 11
X_TEAM_MELD = 12  # 4 slots, one per side
X_SIZE = 16


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
    rec: np.ndarray, xi: np.ndarray, players: int, partners: bool, out: np.ndarray
) -> None:
    """``out[:, i]``: the start-of-play hands of every record (for checks)."""
    hands = np.zeros(4, dtype=np.int64)
    for i in range(rec.shape[1]):
        _start_hands(rec, xi, players, partners, i, hands)
        out[:, i] = hands


@jit(entry=True)
def _dd_auction(
    rec: np.ndarray, xi: np.ndarray, ra: np.ndarray, players: int, partners: bool, lo: int,
    hi: int, tt: np.ndarray, res: np.ndarray,
) -> None:  # fmt: skip
    """``res[:, i]`` = (dd_points, dd_made) of record column ``i`` for ``lo <= i < hi``."""
    hands = np.zeros(4, dtype=np.int64)
    for i in range(lo, hi):
        bidder = rec[xi[X_BIDDER], i]
        trump = rec[xi[X_TRUMP], i]
        mask = _start_hands(rec, xi, players, partners, i, hands)
        side = bidder % 2 if partners else bidder
        v = dd_solve(hands[0], hands[1], hands[2], hands[3], bidder, 0, trump, ra, mask, tt)
        extra = _col(rec, xi, X_DISCARD_POINTS, i)
        meld = rec[xi[X_TEAM_MELD + side], i]
        saved = not (ra[RA_SAVE] != 0 and v == 0)  # only points won in play save the hand
        res[0, i] = v + extra
        res[1, i] = saved and meld + v + extra >= rec[xi[X_BID], i]


@jit(entry=True)
def _dd_two_hand(
    ra: np.ndarray, ma: np.ndarray, ca: np.ndarray, pp: np.ndarray, bundle: object, seed: int,
    fx: np.ndarray, start: int, lo: int, hi: int, fixed_dealer: int, ncol: int, tt: np.ndarray,
    res: np.ndarray,
) -> None:  # fmt: skip
    """``res[:, i]`` for deal ``start + i``, ``lo <= i < hi``: (dd_points_0, dd_points_1, the
    replayed tricks_raw_0, tricks_raw_1), the last two to check the replay against the record."""
    out = np.zeros((ncol, 1), dtype=np.int64)
    st = np.zeros(SCRATCH2_SIZE, dtype=np.int64)
    rs = np.zeros(2, dtype=np.uint64)
    rm = np.zeros(2, dtype=np.uint64)
    trace = np.zeros(TRACE2_SIZE, dtype=np.int64)
    n_play = ra[RA_HAND_SIZE]
    n_stock = 24 - n_play
    for i in range(lo, hi):
        _play_deal(
            bundle, ra, ma, ca, pp, seed, fx, start + i, fixed_dealer, out, 0, st, rs, rm, trace,
            True,
        )  # fmt: skip
        trump = out[D_TRUMP, 0]
        raw0 = 0
        raw1 = 0
        for t in range(n_stock):
            b = TT_TRICKS + t * TW
            if trace[b + TW_WINNER] == 0:
                raw0 += trace[b + TW_POINTS]
            else:
                raw1 += trace[b + TW_POINTS]
        h0 = 0
        h1 = 0
        left = ra[RA_LAST]
        for t in range(n_stock, n_stock + n_play):
            b = TT_TRICKS + t * TW
            first = trace[b + TW_CARD1] >> 1
            second = trace[b + TW_CARD2] >> 1
            left += ra[RA_POINTS + first % 6] + ra[RA_POINTS + second % 6]
            if trace[b + TW_LEADER] == 0:
                h0 = add_card(h0, first)
                h1 = add_card(h1, second)
            else:
                h1 = add_card(h1, first)
                h0 = add_card(h0, second)
        leader = trace[TT_TRICKS + n_stock * TW + TW_LEADER]
        v0 = dd_solve(h0, h1, 0, 0, leader, 0, trump, ra, 1, tt)
        res[0, i] = raw0 + v0
        res[1, i] = raw1 + left - v0
        res[2, i] = out[D_RAW, 0]
        res[3, i] = out[D_RAW + 1, 0]


def dd_names(inputs: EngineInputs) -> tuple[str, ...]:
    """The double-dummy columns a ruleset's ``--dd`` records add."""
    return AUCTION_DD if inputs.engine.has_auction else TWO_HAND_DD


def estimate_seconds(inputs: EngineInputs, deals: int, n_threads: int) -> float:
    """About how long solving ``deals`` deals takes on ``n_threads`` threads."""
    per = SECONDS_PER_DEAL.get(inputs.rules.players, 3.0) * (inputs.rules.hand_size / 12) ** 2
    return deals * per / max(1, n_threads)


_local = threading.local()


def _table(bits: int) -> np.ndarray:
    """This thread's solver table of ``2**bits`` buckets (made once per thread)."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = {}
    if bits not in tables:
        tables[bits] = new_table(bits)
    return tables[bits]


def _index(inputs: EngineInputs) -> np.ndarray:
    ix = inputs.layout.index
    r = inputs.rules
    xi = np.full(X_SIZE, -1, dtype=np.int64)
    xi[X_BIDDER] = ix["bidder"]
    xi[X_TRUMP] = ix["trump"]
    xi[X_BID] = ix["bid"]
    for p in range(r.players):
        xi[X_DEALT + p] = ix[f"dealt_{p}"]
    for slot, name in (
        (X_TO_BIDDER, "passed_to_bidder"),
        (X_TO_PARTNER, "passed_to_partner"),
        (X_WIDOW, "widow"),
        (X_DISCARDS, "discards"),
        (X_DISCARD_POINTS, "discard_points"),
    ):
        xi[slot] = ix.get(name, -1)
    for k in range(r.teams):
        xi[X_TEAM_MELD + k] = ix[f"team_meld_{k}"]
    return xi


def start_hands(inputs: EngineInputs, rec: np.ndarray) -> np.ndarray:
    """``[seat, hand]``: each seat's packed hand where trick play starts, rebuilt from the
    records of an auction preset (what :func:`dd_block` solves)."""
    if not inputs.engine.has_auction:
        raise ValueError("two-hand play-out hands are not in the records (see the docstring)")
    out = np.zeros((4, rec.shape[1]), dtype=np.int64)
    r = inputs.rules
    _start_block(np.ascontiguousarray(rec), _index(inputs), r.players, r.partnerships, out)
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
    n = rec.shape[1]
    players = r.players
    bits = TABLE_BITS.get(players, 19)
    chunk = CHUNK.get(players, 2)
    two = not inputs.engine.has_auction
    res = np.zeros((4 if two else 2, n), dtype=np.int64)
    if two:
        args = inputs.kernel_args()
        fx_ = no_constraints() if fx is None else fx
        d = -1 if dealer is None else dealer
        ncol = inputs.layout.ncol

        def work(lo: int) -> int:
            hi = min(n, lo + chunk)
            _dd_two_hand(*args, seed, fx_, start, lo, hi, d, ncol, _table(bits), res)
            return hi - lo
    else:
        xi = _index(inputs)
        rec_c = np.ascontiguousarray(rec)

        def work(lo: int) -> int:
            hi = min(n, lo + chunk)
            _dd_auction(rec_c, xi, inputs.ra, players, r.partnerships, lo, hi, _table(bits), res)
            return hi - lo

    starts = range(0, n, chunk)
    workers = max(1, min(numba.get_num_threads(), len(starts)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for fut in as_completed([pool.submit(work, lo) for lo in starts]):
            k = fut.result()
            if progress:
                progress(k)
    if two:
        ix = inputs.layout.index
        for p in range(2):
            if not np.array_equal(res[2 + p], rec[ix[f"tricks_raw_{p}"]]):
                raise RuntimeError(
                    "the two-hand replay for the double-dummy columns differs from the records "
                    "(were they made with other policies, dealer or fixed cards?)"
                )
        return res[:2]
    return res


WARM_COMPILE_SECONDS = 90.0
"""About how long a cold compile of the solver and the dd kernels takes (2-core machine)."""


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


def _warm_record(inputs: EngineInputs) -> np.ndarray:
    """One auction record whose solve is immediate (:data:`_WARM_HANDS`)."""
    ix = inputs.layout.index
    rec = np.zeros((inputs.layout.ncol, 1), dtype=np.int64)
    for p, text in enumerate(_WARM_HANDS[inputs.rules.players]):
        rec[ix[f"dealt_{p}"], 0] = encode_hand(parse_cards(text))
    rec[ix["bid"], 0] = inputs.rules.min_bid
    return rec


def warm_up(inputs: EngineInputs, notify: Notify | None = None) -> float:
    """Compile (or load) the solver and the dd kernel for these inputs before the clock starts,
    announcing a cold compile to ``notify``; returns the seconds it took."""
    two = not inputs.engine.has_auction
    if two:
        rec = play_hands_array(inputs, 0, 0, 1)
        args = (*inputs.kernel_args(), 0, no_constraints(), 0, 0, 1, -1, inputs.layout.ncol)
        state = kernel_state(_dd_two_hand, (*args, new_table(4), np.zeros((4, 1), np.int64)))
    else:
        rec = _warm_record(inputs)
        r = inputs.rules
        args = (rec, _index(inputs), inputs.ra, r.players, r.partnerships, 0, 1)
        state = kernel_state(_dd_auction, (*args, new_table(4), np.zeros((2, 1), np.int64)))
    if state == "compiled":
        return 0.0
    what = f"the double-dummy solver for {inputs.engine.name} hands"
    if state == "cold" and notify is not None:
        notify.compiling(what, WARM_COMPILE_SECONDS)
    t0 = time.perf_counter()
    dd_block(inputs, 0, 0, rec)
    seconds = time.perf_counter() - t0
    if notify is not None and state in ("cold", "unknown"):
        notify.compiled(what, seconds)
    return seconds


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
