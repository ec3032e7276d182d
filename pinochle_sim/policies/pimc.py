"""The ``pimc`` play policy: sampled worlds solved double dummy ("perfect-information Monte
Carlo").

At each decision from trick ``from_trick`` on (by default the earliest trick the rules allow
within the cost budget: :func:`first_sampled_trick`), the seat samples ``worlds`` deals of the cards
it has not seen, uniformly among those consistent with what it knows (:mod:`.known`: its hand,
the cards played, shown meld, the pass as it saw it, the widow, voids and "nothing higher"
from :func:`~pinochle_sim.policies.dispatch.learn`; sampler: :mod:`.worlds`), solves each world
from the current position with the double-dummy solver (:func:`~pinochle_sim.solver.kernel.
dd_move_values`: its side's points from this trick on after each legal card), and plays the
card with the highest total over the worlds. Equal totals go to the card with fewer points,
then the lower rank, then the first suit (S, H, D, C). That card is found without solving every
card in every world (:func:`world_best`: the other cards are tested against the best so far);
:func:`world_sums` gives every card's total, for the training data. Before ``from_trick`` it plays
``counting`` (with ``counting``'s defaults). A seat with one legal card plays it unsampled.

Its side: the partnership; in three-hand the bidder alone, and a defender the two defenders
together (they share the aim of setting the bidder, as the solver's three-hand side does).

Random numbers: decision ``k`` of a hand (``k`` = cards already played) draws from its own
sub-stream of the hand's play stream (:func:`~pinochle_sim.core.rng.substream_key`), so a hand's
record depends only on the seed, the hand and the policies, never on threads or other hands,
and ``pimc`` leaves the draws of other seats' policies unchanged.

Worlds are conditioned on facts, not on how other seats' policies would have played: a card
played does not make other holdings more or less likely (the usual PIMC simplification), and
a seat's shown meld tells only that it holds those cards (not that it lacks the cards that
would have made a larger meld).
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import lowest_bit_index, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import substream_key
from pinochle_sim.core.tricks import PLANE, add_card, rank_of, suit_of
from pinochle_sim.policies import worlds
from pinochle_sim.policies.counting import _counting_play
from pinochle_sim.policies.known import (
    K_BIDDER,
    K_COUNT,
    K_DISCARD,
    K_LEADER,
    K_SETUP,
    K_TRICK,
    K_WIDOW,
    W_ALLOWED,
    W_COPIES,
    W_RA,
    W_SAMPLER,
    W_SUMS,
    W_TABLE,
    W_VALUES,
    W_WORLDS,
    WORLD_WORDS,
    WORLDS_MAX,
    copies,
    has_table,
    known_of,
)
from pinochle_sim.policies.play import tie_key
from pinochle_sim.policies.slots import PIMC_FROM_TRICK, PIMC_WORLDS
from pinochle_sim.policies.view import PlayView
from pinochle_sim.rules.arrays import (
    RA_DISCARD,
    RA_HEAD,
    RA_PARTNERS,
    RA_PLAYERS,
    RA_SIZE,
    RA_WIDOW,
)
from pinochle_sim.rules.ruleset import HEAD_RULES, Ruleset
from pinochle_sim.solver.driver import dd_card_test, dd_card_value, dd_move_values

MAX_WORLDS = WORLDS_MAX
UNBOUNDED = 1 << 30
"""An upper bound above any value (the solver clips it to the points in play)."""
MAX_FROM_TRICK = 16
HEAD_ALWAYS = HEAD_RULES.index("always")
"""The heading rule where every trick must be headed (:data:`.rules.ruleset.HEAD_RULES`)."""
BY_THE_RULES = 0
"""``from_trick`` = 0 (the default): the first sampled trick is :func:`first_sampled_trick`'s."""


