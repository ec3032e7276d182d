"""Exact meld distributions: the best meld of a uniformly dealt hand, computed, not sampled.

A hand of ``H`` cards is one of the ``C(48, H)`` equally likely subsets of the deck (the two
copies of a card count as different cards, as in a shuffle). Its best meld for a trump suit
splits into independent parts (RULES.md section 6; :mod:`pinochle_sim.rules.meld`):

* class 1, one part per suit: runs, trump marriages and dix in the trump suit, marriages in the
  others. It depends only on that suit's counts by rank, read from the scorer's own lookup
  table (:func:`~pinochle_sim.rules.meld.meld_table_array`);
* class 2: the pinochles, ``min(#QS, #JD)`` (QS is in spades, JD in diamonds);
* class 3: one part per rank A, K, Q, J, the least count of that rank over the four suits.

Each suit contributes a polynomial in its number of cards ``n`` and its class-1 value, one per
threshold vector ``t`` ("this suit holds at least ``t_r`` of each around rank ``r`` and at least
``t_p`` of its pinochle card"). A minimum over suits is at least ``t`` exactly when every suit
is, so for a fixed ``t`` the four suits simply multiply: convolution in ``n`` and in the value,
pointwise in ``t``. Differencing over ``t`` ("at least" -> "exactly", a Moebius inversion on
``{0, 1, 2}^5``) then gives, for every trump length, trump class-1 value, number of marriages,
pinochle count and around counts, the exact number of hands; the meld total is a sum over those
coordinates. No hand is enumerated and nothing is sampled: a few hundred thousand integer cells,
well under a second.

Counts are exact integers. They are computed in int64, which cannot overflow: every cell counts
a set of hands, so it is at most ``C(48, 24) < 2**45``; results are returned as Python ints.

"Holding" a meld kind (:attr:`ExactMeld.held`) means the hand holds its cards, whether or not
the best meld uses them (e.g. a run's cards may be better used in a double run); see
:data:`KINDS` and ``docs/exact.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from pinochle_sim.core import cards
from pinochle_sim.rules import MeldTable, Ruleset, resolve_rules
from pinochle_sim.rules.meld import (
    AROUND_RANKS,
    FACE_JD,
    FACE_QS,
    MA_AROUND,
    MA_PIN,
    MA_PLAIN,
    MA_TRUMP,
    meld_table_array,
)

SUIT_CONFIGS = np.array(list(itertools.product(range(3), repeat=cards.NUM_RANKS)), dtype=np.int64)
"""Every way one suit can lie in a hand: (729, 6) counts 0..2 by rank 9, J, Q, K, 10, A."""
CONFIG_WAYS = 2 ** (SUIT_CONFIGS == 1).sum(axis=1)
"""Hands of the deck's cards showing each configuration: a count of 1 is one of two copies."""
CONFIG_CARDS = SUIT_CONFIGS.sum(axis=1)
CONFIG_INDEX = ((SUIT_CONFIGS >= 1) << np.arange(6)).sum(axis=1) | (
    (SUIT_CONFIGS == 2) << np.arange(6, 12)
).sum(axis=1)
"""The scorer's 12-bit suit index ``ONE6 | TWO6 << 6`` of each configuration."""
PARTS = 5
"""Coordinates combined by a minimum: around ranks A, K, Q, J, then the pinochle card."""
THRESHOLDS = np.array(list(itertools.product(range(3), repeat=PARTS)), dtype=np.int64)
"""(243, 5): every threshold vector t, in the C order of an array of shape (3,) * 5."""


def _pin_counts(suit: int) -> np.ndarray:
    """Per configuration, the count of the suit's pinochle card (QS in spades, JD in diamonds);
    2, neutral for a minimum, in hearts and clubs."""
    if suit == cards.face_suit(FACE_QS):
        return SUIT_CONFIGS[:, cards.face_rank(FACE_QS)]
    if suit == cards.face_suit(FACE_JD):
        return SUIT_CONFIGS[:, cards.face_rank(FACE_JD)]
    return np.full(len(SUIT_CONFIGS), 2, dtype=np.int64)


