"""Training data for ``play=learned``: ``pimc``'s searched decisions, with what the seat knew.

    python experiments/learned_data.py --out results/strength/data/partnership --hands 16000
    python experiments/learned_data.py --out DIR --hands 16000 --resume        # finish a run
    python experiments/learned_data.py --out DIR --hands 16000 --cluster local:2

Plays deals ``first .. first + hands - 1`` of ``--seed`` with ``pimc`` in every seat
(:class:`pinochle_sim.agents.distill.SearchRecorder`) and writes one row per legal card of each
searched decision (from ``--from-trick`` on, more than one legal card): the deal, decision, seat,
trick and card, the search's value of the card (its side's points from this trick on, mean over
``--worlds`` worlds solved double dummy), whether ``pimc`` and ``counting`` play it, and the
card's features. Parquet parts of ``--part`` deals each (``part-FIRST.parquet``), written
atomically, so ``--resume`` plays only the deals of missing parts; ``_provenance.json`` names the
settings, the code version and the columns, and a resumed run must match it. ``--cluster ADDRESS``
(or ``local:N``) runs the parts on a Dask cluster (the ``[cluster]`` extra); otherwise on
``--processes`` local processes. ``--follow SPEC`` (a policy set, as ``compare`` takes it) plays
the hands on with that policy's cards in every seat, ``pimc`` still valuing each decision: the
positions a fast player meets, to train it on its own mistakes.

``--values rollout`` (four-hand partnership presets) values the decisions of ``--follow``'s side
playing against ``--against``'s (``play=counting`` by default) without a search: each legal card
is played, then the rest of the hand by the same players on the real deal
(:class:`pinochle_sim.agents.distill.RolloutRecorder`, each deal played with the side in either
seat pair). A row then holds the side's trick points from the trick on (``value``) and its
score for the hand minus the other side's (``score``), and ``chosen`` for the side's own card;
``--roles`` picks the leads, the follows or both. It is several times cheaper than pimc's
values (500 deals of leads: about 35 CPU seconds; pimc from trick 5: about 4 CPU minutes), and
it values a card under the play that really follows it, where the search assumes every seat
then sees every card::

    python experiments/learned_data.py --out DIR --hands 10000 --from-trick 1 --values rollout \
        --follow "play=learned,play.leads=2" --roles lead
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

from _parts import open_folder, part_path, rows_in, write_part


def play_part(
    rules: str, seed: int, worlds: int, from_trick: int, first: int, count: int, follow: str,
    values: str = "pimc", against: str = "", roles: str = "lead",
) -> dict:  # fmt: skip
    """Record deals ``first .. first + count - 1``: the part's columns and its CPU seconds."""
    from pinochle_sim.agents.distill import RolloutRecorder, SearchRecorder
    from pinochle_sim.policies.registry import parse_policy_spec

    c0 = time.process_time()
    if values == "rollout":
        rec = RolloutRecorder(
            rules, parse_policy_spec(follow)[1], parse_policy_spec(against)[1], from_trick,
            tuple(roles.split(",")), seed,
        )  # fmt: skip
    else:
        rec = SearchRecorder(
            rules, worlds, from_trick, seed, parse_policy_spec(follow)[1] if follow else None
        )
    cols: dict[str, list] = {}
    for hand in range(first, first + count):
        for k, v in rec.record_hand(hand).items():
            cols.setdefault(k, []).extend(v)
    return {"first": first, "columns": cols, "cpu_s": time.process_time() - c0}


