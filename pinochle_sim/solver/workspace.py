"""The solver's work array: its header, search stack, canonical-rank tables and transposition
table, laid out in one int64 array a caller owns (:func:`new_table`, or :func:`make_table` inside
a kernel) and reuses for any sequence of solves. Every slot is named here, once."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit

MAX_PLY = 68
"""Plies of the deepest position: 16 tricks of up to 4 cards, and one more."""
MAX_MOVES = 24
"""Distinct faces a seat may hold."""

SEATS = 4
"""Hand slots of the header (:data:`H_HANDS`). A seat the rules lack holds no cards, so a loop
that only gathers cards or compares hands runs over all four: a constant trip count the compiler
unrolls (10% fewer instructions in the search than looping over the rules' seats)."""

# Header of the work array (int64 slots).
H_MAGIC = 0  # MAGIC once initialised by new_table
H_GEN = 1  # current generation of table entries (1..GEN_MAX)
H_NODES = 2  # search nodes visited, cumulative
H_MASK = 3  # number of table buckets - 1 (a power of two minus one)
H_UNIT = 4  # gcd of the point values: every value is a multiple of it
H_ALIGN = 5  # words from ENTRIES to the first bucket, so buckets sit on cache lines
H_STOP = 6  # non-zero: another thread asks the search to stop (it aborts within ~65k nodes)
H_USE = 7  # the buckets this call uses - 1 (:func:`.context._fit_table`; at most H_MASK)
H_HANDS = 8  # SEATS slots: the hands during a search
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
H_FACE_POINTS = 32  # 24 slots: the points of each face (the context's, by face not rank)
H_KILL = H_FACE_POINTS + 24  # KILL_SLOTS slots: killer moves (below)
MAX_LEFT = 16
"""Tricks of the longest hand (as :data:`MAX_PLY` counts them)."""
KILL_SLOTS = 4 * (MAX_LEFT + 1) * 4 * 5
"""Killer moves, a slot each (:func:`kill_slot`): the card (face + 1, 0: none) that last
decided a node of ``seat`` with ``left`` tricks left, ``k`` cards on the table and suit ``led``
led after an earlier card had not (a *killer*); the ordering tries it second. Cleared with each
generation."""
H_REPLY = H_KILL + KILL_SLOTS
REPLY_SLOTS = 1 << 16
"""The reply memory, a slot each (:func:`reply_hash` picks it): the card that last decided a
node whose seat to move held the same cards, with as many tricks left and, inside a trick, the
same card winning it for the same seat in the same led suit; stored as ``check << 8 | face +
1`` (``check``: 24 more bits of the hash), 0 for none. The ordering tries it first. Cleared
with each generation."""
H_SIZE = H_REPLY + REPLY_SLOTS


@jit(inline="always")
def kill_slot(seat: int, left: int, k: int, led: int) -> int:
    """The header slot of the killer of ``seat`` with ``left`` tricks left, ``k`` cards played
    and ``led`` the led suit (-1 at a lead)."""
    return H_KILL + ((seat * (MAX_LEFT + 1) + left) * 4 + k) * 5 + led + 1


@jit(inline="always")
def reply_hash(hand: int, seat: int, left: int, trick: int) -> int:
    """The hash that keys the reply memory: the packed ``hand`` of ``seat``, ``left`` tricks
    left and ``trick`` (0 at a lead; inside a trick ``wf + 1 | ws << 6 | led << 9``: the card
    winning it, its seat, the led suit). Its low bits pick the slot, bits 20..43 check it."""
    h = (hand + (seat << 48) + (left << 51)) * 0x9E3779B97F4A7C15
    h ^= trick * 0xC2B2AE3D27D4EB4F
    return h ^ (h >> 29)


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
F_LATER = F_N + 21  # 1: the moves after the remembered one are still to be ordered
F_WIDTH = F_N + 22
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
    tt[H_USE] = tt[H_MASK]
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


# Work arrays made inside a kernel (a play policy that searches makes one per chunk of hands).


@jit
def make_table(bits: int) -> np.ndarray:
    """A zeroed work array with ``2**bits`` table buckets (4 <= bits <= 28)."""
    if bits < 4 or bits > 28:
        raise ValueError("table bits must be between 4 and 28")
    tt = np.zeros(table_words(bits), dtype=np.int64)
    init_table(tt)
    return tt


@jit
def table_words(bits: int) -> int:
    """Length of a work array with ``2**bits`` table buckets."""
    return ENTRIES + BUCKET + (1 << bits) * BUCKET


@jit
def init_table(tt: np.ndarray) -> None:
    """Make a zeroed array of :func:`table_words` ``(bits)`` words a work array (in place)."""
    tt[H_MAGIC] = MAGIC
    tt[H_MASK] = (tt.shape[0] - ENTRIES - BUCKET) // BUCKET - 1
    tt[H_USE] = tt[H_MASK]
    tt[H_ALIGN] = (-(tt.ctypes.data + 8 * ENTRIES) // 8) % BUCKET  # cache-line buckets: speed only
