"""Decisions recorded from search, to train fast players on (``play=learned``).

:meth:`SearchRecorder.record_hand` plays one deal of ``(seed, hand)`` at the stepwise table
with ``pimc`` in every seat (the default bidding and passing) and, at each of its searched card
plays (from ``from_trick`` on, more than one legal card), records what the deciding seat knew
and what the search made of each legal card: the card's features
(:data:`~pinochle_sim.policies.learned.FEATURES`, from the seat's view only) and its value, the
side's points from the current trick on averaged over the sampled worlds. The hand goes on
with the card ``pimc`` plays, so the positions are those of ``pimc`` against itself.

:meth:`RolloutRecorder.record_hand` values the plays of a fast player another way: it plays
each legal card, then the rest of the hand with the real players, on the real deal (no seat
sees another's cards), and records what the side then takes and its score for the hand against
the other side's: each card's worth under the play that will actually follow it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pinochle_sim.agents.duplicate import deal_table
from pinochle_sim.agents.players import DECISIONS, PolicyPlayer, seat_view, view_args
from pinochle_sim.agents.stepwise import DONE, PLAY, Table, table_rules
from pinochle_sim.core.bits import lowest_bit_index
from pinochle_sim.core.jit import jit
from pinochle_sim.core.rng import STREAM_PLAY, stream_init
from pinochle_sim.policies import PolicySet
from pinochle_sim.policies.bundle import PolicyBundle
from pinochle_sim.policies.known import K_TRICK, W_SUMS
from pinochle_sim.policies.learned import (
    FEATURES,
    MAX_FEATURES,
    N_FEATURES,
    ROLES,
    all_features,
    decision_context,
)
from pinochle_sim.policies.pimc import best_total, world_sums
from pinochle_sim.policies.play import pack_points
from pinochle_sim.policies.view import PlayView
from pinochle_sim.rules.arrays import RA_POINTS

COLUMNS = ("hand", "decision", "seat", "trick", "card", "value", "pimc_pick", "counting_pick")
"""A record's columns before the features: the deal, the decision (cards already played),
the deciding seat, the trick (1 = the first), the card (face 0..23), its value (points from
this trick on, mean over the worlds), 1 for the card ``pimc`` played, 1 for ``counting``'s."""
STATE = ("held", "legal", "played", "on_table", "winner", "winner_seat", "bidder",
         "trump_suit", "caps", "led")  # fmt: skip
"""Then the seat's view, from which any feature can be worked out again without searching
(:func:`features_from_state`): its packed hand, legal faces, the cards played (packed), the
trick on the table (faces + 1 a byte), the winning card and its seat, the bidder, trump, what
each seat has shown (``caps``) and the led suit (-1 when leading); and ``n_played``, the
cards already in the trick."""
RECORD_COLUMNS = (*COLUMNS, *FEATURES, *STATE, "n_played")
"""Every column of the records, in order (each name once)."""


@jit
def _search_decision(
    bundle: PolicyBundle, ra: np.ndarray, ma: np.ndarray, seat: int, hand: int,
    shown: np.ndarray, bidder: int, trump: int, gave: int, returned: int, widow: int,
    laid: int, faces: np.ndarray, n_faces: int, first: int, hand_size: int, worlds: int,
    seed: int, key: int, feats: np.ndarray, sums: np.ndarray, state: np.ndarray,
) -> tuple[int, int, int]:  # fmt: skip
    """``pimc``'s decision for ``seat``: each legal card's total over ``worlds`` worlds in
    ``sums``, its features in row ``face`` of ``feats`` and the seat's view in ``state``
    (:data:`STATE`); returns (legal faces, the card ``pimc`` plays, the card ``counting``
    plays)."""
    view, work = seat_view(bundle, ra, ma, seat, hand, shown, bidder, trump, gave, returned,
                           widow, laid, faces, n_faces, first, hand_size)  # fmt: skip
    rs = np.empty(2, dtype=np.uint64)
    stream_init(rs, seed, key, STREAM_PLAY)
    world_sums(view, worlds, rs, work)
    for f in range(24):
        sums[f] = work[W_SUMS + f]
    pick = _describe(view, work, feats, state)
    return view.legal, best_total(view, sums), pick


