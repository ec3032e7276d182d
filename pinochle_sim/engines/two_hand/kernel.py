"""The two-hand engine (docs/rules.md section 7): one deal end to end, and the batch kernel.

``_play_deal`` deals 12 cards each, turns up the next card for trump (the dealer scores
``turnup_dix`` at once for a 9), then plays the stock phase: any card may be played; the trick
winner may lay down one meld (and show the dix, exchanging it for the face-up card), then draws
the top stock card and the loser the next; after the last stock trick the winner takes the last
stock card and the loser the face-up card. Melds return to the hands and the last 12 tricks are
played with follow / beat-a-trump-lead / trump-if-void. Trick points (plus the last trick) are
rounded to tens (units 7-9 up) and added to the meld.

Cards are tracked one physical copy at a time (:mod:`pinochle_sim.engines.two_hand.table`):
which copies lie on the table and which melds each has served decide what may be melded next.
Columns are the fixed two-hand layout of :mod:`pinochle_sim.engines.two_hand.layout` (``D_*``).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.deal import _deal_fixed
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import STREAM_MELD, STREAM_PLAY, stream_init
from pinochle_sim.core.tricks import add_card, beaters, rank_of, remove_card, suit_len, suit_of
from pinochle_sim.engines.game_end import MAX_DEALS, close_deal, grow
from pinochle_sim.engines.trickplay import (
    EACH_SEAT_BIDS,
    LOG_SIZE,
    TK_COUNTERS,
    TK_FACES,
    TK_LEADER,
    TK_POINTS,
    TK_WIDTH,
    TK_WINNER,
    play_tricks,
)
from pinochle_sim.engines.two_hand.decisions import (
    choose_dix,
    choose_meld,
    meld_params,
    stock_params,
    stock_play,
)
from pinochle_sim.engines.two_hand.layout import (
    D_ACES,
    D_COUNTERS,
    D_DEALER,
    D_DEALT,
    D_DIX,
    D_EXCHANGED,
    D_HAND,
    D_LAST,
    D_LEN,
    D_MELD,
    D_MELD_PRE,
    D_MELDS_LAID,
    D_RAW,
    D_SCORE,
    D_STOCK,
    D_STOCK_TRICKS,
    D_TRICK_POINTS,
    D_TRICK_WINNER,
    D_TRICKS_WON,
    D_TRUMP,
    D_TURNUP,
    D_UP,
    D_WINNER,
)
from pinochle_sim.engines.two_hand.table import (
    CA_CLASS,
    CA_DIX,
    CA_FIELDS,
    CA_FIRST,
    CA_NEED,
    CA_STRIDE,
    CA_VALUE,
    CLASS_SEQUENCE,
    CS_LEVEL,
    CS_OWN,
    CS_SIZE,
    IN_STOCK,
    PLAYED,
    dix_card,
    exchange_dix,
    lay,
    play_copy,
    show_dix,
)
from pinochle_sim.policies.bid import count_aces
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.known import SCRATCH
from pinochle_sim.policies.play import face_points, pack_points
from pinochle_sim.policies.slots import PP_MELD, PP_STOCK
from pinochle_sim.rules.arrays import (
    RA_GAME_TARGET,
    RA_HAND_SIZE,
    RA_PLAYERS,
    RA_POINTS,
    RA_ROUNDING,
    RA_TURNUP_DIX,
    RA_WIDOW,
)
from pinochle_sim.rules.meld import melds_by_trump

# Trace layout (int64, only written when tracing): header, then TW values per trick.
TT_UP = 0  # card id of the turned-up card
TT_TURNUP = 1  # points the dealer scored for a turned-up 9
TT_STOCK = 2  # 24 card ids: the stock in draw order, the up-card last (as dealt)
TT_NTRICKS = TT_STOCK + 24
TT_TRICKS = TT_NTRICKS + 1
TW = 16
(
    TW_LEADER,
    TW_CARD1,
    TW_TABLE1,
    TW_CARD2,
    TW_TABLE2,
    TW_WINNER,
    TW_POINTS,
    TW_MELD,
    TW_MELD_VALUE,
    TW_MELD_CARDS,
    TW_MELD_TABLE,
    TW_DIX,
    TW_EXCHANGED,
    TW_DRAW_WINNER,
    TW_DRAW_LOSER,
) = range(15)
TRACE2_SIZE = TT_TRICKS + 24 * TW

# Per-seat sums in ``st[X_SIDE:]`` (2 slots each, indexed by seat).
XS_MELD = 0  # meld laid (and the turned-up 9)
XS_RAW = 2  # trick points before rounding
XS_COUNTERS = 4  # counters won
XS_TRICKS = 6  # tricks won
XS_STOCK_TRICKS = 8  # stock-phase tricks won
XS_MELDS_LAID = 10  # melds laid (dix not counted)
XS_DIX = 12  # dix shown
XS_SIZE = 14

# Scratch layout (int64, one per chunk).
X_DECK = 0  # 48 faces in deck order
X_DRAW = 48  # card ids in draw order (stock, then the face-up card)
X_HANDS = 96  # 2 packed hands (concealed and table cards alike)
X_SIDE = 98  # XS_SIZE slots: per-seat sums, XS_* families of 2 (indexed by seat)
X_CS = X_SIDE + XS_SIZE  # copy state (engines.two_hand.table)
X_LOG = X_CS + CS_SIZE  # the trick log of the play-out (engines.trickplay)
X_WORK = X_LOG + LOG_SIZE  # the trick loop's work array: SCRATCH words, as without a table
SCRATCH2_SIZE = X_WORK + SCRATCH


@jit
def _round_points(raw: int, rounding: int) -> int:
    """Trick points as scored: ``tens-7up`` rounds units 7-9 up and 0-6 down (87 -> 90,
    126 -> 120, 125 -> 120)."""
    if rounding == 1:
        return (raw + 3) // 10 * 10
    return raw


@jit
def _setup(
    seed: int,
    fx: np.ndarray,
    h: int,
    ra: np.ndarray,
    ma: np.ndarray,
    st: np.ndarray,
    rs: np.ndarray,
    out: np.ndarray,
    row: int,
) -> int:
    """Deal, number the copies, record the dealt hands; returns the up-card's card id."""
    r = nonneg(row)  # the record's column index (unsigned: no wraparound test per store)
    hs = ra[RA_HAND_SIZE]
    deck = st[X_DECK : X_DECK + 48]
    hands = st[X_HANDS : X_HANDS + 2]
    # players and widow from the rule array, not as constants: numba would compile the deal a
    # second time for the literals (2, 0) instead of sharing the auction engine's
    _deal_fixed(seed, h, ra[RA_PLAYERS], hs, ra[RA_WIDOW], fx, deck, rs, hands)
    cs = st[X_CS : X_CS + CS_SIZE]
    cs[:] = 0
    for i in range(48):
        cs[CS_OWN + i] = IN_STOCK
    seen = 0
    up = -1
    n_draw = 48 - 2 * hs
    lo = 0
    hi = 0
    for k in range(48):
        f = deck[k]
        copy = (seen >> f) & 1
        seen |= 1 << f
        i = 2 * f + copy
        if k < 2 * hs:
            cs[CS_OWN + i] = k // hs
        elif k == 2 * hs:
            up = i
            st[X_DRAW + n_draw - 1] = i
        else:
            j = k - 2 * hs - 1
            st[X_DRAW + j] = i
            if j < 12:
                lo |= f << (5 * j)
            else:
                hi |= f << (5 * (j - 12))
    hi |= (up >> 1) << (5 * (n_draw - 1 - 12))
    out[D_STOCK, r] = lo
    out[D_STOCK + 1, r] = hi
    for p in range(2):
        out[D_DEALT + p, r] = hands[p]
        out[D_ACES + p, r] = count_aces(hands[p])
        m0, m1, m2, m3 = melds_by_trump(hands[p], ma)
        out[D_MELD_PRE + 4 * p, r] = m0
        out[D_MELD_PRE + 4 * p + 1, r] = m1
        out[D_MELD_PRE + 4 * p + 2, r] = m2
        out[D_MELD_PRE + 4 * p + 3, r] = m3
        for s in range(4):
            out[D_LEN + 4 * p + s, r] = suit_len(hands[p], s)
    return up


