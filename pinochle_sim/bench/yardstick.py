"""The minimal engine: a deliberately small, self-contained numba engine for four-hand partnership
pinochle, used only as a speed yardstick.

The benchmark runs it back to back with the real engine on the same machine (cold compile time and
warm end-to-end time of a million-hand run), so that a change of the machine shows up in both and
the ratio says how much the real engine's rules, policies and run machinery cost. To stay an
independent baseline it imports nothing from ``pinochle_sim`` (only the standard library, numpy,
numba and pyarrow), and it plays the simplest plausible hand:

* **Deal**: a splitmix64 stream per hand (seeded by a mix of ``seed`` and the hand index, so a
  hand's deal does not depend on chunking or threads), a Fisher-Yates shuffle of the 48 cards with
  Lemire's multiply-shift (two 32-bit draws per 64-bit word, no rejection: the bias is below
  48 / 2**32), 12 cards to each seat. Hands are packed as in the real engine: bit ``f`` of the low
  24 bits = at least one copy of face ``f = suit * 6 + rank`` (suits S, H, D, C; ranks 9, J, Q, K,
  10, A), bit ``24 + f`` = both copies.
* **Meld** (single-deck partnership values, :data:`MELD`): a per-suit lookup table indexed by the
  suit's 12 bits (one-copy bits | two-copy bits << 6), one for trump (run, royal marriages, dix)
  and one for plain suits (marriages), plus the cross-suit melds (pinochle, arounds) by masks.
* **Bid**: each seat estimates its best meld plus 20 per ace; the highest estimate (ties: the
  first seat after the dealer) bids ``max(250, estimate rounded down to 10)`` in its best suit.
* **Tricks**: greedy: the leader plays the top card of its longest plain suit (its top trump when
  it holds only trumps); a follower must follow suit, else trump, else play anything, and must
  beat the winning card when able; it plays the lowest card that wins, else its lowest card.
  Of two identical cards the first played wins. A, 10, K count 10 each, the last trick 10.
* **Score**: the bidding side scores meld plus trick points if that reaches the bid, else minus
  the bid; the defenders score meld plus trick points.

The records have the real engine's partnership columns, names and dtypes (:data:`COLUMNS`), so
that the Parquet encoding cost is comparable; columns of steps the minimal engine skips hold
constants (nothing is passed, one auction call). ``python -m pinochle_sim.runs.yardstick --hands
1e6 --seed 0 --out DIR`` writes ``DIR/hands.parquet``.

Compiled code is cached in ``~/.cache/pinochle-sim/yardstick-<hash of this file>`` (honouring
``XDG_CACHE_HOME``; ``NUMBA_CACHE_DIR`` overrides it), so editing the file recompiles. The folder
is set only while the kernels are defined: numba fixes a function's cache folder when it is
decorated, and other modules' kernels in the same process keep theirs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import prange, types
from numba.extending import intrinsic

# ---------------------------------------------------------------------------------------------
# Compile cache folder (before any kernel is defined).


def cache_dir() -> Path:
    """Where the kernels' compiled code is kept: ``NUMBA_CACHE_DIR`` if set, else
    ``$XDG_CACHE_HOME/pinochle-sim/yardstick-<16 hex of sha256 of this file>``."""
    asked = os.environ.get("NUMBA_CACHE_DIR")
    if asked:
        return Path(asked)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return Path(base) / "pinochle-sim" / f"yardstick-{digest}"


_PREVIOUS_CACHE_DIR = numba.config.CACHE_DIR
numba.config.CACHE_DIR = str(cache_dir())

# ---------------------------------------------------------------------------------------------
# Cards, columns and meld values (plain Python, read by the kernels as constants or arrays).

SUIT_LETTERS = "shdc"
R9, RJ, RQ, RK, R10, RA = range(6)
SUIT_BITS = 0x3F
"""The six face bits of a suit, at suit 0."""
RANK_BITS = 0x041041
"""The four face bits of a rank (one per suit), at rank 0."""
PINOCHLE_BITS = (1 << (0 * 6 + RQ)) | (1 << (2 * 6 + RJ))
"""Queen of spades and jack of diamonds."""
PLANE = (1 << 24) - 1
COUNTER_BITS = (RANK_BITS << RK) | (RANK_BITS << R10) | (RANK_BITS << RA)
"""The faces worth trick points (A, 10, K)."""

MELD: dict[str, int] = {
    "run": 150,
    "double_run": 1500,
    "royal_marriage": 40,
    "dix": 10,
    "marriage": 20,
    "pinochle": 40,
    "double_pinochle": 300,
    "aces": 100,
    "double_aces": 1000,
    "kings": 80,
    "double_kings": 800,
    "queens": 60,
    "double_queens": 600,
    "jacks": 40,
    "double_jacks": 400,
}
"""Single-deck partnership meld values."""

ACE_BONUS = 20
"""Points per ace the bid estimate adds to the best meld."""
MIN_BID = 250
COUNTER_POINTS = 10
"""Trick points of each A, 10 and K, and of the last trick."""
CHUNK = 4096
"""Hands per parallel work item."""
ROW_GROUP = 131072
"""Rows per Parquet row group, and hands per batch of :func:`run`."""


def _columns() -> tuple[tuple[str, str], ...]:
    seats, sides = range(4), range(2)
    cols = [
        ("hand", "int64"),
        ("dealer", "int8"),
        ("bidder", "int8"),
        ("bid", "int16"),
        ("trump", "int8"),
        ("stuck", "bool"),
        ("conceded", "bool"),
        ("made", "bool"),
    ]
    cols += [(f"dealt_{p}", "int64") for p in seats]
    cols += [(f"meld_{p}_{s}", "int16") for p in seats for s in SUIT_LETTERS]
    cols += [(f"len_{p}_{s}", "int8") for p in seats for s in SUIT_LETTERS]
    cols += [(f"aces_{p}", "int8") for p in seats]
    cols += [(f"meld_{p}", "int16") for p in seats]
    cols += [("passed_to_bidder", "int64"), ("passed_to_partner", "int64"), ("n_calls", "int16")]
    for prefix, dtype in (
        ("high_bid", "int16"),
        ("team_meld", "int16"),
        ("team_tricks", "int16"),
        ("counters", "int8"),
        ("tricks_won", "int8"),
        ("score", "int16"),
    ):
        cols += [(f"{prefix}_{k}", dtype) for k in sides]
    return tuple(cols)


COLUMNS: tuple[tuple[str, str], ...] = _columns()
"""(name, dtype) of every record column, in order: the real engine's partnership schema."""
_AT = {name: i for i, (name, _) in enumerate(COLUMNS)}
C_HAND, C_DEALER, C_BIDDER, C_BID = _AT["hand"], _AT["dealer"], _AT["bidder"], _AT["bid"]
C_TRUMP, C_STUCK, C_CONCEDED, C_MADE = _AT["trump"], _AT["stuck"], _AT["conceded"], _AT["made"]
C_DEALT, C_MELD_PRE, C_LEN = _AT["dealt_0"], _AT["meld_0_s"], _AT["len_0_s"]
C_ACES, C_MELD, C_PASSED = _AT["aces_0"], _AT["meld_0"], _AT["passed_to_bidder"]
C_N_CALLS, C_HIGH_BID, C_TEAM_MELD = _AT["n_calls"], _AT["high_bid_0"], _AT["team_meld_0"]
C_TEAM_TRICKS, C_COUNTERS = _AT["team_tricks_0"], _AT["counters_0"]
C_TRICKS_WON, C_SCORE = _AT["tricks_won_0"], _AT["score_0"]