@jit
def _view_decision(
    bundle: PolicyBundle, ra: np.ndarray, ma: np.ndarray, seat: int, hand: int,
    shown: np.ndarray, bidder: int, trump: int, gave: int, returned: int, widow: int,
    laid: int, faces: np.ndarray, n_faces: int, first: int, hand_size: int, feats: np.ndarray,
    state: np.ndarray,
) -> int:  # fmt: skip
    """The features of each legal card of ``seat`` (row ``face`` of ``feats``) and its view
    in ``state``, without searching; returns the legal faces."""
    view, work = seat_view(bundle, ra, ma, seat, hand, shown, bidder, trump, gave, returned,
                           widow, laid, faces, n_faces, first, hand_size)  # fmt: skip
    _describe(view, work, feats, state)
    return view.legal


@jit
def _describe(view: PlayView, work: np.ndarray, feats: np.ndarray, state: np.ndarray) -> int:
    """Each legal card's features to row ``face`` of ``feats``, the view to ``state``
    (:data:`STATE`); returns the card ``counting`` plays."""
    ctx = decision_context(view)
    m = view.legal & 0xFFFFFF
    while m:
        f = lowest_bit_index(m)
        m &= m - 1
        all_features(view, f, ctx, feats[f])
    state[0] = view.hand
    state[1] = view.legal
    state[2] = view.played
    state[3] = work[K_TRICK]
    state[4] = view.winner
    state[5] = view.winner_seat
    state[6] = view.bidder
    state[7] = view.trump
    state[8] = view.caps
    state[9] = view.led
    return ctx[0]


@jit
def _features_from_state(
    state: np.ndarray, seat: int, n_played: int, players: int, partners: bool, points: int,
    card: int, out: np.ndarray,
) -> None:  # fmt: skip
    v = PlayView(state[0], state[1], state[2], n_played, state[4], state[5], seat, state[6],
                 state[7], players, partners, points, state[8], state[9], 0)  # fmt: skip
    all_features(v, card, decision_context(v), out)


def features_from_state(row: dict, rules: str) -> np.ndarray:
    """The :data:`~pinochle_sim.policies.learned.FEATURES` of a recorded row (its
    :data:`STATE` columns, seat, ``n_played`` and card), worked out again."""
    return features_from_states(pd.DataFrame([row]), rules)[0]


def features_from_states(frame: pd.DataFrame, rules: str) -> np.ndarray:
    """:func:`features_from_state` for every row of ``frame`` (a row per row): the features of
    a model newer than the data, for instance, worked out from what the seat knew."""
    tr = table_rules(rules)
    points = pack_points(tr.ra[RA_POINTS : RA_POINTS + 6])
    state = frame[list(STATE)].to_numpy(dtype=np.int64)
    seats = frame["seat"].to_numpy(dtype=np.int64)
    ks = frame["n_played"].to_numpy(dtype=np.int64)
    cards = frame["card"].to_numpy(dtype=np.int64)
    out = np.zeros((len(frame), MAX_FEATURES), dtype=np.int64)
    _features_of_rows(state, seats, ks, cards, tr.players, tr.partners, points, out)
    return out[:, :N_FEATURES]


@jit
def _features_of_rows(
    state: np.ndarray, seats: np.ndarray, ks: np.ndarray, cards: np.ndarray, players: int,
    partners: bool, points: int, out: np.ndarray,
) -> None:  # fmt: skip
    for r in range(state.shape[0]):
        _features_from_state(state[r], seats[r], ks[r], players, partners, points, cards[r],
                             out[r])  # fmt: skip


