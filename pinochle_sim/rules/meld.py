"""Meld scoring (docs/rules.md section 3): tables as data, a jitted kernel, and a friendly wrapper.

Classes are independent (a card may serve one meld of each class), so a hand's best meld is the
sum of the best class-1 value of each suit, the best class-2 value and the best class-3 value:

* class 1 of a suit depends only on that suit's card counts, so it is looked up in a table of
  4096 entries indexed by the suit's 12 bits ``ONE6 | TWO6 << 6`` (built once per meld table by
  :func:`meld_table_array`, maximising over how many runs are used: "best combination");
* class 2 depends on the counts of QS and JD; class 3 on a 4-bit mask test per rank.

The kernel gets everything as one int64 array (``MeldArray``) laid out as:

    [0, 4096)        class 1 of the trump suit (runs, trump marriages, dix) by suit index
    [4096, 8192)     class 1 of a non-trump suit (marriages) by suit index
    [8192, 8195)     class 2 by pinochle count 0, 1, 2
    [8195, 8207)     class 3: for ranks A, K, Q, J (in that order) the value of 0, 1, 2 arounds
    [8207, 12303)    cards the best class-1 meld of the trump suit shows, by suit index (the
                     shown cards as a suit index themselves: ``ONE6 | TWO6 << 6``)
    [12303, 16399)   the same for a non-trump suit (its marriages)
    [16399, 16911)   ranks (bit r) of the trump suit whose loss of one copy lowers its class-1
                     value, by suit index, packed 8 bits per suit index (8 per entry)
    [16911, 17423)   the same for a non-trump suit

The shown blocks serve :func:`meld_shown` (what a seat's meld shows the table), the loss blocks
the ``standard`` pass and discard (:mod:`pinochle_sim.policies.pass_`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeAlias

import numpy as np

from pinochle_sim.core import cards
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import RANK_ROW, rank_of, remove_card, suit_of
from pinochle_sim.rules import MeldTable, Ruleset, resolve_rules

MeldArray: TypeAlias = np.ndarray
"""int64 array of length :data:`MELD_ARRAY_SIZE` (layout in the module docstring)."""

SUIT_INDEXES = 1 << 12
MA_TRUMP = 0
MA_PLAIN = SUIT_INDEXES
MA_PIN = 2 * SUIT_INDEXES
MA_AROUND = MA_PIN + 3
MA_SHOWN_TRUMP = MA_AROUND + 12
MA_SHOWN_PLAIN = MA_SHOWN_TRUMP + SUIT_INDEXES
MA_LOSS_TRUMP = MA_SHOWN_PLAIN + SUIT_INDEXES
MA_LOSS_PLAIN = MA_LOSS_TRUMP + SUIT_INDEXES // 8
MELD_ARRAY_SIZE = MA_LOSS_PLAIN + SUIT_INDEXES // 8
AROUND_RANKS = (cards.RA, cards.RK, cards.RQ, cards.RJ)
FACE_QS = cards.face(cards.S, cards.RQ)
FACE_JD = cards.face(cards.D, cards.RJ)


def _suit_counts(index: int) -> list[int]:
    """Counts by rank (9..A) of a suit's 12-bit index ``ONE6 | TWO6 << 6``."""
    return [((index >> r) & 1) + ((index >> (r + 6)) & 1) for r in range(cards.NUM_RANKS)]


def _run_options(t: MeldTable, k: int, q: int, runs: int) -> list[tuple[int, str, int, int]]:
    """Ways to use ``runs`` runs: (points, name, extra kings used, extra queens used)."""
    if runs == 0:
        return [(0, "", 0, 0)]
    if runs == 2:  # both runs as one meld, or as two separate runs: whichever is worth more
        opts = [(2 * t.run, "run+run", 0, 0)]
        if t.double_run:
            opts.append((t.double_run, "double run", 0, 0))
        return opts
    opts = [(t.run, "run", 0, 0)]
    if t.run_extra_king and k >= 2:
        opts.append((t.run_extra_king, "run with extra king", 1, 0))
    if t.run_extra_queen and q >= 2:
        opts.append((t.run_extra_queen, "run with extra queen", 0, 1))
    if t.run_trump_marriage and k >= 2 and q >= 2:
        opts.append((t.run_trump_marriage, "run with trump marriage", 1, 1))
    return opts


