"""Solver speed on a fixed set of simulated deals: nodes and seconds per position.

    python experiments/solver_speed.py --rules partnership --deals 20 --cards 8
    python experiments/solver_speed.py --cards 12 --deals 6 --moves   # every card's value

Positions are those of seeds 0.. hand i after the bots' first tricks, so that ``--cards``
remain in each hand; the side is the bidder's. ``--moves`` times what sampled-world play asks
of each world (the value of every legal card, ``dd_move_values``) instead of the value alone.
Prints one line per deal (CPU time) and the summary; used to measure each technique of the
search while tuning it.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from pinochle_sim.rules import resolve_rules
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver.context import new_generation
from pinochle_sim.solver.driver import dd_move_values, dd_solve
from pinochle_sim.solver.workspace import H_NODES, new_table, pack_trick


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="partnership")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--cards", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bits", type=int, default=20)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--moves", action="store_true", help="every legal card's value")
    a = ap.parse_args()
    r = resolve_rules(a.rules)
    ra = rule_array(r)
    tt = new_table(a.bits)
    tt[H_NODES + 1 :] += 0  # fault every page in now (~0.3 s for 128 MB), not in a timed solve
    one_card = [1 << (5 - s) if s < r.players else 0 for s in range(4)]
    out = np.zeros(24, dtype=np.int64)
    dd_solve(*one_card, 0, 0, 0, ra, 1, tt)  # compile (or load) before timing
    dd_move_values(*one_card, 0, 0, 0, ra, 1, tt, out)
    times, nodes = [], []
    total = 0
    for hand in range(a.deals):
        play = trick_play(a.seed, hand, r)
        n_tricks = play.start.tricks_left - a.cards
        if n_tricks > 0 and n_tricks >= len(play.tricks):
            continue  # a conceded hand: no trick play to solve
        p = position_after(play, max(0, n_tricks))
        side = play.bidder if play.bidder is not None else p.leader
        mask = sum(1 << s for s in p.side_seats(side))
        h = [*p.hands, 0, 0][:4]
        new_generation(tt)
        n0 = int(tt[H_NODES])
        t = time.process_time()  # CPU seconds: the machine is shared, wall time is noisy
        args = (h[0], h[1], h[2], h[3], p.leader, pack_trick(p.trick), p.trump, ra, mask, tt)
        if a.moves:
            dd_move_values(*args, out)
            v = int(out[out >= 0].sum())  # every card's value, summed: a check that travels
        else:
            v = dd_solve(*args)
        dt = time.process_time() - t
        times.append(dt)
        nodes.append(int(tt[H_NODES]) - n0)
        total += v
        if not a.quiet:
            print(f"hand {hand:4d}  value {v:4d}  nodes {nodes[-1]:>12,}  {dt * 1e3:10.1f} ms")
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"{a.rules} {a.cards} cards, {a.deals} deals: "
        f"median {statistics.median(times) * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms, "
        f"max {times[-1] * 1e3:.1f} ms, total {sum(times):.2f} s, "
        f"nodes median {statistics.median(nodes):,.0f} total {sum(nodes):,}, "
        f"{sum(nodes) / sum(times) / 1e6:.2f} M nodes/s, value sum {total}"
    )


if __name__ == "__main__":
    main()
