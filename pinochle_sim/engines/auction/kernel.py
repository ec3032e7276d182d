"""One hand end to end, and the batch kernel over a range of hand indices.

``_play_hand`` deals, values the hands, runs the auction, names trump, passes (partnerships) or
gives the bidder the widow to discard from (three-hand), melds, lets the bidder concede a hopeless
bid, plays every trick and scores, writing one row of the output columns (and, when asked, a
move-by-move trace for ``pinochle-sim show``). ``_play_chunk`` runs it over a chunk of hand
indices; the driver runs chunks on a thread pool. Every hand draws only from its own streams, so
the records do
not depend on thread count or chunk size.

Output columns are rows of one int64 array ``out[column, hand]`` placed by the ruleset's
layout (:mod:`pinochle_sim.engines.auction.layout`, ``lay``). A *side* is a partnership
(side = seat % 2) or, without partners, a single player (side = seat).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.deal import FX_BIDDER, FX_STOP, FX_TRUMP, _deal_fixed
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import STREAM_DISCARD, STREAM_PASS, STREAM_PLAY, stream_init
from pinochle_sim.core.tricks import rank_of, suit_len
from pinochle_sim.engines.auction.bidding import MAX_CALLS, _auction
from pinochle_sim.engines.auction.layout import (
    C_BID,
    C_BIDDER,
    C_CONCEDED,
    C_DEALER,
    C_HAND,
    C_MADE,
    C_STUCK,
    C_TRUMP,
    L_ACES,
    L_COUNTERS,
    L_DEALT,
    L_DISCARD_POINTS,
    L_HIGH_BID,
    L_LEN,
    L_MELD,
    L_MELD_PRE,
    L_N_CALLS,
    L_PASSED,
    L_SCORE,
    L_TEAM_MELD,
    L_TEAM_TRICKS,
    L_TRICKS_WON,
    L_WIDOW,
)
from pinochle_sim.engines.auction.passing import _add_all, _exchange, _remove_all
from pinochle_sim.engines.auction.scoring import _score_bidding, _score_other
from pinochle_sim.engines.game_end import MAX_DEALS, close_deal, grow
from pinochle_sim.engines.trickplay import (
    LOG_SIZE,
    MAX_TRICKS,
    TK_COUNTERS,
    TK_FACES,
    TK_LEADER,
    TK_POINTS,
    TK_WIDTH,
    TK_WINNER,
    play_tricks,
)
from pinochle_sim.policies.bid import count_aces
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.dispatch import (
    bid_limit,
    concedes,
    discards,
    keep_table,
    reads_table,
    work_array,
)
from pinochle_sim.policies.registry import SEATS
from pinochle_sim.policies.slots import PP_BID, PP_CONCEDE, PP_DISCARD
from pinochle_sim.rules.arrays import (
    RA_BIDDER_WINS_TIES,
    RA_DISCARD,
    RA_DISCARDS_COUNT,
    RA_GAME_TARGET,
    RA_HAND_SIZE,
    RA_MIN_BID,
    RA_PARTNERS,
    RA_PASS,
    RA_PLAYERS,
    RA_POINTS,
    RA_SAVE,
    RA_THROW_IN,
    RA_TOTAL,
    RA_WIDOW,
)
from pinochle_sim.rules.meld import _meld, melds_by_trump

# Trace layout (int64 array, only written when tracing):
T_NCALLS = 0  # number of auction calls
T_CALLS = 1  # MAX_CALLS pairs (seat, bid or -1 for pass)
T_HANDS = T_CALLS + 2 * MAX_CALLS  # 4 packed hands after passing / discarding
T_WIDOW = T_HANDS + 4  # packed widow, packed discards
T_NTRICKS = T_WIDOW + 2  # number of tricks played
T_TRICKS = T_NTRICKS + 1  # per trick TRICK_WIDTH values (TR_*):
TRICK_WIDTH = 8
TR_LEADER = 0  # seat that led
TR_FACES = 1  # 4 faces in play order (unused slots -1)
TR_WINNER = 5  # seat that won
TR_POINTS = 6  # points taken (last trick: with the bonus); slot 7 is spare
TRACE_SIZE = T_TRICKS + MAX_TRICKS * TRICK_WIDTH

# Scratch layout (int64, one per chunk).
S_DECK = 0  # 48 faces in deck order
S_HANDS = 48  # 4 packed hands
S_MELDS = 52  # 4 seats x 4 trumps: each seat's meld in every trump (for bidding)
S_LIMITS = 68  # 4 seats: the bidding policy's limit
S_TRUMPS = 72  # 4 seats: the trump each seat would name
S_CALLS = 76  # MAX_CALLS pairs (seat, bid or -1 for a pass)
S_SIDES = S_CALLS + 2 * MAX_CALLS  # 16 slots: per side sums, SD_* families of 4
S_LOG = S_SIDES + 16  # the trick log (engines.trickplay)
SCRATCH_SIZE = S_LOG + LOG_SIZE

# Per-side sums in ``scratch[S_SIDES:]`` (4 slots each, indexed by side).
SD_TRICK_POINTS = 0
SD_COUNTERS = 4
SD_TRICKS_WON = 8
SD_MELD = 12


@jit
def _side(seat: int, partners: bool) -> int:
    return seat % 2 if partners else seat


@jit
def _credit_tricks(
    log: np.ndarray, n_tricks: int, partners: bool, sides: np.ndarray, trace: np.ndarray,
    tracing: bool,
) -> None:  # fmt: skip
    """Credit each logged trick to the side that won it (``sides``: SD_* families), and copy
    the tricks into the trace when tracing."""
    for t in range(n_tricks):
        row = t * TK_WIDTH
        side = _side(log[row + TK_WINNER], partners)
        sides[nonneg(SD_TRICK_POINTS + side)] += log[row + TK_POINTS]
        sides[nonneg(SD_COUNTERS + side)] += log[row + TK_COUNTERS]
        sides[nonneg(SD_TRICKS_WON + side)] += 1
        if tracing:
            base = T_TRICKS + t * TRICK_WIDTH
            trace[base + TR_LEADER] = log[row + TK_LEADER]
            for k in range(4):
                trace[base + TR_FACES + k] = log[row + TK_FACES + k]
            trace[base + TR_WINNER] = log[row + TK_WINNER]
            trace[base + TR_POINTS] = log[row + TK_POINTS]
    if tracing:
        trace[T_NTRICKS] = n_tricks


@jit
def _value_hands(
    bundle: PolicyBundle,
    hands: np.ndarray,
    dealer: int,
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    scratch: np.ndarray,
    out: np.ndarray,
    row: int,
    lay: np.ndarray,
) -> None:
    """Record each dealt hand (cards, aces, suit lengths, meld for every trump) and let the
    bidding policy value it: bid limits and preferred trumps into ``scratch``."""
    r = nonneg(row)
    players = ra[RA_PLAYERS]
    for p in range(players):
        out[nonneg(lay[L_DEALT] + p), r] = hands[p]
        out[nonneg(lay[L_ACES] + p), r] = count_aces(hands[p])
        melds = scratch[S_MELDS + 4 * p : S_MELDS + 4 * p + 4]
        melds[0], melds[1], melds[2], melds[3] = melds_by_trump(hands[p], ma)
        for s in range(4):
            out[nonneg(lay[L_MELD_PRE] + 4 * p + s), r] = melds[s]
            out[nonneg(lay[L_LEN] + 4 * p + s), r] = suit_len(hands[p], s)
        position = p - dealer if p >= dealer else p - dealer + players
        scratch[S_LIMITS + p], scratch[S_TRUMPS + p] = bid_limit(
            bundle, pp[p, PP_BID], hands[p], melds, position, ra, pp[p]
        )


@jit
def _record_auction(
    calls: np.ndarray, n_calls: int, ra: np.ndarray, out: np.ndarray, row: int, lay: np.ndarray
) -> None:
    """Number of calls and each side's highest bid (0 = never bid)."""
    r = nonneg(row)
    out[nonneg(lay[L_N_CALLS]), r] = n_calls
    partners = ra[RA_PARTNERS] != 0
    n_sides = 2 if partners else ra[RA_PLAYERS]
    for k in range(n_sides):
        out[nonneg(lay[L_HIGH_BID] + k), r] = 0
    for i in range(n_calls):
        col = lay[L_HIGH_BID] + _side(calls[2 * i], partners)
        out[nonneg(col), r] = max(out[nonneg(col), r], calls[2 * i + 1])


