"""Scoring a hand of an auction game (RULES.md section 8)."""

from __future__ import annotations

from ._jit import jit


@jit
def _score_sides(
    meld_bid: int,
    meld_other: int,
    tricks_bid: int,
    tricks_other: int,
    bid: int,
    save_rule: bool,
    conceded: bool,
) -> tuple[int, int, bool]:
    """Hand scores ``(bidding side, other side, made)``.

    * save rule: a side that took no trick points scores nothing, its meld included (a bidding
      side without trick points is therefore set);
    * bidding side: counted meld + tricks >= bid scores meld + tricks, else it is set (-bid);
    * other side: counted meld + tricks;
    * concede (throw-in): bidding side -bid, other side scores its meld; no tricks were played.
    """
    if conceded:
        return -bid, meld_other, False
    if save_rule and tricks_bid == 0:
        meld_bid = 0
    if save_rule and tricks_other == 0:
        meld_other = 0
    made = meld_bid + tricks_bid >= bid and not (save_rule and tricks_bid == 0)
    return (meld_bid + tricks_bid if made else -bid), meld_other + tricks_other, made
