"""The bounds every layer checks against, each written once.

Seeds and hand indices are unsigned 63-bit numbers (the random streams of :mod:`.rng` key on
them), so a run's hands ``start .. start + count - 1`` must stay below :data:`MAX_SEED`.
"""

MAX_SEED = (1 << 63) - 1
"""The largest seed (seeds are 0 .. MAX_SEED)."""

MAX_HAND_INDEX = MAX_SEED - 1
"""The largest hand index (a range of hands ends below :data:`MAX_SEED`)."""

MAX_RUN_HANDS = 10**11
"""The most hands (or games) one run, match or study may ask for."""

MIN_REPORT_HANDS = 1000
"""The fewest hands (rows) a report reads: smaller runs leave most chart groups empty."""
