"""Answering report questions part by part: a run is read one part at a time, every question
gathers what it needs from each part, and the tables are built at the end. Memory holds one part
and the questions' statistics, whatever the run's size.

A question (:class:`Question`) names the columns it reads, gathers from each part (``add``) and
builds its table (``table``). One with cluster-robust intervals reads the run twice: the second
pass (``add`` with ``again``) sums each cluster's residuals around the means the first found.
:func:`answer` runs any number of questions over one reading of the run (two where one needs
it), so a report reads each part once or twice, not once per question.

The gathered statistics (:mod:`pinochle_sim.analysis.stats`) give the whole-array estimates to
the last digit: ``tests/analysis/test_report_reference.py`` holds every table to the one the
whole-column implementation wrote.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pyarrow as pa

from pinochle_sim.analysis.reports.load import Data
from pinochle_sim.analysis.stats import (
    Blocks,
    ClusterSpread,
    Histogram,
    Moments,
    deff_of,
    moments,
    wilson,
    with_se,
)
from pinochle_sim.runs.store.location import location
from pinochle_sim.runs.store.read import iter_parts


class Columns:
    """Some columns of a run, the same rows each, as numpy arrays: what a question reads from
    a part (a mapping of names to arrays; ``len`` is the rows)."""

    def __init__(self, arrays: dict[str, np.ndarray], rows: int) -> None:
        self.arrays = arrays
        self.rows = rows

    @classmethod
    def of_frame(cls, d: pd.DataFrame, names: Sequence[str]) -> Columns:
        return cls({c: d[c].to_numpy() for c in names}, len(d))

    def __getitem__(self, name: str | list[str]) -> np.ndarray:
        """A column; for a list of names, the columns side by side (rows x names)."""
        if isinstance(name, list):
            return np.stack([self.arrays[c] for c in name], axis=1)
        return self.arrays[name]

    def __contains__(self, name: object) -> bool:
        return name in self.arrays

    def __len__(self) -> int:
        return self.rows

    def cut(self, start: int, stop: int) -> Columns:
        """Rows ``start`` to ``stop`` (views, not copies)."""
        return Columns({k: a[start:stop] for k, a in self.arrays.items()}, stop - start)


class Question(ABC):
    """One question answered over a run read part by part (see the module docstring)."""

    columns: list[str]
    """The columns it reads from every part."""
    passes: int = 1
    """How many times it reads the run (2: cluster-robust intervals)."""

    @abstractmethod
    def add(self, d: Columns, again: bool = False) -> None:
        """Gather from one slice of a part (``again``: in the second pass)."""

    @abstractmethod
    def table(self) -> pd.DataFrame:
        """The answer, once every part is gathered."""

    def prepare(self) -> None:
        """Work that needs no data (exact values to set beside the estimates), done in a
        thread of its own while the run is read (by default, none)."""
        return None


def chunks(data: Data, names: Sequence[str]) -> Iterator[Columns]:
    """The named columns of a run, one part at a time (a DataFrame is one chunk; a missing
    column is a one-line error)."""
    names = list(dict.fromkeys(names))
    if isinstance(data, pd.DataFrame):
        missing = [c for c in names if c not in data.columns]
        if missing:
            raise ValueError(f"the data has no column(s) {', '.join(missing)}")
        yield Columns.of_frame(data, names)
        return
    path = location(data)
    if not path.exists():
        raise ValueError(f"no such run folder or file: {str(path)!r}")
    for table in iter_parts(path, names):  # a damaged part is named, with the remedy
        arrays = {c: _array(table.column(c)) for c in names}
        yield Columns(arrays, table.num_rows)


def _array(column: pa.ChunkedArray) -> np.ndarray:
    """A column as one numpy array (a copy only where it is in several pieces or has nulls)."""
    if column.num_chunks == 1:
        return column.chunk(0).to_numpy(zero_copy_only=False)
    return column.to_numpy()


SLICE_ROWS = 32_768
"""Rows a question gathers at a time: a part is cut into slices this long (at a game's end in
a games run), so that the questions' temporary arrays stay small enough to be reused, not
fresh memory for every part (which this kind of machine zeroes at some ms a MB)."""


def slices(d: Columns, rows: int = SLICE_ROWS) -> Iterator[Columns]:
    """``d`` in slices of about ``rows`` rows, each ending with a whole game where ``d`` holds
    games (a game's deals are one cluster of a cluster-robust interval)."""
    n = len(d)
    if n <= rows:
        yield d
        return
    cuts = np.arange(rows, n, rows)
    if "game" in d:
        game = d["game"]
        ends = np.flatnonzero(game[1:] != game[:-1]) + 1  # first row of each later game
        cuts = np.unique(ends[np.minimum(np.searchsorted(ends, cuts), len(ends) - 1)])
        cuts = cuts[(cuts > 0) & (cuts < n)] if len(ends) else cuts[:0]
    start = 0
    for cut in [*cuts.tolist(), n]:
        if cut > start:
            yield d.cut(start, cut)
            start = cut


def answer(
    data: Data,
    questions: Sequence[Question],
    threads: int = 1,
    ready: Callable[[int, pd.DataFrame], None] | None = None,
) -> list[pd.DataFrame]:
    """The tables of ``questions`` over the run ``data``, read part by part: once for all of
    them, and once more for those whose intervals are cluster-robust.

    With ``threads`` > 1 the questions are shared out among that many threads (each question
    gathers in one thread, slice after slice in order, so its numbers do not change); the
    loops that gather release the GIL. ``ready(i, table)`` is called with each question's
    table as soon as it is final: the one-pass questions' before the second reading starts,
    so that their charts can be drawn meanwhile."""
    tables: list[pd.DataFrame | None] = [None] * len(questions)
    preparing = ThreadPoolExecutor(1, thread_name_prefix="prepare")
    prepared = [preparing.submit(q.prepare) for q in questions]
    try:
        for again in (False, True):
            todo = [q for q in questions if q.passes > int(again)]
            if todo:
                _gather(data, todo, threads, again)
            for f in prepared:
                f.result()
            for i, q in enumerate(questions):
                if tables[i] is None and (q.passes <= int(again) + 1 or again):
                    tables[i] = q.table()
                    if ready:
                        ready(i, tables[i])
    finally:
        preparing.shutdown(wait=False, cancel_futures=True)
    return tables  # type: ignore[return-value]


def _gather(data: Data, todo: Sequence[Question], threads: int, again: bool) -> None:
    """One reading of the run for the questions ``todo``, shared out among ``threads``."""
    groups = [[todo[i] for i in group] for group in share(todo, threads)]
    names = [c for q in todo for c in q.columns]
    if len(groups) == 1:
        for part in chunks(data, names):
            for d in slices(part):
                for q in todo:
                    q.add(d, again)
        return
    with ThreadPoolExecutor(len(groups), thread_name_prefix="report") as pool:
        for part in chunks(data, names):
            for d in slices(part):
                for f in [pool.submit(_add_all, g, d, again) for g in groups]:
                    f.result()


def _add_all(questions: Sequence[Question], d: Columns, again: bool) -> None:
    for q in questions:
        q.add(d, again)


def share(questions: Sequence[Question], workers: int) -> list[list[int]]:
    """The questions' indices in at most ``workers`` groups of about equal work (a question's
    work: the columns it reads, times the readings), the heaviest first in each group."""
    groups: list[list[int]] = [[] for _ in range(max(1, min(workers, len(questions))))]
    load = [0] * len(groups)
    work = [len(q.columns) * q.passes for q in questions]
    for i in sorted(range(len(questions)), key=lambda i: -work[i]):
        g = load.index(min(load))
        groups[g].append(i)
        load[g] += work[i]
    return [g for g in groups if g]


def gathered(question: Question, data: Data) -> pd.DataFrame:
    """The table of one question over ``data``."""
    return answer(data, [question])[0]


class _Grouped:
    """What group means and group proportions share: the first pass's sums per group and,
    with ``clustered``, the second pass's cluster spread around the first pass's means."""

    def __init__(self, n_groups: int = 0, clustered: bool = False) -> None:
        self.n_groups = n_groups
        self.sums = Moments(n_groups)
        self.spread = ClusterSpread(n_groups) if clustered else None
        self._mean: np.ndarray | None = None

    def _centre(self) -> np.ndarray:
        """The first pass's group means (worked out once, at the second pass's start)."""
        if self._mean is None:
            self._mean = self.sums.moments(self.n_groups)["mean"]
        return self._mean

    def add_clusters(self, keys: np.ndarray, values: np.ndarray, clusters: np.ndarray) -> None:
        """Second pass: the same observations with the cluster of each (ids in order)."""
        if self.spread is not None:
            self.spread.add(keys, np.asarray(values, dtype=np.float64), clusters, self._centre())


class MeansTable(_Grouped):
    """Group means with normal 95% intervals, gathered part by part: what the whole-array
    ``_means`` gave. With ``clustered``, the intervals are cluster-robust: the observations of
    each cluster (a hand, a game) are summed in a second pass, around the means."""

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        """First pass: observations ``values`` of groups ``keys``."""
        self.sums.add(keys, values)

    def add_hands(self, keys: np.ndarray, values: np.ndarray, hands: int) -> None:
        """Second pass, for observations in blocks of one per hand (observation ``i`` of hand
        ``i % hands``): each hand is a cluster."""
        if self.spread is not None:
            self.spread.add_hands(keys, values, hands, self._centre())

    def add_blocks(
        self, b: Blocks, hist: Histogram | None = None, xsum: np.ndarray | None = None
    ) -> None:
        """:meth:`add` for observations in blocks (:class:`~pinochle_sim.analysis.stats.Blocks`),
        counting their values in ``hist`` and summing their ``x`` in ``xsum`` too."""
        self.sums.add_blocks(b, hist, xsum)

    def add_hand_blocks(self, b: Blocks) -> None:
        """:meth:`add_hands` for observations in blocks, each hand a cluster."""
        if self.spread is not None:
            self.spread.add_hand_blocks(b, self._centre())

    @property
    def groups(self) -> int:
        """Groups seen so far (at least ``n_groups``)."""
        return max(self.n_groups, len(self.sums.n))

    def stats(self, n_groups: int | None = None) -> dict[str, np.ndarray]:
        """n, mean, sd, se, ci_lo, ci_hi of each group."""
        g = self.groups if n_groups is None else n_groups
        m = self.sums.moments(g)
        if self.spread is not None:
            m = with_se(m, self.spread.se(m["n"]))
        return m

    def frame(self, index: pd.DataFrame, at: np.ndarray | None = None) -> pd.DataFrame:
        """``index`` (one row per group: groups 0, 1, ..., or the groups ``at``) with the
        statistics; groups without data left out."""
        at = np.arange(len(index)) if at is None else np.asarray(at, dtype=np.int64)
        m = self.stats(max(self.groups, int(at.max(initial=-1)) + 1))
        out = index.copy()
        for k in ("n", "mean", "sd", "se", "ci_lo", "ci_hi"):
            out[k] = m[k][at]
        return out[out["n"] > 0].reset_index(drop=True)


class PropsTable(_Grouped):
    """Group proportions with Wilson 95% intervals, gathered part by part: what the whole-array
    ``_props`` gave. With ``clustered``, the interval uses the effective sample size n / design
    effect, the design effect from the observations of each cluster (a second pass)."""

    def add(self, keys: np.ndarray, hits: np.ndarray) -> None:
        self.sums.add(keys, np.asarray(hits, dtype=np.int64))

    def seen(self) -> np.ndarray:
        """The groups with observations, in order."""
        return np.flatnonzero(self.sums.n)

    def frame(self, index: pd.DataFrame, at: np.ndarray | None = None) -> pd.DataFrame:
        """``index`` (one row per group: groups 0, 1, ..., or the groups ``at``) with the
        proportions; groups without data left out."""
        at = np.arange(len(index)) if at is None else np.asarray(at, dtype=np.int64)
        g = max(self.n_groups, len(self.sums.n), int(at.max(initial=-1)) + 1)
        n_all, k_all, s2_all = self.sums.sums(g)
        n, k = n_all[at], k_all[at]
        deff: float | np.ndarray = 1.0
        if self.spread is not None:  # clustered tables have a fixed set of groups
            naive = moments(n_all, k_all, s2_all)
            deff = deff_of(naive["se"], self.spread.se(n_all))[at]
        kf = k.astype(float)
        lo, hi = wilson(kf / deff, n / deff)
        out = index.copy()
        out["n"] = n
        out["k"] = k
        with np.errstate(invalid="ignore", divide="ignore"):
            out["p"] = kf / n
        out["ci_lo"] = lo
        out["ci_hi"] = hi
        return out[out["n"] > 0].reset_index(drop=True)


class Counts:
    """How often each integer value occurs, gathered part by part (values of any sign)."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def add(self, values: np.ndarray) -> None:
        v, c = np.unique(np.asarray(values, dtype=np.int64), return_counts=True)
        for value, count in zip(v.tolist(), c.tolist(), strict=True):
            self.counts[value] = self.counts.get(value, 0) + count

    def values(self) -> np.ndarray:
        """The values seen, in increasing order."""
        return np.array(sorted(self.counts), dtype=np.int64)

    def of(self, values: np.ndarray) -> np.ndarray:
        return np.array([self.counts.get(int(v), 0) for v in values], dtype=np.int64)
