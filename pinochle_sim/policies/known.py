"""What the table knows about the hands during trick play, beyond the cards played: the
*knowledge* a sampling play policy (``pimc``) conditions its worlds on, and its work array.

Kept (by the engine and :func:`pinochle_sim.engines.trickplay.play_tricks`) only when a play
policy of the run's bundle has the registry flag ``reads_table``; otherwise the work array is
only :data:`SCRATCH` words for a policy's own use while it decides a card, and no code below
runs, so other policies' records are unchanged.

What each seat knows, by rule (docs/rules.md sections 5, 6 and 7):

* **meld**: every card of every counted meld is shown to all (:func:`~pinochle_sim.rules.meld.
  meld_shown`) and stays known to be in that hand until that seat plays a copy of it;
* **the pass** (partnerships): the bidder's partner knows the bidder still holds the cards it
  gave that did not come back (``gave - returned``, as multisets); the bidder knows the partner
  holds the cards it returned. The other side sees nothing;
* **the widow** (three-hand): shown to all before the bidder takes it (pagat.com's cut-throat
  rules; RULES.md section 5 is silent): each widow copy beyond the bidder's shown meld is in the
  bidder's hand or the discard until the bidder plays it. The discard is known to the bidder;
* the number of cards each seat holds; the trick on the table and its leader.

Work array (int64) layout: ``K_*`` slots, the rule array, the per-move sums, the world
sampler's scratch (:mod:`.worlds`) and a solver table (:mod:`pinochle_sim.solver.table`).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.tricks import remove_card
from pinochle_sim.policies import worlds
from pinochle_sim.rules.arrays import RA_PARTNERS, RA_PLAYERS, RA_SIZE
from pinochle_sim.rules.meld import meld_shown
from pinochle_sim.solver.workspace import init_table, table_words

K_SHOWN = 0  # 4: each seat's shown meld cards it has not played yet (packed hands; public)
K_TO_MATE = 4  # the returned cards the bidder's partner still holds (known to the bidder)
K_TO_BIDDER = 5  # the partner's cards still in the bidder's hand (known to the partner)
K_WIDOW = 6  # widow copies beyond the shown meld, in the bidder's hand or discard (public)
K_DISCARD = 7  # the bidder's discard (known to the bidder)
K_COUNT = 8  # 4: cards each seat holds
K_LEADER = 12  # seat that led the trick on the table
K_TRICK = 13  # the trick's cards so far (solver.kernel.pack_trick)
K_BIDDER = 14
K_SETUP = 15  # 1 once the hand's knowledge is set up
W_RA = 16  # RA_SIZE: the rule array (for the solver)
W_VALUES = W_RA + RA_SIZE  # 24: per-move sums over the worlds
W_SUMS = W_VALUES + 24  # 24: their totals
W_COPIES = W_SUMS + 24  # 48: faces of the unseen copies
W_ALLOWED = W_COPIES + 48  # 48: their allowed locations
W_SAMPLER = W_ALLOWED + 48  # the world sampler's scratch
WORLDS_MAX = 1000
"""The most worlds a decision samples (``pimc``'s ``worlds``)."""
W_WORLDS = W_SAMPLER + worlds.SCRATCH_SIZE  # WORLDS_MAX x WORLD_WORDS: each world's hands, values
WORLD_WORDS = 6  # a world: its 4 hands, the leading card's value, a candidate's bound or value
SCRATCH = 1024
"""Words of every work array that a play policy may use while it decides one card (``learned``
keeps the legal cards' features and scores and the decision's weights there): the whole array
without a table, from :data:`W_SCRATCH` with one (:func:`scratch`)."""
W_SCRATCH = W_WORLDS + WORLDS_MAX * WORLD_WORDS
W_TABLE = W_SCRATCH + SCRATCH  # the solver's work array, to the end
TABLE_BITS = 16
"""Solver table buckets per thread: 2**16 (4 MB); late positions are small."""


@jit
def new_work(active: bool) -> np.ndarray:
    """The work array of one thread (made once per chunk of hands): only the scratch words
    unless ``active`` (a ``reads_table`` policy plays)."""
    if not active:
        return np.zeros(SCRATCH, dtype=np.int64)
    work = np.zeros(W_TABLE + table_words(TABLE_BITS), dtype=np.int64)
    init_table(work[W_TABLE:])
    return work


@jit(inline="always")
def has_table(work: np.ndarray) -> bool:
    """Whether ``work`` holds the table's knowledge (:func:`new_work` with ``active``); an
    array without it is only the :data:`SCRATCH` words."""
    return work.shape[0] >= W_TABLE


@jit(inline="always")
def scratch(work: np.ndarray) -> int:
    """Where the :data:`SCRATCH` words of ``work`` start."""
    return W_SCRATCH if has_table(work) else 0


@jit
def multiset_minus(a: int, b: int) -> int:
    """Packed multiset ``a - b`` (copies of ``b`` taken from ``a`` where present)."""
    m = b
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        if (a >> (f % 24)) & 1:
            a = remove_card(a, f % 24)
    return a


@jit
def copies(hand: int, f: int) -> int:
    """Copies of face ``f`` in a packed hand (0..2)."""
    return ((hand >> f) & 1) + ((hand >> (24 + f)) & 1)


@jit
def setup(
    work: np.ndarray, hands: np.ndarray, bidder: int, trump: int, ra: np.ndarray,
    ma: np.ndarray, gave: int, returned: int, widow: int, discard: int,
) -> None:  # fmt: skip
    """The knowledge at the first lead: ``hands`` after passing or discarding; ``gave`` and
    ``returned``: the partner's pass to the bidder and the bidder's pass back (0 without a
    pass); ``widow`` and ``discard`` (0 without a widow)."""
    players = ra[RA_PLAYERS]
    for i in range(RA_SIZE):
        work[W_RA + i] = ra[i]
    for s in range(4):
        work[K_SHOWN + s] = meld_shown(hands[s], trump, ma) if s < players else 0
        work[K_COUNT + s] = popcount(hands[s]) if s < players else 0
    partners = ra[RA_PARTNERS] != 0
    work[K_TO_MATE] = returned if partners else 0
    work[K_TO_BIDDER] = multiset_minus(gave, returned) if partners else 0
    work[K_WIDOW] = multiset_minus(widow, work[K_SHOWN + bidder])
    work[K_DISCARD] = discard
    work[K_BIDDER] = bidder
    work[K_LEADER] = bidder
    work[K_TRICK] = 0
    work[K_SETUP] = 1


@jit
def _drop(work: np.ndarray, slot: int, f: int) -> bool:
    """Take one copy of ``f`` from the known set in ``slot`` if it holds one."""
    if (work[slot] >> f) & 1:
        work[slot] = remove_card(work[slot], f)
        return True
    return False


@jit
def note_play(work: np.ndarray, seat: int, f: int, players: int) -> None:
    """``seat`` played face ``f``: it no longer holds that copy."""
    work[K_COUNT + seat] -= 1
    bidder = work[K_BIDDER]
    shown = _drop(work, K_SHOWN + seat, f)
    if seat == bidder:
        _drop(work, K_TO_BIDDER, f)
        if not shown:
            _drop(work, K_WIDOW, f)
    elif players == 4 and seat == (bidder + 2) % 4:
        _drop(work, K_TO_MATE, f)


@jit
def known_of(work: np.ndarray, viewer: int, seat: int, players: int) -> int:
    """The cards ``viewer`` knows ``seat`` holds now (packed; copies as the larger of what each
    source shows)."""
    k = work[K_SHOWN + seat]
    bidder = work[K_BIDDER]
    if players == 4 and work[W_RA + RA_PARTNERS] != 0:
        mate = (bidder + 2) % 4
        if viewer == bidder and seat == mate:
            k |= work[K_TO_MATE]
        elif viewer == mate and seat == bidder:
            k |= work[K_TO_BIDDER]
    return k
