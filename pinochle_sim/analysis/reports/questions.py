"""The questions players ask of auction games, one function each: a run in, a tidy DataFrame
out (two-hand and whole games: :mod:`.questions_two_hand`).

Every function takes a run folder (or a DataFrame with the needed columns), reads only the
columns it needs, and returns estimates with sample sizes and 95% confidence intervals: Wilson
intervals for proportions, mean +- 1.96 standard errors for means. Seats are 0..3, team 0 is
seats 0 and 2; the bidder's partner is seat ``bidder + 2``. Passing moves cards only between the
bidder and partner, so the bidding team's trump count and aces are the same before and after it.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from pinochle_sim.analysis import exact
from pinochle_sim.analysis.reports.load import Data, columns, rules_of
from pinochle_sim.analysis.stats import (
    clustered_tail,
    design_effect,
    grouped_moments,
    grouped_quantiles,
    wilson,
)
from pinochle_sim.rules import Ruleset

SUITS = "shdc"
AUCTION_COLUMNS = ("bid", "bidder")
"""Columns of runs whose rules hold an auction."""
SUIT_GROUP = np.array([0, 1, 0, 1])  # S, D hold the pinochle cards (QS, JD); H, C do not
SUIT_GROUP_NAMES = ("spades/diamonds", "hearts/clubs")


def _means(
    keys: np.ndarray,
    values: np.ndarray,
    n_groups: int,
    index: pd.DataFrame,
    clusters: np.ndarray | None = None,
) -> pd.DataFrame:
    """Group means with CIs; ``clusters`` (the hand of each observation) when one hand gives
    several correlated observations, so the intervals are not too narrow."""
    m = grouped_moments(keys, values, n_groups, clusters)
    out = index.copy()
    for k in ("n", "mean", "sd", "se", "ci_lo", "ci_hi"):
        out[k] = m[k]
    return out[out["n"] > 0].reset_index(drop=True)


def _props(
    keys: np.ndarray,
    hits: np.ndarray,
    n_groups: int,
    index: pd.DataFrame,
    clusters: np.ndarray | None = None,
) -> pd.DataFrame:
    """Group proportions with Wilson intervals; with ``clusters`` (0..C-1, e.g. the game of
    each observation) the interval uses the effective sample size n / design effect."""
    keys = np.asarray(keys, dtype=np.int64)
    n = np.bincount(keys, minlength=n_groups)
    k = np.bincount(keys, weights=np.asarray(hits, dtype=float), minlength=n_groups)
    deff = 1.0 if clusters is None else design_effect(keys, hits, n_groups, clusters)
    lo, hi = wilson(k / deff, n / deff)
    out = index.copy()
    out["n"] = n
    out["k"] = k.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["p"] = k / n
    out["ci_lo"] = lo
    out["ci_hi"] = hi
    return out[out["n"] > 0].reset_index(drop=True)


def _shape(data: Data) -> tuple[int, bool]:
    """(players, partnerships) of the run's ruleset."""
    r = rules_of(data)
    return r.players, r.partnerships


def _per_seat(d: pd.DataFrame, prefix: str, seat: np.ndarray, players: int) -> np.ndarray:
    """Per hand, ``{prefix}{seat}`` for the given seat of each hand."""
    stack = np.stack([d[f"{prefix}{p}"].to_numpy() for p in range(players)])
    return stack[seat, np.arange(len(d))]


def _seat_trump(d: pd.DataFrame, family: str, seat: np.ndarray, players: int = 4) -> np.ndarray:
    """Per hand, ``{family}_{seat}_{trump}`` for the given seat per hand and the named trump."""
    stack = np.stack([d[f"{family}_{p}_{s}"].to_numpy() for p in range(players) for s in SUITS])
    return stack[seat * 4 + d["trump"].to_numpy().astype(np.int64), np.arange(len(d))]


