"""What long work tells the person waiting: one :class:`Observer` for progress, notices and the
plan.

A run, a duplicate match, a sweep or the advisor takes an ``observer`` and calls it as the work
goes: first :meth:`~Observer.plan` with the cost estimate, then :meth:`~Observer.compiling` and
:meth:`~Observer.compiled` around a cold compile, then :meth:`~Observer.update` as units (hands,
plays) finish, and :meth:`~Observer.notice` for anything else worth a line. Every method of the
base class does nothing, so an observer overrides only what it shows; the command line's
progress bar is one (:class:`pinochle_sim.cli.progress.Progress`).

>>> class Count(Observer):
...     done = 0
...     def update(self, n):
...         self.done += n
>>> from pinochle_sim import RunSpec, run
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     seen = Count()
...     _ = run(RunSpec(hands=3000), d + "/run", observer=seen)
>>> seen.done
3000
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pinochle_sim.runs.estimate import RunEstimate, WorkEstimate


class Observer:
    """Told of a long job's plan, its compile, its progress and its notices (all optional)."""

    def plan(self, estimate: RunEstimate | WorkEstimate) -> None:
        """The job's cost before it starts (a run's disk, time and threads), or once its
        first deals are timed (a slow match's)."""

    def compiling(self, what: str, estimate_s: float) -> None:
        """A cold compile of ``what`` starts now and takes about ``estimate_s`` seconds."""

    def compiled(self, what: str, seconds: float) -> None:
        """The compile (or cache load) of ``what`` is done after ``seconds``."""

    def update(self, n: int) -> None:
        """``n`` more units are done. The first call, after the compile, reports the units
        already done before this job started (a resumed run's hands; 0 otherwise)."""

    def notice(self, text: str) -> None:
        """One line worth showing (a repair, a warning)."""

    def confirm(self, question: str) -> bool:
        """Whether to go on with work that will take long (``question`` says how long); the
        base class answers no, so that the caller must pass ``force``."""
        return False


QUIET = Observer()
"""The observer that shows nothing (the default)."""
