"""One question asked of several runs, for a chart that overlays them (``pinochle-sim chart``):
how often the bidder goes set or makes the contract, the bidding side's meld at each bid, and
a dealt hand's meld by its trump length.

Each run is read part by part twice (three times for a cluster-robust interval): once to count
the hands at every value of the x axis, once to gather the answer in bins of consecutive
values. A run's bins are its own: consecutive values are merged, from the lowest up, until the
bin holds at least ``min_n`` observations (what is left at the top joins the last bin), so a
small run gets a few wide points and a large one many narrow ones, each with an interval worth
drawing. The table has one row per run and bin: where the bin starts and ends, the mean x of
its observations (where the point is drawn), n, the estimate and its 95% interval (Wilson for
proportions; normal, cluster-robust where one hand gives several observations, for means).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pinochle_sim.analysis.reports.gather import (
    Columns,
    Counts,
    MeansTable,
    PropsTable,
    Question,
    answer,
)
from pinochle_sim.analysis.reports.load import Data, column_names, extent, provenance_of, rules_of
from pinochle_sim.analysis.reports.questions import (
    MIN_N,
    SUITS,
    _bidding_side,
    _side_cols,
    _side_trumps,
)
from pinochle_sim.analysis.stats import choose_bins
from pinochle_sim.rules import Ruleset

XY = Callable[[Columns], tuple[np.ndarray, np.ndarray]]
"""From a slice of a run: the x value and the observation of every hand (or seat-suit)."""


@dataclass(frozen=True)
class Axis:
    """One way of breaking a question down: the x values and the columns they need."""

    label: str
    """The x axis's label on the chart."""
    columns: Callable[[Ruleset], list[str]]
    values: Callable[[Columns, Ruleset], np.ndarray]


def _bid(d: Columns, r: Ruleset) -> np.ndarray:
    return d["bid"].astype(np.int64)


def _needed(d: Columns, r: Ruleset) -> np.ndarray:
    meld = _bidding_side(d, "team_meld", r.players, r.partnerships).astype(np.int64)
    return d["bid"].astype(np.int64) - meld


def _trumps(d: Columns, r: Ruleset) -> np.ndarray:
    bidder = d["bidder"].astype(np.int64)
    return _side_trumps(d, bidder, r.players, r.partnerships).astype(np.int64)


def _len_cols(r: Ruleset) -> list[str]:
    return [f"len_{p}_{s}" for p in range(r.players) for s in SUITS]


AXES: dict[str, Axis] = {
    "bid": Axis("winning bid", lambda r: ["bid"], _bid),
    "needed": Axis(
        "points needed from tricks (bid - bidding side's meld)",
        lambda r: ["bid", "bidder", *_side_cols("team_meld", r.players, r.partnerships)],
        _needed,
    ),
    "trumps": Axis(
        "trumps held by the bidding side (dealt)",
        lambda r: ["bidder", "trump", *_len_cols(r)],
        _trumps,
    ),
}
"""The breakdowns of the contract questions (``--by``)."""


@dataclass(frozen=True)
class Overlay:
    """A question a chart can ask of several runs."""

    name: str
    title: str
    """The chart's title (``{by}`` stands for the breakdown's words)."""
    ylabel: str
    kind: str
    """``proportion`` or ``mean``."""
    bys: tuple[str, ...]
    """The breakdowns it offers, the default first."""
    needs_auction: bool = True


OVERLAYS: dict[str, Overlay] = {
    "go-set": Overlay(
        "go-set",
        "How often does the bidder go set, by {by}?",
        "P(set) (conceded hands count as set)",
        "proportion",
        ("bid", "needed", "trumps"),
    ),
    "made-rate": Overlay(
        "made-rate",
        "How often is the contract made, by {by}?",
        "P(contract made)",
        "proportion",
        ("bid", "needed", "trumps"),
    ),
    "bid-vs-meld": Overlay(
        "bid-vs-meld",
        "The bidding side's meld at each winning bid",
        "meld of the bidding side after the pass (points)",
        "mean",
        ("bid",),
    ),
    "trick-points": Overlay(
        "trick-points",
        "The bidding side's trick points, by {by}",
        "bidding side's trick points (0 when thrown in)",
        "mean",
        ("trumps", "bid", "needed"),
    ),
    "meld-by-trump-length": Overlay(
        "meld-by-trump-length",
        "Expected meld by trump length",
        "meld of the dealt hand, that suit trump (points)",
        "mean",
        ("trump-length",),
        needs_auction=False,
    ),
}
"""Every question ``chart`` draws, by name."""