@jit
def _improve_hands(
    bundle: PolicyBundle,
    hands: np.ndarray,
    widow: int,
    bidder: int,
    trump: int,
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    seed: int,
    h: int,
    rs: np.ndarray,
    out: np.ndarray,
    row: int,
    lay: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> int:
    """The pass between partners, or the widow taken and discards made by the bidder; returns
    the trick points of discarded counters credited to the bidder (0 if none)."""
    r = nonneg(row)
    if lay[L_PASSED] >= 0:
        to_bidder = 0
        to_partner = 0
        if ra[RA_PASS] > 0:
            stream_init(rs, seed, h, STREAM_PASS)
            to_bidder, to_partner = _exchange(bundle, hands, bidder, trump, ra[RA_PASS], ma, pp, rs)
        out[nonneg(lay[L_PASSED]), r] = to_bidder
        out[nonneg(lay[L_PASSED] + 1), r] = to_partner
    if lay[L_WIDOW] < 0:
        return 0
    stream_init(rs, seed, h, STREAM_DISCARD)
    hands[bidder] = _add_all(hands[bidder], widow)
    laid = discards(
        bundle, pp[bidder, PP_DISCARD], hands[bidder], ra[RA_DISCARD], trump, ma, pp[bidder], rs
    )
    hands[bidder] = _remove_all(hands[bidder], laid)
    points = 0
    if ra[RA_DISCARDS_COUNT]:
        for f in range(24):
            copies = ((laid >> f) & 1) + ((laid >> (24 + f)) & 1)
            points += copies * ra[RA_POINTS + rank_of(f)]
    out[nonneg(lay[L_WIDOW]), r] = widow
    out[nonneg(lay[L_WIDOW] + 1), r] = laid
    out[nonneg(lay[L_DISCARD_POINTS]), r] = points
    if tracing:
        trace[T_WIDOW] = widow
        trace[T_WIDOW + 1] = laid
    return points


@jit
def _score_hand(
    bidder: int,
    bid: int,
    conceded: bool,
    discard_points: int,
    ra: np.ndarray,
    sides: np.ndarray,
    out: np.ndarray,
    row: int,
    lay: np.ndarray,
) -> bool:
    """Score every side (docs/rules.md 6) from ``sides`` (trick points, counters, tricks won, meld);
    returns whether the bidding side made its bid. ``discard_points`` (three-hand) score for the
    bidder and are recorded in its trick points, but do not save it from the save rule."""
    r = nonneg(row)
    partners = ra[RA_PARTNERS] != 0
    n_sides = 2 if partners else ra[RA_PLAYERS]
    save = ra[RA_SAVE] != 0
    bside = _side(bidder, partners)
    made = False
    for k in range(n_sides):
        meld = sides[SD_MELD + k]
        tricks = sides[SD_TRICK_POINTS + k]
        if k == bside:
            score, made = _score_bidding(meld, tricks, bid, save, conceded, discard_points)
            tricks += discard_points
        else:
            score = _score_other(meld, tricks, save, conceded)
        out[nonneg(lay[L_TEAM_MELD] + k), r] = meld
        out[nonneg(lay[L_TEAM_TRICKS] + k), r] = tricks
        out[nonneg(lay[L_COUNTERS] + k), r] = sides[SD_COUNTERS + k]
        out[nonneg(lay[L_TRICKS_WON] + k), r] = sides[SD_TRICKS_WON + k]
        out[nonneg(lay[L_SCORE] + k), r] = score
    return made


@jit(borrows=True)
def _play_hand(
    bundle: PolicyBundle,
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    lay: np.ndarray,
    seed: int,
    fx: np.ndarray,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    row: int,
    scratch: np.ndarray,
    rs: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
    work: np.ndarray,
) -> None:
    """Play hand ``h`` of ``seed`` under the deal constraints ``fx`` (:mod:`pinochle_sim.core.deal`)
    into column row ``row`` of ``out`` (``work``: the thread's :mod:`~pinochle_sim.policies.known`
    work array)."""
    r = nonneg(row)
    players = ra[RA_PLAYERS]
    partners = ra[RA_PARTNERS] != 0
    hands = scratch[S_HANDS : S_HANDS + 4]
    calls = scratch[S_CALLS:S_SIDES]
    sides = scratch[S_SIDES : S_SIDES + 16]
    dealer = h % players if fixed_dealer < 0 else fixed_dealer
    widow = _deal_fixed(
        seed, h, players, ra[RA_HAND_SIZE], ra[RA_WIDOW], fx, scratch[S_DECK:S_HANDS], rs, hands
    )
    out[C_HAND, r] = h
    out[C_DEALER, r] = dealer
    _value_hands(bundle, hands, dealer, ra, ma, pp, scratch, out, row, lay)
    bidder, bid, stuck, n_calls = _auction(
        bundle, dealer, players, scratch[S_LIMITS:S_TRUMPS], ra, pp, calls
    )
    trump = scratch[S_TRUMPS + bidder]
    if fx[FX_BIDDER] >= 0:  # a forced contract (the advisor): this seat, this trump, min bid
        bidder = fx[FX_BIDDER]
        trump = fx[FX_TRUMP]
        bid = ra[RA_MIN_BID]
        stuck = False
    out[C_BIDDER, r] = bidder
    out[C_BID, r] = bid
    out[C_TRUMP, r] = trump
    out[C_STUCK, r] = stuck
    _record_auction(calls, n_calls, ra, out, row, lay)
    if tracing:
        trace[T_NCALLS] = n_calls
        for i in range(2 * n_calls):
            trace[T_CALLS + i] = calls[i]
        trace[T_NTRICKS] = 0
    if fx[FX_STOP] != 0:  # the advisor asks only who wins the auction, and how high
        return
    if pp.shape[0] > SEATS:  # policies by role: the bidder's block of rows from here on
        pp = pp[SEATS * (bidder + 1) : SEATS * (bidder + 2)]
    discard_points = _improve_hands(
        bundle, hands, widow, bidder, trump, ra, ma, pp, seed, h, rs, out, row, lay, trace, tracing
    )
    for i in range(16):
        sides[i] = 0
    for p in range(players):
        m = _meld(hands[p], trump, ma)
        out[nonneg(lay[L_MELD] + p), r] = m
        sides[SD_MELD + _side(p, partners)] += m
        if tracing:
            trace[T_HANDS + p] = hands[p]
    bside = _side(bidder, partners)
    hopeless = bid - sides[SD_MELD + bside] > ra[RA_TOTAL]
    conceded = (
        ra[RA_THROW_IN] != 0 and hopeless and concedes(bundle, pp[bidder, PP_CONCEDE], pp[bidder])
    )
    if not conceded:
        if reads_table(bundle):
            passed = lay[L_PASSED] >= 0
            gave = out[nonneg(lay[L_PASSED]), r] if passed else 0
            returned = out[nonneg(lay[L_PASSED] + 1), r] if passed else 0
            widowed = lay[L_WIDOW] >= 0
            laid = out[nonneg(lay[L_WIDOW] + 1), r] if widowed else 0
            keep_table(bundle, work, hands, bidder, trump, ra, ma, gave, returned,
                       widow if widowed else 0, laid)  # fmt: skip
        stream_init(rs, seed, h, STREAM_PLAY)
        log = scratch[S_LOG:SCRATCH_SIZE]
        none_played = np.int64(0)  # an int64, not the literal 0: the trick loop is shared
        play_tricks(bundle, hands, bidder, bidder, trump, none_played, ra, pp, rs, log, work)
        _credit_tricks(log, ra[RA_HAND_SIZE], partners, sides, trace, tracing)
    out[C_CONCEDED, r] = conceded
    out[C_MADE, r] = _score_hand(
        bidder, bid, conceded, 0 if conceded else discard_points, ra, sides, out, row, lay
    )


@jit(entry=True)
def _play_chunk(
    ra: np.ndarray,
    ma: np.ndarray,
    lay: np.ndarray,
    pp: np.ndarray,
    bundle: PolicyBundle,
    seed: int,
    fx: np.ndarray,
    start: int,
    lo: int,
    hi: int,
    fixed_dealer: int,
    out: np.ndarray,
) -> None:
    """Play hands ``start+lo .. start+hi-1`` under the deal constraints ``fx`` into
    ``out[:, lo:hi]``.

    The run driver (:func:`pinochle_sim.runs.simulate.play_hands_array`) calls this for chunks of a
    range on a thread pool; the kernel releases the GIL. Each call works on its own copies of the
    rule, meld, policy and layout arrays and writes its own columns of ``out`` (threads share
    at most the cache line at each end of a chunk's row). No array is assigned by slice here:
    numba's shape-mismatch error for ``out[:, lo:hi] = buf`` alone cost 3.6 s of the first
    compile (it formats the shapes), more than the copy saved.
    """
    ra_l = ra.copy()
    ma_l = ma.copy()
    pp_l = pp.copy()
    lay_l = lay.copy()
    fx_l = fx.copy()
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    work = work_array(bundle)
    for i in range(lo, hi):
        _play_hand(
            bundle, ra_l, ma_l, pp_l, lay_l, seed, fx_l, start + i, fixed_dealer, out, i,
            scratch, rs, trace, False, work,
        )  # fmt: skip


@jit(entry=True)
def _trace_one(
    ra: np.ndarray,
    ma: np.ndarray,
    lay: np.ndarray,
    pp: np.ndarray,
    bundle: PolicyBundle,
    seed: int,
    fx: np.ndarray,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    trace: np.ndarray,
) -> None:
    """Play one hand with tracing on (``out`` has one column)."""
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    work = work_array(bundle)
    _play_hand(
        bundle, ra, ma, pp, lay, seed, fx, h, fixed_dealer, out, 0, scratch, rs, trace, True, work
    )


@jit(entry=True)
def _play_games(ra: np.ndarray, ma: np.ndarray, lay: np.ndarray, pp: np.ndarray,
                bundle: PolicyBundle, seed: int, fx: np.ndarray, start: int, n: int, ncol: int,
                g0: int) -> tuple[np.ndarray, int]:  # fmt: skip
    """Play games ``start .. start+n-1`` to the target (:mod:`pinochle_sim.engines.games`);
    returns (rows buffer, rows used)."""
    players = ra[RA_PLAYERS]
    partners = ra[RA_PARTNERS] != 0
    sides = 2 if partners else players
    buf = np.empty((ncol, 12 * n + 16), dtype=np.int64)
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    totals = np.zeros(4, dtype=np.int64)
    work = work_array(bundle)
    target = ra[RA_GAME_TARGET]
    bidder_wins = ra[RA_BIDDER_WINS_TIES] != 0
    row = 0
    for g in range(start, start + n):
        totals[:] = 0
        w = -1
        for k in range(MAX_DEALS):
            if row == buf.shape[1]:
                buf = grow(buf, row)
            h = g * MAX_DEALS + k
            _play_hand(bundle, ra, ma, pp, lay, seed, fx, h, (g + k) % players, buf, row, scratch,
                       rs, trace, False, work)  # fmt: skip
            bside = _side(buf[C_BIDDER, row], partners)
            w = close_deal(buf, row, g, k, g0, lay[L_SCORE], sides, target, bside, bidder_wins,
                           totals)  # fmt: skip
            row += 1
            if w >= 0:
                break
        if w < 0:
            raise ValueError("a game lasted more than MAX_DEALS deals")
    return buf, row
