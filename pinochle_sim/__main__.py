"""``python -m pinochle_sim`` runs the command line."""

from .cli import main

main(prog_name="pinochle-sim")
