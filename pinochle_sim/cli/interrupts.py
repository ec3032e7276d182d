"""Ctrl-C on the command line: the flag the handler sets, the status and the line it ends with.

Ctrl-C is remembered as well as raised (:data:`INTERRUPTED`): one that lands while a kernel
compiles can be swallowed by the compiler's callbacks, and the progress observer raises it
again at its next call; whatever the command ends with is then told as the interrupt."""

from __future__ import annotations

import signal
import threading

INTERRUPTED = threading.Event()
"""Set by the command's Ctrl-C handler (:func:`handle`)."""

INTERRUPTED_STATUS = 128 + signal.SIGINT
"""The exit status of a command ended by Ctrl-C (130, as shells report it), after its one
line; errors exit with 1."""

INTERRUPTED_TEXT = "interrupted"
"""What a command stopped by Ctrl-C says (``Error: interrupted``) where it has nothing more
precise to say (a run, a match, a report each say what they kept)."""

NOTHING_WRITTEN = f"{INTERRUPTED_TEXT}: nothing was written"
"""What a command stopped by Ctrl-C says when it had written nothing yet."""


def handle(signum: int, frame: object) -> None:
    """The Ctrl-C handler: remember it, and raise it."""
    INTERRUPTED.set()
    raise KeyboardInterrupt
