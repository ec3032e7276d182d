"""A publishable report of a run: every chart (PNG/SVG), every table (CSV) and ``report.md``.

On Linux, where forking is safe, a report's work is shared out among worker processes: each
answers a share of the studies, reading the run part by part for the columns of its share, and
then draws charts, whichever study's table is ready (:class:`_Workers`). A process is not held back
by another's Python as threads are: the questions' loops and matplotlib both hold the GIL much
of the time."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import queue
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from pinochle_sim.analysis.reports import selfcheck
from pinochle_sim.analysis.reports.catalog import MADE_BY, STUDIES
from pinochle_sim.analysis.reports.gather import answer, share
from pinochle_sim.analysis.reports.load import (
    Data,
    Extent,
    column_names,
    extent,
    provenance_of,
    rules_of,
)
from pinochle_sim.analysis.reports.style import mark_partial, save
from pinochle_sim.rules import Ruleset
from pinochle_sim.runs.simulate.pool import MAX_THREADS
from pinochle_sim.runs.store.provenance import run_command


def write_report(
    data: Data,
    out: str | Path,
    formats: tuple[str, ...] = ("png", "svg"),
    only: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    allow_partial: bool = False,
    strict: bool = False,
    threads: int | None = None,
) -> Path:
    """Write charts, CSV tables and ``report.md`` for a run into ``out``; returns report.md.

    ``threads`` (default: every core numba may use) is how many share out the work: worker
    processes on Linux (each answers a share of the studies, then draws charts;
    see the module docstring), else threads that answer the questions while this process draws
    each chart as its table is ready.

    A report stopped halfway leaves no ``report.md`` (an earlier one is removed first).

    A partial run (interrupted, or a part file missing) is refused unless ``allow_partial``;
    then every title says so and counts only the rows read. ``report.md`` shows each chart as
    PNG (SVG when only SVG is asked for); with ``pdf`` alone a PNG is written for the page too,
    and every other format is linked.

    Estimates that have exact values are checked against them (:mod:`.selfcheck`): the
    comparisons go to ``self_check.csv`` and the end of report.md, and a failure puts a warning
    at its top; with ``strict`` a failure raises :class:`.selfcheck.SelfCheckError` once
    everything is written.
    """
    rules = rules_of(data)
    present = column_names(data)
    names = list(only or [n for n, st in STUDIES.items() if st.fits(rules, present)])
    unknown = [n for n in names if n not in STUDIES]
    if unknown:
        raise ValueError(f"unknown study {unknown[0]!r}: choose from {', '.join(STUDIES)}")
    for name in names:
        if not STUDIES[name].applies(rules):
            raise ValueError(f"study {name!r} does not apply to rules {rules.name!r}")
        missing = [c for c in STUDIES[name].requires if c not in present]
        if missing:
            how = "; ".join(MADE_BY[c] for c in missing if c in MADE_BY)
            raise ValueError(
                f"study {name!r} does not apply to this run: it has no column(s) "
                f"{', '.join(missing)}" + (f" ({how})" if how else "")
            )
    bad = [f for f in formats if f not in ("png", "svg", "pdf")]
    if bad or not formats:
        raise ValueError(f"unknown chart format {bad[0] if bad else ''!r}: use png, svg or pdf")
    ext = extent(data)
    if ext.partial and not allow_partial:
        raise ValueError(_partial_refusal(data, ext))
    names, left_out = _enough_hands(names, ext.rows, explicit=bool(only))
    if progress and left_out:
        progress(f"left out (too few hands): {left_out}")
    meta = ext.chart_meta(provenance_of(data))
    page = "png" if "png" in formats or "svg" not in formats else "svg"
    written = tuple(dict.fromkeys((*formats, page)))  # pdf alone: a PNG for the page too
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.md").unlink(missing_ok=True)  # until this report is whole, none is there
    sections = []
    checks = []
    if progress:
        progress(f"reading {ext.describe()} for {len(names)} questions")
    work = _Workers(meta, out, written, min(_workers(threads), len(names)), progress)
    try:
        tables = work.answer(data, names, rules)
        for name, table in zip(names, tables, strict=True):
            study = STUDIES[name]
            table.to_csv(out / f"{name}.csv", index=False)
            if study.checks:
                checks.append(study.checks(table).assign(study=name))
            others = [f"[{f.upper()}]({name}.{f})" for f in formats if f != page]
            links = f" · chart as {', '.join(others)}" if others else ""
            sections.append(
                f"## {study.title}\n\n![{study.title}]({name}.{page})\n\n"
                f"{study.text(table, rules)}\n\nData: [`{name}.csv`]({name}.csv){links}\n"
            )
        work.wait()
    finally:
        work.close()
    check = pd.concat(checks, ignore_index=True) if checks else pd.DataFrame()
    top = ""
    if len(check):
        check = check[selfcheck.COLUMNS]
        check.to_csv(out / "self_check.csv", index=False)
        top = selfcheck.summary_line(check)
        sections.append(selfcheck.section(check))
    md = out / "report.md"
    tmp = out / f".report.md.tmp-{os.getpid()}"
    omitted = f"*Left out, too few hands for them*: {left_out}.\n\n" if left_out else ""
    tmp.write_text(_header(meta, ext) + omitted + top + "\n".join(sections), encoding="utf-8")
    os.replace(tmp, md)
    if strict and len(check) and len(selfcheck.failures(check)):
        raise selfcheck.SelfCheckError(selfcheck.error_message(check, md), md)
    return md


def _enough_hands(names: list[str], rows: int, explicit: bool) -> tuple[list[str], str]:
    """The studies a run of ``rows`` hands holds enough for, and the others as text
    (``meld_distribution (needs 1,000 hands)``); a study asked for by name that it cannot hold,
    or a run too small for any, is a one-line error."""
    short = [n for n in names if rows < STUDIES[n].min_hands]
    if short and explicit:
        n = short[0]
        raise ValueError(
            f"study {n!r} needs at least {STUDIES[n].min_hands:,} hands; the run has {rows:,}"
        )
    kept = [n for n in names if n not in short]
    if not kept:
        least = min(STUDIES[n].min_hands for n in names)
        raise ValueError(f"the run has {rows:,} hands; the smallest of its studies needs {least:,}")
    return kept, ", ".join(f"{n} (needs {STUDIES[n].min_hands:,} hands)" for n in short)


def _workers(threads: int | None) -> int:
    if threads is None:
        return MAX_THREADS
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be between 1 and {MAX_THREADS}")
    return threads


def _in_worker(job: tuple[Callable[[Any], Any], Any]) -> Any:
    """``task(arg)`` in a worker process: whatever stops it reaches the report's process as an
    error it can receive (:func:`_portable`)."""
    task, arg = job
    try:
        return task(arg)
    except BaseException as e:
        raise _portable(e) from None


def _portable(e: BaseException) -> Exception:
    """``e`` where it comes back through a pickle as it went, else a ValueError with its text:
    a pool's worker dies of anything but an ``Exception``, and an exception whose class takes
    other arguments kills the pool's result thread when it is unpickled; either way the report
    would wait forever."""
    if isinstance(e, Exception):
        with contextlib.suppress(Exception):
            pickle.loads(pickle.dumps(e))
            return e
    return ValueError(f"a report worker stopped: {type(e).__name__}: {e}")


def _answer_share(job: tuple[Data, tuple[str, ...], Ruleset]) -> list[pd.DataFrame]:
    """The tables of some of a report's studies, in order (in a worker process, which reads the
    run part by part for their columns alone)."""
    data, names, rules = job
    return answer(data, [STUDIES[name].ask(rules) for name in names])


def _draw_one(job: tuple[str, pd.DataFrame, dict[str, Any], str, tuple[str, ...]]) -> str:
    """Draw and save one study's chart (in this process or a worker); returns its name."""
    name, table, meta, stem, formats = job
    fig = STUDIES[name].chart(table, meta)
    mark_partial(fig, meta)
    save(fig, stem, formats)
    return name


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


