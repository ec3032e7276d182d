"""The loops behind the gathered statistics of :mod:`pinochle_sim.analysis.stats`: one pass over a
chunk's observations, adding into the caller's arrays, with no temporary array per chunk.

Each adds in the order numpy's whole-array computation does (``np.bincount`` walks its input in
order; ``np.add.accumulate`` walks a row left to right), so the floating-point sums are the
same to the last digit, and the integer ones are exact.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit


@jit(entry=True)
def add_moments(
    keys: np.ndarray, values: np.ndarray, n: np.ndarray, s1: np.ndarray, s2: np.ndarray
) -> None:
    """Per group ``keys[i]``: one more observation, ``values[i]`` added to the sum and its
    square to the sum of squares (int64 throughout)."""
    for i in range(keys.shape[0]):
        k = keys[i]
        v = values[i]
        n[k] += 1
        s1[k] += v
        s2[k] += v * v


@jit(entry=True)
def add_histogram(keys: np.ndarray, values: np.ndarray, counts: np.ndarray) -> None:
    """``counts[keys[i], values[i]] += 1`` for every observation (``counts`` wide enough)."""
    for i in range(keys.shape[0]):
        counts[keys[i], values[i]] += 1


@jit(entry=True)
def add_cluster_spread(
    keys: np.ndarray,
    values: np.ndarray,
    clusters: np.ndarray,
    first: int,
    n_clusters: int,
    mean: np.ndarray,
    resid: np.ndarray,
    seen: np.ndarray,
    ss: np.ndarray,
    c: np.ndarray,
) -> None:
    """The squared residual sums of every (group, cluster) cell added to each group's ``ss``,
    cluster after cluster, and the clusters each group saw to ``c``.

    ``clusters`` holds ids from ``first`` to ``first + n_clusters - 1``; ``resid`` and ``seen``
    are scratch of at least ``len(ss) * n_clusters`` cells (overwritten). A cell's residuals
    are summed in the order of the observations, as ``np.bincount`` sums them."""
    g = ss.shape[0]
    cells = g * n_clusters
    for j in range(cells):
        resid[j] = 0.0
        seen[j] = 0
    for i in range(keys.shape[0]):
        k = keys[i]
        cell = k * n_clusters + (clusters[i] - first)
        resid[cell] += np.float64(values[i]) - mean[k]
        seen[cell] = 1
    for k in range(g):
        s = ss[k]
        m = 0
        base = k * n_clusters
        for h in range(n_clusters):
            r = resid[base + h]
            s += r * r
            m += seen[base + h]
        ss[k] = s
        c[k] += m


@jit
def _close_hand(
    resid: np.ndarray,
    touched: np.ndarray,
    stack: np.ndarray,
    top: int,
    ss: np.ndarray,
    c: np.ndarray,
) -> None:
    """The end of a hand: each group it touched (the first ``top`` of ``stack``) adds its
    residual sum's square to ``ss`` and one cluster to ``c``; ``touched`` is cleared. Each
    group's sums grow hand after hand, so the order of the groups within a hand does not
    change them."""
    for t in range(top):
        k = stack[t]
        r = resid[k]
        ss[k] += r * r
        c[k] += 1
        touched[k] = 0


@jit(entry=True)
def add_hand_spread(
    keys: np.ndarray,
    values: np.ndarray,
    hands: int,
    mean: np.ndarray,
    resid: np.ndarray,
    touched: np.ndarray,
    ss: np.ndarray,
    c: np.ndarray,
) -> None:
    """:func:`add_cluster_spread` for observations in blocks of one per hand: observation ``i``
    belongs to hand ``i % hands`` (block ``i // hands``). Hand after hand, each group's residual
    sum over that hand's observations (in block order) is squared into ``ss``; no table of
    every (group, hand) cell is needed. ``resid`` and ``touched`` are scratch of ``len(ss)``
    cells (``touched`` all zero on entry and on return)."""
    blocks = keys.shape[0] // hands
    stack = np.empty(blocks, dtype=np.int64)
    for h in range(hands):
        top = 0
        for j in range(blocks):
            i = j * hands + h
            k = keys[i]
            if touched[k] == 0:
                touched[k] = 1
                resid[k] = 0.0
                stack[top] = k
                top += 1
            resid[k] += values[i] - mean[k]
        _close_hand(resid, touched, stack, top, ss, c)


@jit(entry=True)
def add_tail_counts(values: np.ndarray, h1: np.ndarray, h2: np.ndarray, ranked: np.ndarray) -> None:
    """For each cluster (a row of ``values``): every value counted in ``h1``, and its values
    sorted largest first, the ``j``-th counted ``2j + 1`` times in ``h2``. ``ranked``: scratch
    of one row's length."""
    m = values.shape[1]
    for h in range(values.shape[0]):
        for j in range(m):  # insertion sort, largest first (a row holds a few values)
            v = values[h, j]
            h1[v] += 1
            q = j
            while q > 0 and ranked[q - 1] < v:
                ranked[q] = ranked[q - 1]
                q -= 1
            ranked[q] = v
        for j in range(m):
            h2[ranked[j]] += 2 * j + 1


@jit(entry=True)
def block_key_max(x: np.ndarray, lut: np.ndarray, base: np.ndarray) -> int:
    """The largest key ``base[j] + lut[x[j, i]]`` of the blocks (-1 when there is none)."""
    top = -1
    for j in range(x.shape[0]):
        b = base[j]
        for i in range(x.shape[1]):
            k = b + lut[x[j, i]]
            if k > top:
                top = k
    return top


@jit(entry=True)
def add_block_moments(
    x: np.ndarray,
    lut: np.ndarray,
    base: np.ndarray,
    v: np.ndarray,
    vrow: np.ndarray,
    n: np.ndarray,
    s1: np.ndarray,
    s2: np.ndarray,
    hist: np.ndarray,
    xsum: np.ndarray,
) -> None:
    """:func:`add_moments` for observations in blocks (see :class:`~.stats.Blocks`): block
    ``j``'s observation of hand ``i`` has key ``base[j] + lut[x[j, i]]`` and value
    ``v[vrow[j], i]``. With rows in ``hist``, the value is also counted there; with entries in
    ``xsum``, ``x[j, i]`` is added to its key's entry."""
    counted = hist.shape[0] > 0
    summed = xsum.shape[0] > 0
    for j in range(x.shape[0]):
        b = base[j]
        r = vrow[j]
        for i in range(x.shape[1]):
            xi = x[j, i]
            k = b + lut[xi]
            val = np.int64(v[r, i])
            n[k] += 1
            s1[k] += val
            s2[k] += val * val
            if counted:
                hist[k, val] += 1
            if summed:
                xsum[k] += xi


@jit(entry=True)
def add_block_hand_spread(
    x: np.ndarray,
    lut: np.ndarray,
    base: np.ndarray,
    v: np.ndarray,
    vrow: np.ndarray,
    mean: np.ndarray,
    resid: np.ndarray,
    touched: np.ndarray,
    ss: np.ndarray,
    c: np.ndarray,
) -> None:
    """:func:`add_hand_spread` for observations in blocks (see :func:`add_block_moments`),
    each hand a cluster: the same sums in the same order as on the blocks laid end to end."""
    stack = np.empty(x.shape[0], dtype=np.int64)
    for h in range(x.shape[1]):
        top = 0
        for j in range(x.shape[0]):
            k = base[j] + lut[x[j, h]]
            if touched[k] == 0:
                touched[k] = 1
                resid[k] = 0.0
                stack[top] = k
                top += 1
            resid[k] += np.float64(v[vrow[j], h]) - mean[k]
        _close_hand(resid, touched, stack, top, ss, c)
