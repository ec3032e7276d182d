"""``python -m pinochle_sim`` runs the command line (the same entry point as ``pinochle-sim``)."""

from pinochle_sim.cli import run_cli

run_cli()
