"""The double-dummy studies of a ``run --dd`` (columns ``dd_points``, ``dd_made``): what card
play costs the bidding side, going set when both sides play perfectly, and how often the bots'
bids are makeable at all. Each function takes a run folder (or a DataFrame with the needed
columns) and returns a tidy table with sample sizes and 95% intervals (Wilson for shares,
mean +- 1.96 standard errors for means), like :mod:`.questions`.

Double dummy means every seat plays perfectly with every card seen, from the position where
trick play starts (:mod:`pinochle_sim.runs.dd`). That is an upper bound on no one: the bidding
side plays better than it can without seeing the cards, and so do the defenders.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from pinochle_sim.analysis.reports.load import Data, columns
from pinochle_sim.analysis.reports.questions import (
    SUITS,
    _bidding_side,
    _bucket,
    _means,
    _props,
    _scaled,
    _shape,
    _side_cols,
    _side_trumps,
)

DD_COLUMNS = ("dd_points", "dd_made")
"""What a run needs for these studies (``run --dd`` of an auction preset)."""


def _frame(data: Data) -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    players, partners = _shape(data)
    cols = ["bidder", "bid", "trump", "made", "conceded", *DD_COLUMNS]
    cols += _side_cols("team_meld", players, partners)
    cols += _side_cols("team_tricks", players, partners)
    cols += [f"len_{p}_{s}" for p in range(players) for s in SUITS]
    d = columns(data, cols)
    bidder = d["bidder"].to_numpy().astype(np.int64)
    v = {
        "bid": d["bid"].to_numpy().astype(np.int64),
        "meld": _bidding_side(d, "team_meld", players, partners).astype(np.int64),
        "tricks": _bidding_side(d, "team_tricks", players, partners).astype(np.int64),
        "dd": d["dd_points"].to_numpy().astype(np.int64),
        "dd_made": d["dd_made"].to_numpy().astype(bool),
        "made": d["made"].to_numpy().astype(bool),
        "conceded": d["conceded"].to_numpy().astype(bool),
        "trumps": np.minimum(_side_trumps(d, bidder, players, partners), 12),
    }
    return d, v


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


def _groups(v: dict[str, np.ndarray], data: Data) -> list[tuple[str, list[str], np.ndarray, int]]:
    """(by, level labels, key per hand, number of groups): by winning bid, by points needed from
    tricks (bid - bidding side's meld), by the bidding side's trumps, and all hands."""
    bids = _scaled(BID_EDGES, data)
    need = _scaled(NEEDED_DD_EDGES, data)
    n = len(v["bid"])
    return [
        (
            "bid",
            _labels(bids, f"<{bids[1]}", f"{bids[-1]}+"),
            _bucket(v["bid"], bids),
            len(bids),
        ),
        (
            "needed from tricks",
            _labels(need, f"<{need[1]}", f"{need[-1]}+"),
            _bucket(v["bid"] - v["meld"], need),
            len(need),
        ),
        (
            "team trumps",
            _labels(TRUMP_EDGES, f"{TRUMP_EDGES[1] - 1} or fewer", f"{TRUMP_EDGES[-1]}+"),
            _bucket(v["trumps"], TRUMP_EDGES),
            len(TRUMP_EDGES),
        ),
        ("all", ["all"], np.zeros(n, dtype=np.int64), 1),
    ]


def _x(by: str, t: pd.DataFrame, data: Data) -> pd.Series:
    """A numeric x for plotting: the group's centre (its first value for trumps)."""
    k = t["order"].to_numpy()
    if by == "needed from tricks" or by == "bid":
        edges = _scaled(NEEDED_DD_EDGES if by != "bid" else BID_EDGES, data)
        return pd.Series(edges[k] + (edges[1] - edges[0]) / 2, index=t.index)
    if by == "team trumps":
        return pd.Series(TRUMP_EDGES[k], index=t.index)
    return pd.Series(np.zeros(len(t)), index=t.index)


def card_play_cost(data: Data) -> pd.DataFrame:
    """The bidding side's double-dummy trick points minus those the bots took (hands played
    out; conceded hands have no play), by winning bid, by points needed from tricks, by the
    side's trumps and overall. ``mean`` is the cost in points (positive: the bots took less
    than perfect play gives), ``dd_mean`` and ``bots_mean`` the two averages."""
    _, v = _frame(data)
    played = ~v["conceded"]
    cost = (v["dd"] - v["tricks"]).astype(float)
    rows = []
    for by, labels, keys, ng in _groups(v, data):
        idx = pd.DataFrame({"by": by, "level": labels, "order": np.arange(ng)})
        t = _means(keys[played], cost[played], ng, idx)
        k = t["order"].to_numpy()
        for name, col in (("dd_mean", "dd"), ("bots_mean", "tricks")):
            s = np.bincount(keys[played], weights=v[col][played].astype(float), minlength=ng)
            t[name] = s[k] / t["n"]
        t["x"] = _x(by, t, data)
        rows.append(t)
    return pd.concat(rows, ignore_index=True)


def go_set_dd(data: Data) -> pd.DataFrame:
    """P(set) of the bots (``made`` false; conceded hands count as set) and under perfect play
    by every seat (``dd_made`` false; conceded hands solved as if played), by winning bid, by
    points needed from tricks, by the side's trumps and overall; ``who`` says which."""
    _, v = _frame(data)
    rows = []
    for who, set_ in (("bots", ~v["made"]), ("double dummy", ~v["dd_made"])):
        for by, labels, keys, ng in _groups(v, data):
            idx = pd.DataFrame({"who": who, "by": by, "level": labels, "order": np.arange(ng)})
            t = _props(keys, set_, ng, idx)
            t["x"] = _x(by, t, data)
            rows.append(t)
    return pd.concat(rows, ignore_index=True)


OUTCOMES = ("made", "set in play", "conceded")


def makeable(data: Data) -> pd.DataFrame:
    """How often the bid is makeable double dummy (``p``): by what the bots did with it (made,
    set in play, conceded), by winning bid, by points needed from tricks, and overall."""
    _, v = _frame(data)
    outcome = np.where(v["conceded"], 2, np.where(v["made"], 0, 1))
    groups = [g for g in _groups(v, data) if g[0] != "team trumps"]
    groups.insert(0, ("bots' result", list(OUTCOMES), outcome, 3))
    rows = []
    for by, labels, keys, ng in groups:
        idx = pd.DataFrame({"by": by, "level": labels, "order": np.arange(ng)})
        t = _props(keys, v["dd_made"], ng, idx)
        t["x"] = _x(by, t, data) if by != "bots' result" else t["order"]
        rows.append(t)
    return pd.concat(rows, ignore_index=True)
