"""``run``: simulate a range of hands (or whole games) into a Parquet run folder, resumable.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     summary = run(2000, seed=0, out=d + "/run")
>>> summary.hands
2000
"""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np

from pinochle_sim.engines import EngineInputs, engine_for
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.backend import Backend, InputsSpec
from pinochle_sim.runs.dataset import (
    META_KEY,
    RunFolder,
    RunFolderError,
    RunSettings,
    column_array,
    provenance,
    read_columns,
    write_part_file,
)
from pinochle_sim.runs.dd import dd_block
from pinochle_sim.runs.dd import estimate_seconds as dd_seconds
from pinochle_sim.runs.dd import warm_up as warm_up_dd
from pinochle_sim.runs.games import play_games_array
from pinochle_sim.runs.parallel import threads
from pinochle_sim.runs.records import TableBuilder, fields_for, to_table
from pinochle_sim.runs.simulate import (
    Fixed,
    check_dealer,
    check_range,
    deal_constraints,
    describe_constraints,
    engine_inputs,
    play_hands_array,
)
from pinochle_sim.runs.storage import StorageError, UrlPath, is_url, location
from pinochle_sim.runs.warmup import Notify, warm_up

DEFAULT_PART_SIZE = 1 << 17
DD_PART_SIZE = 1 << 9
"""Hands per part of a ``--dd`` run (unless the caller sets one): a part is what an
interruption can lose, and 512 partnership deals take minutes to solve."""
GAMES_PART_SIZE = 1 << 14
"""Games per part file in a games run (a two-hand game is ~4 deals, a partnership one ~7)."""


@dataclass(frozen=True)
class RunSummary:
    """What a finished run reports. Auction figures are None for runs without an auction (two
    seats each scoring for itself), whose ``win_rates`` (seat 0, seat 1, tie) are None for
    auction runs."""

    path: str
    hands: int
    hands_computed: int
    seconds: float
    bytes: int
    mean_seat_meld: float
    mean_bidding_meld: float | None = None
    stuck_rate: float | None = None
    make_rate: float | None = None
    concede_rate: float | None = None
    mean_bid: float | None = None
    mean_score: float | None = None
    win_rates: tuple[float, float, float] | None = None
    games: int | None = None
    """Games runs: the number of games (``hands`` then counts their deals)."""
    game_wins: tuple[float, ...] | None = None
    """Games runs: each side's share of the games won."""
    compile_seconds: float = 0.0
    """Time spent compiling or loading the kernels before the clock started (not in
    ``seconds``)."""
    repairs: tuple[str, ...] = ()
    """What ``resume`` mended: damaged parts set aside and simulated again, a rebuilt
    manifest."""

    @property
    def hands_per_second(self) -> float:
        return self.hands_computed / self.seconds if self.seconds > 0 else float("inf")

    @property
    def headline(self) -> str:
        """One line of the run's main figures."""
        if self.games is not None:
            wins = ", ".join(f"side {k} {w:.1%}" for k, w in enumerate(self.game_wins or ()))
            return (
                f"{self.games:,} games, {self.hands / self.games:.2f} deals per game; "
                f"games won: {wins}"
            )
        if self.win_rates is not None:
            w0, w1, tie = self.win_rates
            return (
                f"mean meld per seat {self.mean_seat_meld:.1f}; mean score per seat "
                f"{self.mean_score:.1f}; seat 0 wins {w0:.1%}, seat 1 {w1:.1%}, ties {tie:.1%}"
            )
        return (
            f"mean meld per seat {self.mean_seat_meld:.1f}, bidding side "
            f"{self.mean_bidding_meld:.1f}; mean bid {self.mean_bid:.1f}; stuck "
            f"{self.stuck_rate:.1%}; made {self.make_rate:.1%}; conceded {self.concede_rate:.1%}"
        )


def default_out_dir(rules: Ruleset, seed: int, hands: int, games: bool = False) -> str:
    return f"results/runs/{rules.name}-seed{seed}-{hands}" + ("games" if games else "")