class SearchRecorder:
    """Plays deals with ``pimc`` (``worlds``, ``from_trick``) in every seat and records its
    searched decisions (:meth:`record_hand`). With ``follow`` (a policy set), every seat
    plays that policy's cards instead, while ``pimc`` still values each searched decision: the
    positions are then those the fast player meets (training on them corrects its own
    mistakes, as DAgger does)."""

    def __init__(
        self, rules: str, worlds: int, from_trick: int, seed: int,
        follow: PolicySet | None = None,
    ) -> None:  # fmt: skip
        self.rules = rules
        self.worlds = worlds
        self.from_trick = from_trick
        self.seed = seed
        params = (("play.worlds", worlds), ("play.from_trick", from_trick))
        self.player = PolicyPlayer(PolicySet(play="pimc", params=params), seed=seed)
        self.follow = PolicyPlayer(follow, seed=seed) if follow is not None else None
        self._feats = np.zeros((24, MAX_FEATURES), dtype=np.int64)
        self._sums = np.zeros(24, dtype=np.int64)
        self._state = np.zeros(len(STATE), dtype=np.int64)

    def record_hand(self, hand: int) -> dict[str, list[int | float]]:
        """Play deal ``hand`` of the recorder's seed; returns its records, column by column
        (:data:`RECORD_COLUMNS`). The hand goes on with ``pimc``'s card, or ``follow``'s."""
        out: dict[str, list[int | float]] = {c: [] for c in RECORD_COLUMNS}
        t = deal_table(self.rules, self.seed, hand)
        while t.phase != DONE:
            seat = t.current_player()
            searched = t.phase == PLAY and self._searched(t, seat)
            if searched:
                action = self._record(t, seat, hand, out)
            if self.follow is not None:
                action = self.follow.decide(t, seat, hand)
            elif not searched:
                action = self.player.decide(t, seat, hand)
            t.apply(action)
        return out

    def _searched(self, t: Table, seat: int) -> bool:
        """Whether ``pimc`` searches this play (the table holds the trick under way last)."""
        return len(t.tricks) >= self.from_trick and len(t.legal_actions()) > 1

    def _record(self, t: Table, seat: int, hand: int, out: dict) -> int:
        tr = t.tr
        p = self.player
        n = sum(len(c) for _, c in t.tricks)
        key = hand * DECISIONS + len(t.calls) + n
        legal, chosen, pick = _search_decision(
            p.bundle, tr.ra, tr.ma, seat, *view_args(t, seat), self.worlds, p.seed, key,
            self._feats, self._sums, self._state,
        )  # fmt: skip
        trick = len(t.tricks)
        for f in range(24):
            if not (legal >> f) & 1:
                continue
            row = (hand, n, seat, trick, f, self._sums[f] / self.worlds, f == chosen, f == pick)
            for c, x in zip(COLUMNS, row, strict=True):
                out[c].append(x)
            for i, name in enumerate(FEATURES):
                out[name].append(int(self._feats[f, i]))
            for i, name in enumerate(STATE):
                out[name].append(int(self._state[i]))
            out["n_played"].append(len(t.tricks[-1][1]))
        return int(chosen)


ROLLOUT_COLUMNS = ("hand", "decision", "seat", "trick", "card", "value", "score", "chosen")
"""A rollout record's columns before the features: as :data:`COLUMNS`, with ``value`` the side's
trick points from this trick on (its cards on the table included) when the card is played and
the hand played out, ``score`` the side's score for the hand minus the other side's, and
``chosen`` 1 for the card the recorded side plays."""
ROLLOUT_RECORD_COLUMNS = (*ROLLOUT_COLUMNS, *FEATURES, *STATE, "n_played")


