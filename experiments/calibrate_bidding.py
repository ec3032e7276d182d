"""Fit the ``calibrated`` bidding policy's model on simulated hands and write its data file.

Round 1 plays ``HANDS`` partnership hands with the default policies, the bidder playing every
hand out (``concede=play-on``, so every outcome is observed), and fits by least squares the
points the bidding side counts against its bid (meld after the pass + trick points; 0 when it
takes no trick, the save rule) from the bidder's dealt hand for the trump it named: meld in that
trump, trump length, aces, tens, trump A+10, pinochle cards, and the bidder's seat after the
dealer. A second fit of the absolute residual on (1, meld, trump length), times sqrt(pi/2),
gives the spread, and the quantiles (1%..99%) of the residuals divided by it give the policy's
risk table (the residuals are skewed, so no normal quantile is assumed). Round 2 refits on hands
bid by the ``calibrated`` policy itself (risk 75) with the round-1 model, so the sample looks
like the hands that policy wins. Writes pinochle_sim/policies/data/calibrated_bidding.json
(versioned, with the sample and its fit statistics) and prints a calibration table: predicted vs
realised make rates.

Run: `python experiments/calibrate_bidding.py` (about a minute; part of `make experiments`).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
import sys

import numpy as np

from pinochle_sim.core.version import __version__
from pinochle_sim.engines import ENGINE_VERSION
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies.calibrated import (
    DATA_FILE,
    FEATURES,
    SPREAD_FEATURES,
    calibration,
    feature_matrix,
)
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.simulate.hands import play_hands

RULES = "partnership"
HANDS = 600_000
SEED = 7  # not the seed of the published runs: the model is tested on other deals
FORMAT = 1


def model_policies(model: dict | None, risk: int = 75) -> PolicySet:
    """Round 1: the default bidder; later rounds: ``calibrated`` with ``model``."""
    if model is None:
        return PolicySet.from_options(concede="play-on")
    params = {"bid.risk": risk}
    params |= {f"bid.c_{n}": round(100 * v) for n, v in zip(FEATURES, model["mean"], strict=True)}
    params |= {
        f"bid.s_{n}": round(100 * v) for n, v in zip(SPREAD_FEATURES, model["spread"], strict=True)
    }
    return PolicySet.from_options(bid="calibrated", concede="play-on", params=params)


def sample(
    rules: str = RULES, hands: int = HANDS, seed: int = SEED, policies: PolicySet | None = None
) -> tuple[np.ndarray, ...]:
    """(features X, outcome y, bid) of the auction winner of every hand."""
    r = get_preset(rules)
    c = play_hands(seed, 0, hands, rules, policies or model_policies(None))
    n = len(c["hand"])
    rows = np.arange(n)
    bidder = c["bidder"].astype(np.int64)
    trump = c["trump"].astype(np.int64)
    side = bidder % 2 if r.partnerships else bidder
    dealt = np.stack([c[f"dealt_{p}"] for p in range(r.players)])[bidder, rows]
    pre = np.stack([c[f"meld_{p}_{s}"] for p in range(r.players) for s in "shdc"])
    meld = pre[4 * bidder + trump, rows].astype(np.int64) * r.scale
    position = (bidder - c["dealer"].astype(np.int64)) % r.players
    x = feature_matrix(dealt.astype(np.int64), meld, trump, position)
    team_meld = np.stack([c[f"team_meld_{k}"] for k in range(r.teams)])[side, rows]
    tricks = np.stack([c[f"team_tricks_{k}"] for k in range(r.teams)])[side, rows]
    y = np.where((tricks == 0) & r.save_rule, 0, team_meld + tricks).astype(float) * r.scale
    return x, y, c["bid"].astype(float) * r.scale


def fit(x: np.ndarray, y: np.ndarray) -> dict:
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ coef
    xs = x[:, : len(SPREAD_FEATURES)]  # const, meld, len are the first three features
    spread, *_ = np.linalg.lstsq(xs, np.abs(resid) * math.sqrt(math.pi / 2), rcond=None)
    r2 = 1 - resid.var() / y.var()
    sd = np.maximum(xs @ spread, 10.0)
    quantiles = np.quantile(resid / sd, np.arange(1, 100) / 100)
    return {
        "mean": [round(float(v), 3) for v in coef],
        "spread": [round(float(v), 3) for v in spread],
        "quantiles": [round(float(v), 4) for v in quantiles],
        "r2": round(float(r2), 4),
        "resid_sd": round(float(resid.std()), 2),
    }


def check(x: np.ndarray, y: np.ndarray, bid: np.ndarray, model: dict) -> list[str]:
    mean = x @ np.array(model["mean"])
    sd = np.maximum(x[:, :3] @ np.array(model["spread"]), 10.0)
    # P(y >= bid) from the empirical residual quantiles
    levels = np.arange(1, 100) / 100
    p = 1 - np.interp((bid - mean) / sd, np.array(model["quantiles"]), levels)
    made = y >= bid
    lines = ["predicted P(make) at the bid  n        realised"]
    edges = np.linspace(0, 1, 11)
    for lo, hi in itertools.pairwise(edges):
        m = (p >= lo) & (p < hi)
        if m.sum() >= 200:
            lines.append(
                f"  {lo:.1f}-{hi:.1f}                  {m.sum():>7,}  {made[m].mean():.3f}"
            )
    return lines


def write(model: dict, rounds: int) -> None:
    """The data file the policy reads."""
    doc = {
        "format": FORMAT,
        "rules": RULES,
        "features": list(FEATURES),
        "spread_features": list(SPREAD_FEATURES),
        **model,
        "sample": {
            "hands": HANDS,
            "seed": SEED,
            "policies": "round 1 default, then calibrated (risk 75); concede=play-on",
            "rounds": rounds,
            "outcome": "bidding side's meld + trick points (0 without a trick: save rule)",
        },
        "engine_version": ENGINE_VERSION,
        "package_version": __version__,
        "created": dt.date.today().isoformat(),
    }
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    calibration.cache_clear()
    print(f"wrote {DATA_FILE}", file=sys.stderr)


def main(rounds: int = 2) -> None:
    model = None
    for k in range(1, rounds + 1):
        x, y, bid = sample(seed=SEED + k - 1, policies=model_policies(model))
        model = fit(x, y)
        write(model, k)
        print(f"round {k}:")
        print("mean:", dict(zip(FEATURES, model["mean"], strict=True)))
        print("spread:", dict(zip(SPREAD_FEATURES, model["spread"], strict=True)))
        print(f"R^2 {model['r2']}, residual sd {model['resid_sd']}")
        print("\n".join(check(x, y, bid, model)))


if __name__ == "__main__":
    main()