def _suit_meld(idx: int, trump: bool) -> int:
    """Meld within one suit from its 12-bit index (one-copy bits | two-copy bits << 6)."""
    one, two = idx & SUIT_BITS, idx >> 6
    n = [((one >> r) & 1) + ((two >> r) & 1) for r in range(6)]
    marriages = min(n[RK], n[RQ])
    if not trump:
        return MELD["marriage"] * marriages
    runs = min(n[RA], n[R10], n[RK], n[RQ], n[RJ])
    value = (0, MELD["run"], MELD["double_run"])[runs]
    return value + MELD["royal_marriage"] * (marriages - runs) + MELD["dix"] * n[R9]


def _tables() -> tuple[np.ndarray, np.ndarray]:
    """(suit tables ``[plain, trump][index]``, cross-suit values) for the kernels."""
    suits = np.array([[_suit_meld(i, t) for i in range(4096)] for t in (False, True)], np.int64)
    cross = [MELD["pinochle"], MELD["double_pinochle"]]
    for name in ("aces", "kings", "queens", "jacks"):
        cross += [MELD[name], MELD[f"double_{name}"]]
    return suits, np.array(cross, dtype=np.int64)


SUIT_TABLES, CROSS = _tables()
AROUND_RANKS = (RA, RK, RQ, RJ)
"""Ranks of the arounds, in the order of their values in :data:`CROSS` (after pinochle)."""

