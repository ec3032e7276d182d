"""The ``pinochle-sim`` command line: a thin click layer over the library.

Every command parses, calls one library function and prints. User mistakes become a one-line
``click.ClickException``/``BadParameter``, never a traceback.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import sys
import time
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import click
import pandas as pd

from pinochle_sim.core.cards import decode_hand, encode_hand, parse_suit
from pinochle_sim.core.version import __version__
from pinochle_sim.engines import engine_for
from pinochle_sim.policies import KINDS, POLICY_KINDS, REGISTRY, PolicySet, parse_policy_spec
from pinochle_sim.rules import PRESETS, RulesError, Ruleset, dumps_ruleset, resolve_rules
from pinochle_sim.rules.meld import score_meld
from pinochle_sim.runs import bench as bench_stages
from pinochle_sim.runs.dataset import open_dataset, read_manifest, read_provenance
from pinochle_sim.runs.games import game_results
from pinochle_sim.runs.parallel import threads as using
from pinochle_sim.runs.records import schema_text
from pinochle_sim.runs.runner import DEFAULT_PART_SIZE
from pinochle_sim.runs.runner import run as run_sim
from pinochle_sim.runs.show import format_hand, hand_record
from pinochle_sim.runs.solve import format_deal, solve_deal
from pinochle_sim.solver import Position, solve
from pinochle_sim.solver.text import format_result


def _user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library ``ValueError``s (bad cards, bad rules) into one-line click errors."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (ValueError, RulesError) as e:
            raise click.ClickException(str(e)) from None
        except OSError as e:  # unwritable or impossible paths
            where = f": {e.filename}" if e.filename else ""
            raise click.ClickException(f"{e.strerror or e}{where}") from None

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


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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
    """List the rule presets, or show one (NAME may also be a TOML file).

    \b
    Examples:
      pinochle-sim rules
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
    click.echo(f"{r.name}: {r.description}\nsource: {r.source}")
    for key, value in _ruleset_rows(r):
        click.echo(f"  {key:<18} {value}")


def _ruleset_rows(r: Ruleset) -> list[tuple[str, str]]:
    rows = []
    for f in dataclasses.fields(r):
        if f.name in ("name", "description", "source"):
            continue
        v = getattr(r, f.name)
        rows.append((f.name, f"table {v.name}" if f.name == "meld" else str(v)))
    rows.append(("total_trick_points", str(r.total_trick_points)))
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
    suits = list(range(4)) if trump.strip().lower() == "all" else [parse_suit(trump)]
    results = [score_meld(text, s, ruleset) for s in suits]
    hand_cards = decode_hand(encode_hand(text))
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


