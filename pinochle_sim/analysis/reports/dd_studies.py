"""The double-dummy studies of a ``run --dd`` (columns ``dd_points``, ``dd_made``): what card play
costs the bidding side, going set when both sides play perfectly, and how often the bots' bids are
makeable at all. Each function takes a run folder (or a DataFrame with the needed columns) and
returns a tidy table with sample sizes and 95% intervals (Wilson for shares, mean +- 1.96 standard
errors for means), like :mod:`.questions`, gathered part by part.

Double dummy means every seat plays perfectly with every card seen, from the position where trick
play starts (:mod:`pinochle_sim.runs.simulate.dd`). That is an upper bound on no one: the bidding
side plays better than it can without seeing the cards, and so do the defenders.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from pinochle_sim.analysis.reports.gather import (
    Columns,
    MeansTable,
    PropsTable,
    Question,
    gathered,
)
from pinochle_sim.analysis.reports.load import Data, rules_of
from pinochle_sim.analysis.reports.questions import (
    SUITS,
    _bidding_side,
    _bucket,
    _scaled,
    _side_cols,
    _side_trumps,
)
from pinochle_sim.analysis.stats import int_bincount
from pinochle_sim.rules import Ruleset

DD_COLUMNS = ("dd_points", "dd_made")
"""What a run needs for these studies (``run --dd`` of an auction preset)."""

BID_EDGES = np.arange(250, 451, 20)
"""Winning-bid groups (partnership points): 250-269, 270-289, ..., 450+. Double-dummy runs
hold thousands of hands, so the groups are coarser than the other studies'."""
NEEDED_DD_EDGES = np.arange(-100, 301, 40)
"""Points-needed-from-tricks groups: below -60, -60..-21, ..., 300+."""
TRUMP_EDGES = np.arange(5, 12)
"""Bidding side's trumps: 5 or fewer, 6, ..., 11 or more."""


def _labels(edges: np.ndarray, first: str, last: str) -> list[str]:
    mid = [f"{a}..{b - 1}" if b - a > 1 else str(a) for a, b in itertools.pairwise(edges)]
    return [first, *mid[1:], last]


class _DoubleDummy(Question):
    """What the three studies share: the columns, the per-hand values and the groups (by
    winning bid, by points needed from tricks, by the bidding side's trumps, and all hands)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.players, self.partners = rules.players, rules.partnerships
        p = self.players
        self.columns = ["bidder", "bid", "trump", "made", "conceded", *DD_COLUMNS]
        self.columns += _side_cols("team_meld", p, self.partners)
        self.columns += _side_cols("team_tricks", p, self.partners)
        self.columns += [f"len_{s}_{t}" for s in range(p) for t in SUITS]
        bids = _scaled(BID_EDGES, rules)
        need = _scaled(NEEDED_DD_EDGES, rules)
        self.groups = [
            ("bid", _labels(bids, f"<{bids[1]}", f"{bids[-1]}+"), bids),
            ("needed from tricks", _labels(need, f"<{need[1]}", f"{need[-1]}+"), need),
            (
                "team trumps",
                _labels(TRUMP_EDGES, f"{TRUMP_EDGES[1] - 1} or fewer", f"{TRUMP_EDGES[-1]}+"),
                TRUMP_EDGES,
            ),
            ("all", ["all"], None),
        ]

    def values(self, d: Columns) -> dict[str, np.ndarray]:
        bidder = d["bidder"].astype(np.int64)
        p, partners = self.players, self.partners
        return {
            "bid": d["bid"].astype(np.int64),
            "meld": _bidding_side(d, "team_meld", p, partners).astype(np.int64),
            "tricks": _bidding_side(d, "team_tricks", p, partners).astype(np.int64),
            "dd": d["dd_points"].astype(np.int64),
            "dd_made": d["dd_made"].astype(bool),
            "made": d["made"].astype(bool),
            "conceded": d["conceded"].astype(bool),
            "trumps": np.minimum(_side_trumps(d, bidder, p, partners), 12),
        }

    def keys(self, v: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The group of every hand, by each breakdown."""
        return {
            "bid": _bucket(v["bid"], self.groups[0][2]),
            "needed from tricks": _bucket(v["bid"] - v["meld"], self.groups[1][2]),
            "team trumps": _bucket(v["trumps"], TRUMP_EDGES),
            "all": np.zeros(len(v["bid"]), dtype=np.int64),
        }

    def x(self, by: str, t: pd.DataFrame) -> pd.Series:
        """A numeric x for plotting: the group's centre (its first value for trumps)."""
        k = t["order"].to_numpy()
        if by == "needed from tricks" or by == "bid":
            edges = _scaled(NEEDED_DD_EDGES if by != "bid" else BID_EDGES, self.rules)
            return pd.Series(edges[k] + (edges[1] - edges[0]) / 2, index=t.index)
        if by == "team trumps":
            return pd.Series(TRUMP_EDGES[k], index=t.index)
        return pd.Series(np.zeros(len(t)), index=t.index)


