"""The strategy lab: per-seat policies, duplicate comparisons, sweeps, the counting and
calibrated policies. ``compare`` and ``sweep`` at the command line are tested in
tests/cli/test_strategy.py."""

from __future__ import annotations

import numpy as np
import pytest

from pinochle_sim import decode_hand
from pinochle_sim.analysis.compare import compare, parse_range, sweep
from pinochle_sim.analysis.matches import duplicate
from pinochle_sim.core import cards as C
from pinochle_sim.policies import PolicySet, parse_policy_spec, seat_policy_array
from pinochle_sim.policies.calibrated import (
    FEATURES,
    SPREAD_FEATURES,
    calibrated_limit,
    calibration,
    feature_matrix,
    risk_z,
)
from pinochle_sim.rules import get_preset
from pinochle_sim.rules.arrays import rule_array

DEFAULT = PolicySet()
COUNTING = PolicySet.from_options(play="counting")
RANDOM_PLAY = PolicySet.from_options(play="random")
NEVER_BID = PolicySet.from_options(bid="pass")


# --------------------------------------------------------------------------- duplicate scheme


def test_identical_policies_differ_by_exactly_zero():
    pairs = duplicate("partnership", DEFAULT, DEFAULT, 2000, seed=4)
    assert (pairs["diff"] == 0).all()
    m = compare("partnership", ("x", DEFAULT), ("y", DEFAULT), 500, seed=4).summary
    assert m.loc[0, "diff_lo"] <= 0 <= m.loc[0, "diff_hi"]


def test_swapping_seats_swaps_which_policy_holds_which_cards():
    """A never bids: in each play the bid goes to A's side only when A's dealer is stuck."""
    pairs = duplicate("partnership", NEVER_BID, DEFAULT, 3000, seed=5)
    for k in (1, 2):
        a_bid = pairs[f"bid_side_{k}"] == 0
        assert pairs.loc[a_bid, f"stuck_{k}"].all()
        assert (~a_bid).mean() > 0.9
    # In play 1 A holds side 0 (seats 0, 2), in play 2 side 1: the stuck dealer's side follows.
    stuck_a1 = (pairs["bid_side_1"] == 0) & pairs["stuck_1"]
    assert (pairs.loc[stuck_a1, "dealer"] % 2 == 0).all()
    stuck_a2 = (pairs["bid_side_2"] == 0) & pairs["stuck_2"]
    assert (pairs.loc[stuck_a2, "dealer"] % 2 == 1).all()


def test_a_against_b_is_b_against_a_negated():
    ab = duplicate("partnership", COUNTING, DEFAULT, 1500, seed=6)
    ba = duplicate("partnership", DEFAULT, COUNTING, 1500, seed=6)
    assert np.array_equal(ab["diff"], -ba["diff"])
    assert np.array_equal(ab["score_a_1"], ba["score_b_2"])
    total = ab["score_a_1"] - ab["score_b_1"] + ab["score_a_2"] - ab["score_b_2"]
    assert np.array_equal(ab["diff"], total)


def test_per_seat_policies_reach_the_seats():
    """Random play on side 0 only: that side's trick points collapse, side 1's do not."""
    from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array

    inputs = engine_inputs("partnership")
    idx = inputs.layout.index
    mixed = inputs.__class__(
        **{**inputs.__dict__, "pp": seat_policy_array([RANDOM_PLAY, DEFAULT] * 2)}
    )
    out = play_hands_array(mixed, 3, 0, 4000)
    base = play_hands_array(inputs, 3, 0, 4000)
    assert out[idx["team_tricks_0"]].mean() < base[idx["team_tricks_0"]].mean() - 20
    assert out[idx["team_tricks_1"]].mean() > base[idx["team_tricks_1"]].mean() + 20
    # Bidding and passing are the same policies: the auction is unchanged.
    assert np.array_equal(out[idx["bid"]], base[idx["bid"]])


def test_counting_beats_greedy():
    m = compare("partnership", ("counting", COUNTING), ("greedy", DEFAULT), 4000, seed=8)
    assert m.summary.loc[0, "diff_lo"] > 0


def test_two_hand_duplicate():
    pairs = duplicate("two-hand", RANDOM_PLAY, DEFAULT, 1000, seed=2)
    assert pairs["diff"].mean() < 0 and set(pairs["win_1"].unique()) <= {-1, 0, 1}
    same = duplicate("two-hand", DEFAULT, DEFAULT, 500, seed=2)
    assert (same["diff"] == 0).all()


