"""Studies: ``report`` (every chart and table of a run folder), ``compare`` (a duplicate match of
two policy sets, or of one against an OpenSpiel agent: :mod:`.matching`) and ``sweep`` (one
parameter over a range); ``advise`` is in :mod:`.advising`.

The analysis layer (pandas and matplotlib) loads only when one of these commands runs: its
names are read from the package top inside the commands, which keeps them out of the start of
every other command.
"""

from __future__ import annotations

from pathlib import Path

import click

import pinochle_sim
from pinochle_sim import (
    PolicySet,
    Ruleset,
    beside,
)
from pinochle_sim.cli.interrupts import NOTHING_WRITTEN
from pinochle_sim.cli.matching import agent_compare
from pinochle_sim.cli.options import (
    PolicySpecParam,
    RunLocation,
    cluster_option,
    count_option,
    kept_on_interrupt,
    local_out,
    observed_work,
    parse_count,
    rules_option,
    seed_option,
    threads_option,
    user_errors,
)

RESUME_HELP = (
    "Finish a study of search players (pimc) that was interrupted: the deals it finished are "
    "kept in OUT.partial until it is done, and only the others are played."
)


def _keep(target: str, keeping: bool) -> str | None:
    """Where a study keeps its finished deals (OUT.partial beside OUT), where its players
    search; None for bots (their studies take seconds and keep nothing)."""
    return f"{target}.partial" if keeping else None


@click.command()
@click.argument("run_dir", type=RunLocation(file_okay=False))
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Report folder [default: RUN_DIR-report, beside the run].",
)
@click.option(
    "--format",
    "formats",
    default="png,svg",
    show_default=True,
    help="Chart formats, comma-separated (png, svg, pdf).",
)
@click.option(
    "--only",
    multiple=True,
    metavar="NAME",
    help="Only these studies (repeatable); see the list below.",
)
@click.option(
    "--allow-partial",
    is_flag=True,
    help="Report on a partial run (interrupted, or a part missing): every title then says "
    "'partial run' and the hands actually read; studies it has too few hands for are left "
    "out, and named.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit with status 1 when the self-check fails (an estimate more than 4.5 standard "
    "errors from its exact value); the report is written either way.",
)
@threads_option
@user_errors
def report(
    run_dir: str,
    out: str | None,
    formats: str,
    only: tuple[str, ...],
    allow_partial: bool,
    strict: bool,
    threads: int | None,
) -> None:
    """Write every chart, every table as CSV and a publishable report.md for a run folder.

    A partial run is refused: finish it with `pinochle-sim run ... --resume`, or pass
    --allow-partial. report.md shows the PNG charts (SVG if only svg is asked for; with pdf
    alone, PNGs are written for it too) and links the other formats.

    The run is read part by part (memory stays flat whatever its size); the studies are shared
    out among as many processes as --threads, each drawing charts once its share is answered.

    Estimates with an exact value (the dealt hands' meld) are printed beside it with a
    z-score (self_check.csv, end of report.md); a |z| above 4.5 fails the self-check: a
    warning on top of report.md and here, and exit status 1 with --strict.

    Each study needs a least number of hands: 1,000 (meld_by_trump_length and auction_summary
    250, pass_value and widow_value 500, the --dd studies 100); a run, or a partial run with
    --allow-partial, that has fewer leaves those out and names them.

    Studies (those that apply to the run's rules): meld_by_trump_length, meld_distribution,
    partner_meld, pass_value, bid_vs_meld, go_set, bidding_side_tricks, auction_summary;
    three-hand: widow_value; two-hand: meld_laid, early_tricks, score_margin; games runs
    (run --games): win_probability.

    \b
    Examples:
      pinochle-sim report results/runs/partnership-seed0-1000000
      pinochle-sim report r/j7 --out blog/ --format png --only go_set --only pass_value
      pinochle-sim report results/runs/two-hand-seed0-1000000
      pinochle-sim report r/interrupted --allow-partial --format pdf
    """
    fmts = tuple(f.strip().lower() for f in formats.split(",") if f.strip())
    only = tuple(o.replace("-", "_") for o in only)  # go-set as chart spells it: go_set
    # Beside the run, not inside it: Parquet readers scan the whole run folder.
    target = local_out(out, "report") or beside(run_dir, "-report")
    try:
        md = pinochle_sim.write_report(
            run_dir,
            target,
            fmts,
            list(only) or None,
            progress=lambda name: click.echo(f"  {name}", err=True),
            allow_partial=allow_partial,
            strict=True,
            threads=threads,
        )
    except pinochle_sim.SelfCheckError as e:
        if strict:
            raise click.ClickException(str(e)) from None
        click.echo(f"warning: {e}", err=True)
        md = e.path
    except KeyboardInterrupt:
        if not Path(target).exists():
            raise click.ClickException(NOTHING_WRITTEN) from None
        raise click.ClickException(
            f"interrupted: the report in {str(target)!r} is incomplete (it has no report.md); "
            "the same command writes it whole"
        ) from None
    click.echo(f"report written: {md}  (open it in any Markdown viewer)")


