"""``bid=learned``: its features, its limit and its trump against a slow reference written from
the module's description and the data file alone (card names, not bit tricks; every bid
valued from scratch), the data file's checks, and where the engines accept it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pinochle_sim import decode_hand
from pinochle_sim.core import cards as C
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies import learned_bid as lb
from pinochle_sim.rules import get_preset
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.rules.meld import score_meld
from pinochle_sim.runs.simulate.hands import play_hands


def bid_features_by_hand(cards: list[str], meld: int, trump: int, position: int) -> list[int]:
    ranks = [c[:-1] for c in cards]
    suit = C.SUITS[trump]
    lengths = [sum(c.endswith(s) for c in cards) for s in C.SUITS]
    return [
        1, meld, lengths[trump], ranks.count("A"), ranks.count("10"),
        sum(c in (f"A{suit}", f"10{suit}") for c in cards), cards.count("QS") + cards.count("JD"),
        int(position == 1), int(position == 2), int(position == 3),
        lengths.count(0), lengths.count(1),
    ]  # fmt: skip


def defence_features_by_hand(cards: list[str], meld_sum: int, position: int) -> list[int]:
    ranks = [c[:-1] for c in cards]
    longest = max(sum(c.endswith(s) for c in cards) for s in C.SUITS)
    return [
        1, meld_sum, ranks.count("A"), ranks.count("10"), longest,
        int(position == 1), int(position == 2), int(position == 3),
    ]  # fmt: skip


def reference_limit(model: dict, cards, melds, position, rules, margin) -> tuple[int, int]:
    """The limit and trump as the module's text states them, each bid valued from scratch."""
    scale, step, low = rules.scale, min(rules.bid_steps) * rules.scale, rules.min_bid * rules.scale
    dot = lambda w, x: sum(a * b for a, b in zip(w, x, strict=True))  # noqa: E731
    defence = dot(model["defence"], defence_features_by_hand(cards, sum(melds) * scale, position))
    c0, c1 = model["contract"]
    best = None
    for s in range(4):
        x = bid_features_by_hand(cards, melds[s] * scale, s, position)
        mean, opp = dot(model["mean"], x), dot(model["opponents"], x)
        spread = max(dot(model["spread"], x[:3]), lb.MIN_SPREAD)
        points = [mean + spread * q for q in model["quantiles"]]

        def take(b: float, points=points, opp=opp) -> float:
            return sum(y if y >= b else -b for y in points) / len(points) - opp

        limit = 0
        for k in range(lb.MAX_STEPS + 1):
            b = low + k * step
            if take(b) + margin >= defence - (c0 + c1 * (b + step)):
                limit = b
        key = (limit, take(low))
        if best is None or key > best[0]:
            best = (key, s)
    (limit, _), suit = best
    return limit // scale, suit


@pytest.mark.parametrize("preset", ["partnership", "joedog"])
@pytest.mark.parametrize("version", [1, 2, 3])
def test_limit_and_trump_match_the_reference(preset: str, version: int) -> None:
    rules = get_preset(preset)
    ra = rule_array(rules)
    model = lb.models()[version - 1]
    rng = np.random.default_rng(version)
    deck = np.repeat(np.arange(24), 2)
    outcomes = set()
    for margin in (0, lb.DEFAULT_MARGIN):
        pp = PolicySet.from_options(
            bid="learned", params=[f"bid.model={version}", f"bid.margin={margin}"]
        ).to_array()
        for _ in range(150):
            hand = C.encode_faces(rng.permutation(deck)[:12])
            cards = decode_hand(hand)
            position = int(rng.integers(4))
            melds = np.array([score_meld(hand, s, rules).total for s in range(4)], np.int64)
            for s in range(4):
                got = lb.feature_rows(
                    np.array([hand]), melds[s : s + 1] * rules.scale, np.array([s]),
                    np.array([position]),
                )[0]  # fmt: skip
                assert list(got) == bid_features_by_hand(cards, int(melds[s]) * rules.scale, s,
                                                         position)  # fmt: skip
            got = lb.learned_limit(hand, melds, position, ra, pp)
            want = reference_limit(model, cards, [int(m) for m in melds], position, rules, margin)
            assert tuple(got) == want, (cards, position)
            outcomes.add(want[0] > 0)
    assert outcomes == {True, False}  # both passes and bids were checked


