"""Scoring a hand of an auction game (docs/rules.md section 6)."""

from __future__ import annotations

from pinochle_sim.core.jit import jit


@jit
def _score_bidding(
    meld: int, tricks: int, bid: int, save_rule: bool, conceded: bool, extra: int
) -> tuple[int, bool]:
    """The bidding side's hand score and whether it made its bid.

    ``extra`` is the three-hand bidder's discarded counters: they score for the bidder, but only
    trick points won in play save the hand (Hoyle: "the discard counts, but he must still win a
    trick to score the meld").
    """
    if conceded:
        return -bid, False
    if save_rule and tricks == 0:
        return -bid, False  # no trick points: its meld does not count, so it is set
    total = meld + tricks + extra
    made = total >= bid
    return (total if made else -bid), made


@jit
def _score_other(meld: int, tricks: int, save_rule: bool, conceded: bool) -> int:
    """A side that did not win the bid: its meld (+ tricks), subject to the save rule."""
    if conceded:
        return meld
    if save_rule and tricks == 0:
        return 0
    return meld + tricks


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
    score_bid, made = _score_bidding(meld_bid, tricks_bid, bid, save_rule, conceded, 0)
    return score_bid, _score_other(meld_other, tricks_other, save_rule, conceded), made