CLOSE_WAIT = 5.0
"""Seconds a report waits for its worker pool to shut down (normally a few milliseconds)."""
WORKER_LOST = (
    "a report worker process ended before its work was done (out of memory, or killed); "
    "run the report again, or with --threads 1"
)


class _Workers:
    """A report's worker processes, forked before anything is read (with more than one worker,
    on Linux). Each first answers a share of the studies (:func:`share`, by the
    columns they read), then draws charts in the order their tables come in; one that finishes
    its share early draws the other's charts. They ignore Ctrl-C (:func:`_ignore_ctrl_c`): the
    report's process takes it and stops them. Without workers (or for a DataFrame, which is in
    this process's memory only), the questions are answered here, shared out among threads,
    and each chart is drawn here when its table is ready."""

    def __init__(
        self,
        meta: dict[str, Any],
        out: Path,
        formats: tuple[str, ...],
        workers: int,
        progress: Callable[[str], None] | None,
    ) -> None:
        self.meta, self.out, self.formats, self.progress = meta, out, formats, progress
        self.workers = workers
        self.pending: list[Any] = []
        self.pool = None
        self.pids: set[int] = set()
        if workers > 1 and sys.platform == "linux":  # fork is safe there (not on macOS)
            before = {p.pid for p in multiprocessing.active_children()}
            self.pool = multiprocessing.get_context("fork").Pool(workers, _ignore_ctrl_c)
            self.pids = {p.pid for p in multiprocessing.active_children()} - before

    def answer(self, data: Data, names: list[str], rules: Ruleset) -> list[pd.DataFrame]:
        """The studies' tables, in order; each one's chart is asked for as its table comes."""
        asks = [STUDIES[name].ask(rules) for name in names]
        if self.pool is None or isinstance(data, pd.DataFrame):
            ready = lambda i, table: self.draw(names[i], table)  # noqa: E731
            return answer(data, asks, threads=self.workers, ready=ready)
        done: queue.SimpleQueue[tuple[list[int] | None, Any]] = queue.SimpleQueue()
        shares = share(asks, self.workers)
        for s in shares:
            self.pool.apply_async(
                _in_worker,
                ((_answer_share, (data, tuple(names[i] for i in s), rules)),),
                callback=lambda got, s=s: done.put((s, got)),
                error_callback=lambda e: done.put((None, e)),
            )
        tables: list[pd.DataFrame] = [pd.DataFrame()] * len(names)
        for _ in shares:
            indices, got = self._next(done)
            if indices is None:
                raise got  # a worker's error (a damaged part, say), told as it was raised
            for i, table in zip(indices, got, strict=True):
                tables[i] = table
                self.draw(names[i], table)
        return tables

    def draw(self, name: str, table: pd.DataFrame) -> None:
        job = (name, table, self.meta, str(self.out / name), self.formats)
        if self.pool is None:
            _draw_one(job)
            if self.progress:
                self.progress(name)
        else:
            self.pending.append(self.pool.apply_async(_in_worker, ((_draw_one, job),)))

    def wait(self) -> None:
        """Wait for every chart asked for (one that failed raises here)."""
        for result in self.pending:
            while not result.ready():
                result.wait(0.1)
                self._check()
            name = result.get()
            if self.progress:
                self.progress(name)
        self.pending.clear()

    def _next(self, done: queue.SimpleQueue[Any]) -> Any:
        """The next item of ``done``, waited for in short steps: Ctrl-C is taken at once, and
        a worker that is gone (a pool does not say so) is an error, not a wait forever."""
        while True:
            try:
                return done.get(timeout=0.1)
            except queue.Empty:
                self._check()

    def _check(self) -> None:
        """A one-line error if a worker process has ended (they end only when closed)."""
        if not self.pids <= {p.pid for p in multiprocessing.active_children()}:
            raise ValueError(WORKER_LOST)

    def close(self) -> None:
        """Stop the worker processes. After a worker has died, a pool's own ``terminate`` can
        wait forever (its task thread blocked on a queue lock: seen once in a full test run), so
        it is given :data:`CLOSE_WAIT` seconds on a daemon thread; past that the workers still
        running are killed and the pool's threads are left to the process's exit."""
        if self.pool is None:
            return
        stop = threading.Thread(target=self.pool.terminate, name="report pool", daemon=True)
        stop.start()
        stop.join(CLOSE_WAIT)
        if stop.is_alive():
            for p in list(getattr(self.pool, "_pool", ())):
                if p.exitcode is None:
                    p.kill()
        else:
            self.pool.join()


