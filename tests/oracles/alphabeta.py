"""A compiled, deliberately plain double-dummy reference for whole deals: alpha-beta and nothing
else (no transposition table, no equivalent cards, no bounds from the points left).

Written from RULES.md section 7 (and 9 for the two-hand play-out), sharing no code with
``pinochle_sim``: hands are copy counts, ``counts[seat, face]`` in 0..2 (face = suit * 6 + rank,
ranks 9 J Q K 10 A ascending), and a recursive search. It is compiled with numba only because
the pure-Python :mod:`tests.oracles.minimax` would take minutes per deal; the tests check it
against that minimax on small endgames first.
"""

from __future__ import annotations

import numba
import numpy as np

HEADS = ("always", "trump-led", "never")


@numba.njit(cache=False)
def _strength(f: int, led: int, trump: int) -> int:
    """Who takes the trick: any trump over the led suit, higher rank over lower; -1 never
    wins. Equal strength (identical cards) keeps the card played first (RULES.md 7)."""
    if f // 6 == trump:
        return 20 + f % 6
    if f // 6 == led:
        return 10 + f % 6
    return -1


@numba.njit(cache=False)
def _legal(counts, seat, trick, k, trump, follow, must_trump, head) -> int:
    """Distinct legal faces of ``seat`` as a mask (bit f = face f may be played)."""
    held = 0
    for f in range(24):
        if counts[seat, f] > 0:
            held |= 1 << f
    if k == 0:
        return held
    led = trick[0] // 6
    top = 0
    for i in range(1, k):
        if _strength(trick[i], led, trump) > _strength(trick[top], led, trump):
            top = i
    best = _strength(trick[top], led, trump)
    of_led = 0
    of_trump = 0
    for f in range(24):
        if (held >> f) & 1:
            if f // 6 == led:
                of_led |= 1 << f
            if f // 6 == trump:
                of_trump |= 1 << f
    # steps 1-3: follow suit, else trump, else anything
    if follow and of_led:
        allowed = of_led
    elif must_trump and of_trump:
        allowed = of_trump
    else:
        allowed = held
    # step 4: head the trick where the rules say so and some allowed card can
    if head == 0 or (head == 1 and led == trump):
        over = 0
        for f in range(24):
            if (allowed >> f) & 1 and _strength(f, led, trump) > best:
                over |= 1 << f
        if over:
            allowed = over
    return allowed