@jit
def first_sampled_trick(players: int, head: int) -> int:
    """The earliest first trick of ``pimc`` at which 1,000 duplicate deals against ``counting``
    take at most 10 minutes on two cores (measured: docs/speed.md, results/strategy/pimc/):
    each trick earlier multiplies the cost by three to five, and how much depends on how
    free the play is (CPU seconds a duplicate deal against ``counting``, 16 worlds, seed 0).
    Where every trick must be headed, with four players (partnership, classic): trick 4, 7.3
    minutes for 1,000 deals (2,000 deals, 0.88 s a deal; trick 5: 0.21 s, 1.7 minutes; trick
    3: 4.5 s, 37 minutes). Where only trump leads must be (joedog): trick 5, 2.5 minutes
    (trick 4: 1.3 s a deal, 10.9 minutes). With three players (15-card hands): trick 5, 8.9
    minutes."""
    if players == 4 and head == HEAD_ALWAYS:
        return 4
    return 5


def first_trick_for(rules: Ruleset, from_trick: int = BY_THE_RULES) -> int:
    """The first trick ``pimc`` samples under ``rules`` with the parameter ``from_trick``
    (``0``, the default: :func:`first_sampled_trick`'s for the rules)."""
    if from_trick != BY_THE_RULES:
        return from_trick
    return int(first_sampled_trick(rules.players, HEAD_RULES.index(rules.head_trick)))


@jit
def side_mask(seat: int, bidder: int, players: int, partners: bool) -> int:
    """The seats whose points ``seat`` maximises (the solver's ``side_mask``)."""
    if partners:
        return (1 << seat) | (1 << ((seat + 2) % 4))
    full = (1 << players) - 1
    return (1 << bidder) if seat == bidder else full & ~(1 << bidder)


@jit
def world_setup(v: PlayView, work: np.ndarray) -> int:
    """Describe the unseen copies for seat ``v.seat`` to the sampler; returns the number of
    consistent worlds (>= 1 whenever the knowledge is true of the deal)."""
    seat, players, caps, bidder = v.seat, v.players, v.caps, work[K_BIDDER]
    widow_game = work[W_RA + RA_WIDOW] > 0 and seat != bidder
    n_loc = players - 1 + (1 if widow_game else 0)
    seen = v.played
    cap = [0, 0, 0]
    known = [0, 0, 0]
    for i in range(players - 1):
        other = (seat + 1 + i) % players
        known[i] = known_of(work, seat, other, players)
        cap[i] = work[K_COUNT + other] - popcount(known[i])
    if widow_game:
        cap[n_loc - 1] = work[W_RA + RA_DISCARD]
    restricted = work[K_WIDOW] if widow_game else 0
    discard = work[K_DISCARD] if seat == bidder and work[W_RA + RA_WIDOW] > 0 else 0
    bidder_loc = (bidder - seat - 1) % players
    n = 0
    for f in range(24):
        out = 2 - copies(v.hand, f) - copies(seen, f) - copies(discard, f)
        for i in range(players - 1):
            out -= copies(known[i], f)
        r = min(copies(restricted, f), out)
        free_at = 0
        for i in range(players - 1):
            other = (seat + 1 + i) % players
            if rank_of(f) < (caps >> (16 * other + 4 * suit_of(f))) & 15:
                free_at |= 1 << i
        if widow_game:
            free_at |= 1 << (n_loc - 1)
        for j in range(out):
            work[W_COPIES + n] = f
            if j < r:
                work[W_ALLOWED + n] = free_at & ((1 << bidder_loc) | (1 << (n_loc - 1)))
            else:
                work[W_ALLOWED + n] = free_at
            n += 1
    sc = work[W_SAMPLER:W_WORLDS]
    return worlds.prepare(
        sc, n_loc, cap[0], cap[1], cap[2], work[W_COPIES : W_COPIES + 48],
        work[W_ALLOWED : W_ALLOWED + 48], n,
    )  # fmt: skip