def test_three_hand_duplicate_rotates_a_through_every_seat():
    same = duplicate("three-hand", DEFAULT, DEFAULT, 1500, seed=3)
    assert np.allclose(same["diff"], 0)
    # Play k seats A at seat k - 1: with A = B every play is the same hand, so A's score in
    # play k is seat k-1's score and B's the mean of the other two.
    from pinochle_sim.runs.simulate.hands import play_hands

    c = play_hands(seed=3, count=1500, rules="three-hand")
    for k in (1, 2, 3):
        a = c[f"score_{k - 1}"]
        b = (c["score_0"] + c["score_1"] + c["score_2"] - a) / 2
        assert np.array_equal(same[f"score_a_{k}"], a)
        assert np.allclose(same[f"score_b_{k}"], b)
        assert ((same[f"bid_side_{k}"] == 0) == (c["bidder"] == k - 1)).all()
    never = duplicate("three-hand", NEVER_BID, DEFAULT, 1500, seed=3)
    for k in (1, 2, 3):
        a_bid = never[f"bid_side_{k}"] == 0
        assert never.loc[a_bid, f"stuck_{k}"].all()
    m = compare("three-hand", ("random", RANDOM_PLAY), ("greedy", DEFAULT), 2000, seed=3)
    assert m.summary.loc[0, "diff_hi"] < 0  # random play loses to greedy from every seat
    assert m.summary.loc[0, "bids_won"] + m.summary.loc[1, "bids_won"] == 3 * 2000


# --------------------------------------------------------------------------- specs and ranges


def test_policy_specs(tmp_path):
    label, p = parse_policy_spec("play=counting,bid.margin=-20")
    assert p.play == "counting" and dict(p.params) == {"bid.margin": -20}
    f = tmp_path / "bold.toml"
    f.write_text('name = "bold"\nplay = "counting"\n[params]\nbid.margin = 30\n')
    label, p = parse_policy_spec(str(f))
    assert label == "bold" and p.play == "counting" and dict(p.params) == {"bid.margin": 30}
    assert parse_policy_spec("default")[1] == DEFAULT
    for bad in ("play", "nope=1", "play=nope", "bid.nope=1", str(tmp_path / "missing.toml")):
        with pytest.raises(ValueError):
            parse_policy_spec(bad)


def test_parse_range():
    assert parse_range("bid.margin=-40:40:20") == ("bid.margin", [-40, -20, 0, 20, 40])
    assert parse_range("bid.risk=60,75,90") == ("bid.risk", [60, 75, 90])
    for bad in ("margin=1:2:1", "bid.margin=5:1:1", "bid.margin=1:5:0", "bid.margin=a"):
        with pytest.raises(ValueError):
            parse_range(bad)


def test_sweep_values_are_matches_on_the_same_deals():
    table, diffs = sweep("partnership", DEFAULT, "bid.margin", [-20, 0], DEFAULT, 800, seed=9)
    assert list(table["value"]) == [-20, 0]
    zero = table.set_index("value").loc[0]
    assert zero["diff_per_deal"] == 0  # margin 0 is the opponent itself
    assert len(diffs) == 1600 and set(diffs["value"]) == {-20, 0}
    single = duplicate(
        "partnership", PolicySet.from_options(params=["bid.margin=-20"]), DEFAULT, 800, seed=9
    )
    assert np.array_equal(diffs.loc[diffs["value"] == -20, "diff"].to_numpy(), single["diff"])


# --------------------------------------------------------------------------- calibrated bidding


def _features_by_hand(cards: list[str], meld: int, trump: int, position: int) -> list[int]:
    """The model's features computed from the card names (independent of the bit tricks)."""
    ranks = [c[:-1] for c in cards]
    suit = C.SUITS[trump]
    return [
        1,
        meld,
        sum(c.endswith(suit) for c in cards),
        ranks.count("A"),
        ranks.count("10"),
        sum(c in (f"A{suit}", f"10{suit}") for c in cards),
        cards.count("QS") + cards.count("JD"),
        int(position == 1),
        int(position == 2),
        int(position == 3),
    ]


