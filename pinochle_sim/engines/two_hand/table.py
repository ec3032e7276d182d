"""Two-hand melding from the table (docs/rules.md section 7), per physical card.

In two-hand a player lays down one meld at a time, after winning a stock-phase trick, and the
cards stay on the table, still playable. A card on the table may serve a new meld only of
another class, or of the same class with a higher value than every meld of that class it has
served (trump marriage -> run, pinochle -> double pinochle; never run -> marriage), and each
new meld needs at least one card from the concealed hand. Two copies of a face can therefore
differ (one fresh in the hand, one on the table after a marriage), so this module tracks every
physical card.

**Card ids.** Card ``id = face * 2 + copy``. Copy 0 of a face is the one that comes first in the
shuffled deck (seat 0's cards, seat 1's, the up-card, then the stock in draw order).

**Card state** (int64 array ``cs``, :data:`CS_SIZE` long): for card ``id``

* ``cs[CS_OWN + id]``: owner seat 0/1, :data:`IN_STOCK` (stock or face-up card) or :data:`PLAYED`;
* ``cs[CS_TAB + id]``: 1 while the card lies on the table in a meld;
* ``cs[CS_LEVEL + 4 * id + k]``: the highest value of a class-``k`` meld (k = 1, 2, 3) the card
  has served (0 = none);
* ``cs[CS_FACES + TM_STRIDE * seat + j]``: masks over faces (bit per face) of ``seat``'s table
  cards, kept by every function here that moves a card on or off the table: ``j = TM_ONE``
  faces with a copy on the table, ``TM_TWO`` with both, ``TM_SERVED + k`` with a table copy that
  has served a class-``k`` meld. A meld none of whose faces lies on the table, or none of whose
  table faces has served its class, is judged from the packed hand and these masks alone, the
  common cases, without reading the per-card state;
* ``cs[CS_TOP + 4 * seat + k]``: at least the highest value of a class-``k`` meld any of
  ``seat``'s table cards has served (raised by every meld and dix laid, never lowered when a
  card leaves the table): a table card can stop a new meld of its class only when the new
  meld is worth no more than it served, so a meld worth more than this bound is judged from
  the masks alone too.

**Candidate melds** (int64 array ``ca``, built from the meld table by :func:`candidate_array`):
for each trump suit ``t`` a block at ``t * CA_STRIDE``: the number of candidates, then per
candidate (class, value, cards needed as a packed hand, name id). Dix (the 9 of trump) is not a
candidate: it is shown beside a meld and its value sits at :data:`CA_DIX`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pinochle_sim.core import cards
from pinochle_sim.core.bits import lowest_bit_index, nonneg, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import remove_card
from pinochle_sim.rules import MeldTable, Ruleset

CLASS_SEQUENCE = 1
"""Meld class of the trump sequence, marriages and the dix (levels in ``cs`` by class)."""
CLASS_PINOCHLE = 2
CLASS_AROUND = 3
IN_STOCK = 2
PLAYED = 3
CS_OWN = 0
CS_TAB = 48
CS_LEVEL = 96
CS_FACES = CS_LEVEL + 4 * 48
TM_ONE = 0
TM_TWO = 1
TM_SERVED = 1  # + class (1..3): slots 2, 3, 4
TM_STRIDE = 5
CS_TOP = CS_FACES + 2 * TM_STRIDE
CS_SIZE = CS_TOP + 8

MAX_CANDIDATES = 20
CA_COUNT = 0
"""Offset, in a trump's block of the candidate array, of its number of candidate melds."""
CA_FIRST = 1
"""Offset of its first candidate row; rows follow, :data:`CA_FIELDS` slots each."""
CA_CLASS = 0
"""Row field: the meld's class (1 trump sequence and marriages, 2 pinochles, 3 arounds)."""
CA_VALUE = 1
"""Row field: the meld's value."""
CA_NEED = 2
"""Row field: the faces it needs, packed like a hand."""
CA_NAME = 3
"""Row field: its index into :data:`MELD_NAMES`."""
CA_FIELDS = 4
CA_STRIDE = CA_FIRST + CA_FIELDS * MAX_CANDIDATES
CA_DIX = 4 * CA_STRIDE
CA_SIZE = CA_DIX + 1