@jit
def world_hands(v: PlayView, work: np.ndarray, r: int) -> tuple[int, int, int, int]:
    """The four hands of world number ``r`` (after :func:`world_setup`): the seat's own hand,
    and for each other seat what it is known to hold plus its sampled copies."""
    seat, players = v.seat, v.players
    a0, a1, a2 = worlds.draw(work[W_SAMPLER:W_WORLDS], r)
    got = (a0, a1, a2)
    h = [0, 0, 0, 0]
    h[seat] = v.hand
    for i in range(players - 1):
        other = (seat + 1 + i) % players
        hand = known_of(work, seat, other, players)
        extra = got[i]
        while extra:
            f = lowest_bit_index(extra)
            extra &= extra - 1
            hand = add_card(hand, f % 24)
        h[other] = hand
    return h[0], h[1], h[2], h[3]


@jit
def pimc_play(v: PlayView, n_worlds: int, from_trick: int, rs: np.ndarray, work: np.ndarray) -> int:
    """The face ``v.seat`` plays under ``pimc`` (``rs``: the hand's play stream, read only;
    ``work``: the thread's work array, set up by the engine for this hand)."""
    legal = v.legal
    if popcount(legal) == 1:
        return lowest_bit_index(legal)
    if not has_table(work) or work[K_SETUP] == 0:
        return _counting_play(v, True, True)
    first = from_trick
    if first == BY_THE_RULES:
        first = first_sampled_trick(work[W_RA + RA_PLAYERS], work[W_RA + RA_HEAD])
    n_cards = popcount(v.played)  # ONE and TWO planes: every card played this hand
    trick = (n_cards - v.n_played) // v.players
    if trick + 1 < first:
        return _counting_play(v, True, True)
    return world_best(v, n_worlds, rs, work)


@jit
def _sampling(v: PlayView, rs: np.ndarray, work: np.ndarray) -> tuple[int, int, int]:
    """Set the sampler up for ``v.seat``'s decision: ``(worlds consistent with what it knows,
    the decision's sub-stream key, the side it maximises)``."""
    total = world_setup(v, work)
    if total <= 0:
        raise ValueError("pimc: no deal is consistent with what the seat knows")
    key = substream_key(rs, popcount(v.played))
    partners = work[W_RA + RA_PARTNERS] != 0
    return total, key, side_mask(v.seat, work[K_BIDDER], v.players, partners)


@jit
def world_sums(v: PlayView, n_worlds: int, rs: np.ndarray, work: np.ndarray) -> None:
    """Sample ``n_worlds`` worlds for ``v.seat`` and add up, in the work array's sums
    (``work[W_SUMS + face]``), each legal card's double-dummy value over them: its side's
    points from the current trick on (the others' slots are 0)."""
    legal = v.legal
    total, key, side = _sampling(v, rs, work)
    ra = work[W_RA : W_RA + RA_SIZE]
    tt = work[W_TABLE:]
    vals = work[W_VALUES : W_VALUES + 24]
    sums = work[W_SUMS : W_SUMS + 24]
    sums[:] = 0
    k = 0
    for _ in range(n_worlds):
        r, k = worlds.uniform_below(key, k, total)
        h0, h1, h2, h3 = world_hands(v, work, r)
        dd_move_values(h0, h1, h2, h3, work[K_LEADER], work[K_TRICK], v.trump, ra, side, tt, vals)
        for f in range(24):
            if (legal >> f) & 1:
                sums[f] += vals[f]


@jit
def best_total(v: PlayView, sums: np.ndarray) -> int:
    """The legal card with the highest total in ``sums`` (ties: :func:`~.play.tie_key`)."""
    best = -1
    legal = v.legal
    m = legal & PLANE
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        if (
            best < 0
            or sums[f] > sums[best]
            or (sums[f] == sums[best] and tie_key(f, v.points) < tie_key(best, v.points))
        ):
            best = f
    return best


