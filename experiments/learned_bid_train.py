"""Fit the ``learned`` bidding policy's models to forced contracts and write its data file.

    python experiments/learned_bid_train.py --data greedy=DIR --data counting=DIR \
        --data pimc=DIR [--write]

Each ``--data PLAY=DIR`` is a folder of ``experiments/learned_bid_data.py`` (seat 0 the bidder
at every trump of every deal, every seat playing PLAY); each gives one model, for that play
(:mod:`pinochle_sim.policies.learned_bid` says what a model holds and how the policy uses it).
Deals whose number ends in 9 are held out: the fit never sees them, and the checks printed (and
stored with the model) are computed on them:

* the mean model's error and R^2, and how often ``Y`` fell below the predicted 10%, 50% and 90%
  quantiles (a calibrated distribution: 10%, 50%, 90%);
* predicted against realised P(make) at the bids a contract is tried at.

The line ``c(b)`` (what a side scores on average on a contract it wins at ``b``) comes from
``--contract-hands`` hands bid by ``calibrated`` in every seat with the model's play (``pimc``,
too slow for that, takes ``counting``'s hands: the line is about the bidders, and the two plays
differ little at the bid). With ``--write`` the models go to
``pinochle_sim/policies/data/learned_bid.json`` with their provenance; a changed model is a new
version of the file, and a new version of the policy's records.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

FOR_PLAY = {
    "greedy": ["greedy", "random"],
    "counting": ["counting", "learned"],
    "pimc": ["pimc", "solver"],
}
"""The play policies each model serves: its own, and the nearest in strength."""
HELD_OUT = 9


def load(folder: Path) -> tuple[pd.DataFrame, dict]:
    prov_path = folder / "_provenance.json"
    if not prov_path.exists():
        sys.exit(f"error: {folder} is not a data run of experiments/learned_bid_data.py")
    prov = json.loads(prov_path.read_text())
    if "learned_bid_data.py" not in prov.get("what", ""):
        sys.exit(f"error: {folder} is not a data run of experiments/learned_bid_data.py")
    return pd.read_parquet(folder), prov


def side_points(d: pd.DataFrame, rules) -> np.ndarray:
    """``Y``: the bidding side's meld + trick points, 0 without a trick under the save rule."""
    tricks = d["team_tricks_0"].to_numpy(np.int64)
    y = d["team_meld_0"].to_numpy(np.int64) + tricks
    if rules.save_rule:
        y = np.where(tricks == 0, 0, y)
    return (y * rules.scale).astype(float)


def bid_matrix(d: pd.DataFrame, rules) -> np.ndarray:
    from pinochle_sim.policies.learned_bid import feature_rows

    t = d["trump"].to_numpy(np.int64)
    melds = np.stack([d[f"meld_0_{s}"].to_numpy(np.int64) for s in "shdc"])
    meld = melds[t, np.arange(len(d))] * rules.scale
    position = (0 - d["dealer"].to_numpy(np.int64)) % rules.players
    return feature_rows(d["dealt_0"].to_numpy(np.int64), meld, t, position)


def defence_matrix(d: pd.DataFrame, rules, seat: int) -> np.ndarray:
    from pinochle_sim.policies.learned_bid import defence_rows

    meld_sum = sum(d[f"meld_{seat}_{s}"].to_numpy(np.int64) for s in "shdc") * rules.scale
    position = (seat - d["dealer"].to_numpy(np.int64)) % rules.players
    return defence_rows(d[f"dealt_{seat}"].to_numpy(np.int64), meld_sum, position)


