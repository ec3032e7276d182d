"""The ``pinochle-sim`` command line: a thin click layer over the library.

Every command parses its options, calls the library through the package top
(``from pinochle_sim import ...``) and prints; a user's mistake is one line, never a traceback.
The commands come in groups, a module each: run folders (:mod:`.simulating`: ``run``, ``info``,
``export``), single hands and positions (:mod:`.inspecting`: ``show``, ``solve``, ``meld``,
``exact``), studies (:mod:`.studies`: ``report``, ``compare``, ``sweep``; :mod:`.advising`:
``advise``; :mod:`.matching`: ``compare`` with an OpenSpiel agent), charts over several runs
(:mod:`.charting`: ``chart``), reference tables (:mod:`.reference`: ``rules``, ``policies``,
``schema``) and the benchmarks (:mod:`.timing`: ``bench``); :mod:`.options` holds what they
share, :mod:`.progress` the progress line, :mod:`.interrupts` what Ctrl-C sets and says,
:mod:`.group` the group and :mod:`.commands` the group with every command
(``from pinochle_sim.cli.commands import main``). This module is the light entry point.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from pinochle_sim.cli.interrupts import (
    INTERRUPTED,
    INTERRUPTED_STATUS,
    INTERRUPTED_TEXT,
    handle,
)


def run_cli() -> None:  # pragma: no cover - console entry point (tested in a subprocess)
    """The ``pinochle-sim`` command (a reader that goes away ends it quietly).

    The Ctrl-C handler (:func:`.interrupts.handle`) is installed before the commands are
    imported (about half a second: numba, pyarrow, the engines), so that Ctrl-C at any moment
    ends the command with one line and status :data:`.interrupts.INTERRUPTED_STATUS`, never a
    traceback; an error a library makes of the interrupt (an import cut short) is reported as
    the interrupt. Once the command has ended, Ctrl-C is ignored while the interpreter shuts
    down (its output and status stand). When the command ends after Ctrl-C, or while work it
    abandoned still runs (a
    kernel finishing its chunk of hands, whose parallel region the interpreter's exit would
    wait for), the process leaves at once: every part it finished is written and recorded by
    then."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # a background job's stays
        signal.signal(signal.SIGINT, handle)
    try:
        from pinochle_sim.cli import commands  # the one import kept for later: see above

        commands.main(prog_name="pinochle-sim")
    except SystemExit as done:
        if not INTERRUPTED.is_set():  # the command is done: a Ctrl-C now changes nothing
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        others = [t for t in threading.enumerate() if t is not threading.main_thread()]
        code = done.code if isinstance(done.code, int) else 1
        if INTERRUPTED.is_set():
            code = INTERRUPTED_STATUS
        if INTERRUPTED.is_set() or any(t.is_alive() and not t.daemon for t in others):
            _leave(code)
        raise
    except BaseException:
        if not INTERRUPTED.is_set():
            raise
        print(f"Error: {INTERRUPTED_TEXT}", file=sys.stderr)
        _leave(INTERRUPTED_STATUS)


def _leave(code: int) -> None:  # pragma: no cover - ends the process
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


__all__ = ["run_cli"]
