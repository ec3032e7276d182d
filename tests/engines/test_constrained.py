"""Constrained dealing: fixed cards stay where they are put, and the other cards are uniform.

Uniformity is checked against expectations worked out by hand: a free copy lands in a place
(a seat's free slots, the widow) with probability proportional to that place's free slots, and
the number of copies of a face in a seat's free slots is hypergeometric. Chi-square quantiles
come from the Wilson-Hilferty approximation (no scipy).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pinochle_sim import play_hands
from pinochle_sim.core.cards import encode_hand, hand_faces, parse_cards
from pinochle_sim.runs.simulate.hands import deal_constraints, engine_inputs

MY_HAND = "AS AS 10S KS QS JS 9S KH QD JD 9C 9C"
SOME = "AH AH KD QC 10C"


def _copies(code: int) -> np.ndarray:
    """Copies of each face in a packed hand (independent of the engine's bit helpers)."""
    return np.array([((code >> f) & 1) + ((code >> (24 + f)) & 1) for f in range(24)])


def _chi2_upper(df: int, z: float = 3.09) -> float:
    """The chi-square quantile exceeded with probability about 1e-3 (Wilson-Hilferty)."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def _hypergeom(population: int, successes: int, draws: int, k: int) -> float:
    return (
        math.comb(successes, k)
        * math.comb(population - successes, draws - k)
        / math.comb(population, draws)
    )


@pytest.fixture(scope="module")
def partnership() -> dict[str, np.ndarray]:
    return play_hands(seed=11, count=6000, rules="partnership", fixed={2: MY_HAND, 1: SOME})


def test_fixed_cards_are_exactly_as_given(partnership) -> None:
    mine = encode_hand(MY_HAND)
    assert (partnership["dealt_2"] == mine).all()
    some = _copies(encode_hand(SOME))
    for code in partnership["dealt_1"][:2000]:
        c = _copies(int(code))
        assert (c >= some).all() and c.sum() == 12
    totals = sum(
        np.array([_copies(int(partnership[f"dealt_{p}"][i])) for p in range(4)]).sum(axis=0)
        for i in range(0, 6000, 500)
    )
    assert (totals == 2 * 12).all()  # every copy dealt once in each of the 12 sampled deals


def test_free_copies_land_uniformly(partnership) -> None:
    fixed = _copies(encode_hand(MY_HAND)) + _copies(encode_hand(SOME))
    free = 2 - fixed
    slots = np.array([12, 12 - 5, 0, 12])  # free places per seat
    n_free = slots.sum()
    assert n_free == free.sum()
    n = len(partnership["hand"])
    counts = np.zeros((24, 4))
    for p in (0, 1, 3):
        counts[:, p] = np.array([_copies(int(c)) for c in partnership[f"dealt_{p}"]]).sum(axis=0)
    counts[:, 1] -= n * _copies(encode_hand(SOME))
    stat, df = 0.0, 0
    for f in np.flatnonzero(free):
        expect = n * free[f] * slots[[0, 1, 3]] / n_free
        stat += float((((counts[f, [0, 1, 3]] - expect) ** 2) / expect).sum())
        df += 2
    assert stat < _chi2_upper(df), (stat, df)


def test_per_face_counts_are_hypergeometric(partnership) -> None:
    fixed = _copies(encode_hand(MY_HAND)) + _copies(encode_hand(SOME))
    free = 2 - fixed
    n_free = int(free.sum())
    n = len(partnership["hand"])
    held = np.array([_copies(int(c)) for c in partnership["dealt_0"]])  # 12 free slots
    stat, df = 0.0, 0
    for f in np.flatnonzero(free):
        observed = np.bincount(held[:, f], minlength=3)[: free[f] + 1]
        expect = np.array([n * _hypergeom(n_free, int(free[f]), 12, k) for k in range(free[f] + 1)])
        stat += float(((observed - expect) ** 2 / expect).sum())
        df += int(free[f])
    assert stat < _chi2_upper(df), (stat, df)


def test_three_hand_widow_is_among_the_unknown_cards() -> None:
    cols = play_hands(seed=3, count=3000, rules="three-hand", fixed={0: "AS AS AH AH"})
    widow = np.array([_copies(int(w)) for w in cols["widow"]])
    assert (widow.sum(axis=1) == 3).all()
    assert (widow[:, [5, 11]] == 0).all()  # the fixed aces never reach the widow
    # a free copy lands in the widow with probability 3 / (48 - 4): the count of aces of
    # diamonds there is binomial-like with mean 2 * 3 / 44 per deal
    mean = widow[:, 17].mean()
    assert abs(mean - 6 / 44) < 4 * math.sqrt(6 / 44 / 3000)


def test_two_hand_fixed_hand() -> None:
    cols = play_hands(seed=5, count=500, rules="two-hand", fixed={1: MY_HAND})
    assert (cols["dealt_1"] == encode_hand(MY_HAND)).all()
    assert len(set(cols["dealt_0"].tolist())) > 400


def test_same_answer_whatever_the_threads_and_chunks() -> None:
    a = play_hands(seed=9, count=3000, fixed={0: MY_HAND}, threads=1, chunk=3000)
    b = play_hands(seed=9, count=3000, fixed={0: MY_HAND}, threads=2, chunk=97)
    for name in a:
        assert (a[name] == b[name]).all(), name


def test_nothing_fixed_is_the_free_deal() -> None:
    a = play_hands(seed=4, count=500)
    b = play_hands(seed=4, count=500, fixed={})
    for name in a:
        assert (a[name] == b[name]).all(), name


def test_fixed_dealer() -> None:
    cols = play_hands(seed=4, count=200, fixed={0: MY_HAND}, dealer=3)
    assert (cols["dealer"] == 3).all()


@pytest.mark.parametrize(
    ("rules", "fixed", "message"),
    [
        ("partnership", {0: MY_HAND + " AD"}, "13 fixed cards"),
        ("partnership", {0: "AS AS AS"}, "too many copies of AS"),
        ("partnership", {0: "AS AS", 1: "AS"}, "AS fixed for seats 0 and 1"),
        ("three-hand", {3: "AS"}, "seats 0..2"),
        ("partnership", {0: "XX"}, "unknown card"),
    ],
)
def test_bad_constraints_are_refused(rules, fixed, message) -> None:
    with pytest.raises(ValueError, match=message) as err:
        deal_constraints(engine_inputs(rules), fixed)
    assert "\n" not in str(err.value)


def test_hand_faces_round_trip() -> None:
    assert sorted(hand_faces(encode_hand(MY_HAND))) == sorted(parse_cards(MY_HAND))
