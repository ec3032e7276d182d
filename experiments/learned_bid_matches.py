"""The duplicate matches behind ``bid=learned``'s margin and its measured gain.

    python experiments/learned_bid_matches.py                 # every match, about 5 minutes
    python experiments/learned_bid_matches.py --only margin   # the margin sweep (seed 11)

``margin``: ``bid=learned`` with ``bid.margin`` from 0 to -300 against ``calibrated``, 10,000
deals of seed 11 (the seed the default was chosen on). ``gain``: the default against
``calibrated`` and against the default bidder (``estimate``) with ``greedy`` and with
``counting`` play, 10,000 deals of seed 23 (used for nothing else), and with ``pimc`` play on
``--pimc-deals`` deals. Writes ``results/strength/learned_bid/matches.csv``: one row per match,
A's gain a deal with its 95% interval, and each side's contracts and make rate.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent.parent / "results" / "strength" / "learned_bid"
MARGINS = (0, -100, -150, -200, -225, -250, -300)
PIMC = "pimc,play.from_trick=7"
"""``pimc`` as the committed matches played it: from trick 7 (its default then)."""


def matches(pimc_deals: int) -> dict[str, list[tuple[str, str, str, int, int]]]:
    """(study, A, B, deals, seed) by group."""
    margin = [
        ("margin", f"bid=learned,bid.margin={m}", "bid=calibrated", 10_000, 11) for m in MARGINS
    ]
    gain = [
        ("gain", f"bid=learned,play={p}", f"{b},play={p}", n, 23)
        for p, n in (("greedy", 10_000), ("counting", 10_000), (PIMC, pimc_deals))
        for b in ("bid=calibrated", "bid=estimate")
        if n > 0
    ]
    return {"margin": margin, "gain": gain}


def play(study: str, a: str, b: str, deals: int, seed: int) -> dict:
    from pinochle_sim.analysis.compare import compare
    from pinochle_sim.policies import parse_policy_spec

    m = compare("partnership", parse_policy_spec(a), parse_policy_spec(b), deals, seed)
    sa, sb = m.summary.iloc[0], m.summary.iloc[1]
    print("\n".join(m.lines()[:1]), flush=True)
    return {
        "study": study, "a": a, "b": b, "seed": seed, "deals": deals,
        "gain_per_deal": round(float(sa["diff_per_deal"]), 2),
        "gain_lo": round(float(sa["diff_lo"]), 2), "gain_hi": round(float(sa["diff_hi"]), 2),
        "a_contracts": int(sa["bids_won"]), "a_made": round(float(sa["make_rate"]), 4),
        "a_mean_bid": round(float(sa["mean_bid"]), 1),
        "b_contracts": int(sb["bids_won"]), "b_made": round(float(sb["make_rate"]), 4),
        "b_mean_bid": round(float(sb["mean_bid"]), 1),
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("margin", "gain"), default=None)
    ap.add_argument("--pimc-deals", type=int, default=1000)
    ap.add_argument("--out", default=str(OUT / "matches.csv"))
    a = ap.parse_args()
    if a.pimc_deals < 0:
        sys.exit("error: --pimc-deals must be 0 or more")
    groups = matches(a.pimc_deals)
    todo = groups[a.only] if a.only else [m for g in groups.values() for m in g]
    rows = [play(*m) for m in todo]
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    table = pd.DataFrame(rows)
    if a.only and out.exists():  # keep the other group's rows
        old = pd.read_csv(out)
        table = pd.concat([old[old["study"] != a.only], table], ignore_index=True)
    table.to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
