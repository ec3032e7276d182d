"""The whole bench, a line at a time as each figure is measured (``pinochle-sim bench``).

:func:`bench_lines` runs, in order: each engine's first call (compile or cache load), hands per
second per stage on one and two threads, the double-dummy solver's time per position of each
preset, end-to-end runs in fresh processes (warm cache; empty cache, then the first run of each
other engine), each million-hand run right after the same run of the minimal engine, ``report``
of a ten-million-hand run (its time and peak memory), and the peak memory. Lines with a speed
target say it and whether it was met.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pinochle_sim.bench import stages
from pinochle_sim.bench.solver_times import solver_times
from pinochle_sim.rules import PRESETS

FULL_DEAL = None
"""``BenchOptions.solver_cards`` for whole deals (the trick play from its start)."""


QUICK_SOLVER_DEALS = 20
"""Deals per preset that ``--solver-only --quick`` times."""


@dataclass(frozen=True)
class BenchOptions:
    """What a bench measures: ``max_hands`` per timed batch; ``quick``: short batches, no
    solver (unless ``solver_deals`` or ``solver_only`` say otherwise) and no fresh-process
    runs; ``end_to_end``: the fresh-process runs; ``solver_deals`` per preset (None: 200; with
    ``quick`` 0, or :data:`QUICK_SOLVER_DEALS` with ``solver_only``); ``solver_cards`` a seat
    in the solver's positions (:data:`FULL_DEAL`: whole deals); ``solver_only``: nothing but
    the solver; ``solver_seed``: the seed of the solved deals; ``report_hands``: the size of
    the run whose report is timed."""

    max_hands: int = 200_000
    quick: bool = False
    end_to_end: bool = True
    solver_deals: int | None = None
    solver_cards: int | None = 8
    solver_only: bool = False
    solver_seed: int = 0
    report_hands: int = 10_000_000
    """Hands of the run whose ``report`` is timed (0: no report line); the run is kept in the
    cache folder between benches."""

    def __post_init__(self) -> None:
        cards = self.solver_cards
        if cards is not None and not 1 <= cards <= 15:
            raise ValueError(f"solver positions hold 1-15 cards a seat, got {cards}")


def parse_solver_cards(text: str) -> int | None:
    """``--solver-cards``: :data:`FULL_DEAL` for ``full``, else a card count of 1..15."""
    if text.strip().lower() == "full":
        return FULL_DEAL
    if not text.strip().isdigit() or not 1 <= int(text) <= 15:
        raise ValueError(f"--solver-cards: give a number of cards 1-15 or 'full', not {text!r}")
    return int(text)


def bench_lines(
    options: BenchOptions = BenchOptions(),
    notice: Callable[[str], None] | None = None,
) -> Iterator[str]:
    """Every line of the bench, each yielded as soon as it is measured; ``notice`` hears of
    the solver's progress (a line at most every 10 s)."""
    t0 = time.perf_counter()
    effort = stages.QUICK if options.quick else stages.Effort()
    hands = min(options.max_hands, effort.max_hands) if options.quick else options.max_hands
    effort = dataclasses.replace(effort, max_hands=hands)
    deals = options.solver_deals
    if deals is None:  # quick: no solver, unless the solver is all that is asked for
        deals = (QUICK_SOLVER_DEALS if options.solver_only else 0) if options.quick else 200
    if not options.solver_only:
        stages.check_stage_memory(effort)
    yield f"machine: {stages.machine()}"
    if not options.solver_only:
        for c in stages.compile_times():
            yield c.line()
        for stage, k, rate in stages.iter_stage_rates(effort):
            yield stages.stage_line(stage, k, rate)
        if not options.quick:
            yield stages.learned_speed_line(effort)
    if deals:
        for preset in PRESETS:
            progress = every_seconds(preset, 10.0, notice) if notice else None
            yield solver_times(
                preset, deals, options.solver_seed, progress=progress, cards=options.solver_cards
            ).line()
    if options.end_to_end and not (options.solver_only or options.quick):
        # Each run right after the minimal engine's (yardstick.py), so that both see the
        # machine in the same mood: the ratios are the targets that travel between machines.
        seconds, ratio = stages.WARM_RUN_TARGET
        base = stages.minimal_engine_run(1_000_000)
        yield base.line()
        warm = stages.end_to_end(1_000_000, target_s=seconds)
        yield warm.line()
        yield stages.versus(warm, base, ratio)
        base = stages.minimal_engine_run(1_000_000, cold=True)
        yield base.line()
        for k, run in enumerate(stages.cold_runs()):
            yield run.line()
            if k == 0:
                yield stages.versus(run, base, stages.COLD_RUN_TARGET[1])
        if options.report_hands:
            if notice:
                notice(f"  report: a {options.report_hands:,}-hand run (kept between benches)")
            yield stages.report_timing(options.report_hands).line()
    me, kids = stages.peak_memory_mb()
    runs = f" (largest run process {kids:,.0f} MB)" if kids > 0 else ""
    yield f"peak memory {me:,.0f} MB{runs}; bench took {time.perf_counter() - t0:.1f} s"


def every_seconds(
    preset: str, seconds: float, notice: Callable[[str], None]
) -> Callable[..., None]:
    """A solver progress callback: a line to ``notice`` at most every ``seconds`` wall
    seconds, and at the last deal."""
    last = [time.monotonic()]

    def show(done: int, total: int, spent: float) -> None:
        now = time.monotonic()
        if now - last[0] >= seconds or done == total:
            last[0] = now
            notice(f"  solver, {preset}: {done}/{total} deals, {spent:.1f} s")

    return show
