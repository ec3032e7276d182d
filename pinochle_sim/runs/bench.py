"""Benchmarks: hands per second per stage, an end-to-end run in a fresh process, and the
double-dummy solver's time per full deal.

``pinochle-sim bench`` / ``make bench``. Speed lives here, never in unit tests.
"""

from __future__ import annotations

import functools
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np
from numba import prange

from pinochle_sim.core.deal import _deal
from pinochle_sim.core.jit import pjit
from pinochle_sim.rules import resolve_rules
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.rules.meld import _meld
from pinochle_sim.runs.parallel import threads
from pinochle_sim.runs.simulate import check_memory, engine_inputs, play_hands_array
from pinochle_sim.runs.solve import trick_play
from pinochle_sim.solver.kernel import H_NODES, dd_solve, new_generation, new_table


@pjit
def _bench_deal(seed: int, n: int, chunk: int, sink: np.ndarray) -> None:
    """Deal hands 0..n-1 (4 x 12 cards); XOR of the hands per chunk into ``sink``."""
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        deck = np.empty(48, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        rs = np.empty(2, dtype=np.uint64)
        acc = 0
        for h in range(c * chunk, min(n, (c + 1) * chunk)):
            _deal(seed, h, 4, 12, 0, deck, rs, hands)
            acc ^= hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
        sink[c] = acc


@pjit
def _bench_deal_meld(seed: int, n: int, chunk: int, ma: np.ndarray, sink: np.ndarray) -> None:
    """Deal and score meld for 4 seats x 4 trumps; sum of melds per chunk into ``sink``."""
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        deck = np.empty(48, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        rs = np.empty(2, dtype=np.uint64)
        acc = 0
        for h in range(c * chunk, min(n, (c + 1) * chunk)):
            _deal(seed, h, 4, 12, 0, deck, rs, hands)
            for p in range(4):
                for t in range(4):
                    acc += _meld(hands[p], t, ma)
        sink[c] = acc


def _full(inputs, buf: np.ndarray, m: int) -> None:
    play_hands_array(inputs, 0, 0, m, out=buf[:, :m])


def _rate(fn: Callable[[int], None], n: int, repeat: int = 3) -> float:
    fn(min(n, 10_000))  # compile / warm up
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t)
    return n / best


def stage_rates(
    n: int = 2_000_000, thread_counts: tuple[int, ...] = (1, 2), rules: str = "partnership"
) -> list[tuple[str, int, float]]:
    """[(stage, threads, hands/s)] for deal, deal + 16 melds, full hands (of ``rules``, then
    three-hand and two-hand)."""
    inputs = engine_inputs(rules)
    widths = [engine_inputs(r).layout.ncol for r in (rules, "three-hand", "two-hand")]
    check_memory(8 * n * sum(widths), f"benchmark buffers for {n:,} hands", "pass fewer --hands")
    chunk = 4096
    sink = np.zeros((n + chunk - 1) // chunk, dtype=np.int64)
    stages: dict[str, Callable[[int], None]] = {
        "deal": lambda m: _bench_deal(0, m, chunk, sink),
        "deal + meld (4 seats x 4 trumps)": lambda m: _bench_deal_meld(
            0, m, chunk, inputs.ma, sink
        ),
    }
    out = np.empty((inputs.layout.ncol, n), dtype=np.int64)
    stages["full hands, default policies"] = lambda m: play_hands_array(
        inputs, 0, 0, m, out=out[:, :m]
    )
    for other, label in (
        ("three-hand", "full hands, three-hand"),
        ("two-hand", "full deals, two-hand"),
    ):
        other_inputs = engine_inputs(other)
        buf = np.empty((other_inputs.layout.ncol, n), dtype=np.int64)
        stages[label] = functools.partial(_full, other_inputs, buf)
    rows = []
    for name, fn in stages.items():
        for k in thread_counts:
            if k > numba.config.NUMBA_NUM_THREADS:
                continue
            with threads(k):
                rows.append((name, k, _rate(fn, n)))
    return rows


def end_to_end(hands: int = 1_000_000, cold: bool = False, rules: str = "partnership") -> float:
    """Wall seconds of ``pinochle-sim run --hands N --rules R`` in a fresh process (cold: empty
    compile cache)."""
    tmp = tempfile.mkdtemp(prefix="pinochle-bench-")
    env = dict(os.environ)
    if cold:
        env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba-cache")
    cmd = [
        sys.executable,
        "-m",
        "pinochle_sim",
        "run",
        "--hands",
        str(hands),
        "--quiet",
        "--rules",
        rules,
        "--out",
        os.path.join(tmp, "run"),
    ]
    try:
        if not cold:  # make sure the cache is warm
            subprocess.run(
                cmd[:-1] + [os.path.join(tmp, "warm")], env=env, check=True, capture_output=True
            )
        t = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        return time.perf_counter() - t
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def machine() -> str:
    return (
        f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numba {numba.__version__}, numpy {np.__version__}"
    )


@dataclass(frozen=True)
class SolverBench:
    """Double-dummy solve times of full deals of one preset (one thread)."""

    rules: str
    deals: int
    cards: int
    """Cards per seat at the start of the solved position."""
    seconds: tuple[float, ...]
    nodes: tuple[int, ...]

    def stat(self, q: float, of: str = "seconds") -> float:
        """The ``q`` quantile (0.5 median, 0.95, 1.0 max) of seconds or nodes, by rank."""
        values = sorted(getattr(self, of))
        return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]

    def median_ci(self, of: str = "seconds", level: float = 0.95) -> tuple[float, float]:
        """A distribution-free confidence interval for the median: the order statistics
        ``k`` and ``n + 1 - k`` (1-based), ``k`` the largest rank with a binomial(n, 1/2)
        tail ``P(X < k)`` of at most ``(1 - level) / 2``; the whole range when n is too small
        for the level."""
        values = sorted(getattr(self, of))
        n = len(values)
        tail = (1 - level) / 2
        k = 0
        cum = 0.0
        for i in range(n):
            cum += math.comb(n, i) / 2**n
            if cum > tail:
                break
            k = i + 1
        if k == 0:
            return values[0], values[-1]
        return values[k - 1], values[n - k]

    def line(self) -> str:
        lo, hi = self.median_ci()
        return (
            f"solver, {self.rules:<19} {self.deals} deals of {self.cards} cards a seat: "
            f"median {self.stat(0.5):.3f} s (95% CI {lo:.3f}-{hi:.3f}), "
            f"p95 {self.stat(0.95):.3f} s, "
            f"max {self.stat(1.0):.3f} s; nodes median {self.stat(0.5, 'nodes'):,.0f}, "
            f"p95 {self.stat(0.95, 'nodes'):,.0f}, max {self.stat(1.0, 'nodes'):,.0f}"
        )


def solver_times(
    rules: str = "partnership",
    deals: int = 200,
    seed: int = 0,
    table_bits: int = 21,
    progress: Callable[[int, int, float], None] | None = None,
) -> SolverBench:
    """Solve the trick play of ``deals`` simulated hands of ``seed`` (after the pass, the
    discard or, in two-hand, for the play-out) for the bidder's side, one thread, a fresh table
    generation for each; CPU seconds (the kernel runs on the calling thread) and nodes.

    ``progress(done, deals, seconds)`` is called after each deal (seconds: the solves' CPU
    time so far), so that a caller can show that a long run is moving."""
    r = resolve_rules(rules)
    ra = rule_array(r)
    tt = new_table(table_bits)
    tt[H_NODES + 1 :] += 0  # fault every page in now (~0.3 s for 128 MB), not in a timed solve
    one_card = [1 << (5 - s) if s < r.players else 0 for s in range(4)]
    dd_solve(*one_card, 0, 0, 0, ra, 1, tt)  # compile (or load) before timing
    secs, nodes = [], []
    cards = 0
    for hand in range(deals):
        play = trick_play(seed, hand, r)
        p = play.start
        cards = max(cards, p.tricks_left)
        side = play.bidder if play.bidder is not None else p.leader
        mask = sum(1 << s for s in p.side_seats(side))
        h = [*p.hands, 0, 0, 0][:4]
        new_generation(tt)
        n0 = int(tt[H_NODES])
        t = time.process_time()
        dd_solve(h[0], h[1], h[2], h[3], p.leader, 0, p.trump, ra, mask, tt)
        secs.append(time.process_time() - t)
        nodes.append(int(tt[H_NODES]) - n0)
        if progress is not None:
            progress(hand + 1, deals, sum(secs))
    return SolverBench(r.name, deals, cards, tuple(secs), tuple(nodes))
