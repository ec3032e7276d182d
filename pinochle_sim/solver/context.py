"""The context of a search and the bounds that settle a node without searching it.

A *context* is one rule set, trump and side (:func:`_set_context`): a call with another starts
a new table generation. The bounds (:func:`_sure_trumps`, :func:`_trick_owner`,
:func:`_sure_lead`, :func:`_last_trick`) are proofs about the points still to come that
:func:`.settle._settle` applies before a node is expanded."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, nonneg, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    HEAD_ALWAYS,
    PLANE,
    beaters,
    suit_mask,
)
from pinochle_sim.rules.arrays import (
    RA_FOLLOW,
    RA_HEAD,
    RA_LAST,
    RA_PLAYERS,
    RA_POINTS,
    RA_TRUMP,
)
from pinochle_sim.solver.workspace import (
    CANON,
    CTX_SIZE,
    CX_FOLLOW,
    CX_HEAD,
    CX_LAST,
    CX_MUST_TRUMP,
    CX_PLAYERS,
    CX_POINTS,
    CX_SIDE,
    CX_TRUMP,
    ENTRIES,
    GEN_MAX,
    H_CTX,
    H_FACE_POINTS,
    H_GEN,
    H_HANDS,
    H_KILL,
    H_MASK,
    H_REPLY,
    H_UNIT,
    H_USE,
    KILL_SLOTS,
    LOSE_ORDER,
    RANK_BOTH,
    REPLY_SLOTS,
    SEATS,
    TAKE_ORDER,
    UNCANON,
)


@jit
def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@jit(allocates=True)
def _set_context(tt: np.ndarray, trump: int, ra: np.ndarray, side_mask: int) -> None:
    """Make the header describe this rule set, trump and side; a change starts a generation."""
    same = tt[H_GEN] > 0
    vals = np.empty(CTX_SIZE, dtype=np.int64)
    vals[CX_TRUMP] = trump
    vals[CX_SIDE] = side_mask
    vals[CX_PLAYERS] = ra[RA_PLAYERS]
    vals[CX_FOLLOW] = ra[RA_FOLLOW] != 0
    vals[CX_MUST_TRUMP] = ra[RA_TRUMP] != 0
    vals[CX_HEAD] = ra[RA_HEAD]
    vals[CX_LAST] = ra[RA_LAST]
    for r in range(6):
        vals[CX_POINTS + r] = ra[RA_POINTS + r]
    # the points (and the last-trick bonus) alone decide the tables built below, so another
    # trump or side keeps them: a new deal of the same rules costs only the generation
    points_same = same and tt[H_CTX + CX_LAST] == vals[CX_LAST]
    for r in range(6):
        points_same = points_same and tt[H_CTX + CX_POINTS + r] == vals[CX_POINTS + r]
    for i in range(CTX_SIZE):
        same = same and tt[H_CTX + i] == vals[i]
    if same:
        return
    for i in range(CTX_SIZE):
        tt[H_CTX + i] = vals[i]
    if not points_same:
        for f in range(24):
            tt[H_FACE_POINTS + f] = vals[CX_POINTS + f % 6]
        unit = ra[RA_LAST]
        for r in range(6):
            unit = _gcd(unit, ra[RA_POINTS + r])
        tt[H_UNIT] = unit if unit > 0 else 1
        _build_canon(tt)
        tt[H_CTX + TAKE_ORDER] = _rank_order(tt, True)
        tt[H_CTX + LOSE_ORDER] = _rank_order(tt, False)
    gen = tt[H_GEN] + 1
    if gen > GEN_MAX:  # generations used up: clear the entries once
        tt[ENTRIES:] = 0
        gen = 1
    tt[H_GEN] = gen
    tt[H_KILL : H_KILL + KILL_SLOTS] = 0
    tt[H_REPLY : H_REPLY + REPLY_SLOTS] = 0


@jit
def _rank_order(tt: np.ndarray, most_first: bool) -> int:
    """The six ranks by points (most or fewest first), lower rank first among equals, packed
    4 bits a rank."""
    used = 0
    packed = 0
    for i in range(6):
        pick = -1
        for r in range(6):
            if (used >> r) & 1:
                continue
            if pick < 0:  # the first rank left: nothing to compare with yet
                pick = r
                continue
            better = _pts(tt, r) > _pts(tt, pick) if most_first else _pts(tt, r) < _pts(tt, pick)
            if better:
                pick = r
        used |= 1 << pick
        packed |= pick << (4 * i)
    return packed


@jit(allocates=True)
def _build_canon(tt: np.ndarray) -> None:
    """Fill :data:`CANON` and :data:`UNCANON` for the points of the context.

    Which ranks are gone matters only through the order of the remaining cards and their
    points: two positions whose suits list the same holders and points in the same order have
    the same value. Moving each remaining rank down to the lowest free rank of its run of
    equal points gives one representative of every such class."""
    for p in range(64):
        for c in range(6):
            tt[UNCANON + 6 * p + c] = -1
        to = np.empty(6, dtype=np.int64)
        start = 0
        nxt = 0
        for r in range(6):
            if r > 0 and _pts(tt, r) != _pts(tt, r - 1):
                start = r
                nxt = r
            if (p >> r) & 1:
                to[r] = nxt
                tt[UNCANON + 6 * p + nxt] = r
                nxt += 1
            else:
                to[r] = -1
            _ = start
        for x in range(64):
            y = 0
            for r in range(6):
                if (x >> r) & 1 and to[r] >= 0:
                    y |= 1 << to[r]
            tt[CANON + 64 * p + x] = y


WHOLE_TABLE_CARDS = 12
"""A search from positions of fewer cards in the fullest hand uses only the first
``2**(cards + SMALL_TABLE_BITS)`` buckets of the table, which stay in the cache; from this many
cards on it uses the whole table (:func:`_fit_table`)."""
SMALL_TABLE_BITS = 6


@jit
def _fit_table(tt: np.ndarray, h0: int, h1: int, h2: int, h3: int) -> None:
    """Choose the part of the table a call uses from the size of its position (measured, 200
    partnership positions of 8 cards a seat: the first 2**14 buckets searched 18.7M nodes a
    second against 15.2M with 2**21; 60 of 10 cards, 2**16 against 2**21, 1.04 s against 1.20
    s; full deals no faster with fewer than 2**20). The parts nest: an entry stored under a
    smaller part sits in the same bucket under a larger one only if its hash says so, so
    changing the part between calls loses some entries, never a value."""
    cards = max(popcount(h0), popcount(h1), popcount(h2), popcount(h3))
    use = tt[H_MASK]
    if cards < WHOLE_TABLE_CARDS:
        use = min(use, (1 << (cards + SMALL_TABLE_BITS)) - 1)
    tt[H_USE] = use


@jit(entry=True)
def new_generation(tt: np.ndarray) -> None:
    """Forget every table entry: the next call starts a new generation (for fair timing)."""
    tt[H_CTX + CX_TRUMP] = -1  # matches no context, so the next call moves on a generation


@jit
def _side(tt: np.ndarray, seat: int) -> bool:
    return (tt[H_CTX + CX_SIDE] >> seat) & 1 != 0


@jit
def _pts(tt: np.ndarray, f: int) -> int:
    return tt[nonneg(H_FACE_POINTS + f)]


@jit
def _next_seat(tt: np.ndarray, seat: int) -> int:
    return seat + 1 if seat + 1 < tt[H_CTX + CX_PLAYERS] else 0


@jit
def _forced(tt: np.ndarray, leader: int, sm: int) -> int:
    """The fewest points the other seats must add to a trick the leader leads in side suit
    ``sm`` (follow rules): a seat holding the suit plays one of its cards of it, a seat holding
    neither the suit nor trumps any card; a seat void in the suit but holding trumps adds
    nothing here (its trump may be counted by :func:`_sure_trumps`)."""
    trump = tt[H_CTX + CX_TRUMP]
    tm = suit_mask(trump)
    total = 0
    for s in range(SEATS):
        if s == leader:
            continue
        h = tt[nonneg(H_HANDS + s)] & PLANE
        if h & sm:
            total += _least(tt, h & sm)
        elif not h & tm:
            total += _least(tt, h)
    return total


@jit
def _least(tt: np.ndarray, faces: int) -> int:
    """The fewest points of a face in ``faces`` (0 when there is none)."""
    least = -1
    m = faces
    while m:
        f = lowest_bit_index(m)
        m ^= 1 << f
        p = _pts(tt, f)
        if least < 0 or p < least:
            least = p
    return max(least, 0)


@jit
def _sure_lead(tt: np.ndarray, leader: int) -> int:
    """Points the leader is sure to take in side suits (trumps are :func:`_sure_trumps`'):
    the better of one sure winner (nobody holds a higher card of its suit, no opponent can
    trump it: each opponent holding trumps follows suit) and the sure winners it can cash
    in a row, suit after suit, keeping the lead. A card of the run must rank at least every
    opponent's card of its suit, the round must come before any opponent holding trumps runs
    out of the suit, and a partner must not be forced to overtake it (a higher card of the
    suit where the trick must be headed, or trumps once void in it)."""
    trump = tt[H_CTX + CX_TRUMP]
    sides = tt[H_CTX + CX_SIDE]
    follow = tt[H_CTX + CX_FOLLOW] != 0
    heads = tt[H_CTX + CX_HEAD] == HEAD_ALWAYS
    tm = suit_mask(trump)
    mine = (sides >> leader) & 1
    own = tt[nonneg(H_HANDS + leader)]
    best = 0
    run = 0
    for suit in range(4):
        if suit == trump:
            continue
        sm = suit_mask(suit)
        if not own & sm:
            continue
        opp_top = -1
        mate_top = -1
        rounds = 1 << 10  # rounds of the suit before someone may trump it
        single = True
        for s in range(SEATS):
            if s == leader:
                continue
            h = tt[nonneg(H_HANDS + s)]
            length = popcount(h & sm) + popcount((h >> 24) & sm)
            has_trump = (h & tm) != 0
            if (sides >> s) & 1 != mine:
                opp_top = max(opp_top, highest_bit_index(h & sm))
                if has_trump:
                    rounds = min(rounds, length if follow else 0)
                    single = single and length > 0 and follow
            else:
                mate_top = max(mate_top, highest_bit_index(h & sm))
                if has_trump:
                    rounds = min(rounds, length if follow else 0)
        top = highest_bit_index(own & sm)
        if single and top >= opp_top:
            best = max(best, _pts(tt, top) + (_forced(tt, leader, sm) if follow else 0))
        # the run: the leader's cards of the suit from the top, each copy a round
        m = own & sm
        taken = 0
        while m and taken < rounds:
            f = highest_bit_index(m)
            m ^= 1 << f
            if f < opp_top or (heads and f <= mate_top):
                break
            copies = 1 + ((own >> (24 + f)) & 1)
            for _ in range(copies):
                if taken < rounds:
                    run += _pts(tt, f)
                    taken += 1
    return max(best, run)


@jit
def _trick_owner(tt: np.ndarray, seat: int, k: int, led: int, wf: int, ws: int) -> int:
    """Inside a trick, with ``seat`` to play: 1 if the side surely takes the trick, 0 if the
    others surely do (no seat still to play on the other side of the winning card's holder can
    beat it, whatever the others play before: a card can only rise), -1 if open."""
    trump = tt[H_CTX + CX_TRUMP]
    players = tt[H_CTX + CX_PLAYERS]
    sides = tt[H_CTX + CX_SIDE]
    holder = (sides >> ws) & 1
    over = beaters(wf, trump)
    lmask = suit_mask(led)
    tmask = suit_mask(trump)
    s = seat
    for _ in range(k, players):
        if (sides >> s) & 1 != holder:
            hs = tt[nonneg(H_HANDS + s)] & PLANE
            base = hs & lmask if tt[H_CTX + CX_FOLLOW] else 0
            if not base:
                base = hs & tmask if tt[H_CTX + CX_MUST_TRUMP] else 0
                if not base:
                    base = hs
            if base & over:
                return -1
        s = s + 1 if s + 1 < players else 0
    return holder


@jit
def _last_trick(tt: np.ndarray, leader: int) -> int:
    """Points the side takes from the last trick (one card in each hand), bonus included."""
    trump = tt[H_CTX + CX_TRUMP]
    seat = leader
    wf = -1
    ws = leader
    pts = tt[H_CTX + CX_LAST]
    for _ in range(tt[H_CTX + CX_PLAYERS]):
        f = lowest_bit_index(tt[nonneg(H_HANDS + seat)] & PLANE)
        pts += _pts(tt, f)
        if wf < 0 or (beaters(wf, trump) >> f) & 1:
            wf = f
            ws = seat
        seat = _next_seat(tt, seat)
    return pts if _side(tt, ws) else 0


@jit
def _points_of(tt: np.ndarray, cards: int) -> int:
    """Trick points of the cards of a packed hand (both copies counted)."""
    total = 0
    for r in range(6):
        total += tt[nonneg(H_CTX + CX_POINTS + r)] * popcount(cards & RANK_BOTH[nonneg(r)])
    return total


@jit
def _sure_trumps(tt: np.ndarray) -> tuple[int, int]:
    """Points each side is sure to take at a trick boundary, from its trumps above every trump
    of the other side: such a card wins whatever trick it falls in (no card of the other side
    can beat or tie it), so its points go to its side. Returns (side's, others')."""
    tm = suit_mask(tt[H_CTX + CX_TRUMP])
    mine = 0
    theirs = 0
    for s in range(SEATS):
        if _side(tt, s):
            mine |= tt[nonneg(H_HANDS + s)]
        else:
            theirs |= tt[nonneg(H_HANDS + s)]
    mine_top = highest_bit_index(mine & tm)
    theirs_top = highest_bit_index(theirs & tm)
    above_theirs = tm & ~((2 << theirs_top) - 1) if theirs_top >= 0 else tm
    above_mine = tm & ~((2 << mine_top) - 1) if mine_top >= 0 else tm
    both = (1 << 24) + 1
    gain = _points_of(tt, mine & above_theirs * both)
    lost = _points_of(tt, theirs & above_mine * both)
    return gain, lost
