"""The questions players ask of auction games, one each: a run in, a tidy DataFrame out (two-hand
and whole games: :mod:`.questions_two_hand`).

Every question reads only the columns it needs, part by part (:mod:`.gather`: memory holds one
part whatever the run's size), and returns estimates with sample sizes and 95% confidence
intervals: Wilson intervals for proportions, mean +- 1.96 standard errors for means. Each is a
:class:`~.gather.Question` class (a report answers all of them over one reading of the run) and a
function of the same name in lower case that answers it for one run folder or DataFrame. Seats
are 0..3, team 0 is seats 0 and 2; the bidder's partner is seat ``bidder + 2``. Passing moves
cards only between the bidder and partner, so the bidding team's trump count and aces are the
same before and after it.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from pinochle_sim.analysis import exact
from pinochle_sim.analysis.reports.gather import (
    Columns,
    Counts,
    MeansTable,
    PropsTable,
    Question,
    gathered,
)
from pinochle_sim.analysis.reports.load import Data, rules_of
from pinochle_sim.analysis.stats import Blocks, Histogram, TailCounts, int_bincount, wilson
from pinochle_sim.rules import Ruleset

SUITS = "shdc"
AUCTION_COLUMNS = ("bid", "bidder")
"""Columns of runs whose rules hold an auction."""
MIN_N = 200
"""Groups with fewer observations are left off the charts and out of the reports' text (they
stay in the CSV tables)."""
SUIT_GROUP = np.array([0, 1, 0, 1])  # S, D hold the pinochle cards (QS, JD); H, C do not
SUIT_GROUP_NAMES = ("spades/diamonds", "hearts/clubs")


def _per_seat(d: Columns, prefix: str, seat: np.ndarray, players: int) -> np.ndarray:
    """Per hand, ``{prefix}{seat}`` for the given seat of each hand."""
    stack = np.stack([d[f"{prefix}{p}"] for p in range(players)])
    return stack[seat, np.arange(len(d))]


def _seat_trump(d: Columns, family: str, seat: np.ndarray, players: int = 4) -> np.ndarray:
    """Per hand, ``{family}_{seat}_{trump}`` for the given seat per hand and the named trump."""
    stack = np.stack([d[f"{family}_{p}_{s}"] for p in range(players) for s in SUITS])
    return stack[seat * 4 + d["trump"].astype(np.int64), np.arange(len(d))]


def _bidding_side(d: Columns, prefix: str, players: int, partners: bool) -> np.ndarray:
    """Per hand, the bidding side's ``{prefix}_{side}`` (side = seat % 2, or the seat)."""
    bidder = d["bidder"].astype(np.int64)
    sides = 2 if partners else players
    return _per_seat(d, f"{prefix}_", bidder % 2 if partners else bidder, sides)


def _side_trumps(d: Columns, bidder: np.ndarray, players: int, partners: bool) -> np.ndarray:
    """Dealt trumps of the bidding side: bidder + partner (unchanged by the pass), or the
    bidder alone (dealt hand, before the widow)."""
    own = _seat_trump(d, "len", bidder, players)
    return own + _seat_trump(d, "len", (bidder + 2) % 4, players) if partners else own


def _side_cols(prefix: str, players: int, partners: bool) -> list[str]:
    return [f"{prefix}_{k}" for k in range(2 if partners else players)]


def _need_partners(rules: Ruleset, question: str) -> None:
    if not rules.partnerships:
        raise ValueError(f"{question} is a question about partnerships; this run has none")


