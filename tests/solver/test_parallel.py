"""The jitted API from inside a ``prange`` loop, as an engine calls it: each chunk of
positions solves with its own row of :func:`new_tables`, small ones (2**8 buckets, so entries
are replaced all the time), and every value equals the alpha-beta oracle's
(tests/oracles/alphabeta.py, no table, no equivalent cards)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import prange

from pinochle_sim.core.jit import pjit
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver import Position
from pinochle_sim.solver.driver import dd_solve
from pinochle_sim.solver.workspace import H_NODES, new_tables, pack_trick
from tests.solver.test_deals import proven


@pjit
def _solve_all(args: np.ndarray, ra: np.ndarray, tts: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = the value of position ``args[i]`` (h0..h3, leader, trick, trump, side
    mask); chunk ``c`` of the positions uses work array ``tts[c]``."""
    n = args.shape[0]
    chunks = tts.shape[0]
    for c in prange(chunks):
        tt = tts[c]
        for i in range(c, n, chunks):
            a = args[i]
            out[i] = dd_solve(a[0], a[1], a[2], a[3], a[4], a[5], a[6], ra, a[7], tt)


def deal_positions(preset: str, hands: range, left: int) -> list[tuple[Position, int]]:
    out = []
    for hand in hands:
        play = trick_play(0, hand, PRESETS[preset])
        if len(play.tricks) < play.start.tricks_left:  # conceded
            continue
        side = play.bidder if play.bidder is not None else play.start.leader
        for t in range(play.start.tricks_left - left, play.start.tricks_left - left + 3):
            out.append((position_after(play, t), side))
    return out


@pytest.mark.parametrize("preset", ["partnership", "three-hand", "two-hand"])
def test_prange_with_small_tables_matches_alphabeta(preset: str) -> None:
    ps = deal_positions(preset, range(8), left=5)
    args = np.array(
        [
            [*[*p.hands, 0, 0, 0][:4], p.leader, pack_trick(p.trick), p.trump,
             sum(1 << s for s in p.side_seats(side))]
            for p, side in ps
        ],
        dtype=np.int64,
    )  # fmt: skip
    tts = new_tables(3, bits=8)
    out = np.full(len(ps), -1, dtype=np.int64)
    _solve_all(args, rule_array(PRESETS[preset]), tts, out)
    assert all(int(tts[c, H_NODES]) > 0 for c in range(3))  # every row did work
    for (p, side), v in zip(ps, out, strict=True):
        assert proven(p, p.side_seats(side), int(v)) == v, (preset, p)


def test_new_tables_rows_are_separate_work_arrays() -> None:
    tts = new_tables(2, bits=4)
    assert tts.shape[0] == 2 and tts.flags.c_contiguous
    with pytest.raises(ValueError, match="at least one"):
        new_tables(0)
