"""Training data for ``bid=learned``: forced contracts played out, every trump of every deal.

    python experiments/learned_bid_data.py --out results/strength/bid-data/pimc --play pimc \
        --deals 3000
    python experiments/learned_bid_data.py --out DIR --play pimc --deals 3000 --resume
    python experiments/learned_bid_data.py --out DIR --play greedy --deals 200000 --cluster local:2

The hand advisor's method, over many deals: deals ``first .. first + deals - 1`` of ``--seed``
are each played four times, seat 0 made the bidder at the minimum bid with each trump in turn
(the dealer rotates with the deal, so the bidder sits in every position), every seat playing
``--play`` and every hand played out (``concede=play-on``), so the points both sides count are
observed for every trump, not only for the trump a policy would have named. With ``pimc`` (the
default) the outcomes are those of search.

Each row is one (deal, trump): the engine's record of the hand (the dealt hands, every seat's
meld in every trump, the pass, both sides' meld and trick points). Parquet parts of ``--part``
deals each, written whole; ``--resume`` plays only the missing parts and refuses other settings;
``_provenance.json`` names the settings, code version and command. ``--cluster ADDRESS`` (or
``local:N``) plays on a Dask cluster (the ``[cluster]`` extra), else on ``--threads`` threads
here. Ctrl-C stops between parts' tasks: every part written is whole, ``--resume`` finishes.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

import numpy as np
from _parts import open_folder, part_path, rows_in, write_part

TRUMPS = 4


def play_part(backend, inputs, seed: int, first: int, count: int) -> dict[str, np.ndarray]:
    """The rows of deals ``first .. first + count - 1``, trump after trump."""
    from pinochle_sim.runs.backends.tasks import hands_array
    from pinochle_sim.runs.simulate.hands import deal_constraints

    names = inputs.layout.names
    blocks = []
    for t in range(TRUMPS):
        fx = deal_constraints(inputs, None, bidder=0, trump=t)
        blocks.append(hands_array(backend, inputs, seed, first, count, None, fx))
    out = np.concatenate(blocks, axis=1)
    return {name: out[i] for i, name in enumerate(names)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder of the Parquet parts")
    ap.add_argument("--rules", default="partnership")
    ap.add_argument("--play", default="pimc", help="the play policy of every seat")
    ap.add_argument(
        "--from-trick",
        type=int,
        default=7,
        help="pimc's first sampled trick (7: as the shipped model's data, pimc's default then)",
    )
    ap.add_argument(
        "--seed", type=int, default=2000, help="deals of this seed (not an evaluation seed)"
    )
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--part", type=int, default=100, help="deals per part")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--cluster", default=None, help="Dask scheduler address, or local:N")
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args()
    if a.deals < 1 or a.part < 1 or a.first < 0:
        sys.exit("error: --deals and --part must be positive, --first at least 0")
    from pinochle_sim.policies import PolicySet
    from pinochle_sim.rules import resolve_rules
    from pinochle_sim.runs.backends.local import LocalBackend
    from pinochle_sim.runs.simulate.hands import engine_inputs

    try:
        rules = resolve_rules(a.rules)
        if not rules.partnerships or rules.min_bid <= 0:
            raise ValueError(
                f"rules {rules.name!r}: the learned bidder models four-hand partnership "
                "auctions only (partnership, joedog, partnership-classic)"
            )
        params = [f"play.from_trick={a.from_trick}"] if a.play == "pimc" else []
        policies = PolicySet.from_options(params, play=a.play, concede="play-on")
        inputs = engine_inputs(rules, policies)
        backend_cm = contextlib.nullcontext(LocalBackend(a.threads))
        if a.cluster:
            from pinochle_sim.runs.backends.cluster import connect_cluster

            backend_cm = connect_cluster(a.cluster)
    except ValueError as e:
        sys.exit(f"error: {e}")
    out = Path(a.out)
    settings = {
        "rules": a.rules, "play": a.play, "seed": a.seed, "first": a.first, "deals": a.deals,
        "part": a.part, "from_trick": a.from_trick if a.play == "pimc" else None,
    }  # fmt: skip
    what = (
        "forced contracts, seat 0 the bidder at the minimum bid, one row per (deal, trump), "
        "every hand played out (experiments/learned_bid_data.py)"
    )
    open_folder(out, settings, a.resume, what, list(inputs.layout.names))
    starts = range(a.first, a.first + a.deals, a.part)
    todo = [s for s in starts if not part_path(out, s).exists()]
    print(f"{len(starts) - len(todo)} of {len(starts)} parts done; playing {len(todo)}", flush=True)
    with backend_cm as backend:
        from pinochle_sim.analysis.session import open_session

        print(f"on {backend.describe()}; compiling (a minute or two when cold)", flush=True)
        done = 0
        try:
            open_session(inputs, backend=backend)
            t0 = time.perf_counter()
            for s in todo:
                n = min(a.part, a.first + a.deals - s)
                write_part(out, s, play_part(backend, inputs, a.seed, s, n))
                done += 1
                wall = time.perf_counter() - t0
                print(
                    f"part {done}/{len(todo)}: deals {s}-{s + n - 1}, {wall:.0f} s so far, "
                    f"ETA {wall / done * (len(todo) - done):.0f} s",
                    flush=True,
                )
        except KeyboardInterrupt:
            sys.exit(
                f"interrupted: {done} of {len(todo)} parts written; run the same command with "
                "--resume to finish"
            )
    rows, parts = rows_in(out)
    print(f"done: {rows:,} rows in {parts} parts in {out}")


if __name__ == "__main__":
    main()
