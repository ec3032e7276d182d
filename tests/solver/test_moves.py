"""Move generation: every card the search tries is legal, none twice, and a lead lists the side
suits before the trumps (the order that halves the search of a full deal); a killer, where one
is set, comes second; the reply memory gives back the card stored for the same hand and trick,
and nothing for another. The values do not depend on the order: test_exact checks those."""

from __future__ import annotations

import pytest

from pinochle_sim.core.tricks import remove_card
from pinochle_sim.rules import resolve_rules
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver.context import _set_context
from pinochle_sim.solver.driver import dd_solve
from pinochle_sim.solver.moves import _gen, _recall, _remember, _trick_code
from pinochle_sim.solver.workspace import H_HANDS, STACK, kill_slot, new_table, pack_trick


def _generated(tt, position, side_mask: int) -> list[int]:
    _set_context(tt, position.trump, rule_array(position.rules), side_mask)
    for s, h in enumerate([*position.hands, 0, 0, 0][:4]):
        tt[H_HANDS + s] = h
    seat = position.leader
    n = _gen(tt, STACK, seat, 0, -1, -1, seat, 0, -1, position.tricks_left)
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


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_a_killer_is_tried_second_and_the_rest_keep_their_order(rules: str) -> None:
    r = resolve_rules(rules)
    tt = new_table(8)
    moved = 0
    for hand in range(6):
        play = trick_play(5, hand, r)
        position = position_after(play, 2)
        mask = sum(1 << s for s in position.side_seats(play.bidder))
        plain = _generated(tt, position, mask)
        slot = kill_slot(position.leader, position.tricks_left, 0, -1)
        for killer in plain:
            tt[slot] = killer + 1
            moves = _generated(tt, position, mask)
            tt[slot] = 0
            if plain.index(killer) == 0:
                assert moves == plain  # already first: nothing moves
                continue
            assert moves[0] == plain[0] and moves[1] == killer
            assert [f for f in moves if f != killer] == [f for f in plain if f != killer]
            moved += 1
        # a killer the seat cannot play changes nothing
        absent = next(f for f in range(24) if f not in plain)
        tt[slot] = absent + 1
        assert _generated(tt, position, mask) == plain
        tt[slot] = 0
    assert moved > 20


def test_the_reply_memory_answers_only_for_the_same_hand_tricks_left_and_trick() -> None:
    r = resolve_rules("partnership")
    tt = new_table(8)
    play = trick_play(11, 0, r)
    position = position_after(play, 3)
    _set_context(tt, position.trump, rule_array(r), 0b0101)
    for s, h in enumerate(position.hands):
        tt[H_HANDS + s] = h
    seat = position.leader
    left = position.tricks_left
    card = position.legal()[-1]
    inside = _trick_code(2, 1, 9, (seat + 2) % 4)  # a heart led, the heart ace winning
    assert _trick_code(0, -1, -1, seat) == 0  # a lead keys on the hand alone
    assert _recall(tt, seat, left, 0) == -1  # nothing stored yet
    _remember(tt, seat, left, 0, card)
    assert _recall(tt, seat, left, 0) == card
    assert _recall(tt, seat, left, inside) == -1  # another trick
    assert _recall(tt, seat, left - 1, 0) == -1  # other tricks left
    assert _recall(tt, (seat + 1) % 4, left, 0) == -1  # another seat
    held = tt[H_HANDS + seat]
    tt[H_HANDS + seat] = remove_card(held, position.legal()[0])
    assert _recall(tt, seat, left, 0) == -1  # another hand
    tt[H_HANDS + seat] = held
    _remember(tt, seat, left, inside, position.legal()[0])
    assert _recall(tt, seat, left, inside) == position.legal()[0]
    assert _recall(tt, seat, left, 0) == card  # the lead's entry is its own
    # a new context (another trump) starts with an empty memory
    _set_context(tt, (position.trump + 1) % 4, rule_array(r), 0b0101)
    assert _recall(tt, seat, left, 0) == -1


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_a_solve_leaves_a_legal_card_of_the_root_in_the_reply_memory(rules: str) -> None:
    r = resolve_rules(rules)
    tt = new_table(16)
    ra = rule_array(r)
    found = 0
    for hand in range(8):
        play = trick_play(4, hand, r)
        position = position_after(play, 4)
        if position.trick or position.tricks_left < 3:
            continue
        mask = sum(1 << s for s in position.side_seats(play.bidder))
        h = [*position.hands, 0, 0, 0][:4]
        dd_solve(*h, position.leader, pack_trick(()), position.trump, ra, mask, tt)
        reply = _recall(tt, position.leader, position.tricks_left, 0)
        if reply >= 0:
            assert reply in position.legal()
            found += 1
    assert found >= 4
