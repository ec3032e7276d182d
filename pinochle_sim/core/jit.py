"""The one place where numba options are set.

Every kernel in the package is compiled with ``cache=True`` (the compiled code is kept on disk, so
a second process loads it in a fraction of a second), ``nogil=True`` (the run driver writes Parquet
on a thread while a kernel computes the next batch) and ``error_model="numpy"`` (no Python
exception checks on integer division in hot loops). Nothing here ever falls back to object mode.

numba's cache only notices edits to a function's own file, not to the kernels it calls in other
modules, so a changed policy could silently run stale compiled code. The cache therefore lives in
a folder keyed by a hash of the package's source (``~/.cache/pinochle-sim/numba-<hash>``,
honouring ``XDG_CACHE_HOME``); setting ``NUMBA_CACHE_DIR`` overrides it. Only the folders that
hold kernels (:data:`KERNEL_SOURCES`) enter the hash, so editing the run driver, the analysis
layer or the CLI keeps the compiled code. A new folder with kernels must be added there.

numba quietly skips a cache folder it cannot write, so a read-only one would make every process
compile again (tens of seconds). :data:`CACHE_DIR` is therefore checked here: when it cannot be
written, one warning goes to stderr and the cache moves to a folder under the system's
temporary directory (kept between processes, one per user and source version).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import numba

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


KERNEL_SOURCES = (
    "core/", "rules/", "policies/", "engines/", "solver/", "runs/bench.py", "runs/dd.py",
)  # fmt: skip
"""The package paths that hold jitted code (every other module is plain Python)."""


def source_hash() -> str:
    """A short hash of the package's kernel sources (:data:`KERNEL_SOURCES`)."""
    root = Path(__file__).parent.parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        if not path.relative_to(root).as_posix().startswith(KERNEL_SOURCES):
            continue
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pinochle-sim"


def _writable(folder: Path) -> bool:
    """Whether numba can keep compiled code in ``folder`` (created if missing)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


def _user() -> str:
    return str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")


def choose_cache_dir() -> tuple[Path, str | None]:
    """(the folder compiled kernels are kept in, a warning when it is not the one asked for).

    ``NUMBA_CACHE_DIR`` if set, else the package's own folder; when that cannot be written, a
    folder under the system's temporary directory."""
    asked = os.environ.get("NUMBA_CACHE_DIR")
    wanted = Path(asked) if asked else cache_root() / f"numba-{source_hash()}"
    if _writable(wanted):
        return wanted, None
    fallback = Path(tempfile.gettempdir()) / f"pinochle-sim-{_user()}" / f"numba-{source_hash()}"
    if _writable(fallback):
        return fallback, (
            f"the compile cache folder {str(wanted)!r} cannot be written; compiled kernels are "
            f"kept in {str(fallback)!r} instead (set NUMBA_CACHE_DIR to a writable folder)"
        )
    return wanted, (
        f"neither {str(wanted)!r} nor {str(fallback)!r} can be written: every run compiles "
        "the kernels again (set NUMBA_CACHE_DIR to a writable folder)"
    )


CACHE_DIR, CACHE_WARNING = choose_cache_dir()
"""Where numba keeps the compiled kernels of this source version, and why it is not the folder
asked for (None when it is)."""
numba.config.CACHE_DIR = str(CACHE_DIR)
if CACHE_WARNING:  # once per process: this module runs once
    print(f"pinochle-sim: warning: {CACHE_WARNING}", file=sys.stderr)

COMPILE_RECORD = (CACHE_DIR if os.environ.get("NUMBA_CACHE_DIR") else CACHE_DIR.parent) / (
    "compile-seconds.json"
)
"""A small record of how long the last cold compile of each kernel took (for the estimate
printed before the next one); beside the cache folders, so it outlives a source change."""


def jit(func=None, *, borrows: bool = False, allocates: bool = False, **extra):
    """Compile ``func`` in nopython mode with the package options (with or without args).

    ``borrows=True``: the function and everything it calls only borrow the arrays they are
    given (none allocates one), so they are compiled without numba's reference counting. An
    array argument otherwise costs an atomic increment and decrement per call (about 5 ns each;
    once a third of a full hand's time), which numba cannot remove around calls that may
    raise. A function called from such code that does allocate says ``allocates=True`` (it
    keeps its own counting) and must not hand an array back to its borrowing caller, which
    would never free it (``tests/core/test_jit_refcounts.py`` checks every engine's runs free
    all they allocate). A function that says neither inherits its caller's setting; an
    allocation reached without counting fails to compile, loudly. numba's cache does not key
    compiled code by this setting, so such a function may load the copy another caller
    compiled: either copy is correct there, since it allocates nothing."""
    if borrows and allocates:
        raise ValueError("a kernel either borrows or allocates")
    options = {**_OPTIONS, **extra}
    if borrows or allocates:
        options["_nrt"] = allocates
    if func is None:
        return numba.njit(**options)
    return numba.njit(**options)(func)


def pjit(func=None, **extra):
    """Like :func:`jit` but with ``parallel=True`` for kernels that use ``numba.prange``."""
    return jit(func, parallel=True, **extra)
