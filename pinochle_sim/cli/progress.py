"""The progress a person watches on stderr: the command line's :class:`~pinochle_sim.Observer`."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from pinochle_sim import Observer, RunEstimate


class Progress(Observer):
    """Progress of a long job on stderr: a redrawn bar on a terminal, and without one a line
    about every 10%. A cold compile is announced whatever stderr is (it is the one long silent
    wait). Rates and the ETA start after the compile and leave the units done before a resume
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

    def plan(self, estimate: RunEstimate) -> None:
        if not self.quiet and estimate.units:
            click.echo(estimate.text(), err=True)

    def compiling(self, what: str, estimate_s: float) -> None:
        self._break_line()
        click.echo(
            f"compiling the engine (first run only, about {estimate_s:.0f} s): {what}", err=True
        )

    def compiled(self, what: str, seconds: float) -> None:
        if seconds >= 2:
            click.echo(f"compiled in {seconds:.0f} s", err=True)

    def notice(self, text: str) -> None:
        self._break_line()
        click.echo(text, err=True)

    def update(self, n: int) -> None:
        if self.first < 0:  # the first call reports the units already done (resume)
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
