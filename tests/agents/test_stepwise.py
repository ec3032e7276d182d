"""The stepwise hand against the engine: every hand the engine played, replayed decision by
decision through the table (the OpenSpiel game's and the PettingZoo environment's state), ends
with the engine's auction, melds, tricks and scores; and the rules a table enforces by hand."""

from __future__ import annotations

import pytest

from pinochle_sim.agents.stepwise import (
    CHANCE,
    DONE,
    PASS_ACTION,
    Table,
    bid_action,
    table_rules,
)
from tests.agents.replay import record, replay

PRESETS = ("partnership", "partnership-classic", "joedog", "three-hand")


def check_hands(rules: str, seed: int, hands: range) -> int:
    tr = table_rules(rules)
    conceded = 0
    for h in hands:
        rec = record(seed, h, rules)
        t = Table(tr, dealer=rec["dealer"])
        replay(t.apply, lambda t=t: t.phase, rec, rules)  # each action checked legal
        assert t.phase == DONE, (rules, h)
        assert (t.bidder, t.bid, t.stuck) == (rec["bidder"], rec["bid"], rec["stuck"]), (rules, h)
        assert t.melds == [m["points"] for m in rec["meld"]], (rules, h)
        assert t.team_tricks() == rec["team_tricks"], (rules, h)
        assert t.scores == rec["score"] and t.made == rec["made"], (rules, h)
        assert t.conceded == rec["conceded"], (rules, h)
        winners = [leader for leader, _ in t.tricks[1:]]
        assert winners == [x["winner"] for x in rec["tricks"][:-1]], (rules, h)
        conceded += t.conceded
    return conceded


@pytest.mark.parametrize("rules", PRESETS)
def test_engine_hands_replay_to_the_same_scores(rules):
    check_hands(rules, seed=11, hands=range(500))


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS)
def test_two_thousand_hands_of_each_preset(rules):
    """The proof the issue asks for: 2,000 seeded hands of each preset (some conceded)."""
    check_hands(rules, seed=0, hands=range(2000))


def test_the_deal_is_exact_for_two_copies():
    t = Table(table_rules("partnership"))
    first = t.chance_outcomes()
    assert len(first) == 24 and all(abs(p - 2 / 48) < 1e-15 for _, p in first)
    t.apply(5)
    after = dict(t.chance_outcomes())
    assert after[5] == pytest.approx(1 / 47) and after[0] == pytest.approx(2 / 47)
    assert t.current_player() == CHANCE


def test_the_auction_by_hand():
    """Docs/rules.md 4.2: open at the minimum exactly, raise by a step, a pass is final, the
    dealer who passes last is stuck."""
    tr = table_rules("partnership")
    t = Table(tr, dealer=3)
    for f in range(24):
        t.apply(f)
        t.apply(f)
    assert t.current_player() == 0
    assert t.legal_actions() == [PASS_ACTION, bid_action(tr, 250)]
    for _ in range(3):
        t.apply(PASS_ACTION)
    assert t.current_player() == 3  # the dealer, last
    t.apply(PASS_ACTION)
    assert (t.bidder, t.bid, t.stuck) == (3, 250, True)
    with pytest.raises(ValueError, match="not legal for seat 3 in the trump"):
        t.apply(PASS_ACTION)


def test_two_hand_is_not_a_table_game():
    with pytest.raises(ValueError, match="have no auction"):
        table_rules("two-hand")
