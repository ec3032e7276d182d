"""The questions of two-hand runs and of whole games, one function each (the auction games'
questions are in :mod:`.questions`): a run in, a tidy DataFrame out, every estimate with its
sample size and 95% confidence interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pinochle_sim.analysis.reports.load import Data, column_names, columns, rules_of
from pinochle_sim.analysis.reports.questions import (
    MELD_BUCKETS,
    SUITS,
    _bucket,
    _bucket_labels,
    _means,
    _props,
    _scaled,
    _seat_trump,
)
from pinochle_sim.analysis.stats import (
    wilson,
)

# --------------------------------------------------------------------------- two-hand


STOCK_COLUMNS = ("stock_tricks_0", "stock_tricks_1")
"""Columns of runs whose rules draw from a stock (two-hand): stock tricks won per seat."""


def _need_two_hand(data: Data, question: str) -> int:
    """Stock tricks per deal of a run with a stock (two-hand, docs/rules.md section 9); other
    runs are an error."""
    r = rules_of(data)
    if r.stock_size == 0 or not set(STOCK_COLUMNS) <= set(column_names(data)):
        raise ValueError(f"{question} is a question about two-hand games; this run is {r.name!r}")
    return r.stock_size // 2


def _both_seats(d: pd.DataFrame, prefix: str) -> np.ndarray:
    """``{prefix}0`` then ``{prefix}1``: one observation per seat and deal (seat-major)."""
    return np.concatenate([d[f"{prefix}0"].to_numpy(), d[f"{prefix}1"].to_numpy()])


def meld_laid(data: Data) -> pd.DataFrame:
    """Two-hand: the meld a seat lays down during the deal (dix and turned-up 9 included)
    against its dealt hand's potential, the best meld of its dealt cards in the turned-up trump,
    and against the stock tricks it won. Every seat of every deal is one observation.

    ``by``: ``dealt meld in trump`` (buckets of that potential) / ``stock tricks won`` /
    ``all``; ``mean`` the meld laid; ``dealt_mean`` the group's mean dealt potential (the stock
    brings twelve more cards, so most seats lay more than their dealt hand held).
    """
    _need_two_hand(data, "meld scored by hand")
    names = ["trump", "meld_0", "meld_1", "stock_tricks_0", "stock_tricks_1"]
    names += [f"meld_{p}_{s}" for p in range(2) for s in SUITS]
    d = columns(data, names)
    n = len(d)
    laid = _both_seats(d, "meld_").astype(float)
    dealt = np.concatenate([_seat_trump(d, "meld", np.full(n, p), 2) for p in range(2)])
    won = _both_seats(d, "stock_tricks_").astype(np.int64)
    hand_of = np.tile(np.arange(n), 2)  # the two seats of a deal share a stock: correlated
    buckets = _scaled(MELD_BUCKETS, data)
    parts = (
        ("dealt meld in trump", _bucket_labels(buckets), _bucket(dealt, buckets)),
        ("stock tricks won", [str(i) for i in range(13)], np.minimum(won, 12)),
        ("all", ["all"], np.zeros(2 * n, dtype=np.int64)),
    )
    rows = []
    for by, labels, keys in parts:
        ng = len(labels)
        idx = pd.DataFrame({"by": by, "level": labels, "order": np.arange(ng)})
        t = _means(keys, laid, ng, idx, hand_of)
        pot = np.bincount(keys, weights=dealt, minlength=ng)[t["order"]] / t["n"]
        rows.append(t.assign(dealt_mean=pot.to_numpy()))
    return pd.concat(rows, ignore_index=True)


def early_tricks(data: Data) -> pd.DataFrame:
    """Two-hand: what winning stock trick k is worth, k = 1..12, one observation per deal —
    the final score margin of the trick's winner over the loser (``margin of the winner``), the
    meld the winner laid right after it (``meld after the trick``) and P(the trick's winner wins
    the deal) (``winner wins the deal``) — and P(win the deal) by stock tricks won (``win by
    stock tricks``, both seats of every deal). Ties count as not won.

    ``level`` is the trick number or the tricks won; means carry ``mean``, proportions ``p``
    and ``k`` (Wilson intervals; in the 6-6 group the two seats' outcomes are opposite, which
    makes that interval a little conservative).
    """
    stock = _need_two_hand(data, "the value of winning early tricks")
    trick = range(1, stock + 1)
    winners = [f"trick_winner_{k:02d}" for k in trick]
    melds = [f"meld_after_{k:02d}" for k in trick]
    names = ["winner", "score_0", "score_1", "stock_tricks_0", "stock_tricks_1"]
    d = columns(data, names + winners + melds)
    n = len(d)
    deal_winner = d["winner"].to_numpy().astype(np.int64)
    w = d[winners].to_numpy().astype(np.int64).T.ravel()  # trick-major: trick k, then deal
    keys = np.repeat(np.arange(stock), n)
    deal = np.tile(np.arange(n), stock)
    score = np.stack([d["score_0"].to_numpy(), d["score_1"].to_numpy()]).astype(float)
    margin = score[w, deal] - score[1 - w, deal]
    after = d[melds].to_numpy().T.ravel().astype(float)
    level = pd.DataFrame({"level": list(trick)})
    won = _both_seats(d, "stock_tricks_").astype(np.int64)
    seat_won = np.concatenate([deal_winner == 0, deal_winner == 1])
    by_won = pd.DataFrame({"measure": "win by stock tricks", "level": range(stock + 1)})
    t = pd.concat(
        [
            _means(keys, margin, stock, level.assign(measure="margin of the winner")),
            _means(keys, after, stock, level.assign(measure="meld after the trick")),
            _props(
                keys, w == deal_winner[deal], stock, level.assign(measure="winner wins the deal")
            ),
            _props(won, seat_won, stock + 1, by_won),
        ],
        ignore_index=True,
    )
    return t[["measure", "level", "n", "mean", "sd", "se", "k", "p", "ci_lo", "ci_hi"]]


MARGIN_SIDES = ("seat 0 - seat 1", "dealer - non-dealer")


def score_margin(data: Data) -> pd.DataFrame:
    """Two-hand: the final score margin of a deal and who wins it.

    ``what``: ``histogram`` (share of deals with each margin, ``level`` the margin in points,
    per ``side``), ``mean margin`` (per ``side``) and ``outcome`` (``level`` dealer wins /
    non-dealer wins / tie). The non-dealer leads the first trick; the dealer scores a turned-up
    9 of trump.
    """
    _need_two_hand(data, "the final score margin")
    d = columns(data, ["dealer", "winner", "score_0", "score_1"])
    n = len(d)
    dealer = d["dealer"].to_numpy().astype(np.int64)
    seat_margin = d["score_0"].to_numpy().astype(np.int64) - d["score_1"].to_numpy()
    dealer_margin = np.where(dealer == 0, 1, -1) * seat_margin
    margins = dict(zip(MARGIN_SIDES, (seat_margin, dealer_margin), strict=True))
    rows = []
    for side, m in margins.items():
        values, counts = np.unique(m, return_counts=True)
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
        rows.append(_means(np.zeros(n, dtype=np.int64), m.astype(float), 1, idx))
    winner = d["winner"].to_numpy().astype(np.int64)
    outcome = np.where(winner < 0, 2, np.where(winner == dealer, 0, 1))
    counts = np.bincount(outcome, minlength=3)
    lo, hi = wilson(counts, n)
    rows.append(
        pd.DataFrame(
            {
                "what": "outcome",
                "side": "dealer - non-dealer",
                "level": ["dealer wins", "non-dealer wins", "tie"],
                "n": n,
                "k": counts,
                "p": counts / n,
                "ci_lo": lo,
                "ci_hi": hi,
            }
        )
    )
    return pd.concat(rows, ignore_index=True)


# --------------------------------------------------------------------------- whole games

WIN_BINS = 20
GAME_COLUMNS = ("game", "game_winner")


def _need_games(data: Data, question: str) -> int:
    """The game target of a games run of two sides; other runs are an error."""
    if not set(GAME_COLUMNS) <= set(column_names(data)):
        raise ValueError(
            f"{question} needs a games run (pinochle-sim run --games N); this run plays single "
            "hands"
        )
    r = rules_of(data)
    if r.teams != 2:
        raise ValueError(f"{question} is a question about two sides; {r.name!r} has {r.teams}")
    return r.game_target


def _game_outcome(game: np.ndarray, game_winner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per deal row: the side that won its game, and the game as a cluster id 0..G-1."""
    ids, cluster = np.unique(game, return_inverse=True)
    won = np.full(len(ids), -1, dtype=np.int64)
    last = game_winner >= 0
    won[cluster[last]] = game_winner[last]
    if (won < 0).any():
        raise ValueError("the run holds a game without a winner: it is incomplete")
    return won[cluster], cluster


