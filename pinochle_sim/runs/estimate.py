"""What a run will cost before it starts: disk space and time, checked against the free space.

The time comes from per-engine rates measured on the development machine (conservative: a
shared machine is often slower) or, where the run's policies are slower than that (a search
player), from a few of its own hands timed before it starts (:func:`.runner.timed`); for
``--dd`` runs the solver's measured time per deal is added.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path

import numba

from pinochle_sim.engines import EngineInputs
from pinochle_sim.runs.simulate.dd import estimate_seconds
from pinochle_sim.runs.store.location import is_url
from pinochle_sim.runs.store.schema import fields_for

LONG_RUN_S = 3600.0
"""A run estimated to take longer asks to be confirmed (on a terminal) or ``--force``d."""

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
    timed_on: str | None = None
    """How the time was found (``timed on 16 of its hands``), where a timed sample of the
    run's own policies set it rather than the rate table."""
    cut: int | None = None
    """The hands (games) of a part, where slow work was cut into parts of about a minute."""

    def about(self) -> str:
        """``about``, or ``more than`` where the time is a lower bound (an unfinished sample,
        or search players on a cluster, not timed)."""
        lower = (self.timed_on or "").startswith(("at least", "not timed"))
        return "more than" if lower else "about"

    def basis(self) -> str:
        """`` (timed on 16 of its hands)``, or nothing where the rate table gave the time."""
        return f" ({self.timed_on})" if self.timed_on else ""

    @property
    def fits(self) -> bool:
        return self.free_bytes is None or self.bytes <= self.free_bytes

    def text(self) -> str:
        free = "" if self.free_bytes is None else f"; {size_text(self.free_bytes)} free there"
        k = f"{self.threads} thread{'s' * (self.threads > 1)}"
        text = (
            f"estimated {size_text(self.bytes)} on disk and {self.about()} "
            f"{duration_text(self.seconds)} on {k}{self.basis()}{free}"
        )
        if self.cut is not None:
            text += f"; written in parts of {self.cut:,}"
            if self.about() == "about":
                text += ", about a minute of work each"
        if self.dd_seconds is not None:
            text += (
                f"\nsolving {self.units:,} deals double dummy: about "
                f"{duration_text(self.dd_seconds)} on {k}"
            )
        return text


@dataclass(frozen=True)
class WorkEstimate:
    """What a study's slow work (a duplicate match or a sweep of search players) should take,
    from its first deals timed on this process's threads before the rest is cut into tasks."""

    units: int
    """Hands (plays of a deal) still to play, the timed ones included."""
    seconds: float
    """The time of all of them."""
    threads: int
    deals: int
    """Deals timed (the work keeps them: none is played twice)."""
    task: int
    """Deals a task of the first set's rest: about
    :data:`~pinochle_sim.analysis.session.PACE_TASK_S` of work each."""
    matches: int = 1
    """Sets of the same deals the time counts (a sweep's matches, the advisor's trumps), timed
    on the first."""
    noun: str = "matches"
    """What those sets are, for the text."""

    def text(self) -> str:
        k = f"{self.threads} thread{'s' * (self.threads > 1)}"
        timed = f"timed on its first {self.deals:,} deal{'s' * (self.deals != 1)}"
        if self.matches > 1:
            timed += f"; {self.matches} {self.noun} in all, each counted at the first one's pace"
        return f"estimated about {duration_text(self.seconds)} on {k} ({timed})"


def size_text(n: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return ""  # pragma: no cover


def duration_text(s: float) -> str:
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
    threads: int | None = None,
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
    n_threads = threads or numba.get_num_threads()
    per_row = THREAD_SECONDS_PER_MILLION.get(name, 20.0) / 1e6 / n_threads
    solve_s = estimate_seconds(inputs, units, n_threads) if dd else None
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
