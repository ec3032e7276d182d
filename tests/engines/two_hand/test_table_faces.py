"""The per-seat table masks (``CS_FACES``: faces on the table, twice, having served each class)
that let two-hand judge most melds from the packed hand alone, checked against the
per-card state they summarise.

Random table states are built by laying, playing, showing and exchanging cards through the
kernels' own functions; after every step the masks must equal what the per-card state says, and
the shortfall and meld outlook (fast path or not) must equal a slow reference written here from
the rules text (docs/rules.md 7: a table card serves a new meld only of another class or of a
higher value in its class; every new meld needs a concealed card).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pinochle_sim.core import cards as C
from pinochle_sim.engines.two_hand.decisions import meld_outlook
from pinochle_sim.engines.two_hand.table import (
    CLASS_SEQUENCE,
    CS_FACES,
    CS_LEVEL,
    CS_OWN,
    CS_SIZE,
    CS_TAB,
    CS_TOP,
    IN_STOCK,
    TM_ONE,
    TM_SERVED,
    TM_STRIDE,
    TM_TWO,
    candidate_array,
    candidates,
    exchange_dix,
    lay,
    play_copy,
    shortfall,
    show_dix,
)
from pinochle_sim.rules import get_preset

TWO = get_preset("two-hand")
CA = candidate_array(TWO)


def _hand(cs: np.ndarray, seat: int) -> int:
    return C.encode_faces([i >> 1 for i in range(48) if cs[CS_OWN + i] == seat])


def _table_masks(cs: np.ndarray, seat: int) -> list[int]:
    """The seat's table masks from the per-card state: faces with a copy on the table, with
    both, then with a table copy that has served a class-1, 2, 3 meld."""
    masks = [0] * TM_STRIDE
    for i in range(48):
        if cs[CS_OWN + i] == seat and cs[CS_TAB + i] != 0:
            bit = 1 << (i >> 1)
            masks[TM_TWO] |= bit if masks[TM_ONE] & bit else 0
            masks[TM_ONE] |= bit
            for k in (1, 2, 3):
                if cs[CS_LEVEL + 4 * i + k] > 0:
                    masks[TM_SERVED + k] |= bit
    return masks


def _ref_shortfall(cs: np.ndarray, seat: int, need: int, cls: int, value: int) -> int:
    """Copies missing to lay the meld now, counted card by card (1 when complete but with no
    concealed card)."""
    missing = hidden = 0
    for f in range(24):
        if not (need >> f) & 1:
            continue
        want = 1 + ((need >> (24 + f)) & 1)
        mine = [i for i in (2 * f, 2 * f + 1) if cs[CS_OWN + i] == seat]
        concealed = [i for i in mine if cs[CS_TAB + i] == 0]
        reusable = [i for i in mine if cs[CS_TAB + i] != 0 and cs[CS_LEVEL + 4 * i + cls] < value]
        missing += max(0, want - len(concealed) - len(reusable))
        hidden += len(concealed)
    return 1 if missing == 0 and hidden == 0 else missing


def _ref_outlook(cs: np.ndarray, seat: int, trump: int) -> tuple[int, int, int, int]:
    best_i, best_v, now, near = -1, 0, 0, 0
    for i, (cls, value, need, _name) in enumerate(candidates(TWO.meld, trump)):
        short = _ref_shortfall(cs, seat, need, cls, value)
        if short > 1:
            continue
        if short == 0 and best_i < 0:
            best_i, best_v = i, value
        for f in range(24):
            if not (need >> f) & 1:
                continue
            want = 1 + ((need >> (24 + f)) & 1)
            mine = [i for i in (2 * f, 2 * f + 1) if cs[CS_OWN + i] == seat]
            n = sum(1 for i in mine if cs[CS_TAB + i] == 0 or cs[CS_LEVEL + 4 * i + cls] < value)
            if n >= 1 and n - 1 < want:  # losing a copy of f leaves the meld short
                if short == 0:
                    now |= 1 << f
                else:
                    near |= 1 << f
    return best_i, best_v, now, near


def _check(cs: np.ndarray, trump: int) -> None:
    for seat in range(2):
        at = CS_FACES + TM_STRIDE * seat
        assert list(cs[at : at + TM_STRIDE]) == _table_masks(cs, seat)
        for k in (1, 2, 3):  # the bound on what the seat's table cards served, per class
            levels = [cs[CS_LEVEL + 4 * i + k] for i in range(48)
                      if cs[CS_OWN + i] == seat and cs[CS_TAB + i] != 0]  # fmt: skip
            assert cs[CS_TOP + 4 * seat + k] >= max(levels, default=0)
        hand = _hand(cs, seat)
        for cls, value, need, _name in candidates(TWO.meld, trump):
            want = _ref_shortfall(cs, seat, need, cls, value)
            got = shortfall(cs, seat, hand, need, cls, value)
            assert got == want if want <= 1 else got > 1
        assert meld_outlook(cs, CA, seat, hand, trump) == _ref_outlook(cs, seat, trump)


def _random_state(rng: random.Random) -> np.ndarray:
    """30 of the 48 cards split at random between the seats, the rest in the stock."""
    cs = np.zeros(CS_SIZE, dtype=np.int64)
    cs[CS_OWN : CS_OWN + 48] = IN_STOCK
    for i in rng.sample(range(48), 30):
        cs[CS_OWN + i] = rng.randrange(2)
    return cs


@pytest.mark.parametrize("seed", range(6))
def test_table_faces_follow_every_move_and_the_fast_paths_agree(seed):
    rng = random.Random(seed)
    trump = seed % 4
    cs = _random_state(rng)
    _check(cs, trump)
    for _ in range(40):
        seat = rng.randrange(2)
        move = rng.random()
        rows = candidates(TWO.meld, trump)
        layable = [r for r in rows if _ref_shortfall(cs, seat, r[2], r[0], r[1]) == 0]
        held = [i for i in range(48) if cs[CS_OWN + i] == seat]
        nines = [
            i
            for i in (12 * trump, 12 * trump + 1)
            if cs[CS_OWN + i] == seat and cs[CS_LEVEL + 4 * i + CLASS_SEQUENCE] == 0
        ]
        stock = [i for i in range(48) if cs[CS_OWN + i] == IN_STOCK]
        if move < 0.5 and layable:
            cls, value, need, _name = rng.choice(layable)
            lay(cs, seat, need, cls, value)
        elif move < 0.75 and held:
            play_copy(cs, seat, rng.choice(held) >> 1)
        elif nines:
            d = nines[0]
            show_dix(cs, seat, d, 10)
            if stock and rng.random() < 0.5:
                exchange_dix(cs, seat, d, rng.choice(stock))
        _check(cs, trump)


def test_a_meld_whose_cards_all_lie_on_the_table_for_another_class_is_one_short():
    """Kings and queens around laid (class 3): the spade marriage (class 1) has every card
    usable, but none concealed, so it is one card short; both fast paths must say so."""
    cs = np.zeros(CS_SIZE, dtype=np.int64)
    cs[CS_OWN : CS_OWN + 48] = IN_STOCK
    for card in ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC"]:
        cs[CS_OWN + 2 * C.parse_card(card)] = 0
    trump = C.H
    rows = {name: (cls, value, need) for cls, value, need, name in candidates(TWO.meld, trump)}
    for around in (10, 11):  # kings around, queens around (name ids)
        cls, value, need = rows[around]
        lay(cs, 0, need, cls, value)
    marriage = next(r for r in candidates(TWO.meld, trump) if r[3] == 6 and r[2] & (1 << 3))
    cls, value, need, _name = marriage
    assert _ref_shortfall(cs, 0, need, cls, value) == 1
    assert shortfall(cs, 0, _hand(cs, 0), need, cls, value) == 1
    _check(cs, trump)
