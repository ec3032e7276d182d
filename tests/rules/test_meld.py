"""Meld scoring (docs/rules.md section 3) against golden data and the independent oracle.

The jitted kernel ``pinochle_sim.rules.meld._meld`` is compared with ``reference.ref_meld`` (an
exhaustive search written from docs/rules.md alone) on random and deliberately skewed hands, for
every trump and every meld table. The hands are packed here from the documented layout, so the
comparison does not lean on ``encode_hand`` either.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from pinochle_sim import Meld, MeldResult, get_preset, score_meld
from pinochle_sim.core import cards, tricks
from pinochle_sim.rules import TABLE_A, TABLE_B, TABLE_C, TABLE_D
from pinochle_sim.rules.meld import _meld, meld_loss, meld_table_array, melds_by_trump
from tests.oracles.reference import ref_meld, ref_meld_list

DATA = Path(__file__).resolve().parents[1] / "data"
MELD_EXAMPLES = json.loads((DATA / "meld_examples.json").read_text())

SUITS = "SHDC"
RANKS = ("9", "J", "Q", "K", "10", "A")  # rank index 0..5, face = suit*6 + rank
NAMES = [RANKS[f % 6] + SUITS[f // 6] for f in range(24)]
DECK48 = [f for f in range(24) for _ in range(2)]
R9, RJ, RQ, RK, R10, RA = range(6)
FACE_QS, FACE_JD = 0 * 6 + RQ, 2 * 6 + RJ

# docs/rules.md section 2: meld table of each preset.
PRESET_OF_TABLE = {"A": "partnership", "B": "partnership-classic", "C": "joedog", "D": "two-hand"}
TABLES = tuple(PRESET_OF_TABLE)

# Hands compared with the oracle in the default run (x 4 trumps x 4 tables = 160,000 oracle
# calls). The oracle costs about 0.16-0.25 ms a call (measured), so this is ~30-40 s on one
# core; the slow run (-m slow) does 100,000 hands, about 5 minutes.
DEFAULT_HANDS = 10_000
SLOW_HANDS = 100_000


def pack(faces: list[int]) -> int:
    counts = Counter(faces)
    one = sum(1 << f for f, n in counts.items() if n >= 1)
    two = sum(1 << f for f, n in counts.items() if n >= 2)
    return one | (two << 24)


def faces_of(text: str) -> list[int]:
    return [
        NAMES.index("10" + c[1:] if c.upper().startswith("T") else c.upper()) for c in text.split()
    ]


def _id(e: dict) -> str:
    return f"{e['table']}:{e['trump']}:{e['hand']}"


# --------------------------------------------------------------------------- (a) golden data


@pytest.mark.parametrize("example", MELD_EXAMPLES, ids=_id)
def test_golden_examples(example: dict) -> None:
    rules = PRESET_OF_TABLE[example["table"]]
    result = score_meld(example["hand"], example["trump"], rules)
    assert result.total == example["total"], f"{example['why']}: got {result}"
    assert sum(m.points for m in result.melds) == result.total
    assert result.trump == example["trump"]
    # the kernel with the table's array agrees with the wrapper
    code = pack(faces_of(example["hand"]))
    ma = meld_table_array(get_preset(rules))
    assert _meld(code, SUITS.index(example["trump"]), ma) == example["total"]


def test_golden_examples_cover_every_table() -> None:
    assert {e["table"] for e in MELD_EXAMPLES} == set(TABLES)


# --------------------------------------------------------------------------- (c) worked checks


def test_issue_example() -> None:
    hand = "AH 10H KH QH JH KH QH 9H 9H"
    assert score_meld(hand, "H").total == 250
    assert score_meld(hand, "H", "partnership").total == 250
    assert score_meld(hand, "H", "partnership-classic").total == 210
    assert score_meld(hand, "H", "three-hand").total == 210
    assert score_meld(hand, "H", "joedog").total == 21


@pytest.mark.parametrize(
    ("hand", "trump", "total"),
    [
        # docs/rules.md 3 "worked checks", table A, trump hearts unless said otherwise
        ("AH 10H KH QH JH", "H", 150),
        ("AH 10H KH QH JH KH", "H", 190),
        ("AH 10H KH QH JH QH", "H", 190),
        ("AH 10H KH QH JH KH QH", "H", 230),
        ("AH 10H KH QH JH KH QH 9H 9H", "H", 250),
        ("AH AH 10H 10H KH KH QH QH JH JH", "H", 1500),
        ("QS JD", "H", 40),
        ("QS QS JD JD", "H", 300),
        ("QS JD KS", "H", 60),
        ("AS AH AD AC", "H", 100),
        ("AS AH AD AC AS AH AD AC", "H", 1000),
        ("AS AH AD AC AS AH AD", "H", 100),
        ("KH QH KS QS KD QD KC QC", "H", 240),
        ("KH QH KS QS KD QD KC QC JD", "H", 280),
        ("9H", "H", 10),
        ("9H 9H", "S", 0),
        ("", "S", 0),
    ],
)
def test_rules_md_worked_checks(hand: str, trump: str, total: int) -> None:
    assert score_meld(hand, trump).total == total
    assert ref_meld(hand.split(), trump, "A") == total


def test_table_b_no_run_bonus() -> None:
    assert score_meld("AH 10H KH QH JH KH", "H", "partnership-classic").total == 150
    assert score_meld("AH 10H KH QH JH KH QH", "H", "partnership-classic").total == 190
    assert score_meld("KH QH KS QS KD QD KC QC KH QH", "H", "partnership-classic").total == 280


def test_table_d_two_runs_and_eight_aces() -> None:
    # table D has no double run and no eight of a kind: the cards make the ordinary melds
    assert score_meld("AH AH 10H 10H KH KH QH QH JH JH", "H", "two-hand").total == 300
    assert score_meld("AS AH AD AC AS AH AD AC", "H", "two-hand").total == 200
    assert score_meld("QS QS JD JD", "H", "two-hand").total == 300


# --------------------------------------------------------------------------- (d) the wrapper


def test_score_meld_accepts_string_list_and_int() -> None:
    text = "AH 10H KH QH JH KH QH 9H 9H"
    cards = text.split()
    code = pack(faces_of(text))
    for hand in (text, cards, code, np.int64(code), "ah,th kh qh jh kh qh 9♥ 9h"):
        r = score_meld(hand, "H")
        assert isinstance(r, MeldResult)
        assert r.total == 250 and r.trump == "H"
        assert all(isinstance(m, Meld) for m in r.melds)
    assert score_meld(code, 1).total == 250
    assert score_meld(code, "hearts").total == 250
    assert score_meld(code, "♥").total == 250
    assert score_meld(code, "h", get_preset("partnership-classic")).total == 210


@pytest.mark.parametrize("trump", ["X", "", "SH", 4, -1, "10"])
def test_bad_trump(trump: str | int) -> None:
    with pytest.raises(ValueError):
        score_meld("AH 10H KH QH JH", trump)


@pytest.mark.parametrize("hand", ["AH XX", "AH AH AH", -1, 1 << 24, 1 << 50])
def test_bad_hand(hand: str | int) -> None:
    with pytest.raises(ValueError):
        score_meld(hand, "H")


def test_bad_rules_name() -> None:
    with pytest.raises(ValueError, match="no-such-rules"):
        score_meld("AH", "H", "no-such-rules")


def test_meld_result_details() -> None:
    r = score_meld("AH 10H KH QH JH KH QH 9H 9H QS JD", "H")
    assert r.total == 290
    d = r.to_dict()
    assert set(d) == {"trump", "total", "melds"}
    assert d["total"] == 290
    for m in d["melds"]:
        assert set(m) == {"name", "points", "cards"}
    names = [m.name for m in r.melds]
    assert names.count("dix") == 2
    assert "pinochle" in names


def test_meld_table_array_read_only_and_shared() -> None:
    a = meld_table_array(get_preset("partnership-classic"))
    b = meld_table_array(get_preset("three-hand"))
    assert not a.flags.writeable
    assert a.dtype == np.int64
    assert np.array_equal(a, b)  # both presets use table B
    assert not np.array_equal(a, meld_table_array(get_preset("partnership")))


# --------------------------------------------------------------------------- itemisation


CLASS_OF = {"dix": 1, "trump marriage": 1, "pinochle": 2, "double pinochle": 2}


def _meld_class(name: str) -> int:
    if name in CLASS_OF:
        return CLASS_OF[name]
    if name.startswith(("run", "double run", "marriage")):
        return 1
    if name.endswith(" around") or name.startswith("eight "):
        return 3
    raise AssertionError(f"unknown meld name {name!r}")


def test_itemised_melds_are_legal() -> None:
    """Each meld's cards are in the hand, and no card copy serves two melds of one class."""
    rng = random.Random(7)
    hands = [rng.sample(DECK48, 12) for _ in range(300)] + _skewed_hands(rng, 700)
    for faces in hands:
        have = Counter(NAMES[f] for f in faces)
        for trump in SUITS:
            for rules in ("partnership", "partnership-classic", "joedog", "two-hand"):
                r = score_meld([NAMES[f] for f in faces], trump, rules)
                used: dict[int, Counter] = {1: Counter(), 2: Counter(), 3: Counter()}
                for m in r.melds:
                    assert m.points > 0
                    used[_meld_class(m.name)].update(m.cards)
                for cls, c in used.items():
                    assert not (c - have), (cls, r, sorted(have.elements()))
                assert sum(m.points for m in r.melds) == r.total


