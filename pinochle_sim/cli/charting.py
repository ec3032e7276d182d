"""``chart``: one question over several run folders, a line per run with its 95% band, and
the table beside the chart as CSV (the library's :mod:`pinochle_sim.charts`)."""

from __future__ import annotations

import click

import pinochle_sim
from pinochle_sim.cli.options import RunLocation, local_out, user_errors


@click.command("chart")
@click.argument("question", metavar="QUESTION")
@click.argument("runs", nargs=-1, required=True, type=RunLocation(file_okay=False))
@click.option("--label", "labels", multiple=True, metavar="NAME",
              help="A name for each run's line, in the order of the runs (repeat it once per "
              "run) [default: the run folders' names].")  # fmt: skip
@click.option("--by", default=None,
              type=click.Choice(("bid", "needed", "trumps", "trump-length")),
              help="The x axis: go-set and made-rate by winning bid (default), by points "
              "needed from tricks or by the bidding side's trumps; trick-points by trumps "
              "(default), bid or needed; bid-vs-meld by bid; meld-by-trump-length by trump "
              "length.")  # fmt: skip
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="The chart file; the table goes beside it as .csv "
              "[default: QUESTION-by-BY.png here].")  # fmt: skip
@click.option(
    "--format",
    "formats",
    default=None,
    metavar="png|svg|pdf",
    help="Chart formats, comma-separated [default: from --out's extension, else png].",
)
@click.option("--min-n", type=click.IntRange(min=1), default=200, show_default=True,
              help="The least hands (seat-suit observations for meld-by-trump-length) in a "
              "point: consecutive x values are merged until a bin holds this many.")  # fmt: skip
@click.option(
    "--allow-partial", is_flag=True, help="Chart partial runs too (their legend says so)."
)
@click.option("--overwrite", is_flag=True, help="Replace existing chart and CSV files.")
@user_errors
def chart_command(
    question: str,
    runs: tuple[str, ...],
    labels: tuple[str, ...],
    by: str | None,
    out: str | None,
    formats: str | None,
    min_n: int,
    allow_partial: bool,
    overwrite: bool,
) -> None:
    """Draw QUESTION for one or more runs, one line per run with its 95% band, and write the
    table beside the chart as CSV (one row per run and bin: its range, n, the estimate and
    interval). QUESTION: go-set, made-rate, trick-points, bid-vs-meld or meld-by-trump-length
    (go_set, as report spells it, is fine too).

    Each run is read part by part; its points are bins of consecutive x values holding at
    least --min-n hands each (the chart says so), drawn at the bin's mean. Questions:
    go-set (P(set), conceded hands count as set), made-rate (P(contract made)), trick-points
    (the bidding side's trick points), bid-vs-meld (the bidding side's meld after the pass)
    and meld-by-trump-length (a dealt hand's meld for a trump suit, every seat and suit).

    \b
    Examples:
      pinochle-sim chart go-set runs/greedy runs/pimc --label greedy --label pimc
      pinochle-sim chart go-set runs/greedy runs/pimc --by needed --out blog/set.svg
      pinochle-sim chart made-rate runs/p0 --by trumps --min-n 1000
      pinochle-sim chart trick-points runs/counting runs/pimc --by trumps
      pinochle-sim chart meld-by-trump-length runs/partnership runs/classic --format png,pdf
    """
    known = pinochle_sim.charts.OVERLAYS.get(question.replace("_", "-"))
    name = by or (known.bys[0] if known else "bid")
    target = local_out(out, "chart") or f"{question}-by-{name}.png"
    fmts = [f for f in formats.split(",") if f.strip()] if formats else None
    made = pinochle_sim.charts.chart(
        question, list(runs), list(labels) or None, by, target, fmts, min_n, allow_partial,
        overwrite,
    )  # fmt: skip
    click.echo(f"written: {', '.join(made.paths)}")


COMMANDS = (chart_command,)
