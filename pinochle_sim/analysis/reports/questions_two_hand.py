"""The questions of two-hand runs and of whole games, one each (the auction games' questions are
in :mod:`.questions`): a run in, a tidy DataFrame out, every estimate with its sample size and
95% confidence interval, gathered part by part (:mod:`.gather`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pinochle_sim.analysis.reports.gather import (
    Columns,
    Counts,
    MeansTable,
    PropsTable,
    Question,
    gathered,
)
from pinochle_sim.analysis.reports.load import Data, column_names, rules_of
from pinochle_sim.analysis.reports.questions import (
    MELD_BUCKETS,
    SUITS,
    _bucket,
    _bucket_labels,
    _scaled,
    _seat_trump,
)
from pinochle_sim.analysis.stats import int_bincount, wilson
from pinochle_sim.rules import Ruleset

STOCK_COLUMNS = ("stock_tricks_0", "stock_tricks_1")
"""Columns of runs whose rules draw from a stock (two-hand): stock tricks won per seat."""


def _need_two_hand(rules: Ruleset, question: str) -> int:
    """Stock tricks per deal of rules with a stock (two-hand, docs/rules.md section 9); other
    rules are an error."""
    if rules.stock_size == 0:
        raise ValueError(
            f"{question} is a question about two-hand games; this run is {rules.name!r}"
        )
    return rules.stock_size // 2


def _need_stock_columns(data: Data, question: str) -> None:
    if not set(STOCK_COLUMNS) <= set(column_names(data)):
        r = rules_of(data)
        raise ValueError(f"{question} is a question about two-hand games; this run is {r.name!r}")


def _both_seats(d: Columns, prefix: str) -> np.ndarray:
    """``{prefix}0`` then ``{prefix}1``: one observation per seat and deal (seat-major)."""
    return np.concatenate([d[f"{prefix}0"], d[f"{prefix}1"]])


class MeldLaid(Question):
    """Two-hand: the meld a seat lays down during the deal (dix and turned-up 9 included)
    against its dealt hand's potential, the best meld of its dealt cards in the turned-up trump,
    and against the stock tricks it won. Every seat of every deal is one observation.

    ``by``: ``dealt meld in trump`` (buckets of that potential) / ``stock tricks won`` /
    ``all``; ``mean`` the meld laid; ``dealt_mean`` the group's mean dealt potential (the stock
    brings twelve more cards, so most seats lay more than their dealt hand held).
    """

    passes = 2

    def __init__(self, rules: Ruleset) -> None:
        _need_two_hand(rules, "meld scored by hand")
        self.columns = ["trump", "meld_0", "meld_1", "stock_tricks_0", "stock_tricks_1"]
        self.columns += [f"meld_{p}_{s}" for p in range(2) for s in SUITS]
        self.buckets = _scaled(MELD_BUCKETS, rules)
        self.parts = (
            ("dealt meld in trump", _bucket_labels(self.buckets)),
            ("stock tricks won", [str(i) for i in range(13)]),
            ("all", ["all"]),
        )
        self.laid = {by: MeansTable(len(labels), clustered=True) for by, labels in self.parts}
        self.dealt = {by: np.zeros(len(labels), dtype=np.int64) for by, labels in self.parts}

    def add(self, d: Columns, again: bool = False) -> None:
        n = len(d)
        laid = _both_seats(d, "meld_").astype(np.int64)
        dealt = np.concatenate([_seat_trump(d, "meld", np.full(n, p), 2) for p in range(2)])
        won = _both_seats(d, "stock_tricks_").astype(np.int64)
        keys = {
            "dealt meld in trump": _bucket(dealt, self.buckets),
            "stock tricks won": np.minimum(won, 12),
            "all": np.zeros(2 * n, dtype=np.int64),
        }
        for by, k in keys.items():
            if again:  # the two seats of a deal share a stock: correlated
                self.laid[by].add_hands(k, laid, len(d))
            else:
                self.laid[by].add(k, laid)
                self.dealt[by] += int_bincount(k, dealt, len(self.dealt[by]))

    def table(self) -> pd.DataFrame:
        rows = []
        for by, labels in self.parts:
            ng = len(labels)
            idx = pd.DataFrame({"by": by, "level": labels, "order": np.arange(ng)})
            t = self.laid[by].frame(idx)
            pot = self.dealt[by].astype(float)[t["order"]] / t["n"]
            rows.append(t.assign(dealt_mean=pot.to_numpy()))
        return pd.concat(rows, ignore_index=True)


class EarlyTricks(Question):
    """Two-hand: what winning stock trick k is worth, k = 1..12, one observation per deal —
    the final score margin of the trick's winner over the loser (``margin of the winner``), the
    meld the winner laid right after it (``meld after the trick``) and P(the trick's winner wins
    the deal) (``winner wins the deal``) — and P(win the deal) by stock tricks won (``win by
    stock tricks``, both seats of every deal). Ties count as not won.

    ``level`` is the trick number or the tricks won; means carry ``mean``, proportions ``p``
    and ``k`` (Wilson intervals; in the 6-6 group the two seats' outcomes are opposite, which
    makes that interval a little conservative).
    """

    def __init__(self, rules: Ruleset) -> None:
        self.stock = _need_two_hand(rules, "the value of winning early tricks")
        trick = range(1, self.stock + 1)
        self.winners = [f"trick_winner_{k:02d}" for k in trick]
        self.melds = [f"meld_after_{k:02d}" for k in trick]
        names = ["winner", "score_0", "score_1", "stock_tricks_0", "stock_tricks_1"]
        self.columns = names + self.winners + self.melds
        self.margin = MeansTable(self.stock)
        self.after = MeansTable(self.stock)
        self.wins = PropsTable(self.stock)
        self.by_won = PropsTable(self.stock + 1)

    def add(self, d: Columns, again: bool = False) -> None:
        n, stock = len(d), self.stock
        deal_winner = d["winner"].astype(np.int64)
        w = d[self.winners].astype(np.int64).T.ravel()  # trick-major
        keys = np.repeat(np.arange(stock), n)
        deal = np.tile(np.arange(n), stock)
        score = np.stack([d["score_0"], d["score_1"]]).astype(np.int64)
        self.margin.add(keys, score[w, deal] - score[1 - w, deal])
        self.after.add(keys, d[self.melds].T.ravel().astype(np.int64))
        self.wins.add(keys, w == deal_winner[deal])
        won = _both_seats(d, "stock_tricks_").astype(np.int64)
        self.by_won.add(won, np.concatenate([deal_winner == 0, deal_winner == 1]))

    def table(self) -> pd.DataFrame:
        stock = self.stock
        level = pd.DataFrame({"level": list(range(1, stock + 1))})
        by_won = pd.DataFrame({"measure": "win by stock tricks", "level": range(stock + 1)})
        t = pd.concat(
            [
                self.margin.frame(level.assign(measure="margin of the winner")),
                self.after.frame(level.assign(measure="meld after the trick")),
                self.wins.frame(level.assign(measure="winner wins the deal")),
                self.by_won.frame(by_won),
            ],
            ignore_index=True,
        )
        return t[["measure", "level", "n", "mean", "sd", "se", "k", "p", "ci_lo", "ci_hi"]]


MARGIN_SIDES = ("seat 0 - seat 1", "dealer - non-dealer")


class ScoreMargin(Question):
    """Two-hand: the final score margin of a deal and who wins it.

    ``what``: ``histogram`` (share of deals with each margin, ``level`` the margin in points,
    per ``side``), ``mean margin`` (per ``side``) and ``outcome`` (``level`` dealer wins /
    non-dealer wins / tie). The non-dealer leads the first trick; the dealer scores a turned-up
    9 of trump.
    """

    def __init__(self, rules: Ruleset) -> None:
        _need_two_hand(rules, "the final score margin")
        self.columns = ["dealer", "winner", "score_0", "score_1"]
        self.histograms = {side: Counts() for side in MARGIN_SIDES}
        self.means = {side: MeansTable(1) for side in MARGIN_SIDES}
        self.outcomes = np.zeros(3, dtype=np.int64)
        self.n = 0

    def add(self, d: Columns, again: bool = False) -> None:
        n = len(d)
        self.n += n
        dealer = d["dealer"].astype(np.int64)
        seat_margin = d["score_0"].astype(np.int64) - d["score_1"]
        dealer_margin = np.where(dealer == 0, 1, -1) * seat_margin
        for side, m in zip(MARGIN_SIDES, (seat_margin, dealer_margin), strict=True):
            self.histograms[side].add(m)
            self.means[side].add(np.zeros(n, dtype=np.int64), m)
        winner = d["winner"].astype(np.int64)
        outcome = np.where(winner < 0, 2, np.where(winner == dealer, 0, 1))
        self.outcomes += np.bincount(outcome, minlength=3)

    def table(self) -> pd.DataFrame:
        n = self.n
        rows = []
        for side in MARGIN_SIDES:
            values = self.histograms[side].values()
            counts = self.histograms[side].of(values)
            lo, hi = wilson(counts, n)
            rows.append(
                pd.DataFrame(
                    {
                        "what": "histogram",
                        "side": side,
                        "level": values.astype(str),
                        "x": values,
                        "n": n,
                        "k": counts,
                        "p": counts / n,
                        "ci_lo": lo,
                        "ci_hi": hi,
                    }
                )
            )
            idx = pd.DataFrame({"what": ["mean margin"], "side": [side], "level": ["all"]})
            rows.append(self.means[side].frame(idx))
        lo, hi = wilson(self.outcomes, n)
        rows.append(
            pd.DataFrame(
                {
                    "what": "outcome",
                    "side": "dealer - non-dealer",
                    "level": ["dealer wins", "non-dealer wins", "tie"],
                    "n": n,
                    "k": self.outcomes,
                    "p": self.outcomes / n,
                    "ci_lo": lo,
                    "ci_hi": hi,
                }
            )
        )
        return pd.concat(rows, ignore_index=True)


# --------------------------------------------------------------------------- whole games

WIN_BINS = 20
GAME_COLUMNS = ("game", "game_winner")


def _need_games(data: Data, question: str) -> None:
    """A games run (its columns); other runs are an error."""
    if not set(GAME_COLUMNS) <= set(column_names(data)):
        raise ValueError(
            f"{question} needs a games run (pinochle-sim run --games N); this run plays single "
            "hands"
        )


def _game_outcome(game: np.ndarray, game_winner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per deal row: the side that won its game, and the game as a cluster id 0..G-1 (a part
    of a games run holds whole games)."""
    ids, cluster = np.unique(game, return_inverse=True)
    won = np.full(len(ids), -1, dtype=np.int64)
    last = game_winner >= 0
    won[cluster[last]] = game_winner[last]
    if (won < 0).any():
        raise ValueError("the run holds a game without a winner: it is incomplete")
    return won[cluster], cluster