# --------------------------------------------------------------------------- (b) the oracle


def _weighted_sample(rng: random.Random, weights: list[float], k: int) -> list[int]:
    """k of the 48 physical cards without replacement, card i with weight weights[i % 24]."""
    keys = [(rng.random() ** (1.0 / weights[i % 24]), i) for i in range(48)]
    keys.sort(reverse=True)
    return [i % 24 for _, i in keys[:k]]


def _skewed_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Hands biased toward the rare melds: runs, double runs, eights, double pinochle."""
    hands = []
    for _ in range(n):
        kind = rng.randrange(6)
        w = [1.0] * 24
        if kind == 0:  # one long suit: runs, double runs, run bonuses, dix
            s = rng.randrange(4)
            for r in range(6):
                w[s * 6 + r] = rng.choice((6.0, 12.0, 25.0))
        elif kind == 1:  # many cards of one or two around-ranks: eight of a kind
            for r in rng.sample((RA, RK, RQ, RJ), rng.choice((1, 2))):
                for s in range(4):
                    w[s * 6 + r] = rng.choice((10.0, 25.0))
        elif kind == 2:  # pinochles plus a long suit
            w[FACE_QS] = w[FACE_JD] = 30.0
            s = rng.randrange(4)
            for r in (RA, R10, RK, RQ, RJ):
                w[s * 6 + r] = 5.0
        elif kind == 3:  # honours: A K Q J everywhere, QS/JD favoured
            for f in range(24):
                if f % 6 in (RA, RK, RQ, RJ):
                    w[f] = 4.0
            w[FACE_QS] = w[FACE_JD] = 8.0
        elif kind == 4:  # kings and queens: marriages around, run bonuses
            for f in range(24):
                if f % 6 in (RK, RQ):
                    w[f] = 6.0
            s = rng.randrange(4)
            for r in (RA, R10, RJ):
                w[s * 6 + r] = 6.0
        else:  # heavy-tailed random weights per face
            w = [rng.expovariate(1.0) ** 3 + 0.01 for _ in range(24)]
        k = rng.choice((12, 12, 12, 12, 15, 16)) if rng.random() < 0.9 else rng.randint(0, 20)
        hands.append(_weighted_sample(rng, w, k))
    return hands


@lru_cache(maxsize=4)
def sample_hands(n: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """n hands as face lists: ~50% uniform 12-card deals, ~8% 15/16-card, ~42% skewed."""
    rng = random.Random(seed)
    n_deal12 = n // 2
    n_big = n // 12
    hands = [rng.sample(DECK48, 12) for _ in range(n_deal12)]
    hands += [rng.sample(DECK48, rng.choice((15, 16))) for _ in range(n_big)]
    hands += _skewed_hands(rng, n - n_deal12 - n_big)
    return tuple(tuple(sorted(h)) for h in hands)


# Meld kinds that must actually occur in the sample (oracle names), per table.
RARE_KINDS = {
    "A": (
        "run",
        "double run",
        "run+extra K",
        "run+extra Q",
        "run+trump marriage",
        "eight aces",
        "eight kings",
        "eight queens",
        "eight jacks",
        "double pinochle",
    ),
    "B": (
        "run",
        "double run",
        "eight aces",
        "eight kings",
        "eight queens",
        "eight jacks",
        "double pinochle",
    ),
    "C": (
        "run",
        "double run",
        "eight aces",
        "eight kings",
        "eight queens",
        "eight jacks",
        "double pinochle",
    ),
    "D": ("run", "double pinochle", "aces around", "jacks around"),
}


_ORACLE_MEMO: dict[tuple[int, int, str], list[tuple[str, int]]] = {}


def _oracle(code: int, faces: tuple[int, ...], trump: int, table: str) -> list[tuple[str, int]]:
    key = (code, trump, table)  # code is canonical for the multiset of cards
    melds = _ORACLE_MEMO.get(key)
    if melds is None:
        melds = ref_meld_list([NAMES[f] for f in faces], SUITS[trump], table)
        if len(_ORACLE_MEMO) < 200_000:
            _ORACLE_MEMO[key] = melds
    return melds


def _compare_with_oracle(table: str, hands: tuple[tuple[int, ...], ...]) -> None:
    ma = meld_table_array(get_preset(PRESET_OF_TABLE[table]))
    kinds: Counter = Counter()
    double_runs_d = 0
    mismatches = []
    for faces in hands:
        code = pack(list(faces))
        for trump in range(4):
            melds = _oracle(code, faces, trump, table)
            want = sum(p for _, p in melds)
            got = int(_meld(code, trump, ma))
            if got != want:
                mismatches.append((" ".join(NAMES[f] for f in faces), SUITS[trump], want, got))
            names = Counter(name.split(" (")[0] for name, _ in melds)
            kinds.update(names.keys())
            double_runs_d += names["run"] >= 2
    assert not mismatches, (
        f"{len(mismatches)} mismatches with the oracle under table {table} "
        f"(hand, trump, oracle, kernel), first ones: {mismatches[:10]}"
    )
    n = len(hands)
    for kind in RARE_KINDS[table]:
        assert kinds[kind] >= max(5, n // 2000), f"table {table}: {kind!r} only {kinds[kind]}x"
    if table == "D":
        assert double_runs_d >= max(5, n // 2000), "two runs (table D) barely sampled"


@pytest.mark.parametrize("table", TABLES)
def test_kernel_matches_oracle(table: str) -> None:
    _compare_with_oracle(table, sample_hands(DEFAULT_HANDS, 1))


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES)
def test_kernel_matches_oracle_100k(table: str) -> None:
    _compare_with_oracle(table, sample_hands(SLOW_HANDS, 2))


def test_sample_shape() -> None:
    hands = sample_hands(DEFAULT_HANDS, 1)
    sizes = Counter(len(h) for h in hands)
    assert len(hands) == DEFAULT_HANDS
    assert sizes[12] >= DEFAULT_HANDS // 2 and sizes[15] > 0 and sizes[16] > 0
    for h in hands:
        assert max(Counter(h).values(), default=0) <= 2


# --------------------------------------------------------------------------- custom tables


@pytest.mark.parametrize(
    ("changes", "hand", "trump", "best"),
    [
        # docs/rules.md 3: the best legal combination counts. Two single pinochles (each card
        # copy used once in class 2) are a legal combination, so when a custom table makes the
        # double meld worth less than two singles, the singles must count.
        ({"double_pinochle": 50}, "QS QS JD JD", "H", 80),
        ({"eight": (150, 800, 600, 400)}, "AS AH AD AC AS AH AD AC", "H", 200),
        ({"double_run": 200}, "AH AH 10H 10H KH KH QH QH JH JH", "H", 300),
    ],
)
def test_custom_table_double_meld_worth_less_than_two_singles(
    changes: dict, hand: str, trump: str, best: int
) -> None:
    rules = get_preset("partnership").replace(meld=dataclasses.replace(TABLE_A, **changes))
    assert score_meld(hand, trump, rules).total == best


def test_custom_table_values_used() -> None:
    table = dataclasses.replace(TABLE_B, dix=20, marriage=25, around=(110, 80, 60, 40))
    rules = get_preset("partnership").replace(meld=table)
    assert score_meld("9H 9H KS QS", "H", rules).total == 40 + 25
    assert score_meld("AS AH AD AC", "C", rules).total == 110


def test_preset_tables_match_rules_md() -> None:
    """docs/rules.md 3 values of tables A-D, written out from the text."""
    a = TABLE_A
    assert (a.run, a.run_extra_king, a.run_extra_queen, a.run_trump_marriage) == (
        150,
        190,
        190,
        230,
    )
    assert (a.double_run, a.dix, a.trump_marriage, a.marriage) == (1500, 10, 40, 20)
    assert (a.pinochle, a.double_pinochle) == (40, 300)
    assert a.around == (100, 80, 60, 40) and a.eight == (1000, 800, 600, 400)
    b = TABLE_B
    assert (b.run_extra_king, b.run_extra_queen, b.run_trump_marriage) == (0, 0, 0)
    assert (
        dataclasses.replace(
            b, name="A", run_extra_king=190, run_extra_queen=190, run_trump_marriage=230
        )
        == a
    )
    c = TABLE_C
    assert (c.run, c.double_run, c.dix, c.trump_marriage, c.marriage) == (15, 150, 1, 4, 2)
    assert (c.pinochle, c.double_pinochle) == (4, 30)
    assert c.around == (10, 8, 6, 4) and c.eight == (100, 80, 60, 40)
    d = TABLE_D
    assert (d.run, d.trump_marriage, d.marriage, d.dix, d.pinochle, d.double_pinochle) == (
        150,
        40,
        20,
        10,
        40,
        300,
    )
    assert d.around == (100, 80, 60, 40)
    assert d.double_run == 0 and d.eight == (0, 0, 0, 0)


@pytest.mark.parametrize("preset", ["partnership", "partnership-classic", "joedog", "two-hand"])
def test_meld_loss_is_the_difference_of_whole_melds(preset: str) -> None:
    """Giving up one card changes only the parts it enters: the differential ``meld_loss`` the
    pass uses equals the whole meld before minus the whole meld after, for every card held."""
    ma = meld_table_array(get_preset(preset))
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(24), 2)
    for n in (12, 15, 20):
        for _ in range(300):
            hand = cards.encode_faces(rng.permutation(deck)[:n])
            for trump in range(4):
                whole = _meld(hand, trump, ma)
                for f in set(cards.hand_faces(hand)):
                    after = _meld(tricks.remove_card(hand, f), trump, ma)
                    assert meld_loss(hand, f, trump, ma) == whole - after, (hand, f, trump)


@pytest.mark.parametrize("preset", ["partnership", "partnership-classic", "joedog", "two-hand"])
def test_melds_by_trump_is_the_meld_in_each_trump(preset: str) -> None:
    """The engines value a dealt hand in all four trumps at once, sharing the parts that do not
    depend on trump; each value is the hand's meld in that trump."""
    ma = meld_table_array(get_preset(preset))
    rng = np.random.default_rng(11)
    deck = np.repeat(np.arange(24), 2)
    for n in (0, 1, 12, 16, 20, 48):
        for _ in range(200 if 0 < n < 48 else 1):
            hand = cards.encode_faces(rng.permutation(deck)[:n])
            assert melds_by_trump(hand, ma) == tuple(_meld(hand, t, ma) for t in range(4)), hand
