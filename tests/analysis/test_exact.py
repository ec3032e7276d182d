"""The exact meld distribution (``pinochle_sim.analysis.exact``) against brute force and by-hand
identities.

* Brute force: every hand of 1-6 cards (and, for 12- and 15-card hands, every hand with 10 or
  more trumps) is scored by the engine's own jitted meld scorer and counted, for every meld
  table (the four of RULES.md 6 and two TOML tables with odd values), every trump.
* Identities derived by hand: counts add up to C(48, H); trump lengths are hypergeometric;
  hearts and clubs are interchangeable; the mean is the same for every trump and equals the
  sum of the expectations of the independent parts of meld (linearity); table C is table B
  divided by ten; the meld kinds' probabilities follow inclusion-exclusion formulas; the few
  hands that reach 600+ with eight cards or 1000+ with ten are counted by hand.
"""

from __future__ import annotations

import doctest
import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from pinochle_sim import ExactMeld, exact, exact_meld_distribution
from pinochle_sim.analysis.exact import hands_holding
from pinochle_sim.core import cards as C
from pinochle_sim.core.jit import jit
from pinochle_sim.rules import MELD_TABLES, get_preset, loads_ruleset
from pinochle_sim.rules.meld import _meld, meld_table_array

ODD_TOML = """
preset = "partnership"
name = "odd-values"

[meld]
run = 151
run_extra_king = 197
run_extra_queen = 193
run_trump_marriage = 241
double_run = 1009
dix = 11
trump_marriage = 43
marriage = 23
pinochle = 47
double_pinochle = 50        # worth less than two pinochles: the scorer takes 2 x 47
around = [101, 83, 61, 41]
eight = [150, 1013, 0, 59]  # eight aces < two aces around; no eight queens
"""
SPARSE_TOML = """
preset = "partnership"
name = "sparse"

[meld]
base = "D"
dix = 0
marriage = 0
pinochle = 7
around = [0, 80, 0, 13]
"""
RULESETS = {
    **{f"table {name}": f"{name}" for name in MELD_TABLES},
    "odd TOML": ODD_TOML,
    "sparse TOML": SPARSE_TOML,
}


def ruleset(label: str):
    spec = RULESETS[label]
    if spec in MELD_TABLES:
        return loads_ruleset(f'preset = "partnership"\nname = "t{spec}"\nmeld = "{spec}"\n')
    return loads_ruleset(spec)


# --------------------------------------------------------------------------- brute force


@jit
def _score_all(codes: np.ndarray, trump: int, ma: np.ndarray, out: np.ndarray) -> None:
    for i in range(codes.size):
        out[i] = _meld(codes[i], trump, ma)


def _pack(counts: np.ndarray) -> np.ndarray:
    """Packed hand codes (core.cards layout) of rows of counts by face."""
    bits = np.int64(1) << np.arange(C.NUM_FACES, dtype=np.int64)
    one = ((counts >= 1) * bits).sum(axis=1)
    two = ((counts == 2) * bits).sum(axis=1)
    return one | (two << C.PLANE_BITS)