def _bidding_side(d: pd.DataFrame, prefix: str, players: int, partners: bool) -> np.ndarray:
    """Per hand, the bidding side's ``{prefix}_{side}`` (side = seat % 2, or the seat)."""
    bidder = d["bidder"].to_numpy().astype(np.int64)
    sides = 2 if partners else players
    return _per_seat(d, f"{prefix}_", bidder % 2 if partners else bidder, sides)


def _side_trumps(d: pd.DataFrame, bidder: np.ndarray, players: int, partners: bool) -> np.ndarray:
    """Dealt trumps of the bidding side: bidder + partner (unchanged by the pass), or the
    bidder alone (dealt hand, before the widow)."""
    own = _seat_trump(d, "len", bidder, players)
    return own + _seat_trump(d, "len", (bidder + 2) % 4, players) if partners else own


def _side_cols(prefix: str, players: int, partners: bool) -> list[str]:
    return [f"{prefix}_{k}" for k in range(2 if partners else players)]


def _need_partners(data: Data, question: str) -> tuple[int, bool]:
    players, partners = _shape(data)
    if not partners:
        raise ValueError(f"{question} is a question about partnerships; this run has none")
    return players, partners


# --------------------------------------------------------------------------- meld


def _exact_groups(rules: Ruleset) -> dict[tuple[int, int], dict[int, int]]:
    """Exact counts of a dealt hand's meld per (suit group, trump length): each group pools its
    two suits, whose trump lengths are equally likely (hypergeometric)."""
    dists = [exact.exact_meld_distribution(rules, s) for s in range(4)]
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