@click.command("compare")
@click.argument("a", type=PolicySpecParam())
@click.argument("b", type=PolicySpecParam())
@count_option
@seed_option
@rules_option
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Output folder [default: results/compare/<A>-vs-<B>-seed<S>-<N>].")  # fmt: skip
@click.option("--overwrite", is_flag=True, help="Replace an existing output folder.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("--by", "by", multiple=True, type=click.Choice(("bid", "trump-length")),
              help="Also break A's gain down by winning bid or by the bidding side's trumps "
              "(repeatable): by_bid.csv and its chart, and the lines printed.")  # fmt: skip
@click.option(
    "--min-n",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="The least deals in a --by bin (consecutive values are merged).",
)
@threads_option
@cluster_option
@user_errors
def compare_command(
    a: tuple[str, PolicySet],
    b: tuple[str, PolicySet],
    hands_text: str,
    seed: int,
    ruleset: Ruleset,
    out: str | None,
    overwrite: bool,
    resume: bool,
    by: tuple[str, ...],
    min_n: int,
    threads: int | None,
    cluster: str | None,
) -> None:
    """Duplicate tournament of policy sets A and B: every deal is played once per side, A and
    B swapping seats (three-hand: A in each seat in turn, B in the others), so card luck
    cancels. Prints A's gain per deal with a 95% CI, make, set and
    stuck rates and mean bid of each; writes pairs.parquet (one row per deal), summary.csv/json
    and a chart.

    A and B: `default`, KIND=NAME and KIND.PARAM=VALUE items joined by commas, or a TOML file
    (`play = "counting"` and a [params] table with e.g. `bid.margin = 20`).

    \b
    Examples:
      pinochle-sim compare play=counting default --hands 1e5
      pinochle-sim compare bid.margin=20 bid.margin=-20 --hands 2e5 --seed 3
      pinochle-sim compare meld=random default --rules two-hand
      pinochle-sim compare play=counting default --hands 1e7 --cluster tcp://10.0.0.5:8786
      pinochle-sim compare bid.margin=20 default --hands 1e5 --by bid --by trump-length
      pinochle-sim compare openspiel:ismcts:200 play=counting --hands 100
      pinochle-sim compare play=pimc play=counting --hands 2000 --resume

    A side may be openspiel:ismcts[:N] (OpenSpiel's IS-MCTS, N simulations a decision, 100 by
    default; the [agents] extra): played here a decision at a time, CPU per decision printed.

    Search players (pimc) are slow: the match times its first deals and prints the estimate,
    and keeps each finished deal in OUT.partial until it is done, so that after a Ctrl-C the
    same command with --resume plays only the rest.
    """
    n = parse_count(hands_text)
    if a[0] == b[0]:  # the same spec twice: a valid control match, its sides told apart
        a, b = (f"{a[0]} (A)", a[1]), (f"{b[0]} (B)", b[1])
    if a[1] is None or b[1] is None:  # an OpenSpiel agent: the stepwise table, this process
        agent_compare(a, b, n, seed, ruleset, out, overwrite, by, cluster)
        return
    label = f"{a[0]}-vs-{b[0]}"
    target = local_out(out, "match") or pinochle_sim.default_study_out(
        "compare", label, ruleset, seed, n
    )
    pinochle_sim.check_output(target, overwrite, "pairs.parquet")
    pinochle_sim.check_match(ruleset, a[1], b[1], n, seed)
    if by and not pinochle_sim.engine_inputs(ruleset).engine.has_auction:
        raise click.ClickException(f"--by breaks down auctions: rules {ruleset.name!r} have none")
    keep = _keep(target, pinochle_sim.keeps_deals(ruleset, a[1], b[1]))
    total = pinochle_sim.plays_per_deal(ruleset) * n
    with observed_work(cluster, threads, total) as (b_, seen), kept_on_interrupt(keep, n, "match"):
        match = pinochle_sim.compare(ruleset, a, b, n, seed, threads=threads, backend=b_,
                                     observer=seen, keep=keep, resume=resume,
                                     restart=overwrite)  # fmt: skip
        tables = {k: pinochle_sim.gain_by(match.pairs, k, min_n) for k in dict.fromkeys(by)}
        path = pinochle_sim.write_match(match, target, overwrite, tables)  # Ctrl-C: kept too
    if keep:
        pinochle_sim.discard_kept(keep)
    for line in match.lines():
        click.echo(line)
    for table in tables.values():
        for line in pinochle_sim.gain_lines(table, a[0], b[0]):
            click.echo(line)
    extra = "".join(f", by_{k.replace('-', '_')}.csv and .png" for k in tables)
    click.echo(
        f"written: {path}/pairs.parquet, summary.csv, summary.json, compare.png and .svg{extra}"
    )


