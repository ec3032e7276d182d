"""Studies: three-hand cut-throat - the value of the widow (the bidder's meld before and after
taking it), go-set probability by bid, the auction.

Writes results/three-hand/{widow_value,go_set,auction_summary,bid_vs_meld}/ from the
1,000,000-hand three-hand run. Run alone with `python experiments/three_hand.py`.
"""

from _common import HANDS, ensure_run, write_study

STUDIES = ("widow_value", "go_set", "auction_summary", "bid_vs_meld")

if __name__ == "__main__":
    run_dir = ensure_run("three-hand", HANDS)
    for name in STUDIES:
        write_study(name, run_dir, under="three-hand")
