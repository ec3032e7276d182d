"""Worlds for IS-MCTS: the same information state for the seat, the seat's cards and every
card it knows in place, no suit a seat showed it lacks, and a world that plays on legally."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pinochle_sim.agents.determinize import _voids, sample_world
from pinochle_sim.agents.players import PolicyPlayer
from pinochle_sim.agents.stepwise import CHANCE, DONE, PLAY, Table, table_rules
from pinochle_sim.agents.views import info_string, info_tensor
from pinochle_sim.core.cards import hand_faces


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_worlds_look_the_same_to_the_seat_and_play_on(rules):
    rng = np.random.default_rng(4)
    tr = table_rules(rules)
    player = PolicyPlayer()
    checked = 0
    for g in range(6):
        t = Table(tr, dealer=g % tr.players)
        while t.current_player() == CHANCE:
            faces, probs = zip(*t.chance_outcomes(), strict=True)
            t.apply(int(rng.choice(faces, p=np.array(probs))))
        while t.phase != DONE:
            seat = t.current_player()
            w = sample_world(t, seat, rng)
            assert info_string(w, seat) == info_string(t, seat)
            assert np.array_equal(info_tensor(w, seat), info_tensor(t, seat))
            assert w.hands[seat] == t.hands[seat]
            total = Counter(f for h in w.hands for f in hand_faces(h))
            if t.trump < 0:  # the widow is still apart
                total += Counter(hand_faces(w.widow))
            assert all(n <= 2 for n in total.values())
            for s, lacks in enumerate(_voids(t)):
                assert not any(f // 6 in lacks for f in hand_faces(w.hands[s])) or s == seat
            if t.phase == PLAY:  # each seat's shown meld not yet played (as far as anyone can
                played = [Counter() for _ in range(tr.players)]  # tell) is where it was
                for leader, cards in t.tricks:
                    for i, f in enumerate(cards):
                        played[(leader + i) % tr.players][f] += 1
                for s in range(tr.players):
                    if s != seat:
                        left = Counter(t.meld_cards[s]) - played[s]
                        assert left <= Counter(hand_faces(w.hands[s]))
            on = w.copy()
            while on.phase != DONE:  # every action the players take there is legal
                on.apply(player.decide(on, on.current_player(), g))
            checked += 1
            t.apply(player.decide(t, seat, g))
    assert checked > 100


def test_nothing_hidden_while_dealing():
    t = Table(table_rules("partnership"))
    with pytest.raises(ValueError, match="still being dealt"):
        sample_world(t, 0, np.random.default_rng(0))