MELD_NAMES = (
    "run",
    "run with extra king",
    "run with extra queen",
    "run with trump marriage",
    "double run",
    "trump marriage",
    "marriage",
    "pinochle",
    "double pinochle",
    "aces around",
    "kings around",
    "queens around",
    "jacks around",
    "eight aces",
    "eight kings",
    "eight queens",
    "eight jacks",
)
"""Names of candidate melds by name id (the ``ca`` field 3)."""

_RUN = (cards.RA, cards.R10, cards.RK, cards.RQ, cards.RJ)


def _packed(faces: list[int]) -> int:
    hand = 0
    for f in faces:
        b = 1 << f
        hand |= b | ((hand & b) << cards.PLANE_BITS)
    return hand


def candidates(t: MeldTable, trump: int) -> list[tuple[int, int, int, int]]:
    """(class, value, packed cards, name id) of every meld worth laying down with ``trump``.

    Rows worth 0 are not melds. Higher melds come first (the greedy policy's tie order).
    """
    tf = [cards.face(trump, r) for r in range(cards.NUM_RANKS)]
    run = [tf[r] for r in _RUN]
    rows = [
        (CLASS_SEQUENCE, t.run, run, 0),
        (CLASS_SEQUENCE, t.run_extra_king, run + [tf[cards.RK]], 1),
        (CLASS_SEQUENCE, t.run_extra_queen, run + [tf[cards.RQ]], 2),
        (CLASS_SEQUENCE, t.run_trump_marriage, run + [tf[cards.RK], tf[cards.RQ]], 3),
        (CLASS_SEQUENCE, t.double_run, run + run, 4),
        (CLASS_SEQUENCE, t.trump_marriage, [tf[cards.RK], tf[cards.RQ]], 5),
    ]
    for s in range(cards.NUM_SUITS):
        if s != trump:
            rows.append(
                (CLASS_SEQUENCE, t.marriage, [cards.face(s, cards.RK), cards.face(s, cards.RQ)], 6)
            )
    pin = [cards.face(cards.S, cards.RQ), cards.face(cards.D, cards.RJ)]
    rows += [
        (CLASS_PINOCHLE, t.pinochle, pin, 7),
        (CLASS_PINOCHLE, t.double_pinochle, pin + pin, 8),
    ]
    for i, r in enumerate((cards.RA, cards.RK, cards.RQ, cards.RJ)):
        row = [cards.face(s, r) for s in range(cards.NUM_SUITS)]
        rows += [
            (CLASS_AROUND, t.around[i], row, 9 + i),
            (CLASS_AROUND, t.eight[i], row + row, 13 + i),
        ]
    out = [(k, v, _packed(faces), name) for k, v, faces, name in rows if v > 0]
    out.sort(key=lambda row: -row[1])
    return out


@lru_cache(maxsize=16)
def _candidate_array(t: MeldTable) -> np.ndarray:
    a = np.zeros(CA_SIZE, dtype=np.int64)
    for trump in range(cards.NUM_SUITS):
        rows = candidates(t, trump)
        base = trump * CA_STRIDE
        a[base + CA_COUNT] = len(rows)
        for i, row in enumerate(rows):
            a[base + CA_FIRST + CA_FIELDS * i : base + CA_FIRST + CA_FIELDS * (i + 1)] = row
    a[CA_DIX] = t.dix
    a.flags.writeable = False
    return a


def candidate_array(rules: Ruleset) -> np.ndarray:
    """The kernel's candidate meld array ``ca`` of a ruleset's meld table."""
    return _candidate_array(rules.meld)


@jit
def usable(cs: np.ndarray, p: int, f: int, cls: int, value: int) -> tuple[int, int]:
    """(usable copies, concealed copies) of face ``f`` held by ``p`` for a class-``cls`` meld
    worth ``value``: concealed copies, and table copies that served only lower class melds."""
    n = 0
    hidden = 0
    for c in range(2):
        i = 2 * f + c
        if cs[CS_OWN + i] == p:
            if cs[CS_TAB + i] == 0:
                n += 1
                hidden += 1
            elif cs[CS_LEVEL + 4 * i + cls] < value:
                n += 1
    return n, hidden


@jit
def absent(hand: int, need: int) -> int:
    """Copies of the meld ``need`` that ``hand`` does not hold at all (both packed)."""
    return popcount(need & ~hand & 0xFFFFFF) + popcount((need >> 24) & ~(hand >> 24))


