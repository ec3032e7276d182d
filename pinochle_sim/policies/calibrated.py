"""The ``calibrated`` bidding policy: bid to a chosen make probability, from a fitted model.

``experiments/calibrate_bidding.py`` plays hands with this engine and fits, by least squares,
the points the bidding side counts against its bid (meld after the pass + trick points, 0 under
the save rule when it takes no trick) from features of the bidder's dealt hand for the trump it
names:

    x = (1, meld in that trump, trump length, aces, tens, trump aces + tens,
         pinochle cards (QS and JD held), seat after the dealer = 1, 2, 3)

and the spread of that outcome (a second fit of the absolute residual on the same features,
times sqrt(pi/2), the standard deviation of a normal residual). The fit is written, with its
sample, seed and engine version, to ``policies/data/calibrated_bidding.json``; its coefficients
become this policy's parameters (hundredths of a point), so a run's provenance records them and
``--param bid.c_meld=...`` can override one.

For each trump the policy predicts a mean ``m`` and spread ``s`` and bids up to ``m + z * s``,
``z`` being the ``1 - risk`` quantile of the fit's standardised residuals (stored in the data
file for every percent; the residuals are skewed by big melds, so a normal quantile would bid
too boldly at low risk and too timidly at high risk). ``risk`` = 75 aims to make 75% of the
bids it pushes to its limit. It names the trump with the highest limit. Values are in
``partnership`` points (scaled like ``estimate`` for ``joedog``). The fit is for the four-hand
presets; in three-hand the policy still runs but its model is off (fit a three-hand model to use
it there).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from pinochle_sim.core.bits import popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import suit_len
from pinochle_sim.policies.slots import BID_CALIBRATED, PP_BID, PP_BID_PARAMS
from pinochle_sim.rules.arrays import RA_MIN_BID, RA_SCALE

DATA_FILE = Path(__file__).parent / "data" / "calibrated_bidding.json"
FEATURES = ("const", "meld", "len", "aces", "tens", "trump_top", "pins", "pos1", "pos2", "pos3")
"""Model features, in the order of the fitted coefficients."""
SPREAD_FEATURES = ("const", "meld", "len")
F_CONST, F_MELD, F_LEN = (FEATURES.index(f) for f in SPREAD_FEATURES)
"""Where the spread model's features sit in the feature tuple (its first three)."""
FEATURE_TEXT = {
    "const": "constant term",
    "meld": "per point of meld in the trump",
    "len": "per trump card",
    "aces": "per ace",
    "tens": "per ten",
    "trump_top": "per trump ace or ten",
    "pins": "per QS or JD held",
    "pos1": "if seated first after the dealer",
    "pos2": "if seated second after the dealer",
    "pos3": "if seated third after the dealer",
}
N_FEATURES = len(FEATURES)

# Parameter slots inside the bid block (PolicyInfo order): risk, jump, 10 mean coefficients,
# 3 spread coefficients.
CAL_RISK = 0
CAL_JUMP = 1
CAL_COEF = 2
CAL_SPREAD = CAL_COEF + N_FEATURES
CAL_SIZE = CAL_SPREAD + len(SPREAD_FEATURES)
CAL_Z = CAL_SIZE
"""Derived slot after the parameters: the standardised-residual quantile at 1 - risk, times 1000,
filled in by :func:`fill_derived` from the fitted model's quantile table."""

TENS = (1 << 4) | (1 << 10) | (1 << 16) | (1 << 22)
ACES = TENS << 1
QS = 1 << 2
JD = 1 << 13


def risk_z(risk: int) -> float:
    """The ``1 - risk`` quantile (risk in percent, clipped to 1..99) of the standardised
    residuals of the fit."""
    quantiles = calibration()["quantiles"]  # at 1%, 2%, ..., 99%
    return float(quantiles[99 - min(max(int(risk), 1), 99)])


def fill_derived(pp: np.ndarray) -> None:
    """Write the derived slot of a ``calibrated`` bid block (``pp``: one seat's row)."""
    if pp[PP_BID] == BID_CALIBRATED:
        pp[PP_BID_PARAMS + CAL_Z] = round(1000 * risk_z(int(pp[PP_BID_PARAMS + CAL_RISK])))


