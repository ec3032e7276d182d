"""What the table knows (``policies.known``) is true of the deal: replaying real hands card by
card, at every moment each seat's knowledge of every other seat holds of that seat's actual
hand: the cards it is known to hold are in it, every card in it is allowed by the voids and
caps shown, its card count is right, and (three-hand) the widow copies still restricted to the
bidder are in the bidder's hand or discard. Checked from the rules, not from the sampler."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pinochle_sim import hand_record
from pinochle_sim.core.cards import card_name, encode_hand, hand_faces, parse_card
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies.dispatch import CAPS_NONE, learn
from pinochle_sim.policies.known import K_COUNT, K_WIDOW, known_of, new_work, note_play, setup
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import RA_HEAD, rule_array
from pinochle_sim.rules.meld import meld_table_array
from tests.oracles.reference import SUITS, ref_beats


def cards_of(code: int) -> Counter:
    return Counter(card_name(f) for f in hand_faces(int(code)))


def packed(cards: list[str]) -> int:
    return encode_hand(" ".join(cards)) if cards else 0


def allowed(caps: int, seat: int, card: str) -> bool:
    f = parse_card(card)
    return f % 6 < (caps >> (16 * seat + 4 * (f // 6))) & 15


@pytest.mark.parametrize("rules", ["partnership", "joedog", "three-hand"])
def test_knowledge_is_true_of_the_deal_at_every_card(rules: str) -> None:
    r = PRESETS[rules]
    ra, ma = rule_array(r), meld_table_array(r)
    checked = 0
    for h in range(12):
        rec = hand_record(5, h, rules, PolicySet(play="counting"))
        if rec["conceded"]:
            continue
        n, bidder, trump = r.players, rec["bidder"], SUITS.index(rec["trump"])
        hands = [Counter(x) for x in rec["hands"]]
        work = new_work(True)
        setup(
            work, np.array([packed(rec["hands"][s]) if s < n else 0 for s in range(4)]), bidder,
            trump, ra, ma, packed(rec.get("passed_to_bidder", [])),
            packed(rec.get("passed_to_partner", [])), packed(rec.get("widow", [])),
            packed(rec.get("discards", [])),
        )  # fmt: skip
        discard = Counter(rec.get("discards", []))
        caps = CAPS_NONE
        for t in rec["tricks"]:
            seat, led, winner = t["leader"], -1, ""
            for k, card in enumerate(t["cards"]):
                for viewer in range(n):
                    for other in range(n):
                        if other == viewer:
                            continue
                        assert cards_of(known_of(work, viewer, other, n)) <= hands[other]
                        assert work[K_COUNT + other] == sum(hands[other].values())
                        assert all(allowed(caps, other, c) for c in hands[other].elements())
                assert cards_of(work[K_WIDOW]) <= hands[bidder] + discard
                f = parse_card(card)
                note_play(work, seat, f, n)
                if k == 0:
                    led, winner = f // 6, card
                else:
                    caps = learn(caps, seat, f, led, parse_card(winner), trump, ra[RA_HEAD])
                    if ref_beats(card, winner, rec["trump"], SUITS[led]):
                        winner = card
                hands[seat][card] -= 1
                seat = (seat + 1) % n
                checked += 1
    assert checked > 200
