"""The OpenSpiel game, checked by OpenSpiel's own conformance test (random play with
serialisation) on every auction preset, and by the engine's hands replayed through it."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the [agents] extra (open-spiel) is not installed")
import pinochle_sim  # noqa: E402
import pinochle_sim.openspiel  # noqa: E402  (registers python_pinochle)
from tests.agents.replay import record, replay  # noqa: E402
from tests.agents.test_stepwise import PRESETS  # noqa: E402


@pytest.mark.parametrize("rules", PRESETS)
def test_openspiel_random_sim_test(rules):
    game = pyspiel.load_game("python_pinochle", {"rules": rules})
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize("rules", PRESETS)
def test_engine_hands_through_the_game(rules):
    for h in range(60):
        rec = record(5, h, rules)
        game = pyspiel.load_game("python_pinochle", {"rules": rules, "dealer": rec["dealer"]})
        state = game.new_initial_state()

        def apply(a, state=state):
            assert a in state.legal_actions(), state.action_to_string(a)
            state.apply_action(a)

        replay(apply, lambda state=state: state.table.phase, rec, rules)
        assert state.is_terminal()
        assert state.returns() == [float(rec["score"][s % 2 if rules != "three-hand" else s])
                                   for s in range(game.num_players())]  # fmt: skip


def test_what_a_seat_knows_and_does_not():
    """Two deals that give seat 0 the same cards and differ elsewhere look the same to it,
    until something public differs; seat 0's string never names seat 1's hidden cards."""
    game = pyspiel.load_game("python_pinochle", {"rules": "partnership"})
    own = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]  # seat 0: every spade twice
    rest = [f for f in range(6, 24) for _ in range(2)]
    a, b = game.new_initial_state(), game.new_initial_state()
    for f in own + rest:
        a.apply_action(f)
    for f in own + rest[12:] + rest[:12]:  # seats 1 and 2 swap their cards
        b.apply_action(f)
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert "AS" in a.information_state_string(0) and "AS" not in a.information_state_string(1)
    assert a.action_to_string(a.legal_actions()[1]) == "bid 250"


def test_bad_parameters_are_one_line_errors():
    with pytest.raises(Exception, match="have no auction"):
        pyspiel.load_game("python_pinochle", {"rules": "two-hand"})
    with pytest.raises(Exception, match="dealer must be a seat"):
        pyspiel.load_game("python_pinochle", {"rules": "three-hand", "dealer": 3})


def test_our_policies_as_openspiel_bots_play_the_engines_hand():
    """Four PolicyBots (the default policies) at the OpenSpiel table, the deal forced to the
    engine's: the engine's score."""
    from pinochle_sim.openspiel import PolicyBot

    bot = PolicyBot()
    for h in range(20):
        rec = record(8, h, "partnership")
        game = pyspiel.load_game(
            "python_pinochle", {"rules": "partnership", "dealer": rec["dealer"]}
        )
        state = game.new_initial_state()
        for cards in rec["dealt"]:
            for f in sorted(pinochle_sim.parse_card(c) for c in cards):
                state.apply_action(f)
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        assert state.returns() == [float(rec["score"][s % 2]) for s in range(4)]
