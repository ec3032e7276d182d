"""The one place where numba options are set.

Every kernel in the package is compiled with ``cache=True`` (the compiled code is kept on disk, so
a second process loads it in a fraction of a second), ``nogil=True`` (the run driver writes Parquet
on a thread while a kernel computes the next batch) and ``error_model="numpy"`` (no Python
exception checks on integer division in hot loops). Nothing here ever falls back to object mode.
"""

from __future__ import annotations

import numba

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def jit(func=None, **extra):
    """Compile ``func`` in nopython mode with the package options (with or without args)."""
    options = {**_OPTIONS, **extra}
    if func is None:
        return numba.njit(**options)
    return numba.njit(**options)(func)


def pjit(func=None, **extra):
    """Like :func:`jit` but with ``parallel=True`` for kernels that use ``numba.prange``."""
    return jit(func, parallel=True, **extra)
