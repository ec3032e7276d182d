"""Run folders: ``run`` (simulate hands or games into Parquet), ``info`` (check a folder and show
its provenance) and ``export`` (one decoded file for other tools)."""

from __future__ import annotations

import json
import sys

import click

import pinochle_sim
from pinochle_sim import (
    DEFAULT_PART_SIZE,
    EXPORT_FORMATS,
    Ruleset,
    RunSpec,
    Seating,
    check_run,
    export_run,
    location,
    provenance_lines,
    read_every_row_group,
    read_provenance,
    run,
)
from pinochle_sim.cli.options import (
    RunLocation,
    cluster_option,
    lasting_out,
    local_out,
    make_policies,
    observed_work,
    parse_count,
    parse_fixes,
    policy_options,
    rules_option,
    seed_option,
    threads_option,
    user_errors,
)

INTERRUPTED = (
    "interrupted: every finished part is kept; rerun the same command with --resume to "
    "complete the run"
)


@click.command("run")
@click.option(
    "--hands",
    "hands_text",
    default=None,
    metavar="N",
    help="Number of hands: 1e6, 1_000_000 or 1000000.",
)
@click.option(
    "--games",
    "games_text",
    default=None,
    metavar="N",
    help="Instead of single hands, play N whole games to the rules' target (one row per "
    "deal, with running totals and the game's winner).",
)
@seed_option
@rules_option
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Output folder, or a store's URL such as s3://bucket/runs/p0 (any fsspec URL, its "
    "driver installed) [default: results/runs/<rules>-seed<S>-<N>/].",
)
@threads_option
@policy_options
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="SEAT=POLICIES",
    help="Give one seat policies of its own, put over the run's: --seat '1=play=counting' "
    "(items as in compare, or a policy TOML file; repeatable).",
)
@click.option(
    "--bidding-side",
    metavar="POLICIES",
    default=None,
    help="Policies of the side that wins the auction, from the pass on (play=pimc): "
    "put over the run's; bidding stays the run's, since no one knows the roles before it ends.",
)
@click.option(
    "--defenders",
    metavar="POLICIES",
    default=None,
    help="Policies of the side(s) that did not win the auction (play=greedy), as --bidding-side.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Finish an interrupted run in --out (every part kept is checked; damaged ones are "
    "set aside in _damaged/ and simulated again).",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing run folder.")
@click.option(
    "--fix",
    "fix",
    multiple=True,
    metavar="SEAT=CARDS",
    help="Fix cards in a seat's hand, e.g. --fix '0=AS AS 10S KS' (a full hand or some known "
    "cards; repeatable). The other cards are dealt at random.",
)
@click.option(
    "--dealer",
    type=int,
    default=None,
    help="Fix the dealer seat [default: hand index mod players].",
)
@click.option(
    "--force",
    is_flag=True,
    help="Start even when the estimated size is more than the free disk space.",
)
@click.option(
    "--dd",
    is_flag=True,
    help="Also solve every hand double dummy from the start of trick play (columns dd_points "
    "and dd_made; two-hand dd_points_0/1): slow, seconds a partnership deal per thread; the "
    "estimate is printed first. Conceded hands are solved too.",
)
@click.option("--quiet", is_flag=True, help="No estimate, compile notice, progress or summary.")
@cluster_option
@click.option(
    "--part-size",
    type=click.IntRange(1, 1 << 22),
    default=None,
    help=f"Hands per part file [default: {DEFAULT_PART_SIZE:,}, 512 with --dd; slow players: "
    "about a minute of work a part]. Records never depend on it.",
)
@user_errors
def run_command(
    hands_text: str | None,
    games_text: str | None,
    seed: int,
    ruleset: Ruleset,
    out: str | None,
    threads: int | None,
    params: tuple[str, ...],
    resume: bool,
    overwrite: bool,
    fix: tuple[str, ...],
    dealer: int | None,
    force: bool,
    quiet: bool,
    cluster: str | None,
    part_size: int | None,
    dd: bool,
    seats: tuple[str, ...],
    bidding_side: str | None,
    defenders: str | None,
    **policy_names: str,
) -> None:
    """Simulate N seeded hands into a Parquet dataset (one row per hand).

    The same seed, rules and policies give the same records whatever --threads or resume
    history. Before it starts, the run's size and time are estimated (a run the free disk
    space cannot hold is refused unless --force) and a first run compiles the engine (about
    half a minute, announced). Read the result with pandas, pyarrow, DuckDB or polars
    (docs/records.md); `pinochle-sim schema` lists the columns, `pinochle-sim info DIR`
    checks the folder and prints its provenance, `pinochle-sim export DIR --decoded` writes
    the cards as text.

    \b
    Examples:
      pinochle-sim run --hands 1e6
      pinochle-sim run --hands 2e6 --seed 7 --rules joedog --param bid.margin=20 --out r/j7
      pinochle-sim run --hands 2e6 --seed 7 --rules joedog --param bid.margin=20 --out r/j7 --resume
      pinochle-sim run --hands 1e6 --rules two-hand
      pinochle-sim run --games 1e5 --rules two-hand
      pinochle-sim run --hands 1e5 --fix '0=AS AS 10S KS QS JS 9S KH QH AD AC 9C' --dealer 3
      pinochle-sim run --hands 1e8 --cluster tcp://10.0.0.5:8786 --out /shared/runs/p0
      pinochle-sim run --hands 1e6 --cluster local:2
      pinochle-sim run --hands 2000 --dd --out results/runs/dd2000
      pinochle-sim run --hands 2000 --bidding-side play=pimc --defenders play=greedy
      pinochle-sim run --hands 1e5 --seat 0=play=counting --seat 2=play=counting
    """
    if (hands_text is None) == (games_text is None):
        raise click.UsageError("give either --hands N or --games N")
    games = games_text is not None
    n = parse_count(games_text if games else hands_text, "--games" if games else "--hands")
    out = lasting_out(out, "run")
    policies = make_policies(policy_names, params)
    seating = Seating.parse(policies, seats, bidding_side, defenders)
    spec = RunSpec(
        n, seed, ruleset, policies, games=games, fixed=parse_fixes(fix), dealer=dealer, dd=dd,
        part_size=part_size or 0, seating=seating,
    )  # fmt: skip
    unit = "deals" if spec.dd else spec.unit  # a --dd run's pace is its solver's: deals solved
    with observed_work(cluster, threads, n, unit, quiet, INTERRUPTED) as (backend, seen):
        summary = run(spec, out, resume=resume, overwrite=overwrite, force=force,
                      threads=threads, backend=backend, observer=seen)  # fmt: skip
    if not quiet:
        for line in summary.lines():
            click.echo(line)


@click.command()
@click.argument("path", type=RunLocation())
@click.option(
    "--verify",
    is_flag=True,
    help="Also read every row group of every part (finds damage inside the data; done anyway "
    "for runs up to 256 MB); exit status 1 unless the run is complete and whole.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the check and provenance as JSON.")
@user_errors
def info(path: str, as_json: bool, verify: bool) -> None:
    """Check a run folder against its manifest and print its provenance (PATH may also be one
    part file).

    The parts on disk are compared with the manifest: part count, hand ranges, row counts,
    readable footers and provenance; a run of up to 256 MB (about 5 million hands) is also read
    in full, a larger one with --verify. What is missing or damaged is named, with the command
    that mends it.

    \b
    Examples:
      pinochle-sim info results/runs/partnership-seed0-1000000
      pinochle-sim info results/runs/partnership-seed0-1000000 --verify
    """
    p = location(path)
    check = check_run(p, True if verify else None) if p.is_dir() else None
    meta = check.provenance() if check is not None else read_provenance(p)
    if as_json:
        doc = dict(meta) | ({"check": check.to_dict()} if check is not None else {})
        click.echo(json.dumps(doc, indent=1))
    else:
        if check is not None:
            for line in check.lines():
                click.echo(line)
            if check.unit == "games" and check.good and not check.damaged:
                click.echo(pinochle_sim.games_line(str(check.path)))
        elif verify:
            read_every_row_group(p)
            click.echo(f"part file {p.name}: every row group reads")
        for line in provenance_lines(meta):
            click.echo(line)
    if verify and check is not None and not check.complete:
        sys.exit(1)


@click.command("export")
@click.argument("run_dir", type=RunLocation(file_okay=False))
@click.option(
    "--decoded",
    is_flag=True,
    help='Hands as card strings ("AS 10S KH ..."), trump as a letter, seats as names '
    "(South, West, North, East; seat 0..2 without partners), the stock in draw order.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default=None,
    help="Output format [default: from the --out suffix, else csv].",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Output file [default: RUN_DIR-decoded.csv (or .parquet), beside the run].",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing output file.")
@user_errors
def export_command(
    run_dir: str, decoded: bool, fmt: str | None, out: str | None, overwrite: bool
) -> None:
    """Write a run as one CSV or Parquet file, for tools outside Python.

    Without --decoded the columns are as stored (docs/records.md). With --decoded, packed
    hands become card strings, trump a letter and seats names, so spreadsheets and SQL need no
    decoder. Parts are read and written one at a time (memory stays small for any run).

    \b
    Examples:
      pinochle-sim export results/runs/partnership-seed0-1000000 --decoded
      pinochle-sim export runs/j7 --decoded --out j7.parquet
      duckdb -c "select bidder, avg(bid) from 'j7.parquet' group by 1"
    """
    written = export_run(run_dir, local_out(out, "export"), fmt, decoded, overwrite)
    click.echo(f"{written.rows:,} rows written to {written.path} ({written.format})")


COMMANDS = (run_command, info, export_command)
