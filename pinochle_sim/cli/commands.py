"""The command group with every command registered: what ``pinochle-sim`` runs, and what
``from pinochle_sim.cli.commands import main`` gives (tests, scripts). Importing it loads every
command's module and what they use (numba, pyarrow, the engines): about half a second, which
the entry point (:func:`pinochle_sim.cli.run_cli`) spends with its Ctrl-C handler in place."""

from __future__ import annotations

from pinochle_sim.cli import (
    advising,
    charting,
    inspecting,
    reference,
    simulating,
    studies,
    timing,
)
from pinochle_sim.cli.group import main

for module in (reference, inspecting, simulating, studies, advising, charting, timing):
    for command in module.COMMANDS:
        main.add_command(command)

__all__ = ["main"]
