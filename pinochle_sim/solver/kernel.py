"""The double-dummy search: exact trick points under perfect play with every card seen.

Positions are those of trick play (RULES.md section 7, and section 9's play-out): the cards
each seat still holds, the seat that led the current trick and the cards already played to it.
The *side* is a set of seats (``side_mask``, bit ``s`` = seat ``s``) that maximises the trick
points it takes from the current trick to the end, the last-trick bonus included; every other
seat minimises them, together. Four-hand partnerships: a seat and its partner; three-hand: the
bidder alone against the other two; two-hand: one seat against the other.

Jit-callable API (allocation-free; for policies and engines calling from their kernels)::

    tt = new_table()                       # Python: the caller-owned work array, reusable
    tts = new_tables(n_threads, bits)      # Python: one work array a row, for prange loops
    v = dd_solve(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt)
    f, v = dd_best(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt)
    lo, hi = dd_bounds(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt, lo, hi, nodes)
    dd_move_values(h0, h1, h2, h3, leader, trick, trump, ra, side_mask, tt, out)

* ``h0..h3``: packed hands (``core.cards``: ``one | two << 24``) of seats 0..3, the cards each
  still holds (0 for seats the rules do not have); ``ra``: the flat rule array
  (``rules.arrays``: players, points, last-trick bonus, follow / trump / head rules).
* ``leader``: the seat that led (or is to lead) the current trick; ``trick``: the cards already
  played to it, packed by :func:`pack_trick` (``face + 1`` in bits ``8i..8i+7`` for the i-th card,
  0 = no card); the seat to move is ``leader`` plus the number of cards played.
* ``dd_solve``: the points the side takes from the current trick on (its cards on the table
  included). ``dd_best``: a best card of the seat to move and that value; of several best cards,
  the one with the fewest points, then the lowest rank, then the first suit (S, H, D, C).
  ``dd_bounds``: refines a known ``lo <= value <= hi`` within a budget of search nodes and
  returns the proven bounds (equal when solved). ``dd_move_values``: ``out[face]`` = the value
  after the seat to move plays ``face``, -1 for faces it may not play.

The work array ``tt`` (int64, from :func:`new_table`) holds a header, the search stack and a
transposition table. Table entries are bounds on a trick-boundary position's value, valid for
one rule set, trump and side: a call with another context starts a new *generation* (older
entries stop matching, nothing is cleared), so one array serves any sequence of calls and an
engine may allocate it once per chunk of hands. ``tt[H_NODES]`` counts search nodes.

The search is a fail-soft null-window test ("does the side take at least ``need`` points?",
answered with a bound beyond the target) run with an explicit stack (no recursion, so the
compiled code caches safely), repeated by a binary search over the possible values. It is
exact: every cut-off is a proof. Its techniques, each measured on a fixed set of deals
(``experiments/solver_speed.py``; nodes for 10 partnership deals of 10 cards a seat, in the
order they were added):

* move ordering (:func:`_order`): 177M -> 39M nodes;
* a transposition table at trick boundaries with proven bounds and the deciding move (it was
  there from the start), keyed on the canonical hands (:data:`CANON`: ranks already played
  ignored): 37M -> 20M; 32-byte entries, two to a cache line;
* a better guess at the trick's winner for the ordering: 20M -> 12.5M;
* bounds (:func:`_settle`): the points left; trumps no opponent can beat
  (:func:`_sure_trumps`); a trick nobody still to play can take from its winner's side
  (:func:`_trick_owner`): 12.2M -> 10.9M, three-hand 16% fewer; the leader's sure side-suit
  winners (:func:`_sure_lead`): a further 2%, three-hand 16%;
* equivalent cards (:func:`_reps`); the last trick played out directly; no table look-ups
  with one trick left (from three: 26% more nodes).

Full deals (12 cards a seat, 20 partnership deals of seed 0, 274M nodes with the above):

* the first test at a guess (:func:`_guess`: every seat plays the first card of the ordering,
  mean error 30 points), then steps of 1, 2, 4, ... units from the bound until a test fails
  the other way, then the binary search (:func:`_narrow`): 274M -> 255M nodes (8 cards:
  -11%). Stepping by one unit from the guess (MTD(f)) gave 306M; with the exact value as
  the guess two tests would take 65% of the binary search's nodes, so a better guess is
  worth at most that much.
* table replacement by work (the bit length of the nodes an entry's search took) instead of
  tricks left: the same nodes with 2**21 buckets (partnership: the table is not full), 431M
  -> 360M nodes for the three-hand deal of seed 0 hand 0 (15 cards a seat).

Table size, same 20 full partnership deals: 2**21 buckets (128 MB) 254M nodes, 2**20 (64 MB)
261M (+3%), 2**18 (16 MB) 345M (+36%); with a smaller table a solve stays exact, it only
searches more. For many deals in parallel, 2**20 a thread (:func:`new_tables`).

Tried and dropped (no fewer nodes, or more): table entries inside the trick (after 1-3
cards: under 1% fewer nodes, slower), the history heuristic and killer moves (16-480% more
nodes), a one-trick minimax to order leads (+2% nodes in partnership, -5% in three-hand, at
twice the cost per lead), 4-way buckets replacing the shallowest entry (+2%), prefetching
the bucket before the bounds are worked out (no faster), a driver that tests at the edge of
the interval once it is narrow (no fewer nodes than the binary search).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import highest_bit_index, lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import (
    HEAD_ALWAYS,
    PLANE,
    SUIT_MASK,
    add_card,
    beaters,
    legal_mask,
    remove_card,
)
from pinochle_sim.rules.arrays import (
    RA_FOLLOW,
    RA_HEAD,
    RA_LAST,
    RA_PLAYERS,
    RA_POINTS,
    RA_TRUMP,
)

MAX_PLY = 68
"""Plies of the deepest position: 16 tricks of up to 4 cards, and one more."""
MAX_MOVES = 24
"""Distinct faces a seat may hold."""

# Header of the work array (int64 slots).
H_MAGIC = 0  # MAGIC once initialised by new_table
H_GEN = 1  # current generation of table entries (1..GEN_MAX)
H_NODES = 2  # search nodes visited, cumulative
H_MASK = 3  # number of table buckets - 1 (a power of two minus one)
H_UNIT = 4  # gcd of the point values: every value is a multiple of it
H_ALIGN = 5  # words from ENTRIES to the first bucket, so buckets sit on cache lines
H_HANDS = 8  # 4 slots: the hands during a search
H_CTX = 16  # context of the current generation, CTX_SIZE slots:
CX_TRUMP = 0  # trump suit
CX_SIDE = 1  # side mask
CX_PLAYERS = 2  # seats
CX_FOLLOW = 3  # 1 = must follow suit
CX_MUST_TRUMP = 4  # 1 = must trump when void
CX_HEAD = 5  # heading rule (core.tricks.HEAD_*)
CX_LAST = 6  # last-trick bonus
CX_POINTS = 7  # 6 slots: points by rank 9, J, Q, K, 10, A
CTX_SIZE = 13
TAKE_ORDER = CTX_SIZE  # (after the context) ranks by points descending, then rank ascending
LOSE_ORDER = CTX_SIZE + 1  # ranks by points ascending, then rank ascending
H_SIZE = 32

# One stack frame per ply: the ordered moves, then the node's state.
F_N = MAX_MOVES  # number of moves
F_I = F_N + 1  # next move to try
F_FACE = F_N + 2  # the move being tried
F_SEAT = F_N + 3  # seat to move
F_K = F_N + 4  # cards already on the table in this trick
F_LED = F_N + 5  # led suit (-1 at a trick boundary)
F_WF = F_N + 6  # winning face on the table (-1: none)
F_WS = F_N + 7  # seat of the winning face
F_TP = F_N + 8  # points on the table
F_TBL = F_N + 9  # faces on the table (mask)
F_LEFT = F_N + 10  # tricks left, the current one included
F_REM = F_N + 11  # points still in the hands, plus the last-trick bonus
F_NEED = F_N + 12  # points the side needs from the current trick on
F_KEY = F_N + 13  # 5 slots at a trick boundary: the table key (3 words, tag), its bucket
F_GAIN = F_N + 18  # points the move being tried gave the side (when it completed a trick)
F_BEST = F_N + 19  # the best bound the moves tried so far gave
F_START = F_N + 20  # the node count when the node was entered
F_WIDTH = F_N + 21
STACK = H_SIZE
CANON = STACK + MAX_PLY * F_WIDTH
"""64 x 64 slots: ``CANON + 64 * p + x`` is the 6-bit rank set ``x`` of a suit whose
remaining ranks are ``p``, with every rank moved down over the missing ranks of its run (a
run: consecutive ranks worth equal points)."""
UNCANON = CANON + 64 * 64
"""64 x 6 slots: the rank that :data:`CANON` moved to rank ``c`` (for remaining ranks ``p``)."""
ENTRIES = UNCANON + 64 * 6

# Table entries: E_WORDS int64 words, two entries per bucket (one 64-byte cache line).
E_KEY = 0  # 3 words: the canonical hands c0..c3 (48 bits each) packed end to end:
#            c0 | c1 << 48, c1 >> 16 | c2 << 32, c2 >> 32 | c3 << 16
E_DATA = 3  # lo | hi << 16 | (best face + 1) << 32 | work << 40 | tag << 45
#            (work: the bit length of the nodes the entry's searches took, at most 31)
E_WORDS = 4
BUCKET = 2 * E_WORDS
TAG_SHIFT = 45
"""The tag (bits 45..59 of the data word): leader | generation << 2; part of the key."""

RANK_FACES = np.array([sum(1 << (6 * s + r) for s in range(4)) for r in range(6)], dtype=np.int64)
"""Each rank's faces (one plane)."""
RANK_BOTH = np.array(
    [sum(((1 << (6 * s + r)) | (1 << (24 + 6 * s + r))) for s in range(4)) for r in range(6)],
    dtype=np.int64,
)
"""Each rank's faces in both planes of a packed hand."""

