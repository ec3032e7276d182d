"""The ``pinochle-sim`` command line: a thin click layer over the library.

Every command parses, calls one library function and prints. User mistakes become a one-line
``click.ClickException``/``BadParameter``, never a traceback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import click

from pinochle_sim.core.cards import decode_hand, encode_hand, parse_suit
from pinochle_sim.core.version import __version__
from pinochle_sim.engines import engine_for
from pinochle_sim.policies import KINDS, POLICY_KINDS, REGISTRY, PolicySet, parse_policy_spec
from pinochle_sim.policies.registry import policies_markdown, policies_text
from pinochle_sim.rules import PRESETS, RulesError, Ruleset, dumps_ruleset, resolve_rules
from pinochle_sim.rules.meld import score_meld
from pinochle_sim.runs import bench as bench_stages
from pinochle_sim.runs.backend import InputsSpec
from pinochle_sim.runs.bench_solver import solver_times
from pinochle_sim.runs.dataset import (
    RunCheck,
    check_run,
    holds_files,
    manifest_provenance,
    part_name,
    read_columns,
    read_every_row_group,
    read_provenance,
    ruleset_of,
)
from pinochle_sim.runs.export import EXPORT_FORMATS, export_run
from pinochle_sim.runs.parallel import MAX_THREADS
from pinochle_sim.runs.parallel import threads as using
from pinochle_sim.runs.records import schema_text
from pinochle_sim.runs.runner import DEFAULT_PART_SIZE, RunEstimate
from pinochle_sim.runs.runner import run as run_sim
from pinochle_sim.runs.show import format_hand, hand_record
from pinochle_sim.runs.simulate import MAX_SEED, engine_inputs
from pinochle_sim.runs.solve import format_deal, solve_deal
from pinochle_sim.runs.storage import StorageError, UrlPath, beside, is_url, location
from pinochle_sim.runs.warmup import warm_up
from pinochle_sim.solver import Position, solve
from pinochle_sim.solver.text import format_result

EXIT_BROKEN_PIPE = 141
"""Exit status when the reader of our output goes away (``... | head``): 128 + SIGPIPE, what a
shell reports for a standard tool stopped the same way."""


def _user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library ``ValueError``s (bad cards, bad rules) into one-line click errors."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (ValueError, RulesError) as e:
            raise click.ClickException(str(e)) from None
        except BrokenPipeError:  # the reader went away: the entry point exits quietly
            raise
        except OSError as e:  # unwritable or impossible paths, a store's refusal
            if e.strerror:
                where = f": {e.filename}" if e.filename else ""
                raise click.ClickException(f"{e.strerror}{where}") from None
            what = "no such file or folder" if isinstance(e, FileNotFoundError) else ""
            text = str(e).strip().splitlines()[0] if str(e).strip() else ""
            raise click.ClickException(
                ": ".join(x for x in (what or type(e).__name__, text) if x)
            ) from None

    return wrapper


class RulesParam(click.ParamType):
    """A preset name or a TOML file path, resolved to a :class:`Ruleset`."""

    name = "NAME|FILE"

    def convert(self, value: Any, param: Any, ctx: Any) -> Ruleset:
        if isinstance(value, Ruleset):
            return value
        try:
            return resolve_rules(value)
        except (ValueError, RulesError) as e:
            self.fail(str(e), param, ctx)


def rules_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--rules",
        "ruleset",
        type=RulesParam(),
        default="partnership",
        show_default=True,
        help="Preset name (see `pinochle-sim rules`) or a TOML rules file.",
    )(func)


def seed_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--seed",
        type=click.IntRange(0, 2**63 - 1),
        default=0,
        show_default=True,
        help="Seed of the deals (hand i of a seed is always the same deal).",
    )(func)


def cluster_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--cluster",
        default=None,
        metavar="ADDRESS|local:N",
        help="Run the work as tasks on a Dask cluster: a scheduler address (tcp://host:8786) "
        "or local:N for N worker processes here; the same results as without it (needs "
        'pip install "pinochle-sim[cluster]"; README, "Running on a cluster").',
    )(func)


CLUSTER_INSTALL = 'pip install "pinochle-sim[cluster]"'


@contextlib.contextmanager
def cluster_backend(
    address: str | None, threads: int | None = None, quiet: bool = False
) -> Iterator[Any]:
    """The Dask backend of ``--cluster`` (None without it), closed on exit; its scheduler,
    workers and dashboard link are printed to stderr unless ``quiet``."""
    if address is None:
        yield None
        return
    if threads is not None:
        raise click.UsageError(
            "--threads is for work on this process; with --cluster each worker runs one task "
            "per thread it has (dask worker --nthreads)"
        )
    # Dask is an optional extra: the cluster module (which imports it) loads only here.
    try:
        from pinochle_sim.runs import cluster
    except ImportError as e:
        raise click.ClickException(
            f"--cluster needs Dask, which is not installed ({e.name or e}): {CLUSTER_INSTALL}"
        ) from None
    backend = cluster.connect(address)
    with backend:
        if not quiet:
            click.echo(f"cluster: {backend.describe()}", err=True)
        yield backend


def threads_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--threads",
        type=click.IntRange(1, MAX_THREADS),
        default=None,
        help=f"Worker threads, 1 to {MAX_THREADS} (numba's limit here, the number of cores "
        "unless NUMBA_NUM_THREADS says otherwise) [default: all].",
    )(func)


_COMMAND = "pinochle_sim.command"
"""Where the group notes the command it runs (``ctx.meta``)."""


def _one_line(e: click.UsageError, path: str) -> click.UsageError:
    """The usage error ``e`` as one line that says where the help is (``path --help``, unless
    the error knows its command); click itself prints the usage, a hint and a blank line before
    the error."""
    where = e.ctx.command_path if e.ctx is not None else path
    one = click.UsageError(f"{e.format_message()} (see '{where} --help')")
    one.exit_code = e.exit_code
    return one


class _Main(click.Group):
    """The command group. A usage error (an unknown option, a bad value) is one line that says
    where the help is. A reader that goes away (``pinochle-sim show ... | head``) ends any
    command quietly with the status a standard tool gets (141), not an error message."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as e:
            raise _one_line(e, self.name or "pinochle-sim") from None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:  # for a usage error that does not say its command
            ctx.meta[_COMMAND] = f"{ctx.command_path} {cmd.name}"
        return name, cmd, rest

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise _one_line(e, ctx.meta.get(_COMMAND, ctx.command_path)) from None
        except BrokenPipeError:
            _quiet_broken_pipe()
            ctx.exit(EXIT_BROKEN_PIPE)


@click.group(
    cls=_Main,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="pinochle-sim")
def main() -> None:
    """Monte Carlo simulation and strategy analysis for Pinochle.

    \b
    Example:
      pinochle-sim meld "AH 10H KH QH JH KH QH 9H 9H" --trump H
    """


