"""Tests of the two-hand oracle (tests/reference_two_hand.py) against hand-derived data.

Expectations come from docs/rules.md section 7 and the seed text
002_5dad48ae6d59dfea.txt, worked out by hand. The complete deal below is scripted card by card
(plays, winners, melds, dix); a small builder only fills in the bookkeeping (copy numbers,
"from" tags, draws, points and totals), and the totals of the base deal are pinned to numbers
computed by hand in the comments, so the builder cannot silently agree with an oracle bug.
"""

from __future__ import annotations

import copy

import pytest

from tests.oracles.reference_two_hand import (
    card_points,
    round_tens_7up,
    trick_winner,
    validate_two_hand,
)

# --------------------------------------------------------------------------- small functions


@pytest.mark.parametrize(
    ("raw", "rounded"),
    [
        (87, 90),
        (126, 120),
        (124, 120),
        (125, 120),
        (127, 130),
        (0, 0),
        (250, 250),
        (123, 120),
        (96, 90),
        (97, 100),
        (6, 0),
        (7, 10),
    ],  # units 6 round down (126 -> 120)
)
def test_round_tens_7up(raw, rounded):
    assert round_tens_7up(raw) == rounded


@pytest.mark.parametrize(
    ("card", "points"),
    [("AS", 11), ("10H", 10), ("KD", 4), ("QC", 3), ("JD", 2), ("9S", 0)],
)
def test_card_points(card, points):
    assert card_points(card) == points


def test_card_points_total_is_240():
    # RULES 9 / seed: (11 + 10 + 4 + 3 + 2) x 8 = 240, plus 10 for the last trick = 250.
    faces = [r + s for r in ("9", "J", "Q", "K", "10", "A") for s in "SHDC"]
    assert 2 * sum(card_points(f) for f in faces) == 240


@pytest.mark.parametrize(
    ("led", "second", "trump", "winner"),
    [
        ("AH", "9C", "C", 1),  # seed: clubs trump, AH led, 9C trumps it
        ("AH", "AD", "C", 0),  # seed: another non-trump suit never wins, even an ace
        ("AH", "QH", "C", 0),
        ("AH", "AH", "C", 0),  # identical cards: the first played wins
        ("9C", "9C", "C", 0),  # identical trumps too
        ("KH", "10H", "C", 1),  # the 10 beats the K
        ("10H", "KH", "C", 0),
        ("QC", "KC", "C", 1),  # higher trump over a trump lead
        ("KC", "AH", "C", 0),  # a non-trump never beats a trump lead
        ("9S", "JS", "H", 1),
        ("JS", "9S", "H", 0),
        ("AS", "9H", "H", 1),  # lowest trump beats a non-trump ace
        ("9D", "AC", "H", 0),
    ],
)
def test_trick_winner(led, second, trump, winner):
    assert trick_winner(led, second, trump) == winner


# --------------------------------------------------------------------------- record builder

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}  # RULES 2, two-hand column
MELD_VALUE = {
    "run": 150,
    "trump marriage": 40,
    "marriage": 20,
    "pinochle": 40,
    "double pinochle": 300,
    "aces around": 100,
    "kings around": 80,
    "queens around": 60,
    "jacks around": 40,
}


def _round(x: int) -> int:
    return (x + 3) // 10 * 10  # units 7-9 reach the next ten, 0-6 do not


