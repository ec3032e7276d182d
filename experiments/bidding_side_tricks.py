"""Study: bidding side tricks.

Writes results/bidding_side_tricks/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/bidding_side_tricks.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("bidding_side_tricks")