@main.command()
@click.argument("name", required=False)
@click.option("--toml", "as_toml", is_flag=True, help="Print the ruleset as TOML (loads back).")
@_user_errors
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
        width = max(len(n) for n in PRESETS)
        for preset_name, r in PRESETS.items():
            click.echo(f"{preset_name:<{width}}  {r.description}")
        return
    r = resolve_rules(name)
    if as_toml:
        click.echo(dumps_ruleset(r), nl=False)
        return
    preset = PRESETS.get(r.name)
    origin = (
        f"preset {r.name!r}, explained in docs/rules.md sections 2 and 3"
        if preset == r
        else f"custom ruleset from {name} (keys: docs/rules.md section 9)"
    )
    click.echo(f"{r.name}: {r.description}\n{origin}")
    for key, value in _ruleset_rows(r):
        click.echo(f"  {key:<18} {value}")
    click.echo(f"\nmeld table {r.meld.name} (points; 0 = not a meld in this table):")
    for meld_name, cards, points in _meld_rows(r.meld):
        click.echo(f"  {meld_name:<24} {cards:<40} {points}")
    click.echo("(a double row of 0: the two single melds count instead; docs/rules.md 3)")


def _ruleset_rows(r: Ruleset) -> list[tuple[str, str]]:
    rows = []
    for f in dataclasses.fields(r):
        if f.name in ("name", "description", "source", "meld"):
            continue
        v = getattr(r, f.name)
        if f.name == "trick_points":
            ranks = ("9", "J", "Q", "K", "10", "A")
            v = " ".join(f"{k}={p}" for k, p in reversed(list(zip(ranks, v, strict=True))))
        rows.append((f.name, str(v)))
    rows.append(("meld", f"table {r.meld.name} (below)"))
    rows.append(("total_trick_points", str(r.total_trick_points)))
    return rows


_MELD_ROWS = (
    ("run", "run", "A 10 K Q J of trump"),
    ("run_extra_king", "run with extra king", "run + a second trump K, as one meld"),
    ("run_extra_queen", "run with extra queen", "run + a second trump Q, as one meld"),
    ("run_trump_marriage", "run with trump marriage", "run + a second trump K and Q"),
    ("double_run", "double run", "both runs (10 cards)"),
    ("trump_marriage", "trump marriage", "K + Q of trump, each pair"),
    ("marriage", "marriage", "K + Q of another suit, each pair"),
    ("dix", "dix", "9 of trump, each"),
    ("pinochle", "pinochle", "QS + JD"),
    ("double_pinochle", "double pinochle", "QS QS JD JD"),
)


def _meld_rows(t: Any) -> list[tuple[str, str, str]]:
    """Every meld of a table with its cards and points (docs/rules.md section 3)."""
    rows = [(label, cards, str(getattr(t, key))) for key, label, cards in _MELD_ROWS]
    for i, rank in enumerate(("aces", "kings", "queens", "jacks")):
        rows.append((f"{rank} around", f"one {rank[:-1]} of each suit", str(t.around[i])))
    for i, rank in enumerate(("aces", "kings", "queens", "jacks")):
        rows.append((f"eight {rank}", f"all eight {rank}", str(t.eight[i])))
    return rows


@main.command()
@click.argument("hand", nargs=-1, required=True)
@click.option("--trump", "-t", required=True, help="Trump suit S, H, D, C, or 'all'.")
@rules_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@_user_errors
def meld(hand: tuple[str, ...], trump: str, ruleset: Ruleset, as_json: bool) -> None:
    """Score the best meld of HAND for a trump suit.

    HAND is card notation, rank then suit: AS 10H KD QC JS 9H (T for 10, any case, commas or
    spaces, suit symbols allowed). Quote it or give cards as separate arguments.

    \b
    Examples:
      pinochle-sim meld "AH 10H KH QH JH KH QH 9H 9H" --trump H
      pinochle-sim meld AS AH AD AC QS JD --trump all --rules partnership-classic --json
    """
    text = " ".join(hand)
    hand_cards = decode_hand(encode_hand(text))
    if not hand_cards:
        raise click.BadParameter(
            f'{text!r} holds no cards: give cards such as "AH 10H KH QH JH"', param_hint="HAND"
        )
    suits = list(range(4)) if trump.strip().lower() == "all" else [parse_suit(trump)]
    results = [score_meld(text, s, ruleset) for s in suits]
    best = max(r.total for r in results)
    if as_json:
        doc = {"rules": ruleset.name, "hand": hand_cards, "results": [r.to_dict() for r in results]}
        if len(results) > 1:
            doc["best"] = [r.trump for r in results if r.total == best]
        click.echo(json.dumps(doc))
        return
    click.echo(f"hand ({len(hand_cards)} cards): {' '.join(hand_cards)}   rules: {ruleset.name}")
    for r in results:
        mark = "  <- best" if len(results) > 1 and r.total == best else ""
        click.echo(f"\ntrump {r.trump}: {r.total}{mark}")
        for m in r.melds:
            click.echo(f"  {m.points:>5}  {m.name:<26} {' '.join(m.cards)}")
        if not r.melds:
            click.echo("      0  (no meld)")


@main.command("exact")
@rules_option
@click.option(
    "--trump",
    "-t",
    default="S",
    show_default=True,
    help="Trump suit S, H, D or C (H and C give identical results; S and D hold the pinochle "
    "cards and differ slightly; the mean is the same for every suit).",
)
@click.option(
    "--hand-size",
    type=click.IntRange(1, 48),
    default=None,
    help="Cards in the hand [default: the rules' hand size, 12; three-hand 15].",
)
@click.option(
    "--length",
    "length",
    type=click.IntRange(0, 12),
    default=None,
    help="Print the whole distribution given this many trumps instead of the overall one.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (every length).")
@_user_errors
def exact_command(
    ruleset: Ruleset, trump: str, hand_size: int | None, length: int | None, as_json: bool
) -> None:
    """Exact distribution of a dealt hand's best meld, computed over every hand, not sampled.

    Counts are exact out of C(48, H) hands (H = 12; three-hand 15, the hand before the widow;
    two-hand: its 12 dealt cards under table D, melded all at once). Prints the mean and SD,
    the same by trump length with P(meld >= x | length), the chance of holding each meld kind
    (its cards are in the hand, whether or not the best meld uses them) and the distribution.
    Values are in the rules' points (joedog: /10). docs/exact.md explains the method.

    \b
    Examples:
      pinochle-sim exact
      pinochle-sim exact --rules joedog --trump H --json
      pinochle-sim exact --rules three-hand --length 7
    """
    # The analysis layer loads only for the commands that use it (see `report`).
    from pinochle_sim.analysis.exact import meld_distribution

    if as_json and length is not None:
        raise click.UsageError("--length is for the text output; --json holds every length")
    e = meld_distribution(ruleset, parse_suit(trump), hand_size)
    if as_json:
        click.echo(json.dumps(e.to_dict()))
        return
    for line in _exact_lines(e, ruleset.scale, length):
        click.echo(line)