BYTES_PER_HAND = {"auction": 56, "two-hand": 54}
"""Measured bytes per stored hand (per deal in a games run; 262,144-hand runs, default
policies: partnership 53.3, three-hand 48.1, two-hand 50.8; games 53-57), rounded up. An
engine not listed is estimated at its uncompressed row width."""
THREAD_SECONDS_PER_MILLION = {"auction": 12.0, "two-hand": 32.0}
"""Conservative end-to-end seconds per million hands on one thread, Parquet writing included:
twice what the 2-core machine measures when it is otherwise idle (3.3 s and 7.9 s per million
on 2 threads), since a shared machine is often slower."""
POINTS_PER_DEAL = {"auction": 160, "two-hand": 220}
"""A conservative (low) number of points a side gains per deal, for the deals a game lasts:
partnership games took 6.9 deals to 1500, three-hand 8.6, two-hand 3.6 to 1000."""


@dataclass(frozen=True)
class RunEstimate:
    """What a run is expected to cost before it starts."""

    units: int
    """Hands (games in a games run) still to compute."""
    rows: int
    """Rows to store (deals in a games run, estimated)."""
    bytes: int
    seconds: float
    free_bytes: int | None
    """Free space where the run folder goes (None if it cannot be told)."""
    threads: int
    dd_seconds: float | None = None
    """Time to solve the hands double dummy (``--dd`` runs), included in ``seconds``."""

    @property
    def fits(self) -> bool:
        return self.free_bytes is None or self.bytes <= self.free_bytes

    def text(self) -> str:
        free = "" if self.free_bytes is None else f"; {_size(self.free_bytes)} free there"
        k = f"{self.threads} thread{'s' * (self.threads > 1)}"
        text = (
            f"estimated {_size(self.bytes)} on disk and about {_duration(self.seconds)} on "
            f"{k}{free}"
        )
        if self.dd_seconds is not None:
            text += (
                f"\nsolving {self.units:,} deals double dummy: about "
                f"{_duration(self.dd_seconds)} on {k}"
            )
        return text


