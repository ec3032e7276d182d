"""Study: auction summary.

Writes results/auction_summary/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/auction_summary.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("auction_summary")
