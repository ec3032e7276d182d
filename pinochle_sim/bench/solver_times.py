"""The double-dummy solver's speed: time and nodes per position of simulated deals.

``pinochle-sim bench`` (a line per preset) and ``bench --solver-only``. Positions are those of
hands 0.. of a seed where trick play starts (after the pass; three-hand after the discard;
two-hand the play-out), or, with ``cards``, after the bots' first tricks, when ``cards`` remain
in each hand. Each is solved for the bidder's side, value only, on one thread, with a fresh
table generation; times are CPU seconds (the kernel runs on the calling thread), so a machine
shared with other work inflates them less than wall time would. Plain Python around the
solver's kernel: nothing here is compiled.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.runs.simulate.hands import engine_inputs
from pinochle_sim.solver.context import new_generation
from pinochle_sim.solver.driver import dd_solve
from pinochle_sim.solver.workspace import H_NODES, new_table, pack_trick


@dataclass(frozen=True)
class SolverBench:
    """Double-dummy solve times of positions of one preset (one thread)."""

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
        ms = self.stat(1.0) < 1.0  # positions solved in milliseconds read better in ms
        unit, k, digits = ("ms", 1e3, 2) if ms else ("s", 1.0, 3)

        def t(x: float) -> str:
            return f"{x * k:.{digits}f}"

        return (
            f"solver, {self.rules:<19} {self.deals} deals of {self.cards} cards a seat: "
            f"median {t(self.stat(0.5))} {unit} (95% CI {t(lo)}-{t(hi)}), "
            f"p95 {t(self.stat(0.95))} {unit}, "
            f"max {t(self.stat(1.0))} {unit}; nodes median {self.stat(0.5, 'nodes'):,.0f}, "
            f"p95 {self.stat(0.95, 'nodes'):,.0f}, max {self.stat(1.0, 'nodes'):,.0f}"
        )


def solver_times(
    rules: str = "partnership",
    deals: int = 200,
    seed: int = 0,
    table_bits: int = 21,
    progress: Callable[[int, int, float], None] | None = None,
    cards: int | None = None,
) -> SolverBench:
    """Solve the trick play of ``deals`` simulated hands of ``seed`` for the bidder's side,
    one thread, a fresh table generation for each; CPU seconds and nodes. The position is where
    trick play starts (the full deal), or with ``cards`` the one after the bots' first tricks
    with ``cards`` left in each hand (a hand whose play ends sooner, a conceded one, is left
    out, so ``deals`` counts the positions solved).

    ``progress(done, deals, seconds)`` is called after each hand (seconds: the solves' CPU
    time so far), so that a caller can show that a long run is moving."""
    r = engine_inputs(rules).rules
    ra = rule_array(r)
    tt = new_table(table_bits)
    tt[H_NODES + 1 :] += 0  # fault every page in now (~0.3 s for 128 MB), not in a timed solve
    one_card = [1 << (5 - s) if s < r.players else 0 for s in range(4)]
    dd_solve(*one_card, 0, 0, 0, ra, 1, tt)  # compile (or load) before timing
    secs: list[float] = []
    nodes: list[int] = []
    most = 0
    for hand in range(deals):
        play = trick_play(seed, hand, r)
        p = play.start
        if cards is not None:
            skip = p.tricks_left - cards
            if skip < 0 or (skip > 0 and skip >= len(play.tricks)):
                if progress is not None:
                    progress(hand + 1, deals, sum(secs))
                continue
            p = position_after(play, skip)
        most = max(most, p.tricks_left)
        side = play.bidder if play.bidder is not None else p.leader
        mask = sum(1 << s for s in p.side_seats(side))
        h = [*p.hands, 0, 0, 0][:4]
        new_generation(tt)
        n0 = int(tt[H_NODES])
        t = time.process_time()
        dd_solve(h[0], h[1], h[2], h[3], p.leader, pack_trick(p.trick), p.trump, ra, mask, tt)
        secs.append(time.process_time() - t)
        nodes.append(int(tt[H_NODES]) - n0)
        if progress is not None:
            progress(hand + 1, deals, sum(secs))
    if not secs:
        raise ValueError(
            f"no hand of {r.name} among the first {deals} reaches {cards} cards a seat"
        )
    return SolverBench(r.name, len(secs), most, tuple(secs), tuple(nodes))