def _scaled(edges: np.ndarray, rules: Ruleset) -> np.ndarray:
    """Point grids are written in ``partnership`` points; ``joedog`` (scale 10) divides them."""
    return np.unique((edges // rules.scale).astype(np.int64))


def _bucket(v: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The bucket of each value: the last edge at or below it (values below the first edge go
    to the first bucket). Integers of a small range are looked up in a table, not searched."""
    v = np.asarray(v)
    if v.dtype.kind in "iu" and v.size > 4096:
        lo, hi = int(v.min()), int(v.max())
        if hi - lo < v.size:
            table = _bucket(np.arange(lo, hi + 1), edges)
            return table[v - lo]
    return np.clip(np.searchsorted(edges, v, side="right") - 1, 0, len(edges) - 1)


def _bucket_labels(edges: np.ndarray) -> list[str]:
    return [f"{a}-{b - 1}" for a, b in itertools.pairwise(edges)] + [f"{edges[-1]}+"]


def _props(
    keys: np.ndarray,
    hits: np.ndarray,
    n_groups: int,
    index: pd.DataFrame,
    clusters: np.ndarray | None = None,
) -> pd.DataFrame:
    """Group proportions with Wilson intervals over whole arrays (a :class:`PropsTable` fed
    once, and once more with the clusters); with ``clusters`` (e.g. the game of each
    observation) the interval uses the effective sample size n / design effect."""
    table = PropsTable(n_groups, clustered=clusters is not None)
    table.add(keys, hits)
    if clusters is not None:
        table.add_clusters(keys, hits, clusters)
    return table.frame(index)


# --------------------------------------------------------------------------- meld


def _exact_by_trump(rules: Ruleset) -> list[exact.ExactMeld]:
    """The exact meld distribution for each trump suit (S, H, D, C)."""
    return [exact.exact_meld_distribution(rules, s) for s in range(4)]


def _exact_groups(rules: Ruleset) -> dict[tuple[int, int], dict[int, int]]:
    """Exact counts of a dealt hand's meld per (suit group, trump length): each group pools its
    two suits, whose trump lengths are equally likely (hypergeometric)."""
    dists = _exact_by_trump(rules)
    out: dict[tuple[int, int], dict[int, int]] = {}
    for s, e in enumerate(dists):
        for L, dist in e.by_length.items():
            pooled = out.setdefault((int(SUIT_GROUP[s]), L), {})
            for v, c in dist.items():
                pooled[v] = pooled.get(v, 0) + c
    return out


def _exact_moments(dist: dict[int, int]) -> tuple[float, float, float, float]:
    """Mean, 10th, 50th and 90th percentile (lower quantiles) of exact counts."""
    values = np.array(sorted(dist), dtype=np.int64)
    counts = np.array([dist[v] for v in values], dtype=object)
    total = int(counts.sum())
    cum = np.cumsum(counts)
    mean = float(sum(int(v) * int(c) for v, c in zip(values, counts, strict=True)) / total)
    q = [float(values[np.argmax(cum * 10 >= total * k)]) for k in (1, 5, 9)]
    return mean, q[0], q[1], q[2]


class MeldByTrumpLength(Question):
    """A seat's meld from its dealt hand for a trump suit, by its length in that suit.

    Every seat and every suit of every hand is one observation (16 per four-hand deal). Rows
    per suit group (spades/diamonds vs hearts/clubs: QS and JD make pinochles, so S and D
    trumps differ) and length: n, mean with CI, median, p10, p90. A dealt hand is a uniform
    random hand, so each row also carries its exact values (:mod:`pinochle_sim.analysis.exact`):
    ``exact_mean``, ``exact_p10``, ``exact_median``, ``exact_p90``, and ``z`` = (mean -
    exact_mean) / se, the simulation's self-check.
    """

    passes = 2

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.players = rules.players
        self.columns = [
            f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(self.players) for s in SUITS
        ]
        self.means = MeansTable(26, clustered=True)
        self.hist = Histogram(26)

    def _observations(self, d: Columns) -> Blocks:
        """One block per (seat, suit): key suit group * 13 + length, value the meld."""
        seats = [(p, s) for p in range(self.players) for s in SUITS]
        meld = np.stack([d[f"meld_{p}_{s}"] for p, s in seats])
        length = np.stack([d[f"len_{p}_{s}"] for p, s in seats])
        return Blocks(length, meld, base=np.tile(SUIT_GROUP, self.players) * 13)

    def prepare(self) -> None:
        _exact_by_trump(self.rules)

    def add(self, d: Columns, again: bool = False) -> None:
        blocks = self._observations(d)
        if again:  # a hand's observations are correlated
            self.means.add_hand_blocks(blocks)
            return
        self.means.add_blocks(blocks, hist=self.hist)

    def table(self) -> pd.DataFrame:
        index = pd.DataFrame(
            {"suits": np.repeat(SUIT_GROUP_NAMES, 13), "trump_length": np.tile(np.arange(13), 2)}
        )
        out = self.means.frame(index.assign(_k=np.arange(26)))
        q = self.hist.quantiles()
        out["p10"], out["median"], out["p90"] = (q[out["_k"], j] for j in range(3))
        ex = _exact_groups(self.rules)
        truth = np.array([_exact_moments(ex[(k // 13, k % 13)]) for k in out["_k"]])
        truth = truth.reshape(-1, 4)
        for j, name in enumerate(("exact_mean", "exact_p10", "exact_median", "exact_p90")):
            out[name] = truth[:, j]
        with np.errstate(invalid="ignore", divide="ignore"):
            out["z"] = np.where(
                out["se"] > 0, (out["mean"] - out["exact_mean"]) / out["se"], np.nan
            )
        return out.drop(columns="_k")


TAIL_GRID = np.arange(0, 1001, 10)
"""The least grid of P(meld >= x) in partnership points; it grows in the same steps to the
largest meld of the run."""
FIXED_TRUMP = "fixed trump"
"""The ``stage`` of the tail series whose exact law is known: every seat's dealt hand in each
suit as trump (not the trump later named, which the auction picks for the bidder's hand)."""


def _tail_grid(rules: Ruleset, top: int) -> np.ndarray:
    """:data:`TAIL_GRID` in the run's points, extended in the same steps to reach ``top``."""
    grid = _scaled(TAIL_GRID, rules)
    step = int(grid[1] - grid[0])
    if top > grid[-1]:
        grid = np.concatenate([grid, np.arange(grid[-1] + step, top + step, step)])
    return grid


class _Series:
    """One tail series of :class:`MeldDistribution`: a histogram, the sum and the count."""

    def __init__(self) -> None:
        self.counts = np.zeros(1, dtype=np.int64)
        self.total = 0
        self.size = 0

    def add(self, v: np.ndarray) -> None:
        v = np.asarray(v, dtype=np.int64).ravel()
        top = max(int(v.max(initial=0)) + 1, len(self.counts))
        if top > len(self.counts):
            self.counts = np.pad(self.counts, (0, top - len(self.counts)))
        self.counts += np.bincount(v, minlength=top)
        self.total += int(v.sum())
        self.size += v.size

    def at_least(self, grid: np.ndarray) -> np.ndarray:
        ge = self.counts[::-1].cumsum()[::-1]  # ge[x] = #(v >= x)
        return np.array([ge[x] if x < len(ge) else 0 for x in grid])


class MeldDistribution(Question):
    """Tail probabilities P(meld >= x) with Wilson CIs, for one seat and for one team, before
    the pass (dealt hands, in the named trump) and after it, and for dealt hands in a trump
    fixed in advance, whose exact law is known.

    ``who``: ``seat`` (all four seats pooled), ``team`` (both teams pooled), ``bidder``,
    ``bidding team``; ``stage``: ``pre-pass`` / ``post-pass``, or ``fixed trump`` (``seat``
    only: every seat's dealt hand with each suit as trump, 16 observations per four-hand deal;
    their intervals allow for the correlation within a deal, and ``exact_p`` and ``z`` = (p -
    exact_p) / its standard error under the exact p give the simulation's self-check). The
    grid runs from 0 in steps of 10 partnership points to the largest meld of the run.
    """

    def __init__(self, rules: Ruleset, grid: np.ndarray | None = None) -> None:
        self.rules = rules
        self.grid = grid
        p = rules.players
        self.columns = ["bidder", "trump"] + [f"meld_{s}" for s in range(p)]
        self.columns += [f"meld_{s}_{t}" for s in range(p) for t in SUITS]
        names = [("seat", FIXED_TRUMP), ("seat", "pre-pass"), ("seat", "post-pass")]
        names += [("bidder", "pre-pass"), ("bidder", "post-pass")]
        if rules.partnerships:
            names += [("team", "pre-pass"), ("team", "post-pass")]
            names += [("bidding team", "pre-pass"), ("bidding team", "post-pass")]
        self.series = {name: _Series() for name in names}
        self.tail = TailCounts()

    def add(self, d: Columns, again: bool = False) -> None:
        players = self.rules.players
        idx = np.arange(len(d))
        trump = d["trump"].astype(np.int64)
        bidder = d["bidder"].astype(np.int64)
        post = np.stack([d[f"meld_{p}"].astype(np.int64) for p in range(players)])
        pre_all = np.stack([d[f"meld_{p}_{s}"] for p in range(players) for s in SUITS])
        pre = np.stack([pre_all[p * 4 + trump, idx] for p in range(players)]).astype(np.int64)
        values = {
            ("seat", FIXED_TRUMP): pre_all.T,  # one row per deal: its clusters
            ("seat", "pre-pass"): pre.ravel(),
            ("seat", "post-pass"): post.ravel(),
            ("bidder", "pre-pass"): pre[bidder, idx],
            ("bidder", "post-pass"): post[bidder, idx],
        }
        if self.rules.partnerships:
            mate = (bidder + 2) % 4
            values |= {
                ("team", "pre-pass"): np.concatenate([pre[0] + pre[2], pre[1] + pre[3]]),
                ("team", "post-pass"): np.concatenate([post[0] + post[2], post[1] + post[3]]),
                ("bidding team", "pre-pass"): pre[bidder, idx] + pre[mate, idx],
                ("bidding team", "post-pass"): post[bidder, idx] + post[mate, idx],
            }
        for name, v in values.items():
            self.series[name].add(v)
        self.tail.add(pre_all.T)

    def prepare(self) -> None:
        _exact_by_trump(self.rules)

    def table(self) -> pd.DataFrame:
        grid = self.grid
        if grid is None:
            grid = _tail_grid(self.rules, max(len(s.counts) - 1 for s in self.series.values()))
        grid = np.asarray(grid, dtype=np.int64)
        truth = _exact_by_trump(self.rules)
        rows = []
        for (who, stage), s in self.series.items():
            deff = np.ones(len(grid))
            if stage == FIXED_TRUMP:
                k, deff = self.tail.tail(grid)
            else:
                k = s.at_least(grid)
            size = s.size
            lo, hi = wilson(k / deff, size / deff)
            t = pd.DataFrame(
                {
                    "who": who,
                    "stage": stage,
                    "x": grid,
                    "n": size,
                    "k": k,
                    "p": k / size,
                    "ci_lo": lo,
                    "ci_hi": hi,
                    "mean": s.total / size,
                }
            )
            if stage == FIXED_TRUMP:  # the four trumps are equally represented
                p = np.array([np.mean([e.tail(x) for e in truth]) for x in grid])
                t["exact_p"] = p
                t["exact_mean"] = truth[0].mean  # the same for every trump
                t["deff"] = deff
                with np.errstate(invalid="ignore", divide="ignore"):
                    se = np.sqrt(p * (1 - p) * deff / size)
                    t["z"] = np.where(se > 0, (t["p"] - p) / se, np.nan)
            rows.append(t)
        return pd.concat(rows, ignore_index=True)


MELD_BUCKETS = np.array([0, 20, 40, 60, 80, 100, 150, 200, 250, 300, 400])


class PartnerMeld(Question):
    """What a player can expect from the partner: partner's meld (dealt hand, same trump) by own
    meld and, separately, by own trump length — over every seat and trump of every hand — and,
    for actual bidders, the meld the partner and the pass add to the bidder's own dealt meld.

    ``given``: ``own meld`` / ``own trump length`` / ``bidder meld (auction)``; ``level`` the
    bucket; ``mean`` the partner's meld (or the bidding team's post-pass meld minus the bidder's
    dealt meld for the auction rows). The meld buckets are uneven: ``lo`` and ``hi`` are a
    bucket's first and last points (``hi`` NaN for the open top bucket) and ``x`` the mean own
    meld of its observations, where a chart on a points axis places it (trump length: the
    length).
    """

    passes = 2

    def __init__(self, rules: Ruleset) -> None:
        _need_partners(rules, "partner meld")
        self.columns = ["bidder", "trump"] + [f"meld_{p}" for p in range(4)]
        self.columns += [f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(4) for s in SUITS]
        self.buckets = _scaled(MELD_BUCKETS, rules)
        nb = len(self.buckets)
        self.by_meld = MeansTable(nb, clustered=True)
        self.by_length = MeansTable(13, clustered=True)
        self.bidders = MeansTable(nb)
        self.own_meld = np.zeros(nb, dtype=np.int64)  # sums of the own meld of each bucket
        self.bidder_meld = np.zeros(nb, dtype=np.int64)
        self.bidder_count = np.zeros(nb, dtype=np.int64)

    def add(self, d: Columns, again: bool = False) -> None:
        n = len(d)
        seats = [(p, s) for p in range(4) for s in SUITS]
        meld = np.stack([d[f"meld_{p}_{s}"] for p, s in seats])  # a block per (seat, suit)
        length = np.stack([d[f"len_{p}_{s}"] for p, s in seats])
        mate = np.array([((p + 2) % 4) * 4 + SUITS.index(s) for p, s in seats])
        nb = len(self.buckets)
        lut = _bucket(np.arange(int(meld.max(initial=0)) + 1), self.buckets)
        by_meld = Blocks(meld, meld, lut=lut, vrow=mate)  # partner's meld by own meld bucket
        by_length = Blocks(length, meld, vrow=mate)
        if again:  # the 16 observations of a hand are correlated
            self.by_meld.add_hand_blocks(by_meld)
            self.by_length.add_hand_blocks(by_length)
            return
        self.by_meld.add_blocks(by_meld, xsum=self.own_meld)
        self.by_length.add_blocks(by_length)
        bidder = d["bidder"].astype(np.int64)
        pre_b = _seat_trump(d, "meld", bidder)
        post = np.stack([d[f"meld_{p}"] for p in range(4)])
        team_post = _per_seat(d, "meld_", bidder, 4) + post[(bidder + 2) % 4, np.arange(n)]
        bid_keys = _bucket(pre_b, self.buckets)
        self.bidders.add(bid_keys, team_post.astype(np.int64) - pre_b)
        self.bidder_count += np.bincount(bid_keys, minlength=nb)
        self.bidder_meld += int_bincount(bid_keys, pre_b, nb)

    def _meld_index(self, given: str, total: np.ndarray, count: np.ndarray) -> pd.DataFrame:
        nb = len(self.buckets)
        with np.errstate(invalid="ignore", divide="ignore"):
            x = total.astype(float) / count
        return pd.DataFrame(
            {
                "given": given,
                "level": _bucket_labels(self.buckets),
                "order": np.arange(nb),
                "lo": self.buckets.astype(float),
                "hi": np.append(self.buckets[1:] - 1, np.nan).astype(float),
                "x": x,
            }
        )

    def table(self) -> pd.DataFrame:
        count = self.by_meld.sums.sums(len(self.buckets))[0]  # observations of each bucket
        a = self.by_meld.frame(self._meld_index("own meld", self.own_meld, count))
        lengths = np.arange(13, dtype=float)
        b = self.by_length.frame(
            pd.DataFrame(
                {
                    "given": "own trump length",
                    "level": [str(i) for i in range(13)],
                    "order": np.arange(13),
                    "lo": lengths,
                    "hi": lengths,
                    "x": lengths,
                }
            )
        )
        index = self._meld_index("bidder meld (auction)", self.bidder_meld, self.bidder_count)
        c = self.bidders.frame(index)
        return pd.concat([a, b, c], ignore_index=True)


class _Measures(Question):
    """Means of several measures of the bidder, by a trump count (13 levels) and overall: the
    shape of :class:`PassValue` and :class:`WidowValue`."""

    level_column = "team_trumps"

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.by_level = {name: MeansTable(13) for name in names}
        self.overall = {name: MeansTable(1) for name in names}

    def gather(self, keys: np.ndarray, measures: dict[str, np.ndarray]) -> None:
        zero = np.zeros(len(keys), dtype=np.int64)
        for name, v in measures.items():
            self.by_level[name].add(keys, v)
            self.overall[name].add(zero, v)

    def table(self) -> pd.DataFrame:
        rows = []
        for name in self.names:
            idx = pd.DataFrame({"measure": name, self.level_column: [str(i) for i in range(13)]})
            rows.append(self.by_level[name].frame(idx))
            overall = pd.DataFrame({"measure": [name], self.level_column: ["all"]})
            rows.append(self.overall[name].frame(overall))
        return pd.concat(rows, ignore_index=True)


class PassValue(_Measures):
    """The pass: the bidder's meld before (dealt hand, named trump) and after, the gain, and the
    bidding team's gain, by the bidding team's trump count (unchanged by the pass) and
    overall."""

    def __init__(self, rules: Ruleset) -> None:
        _need_partners(rules, "the value of the pass")
        super().__init__(("bidder meld before", "bidder meld after", "bidder gain", "team gain"))
        self.columns = ["bidder", "trump"] + [f"meld_{p}" for p in range(4)]
        self.columns += [f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(4) for s in SUITS]

    def add(self, d: Columns, again: bool = False) -> None:
        n = len(d)
        bidder = d["bidder"].astype(np.int64)
        partner = (bidder + 2) % 4
        post = np.stack([d[f"meld_{p}"] for p in range(4)]).astype(np.int64)
        pre_b = _seat_trump(d, "meld", bidder).astype(np.int64)
        pre_p = _seat_trump(d, "meld", partner).astype(np.int64)
        post_b = post[bidder, np.arange(n)]
        post_p = post[partner, np.arange(n)]
        team_len = _seat_trump(d, "len", bidder) + _seat_trump(d, "len", partner)
        measures = {
            "bidder meld before": pre_b,
            "bidder meld after": post_b,
            "bidder gain": post_b - pre_b,
            "team gain": (post_b + post_p) - (pre_b + pre_p),
        }
        self.gather(np.minimum(team_len, 12).astype(np.int64), measures)


# --------------------------------------------------------------------------- bidding and play


def _at(stats: dict[str, np.ndarray], index: pd.DataFrame, at: np.ndarray) -> pd.DataFrame:
    """``index`` (a row per group) with the statistics of groups ``at``."""
    out = index.copy()
    for k in ("n", "mean", "sd", "se", "ci_lo", "ci_hi"):
        out[k] = stats[k][at]
    return out


class BidVsMeld(Question):
    """The winning bid against the bidding team's meld after the pass: mean meld per bid."""

    def __init__(self, rules: Ruleset) -> None:
        self.players, self.partners = rules.players, rules.partnerships
        self.columns = ["bidder", "bid", "stuck"]
        self.columns += _side_cols("team_meld", self.players, self.partners)
        self.by_bid = MeansTable()
        self.stuck = Counts()

    def add(self, d: Columns, again: bool = False) -> None:
        meld = _bidding_side(d, "team_meld", self.players, self.partners).astype(np.int64)
        bid = d["bid"].astype(np.int64)
        self.by_bid.add(bid, meld)
        self.stuck.add(bid[d["stuck"].astype(bool)])

    def table(self) -> pd.DataFrame:
        stats = self.by_bid.stats()
        bids = np.flatnonzero(stats["n"])
        out = _at(stats, pd.DataFrame({"bid": bids}), bids)
        out["stuck_share"] = self.stuck.of(bids).astype(float) / out["n"]
        out["mean_needed_from_tricks"] = out["bid"] - out["mean"]
        return out


NEEDED_EDGES = np.arange(-100, 301, 20)


class GoSet(Question):
    """P(set) by winning bid, by points needed from tricks (bid - bidding team meld, in steps of
    20 partnership points) and by the bidding partnership's trump count; plus the concede rate.

    ``by`` names the breakdown; ``p`` is P(set) (conceded hands count as set), ``concede_p`` the
    concede rate in the same group, ``mean_needed`` the mean points the bidding side needs
    from tricks there (bid minus its meld after the pass: what P(set) follows).
    """

    def __init__(self, rules: Ruleset) -> None:
        self.players, self.partners = rules.players, rules.partnerships
        self.columns = ["bidder", "bid", "trump", "made", "conceded"]
        self.columns += _side_cols("team_meld", self.players, self.partners)
        self.columns += [f"len_{p}_{s}" for p in range(self.players) for s in SUITS]
        self.edges = _scaled(NEEDED_EDGES, rules)
        self.sets = {by: PropsTable() for by in ("bid", "needed from tricks", "team trumps", "all")}
        self.concedes = {by: Counts() for by in self.sets}
        self.needed = {by: MeansTable() for by in self.sets}

    def add(self, d: Columns, again: bool = False) -> None:
        bidder = d["bidder"].astype(np.int64)
        set_ = ~d["made"].astype(bool)
        conc = d["conceded"].astype(bool)
        meld = _bidding_side(d, "team_meld", self.players, self.partners).astype(np.int64)
        bid = d["bid"].astype(np.int64)
        team_len = _side_trumps(d, bidder, self.players, self.partners)
        needed = bid - meld
        keys = {
            "bid": bid,
            "needed from tricks": _bucket(needed, self.edges),
            "team trumps": np.minimum(team_len, 12),
            "all": np.zeros(len(d), dtype=np.int64),
        }
        for by, k in keys.items():
            self.sets[by].add(k, set_)
            self.concedes[by].add(k[conc])
            self.needed[by].add(k, needed)

    def table(self) -> pd.DataFrame:
        edges = self.edges
        labels = [f"{a}..{b - 1}" for a, b in itertools.pairwise(edges)]
        bids = self.sets["bid"].seen()
        parts = [
            ("bid", [str(b) for b in bids], bids),
            ("needed from tricks", [f"<{edges[1]}", *labels[1:], f"{edges[-1]}+"], None),
            ("team trumps", [str(i) for i in range(13)], None),
            ("all", ["all"], None),
        ]
        rows = []
        for by, labels_, at in parts:
            ng = len(labels_)
            idx = pd.DataFrame({"by": by, "level": labels_, "order": np.arange(ng)})
            groups = np.arange(ng) if at is None else at
            t = self.sets[by].frame(idx.assign(_k=groups), at=groups)
            t["concede_p"] = self.concedes[by].of(t["_k"].to_numpy()).astype(float) / t["n"]
            if by == "needed from tricks":  # bucket centre, for plotting on a numeric axis
                t["x"] = edges[t["_k"]] + (edges[1] - edges[0]) / 2
            needed = self.needed[by].stats(max(self.needed[by].groups, int(t["_k"].max()) + 1))
            t["mean_needed"] = needed["mean"][t["_k"].to_numpy()]
            rows.append(t.drop(columns="_k"))
        out = pd.concat(rows, ignore_index=True)
        return out[[c for c in out.columns if c != "mean_needed"] + ["mean_needed"]]


class BiddingSideTricks(Question):
    """Trick points of the bidding side (hands played out) by its trump count and by its aces."""

    def __init__(self, rules: Ruleset) -> None:
        self.players, self.partners = rules.players, rules.partnerships
        p = self.players
        self.columns = ["bidder", "trump", "conceded"]
        self.columns += _side_cols("team_tricks", p, self.partners)
        self.columns += [f"aces_{s}" for s in range(p)]
        self.columns += [f"len_{s}_{t}" for s in range(p) for t in SUITS]
        self.by_trumps = MeansTable(13)
        self.by_aces = MeansTable(9)

    def add(self, d: Columns, again: bool = False) -> None:
        played = ~d["conceded"].astype(bool)
        bidder = d["bidder"].astype(np.int64)
        tricks = _bidding_side(d, "team_tricks", self.players, self.partners).astype(np.int64)
        team_aces = _per_seat(d, "aces_", bidder, self.players).astype(np.int64)
        if self.partners:
            team_aces = team_aces + _per_seat(d, "aces_", (bidder + 2) % 4, self.players)
        team_len = _side_trumps(d, bidder, self.players, self.partners)
        self.by_trumps.add(np.minimum(team_len, 12)[played], tricks[played])
        self.by_aces.add(team_aces[played], tricks[played])

    def table(self) -> pd.DataFrame:
        a = self.by_trumps.frame(pd.DataFrame({"by": "team trumps", "level": np.arange(13)}))
        b = self.by_aces.frame(pd.DataFrame({"by": "team aces", "level": np.arange(9)}))
        return pd.concat([a, b], ignore_index=True)


POSITION_NAMES = {
    4: ("dealer", "left of dealer (first)", "opposite dealer", "right of dealer"),
    3: ("dealer", "left of dealer (first)", "right of dealer"),
}


class AuctionSummary(Question):
    """Stuck rate, the distribution of winning bids, and the bidder's seat relative to the dealer
    (``what`` = ``stuck`` / ``winning bid`` / ``bidder position``), shares with Wilson CIs."""

    def __init__(self, rules: Ruleset) -> None:
        self.columns = ["dealer", "bidder", "bid", "stuck"]
        self.players = rules.players
        self.stuck = PropsTable(1)
        self.bids = Counts()
        self.positions = np.zeros(self.players, dtype=np.int64)
        self.n = 0

    def add(self, d: Columns, again: bool = False) -> None:
        n = len(d)
        self.n += n
        self.stuck.add(np.zeros(n, dtype=np.int64), d["stuck"].astype(bool))
        self.bids.add(d["bid"])
        pos = (d["bidder"].astype(np.int64) - d["dealer"]) % self.players
        self.positions += np.bincount(pos, minlength=self.players)

    def table(self) -> pd.DataFrame:
        n = self.n
        rows = [self.stuck.frame(pd.DataFrame({"what": ["stuck"], "level": ["all hands"]}))]
        bids = self.bids.values()
        for what, levels, counts in (
            ("winning bid", [str(b) for b in bids], self.bids.of(bids)),
            ("bidder position", list(POSITION_NAMES[self.players]), self.positions),
        ):
            lo, hi = wilson(counts, n)
            rows.append(
                pd.DataFrame(
                    {
                        "what": what,
                        "level": levels,
                        "n": n,
                        "k": counts,
                        "p": counts / n,
                        "ci_lo": lo,
                        "ci_hi": hi,
                    }
                )
            )
        return pd.concat(rows, ignore_index=True)


class WidowValue(_Measures):
    """The widow (three-hand): the bidder's meld before (dealt hand, named trump) and after
    taking the widow and discarding, the gain, and the trick points of the discards, by the
    bidder's dealt trump length and overall."""

    level_column = "trumps"

    def __init__(self, rules: Ruleset) -> None:
        if rules.widow == 0:
            raise ValueError(
                "the value of the widow is a question about widow games; this run has none"
            )
        names = ("bidder meld before", "bidder meld after", "bidder gain", "discard points")
        super().__init__(names)
        p = self.players = rules.players
        self.columns = ["bidder", "trump", "discard_points"] + [f"meld_{s}" for s in range(p)]
        self.columns += [f"{k}_{s}_{t}" for k in ("meld", "len") for s in range(p) for t in SUITS]

    def add(self, d: Columns, again: bool = False) -> None:
        bidder = d["bidder"].astype(np.int64)
        before = _seat_trump(d, "meld", bidder, self.players).astype(np.int64)
        after = _per_seat(d, "meld_", bidder, self.players).astype(np.int64)
        length = np.minimum(_seat_trump(d, "len", bidder, self.players), 12).astype(np.int64)
        measures = {
            "bidder meld before": before,
            "bidder meld after": after,
            "bidder gain": after - before,
            "discard points": d["discard_points"].astype(np.int64),
        }
        self.gather(length, measures)


# ------------------------------------------------------------------- the questions as functions


def meld_by_trump_length(data: Data) -> pd.DataFrame:
    return gathered(MeldByTrumpLength(rules_of(data)), data)


def meld_distribution(data: Data, grid: np.ndarray | None = None) -> pd.DataFrame:
    return gathered(MeldDistribution(rules_of(data), grid), data)


def partner_meld(data: Data) -> pd.DataFrame:
    return gathered(PartnerMeld(rules_of(data)), data)


def pass_value(data: Data) -> pd.DataFrame:
    return gathered(PassValue(rules_of(data)), data)


def bid_vs_meld(data: Data) -> pd.DataFrame:
    return gathered(BidVsMeld(rules_of(data)), data)


def go_set(data: Data) -> pd.DataFrame:
    return gathered(GoSet(rules_of(data)), data)


def bidding_side_tricks(data: Data) -> pd.DataFrame:
    return gathered(BiddingSideTricks(rules_of(data)), data)


def auction_summary(data: Data) -> pd.DataFrame:
    return gathered(AuctionSummary(rules_of(data)), data)


def widow_value(data: Data) -> pd.DataFrame:
    return gathered(WidowValue(rules_of(data)), data)


for _function, _question in (
    (meld_by_trump_length, MeldByTrumpLength),
    (meld_distribution, MeldDistribution),
    (partner_meld, PartnerMeld),
    (pass_value, PassValue),
    (bid_vs_meld, BidVsMeld),
    (go_set, GoSet),
    (bidding_side_tricks, BiddingSideTricks),
    (auction_summary, AuctionSummary),
    (widow_value, WidowValue),
):
    _function.__doc__ = _question.__doc__  # one text for the class and its function