def lstsq(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.linalg.lstsq(x, y, rcond=None)[0]


def contract_line(rules_name: str, play: str, hands: int, seed: int) -> tuple[list[float], dict]:
    """(c0, c1) of ``c(b) = c0 + c1 b``: the bidding side's mean hand score against its bid,
    on hands bid by ``calibrated`` (least squares over bids, weighted by their hands)."""
    from pinochle_sim.policies import PolicySet
    from pinochle_sim.rules import resolve_rules
    from pinochle_sim.runs.simulate.hands import play_hands

    rules = resolve_rules(rules_name)
    policies = PolicySet.from_options(bid="calibrated", play=play)
    c = play_hands(seed, 0, hands, rules_name, policies)
    side = c["bidder"].astype(np.int64) % rules.teams if rules.partnerships else None
    scores = np.stack([c[f"score_{k}"] for k in range(rules.teams)]).astype(float)
    rows = np.arange(len(c["hand"]))
    score = scores[side if side is not None else c["bidder"].astype(np.int64), rows]
    bid = c["bid"].astype(float) * rules.scale
    stuck = c["stuck"].astype(bool)
    keep = ~stuck
    x = np.column_stack([np.ones(keep.sum()), bid[keep]])
    coef = lstsq(x, score[keep] * rules.scale)
    info = {
        "hands": hands, "seed": seed, "policies": f"bid=calibrated, play={play}",
        "contracts": int(keep.sum()), "note": "stuck dealers left out",
    }  # fmt: skip
    return [round(float(v), 4) for v in coef], info


def fit(d: pd.DataFrame, rules) -> tuple[dict, dict]:
    """The model's coefficients and its held-out checks."""
    from pinochle_sim.policies.learned_bid import MIN_SPREAD, N_QUANTILES, N_SPREAD

    held = d["hand"].to_numpy(np.int64) % 10 == HELD_OUT
    x = bid_matrix(d, rules)
    y = side_points(d, rules)
    opp = d["score_1"].to_numpy(float) * rules.scale
    mean = lstsq(x[~held], y[~held])
    resid = y - x @ mean
    xs = x[:, :N_SPREAD]
    spread = lstsq(xs[~held], np.abs(resid[~held]) * math.sqrt(math.pi / 2))
    sd = np.maximum(xs @ spread, MIN_SPREAD)
    levels = np.arange(1, N_QUANTILES + 1) / (N_QUANTILES + 1)
    quantiles = np.quantile(resid[~held] / sd[~held], levels)
    opponents = lstsq(x[~held], opp[~held])
    # defence: the opponents (seats 1 and 3) when seat 0 names the trump it values most
    n_deals = len(d) // 4
    value = (x @ mean - x @ opponents).reshape(4, n_deals)  # rows are trump after trump
    best = np.argmax(value, axis=0)
    chosen = (np.arange(4)[:, None] == best[None, :]).ravel()
    dx = np.vstack([defence_matrix(d[chosen], rules, s) for s in (1, 3)])
    dy = np.concatenate([opp[chosen], opp[chosen]])
    dheld = np.concatenate([held[chosen], held[chosen]])
    defence = lstsq(dx[~dheld], dy[~dheld])
    model = {
        "mean": [round(float(v), 4) for v in mean],
        "spread": [round(float(v), 4) for v in spread],
        "quantiles": [round(float(v), 4) for v in quantiles],
        "opponents": [round(float(v), 4) for v in opponents],
        "defence": [round(float(v), 4) for v in defence],
    }
    return model, checks(x[held], y[held], opp[held], dx[dheld], dy[dheld], model)


def checks(x, y, opp, dx, dy, model) -> dict:
    """Held-out checks of a fitted model."""
    from pinochle_sim.policies.learned_bid import MIN_SPREAD, N_SPREAD

    mean = x @ np.array(model["mean"])
    sd = np.maximum(x[:, :N_SPREAD] @ np.array(model["spread"]), MIN_SPREAD)
    q = np.array(model["quantiles"])
    below = {}
    for level, k in ((10, 9), (50, 49), (90, 89)):
        below[f"below_q{level}"] = round(float(np.mean(y < mean + sd[:] * q[k])), 4)
    # P(make) at bids 250, 300, ... against the share made
    calib = []
    for b in range(250, 501, 50):
        p = np.mean(mean[:, None] + sd[:, None] * q[None, :] >= b, axis=1)
        made = y >= b
        for lo in (0.0, 0.25, 0.5, 0.75):
            m = (p >= lo) & ((p < lo + 0.25) | (lo == 0.75))  # the top bin holds P = 1
            if m.sum() >= 200:
                calib.append({
                    "bid": b, "predicted": round(float(p[m].mean()), 4),
                    "made": round(float(made[m].mean()), 4), "n": int(m.sum()),
                })  # fmt: skip
    r2 = 1 - np.var(y - mean) / np.var(y)
    opp_pred = x @ np.array(model["opponents"])
    def_pred = dx @ np.array(model["defence"])
    return {
        "rows": len(y),
        "mean_abs_error": round(float(np.mean(np.abs(y - mean))), 2),
        "r2": round(float(r2), 4),
        **below,
        "opponents_mean_abs_error": round(float(np.mean(np.abs(opp - opp_pred))), 2),
        "defence_mean_abs_error": round(float(np.mean(np.abs(dy - def_pred))), 2),
        "p_make_calibration": calib,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, help="PLAY=DIR, once per model")
    ap.add_argument("--contract-hands", type=int, default=200_000)
    ap.add_argument("--contract-seed", type=int, default=3000)
    ap.add_argument("--write", action="store_true", help="write the package data file")
    a = ap.parse_args()
    from pinochle_sim.core.version import __version__
    from pinochle_sim.engines import ENGINE_VERSION
    from pinochle_sim.policies.learned_bid import (
        BID_FEATURES,
        DATA_FILE,
        DEFENCE_FEATURES,
        SPREAD_FEATURES,
    )
    from pinochle_sim.rules import resolve_rules

    models = []
    for version, item in enumerate(a.data, start=1):
        play, sep, folder = item.partition("=")
        if not sep or play not in FOR_PLAY:
            sys.exit(f"error: --data wants PLAY=DIR with PLAY one of {', '.join(FOR_PLAY)}")
        d, prov = load(Path(folder))
        settings = prov["settings"]
        if settings["play"] != play:
            sys.exit(f"error: {folder} was played with {settings['play']}, not {play}")
        rules = resolve_rules(settings["rules"])
        d = d.sort_values(["trump", "hand"], kind="stable").reset_index(drop=True)
        hands = d["hand"].to_numpy()
        whole = len(d) == 4 * settings["deals"] and sorted(d["trump"].unique()) == [0, 1, 2, 3]
        if not whole or not (hands.reshape(4, -1) == hands[: len(d) // 4]).all():
            sys.exit(
                f"error: {folder} does not hold every trump of its {settings['deals']:,} deals "
                "(an interrupted run? finish it with --resume)"
            )
        model, held = fit(d, rules)
        line_play = "counting" if play == "pimc" else play
        contract, line_info = contract_line(
            settings["rules"], line_play, a.contract_hands, a.contract_seed
        )
        print(f"model {version} ({play}): held-out {json.dumps(held)}")
        print(f"  c(b) = {contract[0]:.1f} + {contract[1]:.3f} b")
        models.append({
            "version": version, "rules": settings["rules"], "play": play,
            "for_play": FOR_PLAY[play], "features": list(BID_FEATURES),
            "spread_features": list(SPREAD_FEATURES),
            "defence_features": list(DEFENCE_FEATURES), **model, "contract": contract,
            "held_out": held,
            "data": {
                "settings": settings, "rows": len(d), "commit": prov.get("commit"),
                "engine_version": prov.get("engine_version"),
                "held_out": f"deals whose number ends in {HELD_OUT}",
                "outcome": "bidding side's meld + trick points (0 without a trick: save rule)",
            },
            "contract_line": line_info,
        })  # fmt: skip
    if a.write:
        doc = {
            "format": 1,
            "what": "the learned bidding policy's models (experiments/learned_bid_train.py)",
            "models": models,
            "engine_version": ENGINE_VERSION,
            "package_version": __version__,
            "created": dt.date.today().isoformat(),
        }
        DATA_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {DATA_FILE}")


if __name__ == "__main__":
    main()