class CardPlayCost(_DoubleDummy):
    """The bidding side's double-dummy trick points minus those the bots took (hands played
    out; conceded hands have no play), by winning bid, by points needed from tricks, by the
    side's trumps and overall. ``mean`` is the cost in points (positive: the bots took less
    than perfect play gives), ``dd_mean`` and ``bots_mean`` the two averages."""

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules)
        self.cost = {by: MeansTable(len(labels)) for by, labels, _ in self.groups}
        self.sums = {
            (by, col): np.zeros(len(labels), dtype=np.int64)
            for by, labels, _ in self.groups
            for col in ("dd", "tricks")
        }

    def add(self, d: Columns, again: bool = False) -> None:
        v = self.values(d)
        played = ~v["conceded"]
        cost = v["dd"] - v["tricks"]
        for by, keys in self.keys(v).items():
            self.cost[by].add(keys[played], cost[played])
            for col in ("dd", "tricks"):
                s = self.sums[(by, col)]
                s += int_bincount(keys[played], v[col][played], len(s))

    def table(self) -> pd.DataFrame:
        rows = []
        for by, labels, _ in self.groups:
            ng = len(labels)
            idx = pd.DataFrame({"by": by, "level": labels, "order": np.arange(ng)})
            t = self.cost[by].frame(idx)
            k = t["order"].to_numpy()
            for name, col in (("dd_mean", "dd"), ("bots_mean", "tricks")):
                t[name] = self.sums[(by, col)].astype(float)[k] / t["n"]
            t["x"] = self.x(by, t)
            rows.append(t)
        return pd.concat(rows, ignore_index=True)


class GoSetDD(_DoubleDummy):
    """P(set) of the bots (``made`` false; conceded hands count as set) and under perfect play
    by every seat (``dd_made`` false; conceded hands solved as if played), by winning bid, by
    points needed from tricks, by the side's trumps and overall; ``who`` says which."""

    WHO = ("bots", "double dummy")

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules)
        self.sets = {
            (who, by): PropsTable(len(labels)) for who in self.WHO for by, labels, _ in self.groups
        }

    def add(self, d: Columns, again: bool = False) -> None:
        v = self.values(d)
        keys = self.keys(v)
        for who, set_ in zip(self.WHO, (~v["made"], ~v["dd_made"]), strict=True):
            for by, _, _ in self.groups:
                self.sets[(who, by)].add(keys[by], set_)

    def table(self) -> pd.DataFrame:
        rows = []
        for who in self.WHO:
            for by, labels, _ in self.groups:
                ng = len(labels)
                idx = pd.DataFrame({"who": who, "by": by, "level": labels, "order": np.arange(ng)})
                t = self.sets[(who, by)].frame(idx)
                t["x"] = self.x(by, t)
                rows.append(t)
        return pd.concat(rows, ignore_index=True)


OUTCOMES = ("made", "set in play", "conceded")


class Makeable(_DoubleDummy):
    """How often the bid is makeable double dummy (``p``): by what the bots did with it (made,
    set in play, conceded), by winning bid, by points needed from tricks, and overall."""

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules)
        self.breakdowns = [("bots' result", list(OUTCOMES))]
        self.breakdowns += [(by, labels) for by, labels, _ in self.groups if by != "team trumps"]
        self.made = {by: PropsTable(len(labels)) for by, labels in self.breakdowns}

    def add(self, d: Columns, again: bool = False) -> None:
        v = self.values(d)
        keys = self.keys(v)
        keys["bots' result"] = np.where(v["conceded"], 2, np.where(v["made"], 0, 1))
        for by, _ in self.breakdowns:
            self.made[by].add(keys[by], v["dd_made"])

    def table(self) -> pd.DataFrame:
        rows = []
        for by, labels in self.breakdowns:
            ng = len(labels)
            idx = pd.DataFrame({"by": by, "level": labels, "order": np.arange(ng)})
            t = self.made[by].frame(idx)
            t["x"] = self.x(by, t) if by != "bots' result" else t["order"]
            rows.append(t)
        return pd.concat(rows, ignore_index=True)


def card_play_cost(data: Data) -> pd.DataFrame:
    return gathered(CardPlayCost(rules_of(data)), data)


def go_set_dd(data: Data) -> pd.DataFrame:
    return gathered(GoSetDD(rules_of(data)), data)


def makeable(data: Data) -> pd.DataFrame:
    return gathered(Makeable(rules_of(data)), data)


for _function, _question in (
    (card_play_cost, CardPlayCost),
    (go_set_dd, GoSetDD),
    (makeable, Makeable),
):
    _function.__doc__ = _question.__doc__  # one text for the class and its function