class WinProbability(Question):
    """P(a side goes on to win the game) from the score situation before a deal.

    Every deal of a games run is one situation: the two sides' totals before it
    (``total_k - score_k``), binned in ``bins`` steps of ``width = game_target / bins`` points,
    with one more bin below 0 (every negative total: a set bid) whose lower edge is ``-inf``;
    totals at or above the target (two-hand: a tie at the top plays on) count in the top bin.
    ``view``:

    * ``side 0``: side 0's totals (``own_lo``) against side 1's (``opp_lo``), P(side 0 wins);
    * ``pooled``: both sides' points of view of every deal (twice the observations): P(own side
      wins) by own and opponents' totals. P(a, b) + P(b, a) = 1 exactly, so cells on the
      diagonal are 50% by construction;
    * ``lead``: P(own side wins) by own lead (own - opponents; ``lead`` is the bin centre, bins
      of ``width`` centred on multiples of it, the two end bins open), both points of view;
    * ``pooled, own side bids`` / ``pooled, opponents bid`` and ``lead, own side bids`` /
      ``lead, opponents bid`` (auction games): the same, split by the side that wins the
      auction of the coming deal;
    * ``end game`` (auction games): P(the side that wins the coming auction wins the game) when
      both sides have 80% of the target or more (``own_lo`` = ``opp_lo`` = that score), one
      observation per deal;
    * ``first deal``: P(the first dealer's side wins the game), one row.

    A game's deals share its outcome, so the Wilson intervals use the effective sample size of
    observations clustered by game (it matters for ``lead``: a game often stays in one bin).
    """

    passes = 2

    def __init__(self, rules: Ruleset, bins: int = WIN_BINS) -> None:
        if rules.teams != 2:
            raise ValueError(
                f"win probability is a question about two sides; {rules.name!r} has {rules.teams}"
            )
        self.target = rules.game_target
        self.bins = bins
        self.auction = rules.trump_by == "auction"
        self.partners = rules.partnerships
        self.columns = ["game", "deal", "game_winner", "dealer", "score_0", "score_1"]
        self.columns += ["total_0", "total_1"] + (["bidder"] if self.auction else [])
        nb = bins + 1
        self.splits = [""] + ([", own side bids", ", opponents bid"] if self.auction else [])
        self.side0 = PropsTable(nb * nb, clustered=True)
        self.views = {
            (kind, suffix): PropsTable(nb * nb if kind == "pooled" else 2 * bins + 1, True)
            for kind in ("pooled", "lead")
            for suffix in self.splits
        }
        self.end_game = PropsTable(1, clustered=True)
        self.first_deal = PropsTable(1)

    def add(self, d: Columns, again: bool = False) -> None:
        bins, target, nb = self.bins, self.target, self.bins + 1
        won, game = _game_outcome(d["game"], d["game_winner"])
        before = np.stack([d[f"total_{k}"] - d[f"score_{k}"] for k in (0, 1)])
        before = before.astype(np.int64)
        # Bin 0 holds negative totals; bin b >= 1 holds [(b - 1) width, b width); integer floors.
        cell = np.clip(before * bins // target + 1, 0, bins)
        wins = np.stack([won == 0, won == 1])
        both = np.concatenate([wins[0], wins[1]])
        clusters = np.tile(game, 2)
        grid_keys = np.concatenate([cell[0] * nb + cell[1], cell[1] * nb + cell[0]])
        lead = before[0] - before[1]
        j = np.clip((2 * lead * bins + target) // (2 * target), -bins, bins)  # round(lead/width)
        lead_keys = np.concatenate([j, -j]) + bins
        keep = {"": np.ones(2 * len(d), dtype=bool)}
        if self.auction:
            bidder = d["bidder"].astype(np.int64)
            bside = bidder % 2 if self.partners else bidder
            own_bids = np.concatenate([bside == 0, bside == 1])
            keep |= {", own side bids": own_bids, ", opponents bid": ~own_bids}
        late = (5 * before >= 4 * target).all(axis=0)
        zero = np.zeros(int(late.sum()), dtype=np.int64)
        if again:
            self.side0.add_clusters(grid_keys[: len(d)], wins[0], game)
            for (kind, suffix), table in self.views.items():
                k = (grid_keys if kind == "pooled" else lead_keys)[keep[suffix]]
                table.add_clusters(k, both[keep[suffix]], clusters[keep[suffix]])
            if self.auction:
                self.end_game.add_clusters(zero, won[late] == bside[late], game[late])
            return
        self.side0.add(grid_keys[: len(d)], wins[0])
        for (kind, suffix), table in self.views.items():
            k = (grid_keys if kind == "pooled" else lead_keys)[keep[suffix]]
            table.add(k, both[keep[suffix]])
        if self.auction:
            self.end_game.add(zero, won[late] == bside[late])
        first = d["deal"] == 0
        dealer = d["dealer"].astype(np.int64)
        dside = dealer % 2 if self.partners else dealer
        self.first_deal.add(np.zeros(int(first.sum()), dtype=np.int64), won[first] == dside[first])

    def table(self) -> pd.DataFrame:
        bins, target, nb = self.bins, self.target, self.bins + 1
        width = target / bins
        edges = np.concatenate([[-np.inf], np.arange(bins) * width])
        grid = pd.DataFrame({"own_lo": np.repeat(edges, nb), "opp_lo": np.tile(edges, nb)})
        leads = pd.DataFrame({"lead": np.arange(-bins, bins + 1) * width})
        rows = [self.side0.frame(grid.assign(view="side 0"))]
        for kind, index in (("pooled", grid), ("lead", leads)):
            for suffix in self.splits:
                rows.append(self.views[(kind, suffix)].frame(index.assign(view=kind + suffix)))
        if self.auction:  # one observation per deal: the region is symmetric
            end = pd.DataFrame(
                {"view": ["end game"], "own_lo": [0.8 * target], "opp_lo": [0.8 * target]}
            )
            rows.append(self.end_game.frame(end))
        first = pd.DataFrame({"view": ["first deal"], "own_lo": [0.0], "opp_lo": [0.0],
                              "lead": [0.0]})  # fmt: skip
        rows.append(self.first_deal.frame(first))
        out = pd.concat(rows, ignore_index=True).assign(width=width)
        cols = ["view", "own_lo", "opp_lo", "lead", "width", "n", "k", "p", "ci_lo", "ci_hi"]
        return out[cols]


def meld_laid(data: Data) -> pd.DataFrame:
    _need_stock_columns(data, "meld scored by hand")
    return gathered(MeldLaid(rules_of(data)), data)


def early_tricks(data: Data) -> pd.DataFrame:
    _need_stock_columns(data, "the value of winning early tricks")
    return gathered(EarlyTricks(rules_of(data)), data)


def score_margin(data: Data) -> pd.DataFrame:
    _need_stock_columns(data, "the final score margin")
    return gathered(ScoreMargin(rules_of(data)), data)


def win_probability(data: Data, bins: int = WIN_BINS) -> pd.DataFrame:
    _need_games(data, "win probability")
    return gathered(WinProbability(rules_of(data), bins), data)


for _function, _question in (
    (meld_laid, MeldLaid),
    (early_tricks, EarlyTricks),
    (score_margin, ScoreMargin),
    (win_probability, WinProbability),
):
    _function.__doc__ = _question.__doc__  # one text for the class and its function
