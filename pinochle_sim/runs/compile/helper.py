"""A cold compile on two cores: a helper process compiles the kernels the run will reach last.

numba compiles one function at a time, on one core: the first chunk call of the partnership
engine compiles about 90 kernels, depth first in the order the engine calls them (the deal, the
auction, the pass, then the trick play and the score), each one typed, lowered and optimised
before its caller goes on. The other core waits. Every kernel is cached on disk by its own
signature, and a compile looks in that cache before it starts, so a second process that compiles
some of those kernels into the same cache, while the first works on others, spares the first
those compiles: when the run's compile reaches them, it loads them.

A *plan* says which kernels the helper compiles, in which order, for one engine entry point
called with one set of argument types (the defaults of each preset): a list of (module, kernel,
argument types, compile flags inherited from the caller). :func:`record_tree` records the call
tree of a cold compile with each kernel's own compile seconds; :func:`choose` simulates the run
and the helper (see :func:`simulate`) and picks the subtrees that the run reaches last, as many
as the helper can finish before the run gets there. ``make compile-plans``
(``experiments/compile_plans.py``) records a plan for every preset and entry point from empty
caches into :data:`PLANS`; ``tests/runs/test_compile_helper.py`` fails when a plan no longer
matches the kernels.

Only the time changes: the helper compiles the same source with the same flags into the cache
that the run loads from, so the compiled code and the records are the same. A plan that no
longer matches (a kernel renamed or retyped) makes the helper compile a kernel nobody loads, and
the run compiles as before. :func:`helping` starts no helper on one core, when
``PINOCHLE_SIM_COMPILE_HELPER=0``, or for arguments no plan was recorded for; it stops the
helper as soon as the run's compile is done.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import hashlib
import importlib
import json
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numba

from pinochle_sim.core import jit  # also sets numba's cache folder before any compile

PLANS = Path(__file__).parent / "plans.json"
"""The recorded plans, keyed by :func:`plan_key`."""

FLAGS = ("nrt", "fastmath", "error_model", "forceinline")
"""The compile flags a numba kernel inherits from its caller when it does not set them."""

HELPER_START_S = 0.8
"""Seconds from starting the helper to its first compile (Python, numpy and numba imports,
measured 0.6-0.7 s on the 2-core development machine); the plan is chosen for this delay."""

LOAD_S = 0.02
"""Seconds to load one compiled kernel from the cache instead of compiling it."""

MIN_GAIN_S = 0.5
"""A plan whose simulated gain is smaller is recorded empty (no helper is started)."""

ENV = "PINOCHLE_SIM_COMPILE_HELPER"
"""``0`` turns the helper off."""


@dataclasses.dataclass
class Node:
    """One kernel compile in a cold compile's call tree."""

    module: str
    qualname: str
    argtypes: tuple[Any, ...]
    inherited: dict[str, Any] | None
    """The caller's compile flags that this kernel inherits (:data:`FLAGS`; None at the top)."""
    parent: int
    """Index of the kernel whose compile started this one (-1 at the top)."""
    own_s: float = 0.0
    """Seconds of this compile, less the compiles it started."""
    named: bool = True
    """Whether the helper can find this kernel by its module and name (not an overload's
    implementation, nor a kernel's twin for Python calls)."""
    children: list[int] = dataclasses.field(default_factory=list)


def find_kernel(module: str, qualname: str) -> Any:
    """The object named ``qualname`` in ``module`` (AttributeError or ImportError if none)."""
    return functools.reduce(getattr, qualname.split("."), importlib.import_module(module))


def _names(disp: Any) -> bool:
    func = disp.py_func
    try:
        return find_kernel(func.__module__, func.__qualname__) is disp
    except Exception:  # anything unnamed
        return False


def _flags_of(flags: Any) -> dict[str, Any] | None:
    return None if flags is None else {k: getattr(flags, k) for k in FLAGS}