def _exact_lines(e: Any, scale: int, length: int | None) -> list[str]:
    """The text report of an exact meld distribution."""
    cuts = [x // scale for x in (100, 250, 500)]
    lines = [
        f"exact meld distribution: rules {e.rules} (meld table {e.table}), "
        f"{e.hand_size}-card hands, trump {e.trump}",
        f"hands: C(48, {e.hand_size}) = {e.total:,}, every one counted (no sampling)",
        f"meld: mean {e.mean:.4f}, SD {e.sd:.4f}, median {e.quantile(0.5)}, "
        f"90th percentile {e.quantile(0.9)}; P(no meld) = {e.tail(0) - e.tail(1):.4%}",
        "",
        f"by trump length (cards of {e.trump} in the hand):",
        f"{'length':>6} {'hands':>17} {'P(length)':>10} {'mean':>8} {'SD':>8} {'p10':>5} "
        f"{'median':>6} {'p90':>5}" + "".join(f"{f'P(>={x})':>11}" for x in cuts),
    ]
    for L in e.by_length:
        g = e.given_length(L)
        q = [e.quantile(p, L) for p in (0.1, 0.5, 0.9)]
        lines.append(
            f"{L:>6} {g['count']:>17,} {g['p']:>10.3e} {g['mean']:>8.2f} {g['sd']:>8.2f} "
            f"{q[0]:>5} {q[1]:>6} {q[2]:>5}" + "".join(f"{e.tail(x, L):>11.3e}" for x in cuts)
        )
    lines += ["", "meld kinds held (the cards are in the hand, used by the best meld or not):"]
    width = max(len(k) for k in e.held)
    for kind, count in e.held.items():
        lines.append(f"  {kind:<{width}} {count / e.total:>11.4e}  ({count:,} hands)")
    dist, n = e.distribution(length)
    given = "" if length is None else f" given {length} trumps"
    lines += ["", f"distribution of the best meld{given}:",
              f"{'meld':>6} {'hands':>17} {'P(meld = x)':>12} {'P(meld >= x)':>13}"]  # fmt: skip
    left = n
    for v, c in dist.items():
        lines.append(f"{v:>6} {c:>17,} {c / n:>12.4e} {left / n:>13.4e}")
        left -= c
    return lines


def policy_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Shared options that choose the policies (``--bid-policy`` ...) and their parameters."""
    func = click.option(
        "--param",
        "params",
        multiple=True,
        metavar="KIND.NAME=VALUE",
        help="Policy parameter, e.g. bid.margin=20 (repeatable).",
    )(func)
    for kind in reversed(POLICY_KINDS):
        func = click.option(
            f"--{kind.name}-policy",
            type=click.Choice(list(REGISTRY[kind.name])),
            default=kind.default,
            show_default=True,
            help=kind.help,
        )(func)
    return func


def make_policies(names: dict[str, str], params: tuple[str, ...]) -> PolicySet:
    """The policy set of the ``--KIND-policy`` options (``names``: ``{"bid_policy": ...}``)."""
    chosen = {kind: names.get(f"{kind}_policy") for kind in KINDS}
    try:
        return PolicySet.from_options(list(params), **chosen)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--param") from None


MAX_SHOWN = 10_000
"""Hands ``show`` prints in one call (each is traced and decoded one by one)."""


def parse_hand_spec(specs: tuple[str, ...]) -> list[int]:
    """``--hand 3 --hand 10:12`` -> [3, 10, 11]. Every bound is checked, and the total counted,
    before a single index is listed (``0:2000000000`` fails at once)."""
    spans: list[tuple[int, int]] = []
    for spec in specs:
        try:
            if ":" in spec:
                a, b = spec.split(":", 1)
                lo, hi = int(a), int(b)
                if hi <= lo:
                    raise ValueError
            else:
                lo = int(spec)
                hi = lo + 1
        except ValueError:
            raise click.BadParameter(
                f"{spec!r} is not a hand index or a range A:B with A < B", param_hint="--hand"
            ) from None
        if not (lo >= 0 and hi <= MAX_SEED):
            raise click.BadParameter(
                f"{spec!r}: hand indices must be between 0 and 2**63 - 2", param_hint="--hand"
            )
        spans.append((lo, hi))
    total = sum(hi - lo for lo, hi in spans)
    if total > MAX_SHOWN:
        raise click.BadParameter(
            f"{total:,} hands asked for; at most {MAX_SHOWN:,} can be shown at once (use "
            "`pinochle-sim run` for more)",
            param_hint="--hand",
        )
    return [h for lo, hi in spans for h in range(lo, hi)]


@main.command()
@seed_option
@click.option(
    "--hand",
    "hands",
    multiple=True,
    default=("0",),
    show_default=True,
    help="Hand index, or a range A:B (B excluded); repeatable.",
)
@click.option(
    "--dealer",
    type=click.IntRange(0, 3),
    default=None,
    help="Fix the dealer seat (default: hand index mod the number of players).",
)
@rules_option
@policy_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand, one per line.")
@_user_errors
def show(
    seed: int,
    hands: tuple[str, ...],
    dealer: int | None,
    ruleset: Ruleset,
    params: tuple[str, ...],
    as_json: bool,
    **policy_names: str,
) -> None:
    """Show hands move by move: deal, auction, pass, meld, every trick, score.

    \b
    Examples:
      pinochle-sim show --seed 1 --hand 0:5
      pinochle-sim show --seed 7 --hand 42 --rules joedog --json
    """
    policies = make_policies(policy_names, params)
    indices = parse_hand_spec(hands)
    warm_up(engine_inputs(ruleset, policies), "trace_one", Progress(len(indices), quiet=True))
    for i, h in enumerate(indices):
        rec = hand_record(seed, h, ruleset, policies, dealer)
        if as_json:
            click.echo(json.dumps(rec))
        else:
            if i:
                click.echo()
            click.echo(format_hand(rec))


def _parse_position_line(
    line: str, default_rules: Ruleset, time_limit: float | None
) -> tuple[Position, int, float | None]:
    """One line of a --positions file: (position, side, time limit)."""
    try:
        item = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON ({e.msg})") from None
    if not isinstance(item, dict):
        raise ValueError("each line must be a JSON object")
    unknown = set(item) - {"rules", "trump", "leader", "hands", "trick", "side", "time_limit"}
    if unknown:
        raise ValueError(f"unknown fields {', '.join(sorted(unknown))}")
    missing = [k for k in ("trump", "leader", "hands") if k not in item]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    rules = resolve_rules(item["rules"]) if "rules" in item else default_rules
    pos = Position.parse(rules, item["trump"], item["leader"], item["hands"], item.get("trick", ""))
    side = item.get("side", 0)
    if not isinstance(side, int) or isinstance(side, bool):
        raise ValueError(f"side must be a seat number, got {side!r}")
    pos.side_seats(side)  # checks the seat
    limit = item.get("time_limit", time_limit)
    if limit is not None and not (isinstance(limit, (int, float)) and limit > 0):
        raise ValueError(f"time_limit must be positive seconds, got {limit!r}")
    return pos, side, limit


@main.command("solve")
@rules_option
@click.option("--trump", help="Trump suit: S, H, D or C.")
@click.option("--leader", type=int, help="Seat that led (or leads) the current trick.")
@click.option(
    "--hands",
    "hands_text",
    help="The cards each seat still holds, seats 0..N-1 separated by ';' (meld's notation).",
)
@click.option(
    "--trick", default="", help="Cards already played to the current trick, in order from --leader."
)
@click.option(
    "--side",
    type=int,
    default=None,
    help="Maximising seat: its partnership in four-hand, else that seat alone against the "
    "others together [default: 0; with --seed the bidder].",
)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None, help="Seed of a deal.")
@click.option(
    "--hand", "hand_index", type=click.IntRange(0, 2**63 - 2), default=None, help="Hand index."
)
@click.option(
    "--positions",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="JSON lines, one position each (fields rules, trump, leader, hands, trick, side, "
    "time_limit); prints one JSON result per line, with its input_line.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Stop after about this many seconds; the output then gives proven bounds.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_user_errors
def solve_command(
    ruleset: Ruleset,
    trump: str | None,
    leader: int | None,
    hands_text: str | None,
    trick: str,
    side: int | None,
    seed: int | None,
    hand_index: int | None,
    positions: str | None,
    time_limit: float | None,
    as_json: bool,
) -> None:
    """Solve trick play double dummy: the trick points a side takes when every seat plays
    perfectly and sees all cards, the value of each legal card, and an optimal line.

    Give a position (--trump, --leader, --hands, maybe --trick), a simulated hand (--seed
    and --hand: its trick play after the pass, the discard or, in two-hand, the play-out,
    for the bidder's side), or a file of positions (--positions). Values are raw trick
    points from the current trick on, last-trick bonus included.

    \b
    Examples:
      pinochle-sim solve --trump S --leader 0 --hands "AS KS; 10S QS; JS 9S; AH 9H"
      pinochle-sim solve --rules 3 --trump H --leader 1 --hands "AS KS; KH; 9H QS" --trick 9S
      pinochle-sim solve --seed 0 --hand 3 --json
      pinochle-sim solve --positions positions.jsonl
    """
    position_args = hands_text is not None or trump is not None or leader is not None or trick
    seeded = seed is not None or hand_index is not None
    if sum([bool(position_args), seeded, positions is not None]) != 1:
        raise click.UsageError(
            "give a position (--trump, --leader, --hands), or --seed and --hand, "
            "or --positions FILE"
        )
    if positions is not None:
        todo = []  # every line is checked before any is solved
        with open(positions, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    todo.append((number, *_parse_position_line(line, ruleset, time_limit)))
                except (ValueError, RulesError) as e:
                    raise click.ClickException(f"{positions} line {number}: {e}") from None
        for number, pos, pos_side, limit in todo:
            res = solve(pos, side=pos_side, time_limit=limit)
            click.echo(json.dumps({"input_line": number, **res.to_dict()}))
        return
    if seeded:
        if seed is None or hand_index is None:
            raise click.UsageError("--seed and --hand go together")
        res, extra = solve_deal(seed, hand_index, ruleset, side, time_limit)
        if as_json:
            click.echo(json.dumps({**res.to_dict(), **extra}))
        else:
            click.echo(format_deal(res, extra))
        return
    if hands_text is None or trump is None or leader is None:
        raise click.UsageError("a position needs --trump, --leader and --hands")
    pos = Position.parse(ruleset, trump, leader, hands_text, trick)
    res = solve(pos, side=0 if side is None else side, time_limit=time_limit)
    click.echo(json.dumps(res.to_dict()) if as_json else format_result(res))


class Progress:
    """Progress of a long job on stderr: a redrawn bar on a terminal, and without one a line
    about every 10%. A cold compile is announced whatever stderr is (it is the one long silent
    wait). Rates and the ETA start after the compile and leave the hands done before a resume
    out. ``quiet``: the compile notice only (``show``)."""

    def __init__(
        self,
        total: int,
        unit: str = "hands",
        tty: bool | None = None,
        quiet: bool = False,
        detail: Callable[[], str] | None = None,
    ) -> None:
        self.detail = detail
        """Extra words for each progress line (a cluster's per-worker throughput)."""
        self.total = total
        self.unit = unit
        self.tty = sys.stderr.isatty() if tty is None else tty
        self.quiet = quiet
        self.done = 0
        self.first = -1
        self.t0 = time.perf_counter()
        self.next_line = 0.1
        self.drawn = False

    def plan(self, est: RunEstimate) -> None:
        if not self.quiet and est.units:
            click.echo(est.text(), err=True)

    def compiling(self, what: str, estimate_s: float) -> None:
        self._break_line()
        click.echo(
            f"compiling the engine (first run only, about {estimate_s:.0f} s): {what}", err=True
        )

    def compiled(self, what: str, seconds: float) -> None:
        if seconds >= 2:
            click.echo(f"compiled in {seconds:.0f} s", err=True)

    def update(self, n: int) -> None:
        if self.first < 0:  # the first call reports the hands already done (resume)
            self.first = n
            self.t0 = time.perf_counter()  # after the compile, which happens before it
        self.done += n
        if self.quiet or self.total <= 0:
            return
        elapsed = time.perf_counter() - self.t0
        new = self.done - self.first
        rate = new / elapsed if elapsed > 0 and new else 0.0
        left = self.total - self.done
        eta = f"ETA {left / rate:4.0f} s" if rate else "ETA    -"
        extra = self.detail() if self.detail else ""
        eta += f"  {extra}" if extra else ""
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total)
            click.echo(
                f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} "
                f"{rate:,.0f} {self.unit}/s  {eta} ",
                nl=False,
                err=True,
            )
            self.drawn = True
            return
        share = self.done / self.total
        if share + 1e-12 >= self.next_line and new:
            click.echo(
                f"{share:4.0%} {self.done:,}/{self.total:,} {self.unit}  {rate:,.0f} "
                f"{self.unit}/s  {eta}",
                err=True,
            )
            self.next_line = (int(share * 10 + 1e-9) + 1) / 10

    def _break_line(self) -> None:
        if self.drawn:
            click.echo(err=True)
            self.drawn = False

    def close(self) -> None:
        self._break_line()


def parse_fixes(specs: tuple[str, ...]) -> dict[int, str]:
    """``--fix SEAT=CARDS`` options as ``{seat: cards}`` (cards of one seat may be split over
    several options)."""
    fixed: dict[int, str] = {}
    for spec in specs:
        seat, sep, cards = spec.partition("=")
        if not sep or not seat.strip().isdigit() or not cards.strip():
            raise click.BadParameter(
                f"{spec!r}: write SEAT=CARDS, e.g. --fix '0=AS AS 10S'", param_hint="--fix"
            )
        fixed[int(seat)] = f"{fixed.get(int(seat), '')} {cards}".strip()
    return fixed


def parse_count(text: str, option: str = "--hands") -> int:
    """``1e6``, ``1_000_000`` or ``1000000`` -> 1000000; anything else (1.5, -3, abc) -> error."""
    t = str(text).strip().replace("_", "")
    try:
        if any(c in t.lower() for c in ".e"):
            try:
                d = Decimal(t)
            except InvalidOperation:
                raise ValueError from None
            if d != d.to_integral_value():
                raise ValueError
            n = int(d)
        else:
            n = int(t)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a whole number (e.g. 1e6, 1_000_000, 1000000)",
            param_hint=option,
        ) from None
    if n < 1:
        raise click.BadParameter(f"{text!r}: the number must be positive", param_hint=option)
    if n > 10**11:
        raise click.BadParameter(f"{text!r}: at most 1e11 per run", param_hint=option)
    return n