# ---------------------------------------------------------------------------------------------
# Bit intrinsics (single instructions).


@intrinsic
def popcount(typingctx, x):
    """Set bits of an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(context.cast(builder, args[0], x, types.int64))

    return types.int64(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a nonzero int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        return builder.cttz(value, context.get_constant(types.boolean, True))

    return types.int64(x), codegen


@intrinsic
def highest_bit(typingctx, x):
    """Index of the highest set bit of a nonzero int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.int64)
        lz = builder.ctlz(value, context.get_constant(types.boolean, True))
        return builder.sub(context.get_constant(types.int64, 63), lz)

    return types.int64(x), codegen


# ---------------------------------------------------------------------------------------------
# Kernels.

_OPTS = {"cache": True, "nogil": True, "error_model": "numpy"}
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@numba.njit(**_OPTS)
def _mix(z: np.uint64) -> np.uint64:
    """splitmix64's output function."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@numba.njit(**_OPTS)
def _below(r32: np.uint64, n: int) -> int:
    """A 32-bit random ``r32`` mapped to 0..n-1 (Lemire's multiply-shift)."""
    return np.int64((r32 * np.uint64(n)) >> _S32)


@numba.njit(**_OPTS)
def _swap(deck: np.ndarray, i: int, j: int) -> None:
    deck[i], deck[j] = deck[j], deck[i]


@numba.njit(**_OPTS)
def _deal(seed: int, h: int, deck: np.ndarray, hands: np.ndarray) -> None:
    """Hand ``h`` of ``seed``: the four packed hands into ``hands`` (``deck``: 48 scratch)."""
    for c in range(48):
        deck[c] = c >> 1
    state = _mix(_mix(np.uint64(seed) ^ _GAMMA) + np.uint64(h) * _GAMMA)
    for k in range(23):  # i = 47 .. 2 in pairs, one 64-bit word each
        i = 47 - 2 * k
        state += _GAMMA
        x = _mix(state)
        _swap(deck, i, _below(x >> _S32, i + 1))
        _swap(deck, i - 1, _below(x & _LOW32, i))
    state += _GAMMA
    _swap(deck, 1, _below(_mix(state) >> _S32, 2))
    for p in range(4):
        one = 0
        two = 0
        for c in range(12 * p, 12 * p + 12):
            b = 1 << deck[c]
            two |= one & b
            one |= b
        hands[p] = one | (two << 24)


@numba.njit(**_OPTS)
def _cross_meld(one: int, two: int, cross: np.ndarray) -> int:
    """Pinochle and the arounds (the melds across suits)."""
    v = 0
    if two & PINOCHLE_BITS == PINOCHLE_BITS:
        v += cross[1]
    elif one & PINOCHLE_BITS == PINOCHLE_BITS:
        v += cross[0]
    for i in range(4):
        m = RANK_BITS << AROUND_RANKS[i]
        if two & m == m:
            v += cross[3 + 2 * i]
        elif one & m == m:
            v += cross[2 + 2 * i]
    return v


@numba.njit(**_OPTS)
def _suit_index(one: int, two: int, s: int) -> int:
    """Suit ``s``'s 12-bit table index: its one-copy bits | its two-copy bits << 6."""
    return ((one >> (6 * s)) & SUIT_BITS) | (((two >> (6 * s)) & SUIT_BITS) << 6)


@numba.njit(**_OPTS)
def _melds(hand: int, suits: np.ndarray, cross: np.ndarray, out: np.ndarray) -> None:
    """A packed hand's meld with each suit as trump into ``out[0..3]``."""
    one, two = hand & PLANE, hand >> 24
    base = _cross_meld(one, two, cross)
    for s in range(4):
        base += suits[0, _suit_index(one, two, s)]
    for t in range(4):
        i = _suit_index(one, two, t)
        out[t] = base - suits[0, i] + suits[1, i]


@numba.njit(**_OPTS)
def meld_kernel(hand: int, trump: int, suits: np.ndarray, cross: np.ndarray) -> int:
    """A packed hand's meld with ``trump`` (for tests and examples)."""
    out = np.empty(4, np.int64)
    _melds(hand, suits, cross, out)
    return out[trump]


@numba.njit(**_OPTS)
def _suit_len(one: int, two: int, s: int) -> int:
    m = SUIT_BITS << (6 * s)
    return popcount(one & m) + popcount(two & m)


@numba.njit(**_OPTS)
def _lead(one: int, two: int, trump: int) -> int:
    """The leader's face: the top card of its longest plain suit (its top trump if none)."""
    best, most = trump, 0
    for s in range(4):
        n = _suit_len(one, two, s)
        if s != trump and n > most:
            best, most = s, n
    return highest_bit(one & (SUIT_BITS << (6 * best)))


@numba.njit(**_OPTS)
def _lowest_card(mask: int) -> int:
    """The face of lowest rank in a nonzero face mask (lowest suit among equals)."""
    for r in range(6):
        m = mask & (RANK_BITS << r)
        if m:
            return lowest_bit(m)
    return -1


@numba.njit(**_OPTS)
def _follow(one: int, led: int, win: int, trump: int) -> int:
    """A follower's face: must follow, else trump, else anything; must beat ``win`` if able;
    the lowest card that wins, else the lowest legal card."""
    legal = one & (SUIT_BITS << (6 * led))
    if not legal:
        legal = one & (SUIT_BITS << (6 * trump))
        if not legal:
            legal = one
    ws = win // 6
    beat = (SUIT_BITS << (6 * ws)) & ~((2 << win) - 1)  # higher cards of the winner's suit
    if ws != trump:
        beat |= SUIT_BITS << (6 * trump)
    wins = legal & beat
    return _lowest_card(wins if wins else legal)


@numba.njit(**_OPTS)
def _take(one: np.ndarray, two: np.ndarray, p: int, f: int) -> None:
    """Seat ``p`` gives up one copy of face ``f`` (the second copy first)."""
    b = 1 << f
    t = two[p] & b
    two[p] ^= t
    one[p] ^= b ^ t


@numba.njit(**_OPTS)
def _tricks(one: np.ndarray, two: np.ndarray, leader: int, trump: int, res: np.ndarray) -> None:
    """Play the 12 tricks from each seat's one/two planes (consumed). ``res``: each side's trick
    points (``res[side]``), counters won (``res[2 + side]``) and tricks won (``res[4 + side]``)."""
    res[:] = 0
    for trick in range(12):
        win = _lead(one[leader], two[leader], trump)
        _take(one, two, leader, win)
        led, seat = win // 6, leader
        counters = (COUNTER_BITS >> win) & 1
        for k in range(1, 4):
            p = (leader + k) & 3
            f = _follow(one[p], led, win, trump)
            _take(one, two, p, f)
            counters += (COUNTER_BITS >> f) & 1
            s, ws = f // 6, win // 6
            if (s == ws and f > win) or (s == trump and ws != trump):
                win, seat = f, p
        side = seat & 1
        res[side] += COUNTER_POINTS * counters
        if trick == 11:
            res[side] += COUNTER_POINTS
        res[2 + side] += counters
        res[4 + side] += 1
        leader = seat


@numba.njit(**_OPTS)
def _play_chunk(
    seed: int, lo: int, start: int, stop: int, suits: np.ndarray, cross: np.ndarray, out: np.ndarray
) -> None:
    """Hands ``lo + start .. lo + stop - 1`` into ``out[:, start:stop]``."""
    deck = np.empty(48, np.int64)
    hands = np.empty(4, np.int64)
    melds = np.empty((4, 4), np.int64)
    one = np.empty(4, np.int64)
    two = np.empty(4, np.int64)
    res = np.empty(6, np.int64)
    for row in range(start, stop):
        h = lo + row
        dealer = h & 3
        _deal(seed, h, deck, hands)
        bidder, best_est = dealer, -1
        for k in range(1, 5):
            p = (dealer + k) & 3
            hand = hands[p]
            one[p], two[p] = hand & PLANE, hand >> 24
            _melds(hand, suits, cross, melds[p])
            aces = popcount(hand & ((RANK_BITS | (RANK_BITS << 24)) << RA))
            top = 0
            for s in range(4):
                out[C_MELD_PRE + 4 * p + s, row] = melds[p, s]
                out[C_LEN + 4 * p + s, row] = _suit_len(one[p], two[p], s)
                top = max(top, melds[p, s])
            est = top + ACE_BONUS * aces
            if est > best_est:
                bidder, best_est = p, est
            out[C_DEALT + p, row] = hand
            out[C_ACES + p, row] = aces
        trump = 0
        for s in range(1, 4):
            if melds[bidder, s] > melds[bidder, trump]:
                trump = s
        bid = max(MIN_BID, best_est // 10 * 10)
        _tricks(one, two, bidder, trump, res)
        side = bidder & 1
        team_meld0 = melds[0, trump] + melds[2, trump]
        team_meld1 = melds[1, trump] + melds[3, trump]
        own = (team_meld1 if side else team_meld0) + res[side]
        made = own >= bid
        for q in range(2):
            total = (team_meld1 if q else team_meld0) + res[q]
            out[C_HIGH_BID + q, row] = bid if q == side else 0
            out[C_TEAM_MELD + q, row] = team_meld1 if q else team_meld0
            out[C_TEAM_TRICKS + q, row] = res[q]
            out[C_COUNTERS + q, row] = res[2 + q]
            out[C_TRICKS_WON + q, row] = res[4 + q]
            out[C_SCORE + q, row] = total if (q != side or made) else -bid
        for p in range(4):
            out[C_MELD + p, row] = melds[p, trump]
        out[C_HAND, row] = h
        out[C_DEALER, row] = dealer
        out[C_BIDDER, row] = bidder
        out[C_BID, row] = bid
        out[C_TRUMP, row] = trump
        out[C_STUCK, row] = 0
        out[C_CONCEDED, row] = 0
        out[C_MADE, row] = made
        out[C_PASSED, row] = 0
        out[C_PASSED + 1, row] = 0
        out[C_N_CALLS, row] = 1


@numba.njit(cache=True, nogil=True, parallel=True)
def play_kernel(seed: int, lo: int, suits: np.ndarray, cross: np.ndarray, out: np.ndarray) -> None:
    """Hands ``lo .. lo + n - 1`` of ``seed`` into ``out[column, 0..n-1]`` (``n = out.shape[1]``),
    chunks of :data:`CHUNK` hands on numba's threads."""
    n = out.shape[1]
    for c in prange((n + CHUNK - 1) // CHUNK):
        start = c * CHUNK
        _play_chunk(seed, lo, start, min(start + CHUNK, n), suits, cross, out)


numba.config.CACHE_DIR = _PREVIOUS_CACHE_DIR

# ---------------------------------------------------------------------------------------------
# Python entry points.


def _check(hands: int, seed: int) -> None:
    if not isinstance(hands, (int, np.integer)) or hands < 0:
        raise ValueError(f"hands must be a non-negative integer, not {hands!r}")
    if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer in 0 .. 2**63 - 1, not {seed!r}")


def _fill(out: np.ndarray, seed: int, lo: int) -> np.ndarray:
    play_kernel(np.int64(seed), np.int64(lo), SUIT_TABLES, CROSS, out)
    return out


def play(hands: int, seed: int) -> np.ndarray:
    """The records of hands ``0 .. hands - 1`` of ``seed`` as int64 columns ``(len(COLUMNS),
    hands)``, without writing."""
    _check(hands, seed)
    return _fill(np.empty((len(COLUMNS), int(hands)), np.int64), seed, 0)


def meld(hand: int, trump: int) -> int:
    """A packed hand's meld with ``trump`` (0..3 for S, H, D, C) as the minimal engine counts it."""
    return int(meld_kernel(np.int64(hand), np.int64(trump), SUIT_TABLES, CROSS))


def _arrow(dtype: str) -> pa.DataType:
    return pa.bool_() if dtype == "bool" else pa.from_numpy_dtype(np.dtype(dtype))


SCHEMA = pa.schema([(name, _arrow(dtype)) for name, dtype in COLUMNS])
"""The Arrow schema of the records."""


def to_table(out: np.ndarray) -> pa.Table:
    """Int64 columns ``out[column, row]`` as an Arrow table of the record dtypes (built from
    buffers: ``pa.array`` on numpy would load pandas)."""
    n = out.shape[1]
    arrays = []
    for (_, dt), col, field in zip(COLUMNS, out, SCHEMA, strict=True):
        data = np.packbits(col != 0, bitorder="little") if dt == "bool" else col.astype(dt)
        arrays.append(pa.Array.from_buffers(field.type, n, [None, pa.py_buffer(data)]))
    return pa.Table.from_arrays(arrays, schema=SCHEMA)


def run(hands: int, seed: int, out_dir: str | Path, threads: int | None = None) -> Path:
    """Play hands ``0 .. hands - 1`` of ``seed`` and write them to ``out_dir/hands.parquet``
    (zstd, row groups of :data:`ROW_GROUP`; written under a temporary name and renamed), in
    batches of one row group; ``threads``: numba's thread count. Returns the file's path."""
    _check(hands, seed)
    if threads is not None:
        numba.set_num_threads(threads)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hands.parquet"
    tmp = folder / f".hands.parquet.{os.getpid()}.tmp"
    try:
        with pq.ParquetWriter(tmp, SCHEMA, compression="zstd") as writer:
            buf = np.empty((len(COLUMNS), min(ROW_GROUP, hands)), np.int64)
            for lo in range(0, hands, ROW_GROUP):
                n = min(ROW_GROUP, hands - lo)
                if n < buf.shape[1]:
                    buf = np.empty((len(COLUMNS), n), np.int64)
                writer.write_table(to_table(_fill(buf, seed, lo)), row_group_size=ROW_GROUP)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _count(text: str) -> int:
    """A positive hand count from ``1000000``, ``1e6``, ``1_000_000`` or ``2.5e5``."""
    t = text.strip().replace("_", "")
    if re.fullmatch(r"\d+", t):
        value = int(t)
    elif re.fullmatch(r"(\d+(\.\d*)?|\.\d+)[eE]\+?\d+", t):
        mantissa, exponent = re.split("[eE]", t)
        whole, _, frac = mantissa.partition(".")
        digits, scale = int((whole or "0") + frac), int(exponent) - len(frac)
        if scale < 0 and digits % 10**-scale:
            raise argparse.ArgumentTypeError(f"not a whole number of hands: {text!r}")
        value = digits * 10**scale if scale >= 0 else digits // 10**-scale
    else:
        raise argparse.ArgumentTypeError(f"not a hand count: {text!r}")
    if not 1 <= value < 2**62:
        raise argparse.ArgumentTypeError(f"hands must be at least 1: {text!r}")
    return value


def _seed(text: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"\d+", t) or int(t) >= 2**63:
        raise argparse.ArgumentTypeError(f"not a seed (0 .. 2**63 - 1): {text!r}")
    return int(t)


def _threads(text: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"\d+", t) or not 1 <= int(t) <= numba.config.NUMBA_NUM_THREADS:
        raise argparse.ArgumentTypeError(
            f"not a thread count (1 .. {numba.config.NUMBA_NUM_THREADS}): {text!r}"
        )
    return int(t)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """One line on stderr and exit status 2 (no usage block)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    """``python -m pinochle_sim.runs.yardstick --hands 1e6 --seed 0 --out DIR``."""
    parser = _Parser(
        prog="python -m pinochle_sim.runs.yardstick",
        description="The minimal engine (the benchmark's speed yardstick): play hands and write "
        "OUT/hands.parquet.",
    )
    parser.add_argument("--hands", type=_count, required=True, help="hands to play, e.g. 1e6")
    parser.add_argument("--seed", type=_seed, default=0, help="seed (default 0)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--threads", type=_threads, default=None, help="numba threads")
    parser.add_argument("--verbose", action="store_true", help="print the path and the time")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    try:
        path = run(args.hands, args.seed, args.out, args.threads)
    except OSError as exc:
        why = exc.strerror or str(exc)
        where = exc.filename if exc.filename is not None else args.out
        print(f"{parser.prog}: error: cannot write the run to {str(where)!r}: {why}"
              " (--out names a folder, made if missing)", file=sys.stderr)  # fmt: skip
        return 1
    if args.verbose:
        seconds = time.perf_counter() - t0
        print(f"{path}: {args.hands:,} hands in {seconds:.2f} s ({args.hands / seconds:,.0f} /s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