def build_record(dealt0, dealt1, up, stock, dealer, script, trump=None) -> dict:
    """Turn a script of 24 tricks into a record (bookkeeping only; no rule is checked).

    Each script entry: {"play": (leader_face, second_face), "winner": seat, optional
    "meld": (name, [faces]) or (seat, name, [faces]), optional "dix": (face, exchanged)}.
    A face may name its copy as "QS#1"; otherwise the builder takes the lowest copy the seat
    holds unplayed (falling back to any copy, so that illegal scripts still build).
    """
    order = [*dealt0, *dealt1, up, *stock]
    seen: dict[str, int] = {}
    keys = []
    for face in order:
        keys.append((face, seen.get(face, 0)))
        seen[face] = seen.get(face, 0) + 1
    owner = {k: (0 if i < 12 else 1 if i < 24 else None) for i, k in enumerate(keys)}
    stock_keys = keys[25:]
    face_up = keys[24]
    table: set = set()
    played: set = set()
    trump = trump or up[-1]

    def pick(spec, seat, exclude=()):
        if "#" in spec:
            face, c = spec.split("#")
            return face, int(c)
        for c in (0, 1):
            k = (spec, c)
            if owner.get(k) == seat and k not in played and k not in exclude:
                return k
        for c in (0, 1):
            if (spec, c) not in played and (spec, c) not in exclude:
                return (spec, c)
        return (spec, 0)

    def src(k):
        return "table" if k in table else "hand"

    tricks = []
    leader = 1 - dealer
    raw = [0, 0]
    meld_total = [0, 0]
    if up.startswith("9"):
        meld_total[dealer] += 10
    nxt = 0
    for n, step in enumerate(script, start=1):
        winner = step["winner"]
        cards = []
        for i, spec in enumerate(step["play"]):
            seat = leader if i == 0 else 1 - leader
            k = pick(spec, seat)
            cards.append({"seat": seat, "card": k[0], "copy": k[1], "from": src(k)})
            played.add(k)
            table.discard(k)
        pts = POINTS[cards[0]["card"][:-1]] + POINTS[cards[1]["card"][:-1]] + (10 if n == 24 else 0)
        raw[winner] += pts
        meld = None
        if step.get("meld"):
            m = step["meld"]
            seat, name, faces = (winner, *m) if len(m) == 2 else m
            chosen = []
            for spec in faces:
                chosen.append(pick(spec, seat, chosen))
            meld = {
                "seat": seat,
                "name": name,
                "points": MELD_VALUE[name],
                "cards": [{"card": f, "copy": c, "from": src((f, c))} for f, c in chosen],
            }
            table.update(chosen)
            meld_total[seat] += MELD_VALUE[name]
        dix = None
        if step.get("dix"):
            spec, exchanged = step["dix"]
            k = pick(spec, winner)
            dix = {
                "seat": winner,
                "card": {"card": k[0], "copy": k[1]},
                "points": 10,
                "exchanged": exchanged,
            }
            meld_total[winner] += 10
            if exchanged:
                owner[face_up] = winner
                owner[k] = None
                table.discard(k)
                face_up = k
            else:
                table.add(k)
        draws = []
        if n <= 12:
            if n < 12:
                got = [stock_keys[nxt], stock_keys[nxt + 1]]
                nxt += 2
            else:
                got = [stock_keys[nxt], face_up]
            for seat, k in zip((winner, 1 - winner), got, strict=True):
                owner[k] = seat
                draws.append({"seat": seat, "card": k[0], "copy": k[1]})
            if n == 12:
                table.clear()
        tricks.append(
            {
                "n": n,
                "phase": "stock" if n <= 12 else "playout",
                "leader": leader,
                "cards": cards,
                "winner": winner,
                "points": pts,
                "meld": meld,
                "dix": dix,
                "draws": draws,
            }
        )
        leader = winner
    tp = [_round(raw[0]), _round(raw[1])]
    score = [tp[0] + meld_total[0], tp[1] + meld_total[1]]
    return {
        "hand": 7,
        "seed": 12345,
        "rules": "two-hand",
        "dealer": dealer,
        "trump": trump,
        "up_card": up,
        "turnup_dix": 10 if up.startswith("9") else 0,
        "dealt": [list(dealt0), list(dealt1)],
        "stock": list(stock),
        "tricks": tricks,
        "meld": meld_total,
        "trick_points_raw": raw,
        "trick_points": tp,
        "score": score,
        "winner": None if score[0] == score[1] else int(score[1] > score[0]),
    }


# --------------------------------------------------------------------------- the base deal
#
# Trump hearts (up-card 10H, the second 10H). Dealer seat 1, so seat 0 leads trick 1.
# Seat 0 wins every stock trick but trick 9 and melds almost every time; seat 1 wins trick 9
# and melds a club marriage. Copy numbers follow dealt0, dealt1, up, stock order.

