"""The progress a person watches on stderr: the command line's :class:`~pinochle_sim.Observer`."""

from __future__ import annotations

import sys
import threading
import time
import weakref
from collections.abc import Callable

import click

from pinochle_sim import Observer, RunEstimate, WorkEstimate
from pinochle_sim.cli.interrupts import INTERRUPTED

LINE_EVERY_S = 10.0
"""The longest a watcher waits for the next progress line (or redraw of the bar)."""


class Progress(Observer):
    """Progress of a long job on stderr: a redrawn bar on a terminal, and without one a line
    about every 10% and at least every :data:`LINE_EVERY_S` seconds (a line comes even while
    no unit finishes: a slow part, a long solve). A cold compile is announced whatever stderr
    is (it is the one long silent wait). Rates and the ETA start after the compile and leave
    the units done before a resume out. ``quiet``: the compile notice only (``show``)."""

    def __init__(
        self,
        total: int,
        unit: str = "hands",
        tty: bool | None = None,
        quiet: bool = False,
        detail: Callable[[], str] | None = None,
        heartbeat: bool = True,
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
        self.last_line = self.t0
        self.next_line = 0.1
        self.drawn = False
        self.lock = threading.RLock()
        self.closed = threading.Event()
        self.beat: threading.Thread | None = None
        self.heartbeat = heartbeat and not quiet and total > 0
        self.last_done = self.t0
        """When units last finished."""
        self.compile_since: float | None = None
        """When the compile under way began (None: none is)."""
        self.compile_about = 0.0
        self.planned_s: float | None = None
        """The estimate's seconds for the work left: the ETA until the first units finish."""

    def plan(self, estimate: RunEstimate | WorkEstimate) -> None:
        with self.lock:
            if estimate.units:
                self.planned_s = estimate.seconds
            if not self.quiet and estimate.units:
                self._break_line()
                click.echo(estimate.text(), err=True)

    def compiling(self, what: str, estimate_s: float) -> None:
        with self.lock:
            self.compile_since = time.perf_counter()
            self.compile_about = estimate_s
            self.last_line = self.compile_since
            if self.heartbeat and self.beat is None:  # a line every 10 s while it compiles
                self.beat = threading.Thread(target=_beat, args=(weakref.ref(self),))
                self.beat.daemon = True
                self.beat.start()
            self._break_line()
            click.echo(
                f"compiling the engine for these policies (once a machine, about "
                f"{estimate_s:.0f} s): {what}",
                err=True,
            )

    def compiled(self, what: str, seconds: float) -> None:
        self.compile_since = None
        _raise_if_interrupted()
        if seconds >= 2:
            click.echo(f"compiled in {seconds:.0f} s", err=True)

    def confirm(self, question: str) -> bool:
        """Asked on a terminal; without one (a script, a pipe) the answer is no: --force."""
        if not (self.tty and sys.stdin.isatty()):
            return False
        return click.confirm(question, default=False, err=True)

    def notice(self, text: str) -> None:
        with self.lock:
            self._break_line()
            click.echo(text, err=True)

    def update(self, n: int) -> None:
        _raise_if_interrupted()
        with self.lock:
            if self.first < 0:  # the first call reports the units already done (resume)
                self.first = n
                self.t0 = self.last_line = self.last_done = time.perf_counter()  # after compile
                if self.heartbeat and self.beat is None:
                    self.beat = threading.Thread(target=_beat, args=(weakref.ref(self),))
                    self.beat.daemon = True
                    self.beat.start()
            self.done += n
            now = time.perf_counter()
            if n:
                self.last_done = now
            if self.quiet or self.total <= 0:
                return
            if self.tty:
                self._draw(now)
                return
            share = self.done / self.total
            due = share + 1e-12 >= self.next_line or now - self.last_line >= LINE_EVERY_S
            if due and self.done > self.first:
                self._print(now)
                self.next_line = (int(share * 10 + 1e-9) + 1) / 10

    def tick(self) -> None:
        """What the heartbeat does each second: a line (a redraw) when none came for
        :data:`LINE_EVERY_S` seconds, even if no unit finished since."""
        with self.lock:
            now = time.perf_counter()
            if self.compile_since is not None and not self.closed.is_set():
                if now - self.last_line >= LINE_EVERY_S:
                    self._break_line()
                    click.echo(
                        f"  still compiling: {now - self.compile_since:.0f} s of about "
                        f"{self.compile_about:.0f} s",
                        err=True,
                    )
                    self.last_line = now
                return
            if self.first < 0 or self.closed.is_set() or self.done >= self.total:
                return
            if now - self.last_line < LINE_EVERY_S:
                return
            if self.tty:
                self._draw(now)
            else:
                self._print(now)

    def _state(self, now: float) -> tuple[str, str]:
        """(the rate, the ETA and the detail) as the lines show them."""
        elapsed = now - self.t0
        new = self.done - self.first
        # the pace as of the last units finished, counted down since: work that lands in
        # parts of a minute would otherwise show a rate that sinks and an ETA that grows
        # between parts
        upto = self.last_done - self.t0
        rate = new / upto if upto > 0 and new else 0.0
        left = self.total - self.done
        if rate:
            wait = left / rate - (now - self.last_done)
            if wait <= 0 and left:  # overdue: the pace over all the time so far
                wait = left * elapsed / new
            eta = f"ETA {_duration(wait)}"
        elif self.planned_s is not None:  # nothing finished yet: the estimate's figure
            eta = f"ETA {_duration(max(self.planned_s - elapsed, 0.0))} (estimated, "
            eta += f"{elapsed:.0f} s so far)"
        else:
            eta = f"ETA    -  ({elapsed:.0f} s so far)"
        extra = self.detail() if self.detail else ""
        eta += f"  {extra}" if extra else ""
        return (f"{_rate(rate)} {self.unit}/s" if rate else f"   - {self.unit}/s"), eta

    def _print(self, now: float) -> None:
        rate, eta = self._state(now)
        share = self.done / self.total
        click.echo(
            f"{share:4.0%} {self.done:,}/{self.total:,} {self.unit}  {rate}  {eta}", err=True
        )
        self.last_line = now

    def _draw(self, now: float) -> None:
        rate, eta = self._state(now)
        width = 30
        filled = int(width * self.done / self.total)
        click.echo(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} "
            f"{rate}  {eta} ",
            nl=False,
            err=True,
        )
        self.drawn = True
        self.last_line = now

    def _break_line(self) -> None:
        if self.drawn:
            click.echo(err=True)
            self.drawn = False

    def close(self) -> None:
        self.closed.set()
        with self.lock:
            self._break_line()


def _raise_if_interrupted() -> None:
    if INTERRUPTED.is_set():
        raise KeyboardInterrupt


def _beat(ref: weakref.ref[Progress]) -> None:
    """The heartbeat thread: ticks each second until its progress is closed or forgotten."""
    bar = ref()
    closed = bar.closed if bar is not None else None
    del bar  # no reference held while waiting: an abandoned bar stops its heartbeat
    while closed is not None and not closed.wait(1.0):
        bar = ref()
        if bar is None:
            return
        bar.tick()
        del bar


def _rate(rate: float) -> str:
    """Units a second: whole numbers from 10 up, two significant digits below (0.52)."""
    return f"{rate:,.0f}" if rate >= 9.95 or rate == 0 else f"{rate:.2g}"


def _duration(seconds: float) -> str:
    """``  42 s``, `` 17 min``, ``3.5 h``: seconds up to two minutes, minutes up to two
    hours."""
    if seconds < 120:
        return f"{seconds:4.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:4.0f} min"
    return f"{seconds / 3600:4.1f} h"