@lru_cache(maxsize=1)
def calibration() -> dict[str, Any]:
    """The fitted model (``policies/data/calibrated_bidding.json``)."""
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


COEF_LIMIT = 100_000
"""Model coefficients are hundredths of a point: +-1,000 points per unit of a feature."""


def default_params() -> dict[str, tuple[int, int, int, str, str]]:
    """The policy's parameters as (default, lowest, highest, unit, meaning): ``risk``, ``jump``
    and the fitted coefficients in hundredths of a point."""
    cal = calibration()
    params = {
        "risk": (75, 1, 99, "percent", "the make probability it aims for at its limit"),
        "jump": (
            60,
            0,
            10_000,
            "points",
            "raise by the largest step when the limit exceeds it by this",
        ),
    }
    c = COEF_LIMIT
    for name, value in zip(FEATURES, cal["mean"], strict=True):
        params[f"c_{name}"] = (
            round(100 * value),
            -c,
            c,
            "1/100 point",
            f"mean model: {FEATURE_TEXT[name]}",
        )
    for name, value in zip(SPREAD_FEATURES, cal["spread"], strict=True):
        params[f"s_{name}"] = (
            round(100 * value),
            -c,
            c,
            "1/100 point",
            f"spread model, per {name}",
        )
    return params


@jit
def _count(hand: int, mask: int) -> int:
    return popcount(hand & mask) + popcount((hand >> 24) & mask)


@jit
def hand_features(hand: int, meld: int, trump: int, position: int) -> tuple:
    """(1, meld, trump length, aces, tens, trump A+10, QS+JD cards, pos1, pos2, pos3) of a
    dealt hand for one trump; ``position`` = seats after the dealer (0 = the dealer)."""
    top = (3 << 4) << (6 * trump)  # the trump 10 and ace
    return (
        1,
        meld,
        suit_len(hand, trump),
        _count(hand, ACES),
        _count(hand, TENS),
        _count(hand, top),
        _count(hand, QS) + _count(hand, JD),
        int(position == 1),
        int(position == 2),
        int(position == 3),
    )


@jit
def feature_matrix(
    hands: np.ndarray, melds: np.ndarray, trumps: np.ndarray, positions: np.ndarray
) -> np.ndarray:
    """Features of many (hand, meld, trump, position) rows, shape (n, N_FEATURES) (the fit)."""
    n = hands.shape[0]
    x = np.empty((n, N_FEATURES), dtype=np.float64)
    for j in range(n):
        row = hand_features(hands[j], melds[j], trumps[j], positions[j])
        for i in range(N_FEATURES):
            x[j, i] = row[i]
    return x


@jit
def calibrated_jump(pp: np.ndarray) -> int:
    """``jump`` of a ``calibrated`` seat (a negative jump counts as 0)."""
    return max(pp[PP_BID_PARAMS + CAL_JUMP], 0)


@jit
def calibrated_limit(
    hand: int, melds: np.ndarray, position: int, ra: np.ndarray, pp: np.ndarray
) -> tuple[int, int]:
    """(bid limit, trump) under ``calibrated`` for a dealt hand (``melds[s]``: its meld with
    trump ``s``; ``position``: seats after the dealer)."""
    base = PP_BID_PARAMS
    scale = ra[RA_SCALE]
    z = pp[base + CAL_Z] / 1000.0
    best = -1e18
    best_suit = 0
    for s in range(4):
        x = hand_features(hand, melds[s] * scale, s, position)
        mean = 0.0
        for i in range(N_FEATURES):
            mean += pp[base + CAL_COEF + i] * x[i]
        spread = (
            pp[base + CAL_SPREAD + F_CONST] * x[F_CONST]
            + pp[base + CAL_SPREAD + F_MELD] * x[F_MELD]
            + pp[base + CAL_SPREAD + F_LEN] * x[F_LEN]
        )
        v = (mean + z * max(spread, 1000.0)) / 100.0
        if v > best:
            best, best_suit = v, s
    limit = math.floor(best / scale)
    if pp[PP_BID] != BID_CALIBRATED or limit < ra[RA_MIN_BID]:
        limit = 0
    return limit, best_suit
