"""Our policies one decision at a time: with every seat a policy player, a hand on the stepwise
table is the engine's hand, call for call and card for card (the deterministic policies:
greedy and counting play, the standard pass and discards, every bidder, learned included), so
each decision reads exactly what the engine's trick loop gives the policy, from what the seat
knows."""

from __future__ import annotations

import pytest

from pinochle_sim import PolicySet, hand_record, parse_card
from pinochle_sim.agents.players import PolicyPlayer
from pinochle_sim.agents.stepwise import DONE, Table, table_rules
from tests.agents.test_stepwise import PRESETS


def play_through(rules: str, policies: PolicySet, hands: range) -> None:
    tr = table_rules(rules)
    player = PolicyPlayer(policies)
    for h in hands:
        rec = hand_record(seed=2, hand=h, rules=rules, policies=policies)
        t = Table(tr, dealer=rec["dealer"])
        for cards in rec["dealt"]:
            for f in sorted(parse_card(c) for c in cards):
                t.apply(f)
        for c in rec.get("widow") or []:
            t.apply(parse_card(c))
        while t.phase != DONE:
            t.apply(player.decide(t, t.current_player(), h))
        calls = [(c["seat"], -1 if c["bid"] is None else c["bid"]) for c in rec["auction"]]
        assert t.calls == calls, (rules, h)
        assert "SHDC"[t.trump] == rec["trump"], (rules, h)
        assert [c for _, c in t.tricks] == [[parse_card(x) for x in tr_["cards"]]
                                            for tr_ in rec["tricks"]], (rules, h)  # fmt: skip
        assert t.scores == rec["score"] and t.conceded == rec["conceded"], (rules, h)


@pytest.mark.parametrize("rules", PRESETS)
def test_greedy_players_play_the_engines_hands(rules):
    play_through(rules, PolicySet(), range(150))


@pytest.mark.slow  # its kernels' compile (about 50 s) is kept out of make test
def test_counting_players_play_the_engines_hands():
    play_through("partnership", PolicySet(play="counting"), range(150))


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS)
def test_counting_players_everywhere(rules):
    play_through(rules, PolicySet(play="counting"), range(500))


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS)
def test_two_thousand_hands_played_by_policy_players(rules):
    """The proof with our policies as the players: 2,000 seeded hands of each preset, each
    seat's decisions asked one at a time, the engine's auction, cards and scores."""
    play_through(rules, PolicySet(), range(2000))


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["partnership", "joedog"])
def test_learned_bidders_bid_as_in_the_engine(rules):
    play_through(rules, PolicySet(bid="learned"), range(150))
