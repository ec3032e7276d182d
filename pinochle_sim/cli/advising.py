"""``advise``: what to bid with a hand (the library's :func:`pinochle_sim.advise`), its chart
and, with --out, its deals as a run folder."""

from __future__ import annotations

import json
import os

import click

import pinochle_sim
from pinochle_sim import (
    Ruleset,
    engine_inputs,
    holds_files,
    location,
)
from pinochle_sim.cli.options import (
    cluster_option,
    kept_on_interrupt,
    lasting_out,
    make_policies,
    observed_work,
    parse_count,
    policy_options,
    rules_option,
    seed_option,
    threads_option,
    user_errors,
)


@click.command("advise")
@click.argument("cards", nargs=-1, required=True)
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat.")
@click.option("--dealer", type=int, default=None, help="The dealer seat [default: rotates].")
@rules_option
@click.option(
    "--hands",
    "hands_text",
    default="20000",
    show_default=True,
    metavar="N",
    help="Simulated deals per trump suit (1e5 gives P(make) CIs of about ±0.3 percentage points).",
)
@seed_option
@click.option(
    "--risk",
    type=int,
    default=75,
    show_default=True,
    help="Report the highest bid made at least this percentage of the time (1..99).",
)
@click.option("--upcard", default=None, help="Two-hand: the turned-up trump card, e.g. 9H.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Also write the deals with your hand fixed as a normal run folder (auction by the "
    "policies, nothing forced).",
)
@click.option(
    "--chart",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the P(make) chart to this path (PNG and SVG; no suffix needed).",
)
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace the --out folder if it already exists, and start an interrupted advice of "
    "search players again.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Finish an advice of search players (pimc) that was interrupted: the deals it "
    "finished are kept in results/advise/ until it is done, and only the others are played.",
)
@threads_option
@cluster_option
@policy_options
@user_errors
def advise_command(
    cards: tuple[str, ...],
    seat: int,
    dealer: int | None,
    ruleset: Ruleset,
    hands_text: str,
    seed: int,
    risk: int,
    upcard: str | None,
    as_json: bool,
    out: str | None,
    chart: str | None,
    overwrite: bool,
    resume: bool,
    threads: int | None,
    cluster: str | None,
    params: tuple[str, ...],
    **policy_names: str,
) -> None:
    """What should I bid with this hand? Simulates deals with your cards fixed in your seat.

    For each trump: your meld now, the meld after the pass (mean, 10/50/90%), the trick points
    you can expect as the bidder, and for each bid P(make) with a 95% CI and the expected hand
    score. The other seats play the chosen policies: the odds are against this table, not
    against perfect play (docs/advise.md defines "made"). Two-hand: expected deal score and
    P(win the deal), given the up-card if you pass --upcard.

    \b
    Examples:
      pinochle-sim advise AS AS 10S KS QS JS 9S KH QH AD AC 9C
      pinochle-sim advise "AH AH 10H KH QH JH 9D KC QC JC 9C KS" --seat 1 --risk 60 --json
      pinochle-sim advise "AS AS AH AH 10H KH QH JH 9D KC QC JC" --rules two-hand --upcard 9H
      pinochle-sim advise AS AS 10S KS QS JS 9S KH QH AD AC 9C --hands 1e6 --cluster local:2
      pinochle-sim advise AS AS 10S KS QS JS 9S KH QH AD AC 9C --play-policy pimc --hands 300

    With a search player (--play-policy pimc) the advice is timed on its first deals, says what
    it will take, and keeps each finished step's deals in results/advise/ until it is done:
    after Ctrl-C, the same command with --resume plays only the rest.
    """
    if not 1 <= risk <= 99:
        raise click.BadParameter(f"a percentage between 1 and 99, got {risk}", param_hint="--risk")
    n = parse_count(hands_text)
    policies = make_policies(policy_names, params)
    if chart and not engine_inputs(ruleset, policies).engine.has_auction:
        raise click.ClickException(
            f"--chart draws P(make) against the bid, and rules {ruleset.name!r} have no auction"
        )
    if chart and os.path.splitext(chart)[1].lower() in (".png", ".svg", ".pdf"):
        chart = os.path.splitext(chart)[0]  # the chart is written as PNG and SVG
    out = lasting_out(out, "run folder")
    if chart:
        folder = os.path.dirname(os.path.abspath(chart))
        if not os.path.isdir(folder):
            raise click.ClickException(f"no such folder for the chart: {folder!r}")
    if out and not overwrite and holds_files(location(out)):  # before the deals, not after
        raise click.ClickException(f"{out!r} already exists: pass --overwrite to replace it")
    total = pinochle_sim.hands_needed(ruleset, n)
    hand = " ".join(cards)
    keep = pinochle_sim.default_keep(hand, seat, dealer, ruleset, n, seed, policies, upcard)
    interrupted = kept_on_interrupt(keep, pinochle_sim.advised_deals(ruleset, n), "advice")
    with observed_work(cluster, threads, total, quiet=as_json) as (backend, seen), interrupted:
        a = pinochle_sim.advise(hand, seat, dealer, ruleset, n, seed, risk, policies, upcard,
                                threads=threads, backend=backend, observer=seen, keep=keep,
                                resume=resume, restart=overwrite)  # fmt: skip
        files = []
        if chart and a.two_hand is None:
            files = pinochle_sim.advice_chart(a, chart)
        if out:
            spec = pinochle_sim.RunSpec(n, seed, ruleset, policies, fixed={seat: a.cards},
                                        dealer=dealer)  # fmt: skip
            pinochle_sim.run(spec, out, overwrite=overwrite, threads=threads, backend=backend)
    if keep:
        pinochle_sim.discard_kept(keep)
    if as_json:
        click.echo(json.dumps(a.to_json()))
        return
    for line in a.lines():
        click.echo(line)
    for f in files:
        click.echo(f"chart: {f}")
    if out:
        click.echo(f"run folder: {out} ({n:,} hands with seat {seat}'s hand fixed)")


COMMANDS = (advise_command,)
