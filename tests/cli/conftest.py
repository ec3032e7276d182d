"""Fixtures of the command-line tests (every test that invokes the CLI lives in tests/cli)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    """A click runner for the command line."""
    return CliRunner()
