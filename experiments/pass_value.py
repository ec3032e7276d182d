"""Study: pass value.

Writes results/pass_value/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/pass_value.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("pass_value")
