"""The ``learned`` bidding policy: bid while taking the contract is worth more than leaving it.

Its models are fitted by ``experiments/learned_bid_train.py`` to forced contracts played out
(``experiments/learned_bid_data.py``: the hand advisor's method over many deals, seat 0 made the
bidder at every trump of every deal), one model per play policy: with ``pimc`` in every seat the
outcomes are those of search; ``greedy`` and ``counting`` have models of their own, since what
a hand is worth depends on how the cards are played. From the dealt hand, for each trump, a
model gives:

* the distribution of ``Y``, the points the bidding side counts against its bid (meld after the
  pass + trick points; 0 without a trick under the save rule): a mean and a spread linear in
  the hand's :data:`BID_FEATURES`, and 99 quantiles of the standardised residual, so ``Y`` is
  taken as equally likely to be any of ``mean + spread * q`` (the residuals are skewed: big
  melds make the upper tail long);
* ``E[D]``, the points the opponents score when this seat takes the contract.

and, once for the hand, ``E[D']``: what this seat's side scores as defenders when the
opponents take the contract (their trump unknown, so from :data:`DEFENCE_FEATURES`, which do not
depend on the trump).

At bid ``b`` taking the contract is worth ``E[Y; Y >= b] - b P(Y < b) - E[D]`` (the side scores
``Y`` when it makes the bid, ``-b`` when it does not); leaving it to the opponents is worth
``E[D'] - c(b + step)``, where ``c(x)`` is what the opponents score on average on a contract they
win at ``x`` (a line fitted on hands bid by ``calibrated``). The limit is the highest bid, up to
the minimum plus :data:`MAX_STEPS` steps, at which taking is worth at least as much as leaving,
minus ``margin``; the trump is the one with the highest limit (with none, the one worth most at
the minimum bid, for a stuck dealer). Values are in ``partnership`` points (the rules' scale
converts joedog's).

Partner's bids do not inform it: the auction asks each seat for one limit from its dealt hand
(every bidding policy's interface); what a partner adds is in the models on average (the pass,
its meld and tricks). Using partner's calls would need the auction to ask again after each.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import suit_len
from pinochle_sim.policies.calibrated import ACES, TENS, _count, hand_features
from pinochle_sim.policies.slots import (
    LEARNED_BID_JUMP,
    LEARNED_BID_MARGIN,
    LEARNED_BID_MODEL,
    PLAY_COUNTING,
    PLAY_GREEDY,
    PLAY_LEARNED,
    PLAY_PIMC,
    PLAY_RANDOM,
    PLAY_SOLVER,
    PP_BID_PARAMS,
    PP_PLAY,
)
from pinochle_sim.rules.arrays import RA_MIN_BID, RA_SCALE, RA_STEPS

DATA_FILE = Path(__file__).parent / "data" / "learned_bid.json"

BID_FEATURES = (
    "const", "meld", "len", "aces", "tens", "trump_top", "pins", "pos1", "pos2", "pos3",
    "voids", "singletons",
)  # fmt: skip
"""Features of a dealt hand for one trump: its meld in that trump (partnership points), the
trump length, aces, tens, the trump ace and ten, QS and JD held (pinochle cards), the seat's
position after the dealer (one-hot; 0 = the dealer), voids and singletons."""
SPREAD_FEATURES = ("const", "meld", "len")
"""The spread model's features: the first three of :data:`BID_FEATURES`."""
DEFENCE_FEATURES = ("const", "meld_sum", "aces", "tens", "longest", "pos1", "pos2", "pos3")
"""Features of a dealt hand whatever the trump: its meld summed over the four trumps, aces,
tens, its longest suit and its position after the dealer."""
N_BID = len(BID_FEATURES)
N_SPREAD = len(SPREAD_FEATURES)
N_DEFENCE = len(DEFENCE_FEATURES)
N_QUANTILES = 99
MAX_STEPS = 60
"""The limit goes at most this many smallest steps above the minimum bid (850 in partnership)."""
MIN_SPREAD = 10.0
"""The spread is never taken below this (points)."""
DEFAULT_MARGIN = -225
"""Chosen by duplicate matches against ``calibrated`` on seed 11 (results/strength/README.md):
the leave value assumes the opponents take the contract at the next bid whenever this seat
does not, which overstates what leaving costs (they often would not, and the seat bidding
against it is often its partner)."""

PLAY_NAMES = {
    PLAY_GREEDY: "greedy", PLAY_RANDOM: "random", PLAY_COUNTING: "counting", PLAY_PIMC: "pimc",
    PLAY_SOLVER: "solver", PLAY_LEARNED: "learned",
}  # fmt: skip
N_PLAY_IDS = max(PLAY_NAMES) + 1