def _play_job(job: tuple) -> dict:
    return play_part(*job)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder of the Parquet parts")
    ap.add_argument("--rules", default="partnership")
    ap.add_argument(
        "--seed", type=int, default=1000, help="deals of this seed (not an evaluation seed)"
    )
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--hands", type=int, default=16000)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--from-trick", type=int, default=7)
    ap.add_argument("--part", type=int, default=250, help="deals per part")
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    ap.add_argument(
        "--follow", default="", help="play on with this policy set's cards (e.g. play=learned)"
    )
    ap.add_argument(
        "--values", choices=("pimc", "rollout"), default="pimc",
        help="pimc: the search's value of each card; rollout: each card played, then the hand "
        "played out by --follow's side against --against's",
    )  # fmt: skip
    ap.add_argument("--against", default="play=counting", help="rollout: the other side")
    ap.add_argument("--roles", default="lead", help="rollout: lead, follow or lead,follow")
    ap.add_argument("--cluster", default=None, help="Dask scheduler address, or local:N")
    ap.add_argument("--resume", action="store_true")
    a = ap.parse_args()
    if a.hands < 1 or a.part < 1 or a.worlds < 1 or not 1 <= a.from_trick <= 16:
        sys.exit("error: --hands, --part and --worlds must be positive, --from-trick 1..16")
    from pinochle_sim.rules import resolve_rules

    try:
        rules = resolve_rules(a.rules)
    except ValueError as e:
        sys.exit(f"error: {e}")
    if rules.min_bid <= 0 or not rules.bid_steps:  # no auction: pimc does not play there
        sys.exit(f"error: pimc plays only games with an auction, not {a.rules!r}")
    rollout = a.values == "rollout"
    if rollout and not (rules.players == 4 and rules.partnerships):
        sys.exit(f"error: --values rollout needs a four-hand partnership preset, not {a.rules!r}")
    if rollout and (not a.follow or set(a.roles.split(",")) - {"lead", "follow"}):
        sys.exit("error: --values rollout needs --follow SPEC and --roles lead, follow or both")
    follow_play = {}
    against_play = {}
    if a.follow:
        from pinochle_sim.policies.registry import parse_policy_spec

        try:
            follow_play = parse_policy_spec(a.follow)[1].resolved(("play",))["play"]
            if rollout:
                against_play = parse_policy_spec(a.against)[1].resolved(("play",))["play"]
        except ValueError as e:
            sys.exit(f"error: --follow or --against: {e}")
    out = Path(a.out)
    settings = {
        "rules": a.rules, "seed": a.seed, "first": a.first, "hands": a.hands,
        "worlds": a.worlds, "from_trick": a.from_trick, "part": a.part,
        # the follower's card play with every parameter, its defaults (the model) resolved
        **({"follow": a.follow, "follow_play": follow_play} if a.follow else {}),
        **({"values": "rollout", "against": a.against, "against_play": against_play,
            "roles": a.roles} if rollout else {}),
    }  # fmt: skip
    from pinochle_sim.agents.distill import RECORD_COLUMNS, ROLLOUT_RECORD_COLUMNS

    if rollout:
        what = "played-out hands' worth of each legal card (experiments/learned_data.py)"
        columns = list(ROLLOUT_RECORD_COLUMNS)
    else:
        what = "pimc's searched decisions, one row per legal card (experiments/learned_data.py)"
        columns = list(RECORD_COLUMNS)
    open_folder(out, settings, a.resume, what, columns)
    starts = range(a.first, a.first + a.hands, a.part)
    todo = [s for s in starts if not part_path(out, s).exists()]
    jobs = [(a.rules, a.seed, a.worlds, a.from_trick, s, min(a.part, a.first + a.hands - s),
             a.follow, a.values, a.against, a.roles) for s in todo]  # fmt: skip
    print(f"{len(starts) - len(todo)} of {len(starts)} parts done; playing {len(jobs)}", flush=True)
    t0 = time.perf_counter()
    rows = cpu = 0.0
    done = 0

    def report(res: dict) -> None:
        nonlocal rows, cpu, done
        rows += write_part(out, res["first"], res["columns"])
        cpu += res["cpu_s"]
        done += 1
        wall = time.perf_counter() - t0
        eta = wall / done * (len(jobs) - done)
        print(f"part {done}/{len(jobs)}: {int(rows):,} rows, {cpu:.0f} CPU s, "
              f"{wall:.0f} s so far, ETA {eta:.0f} s", flush=True)  # fmt: skip

    if a.cluster:
        from pinochle_sim.runs.backends.cluster import connect_cluster

        with connect_cluster(a.cluster) as backend:
            print(f"on {backend.describe()}", flush=True)
            futures = [backend.client.submit(play_part, *j, pure=False) for j in jobs]
            from distributed import as_completed as dask_completed

            for fut in dask_completed(futures):
                report(fut.result())
    else:
        pool = multiprocessing.Pool(max(1, a.processes))
        try:
            for res in pool.imap_unordered(_play_job, jobs):
                report(res)
        except KeyboardInterrupt:
            pool.terminate()  # the parts under way are dropped; every part written is whole
            sys.exit(f"interrupted: {done} of {len(jobs)} parts written; run the same command "
                     "with --resume to finish")  # fmt: skip
        pool.close()
        pool.join()
    n, parts = rows_in(out)
    print(f"done: {n:,} rows in {parts} parts in {out}")


if __name__ == "__main__":
    main()
