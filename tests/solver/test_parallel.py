"""The jitted API from inside a ``prange`` loop, as an engine calls it: each chunk of
positions solves with its own row of :func:`new_tables`, small ones (2**8 buckets, so entries
are replaced all the time), and every value equals the alpha-beta oracle's
(tests/oracles/alphabeta.py, no table, no equivalent cards)."""

from __future__ import annotations

import threading
import time

import numba
import numpy as np
import pytest
from numba import prange

from pinochle_sim.core.jit import pjit
from pinochle_sim.rules import PRESETS
from pinochle_sim.rules.arrays import rule_array
from pinochle_sim.runs.inspect.solve import position_after, trick_play
from pinochle_sim.solver import Position, batch
from pinochle_sim.solver.batch import solve_block, solve_positions
from pinochle_sim.solver.driver import dd_solve
from pinochle_sim.solver.workspace import H_NODES, H_STOP, new_table, new_tables, pack_trick
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


def _batch(preset: str, hands: range, left: int) -> tuple[np.ndarray, ...]:
    """(hands, leader, trick, trump, side) arrays of :func:`deal_positions`, for
    ``solve_positions`` and ``solve_block``."""
    ps = deal_positions(preset, hands, left)
    cards = np.array([[*p.hands, 0, 0, 0][:4] for p, _ in ps], dtype=np.int64).T.copy()
    leader = np.array([p.leader for p, _ in ps], dtype=np.int64)
    trick = np.array([pack_trick(p.trick) for p, _ in ps], dtype=np.int64)
    trump = np.array([p.trump for p, _ in ps], dtype=np.int64)
    side = np.array([sum(1 << s for s in p.side_seats(sd)) for p, sd in ps], dtype=np.int64)
    return cards, leader, trick, trump, side


def test_a_search_told_to_stop_stops_and_its_block_says_so() -> None:
    """A work array's stop slot, set by another thread, cuts a search short (within 65,536
    nodes); the block reports it instead of a value, and the same array solves exactly once
    the slot is cleared."""
    cards, leader, trick, trump, side = _batch("partnership", range(1), left=12)
    ra = rule_array(PRESETS["partnership"])
    out = np.full(cards.shape[1], -1, dtype=np.int64)
    tt = new_table(16)
    tt[H_STOP] = 1
    assert not solve_block(cards, leader, trick, trump, side, ra, 0, 1, tt, out)
    assert out[0] == -1 and 0 < tt[H_NODES] <= 1 << 16
    tt[H_STOP] = 0
    assert solve_block(cards, leader, trick, trump, side, ra, 0, 1, tt, out)
    h = cards[:, 0]
    fresh = new_table(16)
    assert out[0] == dd_solve(h[0], h[1], h[2], h[3], leader[0], trick[0], trump[0], ra,
                              side[0], fresh)  # fmt: skip


def test_an_interrupted_batch_stops_its_threads_within_a_slice() -> None:
    """Ctrl-C while a batch of full deals is being solved (here the progress callback, on the
    calling thread, raises it after the first deal): the batch re-raises, the deals not
    started are dropped and the ones being solved stop at their next slice, well within 2 s,
    and no thread of the batch goes on solving."""
    cards, leader, trick, trump, side = _batch("partnership", range(12), left=12)
    ra = rule_array(PRESETS["partnership"])
    solve_positions(ra, cards[:, :1], leader[:1], trump[:1], side[:1], trick[:1])  # compiled
    before = threading.active_count()
    raised: list[float] = []

    def interrupt(k: int) -> None:
        raised.append(time.monotonic())
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_positions(ra, cards, leader, trump, side, trick, chunk=1, progress=interrupt)
    assert len(raised) == 1 and time.monotonic() - raised[0] < 2.0
    assert threading.active_count() == before


def _memory(monkeypatch: pytest.MonkeyPatch, mib: int) -> None:
    """The machine seems to have ``mib`` MiB of memory (4 KiB pages)."""
    pages = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": mib * 256}
    monkeypatch.setattr(batch.os, "sysconf", lambda name: pages[name])


def test_tables_shrink_to_a_quarter_of_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # a bucket is 64 bytes: 2**21 buckets are 128 MiB, and the tables may take a quarter
    _memory(monkeypatch, 1024)  # 256 MiB for tables: two of 128 MiB, four of 64 MiB
    assert batch.fitting_bits(21, 1) == 21
    assert batch.fitting_bits(21, 2) == 21
    assert batch.fitting_bits(21, 3) == 20  # 3 x 128 MiB > 256 MiB >= 3 x 64 MiB
    assert batch.fitting_bits(21, 4) == 20
    assert batch.fitting_bits(21, 5) == 19
    assert batch.fitting_bits(18, 2) == 18  # never more than asked
    _memory(monkeypatch, 64)  # 16 MiB for tables: even one of 2**16 (4 MiB) a thread is too many
    assert batch.fitting_bits(21, 64) == batch.MIN_BITS == 16


def test_tables_keep_their_size_where_the_memory_is_not_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unknown(name: str) -> int:
        raise ValueError(f"unrecognized configuration name {name}")

    monkeypatch.setattr(batch.os, "sysconf", unknown)
    assert batch.fitting_bits(21, 1000) == 21


def test_a_batch_on_short_memory_solves_with_smaller_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tables shrink; the values stay exact (the alpha-beta oracle's)."""
    sizes: list[int] = []
    real = batch.thread_table
    monkeypatch.setattr(batch, "thread_table", lambda bits: sizes.append(bits) or real(bits))
    _memory(monkeypatch, 100)  # 25 MiB for tables: one of 2**18 buckets (16 MiB) a thread
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        cards, leader, trick, trump, side = _batch("partnership", range(3), left=4)
        ra = rule_array(PRESETS["partnership"])
        got = solve_positions(ra, cards, leader, trump, side, trick, chunk=1)
    finally:
        numba.set_num_threads(threads)
    assert set(sizes) == {18}
    for (p, side), v in zip(deal_positions("partnership", range(3), 4), got, strict=True):
        assert proven(p, p.side_seats(side), int(v)) == v
