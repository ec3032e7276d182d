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
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


KERNEL_SOURCES = ("core/", "rules/", "policies/", "engines/", "solver/", "runs/bench.py")
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


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_root() / f"numba-{source_hash()}")


def jit(func=None, **extra):
    """Compile ``func`` in nopython mode with the package options (with or without args)."""
    options = {**_OPTIONS, **extra}
    if func is None:
        return numba.njit(**options)
    return numba.njit(**options)(func)


def pjit(func=None, **extra):
    """Like :func:`jit` but with ``parallel=True`` for kernels that use ``numba.prange``."""
    return jit(func, parallel=True, **extra)