def meld_by_trump_length(data: Data) -> pd.DataFrame:
    """A seat's meld from its dealt hand for a trump suit, by its length in that suit.

    Every seat and every suit of every hand is one observation (16 per four-hand deal). Rows
    per suit group (spades/diamonds vs hearts/clubs: QS and JD make pinochles, so S and D
    trumps differ) and length: n, mean with CI, median, p10, p90. A dealt hand is a uniform
    random hand, so each row also carries its exact values (:mod:`pinochle_sim.analysis.exact`):
    ``exact_mean``, ``exact_p10``, ``exact_median``, ``exact_p90``, and ``z`` = (mean -
    exact_mean) / se, the simulation's self-check.
    """
    players, _ = _shape(data)
    names = [f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(players) for s in SUITS]
    d = columns(data, names)
    meld = np.concatenate([d[f"meld_{p}_{s}"].to_numpy() for p in range(players) for s in SUITS])
    length = np.concatenate([d[f"len_{p}_{s}"].to_numpy() for p in range(players) for s in SUITS])
    group = np.repeat(np.tile(SUIT_GROUP, players), len(d))
    keys = group.astype(np.int64) * 13 + length
    index = pd.DataFrame(
        {"suits": np.repeat(SUIT_GROUP_NAMES, 13), "trump_length": np.tile(np.arange(13), 2)}
    )
    hand_of = np.tile(np.arange(len(d)), 4 * players)  # a hand's observations are correlated
    out = _means(keys, meld, 26, index.assign(_k=np.arange(26)), hand_of)
    q = grouped_quantiles(keys, meld, 26)
    out["p10"], out["median"], out["p90"] = (q[out["_k"], j] for j in range(3))
    ex = _exact_groups(rules_of(data))
    truth = np.array([_exact_moments(ex[(k // 13, k % 13)]) for k in out["_k"]]).reshape(-1, 4)
    for j, name in enumerate(("exact_mean", "exact_p10", "exact_median", "exact_p90")):
        out[name] = truth[:, j]
    with np.errstate(invalid="ignore", divide="ignore"):
        out["z"] = np.where(out["se"] > 0, (out["mean"] - out["exact_mean"]) / out["se"], np.nan)
    return out.drop(columns="_k")


TAIL_GRID = np.arange(0, 1001, 10)
"""The least grid of P(meld >= x) in partnership points; it grows in the same steps to the
largest meld of the run."""
FIXED_TRUMP = "fixed trump"
"""The ``stage`` of the tail series whose exact law is known: every seat's dealt hand in each
suit as trump (not the trump later named, which the auction picks for the bidder's hand)."""


def _scaled(edges: np.ndarray, data: Data) -> np.ndarray:
    """Point grids are written in ``partnership`` points; ``joedog`` (scale 10) divides them."""
    return np.unique((edges // rules_of(data).scale).astype(np.int64))


def _tail_grid(data: Data, top: int) -> np.ndarray:
    """:data:`TAIL_GRID` in the run's points, extended in the same steps to reach ``top``."""
    grid = _scaled(TAIL_GRID, data)
    step = int(grid[1] - grid[0])
    if top > grid[-1]:
        grid = np.concatenate([grid, np.arange(grid[-1] + step, top + step, step)])
    return grid


def meld_distribution(data: Data, grid: np.ndarray | None = None) -> pd.DataFrame:
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
    players, partners = _shape(data)
    names = ["bidder", "trump"] + [f"meld_{p}" for p in range(players)]
    names += [f"meld_{p}_{s}" for p in range(players) for s in SUITS]
    d = columns(data, names)
    n = len(d)
    idx = np.arange(n)
    trump = d["trump"].to_numpy().astype(np.int64)
    bidder = d["bidder"].to_numpy().astype(np.int64)
    post = np.stack([d[f"meld_{p}"].to_numpy().astype(np.int64) for p in range(players)])
    pre_all = np.stack([d[f"meld_{p}_{s}"].to_numpy() for p in range(players) for s in SUITS])
    pre = np.stack([pre_all[p * 4 + trump, idx] for p in range(players)]).astype(np.int64)
    series = {
        ("seat", FIXED_TRUMP): pre_all.T,  # one row per deal: its clusters
        ("seat", "pre-pass"): pre.ravel(),
        ("seat", "post-pass"): post.ravel(),
        ("bidder", "pre-pass"): pre[bidder, idx],
        ("bidder", "post-pass"): post[bidder, idx],
    }
    if partners:
        mate = (bidder + 2) % 4
        series |= {
            ("team", "pre-pass"): np.concatenate([pre[0] + pre[2], pre[1] + pre[3]]),
            ("team", "post-pass"): np.concatenate([post[0] + post[2], post[1] + post[3]]),
            ("bidding team", "pre-pass"): pre[bidder, idx] + pre[mate, idx],
            ("bidding team", "post-pass"): post[bidder, idx] + post[mate, idx],
        }
    if grid is None:
        grid = _tail_grid(data, max(int(v.max(initial=0)) for v in series.values()))
    grid = np.asarray(grid, dtype=np.int64)
    rules = rules_of(data)
    truth = [exact.exact_meld_distribution(rules, s) for s in range(4)]
    rows = []
    for (who, stage), v in series.items():
        deff = np.ones(len(grid))
        if stage == FIXED_TRUMP:
            k, deff = clustered_tail(v, grid)
        else:
            counts = np.bincount(v, minlength=int(grid.max()) + 2)
            ge = counts[::-1].cumsum()[::-1]  # ge[x] = #(v >= x)
            k = np.array([ge[x] if x < len(ge) else 0 for x in grid])
        size = v.size
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
                "mean": v.mean(),
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


def _bucket(v: np.ndarray, edges: np.ndarray) -> np.ndarray:
    return np.clip(np.searchsorted(edges, v, side="right") - 1, 0, len(edges) - 1)


def _bucket_labels(edges: np.ndarray) -> list[str]:
    return [f"{a}-{b - 1}" for a, b in itertools.pairwise(edges)] + [f"{edges[-1]}+"]


def partner_meld(data: Data) -> pd.DataFrame:
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
    _need_partners(data, "partner meld")
    names = ["bidder", "trump"] + [f"meld_{p}" for p in range(4)]
    names += [f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(4) for s in SUITS]
    d = columns(data, names)
    n = len(d)
    own = np.concatenate([d[f"meld_{p}_{s}"].to_numpy() for p in range(4) for s in SUITS])
    mate = np.concatenate(
        [d[f"meld_{(p + 2) % 4}_{s}"].to_numpy() for p in range(4) for s in SUITS]
    )
    length = np.concatenate([d[f"len_{p}_{s}"].to_numpy() for p in range(4) for s in SUITS])
    buckets = _scaled(MELD_BUCKETS, data)
    nb = len(buckets)

    def meld_index(given: str, keys: np.ndarray, meld: np.ndarray) -> pd.DataFrame:
        count = np.bincount(keys, minlength=nb)
        with np.errstate(invalid="ignore", divide="ignore"):
            x = np.bincount(keys, weights=meld.astype(float), minlength=nb) / count
        return pd.DataFrame(
            {
                "given": given,
                "level": _bucket_labels(buckets),
                "order": np.arange(nb),
                "lo": buckets.astype(float),
                "hi": np.append(buckets[1:] - 1, np.nan).astype(float),
                "x": x,
            }
        )

    hand_of = np.tile(np.arange(n), 16)  # the 16 observations of a hand are correlated
    own_keys = _bucket(own, buckets)
    a = _means(own_keys, mate, nb, meld_index("own meld", own_keys, own), hand_of)
    lengths = np.arange(13, dtype=float)
    b = _means(
        length,
        mate,
        13,
        pd.DataFrame(
            {
                "given": "own trump length",
                "level": [str(i) for i in range(13)],
                "order": np.arange(13),
                "lo": lengths,
                "hi": lengths,
                "x": lengths,
            }
        ),
        hand_of,
    )
    bidder = d["bidder"].to_numpy().astype(np.int64)
    pre_b = _seat_trump(d, "meld", bidder)
    team_post = (
        _per_seat(d, "meld_", bidder, 4)
        + np.stack([d[f"meld_{p}"].to_numpy() for p in range(4)])[(bidder + 2) % 4, np.arange(n)]
    )
    bid_keys = _bucket(pre_b, buckets)
    c = _means(
        bid_keys,
        team_post.astype(float) - pre_b,
        nb,
        meld_index("bidder meld (auction)", bid_keys, pre_b),
    )
    return pd.concat([a, b, c], ignore_index=True)


def pass_value(data: Data) -> pd.DataFrame:
    """The pass: the bidder's meld before (dealt hand, named trump) and after, the gain, and the
    bidding team's gain, by the bidding team's trump count (unchanged by the pass) and overall."""
    _need_partners(data, "the value of the pass")
    names = ["bidder", "trump"] + [f"meld_{p}" for p in range(4)]
    names += [f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(4) for s in SUITS]
    d = columns(data, names)
    n = len(d)
    bidder = d["bidder"].to_numpy().astype(np.int64)
    partner = (bidder + 2) % 4
    post = np.stack([d[f"meld_{p}"].to_numpy() for p in range(4)]).astype(float)
    pre_b = _seat_trump(d, "meld", bidder).astype(float)
    pre_p = _seat_trump(d, "meld", partner).astype(float)
    post_b = post[bidder, np.arange(n)]
    post_p = post[partner, np.arange(n)]
    team_len = _seat_trump(d, "len", bidder) + _seat_trump(d, "len", partner)
    measures = {
        "bidder meld before": pre_b,
        "bidder meld after": post_b,
        "bidder gain": post_b - pre_b,
        "team gain": (post_b + post_p) - (pre_b + pre_p),
    }
    rows = []
    keys = np.minimum(team_len, 12).astype(np.int64)
    for name, v in measures.items():
        idx = pd.DataFrame({"measure": name, "team_trumps": [str(i) for i in range(13)]})
        rows.append(_means(keys, v, 13, idx))
        rows.append(
            _means(
                np.zeros(n, dtype=np.int64),
                v,
                1,
                pd.DataFrame({"measure": [name], "team_trumps": ["all"]}),
            )
        )
    return pd.concat(rows, ignore_index=True)


# --------------------------------------------------------------------------- bidding and play


def bid_vs_meld(data: Data) -> pd.DataFrame:
    """The winning bid against the bidding team's meld after the pass: mean meld per bid."""
    players, partners = _shape(data)
    d = columns(data, ["bidder", "bid", "stuck", *_side_cols("team_meld", players, partners)])
    meld = _bidding_side(d, "team_meld", players, partners).astype(float)
    bid = d["bid"].to_numpy().astype(np.int64)
    bids = np.unique(bid)
    keys = np.searchsorted(bids, bid)
    out = _means(keys, meld, len(bids), pd.DataFrame({"bid": bids}))
    out["stuck_share"] = (
        np.bincount(keys, weights=d["stuck"].to_numpy().astype(float), minlength=len(bids))[
            out.index
        ]
        / out["n"]
    )
    out["mean_needed_from_tricks"] = out["bid"] - out["mean"]
    return out


NEEDED_EDGES = np.arange(-100, 301, 20)


def go_set(data: Data) -> pd.DataFrame:
    """P(set) by winning bid, by points needed from tricks (bid - bidding team meld, in steps of
    20 partnership points) and by the bidding partnership's trump count; plus the concede rate.

    ``by`` names the breakdown; ``p`` is P(set) (conceded hands count as set), ``concede_p`` the
    concede rate in the same group.
    """
    players, partners = _shape(data)
    cols = [
        "bidder",
        "bid",
        "trump",
        "made",
        "conceded",
        *_side_cols("team_meld", players, partners),
    ]
    cols += [f"len_{p}_{s}" for p in range(players) for s in SUITS]
    d = columns(data, cols)
    bidder = d["bidder"].to_numpy().astype(np.int64)
    set_ = ~d["made"].to_numpy().astype(bool)
    conc = d["conceded"].to_numpy().astype(bool)
    meld = _bidding_side(d, "team_meld", players, partners).astype(np.int64)
    bid = d["bid"].to_numpy().astype(np.int64)
    team_len = _side_trumps(d, bidder, players, partners)
    parts = []
    bids = np.unique(bid)
    kb = np.searchsorted(bids, bid)
    parts.append(("bid", [str(b) for b in bids], kb, len(bids)))
    edges = _scaled(NEEDED_EDGES, data)
    kn = _bucket(bid - meld, edges)
    labels = [f"{a}..{b - 1}" for a, b in itertools.pairwise(edges)]
    parts.append(
        (
            "needed from tricks",
            [f"<{edges[1]}", *labels[1:], f"{edges[-1]}+"],
            kn,
            len(edges),
        )
    )
    parts.append(("team trumps", [str(i) for i in range(13)], np.minimum(team_len, 12), 13))
    parts.append(("all", ["all"], np.zeros(len(d), dtype=np.int64), 1))
    rows = []
    for by, labels_, keys, ng in parts:
        idx = pd.DataFrame({"by": by, "level": labels_, "order": np.arange(ng)})
        t = _props(keys, set_, ng, idx.assign(_k=np.arange(ng)))
        cn = np.bincount(keys, weights=conc.astype(float), minlength=ng)
        t["concede_p"] = cn[t["_k"]] / t["n"]
        if by == "needed from tricks":  # bucket centre, for plotting on a numeric axis
            t["x"] = edges[t["_k"]] + (edges[1] - edges[0]) / 2
        rows.append(t.drop(columns="_k"))
    return pd.concat(rows, ignore_index=True)


def bidding_side_tricks(data: Data) -> pd.DataFrame:
    """Trick points of the bidding side (hands played out) by its trump count and by its aces."""
    players, partners = _shape(data)
    cols = ["bidder", "trump", "conceded", *_side_cols("team_tricks", players, partners)]
    cols += [f"aces_{p}" for p in range(players)]
    cols += [f"len_{p}_{s}" for p in range(players) for s in SUITS]
    d = columns(data, cols)
    played = ~d["conceded"].to_numpy().astype(bool)
    bidder = d["bidder"].to_numpy().astype(np.int64)
    tricks = _bidding_side(d, "team_tricks", players, partners).astype(float)
    team_aces = _per_seat(d, "aces_", bidder, players).astype(np.int64)
    if partners:
        team_aces = team_aces + _per_seat(d, "aces_", (bidder + 2) % 4, players)
    team_len = _side_trumps(d, bidder, players, partners)
    a = _means(
        np.minimum(team_len, 12)[played],
        tricks[played],
        13,
        pd.DataFrame({"by": "team trumps", "level": np.arange(13)}),
    )
    b = _means(
        team_aces[played],
        tricks[played],
        9,
        pd.DataFrame({"by": "team aces", "level": np.arange(9)}),
    )
    return pd.concat([a, b], ignore_index=True)


POSITION_NAMES = {
    4: ("dealer", "left of dealer (first)", "opposite dealer", "right of dealer"),
    3: ("dealer", "left of dealer (first)", "right of dealer"),
}


def auction_summary(data: Data) -> pd.DataFrame:
    """Stuck rate, the distribution of winning bids, and the bidder's seat relative to the dealer
    (``what`` = ``stuck`` / ``winning bid`` / ``bidder position``), shares with Wilson CIs."""
    players, _ = _shape(data)
    d = columns(data, ["dealer", "bidder", "bid", "stuck"])
    n = len(d)
    rows = []
    stuck = d["stuck"].to_numpy().astype(bool)
    rows.append(
        _props(
            np.zeros(n, dtype=np.int64),
            stuck,
            1,
            pd.DataFrame({"what": ["stuck"], "level": ["all hands"]}),
        )
    )
    bid = d["bid"].to_numpy().astype(np.int64)
    bids = np.unique(bid)
    kb = np.searchsorted(bids, bid)
    counts = np.bincount(kb, minlength=len(bids))
    lo, hi = wilson(counts, n)
    rows.append(
        pd.DataFrame(
            {
                "what": "winning bid",
                "level": [str(b) for b in bids],
                "n": n,
                "k": counts,
                "p": counts / n,
                "ci_lo": lo,
                "ci_hi": hi,
            }
        )
    )
    pos = (d["bidder"].to_numpy().astype(np.int64) - d["dealer"].to_numpy()) % players
    counts = np.bincount(pos, minlength=players)
    lo, hi = wilson(counts, n)
    rows.append(
        pd.DataFrame(
            {
                "what": "bidder position",
                "level": list(POSITION_NAMES[players]),
                "n": n,
                "k": counts,
                "p": counts / n,
                "ci_lo": lo,
                "ci_hi": hi,
            }
        )
    )
    return pd.concat(rows, ignore_index=True)


def widow_value(data: Data) -> pd.DataFrame:
    """The widow (three-hand): the bidder's meld before (dealt hand, named trump) and after
    taking the widow and discarding, the gain, and the trick points of the discards, by the
    bidder's dealt trump length and overall."""
    players, _ = _shape(data)
    if rules_of(data).widow == 0:
        raise ValueError(
            "the value of the widow is a question about widow games; this run has none"
        )
    names = ["bidder", "trump", "discard_points"] + [f"meld_{p}" for p in range(players)]
    names += [f"{k}_{p}_{s}" for k in ("meld", "len") for p in range(players) for s in SUITS]
    d = columns(data, names)
    n = len(d)
    bidder = d["bidder"].to_numpy().astype(np.int64)
    before = _seat_trump(d, "meld", bidder, players).astype(float)
    after = _per_seat(d, "meld_", bidder, players).astype(float)
    length = np.minimum(_seat_trump(d, "len", bidder, players), 12).astype(np.int64)
    measures = {
        "bidder meld before": before,
        "bidder meld after": after,
        "bidder gain": after - before,
        "discard points": d["discard_points"].to_numpy().astype(float),
    }
    rows = []
    for name, v in measures.items():
        idx = pd.DataFrame({"measure": name, "trumps": [str(i) for i in range(13)]})
        rows.append(_means(length, v, 13, idx))
        rows.append(_means(np.zeros(n, dtype=np.int64), v, 1,
                           pd.DataFrame({"measure": [name], "trumps": ["all"]})))  # fmt: skip
    return pd.concat(rows, ignore_index=True)
