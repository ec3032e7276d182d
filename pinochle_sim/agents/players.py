"""Our policies, one decision at a time: what a seat's policy set does at a state of a
stepwise hand (:mod:`.stepwise`), so that the simulator's players can sit at an OpenSpiel or
PettingZoo table beside other agents.

Each decision calls the policy kernels the engine calls (the same hooks, compiled for the
player's bundle), from what the seat knows: its cards, the calls, the contract, the pass it
took part in, the widow if it is the bidder, the public meld and the cards played. The auction
follows the engine's rule for a seat's limit and jump (:func:`~pinochle_sim.engines.auction.
bidding.next_call`); the trick loop's bookkeeping (what the table knows, what each seat has
shown) is replayed card by card as the engine keeps it. Randomised policies draw from a stream
of their own per decision (keyed by the player's seed, the hand and the decision), so a
player's choices are reproducible, though not the engine's draws for a whole hand.
"""

from __future__ import annotations

import numpy as np

from pinochle_sim.agents.stepwise import (
    AUCTION,
    CONCEDE,
    CONCEDE_ACTION,
    DISCARD,
    GIVE,
    PASS_ACTION,
    PLAY,
    PLAY_ON_ACTION,
    RETURN,
    TRUMP,
    TRUMP_ACTION,
    Table,
    bid_action,
)
from pinochle_sim.core.cards import encode_faces, hand_faces
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import STREAM_DISCARD, STREAM_PASS, STREAM_PLAY, stream_init
from pinochle_sim.core.tricks import PLANE, add_card, beaters, legal_mask
from pinochle_sim.engines import engine_for
from pinochle_sim.engines.auction.bidding import JUMP_CAP, next_call
from pinochle_sim.policies import PolicySet, seat_policy_array
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.dispatch import (
    CAPS_NONE,
    bid_jump,
    bid_limit,
    bidder_returns,
    concedes,
    discards,
    keep_table,
    learn_if,
    partner_gives,
    play_card,
    play_params,
    reads_table,
    table_notes,
    work_array,
)
from pinochle_sim.policies.known import K_COUNT, K_LEADER, K_TRICK
from pinochle_sim.policies.play import pack_points
from pinochle_sim.policies.slots import PP_BID, PP_CONCEDE, PP_DISCARD, PP_PASS, PP_PLAY
from pinochle_sim.policies.view import PlayView, pack_trick_rules
from pinochle_sim.rules import Ruleset
from pinochle_sim.rules.arrays import (
    RA_DISCARD,
    RA_FOLLOW,
    RA_HEAD,
    RA_LAST,
    RA_PARTNERS,
    RA_PASS,
    RA_PLAYERS,
    RA_POINTS,
    RA_TRUMP,
)
from pinochle_sim.rules.meld import melds_by_trump

DECISIONS = 512
"""Decisions a hand may hold: a decision's stream is keyed by ``hand * DECISIONS + k``."""


@jit
def _limit(
    bundle: PolicyBundle, ra: np.ndarray, ma: np.ndarray, pp: np.ndarray, seat: int,
    hand: int, position: int,
) -> tuple[int, int, int]:  # fmt: skip
    """(limit, trump, jump) of a seat's dealt hand, as the engine values it."""
    melds = np.empty(4, dtype=np.int64)
    melds[0], melds[1], melds[2], melds[3] = melds_by_trump(hand, ma)
    limit, trump = bid_limit(bundle, pp[seat, PP_BID], hand, melds, position, ra, pp[seat])
    jump = min(bid_jump(bundle, pp[seat, PP_BID], pp[seat]), JUMP_CAP)
    return limit, trump, jump


@jit
def _exchange(
    bundle: PolicyBundle, ma: np.ndarray, pp: np.ndarray, kind: int, seat: int, hand: int,
    k: int, trump: int, seed: int, key: int,
) -> int:  # fmt: skip
    """The packed cards a seat passes (kind 0: the partner gives, 1: the bidder returns) or
    discards (kind 2)."""
    rs = np.empty(2, dtype=np.uint64)
    if kind == 0:
        stream_init(rs, seed, key, STREAM_PASS)
        return partner_gives(bundle, pp[seat, PP_PASS], hand, k, trump, pp[seat], rs)
    if kind == 1:
        stream_init(rs, seed, key, STREAM_PASS)
        return bidder_returns(bundle, pp[seat, PP_PASS], hand, k, trump, ma, pp[seat], rs)
    stream_init(rs, seed, key, STREAM_DISCARD)
    return discards(bundle, pp[seat, PP_DISCARD], hand, k, trump, ma, pp[seat], rs)