def _load(path: Path = DATA_FILE) -> dict[str, Any]:
    """The models' arrays (one row per model version) and descriptions, from the package
    data."""
    data = json.loads(path.read_text())
    models = sorted(data["models"], key=lambda m: m["version"])
    n = max(1, len(models))
    arrays = {
        "mean": np.zeros((n, N_BID)),
        "spread": np.zeros((n, N_SPREAD)),
        "quantiles": np.zeros((n, N_QUANTILES)),
        "opponents": np.zeros((n, N_BID)),
        "defence": np.zeros((n, N_DEFENCE)),
        "contract": np.zeros((n, 2)),
    }
    by_play = np.zeros(N_PLAY_IDS, dtype=np.int64)
    for i, m in enumerate(models):
        if m["version"] != i + 1:
            raise ValueError(f"{path.name}: model versions must run 1, 2, ... ({m['version']})")
        if tuple(m["features"]) != BID_FEATURES or tuple(m["defence_features"]) != (
            DEFENCE_FEATURES
        ):
            raise ValueError(f"{path.name}: model {m['version']} names other features")
        for key, arr in arrays.items():
            row = np.asarray(m[key], dtype=np.float64)
            if row.shape != arr.shape[1:]:
                raise ValueError(f"{path.name}: model {m['version']}: {key} has {row.shape}")
            arr[i] = row
        if np.any(np.diff(arrays["quantiles"][i]) < 0):
            raise ValueError(f"{path.name}: model {m['version']}: quantiles must not fall")
        for pid, name in PLAY_NAMES.items():
            if name in m["for_play"]:
                by_play[pid] = i
    return {"arrays": arrays, "by_play": by_play, "models": models}


_DATA = _load()
MEAN = _DATA["arrays"]["mean"]
SPREAD = _DATA["arrays"]["spread"]
QUANTILES = _DATA["arrays"]["quantiles"]
OPPONENTS = _DATA["arrays"]["opponents"]
DEFENCE = _DATA["arrays"]["defence"]
CONTRACT = _DATA["arrays"]["contract"]
Q_SUM = QUANTILES.sum(axis=1)
"""Each model's quantiles summed (the sweep's starting sum)."""
BY_PLAY = _DATA["by_play"]
"""Model row (version - 1) for each play policy id: the model fitted to that way of playing."""
N_MODELS = len(_DATA["models"])


@lru_cache(maxsize=1)
def models() -> list[dict[str, Any]]:
    """The shipped models: version, the play they were fitted to, coefficients, provenance
    and held-out checks."""
    return [dict(m) for m in _DATA["models"]]


@jit
def bid_features(hand: int, meld: int, trump: int, position: int) -> tuple:
    """The :data:`BID_FEATURES` of a dealt hand for trump ``trump`` (``meld``: its meld in that
    trump, partnership points; ``position``: seats after the dealer): ``calibrated``'s features
    and then the voids and singletons."""
    voids = 0
    singletons = 0
    for s in range(4):
        n = suit_len(hand, s)
        voids += n == 0
        singletons += n == 1
    return hand_features(hand, meld, trump, position) + (voids, singletons)


@jit
def defence_features(hand: int, meld_sum: int, position: int) -> tuple:
    """The :data:`DEFENCE_FEATURES` of a dealt hand (``meld_sum``: its meld summed over the four
    trumps, partnership points)."""
    longest = 0
    for s in range(4):
        longest = max(longest, suit_len(hand, s))
    return (
        1,
        meld_sum,
        _count(hand, ACES),
        _count(hand, TENS),
        longest,
        int(position == 1),
        int(position == 2),
        int(position == 3),
    )


@jit
def feature_rows(
    hands: np.ndarray, melds: np.ndarray, trumps: np.ndarray, positions: np.ndarray
) -> np.ndarray:
    """:func:`bid_features` of many rows, shape (n, N_BID) (the fit)."""
    x = np.empty((hands.shape[0], N_BID), dtype=np.float64)
    for j in range(hands.shape[0]):
        row = bid_features(hands[j], melds[j], trumps[j], positions[j])
        for i in range(N_BID):
            x[j, i] = row[i]
    return x


