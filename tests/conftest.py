"""Shared fixtures for every test layer.

The tests are laid out like the package (``core``, ``rules``, ``policies``, ``engines/<engine>``,
``runs``, ``analysis``, ``cli``); the slow, independent oracles live in ``tests/oracles``.
Parametrized lists come from :mod:`tests.catalog`, which reads the registries.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

# The suite compiles single kernels into a cache that may hold the rest: those compiles must not
# stand as this machine's cold compile (the estimate a first run prints, bench's record), so
# the suite and the processes it starts keep a compile record of their own. Set before the
# package is imported (runs/warmup.py reads it once).
_RECORD_DIR = tempfile.mkdtemp(prefix="pinochle-test-record-")
atexit.register(shutil.rmtree, _RECORD_DIR, ignore_errors=True)
os.environ["PINOCHLE_SIM_COMPILE_RECORD"] = str(Path(_RECORD_DIR) / "compile-seconds.json")

import pytest  # noqa: E402

from tests.catalog import ALL_PRESETS  # noqa: E402

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``tests/data``: golden files worked by hand and the stored records reference."""
    return DATA


@pytest.fixture(params=ALL_PRESETS)
def preset(request: pytest.FixtureRequest) -> str:
    """Each registered preset in turn."""
    return request.param