def test_defence_features_by_hand() -> None:
    hand = C.encode_faces(C.parse_cards("AS AS 10S KS QS JS 9S AH 10H KD QD JD"))
    cards = decode_hand(hand)
    got = lb.defence_rows(np.array([hand]), np.array([123]), np.array([2]))[0]
    assert list(got) == defence_features_by_hand(cards, 123, 2) == [1, 123, 3, 2, 7, 0, 1, 0]
    x = lb.feature_rows(np.array([hand]), np.array([150]), np.array([0]), np.array([0]))[0]
    # spades trump: 7 trumps, 3 aces, 2 tens, AS AS 10S on top, QS + JD, dealer, clubs void,
    # no singleton (hearts 2, diamonds 3)
    assert list(x) == [1, 150, 7, 3, 2, 3, 2, 0, 0, 0, 1, 0]


def test_the_model_follows_the_play_unless_a_version_is_named() -> None:
    by_play = {m["version"]: m["for_play"] for m in lb.models()}
    for play in ("greedy", "counting", "pimc", "learned"):
        v = lb.model_for_play(play)
        assert play in by_play[v]
    with pytest.raises(ValueError, match="unknown play policy"):
        lb.model_for_play("clairvoyant")


def test_make_chance_is_the_share_of_quantile_points_reaching_the_bid() -> None:
    rules = get_preset("partnership")
    hand = C.encode_faces(C.parse_cards("AS AS 10S KS QS JS 9S AH 10H KD QD JD"))
    meld = score_meld(hand, 0, rules).total
    m = lb.models()[0]
    x = bid_features_by_hand(decode_hand(hand), meld, 0, 1)
    mean = sum(a * b for a, b in zip(m["mean"], x, strict=True))
    spread = max(sum(a * b for a, b in zip(m["spread"], x[:3], strict=True)), lb.MIN_SPREAD)
    for bid in (250, 400, 600):
        want = np.mean([mean + spread * q >= bid for q in m["quantiles"]])
        got = lb.make_chance(rules, [hand], [meld], [0], [1], [bid], 1)[0]
        assert got == pytest.approx(want)
    with pytest.raises(ValueError, match="not shipped"):
        lb.make_chance(rules, [hand], [meld], [0], [1], [250], 99)


def test_a_data_file_naming_other_features_is_refused(tmp_path) -> None:
    doc = json.loads(lb.DATA_FILE.read_text())
    doc["models"][0]["features"] = ["const", "meld"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="other features"):
        lb._load(bad)
    doc = json.loads(lb.DATA_FILE.read_text())
    doc["models"][0]["quantiles"] = doc["models"][0]["quantiles"][::-1]
    bad.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="must not fall"):
        lb._load(bad)


def test_only_partnership_rules_with_an_auction_take_it() -> None:
    learned = PolicySet.from_options(bid="learned")
    with pytest.raises(ValueError, match="four-hand partnership play only"):
        play_hands(0, 0, 10, "three-hand", learned)
    with pytest.raises(ValueError, match="only games with an auction"):
        play_hands(0, 0, 10, "two-hand", learned)
    from pinochle_sim.agents.players import PolicyPlayer
    from pinochle_sim.agents.stepwise import Table, table_rules

    with pytest.raises(ValueError, match="four-hand partnership play only"):
        PolicyPlayer(learned).decide(Table(table_rules("three-hand"), dealer=0), 1)


def test_learned_bids_more_cautiously_with_a_lower_margin() -> None:
    made, bids = [], []
    for margin in (-400, 0):
        policies = PolicySet.from_options(bid="learned", params=[f"bid.margin={margin}"])
        c = play_hands(5, 0, 3000, "partnership", policies)
        keep = ~c["stuck"].astype(bool)
        made.append(c["made"][keep].mean())
        bids.append(c["bid"][keep].mean())
    assert bids[0] < bids[1] and made[0] > made[1]
