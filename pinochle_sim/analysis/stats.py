"""Estimates with their uncertainty: Wilson intervals for proportions, normal intervals for means,
and exact quantiles of small non-negative integers from histograms (fast on millions of rows).

Every estimate is also built from statistics gathered chunk by chunk (:class:`Moments`,
:class:`ClusterSpread`, :class:`Histogram`, :class:`TailCounts`), so a question over a run of any
size holds one part in memory at a time. The counts and sums of integer observations are exact
(int64), and the one sum that is not (the squared residuals of each cluster, for cluster-robust
errors) is added in the order of the whole-array computation, so the gathered estimates equal
the whole-array ones to the last digit.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.analysis import stats_kernels

Z95 = 1.959963984540054


def wilson(
    k: np.ndarray | int, n: np.ndarray | int, z: float = Z95
) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval ``(lo, hi)`` for ``k`` successes in ``n`` trials (vectorised).

    >>> lo, hi = wilson(50, 100)
    >>> round(float(lo), 3), round(float(hi), 3)
    (0.404, 0.596)
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0, 1))  # exact ends: no rounding dust
    hi = np.where(k >= n, 1.0, np.clip(centre + half, 0, 1))
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    return lo, hi


def moments(n: np.ndarray, s1: np.ndarray, s2: np.ndarray) -> dict[str, np.ndarray]:
    """Per group: n, mean, sd, standard error and 95% normal CI of the mean, from the count,
    sum and sum of squares of each group's observations."""
    n = np.asarray(n, dtype=float)
    s1 = np.asarray(s1, dtype=float)
    s2 = np.asarray(s2, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s1 / n
        var = np.maximum(s2 / n - mean * mean, 0) * n / (n - 1)
        sd = np.sqrt(var)
        se = sd / np.sqrt(n)
    return {
        "n": n.astype(np.int64),
        "mean": mean,
        "sd": sd,
        "se": se,
        "ci_lo": mean - Z95 * se,
        "ci_hi": mean + Z95 * se,
    }


def with_se(m: dict[str, np.ndarray], se: np.ndarray) -> dict[str, np.ndarray]:
    """``m`` (:func:`moments`) with another standard error (a cluster-robust one) and its CI."""
    return m | {"se": se, "ci_lo": m["mean"] - Z95 * se, "ci_hi": m["mean"] + Z95 * se}


def grouped_moments(
    keys: np.ndarray, values: np.ndarray, n_groups: int, clusters: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """Per group ``0..n_groups-1``: n, mean, sd, standard error and 95% normal CI of the mean.

    With ``clusters`` (e.g. the hand each observation comes from, when one hand gives several
    correlated observations) the standard error is cluster-robust: residuals are summed within
    each cluster before squaring, with the usual C/(C-1) small-sample factor.
    """
    keys = np.asarray(keys, dtype=np.int64)
    v = np.asarray(values, dtype=np.float64)
    n = np.bincount(keys, minlength=n_groups).astype(float)
    s1 = np.bincount(keys, weights=v, minlength=n_groups)
    s2 = np.bincount(keys, weights=v * v, minlength=n_groups)
    m = moments(n, s1, s2)
    if clusters is not None:
        spread = ClusterSpread(n_groups)
        spread.add(keys, v, clusters, m["mean"])
        m = with_se(m, spread.se(n))
    return m


def grouped_quantiles(
    keys: np.ndarray, values: np.ndarray, n_groups: int, qs: tuple[float, ...] = (0.1, 0.5, 0.9)
) -> np.ndarray:
    """Exact lower quantiles (the smallest x with P(X <= x) >= q) of non-negative integer
    ``values`` per group, from a 2-D histogram: shape ``(n_groups, len(qs))``."""
    h = Histogram(n_groups)
    h.add(keys, values)
    return h.quantiles(qs)


def design_effect(
    keys: np.ndarray, hits: np.ndarray, n_groups: int, clusters: np.ndarray
) -> np.ndarray:
    """Per group, how much clustering inflates the variance of a proportion (cluster-robust over
    independent-observation variance), at least 1: ``n / design_effect`` is the effective sample
    size to give :func:`wilson`. Groups without spread get 1.

    >>> pairs = np.arange(200) // 2  # 100 clusters of two identical outcomes
    >>> round(float(design_effect(np.zeros(200, int), pairs % 2, 1, pairs)[0]), 1)
    2.0
    """
    naive = grouped_moments(keys, hits, n_groups)
    robust = grouped_moments(keys, hits, n_groups, clusters)
    return deff_of(naive["se"], robust["se"])


def deff_of(naive_se: np.ndarray, robust_se: np.ndarray) -> np.ndarray:
    """The design effect from the two standard errors, at least 1 (1 where undefined)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        deff = (robust_se / naive_se) ** 2
    return np.where(np.isfinite(deff), np.maximum(deff, 1.0), 1.0)


def clustered_tail(values: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tail counts of clustered observations and the design effect of each tail proportion.

    ``values`` holds non-negative integers, one row per cluster (e.g. the 16 seat-suit melds
    of a deal), the same number ``m`` in each. Returns, for each ``x`` in ``grid``, ``k`` =
    #(values >= x) and the design effect of ``k / N`` (cluster-robust over binomial variance,
    at least 1; see :func:`design_effect`). Each cluster's ``k_h(x)^2`` is the sum of
    ``2j - 1`` over its ``j``-th largest values that reach ``x``, so one histogram serves
    every ``x`` at once.

    >>> k, deff = clustered_tail(np.array([[3, 3], [0, 0], [3, 0], [0, 0]]), np.array([1]))
    >>> int(k[0]), round(float(deff[0]), 2)
    (3, 1.96)
    """
    t = TailCounts()
    t.add(values)
    return t.tail(grid)


# ------------------------------------------------------------------- gathered chunk by chunk


def _grow(a: np.ndarray, size: int) -> np.ndarray:
    """``a`` extended with zeros to ``size`` entries along its last axis."""
    if a.shape[-1] >= size:
        return a
    pad = [(0, 0)] * (a.ndim - 1) + [(0, size - a.shape[-1])]
    return np.pad(a, pad)


EXACT_FLOAT = 1 << 53
"""Integers up to this size are exact in float64, and so is every partial sum below it."""


def int_bincount(keys: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Exact per-key sums of integer weights: ``np.bincount`` sums in float64, which is exact
    while no sum can reach :data:`EXACT_FLOAT` (else the sums are made in int64, slower)."""
    w = np.asarray(weights, dtype=np.int64)
    if not len(w) or int(np.abs(w).max()) * len(w) < EXACT_FLOAT:
        return np.bincount(keys, weights=w.astype(np.float64), minlength=size).astype(np.int64)
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, keys, w)
    return out


class Blocks:
    """Observations laid out in blocks of one per hand, without building them: block ``j``'s
    observation of hand ``i`` has the key ``base[j] + lut[x[j, i]]`` and the value
    ``v[vrow[j], i]``. Their order is block after block, as the blocks' keys and values laid
    end to end would be (what :meth:`ClusterSpread.add_hands` takes).

    ``x`` is a 2-D array of non-negative integers (blocks, hands); ``lut`` maps each of its
    values to a key (the identity, or a bucket table); ``v`` holds the value rows that ``vrow``
    picks from, one per block."""

    def __init__(
        self,
        x: np.ndarray,
        v: np.ndarray,
        lut: np.ndarray | None = None,
        base: np.ndarray | None = None,
        vrow: np.ndarray | None = None,
    ) -> None:
        self.x = np.ascontiguousarray(x)
        self.v = np.ascontiguousarray(v)
        if self.x.dtype.kind not in "iu" or self.v.dtype.kind not in "iu":
            raise ValueError("blocks hold integer observations")
        blocks, hands = self.x.shape
        top = int(self.x.max(initial=0))
        if self.x.size and int(self.x.min()) < 0:
            raise ValueError("block keys are built from non-negative integers")
        self.lut = np.arange(top + 1, dtype=np.int64) if lut is None else np.asarray(lut, np.int64)
        if len(self.lut) <= top:
            raise ValueError("the key table does not cover every value of the blocks")
        self.base = np.zeros(blocks, np.int64) if base is None else np.asarray(base, np.int64)
        rows = np.arange(blocks) if vrow is None else vrow
        self.vrow = np.asarray(rows, dtype=np.int64)
        if len(self.base) != blocks or len(self.vrow) != blocks or self.v.shape[1] != hands:
            raise ValueError("one key base and one value row per block, one column per hand")
        if blocks and (int(self.vrow.min()) < 0 or int(self.vrow.max()) >= self.v.shape[0]):
            raise ValueError("a value row outside the value rows")

    @property
    def hands(self) -> int:
        return self.x.shape[1]

    def key_max(self) -> int:
        """The largest key (-1 without observations)."""
        return stats_kernels.block_key_max(self.x, self.lut, self.base)

    def keys(self) -> np.ndarray:
        """Every observation's key, block after block (a slow path for checks)."""
        return (self.base[:, None] + self.lut[self.x]).ravel()

    def values(self) -> np.ndarray:
        """Every observation's value, block after block (a slow path for checks)."""
        return self.v[self.vrow].ravel()


NO_ROWS = np.zeros((0, 0), dtype=np.int64)
NO_SUMS = np.zeros(0, dtype=np.int64)


class Moments:
    """Per group: the count, sum and sum of squares of integer observations, exact (int64),
    gathered chunk by chunk; the groups grow as keys appear."""

    def __init__(self, n_groups: int = 0) -> None:
        self.n = np.zeros(n_groups, dtype=np.int64)
        self.s1 = np.zeros(n_groups, dtype=np.int64)
        self.s2 = np.zeros(n_groups, dtype=np.int64)

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        """Observations ``values`` (integers; integral floats too) of groups ``keys``."""
        keys = np.asarray(keys, dtype=np.int64)
        v = np.asarray(values)
        if v.dtype.kind == "f":
            exact = v.astype(np.int64)
            if not np.array_equal(exact, v):
                raise ValueError("Moments gathers integer observations")
            v = exact
        v = v.astype(np.int64, copy=False)
        if not keys.size:
            return
        if int(keys.min()) < 0:
            raise ValueError("group keys are non-negative")
        size = int(keys.max()) + 1
        self.n, self.s1, self.s2 = (_grow(a, size) for a in (self.n, self.s1, self.s2))
        stats_kernels.add_moments(keys, v, self.n, self.s1, self.s2)

    def add_blocks(
        self, b: Blocks, hist: Histogram | None = None, xsum: np.ndarray | None = None
    ) -> None:
        """:meth:`add` for observations in blocks (the same sums). ``hist`` counts the values
        too; ``xsum`` (one int64 entry per group) gets each observation's ``x`` added."""
        if not b.x.size:
            return
        if b.v.size and int(b.v.min()) < 0 and hist is not None:
            raise ValueError("grouped_quantiles needs non-negative integers")
        size = b.key_max() + 1
        if int(b.base.min()) < 0 or int(b.lut.min()) < 0:
            raise ValueError("group keys are non-negative")
        self.n, self.s1, self.s2 = (_grow(a, size) for a in (self.n, self.s1, self.s2))
        rows = NO_ROWS
        if hist is not None:
            hist.fit(size, int(b.v.max()) + 1)
            rows = hist.counts
        sums = NO_SUMS
        if xsum is not None:
            if len(xsum) < size or xsum.dtype != np.int64:
                raise ValueError("one int64 sum per group")
            sums = xsum
        stats_kernels.add_block_moments(
            b.x, b.lut, b.base, b.v, b.vrow, self.n, self.s1, self.s2, rows, sums
        )

    def sums(self, n_groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(n, s1, s2) of the first ``n_groups`` groups."""
        n, s1, s2 = (_grow(a, n_groups)[:n_groups] for a in (self.n, self.s1, self.s2))
        return n, s1, s2

    def moments(self, n_groups: int) -> dict[str, np.ndarray]:
        """:func:`moments` of the first ``n_groups`` groups."""
        return moments(*self.sums(n_groups))


DENSE_CELLS = 1 << 22
"""The most (group, cluster) cells :class:`ClusterSpread` tabulates in one pass (32 MB of
scratch); beyond, it sums only the occupied cells (sorted)."""


class ClusterSpread:
    """The cluster-robust variance of each group mean, gathered chunk by chunk once the means are
    known: per group, the squared sums of each cluster's residuals and the clusters seen.

    Clusters come in order, each whole within one chunk (a hand is within one part, a game too),
    and the squares are added in that order, as the whole-array computation adds them."""

    def __init__(self, n_groups: int) -> None:
        self.n_groups = n_groups
        self.ss = np.zeros(n_groups, dtype=np.float64)
        self.c = np.zeros(n_groups, dtype=np.int64)
        self._resid = np.empty(0)  # scratch, kept from chunk to chunk
        self._seen = np.empty(0, dtype=np.int64)

    def add(
        self, keys: np.ndarray, values: np.ndarray, clusters: np.ndarray, mean: np.ndarray
    ) -> None:
        """Observations ``values`` of groups ``keys`` from clusters ``clusters`` (ids that grow
        with the clusters' order), each group's ``mean`` known."""
        keys = np.asarray(keys, dtype=np.int64)
        if not len(keys):
            return
        clusters = np.asarray(clusters, dtype=np.int64)
        g = self.n_groups
        first = int(clusters.min())
        n_clusters = int(clusters.max()) - first + 1
        if n_clusters * g <= DENSE_CELLS:  # a (group, cluster) table: one pass, no sort
            if len(self._resid) < n_clusters * g:
                self._resid = np.empty(n_clusters * g)
                self._seen = np.empty(n_clusters * g, dtype=np.int64)
            v = np.asarray(values, dtype=np.float64)
            mu = np.asarray(mean, dtype=np.float64)
            stats_kernels.add_cluster_spread(
                keys, v, clusters, first, n_clusters, mu, self._resid, self._seen, self.ss, self.c
            )
            return
        # many clusters, few observations each (games): only the occupied cells, in the same
        # order (per group, cluster after cluster)
        v = np.asarray(values, dtype=np.float64)
        cell = (clusters - first) * g + keys
        cells, inverse = np.unique(cell, return_inverse=True)
        resid = np.bincount(inverse, weights=v - mean[keys], minlength=len(cells))
        group = cells % g
        np.add.at(self.ss, group, resid**2)
        self.c += np.bincount(group, minlength=g)

    def add_hands(self, keys: np.ndarray, values: np.ndarray, hands: int, mean: np.ndarray) -> None:
        """:meth:`add` for observations in blocks of one per hand (several observations per
        hand, ``hands`` hands): observation ``i`` is of hand ``i % hands``, the clusters
        ``np.tile(np.arange(hands), blocks)`` would name."""
        keys = np.asarray(keys, dtype=np.int64)
        if not len(keys):
            return
        if len(keys) % hands:
            raise ValueError("observations in whole blocks of one per hand")
        g = self.n_groups
        if int(keys.min()) < 0 or int(keys.max()) >= g:
            raise ValueError("a group key outside the table's groups")
        touched = np.zeros(g, dtype=np.int64)
        v = np.asarray(values, dtype=np.float64)
        mu = np.asarray(mean, dtype=np.float64)
        stats_kernels.add_hand_spread(keys, v, hands, mu, np.empty(g), touched, self.ss, self.c)

    def add_hand_blocks(self, b: Blocks, mean: np.ndarray) -> None:
        """:meth:`add_hands` for observations in blocks (the same sums in the same order)."""
        if not b.x.size:
            return
        g = self.n_groups
        if int(b.base.min()) < 0 or int(b.lut.min()) < 0 or b.key_max() >= g:
            raise ValueError("a group key outside the table's groups")
        touched = np.zeros(g, dtype=np.int64)
        mu = np.asarray(mean, dtype=np.float64)
        stats_kernels.add_block_hand_spread(
            b.x, b.lut, b.base, b.v, b.vrow, mu, np.empty(g), touched, self.ss, self.c
        )

    def se(self, n: np.ndarray) -> np.ndarray:
        """The cluster-robust standard error of each group's mean (``n``: its observations)."""
        n = np.asarray(n, dtype=float)
        c = self.c.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            var = self.ss / (n * n) * c / (c - 1)
        return np.sqrt(var)


class Histogram:
    """Per group, a histogram of non-negative integer observations, gathered chunk by chunk."""

    def __init__(self, n_groups: int) -> None:
        self.counts = np.zeros((n_groups, 1), dtype=np.int64)

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        keys = np.asarray(keys, dtype=np.int64)
        v = np.asarray(values, dtype=np.int64)
        if v.size and v.min() < 0:
            raise ValueError("grouped_quantiles needs non-negative integers")
        width = max(int(v.max()) + 1 if v.size else 1, self.counts.shape[1])
        self.counts = _grow(self.counts, width)
        if v.size:
            if int(keys.min()) < 0 or int(keys.max()) >= self.counts.shape[0]:
                raise ValueError("a group key outside the histogram's groups")
            stats_kernels.add_histogram(keys, v, self.counts)

    def fit(self, groups: int, width: int) -> None:
        """Make room for values below ``width``; the groups are fixed (below ``groups``)."""
        if groups > self.counts.shape[0]:
            raise ValueError("a group key outside the histogram's groups")
        self.counts = _grow(self.counts, width)

    def quantiles(self, qs: tuple[float, ...] = (0.1, 0.5, 0.9)) -> np.ndarray:
        """Exact lower quantiles per group, shape ``(n_groups, len(qs))`` (NaN: no data)."""
        cum = np.cumsum(self.counts, axis=1)
        total = cum[:, -1:]
        out = np.full((self.counts.shape[0], len(qs)), np.nan)
        for j, q in enumerate(qs):
            idx = (cum >= np.ceil(q * total)).argmax(axis=1).astype(float)
            out[:, j] = np.where(total[:, 0] > 0, idx, np.nan)
        return out


class TailCounts:
    """The histograms behind :func:`clustered_tail`, gathered chunk by chunk: of every value,
    and of each cluster's ``j``-th largest value weighted ``2j + 1``."""

    def __init__(self) -> None:
        self.h1 = np.zeros(1, dtype=np.int64)
        self.h2 = np.zeros(1, dtype=np.int64)
        self.clusters = 0
        self.m = 0

    def add(self, values: np.ndarray) -> None:
        """``values``: one row per cluster, the same number of values in each."""
        v = np.asarray(values)
        if not np.issubdtype(v.dtype, np.integer):
            raise ValueError("clustered_tail needs integer values")
        clusters, m = v.shape
        if self.m and m != self.m:
            raise ValueError("every cluster holds the same number of values")
        self.m = m
        self.clusters += clusters
        top = max(int(v.max(initial=0)) + 1, len(self.h1))
        self.h1 = _grow(self.h1, top)
        self.h2 = _grow(self.h2, top)
        v = np.ascontiguousarray(v, dtype=np.int64)
        if v.size and int(v.min()) < 0:
            raise ValueError("clustered_tail needs non-negative values")
        stats_kernels.add_tail_counts(v, self.h1, self.h2, np.empty(m, dtype=np.int64))

    def tail(self, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each ``x`` in ``grid``: #(values >= x) and the design effect of that share."""
        grid = np.asarray(grid, dtype=np.int64)
        top = int(grid.max(initial=0)) + 1
        h1 = _grow(self.h1, top)
        h2 = _grow(self.h2, top)
        k = h1[::-1].cumsum()[::-1][grid]
        sum_k2 = h2[::-1].cumsum()[::-1][grid]
        clusters, m = self.clusters, self.m
        n = clusters * m
        p = k / n
        with np.errstate(invalid="ignore", divide="ignore"):
            robust = (sum_k2 - m * p * k) / n**2 * clusters / (clusters - 1)
            deff = robust / (p * (1 - p) / n)
        return k, np.where(np.isfinite(deff), np.maximum(deff, 1.0), 1.0)


def choose_bins(values: np.ndarray, counts: np.ndarray, min_n: int) -> np.ndarray:
    """Bins of consecutive ``values`` (increasing, with their ``counts``): rows ``(lo, hi)``,
    from the lowest value up, each closed once it holds ``min_n`` observations; the rest at the
    top joins the last bin (one bin when all hold fewer).

    >>> choose_bins(np.array([250, 260, 270, 280]), np.array([150, 60, 500, 10]), 200).tolist()
    [[250, 260], [270, 280]]
    """
    starts: list[int] = []
    ends: list[int] = []
    held = 0
    for value, n in zip(np.asarray(values).tolist(), np.asarray(counts).tolist(), strict=True):
        if held == 0:
            starts.append(value)
        held += n
        if held >= min_n:
            ends.append(value)
            held = 0
    if held:  # an open bin at the top
        if ends:
            starts.pop()
            ends[-1] = int(values[-1])
        else:
            ends.append(int(values[-1]))
    return np.array([starts, ends], dtype=np.int64).T.reshape(-1, 2)
