"""Two-hand (docs/rules.md 7): stock phase, melding from the table, dix, play-out, rounding.

Whole deals are replayed by the independent oracle in tests/reference_two_hand.py; the golden
examples below come from the rules text and the seed 002_5dad48ae6d59dfea.txt, worked by hand.
The command line on two-hand (``run``, ``show``, ``schema``, ``info``) is tested in
tests/cli/test_two_hand.py.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pinochle_sim import decode_hand
from pinochle_sim.core import cards as C
from pinochle_sim.core.tricks import beaters, legal_mask
from pinochle_sim.engines.two_hand.kernel import _round_points
from pinochle_sim.engines.two_hand.table import (
    CS_LEVEL,
    CS_OWN,
    CS_SIZE,
    CS_TAB,
    IN_STOCK,
    MELD_NAMES,
    candidates,
    lay,
    shortfall,
)
from pinochle_sim.policies import PolicySet
from pinochle_sim.rules import get_preset
from pinochle_sim.rules.arrays import RA_FOLLOW, RA_HEAD, RA_TRUMP, rule_array
from pinochle_sim.runs.inspect.show import format_hand, hand_record
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands, play_hands_array
from pinochle_sim.runs.simulate.pool import threads
from tests.oracles.reference_two_hand import round_tens_7up, validate_two_hand

TWO = get_preset("two-hand")
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}  # docs/rules.md 2, two-hand column

POLICY_SETS = {
    "default": PolicySet(),
    "random": PolicySet.from_options(play="random", meld="random", stock="random"),
    "no-build-up": PolicySet.from_options(params=["meld.build_up=0", "meld.exchange=0"]),
    "eager": PolicySet.from_options(params=["stock.win_meld=0", "stock.meld_weight=200"]),
}


def f(card: str) -> int:
    return C.parse_card(card)


# --------------------------------------------------------------------------- whole deals


@pytest.mark.parametrize("name", list(POLICY_SETS))
def test_whole_deals_replay_in_the_oracle(name):
    """Every play, meld, dix, exchange, draw and score of real engine deals is legal and
    correctly scored according to the independent replay of docs/rules.md 7."""
    for h in range(80):
        rec = hand_record(11, h, rules="two-hand", policies=POLICY_SETS[name])
        validate_two_hand(rec)
        assert rec["dealer"] == h % 2


@pytest.mark.parametrize("dealer", [0, 1])
def test_fixed_dealer_deals_replay_in_the_oracle(dealer):
    for h in range(40):
        rec = hand_record(12, h, rules="two-hand", dealer=dealer)
        validate_two_hand(rec)
        assert rec["dealer"] == dealer and rec["tricks"][0]["leader"] == 1 - dealer


def test_trace_agrees_with_the_batch_row():
    cols = play_hands(seed=13, count=30, rules="two-hand")
    for h in range(30):
        rec = hand_record(13, h, rules="two-hand")
        assert rec["score"] == [int(cols["score_0"][h]), int(cols["score_1"][h])]
        assert rec["meld"] == [int(cols["meld_0"][h]), int(cols["meld_1"][h])]
        assert rec["trick_points_raw"] == [
            int(cols["tricks_raw_0"][h]),
            int(cols["tricks_raw_1"][h]),
        ]
        stock = [t for t in rec["tricks"] if t["phase"] == "stock"]
        assert [t["winner"] for t in stock] == [
            int(cols[f"trick_winner_{k + 1:02d}"][h]) for k in range(12)
        ]
        laid = [
            (t["meld"]["points"] if t["meld"] else 0) + (t["dix"]["points"] if t["dix"] else 0)
            for t in stock
        ]
        assert laid == [int(cols[f"meld_after_{k + 1:02d}"][h]) for k in range(12)]
        assert rec["up_card"] == C.card_name(int(cols["up_card"][h]))


def _stock_faces(lo: int, hi: int) -> list[int]:
    return [(lo >> (5 * k)) & 31 for k in range(12)] + [(hi >> (5 * k)) & 31 for k in range(12)]


@pytest.fixture(scope="module")
def batch():
    return play_hands(seed=21, count=20_000, rules="two-hand")


def test_invariants_on_every_deal(batch):
    c = {k: v.astype(np.int64) for k, v in batch.items()}
    n = len(c["hand"])
    # Points: raw trick points sum to 250 (docs/rules.md 2), rounding per docs/rules.md 7.
    assert np.all(c["tricks_raw_0"] + c["tricks_raw_1"] == 250)
    for p in range(2):
        raw = c[f"tricks_raw_{p}"]
        units = raw % 10
        expected = np.where(units >= 7, raw - units + 10, raw - units)
        assert np.array_equal(c[f"trick_points_{p}"], expected)
        assert np.array_equal(c[f"score_{p}"], c[f"trick_points_{p}"] + c[f"meld_{p}"])
    winner = np.where(c["score_0"] > c["score_1"], 0, np.where(c["score_1"] > c["score_0"], 1, -1))
    assert np.array_equal(c["winner"], winner)
    # 24 tricks, 12 of them in the stock phase; 40 counters (A, 10, K, Q, J) in all.
    assert np.all(c["tricks_won_0"] + c["tricks_won_1"] == 24)
    assert np.all(c["stock_tricks_0"] + c["stock_tricks_1"] == 12)
    assert np.all(c["counters_0"] + c["counters_1"] == 40)
    winners = np.stack([c[f"trick_winner_{k:02d}"] for k in range(1, 13)])
    assert np.array_equal((winners == 0).sum(axis=0), c["stock_tricks_0"])
    laid = np.stack([c[f"meld_after_{k:02d}"] for k in range(1, 13)])
    for p in range(2):
        own = (laid * (winners == p)).sum(axis=0)
        turnup = np.where(c["dealer"] == p, c["turnup_dix"], 0)
        assert np.array_equal(own + turnup, c[f"meld_{p}"])
    # A meld turn lays at most one meld and one dix: at most 300 + 10 in table D.
    assert laid.max() <= 310 and laid.min() >= 0
    # Trump is the up-card's suit; the dealer scores 10 exactly when it is a 9.
    assert np.array_equal(c["trump"], c["up_card"] // 6)
    assert np.array_equal(c["turnup_dix"], np.where(c["up_card"] % 6 == 0, 10, 0))
    # The dealt hands, the stock and the up-card are the whole deck.
    for h in range(0, n, 97):
        cards = decode_hand(int(c["dealt_0"][h])) + decode_hand(int(c["dealt_1"][h]))
        stock = _stock_faces(int(c["stock_lo"][h]), int(c["stock_hi"][h]))
        assert stock[-1] == c["up_card"][h]
        deck = Counter(cards) + Counter(C.card_name(x) for x in stock)
        assert len(deck) == 24 and set(deck.values()) == {2}
    assert np.all((c["exchanged"] >= -1) & (c["exchanged"] <= 1))
    assert np.all(c["dealer"] == np.arange(n) % 2)


def test_deal_statistics_match_exact_probabilities(batch):
    """The up-card is uniform over 48 cards: a 9 with probability 8/48, each trump 1/4."""
    c = batch
    n = len(c["hand"])
    p9 = (c["up_card"] % 6 == 0).mean()
    assert abs(p9 - 1 / 6) < 4 * np.sqrt(1 / 6 * 5 / 6 / n)
    for s in range(4):
        assert abs((c["trump"] == s).mean() - 0.25) < 4 * np.sqrt(0.25 * 0.75 / n)
    # Seat 0 holds 12 of the 48 cards: expected aces 8 * 12/48 = 2.
    assert abs(c["aces_0"].mean() - 2.0) < 0.05


def test_same_seed_same_records_whatever_threads_or_chunks():
    inputs = engine_inputs("two-hand")
    with threads(1):
        a = play_hands_array(inputs, 5, 100, 3000, chunk=3000)
    with threads(2):
        b = play_hands_array(inputs, 5, 100, 3000, chunk=7)
        c = play_hands_array(inputs, 5, 0, 3100, chunk=512)[:, 100:]
    assert np.array_equal(a, b) and np.array_equal(a, c)


def test_default_policies_lay_more_meld_than_random_ones():
    good = play_hands(seed=3, count=4000, rules="two-hand")
    rand = play_hands(seed=3, count=4000, rules="two-hand", policies=POLICY_SETS["random"])
    assert good["meld_0"].mean() > rand["meld_0"].mean() + 20


def test_policies_do_not_change_the_deal():
    a = play_hands(seed=8, count=500, rules="two-hand")
    b = play_hands(seed=8, count=500, rules="two-hand", policies=POLICY_SETS["random"])
    for col in ("dealt_0", "dealt_1", "stock_lo", "stock_hi", "up_card", "trump", "turnup_dix"):
        assert np.array_equal(a[col], b[col])


# --------------------------------------------------------------------------- golden examples


@pytest.mark.parametrize(
    ("raw", "counted"), [(87, 90), (126, 120), (124, 120), (125, 120), (123, 120), (127, 130)]
)
def test_rounding_examples_of_the_rules_text(raw, counted):
    assert _round_points(raw, 1) == counted == round_tens_7up(raw)
    assert _round_points(raw, 0) == raw


def test_scoring_example_of_the_seed_text():
    """Seed 002: raw 123 and 127 (sum 250) count 120 and 130; meld 60 and 40 -> 180 to 170."""
    assert _round_points(123, 1) + 60 == 180
    assert _round_points(127, 1) + 40 == 170
    assert _round_points(125, 1) == _round_points(250 - 125, 1) == 120  # 125-125 -> 120 each


@pytest.mark.parametrize(
    ("led", "second", "leader_wins"),
    [
        ("AH", "9C", False),  # seed: clubs trump, the 9 of trump takes the ace of hearts
        ("AH", "AD", True),  # an ace of another plain suit never wins
        ("AH", "AH", True),  # identical cards: the first played wins
        ("KH", "10H", False),  # the 10 beats the king
        ("9C", "AH", True),  # a plain ace does not beat a trump
        ("QC", "KC", False),
    ],
)
def test_stock_phase_trick_winner_examples(led, second, leader_wins):
    trump = C.C
    beaten = (beaters(f(led), trump) >> f(second)) & 1
    assert (not beaten) == leader_wins


def _legal_cards(hand: str, led: str, trump: int) -> set[str]:
    ra = rule_array(TWO)
    held = C.encode_hand(hand) & 0xFFFFFF
    mask = legal_mask(
        held, f(led) // 6, f(led), trump, ra[RA_FOLLOW] != 0, ra[RA_TRUMP] != 0, ra[RA_HEAD]
    )
    return {C.card_name(x) for x in range(24) if (mask >> x) & 1}


def test_play_out_obligations_of_the_seed_text():
    # Clubs trump. AH led: holding QH and 9C, the 9C is legal only while the stock lasts.
    assert _legal_cards("QH 9C", "AH", C.C) == {"QH"}
    # QC led: holding KC and 9C, must beat it with the KC.
    assert _legal_cards("KC 9C AS", "QC", C.C) == {"KC"}
    # QC led: holding JC and 9C, neither beats it, but a club must still be played.
    assert _legal_cards("JC 9C AH", "QC", C.C) == {"JC", "9C"}
    # A plain suit led: follow with any card of it (no obligation to beat).
    assert _legal_cards("9H AH KC", "QH", C.C) == {"9H", "AH"}
    # Void in the led suit: trump if able, else anything.
    assert _legal_cards("9C AS", "QH", C.C) == {"9C"}
    assert _legal_cards("AS KD", "QH", C.C) == {"AS", "KD"}


# --------------------------------------------------------------------------- melding from the table


def _state(holdings: dict[int, str]) -> np.ndarray:
    """Card state with seat -> cards (copy 0 first); everything else in the stock."""
    cs = np.zeros(CS_SIZE, dtype=np.int64)
    cs[CS_OWN : CS_OWN + 48] = IN_STOCK
    for seat, text in holdings.items():
        for card in text.split():
            face = f(card)
            i = 2 * face if cs[CS_OWN + 2 * face] == IN_STOCK else 2 * face + 1
            cs[CS_OWN + i] = seat
    return cs


def _hand(cs: np.ndarray, seat: int) -> int:
    faces = [i >> 1 for i in range(48) if cs[CS_OWN + i] == seat]
    return C.encode_faces(faces)


def _cand(name: str, trump: int, suit: int | None = None) -> tuple[int, int, int]:
    for cls, value, need, name_id in candidates(TWO.meld, trump):
        if MELD_NAMES[name_id] != name:
            continue
        if suit is None or C.hand_faces(need)[0] // 6 == suit:
            return cls, value, need
    raise KeyError(name)


def _short(cs: np.ndarray, seat: int, meld: tuple[int, int, int]) -> int:
    cls, value, need = meld
    return shortfall(cs, seat, _hand(cs, seat), need, cls, value)


def _lay(cs: np.ndarray, seat: int, meld: tuple[int, int, int]) -> tuple[int, int]:
    cls, value, need = meld
    assert _short(cs, seat, meld) == 0
    return lay(cs, seat, need, cls, value)


def test_table_d_candidates_are_the_rules_melds():
    names = {MELD_NAMES[n]: v for _, v, _, n in candidates(TWO.meld, C.H)}
    assert names == {
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
    assert sum(MELD_NAMES[n] == "marriage" for *_, n in candidates(TWO.meld, C.H)) == 3


def test_trump_marriage_then_run_reuses_the_table_king_and_queen():
    """Seed 002: trump K+Q laid for 40; a later turn adds A, 10, J from the hand for 150."""
    cs = _state({0: "KH QH AH 10H JH"})
    used, table = _lay(cs, 0, _cand("trump marriage", C.H))
    assert table == 0 and bin(used).count("1") == 2
    used, table = _lay(cs, 0, _cand("run", C.H))
    assert bin(used).count("1") == 5 and bin(table).count("1") == 2  # K, Q from the table


def test_run_then_trump_marriage_of_the_same_cards_is_refused():
    cs = _state({0: "KH QH AH 10H JH"})
    _lay(cs, 0, _cand("run", C.H))
    assert _short(cs, 0, _cand("trump marriage", C.H)) > 0


def test_pinochle_then_spade_marriage_with_a_hand_king():
    """Seed 002, spades not trump: QS+JD for 40, later KS from the hand makes K+Q of spades 20
    (another class)."""
    cs = _state({0: "QS JD KS"})
    _lay(cs, 0, _cand("pinochle", C.H))
    _used, table = _lay(cs, 0, _cand("marriage", C.H, suit=C.S))
    assert table == 1 << (2 * f("QS"))


def test_a_new_meld_needs_a_card_from_the_hand():
    # Kings around laid; the four kings cannot make kings around again, nor can one of them
    # make a marriage without its queen coming from the hand... which it does here.
    cs = _state({0: "KS KH KD KC QD"})
    _lay(cs, 0, _cand("kings around", C.H))
    assert _short(cs, 0, _cand("kings around", C.H)) > 0
    used, table = _lay(cs, 0, _cand("marriage", C.H, suit=C.D))
    assert bin(table).count("1") == 1 and bin(used).count("1") == 2
    # Every card of a marriage already on the table (here from two arounds): refused.
    cs = _state({0: "KS KH KD KC QS QH QD QC"})
    _lay(cs, 0, _cand("kings around", C.H))
    _lay(cs, 0, _cand("queens around", C.H))
    assert _short(cs, 0, _cand("marriage", C.H, suit=C.S)) == 1  # all on the table


def test_a_table_king_serves_one_marriage_only():
    cs = _state({0: "KS QS QS"})
    _lay(cs, 0, _cand("marriage", C.H, suit=C.S))
    assert _short(cs, 0, _cand("marriage", C.H, suit=C.S)) > 0


def test_pinochle_then_double_pinochle():
    cs = _state({0: "QS JD QS JD"})
    _lay(cs, 0, _cand("pinochle", C.H))
    used, table = _lay(cs, 0, _cand("double pinochle", C.H))
    assert bin(used).count("1") == 4 and bin(table).count("1") == 2


def test_lay_prefers_table_cards_and_keeps_the_concealed_copy():
    cs = _state({0: "KH KH QH QS JD"})  # trump spades: KH+QH is a plain marriage
    _lay(cs, 0, _cand("pinochle", C.S))
    # Kings around is not possible; a heart marriage uses a hand K and the hand Q.
    _used, table = _lay(cs, 0, _cand("marriage", C.S, suit=C.H))
    assert table == 0
    assert cs[CS_TAB + 2 * f("KH")] + cs[CS_TAB + 2 * f("KH") + 1] == 1
    assert cs[CS_LEVEL + 4 * (2 * f("QS")) + 2] == 40  # the pinochle's queen, class 2


def test_played_cards_never_meld_and_other_seats_cards_do_not_count():
    cs = _state({0: "KH", 1: "QH"})
    assert _short(cs, 0, _cand("trump marriage", C.H)) == 1


# --------------------------------------------------------------------------- show


def test_show_reads_like_a_game():
    rec = hand_record(1, 3, rules="two-hand")
    text = format_hand(rec)
    assert "Up-card" in text and "Stock phase" in text and "Play-out" in text
    assert "draws" in text and "melds" in text and "Result:" in text
    assert len([t for t in rec["tricks"] if t["phase"] == "stock"]) == 12
    assert sum(t["points"] for t in rec["tricks"]) == 250
    assert set(rec["policies"]) == {"play", "meld", "stock"}


def test_dix_exchange_and_the_turned_up_nine():
    """docs/rules.md 7: the dix holder who wins a trick may show it for 10 and exchange it for the
    turned-up card, which the loser of the 12th trick then takes; a turned-up 9 scores 10 for
    the dealer at once and is never shown again."""
    exchanged = turned_nine = 0
    for h in range(400):
        rec = hand_record(31, h, rules="two-hand")
        trump = rec["trump"]
        nine = f"9{trump}"
        swaps = [t for t in rec["tricks"] if t["dix"] and t["dix"]["exchanged"]]
        last_draws = rec["tricks"][11]["draws"]
        if swaps:
            exchanged += 1
            assert len(swaps) == 1 and swaps[0]["dix"]["points"] == 10
            assert swaps[0]["n"] <= 12 and rec["up_card"] != nine
            assert last_draws[1]["card"] == nine  # the loser of trick 12 takes the dix
        else:
            assert last_draws[1]["card"] == rec["up_card"]
        if rec["up_card"] == nine:
            turned_nine += 1
            assert rec["turnup_dix"] == 10
            shown = [t["dix"]["card"] for t in rec["tricks"] if t["dix"]]
            assert all(c["card"] == nine for c in shown) and len(shown) <= 1
        else:
            assert rec["turnup_dix"] == 0
    assert exchanged > 100 and turned_nine > 30


@pytest.mark.parametrize("name", list(POLICY_SETS))
def test_two_hand_policies_are_deterministic_and_leave_inputs_alone(name):
    from pinochle_sim.runs.simulate.hands import trace_arrays

    inputs = engine_inputs("two-hand", POLICY_SETS[name])
    arrays = (inputs.ra, inputs.ma, inputs.xa, inputs.pp)
    assert not any(a.flags.writeable for a in arrays)
    before = [a.copy() for a in arrays]
    a = play_hands_array(inputs, 17, 0, 1500)
    trace_arrays(inputs, 17, 3)
    b = play_hands_array(engine_inputs("two-hand", POLICY_SETS[name]), 17, 0, 1500)
    assert np.array_equal(a, b)
    assert all(np.array_equal(x, y) for x, y in zip(before, arrays, strict=True))