@main.command("run")
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
    "and dd_made; two-hand dd_points_0/1): slow, about 3 s a partnership deal per thread; the "
    "estimate is printed first. Conceded hands are solved too.",
)
@click.option("--quiet", is_flag=True, help="No estimate, compile notice, progress or summary.")
@cluster_option
@click.option(
    "--part-size",
    type=click.IntRange(1, 1 << 22),
    default=DEFAULT_PART_SIZE,
    hidden=True,
    help="Hands per part file.",
)
@_user_errors
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
    part_size: int,
    dd: bool,
    **policy_names: str,
) -> None:
    """Simulate N seeded hands into a Parquet dataset (one row per hand).

    The same seed, rules and policies give the same records whatever --threads or resume
    history. Before it starts, the run's size and time are estimated (a run the free disk
    space cannot hold is refused unless --force) and a first run compiles the engine (about
    half a minute, announced). Read the result with pandas, pyarrow, DuckDB or polars (README,
    "Reading a run folder"); `pinochle-sim schema` lists the columns, `pinochle-sim info DIR`
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
    """
    if (hands_text is None) == (games_text is None):
        raise click.UsageError("give either --hands N or --games N")
    games = games_text is not None
    n = parse_count(games_text if games else hands_text, "--games" if games else "--hands")
    policies = make_policies(policy_names, params)
    with cluster_backend(cluster, threads, quiet) as backend:
        detail = backend.throughput if backend is not None else None
        bar = None if quiet else Progress(n, "games" if games else "hands", detail=detail)
        summary = _run_with_bar(
            bar, n, seed, ruleset, policies, out, threads, resume, overwrite, part_size, games,
            force, parse_fixes(fix), dealer, backend, dd,
        )  # fmt: skip
    if quiet:
        return
    _echo_summary(summary, games)