@jit
def defence_rows(hands: np.ndarray, meld_sums: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """:func:`defence_features` of many rows, shape (n, N_DEFENCE) (the fit)."""
    x = np.empty((hands.shape[0], N_DEFENCE), dtype=np.float64)
    for j in range(hands.shape[0]):
        row = defence_features(hands[j], meld_sums[j], positions[j])
        for i in range(N_DEFENCE):
            x[j, i] = row[i]
    return x


@jit
def _model_of(pp: np.ndarray) -> int:
    """The seat's model row: the ``model`` parameter, or 0 there for its play policy's."""
    v = pp[PP_BID_PARAMS + LEARNED_BID_MODEL]
    if v > 0:
        return min(v, N_MODELS) - 1
    play = pp[PP_PLAY]
    return BY_PLAY[play] if 0 <= play < N_PLAY_IDS else 0


@jit
def outlook(m: int, x: tuple) -> tuple[float, float, float]:
    """(mean of ``Y``, its spread, ``E[D]``) under model ``m`` for bid features ``x``."""
    mean = 0.0
    opp = 0.0
    for i in range(N_BID):
        mean += MEAN[m, i] * x[i]
        opp += OPPONENTS[m, i] * x[i]
    spread = 0.0
    for i in range(N_SPREAD):
        spread += SPREAD[m, i] * x[i]
    return mean, max(spread, MIN_SPREAD), opp


@jit
def leave_value(m: int, defence: float, bid: float) -> float:
    """What leaving the contract to the opponents, who then take it at ``bid``, is worth to the
    side: its points as defenders minus what they score on such a contract."""
    return defence - (CONTRACT[m, 0] + CONTRACT[m, 1] * bid)


@jit
def suit_limit(
    m: int, mean: float, spread: float, opp: float, defence: float, low: int, step: int,
    margin: int,
) -> tuple[int, float]:  # fmt: skip
    """(The highest bid ``low + k * step`` (k = 0..MAX_STEPS) at which taking is worth at least
    leaving minus ``margin`` (0: none), what taking is worth at ``low``).

    Taking at bid ``b`` is worth the mean over the quantile points ``y = mean + spread * q``
    of ``y`` where ``y >= b`` and ``-b`` elsewhere, less ``opp``. The bids are valued in one
    sweep: the quantile points are in rising order, so those below the bid only grow in
    number. Raising the bid by ``d`` lowers taking's value by at least ``d`` times the share of
    points below it, and leaving's by ``d`` times the contract line's slope: once that share
    reaches the slope, a bid that fails is followed by none that passes, and the sweep stops."""
    above = N_QUANTILES * mean + spread * Q_SUM[m]  # sum of the points at or above the bid
    below = 0  # how many fall below it
    limit = 0
    at_low = 0.0
    for k in range(MAX_STEPS + 1):
        b = low + k * step
        while below < N_QUANTILES and mean + spread * QUANTILES[m, below] < b:
            above -= mean + spread * QUANTILES[m, below]
            below += 1
        take = (above - b * below) / N_QUANTILES - opp
        if k == 0:
            at_low = take
        if take + margin >= leave_value(m, defence, b + step):
            limit = b
        elif below >= CONTRACT[m, 1] * N_QUANTILES:
            break  # past here taking loses value at least as fast as leaving: no later bid
    return limit, at_low


@jit
def learned_limit(
    hand: int, melds: np.ndarray, position: int, ra: np.ndarray, pp: np.ndarray
) -> tuple[int, int]:
    """(bid limit, trump) under bid ``learned`` for a dealt hand (``melds[s]``: its meld with
    trump ``s``; ``position``: seats after the dealer). A limit of 0 means pass."""
    m = _model_of(pp)
    scale = ra[RA_SCALE]
    margin = pp[PP_BID_PARAMS + LEARNED_BID_MARGIN]
    step = ra[RA_STEPS] * scale
    low = ra[RA_MIN_BID] * scale
    meld_sum = 0
    for s in range(4):
        meld_sum += melds[s] * scale
    d = defence_features(hand, meld_sum, position)
    defence = 0.0
    for i in range(N_DEFENCE):
        defence += DEFENCE[m, i] * d[i]
    best_limit = 0
    best_suit = 0
    best_value = -1e18
    for s in range(4):
        mean, spread, opp = outlook(m, bid_features(hand, melds[s] * scale, s, position))
        limit, value = suit_limit(m, mean, spread, opp, defence, low, step, margin)
        if limit > best_limit or (limit == best_limit and value > best_value):
            best_limit, best_suit, best_value = limit, s, value
    return best_limit // scale, best_suit


@jit
def learned_jump(pp: np.ndarray) -> int:
    """``jump`` of a ``learned`` seat (a negative jump counts as 0)."""
    return max(pp[PP_BID_PARAMS + LEARNED_BID_JUMP], 0)


def make_chance(
    rules: Any, dealt: np.ndarray, meld: np.ndarray, trump: np.ndarray, position: np.ndarray,
    bid: np.ndarray, model: int,
) -> np.ndarray:  # fmt: skip
    """The chance model ``model`` (a version) gives each contract of being made: bidders'
    dealt hands, their meld in the trump named (the rules' points), the trump, their seats
    after the dealer and the bids (the rules' points); for the check of what the policy aims
    at against what it makes."""
    if not 1 <= model <= N_MODELS:
        raise ValueError(f"model {model} is not shipped: choose 1..{N_MODELS}")
    m = model - 1
    scale = rules.scale
    x = feature_rows(
        np.asarray(dealt, np.int64), np.asarray(meld, np.int64) * scale,
        np.asarray(trump, np.int64), np.asarray(position, np.int64),
    )  # fmt: skip
    mean = x @ MEAN[m]
    spread = np.maximum(x[:, :N_SPREAD] @ SPREAD[m], MIN_SPREAD)
    points = mean[:, None] + spread[:, None] * QUANTILES[m][None, :]
    return np.mean(points >= (np.asarray(bid, float) * scale)[:, None], axis=1)


def model_for_play(play: str) -> int:
    """The version of the model fitted to play policy ``play``."""
    ids = {name: pid for pid, name in PLAY_NAMES.items()}
    if play not in ids:
        raise ValueError(f"unknown play policy {play!r}")
    return int(BY_PLAY[ids[play]]) + 1
