"""Worlds a seat cannot tell from the real one, for search players that sample the hidden cards
(OpenSpiel's IS-MCTS): the hand where it stands, with the cards the seat has not seen dealt
again at random.

Only what is hidden is redrawn: the other seats' cards now (and a widow nobody has seen yet),
never the history. Each other seat keeps the cards the seat knows it holds (its shown meld not
yet played, the cards the seat passed it) and is never dealt a suit it has shown it lacks (it
did not follow suit; it did not trump a suit it could not follow, where trumping is required).
The calls, the pass, the discards and every seat's meld stay as they were: the seat knows the
melds, and the scores of the world are counted with them. This is the usual determinisation of
perfect-information Monte Carlo and of IS-MCTS (a card played does not make other holdings more
or less likely, and a shown meld says only that its cards are held); the seat's information
state is the same in every world by construction.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from pinochle_sim.agents.stepwise import DEAL, RETURN, Table
from pinochle_sim.core.cards import encode_faces, hand_faces
from pinochle_sim.rules.arrays import RA_FOLLOW, RA_TRUMP


def _voids(t: Table) -> list[set[int]]:
    """The suits each seat has shown it lacks (docs/rules.md 5)."""
    p = t.tr.players
    out: list[set[int]] = [set() for _ in range(p)]
    follow = t.tr.ra[RA_FOLLOW] != 0
    must_trump = t.tr.ra[RA_TRUMP] != 0
    for leader, cards in t.tricks:
        if not cards:
            continue
        led = cards[0] // 6
        for i, f in enumerate(cards[1:], start=1):
            seat = (leader + i) % p
            if follow and f // 6 != led:
                out[seat].add(led)
                if must_trump and f // 6 != t.trump:
                    out[seat].add(t.trump)
    return out


def sample_world(t: Table, seat: int, rng: np.random.Generator, tries: int = 200) -> Table:
    """A copy of ``t`` with the cards ``seat`` has not seen dealt again (see the module
    docstring). Where the voids leave no deal after ``tries`` draws, the last draw ignores them
    (the information state is still the seat's)."""
    if t.phase == DEAL:
        raise ValueError("the cards are still being dealt: nothing hidden to sample yet")
    p = t.tr.players
    played = [Counter() for _ in range(p)]
    for leader, cards in t.tricks:
        for i, f in enumerate(cards):
            played[(leader + i) % p][f] += 1
    must = [Counter() for _ in range(p)]
    for s in range(p):
        if s != seat and t.meld_cards:
            must[s] = Counter(t.meld_cards[s]) - played[s]
    near = t.tr.partners and t.bidder >= 0 and seat in (t.bidder, (t.bidder + 2) % 4)
    if near and t.phase > RETURN:  # the cards this seat passed that its partner still holds
        mate = (t.bidder + 2) % 4 if seat == t.bidder else t.bidder
        mine = t.returned if seat == t.bidder else t.given
        back = t.given if seat == t.bidder else t.returned
        must[mate] |= (Counter(mine) - Counter(back)) - played[mate]
    seen = Counter(hand_faces(t.hands[seat]))
    for s in range(p):
        seen += played[s]
    if seat == t.bidder and t.tr.widow and t.trump >= 0:
        seen += Counter(t.discards)
    pool = Counter({f: 2 for f in range(24)}) - seen
    for s in range(p):
        if s != seat:
            must[s] = must[s] & pool  # never more than is left
            pool -= must[s]
    sizes = [len(hand_faces(t.hands[s])) for s in range(p)]
    voids = _voids(t)
    cards = list(pool.elements())
    hands: list[list[int]] = []
    for attempt in range(tries):
        order = [cards[i] for i in rng.permutation(len(cards))]
        hands = _deal(order, must, sizes, seat, voids if attempt < tries - 1 else None)
        if hands:
            break
    world = t.copy()
    used = Counter()
    for s in range(p):
        if s != seat:
            world.hands[s] = encode_faces(hands[s])
            used += Counter(hands[s])
    if t.tr.widow and t.trump < 0:  # the widow is not taken yet: nobody has seen it
        world.widow = encode_faces(list((Counter(cards) - used).elements()))
    return world


def _deal(
    order: list[int], must: list[Counter], sizes: list[int], seat: int,
    voids: list[set[int]] | None,
) -> list[list[int]]:  # fmt: skip
    """Each other seat's cards: its known ones, then cards of ``order`` it may hold, in turn;
    empty when the voids leave a seat short."""
    p = len(sizes)
    hands = [list(must[s].elements()) if s != seat else [] for s in range(p)]
    rest = list(order)
    for s in range(p):
        if s == seat:
            continue
        need = sizes[s] - len(hands[s])
        ok = [i for i, f in enumerate(rest) if voids is None or f // 6 not in voids[s]]
        if len(ok) < need:
            return []
        take = set(ok[:need])
        hands[s] += [rest[i] for i in sorted(take)]
        rest = [f for i, f in enumerate(rest) if i not in take]
    return hands


__all__ = ["sample_world"]
