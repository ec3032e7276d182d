"""One hand end to end, and the batch kernel over a range of hand indices.

``_play_hand`` deals, runs the auction, names trump, passes, melds, lets the bidder concede a
hopeless bid, plays every trick and scores, writing one row of the output columns (and, when
asked, a move-by-move trace for ``pinochle-sim show``). ``_play_range`` runs it over chunks of
hand indices in parallel (``prange``); every hand draws only from its own streams, so the
records do not depend on thread count or chunk size.

Output columns are rows of one int64 array ``out[column, hand]`` named by :data:`COLUMNS`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ._jit import jit, pjit
from .auction import MAX_CALLS, _auction
from .deal import _deal
from .meld import _meld
from .passing import _exchange
from .policies.bid import _bid_limit, count_aces
from .policies.play import _choose_play
from .policies.slots import CONCEDE_CONCEDE, PP_CONCEDE
from .rng import STREAM_PASS, STREAM_PLAY, stream_init
from .rules.arrays import (
    RA_FOLLOW,
    RA_HAND_SIZE,
    RA_HEAD,
    RA_LAST,
    RA_PARTNERS,
    RA_PASS,
    RA_PLAYERS,
    RA_POINTS,
    RA_SAVE,
    RA_THROW_IN,
    RA_TOTAL,
    RA_TRUMP,
    RA_WIDOW,
)
from .scoring import _score_sides
from .tricks import add_card, beaters, legal_mask, remove_card, suit_len

ENGINE_VERSION = 1
"""Bumped whenever the engine or a policy changes the records a seed produces."""
SUIT_LETTERS = "shdc"
COLUMNS: tuple[str, ...] = (
    ("hand", "dealer", "bidder", "bid", "trump", "stuck", "conceded", "made")
    + tuple(f"dealt_{p}" for p in range(4))
    + tuple(f"meld_{p}_{s}" for p in range(4) for s in SUIT_LETTERS)
    + tuple(f"len_{p}_{s}" for p in range(4) for s in SUIT_LETTERS)
    + tuple(f"aces_{p}" for p in range(4))
    + tuple(f"meld_{p}" for p in range(4))
    + ("passed_to_bidder", "passed_to_partner", "n_calls", "high_bid_0", "high_bid_1")
    + ("team_meld_0", "team_meld_1", "team_tricks_0", "team_tricks_1")
    + ("counters_0", "counters_1", "tricks_won_0", "tricks_won_1", "score_0", "score_1")
)
"""Names of the engine's output rows, in order (documented in :mod:`pinochle_sim.records`)."""
COL = {name: i for i, name in enumerate(COLUMNS)}
NCOL = len(COLUMNS)
C_HAND, C_DEALER, C_BIDDER, C_BID, C_TRUMP, C_STUCK, C_CONCEDED, C_MADE = range(8)
C_DEALT = COL["dealt_0"]
C_MELD_PRE = COL["meld_0_s"]
C_LEN = COL["len_0_s"]
C_ACES = COL["aces_0"]
C_MELD = COL["meld_0"]
C_PASSED_TO_BIDDER = COL["passed_to_bidder"]
C_PASSED_TO_PARTNER = COL["passed_to_partner"]
C_N_CALLS = COL["n_calls"]
C_HIGH_BID = COL["high_bid_0"]
C_TEAM_MELD = COL["team_meld_0"]
C_TEAM_TRICKS = COL["team_tricks_0"]
C_COUNTERS = COL["counters_0"]
C_TRICKS_WON = COL["tricks_won_0"]
C_SCORE = COL["score_0"]

# Trace layout (int64 array, only written when tracing):
T_NCALLS = 0  # number of auction calls
T_CALLS = 1  # MAX_CALLS pairs (seat, bid or -1 for pass)
T_HANDS = T_CALLS + 2 * MAX_CALLS  # 4 packed hands after passing
T_NTRICKS = T_HANDS + 4  # number of tricks played
T_TRICKS = T_NTRICKS + 1  # per trick TRICK_WIDTH values:
TRICK_WIDTH = 8  # leader, 4 faces in play order, winner, points (incl. last-trick bonus), spare
TRACE_SIZE = T_TRICKS + 16 * TRICK_WIDTH

