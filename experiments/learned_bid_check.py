"""Does ``bid=learned`` make its contracts as often as it expects to?

    python experiments/learned_bid_check.py --hands 20000 --seed 23 [--play counting]

Plays ``--hands`` hands of seed ``--seed`` with ``learned`` bidding at seats 0 and 2 against
``calibrated`` at seats 1 and 3 (and a second table with ``learned`` everywhere), every seat
playing ``--play``. For each contract a ``learned`` seat wins, its model's chance of making the
bid actually won (:func:`pinochle_sim.policies.learned_bid.make_chance`) is set beside whether
it was made: the mean of the one against the rate of the other, overall and by bid, with 95%
intervals. Writes ``results/strength/learned_bid_check.csv`` with ``--out``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd


def contracts(seed: int, hands: int, play: str, mixed: bool) -> pd.DataFrame:
    """The contracts ``learned`` seats won: predicted chance, made, bid."""
    from pinochle_sim.policies import PolicySet
    from pinochle_sim.policies.learned_bid import make_chance, model_for_play
    from pinochle_sim.policies.seating import Seating
    from pinochle_sim.rules import resolve_rules
    from pinochle_sim.runs.runner import run

    rules = resolve_rules("partnership")
    learned = PolicySet.from_options(bid="learned", play=play)
    base = PolicySet.from_options(bid="calibrated", play=play) if mixed else learned
    seating = Seating(seats=((0, learned), (2, learned))) if mixed else None
    with tempfile.TemporaryDirectory() as tmp:
        run(hands, f"{tmp}/run", seed=seed, rules=rules, policies=base, seating=seating)
        c = {k: v.to_numpy() for k, v in pd.read_parquet(f"{tmp}/run").items()}
    bidder = c["bidder"].astype(np.int64)
    keep = ~c["stuck"].astype(bool) & ((bidder % 2 == 0) if mixed else True)
    rows = np.flatnonzero(keep)
    b = bidder[rows]
    t = c["trump"].astype(np.int64)[rows]
    dealt = np.stack([c[f"dealt_{p}"] for p in range(4)])[b, rows]
    meld = np.stack([c[f"meld_{p}_{s}"] for p in range(4) for s in "shdc"])[4 * b + t, rows]
    position = (b - c["dealer"].astype(np.int64)[rows]) % 4
    bid = c["bid"].astype(np.int64)[rows]
    p = make_chance(rules, dealt, meld, t, position, bid, model_for_play(play))
    return pd.DataFrame({"bid": bid, "predicted": p, "made": c["made"][rows].astype(bool)})


def summary(d: pd.DataFrame, table: str) -> pd.DataFrame:
    from pinochle_sim.analysis.stats import wilson

    out = []
    groups = [("all", d)] + [
        (f"{lo}-{lo + 49}", d[(d["bid"] >= lo) & (d["bid"] < lo + 50)])
        for lo in range(250, 451, 50)
    ]
    for name, g in groups:
        if len(g) < 100:
            continue
        k = int(g["made"].sum())
        lo, hi = wilson(k, len(g))
        out.append({
            "table": table, "bids": name, "contracts": len(g),
            "predicted": round(float(g["predicted"].mean()), 4),
            "made": round(k / len(g), 4), "made_lo": round(float(lo), 4),
            "made_hi": round(float(hi), 4),
        })  # fmt: skip
    return pd.DataFrame(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--play", default="greedy")
    ap.add_argument("--out", default=None, help="a CSV to write the table to")
    a = ap.parse_args()
    if a.hands < 1000:
        sys.exit("error: --hands must be at least 1,000")
    tables = [
        summary(contracts(a.seed, a.hands, a.play, True), "learned (0, 2) v calibrated (1, 3)"),
        summary(contracts(a.seed, a.hands, a.play, False), "learned everywhere"),
    ]
    out = pd.concat(tables, ignore_index=True).assign(play=a.play, seed=a.seed, hands=a.hands)
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(out.to_string(index=False))
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        out.to_csv(a.out, index=False)
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