def best_trump_class1(t: MeldTable, counts: list[int]) -> tuple[int, list[str]]:
    """Best class-1 meld of the trump suit from counts by rank: (points, meld names).

    Tries every number of runs (0 .. min count of A, 10, K, Q, J) and every run bonus row, then
    pairs the kings and queens left over into trump marriages; each 9 is a dix.
    """
    n9, _, q, k, _, _ = counts
    best = (-1, [])
    max_runs = min(
        counts[cards.RA], counts[cards.R10], counts[cards.RK], counts[cards.RQ], counts[cards.RJ]
    )
    for runs in range(max_runs + 1):
        for pts, name, xk, xq in _run_options(t, k, q, runs):
            marriages = min(k - runs - xk, q - runs - xq)
            total = pts + marriages * t.trump_marriage
            names = ([name] if name else []) + ["trump marriage"] * marriages
            if total > best[0]:
                best = (total, names)
    total, names = best
    return total + n9 * t.dix, names + ["dix"] * n9


@lru_cache(maxsize=32)
def _meld_lut_cached(t: MeldTable) -> MeldArray:
    a = np.zeros(MELD_ARRAY_SIZE, dtype=np.int64)
    for index in range(SUIT_INDEXES):
        counts = _suit_counts(index)
        a[MA_TRUMP + index] = best_trump_class1(t, counts)[0]
        a[MA_PLAIN + index] = min(counts[cards.RK], counts[cards.RQ]) * t.marriage
        a[MA_SHOWN_TRUMP + index] = _shown_index(_trump_shown_counts(t, counts))
        married = min(counts[cards.RK], counts[cards.RQ]) if t.marriage else 0
        plain = [0] * cards.NUM_RANKS
        plain[cards.RK] = plain[cards.RQ] = married
        a[MA_SHOWN_PLAIN + index] = _shown_index(plain)
    for table, losses in ((MA_TRUMP, MA_LOSS_TRUMP), (MA_PLAIN, MA_LOSS_PLAIN)):
        for index in range(SUIT_INDEXES):
            ranks = _losing_ranks(a[table : table + SUIT_INDEXES], index)
            a[losses + index // 8] |= ranks << (8 * (index % 8))
    # A double meld is one meld; two singles are also legal (distinct cards): take the best.
    a[MA_PIN : MA_PIN + 3] = (0, t.pinochle, max(t.double_pinochle, 2 * t.pinochle))
    for i in range(4):
        a[MA_AROUND + 3 * i : MA_AROUND + 3 * i + 3] = (
            0,
            t.around[i],
            max(t.eight[i], 2 * t.around[i]),
        )
    return a


def _losing_ranks(values: np.ndarray, index: int) -> int:
    """Ranks (bit r) of a suit held as ``index`` whose loss of one copy lowers ``values[index]``
    (a class-1 table): one copy fewer clears the rank's TWO bit if set, else its ONE bit."""
    mask = 0
    for r in range(cards.NUM_RANKS):
        if (index >> r) & 1 or (index >> (r + 6)) & 1:
            after = index - (1 << (r + 6) if (index >> (r + 6)) & 1 else 1 << r)
            if values[after] < values[index]:
                mask |= 1 << r
    return mask


def _trump_shown_counts(t: MeldTable, counts: list[int]) -> list[int]:
    """Copies of each rank (9..A) that the best class-1 meld of the trump suit uses: within a
    class each copy serves one meld, so the melds' cards add up."""
    _, names = best_trump_class1(t, counts)
    points = {
        "run": t.run, "run+run": 2 * t.run, "double run": t.double_run,
        "run with extra king": t.run_extra_king, "run with extra queen": t.run_extra_queen,
        "run with trump marriage": t.run_trump_marriage, "trump marriage": t.trump_marriage,
        "dix": t.dix,
    }  # fmt: skip
    used = [0] * cards.NUM_RANKS
    for name in names:
        if points[name] > 0:  # a meld worth nothing under this table is not counted, not shown
            for r in _RUN_CARDS[name]:
                used[r] += 1
    return used


def _shown_index(used: list[int]) -> int:
    """Counts by rank (each 0..2) as a 12-bit suit index ``ONE6 | TWO6 << 6``."""
    return sum((1 << r) * (n >= 1) + (1 << (r + 6)) * (n >= 2) for r, n in enumerate(used))


@jit
def _suit_index(hand: int, s: int) -> int:
    """The 12-bit index ``ONE6 | TWO6 << 6`` of suit ``s`` of a packed hand (class-1 tables)."""
    return ((hand >> (6 * s)) & 63) | (((hand >> (24 + 6 * s)) & 63) << 6)


@jit
def _pinochles(hand: int) -> int:
    """Pinochles a packed hand can form: the fewer of its QS and JD copies (0..2)."""
    nqs = ((hand >> FACE_QS) & 1) + ((hand >> (24 + FACE_QS)) & 1)
    njd = ((hand >> FACE_JD) & 1) + ((hand >> (24 + FACE_JD)) & 1)
    return min(nqs, njd)


@jit
def _arounds(hand: int, rank: int) -> int:
    """How many times a packed hand holds rank ``rank`` in all four suits (0..2)."""
    mask = RANK_ROW << rank  # the rank's bit in each suit's 6-bit field
    one = hand & 0xFFFFFF
    two = hand >> 24
    return 2 if (two & mask) == mask else (1 if (one & mask) == mask else 0)


@jit
def _meld(hand: int, trump: int, ma: np.ndarray) -> int:
    """Best meld of a packed hand for a trump suit (0..3) under the meld array ``ma``."""
    total = 0
    for s in range(4):
        index = _suit_index(hand, s)
        total += ma[MA_TRUMP + index] if s == trump else ma[MA_PLAIN + index]
    total += ma[MA_PIN + _pinochles(hand)]
    for i in range(4):
        total += ma[MA_AROUND + 3 * i + _arounds(hand, AROUND_RANKS[i])]
    return total


@jit(inline="always")
def losing_ranks(hand: int, s: int, trump: int, ma: np.ndarray) -> int:
    """Ranks (bit r) of suit ``s`` of a packed hand whose loss of one copy lowers the suit's
    class-1 meld with trump ``trump`` (from the ``MA_LOSS_*`` blocks)."""
    index = _suit_index(hand, s)
    table = MA_LOSS_TRUMP if s == trump else MA_LOSS_PLAIN
    return (ma[table + (index >> 3)] >> (8 * (index & 7))) & 63


@jit
def melds_by_trump(hand: int, ma: np.ndarray) -> tuple[int, int, int, int]:
    """:func:`_meld` of a packed hand for each trump suit 0..3, sharing the parts that do not
    depend on trump (each suit's non-trump class 1, the pinochles, the arounds)."""
    base = ma[MA_PIN + _pinochles(hand)]
    for i in range(4):
        base += ma[MA_AROUND + 3 * i + _arounds(hand, AROUND_RANKS[i])]
    i0, i1, i2, i3 = (_suit_index(hand, 0), _suit_index(hand, 1), _suit_index(hand, 2),
                      _suit_index(hand, 3))  # fmt: skip
    p0, p1, p2, p3 = ma[MA_PLAIN + i0], ma[MA_PLAIN + i1], ma[MA_PLAIN + i2], ma[MA_PLAIN + i3]
    plain = base + p0 + p1 + p2 + p3
    return (
        plain - p0 + ma[MA_TRUMP + i0], plain - p1 + ma[MA_TRUMP + i1],
        plain - p2 + ma[MA_TRUMP + i2], plain - p3 + ma[MA_TRUMP + i3],
    )  # fmt: skip


@jit
def meld_shown(hand: int, trump: int, ma: np.ndarray) -> int:
    """The cards a packed hand shows the table when it lays its best meld for ``trump``, packed
    like a hand: every card of every counted meld (docs/rules.md section 6). A card may serve
    melds of several classes but is one card: a face shows as many copies as the class that
    uses most of it (QH in the heart marriage and in queens around shows once; both KH of eight
    kings show twice)."""
    shown = 0
    for s in range(4):
        table = MA_SHOWN_TRUMP if s == trump else MA_SHOWN_PLAIN
        idx = ma[table + _suit_index(hand, s)]
        shown |= ((idx & 63) << (6 * s)) | (((idx >> 6) & 63) << (24 + 6 * s))
    pins = _pinochles(hand)
    if ma[MA_PIN + pins] > 0:
        both = (1 << FACE_QS) | (1 << FACE_JD)
        shown |= both | ((both << 24) if pins == 2 else 0)
    for i in range(4):
        n = _arounds(hand, AROUND_RANKS[i])
        if ma[MA_AROUND + 3 * i + n] > 0:
            row = RANK_ROW << AROUND_RANKS[i]
            shown |= row | ((row << 24) if n == 2 else 0)
    return shown


@jit(inline="always")
def meld_loss(hand: int, f: int, trump: int, ma: np.ndarray) -> int:
    """``_meld(hand) - _meld(hand less one copy of face f)``: the meld a hand loses by giving
    up ``f``, from the only parts ``f`` enters (its suit's class 1, the pinochle, its rank's
    around); classes are independent, so the other parts cancel."""
    after = remove_card(hand, f)
    s = suit_of(f)
    table = MA_TRUMP if s == trump else MA_PLAIN
    loss = ma[table + _suit_index(hand, s)] - ma[table + _suit_index(after, s)]
    if f in (FACE_QS, FACE_JD):
        loss += ma[MA_PIN + _pinochles(hand)] - ma[MA_PIN + _pinochles(after)]
    r = rank_of(f)
    for i in range(4):
        if AROUND_RANKS[i] == r:
            at = MA_AROUND + 3 * i
            loss += ma[at + _arounds(hand, r)] - ma[at + _arounds(after, r)]
    return loss


@dataclass(frozen=True)
class Meld:
    """One named meld: its name, points and the cards it uses."""

    name: str
    points: int
    cards: list[str]


@dataclass(frozen=True)
class MeldResult:
    """Best meld of a hand for one trump: ``total`` points and the melds that make it."""

    trump: str
    total: int
    melds: list[Meld] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "trump": self.trump,
            "total": self.total,
            "melds": [{"name": m.name, "points": m.points, "cards": m.cards} for m in self.melds],
        }


