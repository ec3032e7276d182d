"""Two-hand policies: which meld to lay down after winning a stock trick (``meld`` kind) and
which card to play while the stock lasts (``stock`` kind). The play-out after the stock is gone
uses the ordinary ``play`` policies (``greedy`` or ``random``).

``meld`` policies (called for the winner of each stock-phase trick):

* ``greedy`` (default) lays the most valuable meld it can. With ``build_up`` on it first lays
  the smaller meld of the same class hidden inside it (the trump marriage of a run, a pinochle
  of a double pinochle) while at least ``build_up_min`` stock tricks remain, because the rules
  allow marriage -> run (40 + 150) but not run -> marriage. It always shows a dix it holds,
  and exchanges it for the face-up trump card when that card ranks above the 9 (``exchange``).
* ``random`` lays a uniformly random layable meld or none, shows a dix with probability 1/2
  and exchanges it with probability 1/2.

``stock`` policies (no obligation to follow while the stock lasts):

* ``standard`` (default) gives every held card a *keep value*: its trick points, plus
  ``trump_cost`` for a trump (trumps win the play-out), plus ``meld_cost`` when losing the card
  breaks a meld it could lay now (or is an unshown dix), plus ``near_cost`` when it breaks a
  meld one card short. It leads its cheapest card, unless it holds a layable meld worth at least
  ``win_meld`` and an unbeatable trump outside that meld, which it leads to win the right to
  meld. Following, it compares winning with its cheapest winning card (the trick's points +
  ``meld_weight`` % of the meld it could then lay - the card's keep value) with losing its
  cheapest card (minus the trick's points and the card's keep value) and takes the better.
* ``random`` plays a uniformly random held card.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import lowest_bit_index, nonneg, popcount
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import below
from pinochle_sim.core.tricks import (
    RANK_ROW,
    beaters,
    higher_in_suit,
    rank_of,
    suit_mask,
    suit_of,
)
from pinochle_sim.engines.two_hand.table import (
    CA_CLASS,
    CA_COUNT,
    CA_FIELDS,
    CA_FIRST,
    CA_NEED,
    CA_STRIDE,
    CA_VALUE,
    CS_FACES,
    TM_ONE,
    TM_STRIDE,
    TM_TWO,
    absent,
    concealed_faces,
    shortfall,
    usable,
    usable_hand,
)
from pinochle_sim.policies.bundle import PolicyBundle, policy_hook
from pinochle_sim.policies.play import RISING, face_points, ranks_held
from pinochle_sim.policies.slots import (
    MELD_BUILD_UP,
    MELD_BUILD_UP_MIN,
    MELD_EXCHANGE,
    PP_MELD_PARAMS,
    PP_STOCK_PARAMS,
    STOCK_MELD_COST,
    STOCK_MELD_WEIGHT,
    STOCK_NEAR_COST,
    STOCK_TRUMP_COST,
    STOCK_WIN_MELD,
)

BIG = 1 << 40


@jit(inline="always")
def _params(pp: np.ndarray, seat: int, b: int) -> tuple:
    return (
        pp[seat, b], pp[seat, b + 1], pp[seat, b + 2], pp[seat, b + 3],
        pp[seat, b + 4], pp[seat, b + 5], pp[seat, b + 6], pp[seat, b + 7],
    )  # fmt: skip


@jit(inline="always")
def meld_params(pp: np.ndarray, seat: int) -> tuple:
    """The 8 ``meld`` policy parameters of ``seat`` (``q`` of the meld hooks), read once per
    deal: a row view of ``pp`` per call would cost two atomic reference counts."""
    return _params(pp, seat, PP_MELD_PARAMS)


@jit(inline="always")
def stock_params(pp: np.ndarray, seat: int) -> tuple:
    """The 8 ``stock`` policy parameters of ``seat`` (``q`` of the stock hook)."""
    return _params(pp, seat, PP_STOCK_PARAMS)


@jit
def meld_outlook(
    cs: np.ndarray, ca: np.ndarray, p: int, hand: int, trump: int
) -> tuple[int, int, int, int]:
    """What ``p`` could meld now: (best candidate index or -1, its value, faces whose loss breaks
    a layable meld, faces whose loss breaks a meld one card short)."""
    base = trump * CA_STRIDE
    best_i = -1
    best_v = 0
    now = 0
    near = 0
    at = CS_FACES + TM_STRIDE * p
    hidden = concealed_faces(hand, cs[nonneg(at + TM_ONE)], cs[nonneg(at + TM_TWO)])
    # Branch-free over the candidates (selects, not jumps: whether a meld is short is close to
    # a coin toss, and mispredicted branches cost more than the work they skip).
    for i in range(ca[base + CA_COUNT]):
        o = base + CA_FIRST + CA_FIELDS * i
        need, value = ca[nonneg(o + CA_NEED)], ca[nonneg(o + CA_VALUE)]
        faces = need & 0xFFFFFF
        # The copies this meld may use (table.usable_hand): all held, unless a face's table
        # copy has served this class at this value or more.
        u = usable_hand(cs, p, hand, faces, ca[nonneg(o + CA_CLASS)], value)
        short = absent(u, need)
        # every card usable, but a new meld needs a concealed one: one short
        short += (short == 0) & ((faces & hidden) == 0)
        # losing a usable copy of a face breaks the meld unless it has two and needs one
        breaks = faces & u & ((need >> 24) | ~(u >> 24))
        now |= breaks if short == 0 else 0
        near |= breaks if short == 1 else 0
        first = (short == 0) & (best_i < 0)  # candidates are sorted by value, highest first
        best_v = value if first else best_v
        best_i = i if first else best_i
    return best_i, best_v, now, near


@jit
def _layable(cs: np.ndarray, ca: np.ndarray, p: int, hand: int, o: int) -> bool:
    need, cls = ca[nonneg(o + CA_NEED)], ca[nonneg(o + CA_CLASS)]
    return shortfall(cs, p, hand, need, cls, ca[nonneg(o + CA_VALUE)]) == 0


@jit(inline="always")
def _complete(cs: np.ndarray, ca: np.ndarray, p: int, hand: int, o: int) -> bool:
    """Whether the candidate at ``o`` can be laid now: every card held, and (when a face of it
    lies on the table) enough of them still usable (:func:`table.shortfall`)."""
    need = ca[nonneg(o + CA_NEED)]
    if absent(hand, need) != 0:
        return False
    on_table = cs[nonneg(CS_FACES + TM_STRIDE * p + TM_ONE)]
    return (need & on_table) == 0 or _layable(cs, ca, p, hand, o)


@jit
def random_meld(
    cs: np.ndarray,
    ca: np.ndarray,
    q: tuple,
    p: int,
    hand: int,
    trump: int,
    tricks_left: int,
    rs: np.ndarray,
) -> int:
    """``random``: a uniformly random layable meld, or none (-1), each as likely."""
    base = trump * CA_STRIDE
    n = ca[base + CA_COUNT]
    k = 0
    for i in range(n):
        o = base + CA_FIRST + CA_FIELDS * i
        k += _complete(cs, ca, p, hand, o)
    pick = below(rs, k + 1)
    for i in range(n):
        o = base + CA_FIRST + CA_FIELDS * i
        if _complete(cs, ca, p, hand, o):
            if pick == 0:
                return i
            pick -= 1
    return -1


@jit
def greedy_meld(
    cs: np.ndarray,
    ca: np.ndarray,
    q: tuple,
    p: int,
    hand: int,
    trump: int,
    tricks_left: int,
    rs: np.ndarray,
) -> int:
    """``greedy``: the most valuable layable meld, or the smaller meld inside it first while
    ``build_up_min`` stock tricks remain (-1 = none)."""
    base = trump * CA_STRIDE
    n = ca[nonneg(base + CA_COUNT)]
    best = -1
    for i in range(n):
        o = base + CA_FIRST + CA_FIELDS * i
        if _complete(cs, ca, p, hand, o):
            best = i
            break
    build = q[MELD_BUILD_UP] != 0
    if best < 0 or not build or tricks_left < q[MELD_BUILD_UP_MIN]:
        return best
    ob = base + CA_FIRST + CA_FIELDS * best
    for i in range(best + 1, n):  # the largest smaller meld of the same class inside it
        o = base + CA_FIRST + CA_FIELDS * i
        inside = (ca[nonneg(o + CA_NEED)] & ~ca[nonneg(ob + CA_NEED)]) == 0
        smaller = (
            ca[nonneg(o + CA_CLASS)] == ca[nonneg(ob + CA_CLASS)]
            and ca[nonneg(o + CA_VALUE)] < ca[nonneg(ob + CA_VALUE)]
            and inside
        )
        if smaller and _layable(cs, ca, p, hand, o) and _still_layable_after(cs, ca, p, ob, o):
            return i
    return best


@jit
def _still_layable_after(cs: np.ndarray, ca: np.ndarray, p: int, big: int, small: int) -> bool:
    """Whether the meld at ``big`` can still be laid after laying the smaller one at ``small``
    (inside it, same class): a concealed card of it must be left over, since every new meld needs
    one. The small meld uses table cards first (as
    :func:`pinochle_sim.engines.two_hand.table.lay`)."""
    cls = ca[nonneg(big + CA_CLASS)]
    hidden_big = 0
    m = ca[nonneg(big + CA_NEED)] & 0xFFFFFF
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        hidden_big += usable(cs, p, f, cls, ca[nonneg(big + CA_VALUE)])[1]
    hidden_used = 0
    need = ca[nonneg(small + CA_NEED)]
    m = need & 0xFFFFFF
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        want = 1 + ((need >> (24 + f)) & 1)
        n, hidden = usable(cs, p, f, cls, ca[nonneg(small + CA_VALUE)])
        hidden_used += max(0, want - (n - hidden))
    return hidden_big - max(hidden_used, 1) >= 1


@jit
def random_dix(q: tuple, up_face: int, rs: np.ndarray) -> tuple[bool, bool]:
    """``random``: show the dix with probability 1/2, exchange with probability 1/2."""
    return below(rs, 2) == 1, below(rs, 2) == 1


@jit
def greedy_dix(q: tuple, up_face: int, rs: np.ndarray) -> tuple[bool, bool]:
    """``greedy``: always show; exchange for a face-up trump above the 9 (``exchange``)."""
    return True, q[MELD_EXCHANGE] != 0 and rank_of(up_face) > 0


@jit
def _keep(f: int, trump: int, points: int, now: int, near: int, costs: tuple) -> int:
    """Keep value of face ``f`` times 8, plus its rank as a tie-break (lower rank = cheaper);
    ``costs`` = (trump_cost, meld_cost, near_cost), read once per decision."""
    v = face_points(points, f)
    if suit_of(f) == trump:
        v += costs[0]
    if (now >> f) & 1:
        v += costs[1]
    elif (near >> f) & 1:
        v += costs[2]
    return 8 * v + rank_of(f)


@jit
def _cheapest(mask: int, trump: int, points: int, now: int, near: int, costs: tuple) -> int:
    """The face of ``mask`` with the least :func:`_keep` value (of equal ones the lowest face);
    -1 for an empty ``mask``.

    When points rise with rank (:data:`~pinochle_sim.policies.play.RISING`, every preset), the
    keep value adds one constant to a card's points for each of six classes of cards (trump or
    not; breaking a meld now, one card short, or neither), so within a class the lowest rank is
    the cheapest (of the lowest suit holding it): six candidates instead of a scan of every
    card (:func:`_cheapest_scan`, the definition)."""
    if not (points >> RISING) & 1:
        return _cheapest_scan(mask, trump, points, now, near, costs)
    tmask = suit_mask(trump)
    best, best_key = -1, BIG
    for c in range(6):  # a fixed loop over the classes, unrolled
        meld = now if c < 2 else (near & ~now if c < 4 else ~(now | near))
        extra = costs[1] if c < 2 else (costs[2] if c < 4 else 0)
        trumps = (c & 1) == 1
        m = mask & meld & (tmask if trumps else ~tmask)
        r = lowest_bit_index(ranks_held(m) | 32)
        f = lowest_bit_index((m >> r) & RANK_ROW) + r
        v = ((points >> (10 * r)) & 1023) + extra + (costs[0] if trumps else 0)
        key = 8 * v + r
        better = m != 0 and (key < best_key or (key == best_key and f < best))
        best = f if better else best
        best_key = key if better else best_key
    return best


@jit
def _cheapest_scan(mask: int, trump: int, points: int, now: int, near: int, costs: tuple) -> int:
    """:func:`_cheapest` by scanning every face of ``mask``."""
    best, best_key = -1, BIG
    m = mask
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        k = _keep(f, trump, points, now, near, costs)
        if k < best_key:
            best, best_key = f, k
    return best


@jit
def random_stock(
    cs: np.ndarray,
    ca: np.ndarray,
    q: tuple,
    p: int,
    hand: int,
    led: int,
    played: int,
    trump: int,
    points: int,
    dix_value: int,
    has_dix: bool,
    rs: np.ndarray,
) -> int:
    """``random``: a uniformly random held card."""
    held = hand & 0xFFFFFF
    m = held
    for _ in range(below(rs, popcount(held))):
        m &= m - 1
    return lowest_bit_index(m)


@jit
def standard_stock(
    cs: np.ndarray,
    ca: np.ndarray,
    q: tuple,
    p: int,
    hand: int,
    led: int,
    played: int,
    trump: int,
    points: int,
    dix_value: int,
    has_dix: bool,
    rs: np.ndarray,
) -> int:
    """``standard``: keep values, win tricks worth points or the right to meld."""
    held = hand & 0xFFFFFF
    _, value, now, near = meld_outlook(cs, ca, p, hand, trump)
    costs = (q[STOCK_TRUMP_COST], q[STOCK_MELD_COST], q[STOCK_NEAR_COST])
    if has_dix:
        value += dix_value
        now |= 1 << (6 * trump)  # keep the unshown 9 of trump until it is shown
    wanted = value >= q[STOCK_WIN_MELD] and value > 0
    meld_gain = value * q[STOCK_MELD_WEIGHT] // 100 if wanted else 0
    if led < 0:
        if wanted:
            gone = (played >> 24) | (played & held)  # both copies accounted for
            unseen = 0xFFFFFF & ~(gone | (hand >> 24))
            trumps = held & suit_mask(trump)
            m = trumps
            while m:  # lowest trump nobody else can beat (a twin played second loses)
                f = lowest_bit_index(m)
                m &= m - 1
                if (higher_in_suit(f) & unseen) == 0 and ((now >> f) & 1) == 0:
                    return f
        return _cheapest(held, trump, points, now, near, costs)
    winners = held & beaters(led, trump)
    lose = _cheapest(held, trump, points, now, near, costs)
    if winners == 0:
        return lose
    win = _cheapest(winners, trump, points, now, near, costs)
    trick = face_points(points, led)
    keep_win = _keep(win, trump, points, now, near, costs) // 8
    keep_lose = _keep(lose, trump, points, now, near, costs) // 8
    value_win = trick + face_points(points, win) + meld_gain - keep_win
    value_lose = -trick - face_points(points, lose) - keep_lose
    return win if value_win >= value_lose else lose


# The hooks of the two-hand kinds: the registry (pinochle_sim.policies.registry) lists these
# policies' names, ids and parameters; their kernels, which read this engine's table state, are
# named here.


@policy_hook("meld", "choose", {"greedy": greedy_meld, "random": random_meld})
def choose_meld(
    bundle: PolicyBundle, policy: int, cs: np.ndarray, ca: np.ndarray, q: tuple, p: int,
    hand: int, trump: int, tricks_left: int, rs: np.ndarray,
) -> int:  # fmt: skip
    """Candidate index of the meld ``p`` (holding ``hand``) lays down now (-1 = none), with
    ``tricks_left`` stock tricks still to come; ``q``: the seat's meld parameters
    (:func:`meld_params`)."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook("meld", "dix", {"greedy": greedy_dix, "random": random_dix})
def choose_dix(
    bundle: PolicyBundle, policy: int, q: tuple, up_face: int, rs: np.ndarray
) -> tuple[bool, bool]:
    """(show the dix held?, exchange it for the face-up card?) for a winner holding one."""
    raise TypeError("a policy hook is called from jitted code only")


@policy_hook("stock", "play", {"standard": standard_stock, "random": random_stock})
def stock_play(
    bundle: PolicyBundle, policy: int, cs: np.ndarray, ca: np.ndarray, q: tuple, p: int,
    hand: int, led: int, played: int, trump: int, points: int, dix_value: int, has_dix: bool,
    rs: np.ndarray,
) -> int:  # fmt: skip
    """The face ``p`` plays to a stock-phase trick (``led`` = the face led, -1 when leading);
    ``played`` holds every card played so far (packed); ``q``: the seat's stock parameters
    (:func:`stock_params`)."""
    raise TypeError("a policy hook is called from jitted code only")