@jit
def _meld_turn(
    bundle: PolicyBundle,
    p: int,
    t: int,
    up: int,
    n_stock: int,
    trump: int,
    ca: np.ndarray,
    policy: int,
    q: tuple,
    cs: np.ndarray,
    st: np.ndarray,
    rs: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> tuple[int, bool]:
    """The winner ``p`` of stock trick ``t`` melds (its meld policy ``policy`` with parameters
    ``q``); returns (the points laid, whether it exchanged the dix for the face-up card)."""
    laid = 0
    hand = st[nonneg(X_HANDS + p)]
    i = choose_meld(bundle, policy, cs, ca, q, p, hand, trump, n_stock - 1 - t, rs)
    base = TT_TRICKS + t * TW
    if i >= 0:
        o = trump * CA_STRIDE + CA_FIRST + CA_FIELDS * i
        used, from_table = lay(cs, p, ca[o + CA_NEED], ca[o + CA_CLASS], ca[o + CA_VALUE])
        laid += ca[o + CA_VALUE]
        st[X_SIDE + XS_MELDS_LAID + p] += 1
        if tracing:
            trace[base + TW_MELD] = i
            trace[base + TW_MELD_VALUE] = ca[o + CA_VALUE]
            trace[base + TW_MELD_CARDS] = used
            trace[base + TW_MELD_TABLE] = from_table
    swapped = False
    d = dix_card(cs, p, trump) if ca[CA_DIX] > 0 else -1
    if d >= 0:
        up_slot = X_DRAW + 2 * n_stock - 1
        # After an exchange the face-up card is a 9, no longer the turned-up trump card.
        up_available = st[up_slot] == up
        show, exchange = choose_dix(bundle, policy, q, st[up_slot] >> 1, rs)
        if show:
            laid += ca[CA_DIX]
            st[X_SIDE + XS_DIX + p] += 1
            show_dix(cs, p, d, ca[CA_DIX])
            swapped = exchange and up_available
            if swapped:
                u = st[up_slot]
                exchange_dix(cs, p, d, u)
                st[up_slot] = d
                st[X_HANDS + p] = add_card(remove_card(st[X_HANDS + p], d >> 1), u >> 1)
            if tracing:
                trace[base + TW_DIX] = d
                trace[base + TW_EXCHANGED] = swapped
    return laid, swapped


@jit
def _stock_phase(
    bundle: PolicyBundle,
    dealer: int,
    up: int,
    trump: int,
    ra: np.ndarray,
    ca: np.ndarray,
    pp: np.ndarray,
    st: np.ndarray,
    rs: np.ndarray,
    rm: np.ndarray,
    out: np.ndarray,
    row: int,
    trace: np.ndarray,
    tracing: bool,
) -> tuple[int, int, int]:
    """Play the tricks while the stock lasts; returns (cards played packed, next leader,
    seat that exchanged the dix or -1)."""
    r = nonneg(row)  # the record's column index (unsigned: no wraparound test per store)
    n_stock = 24 - ra[RA_HAND_SIZE]
    packed = pack_points(ra[RA_POINTS : RA_POINTS + 6])
    dix_value = ca[CA_DIX]
    cs = st[X_CS : X_CS + CS_SIZE]
    # Each seat's policies and parameters, read once per deal (scalars and tuples, no views).
    stock0, stock1 = pp[0, PP_STOCK], pp[1, PP_STOCK]
    meld0, meld1 = pp[0, PP_MELD], pp[1, PP_MELD]
    sq0, sq1 = stock_params(pp, 0), stock_params(pp, 1)
    mq0, mq1 = meld_params(pp, 0), meld_params(pp, 1)
    played = 0
    leader = 1 - dealer
    exchanged = -1
    for t in range(n_stock):
        faces = (0, 0)
        seat = leader
        led = -1
        for k in range(2):
            hand = st[nonneg(X_HANDS + seat)]
            has_dix = dix_value > 0 and dix_card(cs, seat, trump) >= 0
            f = stock_play(
                bundle,
                stock0 if seat == 0 else stock1,
                cs,
                ca,
                sq0 if seat == 0 else sq1,
                seat,
                hand,
                led,
                played,
                trump,
                packed,
                dix_value,
                has_dix,
                rs,
            )
            i, on_table = play_copy(cs, seat, f)
            if tracing:
                base = TT_TRICKS + t * TW
                trace[base + (TW_CARD1 if k == 0 else TW_CARD2)] = i
                trace[base + (TW_TABLE1 if k == 0 else TW_TABLE2)] = on_table
            st[nonneg(X_HANDS + seat)] = remove_card(hand, f)
            played = add_card(played, f)
            if k == 0:
                led = f
                faces = (f, 0)
            else:
                faces = (faces[0], f)
            seat = 1 - seat
        winner = leader if ((beaters(faces[0], trump) >> faces[1]) & 1) == 0 else 1 - leader
        p0, p1 = face_points(packed, faces[0]), face_points(packed, faces[1])
        st[nonneg(X_SIDE + XS_RAW + winner)] += p0 + p1
        st[nonneg(X_SIDE + XS_COUNTERS + winner)] += (p0 > 0) + (p1 > 0)
        st[nonneg(X_SIDE + XS_TRICKS + winner)] += 1
        st[nonneg(X_SIDE + XS_STOCK_TRICKS + winner)] += 1
        if tracing:
            base = TT_TRICKS + t * TW
            trace[base + TW_LEADER] = leader
            trace[base + TW_WINNER] = winner
            trace[base + TW_POINTS] = p0 + p1
            trace[base + TW_MELD] = -1
            trace[base + TW_DIX] = -1
        laid, swapped = _meld_turn(
            bundle, winner, t, up, n_stock, trump, ca, meld0 if winner == 0 else meld1,
            mq0 if winner == 0 else mq1, cs, st, rm, trace, tracing,
        )  # fmt: skip
        if swapped:
            exchanged = winner
        st[nonneg(X_SIDE + XS_MELD + winner)] += laid
        out[nonneg(D_TRICK_WINNER + t), r] = winner
        out[nonneg(D_TRICK_WINNER + n_stock + t), r] = laid
        for k in range(2):  # winner draws first
            seat = winner if k == 0 else 1 - winner
            i = st[nonneg(X_DRAW + 2 * t + k)]
            cs[nonneg(CS_OWN + i)] = seat
            at = nonneg(X_HANDS + seat)
            st[at] = add_card(st[at], i >> 1)
            if tracing:
                trace[TT_TRICKS + t * TW + TW_DRAW_WINNER + k] = i
        leader = winner
    return played, leader, exchanged


@jit
def _play_out(
    bundle: PolicyBundle,
    leader: int,
    trump: int,
    played: int,
    t0: int,
    ra: np.ndarray,
    pp: np.ndarray,
    st: np.ndarray,
    rs: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> int:
    """The last tricks, played by the shared trick loop (follow, beat a trump lead, trump if
    void; each seat plays as if it had bid); credits them to the seats and marks the physical
    copies played. Returns the seat that won the last trick."""
    log = st[X_LOG : X_LOG + LOG_SIZE]
    hands = st[X_HANDS : X_HANDS + 2]
    work = st[X_WORK : X_WORK + SCRATCH]
    # np.int64(...): an int64, not the literal -1, so the trick loop compiled for the auction
    # engine serves here too (one compile)
    bidder = np.int64(EACH_SEAT_BIDS)
    play_tricks(bundle, hands, leader, bidder, trump, played, ra, pp, rs, log, work)
    cs = st[X_CS : X_CS + CS_SIZE]
    n = ra[RA_HAND_SIZE]
    for t in range(n):
        row = t * TK_WIDTH
        leader = log[row + TK_LEADER]
        winner_seat = log[row + TK_WINNER]
        pts = log[row + TK_POINTS]
        st[X_SIDE + XS_RAW + winner_seat] += pts
        st[X_SIDE + XS_COUNTERS + winner_seat] += log[row + TK_COUNTERS]
        st[X_SIDE + XS_TRICKS + winner_seat] += 1
        base = TT_TRICKS + (t0 + t) * TW
        for k in range(2):
            seat = leader if k == 0 else 1 - leader
            f = log[row + TK_FACES + k]
            i = 2 * f if cs[CS_OWN + 2 * f] == seat else 2 * f + 1
            cs[CS_OWN + i] = PLAYED
            if tracing:
                trace[base + (TW_CARD1 if k == 0 else TW_CARD2)] = i
                trace[base + (TW_TABLE1 if k == 0 else TW_TABLE2)] = 0
        if tracing:
            trace[base + TW_LEADER] = leader
            trace[base + TW_WINNER] = winner_seat
            trace[base + TW_POINTS] = pts
            trace[base + TW_MELD] = -1
            trace[base + TW_DIX] = -1
            trace[base + TW_DRAW_WINNER] = -1
            trace[base + TW_DRAW_LOSER] = -1
            trace[TT_NTRICKS] = t0 + t + 1
    return log[(n - 1) * TK_WIDTH + TK_WINNER]


@jit(borrows=True)
def _play_deal(
    bundle: PolicyBundle,
    ra: np.ndarray,
    ma: np.ndarray,
    ca: np.ndarray,
    pp: np.ndarray,
    seed: int,
    fx: np.ndarray,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    row: int,
    st: np.ndarray,
    rs: np.ndarray,
    rm: np.ndarray,
    trace: np.ndarray,
    tracing: bool,
) -> None:
    """Play deal ``h`` of ``seed`` into column row ``row`` of ``out``."""
    r = nonneg(row)  # the record's column index (unsigned: no wraparound test per store)
    dealer = h % 2 if fixed_dealer < 0 else fixed_dealer
    up = _setup(seed, fx, h, ra, ma, st, rs, out, row)
    trump = suit_of(up >> 1)
    for k in range(XS_SIZE):
        st[X_SIDE + k] = 0
    turnup = ra[RA_TURNUP_DIX] if rank_of(up >> 1) == 0 else 0
    st[X_SIDE + XS_MELD + dealer] += turnup
    if turnup:  # the turned-up 9 has been scored: it can never be shown as the dix
        st[X_CS + CS_LEVEL + 4 * up + CLASS_SEQUENCE] = 1
    n_stock = 24 - ra[RA_HAND_SIZE]
    if tracing:
        trace[TT_UP] = up
        trace[TT_TURNUP] = turnup
        for j in range(2 * n_stock):
            trace[TT_STOCK + j] = st[X_DRAW + j]
        trace[TT_NTRICKS] = n_stock
    stream_init(rs, seed, h, STREAM_PLAY)
    stream_init(rm, seed, h, STREAM_MELD)
    played, leader, exchanged = _stock_phase(
        bundle, dealer, up, trump, ra, ca, pp, st, rs, rm, out, row, trace, tracing
    )
    last = _play_out(bundle, leader, trump, played, n_stock, ra, pp, st, rs, trace, tracing)
    out[D_HAND, r] = h
    out[D_DEALER, r] = dealer
    out[D_TRUMP, r] = trump
    out[D_UP, r] = up >> 1
    out[D_TURNUP, r] = turnup
    out[D_EXCHANGED, r] = exchanged
    out[D_LAST, r] = last
    rounding = ra[RA_ROUNDING]
    for p in range(2):
        raw = st[X_SIDE + XS_RAW + p]
        pts = _round_points(raw, rounding)
        out[D_MELD + p, r] = st[X_SIDE + XS_MELD + p]
        out[D_MELDS_LAID + p, r] = st[X_SIDE + XS_MELDS_LAID + p]
        out[D_DIX + p, r] = st[X_SIDE + XS_DIX + p]
        out[D_STOCK_TRICKS + p, r] = st[X_SIDE + XS_STOCK_TRICKS + p]
        out[D_TRICKS_WON + p, r] = st[X_SIDE + XS_TRICKS + p]
        out[D_COUNTERS + p, r] = st[X_SIDE + XS_COUNTERS + p]
        out[D_RAW + p, r] = raw
        out[D_TRICK_POINTS + p, r] = pts
        out[D_SCORE + p, r] = pts + st[X_SIDE + XS_MELD + p]
    s0, s1 = out[D_SCORE, r], out[D_SCORE + 1, r]
    out[D_WINNER, r] = 0 if s0 > s1 else (1 if s1 > s0 else -1)


@jit(entry=True)
def _play_chunk(
    ra: np.ndarray,
    ma: np.ndarray,
    ca: np.ndarray,
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
    """Play deals ``start+lo .. start+hi-1`` into ``out[:, lo:hi]`` (one chunk of a range, as
    the auction engine's)."""
    ra_l = ra.copy()
    ma_l = ma.copy()
    ca_l = ca.copy()
    pp_l = pp.copy()
    fx_l = fx.copy()
    st = np.empty(SCRATCH2_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    rm = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    for i in range(lo, hi):
        _play_deal(
            bundle, ra_l, ma_l, ca_l, pp_l, seed, fx_l, start + i, fixed_dealer, out, i, st, rs,
            rm, trace, False,
        )  # fmt: skip


@jit(entry=True)
def _trace_one(
    ra: np.ndarray,
    ma: np.ndarray,
    ca: np.ndarray,
    pp: np.ndarray,
    bundle: PolicyBundle,
    seed: int,
    fx: np.ndarray,
    h: int,
    fixed_dealer: int,
    out: np.ndarray,
    trace: np.ndarray,
) -> None:
    """Play one deal with tracing on (``out`` has one column)."""
    st = np.empty(SCRATCH2_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    rm = np.empty(2, dtype=np.uint64)
    _play_deal(bundle, ra, ma, ca, pp, seed, fx, h, fixed_dealer, out, 0, st, rs, rm, trace, True)


@jit(entry=True)
def _play_games(ra: np.ndarray, ma: np.ndarray, ca: np.ndarray, pp: np.ndarray,
                bundle: PolicyBundle, seed: int, fx: np.ndarray, start: int, n: int, ncol: int,
                g0: int) -> tuple[np.ndarray, int]:  # fmt: skip
    """Play games ``start .. start+n-1`` to the target (:mod:`pinochle_sim.engines.games`; no
    bidder, so a tie at the top plays on); returns (rows buffer, rows used)."""
    buf = np.empty((ncol, 8 * n + 16), dtype=np.int64)
    st = np.empty(SCRATCH2_SIZE, dtype=np.int64)
    rs = np.empty(2, dtype=np.uint64)
    rm = np.empty(2, dtype=np.uint64)
    trace = np.empty(1, dtype=np.int64)
    totals = np.zeros(2, dtype=np.int64)
    target = ra[RA_GAME_TARGET]
    row = 0
    for g in range(start, start + n):
        totals[:] = 0
        w = -1
        for k in range(MAX_DEALS):
            if row == buf.shape[1]:
                buf = grow(buf, row)
            h = g * MAX_DEALS + k
            _play_deal(
                bundle, ra, ma, ca, pp, seed, fx, h, (g + k) % 2, buf, row, st, rs, rm, trace, False
            )
            w = close_deal(buf, row, g, k, g0, D_SCORE, 2, target, -1, False, totals)
            row += 1
            if w >= 0:
                break
        if w < 0:
            raise ValueError("a game lasted more than MAX_DEALS deals")
    return buf, row
