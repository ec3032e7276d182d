"""``compare`` with an agent of another framework on a side (``openspiel:ismcts``): the match
is played at the stepwise table by the library (:mod:`pinochle_sim.openspiel`)."""

from __future__ import annotations

import click

import pinochle_sim
from pinochle_sim import Ruleset, engine_inputs
from pinochle_sim.cli.options import local_out, observed_work


def agent_compare(a: tuple, b: tuple, n: int, seed: int, ruleset: Ruleset, out: str | None,
                   overwrite: bool, by: tuple[str, ...], cluster: str | None) -> None:  # fmt: skip
    """``compare`` with an OpenSpiel agent on a side: a duplicate match at the stepwise table
    (Python, one decision at a time, on this process)."""
    if cluster or by:
        raise click.ClickException(
            "an OpenSpiel agent plays in this process, one decision at a time: --cluster and "
            "--by are for matches of our policy sets"
        )
    label = f"{a[0]}-vs-{b[0]}"
    target = local_out(out, "match") or pinochle_sim.default_study_out(
        "compare", label, ruleset, seed, n
    )
    sides = engine_inputs(ruleset).rules.teams
    with observed_work(None, None, n, "deals") as (_, seen):
        pairs, summary = pinochle_sim.agent_match(
            ruleset.name if ruleset.name in pinochle_sim.PRESETS else ruleset, a, b, n, seed,
            progress=seen.update,
        )  # fmt: skip
    path = pinochle_sim.write_agent_match(pairs, summary, target, overwrite)
    for line in pinochle_sim.match_lines(summary):
        click.echo(line)
    click.echo(f"written: {path}/pairs.csv, summary.csv, summary.json ({sides} plays a deal)")
