"""The ``pinochle-sim`` command line: a thin click layer over the library.

Every command parses its options, calls the library through the package top
(``from pinochle_sim import ...``) and prints; a user's mistake is one line, never a traceback.
The commands come in groups, a module each: run folders (:mod:`.simulating`: ``run``, ``info``,
``export``), single hands and positions (:mod:`.inspecting`: ``show``, ``solve``, ``meld``,
``exact``), studies (:mod:`.studies`: ``report``, ``compare``, ``sweep``; :mod:`.advising`:
``advise``; :mod:`.matching`: ``compare`` with an OpenSpiel agent), charts over several runs
(:mod:`.charting`: ``chart``), reference tables (:mod:`.reference`: ``rules``, ``policies``,
``schema``) and the benchmarks (:mod:`.timing`: ``bench``); :mod:`.options` holds what they
share, :mod:`.progress` the progress line, :mod:`.main` the group.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from pinochle_sim.cli import (
    advising,
    charting,
    inspecting,
    reference,
    simulating,
    studies,
    timing,
)
from pinochle_sim.cli.main import main
from pinochle_sim.cli.progress import INTERRUPTED

for module in (reference, inspecting, simulating, studies, advising, charting, timing):
    for command in module.COMMANDS:
        main.add_command(command)


def run_cli() -> None:  # pragma: no cover - console entry point (tested in a subprocess)
    """The ``pinochle-sim`` command (a reader that goes away ends it quietly).

    Ctrl-C is remembered as well as raised (:data:`.progress.INTERRUPTED`): one that lands
    while a kernel compiles can be swallowed by the compiler's callbacks, and the progress
    observer raises it again at its next call. When the command ends after Ctrl-C, or while
    work it abandoned still runs (a kernel finishing its chunk of hands, whose parallel region
    the interpreter's exit would wait for), the process leaves at once: every part it finished
    is written and recorded by then. After Ctrl-C the exit status is
    :data:`INTERRUPTED_STATUS`."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # a background job's stays
        signal.signal(signal.SIGINT, _interrupt)
    try:
        main(prog_name="pinochle-sim")
    except SystemExit as done:
        others = [t for t in threading.enumerate() if t is not threading.main_thread()]
        code = done.code if isinstance(done.code, int) else 1
        if INTERRUPTED.is_set():
            code = INTERRUPTED_STATUS
        if INTERRUPTED.is_set() or any(t.is_alive() and not t.daemon for t in others):
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        raise


INTERRUPTED_STATUS = 128 + signal.SIGINT
"""The exit status of a command ended by Ctrl-C (130, as shells report it), after its one
line; errors exit with 1."""


def _interrupt(signum: int, frame: object) -> None:
    INTERRUPTED.set()
    raise KeyboardInterrupt


__all__ = ["main", "run_cli"]