def test_calibrated_features_and_limit_match_the_model():
    from pinochle_sim.rules.meld import score_meld

    cal = calibration()
    assert cal["features"] == list(FEATURES) and cal["spread_features"] == list(SPREAD_FEATURES)
    assert len(cal["quantiles"]) == 99 and cal["quantiles"] == sorted(cal["quantiles"])
    rng = np.random.default_rng(1)
    deck = np.repeat(np.arange(24), 2)
    rules = get_preset("partnership")
    ra = rule_array(rules)
    for risk in (60, 75, 90):
        pp = PolicySet.from_options(bid="calibrated", params=[f"bid.risk={risk}"]).to_array()
        for _ in range(40):
            hand = C.encode_faces(rng.permutation(deck)[:12])
            cards = decode_hand(hand)
            position = int(rng.integers(4))
            melds = np.array([score_meld(hand, s, rules).total for s in range(4)], dtype=np.int64)
            values = []
            for s in range(4):
                x = _features_by_hand(cards, int(melds[s]), s, position)
                got = feature_matrix(
                    np.array([hand]), melds[s : s + 1], np.array([s]), np.array([position])
                )[0]
                assert list(got) == x
                mean = sum(round(100 * c) * v for c, v in zip(cal["mean"], x, strict=True))
                spread = sum(round(100 * c) * v for c, v in zip(cal["spread"], x[:3], strict=True))
                values.append((mean + round(1000 * risk_z(risk)) / 1000 * max(spread, 1000)) / 100)
            limit, suit = calibrated_limit(hand, melds, position, ra, pp)
            want = int(np.floor(max(values)))
            assert suit == int(np.argmax(values))
            assert limit == (want if want >= 250 else 0)


def test_calibrated_risk_orders_bids_and_make_rates():
    from pinochle_sim.runs.simulate.hands import play_hands

    rates = []
    for risk in (60, 90):
        c = play_hands(
            seed=12,
            count=6000,
            policies=PolicySet.from_options(bid="calibrated", params=[f"bid.risk={risk}"]),
        )
        rates.append((c["bid"].mean(), c["made"].mean()))
    assert rates[0][0] > rates[1][0] and rates[0][1] < rates[1][1]


# --------------------------------------------------------------------------- counting knowledge


def _cap(caps: int, seat: int, suit: int) -> int:
    return (caps >> (16 * seat + 4 * suit)) & 15


def test_what_a_play_shows_about_the_hand():
    """docs/rules.md 5: follow, else trump, else anything; head the trick where the rules say so."""
    from pinochle_sim.core.tricks import HEAD_ALWAYS, HEAD_NEVER, HEAD_TRUMP_LED
    from pinochle_sim.policies.dispatch import CAPS_NONE
    from pinochle_sim.policies.dispatch import learn as _learn

    f = C.parse_card
    S, H = C.S, C.H
    # Spades trump. KH winning, seat 1 follows with 9H under "must head": no AH, 10H.
    caps = _learn(CAPS_NONE, 1, f("9H"), H, f("KH"), S, HEAD_ALWAYS)
    assert _cap(caps, 1, H) == C.RK + 1 and _cap(caps, 1, S) == 6 and _cap(caps, 2, H) == 6
    # The same play where heading applies only to trump leads shows nothing.
    assert _learn(CAPS_NONE, 1, f("9H"), H, f("KH"), S, HEAD_TRUMP_LED) == CAPS_NONE
    # A higher card beats the winner: nothing learnt.
    assert _learn(CAPS_NONE, 1, f("AH"), H, f("KH"), S, HEAD_ALWAYS) == CAPS_NONE
    # The twin of the winner does not beat it: nothing above the king either.
    assert _cap(_learn(CAPS_NONE, 1, f("KH"), H, f("KH"), S, HEAD_ALWAYS), 1, H) == C.RK + 1
    # Discarding a club on a heart lead: void in hearts and in trump.
    caps = _learn(CAPS_NONE, 3, f("AC"), H, f("KH"), S, HEAD_ALWAYS)
    assert _cap(caps, 3, H) == 0 and _cap(caps, 3, S) == 0 and _cap(caps, 3, C.C) == 6
    # Trumping low under an earlier trump (must overtrump when able): no higher trump.
    caps = _learn(CAPS_NONE, 2, f("9S"), H, f("QS"), S, HEAD_ALWAYS)
    assert _cap(caps, 2, H) == 0 and _cap(caps, 2, S) == C.RQ + 1
    assert _cap(_learn(CAPS_NONE, 2, f("9S"), H, f("QS"), S, HEAD_TRUMP_LED), 2, S) == 6
    # Following a plain lead that someone trumped shows nothing about the led suit.
    assert _learn(CAPS_NONE, 1, f("9H"), H, f("9S"), S, HEAD_ALWAYS) == CAPS_NONE
    # Trump led, "trump-led" heading: a low trump shows no higher one.
    assert _cap(_learn(CAPS_NONE, 1, f("JS"), S, f("KS"), S, HEAD_TRUMP_LED), 1, S) == C.RK + 1
    assert _learn(CAPS_NONE, 1, f("JS"), S, f("KS"), S, HEAD_NEVER) == CAPS_NONE
