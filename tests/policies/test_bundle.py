"""The policy bundle: a run's kernels are typed by the policies its seats use, so only those
compile; the dispatch picks each seat's own policy."""

from __future__ import annotations

import dataclasses

import numba
import numpy as np
import pytest

from pinochle_sim.policies import KINDS, PolicySet, seat_policy_array
from pinochle_sim.policies.bundle import PolicyBundle, PolicyBundleType, policy_gate
from pinochle_sim.policies.dispatch import play_card, reads_caps
from pinochle_sim.runs.simulate.hands import engine_inputs, play_hands_array


def test_bundle_lists_the_policies_of_every_seat_once() -> None:
    pp = seat_policy_array([PolicySet(play="counting"), PolicySet(), PolicySet(play="counting")])
    b = PolicyBundle.from_array(pp)
    names = b.names()
    assert names["play"] == ["greedy", "counting"]  # by id, each once
    assert all(len(names[k]) == 1 for k in KINDS if k != "play")
    assert b == PolicyBundle.from_array(
        seat_policy_array([PolicySet(), PolicySet(play="counting")])
    )


def test_bundle_type_is_keyed_by_its_ids_only() -> None:
    a = numba.typeof(PolicyBundle.from_array(seat_policy_array(PolicySet())))
    b = numba.typeof(PolicyBundle.from_array(seat_policy_array(PolicySet(play="counting"))))
    assert isinstance(a, PolicyBundleType) and a != b
    assert a == numba.typeof(PolicyBundle.from_array(seat_policy_array(PolicySet())))
    assert "play=0" in a.name and "play=2" in b.name


def test_hooks_are_for_kernels_only() -> None:
    with pytest.raises(TypeError, match="jitted code only"):
        play_card(None, 0, None, (), None, None)
    with pytest.raises(TypeError):
        reads_caps(None)


def test_inputs_always_carry_the_bundle_of_their_policy_array() -> None:
    """A kernel must never meet a seat whose policy its bundle lacks (the dispatch's last
    branch is unconditional), so the bundle is derived from ``pp``, also after a reseating."""
    inputs = engine_inputs("partnership")
    mixed = dataclasses.replace(
        inputs, pp=seat_policy_array([PolicySet(play="random"), PolicySet()])
    )
    assert mixed.bundle.names()["play"] == ["greedy", "random"]
    assert inputs.bundle.names()["play"] == ["greedy"]


def test_each_seat_plays_its_own_policy() -> None:
    """Random play on one side changes the result against greedy everywhere; seating the same
    policy on all seats through a mixed bundle gives the plain run's records."""
    plain = engine_inputs("partnership")
    same = engine_inputs("partnership", PolicySet())
    assert np.array_equal(play_hands_array(plain, 3, 0, 500), play_hands_array(same, 3, 0, 500))
    mixed = dataclasses.replace(
        plain, pp=seat_policy_array([PolicySet(), PolicySet(play="random")])
    )
    out = play_hands_array(mixed, 3, 0, 2000)
    base = play_hands_array(plain, 3, 0, 2000)
    made = plain.layout.index["made"]
    bidder = plain.layout.index["bidder"]
    even = base[bidder] % 2 == 0
    # the greedy side (seats 0, 2) makes its bids more often when the other side plays randomly
    assert out[made][even].mean() > base[made][even].mean()


@numba.njit  # not cached: the test reads which kernels were compiled
def _gate_on(x: int) -> int:
    return x + 1


@numba.njit  # not cached: the test reads which kernels were compiled
def _gate_off(x: int) -> int:
    return x - 1


@numba.njit  # not cached: the test reads which kernels were compiled
def _gate_only(x: int) -> int:
    return 2 * x


@policy_gate("play", "reads_table", _gate_on, otherwise=_gate_off)
def _gated(bundle: PolicyBundle, x: int) -> int:
    raise TypeError("a policy gate is called from jitted code only")


@policy_gate("play", "reads_table", _gate_only)
def _gated_or_nothing(bundle: PolicyBundle, x: int) -> None:
    raise TypeError("a policy gate is called from jitted code only")


@numba.njit  # not cached: the test reads which kernels were compiled
def _call_gates(bundle: PolicyBundle, x: int) -> tuple[int, bool]:
    return _gated(bundle, x), _gated_or_nothing(bundle, x) is None


def test_a_gate_compiles_its_kernel_only_for_bundles_with_the_flag() -> None:
    """``pimc`` reads the table (registry flag ``reads_table``), ``greedy`` does not: a gated
    call runs the kernel for a bundle with pimc, the fallback (or nothing) otherwise, and the
    kernel is never compiled for a bundle without the flag (what keeps the sampling policy's
    table code out of the default engines' first compile)."""
    greedy = PolicyBundle.from_array(seat_policy_array(PolicySet()))
    assert _call_gates(greedy, 10) == (9, True)
    assert not _gate_on.overloads and not _gate_only.overloads
    pimc = PolicyBundle.from_array(seat_policy_array(PolicySet(play="pimc")))
    assert _call_gates(pimc, 10) == (11, False)
    assert _gate_on.overloads and _gate_only.overloads