def parse_hand_spec(specs: tuple[str, ...]) -> list[int]:
    """``--hand 3 --hand 10:12`` -> [3, 10, 11]."""
    out: list[int] = []
    for spec in specs:
        try:
            if ":" in spec:
                a, b = spec.split(":", 1)
                lo, hi = int(a), int(b)
                if hi <= lo:
                    raise ValueError
                out.extend(range(lo, hi))
            else:
                out.append(int(spec))
        except ValueError:
            raise click.BadParameter(
                f"{spec!r} is not a hand index or a range A:B with A < B", param_hint="--hand"
            ) from None
    if any(not 0 <= h < 2**63 - 1 for h in out):
        raise click.BadParameter(
            "hand indices must be between 0 and 2**63 - 2", param_hint="--hand"
        )
    if len(out) > 10_000:
        raise click.BadParameter("at most 10,000 hands can be shown at once", param_hint="--hand")
    return out


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
    for i, h in enumerate(parse_hand_spec(hands)):
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
    """A one-line progress bar on stderr: hands done, percent, hands/s, ETA."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.first = -1
        self.t0 = time.perf_counter()

    def update(self, n: int) -> None:
        if self.first < 0:  # the first call reports hands already done (resume)
            self.first = n
        self.done += n
        elapsed = time.perf_counter() - self.t0
        new = self.done - self.first
        rate = new / elapsed if elapsed > 0 and new else 0.0
        eta = (self.total - self.done) / rate if rate else float("nan")
        width = 30
        filled = int(width * self.done / self.total)
        click.echo(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} "
            f"{rate:,.0f} hands/s  ETA {eta:4.0f} s ",
            nl=False,
            err=True,
        )

    def close(self) -> None:
        click.echo(err=True)


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
    help="Output folder [default: results/runs/<rules>-seed<S>-<N>/].",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 1024),
    default=None,
    help="Worker threads [default: all cores].",
)
@policy_options
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out.")
@click.option("--overwrite", is_flag=True, help="Replace an existing run folder.")
@click.option("--quiet", is_flag=True, help="No progress bar and no summary.")
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
    quiet: bool,
    part_size: int,
    **policy_names: str,
) -> None:
    """Simulate N seeded hands into a Parquet dataset (one row per hand).

    The same seed, rules and policies give the same records whatever --threads or resume
    history. Read the result with pandas.read_parquet(DIR), pyarrow, DuckDB or polars; see
    `pinochle-sim schema` for the columns and `pinochle-sim info DIR` for its provenance.

    \b
    Examples:
      pinochle-sim run --hands 1e6
      pinochle-sim run --hands 2e6 --seed 7 --rules joedog --param bid.margin=20 --out r/j7
      pinochle-sim run --hands 2e6 --seed 7 --rules joedog --param bid.margin=20 --out r/j7 --resume
      pinochle-sim run --hands 1e6 --rules two-hand
      pinochle-sim run --games 1e5 --rules two-hand
    """
    if (hands_text is None) == (games_text is None):
        raise click.UsageError("give either --hands N or --games N")
    games = games_text is not None
    n = parse_count(games_text if games else hands_text, "--games" if games else "--hands")
    policies = make_policies(policy_names, params)
    bar = Progress(n) if (not quiet and sys.stderr.isatty()) else None
    try:
        summary = run_sim(
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
        )
    except KeyboardInterrupt:
        raise click.ClickException(
            "interrupted: the finished parts are kept; rerun with --resume to complete the run"
        ) from None
    finally:
        if bar:
            bar.close()
    if quiet:
        return
    s = summary
    click.echo(
        f"{s.hands:,} {'deals' if games else 'hands'} in {s.path}  ({s.bytes / 1e6:.1f} MB, "
        f"{s.bytes / s.hands:.1f} bytes/hand)"
    )
    if s.hands_computed:
        click.echo(
            f"computed {s.hands_computed:,} hands in {s.seconds:.2f} s "
            f"({s.hands_per_second:,.0f} hands/s)"
        )
    else:
        click.echo("nothing to compute: the run was already complete")
    click.echo(s.headline)


@main.command()
@rules_option
@click.option("--games", is_flag=True, help="The records of a `run --games` (game columns).")
def schema(ruleset: Ruleset, games: bool) -> None:
    """Print every column of the per-hand records: name, dtype, meaning.

    The columns depend on the table: per-seat columns for each seat, team columns per side.

    \b
    Examples:
      pinochle-sim schema
      pinochle-sim schema --rules three-hand
      pinochle-sim schema --rules two-hand --games
    """
    click.echo(schema_text(ruleset, games))


@main.command()
@click.argument("path", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print the provenance as JSON.")
@_user_errors
def info(path: str, as_json: bool) -> None:
    """Print the provenance of a run folder or part file.

    \b
    Example:
      pinochle-sim info results/runs/partnership-seed0-1000000
    """
    meta = read_provenance(path)
    if as_json:
        click.echo(json.dumps(meta, indent=1))
        return
    if os.path.isdir(path):
        man = read_manifest(path)
        sett = man["settings"]
        parts = man["parts"]
        done = sum(p["count"] for p in parts.values())
        state = "complete" if man.get("complete") else "INCOMPLETE (finish with --resume)"
        unit = sett.get("unit", "hands")
        click.echo(f"run: {done:,} of {sett['hands']:,} {unit} in {len(parts)} parts, {state}")
        if unit == "games" and done:
            click.echo(_games_line(path))
    for key in ("package_version", "engine_version", "rules", "seed", "dealer", "created"):
        click.echo(f"{key}: {meta[key]}")
    for kind, spec in meta["policies"].items():
        ps = ", ".join(f"{k}={v}" for k, v in spec["params"].items())
        click.echo(f"policy {kind}: {spec['name']}" + (f" ({ps})" if ps else ""))
    click.echo("ruleset (TOML):")
    click.echo("  " + meta["ruleset_toml"].rstrip().replace("\n", "\n  "))


def _games_line(path: str) -> str:
    totals = [n for n in open_dataset(Path(path)).schema.names if n.startswith("total_")]
    rows = pd.read_parquet(path, columns=["game", "deal", "dealer", "game_winner", *totals])
    g = game_results(rows)
    wins = ", ".join(f"side {k} {(g['winner'] == k).mean():.1%}" for k in range(len(totals)))
    return f"games: {len(g):,}, {g['deals'].mean():.2f} deals per game; won: {wins}"


@main.command()
@click.option(
    "--hands",
    "hands_text",
    default="2e6",
    show_default=True,
    metavar="N",
    help="Hands per stage measurement.",
)
@click.option("--no-end-to-end", is_flag=True, help="Skip the fresh-process 1e6-hand runs.")
@click.option(
    "--solver-deals",
    type=click.IntRange(0, 100_000),
    default=200,
    show_default=True,
    help="Full deals per preset for the double-dummy solver's times (0: skip them).",
)
@click.option("--solver-only", is_flag=True, help="Only the double-dummy solver's times.")
def bench(hands_text: str, no_end_to_end: bool, solver_deals: int, solver_only: bool) -> None:
    """Print hands per second per stage on 1 and 2 threads, end-to-end run times, and the
    double-dummy solver's time per full deal of each preset (one thread: median, p95, max,
    nodes).

    \b
    Examples:
      pinochle-sim bench
      pinochle-sim bench --solver-only --solver-deals 50
    """
    n = parse_count(hands_text)
    click.echo(f"machine: {bench_stages.machine()}")
    if not solver_only:
        for stage, k, rate in bench_stages.stage_rates(n):
            click.echo(f"{stage:<36} {k} thread{'s' if k > 1 else ' '}  {rate:>12,.0f} hands/s")
    if solver_deals:
        for preset in PRESETS:
            click.echo(bench_stages.solver_times(preset, solver_deals).line())
    if not no_end_to_end and not solver_only:
        runs = [("partnership", False), ("partnership", True)]
        runs += [("three-hand", False), ("two-hand", False)]
        for rules, cold in runs:
            secs = bench_stages.end_to_end(1_000_000, cold=cold, rules=rules)
            label = "cold compile cache" if cold else "warm compile cache"
            click.echo(f"end-to-end run --hands 1e6 --rules {rules:<12} {label:<18} {secs:8.2f} s")


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
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
@_user_errors
def report(run_dir: str, out: str | None, formats: str, only: tuple[str, ...]) -> None:
    """Write every chart, every table as CSV and a publishable report.md for a run folder.

    Studies (those that apply to the run's rules): meld_by_trump_length, meld_distribution,
    partner_meld, pass_value, bid_vs_meld, go_set, bidding_side_tricks, auction_summary;
    three-hand: widow_value; two-hand: meld_laid, early_tricks, score_margin; games runs
    (run --games): win_probability.

    \b
    Examples:
      pinochle-sim report results/runs/partnership-seed0-1000000
      pinochle-sim report r/j7 --out blog/ --format png --only go_set --only pass_value
      pinochle-sim report results/runs/two-hand-seed0-1000000
    """
    # The analysis layer (and matplotlib) loads only for commands that chart: ~0.4 s off the
    # start of every other command. No import loop is involved (cli is the top layer).
    from pinochle_sim.analysis.reports import write_report

    fmts = tuple(f.strip().lower() for f in formats.split(",") if f.strip())
    # Beside the run, not inside it: Parquet readers scan the whole run folder.
    run_path = os.path.normpath(run_dir)
    target = out or f"{run_path}-report"
    md = write_report(
        run_dir,
        target,
        fmts,
        list(only) or None,
        progress=lambda name: click.echo(f"  {name}", err=True),
    )
    click.echo(f"report written: {md}  (open it in any Markdown viewer)")


class PolicySpecParam(click.ParamType):
    """``default``, inline ``play=counting,bid.margin=-20``, or a policy TOML file."""

    name = "POLICIES"

    def convert(self, value: Any, param: Any, ctx: Any) -> tuple[str, PolicySet]:
        if isinstance(value, tuple):
            return value
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
@click.option("--threads", type=click.IntRange(1, 1024), default=None, help="Worker threads.")
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
    """
    # The analysis layer (and matplotlib) loads only for commands that chart: ~0.4 s off the
    # start of every other command. No import loop is involved (cli is the top layer).
    from pinochle_sim.analysis.compare import check_output, compare, write_match

    n = parse_count(hands_text)
    target = out or _default_out("compare", f"{_slug(a[0])}-vs-{_slug(b[0])}", ruleset, seed, n)
    check_output(target, overwrite, "pairs.parquet")
    bar = Progress(2 * n) if sys.stderr.isatty() else None
    with using(threads):
        match = compare(
            ruleset, a, b, n, seed, progress=(lambda k: bar.update(2 * k)) if bar else None
        )
    if bar:
        bar.close()
    path = write_match(match, target, overwrite)
    for line in _match_lines(match.summary):
        click.echo(line)
    click.echo(f"written: {path}/pairs.parquet, summary.csv, compare.png")


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", label).strip("_")[:60] or "policies"


def _default_out(kind: str, name: str, rules: Ruleset, seed: int, n: int) -> str:
    return f"results/{kind}/{rules.name}-{name}-seed{seed}-{n}"


def _match_lines(summary: Any) -> list[str]:
    a = summary.iloc[0]
    lines = [
        f"{a['policy']} minus {summary.iloc[1]['policy']}: {a['diff_per_deal']:+.2f} points per "
        f"deal (95% CI {a['diff_lo']:+.2f} to {a['diff_hi']:+.2f}), {int(a['deals']):,} deals"
    ]
    for _, r in summary.iterrows():
        if "make_rate" in r:
            lines.append(
                f"  {r['policy']}: mean score {r['mean_score']:.1f}/hand; bids won "
                f"{int(r['bids_won']):,}: made {r['make_rate']:.1%} "
                f"({r['make_lo']:.1%}-{r['make_hi']:.1%}), set {r['set_rate']:.1%}, "
                f"stuck {r['stuck_rate']:.1%}, mean bid {r['mean_bid']:.1f}"
            )
        else:
            lines.append(
                f"  {r['policy']}: mean score {r['mean_score']:.1f}/hand; won {r['win_rate']:.1%}"
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
@click.option("--threads", type=click.IntRange(1, 1024), default=None, help="Worker threads.")
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
) -> None:
    """Sweep one policy parameter: each value plays a duplicate match against a fixed opponent
    on the same deals. Prints and charts the gain per deal, mean score, make rate and mean bid
    against the parameter, with 95% confidence bands; writes sweep.csv and diffs.parquet.

    \b
    Examples:
      pinochle-sim sweep --param bid.margin=-40:40:10 --hands 1e5
      pinochle-sim sweep --param bid.risk=60,75,90 --base bid=calibrated --against default
    """
    # The analysis layer (and matplotlib) loads only for commands that chart: ~0.4 s off the
    # start of every other command. No import loop is involved (cli is the top layer).
    from pinochle_sim.analysis.compare import check_output, parse_range, sweep, write_sweep

    try:
        key, values = parse_range(param_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--param") from None
    n = parse_count(hands_text)
    target = out or _default_out("sweep", _slug(key), ruleset, seed, n)
    check_output(target, overwrite, "sweep.csv")
    bar = Progress(2 * n * len(values)) if sys.stderr.isatty() else None
    with using(threads):
        table, diffs = sweep(ruleset, base[1], key, values, against[1], n, seed,
                             progress=(lambda k: bar.update(2 * k)) if bar else None)  # fmt: skip
    if bar:
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


def run_cli() -> None:  # pragma: no cover - console entry point
    main(prog_name="pinochle-sim")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
