"""The two-hand engine (``two-hand``): a turned-up trump, a stock phase with melding after each
trick won, then a play-out with obligations (the shared :mod:`pinochle_sim.engines.trickplay`
loop), and trick points rounded to tens.

Modules: ``kernel`` (one deal end to end and the entry points), ``table`` (melding from the
table, one physical card at a time), ``policies`` (the ``meld`` and ``stock`` policy kernels,
which read the table state), ``layout`` (record columns), ``trace`` (``show`` decoding).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.engines.base import RECORD_MAX, Engine
from pinochle_sim.engines.two_hand import trace
from pinochle_sim.engines.two_hand.kernel import TRACE2_SIZE, _play_chunk, _play_games, _trace_one
from pinochle_sim.engines.two_hand.layout import COLUMNS, two_hand_layout
from pinochle_sim.engines.two_hand.table import candidate_array, candidates
from pinochle_sim.rules import Ruleset

VERSION = 1
"""Bumped whenever this engine or a policy it runs changes the records a seed produces."""


def plays(rules: Ruleset) -> bool:
    return rules.trump_by == "turn-up"


def prepare(r: Ruleset) -> np.ndarray:
    """Check that the engine plays ``r`` (12 cards each and a 24-card stock with melding after
    stock tricks); returns the candidate melds (its ``xa``, :mod:`.table`)."""
    wrong = {
        "players": (r.players != 2, "must be 2"),
        "hand_size": (r.hand_size != 12, "must be 12 (a 23-card stock and the up-card)"),
        "meld_timing": (r.meld_timing != "after-tricks", "must be 'after-tricks'"),
        "stock_phase": (not r.stock_phase, "must be true (free play while the stock lasts)"),
        "widow": (r.widow != 0, "must be 0"),
        "save_rule": (r.save_rule, "does not apply (no bid): must be false"),
        "throw_in": (r.throw_in, "does not apply (no bid): must be false"),
    }
    bad = [f"{key} {msg}" for key, (cond, msg) in wrong.items() if cond]
    if bad:
        raise ValueError(f"rules {r.name!r}: the two-hand engine needs " + "; ".join(bad))
    top = max(v for t in range(4) for _, v, _, _ in candidates(r.meld, t))
    worst = 12 * top + 2 * r.meld.dix + r.turnup_dix + r.total_trick_points
    if worst > RECORD_MAX:
        raise ValueError(
            f"rules {r.name!r}: meld could reach {worst:,}, beyond the records' int16 range"
        )
    return candidate_array(r)


def policy_kinds(rules: Ruleset) -> tuple[str, ...]:
    """The play-out, the meld laid after stock tricks, and stock-phase play."""
    return ("play", "meld", "stock")


ENGINE = Engine(
    name="two-hand",
    doc="two players: turned-up trump, stock phase with melding after tricks won, play-out",
    version=VERSION,
    plays=plays,
    prepare=prepare,
    layout=two_hand_layout,
    columns=COLUMNS,
    policy_kinds=policy_kinds,
    play_chunk=_play_chunk,
    trace_one=_trace_one,
    trace_size=TRACE2_SIZE,
    play_games=_play_games,
    decode=trace.two_hand_record,
    format=trace.format_two_hand,
    has_auction=False,
    open_play=True,
)
