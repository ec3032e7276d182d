"""The one place where numba options are set.

Every kernel in the package is compiled with ``cache=True`` (the compiled code is kept on disk, so
a second process loads it in a fraction of a second), ``nogil=True`` (the run driver writes Parquet
on a thread while a kernel computes the next batch) and ``error_model="numpy"`` (no Python
exception checks on integer division in hot loops). Nothing here ever falls back to object mode.
No kernel gets numba's C-callable wrapper (nothing here passes kernels as values), and only entry
points get the CPython one (:func:`jit`, :class:`KernelDispatcher`): the wrappers were a quarter
of the first compile.

numba's cache only notices edits to a function's own file, not to the kernels it calls in other
modules, so a changed policy could silently run stale compiled code. The cache therefore lives in
a folder keyed by a hash of the package's source (``~/.cache/pinochle-sim/numba-<hash>``,
honouring ``XDG_CACHE_HOME``); setting ``NUMBA_CACHE_DIR`` overrides it. Only the modules that
hold kernels enter the hash (:func:`kernel_sources`: the kernel layers, and any other module
that compiles with this module's decorators), so editing the run driver, the analysis layer or
the CLI keeps the compiled code.

numba's cache index (one file per function, listing its compiled signatures) is read, extended and
written back without a lock, so two processes saving different signatures of one function at the
same moment (the test workers, or a run and its compile helper, :mod:`pinochle_sim.runs.precompile`)
could both pick the same data file number and leave the index naming the other's code. Every
kernel's saves are therefore serialised by an exclusive lock on one file in the cache folder
(:func:`lock_saves`); loads need none, since numba replaces each file whole.

numba quietly skips a cache folder it cannot write, so a read-only one would make every process
compile again (tens of seconds). :data:`CACHE_DIR` is therefore checked here: when it cannot be
written, the cache moves to a folder under the system's
temporary directory (kept between processes, one per user and source version), and
:data:`CACHE_WARNING` says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
import types
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: saves stay as numba makes them
    fcntl = None

import numba
from numba.core.registry import CPUDispatcher

_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "no_cfunc_wrapper": True}


KERNEL_LAYERS = ("core/", "rules/", "solver/", "policies/", "engines/")
"""The layers made of kernels and what they call."""
KERNEL_MARKS = (b"@jit", b"@pjit")
"""How a module above them shows that it compiles kernels of its own (this module's
decorators)."""


def kernel_sources() -> list[Path]:
    """Every file whose content can change compiled code: the modules of the kernel layers,
    any other module that uses :func:`jit` or :func:`pjit`, and the policies' data files."""
    root = Path(__file__).parent.parent
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(KERNEL_LAYERS) or any(m in path.read_bytes() for m in KERNEL_MARKS):
            out.append(path)
    # package data that kernels compile in as constants (a learned model's weights)
    out += sorted(p for p in root.glob("policies/data/*.json"))
    return out


def source_hash() -> str:
    """A short hash of the package's kernel sources (:func:`kernel_sources`)."""
    root = Path(__file__).parent.parent
    h = hashlib.sha256()
    for path in kernel_sources():
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
asked for (None when it is; shown once, by the warm-up before the first compile,
:func:`pinochle_sim.runs.compile.warmup.warm`: nothing is printed at import)."""
numba.config.CACHE_DIR = str(CACHE_DIR)

COMPILE_RECORD = (CACHE_DIR if os.environ.get("NUMBA_CACHE_DIR") else CACHE_DIR.parent) / (
    "compile-seconds.json"
)
"""A small record of how long the last cold compile of each kernel took (for the estimate
printed before the next one); beside the cache folders, so it outlives a source change."""


SAVE_LOCK = CACHE_DIR / "save.lock"
"""The file whose lock serialises every kernel's cache saves (:func:`lock_saves`)."""

SAVES_LOCKED = fcntl is not None
"""Whether cache saves are serialised here (POSIX file locks)."""


@contextlib.contextmanager
def _locked(path: Path):
    if fcntl is None:  # pragma: no cover - not on POSIX
        yield
        return
    try:
        handle = open(path, "ab")  # noqa: SIM115 - held for the block
    except OSError:  # pragma: no cover - the folder was checked writable at import
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def lock_saves(cache_file: Any, lock: Path = SAVE_LOCK) -> None:
    """Make ``cache_file`` (a numba ``IndexDataCacheFile``) save under the exclusive lock of
    ``lock``, so that its read-extend-write of the index never interleaves with another
    process's save."""
    plain = cache_file.save

    def save(key: Any, data: Any) -> None:
        with _locked(lock):
            plain(key, data)

    cache_file.save = save


def _lock_dispatcher(disp: Any) -> None:
    cache_file = getattr(getattr(disp, "_cache", None), "_cache_file", None)
    if cache_file is not None:
        lock_saves(cache_file)


class KernelDispatcher(CPUDispatcher):
    """A kernel compiled for jitted callers only: without the wrappers that let Python call it
    (a CPython wrapper and a C-callable one for each compiled signature: 2.8 s of the 10.7 s
    first compile of the partnership engine, 92 functions of which only the entry point is
    called from Python). Called from Python, it compiles, once, a twin of the same function
    with the wrapper (cached under its own name, ``<qualname>.python``) and runs that, so a
    notebook or a test calls any kernel as usual."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.python()(*args, **kwargs)

    def python(self) -> Any:
        """The twin of this kernel that Python calls (made on first use)."""
        twin = self.__dict__.get("_python_twin")
        if twin is None:
            with _TWIN_LOCK:
                twin = self.__dict__.get("_python_twin")
                if twin is None:
                    f = self.py_func
                    g = types.FunctionType(
                        f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__
                    )
                    g.__qualname__ = f"{f.__qualname__}.python"  # its own cache file
                    g.__module__ = f.__module__
                    g.__doc__ = f.__doc__
                    g.__kwdefaults__ = f.__kwdefaults__
                    twin = numba.njit(**{**self._options, "no_cpython_wrapper": False})(g)
                    _lock_dispatcher(twin)
                    self.__dict__["_python_twin"] = twin
        return twin


_TWIN_LOCK = threading.Lock()


def jit(func=None, *, borrows: bool = False, allocates: bool = False, entry: bool = False, **extra):
    """Compile ``func`` in nopython mode with the package options (with or without args).

    A kernel is compiled for jitted callers only (:class:`KernelDispatcher`: Python calls go
    to a twin compiled on first use); ``entry=True`` marks an entry point that the library
    calls from Python (a chunk of hands, a trace), compiled with the CPython wrapper itself.

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
    if not entry:
        options["no_cpython_wrapper"] = True

    def decorate(f):
        disp = numba.njit(**options)(f)
        _lock_dispatcher(disp)
        if not entry:
            disp.__class__ = KernelDispatcher
            disp._options = options
        return disp

    return decorate if func is None else decorate(func)


def pjit(func=None, **extra):
    """Like :func:`jit` but with ``parallel=True`` for kernels that use ``numba.prange`` (entry
    points: Python calls them)."""
    return jit(func, parallel=True, entry=True, **extra)
