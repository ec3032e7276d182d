"""Shared fixtures for every test layer.

The tests are laid out like the package (``core``, ``rules``, ``policies``, ``engines/<engine>``,
``runs``, ``analysis``, ``cli``); the slow, independent oracles live in ``tests/oracles``.
Parametrized lists come from :mod:`tests.catalog`, which reads the registries.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.catalog import ALL_PRESETS

DATA = Path(__file__).parent / "data"


@pytest.fixture
def runner() -> CliRunner:
    """A click runner for the command line."""
    return CliRunner()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``tests/data``: golden files worked by hand and the stored records reference."""
    return DATA


@pytest.fixture(params=ALL_PRESETS)
def preset(request: pytest.FixtureRequest) -> str:
    """Each registered preset in turn."""
    return request.param