def _run_with_bar(
    bar: Progress | None,
    n: int,
    seed: int,
    ruleset: Ruleset,
    policies: PolicySet,
    out: str | None,
    threads: int | None,
    resume: bool,
    overwrite: bool,
    part_size: int,
    games: bool,
    force: bool,
    fixed: dict[int, str],
    dealer: int | None,
    backend: Any,
    dd: bool,
) -> Any:
    try:
        return run_sim(
            n,
            seed,
            ruleset,
            policies,
            out,
            threads,
            resume,
            overwrite,
            part_size=part_size,
            progress=bar.update if bar else None,
            games=games,
            notify=bar,
            force=force,
            plan=bar.plan if bar else None,
            fixed=fixed,
            dealer=dealer,
            backend=backend,
            dd=dd,
        )
    except KeyboardInterrupt:
        raise click.ClickException(
            "interrupted: every finished part is kept; rerun the same command with --resume to "
            "complete the run"
        ) from None
    finally:
        if bar:
            bar.close()


def _echo_summary(s: Any, games: bool) -> None:
    for line in s.repairs:
        click.echo(f"repaired: {line}")
    click.echo(
        f"{s.hands:,} {'deals' if games else 'hands'} in {s.path}  ({s.bytes / 1e6:.1f} MB, "
        f"{s.bytes / s.hands:.1f} bytes/hand)"
    )
    unit = "deals" if games else "hands"
    compiled = (
        f"; not counting {s.compile_seconds:.1f} s to compile or load the engine"
        if s.compile_seconds >= 1
        else ""
    )
    if s.hands_computed:
        click.echo(
            f"computed {s.hands_computed:,} {unit} in {s.seconds:.2f} s "
            f"({s.hands_per_second:,.0f} {unit}/s{compiled})"
        )
    else:
        click.echo("nothing to compute: the run was already complete")
    click.echo(s.headline)


@main.command()
@rules_option
@click.option("--games", is_flag=True, help="The records of a `run --games` (game columns).")
@click.option("--dd", is_flag=True, help="The records of a `run --dd` (double-dummy columns).")
@_user_errors
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


@main.command("policies")
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


def _local_out(out: str | None, what: str) -> str | None:
    """An output that is a local file or folder (``file://`` URLs too); a store's URL is a
    one-line error (reports and exports are written locally)."""
    if out is None:
        return None
    if is_url(out):
        raise click.ClickException(
            f"the {what} is written to a local file or folder, not {out!r}: give a path here "
            "(and copy it to the store after)"
        )
    return str(location(out))


class RunLocation(click.ParamType):
    """A run folder (or part file) that must exist, or a store's URL (``s3://bucket/runs/p0``,
    read through fsspec; its existence is checked when it is read)."""

    name = "path"

    def __init__(self, file_okay: bool = True) -> None:
        self.local = click.Path(exists=True, file_okay=file_okay)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not is_url(str(value)):
            return self.local.convert(value, param, ctx)
        try:
            location(str(value))
        except StorageError as e:  # also a driver that cannot connect (ftp, sftp)
            self.fail(str(e), param, ctx)
        return str(value)


@main.command()
@click.argument("path", type=RunLocation())
@click.option(
    "--verify",
    is_flag=True,
    help="Also read every row group of every part (finds damage inside the data; done anyway "
    "for runs up to 256 MB); exit status 1 unless the run is complete and whole.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the check and provenance as JSON.")
@_user_errors
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
    small = p.is_dir() and sum(f.stat().st_size for f in p.glob("part-*.parquet")) <= AUTO_VERIFY
    check = check_run(p, verify or small) if p.is_dir() else None
    meta = _info_provenance(p, check)
    if as_json:
        doc = dict(meta)
        if check is not None:
            doc["check"] = {
                "state": check.state,
                "done": check.done,
                "total": check.total,
                "unit": check.unit,
                "problems": check.problems(),
                "remedy": check.remedy(),
                "verified": check.verified,
            }
        click.echo(json.dumps(doc, indent=1))
    else:
        if check is not None:
            _echo_check(check)
        elif verify:
            read_every_row_group(p)
            click.echo(f"part file {p.name}: every row group reads")
        for key in ("package_version", "engine_version", "rules", "seed", "dealer", "created"):
            if key in meta:
                click.echo(f"{key}: {meta[key]}")
        for seat, cards in (meta.get("fixed") or {}).items():
            click.echo(f"fixed, seat {seat}: {cards}")
        for kind, spec in meta.get("policies", {}).items():
            ps = ", ".join(f"{k}={v}" for k, v in spec["params"].items())
            click.echo(f"policy {kind}: {spec['name']}" + (f" ({ps})" if ps else ""))
        if "ruleset_toml" in meta:
            click.echo("ruleset (TOML):")
            click.echo("  " + meta["ruleset_toml"].rstrip().replace("\n", "\n  "))
    if verify and check is not None and not check.complete:
        sys.exit(1)


