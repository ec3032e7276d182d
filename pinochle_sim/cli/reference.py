"""Reference tables: the rule presets (``rules``), the policies (``policies``) and the record
columns (``schema``)."""

from __future__ import annotations

import click

from pinochle_sim import (
    KINDS,
    Ruleset,
    dumps_ruleset,
    policies_markdown,
    policies_text,
    presets_text,
    resolve_rules,
    ruleset_text,
    schema_text,
)
from pinochle_sim.cli.options import rules_option, user_errors


@click.command()
@click.argument("name", required=False)
@click.option("--toml", "as_toml", is_flag=True, help="Print the ruleset as TOML (loads back).")
@user_errors
def rules(name: str | None, as_toml: bool) -> None:
    """List the rule presets, or show one (every key and its meld table with values); NAME
    may also be a TOML file.

    Every rule is explained in docs/rules.md (section 2: the presets, section 3: the meld
    tables, section 9: every TOML key).

    \b
    Examples:
      pinochle-sim rules
      pinochle-sim rules joedog
      pinochle-sim rules joedog --toml > my-rules.toml
    """
    if name is None:
        if as_toml:
            raise click.UsageError("--toml needs a preset NAME")
        click.echo(presets_text())
        return
    r = resolve_rules(name)
    if as_toml:
        click.echo(dumps_ruleset(r), nl=False)
    else:
        click.echo(ruleset_text(r, name))


@click.command("policies")
@click.argument("kind", required=False, type=click.Choice(list(KINDS)))
@click.option("--markdown", is_flag=True, help="Print Markdown (docs/policies.md).")
def policies_command(kind: str | None, markdown: bool) -> None:
    """List every policy: what it does, and each parameter's default, range, unit and meaning.

    KIND limits the list to one kind of decision. Choose policies with --KIND-policy NAME and
    set parameters with --param KIND.NAME=VALUE on run, show, compare and sweep.

    \b
    Examples:
      pinochle-sim policies
      pinochle-sim policies bid
    """
    if markdown:
        if kind:
            raise click.UsageError("--markdown prints every kind; leave out KIND")
        click.echo(policies_markdown(), nl=False)
        return
    click.echo(policies_text((kind,) if kind else KINDS))


@click.command()
@rules_option
@click.option("--games", is_flag=True, help="The records of a `run --games` (game columns).")
@click.option("--dd", is_flag=True, help="The records of a `run --dd` (double-dummy columns).")
@user_errors
def schema(ruleset: Ruleset, games: bool, dd: bool) -> None:
    """Print every column of the per-hand records: name, dtype, meaning.

    The columns depend on the table: per-seat columns for each seat, team columns per side.

    \b
    Examples:
      pinochle-sim schema
      pinochle-sim schema --rules three-hand
      pinochle-sim schema --rules two-hand --games
      pinochle-sim schema --dd
    """
    if games and dd:
        raise click.UsageError("--dd runs are hand runs: give --games or --dd, not both")
    click.echo(schema_text(ruleset, games, dd))


COMMANDS = (rules, policies_command, schema)
