"""The statistics a report gathers part by part, against slow references written from their
definitions (Python loops over the observations, in the order the whole-array computation adds
them): counts and sums exact, the cluster-robust squared sums equal to the last digit whether the
data come in one chunk or many, in hand blocks or with cluster ids."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pinochle_sim.analysis import stats
from pinochle_sim.analysis.stats import Blocks, ClusterSpread, Histogram, Moments, TailCounts


def _data(seed: int, n: int, groups: int, top: int = 300):
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, groups, n)
    values = rng.integers(0, top, n).astype(np.int16)
    return keys, values


def _slow_moments(keys, values, groups):
    n, s1, s2 = [0] * groups, [0] * groups, [0] * groups
    for k, v in zip(keys.tolist(), values.tolist(), strict=True):
        n[k] += 1
        s1[k] += v
        s2[k] += v * v
    return n, s1, s2


def _slow_spread(keys, values, clusters, mean, groups):
    """Per group: residuals summed per cluster in observation order, squares added cluster
    after cluster (ascending ids), clusters seen."""
    resid: dict[tuple[int, int], float] = {}
    for k, v, c in zip(keys.tolist(), values.tolist(), clusters.tolist(), strict=True):
        resid[(k, c)] = resid.get((k, c), 0.0) + (float(v) - float(mean[k]))
    ss, seen = [0.0] * groups, [0] * groups
    for k, c in sorted(resid, key=lambda kc: (kc[1], kc[0])):
        r = resid[(k, c)]
        ss[k] += r * r
        seen[k] += 1
    return ss, seen


@pytest.mark.parametrize("chunks", [1, 3])
def test_moments_are_exact_sums_whatever_the_chunks(chunks):
    keys, values = _data(1, 20_000, 7)
    m = Moments()
    for part in np.array_split(np.arange(len(keys)), chunks):
        m.add(keys[part], values[part])
    n, s1, s2 = m.sums(7)
    assert (n.tolist(), s1.tolist(), s2.tolist()) == _slow_moments(keys, values, 7)


def test_moments_refuse_fractions_and_negative_keys():
    with pytest.raises(ValueError, match="integer"):
        Moments().add(np.array([0]), np.array([0.5]))
    with pytest.raises(ValueError, match="non-negative"):
        Moments().add(np.array([-1]), np.array([1]))


@pytest.mark.parametrize("dense", [True, False])
def test_cluster_spread_equals_the_slow_sum_to_the_last_digit(dense, monkeypatch):
    if not dense:
        monkeypatch.setattr(stats, "DENSE_CELLS", 0)  # the sorted path
    groups, hands = 5, 2_000
    keys, values = _data(2, 6 * hands, groups)
    clusters = np.tile(np.arange(hands), 6) + 17  # six observations per hand, block by block
    mean = np.array([float(v) for v in np.random.default_rng(3).uniform(0, 300, groups)])
    spread = ClusterSpread(groups)
    spread.add(keys, values, clusters, mean)
    ss, seen = _slow_spread(keys, values, clusters, mean, groups)
    assert spread.ss.tolist() == ss
    assert spread.c.tolist() == seen


def test_hand_blocks_give_what_cluster_ids_give():
    groups, hands, blocks = 9, 3_000, 16
    keys, values = _data(4, blocks * hands, groups)
    mean = np.random.default_rng(5).uniform(0, 300, groups)
    by_ids, by_blocks = ClusterSpread(groups), ClusterSpread(groups)
    by_ids.add(keys, values, np.tile(np.arange(hands), blocks), mean)
    by_blocks.add_hands(keys, values, hands, mean)
    assert by_blocks.ss.tolist() == by_ids.ss.tolist()
    assert by_blocks.c.tolist() == by_ids.c.tolist()
    with pytest.raises(ValueError, match="whole blocks"):
        by_blocks.add_hands(keys[:-1], values[:-1], hands, mean)


def _blocks(seed: int, hands: int) -> tuple[Blocks, int]:
    """Eight blocks: keys from a bucket table of x plus a per-block base, values from rows
    of v picked out of order (as a partner's meld is)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 40, (8, hands)).astype(np.int8)
    v = rng.integers(0, 300, (8, hands)).astype(np.int16)
    lut = np.arange(40) // 7  # six buckets
    base = np.array([0, 6, 0, 6, 12, 0, 12, 6])
    vrow = np.array([2, 3, 0, 1, 6, 7, 4, 5])
    return Blocks(x, v, lut=lut, base=base, vrow=vrow), 18


def test_blocks_give_what_their_keys_and_values_laid_end_to_end_give():
    """The block kernels against the plain path on the observations written out one by one
    (the slow Python sums and the whole-array cluster spread)."""
    b, groups = _blocks(8, 2_500)
    keys = (b.base[:, None] + b.lut[b.x.astype(np.int64)]).ravel()
    values = b.v[b.vrow].ravel()
    assert b.keys().tolist() == keys.tolist() and b.values().tolist() == values.tolist()
    assert b.key_max() == int(keys.max())
    m, hist, xsum = Moments(), Histogram(groups), np.zeros(groups, dtype=np.int64)
    m.add_blocks(b, hist=hist, xsum=xsum)
    n, s1, s2 = m.sums(groups)
    assert (n.tolist(), s1.tolist(), s2.tolist()) == _slow_moments(keys, values, groups)
    plain = Histogram(groups)
    plain.add(keys, values)
    assert np.array_equal(hist.counts, plain.counts)
    x_all = b.x.astype(np.int64).ravel()
    assert xsum.tolist() == [int(x_all[keys == k].sum()) for k in range(groups)]
    mean = np.random.default_rng(9).uniform(0, 300, groups)
    by_blocks = ClusterSpread(groups)
    by_blocks.add_hand_blocks(b, mean)
    ss, seen = _slow_spread(keys, values, np.tile(np.arange(b.hands), 8), mean, groups)
    assert by_blocks.ss.tolist() == ss and by_blocks.c.tolist() == seen


def test_blocks_refuse_what_they_cannot_hold():
    x, v = np.zeros((2, 3), np.int16), np.ones((2, 3), np.int16)
    with pytest.raises(ValueError, match="non-negative"):
        Blocks(x - 1, v)
    with pytest.raises(ValueError, match="integer"):
        Blocks(x, v.astype(float))
    with pytest.raises(ValueError, match="cover"):
        Blocks(x + 5, v, lut=np.arange(3))
    with pytest.raises(ValueError, match="value row"):
        Blocks(x, v, vrow=np.array([0, 2]))
    with pytest.raises(ValueError, match="outside"):
        ClusterSpread(1).add_hand_blocks(Blocks(x + 1, v), np.zeros(1))


def test_cluster_spread_in_chunks_adds_in_the_whole_arrays_order():
    """Chunks cut between clusters: the squares still arrive cluster after cluster."""
    groups, clusters_n = 4, 900
    rng = np.random.default_rng(6)
    clusters = np.sort(rng.integers(0, clusters_n, 5_000))  # games: a few deals each
    keys, values = _data(7, len(clusters), groups)
    mean = rng.uniform(0, 300, groups)
    whole = ClusterSpread(groups)
    whole.add(keys, values, clusters, mean)
    chunked = ClusterSpread(groups)
    cuts = [0, *np.flatnonzero(np.diff(clusters))[::97] + 1, len(clusters)]
    for a, b in itertools.pairwise(cuts):
        chunked.add(keys[a:b], values[a:b], clusters[a:b], mean)
    ss, seen = _slow_spread(keys, values, clusters, mean, groups)
    assert whole.ss.tolist() == ss and chunked.ss.tolist() == ss
    assert chunked.c.tolist() == seen


def test_histogram_quantiles_are_the_lower_quantiles():
    keys, values = _data(8, 5_001, 3, top=40)
    h = Histogram(3)
    h.add(keys[:2000], values[:2000])
    h.add(keys[2000:], values[2000:])
    q = h.quantiles((0.1, 0.5, 0.9))
    for g in range(3):
        v = np.sort(values[keys == g])
        for j, p in enumerate((0.1, 0.5, 0.9)):
            # the smallest x with at least a share p of the values at or below it
            want = next(x for x in v if np.count_nonzero(v <= x) >= p * len(v))
            assert q[g, j] == want


def test_tail_counts_match_their_definition():
    rng = np.random.default_rng(9)
    values = rng.integers(0, 60, (700, 16))
    t = TailCounts()
    t.add(values[:300])
    t.add(values[300:])
    grid = np.array([0, 5, 20, 41, 59, 80])
    k, deff = t.tail(grid)
    n_clusters, m = values.shape
    n = values.size
    for i, x in enumerate(grid.tolist()):
        per_cluster = [int(np.count_nonzero(row >= x)) for row in values]
        assert k[i] == sum(per_cluster)
        p = k[i] / n
        if 0 < p < 1:
            robust = (sum(c * c for c in per_cluster) - m * p * k[i]) / n**2
            robust *= n_clusters / (n_clusters - 1)
            assert deff[i] == pytest.approx(max(robust / (p * (1 - p) / n), 1.0), rel=1e-12)
        else:
            assert deff[i] == 1.0