def record_tree(call: Callable[[], Any]) -> list[Node]:
    """Run ``call`` (which must compile from a cold cache) and return the compile tree it made,
    in the order the compiles started."""
    from numba.core import event
    from numba.core.targetconfig import ConfigStack

    nodes: list[Node] = []
    stack: list[tuple[int, float, float]] = []  # (node, started, seconds of its children)

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            disp = ev.data["dispatcher"]
            parent = stack[-1][0] if stack else -1
            func = disp.py_func
            nodes.append(
                Node(
                    func.__module__,
                    func.__qualname__,
                    tuple(ev.data["args"]),
                    _flags_of(ConfigStack.top_or_none()),
                    parent,
                    named=_names(disp),
                )
            )
            if parent >= 0:
                nodes[parent].children.append(len(nodes) - 1)
            stack.append((len(nodes) - 1, time.perf_counter(), 0.0))

        def on_end(self, ev: Any) -> None:
            index, started, inner = stack.pop()
            took = time.perf_counter() - started
            nodes[index].own_s = took - inner
            if stack:
                top = stack[-1]
                stack[-1] = (top[0], top[1], top[2] + took)

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        call()
    finally:
        event.unregister("numba:compile", listener)
    return nodes


def _walk(nodes: Sequence[Node], roots: Sequence[int], done: list[float], clock: list[float]):
    """A compile process as a generator: depth first over ``roots``, it yields each time it is
    about to look at a kernel (its time is ``clock[0]``); a kernel already done by then, by
    either process, is loaded, else its callees are compiled and then itself."""
    for root in roots:
        stack: list[tuple[int, int]] = [(root, 0)]
        while stack:
            index, child = stack.pop()
            if child == 0:
                yield
                if done[index] <= clock[0]:
                    clock[0] += LOAD_S
                    continue
            kids = nodes[index].children
            if child < len(kids):
                stack.append((index, child + 1))
                stack.append((kids[child], 0))
                continue
            clock[0] += nodes[index].own_s
            done[index] = min(done[index], clock[0])


def simulate(nodes: Sequence[Node], helper: Sequence[int], start_s: float = HELPER_START_S):
    """Seconds until the run's compile (every tree in ``nodes``, in order) is done while a
    helper, started with it, compiles the subtrees ``helper`` in that order after ``start_s``.
    Each process compiles one kernel at a time on its own core; a kernel that the other process
    finished before this one reaches it costs :data:`LOAD_S`. A kernel both reach before either
    is done is compiled twice."""
    inf = float("inf")
    done = [inf] * len(nodes)
    main_clock, help_clock = [0.0], [start_s]
    main = _walk(nodes, [i for i, n in enumerate(nodes) if n.parent < 0], done, main_clock)
    side = _walk(nodes, list(helper), done, help_clock) if helper else None
    while True:  # step whichever process is behind
        if side is not None and help_clock[0] < main_clock[0]:
            if next(side, StopIteration) is StopIteration:
                side = None
        elif next(main, StopIteration) is StopIteration:
            return main_clock[0]


def choose(nodes: Sequence[Node], start_s: float = HELPER_START_S, min_share: float = 0.02):
    """The helper's list of subtrees (node indices, in compile order) that minimises
    :func:`simulate`, by greedy insertion: each round tries every kernel the helper can name whose
    subtree is at least ``min_share`` of the whole compile at every place in the list, keeps the
    best, and stops when nothing shortens the run's compile. Returns (list, serial seconds,
    simulated seconds)."""
    inclusive = [0.0] * len(nodes)
    for i in range(len(nodes) - 1, -1, -1):
        inclusive[i] = nodes[i].own_s + sum(inclusive[k] for k in nodes[i].children)
    total = sum(inclusive[i] for i, n in enumerate(nodes) if n.parent < 0)
    candidates = [
        i for i in range(len(nodes))
        if nodes[i].parent >= 0 and nodes[i].named and inclusive[i] >= min_share * total
    ]  # fmt: skip
    best: list[int] = []
    best_s = simulate(nodes, best, start_s)
    while True:
        trial_best, trial_s = None, best_s
        for c in candidates:
            if c in best:
                continue
            for at in range(len(best) + 1):
                trial = [*best[:at], c, *best[at:]]
                s = simulate(nodes, trial, start_s)
                if s < trial_s - 1e-9:
                    trial_best, trial_s = trial, s
        if trial_best is None:
            return best, total, best_s
        best, best_s = trial_best, trial_s