def _partial_refusal(data: Data, ext: Extent) -> str:
    """The one-line refusal to report on a partial run, naming both ways forward."""
    where = "the data" if isinstance(data, pd.DataFrame) else repr(str(data))
    why = []
    if ext.planned is not None and ext.read < ext.planned:
        why.append(f"it holds {ext.describe()}")
    if ext.marked_complete is False:
        why.append("its manifest marks it incomplete")
    resume = "" if isinstance(data, pd.DataFrame) else f" --out {data}"
    return (
        f"{where} is a partial run ({' and '.join(why)}: interrupted, or a part file is "
        f"missing); finish it with `pinochle-sim run ...{resume} --resume` (the options it was "
        f"started with), or pass --allow-partial to report on the {ext.read:,} {ext.unit} read"
    )


def _header(meta: dict[str, Any], ext: Extent) -> str:
    """Title, provenance and how to regenerate, with the counts of the rows actually read."""
    if "policies" not in meta:
        return "# pinochle-sim report\n\n" + (
            f"**Partial run**: {ext.describe()}.\n\n" if ext.partial else ""
        )
    pol = "; ".join(
        f"{k}: {v['name']}"
        + (
            " (" + ", ".join(f"{p}={x}" for p, x in v["params"].items()) + ")"
            if v["params"]
            else ""
        )
        for k, v in meta["policies"].items()
    )
    unit = ext.unit
    planned = ext.planned if ext.planned is not None else ext.read
    deals = f" ({ext.rows:,} deals)" if unit == "games" else ""
    partial = " (partial run)" if ext.partial else ""
    count = f"{ext.read:,} read of {planned:,} planned" if ext.partial else f"{ext.read:,}"
    warning = (
        f"> **Partial run.** The run folder holds {ext.describe()} it was started for (it was "
        "interrupted, or a part file is missing). Every number and chart below comes from the "
        f"{ext.read:,} {unit} read. Finish the run with `pinochle-sim run` and its options plus "
        "`--resume`, then report again.\n\n"
        if ext.partial
        else ""
    )
    return (
        f"# What {ext.read:,} simulated Pinochle {unit} say{partial}\n\n"
        f"*Rules* `{meta['rules']}` · *seed* {meta['seed']} · *{unit}* {count}{deals} · "
        f"*pinochle-sim* {meta['package_version']} (engine {meta['engine_version']}) · "
        f"*created* {meta['created']}\n\n"
        f"*Policies* {pol}\n\n"
        f"{warning}"
        "Every number comes with a 95% confidence interval (Wilson for proportions, ±1.96 "
        "standard errors for means); every chart states its sample. Regenerate with "
        f"`{_run_command(meta, ext, planned)}` and `pinochle-sim report RUN`.\n\n"
    )


def _run_command(meta: dict[str, Any], ext: Extent, planned: int) -> str:
    """The command that makes the run again into ``RUN``: from the manifest's settings (every
    option), else from a part file's provenance (rules, seed, policies, dealer)."""
    settings = ext.settings
    if settings is None:
        seat = meta.get("dealer")
        settings = {
            "unit": ext.unit,
            "hands": planned,
            "seed": meta["seed"],
            "rules_name": meta.get("rules", ""),
            "rules_toml": meta.get("ruleset_toml"),
            "policies": meta.get("policies") or {},
            "dealer": seat if isinstance(seat, int) else None,
        }
    return run_command(settings, "RUN")
