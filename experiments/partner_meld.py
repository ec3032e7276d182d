"""Study: partner meld.

Writes results/partner_meld/ (chart, CSV table, README) from the default 1,000,000-hand run.
Run alone with `python experiments/partner_meld.py`, or every study with `make experiments`.
"""

from _common import write_study

if __name__ == "__main__":
    write_study("partner_meld")