AUTO_VERIFY = 256 * 10**6
"""Runs up to this many bytes of parts are read in full by a plain ``info`` (about 0.3 s per
million hands on the development machine)."""


def _echo_check(check: RunCheck) -> None:
    click.echo(check.summary())
    for line in check.problems():
        click.echo(f"  {line}")
    if check.unlisted:
        n = len(check.unlisted)
        click.echo(f"  {n} part{'s' * (n > 1)} written but not yet in the manifest")
    if check.temporaries:
        click.echo(f"  {check.temporaries} temporary file(s) of an interrupted write")
    if check.set_aside:
        click.echo(f"  set aside by an earlier resume: _damaged/ ({', '.join(check.set_aside)})")
    remedy = check.remedy()
    if remedy:
        click.echo(f"  {remedy}")
    if check.unit == "games" and check.good and not check.damaged:
        click.echo(_games_line(str(check.path)))


def _info_provenance(p: Path | UrlPath, check: RunCheck | None) -> dict[str, Any]:
    """The provenance to print: of the first sound part, else what the manifest knows."""
    if check is None:
        return read_provenance(p)
    if check.good:
        return read_provenance(p / part_name(check.good[0]))
    return manifest_provenance(check.settings) if check.settings else {}


def _games_line(path: str) -> str:
    sides = ruleset_of(read_provenance(path)).teams
    totals = [f"total_{k}" for k in range(sides)]
    from pinochle_sim.analysis.games import game_results

    rows = read_columns(path, ["game", "deal", "dealer", "game_winner", *totals]).to_pandas()
    g = game_results(rows)
    wins = ", ".join(f"side {k} {(g['winner'] == k).mean():.1%}" for k in range(len(totals)))
    return f"games: {len(g):,}, {g['deals'].mean():.2f} deals per game; won: {wins}"


def _progress(preset: str, every: float = 10.0) -> Callable[[int, int, float], None]:
    """A progress callback for the solver bench: a line on stderr at most every ``every``
    wall seconds, and at the last deal."""
    last = [time.monotonic()]

    def show(done: int, total: int, seconds: float) -> None:
        now = time.monotonic()
        if now - last[0] >= every or done == total:
            last[0] = now
            click.echo(f"  solver, {preset}: {done}/{total} deals, {seconds:.1f} s", err=True)

    return show


def _solver_cards(text: str) -> int | None:
    """``--solver-cards``: None for ``full``, else a card count of 1..15."""
    if text.strip().lower() == "full":
        return None
    if not text.strip().isdigit() or not 1 <= int(text) <= 15:
        raise click.BadParameter(
            f"give a number of cards 1-15 or 'full', not {text!r}", param_hint="--solver-cards"
        )
    return int(text)


@main.command()
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
    help="Short batches, no solver times (unless --solver-deals), no end-to-end runs (a few "
    "seconds).",
)
@click.option("--no-end-to-end", is_flag=True, help="Skip the fresh-process runs.")
@click.option(
    "--solver-deals",
    type=click.IntRange(0, 100_000),
    default=None,
    help="Deals per preset for the double-dummy solver's times (0: skip them) "
    "[default: 200, 0 with --quick].",
)
@click.option(
    "--solver-cards",
    default="8",
    show_default=True,
    metavar="N|full",
    help="Cards a seat in the solver's positions: N (1-15) after the bots' first tricks, or "
    "'full' for the whole trick play (seconds a deal: 200 full deals of each preset take about "
    "an hour).",
)
@click.option("--solver-only", is_flag=True, help="Only the double-dummy solver's times.")
@_user_errors
def bench(
    hands_text: str,
    quick: bool,
    no_end_to_end: bool,
    solver_deals: int | None,
    solver_cards: str,
    solver_only: bool,
) -> None:
    """Print, a line at a time as each is measured: each engine's first-call (compile or cache
    load) time, hands per second per stage on 1 and 2 threads, the double-dummy solver's time
    per position of each preset (one thread: median, p95, max, nodes; 8 cards a seat unless
    --solver-cards says otherwise), end-to-end run times in fresh processes (warm cache; empty
    cache, then the first run of each other engine), each 1e6-hand run right after the same run
    of a minimal engine (the machine's yardstick), and the peak memory. Where issue 13 set a
    speed target, the line says it and whether it was met.

    \b
    Examples:
      pinochle-sim bench --quick
      pinochle-sim bench --no-end-to-end --hands 1e6
      pinochle-sim bench --solver-only --solver-cards full --solver-deals 200
    """
    cards = _solver_cards(solver_cards)
    t0 = time.perf_counter()
    n = parse_count(hands_text)
    effort = bench_stages.QUICK if quick else bench_stages.Effort()
    effort = dataclasses.replace(effort, max_hands=min(n, effort.max_hands) if quick else n)
    if solver_deals is None:
        solver_deals = 0 if quick else 200
    if not solver_only:
        bench_stages.check_stage_memory(effort)
    click.echo(f"machine: {bench_stages.machine()}")
    if not solver_only:
        for c in bench_stages.compile_times():
            click.echo(c.line())
        for stage, k, rate in bench_stages.iter_stage_rates(effort):
            click.echo(bench_stages.stage_line(stage, k, rate))
    if solver_deals:
        for preset in PRESETS:
            times = solver_times(preset, solver_deals, progress=_progress(preset), cards=cards)
            click.echo(times.line())
    if not (no_end_to_end or solver_only or quick):
        # Each run right after the minimal engine's (runs/yardstick.py), so that both see the
        # machine in the same mood: the ratios are the targets that travel between machines.
        seconds, ratio = bench_stages.WARM_RUN_TARGET
        base = bench_stages.minimal_engine_run(1_000_000)
        click.echo(base.line())
        warm = bench_stages.end_to_end(1_000_000, target_s=seconds)
        click.echo(warm.line())
        click.echo(bench_stages.versus(warm, base, ratio))
        base = bench_stages.minimal_engine_run(1_000_000, cold=True)
        click.echo(base.line())
        for k, run in enumerate(bench_stages.cold_runs()):
            click.echo(run.line())
            if k == 0:
                click.echo(bench_stages.versus(run, base, bench_stages.COLD_RUN_TARGET[1]))
    me, kids = bench_stages.peak_memory_mb()
    runs = f" (largest run process {kids:,.0f} MB)" if kids > 0 else ""
    click.echo(f"peak memory {me:,.0f} MB{runs}; bench took {time.perf_counter() - t0:.1f} s")


