"""The ``solver`` play policy: perfect play of the two-hand play-out (every card is known once
the stock is gone, RULES.md section 9).

Checked against the solver's own values (:mod:`pinochle_sim.runs.dd`, which solves the same
play-out from the records): when both seats play ``solver`` each takes exactly the play-out's
value; a ``solver`` seat takes at least its value against ``greedy`` and a ``greedy`` seat at
most its value against ``solver``. Its cards are legal, its records deterministic and the same
on any number of threads, and the auction engines (hidden hands) refuse it."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_sim.analysis.matches import match_inputs
from pinochle_sim.core.cards import encode_hand, parse_cards
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies.solver_play import unseen_copies
from pinochle_sim.policies.view import pack_trick_rules
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.runs.simulate.dd import dd_part
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands, play_hands_array
from pinochle_sim.runs.simulate.pool import threads

SOLVER = PolicySet.from_options(play="solver")
GREEDY = PolicySet.from_options()
N = 24
SEED = 9


@pytest.fixture(scope="module")
def values() -> dict[str, np.ndarray]:
    """Each seat's trick points with the stock phase as played and the play-out solved."""
    return dd_part(SEED, 0, N, "two-hand")


def _raw(inputs_or_policies, seat: int) -> np.ndarray:
    if isinstance(inputs_or_policies, PolicySet):
        cols = play_hands(SEED, 0, N, "two-hand", inputs_or_policies)
        return cols[f"tricks_raw_{seat}"]
    out = play_hands_array(inputs_or_policies, SEED, 0, N)
    return out[inputs_or_policies.layout.index[f"tricks_raw_{seat}"]]


def test_both_seats_solver_take_the_play_out_value(values) -> None:
    for seat in range(2):
        assert np.array_equal(_raw(SOLVER, seat), values[f"dd_points_{seat}"])


def test_solver_never_takes_less_than_its_value_against_greedy(values) -> None:
    solver_first = match_inputs("two-hand", SOLVER, GREEDY)  # solver in seat 0
    greedy_first = match_inputs("two-hand", GREEDY, SOLVER)
    v0 = values["dd_points_0"]
    assert (_raw(solver_first, 0) >= v0).all()
    assert (_raw(greedy_first, 0) <= v0).all()
    # the greedy bots leave points on the table: strictly better somewhere
    assert (_raw(solver_first, 0) > _raw(GREEDY, 0)).any()


def test_solver_cards_are_legal_and_records_deterministic() -> None:
    for hand in range(3):
        play = trick_play(SEED, hand, "two-hand", SOLVER)
        assert len(play.tricks) == 12
        for t in range(12):  # each trick replays under the play-out rules
            position_after(play, t)
    cols = play_hands(SEED, 0, N, "two-hand", SOLVER)
    assert ((cols["tricks_raw_0"] + cols["tricks_raw_1"]) == 250).all()
    with threads(1):
        one = play_hands(SEED, 0, N, "two-hand", SOLVER, chunk=5)
    with threads(2):
        two = play_hands(SEED, 0, N, "two-hand", SOLVER, chunk=5)
    assert all(np.array_equal(one[k], two[k]) and np.array_equal(one[k], cols[k]) for k in cols)


def test_the_auction_engines_refuse_it() -> None:
    for preset in ("partnership", "three-hand"):
        with pytest.raises(ValueError, match="needs every card seen"):
            engine_inputs(preset, SOLVER)


def test_the_other_hand_is_every_copy_not_seen() -> None:
    held = parse_cards("AS AS 10S 9H")
    played = parse_cards("AH AH KS 9D 9D")
    rest = unseen_copies(encode_hand(held), encode_hand(played))
    left = [f for f in range(24) for _ in range(2)]  # two copies of each of the 24 faces
    for f in held + played:
        left.remove(f)
    assert len(left) == 39 and rest == encode_hand(left)


def test_trick_rules_word_packs_the_rule_slots() -> None:
    w = pack_trick_rules(1, 1, 1, 10)  # follow, trump when void, head when trump led, +10
    assert w & 1 == 1 and (w >> 1) & 1 == 1 and (w >> 2) & 3 == 1 and w >> 8 == 10
    assert pack_trick_rules(0, 0, 2, 0) == 2 << 2