@jit
def concealed_faces(hand: int, one: int, two: int) -> int:
    """Faces of which a seat holding ``hand`` (packed) has a copy off the table, given its
    table masks ``one`` (a copy on the table) and ``two`` (both)."""
    return ((hand >> 24) & ~two) | (hand & 0xFFFFFF & ~one)


@jit
def usable_hand(cs: np.ndarray, p: int, hand: int, faces: int, cls: int, value: int) -> int:
    """``hand`` (packed) less ``p``'s table copies of ``faces`` that cannot serve a class-``cls``
    meld worth ``value`` (they served one of that class worth as much or more): the copies a
    new meld of those faces may use. Only faces in the seat's ``TM_SERVED + cls`` mask are
    looked up card by card, and only when the meld is worth no more than the seat's bound
    ``CS_TOP``; for the others every copy held is usable."""
    m = faces & cs[nonneg(CS_FACES + TM_STRIDE * p + TM_SERVED + cls)]
    # worth more than any meld of its class the seat's table cards served: all usable
    m = m if value <= cs[nonneg(CS_TOP + 4 * p + cls)] else 0
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        # the copies of f that cannot serve, counted without branches (a coin toss each)
        n = 0
        for c in range(2):
            i = 2 * f + c
            mine = cs[nonneg(CS_OWN + i)] == p
            tabled = cs[nonneg(CS_TAB + i)] != 0
            n += mine & tabled & (cs[nonneg(CS_LEVEL + 4 * i + cls)] >= value)
        less_one = remove_card(hand, f)
        hand = hand if n == 0 else (less_one if n == 1 else remove_card(less_one, f))
    return hand


@jit
def shortfall(cs: np.ndarray, p: int, hand: int, need: int, cls: int, value: int) -> int:
    """Copies ``p`` (holding ``hand``, packed) lacks to lay the meld ``need`` (packed) now; a
    meld whose cards are all present but none concealed counts as one short (a concealed card
    must be added). Beyond 1 the count is a lower bound (cards not held at all)."""
    lacking = absent(hand, need)
    if lacking > 1:
        return lacking
    faces = need & 0xFFFFFF
    missing = absent(usable_hand(cs, p, hand, faces, cls, value), need)
    at = CS_FACES + TM_STRIDE * p
    hidden = concealed_faces(hand, cs[nonneg(at + TM_ONE)], cs[nonneg(at + TM_TWO)])
    return 1 if missing == 0 and (faces & hidden) == 0 else missing


@jit
def lay(cs: np.ndarray, p: int, need: int, cls: int, value: int) -> tuple[int, int]:
    """Lay the meld ``need`` for ``p`` (it must be layable); returns (card ids used, those that
    came from the table) as bit masks over card ids.

    Which copies: table copies first (they keep the concealed ones free for later melds), the
    one with the higher level in this class first; if that would use no concealed card, one
    table card is swapped for the concealed copy of the same face.
    """
    used = 0
    from_table = 0
    m = need & 0xFFFFFF
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        want = 1 + ((need >> (24 + f)) & 1)
        a, b = 2 * f, 2 * f + 1
        ka = _copy_key(cs, p, a, cls, value)
        kb = _copy_key(cs, p, b, cls, value)
        first, second = (b, a) if kb > ka else (a, b)
        used |= 1 << first
        if want == 2:
            used |= 1 << second
        from_table |= used & ((cs[nonneg(CS_TAB + a)] << a) | (cs[nonneg(CS_TAB + b)] << b))
    if used == from_table:
        m = need & 0xFFFFFF
        while m:
            f = lowest_bit_index(m)
            m &= m - 1
            for c in range(2):
                i = 2 * f + c
                j = 2 * f + 1 - c
                if ((used >> i) & 1) == 0 and _copy_key(cs, p, i, cls, value) == 0:
                    used ^= (1 << i) | (1 << j)
                    from_table &= ~(1 << j)
                    m = 0
                    break
    top = CS_TOP + 4 * p + cls
    cs[nonneg(top)] = max(cs[nonneg(top)], value)
    m = used
    while m:
        i = lowest_bit_index(m)
        m &= m - 1
        cs[nonneg(CS_TAB + i)] = 1
        cs[nonneg(CS_LEVEL + 4 * i + cls)] = value
        _sync_face(cs, i >> 1)
    return used, from_table