@jit
def _concede(bundle: PolicyBundle, pp: np.ndarray, seat: int) -> bool:
    return concedes(bundle, pp[seat, PP_CONCEDE], pp[seat])


@jit
def seat_view(
    bundle: PolicyBundle, ra: np.ndarray, ma: np.ndarray, seat: int, hand: int,
    shown: np.ndarray, bidder: int, trump: int, gave: int, returned: int, widow: int,
    laid: int, faces: np.ndarray, n_faces: int, first: int, hand_size: int,
) -> tuple[PlayView, np.ndarray]:  # fmt: skip
    """What ``seat`` (holding ``hand``) sees when it plays after the ``n_faces`` cards
    ``faces`` of the hand (``first`` led the first trick): its view and the work array with
    what the table knows, the trick loop's bookkeeping replayed as
    :func:`pinochle_sim.engines.trickplay.play_tricks` keeps it. ``shown`` holds each seat's
    public meld cards at the first lead (the table's setup needs nothing else of the others'
    hands); the pass and the widow are what the seat saw."""
    players = ra[RA_PLAYERS]
    partners = ra[RA_PARTNERS] != 0
    head = ra[RA_HEAD]
    points = pack_points(ra[RA_POINTS : RA_POINTS + 6])
    rules = pack_trick_rules(ra[RA_FOLLOW], ra[RA_TRUMP], head, ra[RA_LAST])
    work = work_array(bundle)
    table = reads_table(bundle)
    if table:
        keep_table(bundle, work, shown, bidder, trump, ra, ma, gave, returned, widow, laid)
        for s in range(players):  # the others' hands are unknown, their size is not
            work[K_COUNT + s] = hand_size
    caps = CAPS_NONE
    played = 0
    leader = first
    led = -1
    winner = -1
    winner_seat = -1
    on_table = 0
    k = 0
    for i in range(n_faces):
        f = faces[i]
        s = (leader + k) % players
        if table:
            table_notes(bundle, work, s, f, players)
            if k < 3:
                on_table |= (f + 1) << (8 * k)
        played = add_card(played, f)
        if k == 0:
            led = f // 6
            winner = f
            winner_seat = s
        else:
            caps = learn_if(bundle, caps, s, f, led, winner, trump, head)
            if (beaters(winner, trump) >> f) & 1:
                winner = f
                winner_seat = s
        k += 1
        if k == players:  # the trick is over: its winner leads the next
            leader = winner_seat
            k = 0
            led = -1
            winner = -1
            winner_seat = -1
            on_table = 0
    legal = legal_mask(hand & PLANE, led, winner, trump, ra[RA_FOLLOW] != 0, ra[RA_TRUMP] != 0,
                       head)  # fmt: skip
    view = PlayView(hand, legal, played, k, winner, winner_seat, seat, bidder, trump, players,
                    partners, points, caps, led, rules)  # fmt: skip
    if table:
        work[K_LEADER] = leader
        work[K_TRICK] = on_table
    return view, work


@jit
def _card(
    bundle: PolicyBundle, ra: np.ndarray, ma: np.ndarray, pp: np.ndarray, seat: int,
    hand: int, shown: np.ndarray, bidder: int, trump: int, gave: int, returned: int,
    widow: int, laid: int, faces: np.ndarray, n_faces: int, first: int, hand_size: int,
    seed: int, key: int,
) -> int:  # fmt: skip
    """The card ``seat`` plays (see :func:`seat_view`) under its play policy, its random
    stream keyed by ``seed`` and ``key``."""
    view, work = seat_view(bundle, ra, ma, seat, hand, shown, bidder, trump, gave, returned,
                           widow, laid, faces, n_faces, first, hand_size)  # fmt: skip
    rs = np.empty(2, dtype=np.uint64)
    stream_init(rs, seed, key, STREAM_PLAY)
    return play_card(bundle, pp[seat, PP_PLAY], view, play_params(pp, seat), rs, work)


