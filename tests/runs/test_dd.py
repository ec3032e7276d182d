"""Double-dummy columns (``run --dd``, :mod:`pinochle_sim.runs.dd`): the start-of-play hands
rebuilt from the records are the engine's, the values agree with the Python solver on hands
of each preset, ``dd_made`` follows RULES.md section 8 on worked deals, and ``--dd`` runs keep
thread invariance, resume and provenance (and runs without it stay as they were).

Solving is slow (seconds a partnership deal), so the checks solve few deals: two-hand
play-outs (fast), and positions built by hand whose value needs no search to know."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from pinochle_sim.core.cards import encode_hand, parse_cards
from pinochle_sim.rules import PRESETS
from pinochle_sim.runs.inspect.solve import _side_points, solve_deal, trick_play
from pinochle_sim.runs.observer import Observer
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.dd import dd_block, dd_part, start_hands
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array
from pinochle_sim.runs.simulate.pool import threads
from pinochle_sim.runs.store.files import META_KEY, RunFolderError
from pinochle_sim.runs.store.read import read_columns
from pinochle_sim.runs.store.schema import dd_columns, fields_for
from pinochle_sim.solver import solve


def _suits(*suits: str) -> str:
    """Both copies of every card of the suits, as card text."""
    return " ".join(f"{r}{s} {r}{s}" for s in suits for r in ("A", "10", "K", "Q", "J", "9"))


# --------------------------------------------------------------------------- start of play


@pytest.mark.parametrize("preset", ["partnership", "joedog", "three-hand"])
def test_start_hands_from_the_records_are_the_engines(preset: str) -> None:
    """The pass (partner gives, then receives) and the widow/discard, undone from the record
    columns alone, give the hands the engine's trace starts trick play from."""
    inputs = engine_inputs(preset)
    rec = play_hands_array(inputs, 5, 0, 60)
    hands = start_hands(inputs, rec)
    for h in range(60):
        start = trick_play(5, h, preset).start
        assert tuple(int(x) for x in hands[:, h]) == start.hands, h


# --------------------------------------------------------------------------- values


def test_two_hand_dd_points_are_the_solver_value_of_the_play_out() -> None:
    """dd_points_k = seat k's stock-phase points as played + the solver's value of the play-out
    for seat k; the two seats' sum is all 250 trick points."""
    n = 12
    cols = dd_part(2, 0, n, "two-hand")
    rec = play_hands_array(engine_inputs("two-hand"), 2, 0, n)
    names = engine_inputs("two-hand").layout.index
    for h in range(n):
        play = trick_play(2, h, "two-hand")
        for seat in range(2):
            stock = int(rec[names[f"tricks_raw_{seat}"], h]) - _side_points(play, (seat,))
            value = solve(play.start, side=seat).value
            assert cols[f"dd_points_{seat}"][h] == stock + value
        assert cols["dd_points_0"][h] + cols["dd_points_1"][h] == 250


def test_auction_dd_points_agree_with_solve_deal() -> None:
    """Partnership and three-hand hands whose solves are quick (seed 0 hands 0 and 3)."""
    for preset, hand in (("partnership", 0), ("three-hand", 3)):
        cols = dd_part(0, hand, 1, preset)
        result, extra = solve_deal(0, hand, preset)
        assert cols["dd_points"][0] == result.value + extra["discard_points"], preset
        assert bool(cols["dd_made"][0]) == extra["dd_made"], preset


def _worked(preset: str, hands: list[str], bid: int, meld: int) -> tuple[int, int]:
    """(dd_points, dd_made) of a partnership record built by hand: seat 0 bids ``bid`` in
    spades with side meld ``meld``, nothing passed, seat 0 to lead."""
    inputs = engine_inputs(preset)
    ix = inputs.layout.index
    rec = np.zeros((inputs.layout.ncol, 1), dtype=np.int64)
    rec[ix["bidder"], 0] = 0
    rec[ix["trump"], 0] = 0
    rec[ix["bid"], 0] = bid
    rec[ix["team_meld_0"], 0] = meld
    for p, text in enumerate(hands):
        rec[ix[f"dealt_{p}"], 0] = encode_hand(parse_cards(text))
    points, made = dd_block(inputs, 0, 0, rec)[:, 0]
    return int(points), int(made)


