"""Deciding a node of the search without looking at its moves (:func:`_settle`): bounds on the
points still to take, a trick already decided, the last trick played out, or the table; and the
move to try first where the node stays open."""

from __future__ import annotations

import numpy as np

from pinochle_sim.core.bits import nonneg
from pinochle_sim.core.jit import jit
from pinochle_sim.solver.context import (
    _last_trick,
    _side,
    _sure_lead,
    _sure_trumps,
    _trick_owner,
)
from pinochle_sim.solver.moves import (
    _recall,
    _trick_code,
)
from pinochle_sim.solver.transposition import (
    TABLE_MIN_LEFT,
    _make_key,
    _real_face,
    _tt_find,
)
from pinochle_sim.solver.workspace import (
    BOUND_MASK,
    E_DATA,
    F_KEY,
    F_WIDTH,
    STACK,
)

OPEN = -1
"""What :func:`_settle` returns for a node it cannot decide without searching."""


@jit(inline="always")
def _settle(
    tt: np.ndarray, d: int, seat: int, k: int, led: int, wf: int, ws: int, tp: int, left: int,
    rem: int, need: int,
) -> tuple[int, int]:  # fmt: skip
    """Decide a node of the search without looking at its moves if possible: ``(v, hint)``,
    ``v`` a fail-soft value (see :func:`_search`) or :data:`OPEN`, ``hint`` the move to try
    first (-1: none): the reply memory's (:func:`.moves._recall`), else the table's. From
    bounds (points left, sure points, a trick already settled), the last trick played out, or
    the table (whose key it leaves in frame ``d``)."""
    if need <= 0:
        return 0, -1
    if need > tp + rem:
        return tp + rem, -1
    if k > 0:
        owner = _trick_owner(tt, seat, k, led, wf, ws)
        if owner == 1 and need <= tp:
            return tp, -1
        if owner == 0 and need > rem:
            return rem, -1
        return OPEN, _recall(tt, seat, left, _trick_code(k, led, wf, ws))
    if left == 1:
        return _last_trick(tt, seat), -1
    hint = -1
    if left >= TABLE_MIN_LEFT:  # the table first: it settles most nodes that get this far
        ko = STACK + d * F_WIDTH + F_KEY
        _make_key(tt, ko, seat)
        e = _tt_find(tt, ko)
        if e >= 0:
            data = tt[nonneg(e + E_DATA)]
            if data & BOUND_MASK >= need:
                return data & BOUND_MASK, -1
            if (data >> 16) & BOUND_MASK < need:
                return (data >> 16) & BOUND_MASK, -1
            best = (data >> 32) & 0xFF
            if best:
                hint = _real_face(tt, best - 1)
    gain, lost = _sure_trumps(tt)
    if _side(tt, seat):
        gain += _sure_lead(tt, seat)
    else:
        lost += _sure_lead(tt, seat)
    if need <= gain:
        return gain, -1
    if need > rem - lost:
        return rem - lost, -1
    reply = _recall(tt, seat, left, 0)  # the last reply here beats the table's move
    return OPEN, reply if reply >= 0 else hint