DEALT0 = ["KH", "QH", "AH", "10H", "JH", "QS", "JD", "KS", "9H", "AS", "AD", "10S"]
DEALT1 = ["9C", "9C", "9S", "9H", "9D", "9D", "JS", "JS", "AC", "KC", "QC", "10D"]
UP = "10H"
# even positions go to seat 0 (the usual winner), odd ones to seat 1 - except after trick 9,
# won by seat 1, which draws stock[16] while seat 0 draws stock[17].
STOCK = [
    "9S", "KS", "QS", "QD", "JD", "JH", "AC", "QH", "KD", "KH", "KC", "AH",
    "QD", "KD", "10C", "10D", "AD", "AS", "10S", "JC", "QC", "10C", "JC",
]  # fmt: skip

BASE_SCRIPT = [
    # --- stock phase: any card may be played
    {"play": ("10S", "9C"), "winner": 0, "meld": ("trump marriage", ["KH", "QH"])},  # 10
    {"play": ("9S", "9S"), "winner": 0,  # identical cards: leader wins; 0 points
     "meld": ("run", ["AH", "10H", "KH", "QH", "JH"])},  # KH QH from the table
    {"play": ("JH", "9H"), "winner": 0, "meld": ("pinochle", ["QS", "JD"])},  # 2
    {"play": ("10H", "9D"), "winner": 0, "meld": ("marriage", ["KS", "QS"])},  # 10
    {"play": ("QH", "9D"), "winner": 0,  # 3
     "meld": ("double pinochle", ["QS#0", "JD#0", "QS#1", "JD#1"])},
    {"play": ("QS#1", "JS"), "winner": 0,  # 5
     "meld": ("aces around", ["AS", "AH", "AD", "AC"]), "dix": ("9H", True)},
    {"play": ("JD#1", "9C"), "winner": 0,  # 2
     "meld": ("kings around", ["KS", "KH", "KD", "KC"])},
    {"play": ("10H", "JS"), "winner": 0,  # 12; the 10H from the dix exchange
     "meld": ("marriage", ["KD", "QD"])},  # KD from kings around, QD drawn after trick 7
    {"play": ("10C", "AC"), "winner": 1, "meld": ("marriage", ["KC", "QC"])},  # 21 to seat 1
    {"play": ("10D", "AD"), "winner": 0},  # 21; seat 1 leads
    {"play": ("AS", "KS"), "winner": 0},  # 15
    {"play": ("10S", "QD"), "winner": 0},  # 13; seat 0 draws JC, seat 1 the dix 9H
    # --- play-out. Seat 0: KH AH QS JD KS AS AC KD KC QD QC JC
    #               seat 1: 9H JH QH KH AH KD 10D AD JC QC KC 10C
    {"play": ("KH", "AH"), "winner": 1},  # 15: trump led, seat 1 must beat and does
    {"play": ("10C", "AC"), "winner": 0},  # 21: seat 0 follows clubs
    {"play": ("AS", "9H"), "winner": 1},  # 11: seat 1 void in spades, must trump
    {"play": ("KC", "KC"), "winner": 1},  # 8: identical, leader wins
    {"play": ("QC", "QC"), "winner": 1},  # 6
    {"play": ("JC", "JC"), "winner": 1},  # 4
    {"play": ("AD", "JD"), "winner": 1},  # 13
    {"play": ("10D", "KD"), "winner": 1},  # 14
    {"play": ("KD", "QD"), "winner": 1},  # 7
    {"play": ("JH", "AH"), "winner": 0},  # 13: trump led, seat 0 beats with AH
    {"play": ("KS", "QH"), "winner": 1},  # 7: void in spades, trumps
    {"play": ("KH", "QS"), "winner": 1},  # 7 + 10 for the last trick: void, no trump
]  # fmt: skip


def base_record(script=None, stock=None, dealt1=None) -> dict:
    return build_record(DEALT0, dealt1 or DEALT1, UP, stock or STOCK, 1, script or BASE_SCRIPT)


def with_step(index: int, **changes) -> list:
    """The base script with trick `index` (1-based) changed."""
    script = copy.deepcopy(BASE_SCRIPT)
    step = script[index - 1]
    for key, value in changes.items():
        if value is None:
            step.pop(key, None)
        else:
            step[key] = value
    return script


# --------------------------------------------------------------------------- accepted records