@jit
def _copy_key(cs: np.ndarray, p: int, i: int, cls: int, value: int) -> int:
    """Preference for using card ``i`` in a meld: -1 unusable, 0 concealed, 1 + level for a
    usable table card (higher = used first)."""
    if cs[nonneg(CS_OWN + i)] != p:
        return -1
    if cs[nonneg(CS_TAB + i)] == 0:
        return 0
    level = cs[nonneg(CS_LEVEL + 4 * i + cls)]
    return 1 + level if level < value else -1


@jit
def play_copy(cs: np.ndarray, p: int, f: int) -> tuple[int, bool]:
    """The copy of face ``f`` that ``p`` plays (marked played) and whether it came from the
    table: a table copy before a concealed one (the concealed card keeps its use for future
    melds), the more used one first."""
    a, b = 2 * f, 2 * f + 1
    ka = _played_key(cs, p, a)
    kb = _played_key(cs, p, b)
    i = b if kb > ka else a
    on_table = cs[nonneg(CS_TAB + i)] != 0
    cs[nonneg(CS_OWN + i)] = PLAYED
    cs[nonneg(CS_TAB + i)] = 0
    if on_table:
        _sync_face(cs, f)
    return i, on_table


@jit
def _sync_face(cs: np.ndarray, f: int) -> None:
    """Recompute both seats' table-mask bits (``CS_FACES``) of face ``f`` from its two copies."""
    bit = 1 << f
    for j in range(2 * TM_STRIDE):
        cs[nonneg(CS_FACES + j)] &= ~bit
    for c in range(2):
        i = 2 * f + c
        owner = cs[nonneg(CS_OWN + i)]
        if cs[nonneg(CS_TAB + i)] != 0 and owner < 2:
            at = CS_FACES + TM_STRIDE * owner
            if cs[nonneg(at + TM_ONE)] & bit:
                cs[nonneg(at + TM_TWO)] |= bit
            cs[nonneg(at + TM_ONE)] |= bit
            for k in range(1, 4):
                if cs[nonneg(CS_LEVEL + 4 * i + k)] > 0:
                    cs[nonneg(at + TM_SERVED + k)] |= bit


@jit
def show_dix(cs: np.ndarray, p: int, d: int, value: int) -> None:
    """``p`` shows its 9 of trump ``d`` (card id) for ``value``: it lies on the table and can
    never be shown again."""
    cs[CS_LEVEL + 4 * d + CLASS_SEQUENCE] = value
    top = CS_TOP + 4 * p + CLASS_SEQUENCE
    cs[top] = max(cs[top], value)
    cs[CS_TAB + d] = 1
    _sync_face(cs, d >> 1)


@jit
def exchange_dix(cs: np.ndarray, p: int, d: int, u: int) -> None:
    """``p`` exchanges the shown dix ``d`` for the face-up card ``u`` (card ids)."""
    cs[CS_OWN + u] = p
    cs[CS_OWN + d] = IN_STOCK
    cs[CS_TAB + d] = 0
    _sync_face(cs, d >> 1)


@jit
def _played_key(cs: np.ndarray, p: int, i: int) -> int:
    """Preference for playing card ``i``: -1 not ``p``'s, 0 concealed, 1 + its levels on the
    table (selects, not branches: which copy is where is a coin toss)."""
    at = CS_LEVEL + 4 * i
    levels = (
        cs[nonneg(at + CLASS_SEQUENCE)]
        + cs[nonneg(at + CLASS_PINOCHLE)]
        + cs[nonneg(at + CLASS_AROUND)]
    )
    tabled = 1 + levels if cs[nonneg(CS_TAB + i)] != 0 else 0
    return tabled if cs[nonneg(CS_OWN + i)] == p else -1


@jit
def dix_card(cs: np.ndarray, p: int, trump: int) -> int:
    """A 9 of trump ``p`` holds and has not shown (card id), or -1."""
    a = 12 * trump  # card ids of the 9 of trump (rank 0): a and a + 1
    ok_a = (cs[nonneg(CS_OWN + a)] == p) & (cs[nonneg(CS_LEVEL + 4 * a + CLASS_SEQUENCE)] == 0)
    b = a + 1
    ok_b = (cs[nonneg(CS_OWN + b)] == p) & (cs[nonneg(CS_LEVEL + 4 * b + CLASS_SEQUENCE)] == 0)
    return a if ok_a else (b if ok_b else -1)
