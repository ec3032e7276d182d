"""Study: go set.

Writes results/go_set/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/go_set.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("go_set")
