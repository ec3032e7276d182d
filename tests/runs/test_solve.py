"""Double-dummy analysis of simulated hands: the trick phase is read back from the engine's
own trace, the bots' points agree with the engine's records, the verdict follows RULES.md 8,
and the solver bench reports what it measured."""

from __future__ import annotations

import pytest

from pinochle_sim.bench.solver_times import SolverBench, solver_times
from pinochle_sim.core.cards import decode_hand, encode_hand
from pinochle_sim.rules import PRESETS
from pinochle_sim.runs.inspect.solve import _side_points, position_after, solve_deal, trick_play
from tests.catalog import ALL_PRESETS


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_trick_play_is_the_engine_trace(preset: str) -> None:
    r = PRESETS[preset]
    for hand in range(4):
        play = trick_play(3, hand, r)
        rec = play.record
        if rec.get("conceded"):
            assert play.tricks == ()
        else:  # 12 tricks (two-hand: the play-out), 15 in three-hand
            assert len(play.tricks) == r.hand_size
        if "hands" in rec:  # the auction engine records the hands trick play starts from
            assert [decode_hand(h) for h in play.start.hands] == rec["hands"]
            assert play.start.leader == rec["bidder"]
        for t in range(0, len(play.tricks), 5):  # every trick replays legally
            p = position_after(play, t)
            assert p.tricks_left == len(play.tricks) - t
            assert p.leader == play.tricks[t][0]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_bots_points_match_the_records(preset: str) -> None:
    r = PRESETS[preset]
    for hand in range(3):
        play = trick_play(1, hand, r)
        if not play.tricks:
            continue
        rec = play.record
        if play.bidder is None:  # two-hand: the play-out tricks of each seat
            for seat in range(2):
                want = sum(
                    t["points"] for t in rec["tricks"] if t["phase"] == "playout"
                    and t["winner"] == seat
                )  # fmt: skip
                from_solver = _side_points(play, (seat,))
                assert from_solver == want
        else:
            team = play.bidder % 2 if r.partnerships else play.bidder
            seats = play.start.side_seats(play.bidder)
            want = rec["team_tricks"][team] - rec.get("discard_points", 0)
            assert _side_points(play, seats) == want


def test_verdict_follows_the_scoring_rules() -> None:
    """RULES.md 8: the bidding side makes its bid with meld + trick points >= bid; under the
    save rule a side with no trick points is set whatever its meld."""
    # deals whose full solve is quick (a three-hand deal has 15 cards a seat)
    for preset, seed, hand in [("partnership", 0, 5), ("partnership", 2, 1), ("three-hand", 0, 3)]:
        r = PRESETS[preset]
        res, extra = solve_deal(seed, hand, r)
        assert res.exact and res.side_seats == trick_play(seed, hand, r).start.side_seats(
            extra["bidder"]
        )
        total = extra["meld"] + res.value + extra["discard_points"]
        made = total >= extra["bid"] and not (r.save_rule and res.value == 0)
        assert extra["dd_made"] == made
        assert res.points_left == r.total_trick_points - extra["discard_points"]


def test_two_hand_solves_the_play_out_for_its_leader() -> None:
    res, extra = solve_deal(0, 1, "two-hand")
    play = trick_play(0, 1, "two-hand")
    assert extra["bid"] is None and extra["dd_made"] is None
    assert res.side_seats == (play.start.leader,) and play.start.tricks_left == 12
    assert res.points_left == sum(
        t["points"] for t in play.record["tricks"] if t["phase"] == "playout"
    )
    assert encode_hand(play.record["dealt"][0]) != play.start.hands[0]  # after the stock


def test_solver_bench() -> None:
    b = solver_times("two-hand", deals=4)
    assert b.deals == 4 and b.cards == 12 and len(b.seconds) == len(b.nodes) == 4
    assert b.stat(1.0) == max(b.seconds) and b.stat(0.5, "nodes") in b.nodes
    assert "solver, two-hand" in b.line() and "median" in b.line()
    q = SolverBench("x", 20, 1, tuple(float(i) for i in range(20)), tuple(range(20)))
    assert q.stat(0.5) == 9.0 and q.stat(0.95) == 18.0 and q.stat(1.0) == 19.0