def test_base_record_totals_by_hand():
    rec = base_record()
    # Seat 0 won tricks 1-8 and 10-12 (10+0+2+10+3+5+2+12+21+15+13 = 93) and 14, 22 (21+13):
    # 127. Seat 1: 21 + (15+11+8+6+4+13+14+7+7+17 = 102) = 123. 127 -> 130, 123 -> 120.
    assert rec["trick_points_raw"] == [127, 123]
    assert rec["trick_points"] == [130, 120]
    # Seat 0: 40 + 150 + 40 + 20 + 300 + 100 + 10 (dix) + 80 + 20 = 760; seat 1: 20.
    assert rec["meld"] == [760, 20]
    assert rec["score"] == [890, 140]
    assert rec["winner"] == 0
    assert rec["turnup_dix"] == 0


def test_base_record_validates():
    validate_two_hand(base_record())


def test_trump_marriage_then_run_reuses_tabled_king_and_queen():
    rec = base_record()
    run = rec["tricks"][1]["meld"]
    froms = {c["card"]: c["from"] for c in run["cards"]}
    assert froms == {"AH": "hand", "10H": "hand", "KH": "table", "QH": "table", "JH": "hand"}
    validate_two_hand(rec)


def test_pinochle_then_spade_marriage_with_hand_king():
    rec = base_record()
    marriage = rec["tricks"][3]["meld"]
    assert {c["card"]: c["from"] for c in marriage["cards"]} == {"KS": "hand", "QS": "table"}
    validate_two_hand(rec)


def test_pinochle_then_double_pinochle():
    rec = base_record()
    double = rec["tricks"][4]["meld"]
    assert [c["from"] for c in double["cards"]] == ["table", "table", "hand", "hand"]
    validate_two_hand(rec)


def test_plays_from_the_table_are_marked():
    rec = base_record()
    # JH of the run is led to trick 3 from the table; after trick 12 everything is in hand.
    assert rec["tricks"][2]["cards"][0] == {"seat": 0, "card": "JH", "copy": 0, "from": "table"}
    assert all(c["from"] == "hand" for t in rec["tricks"][12:] for c in t["cards"])


def test_stock_phase_needs_no_follow():
    # Trick 1: seat 1 holds JS JS but discards 9C on the 10S lead; trick 3: it holds spades
    # and diamonds but plays the 9H under JH. Both legal in the stock phase.
    rec = base_record()
    assert "JS" in rec["dealt"][1]
    assert rec["tricks"][0]["cards"][1]["card"] == "9C"
    validate_two_hand(rec)


def test_all_tabled_meld_of_new_classes_still_needs_a_hand_card():
    # Kings around with KS from the hand (no spade marriage at trick 4), then at trick 8 a
    # spade marriage of the tabled KS (class 3 so far) and QS (class 2 so far): a new class
    # for both, but no card from the concealed hand.
    script = with_step(4, meld=None)
    script[7]["meld"] = ("marriage", ["KS", "QS#0"])
    rec = base_record(script)
    assert all(c["from"] == "table" for c in rec["tricks"][7]["meld"]["cards"])
    with pytest.raises(AssertionError, match="concealed hand"):
        validate_two_hand(rec)


# --------------------------------------------------------------------------- rejected records


def test_playout_renege_rejected():
    # Trick 14: clubs led; seat 0 holds clubs but trumps with AH.
    rec = base_record(with_step(14, play=("10C", "AH")))
    with pytest.raises(AssertionError, match=r"trick 14.*must follow"):
        validate_two_hand(rec)


def test_not_beating_trump_lead_rejected():
    # Trick 13: KH led; seat 1 holds AH but plays QH.
    rec = base_record(with_step(13, play=("KH", "QH")))
    with pytest.raises(AssertionError, match=r"trick 13.*must beat"):
        validate_two_hand(rec)


def test_not_trumping_when_void_rejected():
    # Trick 15: AS led; seat 1 has no spade but trumps, and discards AD instead.
    rec = base_record(with_step(15, play=("AS", "AD"), winner=0))
    with pytest.raises(AssertionError, match=r"trick 15.*must trump"):
        validate_two_hand(rec)


def test_trump_lead_without_a_beater_must_still_follow():
    # Trick 13 led with AH instead: seat 1 cannot beat it. JH (following) is legal there, so
    # the first complaint comes later; a club discard at trick 13 is a renege.
    rec = base_record(with_step(13, play=("AH", "JH"), winner=0))
    with pytest.raises(AssertionError) as err:
        validate_two_hand(rec)
    assert "trick 13" not in str(err.value)
    rec = base_record(with_step(13, play=("AH", "10C"), winner=0))
    with pytest.raises(AssertionError, match=r"trick 13.*must follow H"):
        validate_two_hand(rec)