def _size(n: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return ""  # pragma: no cover


def _duration(s: float) -> str:
    if s < 90:
        return f"{max(s, 1):.0f} s"
    if s < 90 * 60:
        return f"{s / 60:.0f} min"
    if s < 48 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"


def estimate(
    inputs: EngineInputs,
    units: int,
    games: bool,
    out: str | Path,
    threads_: int | None = None,
    dd: bool = False,
) -> RunEstimate:
    """Disk space and time ``units`` more hands (games) of these inputs should take (``dd``:
    solving them double dummy included, from a measured time per deal)."""
    r = inputs.rules
    name = inputs.engine.name
    deals = 1.0
    if games:
        per_deal = POINTS_PER_DEAL.get(name, 100) / r.scale
        deals = max(1.0, math.ceil(r.game_target / per_deal))
    rows = int(units * deals)
    width = BYTES_PER_HAND.get(name)
    if width is None:
        width = sum(max(1, t.bit_width // 8) for _, t, _ in fields_for(r, games))
    n_threads = threads_ or numba.get_num_threads()
    per_row = THREAD_SECONDS_PER_MILLION.get(name, 20.0) / 1e6 / n_threads
    solve_s = dd_seconds(inputs, units, n_threads) if dd else None
    if dd:
        width += 3
    return RunEstimate(
        units,
        rows,
        rows * width,
        rows * per_row + (solve_s or 0.0),
        _free_bytes(out),
        n_threads,
        solve_s,
    )


def _free_bytes(out: str | Path) -> int | None:
    if is_url(out):
        return None  # a store's free space is not ours to know: the first failed write says
    for parent in (Path(out).absolute(), *Path(out).absolute().parents):
        if parent.exists():
            try:
                return shutil.disk_usage(parent).free
            except OSError:
                return None
    return None  # pragma: no cover - the root exists


def local_path(out: str) -> str:
    """The run folder ``out`` names: a path, a ``file://`` URL (its path), or another fsspec
    URL (``s3://bucket/runs/p0``: kept as it is, read and written through fsspec). A URL fsspec
    cannot open (an unknown scheme, its driver not installed) is a :class:`RunFolderError`."""
    try:
        where = location(out)
    except StorageError as e:
        raise RunFolderError(str(e)) from None
    if isinstance(where, UrlPath) and where.parent == where:
        raise RunFolderError(
            f"{out!r} names no folder below the bucket or root: give one, e.g. "
            f"{out.rstrip('/')}/runs/p0"
        )
    return out if isinstance(where, UrlPath) else str(where)


def run(
    hands: int,
    seed: int = 0,
    rules: str | Ruleset | None = None,
    policies: PolicySet | None = None,
    out: str | None = None,
    threads_: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    part_size: int = DEFAULT_PART_SIZE,
    dealer: int | None = None,
    progress: Callable[[int], None] | None = None,
    games: bool = False,
    notify: Notify | None = None,
    force: bool = False,
    plan: Callable[[RunEstimate], None] | None = None,
    fixed: Fixed | None = None,
    backend: Backend | None = None,
    dd: bool = False,
) -> RunSummary:
    """Simulate ``hands`` hands of ``seed`` into a Parquet run folder (see :mod:`dataset`).

    Part ``k+1`` is computed while part ``k`` is written on a thread; memory holds two parts at
    most whatever ``hands`` is. ``progress(n)`` is called with the hands finished each time
    (first with the hands already done, once the kernels are compiled). With ``games``,
    ``hands`` counts whole games played to the target (:mod:`.games`), one row per deal;
    ``dealer`` must then be None (the deal rotates within each game). ``fixed`` pins cards to
    seats (:func:`~pinochle_sim.runs.simulate.play_hands`); provenance records them.

    Before anything is written: the folder is checked (``resume``/``overwrite``), the run's
    size and time are estimated (``plan`` receives the :class:`RunEstimate`) and a run the free
    disk space cannot hold is refused unless ``force``; then the kernels are compiled or loaded
    (:func:`~pinochle_sim.runs.warmup.warm_up`, announced to ``notify``), outside the clock.

    With a ``backend`` (:mod:`pinochle_sim.runs.cluster`), each part is one task on its
    workers: the backend first checks that every worker can write ``out`` and warms the
    kernels on every worker; each worker then computes and writes whole parts
    (:func:`part_task`, the same :func:`make_part` as here) and this process keeps the
    manifest. ``threads_`` is then ignored: a task runs on one thread of its worker.

    ``dd`` adds the double-dummy columns (:mod:`pinochle_sim.runs.dd`) to every record: each
    part is solved after it is simulated, on every thread, ``progress`` told as chunks of hands
    are solved; parts are :data:`DD_PART_SIZE` hands unless ``part_size`` says otherwise.
    """
    if hands < 1:
        raise ValueError(f"hands must be a positive whole number, got {hands}")
    if part_size < 1:
        raise ValueError("part_size must be positive")
    inputs = engine_inputs(rules, policies)
    check_range(seed, 0, hands)
    check_dealer(inputs, dealer)  # before the folder is made
    if games and dealer is not None:
        raise ValueError("a games run rotates the dealer: it cannot be fixed")
    fx = deal_constraints(inputs, fixed)
    if games and fixed:
        raise ValueError("a games run deals every card freely: fixed cards are for hand runs")
    if games:
        part_size = min(part_size, GAMES_PART_SIZE)
    if dd and games:
        raise ValueError("--dd solves single hands: it cannot be combined with a games run")
    if dd and part_size == DEFAULT_PART_SIZE:
        part_size = DD_PART_SIZE
    settings = RunSettings(
        inputs.rules,
        inputs.policies,
        seed,
        hands,
        part_size,
        dealer,
        games=games,
        kinds=inputs.policy_kinds,
        engine_version=inputs.engine.version,
        fixed=describe_constraints(fx, inputs.rules.players) or None,
        dd=dd,
    )
    path = out or default_out_dir(inputs.rules, seed, hands, games)
    path = local_path(path)
    folder = RunFolder(path, settings, resume=resume, overwrite=overwrite)  # reads only
    if backend is not None:
        threads_ = None
    with threads(threads_):
        n_threads = backend.slots if backend is not None else threads_
        plan_ = estimate(inputs, hands - folder.listed_done(), games, path, n_threads, dd)
        if overwrite and folder.exists and plan_.free_bytes is not None:  # freed on open
            plan_ = dataclasses.replace(plan_, free_bytes=plan_.free_bytes + folder.size_bytes())
        if plan:
            plan(plan_)
        if not (plan_.fits or force):
            raise RunFolderError(
                f"not enough disk space: the run needs about {_size(plan_.bytes)} and "
                f"{_duration(plan_.seconds)}, but {_size(plan_.free_bytes or 0)} are free where "
                f"{str(path)!r} goes (pass --force to start it anyway)"
            )
        entry = "play_games" if games else "play_chunk"

        def warm() -> float:
            if backend is None:
                return warm_up(inputs, entry, notify)
            return backend.warm([InputsSpec.of(inputs)], entry, notify)

        if backend is not None:
            backend.check_path(str(folder.path.absolute()))
        # Compile before the folder is touched (Ctrl-C here leaves nothing behind), unless the
        # manifest says nothing is left to do: then only if the checks on open find damage.
        compile_s = warm() if plan_.units else 0.0
        if dd and plan_.units:
            compile_s += warm_up_dd(inputs, notify)
        folder.open()
        if folder.todo() and not plan_.units:
            compile_s = warm()
    if progress:
        progress(folder.hands_done())
    t0 = time.perf_counter()
    if backend is not None:
        computed = _run_on(backend, inputs, folder, fx, progress)
        return _summarise(path, folder, computed, time.perf_counter() - t0, compile_s)
    computed = 0
    buffer = None if games or dd else part_buffer(inputs, min(part_size, hands))
    with threads(threads_), ThreadPoolExecutor(max_workers=1) as pool:
        pending = None
        pending_count = 0
        for k in folder.todo():
            _, count = settings.part_range(k)
            table = make_part(inputs, settings, k, fx, folder.created, buffer, progress)
            if pending is not None:
                pending.result()
                if progress and not dd:
                    progress(pending_count)
            pending = pool.submit(folder.write_part, k, table)
            pending_count = count
            computed += table.num_rows
        if pending is not None:
            pending.result()
            if progress and not dd:
                progress(pending_count)
    seconds = time.perf_counter() - t0
    return _summarise(path, folder, computed, seconds, compile_s)


def make_part(
    inputs: EngineInputs,
    settings: RunSettings,
    k: int,
    fx: np.ndarray,
    created: str,
    buf: np.ndarray | None = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """Part ``k`` of a run as the Arrow table its file holds (records and provenance): what
    a local run and a cluster worker both compute, so their records are the same by
    construction. ``buf`` (``out[column, hand]`` of the part's size) is reused if given.

    A per-part step that adds columns computed from the records belongs here, so that both
    paths get it: with ``settings.dd`` the double-dummy columns (:mod:`.dd`), solved on every
    thread, ``progress`` told as chunks of hands are solved."""
    start, count = settings.part_range(k)
    meta = {META_KEY: json.dumps(provenance(settings, start, count, created)).encode()}
    if settings.games:
        out = play_games_array(inputs, settings.seed, start, count)
        return to_table(out, inputs.rules, meta, games=True)
    if settings.dd:  # the solver reads the whole part's output
        out = play_hands_array(inputs, settings.seed, start, count, dealer=settings.dealer, fx=fx)
        solved = dd_block(inputs, settings.seed, start, out, settings.dealer, fx, progress)
        return to_table(np.concatenate([out, solved]), inputs.rules, meta, dd=True)
    # Hands are played a batch at a time into one buffer, narrowed into the table's columns
    # while the batch is in cache: the part's int64 output (67 MB at the default part size)
    # would be fresh memory for the kernel to touch, at about 3 ms a MB on a new VM.
    if buf is None:
        buf = part_buffer(inputs, count)
    builder = TableBuilder(inputs.rules, count)
    for lo in range(0, count, buf.shape[1]):
        n = min(buf.shape[1], count - lo)  # the whole buffer goes in: a view is another type
        play_hands_array(inputs, settings.seed, start + lo, n, dealer=settings.dealer, out=buf,
                         fx=fx)  # fmt: skip
        builder.add(buf[:, :n], lo)
    return builder.table(meta)


PART_BATCH = 16_384
"""Hands played into the buffer at a time (:func:`make_part`): four 4,096-hand chunks, 9 MB."""


def part_buffer(inputs: EngineInputs, count: int) -> np.ndarray:
    """The int64 buffer :func:`make_part` plays a part of ``count`` hands in."""
    return np.empty((inputs.layout.ncol, min(count, PART_BATCH)), dtype=np.int64)


@dataclass(frozen=True)
class PartTask:
    """One part of a run, as a worker receives it (picklable; see :func:`part_task`)."""

    spec: InputsSpec
    settings: RunSettings
    fx: np.ndarray
    created: str
    """The run's creation time (the provenance every part of the run carries)."""
    path: str
    """The run folder, as the workers see it."""
    k: int

    @property
    def units(self) -> int:
        """Hands (games) the task computes (for per-worker throughput)."""
        return self.settings.part_range(self.k)[1]


def part_task(task: PartTask) -> dict[str, Any]:
    """Simulate part ``task.k`` on one thread and write it atomically into the run folder;
    returns its manifest entry fields (the client records them)."""
    with threads(1):
        table = make_part(task.spec.build(), task.settings, task.k, task.fx, task.created)
    return write_part_file(task.path, task.k, table) | {"rows": table.num_rows}


def _run_on(
    backend: Backend,
    inputs: EngineInputs,
    folder: RunFolder,
    fx: np.ndarray,
    progress: Callable[[int], None] | None,
) -> int:
    """The parts still to do, as tasks on ``backend``'s workers; the manifest is updated here
    as each part lands. Returns the rows computed."""
    settings = folder.settings
    spec = InputsSpec.of(inputs)
    todo = folder.todo()
    where = str(folder.path.absolute())  # the workers' working folders may differ from ours
    tasks = [PartTask(spec, settings, fx, folder.created, where, k) for k in todo]
    rows = 0

    def done(i: int, entry: dict[str, Any]) -> None:
        nonlocal rows
        folder.add_part(todo[i], entry)
        rows += int(entry["rows"])
        if progress:
            progress(settings.part_range(todo[i])[1])

    try:
        backend.map(part_task, tasks, done)
    finally:
        folder.clean_temporaries()  # what a worker killed mid-write left
    return rows


def _summarise(
    path: str, folder: Any, computed: int, seconds: float, compile_s: float
) -> RunSummary:
    r = folder.settings.rules
    common = {
        "path": str(path),
        "hands_computed": computed,
        "seconds": seconds,
        "bytes": folder.size_bytes(),
        "compile_seconds": compile_s,
        "repairs": tuple(folder.repairs),
    }
    if folder.settings.games:
        t = read_columns(path, ["game_winner"])
        w = column_array(t, "game_winner").astype(np.int64)
        n_games = int((w >= 0).sum())
        return RunSummary(
            **common,
            hands=len(w),
            mean_seat_meld=float("nan"),
            games=n_games,
            game_wins=tuple(float((w == k).sum() / max(n_games, 1)) for k in range(r.teams)),
        )
    if not engine_for(r).has_auction:
        cols = ["meld_0", "meld_1", "score_0", "score_1", "winner"]
        t = read_columns(path, cols)
        d = {c: column_array(t, c).astype(np.int64) for c in cols}
        w = d["winner"]
        return RunSummary(
            **common,
            hands=len(w),
            mean_seat_meld=float((d["meld_0"].mean() + d["meld_1"].mean()) / 2),
            mean_score=float((d["score_0"].mean() + d["score_1"].mean()) / 2),
            win_rates=(float((w == 0).mean()), float((w == 1).mean()), float((w < 0).mean())),
        )
    sides = range(r.teams)
    seats = range(r.players)
    cols = ["bidder", "bid", "stuck", "made", "conceded"]
    cols += [f"team_meld_{k}" for k in sides] + [f"meld_{p}" for p in seats]
    t = read_columns(path, cols)
    d = {c: column_array(t, c) for c in cols}
    bidder = d["bidder"].astype(np.int64)
    bside = bidder % 2 if r.partnerships else bidder
    side_meld = np.stack([d[f"team_meld_{k}"] for k in sides])
    bid_meld = side_meld[bside, np.arange(len(bidder))]
    seat_meld = np.mean([d[f"meld_{p}"].mean() for p in seats])
    return RunSummary(
        **common,
        hands=len(bidder),
        mean_seat_meld=float(seat_meld),
        mean_bidding_meld=float(bid_meld.mean()),
        stuck_rate=float(d["stuck"].mean()),
        make_rate=float(d["made"].mean()),
        concede_rate=float(d["conceded"].mean()),
        mean_bid=float(d["bid"].mean()),
    )
