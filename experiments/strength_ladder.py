"""The strength ladder: the headline answers played out by greedy, counting, learned and pimc on
the same deals, one chart per question with a line per strength.

    python experiments/strength_ladder.py                       # writes results/strength/
    python experiments/strength_ladder.py --pimc-hands 5000 --cluster local:2

Four runs of the partnership defaults on deals 0.. of seed 0, each with another play policy
(bidding, passing and throwing in stay the defaults, so every difference is the card play's):
``greedy``, ``counting`` and ``learned`` on ``--hands`` deals, ``pimc`` on the first
``--pimc-hands`` of them (about 30 ms a hand; ``--cluster`` runs it on Dask). The runs are kept
in ``results/runs/`` (not committed) and finished if interrupted. Charts, each with its CSV,
in ``results/strength/``: go-set and made rate by winning bid, and the bidding side's trick
points by its trumps; ``overall.csv`` holds every rate over all deals with its 95% interval.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd
from _common import RESULTS

from pinochle_sim import PolicySet, RunSpec
from pinochle_sim.analysis.stats import Z95, wilson
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.store.files import MANIFEST, read_manifest
from pinochle_sim.runs.store.read import read_columns

OUT = RESULTS / "strength"
LADDER = ("greedy", "counting", "learned", "pimc")
PIMC_PARAMS = ["play.from_trick=7"]
"""``pimc`` as the committed ladder played it: from trick 7 (its default then; the default now
starts at the rules' own first trick, 5 in partnership, where 5,000 hands would take about 40
minutes on two cores instead of 4)."""
CHARTS = (("go-set", "bid"), ("made-rate", "bid"), ("trick-points", "trumps"))


def ensure(play: str, hands: int, seed: int, backend: object | None) -> str:
    """The run of ``play`` on deals 0..hands-1 of ``seed`` (made, or finished if cut short)."""
    folder = RESULTS / "runs" / f"ladder-{play}-seed{seed}-{hands}"
    params = PIMC_PARAMS if play == "pimc" else []
    spec = RunSpec(hands=hands, seed=seed, policies=PolicySet.from_options(params, play=play))
    done = (folder / MANIFEST).exists() and read_manifest(folder).get("complete")
    if not done:
        resume = (folder / MANIFEST).exists()
        print(f"{play}: {'finishing' if resume else 'playing'} {hands:,} hands", file=sys.stderr)
        run(spec, str(folder), resume=resume, force=True, backend=backend)  # type: ignore[arg-type]
    return str(folder)


def overall(label: str, folder: str) -> dict[str, float | str]:
    """Made rate, set rate and the bidding side's trick points over every hand of a run."""
    d = read_columns(folder, ["made", "bidder", "team_tricks_0", "team_tricks_1"])
    made = d["made"].to_numpy().astype(bool)
    side = d["bidder"].to_numpy() % 2
    pts = np.where(side == 0, d["team_tricks_0"], d["team_tricks_1"]).astype(float)
    n = len(made)
    lo, hi = wilson(made.sum(), n)
    half = Z95 * pts.std(ddof=1) / np.sqrt(n)
    return {
        "play": label, "hands": n, "made": made.mean(), "made_lo": float(lo),
        "made_hi": float(hi), "set": 1 - made.mean(), "set_lo": 1 - float(hi),
        "set_hi": 1 - float(lo), "trick_points": pts.mean(),
        "trick_points_lo": pts.mean() - half, "trick_points_hi": pts.mean() + half,
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--pimc-hands", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cluster", default=None, help="Dask scheduler address or local:N (pimc)")
    a = ap.parse_args()
    if a.pimc_hands > a.hands or a.pimc_hands < 1:
        sys.exit("error: --pimc-hands must be between 1 and --hands")
    backend = None
    if a.cluster:
        from pinochle_sim.runs.backends.cluster import connect_cluster

        backend = connect_cluster(a.cluster)
    try:
        runs = {p: ensure(p, a.hands, a.seed, None) for p in LADDER if p != "pimc"}
        runs["pimc"] = ensure("pimc", a.pimc_hands, a.seed, backend)
    finally:
        if backend is not None:
            backend.close()  # type: ignore[attr-defined]
    from pinochle_sim import charts

    OUT.mkdir(parents=True, exist_ok=True)
    folders = [runs[p] for p in LADDER]
    for question, by in CHARTS:
        target = OUT / f"{question}-by-{by}.png"
        made = charts.chart(question, folders, list(LADDER), by, target, ("png", "svg"),
                            overwrite=True)  # fmt: skip
        print(f"written: {made.paths}", file=sys.stderr)
    table = pd.DataFrame([overall(p, runs[p]) for p in LADDER])
    table.to_csv(OUT / "overall.csv", index=False, float_format="%.5g")
    print(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))


if __name__ == "__main__":
    main()