@main.command()
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
    "'partial run' and the hands actually read.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit with status 1 when the self-check fails (an estimate more than 4.5 standard "
    "errors from its exact value); the report is written either way.",
)
@_user_errors
def report(
    run_dir: str,
    out: str | None,
    formats: str,
    only: tuple[str, ...],
    allow_partial: bool,
    strict: bool,
) -> None:
    """Write every chart, every table as CSV and a publishable report.md for a run folder.

    A partial run is refused: finish it with `pinochle-sim run ... --resume`, or pass
    --allow-partial. report.md shows the PNG charts (SVG if only svg is asked for; with pdf
    alone, PNGs are written for it too) and links the other formats.

    Estimates with an exact value (the dealt hands' meld) are printed beside it with a
    z-score (self_check.csv, end of report.md); a |z| above 4.5 fails the self-check: a
    warning on top of report.md and here, and exit status 1 with --strict.

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
    # The analysis layer (and matplotlib) loads only for commands that chart: ~0.4 s off the
    # start of every other command. No import loop is involved (cli is the top layer).
    from pinochle_sim.analysis.reports import write_report
    from pinochle_sim.analysis.reports.selfcheck import SelfCheckError

    fmts = tuple(f.strip().lower() for f in formats.split(",") if f.strip())
    # Beside the run, not inside it: Parquet readers scan the whole run folder.
    target = _local_out(out, "report") or beside(run_dir, "-report")
    try:
        md = write_report(
            run_dir,
            target,
            fmts,
            list(only) or None,
            progress=lambda name: click.echo(f"  {name}", err=True),
            allow_partial=allow_partial,
            strict=True,
        )
    except SelfCheckError as e:
        if strict:
            raise click.ClickException(str(e)) from None
        click.echo(f"warning: {e}", err=True)
        md = e.path
    click.echo(f"report written: {md}  (open it in any Markdown viewer)")


class PolicySpecParam(click.ParamType):
    """``default``, inline ``play=counting,bid.margin=-20``, or a policy TOML file."""

    name = "POLICIES"

    def convert(self, value: Any, param: Any, ctx: Any) -> tuple[str, PolicySet]:
        if isinstance(value, tuple):
            return value
        if not str(value).strip():
            self.fail(
                "is empty: give `default`, KIND=NAME / KIND.PARAM=VALUE items (play=counting) "
                "or a policy TOML file",
                param,
                ctx,
            )
        try:
            return parse_policy_spec(value)
        except ValueError as e:
            self.fail(str(e), param, ctx)


def _count_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--hands",
        "hands_text",
        default="1e5",
        show_default=True,
        metavar="N",
        help="Deals, each played once per side (1e5, 100_000 or 100000).",
    )(func)


@main.command("compare")
@click.argument("a", type=PolicySpecParam())
@click.argument("b", type=PolicySpecParam())
@_count_option
@seed_option
@rules_option
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Output folder [default: results/compare/<A>-vs-<B>-seed<S>-<N>].")  # fmt: skip
@click.option("--overwrite", is_flag=True, help="Replace an existing output folder.")
@threads_option
@cluster_option
@_user_errors
def compare_command(
    a: tuple[str, PolicySet],
    b: tuple[str, PolicySet],
    hands_text: str,
    seed: int,
    ruleset: Ruleset,
    out: str | None,
    overwrite: bool,
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
    """
    # The analysis layer (and matplotlib) loads only for commands that chart: ~0.4 s off the
    # start of every other command. No import loop is involved (cli is the top layer).
    from pinochle_sim.analysis.compare import (
        check_match_memory,
        check_output,
        compare,
        match_inputs,
        write_match,
    )

    n = parse_count(hands_text)
    target = out or _default_out("compare", f"{_slug(a[0])}-vs-{_slug(b[0])}", ruleset, seed, n)
    check_output(target, overwrite, "pairs.parquet")
    plays = 2 if ruleset.partnerships or ruleset.players == 2 else ruleset.players
    check_match_memory(n, ruleset)
    with using(None if cluster else threads), cluster_backend(cluster, threads) as backend:
        bar = Progress(plays * n, detail=backend.throughput if backend else None)
        _warm(match_inputs(ruleset, a[1], b[1]), bar, backend)
        bar.update(0)
        match = compare(ruleset, a, b, n, seed, lambda k: bar.update(plays * k), backend)
        bar.close()
    path = write_match(match, target, overwrite)
    for line in _match_lines(match.summary):
        click.echo(line)
    click.echo(f"written: {path}/pairs.parquet, summary.csv, compare.png")


def _warm(inputs: Any, bar: Progress, backend: Any) -> None:
    """Compile or load the kernel of ``inputs`` here, or on every worker of ``backend``."""
    if backend is None:
        warm_up(inputs, "play_chunk", bar)
    else:
        backend.warm([InputsSpec.of(inputs)], "play_chunk", bar)


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", label).strip("_")[:60] or "policies"


def _default_out(kind: str, name: str, rules: Ruleset, seed: int, n: int) -> str:
    return f"results/{kind}/{rules.name}-{name}-seed{seed}-{n}"


def _match_lines(summary: Any) -> list[str]:
    a = summary.iloc[0]
    lines = [
        f"{a['policy']} minus {summary.iloc[1]['policy']}: {a['diff_per_deal']:+.2f} points per "
        f"deal (95% CI {a['diff_lo']:+.2f} to {a['diff_hi']:+.2f}), {a['diff_per_hand']:+.2f} "
        f"per hand; {int(a['deals']):,} deals, each played {int(a['plays'])} times (per deal: "
        "the plays' differences summed; per hand: one play)"
    ]
    for _, r in summary.iterrows():
        if "make_rate" in r:
            lines.append(
                f"  {r['policy']}: mean score {r['mean_score']:.2f}/hand; won the auction in "
                f"{int(r['bids_won']):,} of {int(r['hands']):,} hands: made {r['make_rate']:.1%} "
                f"({r['make_lo']:.1%}-{r['make_hi']:.1%}), set {r['set_rate']:.1%}, "
                f"stuck {r['stuck_rate']:.1%}, mean bid {r['mean_bid']:.1f}"
            )
        else:
            lines.append(
                f"  {r['policy']}: mean score {r['mean_score']:.2f}/hand; won {r['win_rate']:.1%}"
                f" ({r['win_lo']:.1%}-{r['win_hi']:.1%}) of hands"
            )
    return lines


