"""Strategy studies built on duplicate comparisons and sweeps (partnership, default rules).

Writes, under results/strategy/:

* ``counting_vs_greedy/``: the value of card counting (``compare play=counting default``);
* ``risk_sweep/``: bid aggressiveness - the calibrated bidder's ``risk`` from 50% to 95% against
  the default ``estimate`` bidder;
* ``calibrated_vs_estimate/``: the calibrated bidder at its best risk against ``estimate``;
* ``margin_sweep/``: ``estimate``'s ``margin`` from -40 to +40 against the default;
* ``partner_sweep/``: how much meld from the partner is worth bidding on (``estimate``'s
  ``partner`` allowance from 0 to 80);
* ``calibration/``: does the calibrated bidder make what it aims for? (self-play at risk 60,
  75, 90: overall make rate, make rate of bids pushed to the limit, model-predicted rate).

Each folder holds the chart, the tables and a README with the headline numbers. Deals: seed
SEED, ``DEALS`` per match (each played twice). Run: `python experiments/strategy_lab.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from pinochle_sim.analysis.compare import compare, sweep, write_match, write_sweep
from pinochle_sim.core.version import __version__
from pinochle_sim.engines import engine_for
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies.calibrated import calibration, feature_matrix, risk_z
from pinochle_sim.rules import get_preset
from pinochle_sim.runs.simulate.hands import play_hands

OUT = Path(__file__).resolve().parent.parent / "results" / "strategy"
DEALS = 200_000
SWEEP_DEALS = 100_000
SEED = 0
RULES = get_preset("partnership")
DEFAULT = PolicySet()


def _readme(folder: Path, title: str, lines: list[str]) -> None:
    text = [f"# {title}", "", *lines, "", f"pinochle-sim {__version__}, seed {SEED}."]
    (folder / "README.md").write_text("\n".join(text) + "\n", encoding="utf-8")
    print(f"{title}: {folder}", file=sys.stderr)


def _match(name: str, title: str, a: tuple[str, PolicySet], b: tuple[str, PolicySet]) -> dict:
    m = compare(RULES, a, b, DEALS, SEED)
    folder = write_match(m, OUT / name, overwrite=True)
    s = m.summary
    ra, rb = s.iloc[0], s.iloc[1]
    _readme(
        folder,
        title,
        [
            f"Duplicate match, {DEALS:,} deals each played twice with the seats swapped: per "
            "deal sums A's score minus B's over both plays, per hand is one play (half of it, "
            "and the gap between the two mean scores per hand).",
            "",
            f"* **{ra['policy']} minus {rb['policy']}: {ra['diff_per_deal']:+.2f} points per deal "
            f"(95% CI {ra['diff_lo']:+.2f} to {ra['diff_hi']:+.2f}), "
            f"{ra['diff_per_hand']:+.2f} per hand.**",
            *[
                f"* {r['policy']}: mean score {r['mean_score']:.2f} per hand; it won the auction "
                f"in {int(r['bids_won']):,} of its {int(r['hands']):,} hands and made "
                f"{r['make_rate']:.1%} "
                f"({r['make_lo']:.1%}-{r['make_hi']:.1%}), stuck {r['stuck_rate']:.1%}, "
                f"mean bid {r['mean_bid']:.1f}"
                for _, r in s.iterrows()
            ],
            "",
            "![chart](compare.png)",
            "",
            "Per-deal results: `pairs.parquet`; summary: `summary.csv`, `summary.json`.",
        ],
    )
    return ra.to_dict()


def _sweep(
    name: str, title: str, base: PolicySet, param: str, values: list[int], note: str
) -> pd.DataFrame:
    table, diffs = sweep(RULES, base, param, values, DEFAULT, SWEEP_DEALS, SEED)
    kinds = engine_for(RULES).policy_kinds(RULES)
    meta = {
        "package": "pinochle-sim",
        "package_version": __version__,
        "rules": RULES.name,
        "seed": SEED,
        "deals": SWEEP_DEALS,
        "param": param,
        "values": values,
        "base": {"policies": base.resolved(kinds)},
        "against_label": "the default policies",
        "against": {"label": "default", "policies": DEFAULT.resolved(kinds)},
    }
    folder = write_sweep(table, diffs, meta, OUT / name, overwrite=True)
    best = table.loc[table["diff_per_deal"].idxmax()]
    rows = [
        f"| {int(r['value'])} | {r['diff_per_deal']:+.1f} ({r['diff_lo']:+.1f} to "
        f"{r['diff_hi']:+.1f}) | {r['mean_score']:.1f} | {r['opp_mean_score']:.1f} | "
        f"{r['make_rate']:.1%} | {r['mean_bid']:.1f} | {r['bids_won'] / r['hands']:.1%} |"
        for _, r in table.iterrows()
    ]
    _readme(
        folder,
        title,
        [
            note,
            "",
            f"Each value plays a duplicate match against the default policies on the same "
            f"{SWEEP_DEALS:,} deals. **Best: {param} = {int(best['value'])}, "
            f"{best['diff_per_deal']:+.1f} points per deal (95% CI {best['diff_lo']:+.1f} to "
            f"{best['diff_hi']:+.1f}).**",
            "",
            "The gain per deal sums the swept side's score minus the opponent's over the two "
            "plays of a deal (twice the gap between the two mean scores per hand), so it can peak "
            "at another value than the side's own mean score.",
            "",
            f"| {param} | gain per deal (95% CI) | own mean score/hand | opponent's | make rate | "
            "mean bid | auctions won (share of hands) |",
            "|---|---|---|---|---|---|---|",
            *rows,
            "",
            "![chart](sweep.png)",
        ],
    )
    return table


def calibration_check(risks: tuple[int, ...] = (60, 75, 90), hands: int = 200_000) -> Path:
    """Self-play of the calibrated bidder: does it make what it aims for?"""
    cal = calibration()
    levels = np.arange(1, 100) / 100
    rows = []
    for risk in risks:
        pol = PolicySet.from_options(bid="calibrated", params=[f"bid.risk={risk}"])
        c = play_hands(SEED + 1, 0, hands, RULES, pol)
        n = len(c["hand"])
        idx = np.arange(n)
        b = c["bidder"].astype(np.int64)
        t = c["trump"].astype(np.int64)
        dealt = np.stack([c[f"dealt_{p}"] for p in range(4)])[b, idx].astype(np.int64)
        pre = np.stack([c[f"meld_{p}_{s}"] for p in range(4) for s in "shdc"])
        meld = pre[4 * b + t, idx].astype(np.int64)
        x = feature_matrix(dealt, meld, t, (b - c["dealer"].astype(np.int64)) % 4)
        mean = x @ (np.round(100 * np.array(cal["mean"])) / 100)
        spread = np.maximum(x[:, :3] @ (np.round(100 * np.array(cal["spread"])) / 100), 10.0)
        limit = np.floor(mean + risk_z(risk) * spread)
        stuck = c["stuck"].astype(bool)
        made = c["made"].astype(bool)
        at_limit = ~stuck & (c["bid"] > limit - 10)
        predicted = 1 - np.interp((c["bid"] - mean) / spread, np.array(cal["quantiles"]), levels)
        rows.append(
            {
                "risk": risk,
                "hands": n,
                "make_rate": made.mean(),
                "at_limit_n": int(at_limit.sum()),
                "make_rate_at_limit": made[at_limit].mean(),
                "predicted_make_rate": predicted.mean(),
                "stuck_rate": stuck.mean(),
                "mean_bid": c["bid"].mean(),
                "conceded": c["conceded"].mean(),
            }
        )
    table = pd.DataFrame(rows)
    folder = OUT / "calibration"
    folder.mkdir(parents=True, exist_ok=True)
    table.to_csv(folder / "calibration.csv", index=False, float_format="%.4f")
    lines = [
        f"Self-play, all four seats `calibrated` at one risk, {hands:,} hands each. *At the "
        "limit*: bids the auction pushed to within one step (10) of the bidder's limit, where "
        "the policy aims to make `risk` of them; *predicted*: the model's make probability at "
        "the actual winning bid, averaged.",
        "",
        "| risk | made, all bids | made at the limit (n) | predicted | stuck | mean bid |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {int(r['risk'])}% | {r['make_rate']:.1%} | {r['make_rate_at_limit']:.1%} "
        f"({int(r['at_limit_n']):,}) | {r['predicted_make_rate']:.1%} | {r['stuck_rate']:.1%} | "
        f"{r['mean_bid']:.1f} |"
        for _, r in table.iterrows()
    ]
    _readme(folder, "Does the calibrated bidder make what it aims for?", lines)
    return folder


def main() -> None:
    _match(
        "counting_vs_greedy",
        "The value of card counting",
        ("counting", PolicySet.from_options(play="counting")),
        ("greedy", DEFAULT),
    )
    risk = _sweep(
        "risk_sweep",
        "Bid aggressiveness: the calibrated bidder's risk",
        PolicySet.from_options(bid="calibrated"),
        "bid.risk",
        list(range(50, 96, 5)),
        "The calibrated bidder bids up to the score it makes with probability `risk`.",
    )
    best = int(risk.loc[risk["diff_per_deal"].idxmax(), "value"])
    _match(
        "calibrated_vs_estimate",
        f"The calibrated bidder (risk {best}) against estimate",
        (
            f"calibrated risk {best}",
            PolicySet.from_options(bid="calibrated", params=[f"bid.risk={best}"]),
        ),
        ("estimate", DEFAULT),
    )
    _sweep(
        "margin_sweep",
        "Bid aggressiveness: estimate's margin",
        DEFAULT,
        "bid.margin",
        list(range(-40, 41, 10)),
        "`margin` is added to `estimate`'s valuation of the hand before bidding.",
    )
    _sweep(
        "partner_sweep",
        "How much meld from the partner is worth bidding on",
        DEFAULT,
        "bid.partner",
        list(range(0, 81, 10)),
        "`partner` is the meld `estimate` expects from the partner (default 20).",
    )
    calibration_check()


if __name__ == "__main__":
    main()