class RolloutRecorder:
    """Plays deals of a four-hand partnership preset with ``team`` (a policy set) on one side
    and ``against`` on the other, and at each of the team's card plays (from ``from_trick`` on,
    of the ``roles`` asked for: ``lead``, ``follow``; more than one legal card) plays every
    legal card and then the rest of the hand with the same players: each card's worth under
    the play that really follows it, on the real deal (no sampled worlds; no seat sees another's
    cards). Each deal is played twice, the team on each side in turn; the hand goes on with the
    team's own card, so the positions are those the team meets."""

    def __init__(
        self, rules: str, team: PolicySet, against: PolicySet, from_trick: int,
        roles: tuple[str, ...], seed: int,
    ) -> None:  # fmt: skip
        tr = table_rules(rules)
        if not tr.partners:
            raise ValueError(f"rollouts need a four-hand partnership preset, not {rules!r}")
        if not roles or set(roles) - set(ROLES):
            raise ValueError(f"roles are {', '.join(ROLES)}; got {', '.join(roles) or 'none'}")
        self.rules = rules
        self.roles = tuple(roles)
        self.from_trick = from_trick
        self.seed = seed
        self.team = PolicyPlayer(team, seed=seed)
        self.against = PolicyPlayer(against, seed=seed)
        self._feats = np.zeros((24, MAX_FEATURES), dtype=np.int64)
        self._state = np.zeros(len(STATE), dtype=np.int64)

    def record_hand(self, hand: int) -> dict[str, list[int | float]]:
        """Play deal ``hand`` of the recorder's seed twice (the team as side 0, then side 1);
        returns the records, column by column (:data:`ROLLOUT_RECORD_COLUMNS`)."""
        out: dict[str, list[int | float]] = {c: [] for c in ROLLOUT_RECORD_COLUMNS}
        for side in (0, 1):
            t = deal_table(self.rules, self.seed, hand)
            while t.phase != DONE:
                seat = t.current_player()
                action = self._player(t, seat, side).decide(t, seat, hand)
                if t.phase == PLAY and t.tr.side(seat) == side and self._recorded(t):
                    self._record(t, seat, side, hand, action, out)
                t.apply(action)
        return out

    def _player(self, t: Table, seat: int, side: int) -> PolicyPlayer:
        return self.team if t.tr.side(seat) == side else self.against

    def _recorded(self, t: Table) -> bool:
        role = "lead" if not t.tricks[-1][1] else "follow"
        return (
            len(t.tricks) >= self.from_trick and role in self.roles and len(t.legal_actions()) > 1
        )

    def _record(
        self, t: Table, seat: int, side: int, hand: int, chosen: int, out: dict
    ) -> None:  # fmt: skip
        tr = t.tr
        legal = _view_decision(
            self.team.bundle, tr.ra, tr.ma, seat, *view_args(t, seat), self._feats, self._state
        )
        n = sum(len(c) for _, c in t.tricks)
        before = t.trick_points[side]
        for f in range(24):
            if not (legal >> f) & 1:
                continue
            after = t.copy()
            after.apply(f)
            while after.phase != DONE:
                s = after.current_player()
                after.apply(self._player(after, s, side).decide(after, s, hand))
            value = after.trick_points[side] - before
            score = after.scores[side] - after.scores[1 - side]
            row = (hand, n, seat, len(t.tricks), f, value, score, f == chosen)
            for c, x in zip(ROLLOUT_COLUMNS, row, strict=True):
                out[c].append(int(x))
            for i, name in enumerate(FEATURES):
                out[name].append(int(self._feats[f, i]))
            for i, name in enumerate(STATE):
                out[name].append(int(self._state[i]))
            out["n_played"].append(len(t.tricks[-1][1]))


__all__ = [
    "COLUMNS",
    "N_FEATURES",
    "RECORD_COLUMNS",
    "ROLLOUT_COLUMNS",
    "ROLLOUT_RECORD_COLUMNS",
    "STATE",
    "RolloutRecorder",
    "SearchRecorder",
    "features_from_state",
    "features_from_states",
]
