"""Hands per second of each engine's batch kernel, 1 and 2 threads (best of a few runs).

    python experiments/engine_speed.py [--n 300000] [--rules partnership,three-hand,two-hand]

Prints the time the first call took (compile or cache load) and the rates (wall time, and
the calling thread's CPU time on one thread, steadier on a shared machine); used to measure each
kernel change back to back (docs/speed.md).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array
from pinochle_sim.runs.simulate.pool import threads


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300_000)
    ap.add_argument("--rules", default="partnership,three-hand,two-hand")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    for rules in a.rules.split(","):
        inputs = engine_inputs(rules)
        out = np.empty((inputs.layout.ncol, a.n), dtype=np.int64)
        t = time.perf_counter()
        play_hands_array(inputs, 0, 0, 1000, out=out[:, :1000])
        first = time.perf_counter() - t
        rates = []
        for k in (int(x) for x in a.threads.split(",")):
            with threads(k):
                best = min(_time(inputs, out, a.n) for _ in range(a.repeat))
            rates.append(f"{k}T {a.n / best[0] / 1e6:6.3f} M/s")
            if k == 1:  # one thread runs on the calling thread: its CPU time is less noisy
                rates.append(f"(1T CPU time {a.n / best[1] / 1e6:6.3f} M/s)")
        print(f"{rules:<14} first call {first:6.2f} s  " + "  ".join(rates), flush=True)


def _time(inputs, out, n) -> tuple[float, float]:
    """(wall seconds, this thread's CPU seconds) of one batch."""
    t, c = time.perf_counter(), time.thread_time()
    play_hands_array(inputs, 0, 0, n, out=out)
    return time.perf_counter() - t, time.thread_time() - c


if __name__ == "__main__":
    main()