MAGIC = 0x5D501
GEN_MAX = (1 << 13) - 1
BOUND_MASK = 0xFFFF
NO_BOUND = BOUND_MASK
"""``hi`` of an entry that has no upper bound yet."""


def new_table(bits: int = 20) -> np.ndarray:
    """A work array with ``2**bits`` table buckets (two entries each; 64 bytes a bucket)."""
    if not 4 <= bits <= 28:
        raise ValueError(f"table bits must be between 4 and 28, got {bits}")
    tt = np.zeros(ENTRIES + BUCKET + (1 << bits) * BUCKET, dtype=np.int64)
    tt[H_MAGIC] = MAGIC
    tt[H_MASK] = (1 << bits) - 1
    tt[H_ALIGN] = (-(tt.ctypes.data + 8 * ENTRIES) // 8) % BUCKET  # a speed matter only
    return tt


def new_tables(count: int, bits: int = 20) -> np.ndarray:
    """``count`` work arrays as the rows of one array, for a ``prange`` loop in which each
    thread (or each chunk of positions) solves with its own row: a work array holds the search
    stack as well as the table, so two searches must never share one. A row of ``2**bits``
    buckets takes ``64 * 2**bits`` bytes (2**20: 64 MB)."""
    if count < 1:
        raise ValueError(f"need at least one work array, got {count}")
    one = new_table(bits)
    out = np.zeros((count, one.size), dtype=np.int64)
    for r in range(count):
        out[r, :H_SIZE] = one[:H_SIZE]
        out[r, H_ALIGN] = (-(out[r].ctypes.data + 8 * ENTRIES) // 8) % BUCKET
    return out


def pack_trick(faces: list[int] | tuple[int, ...]) -> int:
    """The ``trick`` argument for the faces already played to the current trick, in order."""
    if len(faces) > 3:
        raise ValueError("a trick holds at most 3 cards before its last")
    code = 0
    for i, f in enumerate(faces):
        code |= (int(f) + 1) << (8 * i)
    return code


# --------------------------------------------------------------------------- context


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
    for i in range(CTX_SIZE):
        same = same and tt[H_CTX + i] == vals[i]
    if same:
        return
    for i in range(CTX_SIZE):
        tt[H_CTX + i] = vals[i]
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
            better = _pts(tt, r) > _pts(tt, pick) if most_first else _pts(tt, r) < _pts(tt, pick)
            if pick < 0 or better:
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


@jit(entry=True)
def new_generation(tt: np.ndarray) -> None:
    """Forget every table entry: the next call starts a new generation (for fair timing)."""
    tt[H_CTX + CX_TRUMP] = -1  # matches no context, so the next call moves on a generation


@jit
def _side(tt: np.ndarray, seat: int) -> bool:
    return (tt[H_CTX + CX_SIDE] >> seat) & 1 != 0


@jit
def _pts(tt: np.ndarray, f: int) -> int:
    return tt[H_CTX + CX_POINTS + f % 6]


@jit
def _next_seat(tt: np.ndarray, seat: int) -> int:
    return seat + 1 if seat + 1 < tt[H_CTX + CX_PLAYERS] else 0


# --------------------------------------------------------------------------- transposition table


TABLE_MIN_LEFT = 2
"""Positions with fewer tricks left are searched, not looked up (measured: cheaper)."""


@jit
def _make_key(tt: np.ndarray, ko: int, leader: int) -> None:
    """Write the table key of the trick-boundary position in the header (hands) to ``ko``:
    the canonical hands (:data:`CANON`) packed in 3 words (see :data:`E_KEY`), the tag
    (leader and generation) and the bucket's offset."""
    players = tt[H_CTX + CX_PLAYERS]
    every = 0
    for s in range(players):
        every |= tt[H_HANDS + s]
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for suit in range(4):
        sh = 6 * suit
        base = CANON + 64 * ((every >> sh) & 63)
        for s in range(players):
            h = tt[H_HANDS + s]
            one = tt[base + ((h >> sh) & 63)]
            two = tt[base + ((h >> (24 + sh)) & 63)]
            c = (one << sh) | (two << (24 + sh))
            if s == 0:
                c0 |= c
            elif s == 1:
                c1 |= c
            elif s == 2:
                c2 |= c
            else:
                c3 |= c
    w0 = c0 | (c1 << 48)
    w1 = (c1 >> 16) | (c2 << 32)
    w2 = (c2 >> 32) | (c3 << 16)
    tag = leader | (tt[H_GEN] << 2)
    tt[ko] = w0
    tt[ko + 1] = w1
    tt[ko + 2] = w2
    tt[ko + 3] = tag
    h = w0 * 0x9E3779B97F4A7C15
    h ^= w1 * 0xC2B2AE3D27D4EB4F
    h ^= (w2 + tag) * 0x165667B19E3779F9
    h ^= h >> 31
    tt[ko + 4] = ENTRIES + tt[H_ALIGN] + ((h >> 17) & tt[H_MASK]) * BUCKET


@jit
def _canon_face(tt: np.ndarray, f: int) -> int:
    """The face ``f`` in the canonical ranks of the current position (hands in the header)."""
    every = 0
    for s in range(tt[H_CTX + CX_PLAYERS]):
        every |= tt[H_HANDS + s]
    suit = f // 6
    y = tt[CANON + 64 * ((every >> (6 * suit)) & 63) + (1 << (f % 6))]
    return 6 * suit + lowest_bit_index(y)


@jit
def _real_face(tt: np.ndarray, c: int) -> int:
    """The face of the current position that the canonical face ``c`` stands for (-1: none)."""
    every = 0
    for s in range(tt[H_CTX + CX_PLAYERS]):
        every |= tt[H_HANDS + s]
    suit = c // 6
    r = tt[UNCANON + 6 * ((every >> (6 * suit)) & 63) + c % 6]
    return 6 * suit + r if r >= 0 else -1


@jit
def _matches(tt: np.ndarray, e: int, ko: int) -> bool:
    return (
        tt[e] == tt[ko]
        and tt[e + 1] == tt[ko + 1]
        and tt[e + 2] == tt[ko + 2]
        and tt[e + E_DATA] >> TAG_SHIFT == tt[ko + 3]
    )


@jit
def _tt_find(tt: np.ndarray, ko: int) -> int:
    """Offset of the entry with the key at ``ko``, or -1."""
    b = tt[ko + 4]
    if _matches(tt, b, ko):
        return b
    if _matches(tt, b + E_WORDS, ko):
        return b + E_WORDS
    return -1


@jit
def _tt_store(tt: np.ndarray, ko: int, spent: int, need: int, v: int, best: int) -> None:
    """Record what a fail-soft test for ``need`` returned for the key at ``ko``: ``value >= v``
    when ``v >= need``, else ``value <= v``; ``best`` (a canonical face, or -1) is the move that
    decided it; ``spent`` the nodes the search took (entries that took more are kept longer)."""
    work = 0
    while spent > 0 and work < 31:
        spent >>= 1
        work += 1
    b = tt[ko + 4]
    e = _tt_find(tt, ko)
    if e >= 0:
        data = tt[e + E_DATA]
        lo = data & BOUND_MASK
        hi = (data >> 16) & BOUND_MASK
        old_best = (data >> 32) & 0xFF
        work = max(work, (data >> 40) & 0x1F)
    else:
        # first slot: the entry that took the most work stays; second slot: always replaced
        d0 = tt[b + E_DATA]
        stale = (d0 >> (TAG_SHIFT + 2)) != tt[H_GEN]
        if stale or ((d0 >> 40) & 0x1F) <= work:
            for j in range(E_WORDS):
                tt[b + E_WORDS + j] = tt[b + j]
            e = b
        else:
            e = b + E_WORDS
        for j in range(3):
            tt[e + j] = tt[ko + j]
        lo = 0
        hi = NO_BOUND
        old_best = 0
    if v >= need:
        lo = max(lo, v)
    else:
        hi = min(hi, v)
    nb = best + 1 if best >= 0 else old_best
    tt[e + E_DATA] = lo | (hi << 16) | (nb << 32) | (work << 40) | (tt[ko + 3] << TAG_SHIFT)


# --------------------------------------------------------------------------- moves


@jit
def _reps(tt: np.ndarray, legal: int, own: int, occ: int) -> int:
    """One face of each class of equivalent legal faces: the lowest.

    ``g`` below ``f`` in one suit, both held only by the seat to move (no other copy in another
    hand or on the table), no other card between them and equal points: playing either leaves
    the same game up to renaming, since no other card can fall between them (cards only leave).
    """
    out = 0
    every = own | occ
    m = legal
    while m:
        f = lowest_bit_index(m)
        b = 1 << f
        m ^= b
        below = every & SUIT_MASK[f // 6] & (b - 1)
        if below and not (occ & b):
            g = highest_bit_index(below)
            gb = 1 << g
            if (own & gb) and not (occ & gb) and _pts(tt, g) == _pts(tt, f):
                continue
        out |= b
    return out


@jit
def _legal_for(tt: np.ndarray, seat: int, led: int, wf: int) -> int:
    """Legal faces of ``seat`` to a trick led in ``led`` that ``wf`` is winning."""
    return legal_mask(
        tt[H_HANDS + seat] & PLANE,
        led,
        wf,
        tt[H_CTX + CX_TRUMP],
        tt[H_CTX + CX_FOLLOW] != 0,
        tt[H_CTX + CX_MUST_TRUMP] != 0,
        tt[H_CTX + CX_HEAD],
    )


@jit
def _order(
    tt: np.ndarray, fb: int, moves: int, seat: int, k: int, led: int, wf: int, ws: int, hint: int
) -> int:
    """Write ``moves`` (a face mask) into frame ``fb`` in search order; returns how many.

    First the table's remembered best move; then the cards with which the side takes the
    trick (by a guess: each later opponent of the card winning so far beats it with its lowest
    card that can; measured 16% fewer nodes than its highest, 37% fewer than stopping at the
    first), the most points first, cheapest rank first; then the others, fewest points first,
    lowest rank first (the rank orders are :data:`TAKE_ORDER` and :data:`LOSE_ORDER`)."""
    trump = tt[H_CTX + CX_TRUMP]
    players = tt[H_CTX + CX_PLAYERS]
    follow = tt[H_CTX + CX_FOLLOW] != 0
    must_trump = tt[H_CTX + CX_MUST_TRUMP] != 0
    sides = tt[H_CTX + CX_SIDE]
    tmask = SUIT_MASK[trump]
    hands = (
        tt[H_HANDS] & PLANE,
        tt[H_HANDS + 1] & PLANE,
        tt[H_HANDS + 2] & PLANE,
        tt[H_HANDS + 3] & PLANE,
    )
    mine = (sides >> seat) & 1
    takes = 0
    m = moves
    if hint >= 0:
        m &= ~(1 << hint)
    rest = m
    if k > 0:
        # following: the led suit is known, so what each later seat may play (before heading,
        # which only narrows it to the cards counted here) is the same for every move
        b1, s1 = _later(hands, seat, 1, k, players, led, tmask, follow, must_trump)
        b2, s2 = _later(hands, seat, 2, k, players, led, tmask, follow, must_trump)
        while m:
            f = lowest_bit_index(m)
            m ^= 1 << f
            if (beaters(wf, trump) >> f) & 1:
                w = f
                wseat = seat
            else:
                w = wf
                wseat = ws
            if s1 >= 0 and (sides >> s1) & 1 != (sides >> wseat) & 1:
                over = b1 & beaters(w, trump)
                if over:
                    w = lowest_bit_index(over)
                    wseat = s1
            if s2 >= 0 and (sides >> s2) & 1 != (sides >> wseat) & 1:
                over = b2 & beaters(w, trump)
                if over:
                    wseat = s2
            if (sides >> wseat) & 1 == mine:
                takes |= 1 << f
    suit = -1
    b1 = b2 = b3 = 0
    s1 = s2 = s3 = -1
    while m:  # leading (moves come suit by suit: the later seats' options change with it)
        f = lowest_bit_index(m)
        m ^= 1 << f
        if f // 6 != suit:
            suit = f // 6
            b1, s1 = _later(hands, seat, 1, 0, players, suit, tmask, follow, must_trump)
            b2, s2 = _later(hands, seat, 2, 0, players, suit, tmask, follow, must_trump)
            b3, s3 = _later(hands, seat, 3, 0, players, suit, tmask, follow, must_trump)
        w = f
        wseat = seat
        if s1 >= 0 and (sides >> s1) & 1 != (sides >> wseat) & 1:
            over = b1 & beaters(w, trump)
            if over:
                w = lowest_bit_index(over)
                wseat = s1
        if s2 >= 0 and (sides >> s2) & 1 != (sides >> wseat) & 1:
            over = b2 & beaters(w, trump)
            if over:
                w = lowest_bit_index(over)
                wseat = s2
        if s3 >= 0 and (sides >> s3) & 1 != (sides >> wseat) & 1:
            over = b3 & beaters(w, trump)
            if over:
                wseat = s3
        if (sides >> wseat) & 1 == mine:
            takes |= 1 << f
    n = 0
    if hint >= 0 and (moves >> hint) & 1:
        tt[fb] = hint
        n = 1
    n = _emit(tt, fb, n, takes, TAKE_ORDER)
    return _emit(tt, fb, n, rest & ~takes, LOSE_ORDER)


@jit
def _later(
    hands: tuple[int, int, int, int], seat: int, j: int, k: int, players: int, led: int,
    tmask: int, follow: bool, must_trump: bool,
) -> tuple[int, int]:  # fmt: skip
    """(what may be played, seat) of the ``j``-th seat after ``seat`` in a trick with ``k``
    cards played before ``seat``'s; (0, -1) when that seat has already played."""
    if k + j >= players:
        return 0, -1
    s = (seat + j) % players
    hs = hands[s]
    base = hs & SUIT_MASK[led] if follow else 0
    if not base:
        base = hs & tmask if must_trump else 0
        if not base:
            base = hs
    return base, s


@jit
def _emit(tt: np.ndarray, fb: int, n: int, faces: int, order: int) -> int:
    """Append ``faces`` to frame ``fb`` rank by rank in the context's ``order`` (a header slot
    holding 6 ranks, 4 bits each), suits in order within a rank; returns the new count."""
    ranks = tt[H_CTX + order]
    for i in range(6):
        r = (ranks >> (4 * i)) & 15
        m = faces & RANK_FACES[r]
        while m:
            f = lowest_bit_index(m)
            m ^= 1 << f
            tt[fb + n] = f
            n += 1
    return n


@jit
def _gen(
    tt: np.ndarray, fb: int, seat: int, k: int, led: int, wf: int, ws: int, tbl: int, hint: int
) -> int:
    """Order the distinct non-equivalent legal faces of ``seat`` into frame ``fb``."""
    own = tt[H_HANDS + seat] & PLANE
    occ = tbl
    for s in range(tt[H_CTX + CX_PLAYERS]):
        if s != seat:
            occ |= tt[H_HANDS + s] & PLANE
    legal = legal_mask(
        own,
        led,
        wf,
        tt[H_CTX + CX_TRUMP],
        tt[H_CTX + CX_FOLLOW] != 0,
        tt[H_CTX + CX_MUST_TRUMP] != 0,
        tt[H_CTX + CX_HEAD],
    )
    return _order(tt, fb, _reps(tt, legal, own, occ), seat, k, led, wf, ws, hint)


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
    players = tt[H_CTX + CX_PLAYERS]
    sides = tt[H_CTX + CX_SIDE]
    follow = tt[H_CTX + CX_FOLLOW] != 0
    heads = tt[H_CTX + CX_HEAD] == HEAD_ALWAYS
    tm = SUIT_MASK[trump]
    mine = (sides >> leader) & 1
    own = tt[H_HANDS + leader]
    best = 0
    run = 0
    for suit in range(4):
        if suit == trump:
            continue
        sm = SUIT_MASK[suit]
        if not own & sm:
            continue
        opp_top = -1
        mate_top = -1
        rounds = 1 << 10  # rounds of the suit before someone may trump it
        single = True
        for s in range(players):
            if s == leader:
                continue
            h = tt[H_HANDS + s]
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
            best = max(best, _pts(tt, top))
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
    lmask = SUIT_MASK[led]
    tmask = SUIT_MASK[trump]
    s = seat
    for _ in range(k, players):
        if (sides >> s) & 1 != holder:
            hs = tt[H_HANDS + s] & PLANE
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
        f = lowest_bit_index(tt[H_HANDS + seat] & PLANE)
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
        total += tt[H_CTX + CX_POINTS + r] * popcount(cards & RANK_BOTH[r])
    return total


@jit
def _sure_trumps(tt: np.ndarray) -> tuple[int, int]:
    """Points each side is sure to take at a trick boundary, from its trumps above every trump
    of the other side: such a card wins whatever trick it falls in (no card of the other side
    can beat or tie it), so its points go to its side. Returns (side's, others')."""
    tm = SUIT_MASK[tt[H_CTX + CX_TRUMP]]
    mine = 0
    theirs = 0
    for s in range(tt[H_CTX + CX_PLAYERS]):
        if _side(tt, s):
            mine |= tt[H_HANDS + s]
        else:
            theirs |= tt[H_HANDS + s]
    mine_top = highest_bit_index(mine & tm)
    theirs_top = highest_bit_index(theirs & tm)
    above_theirs = tm & ~((2 << theirs_top) - 1) if theirs_top >= 0 else tm
    above_mine = tm & ~((2 << mine_top) - 1) if mine_top >= 0 else tm
    both = (1 << 24) + 1
    gain = _points_of(tt, mine & above_theirs * both)
    lost = _points_of(tt, theirs & above_mine * both)
    return gain, lost


# --------------------------------------------------------------------------- search

ENTER = 0
NEXT = 1
RETURN = 2
ABORTED = -(1 << 40)
"""What a search returns when it ran out of nodes."""


OPEN = -1
"""What :func:`_settle` returns for a node it cannot decide without searching."""


@jit
def _settle(
    tt: np.ndarray, d: int, seat: int, k: int, led: int, wf: int, ws: int, tp: int, left: int,
    rem: int, need: int,
) -> tuple[int, int]:  # fmt: skip
    """Decide a node of the search without looking at its moves if possible: ``(v, hint)``,
    ``v`` a fail-soft value (see :func:`_search`) or :data:`OPEN`, ``hint`` the table's
    remembered best move (-1: none). From bounds (points left, sure points, a trick already
    settled), the last trick played out, or the table (whose key it leaves in frame ``d``)."""
    if need <= 0:
        return 0, -1
    if need > tp + rem:
        return tp + rem, -1
    if k > 0:
        owner = _trick_owner(tt, seat, k, led, wf, ws)
        if owner == 1 and need <= tp:
            return tp, -1
        if owner == 0 and need > rem:
            return rem, -1
        return OPEN, -1
    if left == 1:
        return _last_trick(tt, seat), -1
    gain, lost = _sure_trumps(tt)
    if _side(tt, seat):
        gain += _sure_lead(tt, seat)
    else:
        lost += _sure_lead(tt, seat)
    if need <= gain:
        return gain, -1
    if need > rem - lost:
        return rem - lost, -1
    if left < TABLE_MIN_LEFT:
        return OPEN, -1
    ko = STACK + d * F_WIDTH + F_KEY
    _make_key(tt, ko, seat)
    e = _tt_find(tt, ko)
    if e < 0:
        return OPEN, -1
    data = tt[e + E_DATA]
    if data & BOUND_MASK >= need:
        return data & BOUND_MASK, -1
    if (data >> 16) & BOUND_MASK < need:
        return (data >> 16) & BOUND_MASK, -1
    best = (data >> 32) & 0xFF
    return OPEN, _real_face(tt, best - 1) if best else -1


@jit
def _search(
    tt: np.ndarray,
    seat: int,
    k: int,
    led: int,
    wf: int,
    ws: int,
    tp: int,
    tbl: int,
    left: int,
    rem: int,
    need: int,
    limit: int,
) -> int:
    """Fail-soft null-window test from the state given (hands in the header).

    Returns ``v``: when ``v >= need`` the side takes at least ``v`` points from the current
    trick on, when ``v < need`` at most ``v``; :data:`ABORTED` when ``tt[H_NODES]`` reached
    ``limit`` first (the hands are then left as they were at that moment)."""
    trump = tt[H_CTX + CX_TRUMP]
    players = tt[H_CTX + CX_PLAYERS]
    last = tt[H_CTX + CX_LAST]
    nodes = tt[H_NODES]
    d = 0
    v = 0
    phase = ENTER
    while True:
        if phase == ENTER:
            nodes += 1
            if nodes > limit:
                tt[H_NODES] = nodes
                return ABORTED
            v, hint = _settle(tt, d, seat, k, led, wf, ws, tp, left, rem, need)
            if v != OPEN:
                phase = RETURN
                continue
            fb = STACK + d * F_WIDTH
            tt[fb + F_SEAT] = seat
            tt[fb + F_K] = k
            tt[fb + F_LED] = led
            tt[fb + F_WF] = wf
            tt[fb + F_WS] = ws
            tt[fb + F_TP] = tp
            tt[fb + F_TBL] = tbl
            tt[fb + F_LEFT] = left
            tt[fb + F_REM] = rem
            tt[fb + F_NEED] = need
            tt[fb + F_START] = nodes
            tt[fb + F_BEST] = -1 if _side(tt, seat) else NO_BOUND
            tt[fb + F_N] = _gen(tt, fb, seat, k, led, wf, ws, tbl, hint)
            tt[fb + F_I] = 0
            phase = NEXT
        elif phase == NEXT:
            fb = STACK + d * F_WIDTH
            i = tt[fb + F_I]
            seat = tt[fb + F_SEAT]
            k = tt[fb + F_K]
            if i == tt[fb + F_N]:  # every move tried, none decided: the best bound found
                v = tt[fb + F_BEST]
                if k == 0 and tt[fb + F_LEFT] >= TABLE_MIN_LEFT:
                    _tt_store(tt, fb + F_KEY, nodes - tt[fb + F_START], tt[fb + F_NEED], v, -1)
                phase = RETURN
                continue
            tt[fb + F_I] = i + 1
            f = tt[fb + i]
            tt[fb + F_FACE] = f
            tt[H_HANDS + seat] = remove_card(tt[H_HANDS + seat], f)
            led = tt[fb + F_LED]
            wf = tt[fb + F_WF]
            ws = tt[fb + F_WS]
            tp = tt[fb + F_TP]
            tbl = tt[fb + F_TBL]
            left = tt[fb + F_LEFT]
            rem = tt[fb + F_REM]
            need = tt[fb + F_NEED]
            p = _pts(tt, f)
            tp += p
            rem -= p
            tbl |= 1 << f
            if k == 0:
                led = f // 6
                wf = f
                ws = seat
            elif (beaters(wf, trump) >> f) & 1:
                wf = f
                ws = seat
            k += 1
            gained = 0
            if k == players:  # the trick is complete
                left -= 1
                if left == 0:
                    tp += last
                    rem -= last
                if _side(tt, ws):
                    gained = tp
                    need -= tp
                seat = ws
                k = 0
                led = -1
                wf = -1
                tp = 0
                tbl = 0
            else:
                seat = seat + 1 if seat + 1 < players else 0
            tt[fb + F_GAIN] = gained
            d += 1
            phase = ENTER
        else:  # RETURN: the node at depth d has the value (bound) v
            if d == 0:
                tt[H_NODES] = nodes
                return v
            d -= 1
            fb = STACK + d * F_WIDTH
            seat = tt[fb + F_SEAT]
            f = tt[fb + F_FACE]
            tt[H_HANDS + seat] = add_card(tt[H_HANDS + seat], f)
            v += tt[fb + F_GAIN]
            need = tt[fb + F_NEED]
            maxing = _side(tt, seat)
            if (v >= need) == maxing:  # a cut-off: this move decides the node
                if tt[fb + F_K] == 0 and tt[fb + F_LEFT] >= TABLE_MIN_LEFT:
                    best = _canon_face(tt, f)
                    _tt_store(tt, fb + F_KEY, nodes - tt[fb + F_START], need, v, best)
                continue
            if maxing:
                tt[fb + F_BEST] = max(tt[fb + F_BEST], v)
            else:
                tt[fb + F_BEST] = min(tt[fb + F_BEST], v)
            phase = NEXT


# --------------------------------------------------------------------------- positions


@jit
def _hand_points(tt: np.ndarray, hand: int) -> int:
    total = 0
    for f in range(24):
        total += _pts(tt, f) * (((hand >> f) & 1) + ((hand >> (f + 24)) & 1))
    return total


@jit
def _state(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int
) -> tuple[int, int, int, int, int, int, int, int, int]:
    """Load a position into the header (context already set); returns its state
    ``(seat, k, led, wf, ws, tp, tbl, left, rem)`` as :func:`_search` takes it."""
    trump = tt[H_CTX + CX_TRUMP]
    tt[H_HANDS] = h0
    tt[H_HANDS + 1] = h1
    tt[H_HANDS + 2] = h2
    tt[H_HANDS + 3] = h3
    seat = leader
    k = 0
    led = -1
    wf = -1
    ws = leader
    tp = 0
    tbl = 0
    for i in range(3):
        f = ((trick >> (8 * i)) & 0xFF) - 1
        if f < 0:
            break
        tp += _pts(tt, f)
        tbl |= 1 << f
        if k == 0:
            led = f // 6
            wf = f
            ws = seat
        elif (beaters(wf, trump) >> f) & 1:
            wf = f
            ws = seat
        k += 1
        seat = _next_seat(tt, seat)
    rem = tt[H_CTX + CX_LAST]
    for s in range(4):
        rem += _hand_points(tt, tt[H_HANDS + s])
    left = popcount(tt[H_HANDS + seat])
    return seat, k, led, wf, ws, tp, tbl, left, rem


@jit
def _test(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, need: int,
    limit: int,
) -> int:  # fmt: skip
    """Fail-soft null-window test of a position (see :func:`_search`)."""
    seat, k, led, wf, ws, tp, tbl, left, rem = _state(tt, h0, h1, h2, h3, leader, trick)
    if left == 0:
        return tp
    return _search(tt, seat, k, led, wf, ws, tp, tbl, left, rem, need, limit)


@jit
def _guess(
    tt: np.ndarray, seat: int, k: int, led: int, wf: int, ws: int, tp: int, tbl: int, left: int
) -> int:  # fmt: skip
    """A cheap estimate of the value of the state given (hands in the header): the points the
    side takes when every seat plays the first card of the search's own ordering (no table
    hint), to the end. Uses frame 0 as scratch and leaves the hands as they were."""
    trump = tt[H_CTX + CX_TRUMP]
    players = tt[H_CTX + CX_PLAYERS]
    saved = (tt[H_HANDS], tt[H_HANDS + 1], tt[H_HANDS + 2], tt[H_HANDS + 3])
    got = 0
    while left > 0:
        _gen(tt, STACK, seat, k, led, wf, ws, tbl, -1)
        f = tt[STACK]
        tt[H_HANDS + seat] = remove_card(tt[H_HANDS + seat], f)
        tp += _pts(tt, f)
        tbl |= 1 << f
        if k == 0:
            led = f // 6
            wf = f
            ws = seat
        elif (beaters(wf, trump) >> f) & 1:
            wf = f
            ws = seat
        k += 1
        if k == players:
            left -= 1
            if left == 0:
                tp += tt[H_CTX + CX_LAST]
            if _side(tt, ws):
                got += tp
            seat = ws
            k = 0
            led = -1
            wf = -1
            tp = 0
            tbl = 0
        else:
            seat = seat + 1 if seat + 1 < players else 0
    for s in range(4):
        tt[H_HANDS + s] = saved[s]
    return got


@jit
def _narrow(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, lo: int,
    hi: int, limit: int,
) -> tuple[int, int]:  # fmt: skip
    """Search the value inside ``[lo, hi]`` by null-window tests until solved or ``limit``
    nodes; each test's fail-soft bound narrows the interval beyond its target.

    The first test is at the :func:`_guess`; while the tests keep failing to the same side the
    next target moves on from the bound by 1, 2, 4, ... units; after the first turn, or when
    the guess is outside the interval, the targets bisect what is left."""
    st = _state(tt, h0, h1, h2, h3, leader, trick)
    unit = tt[H_UNIT]
    hi = min(hi, st[5] + st[8])  # the points on the table and still in the hands
    lo = max(lo, 0)
    if lo >= hi:
        return lo, hi
    g = _guess(tt, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7])
    stepping = lo < g <= hi
    mid = g
    step = unit
    up = True
    first = True
    while lo < hi:
        if not stepping:
            mid = lo + ((hi - lo) // unit + 1) // 2 * unit
        v = _test(tt, h0, h1, h2, h3, leader, trick, mid, limit)
        if v == ABORTED:
            break
        if v >= mid:
            lo = max(lo, v)
        else:
            hi = min(hi, v)
        if stepping:
            if not first and (v >= mid) != up:
                stepping = False
            up = v >= mid
            first = False
            mid = min(hi, lo + step) if up else max(lo + unit, hi - step + unit)
            step *= 2
    return lo, hi


@jit(entry=True)
def dd_bounds(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray, lo: int, hi: int, max_nodes: int,
) -> tuple[int, int]:  # fmt: skip
    """Narrow ``lo <= value <= hi`` until equal or ``max_nodes`` search nodes are spent; returns
    the proven bounds (``hi`` clipped to the points in play, ``lo`` to 0)."""
    _set_context(tt, trump, ra, side_mask)
    return _narrow(tt, h0, h1, h2, h3, leader, trick, lo, hi, tt[H_NODES] + max_nodes)


UNLIMITED = 1 << 62


@jit
def _value(tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int) -> int:
    lo, _ = _narrow(tt, h0, h1, h2, h3, leader, trick, 0, UNLIMITED, UNLIMITED)
    return lo


@jit(entry=True)
def dd_solve(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray,
) -> int:  # fmt: skip
    """The points the side takes from the current trick on under perfect play."""
    _set_context(tt, trump, ra, side_mask)
    return _value(tt, h0, h1, h2, h3, leader, trick)


@jit
def _after(
    tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, f: int
) -> tuple[int, int, int, int, int, int, int]:
    """The position after the seat to move plays ``f``: ``(h0, h1, h2, h3, leader, trick,
    points the side took)``, the points non-zero only when ``f`` completes a trick it wins."""
    players = tt[H_CTX + CX_PLAYERS]
    trump = tt[H_CTX + CX_TRUMP]
    k = _trick_len(trick)
    seat = (leader + k) % players
    n0 = remove_card(h0, f) if seat == 0 else h0
    n1 = remove_card(h1, f) if seat == 1 else h1
    n2 = remove_card(h2, f) if seat == 2 else h2
    n3 = remove_card(h3, f) if seat == 3 else h3
    if k + 1 < players:
        return n0, n1, n2, n3, leader, trick | ((f + 1) << (8 * k)), 0
    wf = -1
    ws = leader
    pts = 0
    s = leader
    for i in range(players):
        g = ((trick >> (8 * i)) & 0xFF) - 1 if i < k else f
        pts += _pts(tt, g)
        if wf < 0 or (beaters(wf, trump) >> g) & 1:
            wf = g
            ws = s
        s = _next_seat(tt, s)
    if n0 | n1 | n2 | n3 == 0:
        pts += tt[H_CTX + CX_LAST]
    return n0, n1, n2, n3, ws, 0, pts if _side(tt, ws) else 0


@jit
def _trick_len(trick: int) -> int:
    k = 0
    while k < 3 and (trick >> (8 * k)) & 0xFF:
        k += 1
    return k


@jit
def _legal_now(tt: np.ndarray, h0: int, h1: int, h2: int, h3: int, leader: int, trick: int) -> int:
    """Face mask of the legal plays of the seat to move (context already set)."""
    st = _state(tt, h0, h1, h2, h3, leader, trick)
    return _legal_for(tt, st[0], st[2], st[3])


@jit(entry=True)
def dd_move_values(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """``out[face]`` (24 slots) = the side's points from the current trick on after the seat
    to move plays ``face`` and all play perfectly after; -1 where ``face`` is not legal."""
    _set_context(tt, trump, ra, side_mask)
    legal = _legal_now(tt, h0, h1, h2, h3, leader, trick)
    for f in range(24):
        out[f] = -1
        if (legal >> f) & 1:
            n0, n1, n2, n3, ldr, trk, got = _after(tt, h0, h1, h2, h3, leader, trick, f)
            out[f] = got + _value(tt, n0, n1, n2, n3, ldr, trk)


@jit
def _tie_order(tt: np.ndarray, f: int) -> int:
    """Preference among equally good cards: fewer points, then lower rank, then suit order."""
    return _pts(tt, f) * 64 + (f % 6) * 4 + f // 6


@jit(entry=True)
def dd_best(
    h0: int, h1: int, h2: int, h3: int, leader: int, trick: int, trump: int, ra: np.ndarray,
    side_mask: int, tt: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """``(face, value)``: a best card for the seat to move (of several, the one with the fewest
    points, then the lowest rank, then the first suit) and the position's value."""
    _set_context(tt, trump, ra, side_mask)
    v = _value(tt, h0, h1, h2, h3, leader, trick)
    seat = _to_move(tt, leader, trick)
    maxing = _side(tt, seat)
    unit = tt[H_UNIT]
    remaining = _legal_now(tt, h0, h1, h2, h3, leader, trick)
    while remaining:
        best = -1
        m = remaining
        while m:
            f = lowest_bit_index(m)
            m ^= 1 << f
            if best < 0 or _tie_order(tt, f) < _tie_order(tt, best):
                best = f
        remaining ^= 1 << best
        n0, n1, n2, n3, ldr, trk, got = _after(tt, h0, h1, h2, h3, leader, trick, best)
        if maxing:
            if _test(tt, n0, n1, n2, n3, ldr, trk, v - got, UNLIMITED) >= v - got:
                return best, v
        elif _test(tt, n0, n1, n2, n3, ldr, trk, v - got + unit, UNLIMITED) < v - got + unit:
            return best, v
    return -1, v


@jit
def _to_move(tt: np.ndarray, leader: int, trick: int) -> int:
    return (leader + _trick_len(trick)) % tt[H_CTX + CX_PLAYERS]