@jit
def world_best(v: PlayView, n_worlds: int, rs: np.ndarray, work: np.ndarray) -> int:
    """The card :func:`best_total` picks from :func:`world_sums`' totals (the same worlds, the
    same card), found with fewer searches: a card is only tested against the best card so
    far, world by world, and solved exactly only where it might beat it.

    The first world is solved for every card, and its best card leads. The leader is solved
    exactly in every world. Each other card then gets one test per world, "does it take at
    least the leader's points here?": where it fails, the test's bound caps the card's value;
    where it passes, the card is solved exactly. When the caps add up to less than the
    leader's total, the card cannot be best (nor tie) and is dropped; otherwise it is solved
    exactly in every world, and leads if its total (then the tie order) is better."""
    legal = v.legal & PLANE
    total, key, side = _sampling(v, rs, work)
    ra = work[W_RA : W_RA + RA_SIZE]
    tt = work[W_TABLE:]
    vals = work[W_VALUES : W_VALUES + 24]
    leader, trick, trump = work[K_LEADER], work[K_TRICK], v.trump
    k = 0
    for w in range(n_worlds):
        r, k = worlds.uniform_below(key, k, total)
        at = W_WORLDS + w * WORLD_WORDS
        work[at], work[at + 1], work[at + 2], work[at + 3] = world_hands(v, work, r)
    # the first world, every card: its best card leads
    dd_move_values(work[W_WORLDS], work[W_WORLDS + 1], work[W_WORLDS + 2],
                   work[W_WORLDS + 3], leader, trick, trump, ra, side, tt, vals)  # fmt: skip
    best = best_total(v, vals)
    lead_total = vals[best]
    guess = vals[best]  # the world before's value
    for w in range(1, n_worlds):
        at = W_WORLDS + w * WORLD_WORDS
        guess = dd_card_value(work[at], work[at + 1], work[at + 2], work[at + 3], leader, trick,
                              trump, ra, side, tt, best, 0, UNBOUNDED, guess)  # fmt: skip
        work[at + 4] = guess
        lead_total += guess
    m = legal & ~(1 << best)
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        cap = vals[f]  # exact in the first world
        for w in range(1, n_worlds):
            at = W_WORLDS + w * WORLD_WORDS
            t = dd_card_test(work[at], work[at + 1], work[at + 2], work[at + 3], leader, trick,
                             trump, ra, side, tt, f, work[at + 4])  # fmt: skip
            if t >= work[at + 4]:  # as good as the leader here: solve it
                t = dd_card_value(work[at], work[at + 1], work[at + 2], work[at + 3], leader,
                                  trick, trump, ra, side, tt, f, t, UNBOUNDED, t)  # fmt: skip
                work[at + 5] = t
            else:
                work[at + 5] = -1 - t  # a cap: the value is at most t
            cap += t
        if cap < lead_total:
            continue  # it cannot reach the leader's total
        f_total = vals[f]
        for w in range(1, n_worlds):
            at = W_WORLDS + w * WORLD_WORDS
            t = work[at + 5]
            if t < 0:
                t = dd_card_value(work[at], work[at + 1], work[at + 2], work[at + 3], leader,
                                  trick, trump, ra, side, tt, f, 0, -1 - t, -1 - t)  # fmt: skip
                work[at + 5] = t
            f_total += t
        if f_total > lead_total or (
            f_total == lead_total and tie_key(f, v.points) < tie_key(best, v.points)
        ):
            best = f
            lead_total = f_total
            for w in range(1, n_worlds):
                at = W_WORLDS + w * WORLD_WORDS
                work[at + 4] = work[at + 5]
    return best


@jit(allocates=True)
def pimc(v: PlayView, q: tuple, rs: np.ndarray, work: np.ndarray) -> int:
    """Kernel of the ``play`` hook for ``pimc``: ``q`` = (worlds, from_trick, ...)."""
    return pimc_play(v, q[PIMC_WORLDS], q[PIMC_FROM_TRICK], rs, work)