def _encode(value: Any) -> str:
    return base64.b64encode(pickle.dumps(value, protocol=4)).decode("ascii")


def _decode(text: str) -> Any:
    return pickle.loads(base64.b64decode(text))


def plan_key(engine: str, entry: str, argtypes: tuple[Any, ...]) -> str:
    """The key of the plan for ``engine``'s ``entry`` called with these numba argument types."""
    digest = hashlib.sha256(str(argtypes).encode()).hexdigest()[:16]
    return f"{engine}.{entry}:{digest}"


def argtypes_of(kernel: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The numba types of ``args`` as ``kernel`` (a dispatcher) sees them."""
    return tuple(kernel.typeof_pyval(a) for a in args)


def make_plan(nodes: Sequence[Node], start_s: float = HELPER_START_S) -> dict[str, Any]:
    """The plan (JSON-ready) for a recorded tree."""
    helper, serial_s, helped_s = choose(nodes, start_s)
    if serial_s - helped_s < MIN_GAIN_S:
        helper = []
        helped_s = serial_s
    return {
        "serial_s": round(serial_s, 2),
        "simulated_s": round(helped_s, 2),
        "numba": numba.__version__,
        "kernels": [
            {
                "module": nodes[i].module,
                "kernel": nodes[i].qualname,
                "argtypes": _encode(nodes[i].argtypes),
                "inherited": _encode(nodes[i].inherited),
            }
            for i in helper
        ],
    }


def load_plans(path: Path = PLANS) -> dict[str, Any]:
    """The recorded plans (empty when the file is missing or unreadable)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))["plans"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def save_plans(plans: dict[str, Any], path: Path = PLANS) -> None:
    """Write ``plans`` (key -> plan) to ``path``, whole or not at all."""
    doc = {"about": "compile helper plans, recorded by make compile-plans", "plans": plans}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def helper_wanted() -> bool:
    """Whether a compile helper may start here: two or more cores for this process, file locks
    for the cache saves (POSIX, :func:`pinochle_sim.core.jit.lock_saves`), and not turned off by
    ``PINOCHLE_SIM_COMPILE_HELPER=0``."""
    if os.environ.get(ENV, "1").strip() == "0" or not jit.SAVES_LOCKED:
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return cores >= 2


@contextlib.contextmanager
def helping(key: str, path: Path = PLANS) -> Iterator[subprocess.Popen | None]:
    """Run the block (a cold compile) with a helper process compiling the plan ``key`` into the
    same cache; the helper is stopped when the block ends. No helper (None) where
    :func:`helper_wanted` says no or no plan has kernels for ``key``."""
    plan = load_plans(path).get(key)
    if not helper_wanted() or not plan or not plan.get("kernels"):
        yield None
        return
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pinochle_sim.runs.compile.helper", "help", key, str(path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        yield None
        return
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)


def compile_plan(key: str, path: Path = PLANS) -> list[str]:
    """Compile (or load) every kernel of the plan ``key`` in its order, each with the flags it
    inherits in the run; returns the kernels done. A kernel that cannot be found or compiled is
    skipped: the run compiles what it needs itself."""
    from numba.core.compiler import Flags
    from numba.core.targetconfig import ConfigStack

    done = []
    for item in load_plans(path).get(key, {}).get("kernels", []):
        try:
            kernel = find_kernel(item["module"], item["kernel"])
            argtypes = _decode(item["argtypes"])
            inherited = _decode(item["inherited"])
            flags = Flags()
            for name, value in (inherited or {}).items():
                setattr(flags, name, value)
            with ConfigStack().enter(flags):
                kernel.compile(argtypes)
        except Exception:  # a stale plan entry only costs the run time
            continue
        done.append(item["kernel"])
    return done


def main(argv: Sequence[str]) -> int:
    """The helper process: ``python -m pinochle_sim.runs.compile.helper help KEY PLANS``."""
    if len(argv) == 3 and argv[0] == "help":
        compile_plan(argv[1], Path(argv[2]))
        return 0
    print("usage: python -m pinochle_sim.runs.compile.helper help KEY PLANS (started by runs)",
          file=sys.stderr)  # fmt: skip
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