_RUN_CARDS = {
    "run": (cards.RA, cards.R10, cards.RK, cards.RQ, cards.RJ),
    "run with extra king": (cards.RA, cards.R10, cards.RK, cards.RK, cards.RQ, cards.RJ),
    "run with extra queen": (cards.RA, cards.R10, cards.RK, cards.RQ, cards.RQ, cards.RJ),
    "run with trump marriage": (
        cards.RA,
        cards.R10,
        cards.RK,
        cards.RK,
        cards.RQ,
        cards.RQ,
        cards.RJ,
    ),
    "double run": (
        cards.RA,
        cards.RA,
        cards.R10,
        cards.R10,
        cards.RK,
        cards.RK,
        cards.RQ,
        cards.RQ,
        cards.RJ,
        cards.RJ,
    ),
    "run+run": (
        cards.RA,
        cards.RA,
        cards.R10,
        cards.R10,
        cards.RK,
        cards.RK,
        cards.RQ,
        cards.RQ,
        cards.RJ,
        cards.RJ,
    ),
    "trump marriage": (cards.RK, cards.RQ),
    "dix": (cards.R9,),
}


def _names(s: int, ranks: tuple[int, ...]) -> list[str]:
    return [cards.card_name(cards.face(s, r)) for r in ranks]


def _itemise(hand: int, trump: int, t: MeldTable) -> list[Meld]:
    """The melds behind the best total, named, with their cards (for people, not speed)."""
    faces = cards.hand_faces(hand)
    counts = [faces.count(f) for f in range(cards.NUM_FACES)]
    melds: list[Meld] = []
    for s in sorted(range(cards.NUM_SUITS), key=lambda s: s != trump):  # trump first
        suit_counts = counts[6 * s : 6 * s + 6]
        if s == trump:
            _, names = best_trump_class1(t, suit_counts)
            for name in names:
                if name == "run+run":
                    melds += [Meld("run", t.run, _names(s, _RUN_CARDS["run"]))] * 2
                    continue
                pts = {
                    "trump marriage": t.trump_marriage,
                    "dix": t.dix,
                    "run": t.run,
                    "double run": t.double_run,
                    "run with extra king": t.run_extra_king,
                    "run with extra queen": t.run_extra_queen,
                    "run with trump marriage": t.run_trump_marriage,
                }[name]
                melds.append(Meld(name, pts, _names(s, _RUN_CARDS[name])))
        else:
            for _ in range(min(suit_counts[cards.RK], suit_counts[cards.RQ])):
                melds.append(
                    Meld(
                        f"marriage in {cards.SUIT_NAMES[s]}",
                        t.marriage,
                        _names(s, (cards.RK, cards.RQ)),
                    )
                )
    pins = min(counts[FACE_QS], counts[FACE_JD])
    pin_cards = [cards.card_name(FACE_QS), cards.card_name(FACE_JD)]
    if pins == 2 and t.double_pinochle >= 2 * t.pinochle:
        melds.append(Meld("double pinochle", t.double_pinochle, sorted(pin_cards * 2)[::-1]))
    else:
        melds += [Meld("pinochle", t.pinochle, pin_cards)] * pins
    for i, r in enumerate(AROUND_RANKS):
        n = min(counts[cards.face(s, r)] for s in range(cards.NUM_SUITS))
        row = [cards.card_name(cards.face(s, r)) for s in range(cards.NUM_SUITS)]
        rank_name = cards.RANK_NAMES[r] + "s"
        if n == 2 and t.eight[i] >= 2 * t.around[i]:
            melds.append(Meld(f"eight {rank_name}", t.eight[i], [c for c in row for _ in (0, 1)]))
        else:
            melds += [Meld(f"{rank_name} around", t.around[i], row)] * n
    return [m for m in melds if m.points]