def _suit_polynomial(suit: int, value_index: np.ndarray, n_values: int, hand: int) -> np.ndarray:
    """``g[t, n, v]``: ways one suit holds ``n`` cards with class-1 value index ``v`` and at
    least ``t`` of each around rank and of its pinochle card."""
    parts = np.column_stack([SUIT_CONFIGS[:, list(AROUND_RANKS)], _pin_counts(suit)])
    at_least = (parts[None, :, :] >= THRESHOLDS[:, None, :]).all(axis=2)  # (243, 729)
    keep = hand >= CONFIG_CARDS
    key = CONFIG_CARDS[keep] * n_values + value_index[keep]
    g = np.zeros(((hand + 1) * n_values, len(THRESHOLDS)), dtype=np.int64)
    np.add.at(g, key, (at_least[:, keep] * CONFIG_WAYS[keep]).T)
    return g.T.reshape(len(THRESHOLDS), hand + 1, n_values)


def _convolve(a: np.ndarray, b: np.ndarray, hand: int) -> np.ndarray:
    """Product of two polynomials ``[t, n, v]``: pointwise in t, convolution in n (cut at
    ``hand``) and v."""
    out = np.zeros((a.shape[0], hand + 1, a.shape[2] + b.shape[2] - 1), dtype=np.int64)
    for n in range(hand + 1):
        for v in range(b.shape[2]):
            col = b[:, n, v]
            if col.any():
                out[:, n:, v : v + a.shape[2]] += a[:, : hand + 1 - n, :] * col[:, None, None]
    return out


def _at_least_to_exactly(f: np.ndarray) -> np.ndarray:
    """Moebius inversion on the five threshold axes (the first five): from counts of "at least
    t" to counts of "exactly m" (at least m minus at least m + 1 on each axis in turn)."""
    f = f.copy()
    for axis in range(PARTS):
        f = np.moveaxis(f, axis, 0)
        f[:2] -= f[1:]
        f = np.moveaxis(f, 0, axis)
    return f


@lru_cache(maxsize=64)
def _by_length(table: MeldTable, hand: int, trump: int) -> dict[int, dict[int, int]]:
    """Exact counts of hands by trump length and best meld: ``{L: {meld: hands}}``."""
    ma = meld_table_array(Ruleset(meld=table))
    plain = ma[MA_PLAIN + CONFIG_INDEX]
    marriages = np.minimum(SUIT_CONFIGS[:, cards.RK], SUIT_CONFIGS[:, cards.RQ])
    if not np.array_equal(plain, marriages * table.marriage):  # the scorer's plain-suit rule
        raise AssertionError("plain-suit meld is not marriages x marriage value")
    trump_value = ma[MA_TRUMP + CONFIG_INDEX]
    keep = hand >= CONFIG_CARDS
    values, trump_index = np.unique(trump_value, return_inverse=True)
    trump_index = np.where(keep, trump_index, 0)
    others = np.ones((len(THRESHOLDS), hand + 1, 1), dtype=np.int64)
    others[:, 1:, :] = 0  # the empty product: no cards, no marriages, every threshold met
    for s in range(cards.NUM_SUITS):
        if s != trump:
            others = _convolve(others, _suit_polynomial(s, marriages, 3, hand), hand)
    g = _suit_polynomial(trump, trump_index, len(values), hand)
    lengths = min(hand, cards.NUM_RANKS * cards.COPIES)
    # at_least[t, L, v, M]: trump suit with L cards and value index v, M marriages elsewhere.
    at_least = g[:, : lengths + 1, :, None] * others[:, hand - np.arange(lengths + 1), None, :]
    exactly = _at_least_to_exactly(at_least.reshape((3,) * PARTS + at_least.shape[1:]))
    # The meld of every cell: trump class 1 + marriages + pinochles + the four arounds.
    grid = np.indices((3,) * PARTS)
    extra = ma[MA_PIN + grid[4]] + sum(ma[MA_AROUND + 3 * i + grid[i]] for i in range(4))
    suits = values[:, None] + np.arange(exactly.shape[-1])[None, :] * table.marriage
    cell = (1,) * PARTS
    total = extra[..., None, None, None] + suits.reshape(cell + (1, *suits.shape))
    total = np.broadcast_to(total, exactly.shape)
    length = np.broadcast_to(np.arange(lengths + 1).reshape(cell + (-1, 1, 1)), exactly.shape)
    count, total, length = exactly.reshape(-1), total.reshape(-1), length.reshape(-1)
    nonzero = count != 0
    if (count < 0).any():
        raise AssertionError("negative count after the at-least/exactly inversion")
    count, total, length = count[nonzero], total[nonzero], length[nonzero]
    out: dict[int, dict[int, int]] = {}
    for L in range(lengths + 1):
        here = length == L
        melds, inverse = np.unique(total[here], return_inverse=True)
        sums = np.zeros(len(melds), dtype=np.int64)
        np.add.at(sums, inverse, count[here])
        out[L] = {int(m): int(c) for m, c in zip(melds, sums, strict=True)}
    if sum(sum(d.values()) for d in out.values()) != math.comb(cards.DECK_SIZE, hand):
        raise AssertionError("exact meld counts do not add up to C(48, H)")
    return out


