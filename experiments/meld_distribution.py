"""Study: meld distribution.

Writes results/meld_distribution/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/meld_distribution.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("meld_distribution")