def test_meld_without_hand_card_rejected():
    rec = base_record(with_step(3, meld=("trump marriage", ["KH", "QH"])))
    with pytest.raises(AssertionError, match=r"trick 3.*concealed hand"):
        validate_two_hand(rec)


def test_run_then_trump_marriage_rejected():
    # Variant: seat 0 draws the second QH after trick 2 (swapped with the QS at stock[2]),
    # then melds it with the run's tabled KH as a trump marriage at trick 3.
    stock = list(STOCK)
    stock[2], stock[7] = stock[7], stock[2]
    rec = base_record(with_step(3, meld=("trump marriage", ["KH", "QH#1"])), stock=stock)
    meld = rec["tricks"][2]["meld"]["cards"]
    assert [c["from"] for c in meld] == ["table", "hand"]
    with pytest.raises(AssertionError, match=r"trick 3.*already served in a class-1 meld"):
        validate_two_hand(rec)


def test_second_marriage_with_tabled_king_rejected():
    # Trick 5: KS (tabled in the spade marriage of trick 4) with the hand QS#1 again.
    rec = base_record(with_step(5, meld=("marriage", ["KS", "QS#1"])))
    assert [c["from"] for c in rec["tricks"][4]["meld"]["cards"]] == ["table", "hand"]
    with pytest.raises(AssertionError, match=r"trick 5.*already served in a class-1 meld"):
        validate_two_hand(rec)


def test_second_pinochle_with_tabled_cards_rejected():
    rec = base_record(with_step(5, meld=("pinochle", ["QS#0", "JD#1"])))
    with pytest.raises(AssertionError, match=r"trick 5.*class-2"):
        validate_two_hand(rec)


def test_meld_by_trick_loser_rejected():
    # Trick 1 is won by seat 0; seat 1 melds its own club marriage.
    rec = base_record(with_step(1, meld=(1, "marriage", ["KC", "QC"])))
    with pytest.raises(AssertionError, match=r"trick 1.*seat 0 won the trick"):
        validate_two_hand(rec)


def test_meld_with_card_drawn_same_turn_rejected():
    # The QD#1 is drawn after trick 7; melding it at trick 7 is too early.
    rec = base_record(with_step(7, meld=("marriage", ["KD", "QD#1"])))
    with pytest.raises(AssertionError, match=r"trick 7.*still in the stock"):
        validate_two_hand(rec)


def test_meld_with_exchanged_up_card_same_turn_rejected():
    # The 10H#1 comes from the dix exchange of trick 6; the meld comes first.
    rec = base_record(with_step(6, meld=("run", ["AH", "10H#1", "KH", "QH#0", "JH"])))
    with pytest.raises(AssertionError, match="trick 6, meld: 10H#1 is the face-up card"):
        validate_two_hand(rec)


def test_wrong_meld_points_and_faces_rejected():
    rec = base_record()
    rec["tricks"][0]["meld"]["points"] = 20
    with pytest.raises(AssertionError, match=r"trick 1.*worth 40"):
        validate_two_hand(rec)
    rec = base_record(with_step(1, meld=("marriage", ["KH", "QH"])))  # hearts are trump
    with pytest.raises(AssertionError, match=r"trick 1.*is not a marriage"):
        validate_two_hand(rec)


def test_dix_exchange_after_up_card_gone_rejected():
    # Seat 1 keeps its 9H#1 (plays JS at trick 3 and JH at trick 8) and shows it at trick 9
    # with an exchange, but the up-card was already exchanged at trick 6.
    script = with_step(3, play=("JH", "JS"))
    script[7]["play"] = ("10H", "JH")
    script[8]["dix"] = ("9H#1", True)
    rec = base_record(script)
    with pytest.raises(AssertionError, match=r"trick 9.*no longer face up"):
        validate_two_hand(rec)


def test_dix_shown_twice_rejected():
    rec = base_record(with_step(7, dix=("9H#0", False)))
    with pytest.raises(AssertionError, match=r"trick 7.*dix"):
        validate_two_hand(rec)


