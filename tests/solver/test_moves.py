"""Move generation: every card the search tries is legal, none twice, and a lead lists the side
suits before the trumps (the order that halves the search of a full deal; the values do not
depend on it, test_exact checks those)."""

from __future__ import annotations

import pytest

from pinochle_sim.rules import resolve_rules
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver.context import _set_context
from pinochle_sim.solver.moves import _gen
from pinochle_sim.solver.workspace import H_HANDS, STACK, new_table


def _generated(tt, position, side_mask: int) -> list[int]:
    _set_context(tt, position.trump, rule_array(position.rules), side_mask)
    for s, h in enumerate([*position.hands, 0, 0, 0][:4]):
        tt[H_HANDS + s] = h
    seat = position.leader
    n = _gen(tt, STACK, seat, 0, -1, -1, seat, 0, -1)
    return [int(tt[STACK + i]) for i in range(n)]


@pytest.mark.parametrize("rules", ["partnership", "joedog", "three-hand"])
def test_a_lead_tries_legal_cards_once_side_suits_before_trumps(rules: str) -> None:
    r = resolve_rules(rules)
    tt = new_table(8)
    seen = 0
    for hand in range(12):
        play = trick_play(3, hand, r)
        for tricks in range(0, min(len(play.tricks), 8)):
            position = position_after(play, tricks)
            if position.trick:
                continue
            side = play.bidder if play.bidder is not None else position.leader
            mask = sum(1 << s for s in position.side_seats(side))
            moves = _generated(tt, position, mask)
            legal = set(position.legal())
            assert moves and len(set(moves)) == len(moves)
            assert set(moves) <= legal
            trumps = [f // 6 == position.trump for f in moves]
            # once a trump is listed, only trumps follow
            assert trumps == sorted(trumps), [f"{f // 6}:{f % 6}" for f in moves]
            seen += any(trumps) and not all(trumps)
    assert seen > 10  # leads holding both kinds were among them