@numba.njit(
    "int64(int64[:, :], int64[:, :], int64[:, :], int64[:, :], int64, int64, int64, int64, int64,"
    " int64, int64, int64, int64[:], int64, int64, int64, int64, int64)",
    cache=False,
)
def _ab(counts, tricks, stats, orders, depth, k, leader, players, trump, follow, must_trump, head,
        points, last, side_mask, cards_left, alpha, beta):  # fmt: skip
    """Points the side (``side_mask``) takes from the current trick on; exact inside
    ``(alpha, beta)``, else a bound on the right side of the window (fail-hard). The current
    trick is row ``cards_left`` of ``tricks`` (one row per trick, so none overwrites another);
    row ``depth`` (cards played since the root) of ``orders`` holds this node's move order."""
    if cards_left == 0:
        return 0
    stats[0, 0] += 1  # nodes visited
    if k == 0:  # the side takes between 0 and every point still in play
        still = last
        for s in range(players):
            for f in range(24):
                still += counts[s, f] * points[f % 6]
        if still <= alpha:
            return alpha
        if beta <= 0:
            return beta
    trick = tricks[cards_left]
    seat = (leader + k) % players
    legal = _legal(counts, seat, trick, k, trump, follow, must_trump, head)
    maxing = (side_mask >> seat) & 1 == 1
    # Order (any order is exact; a good one is quicker): leading, aces first; following, a
    # seat whose side holds the trick plays low, otherwise it wins as cheaply as it can.
    order = orders[depth]
    n = 0
    for f in range(24):
        if (legal >> f) & 1:
            if k == 0:
                score = 100 * (f % 6)
            else:
                led = trick[0] // 6
                top = 0
                for i in range(1, k):
                    if _strength(trick[i], led, trump) > _strength(trick[top], led, trump):
                        top = i
                mine = ((side_mask >> ((leader + top) % players)) & 1 == 1) == maxing
                wins = _strength(f, led, trump) > _strength(trick[top], led, trump)
                if mine:
                    score = 10 * points[f % 6] - f % 6 - 1000 * wins
                elif wins:
                    score = 1000 - _strength(f, led, trump)
                else:
                    score = -10 * points[f % 6] - f % 6
            # insertion by score, best first
            i = n
            while i > 0 and order[i - 1] >> 8 < score:
                order[i] = order[i - 1]
                i -= 1
            order[i] = (score << 8) | f
            n += 1
    for j in range(n):
        f = order[j] & 0xFF
        counts[seat, f] -= 1
        trick[k] = f
        if k + 1 == players:
            led = trick[0] // 6
            top = 0
            pts = 0
            for i in range(players):
                pts += points[trick[i] % 6]
                if _strength(trick[i], led, trump) > _strength(trick[top], led, trump):
                    top = i
            if cards_left == 1:
                pts += last
            won_by = (leader + top) % players
            gained = pts if (side_mask >> won_by) & 1 else 0
            v = gained + _ab(counts, tricks, stats, orders, depth + 1, 0, won_by, players, trump,
                             follow, must_trump, head, points, last, side_mask, cards_left - 1,
                             alpha - gained, beta - gained)  # fmt: skip
        else:
            v = _ab(counts, tricks, stats, orders, depth + 1, k + 1, leader, players, trump,
                    follow, must_trump, head, points, last, side_mask, cards_left, alpha,
                    beta)  # fmt: skip
        trick[k] = -1
        counts[seat, f] += 1
        if maxing:
            if v >= beta:
                return beta
            if v > alpha:
                alpha = v
        else:
            if v <= alpha:
                return alpha
            if v < beta:
                beta = v
    return alpha if maxing else beta


def ab_value(
    hands: list[list[int]],
    leader: int,
    trick: list[int],
    trump: int,
    points: tuple[int, ...],
    last: int,
    head: str,
    side_seats: tuple[int, ...],
    follow: bool = True,
    must_trump: bool = True,
    window: tuple[int, int] = (-1, 1 << 40),
) -> int:
    """Value of a position: ``hands`` are face lists per seat (the cards still held),
    ``trick`` the faces already played to the current trick (the first by ``leader``).

    With a ``window`` ``(alpha, beta)`` the answer is exact only if strictly inside it, and
    otherwise ``alpha`` (the value is at most alpha) or ``beta`` (at least beta). A claimed value
    ``v`` is thus proven by ``window=(v - 1, v + 1)`` returning ``v``, much faster than a full
    search."""
    players = len(hands)
    counts = np.zeros((players, 24), dtype=np.int64)
    for s, h in enumerate(hands):
        for f in h:
            counts[s, f] += 1
    seat = (leader + len(trick)) % players
    cards_left = len(hands[seat])  # tricks left, the current one included
    t = np.full((cards_left + 1, 4), -1, dtype=np.int64)
    for i, f in enumerate(trick):
        t[cards_left, i] = f
    mask = sum(1 << s for s in side_seats)
    stats = np.zeros((1, 1), dtype=np.int64)
    orders = np.zeros((cards_left * players + 1, 24), dtype=np.int64)  # a row per depth
    return int(
        _ab(counts, t, stats, orders, 0, len(trick), leader, players, trump, int(follow),
            int(must_trump), HEADS.index(head), np.array(points, dtype=np.int64), last, mask,
            cards_left, window[0], window[1])
    )  # fmt: skip