@click.command("sweep")
@click.option(
    "--param",
    "param_text",
    required=True,
    metavar="KIND.NAME=START:STOP:STEP",
    help="The parameter and its values, e.g. bid.margin=-40:40:10 or bid.risk=60,75,90.",
)
@click.option("--base", type=PolicySpecParam(), default="default", show_default=True,
              help="Policies the swept parameter is set on.")  # fmt: skip
@click.option("--against", type=PolicySpecParam(), default="default", show_default=True,
              help="The fixed opponent.")  # fmt: skip
@count_option
@seed_option
@rules_option
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Output folder [default: results/sweep/<rules>-<param>-seed<S>-<N>].",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing output folder.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@threads_option
@cluster_option
@user_errors
def sweep_command(
    param_text: str,
    base: tuple[str, PolicySet],
    against: tuple[str, PolicySet],
    hands_text: str,
    seed: int,
    ruleset: Ruleset,
    out: str | None,
    overwrite: bool,
    resume: bool,
    threads: int | None,
    cluster: str | None,
) -> None:
    """Sweep one policy parameter: each value plays a duplicate match against a fixed opponent
    on the same deals. Prints and charts the gain per deal, mean score, make rate and mean bid
    against the parameter, with 95% confidence bands; writes sweep.csv and diffs.parquet.

    \b
    Examples:
      pinochle-sim sweep --param bid.margin=-40:40:10 --hands 1e5
      pinochle-sim sweep --param bid.risk=60,75,90 --base bid=calibrated --against default
      pinochle-sim sweep --param bid.margin=-40:40:10 --hands 1e6 --cluster local:2
      pinochle-sim sweep --param play.worlds=8,16,32 --base play=pimc --hands 300 --resume

    Search players are timed, and their finished deals kept, as in compare (--resume).
    """
    try:
        key, values = pinochle_sim.parse_range(param_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--param") from None
    n = parse_count(hands_text)
    target = local_out(out, "sweep") or pinochle_sim.default_study_out(
        "sweep", key, ruleset, seed, n
    )
    pinochle_sim.check_output(target, overwrite, "sweep.csv")
    total = pinochle_sim.plays_per_deal(ruleset) * n * len(values)
    keep = _keep(target, pinochle_sim.keeps_deals(ruleset, base[1], against[1]))
    interrupted = kept_on_interrupt(keep, n * len(values), "sweep")
    with observed_work(cluster, threads, total) as (backend, seen), interrupted:
        table, diffs = pinochle_sim.sweep(
            ruleset, base[1], key, values, against[1], n, seed, threads=threads,
            backend=backend, observer=seen, keep=keep, resume=resume, restart=overwrite,
        )  # fmt: skip
        meta = pinochle_sim.sweep_meta(ruleset, key, values, base, against, n, seed)
        path = pinochle_sim.write_sweep(table, diffs, meta, target, overwrite)  # Ctrl-C: kept too
    if keep:
        pinochle_sim.discard_kept(keep)
    for line in pinochle_sim.sweep_lines(table, key, (base[0], against[0])):
        click.echo(line)
    click.echo(f"written: {path}/sweep.csv, sweep.json, diffs.parquet, sweep.png and .svg")


COMMANDS = (report, compare_command, sweep_command)