def win_probability(data: Data, bins: int = WIN_BINS) -> pd.DataFrame:
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
    target = _need_games(data, "win probability")
    auction = rules_of(data).trump_by == "auction"
    partners = rules_of(data).partnerships
    names = ["game", "deal", "game_winner", "dealer", "score_0", "score_1", "total_0", "total_1"]
    d = columns(data, names + (["bidder"] if auction else []))
    won, game = _game_outcome(d["game"].to_numpy(), d["game_winner"].to_numpy())
    before = np.stack([(d[f"total_{k}"] - d[f"score_{k}"]).to_numpy() for k in (0, 1)])
    before = before.astype(np.int64)
    width = target / bins
    # Bin 0 holds negative totals; bin b >= 1 holds [(b - 1) width, b width); integer floors.
    cell = np.clip(before * bins // target + 1, 0, bins)
    edges = np.concatenate([[-np.inf], np.arange(bins) * width])
    nb = bins + 1
    wins = np.stack([won == 0, won == 1])
    both = np.concatenate([wins[0], wins[1]])
    clusters = np.tile(game, 2)
    grid_keys = np.concatenate([cell[0] * nb + cell[1], cell[1] * nb + cell[0]])
    lead = before[0] - before[1]
    j = np.clip((2 * lead * bins + target) // (2 * target), -bins, bins)  # round(lead / width)
    lead_keys = np.concatenate([j, -j]) + bins
    grid = pd.DataFrame({"own_lo": np.repeat(edges, nb), "opp_lo": np.tile(edges, nb)})
    leads = pd.DataFrame({"lead": np.arange(-bins, bins + 1) * width})
    rows = [_props(grid_keys[: len(d)], wins[0], nb * nb, grid.assign(view="side 0"), game)]
    splits = [("", np.ones(2 * len(d), dtype=bool))]
    if auction:
        bidder = d["bidder"].to_numpy().astype(np.int64)
        bside = bidder % 2 if partners else bidder
        own_bids = np.concatenate([bside == 0, bside == 1])
        splits += [(", own side bids", own_bids), (", opponents bid", ~own_bids)]
    kinds = {"pooled": (grid_keys, nb * nb, grid), "lead": (lead_keys, 2 * bins + 1, leads)}
    for kind, (keys, n_groups, index) in kinds.items():
        for suffix, keep in splits:
            view = index.assign(view=kind + suffix)
            rows.append(_props(keys[keep], both[keep], n_groups, view, clusters[keep]))
    if auction:  # one observation per deal: the region is symmetric
        late = (5 * before >= 4 * target).all(axis=0)
        end = pd.DataFrame(
            {"view": ["end game"], "own_lo": [0.8 * target], "opp_lo": [0.8 * target]}
        )
        zero = np.zeros(int(late.sum()), dtype=np.int64)
        rows.append(_props(zero, won[late] == bside[late], 1, end, game[late]))
    first = d["deal"].to_numpy() == 0
    dealer = d["dealer"].to_numpy().astype(np.int64)
    dside = dealer % 2 if partners else dealer
    rows.append(
        _props(
            np.zeros(int(first.sum()), dtype=np.int64),
            won[first] == dside[first],
            1,
            pd.DataFrame({"view": ["first deal"], "own_lo": [0.0], "opp_lo": [0.0], "lead": [0.0]}),
        )
    )
    out = pd.concat(rows, ignore_index=True).assign(width=width)
    cols = ["view", "own_lo", "opp_lo", "lead", "width", "n", "k", "p", "ci_lo", "ci_hi"]
    return out[cols]