def test_wrong_draw_order_rejected():
    rec = base_record()
    d = rec["tricks"][0]["draws"]
    d[0]["card"], d[1]["card"] = d[1]["card"], d[0]["card"]
    d[0]["copy"], d[1]["copy"] = d[1]["copy"], d[0]["copy"]
    with pytest.raises(AssertionError, match="trick 1, draw 1"):
        validate_two_hand(rec)
    rec = base_record()
    rec["tricks"][8]["draws"].reverse()  # loser first after trick 9
    with pytest.raises(AssertionError, match=r"trick 9, draw 1.*winner first"):
        validate_two_hand(rec)


def test_last_draw_is_the_face_up_dix():
    rec = base_record()
    assert rec["tricks"][11]["draws"] == [
        {"seat": 0, "card": "JC", "copy": 1},
        {"seat": 1, "card": "9H", "copy": 0},
    ]
    rec["tricks"][11]["draws"][1] = {"seat": 1, "card": "10H", "copy": 1}
    with pytest.raises(AssertionError, match="trick 12, draw 2"):
        validate_two_hand(rec)


def test_wrong_rounding_rejected():
    rec = base_record()
    rec["trick_points"] = [127, 123]
    rec["score"] = [127 + 760, 123 + 20]
    with pytest.raises(AssertionError, match="trick_points"):
        validate_two_hand(rec)
    rec = base_record()
    rec["trick_points"] = [130, 130]  # 123 rounded up like 127
    rec["score"] = [890, 150]
    with pytest.raises(AssertionError, match="trick_points"):
        validate_two_hand(rec)


def test_wrong_trick_points_rejected():
    rec = base_record()
    rec["tricks"][0]["points"] = 11
    with pytest.raises(AssertionError, match="trick 1: points"):
        validate_two_hand(rec)
    rec = base_record()
    rec["tricks"][23]["points"] = 7  # last-trick 10 forgotten
    with pytest.raises(AssertionError, match="trick 24: points"):
        validate_two_hand(rec)


def test_wrong_winner_rejected():
    rec = base_record()
    rec["tricks"][1]["winner"] = 1  # identical 9S: the leader wins
    with pytest.raises(AssertionError, match="trick 2: winner"):
        validate_two_hand(rec)


def test_card_played_twice_rejected():
    # Seat 1 played its AH at trick 13; it leads that same copy again at trick 24.
    rec = base_record()
    ah = rec["tricks"][12]["cards"][1]
    assert ah["card"] == "AH"
    rec["tricks"][23]["cards"][0] = dict(ah)
    with pytest.raises(AssertionError, match=r"trick 24.*already played"):
        validate_two_hand(rec)


def test_wrong_from_tag_rejected():
    rec = base_record()
    rec["tricks"][2]["cards"][0]["from"] = "hand"  # the JH was on the table
    with pytest.raises(AssertionError, match=r"trick 3.*from 'hand'"):
        validate_two_hand(rec)


def test_wrong_leader_rejected():
    rec = base_record()
    rec["tricks"][0]["leader"] = 1  # the dealer is seat 1, so seat 0 leads
    with pytest.raises(AssertionError, match="trick 1: leader"):
        validate_two_hand(rec)


def test_meld_in_playout_rejected():
    rec = base_record()
    rec["tricks"][12]["meld"] = copy.deepcopy(rec["tricks"][0]["meld"])
    with pytest.raises(AssertionError, match=r"trick 13.*play-out"):
        validate_two_hand(rec)


def test_wrong_meld_total_and_turnup_dix_rejected():
    rec = base_record()
    rec["meld"] = [750, 20]
    rec["score"] = [880, 140]
    with pytest.raises(AssertionError, match="meld"):
        validate_two_hand(rec)
    rec = base_record()
    rec["turnup_dix"] = 10  # the up-card is 10H, not a 9
    with pytest.raises(AssertionError, match="turnup_dix"):
        validate_two_hand(rec)


def test_wrong_game_winner_rejected():
    rec = base_record()
    rec["winner"] = None
    with pytest.raises(AssertionError, match="winner"):
        validate_two_hand(rec)


def test_bad_deck_rejected():
    rec = base_record()
    rec["stock"][0] = "AS"  # now three AS and one 9S
    with pytest.raises(AssertionError, match="exactly twice"):
        validate_two_hand(rec)