BY_WORDS = {
    "bid": "winning bid",
    "needed": "points needed from tricks",
    "trumps": "the bidding side's trumps",
    "trump-length": "trump length",
}


def _observations(q: Overlay, by: str, r: Ruleset) -> tuple[list[str], XY, int]:
    """The columns a question reads, its (x, y) per slice, and the observations per hand."""
    if q.name == "meld-by-trump-length":
        seats = [(p, s) for p in range(r.players) for s in SUITS]
        cols = [f"{k}_{p}_{s}" for k in ("meld", "len") for p, s in seats]

        def meld_xy(d: Columns) -> tuple[np.ndarray, np.ndarray]:
            x = np.concatenate([d[f"len_{p}_{s}"] for p, s in seats]).astype(np.int64)
            y = np.concatenate([d[f"meld_{p}_{s}"] for p, s in seats]).astype(np.int64)
            return x, y

        return cols, meld_xy, len(seats)
    axis = AXES[by]
    if q.name == "bid-vs-meld":
        cols = ["bid", "bidder", *_side_cols("team_meld", r.players, r.partnerships)]

        def meld_at_bid(d: Columns) -> tuple[np.ndarray, np.ndarray]:
            meld = _bidding_side(d, "team_meld", r.players, r.partnerships).astype(np.int64)
            return _bid(d, r), meld

        return cols, meld_at_bid, 1
    if q.name == "trick-points":
        cols = ["bidder", *_side_cols("team_tricks", r.players, r.partnerships)]

        def tricks_by(d: Columns) -> tuple[np.ndarray, np.ndarray]:
            pts = _bidding_side(d, "team_tricks", r.players, r.partnerships).astype(np.int64)
            return axis.values(d, r), pts

        return sorted({*cols, *axis.columns(r)}), tricks_by, 1
    made = q.name == "made-rate"

    def contract(d: Columns) -> tuple[np.ndarray, np.ndarray]:
        ok = d["made"].astype(bool)
        return axis.values(d, r), (ok if made else ~ok).astype(np.int64)

    return ["made", *axis.columns(r)], contract, 1


class _XCounts(Question):
    """How many observations a run has at each x value (the first reading)."""

    def __init__(self, columns: list[str], xy: XY) -> None:
        self.columns, self.xy = columns, xy
        self.counts = Counts()

    def add(self, d: Columns, again: bool = False) -> None:
        self.counts.add(self.xy(d)[0])

    def table(self) -> pd.DataFrame:
        values = self.counts.values()
        return pd.DataFrame({"value": values, "n": self.counts.of(values)})


class _Binned(Question):
    """The answer per bin of x (the second reading, and a third for clustered means)."""

    def __init__(self, columns: list[str], xy: XY, q: Overlay, bins: pd.DataFrame, per_hand: int):
        self.columns, self.xy, self.per_hand = columns, xy, per_hand
        self.lo = int(bins["x_lo"].iloc[0])
        edges = bins["x_lo"].to_numpy()
        top = int(bins["x_hi"].iloc[-1])
        # bin of each value lo..top: the last bin starting at or below it
        self.bin_of = np.searchsorted(edges, np.arange(self.lo, top + 1), side="right") - 1
        self.bins = bins
        self.proportion = q.kind == "proportion"
        clustered = per_hand > 1
        self.passes = 2 if clustered else 1
        self.means = PropsTable(len(bins)) if self.proportion else MeansTable(len(bins), clustered)
        self.x_sum = np.zeros(len(bins), dtype=np.float64)

    def add(self, d: Columns, again: bool = False) -> None:
        x, y = self.xy(d)
        keys = self.bin_of[x - self.lo]
        if again:
            self.means.add_hands(keys, y, len(d))  # type: ignore[union-attr]
            return
        self.means.add(keys, y)
        self.x_sum += np.bincount(keys, weights=x, minlength=len(self.bins))

    def table(self) -> pd.DataFrame:
        t = self.means.frame(self.bins.copy())
        t["x"] = self.x_sum / t["n"].to_numpy()  # every bin holds observations
        return t.rename(columns={"p" if self.proportion else "mean": "estimate"})


