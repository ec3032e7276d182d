"""``python -m pinochle_sim`` runs the command line."""

from pinochle_sim.cli import main

main(prog_name="pinochle-sim")
