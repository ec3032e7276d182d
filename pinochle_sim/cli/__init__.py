"""The ``pinochle-sim`` command line: a thin click layer over the library.

Every command parses its options, calls the library through the package top
(``from pinochle_sim import ...``) and prints; a user's mistake is one line, never a traceback.
The commands come in groups, a module each: run folders (:mod:`.simulating`: ``run``, ``info``,
``export``), single hands and positions (:mod:`.inspecting`: ``show``, ``solve``, ``meld``,
``exact``), studies (:mod:`.studies`: ``report``, ``compare``, ``sweep``, ``advise``), reference
tables (:mod:`.reference`: ``rules``, ``policies``, ``schema``) and the benchmarks
(:mod:`.timing`: ``bench``); :mod:`.options` holds what they share, :mod:`.progress` the
progress line, :mod:`.main` the group.
"""

from __future__ import annotations

from pinochle_sim.cli import inspecting, reference, simulating, studies, timing
from pinochle_sim.cli.main import main

for module in (reference, inspecting, simulating, studies, timing):
    for command in module.COMMANDS:
        main.add_command(command)


def run_cli() -> None:  # pragma: no cover - console entry point (tested in a subprocess)
    """The ``pinochle-sim`` command (a reader that goes away ends it quietly)."""
    main(prog_name="pinochle-sim")


__all__ = ["main", "run_cli"]
