"""Machine instructions a batch kernel executes per hand, counted by valgrind (deterministic).

    python experiments/instruction_count.py --rules partnership --hands 20000
    python experiments/instruction_count.py --package /path/to/other/checkout   # compare builds

Wall-clock rates on a shared 2-core virtual machine swing by 10-50% from run to run, which hides
a change of a few percent; an instruction count does not move. The kernels run at about three
instructions a cycle, so for branch-free rewrites the count follows the time closely (it does not
see branch mispredictions or cache misses: confirm a win on the clock, see
``experiments/engine_speed.py``).

How: valgrind presents its own CPU, so numba would compile every kernel again under it (ten
minutes). Both runs here therefore name a fixed CPU and feature set (``NUMBA_CPU_NAME``,
``NUMBA_CPU_FEATURES``: Haswell, which valgrind executes) and share one compile cache, filled by a
native run first; valgrind then loads the compiled code. Two runs under ``callgrind`` (one hand,
then one plus ``--hands``) give the instructions per hand as their difference, free of the start-up
cost (about a minute each). The code differs from the native build's only in the CPU it is tuned
for (docs/speed.md).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CPU = "haswell"
FEATURES = (
    "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+lzcnt,+mmx,"
    "+movbe,+pclmul,+popcnt,+rdrnd,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave,+xsaveopt"
)


def child(rules: str, hands: int) -> None:
    """Play one hand (loading or compiling the kernel), then ``hands`` more."""
    import numpy as np

    from pinochle_sim.core.deal import no_constraints
    from pinochle_sim.runs.simulate.hands import engine_inputs

    inputs = engine_inputs(rules)
    kernel = inputs.engine.play_chunk
    args = inputs.kernel_args()
    fx = no_constraints()
    out = np.empty((inputs.layout.ncol, max(hands, 1)), dtype=np.int64)
    kernel(*args, 0, fx, 0, 0, 1, -1, out)
    if hands:
        kernel(*args, 0, fx, 1, 0, hands, -1, out)


def _env(package: Path) -> dict[str, str]:
    # One compile cache per checkout and source version: numba's cache notices edits to a
    # kernel's own file only, so a cache kept across commits would mix stale callees in.
    h = hashlib.sha256(str(package.resolve()).encode())
    for path in sorted((package / "pinochle_sim").rglob("*.py")):
        h.update(path.read_bytes())
    key = h.hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / f"pinochle-icount-{key}"
    return dict(
        os.environ,
        PYTHONPATH=str(package),
        NUMBA_CPU_NAME=CPU,
        NUMBA_CPU_FEATURES=FEATURES,
        NUMBA_CACHE_DIR=str(cache),
        PYTHONHASHSEED="0",  # the start-up's own count varies with the hash seed
    )


def _collected(cmd: list[str], env: dict[str, str]) -> int:
    out_file = Path(tempfile.mkdtemp()) / "callgrind.out"
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", *cmd],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    shutil.rmtree(out_file.parent, ignore_errors=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or not found:
        tail = (run.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise SystemExit(f"valgrind run failed: {tail}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="partnership")
    ap.add_argument("--hands", type=int, default=20_000)
    here = Path(__file__).resolve().parents[1]
    ap.add_argument("--package", type=Path, default=here, help="the checkout counted")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        child(a.rules, a.child)
        return
    if a.hands < 1:
        raise SystemExit("--hands must be at least 1")
    if not (a.package / "pinochle_sim").is_dir():
        raise SystemExit(f"no pinochle_sim package in {str(a.package)!r}")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    env = _env(a.package)
    me = [sys.executable, str(Path(__file__).resolve()), "--rules", a.rules, "--child"]
    native = subprocess.run([*me, "1"], env=env, capture_output=True, text=True)
    if native.returncode != 0:
        tail = (native.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise SystemExit(f"the native warm-up failed: {tail.rpartition('Error: ')[2]}")
    base = _collected([*me, "0"], env)
    full = _collected([*me, str(a.hands)], env)
    per_hand = (full - base) / a.hands
    print(f"{a.rules}: {per_hand:,.0f} instructions a hand ({a.hands:,} hands, {a.package})")


if __name__ == "__main__":
    main()
