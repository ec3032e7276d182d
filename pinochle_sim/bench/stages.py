"""Benchmarks: each engine's first-call (compile) time, hands per second per stage, and
end-to-end runs in fresh processes (warm and empty compile cache), each beside the same run of a
minimal engine (:mod:`.yardstick`) so that the comparison holds on any machine; the double-dummy
solver's times are in :mod:`.solver_times`. The lines carry the speed targets
(:data:`STAGE_TARGETS`, :data:`WARM_RUN_TARGET`, :data:`COLD_RUN_TARGET`).

``pinochle-sim bench`` / ``make bench``. Speed lives here, never in unit tests. Every stage is
timed on batches sized to last a fraction of a second (:class:`Effort`) in one reused buffer, so
the whole bench takes about a minute and stays well under 1 GB; results come as iterators so the
CLI prints each line as it is measured.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from numba import prange

try:
    import resource
except ImportError:  # pragma: no cover - not on Windows
    resource = None

from pinochle_sim.core import jit
from pinochle_sim.core.deal import _deal
from pinochle_sim.core.jit import pjit
from pinochle_sim.engines import EngineInputs
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules.meld import melds_by_trump
from pinochle_sim.runs.compile import warmup
from pinochle_sim.runs.simulate.hands import check_memory, engine_inputs, play_hands_array
from pinochle_sim.runs.simulate.pool import threads


@pjit
def _bench_deal(seed: int, n: int, chunk: int, sink: np.ndarray) -> None:
    """Deal hands 0..n-1 (4 x 12 cards); XOR of the hands per chunk into ``sink``."""
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        deck = np.empty(48, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        rs = np.empty(2, dtype=np.uint64)
        acc = 0
        for h in range(c * chunk, min(n, (c + 1) * chunk)):
            _deal(seed, h, 4, 12, 0, deck, rs, hands)
            acc ^= hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
        sink[c] = acc


@pjit
def _bench_deal_meld(seed: int, n: int, chunk: int, ma: np.ndarray, sink: np.ndarray) -> None:
    """Deal and score meld for 4 seats x 4 trumps; sum of melds per chunk into ``sink``."""
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        deck = np.empty(48, dtype=np.int64)
        hands = np.empty(4, dtype=np.int64)
        rs = np.empty(2, dtype=np.uint64)
        acc = 0
        for h in range(c * chunk, min(n, (c + 1) * chunk)):
            _deal(seed, h, 4, 12, 0, deck, rs, hands)
            for p in range(4):
                m0, m1, m2, m3 = melds_by_trump(hands[p], ma)
                acc += m0 + m1 + m2 + m3
        sink[c] = acc


STAGES = (
    "deal",
    "deal + meld (4 seats x 4 trumps)",
    "full hands, default policies",
    "full hands, three-hand",
    "full deals, two-hand",
)
"""The stages :func:`iter_stage_rates` times, in order."""


@dataclass(frozen=True)
class Effort:
    """How hard a benchmark tries: each stage is timed on batches that take about ``batch_s``
    seconds (at most ``max_hands`` hands, the buffer's size), best of ``repeat``."""

    max_hands: int = 200_000
    batch_s: float = 0.3
    repeat: int = 3


QUICK = Effort(max_hands=100_000, batch_s=0.08, repeat=2)
"""``bench --quick``: about a tenth of a second per measurement."""


def _count(n: int) -> str:
    """``1e6`` for 1,000,000, as a user types it (``f"{n:.0e}"`` gives ``1e+06``)."""
    mantissa, _, exponent = f"{n:.0e}".partition("e")
    return f"{mantissa}e{int(exponent)}"


def _timed(fn: Callable[[int], None], m: int) -> float:
    t = time.perf_counter()
    fn(m)
    return time.perf_counter() - t


def _rate(fn: Callable[[int], None], effort: Effort, chunk: int = 4096) -> float:
    """Hands per second of ``fn(m)`` (``m`` hands), on batches sized from a first short one."""
    probe = min(effort.max_hands, chunk)
    first = _timed(fn, probe)
    m = int(probe * effort.batch_s / max(first, 1e-6))
    m = max(probe, min(effort.max_hands, m // chunk * chunk))
    return m / min(_timed(fn, m) for _ in range(effort.repeat))


def _stage_inputs(rules: str) -> dict[str, EngineInputs]:
    others = {"full hands, three-hand": "three-hand", "full deals, two-hand": "two-hand"}
    inputs = {"full hands, default policies": engine_inputs(rules)}
    return inputs | {label: engine_inputs(r) for label, r in others.items()}


def check_stage_memory(effort: Effort, rules: str = "partnership") -> int:
    """Refuse (ValueError) an output buffer of ``effort.max_hands`` hands that does not fit in
    the free memory; returns its width (columns)."""
    width = max(i.layout.ncol for i in _stage_inputs(rules).values())
    n = effort.max_hands
    check_memory(8 * n * width, f"benchmark buffers for {n:,} hands", "pass fewer --hands")
    return width


def iter_stage_rates(
    effort: Effort = Effort(), thread_counts: tuple[int, ...] = (1, 2), rules: str = "partnership"
) -> Iterator[tuple[str, int, float]]:
    """(stage, threads, hands/s) of each of :data:`STAGES` (full hands of ``rules``, then
    three-hand and two-hand), yielded as each is measured. The kernels must be compiled or
    cached already (:func:`compile_times`): a first call that compiles would count.

    Memory: one reused output buffer of ``effort.max_hands`` hands (8 bytes a column)."""
    inputs = _stage_inputs(rules)
    width = check_stage_memory(effort, rules)
    n = effort.max_hands
    chunk = 4096
    flat = np.empty(width * n, dtype=np.int64)
    sink = np.zeros((n + chunk - 1) // chunk, dtype=np.int64)
    ma = inputs["full hands, default policies"].ma

    def full(stage: str) -> Callable[[int], None]:
        engine = inputs[stage]
        ncol = engine.layout.ncol
        return lambda m: play_hands_array(engine, 0, 0, m, out=flat[: ncol * m].reshape(ncol, m))

    stages: dict[str, Callable[[int], None]] = {
        STAGES[0]: lambda m: _bench_deal(0, m, chunk, sink),
        STAGES[1]: lambda m: _bench_deal_meld(0, m, chunk, ma, sink),
    }
    stages |= {stage: full(stage) for stage in STAGES[2:]}
    for name, fn in stages.items():
        for k in thread_counts:
            if k > numba.config.NUMBA_NUM_THREADS:
                continue
            with threads(k):
                yield name, k, _rate(fn, effort)


@dataclass(frozen=True)
class CompileTime:
    """What the first call of an engine's batch kernel cost in this process."""

    engine: str
    rules: str
    state: str
    """``cold`` (compiled now), ``cached`` (loaded from disk), ``compiled`` (already in this
    process) or ``unknown``."""
    seconds: float
    last_cold: float | None
    """The last cold compile of this kernel on this machine (the compile record), if any."""

    def line(self) -> str:
        what = {
            "cold": "compiled (cold cache)",
            "cached": "loaded from the compile cache",
            "compiled": "already compiled in this process (same kernels as above)",
        }
        text = f"first call, {self.rules:<12} ({self.engine} engine): "
        text += what.get(self.state, self.state)
        if self.state != "compiled":
            text += f" in {self.seconds:.2f} s"
        if self.state == "cached" and self.last_cold is not None:
            text += f"; last cold compile on this machine {self.last_cold:.1f} s"
        return text


def compile_times(rules: str = "partnership") -> list[CompileTime]:
    """Compile or load each engine's batch kernel (``rules``, then three-hand and two-hand, as
    :func:`iter_stage_rates` uses them), timing each first call, plus the bench's own kernels."""
    out = []
    for r in (rules, "three-hand", "two-hand"):
        inputs = engine_inputs(r)
        args = warmup.kernel_args(inputs, "play_chunk")
        state = warmup.kernel_state(inputs.engine.play_chunk, args)
        seconds = warmup.warm(inputs, "play_chunk")
        last = warmup.last_compile(inputs, "play_chunk")
        out.append(CompileTime(inputs.engine.name, r, state, seconds, last))
    ma = engine_inputs(rules).ma
    sink = np.zeros(1, dtype=np.int64)
    _bench_deal(0, 1, 1, sink)
    _bench_deal_meld(0, 1, 1, ma, sink)
    return out


def peak_memory_mb() -> tuple[float, float]:
    """(peak resident memory of this process, of its largest finished child) in MB."""
    if resource is None:  # pragma: no cover
        return float("nan"), float("nan")
    kb = 1024.0 if sys.platform != "darwin" else 1024.0 * 1024.0  # ru_maxrss units
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / kb
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / kb
    return me, kids


def _run_cmd(hands: int, rules: str, out: str) -> list[str]:
    return [sys.executable, "-m", "pinochle_sim", "run", "--hands", str(hands), "--quiet",
            "--rules", rules, "--out", out]  # fmt: skip


STAGE_TARGETS = {
    ("full hands, default policies", 1): 750_000,
    ("full hands, default policies", 2): 1_500_000,
    ("full hands, three-hand", 2): 1_500_000,
    ("full deals, two-hand", 2): 400_000,
}
"""The speed targets of the stages, hands (deals) a second, by (stage, threads), for the
default partnership rules on the 2-core machine."""

WARM_RUN_TARGET = (2.3, 1.6)
"""A warm ``run --hands 1e6``: at most this many seconds, and at most this many times the
minimal engine's warm run (:mod:`.yardstick`) back to back."""
COLD_RUN_TARGET = (12.0, 2.0)
"""The same from an empty compile cache, against the minimal engine's cold run."""
FIRST_OTHER_TARGET = 8.0
"""Seconds for the first run of each other engine's preset after a partnership run."""


LEARNED_TARGET = 0.30
"""``play=learned`` plays at least this share of ``play=counting``'s hands a second."""


def learned_speed_line(effort: Effort = Effort()) -> str:
    """``play=learned`` against ``play=counting``: full partnership hands a second on one
    thread, both measured here back to back (each kernel compiled or loaded first), and the
    ratio against :data:`LEARNED_TARGET`."""
    n = effort.max_hands
    rates = {}
    for play in ("counting", "learned"):
        inputs = engine_inputs("partnership", PolicySet(play=play))
        warmup.warm(inputs, "play_chunk")
        ncol = inputs.layout.ncol
        flat = np.empty(ncol * n, dtype=np.int64)

        def hands(m: int, inputs: EngineInputs = inputs, flat: np.ndarray = flat) -> None:
            w = inputs.layout.ncol
            play_hands_array(inputs, 0, 0, m, out=flat[: w * m].reshape(w, m))

        with threads(1):
            rates[play] = _rate(hands, effort)
    ratio = rates["learned"] / rates["counting"]
    met = "met" if ratio >= LEARNED_TARGET else "missed"
    return (
        f"play=learned, 1 thread: {rates['learned']:,.0f} hands/s, {ratio:.0%} of "
        f"play=counting's {rates['counting']:,.0f} (target >= {LEARNED_TARGET:.0%}: {met})"
    )


def stage_line(stage: str, k: int, rate: float) -> str:
    """A stage's rate as ``bench`` prints it, with its target where one is set."""
    unit = "deals/s" if stage.startswith("full deals") else "hands/s"
    text = f"{stage:<36} {k} thread{'s' if k > 1 else ' '}  {rate:>12,.0f} {unit}"
    target = STAGE_TARGETS.get((stage, k))
    if target is None:
        return text
    return text + f"  (target >= {target:,}: {'met' if rate >= target else 'missed'})"


@dataclass(frozen=True)
class EndToEnd:
    """A ``pinochle-sim run`` (or the minimal engine's run) timed in a fresh process."""

    what: str
    seconds: float
    """Wall seconds of the whole command."""
    compile_s: float | None
    """Seconds that run spent compiling its kernel (its warm-up, as the run reports it in the
    compile record); None when it compiled nothing (everything was cached)."""
    reports_compile: bool = True
    """Whether the command says what it compiled (the minimal engine does not)."""
    target_s: float | None = None
    """The most seconds it should take, where a target is set."""

    def line(self) -> str:
        text = f"{self.what:<62} {self.seconds:6.2f} s"
        if self.reports_compile:
            if self.compile_s is None:
                text += ", nothing compiled"
            else:
                text += f", compiling {self.compile_s:.1f} s of it"
        if self.target_s is not None:
            met = "met" if self.seconds <= self.target_s else "missed"
            text += f" (target <= {self.target_s:g} s: {met})"
        return text


def versus(run: EndToEnd, base: EndToEnd, target: float) -> str:
    """How ``run`` compares with the minimal engine's ``base`` run, measured back to back."""
    ratio = run.seconds / base.seconds
    met = "met" if ratio <= target else "missed"
    return f"  {ratio:.2f}x the minimal engine's time (target <= {target:g}x: {met})"


def _timed_command(cmd: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one command in a fresh process (which must succeed)."""
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def end_to_end(
    hands: int = 1_000_000,
    cold: bool = False,
    rules: str = "partnership",
    cache_dir: str | None = None,
    what: str | None = None,
    target_s: float | None = None,
) -> EndToEnd:
    """``pinochle-sim run --hands N --rules R`` timed in a fresh process. Warm: after a
    1,000-hand run has compiled or loaded everything the run path needs. Cold: with the compile
    cache ``cache_dir`` (default: a new, empty one), so a first run compiles. The run keeps a
    compile record of its own (``PINOCHLE_SIM_COMPILE_RECORD``), which says what it compiled.
    ``target_s``: its target, shown on its line."""
    tmp = tempfile.mkdtemp(prefix="pinochle-bench-")
    env = dict(os.environ)
    if cold:
        env["NUMBA_CACHE_DIR"] = cache_dir or os.path.join(tmp, "numba-cache")
    try:
        if not cold:  # make sure the cache is warm
            _timed_command(_run_cmd(1000, rules, os.path.join(tmp, "warm")), env)
        record = Path(tmp) / "compile-seconds.json"
        env["PINOCHLE_SIM_COMPILE_RECORD"] = str(record)
        seconds = _timed_command(_run_cmd(hands, rules, os.path.join(tmp, "run")), env)
        compile_s = warmup.last_compile(engine_inputs(rules), "play_chunk", record)
        cache = "empty" if cold else "warm"
        label = what or f"run --hands {_count(hands)} --rules {rules}, {cache} compile cache"
        return EndToEnd(label, seconds, compile_s, target_s=target_s)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def minimal_engine_run(hands: int = 1_000_000, cold: bool = False) -> EndToEnd:
    """The minimal engine's run of ``hands`` hands (:mod:`.yardstick`: deal, meld, bid, greedy
    tricks, the same Parquet columns) timed in a fresh process: warm, after a 1,000-hand run
    has filled its compile cache; cold, with an empty one. It is the yardstick for the real
    run measured just before or after it on the same machine."""
    tmp = tempfile.mkdtemp(prefix="pinochle-bench-minimal-")
    env = dict(os.environ)
    if cold:
        env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba-cache")

    def cmd(n: int, out: str) -> list[str]:
        return [sys.executable, "-m", "pinochle_sim.bench.yardstick", "--hands", str(n),
                "--out", os.path.join(tmp, out)]  # fmt: skip

    try:
        if not cold:
            _timed_command(cmd(1000, "warm"), env)
        seconds = _timed_command(cmd(hands, "run"), env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    cache = "empty" if cold else "warm"
    what = f"minimal engine, run --hands {_count(hands)}, {cache} compile cache"
    return EndToEnd(what, seconds, None, reports_compile=False)


def cold_runs(
    hands: int = 1_000_000, first_hands: int = 100_000, rules: str = "partnership"
) -> Iterator[EndToEnd]:
    """A first ``run --hands N`` from an empty compile cache, then the first run of each other
    engine's preset in that same cache (what it adds to compile: the three-hand preset shares
    the auction kernels), each yielded as it finishes, with the seconds it spent compiling."""
    tmp = tempfile.mkdtemp(prefix="pinochle-bench-cache-")
    try:
        what = f"run --hands {_count(hands)} --rules {rules}, empty compile cache"
        yield end_to_end(hands, True, rules, tmp, what, target_s=COLD_RUN_TARGET[0])
        for other in ("three-hand", "two-hand"):
            what = f"first run --hands {_count(first_hands)} --rules {other} after it"
            yield end_to_end(first_hands, True, other, tmp, what, target_s=FIRST_OTHER_TARGET)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def machine() -> str:
    return (
        f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numba {numba.__version__}, numpy {np.__version__}"
    )


REPORT_TARGET = {1_000_000: 4.0, 30_000_000: 120.0, 100_000_000: 360.0}
"""The most seconds ``report`` should take on runs of these sizes (partnership defaults, two
cores); between them, a large run is held to the rate of the strictest large one. At most 2 GB
of memory from 1e7 hands up (it is flat in the number of hands)."""
REPORT_MEMORY_TARGET_MB = 2000.0

_MEASURE = r"""
import resource, runpy, sys, time
sys.argv = ["pinochle-sim", *sys.argv[1:]]
t0 = time.perf_counter()
try:
    runpy.run_module("pinochle_sim", run_name="__main__")
except SystemExit as e:
    if e.code:
        raise
who = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
peak = max(resource.getrusage(w).ru_maxrss for w in who)
print(time.perf_counter() - t0, peak)
"""
"""Runs a command in this interpreter: its seconds and its peak memory (the largest of this
process and the processes it started, as ``/usr/bin/time`` counts it)."""


@dataclass(frozen=True)
class ReportTiming:
    """``pinochle-sim report`` of a run, timed in a fresh process with its peak memory."""

    hands: int
    seconds: float
    peak_mb: float

    def line(self) -> str:
        text = (
            f"report of a {_count(self.hands)}-hand run: {self.seconds:.1f} s, "
            f"{self.hands / self.seconds:,.0f} hands/s, peak {self.peak_mb:,.0f} MB"
        )
        if self.hands in REPORT_TARGET:
            target = REPORT_TARGET[self.hands]
            met = "met" if self.seconds <= target else "missed"
            text += f" (target <= {target:g} s: {met})"
        elif self.hands >= 10_000_000:  # the rate the large-run targets ask for
            rate = max(h / s for h, s in REPORT_TARGET.items() if h >= 10_000_000)
            met = "met" if self.hands / self.seconds >= rate else "missed"
            text += f" (target >= {rate:,.0f} hands/s: {met})"
        if self.hands >= 10_000_000:
            met = "met" if self.peak_mb <= REPORT_MEMORY_TARGET_MB else "missed"
            text += f" (memory target <= {REPORT_MEMORY_TARGET_MB:,.0f} MB: {met})"
        return text


def bench_run_folder(hands: int, rules: str = "partnership") -> Path:
    """A run of ``hands`` hands of seed 0 kept between benches in the cache folder (made on the
    first bench that needs it, in a fresh process; made again when its records' engine changes:
    ``run --resume`` finishes or checks it)."""
    from_cache = jit.cache_root() / "bench-runs" / f"{rules}-seed0-{hands}"
    cmd = [*_run_cmd(hands, rules, str(from_cache)), "--resume" if from_cache.exists() else ""]
    done = subprocess.run([c for c in cmd if c], capture_output=True, text=True)
    if done.returncode != 0:  # another engine version's run: made again
        subprocess.run([*_run_cmd(hands, rules, str(from_cache)), "--overwrite"], check=True,
                       capture_output=True)  # fmt: skip
    return from_cache


def report_timing(hands: int = 10_000_000) -> ReportTiming:
    """``report`` of a ``hands``-hand partnership run (PNG charts only), in a fresh process."""
    run_dir = bench_run_folder(hands)
    with tempfile.TemporaryDirectory(prefix="pinochle-bench-report-") as tmp:
        args = ["report", str(run_dir), "--out", tmp, "--format", "png"]
        done = subprocess.run(
            [sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, check=True
        )
    seconds, kb = done.stdout.split()[-2:]
    unit = 1024.0 if sys.platform != "darwin" else 1024.0 * 1024.0
    return ReportTiming(hands, float(seconds), float(kb) / unit)
