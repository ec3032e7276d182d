"""Exact, uniform sampling of the unseen cards: the worlds a sampling play policy (``pimc``)
solves.

A seat about to play knows its own hand, every card played, some cards it knows other seats
hold (:mod:`.known`) and, for each other physical copy still unseen, the *locations* it may be
in: the other seats that have not shown they cannot hold it (voids, "nothing higher"), and, in
three-hand, the bidder's discard. The worlds it should consider are the assignments a random
deal gives, conditioned on all that: each unseen physical copy goes to one allowed location,
each location gets exactly its free places, and every such assignment is equally likely.

"Deal and retry until consistent" stalls late in a hand, when few assignments pass. This
sampler never retries. Copies with the same set of allowed locations form a *group*; the number
of assignments that complete a partial one depends only on the places left at each location, so
a small table (:func:`prepare`: one row per group, one entry per vector of places left) counts
them exactly. One uniform integer below the total then picks an assignment (:func:`draw`):
group by group, how many of its copies go where (with probability proportional to the
completions), then which copies (a uniform arrangement, decoded from the same integer).

At most three locations (four-hand: three other seats; three-hand: two seats and, for a
defender, the discard), at most 15 places each. The counts are exact int64: the largest, at the
first lead of a four-hand deal, is 36!/(12!)^3 ~ 3.9e15, below the 2**53 that
:func:`uniform_below` draws under (three-hand: 33!/(15! 15! 3!) ~ 8.5e11).

Scratch layout (int64, :data:`SCRATCH_SIZE`, owned by the caller and reused): ``SC_*`` below.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import key_draw
from pinochle_sim.core.tricks import add_card

MAX_LOC = 3
"""Locations an unseen copy may be in."""
MAX_GROUPS = 1 << MAX_LOC
"""Groups: one per non-empty set of locations (bit ``l`` = location ``l``)."""
MAX_COPIES = 48
STATES = 16**MAX_LOC
"""Vectors of places left, ``c0 + 16 * c1 + 256 * c2``."""
SC_NLOC = 0  # locations in use
SC_NG = 1  # groups in use
SC_TOTAL = 2  # number of assignments
SC_CAP = 4  # MAX_LOC: free places at each location
SC_GMASK = SC_CAP + MAX_LOC  # MAX_GROUPS: the allowed locations of each group
SC_GN = SC_GMASK + MAX_GROUPS  # MAX_GROUPS: copies in each group
SC_GFACES = SC_GN + MAX_GROUPS  # MAX_GROUPS x MAX_COPIES: the faces of each group's copies
SC_BINOM = SC_GFACES + MAX_GROUPS * MAX_COPIES  # 49 x 49 binomial coefficients
SC_DP = SC_BINOM + (MAX_COPIES + 1) ** 2  # (MAX_GROUPS + 1) x STATES: completions
SCRATCH_SIZE = SC_DP + (MAX_GROUPS + 1) * STATES


def new_scratch() -> np.ndarray:
    """A scratch array for :func:`prepare` and :func:`draw` (Python callers, tests)."""
    return np.zeros(SCRATCH_SIZE, dtype=np.int64)


@jit
def _binom(sc: np.ndarray, n: int, k: int) -> int:
    return sc[SC_BINOM + 49 * n + k]


@jit
def _fill_binomials(sc: np.ndarray) -> None:
    if sc[SC_BINOM] == 1:
        return
    for n in range(MAX_COPIES + 1):
        sc[SC_BINOM + 49 * n] = 1
        for k in range(1, n + 1):
            up = sc[SC_BINOM + 49 * (n - 1) + k] if k < n else 0
            sc[SC_BINOM + 49 * n + k] = sc[SC_BINOM + 49 * (n - 1) + k - 1] + up


@jit
def prepare(
    sc: np.ndarray, n_loc: int, cap0: int, cap1: int, cap2: int, faces: np.ndarray,
    allowed: np.ndarray, n: int,
) -> int:  # fmt: skip
    """Set up sampling ``n`` unseen copies (``faces[i]``, allowed locations ``allowed[i]``, a
    bit mask) into ``n_loc`` locations with ``cap0..cap2`` free places; returns the number of
    assignments (0: none is consistent, or the places do not add up to ``n``)."""
    _fill_binomials(sc)
    sc[SC_NLOC] = n_loc
    caps = (cap0, cap1 if n_loc > 1 else 0, cap2 if n_loc > 2 else 0)
    for i in range(MAX_LOC):
        sc[SC_CAP + i] = caps[i]
        if caps[i] < 0 or caps[i] > 15:
            return 0
    if caps[0] + caps[1] + caps[2] != n:
        return 0
    full = (1 << n_loc) - 1
    ng = 0
    for m in range(1, full + 1):
        k = 0
        for i in range(n):
            if (allowed[i] & full) == m:
                sc[SC_GFACES + MAX_COPIES * ng + k] = faces[i]
                k += 1
        if k:
            sc[SC_GMASK + ng] = m
            sc[SC_GN + ng] = k
            ng += 1
    for i in range(n):
        if allowed[i] & full == 0:
            return 0
    sc[SC_NG] = ng
    # Completions of groups g.. from places left c (only vectors summing to their copies).
    last = SC_DP + STATES * ng
    sc[last : last + STATES] = 0
    sc[last] = 1
    left = 0
    for g in range(ng - 1, -1, -1):
        row = SC_DP + STATES * g
        nxt = row + STATES
        sc[row : row + STATES] = 0
        cnt = sc[SC_GN + g]
        m = sc[SC_GMASK + g]
        left += cnt
        for c0 in range(min(caps[0], left) + 1):
            for c1 in range(min(caps[1], left - c0) + 1):
                c2 = left - c0 - c1
                if c2 > caps[2]:
                    continue
                total = 0
                for k0 in range(min(cnt, c0) + 1 if m & 1 else 1):
                    w0 = _binom(sc, cnt, k0)
                    for k1 in range(min(cnt - k0, c1) + 1 if m & 2 else 1):
                        k2 = cnt - k0 - k1
                        if k2 > c2 or (k2 > 0 and not m & 4):
                            continue
                        ways = w0 * _binom(sc, cnt - k0, k1)
                        total += ways * sc[nxt + (c0 - k0) + 16 * (c1 - k1) + 256 * (c2 - k2)]
                sc[row + c0 + 16 * c1 + 256 * c2] = total
    total = sc[SC_DP + caps[0] + 16 * caps[1] + 256 * caps[2]]
    sc[SC_TOTAL] = total
    return total


@jit
def uniform_below(key, k: int, n: int) -> tuple[int, int]:
    """``(x, k')``: ``x`` uniform in ``0..n-1`` (``1 <= n < 2**53``) from draws ``k + 1, ...``
    of the sub-stream ``key`` (rejection, so exactly uniform); ``k'`` is the last draw used."""
    span = np.int64(1) << 53
    limit = span - span % n
    while True:
        k += 1
        u = np.int64(key_draw(key, k) >> np.uint64(11))
        if u < limit:
            return u % n, k


@jit
def draw(sc: np.ndarray, r: int) -> tuple[int, int, int]:
    """The assignment number ``r`` (``0 <= r <`` the total of :func:`prepare`): the copies
    each location gets, packed like hands. A uniform ``r`` gives a uniform assignment."""
    c = [sc[SC_CAP], sc[SC_CAP + 1], sc[SC_CAP + 2]]
    out = [0, 0, 0]
    ng = sc[SC_NG]
    for g in range(ng):
        nxt = SC_DP + STATES * (g + 1)
        cnt = sc[SC_GN + g]
        m = sc[SC_GMASK + g]
        pick0, pick1, pick2, ways, sub = -1, -1, -1, 0, 0
        for k0 in range(min(cnt, c[0]) + 1 if m & 1 else 1):
            if pick0 >= 0:
                break
            for k1 in range(min(cnt - k0, c[1]) + 1 if m & 2 else 1):
                k2 = cnt - k0 - k1
                if k2 > c[2] or (k2 > 0 and not m & 4):
                    continue
                w = _binom(sc, cnt, k0) * _binom(sc, cnt - k0, k1)
                s = sc[nxt + (c[0] - k0) + 16 * (c[1] - k1) + 256 * (c[2] - k2)]
                if r < w * s:
                    pick0, pick1, pick2, ways, sub = k0, k1, k2, w, s
                    break
                r -= w * s
        a = r // sub  # which arrangement of this group's copies, uniform in 0..ways-1
        r = r % sub  # what is left picks the later groups
        left = [pick0, pick1, pick2]
        rem = cnt
        for i in range(cnt):
            f = sc[SC_GFACES + MAX_COPIES * g + i]
            for loc in range(MAX_LOC):
                if left[loc] == 0:
                    continue
                here = ways * left[loc] // rem  # arrangements with copy i at loc
                if a < here:
                    out[loc] = add_card(out[loc], f)
                    left[loc] -= 1
                    ways = here
                    break
                a -= here
            rem -= 1
        c[0] -= pick0
        c[1] -= pick1
        c[2] -= pick2
    return out[0], out[1], out[2]
