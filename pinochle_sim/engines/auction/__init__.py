"""The auction engine: four players in partnerships or three each for self (``partnership``,
``partnership-classic``, ``joedog``, ``three-hand``).

A hand: deal (with a widow in three-hand), value the hands, auction, name trump, pass between
partners or take the widow and discard, meld, concede a hopeless bid, play the tricks (the shared
:mod:`pinochle_sim.engines.trickplay` loop), score. Modules: ``kernel`` (one hand end to end and
the entry points), ``bidding`` (the auction), ``passing``, ``scoring``, ``layout`` (record
columns), ``trace`` (``show`` decoding).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.engines.auction import trace
from pinochle_sim.engines.auction.bidding import MAX_CALLS
from pinochle_sim.engines.auction.kernel import TRACE_SIZE, _play_chunk, _play_games, _trace_one
from pinochle_sim.engines.auction.layout import COLUMNS, auction_layout
from pinochle_sim.engines.base import RECORD_MAX, Engine
from pinochle_sim.rules import Ruleset
from pinochle_sim.rules.meld import MA_AROUND, MA_PIN, MA_PLAIN, meld_table_array

VERSION = 3
"""Bumped whenever this engine or a policy it runs changes the records a seed produces (2:
``pimc`` samples from trick 5 by default in joedog and three-hand, where it started at 6 and 7;
3: from trick 4 by default in partnership and partnership-classic, where it started at 5)."""


def plays(rules: Ruleset) -> bool:
    return rules.trump_by == "auction"


def prepare(r: Ruleset) -> np.ndarray:
    """Check that the engine plays ``r``; returns the record layout offsets (its ``xa``)."""
    if r.meld_timing != "after-pass":
        raise ValueError(
            f"rules {r.name!r}: melding after tricks needs the two-hand engine "
            "(trump_by = 'turn-up')"
        )
    shapes_played = (r.players == 4 and r.partnerships) or (r.players == 3 and not r.partnerships)
    if not shapes_played or r.hand_size > 16:
        raise ValueError(
            f"rules {r.name!r}: the engine plays four players in partnerships or three players "
            f"each for self, at most 16 cards each; got {r.players} players x {r.hand_size}"
        )
    not_played_here = {
        "rounding": r.rounding != "none",
        "stock_phase": r.stock_phase,
        "turnup_dix": r.turnup_dix != 0,
        "discards_count": r.discards_count and r.widow == 0,
    }
    unsupported = [key for key, value in not_played_here.items() if value]
    if unsupported:
        raise ValueError(
            f"rules {r.name!r}: the auction engine does not implement "
            f"{', '.join(unsupported)} (two-hand rules)"
        )
    _check_record_range(r, meld_table_array(r))
    return auction_layout(r).offsets


def _check_record_range(r: Ruleset, ma: np.ndarray) -> None:
    """Refuse rulesets whose bids, meld or scores could overflow the int16 record columns."""
    max_bid = r.min_bid + MAX_CALLS * max(r.bid_steps)
    arounds = sum(int(ma[MA_AROUND + 3 * i : MA_AROUND + 3 * i + 3].max()) for i in range(4))
    seat_meld = int(ma[:MA_PLAIN].max()) + 3 * int(ma[MA_PLAIN:MA_PIN].max())
    seat_meld += int(ma[MA_PIN : MA_PIN + 3].max()) + arounds
    worst = max(max_bid, 2 * seat_meld + r.total_trick_points)
    if worst > RECORD_MAX:
        raise ValueError(
            f"rules {r.name!r}: bids or meld could reach {worst:,}, beyond the records' "
            f"int16 range ({RECORD_MAX:,}); use smaller point values"
        )


def policy_kinds(rules: Ruleset) -> tuple[str, ...]:
    """Bid, then pass (partnerships that pass), play, concede (where throw-in is allowed),
    discard (widow games)."""
    kinds = ["bid"]
    if rules.pass_cards:
        kinds.append("pass")
    kinds += ["play", "concede"] if rules.throw_in else ["play"]
    if rules.widow:
        kinds.append("discard")
    return tuple(kinds)


ENGINE = Engine(
    name="auction",
    doc="four players in partnerships or three each for self: auction, pass or widow, meld, "
    "12-15 tricks",
    version=VERSION,
    plays=plays,
    prepare=prepare,
    layout=auction_layout,
    columns=COLUMNS,
    policy_kinds=policy_kinds,
    play_chunk=_play_chunk,
    trace_one=_trace_one,
    trace_size=TRACE_SIZE,
    play_games=_play_games,
    decode=trace.hand_record,
    format=trace.format_hand,
    has_auction=True,
)
