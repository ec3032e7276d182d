"""What the commands share: option decorators, parameter types, number parsing and the
conversion of a library's ``ValueError`` into a one-line error (never a traceback)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

import click

import pinochle_sim
from pinochle_sim import (
    KINDS,
    MAX_HAND_INDEX,
    MAX_RUN_HANDS,
    MAX_SEED,
    MAX_THREADS,
    POLICY_KINDS,
    REGISTRY,
    Observer,
    PolicySet,
    RulesError,
    Ruleset,
    StorageError,
    is_url,
    location,
    outlives_the_process,
    parse_policy_spec,
    resolve_rules,
)
from pinochle_sim.cli.interrupts import NOTHING_WRITTEN
from pinochle_sim.cli.progress import Progress

CLUSTER_INSTALL = 'pip install "pinochle-sim[cluster]"'


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library ``ValueError``s (bad cards, bad rules) and refused paths into one-line
    click errors."""

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
        type=click.IntRange(0, MAX_SEED),
        default=0,
        show_default=True,
        help="Seed of the deals (hand i of a seed is always the same deal).",
    )(func)


def threads_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--threads",
        type=click.IntRange(1, MAX_THREADS),
        default=None,
        help=f"Worker threads, 1 to {MAX_THREADS} (numba's limit here, the number of cores "
        "unless NUMBA_NUM_THREADS says otherwise) [default: all].",
    )(func)


def cluster_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--cluster",
        default=None,
        metavar="ADDRESS|local:N",
        help="Run the work as tasks on a Dask cluster: a scheduler address (tcp://host:8786) "
        "or local:N for N worker processes here; the same results as without it (needs "
        f"{CLUSTER_INSTALL}; docs/cluster.md).",
    )(func)


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
    try:  # Dask is an optional extra: the name loads its module, which imports Dask
        connect = pinochle_sim.connect_cluster
    except ImportError as e:
        raise click.ClickException(
            f"--cluster needs Dask, which is not installed ({e.name or e}): {CLUSTER_INSTALL}"
        ) from None
    backend = connect(address)
    with backend:
        if not quiet:
            click.echo(f"cluster: {backend.describe()}", err=True)
        yield backend


@contextlib.contextmanager
def observed_work(
    cluster: str | None,
    threads: int | None,
    total: int,
    unit: str = "hands",
    quiet: bool = False,
    interrupted: str = NOTHING_WRITTEN,
) -> Iterator[tuple[Any, Observer]]:
    """(the ``--cluster`` backend or None, the progress a person watches) for long work of
    ``total`` units; ``quiet``: nothing shown but one-line errors. The bar is closed, and the
    cluster let go, when the block ends; Ctrl-C inside it is the one line ``interrupted``."""
    with cluster_backend(cluster, threads, quiet) as backend:
        detail = backend.throughput if backend is not None else None
        bar = None if quiet else Progress(total, unit, detail=detail)
        try:
            yield backend, bar or Observer()
        except KeyboardInterrupt:
            raise click.ClickException(interrupted) from None
        finally:
            if bar is not None:
                bar.close()


@contextlib.contextmanager
def kept_on_interrupt(keep: str | None, deals: int, what: str) -> Iterator[None]:
    """Ctrl-C in a study that keeps its finished deals in ``keep`` (a match, a sweep, an
    advice): one line saying how many of its ``deals`` were kept and how to finish it."""
    try:
        yield
    except KeyboardInterrupt:
        kept = pinochle_sim.kept_deals(keep) if keep else 0
        if not kept:
            raise click.ClickException(NOTHING_WRITTEN) from None
        raise click.ClickException(
            f"interrupted: {kept:,} of {deals:,} deals are kept in {keep!r}; the same command "
            f"with --resume finishes the {what}"
        ) from None


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


class PolicySpecParam(click.ParamType):
    """``default``, inline ``play=counting,bid.margin=-20``, or a policy TOML file."""

    name = "POLICIES"

    def convert(self, value: Any, param: Any, ctx: Any) -> tuple[str, PolicySet | None]:
        if isinstance(value, tuple):
            return value
        if str(value).startswith("openspiel:"):  # an agent of another framework: see compare
            return str(value), None
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
    if n > MAX_RUN_HANDS:
        raise click.BadParameter(
            f"{text!r}: at most {MAX_RUN_HANDS:.0e} per run", param_hint=option
        )
    return n


def count_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--hands N`` of a duplicate match or a sweep (deals, each played once per side)."""
    return click.option(
        "--hands",
        "hands_text",
        default="1e5",
        show_default=True,
        metavar="N",
        help="Deals, each played once per side (1e5, 100_000 or 100000).",
    )(func)


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
        if not (lo >= 0 and hi <= MAX_HAND_INDEX + 1):
            raise click.BadParameter(
                f"{spec!r}: hand indices must be between 0 and 2**63 - 2",
                param_hint="--hand",
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


def lasting_out(out: str | None, what: str) -> str | None:
    """A run folder's ``--out`` that outlives the command (a folder, or a store such as
    ``s3://``); ``memory://`` and the like are a one-line error, before any work: the results
    would vanish with the process."""
    if out is not None and not outlives_the_process(out):
        raise click.ClickException(
            f"{out!r} lives only as long as this command: the {what} would be gone when it "
            "ends; give a folder or a store that keeps it (s3://..., a shared folder)"
        )
    return out


def local_out(out: str | None, what: str) -> str | None:
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
