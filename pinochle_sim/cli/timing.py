"""``bench``: the speed of every stage, the solver and whole runs, a line at a time."""

from __future__ import annotations

import click

from pinochle_sim import BenchOptions, bench_lines, parse_solver_cards
from pinochle_sim.cli.options import parse_count, user_errors


@click.command()
@click.option(
    "--hands",
    "hands_text",
    default="2e5",
    show_default=True,
    metavar="N",
    help="Most hands per timed batch (the output buffer's size; batches last about 0.3 s).",
)
@click.option(
    "--quick",
    is_flag=True,
    help="Short batches, no solver times (unless --solver-deals or --solver-only), no "
    "end-to-end runs (a few seconds).",
)
@click.option("--no-end-to-end", is_flag=True, help="Skip the fresh-process runs.")
@click.option(
    "--solver-deals",
    type=click.IntRange(0, 100_000),
    default=None,
    help="Deals per preset for the double-dummy solver's times (0: skip them) "
    "[default: 200; with --quick 0, or 20 with --solver-only].",
)
@click.option(
    "--solver-cards",
    default="8",
    show_default=True,
    metavar="N|full",
    help="Cards a seat in the solver's positions: N (1-15) after the bots' first tricks, or "
    "'full' for the whole trick play (a fraction of a second to seconds a deal: 200 full deals "
    "of each preset take about ten minutes).",
)
@click.option(
    "--solver-seed",
    type=click.IntRange(0, None),
    default=0,
    show_default=True,
    help="Seed of the deals the solver is timed on (hands 0.. of it).",
)
@click.option("--solver-only", is_flag=True, help="Only the double-dummy solver's times.")
@click.option(
    "--report-hands",
    "report_text",
    default="1e7",
    show_default=True,
    metavar="N|0",
    help="Time `report` (and its peak memory) on a run of N hands, made on the first bench and "
    "kept in the cache folder (0: skip; the first one takes a minute to simulate).",
)
@user_errors
def bench(
    hands_text: str,
    quick: bool,
    no_end_to_end: bool,
    solver_deals: int | None,
    solver_cards: str,
    solver_seed: int,
    solver_only: bool,
    report_text: str,
) -> None:
    """Print, a line at a time as each is measured: each engine's first-call (compile or cache
    load) time, hands per second per stage on 1 and 2 threads, the double-dummy solver's time
    per position of each preset (one thread: median, p95, max, nodes; 8 cards a seat unless
    --solver-cards says otherwise), end-to-end run times in fresh processes (warm cache; empty
    cache, then the first run of each other engine), each 1e6-hand run right after the same run
    of a minimal engine (the machine's yardstick), `report` of a 1e7-hand run (time and peak
    memory), and the peak memory. Where a speed target is
    set, the line says it and whether it was met.

    \b
    Examples:
      pinochle-sim bench --quick
      pinochle-sim bench --no-end-to-end --hands 1e6
      pinochle-sim bench --solver-only --solver-cards full --solver-deals 200 --solver-seed 7
    """
    try:
        cards = parse_solver_cards(solver_cards)
    except ValueError as e:
        raise click.BadParameter(
            str(e).removeprefix("--solver-cards: "), param_hint="--solver-cards"
        ) from None
    options = BenchOptions(
        max_hands=parse_count(hands_text),
        quick=quick,
        end_to_end=not no_end_to_end,
        solver_deals=solver_deals,
        solver_cards=cards,
        solver_only=solver_only,
        solver_seed=solver_seed,
        report_hands=0
        if report_text.strip() == "0"
        else parse_count(report_text, "--report-hands"),
    )
    for line in bench_lines(options, notice=lambda text: click.echo(text, err=True)):
        click.echo(line)


COMMANDS = (bench,)