class PolicyPlayer:
    """A policy set as a player at a :class:`~.stepwise.Table`: :meth:`decide` gives the
    action of ``seat`` at the table's current state. ``seed`` and ``hand`` key the streams of
    randomised policies."""

    def __init__(self, policies: PolicySet | None = None, seed: int = 0) -> None:
        self.policies = policies or PolicySet()
        self.seed = seed
        self.pp = np.ascontiguousarray(seat_policy_array(self.policies))
        self.bundle = PolicyBundle.from_array(self.pp)
        self._checked: set[Ruleset] = set()

    def decide(self, t: Table, seat: int, hand: int = 0) -> int:
        tr = t.tr
        if tr.rules not in self._checked:  # what the engine refuses, the table refuses too
            engine_for(tr.rules).check_policies(tr.rules, self.policies)
            self._checked.add(tr.rules)
        key = hand * DECISIONS + len(t.calls) + sum(len(c) for _, c in t.tricks)
        if t.phase in (AUCTION, TRUMP):
            position = (seat - t.dealer) % tr.players
            limit, trump, jump = _limit(self.bundle, tr.ra, tr.ma, self.pp, seat,
                                        t.dealt[seat], position)  # fmt: skip
            if t.phase == TRUMP:
                return TRUMP_ACTION + int(trump)
            call = next_call(t.bid, limit, jump, tr.min_bid, min(tr.steps), max(tr.steps))
            return PASS_ACTION if call < 0 or call > tr.max_bid else bid_action(tr, call)
        if t.phase in (GIVE, RETURN, DISCARD):
            done = {GIVE: t.given, RETURN: t.returned, DISCARD: t.discards}[t.phase]
            before = encode_faces(hand_faces(t.hands[seat]) + done)  # the hand when the phase began
            kind = {GIVE: 0, RETURN: 1, DISCARD: 2}[t.phase]
            n = tr.ra[RA_DISCARD] if t.phase == DISCARD else tr.ra[RA_PASS]
            chosen = _exchange(self.bundle, tr.ma, self.pp, kind, seat, before, int(n),
                               t.trump, self.seed, hand * DECISIONS + kind)  # fmt: skip
            left = hand_faces(chosen)
            for f in done:
                left.remove(f)
            return left[0]
        if t.phase == CONCEDE:
            return CONCEDE_ACTION if _concede(self.bundle, self.pp, seat) else PLAY_ON_ACTION
        if t.phase == PLAY:
            return self._card(t, seat, key)
        raise ValueError(f"seat {seat} has no decision in this phase")

    def _card(self, t: Table, seat: int, key: int) -> int:
        tr = t.tr
        return int(_card(self.bundle, tr.ra, tr.ma, self.pp, seat, *view_args(t, seat),
                         self.seed, key))  # fmt: skip


def view_args(t: Table, seat: int) -> tuple:
    """What :func:`seat_view` takes after ``(bundle, ra, ma, seat)`` for ``seat`` about to play
    at table ``t``: its hand, the shown meld, the contract, the pass and widow as that seat
    saw them, and the cards played so far."""
    tr = t.tr
    shown = np.zeros(4, dtype=np.int64)
    for s in range(tr.players):
        shown[s] = encode_faces(t.meld_cards[s])
    near = tr.partners and seat in (t.bidder, (t.bidder + 2) % 4)
    gave = encode_faces(t.given) if near else 0
    returned = encode_faces(t.returned) if near else 0
    mine = seat == t.bidder
    widow = t.widow if mine and tr.widow else 0
    laid = encode_faces(t.discards) if mine else 0
    faces = np.array([f for _, c in t.tricks for f in c] or [0], dtype=np.int64)
    n = sum(len(c) for _, c in t.tricks)
    return (t.hands[seat], shown, t.bidder, t.trump, gave, returned, widow, laid, faces, n,
            t.tricks[0][0], tr.hand_size)  # fmt: skip


__all__ = ["DECISIONS", "PolicyPlayer", "seat_view", "view_args"]
