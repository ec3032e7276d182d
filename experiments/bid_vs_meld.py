"""Study: bid vs meld.

Writes results/bid_vs_meld/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/bid_vs_meld.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("bid_vs_meld")