def test_dd_made_follows_the_scoring_rules_on_worked_deals() -> None:
    """RULES.md 8. Deal 1: seats 0 and 2 hold every spade and heart (spades trump), so the
    bidding side wins every trick whatever anyone plays: 24 counters x 10 + 10 for the last =
    250. With meld 100 a bid of 350 is made, 360 is set. Deal 2: seats 0 and 2 hold only
    diamonds and clubs; the opponents trump every lead and win every trick: 0 points. Under the
    save rule (partnership) meld 300 against a bid of 250 is set; without it
    (partnership-classic) it is made."""
    mine = [_suits("S"), _suits("D"), _suits("H"), _suits("C")]
    assert _worked("partnership", mine, 350, 100) == (250, 1)
    assert _worked("partnership", mine, 360, 100) == (250, 0)
    theirs = [_suits("D"), _suits("S"), _suits("C"), _suits("H")]
    assert _worked("partnership", theirs, 250, 300) == (0, 0)
    assert _worked("partnership-classic", theirs, 250, 300) == (0, 1)


def test_dd_columns_do_not_depend_on_threads() -> None:
    inputs = engine_inputs("two-hand")
    rec = play_hands_array(inputs, 4, 10, 140)
    with threads(1):
        one = dd_block(inputs, 4, 10, rec)
    with threads(2):
        two = dd_block(inputs, 4, 10, rec)
    assert np.array_equal(one, two)


def test_a_replay_that_differs_from_the_records_is_refused() -> None:
    inputs = engine_inputs("two-hand")
    rec = play_hands_array(inputs, 4, 0, 3)
    with pytest.raises(RuntimeError, match="differs from the records"):
        dd_block(inputs, 5, 0, rec)  # another seed's records


# --------------------------------------------------------------------------- runs


def test_dd_run_resume_threads_and_provenance(tmp_path) -> None:
    out = tmp_path / "dd"
    got = []

    class Seen(Observer):
        def update(self, n: int) -> None:
            got.append(n)

    run(150, seed=3, rules="two-hand", out=str(out), dd=True, part_size=50, threads=1,
        observer=Seen())  # fmt: skip
    assert sum(got) == 150
    table = pq.read_table(out)
    assert table.column_names[-2:] == list(dd_columns(PRESETS["two-hand"]))
    meta = json.loads(pq.read_schema(next(out.glob("part-*.parquet"))).metadata[META_KEY])
    assert meta["dd"] is True
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["settings"]["dd"] is True
    # an interrupted run: drop a part, resume on 2 threads; the same records come back
    parts = sorted(out.glob("part-*.parquet"))
    parts[1].unlink()
    run(150, seed=3, rules="two-hand", out=str(out), dd=True, part_size=50, threads=2,
        resume=True)  # fmt: skip
    again = read_columns(out, list(table.column_names))
    for name in table.column_names:
        assert np.array_equal(again.column(name).to_numpy(), table.column(name).to_numpy())
    with pytest.raises(RunFolderError, match="differs in: dd"):
        run(150, seed=3, rules="two-hand", out=str(out), part_size=50, resume=True)


def test_resume_with_dd_of_a_run_without_is_refused(tmp_path) -> None:
    out = tmp_path / "plain"
    run(100, seed=3, rules="two-hand", out=str(out), part_size=50)
    manifest = json.loads((out / "_manifest.json").read_text())
    assert "dd" not in manifest["settings"]  # runs without --dd are as before
    assert "dd_points_0" not in pq.read_table(out).column_names
    with pytest.raises(RunFolderError, match="differs in: dd"):
        run(100, seed=3, rules="two-hand", out=str(out), part_size=50, resume=True, dd=True)


def test_dd_refuses_games_and_documents_its_columns() -> None:
    with pytest.raises(ValueError, match="games run"):
        run(10, rules="two-hand", games=True, dd=True, out="unused")
    for preset in ("partnership", "three-hand", "two-hand"):
        fields = fields_for(PRESETS[preset], dd=True)
        names = [n for n, _, _ in fields]
        assert names[-2:] == list(dd_columns(PRESETS[preset]))
        assert all("--dd" in doc for n, _, doc in fields if n.startswith("dd_"))