def _multisets(faces: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of ``size`` cards from ``faces`` faces of two copies: (counts, ways)."""
    if size == 0:
        return np.zeros((1, faces), dtype=np.int64), np.ones(1, dtype=np.int64)
    combos = np.array(list(itertools.combinations_with_replacement(range(faces), size)))
    counts = np.zeros((len(combos), faces), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(len(combos)), size), combos.ravel()), 1)
    counts = counts[counts.max(axis=1) <= 2]
    ways = 2 ** (counts == 1).sum(axis=1)  # a single copy is one of two cards
    return counts, ways


def _tally(counts: np.ndarray, ways: np.ndarray, trump: int, ma: np.ndarray) -> dict:
    """{trump length: {meld: hands}} of the given hands, scored by the engine's kernel."""
    scores = np.zeros(len(counts), dtype=np.int64)
    _score_all(_pack(counts), trump, ma, scores)
    lengths = counts[:, 6 * trump : 6 * trump + 6].sum(axis=1)
    keys, inverse = np.unique(lengths * 10**9 + scores, return_inverse=True)
    sums = np.zeros(len(keys), dtype=np.int64)
    np.add.at(sums, inverse, ways)
    out: dict[int, dict[int, int]] = {}
    for key, w in zip(keys.tolist(), sums.tolist(), strict=True):
        out.setdefault(key // 10**9, {})[key % 10**9] = w
    return out


SMALL = {h: _multisets(C.NUM_FACES, h) for h in range(1, 7)}


@pytest.mark.parametrize("trump", C.SUITS)
@pytest.mark.parametrize("label", list(RULESETS))
def test_every_small_hand_brute_force(label: str, trump: str) -> None:
    r = ruleset(label)
    ma = meld_table_array(r)
    s = C.SUITS.index(trump)
    for h, (counts, ways) in SMALL.items():
        assert int(ways.sum()) == math.comb(48, h)
        e = exact.exact_meld_distribution(r, trump, hand_size=h)
        assert e.by_length == _tally(counts, ways, s, ma), (label, trump, h)


def _long_trump_hands(hand: int, length: int, trump: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ``hand``-card hand with exactly ``length`` cards of the trump suit."""
    suit, suit_ways = _multisets(C.NUM_RANKS, length)
    rest, rest_ways = _multisets(C.NUM_FACES - C.NUM_RANKS, hand - length)
    counts = np.zeros((len(suit) * len(rest), C.NUM_FACES), dtype=np.int64)
    others = [f for f in range(C.NUM_FACES) if C.face_suit(f) != trump]
    counts[:, 6 * trump : 6 * trump + 6] = np.repeat(suit, len(rest), axis=0)
    counts[:, others] = np.tile(rest, (len(suit), 1))
    return counts, np.repeat(suit_ways, len(rest)) * np.tile(rest_ways, len(suit))


@pytest.mark.parametrize("trump", C.SUITS)
@pytest.mark.parametrize("label", list(RULESETS))
def test_long_trump_suits_of_full_hands_brute_force(label: str, trump: str) -> None:
    """12 cards with 10-12 trumps and 15 cards with 12: double runs, run bonus rows."""
    r = ruleset(label)
    ma = meld_table_array(r)
    s = C.SUITS.index(trump)
    for hand, length in ((12, 10), (12, 11), (12, 12), (15, 12)):
        counts, ways = _long_trump_hands(hand, length, s)
        assert int(ways.sum()) == math.comb(12, length) * math.comb(36, hand - length)
        e = exact.exact_meld_distribution(r, trump, hand_size=hand)
        assert e.by_length[length] == _tally(counts, ways, s, ma)[length], (hand, length)


def test_the_twelve_trumps_hand_by_hand() -> None:
    # The one 12-card hand of all hearts: double run 1500 and two dix (table A).
    e = exact.exact_meld_distribution("partnership", "H")
    assert e.by_length[12] == {1520: 1}
    assert e.by_length[11][1510] == 2 * 36  # a 9 short: one dix, any one card of 36


def test_big_melds_of_eight_and_ten_cards_counted_by_hand() -> None:
    # Eight cards reach 600 only as eight queens, eight kings (800) or eight aces (1000).
    e8 = exact.exact_meld_distribution("partnership", "H", hand_size=8)
    assert {v: c for v, c in e8.counts.items() if v >= 600} == {600: 1, 800: 1, 1000: 1}
    # Ten cards reach 1000 as eight aces plus any 2 of the other 40 cards, or the double run.
    e10 = exact.exact_meld_distribution("partnership", "H", hand_size=10)
    assert sum(c for v, c in e10.counts.items() if v >= 1000) == math.comb(40, 2) + 1
    assert e10.counts[max(e10.counts)] == 1 and max(e10.counts) == 1500
    # Table D has neither: eight aces are two aces around.
    d8 = exact.exact_meld_distribution("two-hand", "H", hand_size=8)
    assert max(d8.counts) < 600


# --------------------------------------------------------------------------- identities


PRESET_NAMES = ("partnership", "partnership-classic", "joedog", "two-hand", "three-hand")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_counts_add_up_and_lengths_are_hypergeometric(preset: str) -> None:
    for trump in C.SUITS:
        e = exact.exact_meld_distribution(preset, trump)
        h = e.hand_size
        assert h == (15 if preset == "three-hand" else 12)
        assert e.total == math.comb(48, h) == sum(e.counts.values())
        assert all(isinstance(c, int) and c > 0 for c in e.counts.values())
        for L in range(13):
            expect = math.comb(12, L) * math.comb(36, h - L)
            assert e.length_count(L) == expect, (trump, L)
            assert e.given_length(L)["p"] == pytest.approx(expect / e.total, rel=1e-12)
        assert sum(e.pmf.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hearts_and_clubs_identical_and_the_mean_is_the_same_for_every_trump(preset: str) -> None:
    e = {t: exact.exact_meld_distribution(preset, t) for t in C.SUITS}
    assert e["H"].counts == e["C"].counts and e["H"].by_length == e["C"].by_length
    assert e["H"].held == e["C"].held
    # Every part of meld has the same marginal law whichever suit is trump: equal means.
    assert e["S"].mean_exact == e["D"].mean_exact == e["H"].mean_exact
    # But the pinochle cards sit in spades and diamonds: those distributions differ.
    assert e["S"].counts != e["H"].counts and e["S"].counts != e["D"].counts


def _part_mean(rules, trump: int, hand: int, faces: tuple[int, ...]) -> Fraction:
    """E[meld of the sub-hand made of the hand's copies of ``faces``], by enumerating their
    counts: the engine's scorer values the sub-hand; the rest of the hand is any cards."""
    ma = meld_table_array(rules)
    rest = 2 * (C.NUM_FACES - len(faces))
    total = 0
    for counts in itertools.product(range(3), repeat=len(faces)):
        k = sum(counts)
        if k <= hand:
            code = C.encode_faces([f for f, c in zip(faces, counts, strict=True) for _ in range(c)])
            ways = math.prod(math.comb(2, c) for c in counts) * math.comb(rest, hand - k)
            total += ways * int(_meld(code, trump, ma))
    return Fraction(total, math.comb(48, hand))


@pytest.mark.parametrize("trump", C.SUITS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_mean_is_the_sum_of_the_parts_expectations(preset: str, trump: str) -> None:
    """Linearity: meld = each suit's class-1 meld + the pinochles + one part per around rank,
    and each part is scored alone on the cards it depends on."""
    e = exact.exact_meld_distribution(preset, trump)
    r = get_preset(preset)
    s = C.SUITS.index(trump)
    parts = [tuple(C.face(suit, rank) for rank in range(6)) for suit in range(4)]
    parts.append((C.face(C.S, C.RQ), C.face(C.D, C.RJ)))
    parts += [tuple(C.face(suit, rank) for suit in range(4)) for rank in (C.RA, C.RK, C.RQ, C.RJ)]
    expect = sum(_part_mean(r, s, e.hand_size, p) for p in parts)
    assert e.mean_exact == expect


def test_table_c_is_table_b_divided_by_ten() -> None:
    for trump in C.SUITS:
        b = exact.exact_meld_distribution("partnership-classic", trump)
        c = exact.exact_meld_distribution("joedog", trump)
        assert c.counts == {v // 10: n for v, n in b.counts.items()}
        assert all(v % 10 == 0 for v in b.counts)
        for L, dist in b.by_length.items():
            assert c.by_length[L] == {v // 10: n for v, n in dist.items()}
        assert c.mean_exact * 10 == b.mean_exact and c.held == b.held


def test_sd_and_quantiles_from_the_counts() -> None:
    e = exact.exact_meld_distribution("partnership", "S")
    second = Fraction(sum(v * v * n for v, n in e.counts.items()), e.total)
    assert e.sd == pytest.approx(math.sqrt(second - e.mean_exact**2), rel=1e-12)
    cum = np.cumsum([e.counts[v] for v in sorted(e.counts)])
    values = sorted(e.counts)
    for q in (0.1, 0.5, 0.9):
        assert e.quantile(q) == values[int(np.argmax(cum >= q * e.total))]
    assert e.tail(0) == 1.0 and e.tail(max(e.counts) + 1) == 0.0
    six = e.by_length[6]
    assert e.tail(100, length=6) == pytest.approx(
        sum(n for v, n in six.items() if v >= 100) / sum(six.values())
    )


# --------------------------------------------------------------------------- meld kinds


def _at_least_one_of_each(faces: int, hand: int) -> int:
    """Hands holding at least one copy of each of ``faces`` faces (inclusion-exclusion)."""
    return sum(
        (-1) ** j * math.comb(faces, j) * math.comb(48 - 2 * j, hand) for j in range(faces + 1)
    )


@pytest.mark.parametrize("hand", [12, 15])
def test_meld_kinds_match_inclusion_exclusion(hand: int) -> None:
    e = exact.exact_meld_distribution("partnership", "H", hand_size=hand)
    h = e.held
    assert h["run"] == _at_least_one_of_each(5, hand)
    assert h["double run"] == math.comb(38, hand - 10)
    assert h["pinochle"] == _at_least_one_of_each(2, hand)
    assert h["double pinochle"] == math.comb(44, hand - 4)
    assert h["trump marriage"] == _at_least_one_of_each(2, hand)
    assert h["dix: 1"] == 2 * math.comb(46, hand - 1)
    assert h["dix: 2"] == math.comb(46, hand - 2)
    for word in ("aces", "kings", "queens", "jacks"):
        assert h[f"{word} around"] == _at_least_one_of_each(4, hand)
        assert h[f"eight {word}"] == math.comb(40, hand - 8)
    # Run with an extra king: A, 10, Q, J at least once and both kings.
    extra_king = sum(
        (-1) ** j * math.comb(4, j) * math.comb(46 - 2 * j, hand - 2) for j in range(5)
    )
    assert h["run with extra king"] == h["run with extra queen"] == extra_king
    # A marriage in some non-trump suit: 1 - P(no K+Q in any of three suits).
    assert h["marriage"] == math.comb(48, hand) - _hands_without_marriage(3, hand)
    assert 0 < h["marriages around"] < h["marriage"]
    assert e.melds["run"] == pytest.approx(h["run"] / e.total)


def _hands_without_marriage(suits: int, hand: int) -> int:
    """Hands with no K+Q pair in any of ``suits`` suits: per suit the 4 K/Q cards hold only
    kings or only queens, (1+x)^2 + (1+x)^2 - 1 ways, times anything from the other cards."""
    per_suit = np.array([1, 4, 2], dtype=object)  # 0 cards: 1; 1 card: 4; 2 cards: KK or QQ
    poly = np.array([1], dtype=object)
    for _ in range(suits):
        poly = np.convolve(poly, per_suit)
    rest = 48 - 4 * suits
    return sum(int(c) * math.comb(rest, hand - k) for k, c in enumerate(poly) if k <= hand)


def test_meld_kinds_follow_the_table() -> None:
    a = exact.exact_meld_distribution("partnership", "S").held
    b = exact.exact_meld_distribution("partnership-classic", "S").held
    d = exact.exact_meld_distribution("two-hand", "S").held
    assert {"run with extra king", "run with trump marriage"} <= set(a)
    assert "run with extra king" not in b and "double run" in b
    assert "double run" not in d and "eight aces" not in d and "double pinochle" in d
    assert set(b) <= set(a)


def test_hands_holding_counts_any_face_test() -> None:
    # Exactly one copy of AS and none of AH in 3 cards: 2 * C(44, 2).
    faces = (C.face(C.S, C.RA), C.face(C.H, C.RA))
    assert hands_holding(3, faces, lambda c: c == (1, 0)) == 2 * math.comb(44, 2)


# --------------------------------------------------------------------------- API


def test_result_object_and_frames() -> None:
    e = exact_meld_distribution("joedog", "D")
    assert isinstance(e, ExactMeld) and e.rules == "joedog" and e.table == "C"
    assert e.trump == "D" and e.hand_size == 12
    f = e.to_frame()
    assert list(f.columns) == ["meld", "count", "p", "p_at_least"]
    assert int(f["count"].sum()) == e.total and f["p_at_least"].iloc[0] == pytest.approx(1.0)
    bl = e.by_length_frame()
    assert set(bl["trump_length"]) == set(range(13))
    assert bl.groupby("trump_length")["p"].sum().to_numpy() == pytest.approx(np.ones(13))
    s = e.length_summary()
    assert s["count"].sum() == e.total and (s["p10"] <= s["median"]).all()
    assert (s["median"] <= s["p90"]).all()
    m = e.melds_frame()
    assert dict(zip(m["kind"], m["count"], strict=True)) == e.held


def test_json_object_has_the_documented_fields() -> None:
    doc = json.loads(json.dumps(exact.exact_meld_distribution("partnership", "H").to_dict()))
    for key in ("rules", "hand_size", "trump", "total", "mean", "sd", "pmf", "by_trump_length",
                "melds"):  # fmt: skip
        assert key in doc, key
    assert doc["total"] == math.comb(48, 12)
    assert sum(doc["pmf"].values()) == pytest.approx(1.0)
    six = doc["by_trump_length"]["6"]
    assert set(six) >= {"p", "mean", "sd", "pmf"}
    assert sum(int(c) for c in doc["counts"].values()) == doc["total"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"trump": "X"}, "unknown suit"),
        ({"trump": 4}, "unknown suit"),
        ({"hand_size": 0}, "1..48"),
        ({"hand_size": 49}, "1..48"),
        ({"hand_size": True}, "1..48"),
        ({"rules": "nope"}, "unknown rules"),
    ],
)
def test_bad_input_is_a_value_error(kwargs: dict, message: str) -> None:
    args = {"rules": "partnership", "trump": "S"} | kwargs
    with pytest.raises(ValueError, match=message):
        exact.exact_meld_distribution(**args)
    with pytest.raises(ValueError, match="impossible"):
        exact.exact_meld_distribution("partnership", "S", hand_size=5).tail(0, length=6)


def test_docstring_examples() -> None:
    assert doctest.testmod(exact, raise_on_error=True).attempted >= 2
