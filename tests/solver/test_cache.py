"""The compiled solver loads back from numba's cache: two fresh processes sharing one
NUMBA_CACHE_DIR solve the same position (the second from the cache the first wrote) and agree.
The search keeps its own stack, so no recursive function is cached (their reload crashed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba

SCRIPT = """
from pinochle_sim.solver import Position, solve
p = Position.parse("partnership", "H", 1, "AS KH 9D; 10S QH JD; KS AH 9C; QS 10H AD")
r = solve(p, side=0)
print(r.value, [m.value for m in r.moves], len(r.line))
"""


def test_two_fresh_processes_share_the_cache() -> None:
    cache = numba.config.CACHE_DIR  # the package's own cache folder (core/jit.py)
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    outs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout.strip())
    assert outs[0] == outs[1] and outs[0]
    for entry in ("dd_card_value", "dd_best"):  # what solve() calls (every card's value, line)
        assert list(Path(cache).rglob(f"driver.{entry}*.nbi")), f"{entry} is not cached"
