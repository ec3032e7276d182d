"""The hand advisor: its numbers against the definitions in docs/advise.md. ``advise`` and
``run --fix`` at the command line (output, charts, bad input) are tested in
tests/cli/test_advise.py.

Expectations: the meld now is the ``meld`` of the hand; P(make) can only fall as the bid
rises (a deal that reaches b reaches every lower bid); at the minimum bid it equals the
engine's own ``made`` column for the forced contract (the engine scores that very bid); the
answer depends on the seed only, never on threads; an opponent cannot hold 1000 aces when I
hold an ace.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pinochle_sim.analysis.advise import (
    advise,
    partner_meld_given,
    pass_value_given,
    threats_given,
)
from pinochle_sim.core.cards import card_name, parse_card, parse_cards
from pinochle_sim.rules import get_preset
from pinochle_sim.rules.meld import score_meld
from pinochle_sim.runs.simulate.hands import deal_constraints, engine_inputs, play_hands_array

HAND = "AS AS 10S KS QS JS 9S KH QH AD AC 9C"
N = 3000


@pytest.fixture(scope="module")
def advice():
    return advise(HAND, seat=1, dealer=0, hands=N, seed=5)


def test_meld_now_is_the_meld_of_the_hand(advice) -> None:
    rules = get_preset("partnership")
    for t, suit in zip(advice.by_trump, "SHDC", strict=True):
        assert t.meld_now == score_meld(HAND, suit, rules).total


def test_p_make_never_rises_with_the_bid(advice) -> None:
    for t in advice.by_trump:
        p = [b.p_make for b in t.bids]
        assert all(a >= b for a, b in itertools.pairwise(p))
        assert p[-1] < 0.05 or t.bids[-1].bid > 1000
        for b in t.bids:
            assert b.ci_low <= b.p_make <= b.ci_high


def test_min_bid_matches_the_engines_own_scoring(advice) -> None:
    inputs = engine_inputs("partnership")
    for t in range(4):
        fx = deal_constraints(inputs, {1: HAND}, bidder=1, trump=t)
        out = play_hands_array(inputs, 5, 0, N, dealer=0, fx=fx)
        cols = {name: out[i] for i, name in enumerate(inputs.layout.names)}
        assert (cols["bidder"] == 1).all() and (cols["trump"] == t).all()
        assert advice.by_trump[t].bids[0].p_make == pytest.approx(cols["made"].mean())
        score = np.where(cols["made"], cols["score_1"], -250).mean()
        assert advice.by_trump[t].bids[0].expected_score == pytest.approx(score)


def test_best_and_risk_bids(advice) -> None:
    for t in advice.by_trump:
        best = max(t.bids, key=lambda b: b.expected_score)
        assert t.best_bid == best.bid
        ok = [b.bid for b in t.bids if b.p_make >= 0.75]
        assert t.max_bid_at_risk == (max(ok) if ok else None)
    rec = advice.recommendation
    assert rec["trump"] == "spades" and rec["bid"] is not None
    assert advice.verdict.startswith(f"Bid up to {rec['bid']} in spades")


def test_no_opponent_holds_1000_aces_against_an_ace(advice) -> None:
    assert advice.threats["double_aces"]["p"] == 0.0
    assert advice.threats["opponents"] == [0, 2]


def test_same_answer_whatever_the_threads() -> None:
    a = advise(HAND, hands=1000, seed=2, threads=1).to_json()
    b = advise(HAND, hands=1000, seed=2, threads=2).to_json()
    assert a == b


def test_three_hand_takes_the_widow() -> None:
    a = advise("AS AS AH AH 10H KH QH JH 9D KC QC JC 9C KS QS", rules="three-hand", hands=1000)
    hearts = a.by_trump[1]
    assert hearts.meld_now == score_meld("AS AS AH AH 10H KH QH JH 9D KC QC JC 9C KS QS", "H",
                                         get_preset("three-hand")).total  # fmt: skip
    assert hearts.pass_value is not None and hearts.pass_value >= 0  # the widow adds cards


def test_two_hand_with_the_upcard() -> None:
    a = advise(HAND, rules="two-hand", hands=1000, upcard="9H")
    t = a.two_hand
    assert t is not None and 0 <= t["p_win"]["p"] <= 1
    assert t["meld_in_hand_now"] == score_meld(HAND, "H", get_preset("two-hand")).total
    inputs = engine_inputs("two-hand")
    fx = deal_constraints(inputs, {0: HAND}, upcard="9H")
    out = play_hands_array(inputs, 0, 0, 300, fx=fx)
    cols = {name: out[i] for i, name in enumerate(inputs.layout.names)}
    assert (cols["up_card"] == parse_card("9H")).all() and (cols["trump"] == 1).all()


def test_partner_meld_agrees_with_an_independent_sampler() -> None:
    rules = get_preset("partnership")
    got = partner_meld_given(HAND, "S", seat=0, hands=4000, seed=3)
    rest = [f for f in range(24) for _ in range(2)]
    for f in parse_cards(HAND):
        rest.remove(f)
    rng = np.random.default_rng(7)
    names = [card_name(f) for f in rest]
    sample = [
        score_meld(" ".join(rng.choice(names, 12, replace=False)), "S", rules).total
        for _ in range(3000)
    ]
    se = np.hypot(got["ci95"] / 1.96, np.std(sample) / np.sqrt(len(sample)))
    assert abs(got["mean"] - np.mean(sample)) < 4 * se


def test_conditional_helpers_agree_with_the_advice(advice) -> None:
    assert threats_given(HAND, seat=1, hands=N, seed=5)["double_aces"]["p"] == 0.0
    spades = pass_value_given(HAND, "S", seat=1, hands=N, seed=5)
    # the advice's deals have dealer 0; these rotate the dealer, so compare within CIs
    assert abs(spades["mean"] - advice.by_trump[0].pass_value) < 4 * spades["ci95"] + 5


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_auction_only_hands_end_as_the_full_hands_auction_does(rules) -> None:
    """The default-bidder question stops each hand after its auction; the auction must be the
    one the full hand plays (same deal stream, nothing after it can change it)."""
    inputs = engine_inputs(rules)
    fixed = {1: HAND}
    full = play_hands_array(inputs, 9, 0, 2000, fx=deal_constraints(inputs, fixed))
    stop = play_hands_array(
        inputs, 9, 0, 2000, fx=deal_constraints(inputs, fixed, auction_only=True)
    )
    names = inputs.layout.names
    for col in ["hand", "dealer", "bidder", "bid", "trump", "stuck", "dealt_0", "dealt_2"]:
        i = names.index(col)
        assert np.array_equal(full[i], stop[i]), col


def test_auction_only_refuses_what_has_no_auction() -> None:
    with pytest.raises(ValueError, match="no auction"):
        deal_constraints(engine_inputs("two-hand"), auction_only=True)
    with pytest.raises(ValueError, match="forced contract"):
        deal_constraints(engine_inputs("partnership"), bidder=0, trump=0, auction_only=True)


def test_a_low_risk_gets_a_ladder_long_enough_to_answer() -> None:
    a = advise(HAND, hands=2000, seed=1, risk=1)
    for t in a.by_trump:
        last = t.bids[-1]
        assert last.p_make < 0.01 or last.bid > 2000  # the ladder ran past the 1% bid
        made = [b.bid for b in t.bids if b.p_make >= 0.01]
        assert t.max_bid_at_risk == (max(made) if made else None)


def test_library_refuses_a_dealer_that_is_not_a_seat_number() -> None:
    from pinochle_sim import play_hands

    for bad in (1.0, True):
        with pytest.raises(ValueError, match="dealer must be a seat number"):
            play_hands(10, dealer=bad)