@dataclass(frozen=True)
class RunInfo:
    """What a chart says of one run beside its line."""

    label: str
    path: str
    meta: dict[str, Any]
    hands: int
    partial: bool


def _check(question: str, by: str | None, min_n: int) -> tuple[Overlay, str]:
    question = question.replace("_", "-")  # go_set as report spells it: go-set
    if question not in OVERLAYS:
        raise ValueError(f"unknown question {question!r}: choose from {', '.join(OVERLAYS)}")
    q = OVERLAYS[question]
    by = by or q.bys[0]
    if by not in q.bys:
        raise ValueError(f"{question} is broken down by {' or '.join(q.bys)}, not {by!r}")
    if isinstance(min_n, bool) or not isinstance(min_n, (int, np.integer)) or min_n < 1:
        raise ValueError(f"min_n must be a positive whole number of hands, got {min_n!r}")
    return q, by


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _labels(runs: Sequence[Data], labels: Sequence[str] | None) -> list[str]:
    if labels is not None and len(labels) != len(runs):
        raise ValueError(
            f"give one label per run: {_count(len(runs), 'run')}, {_count(len(labels), 'label')}"
        )
    if labels is not None:
        return [str(s) for s in labels]
    names = [Path(str(r)).name or str(r) for r in runs]
    return [n if names.count(n) == 1 else f"{n} ({i + 1})" for i, n in enumerate(names)]


def overlay_table(
    question: str,
    runs: Sequence[Data],
    labels: Sequence[str] | None = None,
    by: str | None = None,
    min_n: int = MIN_N,
    allow_partial: bool = False,
) -> tuple[pd.DataFrame, list[RunInfo]]:
    """The answer to ``question`` (a name of :data:`OVERLAYS`) for each run, broken down by
    ``by`` (its first breakdown by default), each run in its own bins of at least ``min_n``
    observations. Returns the table (one row per run and bin: ``run``, ``label``, ``x_lo``,
    ``x_hi``, ``x``, ``n``, ``estimate``, ``ci_lo``, ``ci_hi`` and for proportions ``k``) and
    what the chart says of each run.

    A partial run is refused unless ``allow_partial``; a run whose rules lack what the
    question needs (an auction) is a one-line error naming it."""
    q, by = _check(question, by, min_n)
    question = q.name
    if not runs:
        raise ValueError("give at least one run")
    names = _labels(runs, labels)
    frames, infos = [], []
    for i, (data, label) in enumerate(zip(runs, names, strict=True)):
        rules = rules_of(data)
        where = "the data" if isinstance(data, pd.DataFrame) else repr(str(data))
        if q.needs_auction and "bid" not in column_names(data):
            raise ValueError(f"{where} has no auction (rules {rules.name}): {question} needs one")
        ext = extent(data)
        if ext.unit == "games":
            raise ValueError(f"{where} is a games run: chart asks its questions of hands runs")
        if ext.partial and not allow_partial:
            raise ValueError(
                f"{where} is a partial run ({ext.describe()}): finish it with --resume, or "
                "pass --allow-partial (allow_partial=True) to chart the hands read"
            )
        cols, xy, per_hand = _observations(q, by, rules)
        counts = answer(data, [_XCounts(cols, xy)])[0]
        held = int(counts["n"].sum())
        if held < min_n:
            unit = "hands" if per_hand == 1 else "observations"
            raise ValueError(
                f"{where} holds {held:,} {unit} for {question}, fewer than one point's "
                f"{min_n:,} (min_n, --min-n)"
            )
        edges = choose_bins(counts["value"].to_numpy(), counts["n"].to_numpy(), min_n)
        bins = pd.DataFrame({"x_lo": edges[:, 0], "x_hi": edges[:, 1]})
        t = answer(data, [_Binned(cols, xy, q, bins, per_hand)])[0]
        frames.append(t.assign(run=i, label=label))
        path = "" if isinstance(data, pd.DataFrame) else str(data)
        infos.append(RunInfo(label, path, provenance_of(data), ext.read, ext.partial))
    table = pd.concat(frames, ignore_index=True)
    first = ["run", "label", "x_lo", "x_hi", "x", "n", "estimate", "ci_lo", "ci_hi"]
    rest = [c for c in ("k", "sd", "se") if c in table.columns]
    return table[first + rest], infos
