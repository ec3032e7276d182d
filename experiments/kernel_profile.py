"""Where a batch kernel spends its time: ``perf`` samples attributed to the jitted functions.

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -e cpu-clock -F 4000 -o /tmp/perf.data \\
        python experiments/kernel_profile.py --rules partnership --n 200000 --repeat 10
    perf report -i /tmp/perf.data --no-children --sort sym | grep pinochle_sim
    python experiments/kernel_profile.py --hot play_tricks     # per instruction, afterwards

``perf`` cannot name JIT code by itself. This script compiles the engine's batch kernel, writes
``/tmp/perf-<pid>.map`` (address, size and name of every function of the compiled library, from
its object code's symbol table), then runs the batches perf samples. It needs a fresh compile
cache (``NUMBA_CACHE_DIR`` set to an empty folder): code loaded from the cache carries no
symbols. ``--dump`` keeps the machine code of the functions whose names contain the given
words, and ``--hot WORD`` prints that code with the samples perf took on each instruction
(``objdump`` and ``perf script`` must be installed). On a virtual machine without hardware
counters, ``-e cpu-clock`` still samples; a sample lands near, not on, the slow instruction.
Its figures are in docs/speed.md.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from pinochle_sim.rules.ruleset import RulesError
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array
from pinochle_sim.runs.simulate.pool import threads

DUMPS = Path(tempfile.gettempdir()) / "pinochle-profile"


def _short(name: str) -> str:
    """``_ZN12pinochle_sim...4play5_leadB3v88...`` -> ``..._lead`` (numba's mangled names)."""
    for tag in ("B2v", "B3v", "B4v", "B5v"):
        name = name.split(tag)[0]
    return name[-70:]


def write_map(inputs, dump: list[str]) -> int:
    """Write the perf map of the compiled batch kernel; returns the number of functions."""
    kernel = inputs.engine.play_chunk
    DUMPS.mkdir(exist_ok=True)
    rows = {}
    # Every compiled signature (an output sliced for the first call is another array type): each
    # has its own copy of the functions typed on it, and shares the callees compiled before.
    for k, sig in enumerate(kernel.signatures):
        library = kernel.overloads[sig].library
        obj = DUMPS / f"kernel-{k}.o"
        obj.write_bytes(library._get_compiled_object())  # numba internals: a development tool
        sizes = {}
        for line in subprocess.run(
            ["nm", "-S", str(obj)], capture_output=True, text=True
        ).stdout.splitlines():
            parts = line.split()
            if len(parts) == 4:
                sizes[parts[3]] = int(parts[1], 16)
        for fn in library._final_module.functions:
            if fn.is_declaration or fn.name not in sizes:
                continue
            address = library.get_pointer_to_function(fn.name)
            if address:
                rows[address] = (address, sizes[fn.name], fn.name)
    rows = list(rows.values())
    for old in [*DUMPS.glob("*.bin"), *DUMPS.glob("*.addr")]:
        old.unlink()
    copies = collections.Counter()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for address, size, name in sorted(rows):
            fh.write(f"{address:x} {size:x} {_short(name)}\n")
            for word in dump:
                if word in name:  # one file per copy (per signature); --hot shows the busiest
                    stem = DUMPS / f"{word}-{copies[word]}"
                    copies[word] += 1
                    stem.with_suffix(".bin").write_bytes(ctypes.string_at(address, size))
                    stem.with_suffix(".addr").write_text(hex(address))
    return len(rows)


def hot(word: str, perf_data: str) -> None:
    """Print the dumped code of ``word`` with perf's samples per instruction (of its copies,
    the one with the most samples)."""
    stems = sorted(p.with_suffix("") for p in DUMPS.glob(f"{word}-*.bin"))
    if not stems:
        raise SystemExit(f"no dumped code for {word!r}: profile first, with it in --dump")
    ips = subprocess.run(
        ["perf", "script", "-i", perf_data, "-F", "ip"], capture_output=True, text=True
    ).stdout.split()
    counts = collections.Counter(int(ip, 16) for ip in ips)
    best = max((_annotate(stem, counts) for stem in stems), key=lambda r: r[0])
    print(f"{best[0]} samples in {word}")
    print("\n".join(best[1]))


def _annotate(stem: Path, counts: collections.Counter) -> tuple[int, list[str]]:
    address = stem.with_suffix(".addr").read_text()
    code = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={address}",
         str(stem.with_suffix(".bin"))],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    lines, total = [], 0
    for line in code.splitlines():
        head, _, _ = line.partition(":")
        try:
            at = int(head.strip(), 16)
        except ValueError:
            continue
        total += counts.get(at, 0)
        lines.append(f"{counts.get(at, 0):7d} {line}")
    return total, lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="partnership")
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--dump", default="play_tricks,5_lead,7_follow,_cheapest,_shed_cards")
    ap.add_argument("--hot", metavar="WORD", help="print the samples of a dumped function")
    ap.add_argument("--perf-data", default="/tmp/perf.data")
    a = ap.parse_args()
    if a.hot:
        hot(a.hot, a.perf_data)
        return
    try:
        inputs = engine_inputs(a.rules)
    except RulesError as e:
        raise SystemExit(str(e)) from None
    out = np.empty((inputs.layout.ncol, a.n), dtype=np.int64)
    play_hands_array(inputs, 0, 0, 10, out=out[:, :10])
    play_hands_array(inputs, 0, 0, 10, out=out)  # the timed calls' array type, compiled too
    mapped = write_map(inputs, [w for w in a.dump.split(",") if w])
    if mapped == 0:
        raise SystemExit(
            "no symbols: set NUMBA_CACHE_DIR to an empty folder so the kernel compiles"
        )
    with threads(1):
        t = time.perf_counter()
        for _ in range(a.repeat):
            play_hands_array(inputs, 0, 0, a.n, out=out)
    ns = (time.perf_counter() - t) / a.repeat / a.n * 1e9
    print(f"{mapped} functions mapped; {ns:.0f} ns a hand on one thread (under perf)")


if __name__ == "__main__":
    main()
