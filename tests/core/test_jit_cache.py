"""The compile cache is keyed by the kernel sources: every module with jitted code is hashed."""

from __future__ import annotations

from pathlib import Path

from pinochle_sim.core.jit import kernel_sources

PACKAGE = Path(__file__).resolve().parents[2] / "pinochle_sim"
SELF_KEYED = {"bench/yardstick.py"}
"""Modules that key a compile cache of their own by their own source (the minimal engine, which
imports nothing from the package: ``tests/bench/test_yardstick.py`` checks its key)."""


def test_every_module_with_kernels_enters_the_cache_key() -> None:
    hashed = {p.relative_to(PACKAGE).as_posix() for p in kernel_sources()}
    missed = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        has_kernels = "@jit" in text or "@pjit" in text or "@intrinsic" in text
        if has_kernels and rel not in hashed and rel not in SELF_KEYED:
            missed.append(rel)
    assert not missed, missed
