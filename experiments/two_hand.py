"""Studies: two-hand pinochle - meld laid by hand, the value of winning stock tricks, and the
final score margin (dealer against non-dealer).

Writes results/two-hand/{meld_laid,early_tricks,score_margin}/ (chart, CSV table, README each)
from the 1,000,000-deal two-hand run. Run alone with `python experiments/two_hand.py`.
"""

from _common import HANDS, ensure_run, write_study

STUDIES = ("meld_laid", "early_tricks", "score_margin", "meld_by_trump_length")

if __name__ == "__main__":
    run_dir = ensure_run("two-hand", HANDS)
    for name in STUDIES:
        write_study(name, run_dir, under="two-hand")