def score_meld(
    hand: str | list[str] | int,
    trump: str | int,
    rules: str | Ruleset = "partnership",
) -> MeldResult:
    """Best meld of ``hand`` with ``trump`` under the meld table of ``rules``.

    ``hand`` is a notation string, a list of card tokens, or a packed hand code.

    >>> score_meld("AH 10H KH QH JH KH QH 9H 9H", "H").total
    250
    >>> score_meld("AH 10H KH QH JH KH QH 9H 9H", "H", rules="partnership-classic").total
    210
    """
    ruleset = resolve_rules(rules)
    code = int(hand) if isinstance(hand, int | np.integer) else cards.encode_hand(hand)
    cards.check_hand(code)
    suit = cards.parse_suit(trump) if isinstance(trump, str) else int(trump)
    if not 0 <= suit < cards.NUM_SUITS:
        raise ValueError(f"unknown suit {trump!r}: use S, H, D or C")
    total = int(_meld(code, suit, _meld_lut_cached(ruleset.meld)))
    melds = _itemise(code, suit, ruleset.meld)
    assert sum(m.points for m in melds) == total, "meld itemisation disagrees with the kernel"
    return MeldResult(cards.SUITS[suit], total, melds)


def meld_table_array(rules: Ruleset) -> MeldArray:
    """The kernel's meld array for a ruleset (read-only view shared between calls)."""
    a = _meld_lut_cached(rules.meld)
    a.flags.writeable = False
    return a
