"""Estimates with their uncertainty: Wilson intervals for proportions, normal intervals for means,
and exact quantiles of small non-negative integers from histograms (fast on millions of rows)."""

from __future__ import annotations

import numpy as np

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
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s1 / n
        var = np.maximum(s2 / n - mean * mean, 0) * n / (n - 1)
        sd = np.sqrt(var)
        se = sd / np.sqrt(n)
    if clusters is not None:
        se = _cluster_se(keys, v, clusters, n_groups, mean, n)
    return {
        "n": n.astype(np.int64),
        "mean": mean,
        "sd": sd,
        "se": se,
        "ci_lo": mean - Z95 * se,
        "ci_hi": mean + Z95 * se,
    }


def grouped_quantiles(
    keys: np.ndarray, values: np.ndarray, n_groups: int, qs: tuple[float, ...] = (0.1, 0.5, 0.9)
) -> np.ndarray:
    """Exact lower quantiles (the smallest x with P(X <= x) >= q) of non-negative integer
    ``values`` per group, from a 2-D histogram: shape ``(n_groups, len(qs))``."""
    keys = np.asarray(keys, dtype=np.int64)
    v = np.asarray(values, dtype=np.int64)
    if v.size and v.min() < 0:
        raise ValueError("grouped_quantiles needs non-negative integers")
    width = int(v.max()) + 1 if v.size else 1
    hist = np.bincount(keys * width + v, minlength=n_groups * width).reshape(n_groups, width)
    cum = np.cumsum(hist, axis=1)
    total = cum[:, -1:]
    out = np.full((n_groups, len(qs)), np.nan)
    for j, q in enumerate(qs):
        idx = (cum >= np.ceil(q * total)).argmax(axis=1).astype(float)
        out[:, j] = np.where(total[:, 0] > 0, idx, np.nan)
    return out


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
    with np.errstate(invalid="ignore", divide="ignore"):
        deff = (robust["se"] / naive["se"]) ** 2
    return np.where(np.isfinite(deff), np.maximum(deff, 1.0), 1.0)


def _cluster_se(
    keys: np.ndarray,
    v: np.ndarray,
    clusters: np.ndarray,
    n_groups: int,
    mean: np.ndarray,
    n: np.ndarray,
) -> np.ndarray:
    """Cluster-robust standard error of each group mean (clusters are 0..C-1)."""
    clusters = np.asarray(clusters, dtype=np.int64)
    n_clusters = int(clusters.max()) + 1 if clusters.size else 0
    cell = clusters * n_groups + keys
    size = n_clusters * n_groups
    if size <= 8 * max(len(cell), 1):  # dense (cluster, group) table: fast when it is small
        resid = np.bincount(cell, weights=v - mean[keys], minlength=size)
        occupied = np.bincount(cell, minlength=size) > 0
        group = np.tile(np.arange(n_groups), n_clusters)
    else:  # many clusters, few observations each (e.g. games): only the occupied cells
        cells, inverse = np.unique(cell, return_inverse=True)
        resid = np.bincount(inverse, weights=v - mean[keys], minlength=len(cells))
        occupied = np.ones(len(cells), dtype=bool)
        group = cells % n_groups
    ss = np.bincount(group, weights=resid**2, minlength=n_groups)
    c = np.bincount(group, weights=occupied, minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        var = ss / (n * n) * c / (c - 1)
    return np.sqrt(var)


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
    v = np.asarray(values)
    if not np.issubdtype(v.dtype, np.integer):
        raise ValueError("clustered_tail needs integer values")
    clusters, m = v.shape
    grid = np.asarray(grid, dtype=np.int64)
    top = int(max(v.max(initial=0), grid.max(initial=0))) + 1
    ranked = -np.sort(-v, axis=1)  # each cluster's values, largest first
    h1 = np.bincount(v.ravel(), minlength=top)
    h2 = np.zeros(top, dtype=np.int64)
    for j in range(m):  # the j-th largest value of every cluster, weight 2j + 1
        h2 += (2 * j + 1) * np.bincount(ranked[:, j], minlength=top)
    k = h1[::-1].cumsum()[::-1][grid]
    sum_k2 = h2[::-1].cumsum()[::-1][grid]
    n = clusters * m
    p = k / n
    with np.errstate(invalid="ignore", divide="ignore"):
        robust = (sum_k2 - m * p * k) / n**2 * clusters / (clusters - 1)
        deff = robust / (p * (1 - p) / n)
    return k, np.where(np.isfinite(deff), np.maximum(deff, 1.0), 1.0)