SCRATCH_SIZE = 48 + 4 + 16 + 4 + 4 + 2 * MAX_CALLS
"""deck, hands, melds, limits, trumps, calls."""


@jit
def _play_tricks(
    hands: np.ndarray,
    bidder: int,
    trump: int,
    ra: np.ndarray,
    pp: np.ndarray,
    rs: np.ndarray,
    team: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> None:
    """Play out every trick from the bidder's lead; adds to ``team`` = [tricks0, tricks1,
    counters0, counters1, won0, won1]."""
    players = ra[RA_PLAYERS]
    n_tricks = ra[RA_HAND_SIZE]
    points = ra[RA_POINTS : RA_POINTS + 6]
    follow = ra[RA_FOLLOW] != 0
    must_trump = ra[RA_TRUMP] != 0
    head = ra[RA_HEAD]
    partners = ra[RA_PARTNERS] != 0
    played = 0
    leader = bidder
    for t in range(n_tricks):
        led = -1
        winner = -1
        winner_seat = -1
        pts = 0
        counters = 0
        seat = leader
        for k in range(players):
            legal = legal_mask(hands[seat] & 0xFFFFFF, led, winner, trump, follow, must_trump, head)
            f = _choose_play(
                hands[seat],
                legal,
                played,
                k,
                winner,
                winner_seat,
                seat,
                bidder,
                trump,
                players,
                partners,
                points,
                pp,
                rs,
            )
            hands[seat] = remove_card(hands[seat], f)
            played = add_card(played, f)
            pts += points[f % 6]
            counters += points[f % 6] > 0
            if k == 0:
                led = f // 6
                winner = f
                winner_seat = seat
            elif (beaters(winner, trump) >> f) & 1:
                winner = f
                winner_seat = seat
            if tracing:
                trace[T_TRICKS + t * TRICK_WIDTH + 1 + k] = f
            seat = seat + 1 if seat + 1 < players else 0
        if t == n_tricks - 1:
            pts += ra[RA_LAST]
        side = winner_seat % 2
        team[side] += pts
        team[2 + side] += counters
        team[4 + side] += 1
        if tracing:
            base = T_TRICKS + t * TRICK_WIDTH
            trace[base] = leader
            trace[base + 5] = winner_seat
            trace[base + 6] = pts
            trace[T_NTRICKS] = t + 1
        leader = winner_seat


@jit
def _play_hand(
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    seed: int,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    row: int,
    scratch: np.ndarray,
    rs: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> None:
    """Play hand ``h`` of ``seed`` into column row ``row`` of ``out``."""
    players = ra[RA_PLAYERS]
    deck = scratch[0:48]
    hands = scratch[48:52]
    melds = scratch[52:68]
    limits = scratch[68:72]
    trumps = scratch[72:76]
    calls = scratch[76 : 76 + 2 * MAX_CALLS]
    dealer = h % players if fixed_dealer < 0 else fixed_dealer
    _deal(seed, h, players, ra[RA_HAND_SIZE], ra[RA_WIDOW], deck, rs, hands)
    out[C_HAND, row] = h
    out[C_DEALER, row] = dealer
    for p in range(players):
        out[C_DEALT + p, row] = hands[p]
        out[C_ACES + p, row] = count_aces(hands[p])
        for s in range(4):
            melds[4 * p + s] = _meld(hands[p], s, ma)
            out[C_MELD_PRE + 4 * p + s, row] = melds[4 * p + s]
            out[C_LEN + 4 * p + s, row] = suit_len(hands[p], s)
        limits[p], trumps[p] = _bid_limit(hands[p], melds[4 * p : 4 * p + 4], ra, pp)
    bidder, bid, stuck, n_calls = _auction(dealer, players, limits, ra, pp, calls)
    trump = trumps[bidder]
    high0 = 0
    high1 = 0
    for i in range(n_calls):
        if calls[2 * i] % 2 == 0:
            high0 = max(high0, calls[2 * i + 1])
        else:
            high1 = max(high1, calls[2 * i + 1])
    out[C_BIDDER, row] = bidder
    out[C_BID, row] = bid
    out[C_TRUMP, row] = trump
    out[C_STUCK, row] = stuck
    out[C_N_CALLS, row] = n_calls
    out[C_HIGH_BID, row] = high0
    out[C_HIGH_BID + 1, row] = high1
    to_bidder = 0
    to_partner = 0
    if ra[RA_PASS] > 0:
        stream_init(rs, seed, h, STREAM_PASS)
        to_bidder, to_partner = _exchange(hands, bidder, trump, ra[RA_PASS], ma, pp, rs)
    out[C_PASSED_TO_BIDDER, row] = to_bidder
    out[C_PASSED_TO_PARTNER, row] = to_partner
    team_meld0 = 0
    team_meld1 = 0
    for p in range(players):
        m = _meld(hands[p], trump, ma)
        out[C_MELD + p, row] = m
        if p % 2 == 0:
            team_meld0 += m
        else:
            team_meld1 += m
    if tracing:
        trace[T_NCALLS] = n_calls
        for i in range(2 * n_calls):
            trace[T_CALLS + i] = calls[i]
        for p in range(players):
            trace[T_HANDS + p] = hands[p]
        trace[T_NTRICKS] = 0
    bteam = bidder % 2
    meld_bid = team_meld0 if bteam == 0 else team_meld1
    meld_other = team_meld1 if bteam == 0 else team_meld0
    hopeless = bid - meld_bid > ra[RA_TOTAL]
    conceded = ra[RA_THROW_IN] != 0 and hopeless and pp[PP_CONCEDE] == CONCEDE_CONCEDE
    t0 = 0
    t1 = 0
    c0 = 0
    c1 = 0
    w0 = 0
    w1 = 0
    if not conceded:
        stream_init(rs, seed, h, STREAM_PLAY)
        acc = scratch[68:74]  # limits and trumps are no longer needed
        for i in range(6):
            acc[i] = 0
        _play_tricks(hands, bidder, trump, ra, pp, rs, acc, trace, tracing)
        t0, t1, c0, c1, w0, w1 = acc[0], acc[1], acc[2], acc[3], acc[4], acc[5]
    tricks_bid = t0 if bteam == 0 else t1
    tricks_other = t1 if bteam == 0 else t0
    s_bid, s_other, made = _score_sides(
        meld_bid, meld_other, tricks_bid, tricks_other, bid, ra[RA_SAVE] != 0, conceded
    )
    out[C_CONCEDED, row] = conceded
    out[C_MADE, row] = made
    out[C_TEAM_MELD, row] = team_meld0
    out[C_TEAM_MELD + 1, row] = team_meld1
    out[C_TEAM_TRICKS, row] = t0
    out[C_TEAM_TRICKS + 1, row] = t1
    out[C_COUNTERS, row] = c0
    out[C_COUNTERS + 1, row] = c1
    out[C_TRICKS_WON, row] = w0
    out[C_TRICKS_WON + 1, row] = w1
    out[C_SCORE + bteam, row] = s_bid
    out[C_SCORE + 1 - bteam, row] = s_other


@pjit
def _play_range(
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    seed: int,
    start: int,
    n: int,
    chunk: int,
    fixed_dealer: int,
    out: np.ndarray,
) -> None:
    """Play hands ``start .. start+n-1`` into ``out[:, 0:n]``, chunks in parallel.

    Each chunk works on its own copies of the rule, meld and policy arrays and its own output
    buffer: arrays shared between threads would have their reference counts bumped atomically
    on every call, and that cache line would bounce between the cores.
    """
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        lo = c * chunk
        hi = min(n, lo + chunk)
        ra_l = ra.copy()
        ma_l = ma.copy()
        pp_l = pp.copy()
        buf = np.empty((out.shape[0], hi - lo), dtype=np.int64)
        scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
        rs = np.empty(2, dtype=np.uint64)
        trace = np.empty(1, dtype=np.int64)
        for i in range(lo, hi):
            _play_hand(
                ra_l,
                ma_l,
                pp_l,
                seed,
                start + i,
                fixed_dealer,
                buf,
                i - lo,
                scratch,
                rs,
                trace,
                False,
            )
        out[:, lo:hi] = buf


@jit
def _trace_one(
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    seed: int,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    trace: np.ndarray,
) -> None:
    """Play one hand with tracing on (``out`` has one column)."""
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    _play_hand(ra, ma, pp, seed, h, fixed_dealer, out, 0, scratch, rs, trace, True)