@main.command("sweep")
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
@_count_option
@seed_option
@rules_option
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Output folder [default: results/sweep/<rules>-<param>-seed<S>-<N>].",
)
@click.option("--overwrite", is_flag=True, help="Replace an existing output folder.")
@threads_option
@cluster_option
@_user_errors
def sweep_command(
    param_text: str,
    base: tuple[str, PolicySet],
    against: tuple[str, PolicySet],
    hands_text: str,
    seed: int,
    ruleset: Ruleset,
    out: str | None,
    overwrite: bool,
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
    """
    # The analysis layer (and matplotlib) loads only for commands that chart: ~0.4 s off the
    # start of every other command. No import loop is involved (cli is the top layer).
    from pinochle_sim.analysis.compare import (
        check_match_memory,
        check_output,
        match_inputs,
        parse_range,
        sweep,
        write_sweep,
    )

    try:
        key, values = parse_range(param_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--param") from None
    n = parse_count(hands_text)
    target = out or _default_out("sweep", _slug(key), ruleset, seed, n)
    check_output(target, overwrite, "sweep.csv")
    plays = 2 if ruleset.partnerships or ruleset.players == 2 else ruleset.players
    check_match_memory(n, ruleset, len(values))
    with using(None if cluster else threads), cluster_backend(cluster, threads) as backend:
        bar = Progress(plays * n * len(values), detail=backend.throughput if backend else None)
        _warm(match_inputs(ruleset, base[1], against[1]), bar, backend)
        bar.update(0)
        table, diffs = sweep(ruleset, base[1], key, values, against[1], n, seed,
                             progress=lambda k: bar.update(plays * k), backend=backend)  # fmt: skip
        bar.close()
    kinds = engine_for(ruleset).policy_kinds(ruleset)
    meta = {
        "package": "pinochle-sim",
        "package_version": __version__,
        "rules": ruleset.name,
        "seed": seed,
        "deals": n,
        "param": key,
        "values": values,
        "base": {"label": base[0], "policies": base[1].resolved(kinds)},
        "against_label": against[0],
        "against": {"label": against[0], "policies": against[1].resolved(kinds)},
    }
    path = write_sweep(table, diffs, meta, target, overwrite)
    for _, r in table.iterrows():
        extra = (
            f"; made {r['make_rate']:.1%}, mean bid {r['mean_bid']:.1f}"
            if "make_rate" in r
            else f"; won {r['win_rate']:.1%}"
        )
        click.echo(
            f"{key}={int(r['value'])}: {r['diff_per_deal']:+.2f} per deal "
            f"({r['diff_lo']:+.2f} to {r['diff_hi']:+.2f}){extra}"
        )
    click.echo(f"written: {path}/sweep.csv, diffs.parquet, sweep.png")


@main.command("export")
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
@_user_errors
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
    written = export_run(run_dir, _local_out(out, "export"), fmt, decoded, overwrite)
    click.echo(f"{written.rows:,} rows written to {written.path} ({written.format})")


def run_cli() -> None:  # pragma: no cover - console entry point (tested in a subprocess)
    """The ``pinochle-sim`` command (a reader that goes away ends it quietly: :class:`_Main`)."""
    main(prog_name="pinochle-sim")


def _quiet_broken_pipe() -> None:
    """Point stdout (and a broken stderr) at /dev/null, so the interpreter's last flush is
    silent too."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            with contextlib.suppress(OSError, ValueError):
                os.dup2(devnull, stream.fileno())
    with contextlib.suppress(OSError, ValueError):
        os.dup2(devnull, sys.stdout.fileno())


@main.command("advise")
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
@click.option("--overwrite", is_flag=True, help="Replace the --out folder if it already exists.")
@threads_option
@cluster_option
@policy_options
@_user_errors
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
    """
    from pinochle_sim.analysis.advise import advise

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
    if out and not overwrite and holds_files(location(out)):  # before the deals, not after
        raise click.ClickException(f"{out!r} already exists: pass --overwrite to replace it")
    with cluster_backend(cluster, threads, quiet=as_json) as backend:
        if backend is not None:
            _warm(engine_inputs(ruleset, policies), Progress(0, quiet=True), backend)
        a = advise(" ".join(cards), seat, dealer, ruleset, n, seed, risk, policies, upcard,
                   threads, backend)  # fmt: skip
        files = []
        if chart and a.two_hand is None:
            from pinochle_sim.analysis.reports.charts_advise import advice_chart

            files = advice_chart(a, chart)
        if out:
            run_sim(n, seed, ruleset, policies, out, threads, fixed={seat: a.cards},
                    dealer=dealer, backend=backend, overwrite=overwrite)  # fmt: skip
    if as_json:
        click.echo(json.dumps(a.to_json()))
        return
    for line in advice_lines(a):
        click.echo(line)
    for f in files:
        click.echo(f"chart: {f}")
    if out:
        click.echo(f"run folder: {out} ({n:,} hands with seat {seat}'s hand fixed)")


def _ci(d: dict[str, float]) -> str:
    """``42.0% (95% CI 41.1-42.9)`` of a ``{p, ci_low, ci_high}`` dict."""
    return f"{100 * d['p']:.1f}% (95% CI {100 * d['ci_low']:.1f}-{100 * d['ci_high']:.1f})"


def advice_lines(a: Any) -> list[str]:
    """The text report of an :class:`~pinochle_sim.analysis.advise.Advice`."""
    lines = [f"{a.cards}  (seat {a.seat}, rules {a.rules}, {a.hands:,} deals, seed {a.seed})"]
    if a.two_hand is not None:
        t = a.two_hand
        score, laid = t["expected_score"], t["meld_laid"]
        lines.append(f"expected deal score {score['mean']:.1f} ± {score['ci95']:.1f}")
        lines.append(f"P(win the deal) {_ci(t['p_win'])}")
        lines.append(f"meld laid {laid['mean']:.1f} ± {laid['ci95']:.1f}")
        if t["meld_from_stock"] is not None:
            lines.append(
                f"meld in hand now {t['meld_in_hand_now']}, expected from the stock "
                f"{t['meld_from_stock']:.1f}"
            )
        lines.append(a.verdict)
        return lines
    for t in a.by_trump:
        m = t.meld_after_pass
        lines.append("")
        lines.append(
            f"{t.trump}: meld now {t.meld_now}, the side after the {a.exchange} "
            f"mean {m['mean']:.0f} "
            f"(10/50/90%: {m['p10']:.0f}/{m['p50']:.0f}/{m['p90']:.0f}), trick points "
            f"{t.trick_points:.0f} ± {t.trick_points_ci:.1f}"
        )
        lines.append("   bid  P(make)  95% CI        expected score")
        for b in t.bids:
            ci = f"{100 * b.ci_low:5.1f}-{100 * b.ci_high:5.1f}%"
            lines.append(
                f"  {b.bid:4d}  {100 * b.p_make:5.1f}%  {ci}  "
                f"{b.expected_score:8.1f} ± {b.expected_score_ci:.1f}"
            )
        top = t.max_bid_at_risk if t.max_bid_at_risk is not None else "none"
        lines.append(f"  best expected score at {t.best_bid}; highest bid made >= {a.risk}%: {top}")
    d = a.default_bidder
    won = _ci({"p": d["p_wins_auction"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
    if "median_bid_when_winning" in d:
        won += f", median bid {d['median_bid_when_winning']:.0f} in {d['usual_trump']}"
    lines += ["", f"default bidder with this hand: wins the auction {won}", a.verdict]
    return lines


if __name__ == "__main__":  # pragma: no cover
    run_cli()
