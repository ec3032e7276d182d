"""Players by seat and by role: a run where the bidding side plays one policy set and the
defenders another is checked hand by hand against plays with the same sets fixed to seats (the
duplicate matches' seating, which knows nothing of roles); runs with one set everywhere keep
their records and settings; provenance names the seating and the command that remakes it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pinochle_sim.policies import PolicySet, seat_policy_array
from pinochle_sim.policies.seating import Seating, difference, from_resolved, over
from pinochle_sim.runs.runner import run
from pinochle_sim.runs.simulate.hands import play_hands_array
from pinochle_sim.runs.spec import RunSpec
from pinochle_sim.runs.store.files import read_manifest
from pinochle_sim.runs.store.provenance import provenance_lines, run_command
from pinochle_sim.runs.store.read import read_provenance

BASE = PolicySet()
COUNTING = PolicySet(play="counting")
N = 3_000


def by_seats(spec: RunSpec, sets: list[PolicySet]) -> np.ndarray:
    inputs = dataclasses.replace(spec.inputs, pp=seat_policy_array(sets))
    return play_hands_array(inputs, spec.seed, 0, N)


@pytest.mark.parametrize("rules", ["partnership", "three-hand"])
def test_roles_equal_seats_fixed_to_each_bidders_side(rules):
    """Every hand of the role run equals the hand played with the bidding side's set at the
    seats of that hand's bidder (and partner) and the defenders' set elsewhere."""
    spec = RunSpec(N, seed=11, rules=rules, seating=Seating(bidding_side=COUNTING))
    got = play_hands_array(spec.inputs, spec.seed, 0, N)
    players = spec.rules.players
    partners = spec.rules.partnerships
    bidder = got[spec.inputs.layout.index["bidder"]]
    side = bidder % 2 if partners else bidder
    for s in range(2 if partners else players):
        seats = [COUNTING if (p % 2 if partners else p) == s else BASE for p in range(4)]
        want = by_seats(spec, seats)
        rows = side == s
        assert rows.any()
        np.testing.assert_array_equal(got[:, rows], want[:, rows])
    plain = play_hands_array(RunSpec(N, seed=11, rules=rules).inputs, 11, 0, N)
    assert not np.array_equal(plain, got)  # the roles changed something


def test_defenders_only_and_both_roles():
    rnd = PolicySet.from_options(["play.draw_trump=0"])  # greedy, another parameter
    spec = RunSpec(N, seed=4, seating=Seating(bidding_side=COUNTING, defenders=rnd))
    got = play_hands_array(spec.inputs, 4, 0, N)
    side = got[spec.inputs.layout.index["bidder"]] % 2
    want0 = by_seats(spec, [COUNTING, rnd, COUNTING, rnd])
    want1 = by_seats(spec, [rnd, COUNTING, rnd, COUNTING])
    np.testing.assert_array_equal(got[:, side == 0], want0[:, side == 0])
    np.testing.assert_array_equal(got[:, side == 1], want1[:, side == 1])


def test_named_seats_are_the_seat_rows():
    spec = RunSpec(100, seating=Seating(seats={1: COUNTING}))
    np.testing.assert_array_equal(spec.inputs.pp, seat_policy_array([BASE, COUNTING]))


def test_one_set_everywhere_is_unchanged():
    a, b = RunSpec(1000, seed=2), RunSpec(1000, seed=2, seating=Seating())
    assert b.seating is None and a.settings() == b.settings()
    assert a.inputs.pp.shape == (4, a.inputs.pp.shape[1])
    np.testing.assert_array_equal(a.inputs.pp, b.inputs.pp)


def test_provenance_manifest_and_the_command_that_remakes_the_run(tmp_path):
    seating = Seating.parse(BASE, bidding_side="play=counting", defenders="play.draw_trump=0")
    spec = RunSpec(2000, seed=5, seating=seating)
    run(spec, tmp_path / "r")
    settings = read_manifest(tmp_path / "r")["settings"]
    assert settings["seating"]["bidding side"]["play"]["name"] == "counting"
    cmd = run_command(settings, "R")
    assert "--bidding-side play=counting --defenders play.draw_trump=0" in cmd
    meta = read_provenance(tmp_path / "r")
    line = "policies by seat or role: bidding side: play=counting; defenders: play.draw_trump=0"
    assert line in provenance_lines(meta)
    other = RunSpec(2000, seed=5, seating=Seating.parse(BASE, bidding_side="play.smear=0"))
    with pytest.raises(ValueError, match=r"settings|differ|resume"):
        run(other, tmp_path / "r", resume=True)


def test_items_go_over_the_run_policies():
    base = PolicySet.from_options(["bid.margin=20", "play.draw_trump=0"])
    p = over(base, "play=counting")
    assert p.resolved()["bid"]["params"]["margin"] == 20  # kept
    assert p.name("play") == "counting"  # its own defaults: greedy's parameter is gone
    assert difference(p, base) == "play=counting"
    assert from_resolved(p.resolved()) == PolicySet.from_options(
        {f"{k}.{n}": v for k, s in p.resolved().items() for n, v in s["params"].items()},
        **{k: s["name"] for k, s in p.resolved().items()},
    )


@pytest.mark.parametrize("kwargs,match", [
    ({"rules": "two-hand", "seating": Seating(defenders=COUNTING)}, "no auction"),
    ({"seating": Seating(bidding_side=PolicySet(bid="calibrated"))}, "before anyone knows"),
    ({"seating": Seating(seats={4: COUNTING})}, "not seat 4"),
    ({"rules": "three-hand", "seating": Seating(seats={3: COUNTING})}, "not seat 3"),
    ({"seating": "play=counting"}, "must be a Seating"),
])  # fmt: skip
def test_what_cannot_be_played_is_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        RunSpec(100, **kwargs)


def test_roles_and_seats_do_not_mix():
    with pytest.raises(ValueError, match="not both"):
        Seating(seats={0: COUNTING}, defenders=BASE)
    with pytest.raises(ValueError, match="SEAT=ITEMS"):
        Seating.parse(BASE, seats=["x=play=counting"])


def test_a_role_with_the_run_policies_is_named_by_them():
    """--defenders play=greedy on a greedy run: the seating says play=greedy, never 'default'
    (which would mean the package's defaults, not the run's)."""
    base = PolicySet.from_options(["bid.margin=20"])
    seating = Seating.parse(base, bidding_side="play=counting", defenders="play=greedy")
    kinds = ("bid", "pass", "play", "concede")
    settings = {"policies": base.resolved(kinds), "seating": seating.resolved(kinds)}
    assert "--defenders play=greedy" in run_command(
        {**settings, "unit": "hands", "hands": 10, "seed": 0, "rules_name": "partnership"}, "R"
    )
