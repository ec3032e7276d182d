"""One hand end to end, and the batch kernel over a range of hand indices.

``_play_hand`` deals, values the hands, runs the auction, names trump, passes (partnerships) or
gives the bidder the widow to discard from (three-hand), melds, lets the bidder concede a hopeless
bid, plays every trick and scores, writing one row of the output columns (and, when asked, a
move-by-move trace for ``pinochle-sim show``). ``_play_chunk`` runs it over a chunk of hand
indices; the driver runs chunks on a thread pool. Every hand draws only from its own streams, so
the records do
not depend on thread count or chunk size.

Output columns are rows of one int64 array ``out[column, hand]`` placed by the ruleset's
:mod:`pinochle_sim.layout` (``lay``). A *side* is a partnership (side = seat % 2) or, without
partners, a single player (side = seat).
"""

from __future__ import annotations

import numpy as np

from ._jit import jit
from .auction import MAX_CALLS, _auction
from .deal import _deal
from .layout import (
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
    layout_for,
)
from .meld import _meld
from .passing import _add_all, _exchange, _remove_all
from .policies.bid import _bid_limit, count_aces
from .policies.choose_play import (
    CAPS_NONE,
    PLAY_BITS,
    PLAY_MASK,
    _learn,
    _play_card,
    counts_cards,
    play_settings,
)
from .policies.pass_ import _discards
from .policies.play import pack_points
from .policies.slots import CONCEDE_CONCEDE, PP_CONCEDE
from .rng import STREAM_DISCARD, STREAM_PASS, STREAM_PLAY, stream_init
from .rules import PRESETS
from .rules.arrays import (
    RA_DISCARD,
    RA_DISCARDS_COUNT,
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
from .scoring import _score_bidding, _score_other
from .tricks import add_card, beaters, legal_mask, remove_card, suit_len

ENGINE_VERSION = 1
"""Bumped whenever the engine or a policy changes the records a seed produces."""

_PARTNERSHIP_LAYOUT = layout_for(PRESETS["partnership"])
COLUMNS: tuple[str, ...] = _PARTNERSHIP_LAYOUT.names
"""Column names of the four-hand partnership presets (other tables: ``layout_for(rules)``)."""
COL = _PARTNERSHIP_LAYOUT.index

# Trace layout (int64 array, only written when tracing):
T_NCALLS = 0  # number of auction calls
T_CALLS = 1  # MAX_CALLS pairs (seat, bid or -1 for pass)
T_HANDS = T_CALLS + 2 * MAX_CALLS  # 4 packed hands after passing / discarding
T_WIDOW = T_HANDS + 4  # packed widow, packed discards
T_NTRICKS = T_WIDOW + 2  # number of tricks played
T_TRICKS = T_NTRICKS + 1  # per trick TRICK_WIDTH values:
TRICK_WIDTH = 8  # leader, 4 faces in play order (unused slots -1), winner, points, spare
TRACE_SIZE = T_TRICKS + 16 * TRICK_WIDTH

# Scratch layout (int64, one per chunk): deck, hands, melds, limits, trumps, calls, side sums.
S_DECK, S_HANDS, S_MELDS, S_LIMITS, S_TRUMPS, S_CALLS = 0, 48, 52, 68, 72, 76
S_SIDES = S_CALLS + 2 * MAX_CALLS  # 16 slots: trick points, counters, tricks won, meld (x4)
SCRATCH_SIZE = S_SIDES + 16


@jit
def _side(seat: int, partners: bool) -> int:
    return seat % 2 if partners else seat


@jit
def _play_tricks(
    hands: np.ndarray,
    bidder: int,
    trump: int,
    ra: np.ndarray,
    pp: np.ndarray,
    rs: np.ndarray,
    sides: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> None:
    """Play out every trick from the bidder's lead; adds to ``sides`` = [trick points x4,
    counters x4, tricks won x4] by side. Each seat plays its own play policy (``pp[seat]``)."""
    players = ra[RA_PLAYERS]
    n_tricks = ra[RA_HAND_SIZE]
    points = ra[RA_POINTS : RA_POINTS + 6]
    follow = ra[RA_FOLLOW] != 0
    must_trump = ra[RA_TRUMP] != 0
    head = ra[RA_HEAD]
    partners = ra[RA_PARTNERS] != 0
    packed = pack_points(points)
    settings = 0
    counting = False
    for p in range(players):
        st = play_settings(pp[p])
        settings |= st << (PLAY_BITS * p)
        counting |= counts_cards(st)
    played = 0
    caps = CAPS_NONE  # what each seat has shown about its hand (choose_play._learn)
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
            f = _play_card(
                (settings >> (PLAY_BITS * seat)) & PLAY_MASK,
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
                packed,
                caps,
                led,
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
            else:
                if counting:
                    caps = _learn(caps, seat, f, led, winner, trump, head)
                if (beaters(winner, trump) >> f) & 1:
                    winner = f
                    winner_seat = seat
            if tracing:
                trace[T_TRICKS + t * TRICK_WIDTH + 1 + k] = f
            seat = seat + 1 if seat + 1 < players else 0
        if t == n_tricks - 1:
            pts += ra[RA_LAST]
        side = _side(winner_seat, partners)
        sides[side] += pts
        sides[4 + side] += counters
        sides[8 + side] += 1
        if tracing:
            base = T_TRICKS + t * TRICK_WIDTH
            trace[base] = leader
            for k in range(players, 4):
                trace[base + 1 + k] = -1
            trace[base + 5] = winner_seat
            trace[base + 6] = pts
            trace[T_NTRICKS] = t + 1
        leader = winner_seat


@jit
def _value_hands(
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
    players = ra[RA_PLAYERS]
    for p in range(players):
        out[lay[L_DEALT] + p, row] = hands[p]
        out[lay[L_ACES] + p, row] = count_aces(hands[p])
        melds = scratch[S_MELDS + 4 * p : S_MELDS + 4 * p + 4]
        for s in range(4):
            melds[s] = _meld(hands[p], s, ma)
            out[lay[L_MELD_PRE] + 4 * p + s, row] = melds[s]
            out[lay[L_LEN] + 4 * p + s, row] = suit_len(hands[p], s)
        position = (p - dealer) % players
        scratch[S_LIMITS + p], scratch[S_TRUMPS + p] = _bid_limit(
            hands[p], melds, position, ra, pp[p]
        )


@jit
def _record_auction(
    calls: np.ndarray, n_calls: int, ra: np.ndarray, out: np.ndarray, row: int, lay: np.ndarray
) -> None:
    """Number of calls and each side's highest bid (0 = never bid)."""
    out[lay[L_N_CALLS], row] = n_calls
    partners = ra[RA_PARTNERS] != 0
    n_sides = 2 if partners else ra[RA_PLAYERS]
    for k in range(n_sides):
        out[lay[L_HIGH_BID] + k, row] = 0
    for i in range(n_calls):
        col = lay[L_HIGH_BID] + _side(calls[2 * i], partners)
        out[col, row] = max(out[col, row], calls[2 * i + 1])


@jit
def _improve_hands(
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
    if lay[L_PASSED] >= 0:
        to_bidder = 0
        to_partner = 0
        if ra[RA_PASS] > 0:
            stream_init(rs, seed, h, STREAM_PASS)
            to_bidder, to_partner = _exchange(hands, bidder, trump, ra[RA_PASS], ma, pp, rs)
        out[lay[L_PASSED], row] = to_bidder
        out[lay[L_PASSED] + 1, row] = to_partner
    if lay[L_WIDOW] < 0:
        return 0
    stream_init(rs, seed, h, STREAM_DISCARD)
    hands[bidder] = _add_all(hands[bidder], widow)
    discards = _discards(hands[bidder], ra[RA_DISCARD], trump, ma, pp[bidder], rs)
    hands[bidder] = _remove_all(hands[bidder], discards)
    points = 0
    if ra[RA_DISCARDS_COUNT]:
        for f in range(24):
            copies = ((discards >> f) & 1) + ((discards >> (24 + f)) & 1)
            points += copies * ra[RA_POINTS + f % 6]
    out[lay[L_WIDOW], row] = widow
    out[lay[L_WIDOW] + 1, row] = discards
    out[lay[L_DISCARD_POINTS], row] = points
    if tracing:
        trace[T_WIDOW] = widow
        trace[T_WIDOW + 1] = discards
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
    """Score every side (RULES.md 8) from ``sides`` (trick points, counters, tricks won, meld);
    returns whether the bidding side made its bid. ``discard_points`` (three-hand) score for the
    bidder and are recorded in its trick points, but do not save it from the save rule."""
    partners = ra[RA_PARTNERS] != 0
    n_sides = 2 if partners else ra[RA_PLAYERS]
    save = ra[RA_SAVE] != 0
    bside = _side(bidder, partners)
    made = False
    for k in range(n_sides):
        meld = sides[12 + k]
        tricks = sides[k]
        if k == bside:
            score, made = _score_bidding(meld, tricks, bid, save, conceded, discard_points)
            tricks += discard_points
        else:
            score = _score_other(meld, tricks, save, conceded)
        out[lay[L_TEAM_MELD] + k, row] = meld
        out[lay[L_TEAM_TRICKS] + k, row] = tricks
        out[lay[L_COUNTERS] + k, row] = sides[4 + k]
        out[lay[L_TRICKS_WON] + k, row] = sides[8 + k]
        out[lay[L_SCORE] + k, row] = score
    return made


@jit
def _play_hand(
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    lay: np.ndarray,
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
    partners = ra[RA_PARTNERS] != 0
    hands = scratch[S_HANDS : S_HANDS + 4]
    calls = scratch[S_CALLS:S_SIDES]
    sides = scratch[S_SIDES : S_SIDES + 16]
    dealer = h % players if fixed_dealer < 0 else fixed_dealer
    widow = _deal(
        seed, h, players, ra[RA_HAND_SIZE], ra[RA_WIDOW], scratch[S_DECK:S_HANDS], rs, hands
    )
    out[C_HAND, row] = h
    out[C_DEALER, row] = dealer
    _value_hands(hands, dealer, ra, ma, pp, scratch, out, row, lay)
    bidder, bid, stuck, n_calls = _auction(
        dealer, players, scratch[S_LIMITS:S_TRUMPS], ra, pp, calls
    )
    trump = scratch[S_TRUMPS + bidder]
    out[C_BIDDER, row] = bidder
    out[C_BID, row] = bid
    out[C_TRUMP, row] = trump
    out[C_STUCK, row] = stuck
    _record_auction(calls, n_calls, ra, out, row, lay)
    if tracing:
        trace[T_NCALLS] = n_calls
        for i in range(2 * n_calls):
            trace[T_CALLS + i] = calls[i]
        trace[T_NTRICKS] = 0
    discard_points = _improve_hands(
        hands, widow, bidder, trump, ra, ma, pp, seed, h, rs, out, row, lay, trace, tracing
    )
    for i in range(16):
        sides[i] = 0
    for p in range(players):
        m = _meld(hands[p], trump, ma)
        out[lay[L_MELD] + p, row] = m
        sides[12 + _side(p, partners)] += m
        if tracing:
            trace[T_HANDS + p] = hands[p]
    bside = _side(bidder, partners)
    hopeless = bid - sides[12 + bside] > ra[RA_TOTAL]
    conceded = ra[RA_THROW_IN] != 0 and hopeless and pp[bidder, PP_CONCEDE] == CONCEDE_CONCEDE
    if not conceded:
        stream_init(rs, seed, h, STREAM_PLAY)
        _play_tricks(hands, bidder, trump, ra, pp, rs, sides, trace, tracing)
    out[C_CONCEDED, row] = conceded
    out[C_MADE, row] = _score_hand(
        bidder, bid, conceded, 0 if conceded else discard_points, ra, sides, out, row, lay
    )


@jit
def _play_chunk(
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    lay: np.ndarray,
    seed: int,
    start: int,
    lo: int,
    hi: int,
    fixed_dealer: int,
    out: np.ndarray,
) -> None:
    """Play hands ``start+lo .. start+hi-1`` into ``out[:, lo:hi]``.

    The run driver (:func:`pinochle_sim.simulate.play_hands_array`) calls this for chunks of a
    range on a thread pool; the kernel releases the GIL. Each call works on its own copies of the
    rule, meld, policy and layout arrays and its own output buffer, so threads never share a
    cache line that is written per hand.
    """
    ra_l = ra.copy()
    ma_l = ma.copy()
    pp_l = pp.copy()
    lay_l = lay.copy()
    buf = np.empty((out.shape[0], hi - lo), dtype=np.int64)
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    for i in range(lo, hi):
        _play_hand(
            ra_l, ma_l, pp_l, lay_l, seed, start + i, fixed_dealer, buf, i - lo, scratch, rs,
            trace, False,
        )  # fmt: skip
    out[:, lo:hi] = buf


@jit
def _trace_one(
    ra: np.ndarray,
    ma: np.ndarray,
    pp: np.ndarray,
    lay: np.ndarray,
    seed: int,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    trace: np.ndarray,
) -> None:
    """Play one hand with tracing on (``out`` has one column)."""
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    _play_hand(ra, ma, pp, lay, seed, h, fixed_dealer, out, 0, scratch, rs, trace, True)
