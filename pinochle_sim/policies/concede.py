"""Concede policies (docs/rules.md, "Throw-in"): whether a bidder whose bid is out of reach
after the meld throws the hand in (the bidding side is set, the other side scores its meld) or
plays it out (still set; the other side must then take a trick to keep its meld where the save
rule applies).

``concede`` (default) throws in every hopeless hand; ``play-on`` always plays.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.jit import jit


@jit
def concede(pp: np.ndarray) -> bool:
    """``concede``: throw in whenever the bid cannot be made."""
    return True


@jit
def play_on(pp: np.ndarray) -> bool:
    """``play-on``: always play the hand out."""
    return False