# --------------------------------------------------------------------------- meld kinds

Kind = tuple[tuple[int, ...], Callable[[tuple[int, ...]], bool]]
"""The faces a meld kind needs and the test on their counts (in that order) that holds it."""


def _kinds(table: MeldTable, trump: int) -> dict[str, Kind]:
    """The meld kinds of a table (those it gives points), as card-presence tests."""
    run = tuple(cards.face(trump, r) for r in (cards.RA, cards.R10, cards.RK, cards.RQ, cards.RJ))
    kq = tuple(cards.face(s, r) for s in range(cards.NUM_SUITS) for r in (cards.RK, cards.RQ))
    plain_kq = tuple(f for f in kq if cards.face_suit(f) != trump)

    def pairs(c: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [c[i : i + 2] for i in range(0, len(c), 2)]

    kinds: list[tuple[int, str, Kind]] = [
        (table.run, "run", (run, lambda c: min(c) >= 1)),
        (table.run_extra_king, "run with extra king",
         (run, lambda c: min(c) >= 1 and c[2] == 2)),
        (table.run_extra_queen, "run with extra queen",
         (run, lambda c: min(c) >= 1 and c[3] == 2)),
        (table.run_trump_marriage, "run with trump marriage",
         (run, lambda c: min(c) >= 1 and c[2] == c[3] == 2)),
        (table.double_run, "double run", (run, lambda c: min(c) == 2)),
        (table.dix, "dix: 1", ((cards.face(trump, cards.R9),), lambda c: c[0] == 1)),
        (table.dix, "dix: 2", ((cards.face(trump, cards.R9),), lambda c: c[0] == 2)),
        (table.trump_marriage, "trump marriage",
         ((cards.face(trump, cards.RK), cards.face(trump, cards.RQ)), lambda c: min(c) >= 1)),
        (table.marriage, "marriage",
         (plain_kq, lambda c: any(min(p) >= 1 for p in pairs(c)))),
        (table.marriage, "marriages around",
         (kq, lambda c: all(min(p) >= 1 for p in pairs(c)))),
        (table.pinochle, "pinochle", ((FACE_QS, FACE_JD), lambda c: min(c) >= 1)),
        (table.double_pinochle, "double pinochle", ((FACE_QS, FACE_JD), lambda c: min(c) == 2)),
    ]  # fmt: skip
    for i, r in enumerate(AROUND_RANKS):
        faces = tuple(cards.face(s, r) for s in range(cards.NUM_SUITS))
        word = cards.RANK_NAMES[r] + "s"
        kinds.append((table.around[i], f"{word} around", (faces, lambda c: min(c) >= 1)))
        kinds.append((table.eight[i], f"eight {word}", (faces, lambda c: min(c) == 2)))
    return {name: kind for points, name, kind in kinds if points > 0}


@lru_cache(maxsize=64)
def _held(table: MeldTable, hand: int) -> dict[str, int]:
    """Meld kind -> ``hand``-card hands holding its cards. The suits are alike, so the counts
    are the same whichever suit is trump: they are counted once, with spades."""
    return {name: hands_holding(hand, *kind) for name, kind in _kinds(table, 0).items()}


def hands_holding(
    hand: int, faces: tuple[int, ...], test: Callable[[tuple[int, ...]], bool]
) -> int:
    """Number of ``hand``-card hands whose counts of the distinct ``faces`` pass ``test``.

    Sums over the counts of those faces (0, 1 or 2 each) the ways to hold them times the ways
    to fill the rest of the hand from the other cards.
    """
    rest = cards.COPIES * (cards.NUM_FACES - len(faces))
    ways = 0
    for counts in itertools.product(range(3), repeat=len(faces)):
        k = sum(counts)
        if k <= hand and test(counts):
            ways += math.prod(math.comb(2, c) for c in counts) * math.comb(rest, hand - k)
    return ways


# --------------------------------------------------------------------------- the result


def _mean(dist: dict[int, int], total: int) -> Fraction:
    return Fraction(sum(v * c for v, c in dist.items()), total)


def _sd(dist: dict[int, int], total: int) -> float:
    m = _mean(dist, total)
    return math.sqrt(Fraction(sum(v * v * c for v, c in dist.items()), total) - m * m)


def _quantile(dist: dict[int, int], total: int, q: float) -> int:
    """The smallest meld x with P(meld <= x) >= q (a lower quantile, as reports compute)."""
    need = Fraction(str(q)) * total
    cum = 0
    for v in sorted(dist):
        cum += dist[v]
        if cum >= need:
            return v
    return max(dist)


@dataclass(frozen=True)
class ExactMeld:
    """The exact distribution of a dealt hand's best meld for one trump.

    ``counts`` and ``by_length`` hold exact numbers of hands (Python ints) out of ``total`` =
    C(48, ``hand_size``); ``held`` the number of hands holding each meld kind's cards. The
    other attributes derive from them: probabilities are floats; ``mean_exact`` is a Fraction.
    """

    rules: str
    table: str
    hand_size: int
    trump: str
    total: int
    counts: dict[int, int]
    """Meld value -> hands with exactly that best meld (every value that occurs)."""
    by_length: dict[int, dict[int, int]]
    """Trump length L -> {meld value -> hands with L trumps and that meld}."""
    held: dict[str, int]
    """Meld kind -> hands holding its cards (whether or not the best meld uses them)."""

    @property
    def pmf(self) -> dict[int, float]:
        """P(meld = x) for every meld value x that occurs."""
        return {v: c / self.total for v, c in self.counts.items()}

    @property
    def mean_exact(self) -> Fraction:
        return _mean(self.counts, self.total)

    @property
    def mean(self) -> float:
        return float(self.mean_exact)

    @property
    def sd(self) -> float:
        return _sd(self.counts, self.total)

    @property
    def melds(self) -> dict[str, float]:
        """Meld kind -> probability of holding its cards."""
        return {k: c / self.total for k, c in self.held.items()}

    def length_count(self, length: int) -> int:
        """Hands with ``length`` cards of the trump suit (hypergeometric)."""
        return sum(self.by_length.get(length, {}).values())

    def distribution(self, length: int | None = None) -> tuple[dict[int, int], int]:
        """``(counts by meld value, hands)``, overall or given the trump length."""
        if length is None:
            return self.counts, self.total
        if length not in self.by_length:
            raise ValueError(
                f"trump length {length} is impossible with {self.hand_size} cards: "
                f"choose 0..{max(self.by_length)}"
            )
        dist = self.by_length[length]
        return dist, sum(dist.values())

    def tail(self, x: float, length: int | None = None) -> float:
        """P(meld >= x), or P(meld >= x | trump length) with ``length``."""
        dist, n = self.distribution(length)
        return sum(c for v, c in dist.items() if v >= x) / n

    def quantile(self, q: float, length: int | None = None) -> int:
        """The smallest meld x with P(meld <= x) >= q (given the trump length, if given)."""
        dist, n = self.distribution(length)
        return _quantile(dist, n, q)

    def given_length(self, length: int) -> dict[str, Any]:
        """P(trump length), and the mean, SD and PMF of the meld given that length."""
        dist, n = self.distribution(length)
        return {
            "count": n,
            "p": n / self.total,
            "mean": float(_mean(dist, n)),
            "sd": _sd(dist, n),
            "pmf": {v: c / n for v, c in dist.items()},
        }

    def to_frame(self) -> pd.DataFrame:
        """The PMF: one row per meld value (``meld``, ``count``, ``p``, ``p_at_least``)."""
        return _pmf_frame(self.counts, self.total)

    def by_length_frame(self) -> pd.DataFrame:
        """The PMF given each trump length: ``trump_length``, ``p_length`` and the PMF columns,
        ``p`` and ``p_at_least`` given that length."""
        parts = []
        for L, dist in self.by_length.items():
            n = sum(dist.values())
            parts.append(_pmf_frame(dist, n).assign(trump_length=L, p_length=n / self.total))
        cols = ["trump_length", "p_length", "meld", "count", "p", "p_at_least"]
        return pd.concat(parts, ignore_index=True)[cols]

    def length_summary(self) -> pd.DataFrame:
        """One row per trump length: hands, P(length), mean, SD, p10, median, p90 of meld."""
        rows = []
        for L in self.by_length:
            g = self.given_length(L)
            q = [self.quantile(x, L) for x in (0.1, 0.5, 0.9)]
            rows.append({"trump_length": L, "count": g["count"], "p": g["p"], "mean": g["mean"],
                         "sd": g["sd"], "p10": q[0], "median": q[1], "p90": q[2]})  # fmt: skip
        return pd.DataFrame(rows)

    def melds_frame(self) -> pd.DataFrame:
        """One row per meld kind: ``kind``, ``count`` (hands holding it), ``p``."""
        return pd.DataFrame(
            {
                "kind": list(self.held),
                "count": list(self.held.values()),
                "p": list(self.melds.values()),
            }
        )

    def _length_json(self, length: int) -> dict[str, Any]:
        g = self.given_length(length)
        return g | {"pmf": {str(v): p for v, p in g["pmf"].items()}}

    def lines(self, scale: int = 1, length: int | None = None) -> list[str]:
        """The distribution as ``pinochle-sim exact`` prints it (``scale``: the rules' point
        scale, for the meld cut-offs; ``length``: the whole distribution given this many
        trumps instead of the overall one)."""
        cuts = [x // scale for x in (100, 250, 500)]
        lines = [
            f"exact meld distribution: rules {self.rules} (meld table {self.table}), "
            f"{self.hand_size}-card hands, trump {self.trump}",
            f"hands: C(48, {self.hand_size}) = {self.total:,}, every one counted (no sampling)",
            f"meld: mean {self.mean:.4f}, SD {self.sd:.4f}, median {self.quantile(0.5)}, "
            f"90th percentile {self.quantile(0.9)}; "
            f"P(no meld) = {self.tail(0) - self.tail(1):.4%}",
            "",
            f"by trump length (cards of {self.trump} in the hand):",
            f"{'length':>6} {'hands':>17} {'P(length)':>10} {'mean':>8} {'SD':>8} {'p10':>5} "
            f"{'median':>6} {'p90':>5}" + "".join(f"{f'P(>={x})':>11}" for x in cuts),
        ]
        for n_trumps in self.by_length:
            g = self.given_length(n_trumps)
            q = [self.quantile(p, n_trumps) for p in (0.1, 0.5, 0.9)]
            lines.append(
                f"{n_trumps:>6} {g['count']:>17,} {g['p']:>10.3e} {g['mean']:>8.2f} "
                f"{g['sd']:>8.2f} {q[0]:>5} {q[1]:>6} {q[2]:>5}"
                + "".join(f"{self.tail(x, n_trumps):>11.3e}" for x in cuts)
            )
        lines += ["", "meld kinds held (the cards are in the hand, used by the best meld or not):"]
        width = max(len(k) for k in self.held)
        for kind, count in self.held.items():
            lines.append(f"  {kind:<{width}} {count / self.total:>11.4e}  ({count:,} hands)")
        dist, n = self.distribution(length)
        given = "" if length is None else f" given {length} trumps"
        header = f"{'meld':>6} {'hands':>17} {'P(meld = x)':>12} {'P(meld >= x)':>13}"
        lines += ["", f"distribution of the best meld{given}:", header]
        left = n
        for v, c in dist.items():
            lines.append(f"{v:>6} {c:>17,} {c / n:>12.4e} {left / n:>13.4e}")
            left -= c
        return lines

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready object (meld values and trump lengths as string keys)."""
        return {
            "rules": self.rules,
            "table": self.table,
            "hand_size": self.hand_size,
            "trump": self.trump,
            "total": self.total,
            "mean": self.mean,
            "sd": self.sd,
            "pmf": {str(v): p for v, p in self.pmf.items()},
            "counts": {str(v): c for v, c in self.counts.items()},
            "by_trump_length": {str(L): self._length_json(L) for L in self.by_length},
            "melds": self.melds,
            "meld_counts": dict(self.held),
        }


def _pmf_frame(dist: dict[int, int], n: int) -> pd.DataFrame:
    melds = np.array(sorted(dist), dtype=np.int64)
    counts = [dist[v] for v in melds]
    at_least = list(itertools.accumulate(reversed(counts)))[::-1]
    return pd.DataFrame(
        {
            "meld": melds,
            "count": np.array(counts, dtype=np.int64),
            "p": [c / n for c in counts],
            "p_at_least": [c / n for c in at_least],
        }
    )


def exact_meld_distribution(
    rules: str | Ruleset = "partnership", trump: str | int = "S", hand_size: int | None = None
) -> ExactMeld:
    """The exact distribution of the best meld of a uniformly dealt hand.

    ``rules`` gives the meld table and, unless ``hand_size`` overrides it, the number of cards
    (12; three-hand 15: the dealt hand before the widow). Two-hand melds its table D from the
    table as it plays; this is the best meld of its 12 dealt cards, as in the records'
    ``meld_{seat}_{suit}`` columns. Values are in the table's points (``joedog``: /10).

    >>> e = exact_meld_distribution("partnership", "H")
    >>> e.total == 69_668_534_468 and sum(e.counts.values()) == e.total
    True
    >>> round(e.mean, 3), round(e.tail(250), 4), e.held["double run"]  # 703 = C(38, 2)
    (40.776, 0.0031, 703)
    """
    ruleset = resolve_rules(rules)
    suit = cards.parse_suit(trump) if isinstance(trump, str) else int(trump)
    if not 0 <= suit < cards.NUM_SUITS:
        raise ValueError(f"unknown suit {trump!r}: use S, H, D or C")
    hand = ruleset.hand_size if hand_size is None else hand_size
    if isinstance(hand, bool) or not isinstance(hand, int | np.integer) or not 1 <= hand <= 48:
        raise ValueError(f"hand size must be a whole number of cards 1..48, got {hand!r}")
    hand = int(hand)
    by_length = _by_length(ruleset.meld, hand, suit)
    counts: dict[int, int] = {}
    for dist in by_length.values():
        for v, c in dist.items():
            counts[v] = counts.get(v, 0) + c
    held = dict(_held(ruleset.meld, hand))
    return ExactMeld(
        rules=ruleset.name,
        table=ruleset.meld.name,
        hand_size=hand,
        trump=cards.SUITS[suit],
        total=math.comb(cards.DECK_SIZE, hand),
        counts=dict(sorted(counts.items())),
        by_length=by_length,
        held=held,
    )
